"""The vocabulary of the card language: every word the checker accepts and the compiler knows.

One registry, shared by the checker (which reports unknown words with a "did you mean") and the
compiler (which turns each word into behaviour). Adding a word means adding it here and giving
it meaning in `raiders.interpreter.runtime.compiler`; nothing here names a card.
"""
from __future__ import annotations

from typing import Optional

import attrs

from . import ast

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

@attrs.frozen
class Word:
    """A word of the language: what it means (for the checker's hints, the docs and the
    editor), and the phrase `raiders show` uses for it in a card's plain words."""

    doc: str
    phrase: str


# Fields every card accepts whatever its kind.
COMMON_FIELDS: dict[str, str] = {"name": "string"}

# Selectors: who, among the living players in the room.
SELECTORS: dict[str, Word] = {
    "everyone": Word("every living player", "every player"),
    "nobody": Word("no player", "nobody"),
    "highest": Word("the player(s) who played the highest value",
                    "whoever played the highest value"),
    "second": Word("the player(s) who played the second-highest distinct value",
                   "whoever played the second-highest value"),
    "lowest": Word("the player(s) who played the lowest value", "whoever played the lowest value"),
    "second_lowest": Word("the player(s) who played the second-lowest distinct value",
                          "whoever played the second-lowest value"),
    "tied": Word("the player(s) whose value equals another player's value",
                 "whoever played the same value as someone else"),
    "richest": Word("the player(s) with the most coins", "the richest player(s)"),
    "poorest": Word("the player(s) with the fewest coins", "the poorest player(s)"),
    "least_wounded": Word("the player(s) with the fewest wounds", "the least wounded player(s)"),
    "most_wounded": Word("the player(s) with the most wounds", "the most wounded player(s)"),
    "most_items": Word("the player(s) holding the most item cards",
                       "the player(s) with the most items"),
    "fewest_items": Word("the player(s) holding the fewest item cards",
                         "the player(s) with the fewest items"),
    "attacked": Word("the player(s) the current attack hits", "the attacked player(s)"),
    "escaped": Word("the player(s) who escaped with an escape card", "whoever escaped"),
    "them": Word("the players the current block or handler is about", "them"),
    "you": Word("the player who holds this card (a character, an item or a status)", "you"),
    "others": Word("every living player but the one who holds this card", "everyone else"),
    "first": Word("the first player (variants with a first player)", "the first player"),
    "left": Word("the next living player clockwise from the one who holds this card (the "
                 "next seat in the order of play)", "the player to your left"),
    "right": Word("the living player before the one who holds this card, clockwise (the "
                  "seat before in the order of play)", "the player to your right"),
    "your_left": Word("the next living player clockwise from the player affected (from each "
                      "player the block is about)", "their left neighbour"),
    "your_right": Word("the living player before the player affected, clockwise (of each "
                       "player the block is about)", "their right neighbour"),
}

# Selectors with an argument: `holds(ITEM)`, `played(ITEM)`, `marked(STATUS)`.
SELECTORS_OF: dict[str, tuple[str, str]] = {
    "holds": ("item", "the player(s) holding at least one ITEM"),
    "played": ("item", "the player(s) who played ITEM as one of their cards in this room"),
    "marked": ("status", "the player(s) with the status STATUS"),
}

# Selectors that only make sense on a card someone holds.
OWNER_SELECTORS = frozenset({"you", "others", "left", "right"})

# Selectors read from the players a block is about (nobody where no block has players).
SUBJECT_SELECTORS = frozenset({"them", "your_left", "your_right"})


@attrs.frozen
class Place:
    """A thing on the table that is not a player (docs/dsl.md, "What cards can name"): what
    it is, which effects it takes, and its words."""

    sort: str  # room | dungeon | card
    doc: str
    phrase: str


