"""Who decides: the player interface (a protocol), what a seat may see, and the bots.

A seat sees only what its player may see at a real table: its own hand and items, everyone's
coins, wounds and played power cards, face-up rooms, rooms it looked at with a peek item, and the
cards already revealed in the current room.
"""
from __future__ import annotations

import functools
import itertools
import math
import operator
import random
from typing import Any, Callable, Hashable, NamedTuple, Optional, Protocol, Sequence

import attrs

from raiders.interpreter.runtime.compiled import CompiledRoom
from raiders.interpreter.runtime.legality import SECOND_CARD, is_second_card, item_plays
from raiders.interpreter.runtime.reads import NOTHING
from raiders.interpreter.runtime.room import RulesError, Table, resolve_round
from raiders.interpreter.runtime.state import POWER_CARDS, Card, Play, Player


@attrs.frozen
class PublicPlayer:
    """Another player as the table sees them: tokens, the power cards still in hand (the
    played ones lie face up), the item cards they hold: which ones is public too, since every
    item comes to a player in the open (a character's printed items, a vault's reward for a
    card everyone saw, a steal), and the narration names them."""

    seat: int
    name: str
    coins: int
    wounds: int
    hand: tuple[int, ...]
    item_count: int
    dead: bool
    out: Optional[str]
    character: str = ""
    marks: tuple[tuple[str, int], ...] = ()  # statuses are public: (name, count)
    items: tuple[str, ...] = ()  # item ids, as held


class SeatView:
    """A seat's window on the game for one decision. The engine keeps one per seat and aims
    it at each decision (`aim`) rather than making one per decision, the game's commonest
    step: a view holds good for the decision it is given for. What a decision may look at is
    computed only when it looks (and kept until the next aim: plain attributes, not
    functools.cached_property, whose lock costs more than most views ever compute)."""

    def __init__(self, game, me: Player, room_index: int, revealed: Sequence[Play],
                 entered: bool, taken: Sequence[Card] = ()):
        self._game = game
        self.me = me
        self.room_index = room_index
        self.revealed = revealed
        self.taken = taken  # cards this player already put down in this round of the room
        self._entered = entered
        self.rng: random.Random = game.seat_rngs[me.seat]  # the seat's own generator
        self._players: Optional[list] = None
        self._floor_rooms: Optional[list[Optional[str]]] = None

    def aim(self, room_index: int, revealed: Sequence[Play], entered: bool,
            taken: Sequence[Card] = ()) -> None:
        """The same seat's view for another decision: what it shows is worked out afresh."""
        self.room_index = room_index
        self.revealed = revealed
        self.taken = taken
        self._entered = entered
        self._players = self._floor_rooms = None

    @property
    def players(self) -> list:
        """Everyone in seat order: this seat as itself, the others as the table sees them."""
        if self._players is None:
            self._players = [
                p if p is self.me else
                PublicPlayer(p.seat, p.name, p.coins, p.wounds, tuple(p.hand), len(p.items),
                             p.dead, p.out, p.character,
                             tuple((n, m.count) for n, m in sorted(p.marks.items()))
                             if p.marks else (), tuple(p.items))
                for p in self._game.players]
        return self._players

    @property
    def floor_index(self) -> int:
        return self._game.table.floor_index

    @property
    def supply(self) -> dict[str, int]:
        return dict(self._game.supply)

    @property
    def abilities(self) -> dict[str, Optional[str]]:
        return self._game.abilities

    @property
    def rules(self):
        """Every card's text and the ruleset: public, like the rulebook (a search bot's
        playouts use them)."""
        return self._game.rules

    @property
    def first(self) -> Optional[int]:
        """The first player's seat (None: a variant without one); public, the scroll is on
        the table."""
        return self._game.first

    @property
    def rooms_done(self) -> int:
        """How many rooms the game has played so far (statuses count them down)."""
        return self._game.table.rooms_done

    @property
    def held_rules(self):
        """The rules of the cards players hold (public card texts), for a look-ahead."""
        return self._game.rules.held_rules

    @property
    def floor_rooms(self) -> list[Optional[str]]:
        """This floor's rooms as this seat knows them (None: face down, not looked at)."""
        if self._floor_rooms is None:
            g, r = self._game, self.room_index
            floor = g.deal.floors[g.table.floor_index]
            seen = g.peeked.get(self.me.seat, ())
            # a loop, not a comprehension (a call of its own in Python 3.11): the random
            # bot asks before most rooms
            rooms: list[Optional[str]] = []
            for i, s in enumerate(floor.rooms):
                rooms.append(s.card if (s.face_up or i < r or (i == r and self._entered)
                                        or i in seen) else None)
            self._floor_rooms = rooms
        return self._floor_rooms

    @property
    def room(self) -> Optional[CompiledRoom]:
        """The room being played (known once entered)."""
        if not self._entered:
            return None
        g = self._game
        return g.rules.rooms[g.table.card_at((g.table.floor_index, self.room_index))]

    @property
    def how_played(self) -> str:
        """How the current room is played, in words (cards each, rounds)."""
        room = self.room
        if room is None or (room.cards_each == 1 and room.rounds == 1):
            return "one card each"
        text = f"{room.cards_each} card(s) each, summed"
        if room.rounds > 1:
            text += f", {room.rounds} rounds (one play per round)"
        if self.taken:
            text += f"; you have put down {', '.join(map(str, self.taken))}"
        return text

    @property
    def marks(self) -> dict[str, int]:
        """This seat's statuses and their counts."""
        return {name: m.count for name, m in sorted(self.me.marks.items())}

    @property
    def threats_left(self) -> list[int]:
        """The monster deck's cards not yet revealed, sorted (public: revealed ones stay
        face up, C-12); empty when the game has no monster deck."""
        g = self._game
        return sorted(g.deal.threat_deck[g.threats_drawn:])

    def others_public(self) -> list[tuple[int, int, int, list[int]]]:
        """Every other living player's seat, coins, wounds and power cards still in hand (all
        public, as in `players`), without building the table's view of each player."""
        me = self.me
        return [(p.seat, p.coins, p.wounds, p.hand)
                for p in self._game.players if not p.dead and p is not me]

    def living_public(self) -> list[tuple[int, str, str, int, int, Optional[str], list[int]]]:
        """Every living player, this seat too, in seat order: seat, name, character, coins,
        wounds, why out, power cards still in hand (all public, as in `players`), without
        building the table's view of each player."""
        return [(p.seat, p.name, p.character, p.coins, p.wounds, p.out, p.hand)
                for p in self._game.players if not p.dead]

    def remaining_hand(self, seat: int) -> list[int]:
        """Another player's power cards still in hand: public, since played ones lie face up."""
        return list(self._game.players[seat].hand)


