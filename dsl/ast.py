"""The typed AST of the card language. Every node is frozen and carries its span."""
from __future__ import annotations

import sys
from typing import Iterator, Literal, Optional, Union

import attrs

from .spans import Span

# Deeply nested card text (a sum of hundreds of terms, blocks in blocks) needs more than
# Python's default recursion depth: to transform it (the parser) and to walk the tree after
# (the checker, the compiler, the compiled card). Beyond the parser's MAX_NESTING it is refused
# with E005, never a crash.
RECURSION_LIMIT = 12_000

# Card text (a file, an editor's buffer, a scenario's room) costs far more per byte than YAML
# (about 15 s a megabyte to parse and check); the largest card file shipped is 3 KB.
MAX_CARD_FILE_BYTES = 200_000


def allow_deep_trees() -> None:
    """Raise Python's recursion limit to what a tree the parser accepts needs. Called wherever
    a tree enters the process: parsed, or read back from the user's cache (where no parser
    ran to raise it)."""
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)

# What a handler does with its event: `instead of` replaces it, `after` reacts to it.
HandlerSort = Literal["replace", "react"]

# ---- expressions --------------------------------------------------------------


@attrs.frozen
class Num:
    value: int
    span: Span


@attrs.frozen
class Name:
    """A bare name: a parameter, a number atom, a selector or an item, by context."""

    name: str
    span: Span


@attrs.frozen
class Str:
    value: str
    span: Span


@attrs.frozen
class Call:
    func: str
    args: tuple["Expr", ...]
    span: Span

    def name_arg(self, i: int) -> str:
        """The i-th argument, which the function's signature makes a bare name."""
        return name_text(self.args[i])


@attrs.frozen
class BinOp:
    op: str  # + - * >= <= == != > < and or
    left: "Expr"
    right: "Expr"
    span: Span


@attrs.frozen
class Not:
    operand: "Expr"
    span: Span


Expr = Union[Num, Name, Str, Call, BinOp, Not]

# ---- field values that are not expressions -------------------------------------


@attrs.frozen
class PerPlayers:
    """`14 / 18 / 23`: one value per player count, the first for the ruleset's smallest count."""

    values: tuple[Expr, ...]
    span: Span


@attrs.frozen
class ValueList:
    values: tuple[Expr, ...]
    span: Span


# ---- statements -----------------------------------------------------------------


@attrs.frozen
class Selector:
    """`lowest`, a selector parameter, or a word with an argument: `holds(key)`."""

    name: str
    span: Span
    arg: Optional[str] = None

    def __str__(self) -> str:
        return self.name if self.arg is None else f"{self.name}({self.arg})"


@attrs.frozen
class Word:
    """A bare word with its own span (an event, a tag, a type, a unit)."""

    text: str
    span: Span


@attrs.frozen
class Effect:
    verb: str  # a key of dsl/vocabulary.py EFFECTS
    # amount (a power card for give_power/take_power); a Name for give, take, steal_item,
    # pass_item (the item), mark (the status), become (the room card)
    arg: Optional[Expr]
    span: Span
    unit: Optional[Word] = None  # `coins` after gain/lose/steal
    source: tuple["Selector", ...] = ()  # steal … from SOURCE; pass … to SOURCE
    count: Optional[Expr] = None  # mark NAME by COUNT
    lasting: Optional[Expr] = None  # mark … lasting N rooms
    lasting_floor: bool = False  # mark … lasting floor

    @property
    def named(self) -> str:
        """The item, status or room card `arg` names, for the verbs that take a name."""
        return name_text(self.arg)


@attrs.frozen
class Apply:
    """`richest: lose 3 coins, wound 1` — effects applied to a set of players as a group."""

    selectors: tuple[Selector, ...]
    effects: tuple[Effect, ...]
    span: Span


@attrs.frozen
class Each:
    """`highest { ... }` — run a block with the selected players as its subject."""

    selectors: tuple[Selector, ...]
    body: "Block"
    span: Span


@attrs.frozen
class Attack:
    selectors: tuple[Selector, ...]
    body: "Block"
    span: Span


@attrs.frozen
class Share:
    amount: Expr
    selectors: tuple[Selector, ...]
    span: Span


@attrs.frozen
class If:
    cond: Expr
    then: "Block"
    otherwise: Optional["Block"]
    negate: bool  # True for `unless`
    span: Span


@attrs.frozen
class TableLookup:
    """`table highest_value hits` — run the row of `table` keyed by the value of `key`."""

    key: Expr
    table: Union[Name, "Block"]
    span: Span


@attrs.frozen
class ForEachValue:
    """`for each value rewards` — players who played v, as a group, get row v."""

    table: Union[Name, "Block"]
    span: Span


@attrs.frozen
class Row:
    key: int
    body: "Stmt"
    span: Span


@attrs.frozen
class Do:
    """`do hit` — run the statements of an `effects` parameter."""

    name: Name
    span: Span


@attrs.frozen
class May:
    """`may "question" { … } [else { … }]` — each player it is about chooses whether the
    first block happens to them; those who say no get the `else` block, if any."""

    prompt: Optional[str]
    body: "Block"
    span: Span
    otherwise: Optional["Block"] = None


@attrs.frozen
class AtOnce:
    """`at once { … }` — every selector, condition and amount in the block is read first;
    then its effects happen, in the order written."""

    body: "Block"
    span: Span


@attrs.frozen
class Block:
    stmts: tuple["Stmt", ...]
    span: Span


Stmt = Union[Apply, Each, Attack, Share, If, TableLookup, ForEachValue, Row, Do, May, AtOnce,
             Effect, Block]

# ---- members of kinds and cards -----------------------------------------------------


