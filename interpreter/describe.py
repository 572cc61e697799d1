"""A card in plain words, from its compiled form (what `raiders show` prints)."""
from __future__ import annotations

from .compiler import CompiledCharacter, CompiledFloor, CompiledItem, CompiledRoom
from .rules import Rules


def describe(rules: Rules, card_id: str) -> list[str]:
    for table in (rules.rooms, rules.characters, rules.items, rules.floors):
        if card_id in table:
            card = table[card_id]
            break
    else:
        from .compiler import compile_card

        card = compile_card(rules.library, card_id, rules.ruleset.strength_players)
    if isinstance(card, CompiledRoom):
        head = f"{card.name}: a {' → '.join(card.kinds)} room."
        extra = []
        if card_id in rules.deck:
            extra.append(f"{rules.deck[card_id]} in the {rules.ruleset.id} deck.")
        if card_id in rules.bosses:
            extra.append(f"One of the {rules.ruleset.id} bosses (last room of the last floor).")
        return [head, *("  " + w for w in card.words), *extra]
    if isinstance(card, CompiledCharacter):
        items = ", ".join(card.items) or "no items"
        return [f"{card.name}: a character. Starts with {card.coins} coin(s), "
                f"{card.wounds} wound(s) and {items}."]
    if isinstance(card, CompiledItem):
        what = {
            "peek": "play it at any time, outside card play, to look at the floor's face-down "
                    "rooms; it goes back to the supply at once",
            "second_card": "play it as your card; once the others are revealed, play a second "
                           "card; it goes back to the supply at once",
            None: "it can be played only where a room allows it",
        }[card.ability]
        supply = rules.supply.get(card_id)
        return [f"{card.name}: an item; {what}." + (f" Supply: {supply}." if supply else "")]
    assert isinstance(card, CompiledFloor)
    faces = ", ".join("up" if c == "U" else "down" for c in card.layout)
    return [f"{card.name}: a floor card; rooms left to right lie face {faces}."]
