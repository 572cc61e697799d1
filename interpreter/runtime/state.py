"""Game state: players, plays, supplies. Plain mutable attrs classes; the engine owns them."""
from __future__ import annotations

from typing import Optional, Union

import attrs

Card = Union[int, str]  # a power value 1..5, or an item id

POWER_CARDS = (1, 2, 3, 4, 5)


@attrs.define(eq=False, slots=True)
class Mark:
    """A status on a player: how many, and until when (None: the rest of the game)."""

    count: int
    until_room: Optional[int] = None  # gone once this many rooms are done
    until_floor: Optional[int] = None  # gone at the end of this floor (0-based)


@attrs.define(eq=False)
class Player:
    seat: int
    name: str
    character: str = ""
    coins: int = 0
    wounds: int = 0
    hand: list[int] = attrs.Factory(lambda: list(POWER_CARDS))
    items: list[str] = attrs.Factory(list)  # kept sorted, so states compare and log stably
    out: Optional[str] = None  # why this player cannot win: eliminated, dead, unconscious…
    dead: bool = False  # dead players leave the game (classic C-7); eliminated ones play on
    marks: dict[str, Mark] = attrs.Factory(dict)  # statuses, by status card id
    # statuses on the cards the player holds (`this_card: mark wear`), by card id: the item's
    # copies share them, and they leave with the first copy that goes (docs/dsl.md)
    card_marks: Optional[dict[str, dict[str, Mark]]] = None

    def mark_count(self, status: str) -> int:
        m = self.marks.get(status) if self.marks else None
        return m.count if m is not None else 0

    def give_item(self, item: str, marks: Optional[dict[str, Mark]] = None) -> None:
        """One copy of an item into the hand, with the statuses on that card (if it had any:
        a card passed or stolen keeps them; they join those of the copies already held)."""
        self.items.append(item)
        self.items.sort()
        if marks:
            if self.card_marks is None:
                self.card_marks = {}
            mine = self.card_marks.setdefault(item, {})
            for status, m in marks.items():
                had = mine.get(status)
                if had is None:
                    mine[status] = m
                else:
                    had.count += m.count

    def take_item(self, item: str) -> Optional[dict[str, Mark]]:
        """One copy of an item out of the hand; the statuses on it, which leave with it."""
        self.items.remove(item)
        if self.card_marks:
            return self.card_marks.pop(item, None)
        return None



@attrs.define(eq=False, slots=True)
class Play:
    """One player's card for a room: the card that counts, and the second-card items before it.
    The engine makes a room's plays field by field (`Game.card_play`): a new field is set there
    too."""

    player: Player
    card: Optional[Card]  # the card that counts (the first, in a room of several cards)
    chain: tuple[str, ...] = ()
    value: Optional[int] = None  # what the card counts for here; None when escaped
    escaped: bool = False
    # Rooms where a player plays several cards (`cards 2`): every card that counts, in order,
    # and everything put down in the order played (second-card items included), for the log.
    cards: Optional[tuple[Optional[Card], ...]] = None  # None: a card the player lacked
    sequence: Optional[tuple[Card, ...]] = None
    card_values: tuple[int, ...] = ()  # each counted card's value, when several

    @property
    def played(self) -> tuple[Card, ...]:
        """Everything the player put down, in order (a log's entry)."""
        if self.sequence is not None:
            return self.sequence
        return self.chain if self.card is None else (*self.chain, self.card)


@attrs.define
class RoomSlot:
    card: str
    face_up: bool


@attrs.define
class Floor:
    rooms: list[RoomSlot]
    floor_card: Optional[str] = None
