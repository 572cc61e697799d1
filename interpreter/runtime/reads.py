"""What a card's rules read of the game and do to players' cards, worked out from its tree
(the kind chain's rules and the card's, and the parameters their code reads), never from the
Python it compiles to: the facts a look-ahead may rely on to know which parts of a state
cannot change a room's outcome (the search bot's plain table, interpreter/game/players.py
`_Plain`). The compiler records them on every compiled card (`CompiledRoom.reads`,
`CompiledCard.reads`).

Each word of the vocabulary (dsl/vocabulary.py) says here what it reads, and every word has an
entry: a word added to the language without one is caught when this module is first imported.
The analysis is conservative: a node of the tree it does not know, a selector or function it
cannot name, and `do ROOM` (another room's procedure, whatever that room reads) count as
reading everything. A rule that is written but never reached (a branch no game takes) still
counts: the facts say what a card *may* read.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

import attrs

from raiders.dsl import ast
from raiders.dsl.vocabulary import ATOMS, EFFECTS, FUNCTIONS, PLACES, SELECTORS, SELECTORS_OF


@attrs.frozen
class Reads:
    """What a card's rules may read of the players and the game, and what they may take."""

    tokens: bool = False  # a player's coins or wounds (`your_coins`, `richest`, `wounds(…)`)
    holdings: bool = False  # what a player holds or who they are (`holds(key)`, `your_items`)
    takes: bool = False  # takes a card or coins from a player (`take`, `steal`, `pass`)
    floor_number: bool = False  # which floor the game is on
    room_number: bool = False  # which room of its floor is played
    rooms_played: bool = False  # how many rooms the game has resolved

    def __or__(self, other: "Reads") -> "Reads":
        if other is NOTHING or other is self:
            return self
        if self is NOTHING:
            return other
        return Reads(self.tokens or other.tokens, self.holdings or other.holdings,
                     self.takes or other.takes, self.floor_number or other.floor_number,
                     self.room_number or other.room_number,
                     self.rooms_played or other.rooms_played)

    @property
    def progress(self) -> bool:
        """Whether the rules read where the game is (the floor, the room, the rooms played)."""
        return self.floor_number or self.room_number or self.rooms_played


NOTHING = Reads()
EVERYTHING = Reads(*(True for _ in attrs.fields(Reads)))
TOKENS = Reads(tokens=True)
HOLDINGS = Reads(holdings=True)
# an item leaves a hand only if the hand holds one: what it takes depends on what is held
TAKES_ITEM = Reads(holdings=True, takes=True)
# coins leave a hand only as far as there are any (the plain table watches for these: its
# trace of a resolution, players.py `_bounded`)
TAKES_COINS = Reads(takes=True)

# What each word reads. Every word of the vocabulary has an entry (checked below).
ATOM_READS: dict[str, Reads] = {
    "total": NOTHING, "highest_value": NOTHING, "lowest_value": NOTHING,
    "highest_card": NOTHING, "players": NOTHING, "your_value": NOTHING,
    "death": NOTHING, "never": NOTHING, "all_same": NOTHING, "amount": NOTHING,
    "threat": NOTHING, "round": NOTHING,
    "your_hand": NOTHING, "your_best_card": NOTHING, "your_best_played": NOTHING,
    "your_coins": TOKENS, "your_wounds": TOKENS,
    "your_items": HOLDINGS,
    "floor_number": Reads(floor_number=True),
    "room_number": Reads(room_number=True),
    "rooms_played": Reads(rooms_played=True),
}
SELECTOR_READS: dict[str, Reads] = {
    **dict.fromkeys(SELECTORS, NOTHING),
    "richest": TOKENS, "poorest": TOKENS, "least_wounded": TOKENS, "most_wounded": TOKENS,
    "most_items": HOLDINGS, "fewest_items": HOLDINGS,
}
SELECTOR_OF_READS: dict[str, Reads] = {"holds": HOLDINGS, "played": NOTHING, "marked": NOTHING}
FUNCTION_READS: dict[str, Reads] = {
    **dict.fromkeys(FUNCTIONS, NOTHING),
    "coins": TOKENS, "wounds": TOKENS, "holds": HOLDINGS,
}
EFFECT_READS: dict[str, Reads] = {
    **dict.fromkeys(EFFECTS, NOTHING),
    "take": TAKES_ITEM, "take_any": TAKES_ITEM, "steal_item": TAKES_ITEM,
    "pass_item": TAKES_ITEM, "steal": TAKES_COINS, "pass": TAKES_COINS,
}
# what the numbers, words and structure of a tree read by themselves: nothing (their parts say)
_STRUCTURE = (ast.Num, ast.Str, ast.BinOp, ast.Not, ast.PerPlayers, ast.ValueList, ast.Word,
              ast.Apply, ast.Each, ast.Attack, ast.Share, ast.If, ast.TableLookup,
              ast.ForEachValue, ast.Row, ast.May, ast.AtOnce, ast.Block, ast.CardRef,
              ast.Playable, ast.Unplayable, ast.Escape, ast.Modify, ast.Handler, ast.Resolve)

