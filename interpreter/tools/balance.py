"""`raiders balance MOD`: is the mod's card fair? Each of the mod's dealt room cards beside its
peers (the printed cards of its kind), with intervals and a verdict
(docs/simulate.md#balance-is-my-card-fair).

The design: **slot pairing** with common random numbers per slot. For every seed the base game
(without the mod) is dealt as usual; then, for each of the mod's cards, the same deal is played
again with that card in one slot (a boss in the boss slot, any other room in a slot drawn from
the seed), every other room, the characters, the first player and the seats' generators left
as they were. In these games every die comes from a stream of its own slot (the seed and the
room's place), so a room rolls the same dice whatever the rooms before it rolled. So the rooms
before the slot play exactly as in the base game (unrelated figures do not move), the slot
holds the mod's card in every game instead of one game in ten, and its effect is measured
against the card it replaced on the same table, the noise both share cancelled.

Those floors are not thought through twice: a paired game replays the base game's answers
there and its bots take over as the slot's floor starts (tools/pairs.py), with
the same figures as the pair played afresh.

Ordinary games (`play`, `simulate`, `replay`) do not pay for this: the per-slot streams live in
`SlotGame` here, and only balance plays it.
"""
from __future__ import annotations

import functools
import math
import random
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

import attrs

from raiders.interpreter.game.engine import Deal, GameResult
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Floor, RoomSlot

from . import pairs
from . import simulate as sim
from .pairs import Tape, TapedGame
from .stats import Difference, Figure, Known, Sums, difference, known

# Why greedy is the default for every command that plays bots (cli/common.DEFAULT_BOTS).
BOTS_WHY = ("greedy bots: each seat plays the card that serves it best in the room, keeping "
            "the cards the rooms it can see ahead on its floor need, as a careful player "
            "would. Random bots play cards no player would, so a room's figures say more "
            "about careless play than about the card; search bots play better still but cost "
            "about 12 times more a game for each search seat (check a close verdict with "
            "--bots search:30,greedy,greedy,greedy).")


@attrs.frozen
class Entry:
    """One of the mod's cards: where it goes, and the printed cards it is measured against."""

    card: str
    kind: str  # the card's own kind
    boss: bool  # takes the boss slot; else a room slot drawn from the seed
    peers: tuple[str, ...]  # the base game's dealt cards of `peer_kind` in the same place
    # the kind it is measured as: its own, or the nearest ancestor with printed cards dealt
    # where it goes (a card of `kind elite : boss` beside the printed bosses)
    peer_kind: str = attrs.field(default=attrs.Factory(lambda self: self.kind, takes_self=True))

    def describe(self) -> str:
        """'(gorgon, a boss, in the boss slot)', with the kind it is measured as when not its
        own."""
        among = (f", measured among the printed {plural(self.peer_kind)}"
                 if self.peer_kind != self.kind else "")
        return (f"({self.card}, {article(self.kind)} {self.kind}{among}"
                + (", in the boss slot)" if self.boss else ", in one room slot a game)"))


def plural(kind: str) -> str:
    return kind + ("es" if kind.endswith("s") else "s")


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


class BalanceError(Exception):
    """The mod has nothing balance can measure (no room card that is dealt)."""


def entries(base: Rules, modded: Rules, own: set[str]) -> tuple[list[Entry], list[str]]:
    """The mod's dealt room cards, each with its peers; and notes on the mod's other cards."""
    dealt_base = set(base.deck) | set(base.bosses)
    out, notes = [], []
    for cid in sorted(own):
        room = modded.rooms.get(cid)
        if room is None:
            if cid in modded.characters:
                notes.append(f"{cid}: a character; balance measures room cards (see its wins "
                             f"with `raiders simulate --cards MOD`: win.character.{cid})")
            continue
        boss = cid in modded.bosses
        if not boss and cid not in modded.deck:
            notes.append(f"{cid}: a room card (kind {room.kind}) the mod does not deal (not in "
                         "mod.yaml's deck or bosses): not measured")
            continue
        if cid in dealt_base:
            notes.append(f"{cid}: already dealt without the mod: not measured")
            continue
        # the printed cards of its kind dealt in its place; for a kind of the mod's own, those
        # of its nearest ancestor that has some (`kind elite : boss`: the printed bosses)
        peers: tuple[str, ...] = ()
        peer_kind = room.kind
        for kind in room.kinds:
            peers = tuple(sorted(c for c in dealt_base if base.rooms[c].kind == kind
                                 and (c in base.bosses) == boss))
            if peers:
                peer_kind = kind
                break
        out.append(Entry(cid, room.kind, boss, peers, peer_kind))
    return out, notes


