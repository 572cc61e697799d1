"""Text → AST. One LALR parser, built once per process; syntax errors become Diagnostics."""
from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any, Callable, Optional

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import BasicLexer, LexerThread

from . import ast
from .diagnostics import Diagnostic, did_you_mean, visible
from .spans import Span, located
from .vocabulary import EVENTS, SELECTORS

# Human words for the grammar's terminals, for "expected …" messages.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": 'a "string"',
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "COLON": "`:`",
    "COMMA": "`,`",
    "EQUAL": "`=`",
    "SLASH": "`/`",
    "CMP": "a comparison",
    "ADDOP": "`+` or `-`",
    "MULOP": "`*`",
    "__ANON_0": "`->`",
    "$END": "end of file",
}


def grammar_text() -> str:
    return resources.files("raiders.grammar").joinpath("raiders.lark").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    from raiders.formats.grammarcache import lalr_parser

    return lalr_parser(  # built once, then read from the user's cache (formats/grammarcache.py)
        grammar_text(),
        lexer="contextual",
        propagate_positions=False,  # spans are computed from tokens (see _ToAst)
        maybe_placeholders=True,
    )


@functools.lru_cache(maxsize=1)
def _keywords() -> frozenset[str]:
    """The grammar's keywords (its literal words), for typo hints on syntax errors."""
    words = set()
    for term in _lark().terminals:
        pat = term.pattern
        if pat.type == "str" and pat.value.isalpha():
            words.add(pat.value)
    return frozenset(words)



def _tok_span(path: str, tok: Token) -> Span:
    line, col = located(tok.line), located(tok.column)
    return Span(path, line, col, tok.end_line or line, tok.end_column or col + 1)


# Keyword tokens the tree keeps only for positions; rule methods never see them.
_KEYWORD_TOKENS = frozenset({
    "KIND", "RESOLVE", "PLAYABLE", "UNPLAYABLE", "ESCAPE", "MODIFY", "INSTEAD", "AFTER",
    "POWER", "ATTACK", "SHARE", "IF", "UNLESS", "TABLE", "FOR", "DO", "WOUND", "HEAL", "GAIN",
    "LOSE", "GIVE", "ELIMINATE", "NOT", "LBRACE", "RBRACE", "EXTEND", "MAY", "TAKE", "STEAL",
    "MARK", "UNMARK", "ROOMS", "ROOM", "PASS", "BECOME", "AT", "ONCE"})


def _pos(node) -> Optional[tuple[int, int, int, int]]:
    if isinstance(node, Token):
        line, col = located(node.line), located(node.column)
        return (line, col, node.end_line or line, node.end_column or col + len(node))
    span = getattr(node, "span", None)
    if span is not None:
        return (span.line, span.col, span.end_line, span.end_col)
    if isinstance(node, tuple) and node:
        a, b = _pos(node[0]), _pos(node[-1])
        if a and b:
            return (a[0], a[1], b[2], b[3])
    return None


def _handler_rule(sort: ast.HandlerSort) -> Callable[[Any, Any, list], ast.Handler]:
    """The rule method for `instead of …` or `after …`: they differ only in their sort."""
    def build(self, meta, ch):
        event, card, tag, victim, body = ch
        return ast.Handler(sort, event.text, tag, body, self._s(meta),
                           event.span, tag.span if tag else None,
                           card.text if card else None, card.span if card else None,
                           victim)

    return build


def _effect_rule(verb: str, has_arg: bool = True) -> Callable[[Any, Any, list], ast.Effect]:
    """The rule method for an effect verb of the simple shape `VERB [AMOUNT [UNIT]]`."""
    def build(self, meta, ch):
        arg = ch[0] if has_arg else None
        unit = None
        if verb == "give":
            arg = ast.Name(str(ch[0]), _tok_span(self.path, ch[0]))
        elif len(ch) > 1:
            unit = ast.Word(str(ch[1]), _tok_span(self.path, ch[1]))
        return ast.Effect(verb, arg, self._s(meta), unit)

    return build


