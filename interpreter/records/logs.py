"""Game logs (`raiders-log/1`): writing them, and reading them back into a checked LogSpec.

The format is a public contract (DESIGN.md, docs/logs.md). Writing is deterministic (same
game, same bytes) and atomic (a temporary file renamed into place).
"""
from __future__ import annotations

import json
import os
import re
from typing import Any, Optional, Sequence

import attrs

from raiders.dsl.diagnostics import Diagnostic, Problems, did_you_mean
from raiders.dsl.spans import Span
from raiders.formats import yamlsrc
from raiders.formats.atomic import write_atomic  # noqa: F401  (the play/replay commands import it here)
from raiders.interpreter.game.engine import Deal, GameResult, RoomRecord
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Card, Floor, Player, RoomSlot

from .yamlcheck import Reader, allowing, rules_from

FORMAT = "raiders-log/1"
FIELDS = ("format", "ruleset", "variant", "seed", "difficulty", "cards", "players",
          "first_player", "dungeon", "rooms", "result")
ROOM_FIELDS = ("torches", "plays", "monster", "after", "rolls", "choices")
AFTER_FIELDS = ("coins", "wounds", "items")

# ---- writing ---------------------------------------------------------------------------------

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "none", "~"}


def _scalar(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if _PLAIN.match(s) and s.lower() not in _YAML_WORDS:
        return s
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _flow(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return _scalar(v)


def flow(value: Any) -> str:
    """A value as a log writes it: YAML flow style, strings quoted only where YAML needs it
    (what `raiders record` writes a log's header with)."""
    return _flow(value)


@attrs.define
class LogMeta:
    ruleset: str
    variant: str
    seed: Optional[int]
    cards: tuple[str, ...] = ()
    difficulty: Optional[int] = None


def render_log(meta: LogMeta, rules: Rules, result: GameResult) -> str:
    """The log of a finished (or stopped) game as YAML text."""
    return render_game(meta, result.players, result.deal, result.rooms, result)


def render_game(meta: LogMeta, players: Sequence[Player], deal: Deal, rooms: Sequence[RoomRecord],
                result: Optional[GameResult]) -> str:
    """A game's log as YAML text: `result` None for a game in progress (no `result:` line,
    as `raiders record` writes one after each room)."""
    out = [f"format: {FORMAT}", f"ruleset: {_scalar(meta.ruleset)}",
           f"variant: {_scalar(meta.variant)}"]
    if meta.seed is not None:
        out.append(f"seed: {meta.seed}")
    if meta.difficulty is not None:
        out.append(f"difficulty: {meta.difficulty}")
    if meta.cards:
        out.append(f"cards: {_flow(list(meta.cards))}")
    out.append("players:")
    for p in players:
        out.append(f"  - {_flow({'name': p.name, 'character': p.character})}")
    if deal.first_player is not None:
        out.append(f"first_player: {_scalar(players[deal.first_player].name)}")
    out.append("dungeon:")
    for floor in deal.floors:
        facing = "".join("U" if s.face_up else "D" for s in floor.rooms)
        out.append(f"  - {_flow({'rooms': [s.card for s in floor.rooms], 'facing': facing})}")
    out.append("rooms:" if rooms else "rooms: []")
    for rec in rooms:
        out.extend(_room_lines(rec))
    if result is not None:
        out.append("result: " + _flow({"winners": result.winners, "out": result.out}))
    return "\n".join(out) + "\n"


def _room_lines(rec: RoomRecord) -> list[str]:
    lines = []
    first = "  - "
    if rec.peeks:
        lines.append(f"{first}torches: {_flow(rec.peeks)}")
        first = "    "
    plays = {n: (c[0] if len(c) == 1 else list(c)) for n, c in rec.plays.items()}
    lines.append(f"{first}plays: {_flow(plays)}")
    if rec.monster is not None:
        lines.append(f"    monster: {rec.monster}")
    if rec.rolls:
        lines.append(f"    rolls: {_flow(list(rec.rolls))}")
    if rec.choices:
        answers = {n: ["true" if a else "false" for a in c] for n, c in rec.choices.items()}
        lines.append("    choices: {" + ", ".join(f"{_scalar(n)}: [{', '.join(a)}]"
                                            for n, a in answers.items()) + "}")
    lines.append("    after:")
    for name, coins, wounds, items in rec.after_state:
        state: dict[str, Any] = {"coins": coins, "wounds": wounds, "items": list(items)}
        lines.append(f"      {_scalar(name)}: {_flow(state)}")
    return lines


# ---- reading -------------------------------------------------------------------------------


@attrs.define
class PlaySpec:
    cards: list[Card]
    spans: Sequence[Span]  # where each card stands (for diagnostics)


class _Spans(Sequence[Span]):
    """Where the cards of a play stand, worked out only when a diagnostic asks (a log has
    thousands of plays, and a good one is never asked)."""

    def __init__(self, path: str, holder: Any):
        self.path = path
        self.holder = holder
        self.keys: list[Any] = []

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [yamlsrc.value_span(self.path, self.holder, k) for k in self.keys[i]]
        return yamlsrc.value_span(self.path, self.holder, self.keys[i])


@attrs.define
class RoomSpec:
    plays: dict[str, PlaySpec]
    plays_span: Span
    peeks: list[str]  # the log's `torches` field (its name in the log contract)
    peeks_span: Optional[Span]
    monster: Optional[int]
    after: dict[str, dict[str, Any]]
    span: Span
    monster_span: Optional[Span] = None
    after_span: Optional[Span] = None
    rolls: list[int] = attrs.Factory(list)  # dice the rules rolled in this room, in order
    choices: dict[str, list[bool]] = attrs.Factory(dict)  # `may` answers, per player


@attrs.define
class LogSpec:
    path: str
    rules: Rules
    meta: LogMeta
    names: list[str]
    characters: list[Optional[str]]
    first_player: Optional[int]
    floors: Optional[list[Floor]]
    rooms: list[RoomSpec]
    result: Optional[dict[str, list[str]]]
    result_span: Optional[Span]
    players_span: Optional[Span] = None


def read_log(path: str, allow: Sequence[str] = (),
             cards: Optional[Sequence[str]] = None) -> LogSpec:
    """Read and check a log file; raises Problems with positioned diagnostics.

    The paths the log names (`ruleset`, `cards`) must lead inside the log's own folder or
    into one of the folders `allow`s (formats/safeio.py). `cards` (the command line's
    `--cards`) are the mod folders to play it with instead of those the log names, which are
    then never opened: a person names their own mod where the log may not. A file that
    declares no raiders format is refused before it is parsed (E510)."""
    _, docs, diags = yamlsrc.load_declared(path, "log")
    if diags:
        raise Problems(diags)
    if len(docs) != 1:
        raise Problems([Diagnostic(Span.whole_file(path), "E503",
                                     "a log is one YAML document (one game)")])
    doc = docs[0]
    r = Reader(path, doc, FIELDS, "log")
    r.require_format(FORMAT, "log")
    with allowing(allow):
        return _read(r, path, cards)


def _read(r: Reader, path: str, given: Optional[Sequence[str]]) -> LogSpec:
    ruleset = r.get("ruleset", "str", required=True)
    variant = r.get("variant", "str")
    seed = r.get("seed", "int")
    difficulty = r.get("difficulty", "int")
    cards = [str(c) for c in (r.get("cards", "list", default=[]) or [])]
    if r.diags:
        raise Problems(r.diags)
    if given is not None:
        cards = [os.path.abspath(c) for c in given]
    rules = rules_from(r, ruleset, variant, cards, "log", given is not None)
    meta = LogMeta(ruleset, rules.variant.name, seed, tuple(cards), difficulty)
    if difficulty is not None and rules.variant.scoring != "solo":
        r.fail(r.span("difficulty"), "`difficulty` is for solo play only")
    elif difficulty is not None and not 2 <= difficulty <= 5:
        r.fail(r.span("difficulty"), "`difficulty` is the solo hero's starting wounds, 2..5")

    players = r.get("players", "list", required=True) or []
    names: list[str] = []
    characters: list[Optional[str]] = []
    for i, entry in enumerate(players):
        sub = Reader(path, entry, ("name", "character"), "player", r.diags,
                     yamlsrc.value_span(path, players, i))
        name = sub.get("name", "str", required=True)
        char = sub.get("character", "str")
        if name is not None:
            if name in names:
                r.fail(sub.span("name"), f"player `{name}` is listed twice")
            names.append(str(name))
        if char is not None and char not in rules.characters:
            r.fail(sub.span("character"), f"unknown character `{char}`",
                   did_you_mean(char, rules.characters))
        if char is None and seed is None and yamlsrc.is_map(entry) and "character" not in entry:
            r.fail(yamlsrc.value_span(path, players, i), f"player {i + 1} has no character",
                   "give `character:` (or a `seed` to deal the characters)")
        characters.append(char)
    var = rules.variant
    if r.has("players") and rules.wrong_player_count(len(players)):
        r.fail(r.span("players"), rules.wrong_player_count(len(players)))

    first = r.get("first_player", "str")
    first_seat = None
    if first is not None and var.first_player == "none":
        r.fail(r.span("first_player"), f"the {var.name} variant has no first player",
               "remove `first_player:`")
    elif first is not None:
        if first not in names:
            r.fail(r.span("first_player"), f"`first_player` names unknown player `{first}`",
                   did_you_mean(first, names))
        else:
            first_seat = names.index(first)
    elif var.first_player != "none" and seed is None:
        # Optional (DESIGN.md): the first player orders who decides, never what a recorded
        # play does, so the first seat listed is assumed (docs/logs.md).
        first_seat = 0

    floors = _read_dungeon(r, rules) if r.has("dungeon") else None
    if not r.has("dungeon") and seed is None:
        r.fail(r.span(), "the log gives neither a `dungeon` nor a `seed` to deal one")
    room_nodes = r.get("rooms", "list", default=[]) or []
    rooms = [_read_room(r, node, i, names, rules, yamlsrc.value_span(path, room_nodes, i))
             for i, node in enumerate(room_nodes)]
    if var.threat_deck:
        from collections import Counter

        deck = Counter(var.threat_deck)
        seen = Counter(room.monster for room in rooms if room.monster is not None)
        if sum(seen.values()) <= len(var.threat_deck):
            for value, n in seen.items():
                if n > deck[value]:
                    room = next(x for x in reversed(rooms) if x.monster == value)
                    r.fail(room.monster_span or room.span,
                           f"the monster deck holds {deck[value]} card(s) of {value}; "
                           f"this log reveals {n}")
    result, result_span = None, None
    res = r.get("result", "map")
    if res is not None:
        sub = Reader(path, res, ("winners", "out"), "result", r.diags)
        result = {}
        for key in ("winners", "out"):
            v = sub.get(key, "list")
            if v is not None:
                for j, n in enumerate(v):
                    if n not in names:
                        r.fail(yamlsrc.value_span(path, v, j),
                               f"`result.{key}` names unknown player `{n}`")
                result[key] = [str(n) for n in v]
        result_span = r.span("result")
    if r.diags:
        raise Problems(r.diags)
    return LogSpec(path, rules, meta, names, characters, first_seat, floors, rooms, result,
                   result_span, r.span("players") if r.has("players") else None)


def _read_dungeon(r: Reader, rules: Rules) -> Optional[list[Floor]]:
    node = r.get("dungeon", "list")
    if node is None:
        return None
    rs = rules.ruleset
    if len(node) != rs.floors_used:
        r.fail(r.span("dungeon"),
               f"`dungeon` has {len(node)} floors; this game has {rs.floors_used}")
        return None
    floors = []
    copies: dict[str, int] = {}
    for i, fnode in enumerate(node):
        sub = Reader(r.path, fnode, ("rooms", "facing"), "floor", r.diags,
                     yamlsrc.value_span(r.path, node, i))
        rooms = sub.get("rooms", "list", required=True) or []
        facing = sub.get("facing", "str", default="U" * len(rooms))
        if len(rooms) != rs.rooms_per_floor:
            r.fail(sub.span("rooms") if sub.has("rooms") else sub.span(),
                   f"floor {i + 1} has {len(rooms)} rooms; a floor has {rs.rooms_per_floor}")
            continue
        last_floor = i == len(node) - 1
        for j, cid in enumerate(rooms):
            where = yamlsrc.value_span(r.path, rooms, j)
            if cid not in rules.rooms:
                r.fail(where, f"unknown room `{cid}`", did_you_mean(str(cid), rules.rooms))
                continue
            boss_slot = bool(rules.bosses) and last_floor and j == len(rooms) - 1
            copies[cid] = copies.get(cid, 0) + 1
            if boss_slot and cid not in rules.bosses:
                r.fail(where, f"`{cid}` is not a boss: the last room of the last floor is the "
                       "boss (D-6)", "bosses: " + ", ".join(rules.bosses))
            elif not boss_slot and cid in rules.bosses and cid not in rules.deck:
                r.fail(where, f"the boss `{cid}` can only be the last room of the last floor")
            elif not boss_slot and copies[cid] > rules.deck.get(cid, 0):
                r.fail(where, f"the deck holds {rules.deck.get(cid, 0)} `{cid}`, "
                       f"this dungeon has more",
                       "a card that is not in this variant's deck" if cid not in rules.deck
                       else None)
        if not isinstance(facing, str) or len(facing) != len(rooms) or set(facing) - {"U", "D"}:
            r.fail(sub.span("facing"), f"`facing` takes {len(rooms)} letters U (up) or D (down)")
            continue
        slots = zip(rooms, facing, strict=True)  # the length was checked just above
        floors.append(Floor([RoomSlot(str(c), f == "U") for c, f in slots]))
    return floors


def _checkpoint(state: Any, rules: Rules) -> Optional[dict[str, Any]]:
    """A well-formed checkpoint read at once (a log has one per player and room), or None to
    read it field by field, with a diagnostic for each problem."""
    if not yamlsrc.is_map(state):
        return None
    entry: dict[str, Any] = {}
    for field in AFTER_FIELDS:
        if field in state:
            value = state[field]
            if field == "items":
                if not yamlsrc.is_seq(value) or not all(
                        isinstance(x, str) and x in rules.items for x in value):
                    return None
                entry[field] = sorted(value)
            elif yamlsrc.is_int(value) and value >= 0:
                entry[field] = value
            else:
                return None
    return entry if len(entry) == len(state) else None


def _read_room(r: Reader, node: Any, index: int, names: list[str], rules: Rules,
               where: Span) -> RoomSpec:
    sub = Reader(r.path, node, ROOM_FIELDS, f"room entry {index + 1}", r.diags, where)
    plays_node = sub.get("plays", "map", required=True) or {}
    plays: dict[str, PlaySpec] = {}
    for name in plays_node:
        if name not in names:
            r.fail(yamlsrc.key_span(r.path, plays_node, name),
                   f"`plays` names unknown player `{name}`",
                   did_you_mean(str(name), names))
            continue
        v = plays_node[name]
        items = list(v) if yamlsrc.is_seq(v) else [v]
        holder = v if yamlsrc.is_seq(v) else plays_node
        keys = list(range(len(v))) if yamlsrc.is_seq(v) else [name]
        cards: list[Card] = []
        spans = _Spans(r.path, holder)
        bad = False
        for key, c in zip(keys, items, strict=False):
            if yamlsrc.is_int(c) and not 1 <= c <= 5:
                bad = True
                r.fail(yamlsrc.value_span(r.path, holder, key), f"there is no power card {c}",
                       "power cards are 1..5")
                continue
            if yamlsrc.is_int(c):
                cards.append(int(c))
            elif yamlsrc.is_str(c) and c in rules.items:
                cards.append(str(c))
            else:
                bad = True
                hint = (f"write {c} without quotes" if yamlsrc.is_str(c) and c.isdigit() else
                        did_you_mean(str(c), rules.items) or
                        "a play is a power value 1..5 or an item id")
                r.fail(yamlsrc.value_span(r.path, holder, key), f"`{c}` is not a card", hint)
                continue
            spans.keys.append(key)
        # `[]`: the player had no card left to play (a room fought in rounds); whether the
        # room asked for one is the replay's to check. A bare null is a mistake.
        if not cards and not bad and not yamlsrc.is_seq(v):
            r.fail(yamlsrc.key_span(r.path, plays_node, name), f"{name} plays no card")
        plays[str(name)] = PlaySpec(cards, spans)
    torches = sub.get("torches", "list", default=[]) or []
    for j, t in enumerate(torches):
        if t not in names:
            r.fail(yamlsrc.value_span(r.path, torches, j), f"`torches` names unknown player `{t}`")
        elif list(torches).index(t) != j:
            r.fail(yamlsrc.value_span(r.path, torches, j), f"`torches` names {t} twice",
                   "one peek before a room is enough: it shows every hidden room of the floor")
    monster = sub.get("monster", "int")
    if monster is not None and not 1 <= monster <= 5:
        r.fail(sub.span("monster"), "`monster` is the revealed card's value, 1..5")
    after: dict[str, dict[str, Any]] = {}
    after_node = sub.get("after", "map", default={}) or {}
    for name, state in after_node.items():
        if name not in names:
            r.fail(yamlsrc.key_span(r.path, after_node, name),
                   f"`after` names unknown player `{name}`")
            continue
        entry = _checkpoint(state, rules)
        if entry is not None:  # as `play` writes them; anything else, field by field below
            after[str(name)] = entry
            continue
        st = Reader(r.path, state, AFTER_FIELDS, "checkpoint", r.diags,
                    yamlsrc.value_span(r.path, after_node, name))
        entry = {}
        for field in AFTER_FIELDS:
            if st.has(field):
                value = st.get(field, "list" if field == "items" else "nat")
                if value is not None and field == "items":
                    for j, item in enumerate(value):
                        if item not in rules.items:
                            r.fail(yamlsrc.value_span(r.path, value, j), f"unknown item `{item}`",
                                   did_you_mean(str(item), rules.items))
                    entry[field] = sorted(str(x) for x in value)
                elif value is not None:
                    entry[field] = value
        after[str(name)] = entry
    rolls = sub.get("rolls", "list", default=[]) or []
    for j, v in enumerate(rolls):
        if not yamlsrc.is_int(v) or v < 1:
            r.fail(yamlsrc.value_span(r.path, rolls, j), "a roll is a whole number ≥ 1")
    choices_node = sub.get("choices", "map", default={}) or {}
    choices: dict[str, list[bool]] = {}
    for name, answers in choices_node.items():
        if name not in names:
            r.fail(yamlsrc.key_span(r.path, choices_node, name),
                   f"`choices` names unknown player `{name}`")
        elif not yamlsrc.is_seq(answers) or not all(isinstance(a, bool) for a in answers):
            r.fail(yamlsrc.value_span(r.path, choices_node, name),
                   "a player's choices are a list of true / false, in the order asked")
        else:
            choices[str(name)] = [bool(a) for a in answers]
    spec = RoomSpec(plays, sub.span("plays") if sub.has("plays") else sub.span(),
                    [str(t) for t in torches], sub.span("torches") if sub.has("torches") else None,
                    monster, after, where, sub.span("monster") if sub.has("monster") else None,
                    sub.span("after") if sub.has("after") else None)
    spec.rolls = [int(v) for v in rolls if yamlsrc.is_int(v)]
    spec.choices = choices
    return spec