class SlotGame(TapedGame):
    """A game whose dice come from one stream per room (the seed and the room's place), so
    that changing one room leaves every other room's dice as they were. Solo's monster deck
    reshuffle, the only other draw, gets a stream of its own. A base game records its seats'
    answers, a paired game replays them (tools/pairs.py)."""

    def __init__(self, rules: Rules, names, seats, seed: int, deal: Optional[Deal] = None,
                 difficulty: Optional[int] = None, tape: Optional[Tape] = None) -> None:
        super().__init__(rules, names, seats, seed=seed, deal=deal, difficulty=difficulty,
                         tape=tape)
        self.slot_seed = seed
        self.streams: dict[int, random.Random] = {}
        self.rng = random.Random(f"{seed}/rest")  # the deal has been drawn (or given)
        self.went_out: list[int] = []  # per room played: the players who went out in it

    def play_room(self, f, r, floor, slot):
        """The room, and how many players went out in it (eliminated, dead, fallen…: what the
        engine records as a player out), in `went_out`, one count per record."""
        players = self.players
        before = 0
        for p in players:
            before += p.out is not None
        record = super().play_room(f, r, floor, slot)
        after = 0
        for p in players:
            after += p.out is not None
        self.went_out.append(after - before)
        return record

    def _roll(self, faces: int) -> int:
        room = self.entry_index
        stream = self.streams.get(room)
        if stream is None:
            stream = self.streams[room] = random.Random(f"{self.slot_seed}/{room}")
        value = stream.randint(1, faces)
        self._rolls.append(value)
        return value


def slot_of(entry: Entry, deal: Deal, seed: int, has_boss: bool) -> tuple[int, int]:
    """(floor, room) where the entry's card goes in this seed's deal: the boss slot (the last
    room), or a room slot drawn from the seed (any but the boss's when the game has one)."""
    last = (len(deal.floors) - 1, len(deal.floors[-1].rooms) - 1)
    if entry.boss:
        return last
    places = [(f, r) for f, fl in enumerate(deal.floors) for r in range(len(fl.rooms))
              if not (has_boss and (f, r) == last)]
    return random.Random(f"{seed}/slot/{entry.card}").choice(places)


def with_card(deal: Deal, slot: tuple[int, int], card: str) -> Deal:
    """The same deal with `card` in `slot` (its facing kept), every list a copy."""
    floors = []
    for f, fl in enumerate(deal.floors):
        rooms = [RoomSlot(card if (f, r) == slot else s.card, s.face_up)
                 for r, s in enumerate(fl.rooms)]
        floors.append(Floor(rooms, fl.floor_card))
    return Deal(floors, list(deal.characters), deal.first_player, list(deal.threat_deck))


def slot_change(result: GameResult, start: dict, slot: tuple[int, int],
                went_out: list[int]) -> Optional[tuple[int, int, int]]:
    """The table's change in coins and wounds in the slot's room, and the players who went out
    in it (None: never reached)."""
    coins0 = sum(c for c, _ in start.values())
    wounds0 = sum(w for _, w in start.values())
    for rec, out in zip(result.rooms, went_out, strict=True):
        coins = sum(c for _, c, _, _ in rec.after_state)
        wounds = sum(w for _, _, w, _ in rec.after_state)
        if (rec.floor, rec.index) == slot:
            return coins - coins0, wounds - wounds0, out
        coins0, wounds0 = coins, wounds
    return None