class _ToAst:
    """Builds AST nodes from Lark's parse tree, bottom up; no validation (the checker does
    that), so it never raises. A plain dispatch on rule names: cheaper than lark.Transformer,
    which matters for 10,000-file mods."""

    def __init__(self, path: str):
        self.path = path

    def transform(self, tree):
        return self._convert(tree, 0)

    def _convert(self, node, depth: int):
        if node is None:
            return None
        if isinstance(node, Token):
            return self.STRING(None, node) if node.type == "STRING" else node
        if depth > MAX_NESTING:  # refused here, where it stands: the compiler recurses too
            raise _TooDeep(node)
        children = [self._convert(c, depth + 1) for c in node.children]
        span = self._span_of(children)
        kept = [c for c in children if not (isinstance(c, Token) and c.type in _KEYWORD_TOKENS)]
        return getattr(self, node.data)(span, kept)

    def _span_of(self, children) -> Span:
        """From the start of the first positioned child to the end of the last."""
        first: Optional[tuple[int, int, int, int]] = None
        last = first
        for c in children:
            s = _pos(c)
            if s is not None:
                first = first or s
                last = s
        if first is None or last is None:
            return Span(self.path, 1, 1, 1, 1)
        return Span(self.path, first[0], first[1], last[2], last[3])

    @staticmethod
    def _s(span: Span) -> Span:
        return span

    # ---- declarations
    def start(self, meta, decls):
        return list(decls)

    def kind_decl(self, meta, ch):
        name, parent, params, *members = ch
        return ast.KindDecl(str(name), parent.text if parent else None, tuple(params or ()),
                          tuple(members), self._s(meta), _tok_span(self.path, name),
                          parent.span if parent else None)

    def parent(self, meta, ch):
        return ast.Word(str(ch[0]), _tok_span(self.path, ch[0]))

    param_type = parent
    word = parent
    event_card = parent
    event = parent

    def victim(self, meta, ch):
        return ch[0]

    def params(self, meta, ch):
        return tuple(p for p in ch if p is not None)

    def param(self, meta, ch):
        name, typ, default = ch
        return ast.Param(str(name), typ.text if typ else None, default, self._s(meta),
                       typ.span if typ else None)

    def extend_decl(self, meta, ch):
        kind, *members = ch
        return ast.ExtendDecl(str(kind), tuple(members), self._s(meta), _tok_span(self.path, kind))

    def card_decl(self, meta, ch):
        kind, ident, *members = ch
        return ast.CardDecl(str(kind), str(ident), tuple(members), self._s(meta),
                          _tok_span(self.path, kind), _tok_span(self.path, ident))

    def field(self, meta, ch):
        name, value = ch
        return ast.Field(str(name), value, self._s(meta))

    def expr_list(self, meta, ch):
        return ch[0] if len(ch) == 1 else ast.ValueList(tuple(ch), self._s(meta))

    def per_players(self, meta, ch):
        return ast.PerPlayers(tuple(ch), self._s(meta))

    def resolve(self, meta, ch):
        return ast.Resolve(ch[0], self._s(meta))

    # ---- rules
    def playable(self, meta, ch):
        return ast.Playable(ch[0], ch[1], self._s(meta))

    def unplayable(self, meta, ch):
        return ast.Unplayable(ch[0], self._s(meta))

    def escape(self, meta, ch):
        return ast.Escape(ch[0], self._s(meta))

    def modify(self, meta, ch):
        target, card, tag, expr = ch
        return ast.Modify(target.text, card, expr, self._s(meta), target.span, tag)


    instead = _handler_rule("replace")
    after = _handler_rule("react")

    def power_ref(self, meta, ch):
        return ast.CardRef(_int(ch[0]), None, self._s(meta))

    def any_ref(self, meta, ch):
        return ast.CardRef(None, None, _tok_span(self.path, ch[0]), any_item=True)

    def item_ref(self, meta, ch):
        return ast.CardRef(None, str(ch[0]), self._s(meta))

    # ---- statements
    def block(self, meta, ch):
        return ast.Block(tuple(ch), self._s(meta))

    def apply(self, meta, ch):
        return ast.Apply(ch[0], tuple(ch[1:]), self._s(meta))

    def each(self, meta, ch):
        return ast.Each(ch[0], ch[1], self._s(meta))

    def attack(self, meta, ch):
        return ast.Attack(ch[0], ch[1], self._s(meta))

    def share(self, meta, ch):
        return ast.Share(ch[0], ch[1], self._s(meta))

    def if_stmt(self, meta, ch):
        return ast.If(ch[0], ch[1], ch[2], False, self._s(meta))

    def unless(self, meta, ch):
        return ast.If(ch[0], ch[1], None, True, self._s(meta))

    def table_stmt(self, meta, ch):
        return ast.TableLookup(ch[0], ch[1], self._s(meta))

    def for_value(self, meta, ch):
        return ast.ForEachValue(ch[0], self._s(meta))

    def do(self, meta, ch):
        return ast.Do(ch[0], self._s(meta))

    def row(self, meta, ch):
        return ast.Row(_int(ch[0]), ch[1], self._s(meta))

    def selectors(self, meta, ch):
        return tuple(ch)

    def selector(self, meta, ch):
        return ast.Selector(str(ch[0]), self._s(meta))

    def selector_of(self, meta, ch):
        return ast.Selector(str(ch[0]), self._s(meta), str(ch[1]))

    def may(self, meta, ch):
        prompt, body, otherwise = ch
        return ast.May(prompt.value if prompt is not None else None, body, self._s(meta),
                       otherwise)


    def at_once(self, meta, ch):
        return ast.AtOnce(ch[0], self._s(meta))

    def give_power(self, meta, ch):
        return ast.Effect("give_power", ch[0], self._s(meta))

    def take_power(self, meta, ch):
        return ast.Effect("take_power", ch[0], self._s(meta))

    def become(self, meta, ch):
        return ast.Effect("become", ast.Name(str(ch[0]), _tok_span(self.path, ch[0])),
                          self._s(meta))

    def pass_coins(self, meta, ch):
        amount, unit, to = ch
        return ast.Effect("pass", amount, self._s(meta),
                          ast.Word(str(unit), _tok_span(self.path, unit)), source=(to,))

    def pass_item(self, meta, ch):
        item, to = ch
        return ast.Effect("pass_item", ast.Name(str(item), _tok_span(self.path, item)),
                          self._s(meta), source=(to,))

    def take(self, meta, ch):
        return ast.Effect("take", ast.Name(str(ch[0]), _tok_span(self.path, ch[0])), self._s(meta))

    def take_any(self, meta, ch):
        return ast.Effect("take_any", None, self._s(meta))

    def steal_coins(self, meta, ch):
        amount, unit, source = ch
        return ast.Effect("steal", amount, self._s(meta),
                        ast.Word(str(unit), _tok_span(self.path, unit)), source=(source,))

    def steal_item(self, meta, ch):
        item, source = ch
        return ast.Effect("steal_item", ast.Name(str(item), _tok_span(self.path, item)),
                        self._s(meta), source=(source,))

    def mark(self, meta, ch):
        status, count, lasting = ch
        rooms, floor = (None, False) if lasting is None else lasting
        return ast.Effect("mark", ast.Name(str(status), _tok_span(self.path, status)),
                        self._s(meta), count=count, lasting=rooms, lasting_floor=floor)

    def unmark(self, meta, ch):
        status, count = ch
        return ast.Effect("unmark", ast.Name(str(status), _tok_span(self.path, status)),
                        self._s(meta), count=count)

    def for_rooms(self, meta, ch):
        return (ch[0], False)

    def for_floor(self, meta, ch):
        return (None, True)

    wound = _effect_rule("wound")
    heal = _effect_rule("heal")
    gain = _effect_rule("gain")
    lose = _effect_rule("lose")
    give = _effect_rule("give")
    eliminate = _effect_rule("eliminate", has_arg=False)

    # ---- expressions
    def number(self, meta, ch):
        return ast.Num(_int(ch[0]), self._s(meta))

    def name_ref(self, meta, ch):
        return ast.Name(str(ch[0]), self._s(meta))

    def STRING(self, meta, tok):
        return ast.Str(tok[1:-1], _tok_span(self.path, tok))

    def call(self, meta, ch):
        func, *args = ch
        return ast.Call(str(func), tuple(a for a in args if a is not None), self._s(meta))

    def binop(self, meta, ch):
        return ast.BinOp(str(ch[1]), ch[0], ch[2], self._s(meta))

    compare = binop

    def and_(self, meta, ch):
        return ast.BinOp("and", ch[0], ch[1], self._s(meta))

    def or_(self, meta, ch):
        return ast.BinOp("or", ch[0], ch[1], self._s(meta))

    def not_(self, meta, ch):
        return ast.Not(ch[0], self._s(meta))


