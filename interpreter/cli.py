"""The `raiders` command line (click). Exit codes: 0 ok, 1 findings or failures, 2 usage."""
from __future__ import annotations

import sys
from typing import Optional

import click

from raiders.dsl.diagnostics import Diagnostic, render, to_json
from raiders.dsl.library import display_path


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="raiders")
def main() -> None:
    """raiders: a rules interpreter for the card game Dungeon Raiders.

    Cards, bosses, room kinds and items are text files in a card language
    (docs/dsl.md). Check them with `validate`, play with `play`, test rooms with
    `test`, look at a card with `show`.
    """


def _print_diagnostics(diags: list[Diagnostic], sources: dict[str, str], fmt: str = "text") -> None:
    diags = sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col))
    diags = [d.with_path(display_path(d.span.path)) for d in diags]
    if fmt == "json":
        click.echo(to_json(diags))
        return
    for d in diags:
        click.echo(render(d, _source_lines(sources, d.span.path)) + "\n", err=True)


def _source_lines(sources: dict[str, str], shown_path: str):
    for path, text in sources.items():
        if display_path(path) == shown_path:
            return text.splitlines()
    try:
        with open(shown_path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None


def _load_rules(ruleset: str, variant: Optional[str], cards: tuple[str, ...]):
    """Rules for a command, or a clean exit with diagnostics (1) or a usage error (2)."""
    from raiders.interpreter.rules import LoadError, load_rules

    try:
        return load_rules(ruleset, variant, tuple(cards))
    except ValueError as err:
        raise click.UsageError(str(err))
    except LoadError as err:
        _print_diagnostics(err.diagnostics, err.sources)
        click.echo(f"the cards do not check clean: {len(err.diagnostics)} problem(s)", err=True)
        sys.exit(1)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="`json`: one object per diagnostic, for editors and CI.")
@click.option("--base", default="deluxe", show_default=True, metavar="RULESET",
              help="Ruleset whose kinds and items loose card files (a mod) build on.")
def validate(paths: tuple[str, ...], fmt: str, base: str) -> None:
    """Parse and check card files, folders and rulesets.

    PATHS may be card files (*.dsl), folders (searched for *.dsl and ruleset.yaml)
    and ruleset files (*.yaml). A ruleset is checked with every card it names; card
    files no ruleset covers are checked as one mod on top of --base.

    Every problem is printed as `path:line:col: error[CODE]: message`, with the
    source line, a caret under the problem and a hint. Exit status: 0 when all is
    clean, 1 when there are problems, 2 on usage errors.

    \b
    Examples:
      raiders validate cards/
      raiders validate examples/mods/gorgon --format json
    """
    from raiders.dsl.validate import validate_paths

    report = validate_paths(paths, base)
    diags = report.diagnostics
    if fmt == "json":
        _print_diagnostics(diags, report.sources, "json")
    else:
        for d in sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col)):
            d = d.with_path(display_path(d.span.path))
            click.echo(render(d, _source_lines(report.sources, d.span.path)) + "\n")
        errors = sum(d.severity == "error" for d in diags)
        summary = f"checked {report.files} file(s): " + (
            f"{errors} error(s)" if errors else "no problems found")
        click.echo(summary, err=bool(errors))
    sys.exit(1 if diags else 0)