def add_outs(obs: dict[str, tuple[int, int]], result: GameResult, went_out: list[int]) -> None:
    """Each room card's players out, `card.ID.out`, beside `sim.observe`'s coins and wounds:
    per player, summed over the times it was resolved in this game."""
    n = len(result.players)
    per_card: dict[str, list[int]] = {}
    for rec, out in zip(result.rooms, went_out, strict=True):
        t = per_card.setdefault(rec.card, [0, 0])
        t[0] += out
        t[1] += 1
    for card, (out, times) in per_card.items():
        obs[f"card.{card}.out"] = (out, n * times)


def _play(setup: sim.Setup, rules: Rules, seed: int, deal: Optional[Deal],
          seats: Optional[Callable[[list], list]] = None, tape: Optional[Tape] = None):
    """One game of a pair: its result, how everyone started, its deal, its players out per
    room, and the game (`seats` wraps the bots: tools/pairs.py)."""
    names = [f"P{i + 1}" for i in range(setup.players)]
    solo = rules.variant.scoring == "solo"
    bots = [sim._bot_maker(b)() for b in setup.bots]
    try:
        game = SlotGame(rules, names, seats(bots) if seats is not None else bots, seed, deal,
                        (setup.difficulty or 3) if solo else None, tape)
        start = {p.name: (p.coins, p.wounds) for p in game.players}
        return game.run(), start, game.deal, game.went_out, game
    except RulesError as err:
        raise sim.SimulationError(f"game with seed {seed}: {err}") from None


def _play_pair(plan: tuple[Entry, ...], setups: tuple[sim.Setup, ...], rules: tuple[Rules, ...],
               seed: int, has_boss: bool, replay: tuple[bool, ...]) -> tuple:
    """The base game of a seed (`rules[0]`), then each entry's game with its card in its
    slot (entry k: `setups[k]`, `rules[k]`); where `replay[k]`, that game takes the base
    game's answers up to its slot's floor."""
    base = _play(setups[0], rules[0], seed, None, pairs.recording if any(replay) else None)
    deal, game = base[2], base[4]
    runs = []
    for entry, setup, mod_rules, replays in zip(plan, setups[1:], rules[1:], replay,
                                                strict=True):
        slot = slot_of(entry, deal, seed, has_boss)
        dealt = with_card(deal, slot, entry.card)

        def play(seats, tape, setup=setup, mod_rules=mod_rules, dealt=dealt):
            return _play(setup, mod_rules, seed, dealt, seats, tape)

        played = pairs.play_replaying(game, slot[0], play) if replays else play(None, None)
        runs.append((entry, slot, played[:4]))
    return base[:4], runs


