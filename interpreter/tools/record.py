"""Recording a game played at a real table (`raiders record`): the rules ask, the table answers.

The log on disk is the whole state. Each request reads it, replays its rooms (every play
checked, as `replay` does) and then lets the engine go on into the next room with the answers
the page has given so far for it (`Answer`): the engine asks its questions in the order it
needs them (a peek, each player's card, a second card, a `may`, a die, a solo monster card),
and the first one without an answer is sent to the page with what may be answered (only the
legal cards, and why each other card is not). When the answers complete the room, the log is
written again, whole (formats/atomic.py), with that room on it; undo writes it without its
last room. Nothing is kept in memory between requests, so a reload of the page or a restart of
the server goes on where the file stands.

A file this module writes begins with `MARK`; it never writes over a file without it, and it
creates a new game's file only where nothing is (O_EXCL). The log itself is a plain
`raiders-log/1` file: `replay --check` passes on it and the viewer opens it.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

import attrs

from raiders.dsl.diagnostics import Diagnostic, Problems
from raiders.formats.atomic import write_atomic
from raiders.interpreter.game.engine import Game, GameResult, RoomRecord
from raiders.interpreter.game.players import SeatView
from raiders.interpreter.records.branch import branch_game
from raiders.interpreter.records.logs import LogMeta, LogSpec, flow, read_log, render_game
from raiders.interpreter.runtime.compiled import CompiledRoom
from raiders.interpreter.runtime.legality import check_play
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.rules import Rules, load_rules
from raiders.interpreter.runtime.state import POWER_CARDS, Card, Floor, RoomSlot

MARK = "# recorded at the table with `raiders record`"
# Face-down rooms nobody has turned over yet: the log holds a stand-in for each (a dungeon is
# whole in a log), and this comment says which they are, `floor.room` counted from 1.
UNSEEN = "# face-down rooms not yet turned over (stand-ins): "
GAME_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
PLAYER_NAME = re.compile(r"^[^\x00-\x1f\x7f:#{}\[\],&*!|>'\"%@`]{1,24}$")
KINDS = ("room", "peek", "card", "may", "roll", "monster")
MAX_ANSWERS = 200  # far more than any room asks (5 players, rounds, second cards)


class RecordError(Exception):
    """An entry the rules or the recorder refuse, with the reason the page shows."""

    def __init__(self, message: str, field: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.field = field


@attrs.frozen
class Answer:
    """One answer of the table, in the order the engine asked."""

    kind: str  # one of KINDS
    player: Optional[str]  # who answers (None: a die, a monster card)
    value: Any  # a card (1..5 or an item id), a bool (peek, may), a number (roll, monster)


@attrs.define
class Recorder:
    """The games of one folder: `folder` holds the logs, `mods` the mod folders the server was
    given (`--cards`), which every game recorded here plays with."""

    folder: Path
    mods: tuple[str, ...] = ()
    # what a log's text gives, kept while the text stays the same (a room takes many requests)
    _views: dict = attrs.field(factory=dict, init=False, repr=False)
    _specs: dict = attrs.field(factory=dict, init=False, repr=False)

    # ---- the set-up
    def rules_for(self, ruleset: str, variant: Optional[str]) -> Rules:
        from raiders.formats.rulesets import builtin_ids

        if ruleset not in builtin_ids():
            raise RecordError(f"unknown ruleset `{ruleset}` (built in: "
                              f"{', '.join(builtin_ids())})", "ruleset")
        try:
            return load_rules(ruleset, variant, tuple(self.mods))
        except ValueError as err:
            raise RecordError(str(err), "variant") from None
        except Exception as err:  # Problems: a mod that does not check
            raise RecordError(f"the mods do not load with {ruleset}: {err}", "cards") from None

    def options(self, ruleset: str, variant: Optional[str]) -> dict[str, Any]:
        """What the set-up form offers for a ruleset and variant."""
        from raiders.formats.rulesets import builtin_ids
        from raiders.interpreter.runtime.describe import describe

        rules = self.rules_for(ruleset, variant)
        var, rs = rules.variant, rules.ruleset
        return {
            "rulesets": builtin_ids(), "ruleset": rs.id, "variant": var.name,
            "variants": list(rs.variants), "minPlayers": var.min_players,
            "maxPlayers": var.max_players, "firstPlayer": var.first_player != "none",
            "solo": var.scoring == "solo", "floors": rs.floors_used,
            "roomsPerFloor": rs.rooms_per_floor,
            "characters": {c: rules.characters[c].name or c for c in rules.pool},
            "rooms": {rid: {"name": rules.rooms[rid].name or rid, "kind": rules.rooms[rid].face,
                            "copies": rules.deck.get(rid, 0), "boss": rid in rules.bosses,
                            "words": describe(rules, rid)}
                      for rid in sorted({*rules.deck, *rules.bosses})},
            "mods": self.mod_names(),
        }

    def create(self, name: object, setup: object) -> str:
        """A new game's log, from the set-up form; returns the game's name (its file name).
        `name` and `setup` are what a request's body holds, checked here; everything else is
        checked as a log is (read_log) before the game exists."""
        if not isinstance(name, str) or not GAME_NAME.match(name) or name.endswith(".tmp"):
            raise RecordError("a game's name is 1-64 letters, digits, `-`, `_` or `.`, "
                              "starting with a letter or digit", "name")
        if not isinstance(setup, Mapping):
            raise RecordError("the set-up is an object of fields (ruleset, players, …)", "setup")
        file = self.folder / (name if name.endswith(".yaml") else name + ".yaml")
        text = self._header(setup)
        try:
            fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            raise RecordError(f"`{file.name}` already exists: choose another name",
                              "name") from None
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        try:
            spec = self._read(file)
            game = branch_game(spec, 0, [_Seat(None, n) for n in spec.names], 0).game
            # The seed deals what the form left out; the file says it all from now on.
            self._write(file, spec, game, [], None, created=True)
        except (RecordError, Problems):
            file.unlink()  # ours: made just above
            raise
        return file.name

    def _header(self, setup: Mapping[str, Any]) -> str:
        def field(key: str, kind: type, required: bool = False) -> Any:
            value = setup.get(key)
            if value is None or value == "":
                if required:
                    raise RecordError(f"`{key}` is needed", key)
                return None
            if kind is int and isinstance(value, str) and value.strip().isdigit():
                value = int(value)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise RecordError(f"`{key}` takes a {kind.__name__}", key)
            return value

        ruleset = field("ruleset", str, True)
        rules = self.rules_for(ruleset, field("variant", str))
        seed = field("seed", int)
        if seed is not None and not 0 <= seed < 2 ** 63:
            raise RecordError("a seed is a whole number from 0 to 2^63-1", "seed")
        difficulty = field("difficulty", int)
        players = setup.get("players")
        if not isinstance(players, list) or not players:
            raise RecordError("list the players in seat order, clockwise", "players")
        lines = [MARK, "format: raiders-log/1", f"ruleset: {flow(ruleset)}",
                 f"variant: {flow(rules.variant.name)}"]
        if seed is not None:
            lines.append(f"seed: {seed}")
        if difficulty is not None:
            lines.append(f"difficulty: {difficulty}")
        if self.mods:
            lines.append("cards: " + flow([os.path.relpath(Path(m).resolve(),
                                                            self.folder.resolve())
                                            for m in self.mods]))
        lines.append("players:")
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise RecordError(f"player {i + 1}: a name and a character", "players")
            pname, char = p.get("name"), p.get("character") or None
            if not isinstance(pname, str) or not PLAYER_NAME.match(pname.strip()) \
                    or pname != pname.strip():
                raise RecordError(f"player {i + 1}: a name of 1-24 letters, without "
                                  "punctuation", "players")
            if char is not None and char not in rules.characters:
                raise RecordError(f"player {i + 1}: unknown character `{char}`", "players")
            entry = {"name": pname} if char is None else {"name": pname, "character": char}
            lines.append(f"  - {flow(entry)}")
        first = field("first_player", str)
        if first is not None:
            lines.append(f"first_player: {flow(first)}")
        dungeon = setup.get("dungeon")
        if dungeon:
            if not isinstance(dungeon, list):
                raise RecordError("the dungeon is a list of floors", "dungeon")
            rooms, unseen = _stand_ins(rules, dungeon)
            if unseen:
                lines.insert(1, UNSEEN + " ".join(f"{f + 1}.{r + 1}" for f, r in sorted(unseen)))
            lines.append("dungeon:")
            for floor, cards in zip(dungeon, rooms, strict=True):
                lines.append("  - " + flow({"rooms": cards,
                                             "facing": str(floor.get("facing") or "")}))
        lines.append("rooms: []")
        return "\n".join(lines) + "\n"

    def mod_names(self) -> list[str]:
        return [Path(m).name for m in self.mods]

    # ---- the games of the folder
    def games(self) -> list[dict[str, Any]]:
        """The logs this recorder wrote, newest first, with how far each got."""
        out: list[dict[str, Any]] = []
        for file in sorted(self.folder.glob("*.yaml")):
            if not file.is_file() or file.is_symlink() or not _ours(file):
                continue
            text = file.read_text("utf-8", errors="replace")
            out.append({"name": file.name, "rooms": text.count("\n    after:"),
                        "finished": "\nresult: " in text, "mtime": file.stat().st_mtime})
        out.sort(key=lambda g: -g["mtime"])
        return out

    def file(self, name: str) -> Path:
        """The log of a game by name: a file of this folder that this recorder wrote."""
        if not isinstance(name, str) or not GAME_NAME.match(name) or not name.endswith(".yaml"):
            raise RecordError(f"no game `{name}` here", "game")
        file = self.folder / name
        if file.is_symlink() or not file.is_file() or not _ours(file):
            raise RecordError(f"no game `{name}` here (only logs `raiders record` wrote)", "game")
        return file

    # ---- a game
    def state(self, name: str, answers: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        """The game as the log leaves it, and the next question for the room being entered
        with `answers` given so far for it. Answers that complete the room are written to the
        log at once (the room is recorded) and the state after it is returned."""
        file = self.file(name)
        spec = self._read(file)
        given = _answers(answers)
        unseen = _unseen(file)
        k = len(spec.rooms)
        place = divmod(k, spec.rules.ruleset.rooms_per_floor)
        if place in unseen and spec.result is None:
            # the room is turned over: the table says which it is, before anything else
            question = _room_question(spec, unseen, place)
            if not given:
                _describe(question, _probe(spec, [], stop_before=True).played)
                return self._view(file, spec, _Probe(None, [], [], question), answers=[])
            card = given[0].value
            if given[0].kind != "room" or card not in [o["card"] for o in question["options"]]:
                raise RecordError(f"room {k + 1} is face down: say first which room it is "
                                  "(one of the cards the deck has left)")
            spec = _with_room(spec, place, card)
            probe = _probe(spec, given[1:])
            if not probe.done:
                probe.answers = given
                return self._view(file, spec, probe)
            unseen = unseen - {place}
        else:
            probe = _probe(spec, given)
        if probe.done:
            self._write(file, spec, probe.played, probe.records, probe.result, unseen=unseen)
            spec = self._read(file)
            return self.state(name)
        return self._view(file, spec, probe)

    def undo(self, name: str) -> dict[str, Any]:
        """The log without its last room."""
        file = self.file(name)
        spec = self._read(file)
        if not spec.rooms:
            raise RecordError("no room recorded yet: nothing to undo")
        kept = attrs.evolve(spec, rooms=spec.rooms[:-1], result=None, result_span=None)
        probe = _probe(kept, [])
        assert probe.game is not None
        self._write(file, spec, probe.game, probe.records, None, unseen=_unseen(file))
        return self.state(name)

    def _read(self, file: Path) -> LogSpec:
        """The log as it is on disk now (read again whenever its text changed)."""
        key = (file.name, file.read_bytes())
        spec = self._specs.get(key)
        if spec is not None:
            return spec
        try:
            spec = read_log(str(file), self.mods)
        except Problems as err:
            raise RecordError("; ".join(_diag_text(d) for d in err.diagnostics)) from None
        if len(self._specs) >= 8:
            self._specs.clear()
        self._specs[key] = spec
        return spec

    def _write(self, file: Path, spec: LogSpec, game: Game, records: list[RoomRecord],
               result: Optional[GameResult], created: bool = False,
               unseen: Optional[set[tuple[int, int]]] = None) -> None:
        if not created and not _ours(file):  # someone put another file there meanwhile
            raise RecordError(f"`{file.name}` is no longer a log `raiders record` wrote: "
                              "not written over")
        meta = LogMeta(spec.meta.ruleset, spec.meta.variant, spec.meta.seed, spec.meta.cards,
                       spec.meta.difficulty)
        if unseen is None:
            unseen = _unseen(file)
        deal = game.deal
        if unseen:

            cards = _fill(spec.rules, [[s.card for s in f.rooms] for f in deal.floors], unseen)
            deal = attrs.evolve(deal, floors=[
                Floor([RoomSlot(c, s.face_up) for c, s in zip(row, f.rooms, strict=True)],
                      f.floor_card) for row, f in zip(cards, deal.floors, strict=True)])
        note = UNSEEN + " ".join(f"{f + 1}.{r + 1}" for f, r in sorted(unseen)) + "\n" \
            if unseen else ""
        write_atomic(file, MARK + "\n" + note + render_game(meta, game.players, deal, records,
                                                            result))

    def _view(self, file: Path, spec: LogSpec, probe: "_Probe",
              answers: Optional[list] = None) -> dict[str, Any]:
        from raiders.interpreter.tools.viewer import build_view

        # The view replays the log once more (with the rules' reasons): the same text gives the
        # same view, and most requests (an answer in the middle of a room) leave the log as is.
        key = (file.name, file.read_bytes())
        view = self._views.get(key)
        if view is None:
            view = build_view(spec, file.name)
            if len(self._views) >= 8:
                self._views.clear()
            self._views[key] = view
        rules = spec.rules
        rs = rules.ruleset
        k = len(spec.rooms)
        nxt = None
        if view["result"] is None and spec.floors is not None:
            f, r = divmod(k, rs.rooms_per_floor)
            slot = (probe.game.deal.floors if probe.game is not None else spec.floors)[f].rooms[r]
            hidden = probe.question is not None and probe.question["kind"] == "room"
            nxt = {"floor": f, "room": r, "number": k + 1, "card": None if hidden else slot.card,
                   "name": "a face-down room" if hidden else rules.rooms[slot.card].name
                   or slot.card, "kind": "?" if hidden else rules.rooms[slot.card].face,
                   "faceUp": slot.face_up}
        return {"game": file.name, "view": view, "next": nxt, "question": probe.question,
                "answers": [attrs.asdict(a) for a in probe.answers] if answers is None else answers,
                "unseen": sorted(f"{f + 1}.{r + 1}" for f, r in _unseen(file)),
                "finished": view["result"] is not None}


def _unseen(file: Path) -> set[tuple[int, int]]:
    """The face-down rooms the log holds stand-ins for (its second line says)."""
    try:
        with open(file, encoding="utf-8") as fh:
            fh.readline()
            line = fh.readline()
    except OSError:
        return set()
    if not line.startswith(UNSEEN):
        return set()
    out = set()
    for word in line[len(UNSEEN):].split():
        f, _, r = word.partition(".")
        if f.isdigit() and r.isdigit() and int(f) > 0 and int(r) > 0:
            out.add((int(f) - 1, int(r) - 1))
    return out


def _left(rules: Rules, floors: Sequence[Sequence[Optional[str]]],
          unseen: set[tuple[int, int]]) -> tuple[dict[str, int], list[str]]:
    """The room deck's copies not on the table face up or known, and the bosses not used."""
    left = dict(rules.deck)
    bosses = list(rules.bosses)
    for f, floor in enumerate(floors):
        for r, card in enumerate(floor):
            if (f, r) in unseen or not card:
                continue
            if card in bosses:
                bosses.remove(card)
            elif left.get(card, 0) > 0:
                left[card] -= 1
    return left, bosses