@attrs.frozen
class CardRef:
    """`power 5`, an item id, or `any` (every item)."""

    power: Optional[int]
    item: Optional[str]
    span: Span
    any_item: bool = False

    def __str__(self) -> str:
        if self.any_item:
            return "any item"
        return f"power {self.power}" if self.power is not None else str(self.item)


@attrs.frozen
class Field:
    name: str
    value: Union[Expr, PerPlayers, ValueList, Block]
    span: Span


@attrs.frozen
class Playable:
    card: CardRef
    value: Optional[Expr]
    span: Span


@attrs.frozen
class Unplayable:
    card: CardRef
    span: Span


@attrs.frozen
class Escape:
    card: CardRef
    span: Span


@attrs.frozen
class Modify:
    """`modify value of power 5 to 1`, `modify strength to never`, `modify wound to amount + 1`."""

    target: str
    card: Optional[CardRef]
    expr: Expr
    span: Span
    target_span: Optional[Span] = None
    tag: Optional[Selector] = None  # `on you`: only for the players the selector picks


@attrs.frozen
class Handler:
    """`instead of EVENT[(CARD)] [on TAG] [from VICTIM] {…}` (replace) or `after …` (react)."""

    sort: HandlerSort
    event: str
    tag: Optional[Selector]  # `on attacked`: only when the event happens to these players
    body: Block
    span: Span
    event_span: Optional[Span] = None
    tag_span: Optional[Span] = None
    card: Optional[str] = None  # `mark(poison)`: only when the event is about this card
    card_span: Optional[Span] = None
    victim: Optional[Selector] = None  # `steal from you`: only when these are stolen from


@attrs.frozen
class Resolve:
    body: Block
    span: Span


Rule = Union[Playable, Unplayable, Escape, Modify, Handler]
Member = Union[Field, Rule, Resolve]

# ---- declarations ---------------------------------------------------------------------


@attrs.frozen
class Param:
    name: str
    type: Optional[str]  # None when a child kind only changes a parent's default
    default: Optional[Union[Expr, PerPlayers, Block]]
    span: Span
    type_span: Optional[Span] = None


@attrs.frozen
class KindDecl:
    name: str
    parent: Optional[str]
    params: tuple[Param, ...]
    members: tuple[Member, ...]
    span: Span
    name_span: Span
    parent_span: Optional[Span] = None


@attrs.frozen
class ExtendDecl:
    """`extend monster { … }` — rules added to a kind declared elsewhere (a mod's way to
    change every card of a built-in kind without copying it)."""

    kind: str
    members: tuple[Member, ...]
    span: Span
    kind_span: Span


@attrs.frozen
class CardDecl:
    kind: str
    id: str
    members: tuple[Member, ...]
    span: Span
    kind_span: Span
    id_span: Span


Decl = Union[KindDecl, CardDecl, ExtendDecl]


@attrs.frozen
class Module:
    path: str
    decls: tuple[Decl, ...]


def const_value(e: object) -> Optional[int]:
    """The value of an expression made only of numbers and + - *, else None."""
    if isinstance(e, Num):
        return e.value
    if isinstance(e, BinOp) and e.op in ("+", "-", "*"):
        a, b = const_value(e.left), const_value(e.right)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return None


def children(node: object) -> Iterator[tuple[Optional[str], object]]:
    """What lies directly under a node of the tree, in source order: (field name, value) for
    each field of an AST node, its positions (spans) left out; (None, item) for each item of
    a tuple or list; nothing under anything else (a number, a word, a span). The one way down
    a tree: every walk (`walk`, the checker's, the loops', the formatter's, a sweep's) goes
    through it."""
    if isinstance(node, (tuple, list)):
        for item in node:
            yield None, item
        return
    for name in _field_names(type(node)) or ():
        value = getattr(node, name)
        if type(value) is not Span:
            yield name, value


def _field_names(kind: type) -> Optional[tuple[str, ...]]:
    """A node class's field names (None: not a node), looked up once: walks are hot."""
    try:
        return _FIELDS[kind]
    except KeyError:
        names = (tuple(f.name for f in attrs.fields(kind))
                 if attrs.has(kind) and kind is not Span else None)
        _FIELDS[kind] = names
        return names


_FIELDS: dict[type, Optional[tuple[str, ...]]] = {}


def walk(node: object) -> Iterator[object]:
    """Every AST node under `node` (itself included), depth first, in source order: the one
    tree walk the checker, the rulesets and the tools share. (What `children` gives, with a
    stack of its own: nested generators cost a step per level for every node they pass up,
    and the checker walks every tree of a mod several times.)"""
    stack = [node]
    while stack:
        here = stack.pop()
        if isinstance(here, (tuple, list)):
            stack.extend(reversed(here))
            continue
        names = _field_names(type(here))
        if names is None:
            continue  # a number, a word, a span
        yield here
        stack.extend(reversed([getattr(here, name) for name in names]))


def same_shape(a: object, b: object) -> bool:
    """Whether two trees are equal but for their positions (spans): the same card written in
    two files, or in two versions of a mod. (A stack, not recursion: a tree may be deeper
    than Python's recursion allows.)"""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if type(x) is not type(y):
            return False
        if isinstance(x, (tuple, list)):
            assert isinstance(y, (tuple, list))
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
            continue
        names = _field_names(type(x))
        if names is None:
            if x != y:
                return False
            continue
        for name in names:
            u, v = getattr(x, name), getattr(y, name)
            if type(u) is not Span and type(v) is not Span:
                stack.append((u, v))
    return True


def name_text(e: object) -> str:
    """The word a checked tree holds where the grammar allows only a bare name (an item, a
    status, a room card, a list entry): the checker refused anything else before compiling."""
    if not isinstance(e, Name):
        raise TypeError(f"a bare name was expected here, not {type(e).__name__}")
    return e.name

