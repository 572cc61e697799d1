"""What replaying saves (issue 22: what a modder waits for; interpreter/tools/pairs.py): CPU
seconds per seed of three workloads, every game played afresh against the paired games
replaying the first game's answers up to the floor where their cards differ, in this process,
the two interleaved (`--repeat` times, the best of each kept), on the same seeds; both must
give the same figures, which it checks.

    balance  `raiders balance MOD`: the base game, then the mod's card in its slot
    diff     `raiders diff` / `simulate --compare`: the mod, then the mod with one number changed
    sweep    `simulate --sweep`: a printed card (the deck's most copied) at three values of
             its last number

    python benchmarks/replay.py [--mod examples/mods/gorgon] [--games 40] [--bots greedy]
                                [--repeat 2] [--only balance,diff,sweep]
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.runtime.sweep import numbers, parse_sweep, resolve
from raiders.interpreter.tools import balance as bal
from raiders.interpreter.tools import simulate as sim

ROOT = Path(__file__).resolve().parent.parent


def workloads(mod: str, bots: tuple[str, ...], scratch: Path) -> dict:
    """Per workload: (what it plays, played afresh, played replaying), each a function of the
    seeds giving a Tally."""
    players = len(bots)
    base = load_rules("deluxe", None, ())
    modded = load_rules("deluxe", None, (mod,))
    plan = tuple(bal.entries(base, modded, bal.own_cards(mod, modded))[0])
    paired = (sim.Setup("deluxe", None, players, bots, ()),
              *(sim.Setup("deluxe", None, players, bots, (mod,)) for _ in plan))
    # the mod with its first card's first number one higher (the copy's text rewritten there)
    card = plan[0].card
    num = numbers(modded.library.cards[card])[0][1]
    changed = scratch / "changed"
    shutil.copytree(mod, changed)
    copy = changed / Path(num.span.path).resolve().relative_to(Path(mod).resolve())
    lines = copy.read_text().splitlines(keepends=True)
    row = lines[num.span.line - 1]
    lines[num.span.line - 1] = (row[:num.span.col - 1] + str(num.value + 1)
                                + row[num.span.end_col - 1:])
    copy.write_text("".join(lines))
    compared = (sim.Setup("deluxe", None, players, bots, (mod,)),
                sim.Setup("deluxe", None, players, bots, (str(changed),)))
    # a printed deck card with the most copies, its last number (a monster's wounds) swept
    # over three values around the printed one
    printed = max((c for c in base.deck if numbers(base.library.cards[c])),
                  key=lambda c: (base.deck[c], c))
    last = numbers(base.library.cards[printed])
    value = last[-1][1].value
    spec = f"{printed}#{len(last)}={max(0, value - 1)}..{value + 1}"
    swept = tuple(sim.Setup("deluxe", None, players, bots, (), edits=(e,)) for e in resolve(
        base.library, parse_sweep(spec), players, base.ruleset.strength_players))

    def chunk(setups):
        def afresh(seeds):
            keep = sim._replays
            sim._replays = lambda setups, rules: ()
            try:
                return sim.run_chunk(setups, seeds)
            finally:
                sim._replays = keep

        return afresh, lambda seeds: sim.run_chunk(setups, seeds)

    return {
        "balance": (f"{Path(mod).name}: base game, then {len(plan)} card(s) in a slot",
                    lambda seeds: bal.run_slots(plan, paired, seeds, replay=False),
                    lambda seeds: bal.run_slots(plan, paired, seeds)),
        "diff": (f"{Path(mod).name} against a copy with {card}'s first number changed",
                 *chunk(compared)),
        "sweep": (f"a printed card swept: {spec}", *chunk(swept)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mod", default=str(ROOT / "examples/mods/gorgon"))
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--only", default="balance,diff,sweep")
    a = ap.parse_args()
    bots = (a.bots,) * a.players
    with tempfile.TemporaryDirectory() as scratch:
        loads = workloads(a.mod, bots, Path(scratch))
        for name in a.only.split(","):
            what, afresh, replayed = loads[name]
            replayed(range(10_000, 10_002))  # warm the tables both share
            best = {False: float("inf"), True: float("inf")}
            figures = {}
            for _ in range(a.repeat):
                for replay, play in ((False, afresh), (True, replayed)):
                    t = time.process_time()
                    tally = play(range(1, a.games + 1))
                    best[replay] = min(best[replay], time.process_time() - t)
                    figures[replay] = (tally.sums, tally.counts)
            if figures[True] != figures[False]:
                raise SystemExit(f"{name}: the figures differ: replaying changed the answer")
            print(f"{name} ({what}; {a.games} seeds, bots {a.bots}):")
            for replay, label in ((False, "afresh"), (True, "replayed")):
                print(f"  {label:9} {best[replay] / a.games * 1000:8.1f} ms a seed")
            print(f"  ratio     {best[False] / best[True]:8.2f}x (the same figures)")


if __name__ == "__main__":
    main()
