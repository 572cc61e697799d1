"""Game logs (`raiders-log/1`): writing them, and reading them back into a checked LogSpec.

The format is a public contract (DESIGN.md, docs/logs.md). Writing is deterministic (same
game, same bytes) and atomic (a temporary file renamed into place).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Optional

import attrs

from raiders.dsl import yamlsrc as Y
from raiders.dsl.diagnostics import Diagnostic, did_you_mean
from raiders.dsl.spans import Span

from .engine import Deal, GameResult, RoomRecord
from .rules import LoadError, Rules, load_rules
from .state import Card, Floor, RoomSlot
from .yamlcheck import InputError, Reader

FORMAT = "raiders-log/1"
FIELDS = ("format", "ruleset", "variant", "seed", "difficulty", "cards", "players",
          "first_player", "dungeon", "rooms", "result")
ROOM_FIELDS = ("torches", "plays", "monster", "after")
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


@attrs.define
class LogMeta:
    ruleset: str
    variant: str
    seed: Optional[int]
    cards: tuple[str, ...] = ()
    difficulty: Optional[int] = None


def render_log(meta: LogMeta, rules: Rules, result: GameResult) -> str:
    """The log of a finished (or stopped) game as YAML text."""
    out = [f"format: {FORMAT}", f"ruleset: {_scalar(meta.ruleset)}",
           f"variant: {_scalar(meta.variant)}"]
    if meta.seed is not None:
        out.append(f"seed: {meta.seed}")
    if meta.difficulty is not None:
        out.append(f"difficulty: {meta.difficulty}")
    if meta.cards:
        out.append(f"cards: {_flow(list(meta.cards))}")
    out.append("players:")
    for p in result.players:
        out.append(f"  - {_flow({'name': p.name, 'character': p.character})}")
    deal = result.deal
    if deal.first_player is not None:
        out.append(f"first_player: {_scalar(result.players[deal.first_player].name)}")
    out.append("dungeon:")
    for floor in deal.floors:
        facing = "".join("U" if s.face_up else "D" for s in floor.rooms)
        out.append(f"  - {_flow({'rooms': [s.card for s in floor.rooms], 'facing': facing})}")
    out.append("rooms:" if result.rooms else "rooms: []")
    for rec in result.rooms:
        out.extend(_room_lines(rec))
    out.append("result: " + _flow({"winners": result.winners, "out": result.out}))
    return "\n".join(out) + "\n"


def _room_lines(rec: RoomRecord) -> list[str]:
    lines = []
    first = "  - "
    if rec.torches:
        lines.append(f"{first}torches: {_flow(rec.torches)}")
        first = "    "
    plays = {n: (c[0] if len(c) == 1 else list(c)) for n, c in rec.plays.items()}
    lines.append(f"{first}plays: {_flow(plays)}")
    if rec.monster is not None:
        lines.append(f"    monster: {rec.monster}")
    lines.append("    after:")
    for name, coins, wounds, items in rec.after_state:
        state: dict[str, Any] = {"coins": coins, "wounds": wounds}
        if items:
            state["items"] = list(items)
        lines.append(f"      {_scalar(name)}: {_flow(state)}")
    return lines


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that a reader never sees half of it, even if we are killed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# ---- reading -------------------------------------------------------------------------------


@attrs.define
class PlaySpec:
    cards: list[Card]
    spans: list[Span]


@attrs.define
class RoomSpec:
    plays: dict[str, PlaySpec]
    plays_span: Span
    torches: list[str]
    torches_span: Optional[Span]
    monster: Optional[int]
    after: dict[str, dict[str, Any]]
    span: Span


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


def read_log(path: str) -> LogSpec:
    """Read and check a log file; raises InputError with positioned diagnostics."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError([Diagnostic(Span(path, 1, 1, 1, 2), "E004", f"cannot read file: {err}")])
    docs, diags = Y.load_documents(text, path)
    if diags:
        raise InputError(diags)
    if len(docs) != 1:
        raise InputError([Diagnostic(Span(path, 1, 1, 1, 2), "E503",
                                     "a log is one YAML document (one game)")])
    doc = docs[0]
    r = Reader(path, doc, FIELDS, "log")
    fmt = r.get("format", "str", required=True)
    if fmt is not None and fmt != FORMAT:
        r.fail(r.span("format"), f"unknown log format `{fmt}`",
               f"this version of raiders reads `{FORMAT}`")
    if r.diags:
        raise InputError(r.diags)
    return _read(r, path)


