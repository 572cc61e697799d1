"""`raiders fmt`: one canonical layout for card files, comments kept.

The layout, in short (docs/tools.md, "Formatting"):

- two spaces of indentation per `{`; one member (field, rule, statement) per line;
- a `{ … }` written on one line stays on one line if it fits in 100 columns (members
  separated by two spaces: `monster m { name "Mud Man"  wounds 2 }`); any other block has
  one member per line, and an empty one is `{ }`; `;` separators are dropped;
- consecutive one-line cards of the same kind are aligned in columns, and consecutive trailing
  comments are aligned with each other;
- blank lines: at most one, kept where the author put one; always one around a declaration
  that takes several lines; none just inside a `{` or before a `}`;
- comments stay where they were: on their own line (indented as the code they precede) or at
  the end of a line.

The formatter walks lark's parse tree with every token kept, so it needs no list of keywords:
a word the grammar gains is printed as it was written. Its output is checked before it is
returned: it must parse to the same AST (spans aside) and hold the same comments, otherwise
`FormatError` is raised and nothing is written.
"""
from __future__ import annotations

import collections
import functools
import re
import threading
from typing import Iterator, Optional, Union

import attrs
from lark import Lark, Token, Tree

from . import ast
from .diagnostics import Diagnostic
from .parser import grammar_text, parse
from .spans import Span, located

WIDTH = 100  # the same line length as the Python code (ruff)
INDENT = 2
CONTINUATION = 4  # a construct broken by a comment goes on, indented this much more


class FormatError(Exception):
    """The formatted text would not mean what the original did (a bug in the formatter)."""


# ---- parsing with every token and comment ---------------------------------------------------

_comments: list[Token] = []
_lock = threading.Lock()  # the comment list is shared by the one cached parser


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(grammar_text(), parser="lalr", lexer="contextual", keep_all_tokens=True,
                maybe_placeholders=True, lexer_callbacks={"COMMENT": _comments.append})


def parse_tree(text: str) -> tuple[Tree, list[Token]]:
    """The parse tree with every token kept, and the comments in order. Raises lark's errors
    (callers parse with dsl.parser first, for diagnostics)."""
    with _lock:
        _comments.clear()
        try:
            tree = _lark().parse(text)
            found = {_pos(c): c for c in _comments}  # a token is never lexed twice, but
        finally:                                        # be sure: one per position
            _comments.clear()
    return tree, [found[k] for k in sorted(found)]


def _pos(t: Token) -> int:
    return located(t.start_pos)


def _end(t: Token) -> int:
    return located(t.end_pos)


def _line(t: Token) -> int:
    return located(t.line)


def _last_line(t: Token) -> int:
    """The source line a token ends on (a string may span lines)."""
    return t.end_line if t.end_line is not None else _line(t)


# ---- the walk: tokens and braced groups ------------------------------------------------------


@attrs.frozen
class _Tok:
    tok: Token
    node: Tree
    index: int  # the token's place among its rule's children (for spacing)


@attrs.frozen
class _Brace:
    node: Tree
    lbrace: Token
    members: tuple
    rbrace: Token


def _kids(node: Tree) -> list:
    return [c for c in node.children if c is not None]


def _walk(node: Tree) -> Iterator[Union[_Tok, _Brace]]:
    """The node's tokens in order, a `{ … }` of this very rule as one _Brace."""
    ch = _kids(node)
    i = 0
    while i < len(ch):
        c = ch[i]
        if isinstance(c, Token):
            if c.type == "LBRACE":
                j = next(k for k in range(i + 1, len(ch))
                         if isinstance(ch[k], Token) and ch[k].type == "RBRACE")
                yield _Brace(node, c, tuple(ch[i + 1:j]), ch[j])
                i = j + 1
                continue
            yield _Tok(c, node, i)
        else:
            yield from _walk(c)
        i += 1


def _first_tok(node: Union[Tree, Token]) -> Token:
    if isinstance(node, Token):
        return node
    return _first_tok(_kids(node)[0])


def _last_tok(node: Union[Tree, Token]) -> Token:
    if isinstance(node, Token):
        return node
    return _last_tok(_kids(node)[-1])



def _space(prev: Optional[Token], it: _Tok) -> bool:
    """Whether a space goes before this token (after `prev`)."""
    text = str(it.tok)
    if prev is None or str(prev) == "(":
        return False
    if text in (",", ")"):
        return False
    if text == ":":
        return it.node.data == "kind_decl"  # `kind boss : monster`, but `wounds: int`, `all: …`
    if text == "(":
        # A call's, a selector's, an event's card or a parameter list's parenthesis hugs the
        # name before it; a grouping parenthesis opens its own rule and keeps its space.
        return it.index == 0 and it.node.data not in ("params", "event_card")
    return True


def _may_be_flat(b: _Brace) -> bool:
    """An empty block, or one its author wrote on one line (if it fits, it stays there)."""
    return not b.members or b.lbrace.line == b.rbrace.line