def _boss_slot(rules: Rules, n_floors: int, f: int, r: int) -> bool:
    return bool(rules.bosses) and f == n_floors - 1 and r == rules.ruleset.rooms_per_floor - 1


def _stand_ins(rules: Rules, dungeon: list) -> tuple[list[list[str]], set[tuple[int, int]]]:
    """The form's floors with a stand-in for each face-down room left blank (the deck's
    first card with a copy left; the boss slot's, a boss), and which rooms those are."""
    floors: list[list[str]] = []
    unseen: set[tuple[int, int]] = set()
    for f, floor in enumerate(dungeon):
        if not isinstance(floor, dict) or not isinstance(floor.get("rooms"), list) \
                or not all(isinstance(r, str) for r in floor["rooms"]):
            raise RecordError("each floor gives its rooms", "dungeon")
        facing = str(floor.get("facing") or "")
        for r, card in enumerate(floor["rooms"]):
            if not card:
                if r < len(facing) and facing[r] == "U":
                    raise RecordError(f"floor {f + 1}, room {r + 1} lies face up: say which "
                                      "room it is", "dungeon")
                unseen.add((f, r))
        floors.append(list(floor["rooms"]))
    return _fill(rules, floors, unseen), unseen


def _fill(rules: Rules, floors: list[list[str]], unseen: set[tuple[int, int]]) -> list[list[str]]:
    """A stand-in in each unseen room, from what the deck has left once every room known
    is counted (picked again at each write: a room turned over may take a stand-in's card)."""
    floors = [list(floor) for floor in floors]
    left, bosses = _left(rules, floors, unseen)
    for f, r in sorted(unseen):
        if _boss_slot(rules, len(floors), f, r):
            if not bosses:
                raise RecordError("no boss is left for the last room", "dungeon")
            floors[f][r] = bosses.pop(0)
            continue
        card = next((c for c, n in left.items() if n > 0), None)
        if card is None:
            raise RecordError("the deck has no card left for the face-down rooms", "dungeon")
        left[card] -= 1
        floors[f][r] = card
    return floors


