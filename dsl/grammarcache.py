"""The card language's LALR parser, built once and kept in the user's cache folder.

Building the parser from `grammar/raiders.lark` (lark's LALR analysis) is most of the start-up
of `raiders validate`. Lark can serialize a built parser to plain data (the tables lark's own
standalone generator writes); we keep that data, marshalled, in a file named by a hash of
everything it depends on: the grammar text, the options, lark's version and Python's. A changed
grammar, lark or Python reads another file, so a stale table is never used.

Never trusted blindly: the file lives in the user's own cache folder (RAIDERS_CACHE_DIR, else
$XDG_CACHE_HOME/raiders, else ~/.cache/raiders; never the installed package, which may be read
only), which must belong to the user and be writable by nobody else, and so must the file; its
first line holds the hash it answers to and a SHA-256 of the data, both checked before the data
is read. marshal (not pickle) builds plain values and runs no code. Any doubt or error: the
parser is built from the grammar as before. RAIDERS_NO_CACHE=1 turns the cache off.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

FORMAT = b"raiders-grammar-cache/1"
MAX_BYTES = 20_000_000  # a parser's tables are about 0.2 MB


def cache_dir() -> Optional[Path]:
    """The user's cache folder for raiders (None: caching is off)."""
    if os.environ.get("RAIDERS_NO_CACHE"):
        return None
    explicit = os.environ.get("RAIDERS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    return Path(base) / "raiders"


def _private(st: os.stat_result) -> bool:
    """Ours, and writable by nobody else."""
    owner_ok = not hasattr(os, "geteuid") or st.st_uid == os.geteuid()
    return owner_ok and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _key(grammar: str, options: dict[str, Any]) -> str:
    import lark

    text = "\0".join([grammar, repr(sorted(options.items())), lark.__version__,
                      sys.version, str(marshal.version), FORMAT.decode()])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(path: Path, key: str) -> Optional[tuple[Any, Any]]:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > MAX_BYTES:
            return None
        blob = fh.read(MAX_BYTES + 1)
    head, _, payload = blob.partition(b"\n")
    fields = head.split(b" ")
    if len(fields) != 3 or fields[0] != FORMAT or fields[1] != key.encode():
        return None
    if hashlib.sha256(payload).hexdigest().encode() != fields[2]:
        return None  # cut short or changed since it was written
    try:
        data, memo = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return data, memo


def _write(folder: Path, path: Path, key: str, data: Any, memo: Any) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(os.stat(folder)):
            return  # a folder others may write to is no place for it
        payload = marshal.dumps((data, memo))
        digest = hashlib.sha256(payload).hexdigest()
        fd, tmp = tempfile.mkstemp(prefix=".grammar-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(b" ".join([FORMAT, key.encode(), digest.encode()]) + b"\n" + payload)
            os.replace(tmp, path)  # whole or not at all, for a reader at the same moment
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError):
        pass  # no cache then: the next run builds the parser again


def lalr_parser(grammar: str, **options: Any):
    """Lark(grammar, parser="lalr", **options), from the cache when it holds this very one."""
    from lark import Lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    options = {"parser": "lalr", **options}
    folder = cache_dir()
    if folder is None:
        return Lark(grammar, **options)
    key = _key(grammar, options)
    path = folder / f"grammar-{key[:40]}.bin"
    found = _read(path, key)
    if found is not None:
        try:
            return Lark._load_from_dict(*found)
        except Exception:  # noqa: BLE001 - whatever lark makes of odd data: build it anew
            pass
    parser = Lark(grammar, **options)
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
    except Exception:  # noqa: BLE001 - a lark that cannot serialize: no cache
        return parser
    _write(folder, path, key, data, memo)
    return parser
