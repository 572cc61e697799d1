"""A card in plain words, from its compiled form (what `raiders show` prints)."""
from __future__ import annotations

import re
from typing import Iterable, Optional

from raiders.dsl.diagnostics import an

from .compiled import CompiledCharacter, CompiledFloor, CompiledItem, CompiledRoom, CompiledStatus
from .rules import Rules
from .state import Card


def compiled(rules: Rules, card_id: str):
    """A card of the game as compiled (rooms, characters, items and floors are compiled with
    the rules; any other card, a status or a house rule, now)."""
    for table in (rules.rooms, rules.characters, rules.items, rules.floors):
        if card_id in table:
            return table[card_id]
    from .compiler import compile_card

    return compile_card(rules.library, card_id, rules.ruleset.strength_players)


def describe(rules: Rules, card_id: str) -> list[str]:
    card = compiled(rules, card_id)
    if isinstance(card, CompiledRoom):
        head = f"{card.name}: {an(' → '.join(card.kinds))} room."
        extra = []
        if card_id in rules.deck:
            extra.append(f"{rules.deck[card_id]} in the {rules.ruleset.id} deck.")
        if card_id in rules.bosses:
            extra.append(f"One of the {rules.ruleset.id} bosses (last room of the last floor).")
        return [head, *("  " + plurals(w) for w in card.words), *extra]
    if isinstance(card, CompiledCharacter):
        items = item_names(rules, card.items) or "no items"
        head = plurals(f"{card.name}: a character. Starts with {card.coins} coin(s), "
                       f"{card.wounds} wound(s) and {items}.")
    elif isinstance(card, CompiledItem):
        what = {
            "peek": "play it at any time, outside card play, to look at the floor's face-down "
                    "rooms; it goes back to the supply at once",
            "second_card": "play it as your card; once the others are revealed, play a second "
                           "card; it goes back to the supply at once",
            None: "it can be played only where a room allows it" if card.value is None else
                  "it can be played as a card (see below)",
        }[card.ability]
        supply = rules.supply.get(card_id)
        head = f"{card.name}: an item; {what}." + (f" Supply: {supply}." if supply else "")
    elif isinstance(card, CompiledFloor):
        faces = ", ".join("up" if c == "U" else "down" for c in card.layout)
        head = f"{card.name}: a floor card; rooms left to right lie face {faces}."
    elif isinstance(card, CompiledStatus):
        head = (f"{card.name}: a status (`mark {card_id}`); its rules run for whoever has it, "
                "for as long as it lasts.")
    else:
        head = f"{card.name}: a house rule, in play the whole game."
    # the rules a held card, a floor or a house rule adds to the game, in words
    return [head, *("  " + plurals(w) for w in card.words)]


_PER_PLAYERS = re.compile(r"(\d+(?:/\d+)+) for (\d+)\.\.(\d+) players")
_PLURAL = re.compile(r"\b(1|-1|an?|one) (\w+)\(s\)|(\w+)\(s\)")


def card_name(card: Card, rules: Optional[Rules] = None) -> str:
    """A card as a person reads it: an item by the name on its card (`war-axe` → `War Axe`),
    a power card as its value; an id the rules do not know stays an id."""
    if rules is not None and isinstance(card, str) and card in rules.items:
        return rules.items[card].name
    return str(card)


def item_names(rules: Optional[Rules], items: Iterable[Card]) -> str:
    """Items by the names on their cards, listed: `War Axe, Lantern`."""
    return ", ".join(card_name(i, rules) for i in items)


def count(n: int, word: str) -> str:
    """`1 coin`, `2 coins`, `0 coins`."""
    return f"{n} {word}" if n in (1, -1) else f"{n} {word}s"


def plurals(text: str) -> str:
    """`1 coin(s)` → `1 coin`, `2 wound(s)` → `2 wounds`: the words the compiler and the
    narration write once for any number, made right for the number in front."""
    def fix(m: re.Match) -> str:
        if m.group(2):
            return f"{m.group(1)} {m.group(2)}"
        return m.group(3) + "s"

    return _PLURAL.sub(fix, text)


def for_players(text: str, players: int) -> str:
    """`14/18/23 for 3..5 players` → `18 for 4 players`: a card's words at one table."""
    def pick(m: re.Match) -> str:
        values = m.group(1).split("/")
        first = int(m.group(2))
        i = min(max(players - first, 0), len(values) - 1)
        return f"{values[i]} for {players} player{'s' if players != 1 else ''}"

    return _PER_PLAYERS.sub(pick, text)


_NUMBER_LINE = re.compile(r"^([a-z_]+): (-?\d+)(?: for \d+ players?)?\.$")


def room_numbers(rules: Rules, card_id: str, players: int) -> str:
    """A room's numbers at a table of `players`, short (`strength 18, wounds 2`): for a list of
    rooms to come; "" for a room without any (its words say what it does)."""
    found = [_NUMBER_LINE.match(w) for w in room_words(rules, card_id, players)]
    return ", ".join(f"{m.group(1).replace('_', ' ')} {m.group(2)}" for m in found if m)


def room_words(rules: Rules, card_id: str, players: int) -> list[str]:
    """What a room does at a table of `players`, in words (the human seat's prompt, the dealt
    dungeon): the compiled card's words with the numbers for that many players."""
    room = rules.rooms[card_id]
    return [plurals(for_players(w, players)) for w in room.words]
