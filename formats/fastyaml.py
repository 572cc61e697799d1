"""YAML read fast: the layout `raiders play` writes, read line by line, and any other YAML
through libyaml's C parser (PyYAML's `yaml._yaml.CParser`), when it is installed.

The positioned reader (yamlsrc.py) composes every document with ruamel's pure-Python composer:
about 40 ms for one game log, most of `replay --check`. Here we build the same maps and
sequences, with the line and column of every key and item (ruamel's LineCol), as dict and list
subclasses (Map, Seq), so every reader and every diagnostic after it works as before: from the
lines themselves for the layout logs are written in (about 1.5 ms a log, no libyaml needed),
else from libyaml's events and marks (about 2 ms).

The meaning stays ruamel's YAML 1.2 (libyaml's own resolver is YAML 1.1: `yes`, `on`, `010`
differ), and this path only takes what it is sure of: plain words, whole numbers written
plainly, `true`/`false`/`null`/`~`, quoted and block text. Anything else -- a float, `1e3`,
`0o17`, a timestamp, a tag, an anchor or alias, a duplicate key, a directive, deep nesting,
a tab or an unusual line break, a syntax error, a number too large -- makes `load` answer
None, and the caller reads the text with the positioned reader, which gives today's value or
today's diagnostic (E501, E507, E301, ...) with its line and column.

Without PyYAML only the logs' own layout is read fast; with RAIDERS_PURE_YAML=1 in the
environment, `load` always answers None (the positioned reader reads everything).
"""
from __future__ import annotations

import os
import re
from typing import Any, Optional

from ruamel.yaml.comments import LineCol

_LIBYAML: Any = False  # (CParser, events) once looked for; None: not installed

MAX_DEPTH = 40  # deeper nesting is left to the positioned reader (it has its own limit)
MAX_INT = 2 ** 63 - 1  # a bigger number is left to the positioned reader (E301 there)

# The characters this path leaves to the positioned reader (tab, CR, NEL, LS, PS, BOM, other
# controls, lone surrogates), so that no difference between the readers' scanners can matter.
# (Written as the few it refuses: a class of all the others takes milliseconds to compile.)
_UNUSUAL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
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
    lc: LineCol
    # in a name's place (`rooms: [{a: 1}]`): unknown, not a TypeError. typeshed types a dict's
    # `__hash__` as None (unhashable), which this class deliberately is not.
    __hash__ = object.__hash__  # type: ignore[assignment]


class Seq(list):
    """A sequence read here: a plain list with positions (`lc`)."""

    __slots__ = ("lc",)
    lc: LineCol
    __hash__ = object.__hash__  # type: ignore[assignment]  # as Map's: hashable on purpose


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
    if os.environ.get("RAIDERS_PURE_YAML") or _UNUSUAL.search(text):
        return None
    try:
        return [_layout(text)]
    except _NotSure:
        pass
    found = _libyaml()
    if found is None:
        return None
    parser_class, events = found
    try:
        return _documents(parser_class(text), events)
    except Exception:  # noqa: BLE001 - libyaml's errors, _NotSure: the other reader decides
        return None


# ---- the layout `raiders play` writes, read line by line --------------------------------------
#
# A log from `raiders play` (interpreter/records/logs.py, render_log) is block maps and lists whose
# leaves are one-line flow values (`{P1: 4, P2: [an-item, 5]}`) with one space after each
# `,` and `:`, plain words and numbers, and double-quoted text without escapes. That subset is
# read here without libyaml, with the positions ruamel gives; any other line (a comment, a
# blank line, other spacing, a tag, an anchor, `---`, a multi-line value) is _NotSure, and the
# text is read by libyaml instead.

_LINE = re.compile(r"( *)(- )?(.*)\Z")
_KEY = re.compile(r'([A-Za-z0-9_./~+-]+|"[^"\\]*"):(?: |\Z)')
_TOKEN = re.compile(r'[{}\[\]]|, |: |[A-Za-z0-9_./~+-]+|"[^"\\]*"')


def _scalar(token: str) -> Any:
    return token[1:-1] if token[0] == '"' else _plain(token)


def _new(container: Any, line: int, col: int) -> Any:
    lc = container.lc = LineCol()
    # ruamel's LineCol sets line and col to None unannotated, so mypy holds them always None
    lc.line, lc.col = line, col  # type: ignore[assignment]
    lc.data = {}
    return container


def _done(container: Any) -> Any:
    if not container.lc.data:
        container.lc.data = None  # as ruamel leaves an empty map or list
    return container


def _layout(text: str) -> Any:
    if not text.endswith("\n") or "#" in text or "\n\n" in text:
        raise _NotSure
    rows = []  # [indent, dash, content] of each line; a `- ` entry is rewritten when entered
    for raw in text[:-1].split("\n"):
        m = _LINE.match(raw)
        if m is None or not m.group(3) or m.group(3)[0] in " -" or len(m.group(1)) > MAX_DEPTH:
            raise _NotSure  # (an indent beyond MAX_DEPTH may nest beyond it)
        rows.append([len(m.group(1)), m.group(2) is not None, m.group(3)])
    if not rows or rows[0][0] or rows[0][1]:
        raise _NotSure
    node, end = _block_map(rows, 0, 0)
    if end != len(rows):
        raise _NotSure
    return node