def _read(r: Reader, path: str) -> LogSpec:
    base = Path(path).parent
    ruleset = r.get("ruleset", "str", required=True)
    variant = r.get("variant", "str")
    seed = r.get("seed", "int")
    difficulty = r.get("difficulty", "int")
    cards = [str(c) for c in (r.get("cards", "list", default=[]) or [])]
    if r.diags:
        raise InputError(r.diags)
    rs_arg = ruleset
    if ruleset not in ("deluxe", "classic") and not Path(ruleset).is_absolute():
        rs_arg = str(base / ruleset) if (base / ruleset).exists() else ruleset
    mods = tuple(c if Path(c).is_absolute() or Path(c).exists() else str(base / c) for c in cards)
    try:
        rules = load_rules(rs_arg, variant, mods)
    except ValueError as err:
        r.fail(r.span("variant" if variant and "variant" in str(err) else "ruleset"), str(err))
        raise InputError(r.diags)
    except LoadError as err:
        raise InputError(err.diagnostics)
    meta = LogMeta(ruleset, rules.variant.name, seed, tuple(cards), difficulty)
    if difficulty is not None and not 2 <= difficulty <= 5:
        r.fail(r.span("difficulty"), "`difficulty` is the solo hero's starting wounds, 2..5")

    players = r.get("players", "list", required=True) or []
    names: list[str] = []
    characters: list[Optional[str]] = []
    for i, entry in enumerate(players):
        sub = Reader(path, entry, ("name", "character"), "player")
        r.diags.extend(sub.diags)
        name = sub.get("name", "str", required=True)
        char = sub.get("character", "str")
        if name is not None:
            if name in names:
                r.fail(sub.span("name"), f"player `{name}` is listed twice")
            names.append(str(name))
        if char is not None and char not in rules.characters:
            r.fail(sub.span("character"), f"unknown character `{char}`",
                   did_you_mean(char, rules.characters))
        if char is None and seed is None:
            r.fail(Y.node_span(path, entry), f"player {i + 1} has no character",
                   "give `character:` (or a `seed` to deal the characters)")
        characters.append(char)
    var = rules.variant
    if players and not var.min_players <= len(names) <= var.max_players:
        r.fail(r.span("players"), f"{rules.ruleset.id} {var.name} is for {var.min_players}"
               + (f"–{var.max_players}" if var.max_players != var.min_players else "")
               + f" players, not {len(names)}")

    first = r.get("first_player", "str")
    first_seat = None
    if first is not None:
        if first not in names:
            r.fail(r.span("first_player"), f"`first_player` names unknown player `{first}`",
                   did_you_mean(first, names))
        else:
            first_seat = names.index(first)
    elif var.first_player != "none" and seed is None:
        r.fail(r.span(), f"the {var.name} variant has a first player: give `first_player:`")

    floors = _read_dungeon(r, rules) if r.has("dungeon") else None
    if floors is None and seed is None:
        r.fail(r.span(), "the log gives neither a `dungeon` nor a `seed` to deal one")
    rooms = [_read_room(r, node, i, names, rules)
             for i, node in enumerate(r.get("rooms", "list", default=[]) or [])]
    result, result_span = None, None
    res = r.get("result", "map")
    if res is not None:
        sub = Reader(path, res, ("winners", "out"), "result")
        r.diags.extend(sub.diags)
        result = {}
        for key in ("winners", "out"):
            v = sub.get(key, "list", default=[])
            if v is not None:
                for j, n in enumerate(v):
                    if n not in names:
                        r.fail(Y.value_span(path, v, j), f"`result.{key}` names unknown player `{n}`")
                result[key] = [str(n) for n in v]
        result_span = r.span("result")
    if r.diags:
        raise InputError(r.diags)
    return LogSpec(path, rules, meta, names, characters, first_seat, floors, rooms, result,
                   result_span)


