"""A search bot: determinized Monte Carlo search over what its seat cannot see.

Budget: `--bots search:N` spends about N playouts on each decision that has two or more legal
cards (default 30). The candidates are raced by successive halving: every round plays each
candidate still in on the same fresh sampled worlds and playout seeds (common random numbers),
then the better half goes on; the budget is shared evenly among the rounds (about log2 of the
candidates; one even round when N is smaller than a few per candidate, and never fewer than
one playout per candidate and round). The best mean score is played.

Each playout first *determinizes* the hidden parts from what the seat could know: the others'
item cards (how many each holds is public; which ones is drawn from the copies not in the
supply nor in this seat's hand), the face-down rooms of this floor and every room of the floors
to come (drawn from the deck less the rooms this seat has seen), the boss (drawn from the
bosses), the monster deck's order (its remaining cards are public). Then it plays on with the
engine and the compiled cards themselves (so it understands any mod): this seat's candidate
(after the cards it already put down in this room), the others' revealed cards, then every
seat, this one too, as a cheap greedy bot: one guess of the others' cards instead of four, and
each card's outcome read from a table of rooms resolved in a plain state (players.py's
`_Plain`: the tokens, but where this seat's stand, the seats, the others' characters and
items left out), kept for every game of the process, instead of resolving the room in a copy
of the table. Searching against a model of sensible play is what makes it strong: random
playouts were a poor model of the opponents.

The horizon: a playout plays to the end of the current floor, not of the game, and scores the
state there as the game's end would: a win (shared wins split) were the game to end now (the
end scoring: the most wounded fall, the most coins win), plus a little for coins, less a little
for wounds. Solo, the same horizon scores being alive, the wounds (heavily) and the coins. A
playout of the rest of the game cost about 3.5 times as much and was no stronger (4-player
deluxe, one search:30 seat against three greedy, seeds 0-299: 75.8% whole game, 77.0% this
floor): the far floors' rooms are sampled blind and greedy-played, so they mostly added noise.

Cost (this machine, one core): search:30 is about 0.25 s per 4-player deluxe game for the
search seat (greedy seats cost milliseconds; `python benchmarks/bots.py`), about 0.06 s per
classic solo game; the cost grows linearly with N.

It reads only what SeatView shows plus the rules (the public card texts) and the first player
(the scroll lies on the table). Its choices come from the seat's own generator, so a game is
deterministic for a seed, whatever the number of processes. Torches, yes/no choices and the
later rounds of a room fought in rounds are left to the greedy bot's look-ahead.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Optional, Sequence

from raiders.interpreter.runtime.state import Card, Floor, Mark, RoomSlot

from .players import _PLACED, _UNKNOWN, GreedyBot, SeatView, _order, _Plain, index_below, place

# A win is rare in some playouts (solo: survival), so the end state shapes the score a little:
# coins up, wounds down (most wounds fall unconscious, ten wounds kill).
COIN_WEIGHT = 0.01
WOUND_WEIGHT = 0.015
SOLO_WOUND_WEIGHT = 0.1


class _Forced(GreedyBot):
    """A playout seat: the cards given first (the candidate, a revealed card), then a cheap
    greedy: one guess of the others' cards (what they revealed, else the middle of what
    they hold) instead of four, each card's outcome read from the rooms resolved in a plain
    state (players.py's `_Plain`, kept for every game of the process).

    Playouts meet the same rooms with the same cards again and again: a card weighed again
    costs a key and a look-up, no look-ahead and no view of the table. The score of a card
    is GreedyBot's (coins, wounds, items, falling out, the price of spending a high card),
    a second-card item's too (spent only as a spare, worth the best card after it less the
    item). It plays one room at a time, without the greedy bot's foresight of the rooms ahead
    (`GreedyBot.later`): with it the search was weaker against greedy seats without it and
    hardly stronger against those with it (docs/simulate.md, "Strength")."""

    GUESSES = 1
    PLAIN = True

    def __init__(self, first: Sequence[Card] = (), plain: Optional[_Plain] = None):
        self.first = list(first)
        self.plain = plain  # the rules' plain table (`_Plain.of`), when the caller has it

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        first = self.first
        while first:
            card = first.pop(0)
            if card in legal:
                return card
        if len(legal) == 1:
            return legal[0]
        room = view.room
        if room is None:
            return legal[0]
        me = view.me
        revealed = view.revealed
        known = {pl.player.seat: pl.card for pl in revealed} if revealed else None
        others: list[Card] = []
        all_coins, all_wounds = [], []
        plain_order = True  # power cards 1-9 only: `_order` sorts them as numbers do
        for seat, their_coins, their_wounds, hand in view.others_public():
            seen = known.get(seat) if known else None
            card = seen if seen is not None else hand[len(hand) // 2] if hand else 1
            if card.__class__ is not int or not 0 <= card <= 9:
                plain_order = False
            others.append(card)
            all_coins.append(their_coins)
            all_wounds.append(their_wounds)
        if plain_order:
            others.sort()
        else:
            others.sort(key=_order)
        threats = view.threats_left
        # as _LookAhead.estimate keys the plain table
        threat = threats[len(threats) // 2] if threats else 4
        coin_place, wound_place = place(me.coins, all_coins), place(me.wounds, all_wounds)
        plain = self.plain or _Plain.of(view.rules)
        # this decision's outcomes by card, under its key reduced as far as the room allows
        # (`_Plain.head`): decisions the room cannot tell apart share a row. Its first field
        # is the room's id (and the floor, where a rule reads it: `_Plain.where`).
        head = plain.head(room, plain.where(room, view), threat, me.character,
                          tuple(view.taken), tuple(me.items), tuple(others), coin_place,
                          wound_place)
        row = plain.row(head)
        floor = -me.coins
        scores: dict[Card, float] = {}
        seconds = []
        for card in legal:
            if card.__class__ is str and plain.is_second(room, card, view.abilities):
                seconds.append(card)
                continue
            got = row.get(card, _UNKNOWN)
            if got is _UNKNOWN:
                got = row[card] = plain.shared(room, head, card)
            if got is _PLACED:  # this room's outcome here depends on where the tokens stand
                got = plain.placed(room, head, card, coin_place, wound_place)
            if got is None:
                score = -1e9
            else:
                coins, wounds, gained, fell = got
                score = (self.COIN * (coins if coins >= floor else floor) - self.WOUND * wounds
                         + self.ITEM * gained - (self.OUT if fell else 0.0)) \
                    - (self.SAVE * card if card.__class__ is int else 0.0)
            scores[card] = score
        # GreedyBot._scores: a second-card item only when holding a spare one, worth the
        # best card after it less the item
        if seconds:
            best = max(scores.values(), default=-1e9)
            for card in seconds:
                if me.items.count(card) >= 2:
                    scores[card] = best - self.ITEM + 0.3
        if not scores:
            return legal[0]
        bar = max(scores.values()) - self.SLACK
        near = [card for card, score in scores.items() if score >= bar]
        return near[index_below(view.rng, len(near))]


class SearchBot(GreedyBot):
    """Determinized Monte Carlo search; see the module's docstring for the budget."""

    name = "search"
    sees_past_floor = True  # its playouts sample the rooms nobody has seen, from the rules
    takes_budget = True
    FLOORS = 1  # floors a playout plays: this one (its horizon; see the module's docstring)

    def __init__(self, budget: int = 30):
        self.budget = budget
        self.seen: dict[tuple[int, int], str] = {}  # (floor, room) -> card, as this seat saw it

    # ---- what this seat knows
    def _remember(self, view: SeatView) -> None:
        for i, card in enumerate(view.floor_rooms):
            if card is not None:
                self.seen[(view.floor_index, i)] = card

    @staticmethod
    def _rules(view: SeatView):
        return view.rules

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        self._remember(view)
        room = view.room
        if room is None or len(legal) == 1:
            return legal[0]
        if room.rounds != 1:  # a later round cannot be replayed from the view: greedy
            return super().choose_card(view, legal, second)
        return self._search(view, list(legal))

    def _search(self, view: SeatView, legal: list[Card]) -> Card:
        """Successive halving over the candidates: every round plays each one still in on
        the same fresh worlds (common random numbers), then keeps the better half; the
        budget is shared evenly among the rounds."""
        # Halving needs a few playouts per candidate; a small budget is one even round.
        rounds = max(1, min((len(legal) - 1).bit_length(), self.budget // len(legal)))
        left = list(legal)
        totals: dict[Card, float] = defaultdict(float)
        counts: dict[Card, int] = defaultdict(int)
        for k in range(rounds):
            per = max(1, self.budget // (rounds * len(left)))
            for _ in range(per):
                world = self._determinize(view)
                seed = view.rng.getrandbits(64)
                for card in left:
                    totals[card] += self._playout(view, world, card, seed)
                    counts[card] += 1
            if k < rounds - 1:
                ranked = sorted(left, key=lambda c: -totals[c] / counts[c])
                left = ranked[:max(2, (len(left) + 1) // 2)] if len(left) > 2 else ranked
        best = max(totals[c] / counts[c] for c in left)
        return next(c for c in left if totals[c] / counts[c] == best)

    # ---- one sampled world
    def _determinize(self, view: SeatView) -> dict:
        rules = self._rules(view)
        rng = view.rng
        rs = rules.ruleset
        per_floor = rs.rooms_per_floor
        f0 = view.floor_index
        # Rooms not yet seen come from the deck less every room this seat has seen.
        pool = Counter(rules.deck)
        for card in self.seen.values():
            if pool[card] > 0:
                pool[card] -= 1
        unseen = [c for c, n in sorted(pool.items()) for _ in range(n)]
        rng.shuffle(unseen)
        boss = rng.choice(rules.bosses) if rules.bosses else None
        boss_known = next((c for (f, i), c in self.seen.items()
                           if c in rules.bosses and f == rs.floors_used - 1
                           and i == per_floor - 1), None)
        floors = []
        for f in range(f0, min(rs.floors_used, f0 + self.FLOORS)):  # the horizon's floors
            rooms = []
            for i in range(per_floor):
                last = f == rs.floors_used - 1 and i == per_floor - 1
                known = self.seen.get((f, i)) if f == f0 else None
                if known is None and last and boss is not None:
                    known = boss_known or boss
                if known is None:
                    known = unseen.pop() if unseen else rng.choice(list(rules.deck))
                rooms.append(RoomSlot(known, True))
            floors.append(Floor(rooms, None))
        # Others' item cards: how many is public; which, drawn from the copies out of the
        # supply and out of this seat's hand.
        out_there = Counter(getattr(rules, "supply", None) or rs.items)
        out_there.subtract(view.supply)
        out_there.subtract(view.me.items)
        bag = [i for i, n in sorted(out_there.items()) for _ in range(max(n, 0))]
        rng.shuffle(bag)
        items = {}
        for p in view.players:
            if p is view.me:
                continue
            items[p.seat] = sorted(bag.pop() for _ in range(min(p.item_count, len(bag))))
        threats = list(view.threats_left)
        rng.shuffle(threats)
        return {"floors": floors, "items": items, "threats": threats}

    def _playout(self, view: SeatView, world: dict, card: Card, seed: int) -> float:
        """The rest of this floor in one sampled world, `card` played now; this seat's score
        at its end (the module's docstring)."""
        from raiders.interpreter.runtime.room import RulesError

        from .engine import Deal, Game

        rules = self._rules(view)
        f0, r0 = view.floor_index, view.room_index
        # Floors before this one are over: empty stand-ins keep the indexes.
        floors = [Floor([], None) for _ in range(f0)] + [
            Floor(list(fl.rooms), None) for fl in world["floors"]]
        revealed = {pl.player.seat: pl.played for pl in view.revealed}
        plain = _Plain.of(rules)
        seats = [_Forced([*view.taken, card] if p.seat == view.me.seat else
                         list(revealed.get(p.seat, ())), plain)
                 for p in view.players]
        names = [p.name for p in view.players]
        chars = [p.character for p in view.players]
        deal = Deal(floors, chars, view.first, list(world["threats"]))
        try:
            game = Game(rules, names, seats, seed=seed, deal=deal,
                        difficulty=1 if rules.variant.scoring == "solo" else None)
        except (RulesError, ValueError):
            return 0.0
        game.supply.clear()
        game.supply.update(view.supply)
        for p, src in zip(game.players, view.players, strict=True):
            p.coins, p.wounds, p.out, p.dead = src.coins, src.wounds, src.out, src.dead
            p.hand = list(src.hand)
            p.items = sorted(src.items) if src is view.me else list(world["items"][p.seat])
            p.marks = ({n: Mark(m.count, m.until_room, m.until_floor)
                        for n, m in src.marks.items()} if src is view.me
                       else {n: Mark(c) for n, c in src.marks})  # others: counts are public
        game.table.rooms_done = view.rooms_done
        me = game.players[view.me.seat]
        solo = rules.variant.scoring == "solo"
        last = min(len(floors), f0 + self.FLOORS)
        try:
            for f in range(f0, last):
                floor = floors[f]
                if f == f0:
                    game.floor_index = f
                else:
                    game.start_floor(f, floor)
                for r in range(r0 if f == f0 else 0, len(floor.rooms)):
                    game._room_index = r
                    game.play_room(f, r, floor, floor.rooms[r])
                    if game.game_over():
                        break
                if game.game_over():
                    break
                game.end_floor()
            if solo:  # alive (a win if this was the last floor), few wounds, some coins
                return (0.0 if me.dead or me.out else 1.0) + COIN_WEIGHT * me.coins \
                    - SOLO_WOUND_WEIGHT * me.wounds
            result = game.finish()  # who would win, were the game to end here
        except (RulesError, KeyError, ValueError, IndexError):
            return 0.0
        won = (1.0 / len(result.winners)) if me.name in result.winners else 0.0
        return won + COIN_WEIGHT * me.coins - WOUND_WEIGHT * me.wounds