def _expected_words(expected: set[str]) -> list[str]:
    words = []
    for term in sorted(expected):
        if term in _TERMINAL_WORDS:
            words.append(_TERMINAL_WORDS[term])
            continue
        try:
            pat = _lark().get_terminal(term).pattern
        except KeyError:
            words.append(term)
            continue
        words.append(f"`{pat.value}`" if pat.type == "str" else term.lower())
    return sorted(set(words))


def _unclosed_brace(text: str) -> Optional[tuple[int, int]]:
    """Line and column of the `{` most likely left open, skipping comments and strings.

    Braces are matched as usual; when the file has more `{` than `}`, indentation tells which
    one lacks its `}`: a `}` that starts a line less indented than the line of the `{` it
    closes probably belongs to an outer `{`, so that inner `{` is the one left open."""
    lines = text.split("\n")
    indent = [len(x) - len(x.lstrip()) for x in lines]
    stack: list[tuple[int, int]] = []
    suspect: Optional[tuple[int, int]] = None
    line, col, in_str, in_comment = 1, 0, False, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_str, in_comment = line + 1, 0, False, False
            continue
        if in_comment:
            continue
        if in_str:
            in_str = ch != '"'
        elif ch == "#":
            in_comment = True
        elif ch == '"':
            in_str = True
        elif ch == "{":
            stack.append((line, col))
        elif ch == "}" and stack:
            opened = stack.pop()
            starts_line = col == indent[line - 1] + 1
            if suspect is None and starts_line and opened[0] != line and \
                    indent[line - 1] < indent[opened[0] - 1]:
                suspect = opened
    if not stack:
        return None
    return suspect or stack[-1]


