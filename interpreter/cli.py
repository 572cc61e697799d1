"""The `raiders` command line (click). Exit codes: 0 ok, 1 findings or failures, 2 usage."""
from __future__ import annotations

import sys

import click

from raiders.dsl.diagnostics import render, to_json
from raiders.dsl.library import display_path


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="raiders")
def main() -> None:
    """raiders: a rules interpreter for the card game Dungeon Raiders.

    Cards, bosses, room kinds and items are text files in a card language
    (docs/dsl.md). Check them with `validate`, play with `play`, test rooms with
    `test`, look at a card with `show`.
    """


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
    diags = sorted(report.diagnostics, key=lambda d: (d.span.path, d.span.line, d.span.col))
    diags = [d.with_path(display_path(d.span.path)) for d in diags]
    if fmt == "json":
        click.echo(to_json(diags))
    else:
        for d in diags:
            src = _source_lines(report.sources, d.span.path)
            click.echo(render(d, src) + "\n")
        errors = sum(d.severity == "error" for d in diags)
        summary = f"checked {report.files} file(s): " + (
            f"{errors} error(s)" if errors else "no problems found")
        click.echo(summary, err=bool(errors))
    sys.exit(1 if diags else 0)


def _source_lines(sources: dict[str, str], shown_path: str):
    for path, text in sources.items():
        if display_path(path) == shown_path:
            return text.splitlines()
    try:
        with open(shown_path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
