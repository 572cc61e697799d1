"""Scenario files (`raiders-scenario/1`): pin one room, play it, compare what must follow.

Format: DESIGN.md and docs/scenarios.md. A file may hold several scenarios (YAML documents).
"""
from __future__ import annotations

import re
import textwrap
from typing import Any, Optional, Sequence

import attrs

from raiders.dsl import ast, load_text
from raiders.dsl.diagnostics import Diagnostic, Problems, did_you_mean
from raiders.dsl.library import display_path
from raiders.dsl.spans import Span
from raiders.formats import yamlsrc
from raiders.interpreter.game.engine import Deal, Game
from raiders.interpreter.game.players import SeatView
from raiders.interpreter.runtime.compiled import CompiledRoom
from raiders.interpreter.runtime.compiler import compile_card, with_item_values
from raiders.interpreter.runtime.legality import check_play
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Card, Floor, Player, RoomSlot

from .yamlcheck import Reader, allowing, rules_from

FORMAT = "raiders-scenario/1"
FIELDS = ("format", "name", "ruleset", "variant", "cards", "players", "start", "supply", "room",
          "plays", "expect", "first_player", "monster", "end", "difficulty", "rolls", "choices",
          "rooms", "floor_end")
PLAYER_FIELDS = ("coins", "wounds", "items", "hand", "character", "marks")
EXPECT_PLAYER = ("coins", "wounds", "items", "hand", "out", "marks")


@attrs.define
class Outcome:
    name: str
    path: str
    line: int
    ok: bool
    differences: list[str] = attrs.Factory(list)
    diagnostics: list[Diagnostic] = attrs.Factory(list)


def run_file(path: str, allow: Sequence[str] = ()) -> list[Outcome]:
    """Run every scenario of a file. The paths a scenario names (`ruleset`, `cards`) must
    lead inside the file's own folder or into one of the folders `allow`s (formats/safeio.py).
    A file that declares no raiders format is refused before it is parsed (E510)."""
    text, docs, diags = yamlsrc.load_declared(path, "scenario")
    if text is None:
        return [Outcome(path, path, diags[0].span.line, False, diagnostics=diags)]
    lines = text.splitlines()
    if diags:
        return _run_documents_apart(path, text, lines, allow)
    outcomes = []
    with allowing(allow):
        for i, doc in enumerate(docs):
            if doc is None:
                continue
            outcomes.append(run_scenario(doc, path, lines, i + 1))
    return outcomes


def _run_documents_apart(path: str, text: str, lines: list[str],
                         allow: Sequence[str]) -> list[Outcome]:
    """A file whose YAML does not read as a whole: each `---` document read on its own (its
    lines kept in place, so positions stay right), so that one malformed scenario does not
    stop the others of the file."""
    starts = [0] + [i + 1 for i, line in enumerate(lines) if re.match(r"---\s*$", line)]
    outcomes = []
    with allowing(allow):
        ends = [s - 1 for s in starts[1:]] + [len(lines)]  # each `---` line left out
        for n, (a, b) in enumerate(zip(starts, ends, strict=True)):
            if not any(x.strip() and not x.lstrip().startswith("#") for x in lines[a:b]):
                continue  # nothing but comments
            chunk = "\n" * a + "\n".join(lines[a:b])
            docs, diags = yamlsrc.load_documents(chunk, path)
            if diags:
                outcomes.append(Outcome(f"scenario {n + 1}", path, diags[0].span.line, False,
                                        diagnostics=diags))
                continue
            for doc in docs:
                if doc is not None:
                    outcomes.append(run_scenario(doc, path, lines, n + 1))
    return outcomes


def run_scenario(doc: Any, path: str, lines: list[str], number: int) -> Outcome:
    line = yamlsrc.node_span(path, doc).line
    name = (str(doc.get("name", f"scenario {number}")) if yamlsrc.is_map(doc)
            else f"scenario {number}")
    try:
        return _run(doc, path, lines, name, line)
    except Problems as err:
        return Outcome(name, path, line, False, diagnostics=err.diagnostics)
    except RecursionError:
        return Outcome(name, path, line, False, ["internal error (a bug in raiders, please "
                                                 "report it): RecursionError"])
    except Exception as err:  # noqa: BLE001 - a FAIL line that names the bug, not a traceback
        return Outcome(name, path, line, False, [f"internal error (a bug in raiders, please "
                                                 f"report it): {type(err).__name__}: {err}"])


