"""Replaying a logged game: the log's plays drive the engine; checkpoints are compared.

A log may give a seed instead of a deal, leave out checkpoints, or stop early (a game in
progress: the replay reports the state reached).
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import attrs

from raiders.dsl.diagnostics import Diagnostic, Problems
from raiders.dsl.spans import Span
from raiders.interpreter.game.engine import Deal, Game, GameResult, RoomRecord
from raiders.interpreter.game.players import SeatView
from raiders.interpreter.runtime.compiled import CompiledRoom
from raiders.interpreter.runtime.legality import check_play
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.state import Card

from .logs import LogSpec, RoomSpec


class _Stop(Exception):
    """The log has no more rooms: the game stops here (a game in progress)."""


@attrs.define
class Divergence:
    floor: int
    room: int
    card: str
    player: str
    field: str
    expected: object
    actual: object
    line: Optional[int] = None  # the checkpoint's line in the log
    unchecked_before: int = 0  # rooms just before it with no checkpoint

    def __str__(self) -> str:
        where = (f"floor {self.floor + 1}, room {self.room + 1} ({self.card})"
                 if self.floor >= 0 else "result")
        at = f"line {self.line}: " if self.line else ""
        text = (f"{at}{where}: {self.player}.{self.field}: expected {self.expected!r}, "
                f"got {self.actual!r}" if self.player else
                f"{at}{where}: {self.field}: expected {self.expected!r}, got {self.actual!r}")
        if self.unchecked_before:
            text += (f" (the {self.unchecked_before} room(s) before it have no checkpoint: "
                     "the cause may be there)")
        return text


@attrs.define
class ReplayOutcome:
    spec: LogSpec
    game: Game
    result: Optional[GameResult]  # None when the log stops before the end
    rooms_played: int
    divergence: Optional[Divergence] = None
    checkpoints: int = 0  # checkpoints compared


class _Driver:
    """Answers the engine's questions from the log, and checks each answer is legal."""

    def __init__(self, spec: LogSpec):
        self.spec = spec
        self.step: dict[tuple[int, str], int] = {}
        self.asked_peek: set[tuple[int, str]] = set()
        self.game: Optional[Game] = None  # the game being driven (`build_game` sets it)

    def entry(self) -> tuple[int, RoomSpec]:
        """The log's entry for what the engine asks now (`Game.entry_index`: between two
        rooms, the next one; at the end, the last one)."""
        assert self.game is not None
        k = self.game.entry_index
        if k >= len(self.spec.rooms):
            raise _Stop()
        return k, self.spec.rooms[k]

    def choose_card(self, name: str, view: SeatView, legal: Sequence[Card]) -> Card:
        k, room = self.entry()
        play = room.plays.get(name)
        if play is None:
            raise Problems([Diagnostic(room.plays_span, "E504",
                                         f"room entry {k + 1} has no play for {name}",
                                         "every living player plays one card in every room")])
        i = self.step.get((k, name), 0)
        here = view.room
        assert here is not None  # a card is chosen only in a room entered (Game.choose)
        if i >= len(play.cards) and (not play.cards or here.cards_each > 1
                                     or here.rounds > 1):
            raise Problems([Diagnostic(play.spans[-1] if play.spans else room.plays_span,
                                         "E503", f"room entry {k + 1} gives {name} "
                                         f"{len(play.cards)} card(s); the room asks for more "
                                         f"({here.cards_each} each, "
                                         f"{here.rounds} round(s))")])
        if i >= len(play.cards):
            raise Problems([Diagnostic(play.spans[-1], "E503",
                                         f"{name} played a {play.cards[-1]} but no second card "
                                         "after it")])
        self.step[(k, name)] = i + 1
        card = play.cards[i]
        if card not in legal:
            why = check_play(here, view.me, play.cards[i:], view.abilities) or \
                f"{name} cannot play {card} here"
            raise Problems([Diagnostic(play.spans[i], "E503", f"illegal play: {why}")])
        return card

    def decide(self, name: str, view: SeatView, question: str) -> bool:
        k, room = self.entry()
        i = self.step.get((k, "?" + name), 0)
        answers = room.choices.get(name, [])
        if i >= len(answers):
            raise Problems([Diagnostic(room.span, "E503",
                                         f"room entry {k + 1}: {name} is asked \"{question}\" "
                                         f"but the log gives no answer (`choices: {{{name}: "
                                         "[true]}`)")])
        self.step[(k, "?" + name)] = i + 1
        return answers[i]

    def roll(self, k: int) -> Optional[int]:
        """The next die the log gives for room entry k (None: none given; the seed rolls)."""
        if k >= len(self.spec.rooms):
            return None
        room = self.spec.rooms[k]
        rolls = room.rolls
        i = self.step.get((k, "#roll"), 0)
        if i >= len(rolls):
            if self.spec.meta.seed is None:  # nothing to roll from: a replay must be exact
                raise Problems([Diagnostic(room.span, "E503",
                                             f"room entry {k + 1} rolls a die, but the log "
                                             f"gives {len(rolls)} roll(s) and no seed",
                                             "record the dice: `rolls: [N, …]`")])
            return None
        self.step[(k, "#roll")] = i + 1
        return rolls[i]

    def use_peek(self, name: str, view: SeatView) -> bool:
        k, room = self.entry()
        self.asked_peek.add((k, name))
        return name in room.peeks

    def finish_room(self, k: int, living: list[str], room: CompiledRoom) -> None:
        """After a room: every logged play and peek was used, and nobody else played."""
        entry = self.spec.rooms[k]
        for name in entry.peeks:
            if (k, name) not in self.asked_peek:
                raise Problems([Diagnostic(entry.peeks_span or entry.span, "E503",
                                             f"{name} is listed in `torches` of room entry "
                                             f"{k + 1} but holds no item with the peek "
                                             "ability")])
        for name, play in entry.plays.items():
            if name not in living:
                raise Problems([Diagnostic(play.spans[0], "E503",
                                             f"{name} is out of the game and plays no more")])
            used = self.step.get((k, name), 0)
            if used < len(play.cards):
                last = play.cards[used - 1] if used else None
                why = f"{name}: only a second-card item may be followed by another card"
                if isinstance(last, str) and (last in room.escapes or last in room.playable):
                    what = "an escape card" if last in room.escapes else "played as a card"
                    why = (f"{name}: in {room.name} a {last} is {what}: it is the player's "
                           "card, with no second card after it")
                raise Problems([Diagnostic(play.spans[used], "E503", why)])


