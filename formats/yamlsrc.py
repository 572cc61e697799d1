"""Safe YAML loading that keeps positions, for diagnostics that point into the YAML file.

ruamel.yaml composes the text into nodes (with the safe scanner: no comment bookkeeping, about
twice as fast as its round-trip loader), and we build maps and sequences that remember the
line and column of every key and item. Only plain scalars are constructed (by ruamel's safe
constructor); a tag that asks for anything else is an error, and nothing is ever executed.
Anchors and aliases are refused where they stand (E507): no format of the tool needs them,
and an alias bomb (a "billion laughs") then costs nothing. Numbers beyond MAX_INT are refused
where they stand (E301), before any of them is turned into text or counted up to.
"""
from __future__ import annotations

import io
import re
from typing import Any, Iterator, Optional, TypeGuard

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.spans import Span

from . import fastyaml
from .declared import declared_format
from .safeio import MAX_FILE_BYTES, read_text

MAX_BYTES = MAX_FILE_BYTES  # a text larger than this is refused, not parsed
MAX_INT = 2 ** 63 - 1  # a whole number beyond ±MAX_INT is refused (E301)
MAX_DEPTH = 100  # maps and lists in lists: a log needs about 8 (E005 beyond)


_PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_INT_TAG = "tag:yaml.org,2002:int"


class _Refused(MarkedYAMLError):
    code = "E501"


class _NoAnchors(_Refused):
    code = "E507"


class _TooBig(_Refused):
    code = "E301"


class _TooDeep(_Refused):
    code = "E005"


class _Composer(Composer):
    """ruamel's composer, refusing anchors (`&a`) and aliases (`*a`) where they stand, and
    nesting deeper than MAX_DEPTH where it goes too deep (it recurses, and so do we)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if self.depth >= MAX_DEPTH:  # ruamel's own count of the nodes open
            raise _TooDeep(None, None, f"nested more than {MAX_DEPTH} deep: no format of the "
                           "tool needs that", event.start_mark)
        if isinstance(event, AliasEvent):
            raise _NoAnchors(None, None, f"alias `*{event.anchor}`: anchors and aliases are not "
                             "used in this format", event.start_mark)
        if getattr(event, "anchor", None) is not None:
            raise _NoAnchors(None, None, f"anchor `&{event.anchor}`: anchors and aliases are "
                             "not used in this format", event.start_mark)
        return super().compose_node(parent, index)


def _yaml() -> YAML:
    y = YAML(typ="safe", pure=True)
    y.Composer = _Composer
    return y


def _scalar(node: ScalarNode, constructor: Any) -> Any:
    """A plain value; a whole number beyond MAX_INT is refused where it stands."""
    try:
        value = constructor.construct_object(node, deep=True)
    except ValueError as err:  # e.g. more digits than Python turns into a number
        if node.tag == _INT_TAG:
            raise _TooBig(None, None, "this number is too large", node.start_mark) from None
        raise _Refused(None, None, str(err).splitlines()[0] if str(err) else "bad value",
                       node.start_mark) from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise _TooBig(None, None, f"this number is too large (at most {MAX_INT:,})",
                      node.start_mark)
    return value


class _Map(CommentedMap):
    """A positioned map that can be looked up in a dict by identity: a list or a map where a
    file names a card or a player is then "unknown `…`", never `unhashable type`."""

    # typeshed types a dict's `__hash__` as None (unhashable), which this class deliberately is not
    __hash__ = object.__hash__  # type: ignore[assignment]


class _Seq(CommentedSeq):
    __hash__ = object.__hash__  # type: ignore[assignment]  # as _Map's: hashable on purpose


def _shown(value: Any) -> str:
    """A key as YAML writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _build(node: Any, constructor: Any, seen: dict[int, Any]) -> Any:
    """Plain data with positions, from a composed node."""
    done = seen.get(id(node))
    if done is not None:
        return done
    if isinstance(node, ScalarNode):
        return _scalar(node, constructor)
    if node.tag not in _PLAIN_TAGS:
        raise _Refused(None, None, f"the tag `{node.tag}` is not allowed here", node.start_mark)
    mark = node.start_mark
    if isinstance(node, SequenceNode):
        seq = _Seq()
        seq._yaml_set_line_col(mark.line, mark.column)
        seen[id(node)] = seq
        for i, item in enumerate(node.value):
            seq.append(_build(item, constructor, seen))
            seq._yaml_set_idx_line_col(i, [item.start_mark.line, item.start_mark.column])
        return seq
    assert isinstance(node, MappingNode)
    m = _Map()
    m._yaml_set_line_col(mark.line, mark.column)
    seen[id(node)] = m
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            raise _Refused(None, None, "a key must be a plain value", key_node.start_mark)
        key = _scalar(key_node, constructor)
        if key in m:  # 1, 1.0 and true are one key to Python: say what YAML read
            first = next(k for k in m if k == key)
            same = ("" if _shown(first) == key_node.value
                    else f" (the same key as `{_shown(first)}` above)")
            raise _Refused(None, None, f"duplicate key `{key_node.value}`{same}",
                           key_node.start_mark)
        m[key] = _build(value_node, constructor, seen)
        m._yaml_set_kv_line_col(key, [key_node.start_mark.line, key_node.start_mark.column,
                                      value_node.start_mark.line, value_node.start_mark.column])
    return m