@main.command(name="test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
def test_cmd(paths: tuple[str, ...], quiet: bool) -> None:
    """Run scenario files (raiders-scenario/1): one room each, checked.

    PATHS are scenario files or folders (searched for *.yaml). One line per
    scenario; a failing one lists what differed. Exit status 1 if any fails.
    Format: docs/scenarios.md.
    """
    from pathlib import Path

    from raiders.interpreter.scenarios import run_file

    files: list[str] = []
    for p in paths:
        pp = Path(p)
        files.extend(sorted(str(f) for f in pp.rglob("*.y*ml")) if pp.is_dir() else [p])
    passed = failed = 0
    for f in files:
        for o in run_file(f):
            where = f"{display_path(o.path)}:{o.line}"
            if o.ok:
                passed += 1
                if not quiet:
                    click.echo(f"ok    {where}  {o.name}")
                continue
            failed += 1
            click.echo(f"FAIL  {where}  {o.name}")
            for d in o.differences:
                click.echo(f"        {d}")
            if o.diagnostics:
                _print_diagnostics(o.diagnostics, {})
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


@main.command()
@click.option("--ruleset", default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None, help="The variant (default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=4, show_default=True)
@click.option("--bots", default="greedy", show_default=True,
              help="Bot for every seat (random, greedy), or one per seat: greedy,random,greedy.")
@click.option("--seed", type=int, default=None, help="Seed for the deal and the bots.")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder whose cards join the pool (repeatable).")
@click.option("--names", default=None, help="Player names, comma separated.")
@click.option("--difficulty", type=click.IntRange(2, 5), default=None,
              help="Solo: the hero's starting wounds, 2..5 (default 3).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the result.")
def play(ruleset: str, variant: Optional[str], n_players: int, bots: str, seed: Optional[int],
         cards: tuple[str, ...], names: Optional[str], difficulty: Optional[int],
         quiet: bool) -> None:
    """Play one game with bots and narrate it floor by floor, room by room.

    \b
    Example:
      raiders play --ruleset deluxe --players 4 --bots greedy --seed 7
    """
    from raiders.interpreter.engine import Game
    from raiders.interpreter.narrate import floor_header, result_lines, room_lines, standings
    from raiders.interpreter.players import BOTS
    from raiders.interpreter.room import RulesError

    rules = _load_rules(ruleset, variant, cards)
    kinds = bots.split(",")
    if len(kinds) == 1:
        kinds = kinds * n_players
    if len(kinds) != n_players or any(k not in BOTS for k in kinds):
        raise click.UsageError(f"--bots takes one of {', '.join(BOTS)} or one per seat "
                               f"({n_players} seats)")
    seat_names = names.split(",") if names else [f"P{i + 1}" for i in range(n_players)]
    if len(seat_names) != n_players or len(set(seat_names)) != n_players:
        raise click.UsageError(f"--names takes {n_players} distinct names")
    try:
        solo = rules.variant.scoring == "solo"
        if difficulty is not None and not solo:
            raise click.UsageError("--difficulty is for solo play")
        game = Game(rules, seat_names, [BOTS[k]() for k in kinds], seed=seed, trace=not quiet,
                    difficulty=(difficulty or 3) if solo else None)
    except ValueError as err:
        raise click.UsageError(str(err))
    if not quiet:
        click.echo(f"{rules.ruleset.name}, {rules.variant.name} play, {n_players} players, "
                   f"seed {seed}")
        for p in game.players:
            click.echo(f"  {p.name}: {rules.characters[p.character].name} "
                       f"({p.coins} coins, {p.wounds} wounds"
                       + (f", {', '.join(p.items)}" if p.items else "") + ")")

    def on_room(rec) -> None:
        if quiet:
            return
        if rec.index == 0:
            floor = game.deal.floors[rec.floor]
            click.echo(floor_header(rec.floor, floor.floor_card))
        for line in room_lines(rules, rec):
            click.echo(line)
        click.echo(standings(game.players))

    try:
        result = game.run(on_room)
    except RulesError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(1)
    for line in result_lines(result, rules.variant.scoring == "solo"):
        click.echo(line)


@main.command()
@click.argument("card")
@click.option("--ruleset", default="deluxe", show_default=True)
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder to look in too (repeatable).")
def show(card: str, ruleset: str, cards: tuple[str, ...]) -> None:
    """Print a card's text and what it does in plain words.

    The words are generated from the compiled card, so they say what the engine
    will do. CARD is a card id, as `raiders validate` and CARDS.md name them.
    """
    from raiders.dsl.diagnostics import did_you_mean
    from raiders.interpreter.compiler import CompiledRoom
    from raiders.interpreter.describe import describe

    rules = _load_rules(ruleset, None, cards)
    decl = rules.library.cards.get(card)
    if decl is None:
        hint = did_you_mean(card, rules.library.cards)
        raise click.UsageError(f"no card `{card}` in {rules.ruleset.id}" + (f"; {hint}" if hint else ""))
    text = rules.library.sources[decl.span.path].splitlines()
    click.echo(f"# {display_path(decl.span.path)}:{decl.span.line}")
    for line in text[decl.span.line - 1: decl.span.end_line]:
        click.echo(line)
    click.echo("")
    for line in describe(rules, card):
        click.echo(line)
