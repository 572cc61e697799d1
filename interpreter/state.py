"""Game state: players, plays, supplies. Plain mutable attrs classes; the engine owns them."""
from __future__ import annotations

from typing import Optional, Union

import attrs

Card = Union[int, str]  # a power value 1..5, or an item id

POWER_CARDS = (1, 2, 3, 4, 5)


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

    def give_item(self, item: str) -> None:
        self.items.append(item)
        self.items.sort()

    def take_item(self, item: str) -> None:
        self.items.remove(item)

    def snapshot(self) -> dict:
        return {"coins": self.coins, "wounds": self.wounds, "items": list(self.items)}


@attrs.define(eq=False, slots=True)
class Play:
    """One player's card for a room: the card that counts, and the second-card items before it."""

    player: Player
    card: Card
    chain: tuple[str, ...] = ()
    value: Optional[int] = None  # what the card counts for here; None when escaped
    escaped: bool = False


@attrs.define
class RoomSlot:
    card: str
    face_up: bool


@attrs.define
class Floor:
    rooms: list[RoomSlot]
    floor_card: Optional[str] = None