def _block(rows: list, i: int, indent: int) -> tuple[Any, int]:
    """The block node whose first line is rows[i], at `indent`."""
    if rows[i][1]:
        return _block_seq(rows, i, indent)
    return _block_map(rows, i, indent)


def _block_map(rows: list, i: int, indent: int) -> tuple[Any, int]:
    node = _new(Map(), i, indent)
    lines = node.lc.data
    while i < len(rows) and rows[i][0] == indent and not rows[i][1]:
        content = rows[i][2]
        m = _KEY.match(content)
        if m is None:
            raise _NotSure
        key = _scalar(m.group(1))
        if key in node or key is None:
            raise _NotSure
        if m.end() == len(content):  # `key:` and a block below
            if i + 1 == len(rows):
                raise _NotSure
            below, dash = rows[i + 1][0], rows[i + 1][1]
            if not (below > indent or (below == indent and dash)):
                raise _NotSure
            value, j = _block(rows, i + 1, below)
            lines[key] = [i, indent, i + 1, below]
        else:
            col = indent + m.end()
            value, end = _flow(content, m.end(), i, col - m.end())
            if end != len(content):
                raise _NotSure
            lines[key] = [i, indent, i, col]
            j = i + 1
        dict.__setitem__(node, key, value)
        i = j
    return _done(node), i


def _block_seq(rows: list, i: int, indent: int) -> tuple[Any, int]:
    node = _new(Seq(), i, indent)
    lines = node.lc.data
    while i < len(rows) and rows[i][0] == indent and rows[i][1]:
        content = rows[i][2]
        lines[len(node)] = [i, indent + 2]
        if _KEY.match(content):  # `- key: ...`: a map whose first line is this one
            rows[i] = [indent + 2, False, content]
            value, i = _block_map(rows, i, indent + 2)
        else:
            value, end = _flow(content, 0, i, indent + 2)
            if end != len(content):
                raise _NotSure
            i += 1
        list.append(node, value)
    return _done(node), i


def _flow(content: str, pos: int, line: int, base: int) -> tuple[Any, int]:
    """The flow value at content[pos:] (column base + pos), and where it ends."""
    known = _WORD_CACHE
    if len(known) > 4096:
        known.clear()
    stack: list[tuple[Any, Any, Any, int]] = []  # the maps and lists open around `container`
    container: Any = None
    lines: Any = None  # its positions (ruamel's LineCol.data)
    key: Any = None
    key_col = 0
    state = 0  # 0: a value comes, 1: a key comes, 2: a key's `: ` comes, 3: `, ` or a close
    # Tokens are taken as they come and placed by their lengths: a character no token takes
    # shifts what follows, so the value then cannot end at the line's end, which every caller
    # requires (a gap is never read as anything).
    for token in _TOKEN.findall(content, pos):
        start = pos
        pos += len(token)
        first = token[0]
        if (state == 3 and (token == "}" and container.__class__ is Map
                            or token == "]" and container.__class__ is Seq)
                or state == 1 and token == "}" and not container  # `{}`
                or state == 0 and token == "]" and container.__class__ is Seq
                and not container):  # `[]`
            # a container closes: it is the value just read, in the one it was opened in
            value = _done(container)
            col = value.lc.col
            if not stack:
                return value, pos
            container, lines, key, key_col = stack.pop()
        elif state == 3:
            if token != ", ":
                raise _NotSure
            state = 1 if container.__class__ is Map else 0
            continue
        elif state == 2:
            if token != ": ":
                raise _NotSure
            state = 0
            continue
        elif state == 1:
            if first in "{}[],: ":
                raise _NotSure
            key = known.get(token, known)
            if key is known:
                key = known[token] = _scalar(token)
            if key is None or key in container:
                raise _NotSure
            key_col = base + start
            state = 2
            continue
        elif first == "{" or first == "[":
            if len(stack) >= MAX_DEPTH:  # deep nesting: the positioned reader refuses it
                raise _NotSure
            stack.append((container, lines, key, key_col))
            container = _new(Map() if first == "{" else Seq(), line, base + start)
            lines = container.lc.data
            state = 1 if first == "{" else 0
            continue
        else:
            if first in "}],: ":
                raise _NotSure
            value = known.get(token, known)
            if value is known:
                value = known[token] = _scalar(token)
            col = base + start
        if container is None:  # a scalar on its own
            return value, pos
        if container.__class__ is Map:
            lines[key] = [line, key_col, line, col]
            dict.__setitem__(container, key, value)
        else:
            lines[len(container)] = [line, col]
            list.append(container, value)
        state = 3
    raise _NotSure


_WORD_CACHE: dict[str, Any] = {}  # a flow scalar's text -> its value (a log repeats a few)


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
