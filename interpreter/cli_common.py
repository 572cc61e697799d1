"""What the command modules share: printing diagnostics, loading rules for a command."""
from __future__ import annotations

import sys
from typing import Optional

import click

from raiders.dsl.diagnostics import Diagnostic, render, to_json
from raiders.dsl.library import display_path


def print_diagnostics(diags: list[Diagnostic], sources: dict[str, str], fmt: str = "text") -> None:
    diags = sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col))
    diags = [d.with_path(display_path(d.span.path)) for d in diags]
    if fmt == "json":
        click.echo(to_json(diags))
        return
    for d in diags:
        click.echo(render(d, source_lines(sources, d.span.path)) + "\n", err=True)


def source_lines(sources: dict[str, str], shown_path: str):
    for path, text in sources.items():
        if display_path(path) == shown_path:
            return text.splitlines()
    try:
        with open(shown_path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None


def load_rules_or_exit(ruleset: str, variant: Optional[str], cards: tuple[str, ...]):
    """Rules for a command, or a clean exit with diagnostics (1) or a usage error (2)."""
    from raiders.interpreter.rules import LoadError, load_rules

    import os

    cards = tuple(dict.fromkeys(os.path.normpath(c) for c in cards))  # the same mod once
    try:
        return load_rules(ruleset, variant, cards)
    except ValueError as err:
        raise click.UsageError(str(err))
    except LoadError as err:
        print_diagnostics(err.diagnostics, err.sources)
        click.echo(f"the cards do not check clean: {len(err.diagnostics)} problem(s)", err=True)
        sys.exit(1)