# Things a card can name besides players. Every one carries statuses (`THING: mark S`,
# `marked(S, THING)`); rooms also take `become` and `do`.
PLACES: dict[str, Place] = {
    "this_room": Place("room", "the room being played (nothing between rooms)", "this room"),
    "next_room": Place("room", "the next room the game plays (the next floor's first after a "
                       "floor's last; nothing after the last room)", "the next room"),
    "previous_room": Place("room", "the room played just before this one on this floor "
                           "(nothing for a floor's first room)", "the previous room"),
    "dungeon": Place("dungeon", "the table itself: its statuses are in play for everyone",
                     "the dungeon"),
    "this_card": Place("card", "the card this rule is written on (an item card in its "
                       "holder's hand, a character; on a room, this room)", "this card"),
}

# What each sort of place takes besides `mark` and `unmark`.
PLACE_EFFECTS: dict[str, frozenset[str]] = {
    "room": frozenset({"mark", "unmark", "become"}),
    "dungeon": frozenset({"mark", "unmark"}),
    "card": frozenset({"mark", "unmark"}),
}
# Selectors that read the cards played in the room: nobody before they are valued.
PLAY_SELECTORS = frozenset({"highest", "second", "lowest", "second_lowest", "tied", "escaped",
                            "played"})

# Selectors that pick one player at most (a `steal` from the same one takes nothing).
ONE_PLAYER_SELECTORS = frozenset({"you", "left", "right", "first"})

# Number atoms usable in expressions.
ATOMS: dict[str, Word] = {
    "total": Word("the sum of the values played (escaped players' cards do not count)",
                  "the sum of the values played"),
    "highest_value": Word("the highest value played", "the highest value played"),
    "lowest_value": Word("the lowest value played", "the lowest value played"),
    "highest_card": Word("the highest single card value put down in the room (not a sum)",
                         "the highest single card played"),
    "players": Word("the number of living players in the room", "the number of players"),
    "your_coins": Word("the coins of the player being affected", "their coins"),
    "your_wounds": Word("the wounds of the player being affected", "their wounds"),
    "your_value": Word("the value the player being affected played (the sum of their cards)",
                       "the value they played"),
    "your_items": Word("how many item cards the player being affected holds",
                       "the items they hold"),
    "death": Word("the wounds at which a player dies (the ruleset's `death`)",
                  "the wounds that kill"),
    "never": Word("a number no sum reaches (`strength never`: cannot be defeated)", "never"),
    "all_same": Word("true when every counted card has the same value",
                     "everyone played the same value"),
    "amount": Word("inside `modify`, and in a handler of a numeric event: the amount",
                   "the amount"),
    "threat": Word("the monster card revealed for this room from the variant's threat deck (solo)",
                   "the monster card revealed for the room"),
    "round": Word("which round of the room is being fought: 1, 2, … (rooms with `rounds`)",
                  "the round being fought"),
    "floor_number": Word("which floor the game is on: 1..5", "the floor's number"),
    "room_number": Word("which room of its floor is being played: 1..5 (0 between rooms)",
                        "the room's place on the floor"),
    "rooms_played": Word("how many rooms the game has resolved before this one",
                         "the rooms played so far"),
    "your_hand": Word("how many power cards the player being affected has in hand",
                      "the power cards in their hand"),
    "your_best_card": Word("the highest power card in the hand of the player being affected "
                           "(0: none)", "their highest power card in hand"),
    "your_best_played": Word("the highest power card the player being affected has not in "
                             "hand: played this floor (0: none)",
                             "their highest power card played this floor"),
}

# Atoms that only make sense somewhere specific.
MODIFY_ONLY_ATOMS = frozenset({"amount"})

# Atoms read per player: a condition using one is asked of each player a block is about.
PER_PLAYER_ATOMS = frozenset({"your_coins", "your_wounds", "your_value", "your_items",
                              "your_hand", "your_best_card", "your_best_played"})


@attrs.frozen
class Function:
    params: tuple[str, ...]  # "number", "selector", "item" or "status" per argument
    doc: str
    per_player: bool = False  # reads the player being affected, like `your_coins`
    place: bool = False  # an optional last argument names a thing: `marked(wear, this_card)`


