"""Command-line parts of the replay viewer: `replay --html`, `replay --trace`, `play --from`
and `serve` (docs/viewer.md). The commands themselves live in cli/games.py and cli/__init__.py; this
module holds what they run, so that the shared command modules change by a few lines only."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import attrs
import click

from raiders.dsl.diagnostics import Diagnostic, Problems
from raiders.dsl.library import display_path

from .common import Failure, print_diagnostics, replay_hint

GENERATOR = b'<meta name="generator" content="raiders replay --html">'


def _replaceable(target: Path) -> bool:
    """A page may be written over nothing, or over a page `replay --html` wrote before (its
    generator tag near the top); anything else there is someone's file, kept."""
    import os
    import stat

    try:
        mode = os.lstat(target).st_mode
    except OSError:  # nothing there (or no way there): the write says what is wrong
        return True
    if not stat.S_ISREG(mode):  # a pipe would block the read below; a device, a folder
        return False
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            return GENERATOR in fh.read(4096)
    except OSError:
        return False


def _html_targets(files: list[str], html: str) -> list[Path]:
    """One log: `--html` is the page's file. Several: it is a folder, one page per log, named
    after the log (a.yaml -> a.html; the same stem twice keeps its folder in the name)."""
    from raiders.formats.safeio import is_dir

    if len(files) == 1 and not is_dir(html):  # a name too long is no folder, not an OSError
        return [Path(html)]
    stems = [Path(f).stem for f in files]
    out = []
    for f, stem in zip(files, stems, strict=True):
        name = stem if stems.count(stem) == 1 else \
            "-".join(Path(display_path(f)).with_suffix("").parts)
        out.append(Path(html) / f"{name}.html")
    return out


def replay_html(files: list[str], refused: list[Diagnostic], html: str, check: bool,
                quiet: bool, allow_paths: tuple[str, ...],
                cards: Optional[tuple[str, ...]] = None, complete: bool = False) -> int:
    """`replay --html`: a page per log; the exit status (1: a bad log, an unwritable page, or
    with --check a divergence)."""
    import os

    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.tools.viewer import view_for, write_html

    if len(files) > 1 and os.path.lexists(html) and not os.path.isdir(html):
        raise Failure(f"error: --html {html}: {len(files)} logs make a page each, in a "
                      "folder; that name is taken by a file")
    bad = len(refused)
    ok = 0
    for f, target in zip(files, _html_targets(files, html), strict=True):
        shown = display_path(f)
        if not _replaceable(target):
            bad += 1
            click.echo(f"error: {target} exists and is not a page raiders wrote: not "
                       "overwritten (remove it or pick another name)", err=True)
            continue
        try:
            data = view_for(f, allow_paths, cards=cards)
        except Problems as err:
            bad += 1
            click.echo(f"FAIL  {shown}: bad log")
            print_diagnostics(err.diagnostics, {})
            continue
        try:
            write_html(str(target), data)
        except OSError as err:
            bad += 1
            click.echo(f"error: cannot write {target}: {err.strerror or err}", err=True)
            continue
        note = ""
        first = data["firstDivergence"]
        if first is not None:
            s = data["steps"][first]
            d = s["diverges"][0]
            note = (f"; the checkpoint differs at floor {s['floor'] + 1}, room {s['room'] + 1} "
                    f"({s['card']}): {d['player']}.{d['field']}: expected {d['expected']!r}, "
                    f"got {d['actual']!r}")
        elif data["result"] is not None and data["result"]["diverges"]:
            d = data["result"]["diverges"][0]
            note = f"; the result differs: {d['field']}: expected {d['expected']!r}"
        elif complete and data["result"] is None:
            note = "; a game in progress, not a finished game (--complete)"
        if note and check:
            bad += 1
        else:
            ok += 1
        if not quiet or note:
            click.echo(f"wrote {display_path(str(target))}: {shown}, {len(data['steps'])} "
                       f"room(s){note}")
    if len(files) + len(refused) > 1 or check:
        click.echo(f"{len(files) + len(refused)} log(s): {ok} ok, {bad} failed")
    return 1 if bad else 0


class TraceNarration:
    """`replay --trace`: the narration's rooms with the rules' steps among the effects."""

    def __init__(self, rules: Any):
        from raiders.interpreter.records.why import RoomEffects, WhyRecorder

        self.rules = rules
        self.recorder = WhyRecorder(rules)
        self.effects = RoomEffects()

    def start(self, game: Any) -> None:
        game.table.why = self.recorder

    def room_lines(self, rec: Any) -> list[str]:
        from raiders.interpreter.records.narrate import effect_words, room_lines
        from raiders.interpreter.records.why import trace_lines

        effects, start = self.effects.of(rec.trace)
        # all but the line of what happened: the trace lists every effect with its steps,
        # those between rooms too, so they are not also put before the room
        head = room_lines(self.rules, attrs.evolve(rec, before=0))[:-1]
        return head + trace_lines(effects, start, self.recorder.take(), effect_words)


# ---- play --from LOG --room N

