"""How fast the bots are (issue 22), as ratios against another version of raiders measured
in the same run: by default the code issue 22 started from (commit b6dc387), taken from git
into a temporary folder (`git archive`, the repository untouched) and imported from there.

    greedy: 4-player deluxe games per second, four greedy seats       goal >= 8x (>= 350/s)
    search: seconds per decision of one search:30 seat (three greedy)  goal >= 10x
    search: seconds per deluxe game of four search:30 seats            goal < 2 s

Each workload runs in a process of its own, one side after the other (the two sides
interleaved, `--repeat` times, the best of each kept), on the same seeds; the time is the
process's CPU time for the games alone (start-up and card loading excluded), which a machine
shared with other work disturbs less than the wall clock. Both sides must make the same
choices where their bots do: the first game's log digest of each workload is printed side by
side. The strength goal (one search seat wins >= 75% against three greedy seats over 300
games) is the slow tier's tests/game/test_search_strength.py, not a timing.

    python benchmarks/bots.py [--base REF] [--greedy-games 40] [--search-games 2]
                              [--four-search-games 1] [--repeat 2]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "b6dc387a61844422180ce947b2aa48c2531e182b"  # main when issue 22's work began
# the folders the installed package maps to `raiders.*` (pyproject's package-dir)
PACKAGES = ("dsl", "formats", "interpreter", "grammar", "cards")


def worker(spec: str, games: int, seed: int) -> dict:
    """One workload in this process: CPU seconds per game, and per search decision."""
    import hashlib

    from raiders.interpreter.game.botspec import make_bot
    from raiders.interpreter.game.engine import Game
    from raiders.interpreter.game.search_bot import SearchBot
    from raiders.interpreter.records.logs import LogMeta, render_log
    from raiders.interpreter.runtime.rules import load_rules

    rules = load_rules("deluxe")
    bots = spec.split(",")
    names = [f"P{i + 1}" for i in range(len(bots))]
    spent = [0.0, 0]
    search = SearchBot._search

    def timed_search(self, view, legal):
        t = time.process_time()
        try:
            return search(self, view, legal)
        finally:
            spent[0] += time.process_time() - t
            spent[1] += 1

    SearchBot._search = timed_search
    digest = ""
    t = time.process_time()
    for s in range(seed, seed + games):
        game = Game(rules, names, [make_bot(b) for b in bots], seed=s, trace=s == seed)
        result = game.run()
        if s == seed:
            t0 = time.process_time()
            text = render_log(LogMeta("deluxe", rules.variant.name, s, (), None), rules, result)
            digest = hashlib.sha256(text.encode()).hexdigest()[:12]
            t += time.process_time() - t0  # the log is not the bots' time
    total = time.process_time() - t
    return {"per_game": total / games, "decisions": spent[1],
            "per_decision": spent[0] / spent[1] if spent[1] else None, "digest": digest}


def base_tree(ref: str, into: Path) -> Path:
    """`ref` of this repository as an importable `raiders` package folder (PYTHONPATH)."""
    src = into / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    pkg = into / "pkg" / "raiders"
    pkg.mkdir(parents=True)
    for name in PACKAGES:
        (pkg / name).symlink_to(src / name)
    return into / "pkg"


def run_side(path: "Path | None", spec: str, games: int, seed: int) -> dict:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    else:
        env.pop("PYTHONPATH", None)
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", spec,
                          "--games", str(games), "--seed", str(seed)], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir()).stdout
    return json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BASE, help="the git commit or branch to compare with")
    ap.add_argument("--greedy-games", type=int, default=40)
    ap.add_argument("--search-games", type=int, default=2)
    ap.add_argument("--four-search-games", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--games", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.games, args.seed)))
        return
    loads = [("greedy", "greedy,greedy,greedy,greedy", args.greedy_games),
             ("search seat", "search:30,greedy,greedy,greedy", args.search_games),
             ("four search seats", "search:30,search:30,search:30,search:30",
              args.four_search_games)]
    with tempfile.TemporaryDirectory() as tmp:
        base = base_tree(args.base, Path(tmp))
        best: dict = {}
        for _ in range(max(1, args.repeat)):
            for label, spec, games in loads:
                if games <= 0:
                    continue
                for side, path in (("base", base), ("new", None)):
                    r = run_side(path, spec, games, args.seed)
                    kept = best.get((label, side))
                    if kept is None or r["per_game"] < kept["per_game"]:
                        best[label, side] = r
    print(f"4-player deluxe, CPU time of the games alone, best of {args.repeat}; "
          f"base {args.base[:12]} against this tree:")
    for label, _spec, games in loads:
        if games <= 0:
            continue
        b, n = best[label, "base"], best[label, "new"]
        same = "same first game" if b["digest"] == n["digest"] else "first games differ"
        if label == "greedy":
            print(f"  greedy x4 ({games} games)       : {1 / b['per_game']:7.1f} -> "
                  f"{1 / n['per_game']:7.1f} games/s = {b['per_game'] / n['per_game']:.2f}x "
                  f"(goal >= 8x, >= 350 games/s; {same})")
        elif label == "search seat":
            print(f"  search:30 seat ({games} games)   : {b['per_decision'] * 1e3:7.1f} -> "
                  f"{n['per_decision'] * 1e3:7.1f} ms per decision = "
                  f"{b['per_decision'] / n['per_decision']:.2f}x (goal >= 10x; "
                  f"{n['decisions']} decisions; {same})")
        else:
            print(f"  four search:30 seats ({games})   : {b['per_game']:7.2f} -> "
                  f"{n['per_game']:7.2f} s per game = {b['per_game'] / n['per_game']:.2f}x "
                  f"(goal < 2 s; {same})")


if __name__ == "__main__":
    main()
