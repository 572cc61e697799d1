"""Whole games per second: `raiders simulate` as a process against a hand-coded engine of the
whole game as a process (4-player deluxe, standard variant, random bots), and, from the same
command, benchmarks/engine.py's room-resolution ratio. Issue 11's three goals, as ratios:

    simulate --jobs 1 / hand-coded, games per second        goal >= 1.0x
    room resolution, interpreter / hand-written              goal >= 1.0x
    simulate --jobs 2 / simulate --jobs 1                    goal >= 1.8x

The baseline is what a programmer writes without a card language: one module that deals the
dungeon (the room deck shuffled, six removed, a random boss last; five of the floor layouts;
a random character each, with its items taken from the supply), plays every room with random
legal cards (power cards 1..5 per floor, items where the room allows them, second-card items
chained after the reveal, peek items before a room), resolves each room with
benchmarks/engine.py's `hand_resolve` (the cards' numbers read once from the card files by
`extract`), refills hands at each floor, scores the end (D-9), and keeps the same statistics
`raiders simulate` reports: integer sums (x, y, x², xy, y²) per figure for wins by seat, by
character and by bot, games with no winner, players out by cause, coins and wounds, each room
card's coins and wounds, and the rooms resolved; the intervals are computed and printed at the
end. It deals its own games (same rules, not the same shuffles as raiders), so only the
throughput compares. Card ids come from the card files, never from this source.

Each side runs as a whole process (start-up, card loading, games, figures, output), one after
the other, never concurrently, each started once other programs leave the cores idle (at most
`--patience` seconds of waiting); the best of `--repeat` runs of each is kept (a busy machine
slows single runs). `--jobs 2` can only approach 2x on an otherwise idle 2-core machine, and
never passes (start-up + games) / (start-up + games / 2): the fixed cost is printed too. The
processes run with their bytecode cached (as after `pip install`), in a folder of their own,
even where PYTHONDONTWRITEBYTECODE is set.

    python benchmarks/simulate.py [--games 3000] [--repeat 3]
    python benchmarks/simulate.py --hand-coded [--games N] [--seed S]   # the baseline alone
    python benchmarks/simulate.py --instructions [--games 200]          # counted, not timed

`--instructions` counts the machine instructions each side executes per game instead of
timing it (valgrind's callgrind, which must be installed): two runs of each side, with few
and with `--games` games, and the difference, so start-up drops out. The count is the same
whatever else the machine is doing, so it shows a change of a few percent that a busy or
shared machine's timings hide; it is not a time (memory stalls and branch misses do not
count), so the timed ratios above stay the goals' figures.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent


def _room_bench() -> ModuleType:
    """benchmarks/engine.py (not a package): its `extract`, `hand_resolve` and room replay."""
    name = "raiders_bench_engine"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("engine.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# ---- the hand-coded engine ----------------------------------------------------------------


class Hero:
    """A player: what hand_resolve reads and changes, plus who they are."""

    __slots__ = ("seat", "name", "character", "coins", "wounds", "hand", "items", "out")

    def __init__(self, seat: int, name: str, character: str, coins: int, wounds: int,
                 items: list[str]):
        self.seat = seat
        self.name = name
        self.character = character
        self.coins = coins
        self.wounds = wounds
        self.hand: list[int] = []
        self.items = items
        self.out: Optional[str] = None


class Cards:
    """Everything the hand-coded engine needs from the card files, read once."""

    def __init__(self, rules) -> None:
        from raiders.dsl import ast

        bench = _room_bench()
        rs = rules.ruleset
        lib = rules.library
        self.data: dict[str, tuple] = bench.extract(rules)
        self.deck = [cid for cid, n in rules.deck.items() for _ in range(n)]
        self.remove: int = rs.remove
        self.bosses = list(rules.bosses)
        self.layouts = [rules.floors[f].layout for f in rs.floors]
        self.floors: int = rs.floors_used
        self.per_floor: int = rs.rooms_per_floor
        self.ties_fall_from: int = rs.ties_fall_from
        self.pool = list(rules.pool)
        self.characters = {cid: (c.coins, c.wounds, sorted(c.items))
                           for cid, c in rules.characters.items()}
        self.supply = dict(rules.supply)
        ability = {i: c.ability for i, c in rules.items.items()}
        self.peek = frozenset(i for i, a in ability.items() if a == "peek")
        chained = frozenset(i for i, a in ability.items() if a == "second_card")
        # Per room: the items that may be put down, and those among them that call for a
        # second card (a room that names an item as playable or as an escape takes it as is).
        self.allowed: dict[str, frozenset[str]] = {}
        self.second: dict[str, frozenset[str]] = {}
        for cid in self.data:
            card = lib.cards[cid]
            members = [m for k in lib.kinds[card.kind].chain for m in k.members]
            taken = {m.card.item for m in [*members, *card.members]
                     if isinstance(m, (ast.Playable, ast.Escape)) and m.card.item}
            self.allowed[cid] = frozenset(taken | chained)
            self.second[cid] = chained - taken


class Outcome:
    """One game: the heroes at the end, the winners' names, each room's card with the coins
    and wounds it changed (summed over the table), and the item supply at the end."""

    __slots__ = ("heroes", "winners", "rooms", "supply")

    def __init__(self, heroes: list[Hero], winners: list[str],
                 rooms: list[tuple[str, int, int]], supply: dict[str, int]):
        self.heroes = heroes
        self.winners = winners
        self.rooms = rooms
        self.supply = supply


def play_game(cards: Cards, seed: int, n_players: int = 4) -> Outcome:
    """One whole game with random bots, every choice from one generator seeded with `seed`."""
    resolve = _room_bench().hand_resolve
    rng = random.Random(seed)
    randrange, chance = rng.randrange, rng.random
    # The deal (D-2): shuffled rooms, some removed unseen, the boss last; floor layouts.
    deck = list(cards.deck)
    rng.shuffle(deck)
    n_rooms = cards.floors * cards.per_floor
    dungeon = deck[cards.remove:cards.remove + n_rooms - 1] + [rng.choice(cards.bosses)]
    layouts = list(cards.layouts)
    rng.shuffle(layouts)
    supply = dict(cards.supply)
    heroes = []
    for seat, cid in enumerate(rng.sample(cards.pool, n_players)):
        coins, wounds, items = cards.characters[cid]
        for item in items:
            supply[item] -= 1
        heroes.append(Hero(seat, f"P{seat + 1}", cid, coins, wounds, list(items)))
    data, allowed_in, second_in, peek = cards.data, cards.allowed, cards.second, cards.peek
    rooms: list[tuple[str, int, int]] = []
    for f in range(cards.floors):
        layout = layouts[f]
        for p in heroes:
            p.hand = [1, 2, 3, 4, 5]
        peeked = [False] * n_players
        for r in range(cards.per_floor):
            cid = dungeon[f * cards.per_floor + r]
            # Before the room: a hero holding a peek item uses it now and then while a
            # face-down room lies ahead that they have not seen.
            if "D" in layout[r:]:
                for p in heroes:
                    if peeked[p.seat] or not p.items:
                        continue
                    item = next((i for i in p.items if i in peek), None)
                    if item is not None and chance() < 0.25:
                        p.items.remove(item)
                        supply[item] += 1
                        peeked[p.seat] = True
            allowed, second = allowed_in[cid], second_in[cid]
            played: list = [None] * n_players
            pending = []
            for p in heroes:
                legal = p.hand + [i for i in dict.fromkeys(p.items) if i in allowed]
                card = legal[randrange(len(legal))]
                if card in second:  # back to the supply at once; a card follows the reveal
                    p.items.remove(card)
                    supply[card] += 1
                    pending.append(p)
                played[p.seat] = card
            while pending:
                again = []
                for p in pending:
                    legal = p.hand + [i for i in dict.fromkeys(p.items) if i in allowed]
                    card = legal[randrange(len(legal))]
                    if card in second:
                        p.items.remove(card)
                        supply[card] += 1
                        again.append(p)
                    played[p.seat] = card
                pending = again
            coins = sum(p.coins for p in heroes)
            wounds = sum(p.wounds for p in heroes)
            resolve(data[cid], heroes, played, supply)
            for p in heroes:  # a gained item joins the hand sorted, as at the table
                if len(p.items) > 1:
                    p.items.sort()
            rooms.append((cid, sum(p.coins for p in heroes) - coins,
                          sum(p.wounds for p in heroes) - wounds))
    # D-9: the most wounded of those still in fall unconscious; most coins, then fewest
    # wounds, win.
    contenders = [p for p in heroes if p.out is None]
    levels = {p.wounds for p in contenders}
    if len(levels) > 1:
        top = max(levels)
        fallen = [p for p in contenders if p.wounds == top]
        if len(fallen) == 1 or n_players >= cards.ties_fall_from:
            for p in fallen:
                p.out = "unconscious"
    remaining = [p for p in contenders if p.out is None]
    winners: list[str] = []
    if remaining:
        best = max((p.coins, -p.wounds) for p in remaining)
        winners = [p.name for p in remaining if (p.coins, -p.wounds) == best]
    return Outcome(heroes, winners, rooms, supply)


SHARE = 60  # a shared win in sixtieths, as raiders counts it: exact for up to 5 sharers


class Totals:
    """The statistics `raiders simulate` reports, as integer sums over games: per figure
    Σx, Σy, Σx², Σxy, Σy², enough for its value and its 95% interval."""

    def __init__(self, players: int, bot: str = "random") -> None:
        self.players = players
        self.bot = bot
        self.games = 0
        self.rooms = 0
        self.resolved: Counter = Counter()
        self.sums: dict[str, list[int]] = {}

    def _add(self, key: str, x: int, y: int) -> None:
        s = self.sums.get(key)
        if s is None:
            s = self.sums[key] = [0, 0, 0, 0, 0]
        s[0] += x
        s[1] += y
        s[2] += x * x
        s[3] += x * y
        s[4] += y * y

    def add(self, game: Outcome) -> None:
        self.games += 1
        n = len(game.heroes)
        winners = game.winners
        share = SHARE // len(winners) if winners else 0
        self._add("no_winner", 0 if winners else 1, 1)
        per_card: dict[str, list[int]] = {}
        for cid, coins, wounds in game.rooms:
            t = per_card.get(cid)
            if t is None:
                per_card[cid] = [coins, wounds, n]
            else:
                t[0] += coins
                t[1] += wounds
                t[2] += n
        self.rooms += len(game.rooms)
        for cid, (coins, wounds, y) in per_card.items():
            self.resolved[cid] += y // n
            self._add(f"card.{cid}.coins", coins, y)
            self._add(f"card.{cid}.wounds", wounds, y)
        won_by_bot = coins = wounds = 0
        out: Counter = Counter()
        for p in game.heroes:
            won = share if p.name in winners else 0
            self._add(f"win.seat.{p.name}", won, 1)
            self._add(f"win.character.{p.character}", won, 1)
            won_by_bot += won
            coins += p.coins
            wounds += p.wounds
            if p.out:
                out[p.out] += 1
        self._add(f"win.bot.{self.bot}", won_by_bot, n)
        self._add("coins", coins, n)
        self._add("wounds", wounds, n)
        for reason, k in out.items():
            self._add(f"out.{reason}", k, n)

    def lines(self) -> list[str]:
        """Every figure with its 95% interval (raiders' own formulas), one line each."""
        from raiders.interpreter.tools.stats import Sums, figure

        g, n = self.games, self.players
        out = [f"{g} games, {n} players, {self.rooms} rooms; 95% intervals in brackets"]
        for key in sorted(self.sums):
            sx, sy, sxx, sxy, syy = self.sums[key]
            if key.startswith("out."):  # the whole table was at risk in every game
                sy, sxy, syy = n * g, n * sx, n * n * g
            rate = key.startswith(("win.", "out.")) or key == "no_winner"
            f = figure(key, "rate" if rate else "mean", Sums(2, g, [sx, sy], [sxx, sxy, syy]),
                       SHARE if key.startswith("win.") else 1)
            if f.value is None:
                continue
            if rate:
                out.append(f"  {key:<34} {f.value:6.1%} [{f.low:.1%}, {f.high:.1%}]")
            else:
                out.append(f"  {key:<34} {f.value:+6.2f} [{f.low:+.2f}, {f.high:+.2f}]")
        out.append("  resolved: " + ", ".join(f"{k} {v}" for k, v in sorted(self.resolved.items())))
        return out


def hand_coded(games: int, seed: int = 1, players: int = 4) -> Totals:
    """The baseline's whole run: the cards read once, then seeds seed..seed+games-1."""
    from raiders.interpreter.runtime.rules import load_rules

    cards = Cards(load_rules("deluxe"))
    totals = Totals(players)
    for s in range(seed, seed + games):
        totals.add(play_game(cards, s, players))
    return totals


# ---- timing ---------------------------------------------------------------------------------


def bytecode_env() -> dict[str, str]:
    """The environment for the timed processes: bytecode cached, as after `pip install`
    (which compiles every module), in a folder of its own rather than the working tree,
    even where PYTHONDONTWRITEBYTECODE is set (recompiling every module costs each process
    about 0.1 s, for both sides alike)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "raiders-bench-pycache")
    return env


def _busy(interval: float = 0.25) -> float:
    """The share of every core's time spent working over `interval` (Linux; else 0)."""
    def snapshot() -> tuple[int, int]:
        with open("/proc/stat", encoding="ascii") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
        return sum(ticks), ticks[3] + ticks[4]  # idle + iowait

    try:
        total0, idle0 = snapshot()
        time.sleep(interval)
        total1, idle1 = snapshot()
    except (OSError, ValueError, IndexError):
        return 0.0
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def wait_for_quiet(patience: float) -> bool:
    """Wait (at most `patience` seconds) until other programs leave the cores idle: on a
    shared 2-core machine one busy core halves what --jobs 2 can show. False: still busy."""
    end = time.monotonic() + patience
    while time.monotonic() < end:
        if _busy() < 0.1:
            return True
    return False


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def room_ratio(games: int, repeat: int) -> tuple[float, float, int, int]:
    """benchmarks/engine.py's comparison: the same recorded rooms resolved by the interpreter
    and by the hand-written functions, best of `repeat` each. Returns (interpreter rooms/s,
    hand-written rooms/s, games whose final states agree, games)."""
    from raiders.interpreter.runtime.rules import load_rules

    bench = _room_bench()
    rules = load_rules("deluxe")
    results = bench.record_games(rules, games)
    data = bench.extract(rules)
    peek = {i for i, c in rules.items.items() if c.ability == "peek"}
    interpreted = bench.interpreter_resolver(rules)

    def hand_written(card: str, players: list, cards: list, supply: dict[str, int]) -> None:
        bench.hand_resolve(data[card], players, cards, supply)

    best_i = best_b = float("inf")
    ends_i = ends_b = []
    for _ in range(max(1, repeat)):
        ti, ends_i = bench.replay_recorded(rules, results, interpreted, peek)
        tb, ends_b = bench.replay_recorded(rules, results, hand_written, peek)
        best_i, best_b = min(best_i, ti), min(best_b, tb)
    same = sum(a == b for a, b in zip(ends_i, ends_b, strict=True))
    rooms = sum(len(r.rooms) for r in results)
    return rooms / best_i, rooms / best_b, same, games


def games_ratio(games: int, repeat: int) -> tuple[float, float]:
    """Seconds for the games alone (start-up and card loading done, in this process) with
    --jobs 1 and --jobs 2: what the second core gives the simulation itself."""
    from raiders.interpreter.tools.simulate import Setup, simulate

    setup = Setup("deluxe", None, 4, ("random",) * 4, ())
    setup.rules()
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(max(1, repeat)):
        for jobs in (1, 2):
            t = time.perf_counter()
            simulate((setup,), games, jobs=jobs)
            best[jobs] = min(best[jobs], time.perf_counter() - t)
    return best[1], best[2]


def instructions(cmd: list[str], env: dict[str, str]) -> int:
    """Machine instructions one process executes (callgrind's count of the whole run)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *cmd],
            cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True).stderr
    counts = [line.rsplit(":", 1)[1] for line in out.splitlines() if "Collected :" in line]
    if not counts:
        raise SystemExit(f"valgrind printed no count for {' '.join(cmd)}:\n{out}")
    return int(counts[-1].replace(",", ""))


def interpreter_for_valgrind() -> str:
    """The path valgrind runs: this process's own `sys.executable`. A venv's interpreter is a
    link valgrind follows, and Python finds its venv (pyvenv.cfg) from the path it was started
    by; the link's target is the base interpreter, which has no raiders. Only a launcher script
    in front of an interpreter (a `#!` file, as pyenv's shims are) is refused."""
    python = sys.executable
    with open(python, "rb") as exe:
        if exe.read(2) == b"#!":
            raise SystemExit(f"{python} is a launcher script, not an interpreter: run this "
                             "benchmark with the interpreter itself (e.g. a venv's bin/python)")
    return python


def count_instructions(games: int, seed: int) -> None:
    """Issue 11's first ratio in instructions per game: the runs with `few` games are
    subtracted from those with `games`, so start-up and card loading drop out."""
    import shutil

    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    python = interpreter_for_valgrind()
    env = bytecode_env()
    env["PYTHONHASHSEED"] = "0"  # str hashes decide dict probing: fixed, so counts repeat
    few = max(1, games // 10)
    sides = {"hand-coded engine (baseline)": [python, str(Path(__file__).resolve()),
                                              "--hand-coded", "--seed", str(seed)],
             "raiders simulate --jobs 1": [python, "-m", "raiders", "simulate", "--ruleset",
                                           "deluxe", "--players", "4", "--bots", "random",
                                           "--seed", str(seed), "--jobs", "1"]}
    for cmd in sides.values():
        subprocess.run([*cmd, "--games", "1"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fills the bytecode cache; not counted
    per_game = {}
    for label, cmd in sides.items():
        n_few = instructions([*cmd, "--games", str(few)], env)
        n_many = instructions([*cmd, "--games", str(games)], env)
        per_game[label] = (n_many - n_few) / (games - few)
    print(f"4-player deluxe, random bots, instructions per game ({games} games less {few}, "
          "so start-up drops out; valgrind callgrind):")
    for label, n in per_game.items():
        print(f"  {label:<36}: {n / 1e6:7.3f} million")
    hand, ours = per_game.values()
    print(f"  {'simulate --jobs 1 / hand-coded':<36}: {hand / ours:.3f}x in games per "
          "instruction (the timed goal: >= 1.0x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each side, one after the other; the best of each is kept")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--patience", type=float, default=20.0,
                    help="seconds to wait, before each run, for other programs to leave the "
                         "cores idle (0: do not wait)")
    ap.add_argument("--hand-coded", action="store_true",
                    help="run only the hand-coded baseline and print its figures")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions per game with valgrind instead of timing "
                         "(the same figure on a busy machine; --games 200 is plenty)")
    args = ap.parse_args()
    if args.instructions:
        count_instructions(max(2, args.games), args.seed)
        return
    if args.hand_coded:
        print("\n".join(hand_coded(args.games, args.seed).lines()))
        return
    n = args.games
    env = bytecode_env()
    base = [sys.executable, str(Path(__file__).resolve()), "--hand-coded"]
    sim = [sys.executable, "-m", "raiders", "simulate", "--ruleset", "deluxe", "--players", "4",
           "--bots", "random"]
    sides = {"hand": [*base, "--games", str(n)],
             "jobs1": [*sim, "--games", str(n), "--jobs", "1"],
             "jobs2": [*sim, "--games", str(n), "--jobs", "2"],
             # the fixed cost of each side: start-up, card loading, one game, the figures
             "hand0": [*base, "--games", "1"],
             "jobs1_0": [*sim, "--games", "1", "--jobs", "1"]}
    for cmd in (sides["hand0"], sides["jobs1_0"]):
        timed(cmd, env)  # fills the bytecode cache; not counted
    best = {k: (float("inf"), float("inf")) for k in sides}
    busy = 0
    for _ in range(max(1, args.repeat)):
        for k, cmd in sides.items():  # interleaved, so a slow spell hits every side alike
            busy += args.patience > 0 and not wait_for_quiet(args.patience)
            wall, cpu = timed(cmd, env)
            best[k] = (min(best[k][0], wall), min(best[k][1], cpu))
    rate = {k: n / best[k][0] for k in ("hand", "jobs1", "jobs2")}
    print(f"4-player deluxe, random bots, {n} games, whole processes, best of {args.repeat}"
          + (f" ({busy} run(s) started while other programs kept the cores busy)" if busy
             else "") + ":")
    labels = {"hand": "hand-coded engine (baseline)", "jobs1": "raiders simulate --jobs 1",
              "jobs2": "raiders simulate --jobs 2"}
    for k, label in labels.items():
        wall, cpu = best[k]
        print(f"  {label:<36}: {rate[k]:6.0f} games/s ({wall:.2f} s wall, {cpu:.2f} s CPU)")
    for k, label in (("hand0", "hand-coded"), ("jobs1_0", "simulate --jobs 1")):
        wall, cpu = best[k]
        print(f"  {label + ', 1 game':<36}: {wall:.2f} s wall, {cpu:.2f} s CPU "
              "(the fixed cost: start-up, cards, output)")
    ri, rb, same, g = room_ratio(min(n, 2000), max(args.repeat, 3))
    print(f"  {'room resolution, interpreter':<36}: {ri:6.0f} rooms/s")
    print(f"  {'room resolution, hand-written':<36}: {rb:6.0f} rooms/s "
          f"(same final state in {same}/{g} games)")
    print("goals:")
    print(f"  {'simulate --jobs 1 / hand-coded':<36}: {rate['jobs1'] / rate['hand']:.2f}x "
          "(goal >= 1.0x)")
    print(f"  {'room resolution, interpreter / hand':<36}: {ri / rb:.2f}x (goal >= 1.0x)")
    # What two processes could give at best: the fixed cost (start-up, cards) runs once,
    # in one process, before the games are shared.
    one, fixed = best["jobs1"][0], best["jobs1_0"][0]
    bound = one / (fixed + max(0.0, one - fixed) / 2)
    print(f"  {'simulate --jobs 2 / --jobs 1':<36}: {rate['jobs2'] / rate['jobs1']:.2f}x "
          f"(goal >= 1.8x; at most {bound:.2f}x with this fixed cost and perfect sharing)")
    one_job, two_jobs = games_ratio(n, args.repeat)
    print(f"  {'  the games alone (after start-up)':<36}: {one_job / two_jobs:.2f}x "
          f"({one_job:.2f} s with one process, {two_jobs:.2f} s with two)")


if __name__ == "__main__":
    main()