class _LogSeat:
    def __init__(self, driver: _Driver, name: str):
        self.driver = driver
        self.name = name

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        return self.driver.choose_card(self.name, view, legal)

    def use_peek(self, view: SeatView) -> bool:
        return self.driver.use_peek(self.name, view)

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        return self.driver.decide(self.name, view, question)


def build_game(spec: LogSpec, trace: bool = True) -> tuple[Game, _Driver]:
    rules = spec.rules
    seed_deal: Optional[Deal] = None
    # The seed deals only what the log leaves out; a log that gives the whole deal (as `play`
    # writes them) needs no seeded game set up beside it.
    dealt = (spec.floors is not None and None not in spec.characters
             and (spec.first_player is not None or rules.variant.first_player == "none")
             and not rules.variant.threat_deck)
    driver = _Driver(spec)
    seats = [_LogSeat(driver, n) for n in spec.names]
    if spec.meta.seed is not None and not dealt:
        try:  # the probe only deals: its seats are never asked anything
            probe = Game(rules, spec.names, seats, seed=spec.meta.seed,
                         difficulty=spec.meta.difficulty)
        except (RulesError, ValueError) as err:
            raise Problems([Diagnostic(spec.players_span or Span.whole_file(spec.path),
                                         "E503", str(err))]) from None
        seed_deal = probe.deal

    def seeded() -> Deal:
        """The seed's deal, for what the log leaves out (read_log requires a seed then)."""
        if seed_deal is None:
            raise Problems([Diagnostic(spec.players_span or Span.whole_file(spec.path), "E503",
                                       "the log leaves out a character or the dungeon, and "
                                       "gives no `seed` to deal it")])
        return seed_deal

    characters = [c if c is not None else seeded().characters[i]
                  for i, c in enumerate(spec.characters)]
    deal = Deal(
        floors=spec.floors if spec.floors is not None else seeded().floors,
        characters=characters,
        first_player=spec.first_player if spec.first_player is not None else (
            seed_deal.first_player if seed_deal else None),
        threat_deck=list(seed_deal.threat_deck) if seed_deal else [])
    solo = rules.variant.scoring == "solo"
    try:
        game = Game(rules, spec.names, seats, seed=spec.meta.seed, deal=deal, trace=trace,
                    difficulty=(spec.meta.difficulty or 3) if solo else spec.meta.difficulty)
    except (RulesError, ValueError) as err:
        raise Problems([Diagnostic(spec.players_span or Span.whole_file(spec.path), "E503",
                                     str(err))]) from None
    game.scripted_threats = {k: r.monster for k, r in enumerate(spec.rooms)
                             if r.monster is not None}
    driver.game = game
    game.scripted_rolls = lambda faces: driver.roll(game.entry_index)
    return game, driver