def _rules(r: Reader, path: str) -> Rules:
    ruleset = r.get("ruleset", "str", default="deluxe")
    variant = r.get("variant", "str")
    cards = r.get("cards", "list", default=[]) or []
    if r.diags:
        raise Problems(r.diags)
    return rules_from(r, ruleset, variant, list(cards), "scenario file")


def _inline_room(r: Reader, rules: Rules, text: str, lines: list[str]) -> CompiledRoom:
    """A room written as DSL inside the scenario: checked with the ruleset's cards."""
    node = r.node
    vline, vcol = node.lc.value("room")
    head = lines[vline][vcol:vcol + 1] if vline < len(lines) else ""
    if head in ("|", ">"):  # a block scalar: its text starts on the next line, indented
        first = vline + 1
        while first < len(lines) and not lines[first].strip():
            first += 1
        shift = first
        indent = len(lines[first]) - len(lines[first].lstrip()) if first < len(lines) else 0
    else:  # on the line of `room:` itself, plain or in quotes
        shift = vline
        indent = vcol + (1 if head in ("'", '"') else 0)
    body = textwrap.dedent(text)
    lib, diags = load_text(body, r.path, rules.library)
    diags = [d for d in diags if d.severity == "error"]  # a warning (W602) runs the room
    module = next((m for m in lib.modules if m.path == r.path), None)
    if diags or module is None:
        raise Problems([attrs.evolve(d, span=attrs.evolve(
            d.span, line=d.span.line + shift, end_line=d.span.end_line + shift,
            col=d.span.col + indent, end_col=d.span.end_col + indent)) for d in diags])
    cards = [d for d in module.decls if isinstance(d, ast.CardDecl)]
    if not cards:
        raise Problems([Diagnostic(r.span("room"), "E504",
                                     "the inline room declares no card",
                                     "e.g. `monster ogre { strength 9 / 12 / 15  wounds 2 }`")])
    room = compile_card(lib, cards[-1].id, rules.ruleset.strength_players)
    if not isinstance(room, CompiledRoom):
        raise Problems([Diagnostic(r.span("room"), "E503",
                                     f"`{cards[-1].id}` is not a room card")])
    return with_item_values({room.id: room}, rules.items)[room.id]  # as the game's rooms


def _unknown_item(r: Reader, rules: Rules, item: Any, span) -> None:
    """An item the game does not know; an item card left out of the supply says so."""
    lib = rules.library
    if item in lib.cards and lib.role_of(str(item)) == "item":
        r.fail(span, f"item `{item}` is not in this game's supply",
               f"a mod puts its items in the supply in mod.yaml: `items: {{{item}: 1}}`")
    else:
        known = [c for c in lib.cards if lib.role_of(c) == "item"]
        r.fail(span, f"unknown item `{item}`", did_you_mean(str(item), known))


def _players(r: Reader) -> list[str]:
    raw = r.get("players", "any", required=True)
    if yamlsrc.is_int(raw) and 1 <= raw <= 8:
        return [f"P{i + 1}" for i in range(raw)]
    if yamlsrc.is_seq(raw) and raw and all(yamlsrc.is_str(x) for x in raw) \
            and len(set(raw)) == len(raw):
        return [str(x) for x in raw]
    r.fail(r.span("players"), "`players` takes a list of distinct names or a number 1..8")
    raise Problems(r.diags)


def _card(r: Reader, node: Any, key: Any, rules: Rules) -> Optional[Card]:
    v = node[key]
    if yamlsrc.is_int(v):  # 1..5 is checked in play, as X-1 (a scenario may expect that)
        return int(v)
    if yamlsrc.is_str(v):
        if v not in rules.items and v not in rules.library.cards:
            r.fail(yamlsrc.value_span(r.path, node, key), f"unknown card `{v}`",
                   "a play is a value 1..5 or an item id")
            return None
        return str(v)
    r.fail(yamlsrc.value_span(r.path, node, key), "a play is a value 1..5 or an item id")
    return None


