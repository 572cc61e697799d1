"""`raiders simulate --sweep … [--target …]`: one run per value, one line per value."""
from __future__ import annotations

import json
from typing import Any, Optional

import attrs
import click

from .common import Failure, print_diagnostics, write_page
from .progress import INTERRUPTED, games_bar, interrupted_note

# Values played together on each seed (tools/pairs.py replays the first one's answers for the
# others up to the swept card's floor); a paired tally's sums grow as the square of its runs.
GROUP = 8


def run_sweep(base, rules, sweep_text: str, target_text: Optional[str], games: int, seed: int,
              jobs: Optional[int], precision: Optional[float], max_games: Optional[int],
              as_json: bool, setup_json: dict, report_file: Optional[str] = None,
              command: str = "") -> None:
    """Parse, check every value (exit 2 with the reason), play, print; `base`: the Setup."""
    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.runtime.sweep import (
        SweepError,
        aim,
        check_figure,
        parse_sweep,
        parse_target,
        resolve,
    )
    from raiders.interpreter.tools.simulate import JSON_FORMAT, SimulationError, simulate

    try:
        sweep = parse_sweep(sweep_text)
        target = parse_target(target_text) if target_text else None
        edits = resolve(rules.library, sweep, base.players, rules.ruleset.strength_players)
        if target is not None:
            check_figure(target.figure, rules, base.players, base.bots)
    except SweepError as err:
        raise click.UsageError(f"--sweep/--target: {err}") from None
    for e in edits:
        try:
            attrs.evolve(base, edits=(e,)).rules()  # as the simulation will load it
        except Problems as err:
            print_diagnostics(err.diagnostics, err.sources)
            raise click.UsageError(f"--sweep: {sweep.text} = {e.value} does not check "
                                   "(above)") from None
    card = sweep.card
    dealt = card in rules.deck or card in rules.bosses
    if card in rules.rooms and not dealt:
        click.echo(f"note: {card} is not dealt in these games: its number changes nothing",
                   err=True)
    # the same columns in the same order whatever the target; a target none of them shows
    # comes first
    room = card if card in rules.rooms else None
    shown = [f"card.{card}.coins", f"card.{card}.wounds"] if card in rules.rooms else \
        [f"win.character.{card}"] if card in rules.characters else []
    shown.append("win.seat.P1")
    if target is not None and target.figure not in shown:
        shown.insert(0, target.figure)
    rows: list[tuple[int, Any]] = []  # (value, its one-run tally)
    stopped = None  # Ctrl-C: how many values the group stopped held
    # The values are played together on each seed, a few at a time: a game under each value
    # after the first replays that one's answers up to the floor where the swept card lies
    # (tools/pairs.py), and a tally of several runs grows as the square of their number.
    groups = [edits[i:i + GROUP] for i in range(0, len(edits), GROUP)]
    with games_bar(len(groups) * (max_games or games), "sweep (seeds, a group of values each)"
                   ) as step:
        for group in groups:
            setups = tuple(attrs.evolve(base, edits=(e,)) for e in group)
            try:
                tally = simulate(setups, games, seed, jobs, step, precision, max_games)
            except SimulationError as err:
                values = ", ".join(str(e.value) for e in group)
                raise Failure(f"\nerror: {sweep.text} = {values}: {err}") from None
            if tally.games:
                rows.extend((e.value, tally.run(k)) for k, e in enumerate(group))
            if tally.interrupted:
                stopped = len(group)
                break
    if stopped is not None:  # no target, no report: the sweep did not see every value
        games_done = sum(t.games for _, t in rows)
        click.echo(interrupted_note(games_done), err=True)
        partly = ("each partly" if stopped == len(rows) else "the last one partly"
                  if stopped == 1 else f"the last {stopped} partly")
        click.echo(interrupted_note(games_done) + f": {len(rows)} of {len(edits)} values, "
                   + partly)
        for line in sweep_lines(sweep.text, rows, shown, None, None, room=room):
            click.echo(line)
        raise SystemExit(INTERRUPTED)
    best = None
    verdict: dict = {}
    if target is not None:
        figs = [(v, t.figures().get(target.figure)) for v, t in rows]
        verdict = aim([(v, (f.value, f.low, f.high) if f is not None and f.value is not None
                        and f.low is not None and f.high is not None else None)
                       for v, f in figs], target.value)
        best = verdict.pop("best")
    if report_file:
        _report(report_file, rules, sweep, rows, shown, target, best, setup_json, command, seed)
    if as_json:
        doc: dict[str, Any] = {"format": JSON_FORMAT, "setup": setup_json,
               "sweep": {"param": sweep.text, "values": [
                   {"value": v, **t.to_json()} for v, t in rows]}}
        if target is not None:
            doc["sweep"]["target"] = {"figure": target.figure, "value": target.value,
                                      "best": best, **verdict}
        click.echo(json.dumps(doc, indent=2, sort_keys=True))
        return
    for line in sweep_lines(sweep.text, rows, shown, target, best, verdict, room=room):
        click.echo(line)