def _unclosed(err: Exception, text: str) -> Optional[tuple[str, int, int]]:
    """The bracket of a flow collection (`[` or `{`) the parser ran past the end of, at the end
    of the file or into the next key on a later line, with its line and column (0-based): its
    opening is where to point (the problem's mark is past the last line, where no source line
    or caret can be shown)."""
    context, problem = getattr(err, "context", None) or "", getattr(err, "problem", None) or ""
    start, end = getattr(err, "context_mark", None), getattr(err, "problem_mark", None)
    if not context.startswith("while parsing a flow") or start is None or end is None:
        return None
    if context == "while parsing a flow node" and "<stream end>" in problem:
        # after a comma the parser's context is the entry, not its bracket: find the bracket
        return _innermost_open(text)
    if "<stream end>" in problem or ("but got ':'" in problem and end.line > start.line):
        return ("[" if "sequence" in context else "{"), start.line, start.column
    return None


def _innermost_open(text: str) -> Optional[tuple[str, int, int]]:
    """The last flow bracket left open at the end of the text (quotes and comments skipped)."""
    opened: list[tuple[str, int, int]] = []
    for row, line in enumerate(text.splitlines()):
        quote = ""
        for col, ch in enumerate(line):
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (col == 0 or line[col - 1] in " \t"):
                break
            elif ch in "[{":
                opened.append((ch, row, col))
            elif ch in "]}" and opened:
                opened.pop()
    return opened[-1] if opened else None


def _error_span(path: str, err: Exception, text: str) -> Span:
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    unclosed = _unclosed(err, text)
    if unclosed is not None:
        _, line, column = unclosed
        return Span(path, line + 1, column + 1, line + 1, column + 2)
    if mark is None:
        return Span.whole_file(path)
    return Span(path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)


def _message(err: Exception, text: str) -> str:
    unclosed = _unclosed(err, text)
    if unclosed is not None:
        bracket = unclosed[0]
        close = "]" if bracket == "[" else "}"
        problem = getattr(err, "problem", None) or ""  # as _unclosed reads it
        ends = "the file ends" if "<stream end>" in problem else "the next key comes"
        return f"this `{bracket}` is never closed: {ends} before its `{close}`"
    if isinstance(err, MarkedYAMLError):
        parts = [p for p in (err.context, err.problem) if p]
        return "; ".join(parts) if parts else "malformed YAML"
    return str(err).splitlines()[0] if str(err) else "malformed YAML"


def load_documents(text: str, path: str) -> tuple[list[Any], list[Diagnostic]]:
    """All YAML documents of a text, or a diagnostic where the YAML is malformed (E501), uses
    anchors or aliases (E507), holds a number too large (E301) or is too long (E006)."""
    if len(text) > MAX_BYTES:
        return [], [Diagnostic(Span.whole_file(path), "E006",
                               f"file is too large: the limit is {MAX_BYTES:,} bytes")]
    fast = fastyaml.load(text)  # libyaml, when it is sure to read the same (formats/fastyaml.py)
    if fast is not None:
        return fast, []
    deep = _too_deep_flow(text, path)
    if deep is not None:
        return [], [deep]
    try:
        y = _yaml()
        nodes = list(y.compose_all(io.StringIO(text)))
        constructor = y.constructor
        return [None if n is None else _build(n, constructor, {}) for n in nodes], []
    except (YAMLError, ValueError, TypeError, RecursionError) as err:
        code = getattr(err, "code", "E501")
        return [], [Diagnostic(_error_span(path, err, text), code,
                               f"YAML: {_message(err, text)}")]


