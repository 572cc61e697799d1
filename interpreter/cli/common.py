"""What the command modules share: printing diagnostics, loading rules, seeds, `--bots`, and
the log files a game command is about to write (checked before any game is played)."""
from __future__ import annotations

import re
from typing import Optional, Sequence

import click

from raiders.dsl.diagnostics import Diagnostic, render, to_json
from raiders.dsl.library import display_path
from raiders.formats.quote import SourceLines


def print_diagnostics(diags: list[Diagnostic], sources: dict[str, str], fmt: str = "text") -> None:
    diags = sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col))
    diags = [d.with_path(display_path(d.span.path)) for d in diags]
    if fmt == "json":
        click.echo(to_json(diags))
        return
    lines = SourceLines(sources)
    for d in diags:
        click.echo(styled_diagnostic(render(d, lines(d.span.path))) + "\n", err=True)


# A seed a log can hold: a log's numbers are 64-bit integers (docs/logs.md), and so are the
# seeds SEED..SEED+N-1 of N games (`check_seed_range`).
SEED_MAX = 2**63 - 1  # a log's seed is a signed 64-bit number
SEED = click.IntRange(-(2**63), SEED_MAX)
# More games than any run finishes (about a week of games at full speed on two cores).
MAX_GAMES = 10**9


def check_seed_range(seed: int, games: int) -> None:
    """The last game's seed must fit a log too."""
    if seed + games - 1 > SEED_MAX:
        raise click.UsageError(f"--seed {seed} with {games} games runs past the largest seed "
                               f"a log holds ({SEED_MAX})")


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

    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.runtime.rules import load_rules

    cards = tuple(dict.fromkeys(os.path.normpath(c) for c in cards))  # the same mod once
    try:
        return load_rules(ruleset, variant, cards)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    except Problems as err:
        raise Failure(f"the cards do not check clean: {len(err.diagnostics)} problem(s)",
                      err.diagnostics, err.sources) from None


# ---- shell completion (click's: docs/tools.md): values a person would otherwise look up

def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
    """`--ruleset`: the built-in rulesets, and paths (a ruleset.yaml)."""
    from click.shell_completion import CompletionItem

    from raiders.formats.rulesets import builtin_ids

    # The file item first: click's bash script empties the list at a file item, so after it
    # the names stay (and bash falls back to file names when none matches).
    return [CompletionItem(incomplete, type="file")] + \
        [CompletionItem(i) for i in builtin_ids() if i.startswith(incomplete)]


def complete_card(ctx: click.Context, param: click.Parameter, incomplete: str) -> list:
    """A card id or kind of the rules the command line names so far (its --ruleset, --variant
    and --cards); nothing when they do not load: completion never prints an error."""
    from click.shell_completion import CompletionItem

    from raiders.interpreter.runtime.rules import load_rules

    try:
        rules = load_rules(ctx.params.get("ruleset") or "deluxe", ctx.params.get("variant"),
                           tuple(ctx.params.get("cards") or ()))
    except Exception:  # half-typed options, a broken mod: offer nothing, never fail
        return []
    names = sorted({*rules.library.cards, *rules.library.kinds})
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


def allow_path_option(f):
    """`--allow-path DIR` (repeatable): where paths named inside logs and scenario files may
    lead, besides each file's own folder (formats/safeio.py)."""
    return click.option(
        "--allow-path", "allow_paths", multiple=True, metavar="DIR",
        type=click.Path(exists=True),
        help="Let the logs and scenario files read name rulesets and mod folders inside DIR too "
             "(repeatable). Without it, a path they name must stay inside their own folder.")(f)


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


# ---- what the game commands share (play, simulate, review, the viewer's play --from)

def draw_seed() -> int:
    """A fresh seed from the system's entropy, small enough to type back."""
    import secrets

    return secrets.randbelow(10**9)


def relative_to_log(path_or_id: str, log_file) -> str:
    """A path as a log must hold it: relative to the log's folder (a log is read from
    anywhere); a built-in ruleset id stays an id."""
    import os
    from pathlib import Path

    from raiders.formats.rulesets import builtin_ids

    if path_or_id in builtin_ids() or not Path(path_or_id).exists():
        return path_or_id
    return os.path.relpath(Path(path_or_id).resolve(), Path(log_file).parent.resolve())