FUNCTIONS: dict[str, Function] = {
    "half": Function(("number",), "half, rounded down"),
    "min": Function(("number", "number"), "the smaller of two numbers"),
    "max": Function(("number", "number"), "the larger of two numbers"),
    "div": Function(("number", "number"), "whole division, rounded down (by 0 gives 0)"),
    "count": Function(("selector",), "how many players a selector picks"),
    "coins": Function(("selector",), "the most coins among the players a selector picks (0: none)"),
    "wounds": Function(("selector",), "the most wounds among the players a selector picks"),
    "value": Function(("selector",), "the highest value played by the players a selector picks"),
    "roll": Function(("number",), "a die of N faces rolled once per round of a room (or per "
                     "moment of the game) for the whole table: the same number however often "
                     "it is read there"),
    "your_roll": Function(("number",), "a die of N faces rolled once per round of a room for "
                          "the player being affected", per_player=True),
    "holds": Function(("item",), "how many ITEM the player being affected holds",
                      per_player=True),
    "played": Function(("item",), "1 if the player being affected played ITEM in this room",
                       per_player=True),
    "marked": Function(("status",), "the count of STATUS on the player being affected (0: "
                       "none); `marked(STATUS, THING)`: on a room, the dungeon or a card",
                       per_player=True, place=True),
    "in_hand": Function(("number",), "1 if the player being affected holds power card N in "
                        "hand, else 0", per_player=True),
    "supply": Function(("item",), "how many ITEM cards the supply holds now"),
    "among": Function(("selector",), "1 if the player being affected is among the players "
                      "the selector picks, else 0 (`unless among(tied)`)", per_player=True),
}

# Effects (statement verbs) and what their argument is.
EFFECTS: dict[str, str] = {
    "wound": "number",
    "heal": "number",
    "gain": "number",
    "lose": "number",
    "give": "item",
    "take": "item",
    "take_any": "none",
    "steal": "number",
    "steal_item": "item",
    "mark": "status",
    "unmark": "status",
    "eliminate": "none",
    "pass": "number",
    "pass_item": "item",
    "give_power": "number",
    "take_power": "number",
    "become": "room",
}


@attrs.frozen
class Event:
    doc: str
    about: str  # who a handler's block is about (`them`)
    replaceable: bool = True  # `instead of` allowed
    numeric: bool = False  # has an amount (`amount` in handlers, `modify` of it)
    in_room: bool = True  # happens while a room card is in play
    on_floor: bool = True  # happens while a floor card is in play
    hookable: bool = True  # False: a quantity read, not an event: only `modify` applies
    card: Optional[str] = None  # "item" / "status": a handler may name it, `mark(poison)`
    victim: bool = False  # a handler may name who it is taken from: `steal from you`
    # Whether, when it happens, the room's cards are played and valued (`highest` picks
    # someone) and an attack is running (`attacked` does): True always, False never, None
    # it depends where (an effect happens in a room, an attack, or between rooms).
    values: Optional[bool] = None
    attacking: Optional[bool] = None


