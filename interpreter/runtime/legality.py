"""Which cards a player may put down for a room (X-3 and the room's own rules): power cards
from the hand, items where the room says (`playable`, `escape`, `playable any`, never
`unplayable`), and second-card items, which need another card after them. The engine asks
what is legal (`legal_cards`); replays and scenarios ask why a logged play is not
(`check_play`). A question about the cards and the room only: nothing here plays.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Iterable, Mapping, Optional, Sequence

from .compiled import CompiledRoom
from .state import Card, Player

SECOND_CARD = "second_card"
# no item's ability known: what a room itself allows of an item
NO_ABILITIES: Mapping[str, Optional[str]] = MappingProxyType({})


def item_plays(room: CompiledRoom, abilities: Mapping[str, Optional[str]]) -> dict[str, bool]:
    """The items the rules know that may be put down as a card for this room, each with
    whether it is a second-card item (another card follows it, X-3). It depends on the room
    and the items only, so the engine works it out once per room (`Rules.item_plays`)
    instead of at every decision."""
    return {item: is_second_card(room, item, abilities) for item in abilities
            if may_put_down(room, item, abilities)}


def may_put_down(room: CompiledRoom, item: str,
                 abilities: Mapping[str, Optional[str]] = NO_ABILITIES) -> bool:
    """Whether an item may be put down as a card for this room: never where the room says
    `unplayable` (whatever its kind allows), else where the room says `playable` (one item or
    any), `escape`, or the item is a second-card item. The engine asks it (`item_plays`,
    `legal_cards`), and so does a room's plain words (compiler.py `_true_item_words`): they
    say only what it allows."""
    return item not in room.unplayable and (
        room.any_item is not None or item in room.playable or item in room.escapes
        or abilities.get(item) == SECOND_CARD)


def legal_cards(room: CompiledRoom, player: Player, abilities: Mapping[str, Optional[str]],
                taken: Sequence[Card] = (),
                plays: Optional[Mapping[str, bool]] = None) -> list[Card]:
    """The cards a player may put down as a card for this room (X-3, the room's rules);
    `taken`: cards the player already put down in this round; `plays`: the room's
    `item_plays`, when the caller keeps it."""
    hand = player.hand
    if taken:
        hand = [c for c in hand if c not in taken]
    cards: list[Card] = list(hand)
    if not player.items:
        return cards
    items = player.items
    if taken:
        items = list(items)
        for c in taken:
            if c.__class__ is str and c in items:
                items.remove(c)
    if plays is None:
        plays = item_plays(room, abilities)
    # each item once (a player may hold two of one): one item, or two different ones, need no
    # dict to say so
    n_items = len(items)
    for item in items if n_items == 1 or (n_items == 2 and items[0] != items[1]) \
            else dict.fromkeys(items):
        # an item the rules do not list (a scenario's own) is judged on the spot
        if item in plays or (item not in abilities and may_put_down(room, item, abilities)):
            cards.append(item)
    # (with no hand left every card is an item)
    if not hand and cards and all(isinstance(c, str) and plays.get(c) for c in cards):
        return []  # a second-card item needs a card to follow it; there is none
    return cards


def is_second_card(room: CompiledRoom, card: Card, abilities: Mapping[str, Optional[str]]) -> bool:
    """Whether playing this card means playing another after the reveal."""
    return (isinstance(card, str) and abilities.get(card) == SECOND_CARD
            and card not in room.playable and card not in room.escapes
            and room.any_item is None)


def check_play(room: CompiledRoom, player: Player, cards: Sequence[Card],
               abilities: Mapping[str, Optional[str]]) -> Optional[str]:
    """Why a play (a card, or a chain of second-card items then a card) is illegal, or None."""
    held_items = list(player.items)
    hand = list(player.hand)
    if not cards:
        return f"{player.name} played no card (every player plays exactly one, X-3)"
    for i, card in enumerate(cards):
        legal = legal_cards(room, Player(player.seat, player.name, hand=hand, items=held_items),
                            abilities)
        if card not in legal:
            return _why_illegal(room, player, card, hand, held_items,
                                player.items.count(card) if isinstance(card, str) else 0)
        last = i == len(cards) - 1
        chained = is_second_card(room, card, abilities)
        if chained and last:
            return f"{player.name} played a {card} but no second card after it"
        if not chained and not last:
            if isinstance(card, str) and (card in room.escapes or card in room.playable):
                what = "an escape card" if card in room.escapes else "played as a card"
                return (f"{player.name}: in {room.name} a {card} is {what}: it is the "
                        "player's card, with no second card after it")
            return f"{player.name}: only a second-card item may be followed by another card"
        if isinstance(card, str):
            held_items.remove(card)
    return None


def _why_illegal(room: CompiledRoom, player: Player, card: Card, hand: Iterable[int],
                 items: Iterable[str], held: int) -> str:
    who = player.name
    if isinstance(card, int):
        if card not in (1, 2, 3, 4, 5):
            return f"{who} played {card}: power cards are 1..5"
        return f"{who} played power {card}, which is not in their hand ({sorted(hand)})"
    if card not in items:
        if held:
            return f"{who} played a {card} more times than they hold one ({held})"
        return f"{who} played a {card} but holds none"
    if card in room.unplayable:
        return f"{who}: a {card} cannot be played in {room.name}"
    return (f"{who}: a {card} cannot be played in {room.name} (a {room.face}); items are "
            "room cards only where the room says (`playable`), and a peek item is played "
            "outside card play")