def run_slots(plan: tuple[Entry, ...], setups: tuple[sim.Setup, ...], seeds: range,
              progress: Optional[Callable[[int], None]] = None, replay: bool = True) -> sim.Tally:
    """The chunk of seeds for `sim.play_games`: run 0 the base game, run k the same deal
    with entry k's card in its slot, played with setup k's rules (a mod's, or, for a sweep,
    the mod's with one number of the card rewritten). Stops on Ctrl-C as `sim.run_chunk`
    does. `replay`: the paired games replay the base game's answers before their slot's floor
    where `pairs.apart` allows (the same figures, less thinking); False plays every game
    afresh.

    Besides the figures, each run's counts (`Tally.counts`) hold `resolved.CARD` (times
    resolved), `games.CARD` (games in which it was resolved) and `dealt.CARD` (games whose
    deal held it): what says whether a card's interval rests on enough games (`judge`)."""
    rules = tuple(s.rules() for s in setups)
    base_rules = rules[0]
    has_boss = bool(base_rules.bosses)
    bots = {b for s in setups for b in s.bots}
    replays = tuple(replay and pairs.apart(base_rules, r, bots, same_deck=False).why_not is None
                    for r in rules[1:])
    tally = sim.Tally(len(setups), setups[0].players)
    resolved: list[dict[str, int]] = [{} for _ in setups]
    met: list[Counter] = [Counter() for _ in setups]
    n = setups[0].players
    for seed in seeds:
        if sim._STOP:
            break
        played = sim.unless_interrupted(functools.partial(
            _play_pair, plan, setups, rules, seed, has_boss, replays))
        if played is None:
            break
        (base, start, deal, base_out), runs = played
        first = sim.observe(base, start, setups[0].bots, resolved[0])
        add_outs(first, base, base_out)
        per_run = [first]
        met[0].update(f"games.{c}" for c in {rec.card for rec in base.rooms})
        met[0].update(f"dealt.{c}" for c in {s.card for fl in deal.floors for s in fl.rooms})
        for k, (entry, slot, (result, mstart, mdeal, outs)) in enumerate(runs, start=1):
            obs = sim.observe(result, mstart, setups[k].bots, resolved[k])
            add_outs(obs, result, outs)
            met[k].update(f"games.{c}" for c in {rec.card for rec in result.rooms})
            met[k].update(f"dealt.{c}" for c in {s.card for fl in mdeal.floors
                                                 for s in fl.rooms})
            for which, (res, st, went) in ((first, (base, start, base_out)),
                                           (obs, (result, mstart, outs))):
                change = slot_change(res, st, slot, went)
                if change is not None:
                    which[f"slot.{entry.card}.coins"] = (change[0], n)
                    which[f"slot.{entry.card}.wounds"] = (change[1], n)
                    which[f"slot.{entry.card}.out"] = (change[2], n)
            per_run.append(obs)
        tally.add_game(per_run)
        if progress is not None:
            progress(1)
    tally.interrupted = sim._STOP
    for c, times, seen in zip(tally.counts, resolved, met, strict=True):
        c["rooms"] += sum(times.values())
        for card, k in times.items():
            c[f"resolved.{card}"] += k
        c.update(seen)
    return tally


def paired(tally: sim.Tally, run: int, key: str) -> Optional[Difference]:
    """Run `run` minus run 0 for one figure, paired game by game."""
    s = tally.sums.get(key)
    if s is None:
        return None
    s = tally._with_n(key)
    idx = (0, 1, 2 * run, 2 * run + 1)
    ss = [s.prod(a, b) for i, a in enumerate(idx) for b in idx[i:]]
    return difference(key, Sums(4, s.n, [s.s[i] for i in idx], ss), sim._kind(key)[1])


# ---- the verdict (docs/simulate.md#reading-the-verdict) --------------------------------------
# A figure from fewer resolutions than this, or from fewer games, is shown, marked, and left
# out of every comparison: a peer met once has an interval of zero width, and a verdict judged
# against it says more than the games do.
MIN_RESOLUTIONS = 30
MIN_GAMES = 10

# The figures a verdict weighs, each per player each time the card is resolved (`card.ID.KEY`
# in the tally), and whether more of it is harder on the players.
MEASURES = (("out", True), ("wounds", True), ("coins", False))


@attrs.frozen
class Side:
    """One card as the games met it: its figures (value and 95% interval, None when the games
    gave none) and how often it was there."""

    name: str
    figures: dict[str, Optional[Known]]  # out, wounds, coins
    resolved: int  # times resolved
    games: int  # games in which it was resolved
    dealt: int = 0  # games whose deal held it

    @property
    def enough(self) -> bool:
        """Resolved often enough that its intervals may be compared."""
        return self.resolved >= MIN_RESOLUTIONS and self.games >= MIN_GAMES


@attrs.frozen
class Judgement:
    """Where a card stands among its peers, figure by figure, and the verdict that follows.
    One rule decides both: the card is harder (or easier…) than a peer only when its interval
    lies wholly beyond the peer's; out of line when that holds against every peer compared."""

    lines: list[str]  # a line for each figure, then the peers left out and why
    code: str  # in_line, out_of_line_harder/_easier/_mixed, too_few_games, no_peers
    sentence: str  # the verdict, said
    flags: list[dict]  # each figure out of line: {"figure", "direction": "harder"|"easier"}
    # the peers compared when not all are ("6 of the 10 compared, the others too seldom met:
    # --games 550 would compare them"); "" when every peer is, or there is no verdict
    partial: str = ""


