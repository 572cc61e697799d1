"""Many games with bots, on every core: wins by seat, character and bot, coins, wounds, who
went out and why, and what each room card does on average — each with a 95% interval, for
balancing cards (docs/simulate.md).

Seeds are fixed (seed, seed+1, …) and the tallies are integer sums (interpreter/tools/stats.py), so
a run gives the same figures whatever the number of processes; `--compare` plays the same seeds
with and without a mod, in the same process, so that each game's pair feeds the paired
difference.
"""
from __future__ import annotations

import functools
import math
import os
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator, Optional, TypeVar

import attrs

from raiders.formats.atomic import write_new
from raiders.formats.forking import shared_heap
from raiders.interpreter.game.botspec import bot_classes, parse_bot
from raiders.interpreter.game.engine import Game, GameResult
from raiders.interpreter.game.players import Seat
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.rules import Rules, load_rules

from .stats import SHARE, Difference, Figure, Sums, difference, figure

JSON_FORMAT = "raiders-simulate/2"
T = TypeVar("T")


class SimulationError(Exception):
    """A game of the simulation broke a rule at run time (a card's runaway chain…)."""


@attrs.frozen
class Setup:
    ruleset: str
    variant: Optional[str]  # None: the ruleset's first
    players: int
    bots: tuple[str, ...]
    cards: tuple[str, ...]
    difficulty: Optional[int] = None
    log_dir: Optional[str] = None  # write one log per game here (game-SEED.yaml)
    log_ruleset: str = ""  # the ruleset and mod paths as a log in log_dir must name them
    log_cards: tuple[str, ...] = ()
    edits: tuple = ()  # numbers rewritten in the cards before compiling (runtime/sweep.py)
    overwrite: bool = False  # replace logs that exist in log_dir (--force); else refused

    def rules(self) -> Rules:
        # The mod folders as the command line loads them (cli.common.load_rules_or_exit), so
        # that load_rules's cache gives the rules the command already loaded.
        cards = tuple(dict.fromkeys(os.path.normpath(c) for c in self.cards))
        return load_rules(self.ruleset, self.variant, cards, edits=self.edits) \
            if self.edits else load_rules(self.ruleset, self.variant, cards)

    def anywhere(self) -> "Setup":
        """The setup with its paths (ruleset, mods, log folder) absolute, as this process
        resolves them: a worker elsewhere (a cluster's, in another folder) reads the same
        files. The paths a log holds (log_ruleset, log_cards) are relative to the log: kept."""
        from raiders.formats.rulesets import builtin_ids

        def absolute(p: str) -> str:
            return p if p in builtin_ids() else os.path.abspath(p)

        return attrs.evolve(self, ruleset=absolute(self.ruleset),
                            cards=tuple(map(absolute, self.cards)),
                            log_dir=None if self.log_dir is None else absolute(self.log_dir))


def _kind(name: str) -> tuple[str, int]:
    """A figure's kind and the scale its numerators are counted in."""
    if name.startswith("win."):
        return "rate", SHARE
    if name == "no_winner" or name.startswith("out."):
        return "rate", 1
    return "mean", 1


_PENDING_PAIRS = 50_000  # a one-run tally's distinct (figure, x, y) kept before they are summed


