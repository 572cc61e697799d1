"""Commands about card text: `validate`, `test` (scenarios) and `show`."""
from __future__ import annotations

from typing import Optional

import click

from raiders.dsl.diagnostics import render
from raiders.dsl.library import display_path
from raiders.formats.quote import SourceLines

from .common import (
    SEED,
    Failure,
    allow_path_option,
    complete_card,
    complete_ruleset,
    load_rules_or_exit,
    print_diagnostics,
    styled_diagnostic,
)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="`json`: one object per diagnostic, for editors and CI.")
@click.option("--base", shell_complete=complete_ruleset, default="deluxe", show_default=True,
              metavar="RULESET",
              help="Ruleset whose kinds and items loose card files (a mod) build on.")
@allow_path_option
def validate(paths: tuple[str, ...], fmt: str, base: str, allow_paths: tuple[str, ...]) -> None:
    """Parse and check card files, folders and rulesets.

    PATHS may be card files (*.dsl), folders (searched for *.dsl, ruleset.yaml and
    mod.yaml), ruleset files, and also game logs and scenario files (*.yaml with
    `format: raiders-log/1` or `raiders-scenario/1`). A ruleset is checked with every
    card it names; card files no ruleset covers are checked as one mod on top of
    --base, even from several folders (so an id both define is an error); a folder
    holding several mods, each with its mod.yaml, checks each mod on its own. A mod
    whose mod.yaml `rulesets:` leaves --base out is checked on the first ruleset it
    names, as a game would load it. Two versions of one mod: validate them one at a
    time (`raiders validate A && raiders validate B`).

    Every problem is printed as `path:line:col: error[CODE]: message`, with the
    source line, a caret under the problem and a hint. Exit status: 0 when all is
    clean, 1 when there are problems, 2 on usage errors.

    A log or scenario file may name built-in rulesets and paths inside its own
    folder; --allow-path DIR lets it name paths inside DIR too.

    \b
    Examples:
      raiders validate cards/
      raiders validate examples/mods/gorgon --format json
    """
    from raiders.formats.rulesets import builtin_ids, resolve_ruleset_path
    from raiders.formats.validate import validate_paths

    if resolve_ruleset_path(base) is None:
        raise click.BadParameter(f"no ruleset `{base}` (built in: {', '.join(builtin_ids())}, "
                                 "or a path to a ruleset.yaml)", param_hint="--base")
    from raiders.interpreter.records.documents import check_document, split_documents

    card_paths, other = split_documents(paths)
    report = validate_paths(card_paths, base) if card_paths else None
    if report is None:
        from raiders.formats.validate import Report

        report = Report()
    for path, kind in other:
        report.rulesets += 1
        report.add(check_document(path, kind, allow_paths))
    diags = report.diagnostics
    if fmt == "json":
        print_diagnostics(diags, report.sources, "json")
    else:
        lines = SourceLines(report.sources)
        for d in sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col)):
            d = d.with_path(display_path(d.span.path))
            click.echo(styled_diagnostic(render(d, lines(d.span.path))) + "\n", err=True)
        errors = sum(d.severity == "error" for d in diags)
        if report.files == 0:
            raise Failure("nothing to check: no card files (*.dsl), ruleset.yaml, mod.yaml, "
                          "logs or scenario files in " + ", ".join(paths))
        warned = len(diags) - errors
        summary = f"checked {report.files} file(s): " + (
            f"{errors} error(s)" if errors else "no problems found") + (
            f", {warned} warning(s)" if warned else "")
        click.echo(summary)  # a report, like ok/FAIL lines: stdout; diagnostics: stderr
    # Warnings are printed but do not fail the check (like a compiler's).
    if any(d.severity == "error" for d in diags) or report.files == 0:
        raise Failure()


@click.command(name="test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
@allow_path_option
def test_cmd(paths: tuple[str, ...], quiet: bool, allow_paths: tuple[str, ...]) -> None:
    """Run scenario files (raiders-scenario/1): one room each, checked.

    PATHS are scenario files or folders (searched for *.yaml). One line per
    scenario; a failing one lists what differed. Exit status 1 if any fails.
    A scenario may name built-in rulesets and paths inside its own folder;
    --allow-path DIR lets it name paths inside DIR too. Format: docs/scenarios.md.
    """
    import os

    from raiders.formats.safeio import found_files
    from raiders.interpreter.records.scenarios import run_file

    files, refused = found_files(paths, ["*.y*ml"])
    # a folder's mod.yaml and ruleset.yaml are not scenarios (a file named outright still is)
    files = [f for f in files
             if f in paths or os.path.basename(f) not in ("mod.yaml", "ruleset.yaml")]
    if not files and not refused:
        raise Failure("no scenario files (*.yaml) in " + ", ".join(paths)) from None
    passed = failed = 0
    if refused:
        failed += len(refused)
        for d in refused:
            click.echo(f"FAIL  {display_path(d.span.path)}")
        print_diagnostics(refused, {})
    for f in files:
        for o in run_file(f, allow_paths):
            where = f"{display_path(o.path)}:{o.line}"
            if o.ok:
                passed += 1
                if not quiet:
                    click.echo(f"ok    {where}  {o.name}")
                continue
            failed += 1
            click.echo(f"FAIL  {where}  {o.name}")
            for difference in o.differences:
                click.echo(f"        {difference}")
            if o.diagnostics:
                print_diagnostics(o.diagnostics, {})
    click.echo(f"{passed} passed, {failed} failed")
    if failed:
        raise Failure()
    if not passed:  # files, but nothing in them to run: say so rather than exit 1 mutely
        raise Failure("error: no scenarios in " + ", ".join(display_path(f) for f in files)
                      + " (empty, or only comments)")



@click.command()
@click.argument("card", required=False, shell_complete=complete_card)
@click.option("--ruleset", shell_complete=complete_ruleset, default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None,
              help="Show the card as this variant plays it (e.g. classic solo's monsters).")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder to look in too (repeatable).")
@click.option("--dungeon", is_flag=True,
              help="Show the dungeon a seed deals, floor by floor (with --seed, --players).")
@click.option("--seed", type=SEED, default=None, help="With --dungeon: the game's seed.")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="With --dungeon: the number of players (default: as `play`).")
@click.option("--python", "as_python", is_flag=True,
              help="Print the Python the card compiles to (what the engine runs), instead of "
                   "its words.")