def play_from(log: str, room: Optional[int], bots: str, human_seats: tuple[int, ...],
              seed: Optional[int], log_file: Optional[str], quiet: bool,
              allow_paths: tuple[str, ...], cards: Optional[tuple[str, ...]] = None) -> None:
    from raiders.interpreter.game.human import HumanSeat
    from raiders.interpreter.game.players import BOTS
    from raiders.interpreter.records.branch import branch_game, branch_meta
    from raiders.interpreter.records.logs import read_log, render_log, write_atomic
    from raiders.interpreter.records.narrate import (
        floor_header,
        result_lines,
        room_lines,
        standings,
    )
    from raiders.interpreter.runtime.room import RulesError

    from .common import bot_kinds

    try:
        spec = read_log(log, allow_paths, cards)
    except Problems as err:
        raise Failure(f"FAIL  {display_path(log)}: bad log", err.diagnostics) from None
    n = len(spec.names)
    keep = len(spec.rooms) if room is None else room
    if not 0 <= keep <= len(spec.rooms):
        raise click.UsageError(f"--room takes 0..{len(spec.rooms)}: {display_path(log)} has "
                               f"{len(spec.rooms)} room(s)")
    if any(h > n for h in human_seats):
        raise click.UsageError(f"--human takes a seat 1..{n}")
    kinds = bot_kinds(bots, n)
    seats = [HumanSeat() if i + 1 in human_seats else BOTS[k]() for i, k in enumerate(kinds)]
    if seed is None:
        seed = spec.meta.seed if spec.meta.seed is not None else 1
    rules = spec.rules
    narrate = not quiet
    try:
        branch = branch_game(spec, keep, seats, seed)
    except Problems as err:
        raise Failure(f"FAIL  {display_path(log)}: bad log", err.diagnostics) from None
    game = branch.game
    effects_of = None
    if narrate:
        from raiders.interpreter.records.why import RoomEffects

        effects_of = RoomEffects()
        click.echo(f"{display_path(log)}: {rules.ruleset.name}, {rules.variant.name} play, "
                   f"{n} player(s); the log's first {keep} room(s), then the seats play "
                   f"(seed {seed})")

    def on_room(rec) -> None:
        if effects_of is None:  # not narrating
            return
        k = len(game.records)
        if rec.index == 0:
            click.echo(floor_header(rec.floor, game.deal.floors[rec.floor].floor_card))
        if k == keep + 1:
            click.echo(f"  --- from here on the seats play (room {k}) ---")
        effects, _ = effects_of.of(rec.trace)
        for line in room_lines(rules, attrs.evolve(rec, trace=effects)):
            click.echo(line)
        click.echo(standings(game.players, rules))

    try:
        result = branch.run(on_room)
    except Problems as err:
        raise Failure(f"FAIL  {display_path(log)}: bad log", err.diagnostics) from None
    except RulesError as err:
        raise Failure(f"error: {err}") from None
    for line in result_lines(result, rules.variant.scoring == "solo", rules):
        click.echo(line)
    if log_file:
        target = Path(log_file)
        meta = branch_meta(spec, seed, target)
        text = render_log(meta, rules, result)
        try:
            write_atomic(target, text)
        except OSError as err:
            raise Failure(f"error: cannot write {target}: {err.strerror or err}") from None
        def from_here(p: str) -> str:  # a path of the new log, as the command line names it
            return os.path.relpath(os.path.join(target.parent, p))

        replay_hint(meta, target, tuple(map(from_here, meta.cards)), from_here(meta.ruleset))


# ---- serve

@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--bind", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The address to listen on. Any address but a loopback one (127.0.0.1, ::1) "
                   "makes the server reachable from other machines: it then wants a random "
                   "token in every URL, and prints the URL with it.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Answer requests that name the server NAME too (its `Host:`; repeatable). "
                   "By default localhost, any IP address and the name the server is bound to "
                   "(the machine's own name when bound to 0.0.0.0).")
@click.option("--client-timeout", type=click.FloatRange(0.1, 3600), default=10.0,
              show_default=True, metavar="SECONDS",
              help="How long a client may take to send its request, and to take its answer "
                   "(a slower one gets 408 and is closed).")
@click.option("--allow-path", "allow_paths", multiple=True, metavar="DIR",
              type=click.Path(exists=True),
              help="Let the logs name rulesets and mod folders inside DIR too (repeatable).")
def serve(folder: str, port: int, bind: str, allow_hosts: tuple[str, ...],
          client_timeout: float, allow_paths: tuple[str, ...]) -> None:
    """Serve the replay viewer for a folder of logs on http://127.0.0.1:PORT/.

    The index lists every log below FOLDER (a YAML file whose `format:` line says
    raiders-log); each opens in the same viewer that `raiders replay LOG --html` writes. No
    other file is listed or shown. Requests that name another host (DNS rebinding) are
    refused. Stop with Ctrl-C.
    """
    from raiders.interpreter.tools.serve import make_server

    try:
        server = make_server(folder, port, allow_paths, bind, allow_hosts,
                             timeout=client_timeout)
    except OSError as err:
        raise Failure(f"error: cannot listen on {bind} port {port}: "
                      f"{err.strerror or err}") from None
    click.echo(f"serving {display_path(folder)} ({len(server.files)} log(s)) on "
               f"{server.url} (Ctrl-C stops)")
    if server.token:
        click.echo("reachable from other machines: the URL carries a token, needed on every "
                   "request; share it only with those who may see these logs")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