def _keyword_hint(word: str) -> Optional[str]:
    if word in _keywords():
        return None
    return did_you_mean(word, _keywords())


# At most this many syntax errors are reported per file (each costs a parse of the file).
MAX_SYNTAX_ERRORS = 20
# A line that starts a declaration: at the left margin, not a comment or a closing brace.
_DECL_START = re.compile(r"^[a-z_][\w-]*\b", re.M)


def _every_syntax_error(path: str, text: str, first: UnexpectedInput) -> list[Diagnostic]:
    """Every syntax error of the file, not only the first: after an error, the declaration
    it is in is blanked out (its lines kept, so positions stay right) and the file is parsed
    again from the top, until it parses or nothing is left to skip."""
    diags = [_syntax_diagnostic(path, text, first)]
    if diags[0].code == "E003":
        return diags  # a `{` never closed: everything after it belongs to it
    err: Optional[UnexpectedInput] = first
    while err is not None and len(diags) < MAX_SYNTAX_ERRORS:
        line = getattr(err, "line", None)
        if not isinstance(line, int) or line < 1:
            break
        blanked = _skip_declaration(text, line)
        if blanked is None:
            break
        text = blanked
        try:
            _lark().parse(text)
            err = None
        except UnexpectedInput as again:
            d = _syntax_diagnostic(path, text, again)
            if d.code == "E003" or any(d.span == x.span for x in diags):
                break  # what follows a blanked part, not a slip of its own
            diags.append(d)
            err = again
    return diags


def _skip_declaration(text: str, line: int) -> Optional[str]:
    """The text with the declaration holding `line` blanked out (spaces and newlines
    kept), or None when there is no later declaration to go on from."""
    starts = [text.count("\n", 0, m.start()) + 1 for m in _DECL_START.finditer(text)]
    begin = max((s for s in starts if s <= line), default=1)
    after = [s for s in starts if s > line]
    if not after:
        return None
    lines = text.split("\n")
    for i in range(begin - 1, after[0] - 1):
        lines[i] = " " * len(lines[i])
    return "\n".join(lines)


