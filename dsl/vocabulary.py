"""The vocabulary of the card language: every word the checker accepts and the compiler knows.

One registry, shared by the checker (which reports unknown words with a "did you mean") and the
compiler (which turns each word into behaviour). Adding a word means adding it here and giving
it meaning in `raiders.interpreter.compiler`; nothing here names a card.
"""
from __future__ import annotations

import attrs

# Parameter types a kind may declare, and what a card's field of that type holds.
PARAM_TYPES: dict[str, str] = {
    "int": "a whole number, or an expression read when the room resolves",
    "number": "an expression read when the room resolves (e.g. `lowest_value`)",
    "per_players": "one number per player count, `14 / 18 / 23`, or one number for all",
    "selector": "players chosen by a selector, or several: `lowest, second_lowest`",
    "table": "rows `VALUE -> statement` for values 1..5",
    "effects": "a block of statements",
    "items": "item ids, comma separated (repeat an id for two copies), or `none`",
    "facing": 'five letters U (face up) or D (face down), e.g. "UDUDU"',
    "ability": "an item ability: " + ", ".join(("peek", "second_card")) + ", or `none`",
    "string": 'a "quoted string"',
}

# Fields every card accepts whatever its kind.
COMMON_FIELDS: dict[str, str] = {"name": "string"}

# Selectors: who, among the living players in the room.
SELECTORS: dict[str, str] = {
    "everyone": "every living player",
    "nobody": "no player",
    "highest": "the player(s) who played the highest value",
    "second": "the player(s) who played the second-highest distinct value",
    "lowest": "the player(s) who played the lowest value",
    "second_lowest": "the player(s) who played the second-lowest distinct value",
    "richest": "the player(s) with the most coins",
    "poorest": "the player(s) with the fewest coins",
    "least_wounded": "the player(s) with the fewest wounds",
    "most_wounded": "the player(s) with the most wounds",
    "attacked": "the player(s) the current attack hits",
    "escaped": "the player(s) who escaped with an escape card",
    "them": "the players the current block or handler is about",
}

# Number atoms usable in expressions.
ATOMS: dict[str, str] = {
    "total": "the sum of the values played (escaped players' cards do not count)",
    "highest_value": "the highest value played",
    "lowest_value": "the lowest value played",
    "players": "the number of living players in the room",
    "your_coins": "the coins of the player being affected",
    "your_wounds": "the wounds of the player being affected",
    "death": "the wounds at which a player dies (the ruleset's `death`)",
    "never": "a number no sum reaches (`strength never`: cannot be defeated)",
    "all_same": "true when every counted card has the same value",
    "amount": "inside `modify`: the value being modified",
    "threat": "the monster card revealed for this room from the variant's threat deck (solo)",
}

# Atoms that only make sense somewhere specific.
MODIFY_ONLY_ATOMS = frozenset({"amount"})


@attrs.frozen
class Function:
    params: tuple[str, ...]  # "number" or "selector" per argument
    doc: str


FUNCTIONS: dict[str, Function] = {
    "half": Function(("number",), "half, rounded down"),
    "min": Function(("number", "number"), "the smaller of two numbers"),
    "max": Function(("number", "number"), "the larger of two numbers"),
    "div": Function(("number", "number"), "whole division, rounded down (by 0 gives 0)"),
    "count": Function(("selector",), "how many players a selector picks"),
}

# Effects (statement verbs) and what their argument is.
EFFECTS: dict[str, str] = {
    "wound": "number",
    "heal": "number",
    "gain": "number",
    "lose": "number",
    "give": "item",
    "eliminate": "none",
}

# Events handlers may hook: `instead of EVENT` (replace) and `after EVENT` (react).
EVENTS: dict[str, str] = {
    "attack": "a monster attacks a set of players",
    "wound": "a player takes wounds",
    "heal": "a player heals wounds",
    "gain": "a player gains coins",
    "lose": "a player loses coins",
    "give": "players receive an item from the supply",
    "eliminate": "a player is eliminated",
    "room": "the room has resolved (react only)",
}

# Tags narrowing a handler: `instead of wound on attacked`.
TAGS: dict[str, str] = {"attacked": "the event happens to a player hit by an attack"}

# Quantities `modify` can change, besides the kind's own parameters.
MODIFIABLE: dict[str, str] = {
    "value": "the value a card counts for (`modify value of power 5 to 1`)",
    "wound": "the wounds a player is about to take",
    "heal": "the wounds a player is about to heal",
    "gain": "the coins a player is about to gain",
    "lose": "the coins a player is about to lose",
}

ABILITIES: dict[str, str] = {
    "peek": "played at any time, outside card play: look at the face-down rooms of the floor",
    "second_card": "played as the room card; after the reveal its player plays a second card",
}

# Kinds the engine gives a role to (a card of such a kind, or of a kind derived from it).
ROLE_KINDS = ("character", "item", "floor")

TABLE_KEYS = range(1, 6)