def _flat(node: Union[Tree, Token]) -> Optional[str]:
    """The node on one line, or None when one of its blocks must take several lines."""
    if isinstance(node, Token):
        return str(node)
    out, prev = "", None
    for it in _walk(node):
        if isinstance(it, _Brace):
            inner = _flat_brace(it)
            if inner is None:
                return None
            out += (" " if out else "") + inner
            prev = it.rbrace
        else:
            out += (" " if _space(prev, it) else "") + str(it.tok)
            prev = it.tok
    return out


def _flat_members(b: _Brace) -> Optional[list[str]]:
    if not _may_be_flat(b):
        return None
    parts = [_flat(m) for m in b.members]
    return None if any(p is None for p in parts) else parts  # type: ignore[return-value]


def _flat_brace(b: _Brace) -> Optional[str]:
    parts = _flat_members(b)
    if parts is None:
        return None
    return "{ " + "  ".join(parts) + " }" if parts else "{ }"


# ---- the writer ------------------------------------------------------------------------------


@attrs.define
class _Line:
    indent: int
    cols: list[str] = attrs.Factory(list)  # the code; several columns on an aligned line
    seps: list[str] = attrs.Factory(list)  # what goes between the columns
    comment: Optional[str] = None
    key: Optional[tuple[str, str]] = None  # one-line declarations with one key align
    comment_gap: str = "  "  # before a trailing comment (widened to align a run of them)

    @property
    def code(self) -> str:
        out = self.cols[0] if self.cols else ""
        for sep, col in zip(self.seps, self.cols[1:], strict=True):
            out += sep + col
        return out

    @property
    def blank(self) -> bool:
        return not self.cols and self.comment is None


class _Writer:
    def __init__(self, comments: list[Token]):
        self.comments = collections.deque(comments)
        self.lines: list[_Line] = []
        self.indent = 0
        self.cur = _Line(0)
        self.last: Optional[Token] = None  # the last source token written
        self.src_line = 0  # the source line of the last thing written
        self.fresh = True  # at the start of the file or just inside a `{`: no blank line
        self.want_blank = False
        self.break_next = False  # a trailing comment ends the line: the code goes on below

    # -- lines
    def newline(self, indent: Optional[int] = None) -> None:
        if not self.cur.blank:
            self.lines.append(self.cur)
        self.cur = _Line(self.indent if indent is None else indent)
        self.break_next = False

    def blank(self) -> None:
        self.newline()
        if self.lines and not self.lines[-1].blank:
            self.lines.append(_Line(0))

    def put(self, text: str, space: bool) -> None:
        if self.break_next:
            self.newline(self.indent + CONTINUATION)
        if not self.cur.cols:
            self.cur.cols.append(text)
        else:
            self.cur.cols[-1] += (" " if space else "") + text

    def start_item(self, line: int) -> None:
        """Before a member, a declaration or an own-line comment: the blank line, if any."""
        if not self.fresh and (self.want_blank or line - self.src_line >= 2):
            self.blank()
        self.want_blank = self.fresh = False

    # -- comments
    def trail(self, c: Token) -> None:
        text = str(c).rstrip()
        self.cur.comment = text if self.cur.comment is None else f"{self.cur.comment} {text}"
        self.break_next = True
        self.src_line = _line(c)

    def comments_before(self, pos: int) -> None:
        while self.comments and _pos(self.comments[0]) < pos:
            c = self.comments.popleft()
            if self.cur.cols:
                self.trail(c)
            else:
                self.start_item(_line(c))
                self.cur.comment = str(c).rstrip()
                self.newline()
                self.src_line = _line(c)

    def trailing(self) -> None:
        """Comments at the end of the source line of the last token written."""
        while self.last is not None and self.comments and \
                _line(self.comments[0]) == _last_line(self.last):
            self.trail(self.comments.popleft())

    def inside(self, start: int, end: int) -> bool:
        return any(start < _pos(c) < end for c in self.comments)

    # -- code
    def tok(self, it: _Tok) -> None:
        self.comments_before(_pos(it.tok))
        self.put(str(it.tok), _space(self.last, it))
        self.last = it.tok
        self.src_line = _last_line(it.tok)

    def node(self, node: Union[Tree, Token]) -> None:
        if isinstance(node, Token):  # a member that is a bare token (not in this grammar)
            self.tok(_Tok(node, Tree("member", [node]), 0))
            return
        for it in _walk(node):
            if isinstance(it, _Brace):
                self.brace(it)
            else:
                self.tok(it)

    def brace(self, b: _Brace) -> None:
        flat = None if self.inside(_pos(b.lbrace), _pos(b.rbrace)) else _flat_brace(b)
        if flat is not None and len(self.cur.code) + 1 + len(flat) + self.cur.indent <= WIDTH \
                and not self.break_next:
            self.comments_before(_pos(b.lbrace))
            self.put(flat, True)
            self.last = b.rbrace
            self.src_line = _line(b.rbrace)
            return
        self.tok(_Tok(b.lbrace, b.node, -1))
        self.trailing()
        self.indent += INDENT
        self.fresh = True
        for m in b.members:
            self.newline()
            self.comments_before(_pos(_first_tok(m)))
            self.start_item(_line(_first_tok(m)))
            self.node(m)
            self.trailing()
        self.newline()
        self.fresh = True  # no blank line before the comments that end a block
        self.comments_before(_pos(b.rbrace))
        self.indent -= INDENT
        self.newline()
        self.tok(_Tok(b.rbrace, b.node, -1))
        self.fresh = False

    # -- the file
    def file(self, tree: Tree, end: int) -> list[_Line]:
        prev_multi: Optional[bool] = None
        for decl in _kids(tree):
            first, last = _first_tok(decl), _last_tok(decl)
            cols = None if self.inside(_pos(first), _end(last)) else _decl_cols(decl)
            one_line = cols is not None and len(_joined(cols)) <= WIDTH
            if prev_multi is not None and (prev_multi or not one_line):
                self.want_blank = True
            self.comments_before(_pos(first))
            self.start_item(_line(first))
            before = len(self.lines)
            if one_line:
                assert cols is not None
                self.cur.cols, self.cur.seps = cols
                self.cur.key = (decl.data, str(first))
                self.last, self.src_line = last, _line(last)
            else:
                self.node(decl)
            self.trailing()
            self.newline()
            prev_multi = len(self.lines) - before > 1
        self.comments_before(end + 1)
        self.newline()
        return self.lines