def _slip_hint(text: str, tok: Token, expected: list[str]) -> Optional[str]:
    """A hint for the slips newcomers make most: `else if`, no `:` after a selector,
    `half` without parentheses, `/` for division."""
    before = text[:tok.start_pos] if tok.start_pos is not None else ""
    last = before.split()[-1] if before.split() else ""
    word = str(tok)
    if word == "if" and last == "else":
        return "there is no `else if`: write `else { if … { … } }`"
    if word == "on" and re.search(r"\bfrom\s+[\w()-]+\s*$", before):
        return ("the parts of a handler come in this order: "
                "`after steal(ITEM) on SELECTOR from SELECTOR { … }`")
    if word == "may" and before.rstrip().endswith(":"):
        return "`may` is a statement, not an effect: `you { may \"…\" { … } }`"
    if word in ("except", "but") and last in SELECTORS:
        return (f"a selector takes no `{word}`: leave players out with a condition, "
                f"`{last} {{ unless your_coins == coins(richest) {{ … }} }}`")
    if "`(`" in expected and last in EVENTS and EVENTS[last].card and \
            re.fullmatch(r"[a-z_][\w-]*", word):
        return f"an event names its card in parentheses: `{last}({word})`"
    if last in ("give", "take") and word.isdigit():  # `give 5`: a power card, not an item
        return (f"a power card is `{last} power {word}` (back into the hand, or out of it); "
                f"`{last} ITEM` is an item card")
    if last == "to" and re.search(r"\bgive\s+[\w-]+\s+to\s*$", before):
        return "an item goes to another player with `pass ITEM to SELECTOR`"
    if last == "half" and word != "(":
        return "`half` is a function: `half(coins)`, rounded down"
    if word == "/" and expected:
        return ("`/` only separates numbers per player count (`12 / 16 / 20`); divide with "
                "`div(a, b)` or `half(x)`, rounded down")
    if "`:`" in expected and re.fullmatch(r"[a-z_]\w*", word) and re.search(r"[\w)]\s*$",
                                                                       before) \
            and (last in SELECTORS or not _keyword_hint(last)):  # not `atack lowest`, a typo
        return f"a selector is followed by `:` before its effects: `{last}: {word} …`"
    return None


def _syntax_diagnostic(path: str, text: str, err: UnexpectedInput) -> Diagnostic:
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        opened = _unclosed_brace(text)
        if opened:
            return Diagnostic(Span(path, opened[0], opened[1], opened[0], opened[1] + 1), "E003",
                              "unexpected end of file: this `{` is never closed",
                              "add the missing `}`")
        return Diagnostic(Span(path, line, col, line, col + 1), "E003",
                          "unexpected end of file", "the last declaration is incomplete")
    if isinstance(err, UnexpectedCharacters):
        at = located(err.pos_in_stream)
        ch = text[at] if at < len(text) else "?"
        hint = None
        before = text[:at].split()
        if ch.isupper() and before and before[-1] == "name":
            m = re.match(r"[^\s{}]*", text[at:])  # always matches, the empty word at least
            word = m.group(0) if m else ""
            hint = f'a card\'s name is a quoted string: `name "{word}"`'
        elif ch.isupper():
            hint = "names and ids are lowercase"
        elif ch == "-":
            hint = "`->` maps a table key to its row; a minus sign needs spaces around it"
        return Diagnostic(Span(path, err.line, err.column, err.line, err.column + 1), "E002",
                          f"unexpected character `{visible(ch)}`", hint)
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    opened = _unclosed_brace(text)
    if opened and tok.type == "LBRACE" or (opened and opened[0] < (tok.line or 0) and
                                          tok.type == "NAME" and "`}`" in
                                          _expected_words(set(err.expected))):
        # A `{` left open swallows the next declaration: point at the `{`.
        return Diagnostic(Span(path, opened[0], opened[1], opened[0], opened[1] + 1), "E003",
                          "this `{` is never closed", "add the missing `}`")
    expected = _expected_words(set(err.expected))
    slip = _slip_hint(text, tok, expected)
    if slip:
        return Diagnostic(_tok_span(path, tok), "E001",
                          f"unexpected {_describe(tok)}; expected "
                          + ", ".join(expected[:12]) + (", …" if len(expected) > 12 else ""),
                          slip)
    hint = None
    # A misspelt keyword often parses as a name and fails a little later:
    # look at the first word of the failing line, then at the token itself.
    line_text = text.splitlines()[tok.line - 1] if tok.line else ""
    words = line_text.split()
    first = words[0] if words else ""
    # Only when the failing token follows it closely, and it is not a usual field name.
    near = first in words[:3] and str(tok) in words[1:3]
    if first.isidentifier() and first != str(tok) and near and first not in _FIELD_WORDS:
        hint = _keyword_hint(first)
        if hint:
            hint = f"`{first}` is not a keyword: {hint}"
    if tok.type == "ADDOP" and str(tok) == "-" and re.match(r"-\s*\d", text[tok.start_pos:]):
        hint = "there are no negative numbers: write a positive amount (e.g. `lose 2 coins`)"
    if hint is None and tok.type == "NAME":
        hint = _keyword_hint(str(tok))
    line_before = (text[:tok.start_pos] if tok.start_pos is not None else "").split("\n")[-1]
    if expected == ["a name"] and re.search(r"\b(gain|lose)\s+\S+(\s+\S+)*?\s*$", line_before):
        return Diagnostic(_tok_span(path, tok), "E001",
                          f"unexpected {_describe(tok)}; expected `coins` after the amount",
                          "e.g. `lose 2 coins` (or `lose 1 coin`)")
    if hint is None and "a name" in expected and str(tok) in _keywords():
        guess = did_you_mean(str(tok), _FIELD_WORDS)
        hint = f"`{tok}` is a keyword; a name was expected here" + (
            f": {guess}" if guess else "")
    shown = ", ".join(expected[:12]) + (", …" if len(expected) > 12 else "")
    return Diagnostic(_tok_span(path, tok), "E001",
                      f"unexpected {_describe(tok)}; expected {shown}", hint)


