"""One file in the user's cache folder, read and written safely: what every cache of raiders
shares (formats/grammarcache.py: the parser's tables; formats/libcache.py: checked card libraries).

The folder is the user's own (RAIDERS_CACHE_DIR, else $XDG_CACHE_HOME/raiders, else
~/.cache/raiders; never the installed package, which may be read only); it must belong to the
user and be writable by nobody else, and so must each file. A file's first line holds its
format, the key it answers to and a SHA-256 of the data after the line, all checked before the
data is handed back; a link is never followed. A file is written whole or not at all (a
temporary file renamed over it). Any doubt or error reads as "no cache" and a failed write is
silent: a cache never stops a command. RAIDERS_NO_CACHE=1 (any value but 0, false or no)
turns every cache off.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Optional


def cache_dir() -> Optional[Path]:
    """The user's cache folder for raiders (None: caching is off). A relative folder turns
    caching off, as the XDG specification says of a relative XDG_CACHE_HOME: it would name
    another folder from every working folder (a mod's, say)."""
    if os.environ.get("RAIDERS_NO_CACHE", "").strip().lower() not in ("", "0", "false", "no"):
        return None
    base = os.environ.get("RAIDERS_CACHE_DIR")
    if not base:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        base = os.path.join(home, "raiders")
    return Path(base) if os.path.isabs(base) else None


def private(st: os.stat_result) -> bool:
    """Ours, and writable by nobody else."""
    owner_ok = not hasattr(os, "geteuid") or st.st_uid == os.geteuid()
    return owner_ok and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(path: Path, fmt: bytes, key: str, max_bytes: int) -> Optional[bytes]:
    """The data of a cache file written by `write` with this format and key, or None. The
    folder must be private too (anyone who may write to it may put a file there); the file
    is opened without waiting (a named pipe planted in its place would never answer) and
    must be a plain file."""
    try:
        if not private(os.stat(path.parent)):
            return None
    except OSError:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or not private(st) or st.st_size > max_bytes:
                return None
            blob = fh.read(max_bytes + 1)
            head, _, payload = blob.partition(b"\n")
            fields = head.split(b" ")
            if len(fields) != 3 or fields[0] != fmt or fields[1] != key.encode():
                return None
            if hashlib.sha256(payload).hexdigest().encode() != fields[2]:
                return None  # cut short or changed since it was written
            _used(fh.fileno())
    except OSError:
        return None
    return payload


def _used(fd: int) -> None:
    """A file read is dated now: `prune` keeps the files used last, not those written last
    (the built-in cards' entries, read by every run, outlive a mod's many edits)."""
    try:
        os.utime(fd)
    except OSError:
        pass  # a folder we may not write to: pruning is then by writing alone


def write(folder: Path, path: Path, fmt: bytes, key: str, payload: bytes) -> bool:
    """Write a cache file (whole or not at all); False when it could not be written."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not private(os.stat(folder)):
            return False  # a folder others may write to is no place for it
        digest = hashlib.sha256(payload).hexdigest()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(b" ".join([fmt, key.encode(), digest.encode()]) + b"\n" + payload)
            os.replace(tmp, path)  # whole or not at all, for a reader at the same moment
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError):
        return False  # no cache then: the next run does the work again
    return True


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Remove the files matching `pattern` beyond the `keep` used last (a cache that one file
    per request would otherwise fill without end: temporary folders, sweeps)."""
    try:
        found = [(p.stat().st_mtime_ns, p) for p in folder.glob(pattern)]
    except OSError:
        return
    for _, p in sorted(found, key=lambda f: f[0], reverse=True)[keep:]:
        try:
            p.unlink()
        except OSError:
            pass
