"""`raiders diff OLD NEW`: a review of a mod's change, in Markdown for a pull request."""
from __future__ import annotations

import sys
from typing import Optional

import click

from .common import SEED, Failure, complete_ruleset, load_rules_or_exit


@click.command(name="diff")
@click.argument("old")
@click.argument("new")
@click.option("--ruleset", shell_complete=complete_ruleset, default=None,
              help="The ruleset both versions play with (default: the first of NEW's "
                   "mod.yaml `rulesets:`, else deluxe).")
@click.option("--variant", default=None, help="The variant (default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Players per simulated game (default: 4, or what the variant allows).")
@click.option("--bots", default="greedy", show_default=True,
              help="Bot for every seat, or one per seat (as `simulate`).")
@click.option("--games", type=click.IntRange(0), default=1000, show_default=True,
              help="Paired games to simulate (each seed played by both versions); 0: none.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="The first seed.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Processes (default: every core; the figures do not depend on it).")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="Other mods both versions play with (repeatable).")
def diff_cmd(old: str, new: str, ruleset: Optional[str], variant: Optional[str],
             n_players: Optional[int], bots: str, games: int, seed: int, jobs: Optional[int],
             cards: tuple[str, ...]) -> None:
    """Review a mod's change: which cards changed, what they do before and after, and
    the simulated figures of both versions on the same seeds, as Markdown.

    OLD and NEW are mod folders, or `REV:PATH`, the mod's folder at a git revision
    (read with `git show`; nothing of it is executed). Paste the output into a pull
    request. Exit status: 0 (whatever changed), 1 when a version does not check
    clean or a revision cannot be read, 2 on usage errors.

    \b
    Examples:
      raiders diff HEAD:examples/mods/gorgon examples/mods/gorgon
      raiders diff old-gorgon/ gorgon/ --games 2000 --players 3
      raiders diff main:mods/shrine mods/shrine --games 0     (cards only)
    """
    import tempfile
    from pathlib import Path

    from raiders.formats.mods import mod_rulesets
    from raiders.interpreter.tools.moddiff import (
        DiffError,
        card_changes,
        figure_rows,
        manifest_changes,
        markdown,
        materialize,
    )

    from .common import bot_kinds

    with tempfile.TemporaryDirectory(prefix="raiders-diff-") as scratch:
        try:
            sides = [materialize(spec, scratch) for spec in (old, new)]
        except DiffError as err:
            raise Failure(f"error: {err}") from None
        if ruleset is None:
            wants = mod_rulesets(Path(sides[1].folder))
            ruleset = wants[0] if wants else "deluxe"
        loaded = [load_rules_or_exit(ruleset, variant, (*cards, s.folder)) for s in sides]
        var = loaded[1].variant
        if n_players is None:
            n_players = min(max(4, var.min_players), var.max_players)
        if loaded[1].wrong_player_count(n_players):
            raise click.UsageError(loaded[1].wrong_player_count(n_players))
        kinds = tuple(bot_kinds(bots, n_players))
        changes = card_changes(sides[0], sides[1], loaded[0], loaded[1])
        rows = None
        setup = ""
        if games:
            from raiders.interpreter.tools.simulate import Setup, SimulationError, simulate

            difficulty = 3 if var.scoring == "solo" else None
            setups = tuple(Setup(ruleset, var.name, n_players, kinds, (*cards, s.folder),
                                 difficulty) for s in sides)
            with click.progressbar(length=games, label="games (old and new)", file=sys.stderr,
                                   show_eta=False, hidden=not sys.stderr.isatty()) as bar:
                try:
                    tally = simulate(setups, games, seed, jobs, bar.update)
                except SimulationError as err:
                    raise Failure(f"error: {err}") from None
            rows = figure_rows(tally, {c.id for c in changes})
            setup = (f"{loaded[1].ruleset.id} {var.name}, {n_players} players, bots "
                     f"{','.join(dict.fromkeys(kinds))}; {games} games on seeds {seed}.."
                     f"{seed + games - 1}, each played by both versions "
                     f"(`raiders diff --games {games} --seed {seed}` gives these again).")
        click.echo(markdown(sides[0], sides[1], changes,
                            manifest_changes(loaded[0], loaded[1], sides[0].folder,
                                             sides[1].folder), rows, setup), nl=False)


COMMANDS = (diff_cmd,)