def _decl_cols(decl: Tree) -> Optional[tuple[list[str], list[str]]]:
    """A declaration on one line, in columns: `kind id`, `{ field`, … `field }`."""
    head: list[str] = []
    prev: Optional[Token] = None
    for it in _walk(decl):
        if isinstance(it, _Brace):
            members = _flat_members(it)
            if members is None:
                return None
            body = ["{ " + members[0], *members[1:]] if members else ["{ }"]
            if members:
                body[-1] += " }"
            if decl.data != "card_decl":
                head = [" ".join(head)]
            cols = head + body
            seps = [" "] * len(head) + ["  "] * (len(body) - 1)
            return cols, seps
        if head and not _space(prev, it):
            head[-1] += str(it.tok)
        else:
            head.append(str(it.tok))
        prev = it.tok
    return None


def _joined(cols: tuple[list[str], list[str]]) -> str:
    line = _Line(0, cols[0], cols[1])
    return line.code


def _align(lines: list[_Line]) -> None:
    """Columns of consecutive one-line declarations of one kind; then trailing comments."""
    i = 0
    while i < len(lines):
        key = lines[i].key
        j = i
        while j < len(lines) and key is not None and lines[j].key == key:
            j += 1
        if j - i > 1:
            run = lines[i:j]
            for col in range(max(len(x.cols) for x in run) - 1):
                width = max((len(x.cols[col]) for x in run if len(x.cols) > col + 1), default=0)
                for x in run:
                    if len(x.cols) > col + 1:
                        x.cols[col] = x.cols[col].ljust(width)
        i = max(j, i + 1)
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j].cols and lines[j].comment is not None:
            j += 1
        if j > i:
            width = max(x.indent + len(x.code) for x in lines[i:j])
            for x in lines[i:j]:
                x.comment_gap = " " * (width - x.indent - len(x.code) + 2)
        i = max(j, i + 1)


def _render(lines: list[_Line]) -> str:
    _align(lines)
    while lines and lines[-1].blank:
        lines.pop()
    out = []
    for x in lines:
        if x.blank:
            out.append("")
            continue
        text = " " * x.indent + x.code
        if x.comment is not None:
            text = f"{text}{x.comment_gap}{x.comment}" if x.cols else " " * x.indent + x.comment
        out.append(text.rstrip())
    return "\n".join(out) + "\n" if out else ""


# ---- the entry points ------------------------------------------------------------------------


def shape(node: object) -> object:
    """An AST without its spans: what two texts that mean the same have in common."""
    if isinstance(node, Span):
        return None
    if isinstance(node, (list, tuple)):
        return tuple(shape(x) for _, x in ast.children(node))
    if attrs.has(type(node)):
        return (type(node).__name__, tuple((name, shape(x)) for name, x in ast.children(node)))
    return node


def _comment_text(comments: list[Token]) -> str:
    return re.sub(r"\s+", "", "".join(str(c) for c in comments))


def format_text(text: str, path: str = "<text>") -> tuple[Optional[str], list[Diagnostic]]:
    """The canonical layout of a card file's text; (None, diagnostics) when it does not parse.
    Raises FormatError if the result would not mean the same (never expected)."""
    module, diags = parse(text, path)
    if module is None:
        return None, diags
    try:
        tree, comments = parse_tree(text)
        lines = _Writer(comments).file(tree, len(text))
    except RecursionError:
        return None, [Diagnostic(Span.whole_file(path), "E005",
                                 "the text is nested too deeply to format",
                                 "split long expressions or deep blocks")]
    out = _render(lines)
    again, _ = parse(out, path)
    if again is None or shape(again.decls) != shape(module.decls):
        raise FormatError(f"{path}: the formatted text would not mean the same")
    if _comment_text(parse_tree(out)[1]) != _comment_text(comments):
        raise FormatError(f"{path}: the formatted text would lose a comment")
    return out, []
