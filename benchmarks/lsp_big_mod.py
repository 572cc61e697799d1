"""Edit-to-diagnostics of `raiders lsp` in a large mod (issue 24): generated mods of many card
files (benchmarks/validate.py's cards), one card opened and edited again and again, each
edit alone and waited for; the time from writing the didChange to reading the diagnostics of
that version, p50 and p95, and the server's CPU time per edit.

A real client over stdio (tests/lspclient.py, the tests' own). The same run times the server
of another commit (`--base`, main by default: `git archive` into a temporary folder, as
benchmarks/bots.py does), with fewer samples: it re-checks the whole mod at every edit.

    python benchmarks/lsp_big_mod.py [--sizes 500,10000] [--samples 60] [--base-samples 6] [--deal]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import base_tree  # noqa: E402  (after the path is set)
from lspclient import Client, uri  # noqa: E402
from validate import make_mod  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
CARD_ID = re.compile(r"^[a-z_]+ ([a-z0-9-]+) \{", re.M)  # a generated card's id


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def client_on(root: Path, pythonpath: "Path | None") -> Client:
    """A language server started on `root`, importing raiders from `pythonpath` when given
    (another version's tree: `bots.base_tree`), this process's environment left as it was."""
    old = os.environ.get("PYTHONPATH")
    if pythonpath is not None:
        os.environ["PYTHONPATH"] = str(pythonpath)
    try:
        return Client(root)
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def session(mod: Path, samples: int, pythonpath: "Path | None") -> dict:
    """Open a card of `mod`, then `samples` edits each waited for: times in ms."""
    card = mod / "card00000.dsl"  # a monster: an edit of its name keeps every id
    text = card.read_text(encoding="utf-8")
    client = client_on(mod, pythonpath)
    try:
        client.initialize(mod)
        t = time.perf_counter()
        client.open_quietly(card, text)
        client.published(uri(card), timeout=1800)  # a large mod's first check: seconds
        opened = time.perf_counter() - t
        waits, cpu = [], []
        for version in range(2, samples + 3):
            edited = text.replace('name "Bench 0"', f'name "Bench 0, take {version}"')
            c0, t0 = cpu_seconds(client.proc.pid), time.perf_counter()
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri(card), "version": version},
                "contentChanges": [{"text": edited}]})
            while client.published(uri(card), timeout=600)["version"] != version:
                pass
            if version >= 4:  # the first two: warming up
                waits.append((time.perf_counter() - t0) * 1000)
                cpu.append((cpu_seconds(client.proc.pid) - c0) * 1000)
        return {"open_s": opened, "p50": percentile(waits, 0.5), "p95": percentile(waits, 0.95),
                "cpu": statistics.median(cpu), "n": len(waits)}
    finally:
        try:
            client.close()
        except subprocess.TimeoutExpired:  # (close kills a server slow to exit)
            pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,10000", help="card files per mod, comma-separated")
    ap.add_argument("--samples", type=int, default=60, help="edits timed per mod")
    ap.add_argument("--base", default="main", help="the commit to compare with ('' for none)")
    ap.add_argument("--base-samples", type=int, default=6, help="edits timed with --base")
    ap.add_argument("--deal", action="store_true",
                    help="a mod.yaml that deals every room and adds an item to the supply: "
                         "what a game would refuse at load (W604 and all) judged at every edit")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="raiders-lsp-big-") as tmp:
        (Path(tmp) / "base").mkdir()
        base = base_tree(args.base, Path(tmp) / "base") if args.base else None
        for size in (int(s) for s in args.sizes.split(",")):
            mod = Path(tmp) / f"mod{size}"
            mod.mkdir()
            cards = make_mod(mod, size)
            if args.deal:
                ids = [CARD_ID.search(c.read_text(encoding="utf-8")).group(1) for c in cards]
                (mod / "lamp.dsl").write_text('item lamp { name "Lamp" }\n', encoding="utf-8")
                (mod / "mod.yaml").write_text(
                    "items: {lamp: 1}\ndeck: {" + ", ".join(f"{i}: 1" for i in ids) + "}\n",
                    encoding="utf-8")
            ours = session(mod, args.samples, None)
            line = (f"{size:>6} files: edit to diagnostics p50 {ours['p50']:.0f} ms, "
                    f"p95 {ours['p95']:.0f} ms ({ours['n']} edits; server CPU "
                    f"{ours['cpu']:.0f} ms per edit); first open {ours['open_s']:.1f} s")
            if base is not None:
                theirs = session(mod, args.base_samples, base)
                line += (f"\n{'':>14}{args.base}: p50 {theirs['p50']:.0f} ms, p95 "
                         f"{theirs['p95']:.0f} ms ({theirs['n']} edits; CPU {theirs['cpu']:.0f}"
                         f" ms); p95 {theirs['p95'] / ours['p95']:.0f}x ours")
            print(line, flush=True)


if __name__ == "__main__":
    main()