def _room_question(spec: LogSpec, unseen: set[tuple[int, int]],
                   place: tuple[int, int]) -> dict[str, Any]:
    rules = spec.rules
    assert spec.floors is not None
    cards = [[s.card for s in floor.rooms] for floor in spec.floors]
    left, bosses = _left(rules, cards, unseen)
    f, r = place
    ids = bosses if _boss_slot(rules, len(cards), f, r) else [c for c, n in left.items() if n > 0]
    return {"kind": "room", "player": None, "floor": f, "room": r,
            "text": f"Floor {f + 1}, room {r + 1} is turned over: which room is it?",
            "options": [{"card": c, "name": rules.rooms[c].name or c,
                         "kind": rules.rooms[c].face} for c in sorted(ids)]}


def _with_room(spec: LogSpec, place: tuple[int, int], card: str) -> LogSpec:

    assert spec.floors is not None
    f, r = place
    floors = [Floor([RoomSlot(s.card, s.face_up) for s in floor.rooms], floor.floor_card)
              for floor in spec.floors]
    floors[f].rooms[r] = RoomSlot(card, floors[f].rooms[r].face_up)
    return attrs.evolve(spec, floors=floors)


def _ours(file: Path) -> bool:
    try:
        with open(file, "rb") as fh:
            return fh.read(len(MARK) + 1) == (MARK + "\n").encode()
    except OSError:
        return False


