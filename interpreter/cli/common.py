"""What the command modules share: printing diagnostics, loading rules for a command."""
from __future__ import annotations

import re
from typing import Optional, Sequence

import click

from raiders.dsl.diagnostics import Diagnostic, render, to_json
from raiders.dsl.library import display_path


def print_diagnostics(diags: list[Diagnostic], sources: dict[str, str], fmt: str = "text") -> None:
    diags = sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col))
    diags = [d.with_path(display_path(d.span.path)) for d in diags]
    if fmt == "json":
        click.echo(to_json(diags))
        return
    lines = SourceLines(sources)
    for d in diags:
        click.echo(styled_diagnostic(render(d, lines(d.span.path))) + "\n", err=True)


def source_lines(sources: dict[str, str], shown_path: str):
    """The lines a diagnostic may quote: from the sources read, else from the file itself when
    it is a regular file within the size limit and not a link leading out of its folder."""
    return SourceLines(sources)(shown_path)


class SourceLines:
    """source_lines for many diagnostics: each file is split (or read) once, so that 20,000
    diagnostics print in linear time, not quadratic."""

    def __init__(self, sources: dict[str, str]):
        self._texts = {display_path(p): t for p, t in reversed(sources.items())}
        self._lines: dict[str, Optional[list[str]]] = {}

    def __call__(self, shown_path: str) -> Optional[list[str]]:
        if shown_path not in self._lines:
            from raiders.formats.safeio import quotable_lines

            text = self._texts.get(shown_path)
            self._lines[shown_path] = (text.splitlines() if text is not None
                                       else quotable_lines(shown_path))
        return self._lines[shown_path]


# A seed a log can hold: a log's numbers are 64-bit integers (docs/logs.md), and so are the
# seeds SEED..SEED+N-1 of N games (`check_seed_range`).
SEED = click.IntRange(-(2**63), 2**63 - 1)
# More games than any run finishes (about a week of games at full speed on two cores).
MAX_GAMES = 10**9


def check_seed_range(seed: int, games: int) -> None:
    """The last game's seed must fit a log too."""
    if seed + games - 1 > SEED.max:
        raise click.UsageError(f"--seed {seed} with {games} games runs past the largest seed "
                               f"a log holds ({SEED.max})")


def nonempty_path(ctx: click.Context, param: click.Parameter, value):
    """An option naming a file or folder: an empty name is a mistake, not "none"."""
    if value is not None and not str(value).strip():
        raise click.BadParameter("takes a path, not an empty name")
    return value


class Failure(click.ClickException):
    """The command could not do its job because of what it was given. The exit status travels
    with the exception (1; click's UsageError carries 2): the diagnostics, then a one-line
    message, go to stderr. Data a command produces goes to stdout; never this."""

    exit_code = 1

    def __init__(self, message: str = "", diagnostics: Sequence[Diagnostic] = (),
                 sources: Optional[dict[str, str]] = None):
        super().__init__(message)
        self.diagnostics = list(diagnostics)
        self.sources = sources or {}

    def show(self, file=None) -> None:
        if self.diagnostics:
            print_diagnostics(self.diagnostics, self.sources)
        if self.message:
            click.echo(self.message, err=True)


def load_rules_or_exit(ruleset: str, variant: Optional[str], cards: tuple[str, ...]):
    """Rules for a command, or a clean exit with diagnostics (1) or a usage error (2)."""
    import os

    from raiders.interpreter.runtime.rules import LoadError, load_rules

    cards = tuple(dict.fromkeys(os.path.normpath(c) for c in cards))  # the same mod once
    try:
        return load_rules(ruleset, variant, cards)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    except LoadError as err:
        raise Failure(f"the cards do not check clean: {len(err.diagnostics)} problem(s)",
                      err.diagnostics, err.sources) from None


def allow_path_option(f):
    """`--allow-path DIR` (repeatable): where paths named inside logs and scenario files may
    lead, besides each file's own folder (formats/safeio.py)."""
    return click.option(
        "--allow-path", "allow_paths", multiple=True, metavar="DIR",
        type=click.Path(exists=True),
        help="Let the logs and scenario files read name rulesets and mod folders inside DIR too "
             "(repeatable). Without it, a path they name must stay inside their own folder.")(f)


def found_files(paths, patterns) -> tuple[list[str], list[Diagnostic]]:
    """The files the command-line paths name: a file itself, or a folder's files matching the
    patterns, less links leading out of the folder (diagnostics, not read)."""
    from pathlib import Path

    from raiders.formats.safeio import files_below

    files: list[str] = []
    refused: list[Diagnostic] = []
    for p in paths:
        if Path(p).is_dir():
            found, diags = files_below(p, patterns)
            files.extend(sorted(str(f) for f in found))
            refused.extend(diags)
        else:
            files.append(p)
    return files, refused



# ---- colour: only on a terminal (click strips it elsewhere), never with NO_COLOR or
# --no-color, always with --color. Styling is applied as lines are printed, so the text
# itself (logs, JSON, pages) never holds a colour code.

def styled_diagnostic(text: str) -> str:
    """A rendered diagnostic with its severity and hint in colour."""
    head, _, rest = text.partition("\n")
    head = re.sub(r"(error\[\w+\])", lambda m: click.style(m.group(1), fg="red", bold=True),
                  head)
    head = re.sub(r"(warning\[\w+\])", lambda m: click.style(m.group(1), fg="yellow",
                                                                bold=True), head)
    rest = re.sub(r"(?m)^(\s*= hint:)", lambda m: click.style(m.group(1), fg="cyan"), rest)
    return head + ("\n" + rest if rest else "")


def styled_narration(line: str) -> str:
    """A line of a game's narration: floors and rooms stand out, the winners in green."""
    s = line.strip()
    if s.startswith(("Floor ", "Room ")):
        lead = line[:len(line) - len(line.lstrip("\n"))]  # a floor's header starts a paragraph
        return lead + click.style(line[len(lead):], bold=True)
    if s.startswith(("Winner", "The hero survived")):
        return click.style(line, fg="green", bold=True)
    if s.startswith(("Nobody wins", "The hero died")):
        return click.style(line, fg="red", bold=True)
    return line
