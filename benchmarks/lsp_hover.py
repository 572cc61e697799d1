"""Latency of `raiders lsp`'s hover and completion (issue 24's leftovers): a real client over
stdio (tests/lspclient.py), one card of a mod open, each request alone and waited for.

Mods: a generated one of `--files` card files (benchmarks/validate.py's cards) whose mod.yaml
names another base than `validate`'s (`rulesets: [classic]`: the case that rebuilt the card
library on every request), the same on deluxe, and each of examples/mods. Per mod, p50 and p95
of: hover on a field's name, on the card's kind, on the card's id (`show`'s words), and
completion in the card's body, asked again and again with no edit between; then the same
asked once after each edit of the card (the diagnostics of that edit waited for first).

The same run times the server of another commit (`--base`, main by default), as
benchmarks/lsp_big_mod.py does.

    python benchmarks/lsp_hover.py [--files 600] [--samples 20] [--base main] [--examples]
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import base_tree  # noqa: E402  (after the path is set)
from lsp_big_mod import client_on, percentile  # noqa: E402
from lspclient import Client, uri  # noqa: E402
from validate import make_mod  # noqa: E402

from raiders.dsl import ast  # noqa: E402
from raiders.dsl.parser import parse  # noqa: E402

ASKED = ("field", "kind", "card", "completion")


def places(card: Path) -> dict[str, tuple[int, int]]:
    """Where to ask, in the first card of the file (0-based line and character)."""
    module, _ = parse(card.read_text(encoding="utf-8"), str(card))
    decl = next(d for d in module.decls if isinstance(d, ast.CardDecl))
    field = next(m for m in decl.members if isinstance(m, ast.Field))
    return {"field": (field.span.line - 1, field.span.col),
            "kind": (decl.span.line - 1, decl.span.col),
            "card": (decl.id_span.line - 1, decl.id_span.col),
            "completion": (field.span.line - 1, field.span.col - 1)}


def start(root: Path, pythonpath: "Path | None") -> Client:
    client = client_on(root, pythonpath)
    client.initialize(root)
    return client


def ask(client: Client, what: str, card: Path, at: tuple[int, int]) -> float:
    method = "textDocument/completion" if what == "completion" else "textDocument/hover"
    t = time.perf_counter()
    answer = client.at(method, card, *at)
    ms = (time.perf_counter() - t) * 1000
    assert answer, (what, card, at)  # every place asked has an answer
    return ms


def session(card: Path, samples: int, pythonpath: "Path | None") -> dict[str, list[float]]:
    """Open `card`, then time each request `samples` times with no edit between, and once
    after each of `samples` edits: ms, by request."""
    text = card.read_text(encoding="utf-8")
    at = places(card)
    client = start(card.parent, pythonpath)
    times: dict[str, list[float]] = {k: [] for k in ASKED}
    times.update({f"{k} after an edit": [] for k in ASKED})
    try:
        client.open_quietly(card, text)
        client.published(uri(card), timeout=1800)
        for what in ASKED:
            ask(client, what, card, at[what])  # the first: whatever is built once
            times[what] += [ask(client, what, card, at[what]) for _ in range(samples)]
        for version in range(2, samples + 2):
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri(card), "version": version},
                "contentChanges": [{"text": text + f"\n# edit {version}\n"}]})
            while client.published(uri(card), timeout=600)["version"] != version:
                pass
            for what in ASKED:  # (each after an edit of its own)
                times[f"{what} after an edit"].append(ask(client, what, card, at[what]))
        return times
    finally:
        try:
            client.close()
        except subprocess.TimeoutExpired:
            pass


def line(name: str, ours: dict, theirs: "dict | None", base: str) -> str:
    out = [name]
    for what, ms in ours.items():
        row = f"  {what:<26} p50 {percentile(ms, .5):7.1f} ms  p95 {percentile(ms, .95):7.1f} ms"
        if theirs is not None:
            row += (f"   {base}: p50 {percentile(theirs[what], .5):7.1f} ms  p95 "
                    f"{percentile(theirs[what], .95):7.1f} ms")
        out.append(row)
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=600, help="card files of the generated mod")
    ap.add_argument("--samples", type=int, default=20, help="requests timed per kind")
    ap.add_argument("--base", default="main", help="the commit to compare with ('' for none)")
    ap.add_argument("--base-samples", type=int, default=5, help="requests timed with --base")
    ap.add_argument("--examples", action="store_true", help="each of examples/mods too")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="raiders-lsp-hover-") as tmp:
        (Path(tmp) / "base").mkdir()
        base = base_tree(args.base, Path(tmp) / "base") if args.base else None
        cards = []
        for ruleset in ("classic", "deluxe"):
            mod = Path(tmp) / f"mod-{ruleset}"
            mod.mkdir()
            for card in make_mod(mod, args.files):
                if ruleset == "classic":  # (classic has no boss slot: its bosses, monsters)
                    text = card.read_text(encoding="utf-8")
                    card.write_text(text.replace("boss bench-", "monster bench-"),
                                    encoding="utf-8")
            (mod / "mod.yaml").write_text(f"rulesets: [{ruleset}]\n", encoding="utf-8")
            cards.append((f"generated, {args.files} files, rulesets: [{ruleset}]",
                          mod / "card00000.dsl"))
        if args.examples:
            for mod in sorted((ROOT / "examples" / "mods").iterdir()):
                found = sorted(mod.glob("*.dsl"))
                if found:
                    cards.append((f"examples/mods/{mod.name}", found[0]))
        for name, card in cards:
            ours = session(card, args.samples, None)
            theirs = session(card, args.base_samples, base) if base is not None else None
            print(line(name, ours, theirs, args.base), flush=True)


if __name__ == "__main__":
    main()