def _same(a: float, b: float) -> bool:
    return abs(a - b) < 1e-12


def _zero(f: Known) -> bool:
    """A figure that is exactly nothing in every resolution."""
    return f[0] == f[1] == f[2] == 0


def _num(f: Known, measure: str) -> str:
    """A figure and its interval as the lines say it: out as a share of the players."""
    if _zero(f):
        return "0"
    value, low, high = f
    if measure == "out":
        return f"{value:.1%} [{low:.1%}, {high:.1%}]"
    return f"{value:.2f} [{low:.2f}, {high:.2f}]"


def signed(f: Known, pts: bool = False) -> str:
    """A difference and its interval, with signs; exactly nothing (every game the same): 0."""
    if _zero(f):
        return "0"
    value, low, high = f
    if pts:
        return f"{value * 100:+.1f} pts [{low * 100:+.1f}, {high * 100:+.1f}]"
    return f"{value:+.2f} [{low:+.2f}, {high:+.2f}]"


# What a card does to a player, per figure: (nothing, less than nothing, more than nothing)
_DOES = {"wounds": ("wounds no player", "heals a player {} wounds", "wounds a player {}"),
         "coins": ("gives no player a coin", "takes {} coins from a player",
                   "gives a player {} coins")}


def _head(measure: str, f: Known) -> str:
    """What the card does, said as it does it: 'takes 0.50 [0.40, 0.60] coins from a
    player', not 'gives -0.50'."""
    value, low, high = f
    if measure == "out":
        if _zero(f):
            return "puts no player out"
        return f"puts {_num(f, 'out')} of the players out each time resolved"
    nothing, less, more = _DOES[measure]
    if _zero(f):
        return nothing
    if value < 0:
        return less.format(_num((-value, -high, -low), measure)) + " each time resolved"
    return more.format(_num(f, measure)) + " each time resolved"


def _words(measure: str, value: float) -> tuple[str, str, str, str]:
    """(more than, less than, as the most, as the least) for this figure, in words that say
    what the card does."""
    if measure == "out":
        return ("more often than", "less often than", "as often as the most",
                "as seldom as the least")
    if measure == "wounds":
        return "harder than", "easier than", "as hard as the hardest", "as easy as the easiest"
    if value < 0:
        return ("takes fewer coins than", "takes more coins than", "takes as few as the fewest",
                "takes as many as the most")
    return ("gives more coins than", "gives fewer coins than", "gives as many as the most",
            "gives as few as the fewest")


def _beyond_words(measure: str, value: float, above: bool) -> str:
    """What a card beyond every peer does more of, or less: 'heals more than', not 'wounds
    less than', for a card that heals."""
    if measure == "out":
        return f"puts players out {'more' if above else 'less'} often than"
    if measure == "wounds":
        return (f"wounds {'more' if above else 'less'} than" if value >= 0 else
                f"heals {'less' if above else 'more'} than")
    return (f"gives {'more' if above else 'fewer'} coins than" if value >= 0 else
            f"takes {'fewer' if above else 'more'} coins than")


def _count(n: int, thing: str) -> str:
    """'1 resolution', '2 resolutions'."""
    return f"{n} {thing}{'s' if n != 1 else ''}"


def _names(sides: list[Side], most: int = 5) -> str:
    names = [s.name for s in sides]
    return ", ".join(names) if len(names) <= most else \
        ", ".join(names[:most]) + f" and {len(names) - most} more"