@attrs.define
class Tally:
    """Integer sums for every figure over the games played, for one run or a paired pair."""

    runs: int = 1
    players: int = 0
    games: int = 0
    _sums: dict[str, Sums] = attrs.field(factory=dict, alias="sums")
    counts: list[Counter] = attrs.Factory(list)  # per run: rooms, resolved.CARD
    interrupted: bool = False  # Ctrl-C stopped the run: these are the games finished before
    # A one-run tally's games not yet in `_sums`: how many times each figure had each
    # (x, y), counted in C (games repeat the same few pairs); `sums` adds them (`fold`).
    _pending: Counter = attrs.field(factory=Counter, init=False)

    def __attrs_post_init__(self) -> None:
        if not self.counts:
            self.counts = [Counter() for _ in range(self.runs)]

    @property
    def sums(self) -> dict[str, Sums]:
        """Every figure's sums over the games added so far."""
        if self._pending:
            self.fold()
        return self._sums

    def add_game(self, per_run: list[dict[str, tuple[int, int]]]) -> None:
        self.games += 1
        if self.runs == 1:  # the common case: counted now, summed later (`fold`)
            pending = self._pending
            pending.update(per_run[0].items())
            if len(pending) > _PENDING_PAIRS:
                self.fold()
            return
        sums = self._sums
        keys = set().union(*per_run)
        for key in keys:
            vec: tuple[int, ...] = ()
            for obs in per_run:
                vec += obs.get(key, (0, 0))
            s = sums.get(key)
            if s is None:
                s = sums[key] = Sums(2 * self.runs)
            s.add(vec)

    def fold(self) -> None:
        """The pending pairs into the sums: Σx, Σy, Σx², Σxy, Σy² from each (x, y) and how
        many games had it (integers: the same sums as game by game, in any order)."""
        pending, self._pending = self._pending, Counter()
        sums = self._sums
        for (key, (x, y)), times in pending.items():
            s = sums.get(key)
            if s is None:
                s = sums[key] = Sums(2)
            s.n += times
            t, q = s.s, s.ss
            t[0] += times * x
            t[1] += times * y
            q[0] += times * x * x
            q[1] += times * x * y
            q[2] += times * y * y

    def merge(self, other: "Tally") -> None:
        self.games += other.games
        self.interrupted = self.interrupted or other.interrupted
        for key, s in other.sums.items():
            mine = self.sums.get(key)
            if mine is None:
                self.sums[key] = Sums(s.k, s.n, list(s.s), list(s.ss))
            else:
                mine.merge(s)
        for counter, theirs in zip(self.counts, other.counts, strict=True):
            counter.update(theirs)

    def run(self, which: int) -> "Tally":
        """One run of a tally of several as a tally of its own: the figures, counts and games
        of that run alone (a figure none of its games had is left out, as it would be)."""
        one = Tally(1, self.players, self.games, counts=[Counter(self.counts[which])],
                    interrupted=self.interrupted)
        for key, sums in self.sums.items():
            part = sums.part(which)
            if any(part.s) or any(part.ss):
                one._sums[key] = part
        return one

    def _with_n(self, key: str) -> Sums:
        """A figure's sums over every game: games without it count as zeros, except that a
        per-player figure (out.*) had the whole table at risk in every game: y = players."""
        s = self.sums[key]
        if not key.startswith("out."):
            return Sums(s.k, self.games, s.s, s.ss)
        c, g = self.players, self.games
        sums = list(s.s)
        for b in range(1, s.k, 2):
            sums[b] = c * g
        ss = []
        for a in range(s.k):
            for b in range(a, s.k):
                if a % 2 and b % 2:
                    ss.append(c * c * g)
                elif a % 2 or b % 2:
                    ss.append(c * sums[b if a % 2 else a])
                else:
                    ss.append(s.prod(a, b))
        return Sums(s.k, g, sums, ss)

    def figures(self, run: int = 0) -> dict[str, Figure]:
        out = {}
        for key in sorted(self.sums):
            kind, scale = _kind(key)
            f = figure(key, kind, self._with_n(key).part(run), scale)
            if f.value is not None:
                out[key] = f
        return out

    def differences(self) -> dict[str, Difference]:
        """Run 1 minus run 0, per figure (a paired tally only)."""
        return {key: difference(key, self._with_n(key), _kind(key)[1])
                for key in sorted(self.sums)}

    def to_json(self, run: int = 0) -> dict:
        """One run's figures (docs/simulate.md: the `raiders-simulate/2` schema)."""
        c = self.counts[run]
        return {
            "games": self.games,
            "players": self.players,
            "rooms": c["rooms"],
            "resolved": {k.split(".", 1)[1]: n for k, n in sorted(c.items())
                         if k.startswith("resolved.")},
            "figures": {k: f.to_json() for k, f in self.figures(run).items()},
        }


