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

    def mark_count(self, status: str) -> int:
        m = self.marks.get(status) if self.marks else None
        return m.count if m is not None else 0

    def give_item(self, item: str) -> None:
        self.items.append(item)
        self.items.sort()

    def take_item(self, item: str) -> None:
        self.items.remove(item)



@attrs.define(eq=False, slots=True)
class Play:
    """One player's card for a room: the card that counts, and the second-card items before it."""

    player: Player
    card: Optional[Card]  # the card that counts (the first, in a room of several cards)
    chain: tuple[str, ...] = ()
    value: Optional[int] = None  # what the card counts for here; None when escaped
    escaped: bool = False
    # Rooms where a player plays several cards (`cards 2`): every card that counts, in order,
    # and everything put down in the order played (second-card items included), for the log.
    cards: Optional[tuple[Card, ...]] = None
    sequence: Optional[tuple[Card, ...]] = None
    card_values: tuple[int, ...] = ()  # each counted card's value, when several

    @property
    def played(self) -> tuple[Card, ...]:
        """Everything the player put down, in order (a log's entry)."""
        return self.sequence if self.sequence is not None else (*self.chain, self.card)


@attrs.define
class RoomSlot:
    card: str
    face_up: bool


@attrs.define
class Floor:
    rooms: list[RoomSlot]
    floor_card: Optional[str] = None