def sweep_lines(param: str, rows: list, shown: list[str], target, best,
                verdict: Optional[dict] = None, room: Optional[str] = None) -> list[str]:
    """One line per value; `room`: the swept room card, whose times resolved get a column
    (dealt as the deck deals it, about one game in eleven for a boss: the precision of its
    figures rests on that count, not on the games)."""
    from raiders.interpreter.runtime.sweep import places_for
    from raiders.interpreter.tools.simulate import _cell, _kind

    head = f"  {'value':>6}  {'games':>6}  " + (f"{'resolved':>8}  " if room else "")
    lines = [f"sweep {param}: {rows[0][1].games if rows else 0}+ games per value, same seeds; "
             "95% intervals in brackets" + (f"; resolved: the times {room} was resolved"
                                            if room else ""),
             head + "  ".join(f"{s:>26}" for s in shown)]
    for v, t in rows:
        figs = t.figures()
        cells = [_cell(figs.get(s), _kind(s)[0] == "rate") for s in shown]
        mark = "  <- nearest" if best == v else ""
        times = f"{t.counts[0][f'resolved.{room}']:>8}  " if room else ""
        lines.append((f"  {v:>6}  {t.games:>6}  {times}" + "  ".join(f"{c:>26}" for c in cells)
                      + mark).rstrip())
    if target is not None:
        verdict = verdict or {}
        if not verdict.get("separated", True):
            why = (f"every value's 95% interval holds {target.value}"
                   if verdict.get("holding") else
                   f"their 95% intervals all overlap, and none holds {target.value}: no value "
                   "comes nearer the target than another")
            lines.append(f"target {target.figure} = {target.value}: the figure does not "
                         f"separate the values: {why} (more games, or --precision, may tell "
                         "them apart)")
        elif best is None:
            lines.append(f"target {target.figure} = {target.value}: the figure never arose")
        else:
            f = dict(rows)[best].figures()[target.figure]
            inside = f.low <= target.value <= f.high
            # the figure and its interval rounded alike, as the table shows them (a rate to
            # its 0.1%), in the target's own units
            places = places_for(f.low, f.high, target.value,
                                3 if _kind(target.figure)[0] == "rate" else 2)
            lines.append(f"target {target.figure} = {target.value}: nearest at {param} = {best} "
                         f"({f.value:.{places}f}, 95% [{f.low:.{places}f}, {f.high:.{places}f}]"
                         + (", the target is inside)" if inside else ", the target is outside)")
                         + _also(verdict.get("holding", []), best))
    return lines


def _also(holding: list[int], best) -> str:
    """The other values the target is as consistent with as the nearest's."""
    others = [str(v) for v in holding if v != best]
    return f"; the intervals of {', '.join(others)} hold it too" if others else ""


def _report(path: str, rules, sweep, rows: list, shown: list[str], target, best,
            setup_json: dict, command: str, seed: int) -> None:
    import html

    from raiders.interpreter.tools import report

    figs = [(v, t.figures()) for v, t in rows]
    sections = []
    for name in shown:
        svg = report.sweep_plot(sweep.text, figs, name,
                                target.value if target and target.figure == name else None, best)
        sections.append((name, f'<div class="plot">{svg}</div>'))
    body = report.figure_table([(f"{sweep.text} = {v}", f) for v, f in figs])
    sections.append(("Every figure, per value", body))
    card = rules.library.cards[sweep.card]
    source = rules.library.sources.get(card.span.path, "").splitlines()
    text = "\n".join(source[card.span.line - 1:card.span.end_line])
    sections.insert(0, ("The card swept", f"<pre>{html.escape(text)}</pre>"))
    texts = report.card_texts(setup_json.get("cards", []))
    best_note = "" if best is None else f" (nearest the target: {best})"
    write_page(path, report.page(f"raiders simulate --sweep {sweep.text}{best_note}", command,
                                 seed, rows[0][1].games if rows else 0, setup_json, sections,
                                 texts))