# Common field names, only for hints when a keyword stands where a field name should.
_FIELD_WORDS = ("wounds", "coins", "items", "strength", "chest", "second_chest", "rewards",
                "hits", "ability", "layout", "name", "target")


def _describe(tok: Token) -> str:
    if tok.type == "NAME":
        return f"name `{tok}`"
    if tok.type == "INT":
        return f"number `{tok}`"
    return f"`{tok}`"


ParseResult = tuple[Optional[ast.Module], list[Diagnostic]]


# No card needs a number this large; beyond it a literal is refused before it is converted
# (a 5,000-digit number would otherwise stop Python's int() with a traceback).
MAX_LITERAL = 1_000_000


class _TooLarge(Exception):
    def __init__(self, token):
        super().__init__(str(token)[:20])
        self.token = token


def _int(token) -> int:
    text = str(token)
    if len(text) > len(str(MAX_LITERAL)) or int(text) > MAX_LITERAL:
        raise _TooLarge(token)
    return int(text)


# Levels of the parse tree (a block in a block, a term of a sum): the checker, the compiler
# and the compiled card recurse over them, a few frames each, so the limit keeps them well
# inside ast.RECURSION_LIMIT. Real cards nest about 15 deep; a 600-term sum is about 600.
MAX_NESTING = 1_500
# Cards (and kinds) in one file: every one is checked and compiled; real files hold a dozen.
MAX_CARDS_PER_FILE = 500


class _TooDeep(Exception):
    def __init__(self, node):
        super().__init__("nested too deeply")
        while not isinstance(node, Token):  # its first token: where the too-deep part starts
            node = next((c for c in node.children if c is not None), None)
            if node is None:
                break
        self.token = node


def parse(text: str, path: str = "<text>") -> ParseResult:
    """Parse one file's text; on a syntax error return (None, [diagnostic])."""
    ast.allow_deep_trees()
    if len(text) > ast.MAX_CARD_FILE_BYTES:  # an editor's buffer, text from a scenario: same limit
        return None, [Diagnostic(Span.whole_file(path), "E006",
                                 f"card text is too large ({len(text):,} characters): the "
                                 f"limit is {ast.MAX_CARD_FILE_BYTES:,}", "split it into files")]
    try:
        tree = _lark().parse(text)
        decls = _ToAst(path).transform(tree)
    except UnexpectedInput as err:
        return None, _every_syntax_error(path, text, err)
    except _TooLarge as err:
        tok = err.token
        digits = len(str(tok))
        return None, [Diagnostic(Span(path, tok.line, tok.column, tok.end_line, tok.end_column),
                                 "E301", f"this number is too large: it has {digits} digits, and "
                                 f"the largest is {MAX_LITERAL:,}",
                                 "a monster nobody can beat has `strength never`")]
    except _TooDeep as err:
        tok = err.token
        where = (Span(path, tok.line, tok.column, tok.line, tok.column + 1) if tok is not None
                 else Span.whole_file(path))
        return None, [Diagnostic(where, "E005", f"the text is nested too deeply here (more "
                                 f"than {MAX_NESTING:,} levels)",
                                 "split long expressions or deep blocks")]
    except RecursionError:
        return None, [Diagnostic(Span.whole_file(path), "E005",
                                 "the text is nested too deeply to read",
                                 "split long expressions or deep blocks")]
    if len(decls) > MAX_CARDS_PER_FILE:
        return None, [Diagnostic(decls[MAX_CARDS_PER_FILE].span, "E006",
                                 f"too many cards in one file ({len(decls):,}): the limit is "
                                 f"{MAX_CARDS_PER_FILE}", "split them into several files")]
    return ast.Module(path, tuple(decls)), []