# The parameter types whose values are rules (read or run); the others are data (items, text).
CODE_TYPES = frozenset({"int", "number", "per_players", "selector", "table", "effects"})


def card_reads(members: Iterable[Any], params: Mapping[str, tuple[str, Any]]) -> Reads:
    """What a card's rules may read: its rules and procedure (`members`: the kind chain's and
    the card's), and the value of every parameter whose type is code (`params`: name → (type,
    value)), whether or not a rule reads it (the engine reads a room's numbers itself)."""
    trees = [m for m in members if not isinstance(m, ast.Field)]  # fields: in `params`
    trees += [value for typ, value in params.values() if typ in CODE_TYPES and value is not None]
    names = tuple(params)
    found = NOTHING
    for tree in trees:
        found = found | _tree_reads(tree, names)
    return found


# Per tree (by identity, the tree kept so its id is not reused) and parameter names: a kind's
# rules and defaults are the same trees for every card of the kind, walked once a load.
_KEPT: dict[tuple[int, tuple[str, ...]], tuple[object, Reads]] = {}


def _tree_reads(tree: object, params: tuple[str, ...]) -> Reads:
    key = (id(tree), params)
    known = _KEPT.get(key)
    if known is not None and known[0] is tree:
        return known[1]
    found = NOTHING
    for node in ast.walk(tree):
        more = _node_reads(node, params)
        if more is not NOTHING and more is not found:
            found = found | more
            if found == EVERYTHING:
                break
    if len(_KEPT) > 20_000:
        _KEPT.clear()
    _KEPT[key] = (tree, found)
    return found


def _node_reads(node: object, params: tuple[str, ...]) -> Reads:
    """What one node of the tree reads by itself (its children are walked on their own)."""
    if isinstance(node, _STRUCTURE):
        return NOTHING
    if isinstance(node, ast.Name):
        # an atom, a selector word (a selector parameter's value), or data: an item, a
        # status, a room card, a place, a parameter (its value is walked on its own)
        return ATOM_READS.get(node.name, NOTHING) | SELECTOR_READS.get(node.name, NOTHING)
    if isinstance(node, ast.Selector):
        if node.arg is not None:
            return SELECTOR_OF_READS.get(node.name, EVERYTHING)
        if node.name in params or node.name in PLACES:
            return NOTHING
        return SELECTOR_READS.get(node.name, EVERYTHING)
    if isinstance(node, ast.Call):
        # a function, or a selector written as a call (`count(holds(key))`)
        if node.func not in FUNCTION_READS and node.func not in SELECTOR_OF_READS:
            return EVERYTHING
        return FUNCTION_READS.get(node.func, NOTHING) | SELECTOR_OF_READS.get(node.func, NOTHING)
    if isinstance(node, ast.Effect):
        return EFFECT_READS.get(node.verb, EVERYTHING)
    if isinstance(node, ast.Do):
        # a parameter's block is walked on its own; a room's procedure reads what it reads
        return NOTHING if node.name.name in params else EVERYTHING
    return EVERYTHING  # a node this analysis does not know


# Every word the vocabulary declares says here what it reads, and nothing else does.
for _table, _words in ((ATOM_READS, ATOMS), (SELECTOR_READS, SELECTORS),
                       (SELECTOR_OF_READS, SELECTORS_OF), (FUNCTION_READS, FUNCTIONS),
                       (EFFECT_READS, EFFECTS)):
    if set(_table) != set(_words):
        raise RuntimeError(f"vocabulary and reads disagree: {set(_table) ^ set(_words)}")