def _rank(measure: str, mine: Known, compared: list[tuple[Side, Known]], kind: str,
          kinds: str, measured: str) -> tuple[str, Optional[bool]]:
    """The card's place among the peers compared for one figure, and whether it lies beyond
    every one of them (True: above, False: below, None: not)."""
    value, low, high = mine
    more, less, as_most, as_least = _words(measure, value)
    above = [s for s, (_, _, p_high) in compared if low > p_high]
    below = [s for s, (_, p_low, _) in compared if high < p_low]
    m = len(compared)
    if len(above) == m or len(below) == m:
        top = len(above) == m
        word = more if top else less
        if all(_zero(f) for _, f in compared):
            return (f"{word} every printed {kind}{measured} (none of which does it at all)",
                    top)
        side, f = (max if top else min)(compared, key=lambda sf: (sf[1][0], sf[0].name))
        return (f"{word} every printed {kind}{measured}, beyond every interval (the "
                f"{'most' if top else 'least'}: {side.name} {_num(f, measure)})", top)
    told = {s.name for s in above} | {s.name for s in below}
    alike = [s for s, _ in compared if s.name not in told]
    tied = [s for s, f in compared if s.name not in told and _same(f[0], value)]
    parts = []
    if tied and value >= max(f[0] for _, f in compared):
        parts.append(f"{as_most} (tied with {_names(tied)})")
    elif tied and value <= min(f[0] for _, f in compared):
        parts.append(f"{as_least} (tied with {_names(tied)})")
    else:
        tied = []
    of = f" of the {m} printed {kinds}{measured}"
    for word, group in ((more, above), (less, below)):
        if group:  # a few are named
            parts.append(f"{word} {len(group)}{of}"
                         + (f" ({_names(group)})" if len(group) <= 3 else ""))
            of = ""
    rest = [s for s in alike if s not in tied]
    if rest:
        parts.append(f"not told apart from {len(rest)}{of} ({_names(rest)})" if of != "" or
                     parts else f"not told apart from any{of}")
    if all(_zero(f) for _, f in compared):
        parts.append(f"no printed {kind} does it at all")
    return ", ".join(parts), None


