"""Parse+check throughput on a synthetic mod of many card files.

Prints files/second for raiders' parse+check, next to a baseline run in the same process:
CPython's own parser (`ast.parse`, written in C) on a Python rendering of the same cards.
Also times `raiders validate cards/` as a whole process.

    python benchmarks/validate.py [--files 10000]
"""
from __future__ import annotations

import argparse
import ast
import random
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=10_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "mod"
        folder.mkdir()
        files = make_mod(folder, args.files)
        seconds, problems = bench_raiders(folder)
        base = bench_baseline(files)
    print(f"synthetic mod: {args.files} card files, {problems} diagnostics")
    print(f"raiders parse+check : {seconds:6.2f} s  {args.files / seconds:9.0f} files/s")
    print(f"baseline ast.parse  : {base:6.2f} s  {args.files / base:9.0f} files/s "
          "(CPython's C parser)")
    print(f"ratio raiders/baseline speed: {base / seconds:.2f}x")
    print(f"`raiders validate cards/` whole process: {bench_process():.3f} s (best of 5)")


if __name__ == "__main__":
    main()