def _run(doc: Any, path: str, lines: list[str], name: str, line: int) -> Outcome:
    r = Reader(path, doc, FIELDS, "scenario")
    r.require_format(FORMAT, "scenario")
    rules = _rules(r, path)
    names = _players(r)
    if (wrong := rules.wrong_player_count(len(names))) is not None:
        r.fail(r.span("players"), wrong)
        raise Problems(r.diags)
    players = [Player(i, n) for i, n in enumerate(names)]
    by_name = {p.name: p for p in players}

    difficulty = r.get("difficulty", "int")
    if difficulty is not None and not 0 <= difficulty < (rules.ruleset.death or 10**6):
        r.fail(r.span("difficulty"), "`difficulty` is the starting wounds (solo: 2..5)")
    elif difficulty is not None:
        for p in players:
            p.wounds = difficulty
    if rules.variant.start_coins is not None:
        for p in players:
            p.coins = rules.variant.start_coins
    start = r.get("start", "map", default={})
    for pname, spec in (start or {}).items():
        if pname not in by_name:
            r.fail(yamlsrc.key_span(path, start, pname), f"`start` names unknown player `{pname}`")
            continue
        _start_player(r, by_name[pname], spec, rules, difficulty)

    supply = dict(rules.supply) if rules.variant.items else {}
    for p in players:
        for item in p.items:
            supply[item] = max(0, supply.get(item, 0) - 1)
    for item, n in (r.get("supply", "map", default={}) or {}).items():
        if item not in rules.items:
            _unknown_item(r, rules, item, yamlsrc.key_span(path, r.node["supply"], item))
        elif not yamlsrc.is_int(n) or n < 0:
            r.fail(yamlsrc.value_span(path, r.node["supply"], item),
                   "a supply is a whole number ≥ 0")
        else:
            supply[str(item)] = n

    steps = _steps(r, rules, lines, by_name, players)
    expect = r.get("expect", "map", default={}) or {}
    if r.diags:
        raise Problems(r.diags)

    end = r.get("end", "any", default=False)
    if not isinstance(end, bool):
        r.fail(r.span("end"), "`end` takes true or false")
    _check_expect(r, expect, by_name, rules)
    if r.diags:
        raise Problems(r.diags)
    first = r.get("first_player", "str")
    if first is not None and first not in by_name:
        r.fail(r.span("first_player"), f"`first_player` names unknown player `{first}`")
        raise Problems(r.diags)
    first_seat = by_name[first].seat if first is not None else None
    game, error, winners = _play_steps(rules, players, supply, first_seat, steps, end is True)
    first_seat = game.first
    first_after = players[first_seat].name if first_seat is not None else None
    return _compare(r, name, line, expect, players, supply, error, winners, first_after)


def _check_expect(r: Reader, expect: Any, by_name: dict[str, Player], rules: Rules) -> None:
    """Every expectation has the right shape before anything is compared."""
    path = r.path
    names = list(by_name)

    def name_list(key: str) -> None:
        v = expect[key]
        if not yamlsrc.is_seq(v) or any(not yamlsrc.is_str(n) or n not in by_name for n in v):
            r.fail(yamlsrc.value_span(path, expect, key),
                   f"`expect.{key}` takes a list of player names",
                   f"players: {', '.join(names)}")

    for key in expect:
        where = yamlsrc.key_span(path, expect, key)
        if key == "out":
            name_list(key)
        elif key == "winners":
            name_list(key)
            if r.node.get("end") is not True:
                r.fail(where, "`expect.winners` needs `end: true` (score the game after the room)")
        elif key == "first_player":
            if expect[key] not in by_name:
                r.fail(yamlsrc.value_span(path, expect, key),
                       "`expect.first_player` takes a player name")
            elif "first_player" not in r.node:
                r.fail(where, "`expect.first_player` needs `first_player:` (who leads the room)")
        elif key == "error":
            if not yamlsrc.is_str(expect[key]):
                r.fail(yamlsrc.value_span(path, expect, key), "`expect.error` takes a piece of the "
                       "error message, as a string")
        elif key == "supply":
            v = expect[key]
            if not yamlsrc.is_map(v):
                r.fail(yamlsrc.value_span(path, expect, key),
                       "`expect.supply` takes a map item: count")
                continue
            for item, n in v.items():
                if item not in rules.items:
                    _unknown_item(r, rules, item, yamlsrc.key_span(path, v, item))
                elif not yamlsrc.is_int(n) or n < 0:
                    r.fail(yamlsrc.value_span(path, v, item), "a supply is a whole number ≥ 0")
        elif key in by_name:
            sub = Reader(path, expect[key], EXPECT_PLAYER, "player expectation", r.diags,
                         yamlsrc.value_span(path, expect, key))
            for field in ("coins", "wounds"):
                sub.get(field, "nat")
            for field in ("items", "hand"):
                v = sub.get(field, "list")
                for i, x in enumerate(v or ()):
                    ok = (yamlsrc.is_str(x) and x in rules.items) if field == "items" else \
                        yamlsrc.is_int(x) and 1 <= x <= 5  # a list or map is no item (nor hashable)
                    if not ok:
                        r.fail(yamlsrc.value_span(path, v, i), f"`{x}` is not " +
                               ("an item" if field == "items" else "a power value 1..5"))
            if sub.has("out") and not isinstance(sub.node["out"], bool):
                r.fail(sub.span("out"), "`out` takes true or false")
        else:
            r.fail(where, f"`expect` names unknown player `{key}`",
                   "expect holds player names, `out`, `supply`, `error`, `winners` and "
                   "`first_player`", code="E504")