def index_below(rng: random.Random, n: int) -> int:
    """A uniform index in range(n), n ≥ 1: the number `rng.randrange(n)` gives, drawn the way
    CPython draws it (k random bits until one is below n), without randrange's argument
    checks and calls: the random bot draws one per decision, the game's most frequent."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class Seat(Protocol):
    """Anything that can take a seat: a bot, a person at the terminal, a log being replayed."""

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        """The card to put down (`second`: after a second-card item was played)."""

    def use_peek(self, view: SeatView) -> bool:
        """Whether to play a peek item now (before the current room's cards)."""

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        """A choice a card offers (`may { … }`): yes or no."""


class RandomBot:
    """Uniform over legal plays; peeks now and then when rooms are hidden."""

    name = "random"
    # Its answers depend on nothing beyond the floor it is on (a paired game may replay them
    # there: tools/pairs.py); but it thinks too little for a replay to save anything.
    sees_past_floor = False
    cheap = True

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        # index_below(view.rng, len(legal)), written out: this is the game's commonest
        # decision, and a call costs more than the draw (tests/game/test_index_below.py)
        n = len(legal)
        rng = view.rng
        k = n.bit_length()
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return legal[r]

    def use_peek(self, view: SeatView) -> bool:
        return None in view.floor_rooms[view.room_index:] and view.rng.random() < 0.25

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        return view.rng.random() < 0.5


class GreedyBot:
    """A one-step look-ahead that knows no card: it tries each legal card against a few
    guesses of the others' cards (what they revealed, else a draw from what they have left),
    resolves a copy of the room with its compiled text, and keeps the card with the best
    average outcome for itself — coins up, wounds down, items kept, high cards saved — less
    what playing it costs the rest of its hand in the rooms later on this floor that it knows
    (face up, or looked at): its foresight (`later`), so it keeps a high card or an item for
    the boss it can see rather than spend it on a treasure."""

    name = "greedy"
    sees_past_floor = False  # its foresight ends with the floor (RandomBot)
    COIN, WOUND, ITEM, OUT, SAVE = 1.0, 1.6, 0.9, 60.0, 0.15
    GUESSES = 4
    SLACK = 0.5
    _look: Optional[_LookAhead] = None  # the decision being made
    # The look-ahead's copies of the table, kept from one decision to the next (a bot plays
    # one game): by the living players they copy (`_LookAhead.scratch`).
    _scratch: Optional[dict] = None

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        room = view.room
        if room is None or len(legal) == 1:
            return legal[0]
        if self._scratch is None:
            self._scratch = {}
        self._look = _LookAhead(view, self._scratch)
        try:
            return self._choose(view, room, legal)
        finally:
            self._look = None  # it holds the view, and through it the game

    def _choose(self, view: SeatView, room: CompiledRoom, legal: Sequence[Card]) -> Card:
        scored = self._scores(view, room, legal, self._guesses(view))
        if not scored:
            return legal[0]
        # Among cards about as good as the best, pick one at random: bots that all think
        # alike would otherwise all play the same card.
        top = max(score for score, _ in scored)
        near = [card for score, card in scored if score >= top - self.SLACK]
        return near[view.rng.randrange(len(near))]

    def _scores(self, view: SeatView, room: CompiledRoom, legal: Sequence[Card],
                guesses: list[tuple]) -> list[tuple[float, Card]]:
        """Each card worth weighing with its score (a second-card item only when a spare)."""
        scored: list[tuple[float, Card]] = []
        for card in legal:
            if isinstance(card, str) and is_second_card(room, card, view.abilities):
                # Spend a second-card item only when holding a spare one.
                if view.me.items.count(card) < 2:
                    continue
                others = [c for c in legal if c != card]
                score = max((self.evaluate(view, c, guesses) for c in others),
                            default=-1e9) - self.ITEM + 0.3
            else:
                score = self.evaluate(view, card, guesses)
            scored.append((score, card))
        return scored

    def use_peek(self, view: SeatView) -> bool:
        return view.floor_rooms[view.room_index:].count(None) >= 2

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        """An offer is taken: a card that asks usually offers something worth having
        (the greedy bot cannot look past the room it is in)."""
        return True

    def _guesses(self, view: SeatView) -> list[tuple]:
        """A few guesses of everyone else's card: revealed cards as they are; the rest the
        middle of what they hold, then random draws from it (the seat's own generator).
        A guess is (the next monster card, drawn the same way from those left, then each
        other living player's card in seat order)."""
        known = {pl.player.seat: pl.card for pl in view.revealed}
        # (the card revealed, or None and what the player has left to draw from)
        others = [(known[seat], None) if seat in known else (None, hand or [1])
                  for seat, _coins, _wounds, hand in view.others_public()]
        threats = view.threats_left or [4]
        rng = view.rng
        guesses = [(threats[len(threats) // 2],
                    *[seen if left is None else left[len(left) // 2] for seen, left in others])]
        for _ in range(self.GUESSES - 1):
            guess: list[Optional[Card]] = [threats[index_below(rng, len(threats))]]
            for seen, left in others:
                guess.append(seen if left is None else left[index_below(rng, len(left))])
            guesses.append(tuple(guess))
        return guesses

    def evaluate(self, view: SeatView, card: Card, guesses: list[tuple]) -> float:
        """The average outcome of playing `card`, resolving a copy of the room per guess."""
        look = self._look
        if look is None or look.view is not view:  # asked outside choose_card
            look = _LookAhead(view, {})
        outcome = look.outcome
        total = 0.0
        for guess in guesses:
            got = outcome(card, guess)
            if got is None:
                return -1e9
            coins, wounds, items, fell = got
            total += self.COIN * coins - self.WOUND * wounds + self.ITEM * items
            if fell:
                total -= self.OUT
        score = total / len(guesses)
        # Keep high cards for later rooms: spending one has a price; and the rooms later on
        # this floor that the seat knows are weighed with what the hand keeps.
        if card.__class__ is int:
            score -= self.SAVE * card
        return score + self.later(view, card)

    def later(self, view: SeatView, card: Card) -> float:
        """What spending `card` now costs in the rooms later on this floor that this seat
        knows (face up, or looked at): what the cards left can do there less what the whole
        hand could, each such room given one of them the best way, each room's outcome read
        from the plain table (`_Plain.later`) against the middle of what the others hold, as
        a playout seat guesses. 0 when no later room is known, or the card is not needed
        there; an item played keeps the hand whole. Worked out once a decision for every
        card of the hand."""
        look = self._look
        values = look.later if look is not None and look.view is view else None
        if values is None:
            rooms, r = view.floor_rooms, view.room_index
            known = tuple((i, rooms[i]) for i in range(r + 1, len(rooms))
                          if rooms[i] is not None)
            values = _Plain.of(view.rules).later(view, known, self._weights) if known else {}
            if look is not None and look.view is view:
                look.later = values
        return values.get(card, 0.0)

    @property
    def _weights(self) -> tuple[float, float, float, float]:
        return (self.COIN, self.WOUND, self.ITEM, self.OUT)


class _LookAhead:
    """One decision of a look-ahead bot: the room and the table as its seat sees them, and
    what each card did against each guess of the others' cards, resolved in a copy of the
    room once (a guess drawn twice, or a card weighed again behind a second-card item, is
    not resolved again)."""

    __slots__ = ("view", "room", "me", "living", "mine", "several", "taken", "supply", "held",
                 "outcomes", "table", "threat", "scratch", "seats", "plays", "later")

    def __init__(self, view: SeatView, scratch: dict):
        room = view.room
        if room is None:
            raise ValueError("a look-ahead is made in a room entered")
        self.view = view
        self.room = room
        self.me = me = view.me
        # every living player as the table sees them (seat, name, character, coins, wounds,
        # why out, power cards in hand), and where this seat is among them
        self.living = living = view.living_public()
        self.mine = next(i for i, p in enumerate(living) if p[0] == me.seat)
        self.several = room.cards_each > 1
        self.taken = tuple(view.taken)
        self.supply = view.supply
        self.held = view.held_rules
        # (card, guess) -> outcome, or None: unresolvable
        self.outcomes: dict[tuple, Optional[tuple[int, int, int, bool]]] = {}
        # The copy of the table every outcome is resolved on: the bot's, from `scratch`,
        # made once for these players and set back to a fresh table's state at the first
        # outcome of each decision; its players are set back to the table as this seat sees
        # it before each outcome (a copy of the table per decision, or of every player per
        # outcome, was the look-ahead's commonest cost).
        self.table: Optional[Table] = None
        self.scratch = scratch
        self.threat = [0]
        # per seat, in seat order: (its copy, its play, coins, wounds, why out, hand, items)
        self.seats: list[tuple] = []
        self.plays: list[Play] = []
        self.later: Optional[dict[Card, float]] = None  # GreedyBot.later, by card

    def _table(self) -> Table:
        """The copy of the table for this decision: the bot's, where the game stands (each
        outcome sets it back to a fresh table's state: `outcome`)."""
        key = (tuple(p[:3] for p in self.living), id(self.held))
        kept = self.scratch.get(key)
        if kept is None or kept[0].held is not self.held:
            clones = [Player(seat, name, character) for seat, name, character, *_ in
                      self.living]
            box = [0]
            # dice at their middle; every `may` answered yes, as GreedyBot.decide answers
            table = Table(clones, dict(self.supply), 20, None, self.held,
                          dice=lambda faces: (faces + 1) // 2,
                          ask=lambda p, question, card: True,
                          threat_source=lambda: box[0])
            self.scratch[key] = kept = (table, box, [Play(clone, None) for clone in clones])
        table, self.threat, plays = kept
        self.plays = plays
        # where the game stands, for `floor_number`, `room_number`, `rooms_played`
        view = self.view
        table.floor_index, table.rooms_done = view.floor_index, view.rooms_done
        table.room_number = view.room_index + 1
        # the others' items are secret: a copy holds only what it reveals
        mine, items = self.mine, tuple(self.me.items)
        self.seats = [(clone, pl, p[3], p[4], p[5], p[6], items if i == mine else ())
                      for i, (p, clone, pl) in enumerate(zip(self.living, table.players, plays,
                                                             strict=True))]
        self.table = table
        return table

    def outcome(self, card: Card, guess: tuple) -> Optional[tuple[int, int, int, bool]]:
        """This seat's coins, wounds and items gained, and whether it fell out, when it plays
        `card` and the others what `guess` says (the next monster card, then their cards in
        seat order); None when the room cannot be resolved so."""
        key = (card, guess)
        outcomes = self.outcomes
        got: Any = outcomes.get(key, outcomes)  # itself: not there (a sentinel, no call)
        if got is not outcomes:
            return got
        table = self.table or self._table()
        # The copy set back to the table as this seat sees it (tokens, hands, this seat's
        # items, the supply), each seat with its card, and no statuses on the players, their
        # cards, the rooms or the dungeon: an outcome never sees what resolving another left
        # (a buckler's wear counted over a decision's guesses broke it at the third).
        supply = table.supply
        supply.clear()
        supply.update(self.supply)
        table.clear_places()
        self.threat[0] = guess[0]
        mine, several = self.mine, self.several
        g = 1
        for i, (clone, pl, coins, wounds, out, hand, items) in enumerate(self.seats):
            clone.coins, clone.wounds, clone.out, clone.dead = coins, wounds, out, False
            clone.hand[:] = hand
            if items or clone.items:
                clone.items[:] = items
            if clone.marks:
                clone.marks.clear()
            clone.card_marks = None
            if i == mine:
                c = card
            else:
                c = guess[g]
                g += 1
            if several:
                counted = (*self.taken, c) if i == mine else (c,)
                for x in counted:
                    _hold(clone, x)
                pl.card, pl.cards, pl.card_values = counted[0], counted, ()
            else:
                if c not in clone.hand:  # nearly always there: a card from the hand
                    _hold(clone, c)
                pl.card, pl.cards = c, None
            if pl.escaped:  # as a new Play: what resolve_round sets is set back
                pl.escaped = False
        result: Optional[tuple[int, int, int, bool]] = None
        try:
            ctx = resolve_round(table, self.room, self.plays, participants=table.players)
            if "room" in ctx.reacts:
                ctx.phase("room", list(ctx.participants))
        except (RulesError, KeyError, ValueError):
            pass
        else:
            me, after = self.me, table.players[mine]
            result = (after.coins - me.coins, after.wounds - me.wounds,
                      len(after.items) - len(me.items), bool(after.out and not me.out))
        outcomes[key] = result
        return result


def _order(card: Card) -> tuple:
    """Sort key of a plain table's other seats: power cards and item cards apart."""
    return (card.__class__ is str, str(card))


class _Plain:
    """Rooms resolved in a plain state, for every game of a process that plays these rules
    (a search's playout seats weigh their cards with it, search_bot._Forced). The key is
    (room id, next monster card, the card played, this seat's character, its cards already
    down in the room, its items, the others' cards sorted by `_order`, and where its coins
    and its wounds stand among the others' (`place`)); the state is made from the key alone,
    so a value never depends on which game asked first nor on how games are split among
    processes: this seat first with its character and items, the others without character
    nor items, coins and wounds that stand as the key says (`_tokens`), full hands, no coin
    cap nor death, the ruleset's supply, the first room of the first floor, dice at their
    middle, every `may` answered yes. What the key leaves out (the tokens themselves, seats,
    the others' characters and items) is what lets rooms recur across decisions, playouts
    and games: resolving the room per card and guess in a copy of the true table was nearly
    all of a playout's cost. A room some rule of which reads where the game is (the floor,
    the room's number, the rooms played) has them in its key's first field (`where`)."""

    LIMIT = 250_000  # entries kept (under 100 MB); past it the table starts again (values stay)
    RULESETS = 2  # tables kept: the newest rules'
    _by_rules: dict[int, "_Plain"] = {}

    def __init__(self, rules):
        self.rules = rules  # kept alive, so its id is not reused while the table is
        self.held = rules.held_rules
        # an outcome (None: unresolvable), or _PLACED: one that depends on where tokens stand
        self.outcomes: dict[tuple, Any] = {}
        self._seconds: dict[tuple[str, str], bool] = {}  # (room, item) -> is_second_card
        self._rows: dict[tuple, dict] = {}  # `row`
        self._item_plays: dict[str, dict[str, bool]] = {}  # per room: legality.item_plays
        # The plain tables outcomes are resolved on, one per number of seats, each set back
        # to the state its key makes before each resolution (`_state`): building a Table per
        # outcome was most of a search's cost while the outcomes are still being filled in.
        self._tables: dict[int, tuple[Table, list[int], list[Play]]] = {}
        # Per room id: whether no rule that can run in it reads a player's coins, their
        # wounds, their cards (`_blind`); then a decision's key leaves out the coins' place,
        # the wounds' place, the seat's character and items (`head`).
        self._blind_rooms: dict[str, _Blind] = {}
        # what the held cards with rules may read (their rules run in every room)
        self._held_reads = functools.reduce(
            operator.or_, (card.reads for group in (rules.characters, rules.items, rules.statuses)
                           for card in group.values() if not card.rules.empty), NOTHING)
        # Per room id: which of the floor index, the room's number and the rooms played some
        # rule that can run in it reads (`where`); () for none, nearly every room.
        self._progress: dict[str, tuple[bool, ...]] = {}

    def row(self, head: tuple) -> dict:
        """The outcomes already read under a decision's reduced key (`head`), by card: a
        decision reads each of its cards there without making and hashing a whole key per
        card (kept as long as the outcomes; a value may be _PLACED: `shared`)."""
        rows = self._rows
        got = rows.get(head)
        if got is None:
            if len(rows) >= self.LIMIT:
                rows.clear()
            got = rows[head] = {}
        return got

    def where(self, room: CompiledRoom, view: SeatView, ahead: int = 0) -> Hashable:
        """A key's first field: the room's id; for a room where some rule (the room's or a
        held card's) reads where the game is, the id with the floor index, the room's number
        on its floor and the rooms played, each as the view has it where a rule reads it and
        as the plain state has it (0, 1, 0) where none does: so such a room is resolved at
        the true floor, and every other keeps recurring across floors. `ahead`: the room is
        that many rooms after the view's on the same floor (a foresight's, `later`)."""
        read = self._progress.get(room.id)
        if read is None:
            reads = room.reads | self._held_reads
            read = self._progress[room.id] = (reads.floor_number, reads.room_number,
                                              reads.rooms_played) if reads.progress else ()
        if not read:
            return room.id
        floor, number, played = read
        return (room.id, view.floor_index if floor else 0,
                view.room_index + 1 + ahead if number else 1,
                view.rooms_done + ahead if played else 0)

    def later(self, view: SeatView, known: tuple,
              weights: tuple[float, float, float, float]) -> dict[Card, float]:
        """For each card of the seat's hand (power cards, and items put down as a room's
        card), what spending it now costs in the rooms `known` ((index, room id), later on
        this floor): the best value of the other cards there less that of the whole hand (0
        or less; absent: nothing). Each room is given a
        different card, each (room, card) valued by its plain outcome for this seat (the
        others playing the middle of what they hold, the next monster card the middle of
        those left), every assignment tried (a floor has five rooms). Worked out afresh:
        a decision's hand and table seldom recur, each room's outcomes are kept (`row`)."""
        me = view.me
        abilities = view.abilities
        power = tuple(c for c in me.hand if c.__class__ is int)
        # the items that are put down as a room's card (a second-card item goes with one)
        hand: tuple[Card, ...] = power + tuple(
            i for i in me.items if abilities.get(i) != SECOND_CARD)
        pub = view.others_public()
        others = [held[len(held) // 2] if held else 1 for _seat, _c, _w, held in pub]
        others.sort(key=_order)
        threats = view.threats_left
        threat = threats[len(threats) // 2] if threats else 4
        coin_place = place(me.coins, [c for _seat, c, _w, _held in pub])
        wound_place = place(me.wounds, [w for _seat, _c, w, _held in pub])
        character, items = me.character, tuple(me.items)
        # each known room one card resolves, with its key's first field (`where`: the floor and
        # the room's number in it too, for a room that reads them)
        rooms = self.rules.rooms
        ahead = [(rooms[room_id], self.where(rooms[room_id], view, index - view.room_index))
                 for index, room_id in known if room_id in rooms
                 and rooms[room_id].cards_each == 1 and rooms[room_id].rounds == 1]
        coin, wound, item, out = weights
        floor = -me.coins
        values: list[list[float]] = []  # per known room that one card resolves, per card
        for room, where in ahead:
            head = self.head(room, where, threat, character, (), items,
                             tuple(others), coin_place, wound_place)
            row = self.row(head)
            plays = self._item_plays.get(room.id)
            if plays is None:
                plays = self._item_plays[room.id] = item_plays(room, abilities)
            worth = []
            for c in hand:
                if c.__class__ is str and c not in plays:
                    worth.append(_NOT_HERE)  # an item this room does not take
                    continue
                got: Any = row.get(c, _UNKNOWN)
                if got is _UNKNOWN:
                    got = row[c] = self.shared(room, head, c)
                if got is _PLACED:
                    got = self.placed(room, head, c, coin_place, wound_place)
                if got is None:
                    worth.append(-1e9)
                else:
                    coins, wounds, gained, fell = got
                    worth.append(coin * (coins if coins >= floor else floor) - wound * wounds
                                 + item * gained - (out if fell else 0.0))
            values.append(worth)
        # A room every card it takes does the same in adds the same whichever card it gets
        # (there are power cards to spare: a card a room, this one played now): only the
        # others are tried.
        if len(values) < len(power):
            values = [worth for worth in values
                      if len({w for w in worth if w is not _NOT_HERE}) > 1]
        found: dict[Card, float] = {}
        if values:
            whole, used = _assigned(values, range(len(hand)))
            # a card the best assignment of the whole hand leaves out costs nothing to spend
            for spent in used:
                if hand[spent] not in found:
                    found[hand[spent]] = _assigned(
                        values, [c for c in range(len(hand)) if c != spent])[0] - whole
        return found

    def is_second(self, room: CompiledRoom, item: str, abilities) -> bool:
        """`is_second_card` for these rules (the abilities are the rules' own), kept."""
        key = (room.id, item)
        got = self._seconds.get(key)
        if got is None:
            got = self._seconds[key] = is_second_card(room, item, abilities)
        return got

    @classmethod
    def of(cls, rules) -> "_Plain":
        by_rules = cls._by_rules
        plain = by_rules.get(id(rules))
        if plain is None or plain.rules is not rules:
            if len(by_rules) >= cls.RULESETS:  # a sweep loads rules per point: keep a few
                del by_rules[next(iter(by_rules))]
            plain = by_rules[id(rules)] = cls(rules)
        return plain

    def head(self, room: CompiledRoom, where: Hashable, threat: int, character: str,
             taken: tuple, items: tuple, others: tuple, coin_place: tuple,
             wound_place: tuple) -> tuple:
        """A decision's key but its card, reduced as far as the room allows: without the
        seat's character and items where nothing reads them (the same outcome for every
        holding), and without the coins' place where nothing reads a player's coins, the
        wounds' place where nothing reads their wounds (None in its stead: `shared` tells
        whether the even place's outcome holds for every place). A row of outcomes by card
        (`row`) is kept under it, so decisions that differ only in what the room cannot
        see share their rows."""
        blind = self._blind(room)
        if blind.holdings:
            character, items = "", ()
        return (where, threat, character, taken, items, others,
                None if blind.coins else coin_place, None if blind.wounds else wound_place)

    def shared(self, room: CompiledRoom, head: tuple, card: Any) -> Any:
        """The outcome of `card` under a reduced key (`head`), or _PLACED: the room never reads
        the coins (or the wounds), but an effect on the way could have stopped at nothing at
        some place, so the outcome depends on where they stand (then `placed`)."""
        key = (head[0], head[1], card, *head[2:])
        outcomes = self.outcomes
        got = outcomes.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            if len(outcomes) >= self.LIMIT:
                outcomes.clear()
            coin_place, wound_place = key[7], key[8]
            if coin_place is None or wound_place is None:
                # Blind to the coins (or the wounds): where they stand changes the outcome
                # only where an effect stops at nothing (coins lost or taken, wounds healed);
                # one resolution at the even place tells whether one could have, and if not
                # its outcome is every place's (the same value each place's own state gives).
                got, bounded = self._resolve(
                    room, (*key[:7], coin_place or _EVEN, wound_place or _EVEN),
                    watch=(coin_place is None, wound_place is None))
                if not bounded:
                    got = _PLACED
            else:
                got = self._resolve(room, key)[0]
            outcomes[key] = got
        return got

    def placed(self, room: CompiledRoom, head: tuple, card: Any, coin_place: tuple,
               wound_place: tuple) -> Optional[tuple[int, int, int, bool]]:
        """The outcome of `card` at these places, for a head whose shared outcome is
        _PLACED."""
        key = (head[0], head[1], card, *head[2:6], coin_place, wound_place)
        outcomes = self.outcomes
        got = outcomes.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            if len(outcomes) >= self.LIMIT:
                outcomes.clear()
            got = outcomes[key] = self._resolve(room, key)[0]
        return got

    def outcome(self, room: CompiledRoom, key: tuple) -> Optional[tuple[int, int, int, bool]]:
        """The outcome for a whole key (`where`, next monster card, card, character, cards
        already down, items, the others' cards, coin place, wound place)."""
        where, threat, card, character, taken, items, others, coin_place, wound_place = key
        head = self.head(room, where, threat, character, taken, items, others, coin_place,
                         wound_place)
        got = self.shared(room, head, card)
        if got is _PLACED:
            got = self.placed(room, head, card, coin_place, wound_place)
        return got

    def _blind(self, room: CompiledRoom) -> "_Blind":
        """Whether no rule that can run in this room reads a player's coins; their wounds
        (the room's, and any held card's); and whether none reads what a player holds or
        which character they are, nor takes coins or a card from them (the room's, and no
        held card with rules at all): kept per room. What a card's rules read is what the
        compiler found in its tree (`CompiledRoom.reads`, runtime/reads.py)."""
        blind = self._blind_rooms.get(room.id)
        if blind is None:
            reads, held = room.reads, self._held_reads
            blind = self._blind_rooms[room.id] = _Blind(
                not (held.coins or reads.coins), not (held.wounds or reads.wounds),
                not (self.held or reads.holdings or reads.takes))
        return blind

    def _resolve(self, room: CompiledRoom, key: tuple, watch: tuple[bool, bool] = (False, False)
                 ) -> tuple[Optional[tuple[int, int, int, bool]], bool]:
        """The outcome for this seat in the state `key` makes; and, when `watch` (the coins,
        the wounds), whether no effect on the way could have stopped at nothing at any place
        of those watched (`_bounded`)."""
        table, plays = self._state(key, room.cards_each > 1)
        me = table.players[0]
        coins, wounds, held = me.coins, me.wounds, len(me.items)
        got: Optional[tuple[int, int, int, bool]] = None
        trace: Optional[list] = [] if watch[0] or watch[1] else None
        table.trace = trace
        try:
            ctx = resolve_round(table, room, plays)
            if "room" in ctx.reacts:
                ctx.phase("room", list(ctx.participants))
        except (RulesError, KeyError, ValueError):
            pass
        else:
            got = (me.coins - coins, me.wounds - wounds, len(me.items) - held, bool(me.out))
        finally:
            table.trace = None
        return got, trace is not None and _bounded(trace, me.name, len(plays) - 1, *watch)

    def _state(self, key: tuple, several: bool) -> tuple[Table, list[Play]]:
        """The plain table for `key`, set to the state the key makes (the class docstring),
        as a new Table would be: nothing of an earlier outcome is left on it."""
        where, threat, card, character, taken, items, others, coin_place, wound_place = key
        seats = [card, *others]
        n = len(seats)
        prepared = self._tables.get(n)
        if prepared is None:
            clones = [Player(i, f"P{i + 1}") for i in range(n)]
            box = [0]
            table = Table(clones, {}, None, None, self.held,
                          dice=lambda faces: (faces + 1) // 2,
                          ask=lambda p, question, card: True,
                          threat_source=lambda: box[0])
            prepared = self._tables[n] = (table, box, [Play(clone, None) for clone in clones])
        table, box, plays = prepared
        box[0] = threat
        table.clear_places()
        if where.__class__ is tuple:  # a room that reads where the game is (`where`)
            _room, table.floor_index, table.room_number, table.rooms_done = where
        else:
            table.floor_index, table.rooms_done, table.room_number = 0, 0, 1
        table.supply.clear()
        table.supply.update(self.rules.supply)
        all_coins = _tokens(coin_place, n - 1, 20)
        all_wounds = _tokens(wound_place, n - 1, 4)
        for i, (clone, pl) in enumerate(zip(table.players, plays, strict=True)):
            clone.character = character if i == 0 else ""
            clone.coins, clone.wounds, clone.out, clone.dead = all_coins[i], all_wounds[i], None, \
                False
            clone.hand[:] = POWER_CARDS
            clone.items[:] = items if i == 0 else ()
            if clone.marks:
                clone.marks.clear()
            clone.card_marks = None
            counted = (*taken, seats[i]) if i == 0 else (seats[i],)
            for c in counted:
                _hold(clone, c)
            pl.card, pl.cards, pl.chain, pl.value, pl.escaped, pl.sequence, pl.card_values = \
                counted[0], counted if several else None, (), None, False, None, ()
        return table, plays


def _assigned(values: list[list[float]], cards: Sequence[int]) -> tuple[float, tuple[int, ...]]:
    """The best total of `values` (per room, per card) giving each room a different one of
    `cards` (every room one when there are enough, else every card one room), and the cards
    that assignment gives."""
    if not values or not cards:
        return 0.0, ()
    best, used = -math.inf, ()  # type: tuple[float, tuple[int, ...]]
    if len(values) <= len(cards):
        for pick in itertools.permutations(cards, len(values)):
            total = sum(worth[c] for worth, c in zip(values, pick, strict=False))
            if total > best:
                best, used = total, pick
        return best, used
    for rooms in itertools.permutations(range(len(values)), len(cards)):
        total = sum(values[room][c] for room, c in zip(rooms, cards, strict=False))
        if total > best:
            best, used = total, tuple(cards)
    return best, used


def place(mine: int, theirs: Sequence[int]) -> tuple[bool, int]:
    """Where a seat's coins (or wounds) stand among the others': whether the others differ,
    and below the fewest, equal to them, between, equal to the most, above (0-4; the others
    all alike: below, equal, above as 0, 1, 4). What a `richest` or `least_wounded` of the
    seat's own outcome reads, and no more (a plain table's key)."""
    if not theirs:
        return (False, 1)
    lo, hi = min(theirs), max(theirs)
    if mine < lo:
        return (lo < hi, 0)
    if mine == lo:
        return (lo < hi, 1)
    if mine < hi:
        return (True, 2)
    return (lo < hi, 3 if mine == hi else 4)


@functools.cache
def _tokens(at: tuple[bool, int], others: int, base: int) -> tuple[int, ...]:
    """A plain state's coins (or wounds) for `place`'s answer: this seat first, then the
    others, the first of them at `base`, the rest at twice that when they differ (kept:
    a plain table asks at each outcome it resolves)."""
    spread, where = at
    high = 2 * base if spread else base
    theirs = [base] + [high] * (others - 1) if others else []
    mine = (base // 2, base, (base + high) // 2, high, high + base // 2)[where]
    return (mine, *theirs)


@functools.cache
def _fewest(others: int, base: int) -> int:
    """The fewest coins (or wounds) this seat has at any place (`_tokens`)."""
    return min(_tokens((spread, where), others, base)[0] for spread in (False, True)
               for where in range(5))


_EVEN = (False, 1)  # a place: the others alike, this seat equal to them (`place`)
_UNKNOWN = object()  # not in a plain table yet
_NOT_HERE = -1e9  # a foresight's value of an item a room does not take (`_Plain.later`)
_PLACED = object()  # a plain table's entry: this outcome depends on where the tokens stand


class _Blind(NamedTuple):
    """What no rule that can run in a room reads (`_Plain._blind`)."""

    coins: bool  # a player's coins
    wounds: bool  # a player's wounds
    holdings: bool  # what a player holds or who they are, nor takes from them


def _bounded(trace: list, me: str, others: int, coins_watched: bool = True,
             wounds_watched: bool = True) -> bool:
    """Whether a plain resolution (its trace) did nothing that stops at zero and so would
    come out otherwise at another place of the coins (when watched: coins lost beyond the
    fewest this seat has at any place, `_tokens`, or any coins or items taken or passed) or
    of the wounds (when watched: healed wounds beyond the fewest)."""
    coins = _fewest(others, 20) if coins_watched else math.inf
    wounds = _fewest(others, 4) if wounds_watched else math.inf
    lost = healed = 0
    for event, who, amount in trace:
        if coins_watched and (event == "steal" or event == "pass"):
            return False
        if who == me:
            if event == "lose":
                lost += amount
            elif event == "heal":
                healed += amount
    return lost <= coins and healed <= wounds

def _hold(clone: Player, card: Optional[Card]) -> None:
    """A look-ahead's copy of a player holds the card it plays (a guess may be a card the
    seat cannot see the player hold)."""
    if card.__class__ is str:
        if card not in clone.items:
            clone.items.append(card)
    elif card.__class__ is int and card not in clone.hand:
        clone.hand.append(card)


BOTS: dict[str, Callable[..., Seat]] = {"random": RandomBot, "greedy": GreedyBot}
