"""The card language's LALR parser, built once and kept in the user's cache folder.

Building the parser from `grammar/raiders.lark` (lark's LALR analysis) is most of the start-up
of `raiders validate`. Lark can serialize a built parser to plain data (the tables lark's own
standalone generator writes); we keep that data, marshalled, in a file named by a hash of
everything it depends on: the grammar text, the options, lark's version and Python's. A changed
grammar, lark or Python reads another file, so a stale table is never used.

Never trusted blindly (formats/cachefile.py: the user's own private folder, a header with the key
and a SHA-256 of the data checked before it is read, no links). marshal (not pickle) builds
plain values and runs no code. Any doubt or error: the parser is built from the grammar as
before. RAIDERS_NO_CACHE=1 turns the cache off.
"""
from __future__ import annotations

import hashlib
import marshal
import sys
from pathlib import Path
from typing import Any, Optional

from . import cachefile
from .cachefile import cache_dir

FORMAT = b"raiders-grammar-cache/1"
MAX_BYTES = 20_000_000  # a parser's tables are about 0.2 MB


def _key(grammar: str, options: dict[str, Any]) -> str:
    import lark

    text = "\0".join([grammar, repr(sorted(options.items())), lark.__version__,
                      sys.version, str(marshal.version), FORMAT.decode()])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(path: Path, key: str) -> Optional[tuple[Any, Any]]:
    payload = cachefile.read(path, FORMAT, key, MAX_BYTES)
    if payload is None:
        return None
    try:
        data, memo = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return data, memo


def _write(folder: Path, path: Path, key: str, data: Any, memo: Any) -> None:
    try:
        payload = marshal.dumps((data, memo))
    except ValueError:
        return  # no cache then: the next run builds the parser again
    cachefile.write(folder, path, FORMAT, key, payload)


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