class _Names(dict):
    """Figure names made once per process instead of once per game and room: a room card's
    two (`card.ID.coins`, `card.ID.wounds`), a seat's three (`win.seat.P1`,
    `win.character.ID`, `win.bot.BOT`), a cause's one (`out.REASON`)."""

    def __init__(self, *prefixes: tuple[str, str]) -> None:
        super().__init__()
        self.prefixes = prefixes

    def __missing__(self, parts):
        if isinstance(parts, str):
            name = self[parts] = tuple(f"{p}{parts}{s}" for p, s in self.prefixes)
        else:
            name = self[parts] = tuple(f"{p}{x}" for (p, _), x in zip(self.prefixes, parts,
                                                                       strict=True))
        return name


_CARD_NAMES = _Names(("card.", ".coins"), ("card.", ".wounds"))
_SEAT_NAMES = _Names(("win.seat.", ""), ("win.character.", ""), ("win.bot.", ""))
_OUT_NAMES = _Names(("out.", ""))


def observe(result: GameResult, start: dict[str, tuple[int, int]], bots: tuple[str, ...],
            resolved: Optional[dict[str, int]] = None) -> dict[str, tuple[int, int]]:
    """One game's contribution to every figure: (numerator, denominator). `resolved`: when
    given, each room card's times resolved in this game are added to it."""
    n = len(result.players)
    winners = result.winners
    obs: dict[str, tuple[int, int]] = {"no_winner": (0 if winners else 1, 1)}
    # A room card's coins and wounds: what the whole table gained in that room, summed over
    # the times it was resolved (the table's change is the sum of the players' changes).
    coins0 = wounds0 = 0
    for c, w in start.values():
        coins0 += c
        wounds0 += w
    per_card: dict[str, list[int]] = {}
    for rec in result.rooms:
        coins = wounds = 0
        for _, c, w, _ in rec.after_state:
            coins += c
            wounds += w
        t = per_card.get(rec.card)
        if t is None:
            per_card[rec.card] = [coins - coins0, wounds - wounds0, 1]
        else:
            t[0] += coins - coins0
            t[1] += wounds - wounds0
            t[2] += 1
        coins0, wounds0 = coins, wounds
    names = _CARD_NAMES
    for card, (coins, wounds, times) in per_card.items():
        coins_key, wounds_key = names[card]
        obs[coins_key] = (coins, n * times)
        obs[wounds_key] = (wounds, n * times)
        if resolved is not None:
            resolved[card] = resolved.get(card, 0) + times
    share = SHARE // len(winners) if winners else 0
    names = _SEAT_NAMES
    coins = wounds = 0
    reasons: dict[str, int] = {}
    for p, bot in zip(result.players, bots, strict=True):
        won = share if p.name in winners else 0
        for key in names[p.name, p.character, bot]:
            o = obs.get(key)
            obs[key] = (won, 1) if o is None else (o[0] + won, o[1] + 1)
        coins += p.coins
        wounds += p.wounds
        if p.out:
            reasons[p.out] = reasons.get(p.out, 0) + 1
    obs["coins"] = (coins, n)
    obs["wounds"] = (wounds, n)
    for reason in sorted(reasons):  # per player; Tally fills in the games without one
        obs[_OUT_NAMES[reason][0]] = (reasons[reason], n)
    return obs


@functools.lru_cache(maxsize=None)
def _bot_maker(spec: str) -> Callable[[], Seat]:
    """What makes a new bot for a seat (one a game, as make_bot would), the spec read once."""
    name, arg = parse_bot(spec)
    cls = bot_classes()[name]
    return cls if arg is None else functools.partial(cls, arg)


# a game's result, how everyone started, and the game
Played = tuple[GameResult, dict[str, tuple[int, int]], Game]