def _diag_text(d: Diagnostic) -> str:
    where = f"line {d.span.line}: " if getattr(d.span, "line", 0) else ""
    return where + d.message + (f" ({d.hint})" if getattr(d, "hint", None) else "")


def _answers(raw: Sequence[Mapping[str, Any]]) -> list[Answer]:
    if not isinstance(raw, (list, tuple)) or len(raw) > MAX_ANSWERS:
        raise RecordError(f"`answers` is a list of at most {MAX_ANSWERS} answers")
    out = []
    for i, a in enumerate(raw):
        if not isinstance(a, dict) or a.get("kind") not in KINDS:
            raise RecordError(f"answer {i + 1}: a kind ({', '.join(KINDS)}) and a value")
        player = a.get("player")
        if player is not None and not isinstance(player, str):
            raise RecordError(f"answer {i + 1}: `player` is a name")
        value = a.get("value")
        kind = a["kind"]
        if kind in ("peek", "may") and not isinstance(value, bool):
            raise RecordError(f"answer {i + 1}: a {kind} is answered true or false")
        if kind in ("roll", "monster") and (not isinstance(value, int) or isinstance(value, bool)):
            raise RecordError(f"answer {i + 1}: a {kind} is a whole number")
        if kind == "room" and not isinstance(value, str):
            raise RecordError(f"answer {i + 1}: a room is a card id")
        if kind == "card" and not (isinstance(value, str) or (isinstance(value, int)
                                                               and not isinstance(value, bool))):
            raise RecordError(f"answer {i + 1}: a card is a power value 1..5 or an item id")
        out.append(Answer(kind, player, value))
    return out


