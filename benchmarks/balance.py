"""How much a balance run saves by replaying the floors before each slot's (issue 22: what a
modder waits for): CPU seconds per seed of `raiders balance MOD`'s work, every pair played
afresh against the paired games replaying the base game's answers before their slot's floor,
in this process, the two interleaved (`--repeat` times, the best of each kept), on the same
seeds; both must give the same figures, which it checks.

    python benchmarks/balance.py [--mod examples/mods/gorgon] [--games 60] [--bots greedy]
                                 [--repeat 2]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.tools import balance as bal
from raiders.interpreter.tools import simulate as sim

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mod", default=str(ROOT / "examples/mods/gorgon"))
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    base = load_rules("deluxe", None, ())
    modded = load_rules("deluxe", None, (a.mod,))
    plan, _ = bal.entries(base, modded, bal.own_cards(a.mod, modded))
    kinds = (a.bots,) * a.players
    setups = (sim.Setup("deluxe", None, a.players, kinds, ()),
              *(sim.Setup("deluxe", None, a.players, kinds, (a.mod,)) for _ in plan))
    why = bal.replays_before_slot(base, modded, {e.card for e in plan}, set(kinds))
    print(f"{Path(a.mod).name}: {len(plan)} card(s), {a.games} seeds, bots {a.bots}; "
          f"replays: {'yes' if why is None else 'no, ' + why}")
    best = {False: float("inf"), True: float("inf")}
    figures = {}
    bal.run_slots(tuple(plan), setups, range(10_000, 10_002))  # warm the tables both share
    for _ in range(a.repeat):
        for replay in (False, True):
            t = time.process_time()
            tally = bal.run_slots(tuple(plan), setups, range(1, a.games + 1), replay=replay)
            best[replay] = min(best[replay], time.process_time() - t)
            figures[replay] = (tally.sums, tally.counts)
    if figures[True] != figures[False]:
        raise SystemExit("the figures differ: replaying changed the answer")
    for replay, label in ((False, "afresh"), (True, "replayed")):
        print(f"  {label:9} {best[replay] / a.games * 1000:8.1f} ms a seed")
    print(f"  ratio     {best[False] / best[True]:8.2f}x (the same figures)")


if __name__ == "__main__":
    main()
