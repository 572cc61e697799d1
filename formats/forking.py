"""Work shared out among forked worker processes (`validate` of many files, `simulate --jobs`,
`replay --check` of many logs): what every such pool does around the fork."""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def shared_heap() -> Iterator[None]:
    """While the workers live, what the parent holds (the rules, the modules) is out of the
    garbage collector's sight: a forked worker shares the parent's memory until it writes to
    it, and a collection in the worker would write to every object it walks, copying the
    whole heap page by page (Python's `gc.freeze` documentation advises this before a fork).
    The saving grows with what the parent holds: a few percent of CPU time for `simulate`."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
