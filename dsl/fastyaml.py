"""YAML read fast: libyaml's C parser (PyYAML's `yaml._yaml.CParser`), when it is installed.

The positioned reader (yamlsrc.py) composes every document with ruamel's pure-Python composer:
about 40 ms for one game log, most of `replay --check`. Here libyaml parses the text into
events and we build the same maps and sequences, with the line and column of every key and
item (ruamel's LineCol, taken from libyaml's marks), as dict and list subclasses (Map, Seq),
so every reader and every diagnostic after it works as before.

The meaning stays ruamel's YAML 1.2 (libyaml's own resolver is YAML 1.1: `yes`, `on`, `010`
differ), and this path only takes what it is sure of: plain words, whole numbers written
plainly, `true`/`false`/`null`/`~`, quoted and block text. Anything else -- a float, `1e3`,
`0o17`, a timestamp, a tag, an anchor or alias, a duplicate key, a directive, deep nesting,
a tab or an unusual line break, a syntax error, a number too large -- makes `load` answer
None, and the caller reads the text with the positioned reader, which gives today's value or
today's diagnostic (E501, E507, E301, ...) with its line and column.

PyYAML is optional (the extra `fast`): without it, or with RAIDERS_PURE_YAML=1 in the
environment, `load` always answers None.
"""
from __future__ import annotations

import os
import re
from typing import Any, Optional

from ruamel.yaml.comments import LineCol

_LIBYAML: Any = False  # (CParser, events) once looked for; None: not installed

MAX_DEPTH = 40  # deeper nesting is left to the positioned reader (it has its own limit)
MAX_INT = 2 ** 63 - 1  # a bigger number is left to the positioned reader (E301 there)

# The characters this path reads; anything else (tab, CR, NEL, LS, PS, BOM, controls) goes to
# the positioned reader, so that no difference between the two readers' scanners can matter.
_UNUSUAL = re.compile("[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_WHOLE = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")  # a whole number written plainly
# (an empty value is null too, but where ruamel places it differs: left to it)
_WORDS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
          "FALSE": False, "null": None, "Null": None, "NULL": None, "~": None}
_DOTTED = re.compile(r"\.(?:\Z|[^0-9_])")  # `.` then no digit: text unless `.inf`, `.nan`
_DOT_WORDS = {".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"}
# A plain scalar starting with one of these may be a number, a timestamp, `.inf`, `<<` or `=`
# in YAML 1.2; we read only `_WHOLE` numbers among them.
_SPECIAL_START = frozenset("-+0123456789.~<=")


class Map(dict):
    """A map read here: a plain dict (its look-ups cost what a dict's do, unlike ruamel's
    CommentedMap) with the same positions, `lc`, as the positioned reader gives."""

    __slots__ = ("lc",)


class Seq(list):
    """A sequence read here: a plain list with positions (`lc`)."""

    __slots__ = ("lc",)


class _NotSure(Exception):
    """Something this path leaves to the positioned reader."""


def _libyaml() -> Any:
    """PyYAML's libyaml parser and its event classes, imported when first needed (a command
    that reads no YAML does not pay for the import), or None."""
    global _LIBYAML
    if _LIBYAML is False:
        try:  # PyYAML built against libyaml; the pure-Python PyYAML is no faster than ruamel
            from yaml import events
            from yaml._yaml import CParser
            _LIBYAML = (CParser, events)
        except ImportError:  # pragma: no cover - depends on what is installed
            _LIBYAML = None
    return _LIBYAML


def available() -> bool:
    """Whether the fast path is in use (libyaml is installed and not turned off)."""
    return not os.environ.get("RAIDERS_PURE_YAML") and _libyaml() is not None


def _plain(value: str) -> Any:
    """A plain scalar as ruamel's YAML 1.2 safe loader reads it, or _NotSure."""
    if value in _WORDS:
        return _WORDS[value]
    if not value:
        raise _NotSure
    if value[0] not in _SPECIAL_START:
        return value  # YAML 1.2 resolves no other plain scalar starting so: text
    if _WHOLE.match(value) and len(value) <= 20:
        number = int(value)
        if abs(number) <= MAX_INT:
            return number
    elif _DOTTED.match(value) and value not in _DOT_WORDS:
        return value  # a path (`../common`, `.`): no float starts so
    raise _NotSure


def load(text: str) -> Optional[list[Any]]:
    """The documents of a YAML text, with positions, or None when the positioned reader must
    read it (see the module's doc)."""
    if not available() or _UNUSUAL.search(text):
        return None
    parser_class, events = _libyaml()
    try:
        return _documents(parser_class(text), events)
    except Exception:  # noqa: BLE001 - libyaml's errors, _NotSure: the other reader decides
        return None


def _documents(parser: Any, ev: Any) -> list[Any]:
    scalar_event, map_start, seq_start = ev.ScalarEvent, ev.MappingStartEvent, ev.SequenceStartEvent
    map_end, seq_end, doc_end = ev.MappingEndEvent, ev.SequenceEndEvent, ev.DocumentEndEvent
    get = parser.get_event
    seen: dict[str, Any] = {}  # plain scalar -> value: a log repeats a few dozen words
    docs: list[Any] = []
    if type(get()) is not ev.StreamStartEvent:
        raise _NotSure
    while True:
        start = get()
        if type(start) is ev.StreamEndEvent:
            return docs
        if type(start) is not ev.DocumentStartEvent or start.version or start.tags:
            raise _NotSure  # a %YAML or %TAG directive changes the meaning
        root: Any = None
        container: Any = None  # the map or list being filled
        lines: Any = None  # its positions (ruamel's LineCol.data)
        key: Any = _NotSure  # in a map: the pending key, or _NotSure when a key comes next
        key_at: tuple[int, int] = (0, 0)
        stack: list[tuple[Any, Any, Any, tuple[int, int]]] = []
        while True:
            e = get()
            kind = type(e)
            mark = e.start_mark
            at = (mark.line, mark.column)
            if kind is scalar_event:
                if e.anchor is not None or e.tag is not None:
                    raise _NotSure
                value = e.value
                if not e.style:  # plain: resolved as YAML 1.2 does
                    known = seen.get(value, seen)
                    if known is seen:
                        known = seen[value] = _plain(value)
                    value = known
                node = value
            elif kind is map_start or kind is seq_start:
                if e.anchor is not None or e.tag is not None or len(stack) >= MAX_DEPTH:
                    raise _NotSure
                stack.append((container, lines, key, key_at))
                container = Map() if kind is map_start else Seq()
                lc = container.lc = LineCol()
                lc.line, lc.col = at
                lines = lc.data = {}
                key = _NotSure
                continue
            elif kind is map_end or kind is seq_end:
                node = container
                lc = node.lc
                at = (lc.line, lc.col)
                if not lines:
                    lc.data = None  # as ruamel leaves an empty map or list
                container, lines, key, key_at = stack.pop()
            elif kind is doc_end:
                docs.append(root)
                break
            else:  # an alias (anchors are refused where they stand, E507) or anything else
                raise _NotSure
            if container is None:
                root = node
            elif container.__class__ is Seq:
                lines[len(container)] = [at[0], at[1]]
                container.append(node)
            elif key is _NotSure:
                if node.__class__ is Map or node.__class__ is Seq or node in container:
                    raise _NotSure  # a key that is not a plain value, or a duplicate key
                key, key_at = node, at
            else:
                container[key] = node
                lines[key] = [key_at[0], key_at[1], at[0], at[1]]
                key = _NotSure
