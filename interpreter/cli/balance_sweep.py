"""`raiders balance MOD --sweep … [--target …]`: what number makes the card fair? One paired run
per value of one of the card's numbers, every value in the card's slot of the same deals, with
the card's figures and its verdict per value
(docs/simulate.md#what-number-makes-it-fair-balance---sweep)."""
from __future__ import annotations

import json
from typing import Any, Optional

import attrs
import click

from .common import Failure, print_diagnostics
from .progress import INTERRUPTED, games_bar, interrupted_note, seeds_played

# The figures a target may name: the card's own, per player each time it is resolved.
TARGETS = ("out", "wounds", "coins")
TARGET_EXAMPLE = ("wounds=1.2, out=0.3 (a share of the players) or coins=-1.0 (taken); FIGURE "
                  "is out, wounds or coins")
# The verdict of each value, in a word or two (the codes as in `balance --json`)
SHORT = {"in_line": "in line", "out_of_line_harder": "OUT OF LINE, harder",
         "out_of_line_easier": "OUT OF LINE, easier", "out_of_line_mixed": "OUT OF LINE, mixed",
         "too_few_games": "too few games", "no_peers": "no peers"}


def sweep_balance(mod: str, base, modded, plan: list, base_setup, sweep_text: str,
                  target_text: Optional[str], games: int, seed: int, jobs: Optional[int],
                  as_json: bool, closing: list[str]) -> None:
    """Check the sweep and the target (usage errors, exit 2), play, print; `closing`: the
    last lines of every balance answer (the bots and the design)."""
    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.runtime.sweep import (
        SweepError,
        parse_sweep,
        parse_target,
        resolve,
    )
    from raiders.interpreter.runtime.sweep import aim as aim_at
    from raiders.interpreter.tools import balance as bal
    from raiders.interpreter.tools.simulate import SimulationError, simulate

    try:
        sweep = parse_sweep(sweep_text)
    except SweepError as err:
        raise click.UsageError(f"--sweep: {err}") from None
    try:
        target = parse_target(target_text, TARGET_EXAMPLE) if target_text else None
    except SweepError as err:
        raise click.UsageError(f"--target: {err}") from None
    entry = next((e for e in plan if e.card == sweep.card), None)
    if entry is None:
        raise click.UsageError(
            f"--sweep: {sweep.card} is not one of the cards this mod deals "
            f"({', '.join(e.card for e in plan)}); balance sweeps a number of the mod's own "
            "card in its slot (any other card: `raiders simulate --sweep`)")
    if target is not None and target.figure not in TARGETS:
        raise click.UsageError(f"--target: no figure `{target.figure}` here; balance aims at "
                               f"the card's own figures: {', '.join(TARGETS)} (per player each "
                               "time resolved), e.g. wounds=1.2")
    if target is not None and target.figure == "out" and not 0 <= target.value <= 1:
        raise click.UsageError(f"--target: `{target_text}`: out is a share of the players, "
                               "0..1 (30% is out=0.3)")
    mod_setup = attrs.evolve(base_setup, cards=(*base_setup.cards, mod))
    try:
        edits = resolve(modded.library, sweep, base_setup.players,
                        modded.ruleset.strength_players)
    except SweepError as err:
        raise click.UsageError(f"--sweep: {err}") from None
    setups = [base_setup]
    for e in edits:
        setup = attrs.evolve(mod_setup, edits=(e,))
        try:
            setup.rules()  # as the games will load it: every value checks like written text
        except Problems as err:
            print_diagnostics(err.diagnostics, err.sources)
            raise click.UsageError(f"--sweep: {sweep.text} = {e.value} does not check "
                                   "(above)") from None
        setups.append(setup)
    values = [e.value for e in edits]
    sweep_plan = (entry,) * len(edits)
    with games_bar(games, f"paired games, {len(values)} values") as step:
        try:
            tally = simulate(tuple(setups), games, seed, jobs, step,
                             chunk_fn=bal.chunk_fn(sweep_plan))
        except SimulationError as err:
            raise Failure(f"\nerror: {err}") from None
    players = base_setup.players
    verdicts = [bal.verdict(tally, k, entry, base, setups[k].rules(), players)
                for k in range(1, len(setups))]
    fair = [v for v, verdict in zip(values, verdicts, strict=True)
            if verdict.judgement.code == "in_line"]
    aim: dict[str, Any] = {}
    if target is not None:
        figs = [(v, verdict.me.figures.get(target.figure))
                for v, verdict in zip(values, verdicts, strict=True)]
        aim = {"figure": target.figure, "value": target.value, **aim_at(figs, target.value)}
    kinds = base_setup.bots
    var = modded.variant
    if tally.interrupted:  # on stderr too, as every long run says it (a --json reader sees it)
        click.echo(interrupted_note(tally.games), err=True)
    if as_json:
        click.echo(json.dumps(_document(mod, modded, base_setup, seed, tally, sweep.text, values,
                                        verdicts, fair, aim), indent=2, sort_keys=True))
    else:
        if tally.interrupted:
            click.echo(interrupted_note(tally.games) + ": the figures of the games finished")
        click.echo(f"balance {mod} --sweep {sweep_text}: {modded.ruleset.id} {var.name}, "
                   f"{players} player{'s' if players != 1 else ''}, {tally.games} paired "
                   "games a value "
                   f"{seeds_played(seed, games, tally.interrupted)} (the same deals for every "
                   "value), bots "
                   f"{', '.join(dict.fromkeys(kinds))}; 95% intervals in brackets")
        click.echo("")
        for line in sweep_lines(entry, sweep.text, values, verdicts, fair, aim):
            click.echo(line)
        for line in bal.peer_table(verdicts[0]):
            click.echo(line)
        click.echo("")
        for line in closing:
            click.echo(line)
    if tally.interrupted:
        raise SystemExit(INTERRUPTED)