def _start_player(r: Reader, p: Player, spec: Any, rules: Rules,
                  difficulty: Optional[int]) -> None:
    sub = Reader(r.path, spec, PLAYER_FIELDS, "player start", r.diags)
    char = sub.get("character", "str")
    var = rules.variant
    if char is not None:
        if char not in rules.characters:
            r.fail(sub.span("character"), f"unknown character `{char}`",
                   did_you_mean(char, rules.characters))
        else:
            # The character's numbers, then what the variant fixes for everyone (C-11),
            # as a real game deals them; fields given below override both.
            c = rules.characters[char]
            p.character, p.coins, p.wounds, p.items = char, c.coins, c.wounds, sorted(c.items)
            if var.start_coins is not None:
                p.coins = var.start_coins
            if not var.items:
                p.items = []
            if difficulty is not None:
                p.wounds = difficulty
    p.coins = sub.get("coins", "nat", default=p.coins)
    cap = rules.coin_cap
    if cap is not None and p.coins > cap:
        r.fail(sub.span("coins"), f"{p.name} cannot start with {p.coins} coins: the cap is {cap}")
    p.wounds = sub.get("wounds", "nat", default=p.wounds)
    items = sub.get("items", "list")
    if items and not var.items:
        r.fail(sub.span("items"), f"the {var.name} variant has no items")
    elif items is not None:
        for i, item in enumerate(items):
            if item not in rules.items:
                _unknown_item(r, rules, item, yamlsrc.value_span(r.path, items, i))
        p.items = sorted(str(i) for i in items)
    marks = sub.get("marks", "map")
    for status, n in (marks or {}).items():
        if status not in rules.statuses:
            r.fail(yamlsrc.key_span(r.path, marks, status), f"unknown status `{status}`",
                   did_you_mean(str(status), rules.statuses))
        elif not yamlsrc.is_int(n) or n < 1:
            r.fail(yamlsrc.value_span(r.path, marks, status),
                   "a status count is a whole number ≥ 1")
        else:
            from raiders.interpreter.runtime.state import Mark

            p.marks[str(status)] = Mark(int(n))
    hand = sub.get("hand", "list")
    if hand is not None:
        if not all(yamlsrc.is_int(v) and 1 <= v <= 5 for v in hand) or len(set(hand)) != len(hand):
            r.fail(sub.span("hand"), "a hand is a list of distinct power values 1..5")
        else:
            p.hand = sorted(int(v) for v in hand)


ROOM_FIELDS = ("room", "plays", "rolls", "choices", "monster", "floor_end")


@attrs.define
class Step:
    """One room of a scenario: the room, each player's cards in play order, the dice and the
    answers it needs, the revealed monster card (solo), and whether the floor ends after it."""

    room: CompiledRoom
    chosen: dict[str, list[Card]]
    rolls: list[int] = attrs.Factory(list)
    choices: dict[str, list[bool]] = attrs.Factory(dict)
    monster: Optional[int] = None
    floor_end: bool = False
    where: dict[str, Span] = attrs.Factory(dict)  # each player's `plays` entry, for messages