def games_wanted(games: int, me: Side, peers: list[Side], every: bool = False) -> int:
    """About how many games would measure the card and half its peers enough (`every`: all
    the peers these games dealt), from how often these games met them, rounded up."""
    def need(resolved: float, in_games: float) -> float:
        if games <= 0 or resolved <= 0:
            return math.inf
        return max(MIN_RESOLUTIONS * games / resolved,
                   MIN_GAMES * games / max(in_games, 1e-9))

    want = need(me.resolved, me.games) if not me.enough else games
    if peers:
        # a peer's share of the deals, on average (half of them then reach the minimum)
        average = 1.25 * need(sum(p.resolved for p in peers) / len(peers),
                              sum(p.games for p in peers) / len(peers))
        want = max(want, average)
        if every:  # each peer short of the minimum, from how often it was met (or the average)
            for p in peers:
                if not p.enough:
                    want = max(want, 1.1 * need(p.resolved, p.games) if p.resolved else average)
    if not math.isfinite(want):
        want = 10 * max(games, MIN_RESOLUTIONS)
    want = max(math.ceil(want), games + 1)
    step = 5 * 10 ** max(len(str(want)) - 2, 0)
    return -(-want // step) * step


def judge(me: Side, peers: list[Side], kind: str, games: int) -> Judgement:
    """The card's lines and verdict against its peers (docs/simulate.md#reading-the-verdict)."""
    kinds = plural(kind)
    lines: list[str] = []
    compared = [p for p in peers if p.enough]
    need_peers = math.ceil(len(peers) / 2)
    if not peers:
        for measure, _ in MEASURES:
            f = me.figures.get(measure)
            if f is not None:
                lines.append(f"  {_head(measure, f)}: no printed {kind} to compare with")
        return Judgement(lines, "no_peers", f"no printed {kind} to measure it against; judge "
                         "it by the whole game's change above", [])
    too_few = None
    if not me.enough:
        short = (f"{_count(me.resolved, 'resolution')} of the card, at least "
                 f"{MIN_RESOLUTIONS} wanted" if me.resolved < MIN_RESOLUTIONS else
                 f"the card was resolved in {_count(me.games, 'game')}, at least {MIN_GAMES} "
                 "wanted")
        too_few = short
    elif len(compared) < need_peers:
        too_few = (f"{len(compared)} of the {len(peers)} printed {kinds} resolved at least "
                   f"{MIN_RESOLUTIONS} times in {MIN_GAMES} games or more, at least "
                   f"{need_peers} wanted")
    measured = "" if len(compared) == len(peers) else " compared"
    me_out = me.figures.get("out")
    # A card that puts players out where no peer ever does: its wounds and coins are those of
    # the players it left in, no ranking of them is fair (issue 22: "easier than every boss")
    lethal_alone = (me_out is not None and me_out[0] > 0 and
                    all((out := p.figures.get("out")) is not None and _zero(out)
                        for p in compared))
    flags: list[dict] = []
    for measure, harder in MEASURES:
        mine = me.figures.get(measure)
        if mine is None:
            lines.append(f"  {measure}: never resolved in these games")
            continue
        head = f"  {_head(measure, mine)}"
        if too_few is not None:
            lines.append(head + ("" if me.enough else
                                 f" (too few: {_count(me.resolved, 'resolution')})"))
            continue
        with_fig = [(p, f) for p in compared if (f := p.figures.get(measure)) is not None]
        if measure != "out" and lethal_alone:
            lines.append(head + f": not ranked: it puts players out, which no printed {kind} "
                         "does (a player out takes no more wounds nor coins)")
            continue
        if _zero(mine) and all(_zero(f) for _, f in with_fig):
            continue  # nothing, like every peer: no line (the peers' table shows it)
        rank, beyond = _rank(measure, mine, with_fig, kind, kinds, measured)
        lines.append(f"{head}: {rank}")
        if beyond is not None:
            direction = "harder" if beyond == harder else "easier"
            flags.append({"figure": measure, "direction": direction,
                          "said": f"{_beyond_words(measure, mine[0], beyond)} any printed "
                                  f"{kind}{measured}"})
    left = [p for p in peers if not p.enough and p.dealt]
    never = [p for p in peers if not p.dealt]
    if left or never:
        left_out = []
        if left:
            left_out.append("too few to compare: " + ", ".join(
                f"{p.name} ({_count(p.resolved, 'resolution')})"
                for p in left))
        if never:
            left_out.append(f"never dealt: {_names(never, 10)}")
        lines.append(f"  printed {kinds} left out ({'; '.join(left_out)})")
    if too_few is not None:
        return Judgement(lines, "too_few_games", f"too few games for a verdict: {too_few}; run "
                         f"with --games {games_wanted(games, me, peers)}", [])
    # peers left out are said in the verdict too, with the games that would compare them
    partial = ("" if not measured else
               f"{len(compared)} of the {len(peers)} compared, the others too seldom met: "
               f"--games {games_wanted(games, me, peers, every=True)} would compare them")
    within = f" ({partial})" if partial else ""
    if flags:
        ways = {f["direction"] for f in flags}
        code = "out_of_line_" + (ways.pop() if len(ways) == 1 else "mixed")
        said = "; ".join(f["said"] for f in flags)
        sentence = (f"OUT OF LINE, {code.rsplit('_', 1)[1]}: {said}, beyond every interval"
                    f"{within}. Try `--sweep` on its numbers "
                    "(docs/simulate.md#is-my-boss-too-strong)")
        return Judgement(lines, code, sentence, flags, partial)
    return Judgement(lines, "in_line", f"in line with the printed {kinds}: within their range "
                     f"on every figure{within}", [], partial)


@attrs.frozen
class Verdict:
    entry: Entry
    figures: dict[str, Optional[Figure]]  # out, wounds, coins
    me: Side
    peers: dict[str, tuple[Side, dict[str, Optional[Figure]]]]  # card -> how met, figures
    against_slot: dict[str, Optional[Difference]]  # out, wounds, coins
    game: dict[str, Optional[Difference]]  # whole-game figures, with the card against without
    judgement: Judgement
    lines: list[str]


def _known(measure: str, f: Optional[Figure]) -> Optional[Known]:
    """A figure as compared: a share of the players out never lies outside 0..1."""
    got = known(f)
    if got is None or measure != "out":
        return got
    value, low, high = got
    return value, max(low, 0.0), min(high, 1.0)


def _side(name: str, figs: dict[str, Figure], counts, card: str
          ) -> tuple[Side, dict[str, Optional[Figure]]]:
    raw = {m: figs.get(f"card.{card}.{m}") for m, _ in MEASURES}
    side = Side(name, {m: _known(m, f) for m, f in raw.items()}, counts[f"resolved.{card}"],
                counts[f"games.{card}"], counts[f"dealt.{card}"])
    return side, raw


def verdict(tally: sim.Tally, run: int, entry: Entry, rules: Rules, mod_rules: Rules,
            players: int) -> Verdict:
    base = tally.figures(0)
    me, figures = _side(mod_rules.rooms[entry.card].name, tally.figures(run),
                        tally.counts[run], entry.card)
    peers = {c: _side(rules.rooms[c].name, base, tally.counts[0], c) for c in entry.peers}
    j = judge(me, [s for s, _ in peers.values()], entry.peer_kind, tally.games)
    lines = [f"{me.name} {entry.describe()}:", *j.lines]
    slot = {m: paired(tally, run, f"slot.{entry.card}.{m}") for m, _ in MEASURES}
    # the slot's figures rest on the same games (the times it resolved): all or none
    got = {m: known(d) for m, d in slot.items()}
    out, wounds, coins = got.get("out"), got.get("wounds"), got.get("coins")
    if out is not None and wounds is not None and coins is not None:
        lines.append(f"  against the {'boss' if entry.boss else 'room'} it replaced, same "
                     f"tables: players out {signed(out, pts=True)}, wounds "
                     f"{signed(wounds)}, coins {signed(coins)} a player")
    game = {k: paired(tally, run, k) for k in ("wounds", "coins", "no_winner")}
    parts = []
    for k, d in game.items():
        if (g := known(d)) is not None:
            parts.append(f"{k.replace('_', ' ')} {signed(g, pts=k == 'no_winner')}")
    if parts:
        lines.append("  the whole game with it in the slot: " + ", ".join(parts)
                     + " (per player at the end; games)")
    lines.append(f"  verdict: {j.sentence}")
    return Verdict(entry, figures, me, peers, slot, game, j, lines)


def peer_table(v: Verdict) -> list[str]:
    """The peers' own figures from the base games, those that put most players out first,
    then the hardest; each marked when too seldom met to be compared."""
    if not v.peers:
        return []
    rows = []
    for c, (side, _) in v.peers.items():
        f = side.figures
        key = tuple(-(fig[0] if (fig := f.get(m)) is not None else -1e9)
                    for m in ("out", "wounds"))
        cells = [_num(fig, m) if (fig := f.get(m)) is not None else "-" for m, _ in MEASURES]
        note = ("never dealt" if not side.dealt else "" if side.enough else
                f"too few to compare: {_count(side.resolved, 'resolution')}")
        rows.append((key, c, side.name, cells, note))
    rows.sort(key=lambda r: (r[0], r[1]))
    kind = v.entry.peer_kind
    kinds = plural(kind)
    out = [f"  the printed {kinds} (base games; per player each time resolved):",
           f"    {'':<20} {'players out':>22} {'wounds':>20} {'coins':>22}"]
    out += [f"    {name:<20} {cells[0]:>22} {cells[1]:>20} {cells[2]:>22}"
            + (f"  ({note})" if note else "") for _, _, name, cells, note in rows]
    return out


def own_cards(folder: str, rules: Rules) -> set[str]:
    """The ids of the cards declared in the mod's folder."""
    root = Path(folder).resolve()
    return {cid for cid, d in rules.library.cards.items()
            if Path(d.span.path).resolve().is_relative_to(root)}


def chunk_fn(plan: tuple[Entry, ...], replay: bool = True):
    return functools.partial(run_slots, plan, replay=replay)