# The bots every command plays with unless told (play, simulate, diff, balance, fuzz's replay of
# a game aside): greedy, the cheapest bot that plays as a careful player would. Why, in
# tools/balance.BOTS_WHY and docs/simulate.md#which-bots.
DEFAULT_BOTS = "greedy"


def bot_kinds(bots: str, n_players: int) -> list[str]:
    """`--bots`: one kind for every seat, or one per seat, each a bot `parse_bot` knows."""
    from raiders.interpreter.game.botspec import bot_classes, parse_bot

    kinds = [k.strip() for k in bots.split(",")]
    if len(kinds) == 1:
        kinds = kinds * n_players
    if len(kinds) != n_players:
        raise click.UsageError(f"--bots takes one of {', '.join(bot_classes())} or one per seat "
                               f"({n_players} seats)")
    for k in kinds:
        try:
            parse_bot(k)
        except ValueError as err:
            raise click.UsageError(f"--bots: {err}") from None
    return kinds


def check_targets(targets: list, log_dir: Optional[str], force: bool) -> None:
    """Before any game is played: the log folder can be written, and no log that exists is
    replaced without --force (a killed run's temporary files are cleared away)."""
    from raiders.formats.atomic import clean_stale_temps, refuse_special
    from raiders.formats.safeio import writable_folder

    if log_dir:
        why = writable_folder(log_dir)
        if why:
            raise Failure(f"error: cannot write logs in {log_dir}: {why}")
        clean_stale_temps(log_dir)
    import os

    taken = [t for t in targets if os.path.lexists(t)]  # False for a name too long
    for t in taken:  # first: --force would not help with these
        try:
            refuse_special(t)
        except OSError as err:
            raise Failure(f"error: cannot write {t}: {err.strerror}") from None
    if taken and not force:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        raise Failure(f"error: {taken[0]} exists already{more}: not overwritten "
                      "(--force replaces it)")
    for t in targets:  # a log's folder must be there before the game, not after it
        folder = os.path.dirname(os.fspath(t)) or "."
        if not log_dir and not os.path.isdir(folder):
            raise Failure(f"error: cannot write {t}: no folder {folder}")


def write_page(path: str, text: str) -> None:
    """An HTML page a command writes (`--report`), whole or not at all; said on stderr."""
    from raiders.formats.atomic import write_atomic

    try:
        write_atomic(path, text)
    except OSError as err:
        raise Failure(f"error: cannot write {path}: {err}") from None
    click.echo(f"report: {path}", err=True)


def replay_hint(meta, target, cards: tuple[str, ...], ruleset: str,
                folder: Optional[str] = None) -> None:
    """A log may name only paths inside its own folder (docs/security.md). When this one names
    a mod or a ruleset elsewhere, say so as it is written, with the exact command that replays
    it, rather than let the replay be refused later."""
    import shlex
    from pathlib import Path

    from raiders.formats.rulesets import builtin_ids
    from raiders.formats.safeio import Confinement

    box = Confinement(Path(target).parent)
    def outside(named: str) -> bool:
        return named not in builtin_ids() and box.resolve(named)[0] is None

    named = [n for n in (meta.ruleset, *meta.cards) if outside(n)]
    if not named:
        return
    words = ["raiders", "replay"]
    if outside(meta.ruleset):
        words += ["--allow-path", str(Path(ruleset).parent) if Path(ruleset).is_file()
                  else ruleset]
    if any(outside(n) for n in meta.cards):
        for c in cards:  # every one: --cards stands for all the mods a log names
            words += ["--cards", c]
    what = f"the logs in {folder} name" if folder else f"{target} names"
    click.echo(f"note: {what} {', '.join(f'`{n}`' for n in named)}, outside "
               f"{'their' if folder else 'its'} own folder, where a log may not lead by itself "
               "(docs/security.md); replay "
               f"{'them' if folder else 'it'} with:\n  "
               + shlex.join([*words, str(folder or target)]), err=True)


def given_once(ctx: click.Context, param: click.Parameter, given: tuple[str, ...]
               ) -> Optional[str]:
    """The callback of an option that may be given at most once (declared `multiple=True`):
    click keeps the last of several silently, so a second --sweep replaced the first without
    a word. None when not given."""
    if len(given) > 1:
        what = "sweeps one number" if param.name == "sweep_text" else "aims at one figure"
        raise click.BadParameter(f"given {len(given)} times ({'; '.join(given)}): "
                                 f"{ctx.info_name} {what} at a time (run it once for each)")
    return given[0] if given else None
