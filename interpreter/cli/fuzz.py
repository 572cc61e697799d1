"""`raiders fuzz MOD`: random games with a mod; each crash or runaway saved as a scenario."""
from __future__ import annotations

import sys
from typing import Optional

import click

from .common import SEED, Failure, complete_ruleset, load_rules_or_exit


@click.command(name="fuzz")
@click.argument("mod", type=click.Path(exists=True, file_okay=False))
@click.option("--ruleset", shell_complete=complete_ruleset, default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None, help="The variant (default: the ruleset's first).")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Games to play, on random seeds, player counts and bots.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Draws the games' seeds: the same run finds the same things.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="fuzz-findings",
              show_default=True, help="Folder for the scenario files of the findings.")
@click.option("--time-limit", type=click.FloatRange(0.1, 3600), default=10.0,
              show_default=True, help="Seconds one game may take before it is a finding.")
def fuzz_cmd(mod: str, ruleset: str, variant: Optional[str], games: int, seed: int,
             out_dir: str, time_limit: float) -> None:
    """Play random games with a mod; save each crash or runaway as a scenario file.

    Every game that stops with a rules error (a runaway chain of events, a card
    that breaks a rule), a bug of the tool, or that takes longer than
    --time-limit is written into --out as the smallest scenario that shows it:
    the room where it stopped, the table before it, and the cards played there
    (run it with `raiders test --allow-path MOD FILE`). Exit status 1 when
    anything was found.

    \b
    Examples:
      raiders fuzz examples/mods/gorgon --games 500
      raiders fuzz my-mod --ruleset classic --variant quick --out findings/
    """
    from pathlib import Path

    from raiders.formats.safeio import writable_folder
    from raiders.interpreter.tools.fuzz import fuzz

    load_rules_or_exit(ruleset, variant, (mod,))  # the mod checks clean, or diagnostics
    why = writable_folder(out_dir)
    if why:
        raise Failure(f"error: cannot write findings in {out_dir}: {why}")
    found: list = []

    def progress(finding) -> None:
        if finding is not None:
            again = {True: "reproduced by the scenario", False: "not reproduced by the "
                     "scenario alone (its header says how to play the game again)",
                     None: "no room reached"}[finding.reproduced]
            click.echo(f"{finding.kind}: seed {finding.seed}: "
                       f"{finding.message.splitlines()[0][:200]}", err=True)
            click.echo(f"  {finding.scenario or '-'} ({again})", err=True)

    with click.progressbar(length=games, label="games", file=sys.stderr,
                           hidden=not sys.stderr.isatty()) as bar:
        def step(finding) -> None:
            bar.update(1)
            progress(finding)

        found = fuzz(lambda: load_rules_or_exit(ruleset, variant, (mod,)), ruleset, mod,
                     games, seed, Path(out_dir), time_limit, step)
    kinds = {k: sum(f.kind == k for f in found) for k in ("crash", "runaway", "hang")}
    click.echo(f"{games} game(s): {len(found)} finding(s) "
               f"({', '.join(f'{n} {k}' for k, n in kinds.items())})")
    if found:
        raise Failure()