def _read_dungeon(r: Reader, rules: Rules) -> Optional[list[Floor]]:
    node = r.get("dungeon", "list")
    if node is None:
        return None
    rs = rules.ruleset
    if len(node) != rs.floors_used:
        r.fail(r.span("dungeon"), f"`dungeon` has {len(node)} floors; this game has {rs.floors_used}")
        return None
    floors = []
    for i, fnode in enumerate(node):
        sub = Reader(r.path, fnode, ("rooms", "facing"), "floor")
        r.diags.extend(sub.diags)
        rooms = sub.get("rooms", "list", required=True) or []
        facing = sub.get("facing", "str", default="U" * len(rooms))
        if len(rooms) != rs.rooms_per_floor:
            r.fail(sub.span("rooms") if sub.has("rooms") else sub.span(),
                   f"floor {i + 1} has {len(rooms)} rooms; a floor has {rs.rooms_per_floor}")
            continue
        for j, cid in enumerate(rooms):
            if cid not in rules.rooms:
                r.fail(Y.value_span(r.path, rooms, j), f"unknown room `{cid}`",
                       did_you_mean(str(cid), rules.rooms))
        if not isinstance(facing, str) or len(facing) != len(rooms) or set(facing) - {"U", "D"}:
            r.fail(sub.span("facing"), f"`facing` takes {len(rooms)} letters U (up) or D (down)")
            continue
        floors.append(Floor([RoomSlot(str(c), f == "U") for c, f in zip(rooms, facing)]))
    return floors


def _read_room(r: Reader, node: Any, index: int, names: list[str], rules: Rules) -> RoomSpec:
    sub = Reader(r.path, node, ROOM_FIELDS, f"room entry {index + 1}")
    r.diags.extend(sub.diags)
    plays_node = sub.get("plays", "map", required=True) or {}
    plays: dict[str, PlaySpec] = {}
    for name in plays_node:
        if name not in names:
            r.fail(Y.key_span(r.path, plays_node, name), f"`plays` names unknown player `{name}`",
                   did_you_mean(str(name), names))
            continue
        v = plays_node[name]
        items = list(v) if Y.is_seq(v) else [v]
        holder = v if Y.is_seq(v) else plays_node
        keys = list(range(len(v))) if Y.is_seq(v) else [name]
        cards: list[Card] = []
        spans: list[Span] = []
        for key, c in zip(keys, items):
            span = Y.value_span(r.path, holder, key)
            if Y.is_int(c):
                cards.append(int(c))
            elif Y.is_str(c) and c in rules.items:
                cards.append(str(c))
            else:
                r.fail(span, f"`{c}` is not a card", "a play is a power value 1..5 or an item id")
                continue
            spans.append(span)
        if not cards:
            r.fail(Y.key_span(r.path, plays_node, name), f"{name} plays no card")
        plays[str(name)] = PlaySpec(cards, spans)
    torches = sub.get("torches", "list", default=[]) or []
    for j, t in enumerate(torches):
        if t not in names:
            r.fail(Y.value_span(r.path, torches, j), f"`torches` names unknown player `{t}`")
    monster = sub.get("monster", "int")
    if monster is not None and not 1 <= monster <= 5:
        r.fail(sub.span("monster"), "`monster` is the revealed card's value, 1..5")
    after: dict[str, dict[str, Any]] = {}
    after_node = sub.get("after", "map", default={}) or {}
    for name, state in after_node.items():
        if name not in names:
            r.fail(Y.key_span(r.path, after_node, name), f"`after` names unknown player `{name}`")
            continue
        st = Reader(r.path, state, AFTER_FIELDS, "checkpoint")
        r.diags.extend(st.diags)
        entry: dict[str, Any] = {}
        for field in AFTER_FIELDS:
            if st.has(field):
                value = st.get(field, "list" if field == "items" else "nat")
                if value is not None:
                    entry[field] = sorted(str(x) for x in value) if field == "items" else value
        after[str(name)] = entry
    return RoomSpec(plays, sub.span("plays") if sub.has("plays") else sub.span(),
                    [str(t) for t in torches], sub.span("torches") if sub.has("torches") else None,
                    monster, after, Y.node_span(r.path, node))
