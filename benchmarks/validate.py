"""Parse+check throughput on a synthetic mod of many card files.

Prints files/second for raiders' parse+check, next to a baseline run in the same process:
CPython's own parser (`ast.parse`, written in C) on a Python rendering of the same cards.
Also times `raiders validate cards/` as a whole process.

With --cache-runs K, it also answers "does the parse cache ever hurt?" (issue 23): `raiders
validate` of the mod as a whole process K times over one fresh cache folder, each run right
after one with the cache off (RAIDERS_NO_CACHE=1) and given as a ratio of its wall and CPU time
(the process and its workers) against that one, with how many parses the folder then holds.

    python benchmarks/validate.py [--files 10000] [--cache-runs 0]
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Card templates live in a text file: cards are data, not Python.
TEMPLATES = (Path(__file__).parent / "synthetic_cards.txt").read_text(
    encoding="utf-8").split("\n---\n")


def make_mod(folder: Path, n: int) -> list[Path]:
    rng = random.Random(1)
    files = []
    for i in range(n):
        a = rng.randint(5, 12)
        text = TEMPLATES[i % len(TEMPLATES)].format(i=i, a=a, b=a + 4, c=a + 8,
                                                      w=rng.randint(1, 4), v=rng.randint(1, 3))
        f = folder / f"card{i:05d}.dsl"
        f.write_text(text, encoding="utf-8")
        files.append(f)
    return files


def python_rendering(text: str) -> str:
    """The same card as a Python dict literal of similar size: the baseline's input."""
    body = text.replace("{", "[").replace("}", "]").replace('"', "'")
    return "card = " + repr(body.split())


def bench_raiders(folder: Path) -> tuple[float, int]:
    from raiders.formats.validate import validate_paths

    t = time.perf_counter()
    report = validate_paths([str(folder)])
    return time.perf_counter() - t, len(report.diagnostics)


def bench_baseline(files: list[Path]) -> float:
    t = time.perf_counter()
    for f in files:
        ast.parse(python_rendering(f.read_text(encoding="utf-8")))
    return time.perf_counter() - t


def bench_process() -> float:
    exe = [sys.executable, "-m", "raiders"]  # this interpreter's raiders, not one on PATH
    times = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([*exe, "validate", str(ROOT / "cards")], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return min(times)


def validate_process(folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """`raiders validate folder` in a process of its own: (wall, CPU) seconds, workers included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "raiders", "validate", str(folder)], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_cache(folder: Path, runs: int, cache: Path) -> None:
    """Each run over the cache folder right after a run with the cache off, and measured
    against it: this machine's speed drifts by a fifth over minutes, more than the effect."""
    env = {k: v for k, v in os.environ.items() if k != "RAIDERS_NO_CACHE"}
    for run in range(1, runs + 1):
        off_wall, off_cpu = validate_process(folder, {**env, "RAIDERS_NO_CACHE": "1"})
        wall, cpu = validate_process(folder, {**env, "RAIDERS_CACHE_DIR": str(cache)})
        kept = len(list(cache.glob("ast-*.bin")))
        print(f"validate, run {run:2d}: {wall:6.2f} s wall {cpu:6.2f} s CPU; cache off "
              f"{off_wall:6.2f} s wall {off_cpu:6.2f} s CPU: {wall / off_wall:.2f}x / "
              f"{cpu / off_cpu:.2f}x   {kept} parses kept after it")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--cache-runs", type=int, default=0,
                    help="validate runs over one fresh cache folder, against one run without")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "mod"
        folder.mkdir()
        files = make_mod(folder, args.files)
        seconds, problems = bench_raiders(folder)
        base = bench_baseline(files)
        if args.cache_runs:
            bench_cache(folder, args.cache_runs, Path(tmp) / "cache")
    print(f"synthetic mod: {args.files} card files, {problems} diagnostics")
    print(f"raiders parse+check : {seconds:6.2f} s  {args.files / seconds:9.0f} files/s")
    print(f"baseline ast.parse  : {base:6.2f} s  {args.files / base:9.0f} files/s "
          "(CPython's C parser)")
    print(f"ratio raiders/baseline speed: {base / seconds:.2f}x")
    print(f"`raiders validate cards/` whole process: {bench_process():.3f} s (best of 5)")


if __name__ == "__main__":
    main()
