"""The compiled cards: what the compiler (compiler.py) makes of each card and the bus (room.py)
plays, the one contract between them. A card compiles to the rules it adds to the bus while in
play (`CardRules`: modifiers, replacements, reactions) and, for a room, how it is resolved;
every function in it is Python the compiler generated (codegen.py). Nothing here compiles or
plays: the bus depends on these shapes, not on the compiler.

The functions have these shapes (`ctx` is a `room.Context`):
  procedure, handler  f(ctx, subject) -> None      subject: the players it is about, or None
  modifier, parameter f(ctx, p) -> int           p: the player it is read for, or None
  tag                 f(ctx, player, owner) -> bool
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Protocol, Sequence

import attrs

from .reads import EVERYTHING, Reads
from .state import Card, Player

NEVER = 10**9  # `never`: a strength no sum reaches

Expr = Callable[[Any, Optional[Player]], int]
Select = Callable[[Any, Optional[list]], list]
Stmt = Callable[[Any, Optional[list]], None]


# A tag's test: does the event's player count (ctx, player, owner of the handler's card)?
Pred = Callable[[Any, Player, Optional[Player]], bool]


@attrs.define(eq=False)
class Handler:
    sort: str  # replace | react
    event: str
    tag: Optional[str]
    body: Stmt
    words: str
    card: str
    pred: Optional[Pred] = None  # from the tag; None: every player
    about: Optional[str] = None  # `mark(poison)`: only events about this item or status
    victim: Optional[Pred] = None  # `steal from you`: only when this player is stolen from
    # What the tag needs the event's player to have, when the tag says it plainly (`on
    # marked(S)`: ("marked", S); `on holds(I)`: ("holds", I)); None: a tag of another kind, or
    # none. A test the bus can make for many handlers at once (room.Gate), never instead of
    # `pred`.
    needs: Optional[tuple[str, str]] = None


class WhyListener(Protocol):
    """What the bus tells a recorder of which card's rule did what (`replay --trace`, the
    viewer: interpreter/records/why.py)."""

    def modified(self, ctx: Any, event: Optional[str], p: Optional[Player], before: int,
                 after: int, fn: Any, owner: Optional[Player]) -> None: ...

    def ran(self, ctx: Any, h: Handler, owner: Optional[Player], subject: Sequence[Player],
            amount: int) -> None: ...


@attrs.define(eq=False)
class CardRules:
    """What a card adds to the game's bus while it is in play (docs/dsl.md, "Events").

    Each list keeps declaration order, the kind's rules before the card's."""

    value_mods: list[tuple[Optional[Card], Expr, Optional[Pred]]] = attrs.Factory(list)
    effect_mods: dict[str, list[tuple[Expr, Optional[Pred]]]] = attrs.Factory(dict)
    param_mods: dict[str, list[tuple[Expr, Optional[Pred]]]] = attrs.Factory(dict)
    replacers: dict[str, list[Handler]] = attrs.Factory(dict)
    reactors: dict[str, list[Handler]] = attrs.Factory(dict)

    @property
    def empty(self) -> bool:
        return not (self.value_mods or self.effect_mods or self.param_mods or self.replacers
                    or self.reactors)


@attrs.define(eq=False)
class CompiledRoom:
    id: str
    name: str
    kind: str
    kinds: tuple[str, ...]  # the kind and its ancestors, most specific first
    face: str  # the kind the table sees it as until it is played: a disguise's parent
    playable: dict[str, Expr]  # item -> the value it counts for here
    escapes: frozenset[str]
    unplayable: frozenset[str]
    rules: CardRules
    resolve: Stmt
    params: dict[str, Expr]
    words: list[str]  # the card in plain words, one line per rule
    any_item: Optional[Expr] = None  # `playable any as N`: what other items count for
    cards_each: int = 1  # how a room is played (ROOM_SHAPE): cards per player per round
    rounds: int = 1
    missing: int = 0  # what a card counts for when a player has none left
    until: Optional[Expr] = None  # after a round but the last: the room ends once it holds
    source: str = ""  # the Python the card compiled to (`raiders show --python`)
    # what its rules may read and take (reads.py); a room made otherwise: everything
    reads: Reads = EVERYTHING
    own_bus: Any = None  # the bus when only this room's rules are in play (built once)

    @property
    def value_mods(self):
        return self.rules.value_mods


@attrs.define(eq=False)
class CompiledCard:
    """What a card that is not a room compiles to: its id, its name, the rules it adds to the
    bus while it is in play, and its plain words."""

    id: str
    name: str
    rules: CardRules = attrs.Factory(CardRules)
    words: list[str] = attrs.Factory(list)
    source: str = ""  # the Python the card compiled to (`raiders show --python`)
    reads: Reads = EVERYTHING  # what its rules may read and take (reads.py)


@attrs.define(eq=False)
class CompiledCharacter(CompiledCard):
    coins: int = 0
    wounds: int = 0
    items: tuple[str, ...] = ()


@attrs.define(eq=False)
class CompiledItem(CompiledCard):
    ability: Optional[str] = None
    # `playable SELF as EXPR` on the item: what it counts for in a room that says nothing of
    # it (`with_item_values` puts it into those rooms' `playable`)
    value: Optional[Expr] = None


@attrs.define(eq=False)
class CompiledFloor(CompiledCard):
    layout: str = ""


@attrs.define(eq=False)
class CompiledStatus(CompiledCard):
    """A status a player can have (`mark NAME`): its rules run for whoever has it."""


@attrs.define(eq=False)
class CompiledRule(CompiledCard):
    """A house rule: in play the whole game."""