def sweep_lines(entry, param: str, values: list[int], verdicts: list, fair: list[int],
                aim: dict) -> list[str]:
    """The card's figures and verdict per value, which values are in line, and the target."""
    from raiders.interpreter.tools import balance as bal

    me = verdicts[0].me
    lines = [f"{me.name} {entry.describe()}, per player each time resolved:",
             f"  {'value':>6}  {'resolved':>8}  {'players out':>22}  {'wounds':>20}  "
             f"{'coins':>22}  verdict"]
    for v, verdict in zip(values, verdicts, strict=True):
        figs = verdict.me.figures
        cells = [bal._num(f, m) if (f := figs.get(m)) is not None else "-"
                 for m, _ in bal.MEASURES]
        mark = "  <- nearest" if aim.get("best") == v else ""
        lines.append(f"  {v:>6}  {verdict.me.resolved:>8}  {cells[0]:>22}  {cells[1]:>20}  "
                     f"{cells[2]:>22}  {short(verdict.judgement)}{mark}")
    kind = bal.plural(entry.peer_kind)
    # values without a verdict are neither in line nor out of it: said apart
    open_ = [v for v, verdict in zip(values, verdicts, strict=True)
             if verdict.judgement.code in ("too_few_games", "no_peers")]
    why = ("too few games" if any(verdicts[values.index(v)].judgement.code == "too_few_games"
                                  for v in open_) else f"no printed {kind}")
    if len(open_) == len(values):
        lines.append(f"  no verdict at any value swept ({why})")
    else:
        said = (f"at {param} = {', '.join(map(str, fair))}" if fair else
                "at no value swept")
        if open_:
            said += f"; no verdict at {', '.join(map(str, open_))} ({why})"
        lines.append(f"  in line with the printed {kind} {said}")
    # the peers every verdict rests on are the same (the base games'): said once
    partial = next((v.judgement.partial for v in verdicts if v.judgement.partial), "")
    if partial:
        peers = partial.replace(" compared", f" printed {kind}", 1)
        lines.append(f"  the verdicts compare it with {peers}")
    if aim:
        lines.append("  " + _target_line(param, aim, verdicts, values))
    for v, verdict in zip(values, verdicts, strict=True):
        if verdict.judgement.code == "no_peers":  # its sentence points at lines not shown here
            lines.append(f"  no printed {entry.peer_kind} to measure it against: its figures "
                         "above are the answer (each value's change to the whole game: "
                         "--json, `game`)")
            break
        if verdict.judgement.code == "too_few_games":
            lines.append(f"  at {v}: {verdict.judgement.sentence}")
            break
    return lines


