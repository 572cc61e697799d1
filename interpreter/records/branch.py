"""Continuing a logged game from one of its rooms: `raiders play --from LOG --room N`.

The log's first N rooms are played again from the log (every play checked, as `replay` does);
from room N+1 on, the seats given (bots, people at the terminal) decide. The new game's log
shares the first N rooms with the old one.
"""
from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path
from typing import Callable, Optional, Sequence

import attrs

from raiders.dsl.diagnostics import Diagnostic, Problems
from raiders.dsl.spans import Span
from raiders.interpreter.game.engine import Game, GameResult, RoomRecord
from raiders.interpreter.game.players import Seat, SeatView
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.state import Card

from .logs import LogMeta, LogSpec
from .replay import _Driver, build_game


class _BranchSeat:
    """The log's answers for the rooms kept, then the new seat's."""

    def __init__(self, game: Game, logged: Seat, new: Seat, keep: int):
        self.game, self.logged, self.new, self.keep = game, logged, new, keep

    def _seat(self):
        return self.logged if self.game.entry_index < self.keep else self.new

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        return self._seat().choose_card(view, legal, second)

    def use_peek(self, view: SeatView) -> bool:
        return self._seat().use_peek(view)

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        decide = getattr(self._seat(), "decide", None)
        return bool(decide(view, question, card)) if decide is not None else False


@attrs.define
class Branch:
    spec: LogSpec
    game: Game
    driver: _Driver
    keep: int

    def run(self, on_room: Optional[Callable[[RoomRecord], None]] = None) -> GameResult:
        """Play the game; a kept room that breaks the rules is the log's fault (Problems at
        the room's entry, as in replay)."""
        game, keep, spec = self.game, self.keep, self.spec

        def after_room(rec: RoomRecord) -> None:
            k = len(game.records) - 1
            if k < keep:
                self.driver.finish_room(k, list(rec.plays), spec.rules.rooms[rec.card])
            if on_room is not None:
                on_room(rec)

        try:
            return game.run(after_room)
        except RulesError as err:
            k = len(game.records)
            if k >= keep:
                raise
            where = spec.rooms[k].span if k < len(spec.rooms) else Span.whole_file(spec.path)
            raise Problems([Diagnostic(where, "E503", f"room entry {k + 1}: {err}")]) from None


def branch_game(spec: LogSpec, keep: int, seats: Sequence[Seat], seed: int) -> Branch:
    """A game that replays the log's first `keep` rooms, then lets `seats` play on. The seed
    drives the new seats' choices and whatever the log does not fix after room `keep`."""
    if not 0 <= keep <= len(spec.rooms):
        raise ValueError(f"--room takes 0..{len(spec.rooms)}: the log has {len(spec.rooms)} "
                         "room(s)")
    kept = attrs.evolve(spec, rooms=list(spec.rooms[:keep]), result=None, result_span=None)
    game, driver = build_game(kept)
    # The branch's own generator: the bots and the dice after the kept rooms.
    game.rng = random.Random(seed)
    game.seat_rngs = [random.Random(game.rng.getrandbits(64)) for _ in game.seats]
    game.seats = [_BranchSeat(game, logged, new, keep)
                  for logged, new in zip(game.seats, seats, strict=True)]
    deck = list(game.rules.variant.threat_deck)
    if deck and not game.deal.threat_deck:
        # A log with no seed gives the monster cards room by room: the branch draws the
        # ones not yet revealed, after those the kept rooms revealed.
        shown = [r.monster for r in kept.rooms if r.monster is not None]
        left = Counter(deck)
        left.subtract(Counter(shown))
        rest = sorted(left.elements())
        game.rng.shuffle(rest)
        game.deal.threat_deck = shown + rest
    return Branch(kept, game, driver, keep)


def branch_meta(spec: LogSpec, seed: int, target: Path) -> LogMeta:
    """The new log's header: the old one's ruleset and mods, as paths from the new log's
    folder (a log names paths relative to itself)."""
    from raiders.formats.rulesets import builtin_ids

    base = Path(spec.path).parent

    def moved(p: str) -> str:
        if p in builtin_ids():
            return p
        return os.path.relpath((base / p).resolve(), target.parent.resolve())

    m = spec.meta
    return LogMeta(moved(m.ruleset), spec.rules.variant.name, seed,
                   tuple(moved(c) for c in m.cards), m.difficulty)
