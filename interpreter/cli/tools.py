"""Commands for modders' tools: `fmt` (the canonical layout of card files), `lsp`,
`new` (a mod to start from)."""
from __future__ import annotations

import difflib
import os
import sys

import click

from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import display_path

from .common import Failure, print_diagnostics


@click.command(name="fmt")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True))
@click.option("--check", is_flag=True,
              help="Change nothing: list the files whose layout is not the canonical one "
                   "(exit status 1 if there is any).")
@click.option("--diff", "show_diff", is_flag=True,
              help="Change nothing: print what would change, as a unified diff.")
def fmt_cmd(paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Lay out card files (*.dsl) in the one canonical layout, comments kept.

    PATHS are card files or folders (every *.dsl below them); `-` reads a card
    file on standard input and prints it formatted. A file is rewritten only when
    its layout changes, and atomically: it is never left half written. A file with
    a syntax error is reported and left alone. The layout is in docs/tools.md
    ("Formatting"). Exit status: 0 ok, 1 unformatted files (--check, --diff) or
    files that cannot be formatted, 2 usage errors.

    \b
    Examples:
      raiders fmt my-mod/
      raiders fmt --check cards/ examples/
      raiders fmt - < boss.dsl
    """
    from raiders.dsl.fmt import FormatError, format_text
    from raiders.dsl.library import CARD_SUFFIX
    from raiders.formats.fmtfile import format_file
    from raiders.formats.safeio import listed_files

    if "-" in paths:
        if len(paths) > 1:
            raise click.UsageError("`-` (standard input) cannot be mixed with paths")
        from raiders.formats.safeio import MAX_FILE_BYTES, decode_text

        # bytes, read as a file is (CliRunner swaps stdin too; click 8.2 deprecates its helper)
        raw = getattr(sys.stdin, "buffer", None)
        data = raw.read(MAX_FILE_BYTES + 1) if raw is not None else \
            sys.stdin.read(MAX_FILE_BYTES + 1).encode("utf-8", "surrogateescape")
        text, read_diags = decode_text("<stdin>", data)
        if text is None:
            raise Failure("", read_diags, {})
        try:
            out, diags = format_text(text, "<stdin>")
        except FormatError as err:
            raise Failure(f"internal error: {err}; nothing was changed") from None
        if out is None:
            raise Failure("", diags, {"<stdin>": text})
        if check or show_diff:
            if out != text:
                click.echo(_diff(text, out, "<stdin>") if show_diff else "<stdin>")
            if out != text:
                raise Failure()
        click.echo(out, nl=False)
        return
    files: list[str] = []
    problems: list[Diagnostic] = []
    for p in paths:
        if os.path.isfile(p) and not p.endswith(CARD_SUFFIX):
            raise click.UsageError(f"{p} is not a card file (*{CARD_SUFFIX}): fmt lays out "
                                   "card files only")
        found, refused = listed_files(p, f"*{CARD_SUFFIX}")
        files.extend(str(f) for f in found)
        problems.extend(refused)
    write = not (check or show_diff)
    changed = failed = 0
    sources: dict[str, str] = {}
    for f in dict.fromkeys(files):
        res = format_file(f, write)
        shown = display_path(f)
        if res.diagnostics:
            problems.extend(res.diagnostics)
            sources[f] = res.text
            failed += 1
        elif res.error:
            click.echo(f"internal error: {res.error}; the file was left as it was", err=True)
            failed += 1
        elif res.changed:
            changed += 1
            if show_diff:
                click.echo(_diff(res.text, res.formatted, shown), nl=False)
            elif check:
                click.echo(shown)
            else:
                click.echo(f"formatted {shown}")
    if problems:
        print_diagnostics(problems, sources)
    total = len(dict.fromkeys(files))
    verb = "formatted" if write else "would be formatted"
    summary = f"{changed} file(s) {verb}, {total - changed - failed} already formatted"
    if failed or problems:
        summary += f", {max(failed, len(problems))} not formatted (problems above)"
    click.echo(summary, err=True)
    if problems or failed or (changed and not write):
        raise Failure()


def _diff(old: str, new: str, path: str) -> str:
    """A unified diff `patch` takes: a last line without its newline is marked so."""
    lines = []
    for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                     f"{path} (as it is)", f"{path} (formatted)"):
        lines.append(line)
        if not line.endswith("\n"):
            lines.append("\n\\ No newline at end of file\n")
    return "".join(lines)


@click.command(name="lsp")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the default; "
              "accepted because editors pass it).")
def lsp_cmd(stdio: bool) -> None:
    """Run the language server for card files (LSP over stdio).

    Editors start it: diagnostics as you type (those of `validate`), hover (what
    `show` says), completion, go to definition, document symbols, quick fixes for
    "did you mean" hints, and formatting (`fmt`). Needs the `lsp` extra:
    pip install 'raiders[lsp]'. The VS Code extension is in editors/vscode.
    """
    try:
        from raiders.interpreter.tools.lsp import build_server

        server = build_server()
    except ImportError as err:
        raise Failure(f"raiders lsp needs pygls and lsprotocol ({err}): "
                      "pip install 'raiders[lsp]'") from None
    server.start_io()


@click.command(name="new")
@click.argument("what", type=click.Choice(["boss", "mod"]))
@click.argument("name")
@click.option("--dir", "parent", default=".", show_default=True,
              type=click.Path(file_okay=False), help="Where to create the mod folder.")
def new_cmd(what: str, name: str, parent: str) -> None:
    """Start a mod: a folder NAME with a card, mod.yaml and passing scenarios.

    `boss` writes a new boss (it joins the bosses); `mod` a new monster room (it
    joins the deck). Both check clean and their scenarios pass at once:

    \b
      raiders new boss stone-giant
      raiders validate stone-giant
      raiders test stone-giant/scenarios.yaml
      raiders play --cards stone-giant --seed 1
    """
    from pathlib import Path

    from raiders.interpreter.tools.scaffold import ScaffoldError, create

    try:
        made = create(what, name, Path(parent))
    except ScaffoldError as err:
        raise click.UsageError(str(err)) from None
    except OSError as err:
        raise Failure(f"cannot create {Path(parent) / name}: {err.strerror or err}") from None
    for f in made.files:
        click.echo(f"created {display_path(str(f))}")
    folder = display_path(str(made.folder))
    click.echo(f"next: raiders validate {folder} && raiders test {folder}/scenarios.yaml")


COMMANDS = (fmt_cmd, lsp_cmd, new_cmd)