def _steps(r: Reader, rules: Rules, lines: list[str], by_name: dict[str, Player],
           players: list[Player]) -> list[Step]:
    """`room` + `plays` (one room), or `rooms: [{room, plays, …}, …]` played in order."""
    if "rooms" not in r.node:
        return [_step(r, rules, lines, by_name, players)]
    for key in ROOM_FIELDS:
        if key in r.node:
            r.fail(yamlsrc.key_span(r.path, r.node, key),
                   f"`{key}` goes inside each entry of `rooms`",
                   "a scenario has either `room` and `plays`, or `rooms: [{room, plays}, …]`")
    entries = r.get("rooms", "list", required=True) or []
    if not entries:
        r.fail(r.span("rooms"), "`rooms` lists at least one room")
    if r.diags:
        raise Problems(r.diags)
    steps: list[Step] = []
    for entry in entries:
        if not yamlsrc.is_map(entry):
            r.fail(yamlsrc.node_span(r.path, entry), "each entry of `rooms` is a map: "
                   "{room: ID, plays: {…}}")
            raise Problems(r.diags)
        sub = Reader(r.path, entry, ROOM_FIELDS, "room entry")
        if sub.diags:
            raise Problems(sub.diags)
        steps.append(_step(sub, rules, lines, by_name, players, first=not steps))
    return steps


def _step(r: Reader, rules: Rules, lines: list[str], by_name: dict[str, Player],
          players: list[Player], first: bool = True) -> Step:
    """One room entry. Only the first can be checked for a card per living player here:
    who is alive at a later room is known when it is played (`_check_chains`)."""
    path = r.path
    room_spec = r.get("room", "str", required=True)
    if r.diags:
        raise Problems(r.diags)
    if "\n" in room_spec or "{" in room_spec:
        room = _inline_room(r, rules, room_spec, lines)
    elif room_spec in rules.rooms:
        room = rules.rooms[room_spec]
    else:
        r.fail(r.span("room"), f"unknown room `{room_spec}`", did_you_mean(room_spec, rules.rooms))
        raise Problems(r.diags)

    plays_node = r.get("plays", "map", required=True)
    chosen: dict[str, list[Card]] = {}
    where: dict[str, Span] = {}
    for pname in (plays_node or {}):
        if pname not in by_name:
            r.fail(yamlsrc.key_span(path, plays_node, pname),
                   f"`plays` names unknown player `{pname}`")
            continue
        v = plays_node[pname]
        where[str(pname)] = yamlsrc.value_span(path, plays_node, pname)
        if yamlsrc.is_seq(v):
            cards = [_card(r, v, i, rules) for i in range(len(v))]
        else:
            cards = [_card(r, plays_node, pname, rules)]
        chosen[str(pname)] = [c for c in cards if c is not None]
    for p in players if first else ():
        if not p.dead and p.name not in chosen and plays_node is not None:
            r.fail(r.span("plays"), f"`plays` has no card for {p.name}",
                   "every living player plays exactly one card (X-3)")
    rolls = r.get("rolls", "list", default=[]) or []
    if not all(yamlsrc.is_int(x) and x >= 1 for x in rolls):
        r.fail(r.span("rolls"), "`rolls` takes the dice rolled, in order: [3, 6]")
    choices_node = r.get("choices", "map", default={}) or {}
    choices: dict[str, list[bool]] = {}
    for pname, answers in choices_node.items():
        if pname not in by_name:
            r.fail(yamlsrc.key_span(path, choices_node, pname),
                   f"`choices` names unknown player `{pname}`")
        elif not yamlsrc.is_seq(answers) or not all(isinstance(a, bool) for a in answers):
            r.fail(yamlsrc.value_span(path, choices_node, pname),
                   "a player's choices are a list of true / false, in the order asked")
        else:
            choices[str(pname)] = [bool(a) for a in answers]
    monster = r.get("monster", "int")
    if monster is not None and not 1 <= monster <= 5:
        r.fail(r.span("monster"), "`monster` is the revealed monster card's value, 1..5")
    floor_end = r.get("floor_end", "any", default=False)
    if not isinstance(floor_end, bool):
        r.fail(r.span("floor_end"), "`floor_end` takes true or false")
    if r.diags:
        raise Problems(r.diags)
    return Step(room, chosen, [int(x) for x in rolls], choices, monster, bool(floor_end),
                where)