def play_one(setup: Setup, rules: Rules, seed: int, seats=None, tape=None,
             same_deal: Optional[Game] = None) -> Played:
    """One game, and the players' coins and wounds before the first room (for `observe`).
    `seats` wraps the bots and `tape` is what they replay (tools/pairs.py: a game that
    records or replays another); `same_deal`: the recorded game, whose deal this one must
    have drawn (else pairs.Diverged)."""
    names = [f"P{i + 1}" for i in range(setup.players)]
    solo = rules.variant.scoring == "solo"
    bots = [_bot_maker(b)() for b in setup.bots]
    difficulty = (setup.difficulty or 3) if solo else None
    try:  # the deal itself may break a rule (a supply without a character's items)
        if seats is None and tape is None:
            game = Game(rules, names, bots, seed=seed, difficulty=difficulty)
        else:
            from .pairs import Diverged, TapedGame

            game = TapedGame(rules, names, seats(bots) if seats is not None else bots,
                             seed=seed, difficulty=difficulty, tape=tape)
            if same_deal is not None and game.deal != same_deal.deal:
                raise Diverged
        start = {p.name: (p.coins, p.wounds) for p in game.players}
        return game.run(), start, game
    except RulesError as err:
        raise SimulationError(f"game with seed {seed}: {err}") from None


def write_log(setup: Setup, folder: str, rules: Rules, seed: int, result: GameResult) -> None:
    """The game's log as game-SEED.yaml in `folder` (the setup's log folder), whole or not at
    all."""
    # only here: a run without logs never needs it
    from raiders.interpreter.records.logs import LogMeta, render_log

    solo = rules.variant.scoring == "solo"
    meta = LogMeta(setup.log_ruleset or setup.ruleset, rules.variant.name, seed,
                   setup.log_cards, (setup.difficulty or 3) if solo else None)
    target = Path(folder) / f"game-{seed}.yaml"
    try:
        write_new(target, render_log(meta, rules, result), overwrite=setup.overwrite)
    except OSError as err:  # a full disk, a folder gone, another run's log (FileExists)
        raise SimulationError(f"cannot write {target}: {err.strerror or err}") from None


# ---- stopping on Ctrl-C (docs/simulate.md#stopping-ctrl-c-and-progress) ------------------
# A worker that hears SIGINT (the terminal sends it to the whole process group; the parent
# forwards it too) abandons the game it is playing, returns the games it finished, and starts
# no other game: a chunk already queued to it comes back empty at once.
# The figures are added with SIGINT only noted (never half a game's sums), then the loop stops.
_STOP = False
_IN_GAMES = False  # playing a game: SIGINT abandons it


def _on_sigint(signum, frame) -> None:
    global _STOP
    _STOP = True
    if _IN_GAMES:
        raise KeyboardInterrupt


_PARENT: Optional[int] = None  # in a worker: the simulation's process


def _worker_start(parent: int) -> None:
    """A worker dies with the simulation: killed with it (Linux: the kernel's parent-death
    signal), or, elsewhere, at its next game once its parent is gone."""
    global _PARENT
    _PARENT = parent
    import signal

    signal.signal(signal.SIGINT, _on_sigint)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent went before the signal was set
        os._exit(1)


def _play_each(setups: tuple[Setup, ...], all_rules: list[Rules], seed: int,
               replays: tuple = ()) -> list[Played]:
    """One seed's game under every setup; where `replays[k]` (pairs.Apart, the cards setup k
    holds apart from setup 0), setup k's game replays setup 0's answers up to the floor where
    one of those cards first lies (tools/pairs.py: the same game, less thinking)."""
    if not any(replays):
        return [play_one(setup, rules, seed)
                for setup, rules in zip(setups, all_rules, strict=True)]
    from . import pairs

    first = play_one(setups[0], all_rules[0], seed, pairs.recording)
    played = [first]
    game = first[2]
    assert isinstance(game, pairs.TapedGame)  # recorded
    for setup, rules, apart in zip(setups[1:], all_rules[1:], replays, strict=True):
        def play(seats, tape, setup=setup, rules=rules):
            return play_one(setup, rules, seed, seats, tape, game if tape is not None else None)

        played.append(pairs.play_replaying(game, pairs.first_floor(game.deal, apart.rooms),
                                           play) if apart else play(None, None))
    return played


def unless_interrupted(play: Callable[[], T]) -> Optional[T]:
    """`play()` (one game, or a pair), or None when SIGINT abandoned it."""
    global _IN_GAMES
    try:
        _IN_GAMES = True
        return play()
    except KeyboardInterrupt:
        return None
    finally:
        _IN_GAMES = False


