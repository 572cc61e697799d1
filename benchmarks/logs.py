"""Log reading: `raiders replay --check` of many 4-player deluxe logs, against a hand-coded
engine that plays and writes as many games, in the same run (issue 11).

The baseline is what a programmer writes without a card language: the rooms' numbers read
once from the card files (benchmarks/engine.py's `extract` and `hand_resolve`), random
players, and the log written with f-strings in raiders-log/1's layout. Its time to play and
write N games is the unit; `raiders replay --check` of N logs the interpreter wrote (a whole
process, on every core, then on one) is printed as a multiple of it. The goal is 8x or less.

Also printed: the time to read one log with each YAML reader at hand (the positioned reader,
ruamel in pure Python; raiders' fast paths, the logs' own layout and libyaml's events;
PyYAML's CSafeLoader, YAML 1.1, for scale; ruamel's own C loader when ruamel.yaml.clib is
installed), and the whole-process
`replay --check` with the fast path turned off (RAIDERS_PURE_YAML=1), on a sample.

    python benchmarks/logs.py [--games 1000] [--pure-sample 100]
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import extract, hand_resolve  # noqa: E402  (the hand-written room resolution)

from raiders.interpreter.game.engine import Game  # noqa: E402
from raiders.interpreter.game.players import RandomBot  # noqa: E402
from raiders.interpreter.records.logs import LogMeta, render_log, write_atomic  # noqa: E402
from raiders.interpreter.runtime.rules import Rules, load_rules  # noqa: E402
from raiders.interpreter.runtime.state import Player  # noqa: E402

NAMES = ["P1", "P2", "P3", "P4"]


# ---- the hand-coded engine: plays 4-player deluxe games and writes their logs ---------------


def hand_coded_games(rules: Rules, n: int, folder: Path) -> tuple[float, float]:
    """(wall, CPU) seconds to play n games and write each one's log (plain writes, as a
    script would)."""
    data = extract(rules)
    playable = {cid: set(room.playable) | set(room.escapes) for cid, room in rules.rooms.items()}
    deck = [cid for cid, copies in rules.deck.items() for _ in range(copies)]
    bosses = list(rules.bosses)
    chars = {cid: (c.coins, c.wounds, list(c.items)) for cid, c in rules.characters.items()}
    cap = rules.ruleset.coin_cap or 10**9
    t, cpu = time.perf_counter(), time.process_time()
    for seed in range(n):
        rng = random.Random(seed)
        rooms = rng.sample(deck, 24) + [rng.choice(bosses)]
        facing = "".join(rng.choice("UD") for _ in range(25))
        supply = dict(rules.ruleset.items)
        players = []
        for seat, cid in enumerate(rng.sample(sorted(chars), 4)):
            coins, wounds, items = chars[cid]
            for item in items:
                supply[item] -= 1
            players.append(Player(seat, NAMES[seat], cid, coins, wounds, items=sorted(items)))
        out = ["format: raiders-log/1", "ruleset: deluxe", "variant: standard", f"seed: {seed}",
               "players:"]
        out += [f"  - {{name: {p.name}, character: {p.character}}}" for p in players]
        out.append("dungeon:")
        for f in range(5):
            out.append(f"  - {{rooms: [{', '.join(rooms[f * 5:f * 5 + 5])}], "
                       f"facing: {facing[f * 5:f * 5 + 5]}}}")
        out.append("rooms:")
        for k, card in enumerate(rooms):
            if k % 5 == 0:
                for p in players:
                    p.hand = [1, 2, 3, 4, 5]
            d = data[card]
            cards = []
            for p in players:
                legal: list = list(p.hand)
                if d[0] in ("treasure", "monster"):  # items count as cards there (the text says)
                    legal += [i for i in p.items if i in playable[card]]
                cards.append(rng.choice(legal))
            hand_resolve(d, players, cards, supply)
            for p in players:
                p.coins = min(p.coins, cap)
            out.append("  - plays: {" + ", ".join(f"{p.name}: {c}" for p, c in
                                                   zip(players, cards, strict=True)) + "}")
            out.append("    after:")
            out += [f"      {p.name}: {{coins: {p.coins}, wounds: {p.wounds}, "
                    f"items: [{', '.join(sorted(p.items))}]}}" for p in players]
        worst = max(p.wounds for p in players)
        alive = [p for p in players if p.wounds < worst and p.out is None]
        best = max((p.coins for p in alive), default=None)
        winners = [p.name for p in alive if p.coins == best]
        out_names = [p.name for p in players if p not in alive]
        out.append(f"result: {{winners: [{', '.join(winners)}], out: [{', '.join(out_names)}]}}")
        with open(folder / f"game-{seed}.yaml", "w", encoding="utf-8") as fh:
            fh.write("\n".join(out) + "\n")
    return time.perf_counter() - t, time.process_time() - cpu


def interpreter_games(rules: Rules, n: int, folder: Path) -> float:
    """Seconds for the interpreter to play n games and write their logs (as `play --log-dir`)."""
    t = time.perf_counter()
    for seed in range(n):
        result = Game(rules, NAMES, [RandomBot() for _ in NAMES], seed=seed).run()
        write_atomic(folder / f"game-{seed}.yaml",
                     render_log(LogMeta("deluxe", "standard", seed), rules, result))
    return time.perf_counter() - t


# ---- replay --check, whole process -----------------------------------------------------------


def replay_check(folder: Path, *extra: str, env: dict | None = None) -> tuple[float, float]:
    """(wall, CPU of the process and its workers) seconds of `raiders replay --check -q`."""
    exe = [sys.executable, "-m", "raiders"]  # this interpreter's raiders, not one on PATH
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([*exe, "replay", "--check", "-q", *extra, str(folder)],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"replay --check failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# ---- one log, each YAML reader -------------------------------------------------------------


def per_log_ms(fn, texts: list[str]) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for text in texts:
            fn(text)
        best = min(best, time.perf_counter() - t)
    return best * 1000 / len(texts)


def readers(texts: list[str]) -> list[tuple[str, float]]:
    from raiders.formats import fastyaml, yamlsrc

    rows = []
    os.environ["RAIDERS_PURE_YAML"] = "1"
    try:
        rows.append(("positioned reader (ruamel, pure Python)",
                     per_log_ms(lambda s: yamlsrc.load_documents(s, "x"), texts[:30])))
    finally:
        del os.environ["RAIDERS_PURE_YAML"]
    rows.append(("raiders fast path (the logs' layout, positions)",
                 per_log_ms(lambda s: yamlsrc.load_documents(s, "x"), texts)))
    if fastyaml.available():
        parser_class, events = fastyaml._libyaml()
        rows.append(("raiders libyaml path (any YAML, positions)",
                     per_log_ms(lambda s: fastyaml._documents(parser_class(s), events), texts)))
    try:
        import yaml

        if yaml.__with_libyaml__:
            rows.append(("PyYAML CSafeLoader (YAML 1.1, no positions)",
                         per_log_ms(lambda s: yaml.load(s, Loader=yaml.CSafeLoader), texts)))
    except ImportError:
        pass
    try:
        import _ruamel_yaml  # noqa: F401  (ruamel.yaml.clib)
        from ruamel.yaml import YAML

        c_loader = YAML(typ="safe")
        rows.append(("ruamel C loader (ruamel.yaml.clib, no positions)",
                     per_log_ms(c_loader.load, texts)))
    except ImportError:
        rows.append(("ruamel C loader", float("nan")))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--pure-sample", type=int, default=100,
                    help="logs checked with the fast path off (it is slow; 0: skip)")
    args = ap.parse_args()
    n = args.games
    rules = load_rules("deluxe")
    with tempfile.TemporaryDirectory() as tmp:
        hand_dir, logs = Path(tmp) / "hand", Path(tmp) / "logs"
        hand_dir.mkdir()
        hand, hand_cpu = min(hand_coded_games(rules, n, hand_dir) for _ in range(3))
        made = interpreter_games(rules, n, logs)
        jobs_all, all_cpu = min(replay_check(logs) for _ in range(2))
        jobs_one, one_cpu = replay_check(logs, "--jobs", "1")
        texts = [p.read_text(encoding="utf-8") for p in sorted(logs.glob("*.yaml"))[:200]]
        pure = None
        if args.pure_sample:
            sample = Path(tmp) / "sample"
            sample.mkdir()
            for p in sorted(logs.glob("*.yaml"))[:args.pure_sample]:
                shutil.copy(p, sample / p.name)
            env = dict(os.environ, RAIDERS_PURE_YAML="1")
            pure = (replay_check(sample, env=env)[0] / args.pure_sample,
                    replay_check(sample)[0] / args.pure_sample)
    cores = os.cpu_count() or 1
    print(f"{n} 4-player deluxe games, random players; {cores} core(s), "
          f"load {os.getloadavg()[0]:.1f} (a busy machine slows the processes that share it)")
    print(f"hand-coded engine, play + write     : {hand:7.2f} s wall {hand_cpu:7.2f} s CPU"
          "  (the unit)")
    print(f"interpreter, play + write (1 core)  : {made:7.2f} s wall            "
          f"{made / hand:6.1f}x")
    print(f"replay --check, every core (process): {jobs_all:7.2f} s wall {all_cpu:7.2f} s CPU"
          f"  {jobs_all / hand:6.1f}x wall (goal: 8x or less), {all_cpu / hand_cpu:.1f}x CPU")
    print(f"replay --check --jobs 1 (process)   : {jobs_one:7.2f} s wall {one_cpu:7.2f} s CPU"
          f"  {jobs_one / hand:6.1f}x wall, {one_cpu / hand_cpu:.1f}x CPU")
    print(f"  on {cores} idle core(s) the wall ratio would be about "
          f"{all_cpu / hand_cpu / cores:.1f}x (CPU ratio / cores)")
    if pure is not None:
        print(f"replay --check of {args.pure_sample} logs, per log: fast path {pure[1] * 1000:.1f}"
              f" ms, RAIDERS_PURE_YAML=1 {pure[0] * 1000:.1f} ms "
              f"({pure[0] / pure[1]:.1f}x slower; start-up included)")
    rows = readers(texts)
    base = rows[0][1]
    print("reading one log (ms), best of 3:")
    for name, ms in rows:
        print(f"  {name:50s}: {ms:6.2f} ms  {base / ms if ms == ms else float('nan'):6.1f}x "
              "faster than the positioned reader")


if __name__ == "__main__":
    main()
