"""A burst of edits to `raiders lsp` (issue 27): how long until the diagnostics of the last
version arrive, and how many versions were checked on the way.

A real client loop over stdio (tests/lspclient.py, the tests' own client): the server is
started, a card of a copy of examples/mods/gorgon is opened, then EDITS didChange
notifications (each the whole text, as VS Code sends them) are written at once; the clock
stops when diagnostics for the last version are published. Also timed: one edit alone, the
check the burst ends with.

    python benchmarks/lsp_edits.py [--edits 2000] [--runs 3]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lspclient import Client, message, uri  # noqa: E402  (after the path is set)


def burst(client: Client, card: Path, text: str, first: int, edits: int) -> tuple[float, int]:
    """Seconds until the last version's diagnostics, and how many versions were checked."""
    data = b"".join(message({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri(card), "version": v},
        "contentChanges": [{"text": text.replace("wounds 2", f"wounds {1 + v % 3}")}]}})
        for v in range(first, first + edits))
    start = time.perf_counter()
    client.raw(data)
    checked = 0
    while True:
        got = client.published(uri(card))
        checked += 1
        if got["version"] == first + edits - 1:
            return time.perf_counter() - start, checked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="raiders-lsp-bench-") as tmp:
        mod = Path(shutil.copytree(ROOT / "examples" / "mods" / "gorgon", Path(tmp) / "gorgon"))
        card = mod / "gorgon.dsl"
        text = card.read_text(encoding="utf-8")
        client = Client(mod)
        try:
            client.initialize(mod)
            client.open(card, text)
            version = 2
            for run in range(args.runs):
                t = time.perf_counter()
                client.change(card, text, version)
                single = time.perf_counter() - t
                seconds, checked = burst(client, card, text, version + 1, args.edits)
                version += args.edits + 1
                print(f"run {run + 1}: {args.edits} edits at once: the last version's "
                      f"diagnostics after {seconds:.2f} s ({checked} version(s) checked); "
                      f"one edit alone: {single * 1000:.0f} ms")
        finally:
            client.close()


if __name__ == "__main__":
    main()