_BRACKET = re.compile(r"[\[\]{}]")


def _too_deep_flow(text: str, path: str) -> Optional[Diagnostic]:
    """E005 where `[`/`{` open more than MAX_DEPTH deep. Checked before ruamel reads the text:
    its scanner costs the square of the depth (5,000 deep: 1.6 s; a 5 MB file: hours)."""
    depth = 0
    for m in _BRACKET.finditer(text):
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_DEPTH:
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            return Diagnostic(Span(path, line, col, line, col + 1), "E005",
                              f"YAML: nested more than {MAX_DEPTH} deep: no format of the "
                              "tool needs that")
        depth = max(depth, 0)
    return None


# The formats a YAML file of raiders declares on a top-level `format:` line near its top.
_SAYS_ANYTHING = re.compile(r"^[ \t]*[^\s#]", re.M)  # a line that is not blank or a comment


def not_declared(path: str, text: str, kind: str) -> Optional[Diagnostic]:
    """E510 when a text read as a raiders `kind` (ruleset, log, scenario) declares no raiders
    format at all: it is refused before it is parsed, and nothing of it is quoted (a file
    declaring another raiders format is read, and its `format:` says what is wrong)."""
    if declared_format(text) is not None or not _SAYS_ANYTHING.search(text):
        return None  # (an empty file, or only comments, has nothing to quote: its format says)
    return Diagnostic(Span.whole_file(path), "E510",
                      f"not a raiders {kind}: the file declares no raiders format; "
                      "nothing of it is read",
                      f"a {kind} starts with the line `format: raiders-{kind}/1` "
                      f"(see docs/{kind}s.md)")


def load_declared(path: str, kind: str) -> tuple[Optional[str], list[Any], list[Diagnostic]]:
    """load_file for a file read as a raiders `kind`: one that declares no raiders format is
    refused (E510, text None) before it is parsed, so that none of it is ever quoted."""
    text, diags = read_text(path)
    if text is None:
        return None, [], diags
    foreign = not_declared(path, text, kind)
    if foreign is not None:
        return None, [], [foreign]
    docs, diags = load_documents(text, path)
    return text, docs, diags


def load_file(path: str) -> tuple[Optional[str], list[Any], list[Diagnostic]]:
    """(text, documents, diagnostics) of a YAML file, read only if its size is within limits."""
    text, diags = read_text(path)
    if text is None:
        return None, [], diags
    docs, diags = load_documents(text, path)
    return text, docs, diags


def key_span(path: str, node: Any, key: Any) -> Span:
    """Where a key of a map sits (falls back to the map itself)."""
    try:
        line, col = node.lc.key(key)
        return Span(path, line + 1, col + 1, line + 1, col + 1 + len(str(key)))
    except (AttributeError, KeyError, TypeError):
        return node_span(path, node)


def value_span(path: str, node: Any, key: Any) -> Span:
    """Where a value of a map (by key) or a sequence (by index) sits."""
    try:
        lc = node.lc
        line, col = lc.item(key) if isinstance(node, list) else lc.value(key)
        width = len(str(node[key])) if not isinstance(node[key], (dict, list)) else 1
        return Span(path, line + 1, col + 1, line + 1, col + 1 + width)
    except (AttributeError, KeyError, TypeError, IndexError):
        return node_span(path, node)


def node_span(path: str, node: Any) -> Span:
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        return Span(path, lc.line + 1, lc.col + 1, lc.line + 1, lc.col + 2)
    return Span.whole_file(path)


def items(node: Any) -> Iterator[tuple[Any, Any]]:
    return iter(node.items()) if isinstance(node, dict) else iter(())


def is_map(node: Any) -> TypeGuard[dict[Any, Any]]:
    return isinstance(node, dict)


def is_seq(node: Any) -> TypeGuard[list[Any]]:
    return isinstance(node, list)


def is_int(node: Any) -> TypeGuard[int]:
    return isinstance(node, int) and not isinstance(node, bool)


def is_str(node: Any) -> TypeGuard[str]:
    return isinstance(node, str)


def plain(node: Any) -> Optional[Any]:
    """A YAML node as plain dicts/lists/scalars (for data already validated)."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node
