"""`raiders print`: a mod's (or a ruleset's) cards as printable card faces."""
from __future__ import annotations

import os
from typing import Optional

import click

from .common import Failure

EXTRA_HINT = "pip install 'raiders[print]'"


@click.command(name="print")
@click.argument("paths", nargs=-1, required=True)
@click.option("--out", "out", required=True, metavar="FILE.pdf|FOLDER",
              help="The PDF to write (replaced if it exists: you named it); with --format svg "
                   "or png, the folder to write one file per card into.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "svg", "png"]), default="pdf",
              show_default=True,
              help="`pdf`: sheets of nine cards for a home printer; `svg`, `png`: one file per "
                   "card, named after its id.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="The sheet size of the PDF.")
@click.option("--ruleset", default=None, metavar="RULESET",
              help="The ruleset a mod's cards are loaded on (default: the first of the mod's "
                   "`rulesets:`, else deluxe).")
@click.option("--variant", default=None,
              help="Print the cards as this variant plays them (e.g. classic solo's monsters).")
@click.option("--copies", is_flag=True,
              help="In the PDF, each card as many times as a game holds it (the deck's or "
                   "the supply's count), to play with; default: each card once, to proofread.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="With --format png: the resolution.")
@click.option("--force", is_flag=True,
              help="With --format svg or png: replace card files that exist in the folder.")
@click.option("--strict", is_flag=True,
              help="Exit 1 when a card had to be cut or lacks a glyph (after writing).")
def print_cmd(paths: tuple[str, ...], out: str, fmt: str, paper: str, ruleset: Optional[str],
              variant: Optional[str], copies: bool, dpi: int, force: bool,
              strict: bool) -> None:
    """Print cards as card faces: sheets of nine for a home printer, or one file per card.

    PATHS are built-in rulesets (deluxe, classic), ruleset files or folders holding
    one, mod folders, folders of mods, or card files (*.dsl) in a mod. Each card
    gets a face: its name, its kind, its numbers (a monster's strength for each
    player count, its wounds, a treasure's chests, …) and its rules in the plain
    words `raiders show` prints, on a frame coloured by kind.

    Cards are poker size (63.5 × 88.9 mm), nine to a sheet of A4 or Letter, with
    crop marks; fonts are embedded. Words that do not fit shrink; what still does
    not fit is cut and reported as a warning naming the card. Needs the `print`
    extra (pip install 'raiders[print]').

    \b
    Examples:
      raiders print examples/mods/bosses-2013 --out bosses.pdf
      raiders print deluxe --paper letter --copies --out deluxe.pdf
      raiders print examples/mods/gorgon --format png --out gorgon-cards/
    """
    try:
        from raiders.interpreter.tools import cardsheet
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] != "matplotlib":
            raise
        raise Failure(f"error: raiders print draws with matplotlib, which is not installed: "
                      f"{EXTRA_HINT}") from None
    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.tools.cardfaces import PathError, faces, sources

    _check_out(out, fmt)
    try:
        found = sources(paths, ruleset, variant)
    except PathError as err:
        raise click.UsageError(str(err)) from None
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    except Problems as err:
        raise Failure(f"the cards do not check clean: {len(err.diagnostics)} problem(s)",
                      err.diagnostics, err.sources) from None
    if fmt == "pdf":
        read = {os.path.realpath(f) for source in found for f in source.rules.library.sources}
        if os.path.realpath(out) in read:
            raise click.UsageError(f"--out {out} is one of the card files being printed: "
                                   "name another file")
    cards = [f for source in found for f in faces(source)]
    if not cards:
        raise Failure("error: no cards to print in " + ", ".join(paths))
    warned = 0

    def warn(face, message: str) -> None:
        nonlocal warned
        warned += 1
        click.echo(f"warning: card `{face.card_id}` ({face.name}): {message}", err=True)

    drawn = cardsheet.lay_out(cards, warn)
    if fmt == "pdf":
        from raiders.formats.atomic import write_atomic

        sheet = [d for d in drawn for _ in range(d.face.copies if copies else 1)]
        write_atomic(out, cardsheet.pdf_sheets(sheet, paper, _title(found)))
        pages = -(-len(sheet) // cardsheet.PER_PAGE)
        size = "A4" if paper == "a4" else "Letter"
        click.echo(f"wrote {out}: {len(sheet)} card(s) on {pages} page(s), {size}")
    else:
        written = _write_cards(drawn, out, fmt, dpi, force, cardsheet)
        click.echo(f"wrote {written} card file(s) ({fmt}) into {out}")
    if strict and warned:
        raise Failure(f"{warned} warning(s) (--strict)")


def _check_out(out: str, fmt: str) -> None:
    if fmt == "pdf":
        if os.path.isdir(out):
            raise click.UsageError(f"--out {out} is a folder: name the PDF to write "
                                   "(a folder takes --format svg or png)")
        ext = os.path.splitext(out)[1].lower()
        if ext in (".svg", ".png"):
            raise click.UsageError(f"--out {out}: one file per card needs --format "
                                   f"{ext[1:]} and a folder to write them into")
        parent = os.path.dirname(out) or "."
        if not os.path.isdir(parent):
            raise click.UsageError(f"--out {out}: no folder {parent}")
    elif os.path.exists(out) and not os.path.isdir(out):
        raise click.UsageError(f"--out {out} is a file: with --format {fmt} name a folder "
                               "(one file per card is written into it)")


def _file_names(drawn, fmt: str) -> list[str]:
    """`ID.svg`; a second card of the same id (two rulesets printed at once) `ID-2.svg`."""
    names: list[str] = []
    taken: set[str] = set()
    for d in drawn:
        stem, n = d.face.card_id, 1
        name = f"{stem}.{fmt}"
        while name in taken:
            n += 1
            name = f"{stem}-{n}.{fmt}"
        taken.add(name)
        names.append(name)
    return names


def _write_cards(drawn, out: str, fmt: str, dpi: int, force: bool, cardsheet) -> int:
    """One file per card. The folder's files are only ever replaced with --force: they were
    not named one by one, so all are checked before the first is written."""
    from raiders.formats.atomic import FileExists, write_new

    names = _file_names(drawn, fmt)
    targets = [os.path.join(out, n) for n in names]
    taken = [t for t in targets if os.path.lexists(t)]
    if taken and not force:
        more = f" and {len(taken) - 3} more" if len(taken) > 3 else ""
        raise Failure(f"error: {', '.join(taken[:3])}{more} exist(s): nothing written "
                      "(--force replaces them)")
    os.makedirs(out, exist_ok=True)
    for d, target in zip(drawn, targets, strict=True):
        try:
            write_new(target, cardsheet.card_file(d, fmt, dpi), overwrite=force)
        except FileExists:
            raise Failure(f"error: {target} appeared while writing: not replaced "
                          "(--force replaces it)") from None
    return len(targets)


def _title(found) -> str:
    return "raiders cards: " + ", ".join(dict.fromkeys(s.label for s in found))