# ---- the engine asks, the answers reply ------------------------------------------------------


class _Asked(Exception):
    """The engine asked a question that has no answer yet."""

    def __init__(self, question: Optional[dict[str, Any]]):
        super().__init__("asked")
        self.question = question


class _Done(Exception):
    """The engine asks for the room after: the room being recorded is complete."""


class _Answers:
    """The answers for room entry `k`, consumed in the order the engine asks."""

    def __init__(self, given: list[Answer], k: int):
        self.given = given
        self.used = 0
        self.k = k
        self.stop = False  # ask nothing: stop at the first question of room k
        self.game: Optional[Game] = None

    def live(self) -> bool:
        """Whether the engine now asks for the room being recorded (else: a kept room)."""
        assert self.game is not None
        at = self.game.entry_index
        if at > self.k:
            raise _Done()
        if at == self.k and self.stop:
            raise _Asked(None)
        return at == self.k

    def take(self, question: dict[str, Any]) -> Any:
        if self.used >= len(self.given):
            raise _Asked(question)
        a = self.given[self.used]
        if a.kind != question["kind"] or a.player != question.get("player"):
            who = f" for {question['player']}" if question.get("player") else ""
            raise RecordError(f"answer {self.used + 1} is a {a.kind} for {a.player or 'the table'}"
                              f", but the rules ask for a {question['kind']}{who} here "
                              "(the page was out of date: reload it)")
        self.used += 1
        return a.value


