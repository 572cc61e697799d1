"""Start-up: `raiders --help`, `raiders validate cards/` and a one-game `raiders simulate` as
whole processes (issue 11).

Each is timed as a fresh process, best of N, next to a baseline in the same run: the bare
Python interpreter starting and importing click (what any click command costs). Printed: wall
seconds, CPU seconds (user + system, steadier on a busy machine), the ratio to the baseline,
and whether `--help` imported the card language's parser (it must not). The grammar's tables
and the checked cards of a game come from the user's cache after the first run
(formats/grammarcache.py, formats/libcache.py); `--cold` empties a private cache folder before every
run, to show the cost without them.

    python benchmarks/startup.py [--runs 7] [--cold]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAIDERS = [sys.executable, "-c", "import sys; from raiders.interpreter.cli import main; "
           "sys.argv[0] = 'raiders'; main()"]

SIMULATE_ONE = ["simulate", "--ruleset", "deluxe", "--players", "4", "--bots", "random",
                "--games", "1", "--jobs", "1"]


def timed(cmd: list[str], env: dict[str, str], runs: int, cold: Path | None) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds) of running cmd as a fresh process."""
    walls, cpus = [], []
    for _ in range(runs):
        if cold is not None:
            for f in cold.glob("*"):
                f.unlink()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def imports_of_help(env: dict[str, str]) -> list[str]:
    code = ("import sys\nfrom raiders.interpreter.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(' '.join(m for m in ('lark', 'raiders.dsl.ast', 'raiders.dsl.parser', "
            "'raiders.interpreter.game.engine', 'yaml', 'ruamel.yaml') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()
    return out[-1].split() if out and not out[-1].startswith(" ") else []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--cold", action="store_true",
                    help="no grammar cache: a private cache folder emptied before each run")
    args = ap.parse_args()
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        cold = None
        if args.cold:
            cold = Path(tmp)
            env["RAIDERS_CACHE_DIR"] = str(cold)
        base = timed([sys.executable, "-c", "import click"], env, args.runs, None)
        rows = [("python -c 'import click' (baseline)", base),
                ("raiders --help", timed([*RAIDERS, "--help"], env, args.runs, cold)),
                ("raiders validate cards/", timed([*RAIDERS, "validate", "cards"], env,
                                                  args.runs, cold)),
                ("raiders simulate --games 1", timed([*RAIDERS, *SIMULATE_ONE], env,
                                                     args.runs, cold))]
    print(f"best of {args.runs}, {'no cache' if args.cold else 'caches warm'}; "
          f"{os.cpu_count()} core(s), load {os.getloadavg()[0]:.1f}")
    for name, (wall, cpu) in rows:
        print(f"  {name:38s}: {wall:6.3f} s wall ({wall / base[0]:4.1f}x)  "
              f"{cpu:6.3f} s CPU ({cpu / base[1]:4.1f}x)")
    print("  goal: `raiders validate cards/` within 0.25 s wall on an idle machine")
    heavy = imports_of_help(env)
    none = "none of lark, the AST, the engine, yaml, ruamel"
    print(f"  --help imported: {', '.join(heavy) if heavy else none}")


if __name__ == "__main__":
    main()