def _replays(setups: tuple[Setup, ...], all_rules: list[Rules]) -> tuple:
    """Per setup after the first: how its cards stand apart from the first's (pairs.Apart)
    where its games may replay the first's answers up to the floor where they differ, else
    None (tools/pairs.py `apart`: nothing before that floor can tell the games apart)."""
    if len(setups) < 2 or any(s.difficulty != setups[0].difficulty or s.players !=
                              setups[0].players or s.bots != setups[0].bots for s in setups):
        return ()
    from . import pairs

    found = []
    for rules in all_rules[1:]:
        apart = pairs.apart(all_rules[0], rules, setups[0].bots, same_deck=True)
        found.append(apart if apart.why_not is None else None)
    return tuple(found)


def run_chunk(setups: tuple[Setup, ...], seeds: range,
              progress: Optional[Callable[[int], None]] = None) -> Tally:
    """Play each seed under every setup (a pair: base and mod on the same seed). Ctrl-C ends
    it early: the tally of the games finished, marked `interrupted`. `progress`: told of
    each game finished (in this process only; a worker's chunk reports when it is done)."""
    all_rules = [s.rules() for s in setups]
    tally = Tally(len(setups), setups[0].players)
    resolved: list[dict[str, int]] = [{} for _ in setups]  # card -> times, named at the end
    replays = _replays(setups, all_rules)
    for seed in seeds:
        if _STOP:
            break
        if _PARENT is not None and os.getppid() != _PARENT:
            os._exit(1)  # orphaned: nobody reads these games, and no log may follow
        played = unless_interrupted(functools.partial(_play_each, setups, all_rules, seed,
                                                      replays))
        if played is None:
            break
        per_run = []
        for setup, rules, times, (result, start, _game) in zip(setups, all_rules, resolved,
                                                               played, strict=True):
            if setup.log_dir:
                write_log(setup, setup.log_dir, rules, seed, result)
            per_run.append(observe(result, start, setup.bots, times))
        tally.add_game(per_run)
        if progress is not None:
            progress(1)
    tally.interrupted = _STOP
    tally.fold()  # summed here: a worker sends sums, not its games
    for c, times in zip(tally.counts, resolved, strict=True):
        c["rooms"] += sum(times.values())
        for card, k in times.items():
            c[f"resolved.{card}"] += k
    return tally