def _compare(rec: RoomRecord, room: RoomSpec) -> Optional[Divergence]:
    if not room.after:
        return None
    state = {n: (c, w, i) for n, c, w, i in rec.after_state}
    for name, fields in room.after.items():
        coins, wounds, items = state[name]
        for field, want in fields.items():
            got = coins if field == "coins" else wounds if field == "wounds" else sorted(items)
            if got != want:
                return Divergence(rec.floor, rec.index, rec.card, name, field, want, got,
                                  (room.after_span or room.span).line)
    return None


def replay(spec: LogSpec, check: bool = False,
           on_room: Optional[Callable[[RoomRecord, Game], None]] = None,
           on_start: Optional[Callable[[Game], None]] = None) -> ReplayOutcome:
    """Re-run a log. With `check`, stop at the first checkpoint that differs.
    `on_room(record, game)` is called after every room (for narration); `on_start(game)`
    once the game is set up, before it runs (the viewer's first look, a trace recorder)."""
    game, driver = build_game(spec)
    if on_start is not None:
        on_start(game)
    outcome = ReplayOutcome(spec, game, None, 0)

    class _Diverged(Exception):
        pass

    def after_room(rec: RoomRecord) -> None:
        k = len(game.records) - 1
        # who played: the living at the room's start
        driver.finish_room(k, list(rec.plays), spec.rules.rooms[rec.card])
        room = spec.rooms[k]
        if room.monster is not None and rec.monster is None:
            raise Problems([Diagnostic(room.monster_span or room.span, "E503",
                                         f"room entry {k + 1} ({rec.card}) reveals no monster "
                                         "card: remove `monster:`")])
        outcome.rooms_played = k + 1
        if on_room is not None:
            on_room(rec, game)
        if check:
            outcome.checkpoints += bool(room.after)
            d = _compare(rec, room)
            if d is not None:
                j = k
                while j > 0 and not spec.rooms[j - 1].after:
                    j -= 1
                d.unchecked_before = k - j
                outcome.divergence = d
                raise _Diverged()

    try:
        result = game.run(after_room)
    except _Stop:
        if spec.result is not None:
            raise Problems([Diagnostic(spec.result_span or Span.whole_file(spec.path), "E503",
                                         f"the log stops after {len(game.records)} room(s) "
                                         "but gives a result",
                                         "a game in progress has no `result`")]) from None
        return outcome
    except _Diverged:
        return outcome
    except RulesError as err:
        k = len(game.records)
        where = spec.rooms[k].span if k < len(spec.rooms) else Span.whole_file(spec.path)
        raise Problems([Diagnostic(where, "E503", f"room entry {k + 1}: {err}")]) from None
    if len(spec.rooms) > len(game.records):
        extra = spec.rooms[len(game.records)]
        raise Problems([Diagnostic(extra.span, "E503",
                                     f"the game ended after {len(game.records)} rooms, but the "
                                     "log goes on")])
    outcome.result = result
    if check and spec.result is not None:
        for key in ("winners", "out"):
            want = spec.result.get(key)
            got = result.winners if key == "winners" else result.out
            if want is not None and sorted(want) != sorted(got):
                outcome.divergence = Divergence(-1, -1, "", "", key, want, got,
                                                spec.result_span.line if spec.result_span else None)
                break
    return outcome