def short(judgement) -> str:
    """A value's verdict in the table: the word, and the figures out of line
    ("OUT OF LINE, harder (coins)"; mixed: each figure's way)."""
    flags = judgement.flags
    if not flags:
        return SHORT[judgement.code]
    mixed = judgement.code == "out_of_line_mixed"
    return SHORT[judgement.code] + " (" + ", ".join(
        f"{f['figure']} {f['direction']}" if mixed else f["figure"] for f in flags) + ")"


def _target_line(param: str, aim: dict, verdicts: list, values: list[int]) -> str:
    from raiders.interpreter.runtime.sweep import places_for

    figure, value = aim["figure"], aim["value"]
    head = f"target {figure} = {value}: "
    figs = [v.me.figures.get(figure) for v in verdicts]
    if not aim["separated"] and all(f is not None and f[0] == f[1] == f[2] == 0 for f in figs):
        # not noise that more games would narrow: the card never did it, at any value
        never = {"out": "put no player out", "wounds": "wounded no player",
                 "coins": "gave or took no coin"}[figure]
        return head + (f"the figure does not separate the values: the card {never} any time "
                       "it was resolved, at any value swept")
    if not aim["separated"]:
        if aim["holding"]:
            return head + ("the figure does not separate the values: every value's 95% "
                           f"interval holds {value} (more --games may)")
        # intervals that share a point and miss the target all lie on one side of it
        side = "below" if all(f[2] < value for f in figs if f is not None) else "above"
        return head + (f"the figure does not separate the values: their 95% intervals all lie "
                       f"{side} {value} and overlap one another; the values swept do not reach "
                       "it (sweep further, or more --games may tell them apart)")
    best = aim["best"]
    if best is None:
        return head + "the card was never resolved"
    f = verdicts[values.index(best)].me.figures[figure]
    inside = f[1] <= value <= f[2]
    places = places_for(f[1], f[2], value, 3 if figure == "out" else 2)
    others = [str(v) for v in aim["holding"] if v != best]
    judged = verdicts[values.index(best)].judgement
    # the recipe writes the nearest value into the card: not without saying it is out of line
    warn = (f"; but its verdict there is {short(judged)}"
            if judged.code.startswith("out_of_line") else "")
    return (head + f"nearest at {param} = {best} ({f[0]:.{places}f}, 95% [{f[1]:.{places}f}, "
            f"{f[2]:.{places}f}], the target is {'inside' if inside else 'outside'})"
            + (f"; the intervals of {', '.join(others)} hold it too" if others else "") + warn)


def _document(mod: str, modded, setup, seed: int, tally, param: str, values: list[int],
              verdicts: list, fair: list[int], aim: dict) -> dict:
    from raiders.interpreter.tools import balance as bal

    def fig(f):
        return None if f is None else f.to_json()

    def met(side):
        return {"resolved": side.resolved, "games_resolved": side.games, "enough": side.enough}

    first = verdicts[0]
    return {"format": "raiders-balance-sweep/1", "mod": mod, "ruleset": modded.ruleset.id,
            "variant": modded.variant.name, "players": setup.players, "bots": list(setup.bots),
            "seed": seed, "games": tally.games, "interrupted": tally.interrupted,
            "min_resolutions": bal.MIN_RESOLUTIONS, "min_games": bal.MIN_GAMES,
            "card": first.entry.card, "kind": first.entry.kind,
            "peer_kind": first.entry.peer_kind, "boss": first.entry.boss,
            "sweep": {"param": param, "in_line": fair, "target": aim or None, "values": [
                {"value": v, **{m: fig(f) for m, f in verdict.figures.items()},
                 **met(verdict.me),
                 "against_slot": {m: fig(d) for m, d in verdict.against_slot.items()},
                 "game": {k: fig(d) for k, d in verdict.game.items()},
                 "verdict": verdict.judgement.sentence,
                 "verdict_code": verdict.judgement.code, "flags": verdict.judgement.flags}
                for v, verdict in zip(values, verdicts, strict=True)]},
            "peers": {c: {**{m: fig(f) for m, f in figs.items()}, **met(side),
                          "dealt": side.dealt} for c, (side, figs) in first.peers.items()}}