class _ScriptedSeat:
    """A scenario's player at the engine's table: puts down the cards the scenario gives, in
    order; answers its questions in order; never peeks."""

    def __init__(self, name: str):
        self.name = name
        self.feed: list[Card] = []
        self.answers: list[bool] = []
        self.last: Optional[Card] = None

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        if not self.feed:
            room = view.room
            if second and self.last is not None:
                raise RulesError(f"{self.name} played a {self.last} but no second card after it")
            if room is not None and room.cards_each == 1 and room.rounds == 1:
                raise RulesError(f"{self.name} played no card (every player plays exactly one, "
                                 "X-3)")
            raise RulesError(f"{self.name} has no card given for every card the room asks for"
                             + (f" ({room.cards_each} each, {room.rounds} round(s))"
                                if room is not None else ""))
        self.last = self.feed.pop(0)
        return self.last

    def use_peek(self, view: SeatView) -> bool:
        return False

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        if not self.answers:
            raise RulesError(f"{self.name} is asked \"{question}\": give the answer with "
                             f"`choices: {{{self.name}: [true]}}`")
        return self.answers.pop(0)


def _play_steps(rules: Rules, players: list[Player], supply: dict[str, int],
                first: Optional[int], steps: list[Step], end: bool = False
                ) -> tuple[Game, Optional[str], Optional[list[str]]]:
    """Play the scenario's rooms with the engine itself (the game's own room step), on a table
    set as the scenario says: floors split where a room entry says `floor_end`; with `end`,
    the end-of-game scoring after the last. A room entry's dice and answers are those the
    engine asks for while it is the game's `entry_index`, as in a log: the room's own, those
    of the floor's end and start just before it, and, for the last room, those after it.
    Returns the game, the first rule broken (None: every room played) and the winners."""
    inline = {s.room.id: s.room for s in steps if rules.rooms.get(s.room.id) is not s.room}
    game_rules = attrs.evolve(rules, rooms={**rules.rooms, **inline}) if inline else rules
    floors: list[list[Step]] = [[]]
    for step in steps:
        floors[-1].append(step)
        if step.floor_end:
            floors.append([])
    if not floors[-1] and len(floors) > 1:
        floors.pop()
    deal = Deal([Floor([RoomSlot(s.room.id, True) for s in fl]) for fl in floors],
                [p.character for p in players], first, [])
    seats = [_ScriptedSeat(p.name) for p in players]
    game = Game(game_rules, [p.name for p in players], seats, seed=0, deal=deal,
                start=(players, supply))
    rolls: list[int] = []

    def dice(faces: int) -> int:
        if not rolls:
            raise RulesError("the room rolls a die: give the rolls with `rolls: [N, …]`")
        return rolls.pop(0)

    game.scripted_rolls = dice
    where = ""  # the step whose input is being used, for messages

    def failed(error: str) -> tuple[Game, Optional[str], Optional[list[str]]]:
        return game, (f"{where}: {error}" if len(steps) > 1 else error), None

    k = 0
    pending_floor_end = False
    for f, (floor, fsteps) in enumerate(zip(deal.floors, floors, strict=True)):
        for r, (slot, step) in enumerate(zip(floor.rooms, fsteps, strict=True)):
            if k:  # the step before has had all its input: none may be left over
                error = _leftover(seats, rolls, steps[k - 1].room)
                if error is not None:
                    return failed(error)
            k += 1
            where = f"room {k} ({step.room.id})"
            _load(game, seats, rolls, step)
            try:
                if pending_floor_end:  # the floor before ends, this one starts (D-3)
                    game.end_floor()
                    pending_floor_end = False
                if r == 0 and f > 0:
                    game.start_floor(f, floor)
                error = _check_chains(game, seats, step)
                if error is not None:
                    return failed(error)
                game.records.append(game.play_room(f, r, floor, slot))
            except RulesError as err:
                return failed(str(err))
        pending_floor_end = fsteps[-1].floor_end
    winners = None
    try:
        if pending_floor_end:
            game.end_floor()
        if end:
            winners = game.finish().winners
    except RulesError as err:
        return failed(str(err))
    error = _leftover(seats, rolls, steps[-1].room)
    return (failed(error) if error is not None else (game, None, winners))


def _load(game: Game, seats: list[_ScriptedSeat], rolls: list[int], step: Step) -> None:
    """A room entry's cards, answers, dice and monster card, given to the table."""
    for p, seat in zip(game.players, seats, strict=True):
        seat.feed = list(step.chosen.get(p.name, []))
        seat.answers = list(step.choices.get(p.name, []))
        seat.last = None
    rolls[:] = step.rolls
    if step.monster is not None:
        game.scripted_threats[len(game.records)] = step.monster


