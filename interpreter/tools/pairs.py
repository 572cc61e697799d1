"""Two games of one seed that differ only in some room cards: the second replays the first's
answers up to the floor where those cards first lie, and its bots take over there
(docs/simulate.md, "Replayed, not thought again").

Where nothing before that floor can tell the two games apart, they play those floors alike,
answer for answer: so the second game takes the first one's answers there (the engine still
plays every room, dice and effects: only the bots' thinking, most of a game's cost, is spared)
and hands over to its bots as the floor starts, each seat's generator set where the first
game's stood. The result is the second game played afresh, integer for integer; a game that
finds, at the hand-over or at its end, that it has not played the first game's rooms raises
`Diverged`, and is played afresh by its caller.

`balance` pairs the base game with the same deal holding a mod's card in one slot
(tools/balance.py); `simulate` and `diff` pair each seed's game under one set of cards with
the same seed under another where the deck is the same (tools/simulate.py `run_chunk`).
"""
from __future__ import annotations

from typing import Iterable, Optional

import attrs

from raiders.dsl import ast
from raiders.interpreter.game.engine import Deal, Game, GameResult
from raiders.interpreter.runtime.rules import Rules


@attrs.frozen
class FloorStart:
    """Where a recorded game stood as a floor started."""

    answers: tuple[int, ...]  # each seat's answers so far
    generators: tuple  # each seat's generator's state (random.Random.getstate)
    rooms: int  # rooms played


@attrs.frozen
class Tape:
    """A recorded game's answers for another game to replay, and where they end."""

    floor: Optional[int]  # the floor where its bots take over (None: the whole game replays)
    mark: Optional[FloorStart]  # the recorded game as that floor started
    answers: tuple[list, ...]  # per seat, every answer of the recorded game, in order
    rooms: list  # the recorded game's rooms (RoomRecord)


class Diverged(Exception):
    """A replaying game did not play the recorded game's rooms: it must be played afresh."""


class Recorded:
    """A bot whose answers are kept, in order (`TapedGame` notes where they stand)."""

    __slots__ = ("bot", "answers")

    def __init__(self, bot) -> None:
        self.bot = bot
        self.answers: list = []

    def choose_card(self, view, legal, second):
        card = self.bot.choose_card(view, legal, second)
        self.answers.append(card)
        return card

    def use_peek(self, view) -> bool:
        peek = self.bot.use_peek(view)
        self.answers.append(peek)
        return peek

    def decide(self, view, question: str, card: str) -> bool:
        decide = getattr(self.bot, "decide", None)  # as the engine asks a seat without one
        yes = bool(decide(view, question, card)) if decide is not None else False
        self.answers.append(yes)
        return yes


class Replayed:
    """The recorded game's answers, in order, until `TapedGame` hands over (answers None);
    its own bot's from then on."""

    __slots__ = ("bot", "answers", "given")

    def __init__(self, bot, answers: Optional[list]) -> None:
        self.bot = bot
        self.answers = answers
        self.given = 0

    def _next(self):
        assert self.answers is not None
        if self.given >= len(self.answers):
            raise Diverged
        answer = self.answers[self.given]
        self.given += 1
        return answer

    def choose_card(self, view, legal, second):
        if self.answers is None:
            return self.bot.choose_card(view, legal, second)
        card = self._next()
        if card not in legal:
            raise Diverged
        return card

    def use_peek(self, view) -> bool:
        return self.bot.use_peek(view) if self.answers is None else self._next()

    def decide(self, view, question: str, card: str) -> bool:
        if self.answers is None:
            decide = getattr(self.bot, "decide", None)
            return bool(decide(view, question, card)) if decide is not None else False
        return self._next()


