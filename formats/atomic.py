"""Writing a file whole or not at all: every file the tool writes (logs, formatted cards,
pages, scaffolds, a simulation's logs, printed cards; text as UTF-8, bytes as they are) goes
through `write_new`, so a reader never sees half of one, even if we are killed mid-write;
`write_atomic` is it for a file rewritten in place.
(The cache folder's files add a header and private permissions: formats/cachefile.py.)"""
from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


def write_atomic(path: Union[str, Path], text: Union[str, bytes]) -> None:
    """A file rewritten in place (or made, with its folder): a link is written through, and
    an existing file keeps its permissions; a new file gets the ordinary ones. The writing is
    `write_new`'s (overwriting)."""
    real = os.path.realpath(path)
    os.makedirs(os.path.dirname(real) or ".", exist_ok=True)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        mode = None
    else:
        mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else None
    write_new(real, text, overwrite=True, mode=mode)


# ---- writing without overwriting ---------------------------------------------------------------

# A temporary file is named after the file it becomes and the process writing it, so that
# one left behind by a killed process can be told from one still being written.
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")


class FileExists(FileExistsError):
    """The file to write exists already and overwriting was not asked for (--force)."""


def write_new(path: PathLike, text: Union[str, bytes], overwrite: bool = False,
              mode: Optional[int] = None) -> None:
    """Write a file whole or not at all (a temporary file beside it, flushed to disk, renamed
    into place), and never over an existing file unless `overwrite`: the file is linked into
    place, which fails if the name is taken, even by another writer a moment earlier (two runs
    writing into one folder: the second is refused, not the first lost). A link at `path` is
    replaced itself; `mode`: the file's permissions (default: the ordinary ones, 0666 less the
    umask). Raises FileExists, or OSError. The one writer: `write_atomic` is it too."""
    target = os.fspath(path)
    folder = os.path.dirname(target) or "."
    if not overwrite and os.path.lexists(target):
        raise FileExists(errno.EEXIST, "the file exists (--force overwrites it)", target)
    refuse_special(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.{os.getpid()}.",
                               suffix=".tmp", dir=folder)
    try:
        with _opened(fd, text) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)  # mkstemp makes it private; a log is an ordinary file
        if overwrite:
            os.replace(tmp, target)
            return
        try:
            os.link(tmp, target)  # atomic, and refuses a taken name
        except FileExistsError:
            raise FileExists(errno.EEXIST, "the file exists (--force overwrites it)",
                             target) from None
        except OSError as err:
            if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            # no hard links on this file system: claim the name, then rename over the claim
            try:
                os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
            except FileExistsError:
                raise FileExists(errno.EEXIST, "the file exists (--force overwrites it)",
                                 target) from None
            os.replace(tmp, target)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def refuse_special(target: PathLike) -> None:
    """A name taken by something other than a plain file (a folder, a named pipe, a device
    such as /dev/full) is never replaced, even when overwriting is allowed: renaming a log
    over it would destroy it. A link is replaced itself, not what it points to."""
    try:
        mode = os.lstat(target).st_mode
    except OSError:
        return  # nothing there (or nothing we may look at: the write will say so)
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OSError(errno.EEXIST, "it is not an ordinary file: not replaced",
                      os.fspath(target))


def clean_stale_temps(folder: PathLike) -> int:
    """Remove the temporary files that killed writers left in a folder (write_new's, whose
    process is gone); returns how many. Those of running processes are left alone."""
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        m = _TEMP.match(name)
        if m is None or _alive(int(m["pid"])):
            continue
        try:
            os.unlink(os.path.join(folder, name))
            removed += 1
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process (or a name we did not make): leave it
    return True


def _opened(fd: int, data: Union[str, bytes]):
    """The temporary file, for text (UTF-8, newlines as written) or bytes (a printed PDF)."""
    if isinstance(data, bytes):
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")
