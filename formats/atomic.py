"""Writing a file whole or not at all: every file the tool writes (logs, formatted cards,
pages, scaffolds) goes through here, so a reader never sees half of one, even if we are
killed mid-write."""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import Union


def write_atomic(path: Union[str, Path], text: Union[str, bytes]) -> None:
    """A temporary file beside the target, flushed to disk, then renamed over it (text is
    written as UTF-8, bytes as they are: a printed PDF). An existing
    file keeps its permissions and a link is written through; a new file gets the ordinary
    permissions (0666 less the umask; mkstemp would make it private)."""
    real = Path(os.path.realpath(path))
    real.parent.mkdir(parents=True, exist_ok=True)
    if real.exists() and not real.is_file():  # a folder, a named pipe, a device: kept
        raise OSError(errno.EEXIST, "it is not an ordinary file: not replaced", str(path))
    if real.exists():
        mode = stat.S_IMODE(real.stat().st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    try:
        with _opened(fd, text) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _opened(fd: int, data: Union[str, bytes]):
    if isinstance(data, bytes):
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")