class TapedGame(Game):
    """A game that records its seats' answers (its seats `Recorded`: `at_floor` notes where
    they stood as each floor started) or replays another's (its seats `Replayed`, `tape`:
    hands over to its bots as the tape's floor starts, or checks the whole game at its end)."""

    def __init__(self, *args, tape: Optional[Tape] = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tape = tape
        self.recorded = [s for s in self.seats if isinstance(s, Recorded)]
        self.replayed = [s for s in self.seats if isinstance(s, Replayed)]
        self.at_floor: list[FloorStart] = []  # recording: where it stood as each floor started

    def start_floor(self, f: int, floor) -> None:
        if self.recorded:
            self.at_floor.append(FloorStart(tuple(len(s.answers) for s in self.recorded),
                                            tuple(r.getstate() for r in self.seat_rngs),
                                            len(self.records)))
        tape = self.tape
        if tape is not None and f == tape.floor:
            self._hand_over(tape)
        super().start_floor(f, floor)

    def _hand_over(self, tape: Tape) -> None:
        """The recorded answers end here: each seat's bot decides from now on, with its
        generator where the recorded game's stood; only if this game has played the
        recorded game's rooms so far, answer for answer (else `Diverged`)."""
        mark = tape.mark
        assert mark is not None
        if (tuple(s.given for s in self.replayed) != mark.answers
                or self.records != tape.rooms[:mark.rooms]):
            raise Diverged
        for seat, rng, state in zip(self.replayed, self.seat_rngs, mark.generators,
                                    strict=True):
            rng.setstate(state)
            seat.answers = None

    def finish(self) -> GameResult:
        tape = self.tape
        if tape is not None and self.replayed and self.replayed[0].answers is not None:
            # never handed over (the game ended first, or nothing differed in its deal)
            if (tuple(s.given for s in self.replayed) != tuple(map(len, tape.answers))
                    or self.records != tape.rooms):
                raise Diverged
        return super().finish()


def recording(bots: list) -> list:
    """The seats of a game to be replayed: each bot, its answers kept."""
    return [Recorded(b) for b in bots]


def replaying(game: TapedGame, floor: Optional[int]):
    """What makes the seats of a game that replays `game` (played, recorded) up to `floor`
    (None: the whole game), and the tape they play; None when `game` never reached it."""
    if floor is not None and floor >= len(game.at_floor):
        floor = None  # the recorded game ended before it: the replay plays it all
    answers = tuple(s.answers for s in game.recorded)
    tape = Tape(floor, game.at_floor[floor] if floor is not None else None, answers,
                game.records)

    def seats(bots: list) -> list:
        return [Replayed(b, a) for b, a in zip(bots, answers, strict=True)]

    return seats, tape


def first_floor(deal: Deal, cards: Iterable[str]) -> Optional[int]:
    """The first floor of the deal where one of `cards` lies (None: nowhere)."""
    wanted = set(cards)
    for f, floor in enumerate(deal.floors):
        if any(s.card in wanted for s in floor.rooms):
            return f
    return None


@attrs.frozen
class Apart:
    """How two sets of rules differ, for a game of one to replay a game of the other."""

    rooms: frozenset[str]  # the room cards they hold differently (new, or changed)
    why_not: Optional[str]  # why a game cannot replay the other's answers (None: it can)


def apart(before: Rules, after: Rules, bots: Iterable[str], same_deck: bool) -> Apart:
    """Which room cards `after` holds differently from `before`, and whether a game under
    `after` may replay a game under `before` up to the floor where one first lies (`same_deck`:
    each game draws its own deal, so the deck, the bosses and the characters must be alike;
    else the caller deals both). It may when nothing before that floor can tell them apart:
    - every seat's bot looks no further than the floor it is on (`sees_past_floor`: a search
      bot's playouts sample the rest of the dungeon from the rules), and some bot thinks
      enough for replaying to save anything (`cheap`: the random bot);
    - the cards that differ are room cards, or new statuses and kinds (which only they can
      name); no item, character, house rule, floor card, status, kind, supply or ruleset
      differs;
    - no card runs the next room's procedure (`do next_room`: a floor's last room reaches
      the next floor's first), and none outside them makes a room become one of them
      (`become`: they would be played where they do not lie)."""
    from raiders.interpreter.game.botspec import bot_classes, parse_bot

    was, now = before.library, after.library
    differs = {cid for cid, decl in now.cards.items() if not _same(was.cards.get(cid), decl)}
    rooms = {cid for cid in differs if cid in after.rooms}

    def why_not() -> Optional[str]:
        classes = [bot_classes()[parse_bot(spec)[0]] for spec in bots]
        for spec, cls in zip(bots, classes, strict=True):
            if getattr(cls, "sees_past_floor", True):
                return f"the {spec} bot looks past its floor"
        if all(getattr(cls, "cheap", False) for cls in classes):
            return "the bots think too little for replaying them to save anything"
        for cid in sorted(differs - rooms):
            # a new status only the differing cards can name; a changed one, any card
            if cid not in after.statuses or cid in was.cards:
                return f"{cid} differs, and it is not a room card"
        for cid in was.cards:
            if cid not in now.cards:
                return f"{cid} is gone"
        for name, info in now.kinds.items():  # a new kind only the differing cards can use
            if name in was.kinds and not _same_kind(was.kinds[name], info):
                return f"the kind {name} differs"
        if (after.supply != before.supply or after.pool != before.pool
                or set(after.house) != set(before.house) or after.ruleset != before.ruleset
                or after.variant != before.variant):
            return "the supply, the characters, the house rules or the ruleset differ"
        if same_deck and (after.deck_cards != before.deck_cards
                          or after.bosses != before.bosses):
            return "the deck differs"
        for lib in (was, now):
            for module in lib.modules:
                for top in module.decls:
                    name = (top.id if isinstance(top, ast.CardDecl) else
                            f"kind {top.name}" if isinstance(top, ast.KindDecl) else
                            f"extend {top.kind}")
                    inside = isinstance(top, ast.CardDecl) and top.id in rooms
                    for node in ast.walk(top):
                        if isinstance(node, ast.Do) and node.name.name == "next_room":
                            return f"{name} runs `do next_room`"
                        if (not inside and isinstance(node, ast.Effect)
                                and node.verb == "become" and _named(node) in rooms):
                            return f"{name} makes a room become {_named(node)}"
        return None

    return Apart(frozenset(rooms), why_not())


def _same(a: Optional[ast.CardDecl], b: ast.CardDecl) -> bool:
    """The same card, wherever it is written (two folders, two versions of a mod)."""
    return a is not None and (a == b or ast.same_shape(a, b))


def _same_kind(a, b) -> bool:
    """The same kind: its ancestry and its extensions alike, wherever written."""
    return a == b or ast.same_shape((a.chain, a.extensions, a.inherited_extensions),
                                    (b.chain, b.extensions, b.inherited_extensions))


def _named(effect: ast.Effect) -> str:
    arg = effect.arg
    return arg.name if isinstance(arg, ast.Name) else ""


def play_replaying(game: TapedGame, floor: Optional[int], play):
    """`play(seats, tape)` replaying `game` up to `floor`; `play(None, None)`, afresh, when
    it does not play `game`'s rooms."""
    seats, tape = replaying(game, floor)
    try:
        return play(seats, tape)
    except Diverged:
        return play(None, None)