class _Seat:
    """A seat whose answers for the recorded room come from the table (`_Answers`)."""

    def __init__(self, answers: Optional[_Answers], name: str):
        self.answers = answers
        self.name = name

    def _need(self) -> _Answers:
        if self.answers is None or not self.answers.live():
            raise _Asked(None)
        return self.answers

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        answers = self._need()
        q = _card_question(view, legal, second)
        card = answers.take(q)
        if card not in legal:
            why = next((o["why"] for o in q["options"] if o["card"] == card), None) or \
                check_play(_entered(view), view.me, [card], view.abilities) or \
                f"{self.name} cannot play {card} here"
            raise RecordError(f"illegal play: {why}")
        return card

    def use_peek(self, view: SeatView) -> bool:
        return bool(self._need().take({"kind": "peek", "player": self.name,
                                       "text": f"Does {self.name} play a peek item before "
                                               "this room (to look at the hidden rooms)?"}))

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        name = view.rules.rooms[card].name if card in view.rules.rooms else card
        return bool(self._need().take({"kind": "may", "player": self.name, "card": card,
                                       "text": f"{name}: {question}"}))


def _card_question(view: SeatView, legal: Sequence[Card], second: bool) -> dict[str, Any]:
    """Every card the player might think of (the power cards, the items held), each legal or
    not, with why not (legality.check_play, as a replay says it)."""
    me, room = view.me, _entered(view)
    options = []
    seen: set = set()
    cards: list[Card] = [*POWER_CARDS, *me.items]
    for card in cards:
        if card in seen:
            continue
        seen.add(card)
        ok = card in legal
        why = None
        if not ok:
            why = check_play(room, _without(me, view.taken), [card], view.abilities) or \
                f"{me.name} cannot play {card} here"
        options.append({"card": card, "legal": ok, "why": why,
                        "name": view.rules.items[card].name or card
                        if isinstance(card, str) and card in view.rules.items else str(card)})
    return {"kind": "card", "player": me.name, "second": second, "options": options,
            "room": room.id, "taken": list(view.taken),
            "text": f"{me.name}'s {'second ' if second else ''}card for {room.name or room.id}"}


def _entered(view: SeatView) -> CompiledRoom:
    """The room a card is asked for: a card is chosen only in a room entered (Game.choose)."""
    room = view.room
    if room is None:
        raise RecordError("a card is asked for before the room is entered")
    return room


