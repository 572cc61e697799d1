from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def root() -> Path:
    return ROOT

# The parser raises the recursion limit on first use (for deeply nested input); raise it
# before any test runs so hypothesis does not see it change under its feet.
import sys  # noqa: E402

from raiders.dsl.parser import RECURSION_LIMIT  # noqa: E402

sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