def _even_chunks(seed: int, games: int, count: int) -> list[range]:
    """The seeds cut into about `count` chunks of one size."""
    size = max(1, -(-games // count))
    return [range(s, min(s + size, seed + games)) for s in range(seed, seed + games, size)]


def _chunks(seed: int, games: int, jobs: int) -> list[range]:
    """The seeds cut into chunks for `jobs` local processes, largest first (guided
    scheduling): each chunk is a 1/(2·jobs) share of the games still to cut, down to a floor,
    so the processes start on big chunks and end together on small ones, with few chunks to
    send and merge. One chunk for one process."""
    if jobs <= 1:
        return [range(seed, seed + games)]
    least = max(1, games // (jobs * 64))
    chunks, start, end = [], seed, seed + games
    while start < end:
        size = max(least, -(-(end - start) // (2 * jobs)))
        chunks.append(range(start, min(start + size, end)))
        start += size
    return chunks


def play_games(setups: tuple[Setup, ...], games: int, seed: int, jobs: int,
               progress: Optional[Callable[[int], None]] = None,
               cluster: Optional[str] = None,
               chunk_fn: Optional[Callable[..., Tally]] = None) -> Tally:
    """Seeds seed..seed+games-1 under every setup, on `jobs` processes (or on a Dask cluster:
    `cluster` is its scheduler's address, or `auto` for one on this machine). `chunk_fn`:
    what plays a chunk of seeds (default `run_chunk`; tools/balance.py plays paired slots).

    Ctrl-C (SIGINT) stops the run: the games finished are returned, marked `interrupted`
    (the caller prints them and exits 130); a second Ctrl-C ends the process at once."""
    chunk_fn = chunk_fn or run_chunk
    total = Tally(len(setups), setups[0].players)
    if cluster is not None:  # a cluster may have many more workers than `jobs`: even chunks
        return _play_on_cluster(setups, _even_chunks(seed, games, jobs * 8), total, jobs,
                                cluster, progress, chunk_fn)
    chunks = _chunks(seed, games, jobs)
    jobs = min(jobs, len(chunks))  # never more processes than pieces of work
    if jobs > 1:  # imported only for processes (a few ms of every run's start-up)
        import concurrent.futures
        import multiprocessing as mp
    if jobs <= 1 or "fork" not in mp.get_all_start_methods():
        with _stopping_here():
            for chunk in chunks:
                total.merge(chunk_fn(setups, chunk, progress))  # progress: game by game
                if total.interrupted:
                    break
        return total
    with shared_heap():
        pool = concurrent.futures.ProcessPoolExecutor(
            jobs, mp_context=mp.get_context("fork"), initializer=_worker_start,
            initargs=(os.getpid(),))
        futures: dict = {}
        try:
            with _stopping_here():
                futures = {pool.submit(chunk_fn, setups, c): len(c) for c in chunks}
                for part in _results(concurrent.futures.as_completed(futures)):
                    total.merge(part)  # integer sums: the order of merging does not matter
                    if progress:
                        progress(part.games)
                if _STOP:
                    total.merge(_stop_pool(pool, futures, Tally(total.runs, total.players)))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return total


def _results(done) -> "Iterator[Tally]":
    """Each finished chunk's tally (`done`: futures as they finish), until Ctrl-C: the wait
    for the next is what SIGINT interrupts, never the merging of one, which would leave half
    its sums added."""
    global _IN_GAMES
    while not _STOP:
        try:
            _IN_GAMES = True
            fut = next(done)
        except (StopIteration, KeyboardInterrupt):
            return
        finally:
            _IN_GAMES = False
        yield fut.result()


class _stopping_here:
    """Games played in this process: SIGINT abandons the game being played (as in a worker)
    instead of raising wherever the process happens to be; the old handler comes back after."""

    def __enter__(self) -> None:
        import signal
        import threading

        global _STOP
        _STOP = False
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, _on_sigint)

    def __exit__(self, *exc) -> None:
        import signal

        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)


_GRACE = 1.5  # seconds the workers get to hand back their finished games after Ctrl-C


def _stop_pool(pool, futures: dict, got: Tally) -> Tally:
    """After Ctrl-C: nothing more starts, every worker is told (SIGINT; the terminal may have
    told them already) and gets _GRACE seconds to return the games it finished; then any
    still running is killed. A second Ctrl-C ends the process at once (exit 130)."""
    import concurrent.futures
    import signal

    workers = list(getattr(pool, "_processes", {}).values())

    def at_once(signum, frame) -> None:
        for w in workers:
            _kill(w.pid, signal.SIGKILL)
        os._exit(130)

    signal.signal(signal.SIGINT, at_once)
    for fut in futures:
        fut.cancel()  # those not yet handed to a worker
    for w in workers:
        _kill(w.pid, signal.SIGINT)
    done, _ = concurrent.futures.wait(
        [f for f in futures if not f.cancelled()], timeout=_GRACE)
    for fut in done:
        if fut.exception() is None:  # a worker killed or failing: its games are lost
            got.merge(fut.result())
    for w in workers:
        if w.is_alive():
            _kill(w.pid, signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    got.interrupted = True
    return got


def _kill(pid: Optional[int], sig: int) -> None:
    try:
        if pid:
            os.kill(pid, sig)
    except OSError:  # gone already
        pass


def widest(tally: Tally) -> float:
    """The widest half-width among the rates of every run (what --precision narrows)."""
    w = 0.0
    for run in range(tally.runs):
        for f in tally.figures(run).values():
            if f.kind == "rate":
                w = max(w, f.half_width)
    return w


CLUSTER_MISSING = ("--cluster runs on Dask distributed, which is not installed: "
                   "pip install 'raiders[cluster]'")


def _play_on_cluster(setups: tuple[Setup, ...], chunks: list[range], total: Tally, jobs: int,
                     address: str, progress: Optional[Callable[[int], None]],
                     chunk_fn: Callable[..., Tally]) -> Tally:
    """Chunks of seeds, each a task on a Dask cluster. Tallies are integer sums, so the
    result is the same bytes whatever the cluster and its workers. The workers need raiders
    installed and the card folders at the same paths.

    Ctrl-C: the tasks not started are cancelled and the client closed at once; a cluster
    started here (`auto`) is closed with its workers, which never heard the terminal's
    SIGINT (they start with it ignored, so that they stop when told, not half-way)."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise SimulationError(CLUSTER_MISSING) from None
    import logging
    import signal

    from raiders.dsl.diagnostics import Problems

    setups = tuple(s.anywhere() for s in setups)  # a worker's folder is not ours
    local = client = None
    futures: list = []
    with _stopping_here():  # Ctrl-C from here on stops the run (noted, then acted on)
        try:
            if address == "auto":
                # The workers start with SIGINT ignored (they inherit that), so the
                # terminal's Ctrl-C reaches this process alone, which stops them itself; here
                # it is held back meanwhile (Linux keeps a blocked signal pending even while
                # ignored) and handed to our handler once it is back.
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                ours = signal.signal(signal.SIGINT, signal.SIG_IGN)
                try:
                    local = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                         processes=True, dashboard_address=None,
                                         silence_logs=logging.ERROR)  # a stop is no warning
                finally:
                    signal.signal(signal.SIGINT, ours)
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                client = Client(local)
            else:
                client = Client(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as err:
            if local is not None:
                local.close()
            raise SimulationError(f"cannot reach the cluster at {address}: {err}") from None
        try:
            if not _STOP:
                futures = client.map(chunk_fn, [setups] * len(chunks), chunks, pure=False)
            try:
                for part in _results(iter(as_completed(futures))):
                    total.merge(part)  # integer sums: the order of merging does not matter
                    if progress:
                        progress(part.games)
            except Problems as err:  # checked clean here: the worker's files are not ours
                raise SimulationError(
                    f"a worker of the cluster cannot load the cards ({len(err.diagnostics)} "
                    "problem(s)): the workers need raiders and the card folders at the same "
                    "(absolute) paths as this machine") from None
            total.interrupted = _STOP
        finally:
            if total.interrupted:
                _stop_cluster(client, futures, local)
            else:
                client.close()
                if local is not None:
                    local.close()
    return total


def _stop_cluster(client, futures: list, local) -> None:
    """After Ctrl-C: the tasks not started are cancelled; the workers of a cluster started
    here are killed at once (a running Dask task cannot be stopped otherwise), quietly. A
    remote cluster's running tasks end their chunk, their results unread."""
    import contextlib
    import logging
    import signal

    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # no noise about the kill
    if local is None:  # a remote cluster: what has not started never will
        with contextlib.suppress(Exception):
            client.cancel(futures)
    if local is not None:  # its workers are killed first: a nanny then has nothing to stop
        for nanny in list(local.workers.values()):
            _kill(getattr(nanny, "pid", None), signal.SIGKILL)
    with contextlib.suppress(Exception):
        client.close(timeout=_GRACE)
    if local is not None:
        with contextlib.suppress(Exception):
            local.close(timeout=_GRACE)


def most_games(games: int, precision: Optional[float], max_games: Optional[int]) -> int:
    """The most games a run may play: `games`, or with `precision` up to `max_games`
    (default 100 × `games`)."""
    if precision is None:
        return games
    return max_games if max_games is not None else 100 * games


def simulate(setups: tuple[Setup, ...], games: int, seed: int = 1, jobs: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None,
             precision: Optional[float] = None, max_games: Optional[int] = None,
             cluster: Optional[str] = None,
             chunk_fn: Optional[Callable[..., Tally]] = None) -> Tally:
    """Play `games` games (seeds seed, seed+1, …) under each setup; with `precision`, go on
    in batches until every rate's 95% interval is at most ±precision wide or `max_games`
    games are played. The batches depend only on the figures, so the run is deterministic."""
    jobs = jobs or os.cpu_count() or 1
    for s in setups:
        s.rules()  # fail early, in this process
    total = play_games(setups, games, seed, jobs, progress, cluster, chunk_fn)
    if precision is None or total.interrupted:
        return total
    cap = most_games(games, precision, max_games)
    while total.games < cap and not total.interrupted:
        w = widest(total)
        if w <= precision:
            break
        # The half-width shrinks as 1/√n: aim for the games that should do, at most 4× more.
        need = math.ceil(total.games * (w / precision) ** 2 * 1.1) if math.isfinite(w) else 0
        batch = min(max(need - total.games, games), 3 * total.games, cap - total.games)
        total.merge(play_games(setups, batch, seed + total.games, jobs, progress, cluster,
                               chunk_fn))
    return total


# ---- text --------------------------------------------------------------------------------

def _cell(f: Optional[Figure], pct: bool) -> str:
    """A figure and its interval; the interval padded to one width, so that the values of a
    right-aligned column stand one under the other whatever their intervals' digits."""
    if f is None or f.value is None:
        return "-"
    if pct:
        return f"{f.value:6.1%} {f'[{f.low:.1%}, {f.high:.1%}]':<16}"
    if f.low is None:
        return "-"
    return f"{f.value:+6.2f} {f'[{f.low:+.2f}, {f.high:+.2f}]':<14}"


def _diff_cell(d: Optional[Difference], pct: bool) -> str:
    if d is None or d.value is None or d.low is None or d.high is None:
        return "-"
    mark = " *" if d.resolved else ""
    if pct:
        return f"{d.value * 100:+.1f} pts [{d.low * 100:+.1f}, {d.high * 100:+.1f}]{mark}"
    return f"{d.value:+.2f} [{d.low:+.2f}, {d.high:+.2f}]{mark}"


SECTIONS = (
    (("win.seat.",), "Wins by seat:"),
    (("win.character.",), "Wins by character (per game played):"),
    (("win.bot.",), "Wins by bot (per seat played):"),
    (("no_winner", "out."), "Games with no winner; players out, by cause (per player):"),
    (("coins", "wounds"), "Per player, at the end:"),
    (("card.",), "Room cards (per player, each time resolved):"),
)


def _in(key: str, prefixes: tuple[str, ...]) -> Optional[str]:
    """The label of `key` in a section, or None when it belongs elsewhere."""
    for p in prefixes:
        if key == p:
            return key
        if p.endswith(".") and key.startswith(p):
            return key[len(p):]
    return None


def _nothing(figs: list[dict[str, Figure]], key: str) -> bool:
    """A figure that is exactly zero in every game of every run (a monster's coins)."""
    return all(f.get(key) is None or (f[key].value == 0 and f[key].high == f[key].low == 0)
               for f in figs)


def table(tally: Tally, labels: tuple[str, str] = ("base", "mod")) -> list[str]:
    """The summary as text lines: each figure with its 95% interval; with a paired tally,
    both columns and the difference, `*` where the interval excludes zero."""
    paired = tally.runs > 1
    figs = [tally.figures(r) for r in range(tally.runs)]
    diffs = tally.differences() if paired else {}
    keys = sorted(set().union(*figs))
    solo = tally.players == 1
    lines = [f"{tally.games} games, {tally.players} player{'s' if tally.players != 1 else ''}; "
             "95% intervals in brackets"
             + ("; * the difference's interval excludes zero (same seeds)" if paired else "")]
    if paired:
        lines.append(f"  {'':<34} {labels[0]:>24} {labels[1]:>24} {'difference':>28}")
    for prefixes, title in SECTIONS:
        mine = [(k, label) for k in keys if (label := _in(k, prefixes)) is not None
                and not _nothing(figs, k)]
        if not mine:
            continue
        if solo and prefixes == ("win.seat.",):
            title = "Survived (solo):"
        lines.append(title)
        for k, label in mine:
            pct = _kind(k)[0] == "rate"
            row = f"  {label:<34} {_cell(figs[0].get(k), pct):>24}"
            if paired:
                row += f" {_cell(figs[1].get(k), pct):>24} {_diff_cell(diffs.get(k), pct):>28}"
            lines.append(row.rstrip())
    return lines