def show(card: Optional[str], ruleset: str, variant: Optional[str], cards: tuple[str, ...],
         dungeon: bool, seed: Optional[int], n_players: Optional[int], as_python: bool) -> None:
    """Print a card's (or a kind's) text and what it does in plain words.

    The words are generated from the compiled card, so they say what the engine
    will do. CARD is a card id or a kind name; without CARD, every card id of the
    ruleset is listed, by kind.

    \b
    Examples:
      raiders show                      (every card id, by kind)
      raiders show CARD-ID
      raiders show CARD-ID --ruleset classic --variant solo
      raiders show monster              (a kind)
      raiders show --dungeon --seed 7   (the rooms `play --seed 7` deals)
      raiders show CARD-ID --python     (the Python the card compiles to)
    """
    from raiders.dsl.diagnostics import did_you_mean
    from raiders.interpreter.runtime.describe import describe

    if (seed is not None or n_players is not None) and not dungeon:
        raise click.UsageError("--seed and --players go with --dungeon")
    if dungeon and card is not None:
        raise click.UsageError("--dungeon shows a whole deal: leave out CARD")
    if as_python and (dungeon or card is None):
        raise click.UsageError("--python shows one card: give its CARD id")
    rules = load_rules_or_exit(ruleset, variant, cards)
    if dungeon:
        return _show_dungeon(rules, seed, n_players)
    lib = rules.library
    if card is None:
        by_kind: dict[str, list[str]] = {}
        for cid, decl in lib.cards.items():
            by_kind.setdefault(decl.kind, []).append(cid)
        click.echo(f"{rules.ruleset.name}, {rules.variant.name}:")
        for kind in sorted(by_kind):
            click.echo(f"  {kind}: {', '.join(by_kind[kind])}")
        return
    decl = lib.cards.get(card)
    kind = lib.kinds.get(card)
    if decl is None and kind is None:
        hint = did_you_mean(card, [*lib.cards, *lib.kinds])
        # a well-formed question with no such card: a problem found (1), not a usage error
        raise Failure(f"error: no card or kind `{card}` in {rules.ruleset.id}"
                      + (f"; {hint}" if hint else "") + " (`raiders show` lists them)")
    if as_python:
        if decl is None:
            raise click.UsageError(f"`{card}` is a kind: its procedure is compiled into each "
                                   "card of the kind; give a card id")
        from raiders.interpreter.runtime.describe import compiled

        click.echo(compiled(rules, card).source, nl=False)
        return
    node = decl if decl is not None else kind.decl
    text = lib.sources[node.span.path].splitlines()
    click.echo(f"# {display_path(node.span.path)}:{node.span.line}")
    for line in text[node.span.line - 1: node.span.end_line]:
        click.echo(line)
    click.echo("")
    if decl is None:
        chain = " → ".join(k.name for k in reversed(kind.chain))
        click.echo(f"kind {chain}; parameters:")
        for name, p in kind.params.items():
            click.echo(f"  {name}: {p.type}" + ("" if p.default is None else " (has a default)"))
        users = [cid for cid, d in lib.cards.items() if d.kind == card]
        click.echo(f"cards of this kind: {', '.join(users) or 'none'}")
        return
    for line in describe(rules, card):
        click.echo(line)


def _show_dungeon(rules, seed: Optional[int], n_players: Optional[int]) -> None:
    from raiders.interpreter.game.dungeon import dungeon_lines
    from raiders.interpreter.runtime.room import RulesError

    from .common import draw_seed

    var = rules.variant
    if n_players is None:
        n_players = min(max(4, var.min_players), var.max_players)
    if seed is None:
        seed = draw_seed()
    if rules.wrong_player_count(n_players):
        raise click.UsageError(rules.wrong_player_count(n_players))
    try:
        lines = dungeon_lines(rules, seed, n_players,
                              3 if var.scoring == "solo" else None)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    except RulesError as err:
        raise Failure(f"error: {err}") from None
    for line in lines:
        click.echo(line)