# ---- places in an editor's text ---------------------------------------------------------------

_MAX_SKIPS = 200  # lines passed over by `tokens`: past that many, the rest is not lexed


@functools.lru_cache(maxsize=1)
def _lexer() -> BasicLexer:
    """The grammar's lexer on its own (what `Lark.lex` builds at every call): no parser."""
    return BasicLexer(_lark().lexer_conf)


@functools.lru_cache(maxsize=8)  # an editor asks about the same text several times
def tokens(text: str) -> tuple[Token, ...]:
    """The text's tokens as the grammar's lexer reads them, each with its place (lark's:
    line and column from 1); no comments. Text an editor holds is often half typed: where no
    token matches (a string not closed yet, a stray character), the rest of that line is
    passed over and lexing goes on from the next line (up to _MAX_SKIPS lines a text)."""
    if len(text) > ast.MAX_CARD_FILE_BYTES:
        return ()
    found: list[Token] = []
    offset = lines = 0  # where the text still to lex starts: its offset, the lines before it
    rest = text
    for _ in range(_MAX_SKIPS):
        try:
            for tok in LexerThread.from_text(_lexer(), rest).lex(None):
                if offset:  # (`rest` starts at a newline: columns are the line's already)
                    tok.start_pos, tok.end_pos = located(tok.start_pos) + offset, \
                        located(tok.end_pos) + offset
                    tok.line, tok.end_line = located(tok.line) + lines, \
                        located(tok.end_line) + lines
                found.append(tok)
            break
        except UnexpectedCharacters as err:
            stop = rest.find("\n", located(err.pos_in_stream))
            if stop < 0:
                break
            lines += rest.count("\n", 0, stop)
            offset += stop
            rest = rest[stop:]
    return tuple(found)


def declaration_at(text: str, path: str, line: int, col: int) -> Optional[ast.Decl]:
    """The declaration whose text holds the place (line and column from 1): from the parse
    of the whole text when it parses; else that declaration parsed on its own, the rest of
    the file blanked so that every place stays, found by its braces, or where a line starts
    with a word while one is still open (a card half typed above the others, in the
    canonical layout). None outside a declaration, or when its own text does not parse."""
    at = (line, col)
    module = _parsed_whole(text, path)
    if module is not None:
        return next((d for d in module.decls if (d.span.line, d.span.col) <= at
                     <= (d.span.end_line, d.span.end_col)), None)
    toks = tokens(text)
    start: Optional[Token] = None
    braces = parens = 0
    for i, tok in enumerate(toks):
        if start is not None and tok.column == 1 and tok.type != "RBRACE" and (braces or parens):
            end = toks[i - 1]  # a word at a line's start: the one before was left open
            if (start.line, start.column) <= at <= (end.end_line, end.end_column):
                return _parsed_alone(text, path, located(start.start_pos),
                                     located(end.end_pos))
            start, braces, parens = None, 0, 0
        if start is None:
            start = tok
        if tok.type == "LPAR":
            parens += 1
        elif tok.type == "RPAR":
            parens = max(0, parens - 1)
        elif tok.type == "LBRACE":
            braces += 1
        elif tok.type == "RBRACE" and braces > 0:
            braces -= 1
        if (braces == 0 and parens == 0 and tok.type == "RBRACE") or i + 1 == len(toks):
            if (start.line, start.column) <= at <= (tok.end_line, tok.end_column):
                return _parsed_alone(text, path, located(start.start_pos), located(tok.end_pos))
            start = None
    return None


@functools.lru_cache(maxsize=8)
def _parsed_whole(text: str, path: str) -> Optional[ast.Module]:
    return parse(text, path)[0]


@functools.lru_cache(maxsize=8)
def _parsed_alone(text: str, path: str, begin: int, end: int) -> Optional[ast.Decl]:
    blank = functools.partial(re.sub, r"[^\n]", " ")
    module, _ = parse(blank(text[:begin]) + text[begin:end] + blank(text[end:]), path)
    return module.decls[0] if module is not None and len(module.decls) == 1 else None