def _check_chains(game: Game, seats: list[_ScriptedSeat], step: Step) -> Optional[str]:
    """Each player's whole chain checked before anyone plays (in a room of one card each):
    its message says what is wrong, and where the play stands in the file, where the engine
    would only stop at the first card."""
    room = step.room
    for p, seat in zip(game.players, seats, strict=True):
        if p.dead and seat.feed:
            return f"{p.name} is out of the game ({p.out}) and plays no more: leave them out"
        if not p.dead and not seat.feed and p.name not in step.where:
            return f"`plays` has no card for {p.name} (every living player plays, X-3)"
    if room.cards_each != 1 or room.rounds != 1:
        return None
    for p, seat in zip(game.players, seats, strict=True):
        if not p.dead and seat.feed:
            why = check_play(room, p, seat.feed, game.abilities)
            if why:
                at = step.where.get(p.name)
                return why + (f" (at {display_path(at.path)}:{at.line}:{at.col})"
                              if at is not None else "")
    return None


def _leftover(seats: list[_ScriptedSeat], rolls: list[int], room) -> Optional[str]:
    """What a room entry gave that nobody used: cards, dice, answers."""
    for seat in seats:
        if seat.feed:
            return (f"{seat.name} has {len(seat.feed)} card(s) left over ({seat.feed}); the "
                    f"room takes {room.cards_each * room.rounds} in all")
    if rolls:
        return f"{len(rolls)} roll(s) given but not used: {rolls}"
    unused = {seat.name: seat.answers for seat in seats if seat.answers}
    if unused:
        return f"answers given but never asked for: {unused}"
    return None


def _compare(r: Reader, name: str, line: int, expect: Any, players: list[Player],
             supply: dict[str, int], error: Optional[str],
             winners: Optional[list[str]] = None,
             first_after: Optional[str] = None) -> Outcome:
    diffs: list[str] = []
    by_name = {p.name: p for p in players}
    want_error = expect.get("error")
    if want_error is not None:
        if error is None:
            diffs.append(f"expected an error containing {want_error!r}, but the room resolved")
        elif str(want_error) not in error:
            diffs.append(f"expected an error containing {want_error!r}, got {error!r}")
    elif error is not None:
        diffs.append(f"unexpected error: {error}")
    for key, want in expect.items():
        if key in ("error",):
            continue
        if key == "first_player":
            if first_after != want:
                diffs.append(f"first_player: expected {want}, got {first_after}")
        elif key == "winners":
            if winners is None:
                diffs.append("`winners` needs `end: true` (score the game after the room)")
            elif list(want or []) != winners:
                diffs.append(f"winners: expected {list(want or [])}, got {winners}")
        elif key == "out":
            out = [p.name for p in players if p.out]
            if list(want or []) != out:
                diffs.append(f"out: expected {list(want or [])}, got {out}")
        elif key == "supply":
            for item, n in want.items():
                if supply.get(item, 0) != n:
                    diffs.append(f"supply.{item}: expected {n}, got {supply.get(item, 0)}")
        elif key in by_name:
            p = by_name[key]
            sub = Reader(r.path, want, EXPECT_PLAYER, "player expectation")
            if sub.diags:
                raise Problems(sub.diags)
            for field, value in want.items():
                if field == "marks":
                    held = {n: m.count for n, m in p.marks.items()}
                    expected = dict(value or {})
                    if held != expected:
                        diffs.append(f"{key}.marks: expected {expected}, got {held}")
                    continue
                got: object
                if field in ("items", "hand"):
                    got, value = sorted(getattr(p, field)), sorted(value)
                else:
                    got = getattr(p, field) if field != "out" else bool(p.out)
                if got != value:
                    diffs.append(f"{key}.{field}: expected {value}, got {got}")
        else:
            r.fail(yamlsrc.key_span(r.path, expect, key), f"`expect` names unknown player `{key}`",
                   "expect holds player names, `out`, `supply`, `error`, `winners` and "
                   "`first_player`", code="E504")
            raise Problems(r.diags)
    return Outcome(name, r.path, line, not diffs, diffs)