def _without(me: Any, taken: Sequence[Card]) -> Any:
    if not taken:
        return me
    from raiders.interpreter.runtime.state import Player

    hand = [c for c in me.hand if c not in taken]
    items = list(me.items)
    for c in taken:
        if isinstance(c, str) and c in items:
            items.remove(c)
    return Player(me.seat, me.name, hand=hand, items=items)


class _Threats(dict[int, int]):
    """The solo monster card of each room: the log's for kept rooms, the table's for the
    room being recorded (asked when the room reveals one)."""

    def __init__(self, logged: Mapping[int, int], answers: _Answers, deck: Sequence[int]):
        super().__init__(logged)
        self.answers = answers
        self.cards = sorted(set(deck))  # the monster deck's values (not `values`: dict's)

    def get(self, k: Any, default: Any = None) -> Any:
        if k == self.answers.k and self.answers.live():
            value = self.answers.take({"kind": "monster", "player": None, "values": self.cards,
                                       "text": "Which monster card is revealed?"})
            if value not in self.cards:  # C-12: the monster deck's cards
                raise RecordError(f"the monster deck holds {', '.join(map(str, self.cards))}, "
                                  f"not {value}")
            return value
        return super().get(k, default)


@attrs.define
class _Probe:
    game: Optional[Game]
    records: list[RoomRecord]
    answers: list[Answer]
    question: Optional[dict[str, Any]] = None
    done: bool = False
    result: Optional[GameResult] = None

    @property
    def played(self) -> Game:
        """The game the probe played: every probe `_probe` makes has one (only the question
        of a face-down room, before anything is played, has none)."""
        if self.game is None:
            raise RecordError("the room is not played yet: no table to show")
        return self.game


def _probe(spec: LogSpec, given: list[Answer], stop_before: bool = False) -> _Probe:
    """Replay the log, then enter the next room with the answers `given` for it
    (`stop_before`: only the log's rooms, to see the table as they leave it)."""
    k = len(spec.rooms)
    answers = _Answers(given, k)
    answers.stop = stop_before
    branch = branch_game(spec, k, [_Seat(answers, n) for n in spec.names], 0)
    game = answers.game = branch.game
    logged_roll = game.scripted_rolls

    def roll(faces: int) -> Optional[int]:
        if not answers.live():
            return logged_roll(faces) if logged_roll is not None else None
        value = answers.take({"kind": "roll", "player": None, "faces": faces,
                              "text": f"Roll a {faces}-sided die: what does it show?"})
        if not 1 <= value <= faces:
            raise RecordError(f"a {faces}-sided die shows 1 to {faces}, not {value}")
        return value

    game.scripted_rolls = roll
    deck = game.rules.variant.threat_deck
    if deck and spec.meta.seed is None:  # no seed: the table's monster deck is the one
        game.scripted_threats = _Threats(game.scripted_threats, answers, deck)
    records: list[RoomRecord] = []
    probe = _Probe(game, records, given)
    try:
        probe.result = branch.run(records.append)
    except _Asked as asked:
        probe.question = asked.question
        if asked.question is None and not stop_before:
            raise RecordError("the log cannot be played on (a kept room asks again)") from None
        if asked.question is None:
            return probe
        _describe(asked.question, game)
        return probe
    except _Done:
        probe.done = True
        probe.records = list(game.records)
    except RulesError as err:
        raise RecordError(f"room {k + 1}: {err}") from None
    except Problems as err:
        raise RecordError("; ".join(_diag_text(d) for d in err.diagnostics)) from None
    if probe.result is not None:
        probe.done = len(game.records) > k
        probe.records = list(game.records)
    if answers.used < len(given):
        raise RecordError(f"{len(given) - answers.used} answer(s) more than the room asks for")
    return probe


def _describe(question: dict[str, Any], game: Game) -> None:
    """What the page shows beside a question: everyone's state now."""
    question["players"] = [
        {"name": p.name, "coins": p.coins, "wounds": p.wounds, "items": list(p.items),
         "hand": sorted(p.hand), "dead": p.dead, "out": p.out,
         "marks": {n: m.count for n, m in sorted(p.marks.items())}}
        for p in game.players]