# Events handlers may hook: `instead of EVENT` (replace) and `after EVENT` (react); the
# engine emits every one of them on the game's one bus (docs/dsl.md, "Events").
EVENTS: dict[str, Event] = {
    "game_start": Event("the game begins (characters dealt)", "every player", False,
                        in_room=False, on_floor=False, values=False, attacking=False),
    "floor_start": Event("a floor is laid out", "every living player", False, in_room=False,
                         values=False, attacking=False),
    "reveal": Event("a room is entered, before anyone plays a card", "every living player",
                    False, values=False, attacking=False),
    "room_start": Event("every card of the room is played and valued; the room is about to "
                        "resolve", "every living player", False, values=True, attacking=False),
    "play": Event("a player's cards for the room are revealed and valued", "that player",
                  False, values=True, attacking=False),
    "attack": Event("a monster attacks a set of players", "the attacked players",
                    attacking=True),
    "wound": Event("a player takes wounds", "that player", numeric=True),
    "heal": Event("a player heals wounds", "that player", numeric=True),
    "gain": Event("a player gains coins", "that player", numeric=True),
    "lose": Event("a player loses coins", "that player", numeric=True),
    "steal": Event("a player takes coins or an item from another player", "the taker",
                   numeric=True, card="item", victim=True),
    "pass": Event("a player passes coins or an item to another player", "the giver",
                  numeric=True, card="item"),
    "give": Event("a player receives an item from the supply", "that player", card="item"),
    "take": Event("an item goes from a player back to the supply", "that player",
                  card="item"),
    "mark": Event("a player receives a status", "that player", card="status"),
    "eliminate": Event("a player is eliminated", "that player"),
    "room": Event("the room has resolved (its last round)", "every living player", False,
                  values=True, attacking=False),
    "death": Event("a player reaches the wounds that kill (rulesets with `death`)",
                   "that player", values=True, attacking=False),
    "first_player": Event("the first player changes hands after a room", "the new first player",
                          False, in_room=False, values=False, attacking=False),
    "floor_end": Event("the last room of a floor is done", "every living player", False,
                       in_room=False, values=False, attacking=False),
    "scoring": Event("final scoring begins", "every player still in the game", False,
                     in_room=False, on_floor=False, values=False, attacking=False),
    "score": Event("a player's score is read at final scoring (coins, unless modified)",
                   "that player", False, numeric=True, in_room=False, on_floor=False,
                   hookable=False, values=False, attacking=False),
}

# Quantities `modify` can change, besides the kind's own parameters.
MODIFIABLE: dict[str, str] = {
    "value": "the value a card counts for (`modify value of power 5 to 1`; without `of`, "
             "every card)",
    "wound": "the wounds a player is about to take",
    "heal": "the wounds a player is about to heal",
    "gain": "the coins a player is about to gain",
    "lose": "the coins a player is about to lose",
    "steal": "the coins a player is about to take from another",
    "pass": "the coins a player is about to pass to another",
    "score": "a player's score at final scoring (their coins to begin with)",
}

# How a room is played: parameters every room kind has, whatever it declares.
ROOM_SHAPE: dict[str, tuple[str, int, str]] = {
    "cards": ("int", 1, "how many cards each player plays in the room; their values are summed"),
    "rounds": ("int", 1, "how many times in a row the room is fought, one play each time"),
    "missing": ("int", 0, "what a card counts for when a player has none left to play"),
    "until": ("number", 0, "after each round but the last, the room ends once this holds "
              "(0: never early)"),
}

ABILITIES: dict[str, str] = {
    "peek": "played at any time, outside card play: look at the face-down rooms of the floor",
    "second_card": "played as the room card; after the reveal its player plays a second card",
}

# Kinds the engine gives a role to (a card of such a kind, or of a kind derived from it).
# character, item, status: held by a player (their rules run for that player, `you`);
# floor: in play during its floor; rule: in play the whole game (a ruleset's or a mod's
# house rules). Every other kind is a room, in play while it is entered and resolved.
ROLE_KINDS = ("character", "item", "floor", "status", "rule")
HELD_ROLES = frozenset({"character", "item", "status"})

TABLE_KEYS = range(1, 6)


def reads_a_player(node: object) -> bool:
    """Whether an expression reads the player being affected (`your_coins`, `holds(key)`,
    `among(tied)`; not `marked(S, THING)`, which reads a thing): asked of each player in a
    block, and 0 where a number is read for nobody."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.name in PER_PLAYER_ATOMS:
            return True
        if isinstance(n, ast.Call) and n.func in FUNCTIONS and FUNCTIONS[n.func].per_player:
            spec = FUNCTIONS[n.func]
            if not (spec.place and len(n.args) == len(spec.params) + 1):
                return True
    return False


def as_selector(e) -> Optional[ast.Selector]:
    """A function's selector argument: a word (`richest`), or a selector with its argument
    (`marked(poisoned)`, parsed as a call); None when it is neither."""
    if isinstance(e, ast.Name):
        return ast.Selector(e.name, e.span)
    if isinstance(e, ast.Call) and e.func in SELECTORS_OF and len(e.args) == 1 \
            and isinstance(e.args[0], ast.Name):
        return ast.Selector(e.func, e.span, e.args[0].name)
    return None
