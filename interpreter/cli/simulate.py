"""`raiders simulate`: many games with bots, figures with 95% intervals (docs/simulate.md)."""
from __future__ import annotations

from typing import Optional

import click

from raiders.dsl.library import display_path

from .common import (
    DEFAULT_BOTS,
    MAX_GAMES,
    SEED,
    Failure,
    bot_kinds,
    check_seed_range,
    check_targets,
    complete_ruleset,
    given_once,
    load_rules_or_exit,
    nonempty_path,
    relative_to_log,
    write_page,
)
from .progress import INTERRUPTED, games_bar, interrupted_note


@click.command()
@click.option("--ruleset", shell_complete=complete_ruleset, default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None, help="The variant (default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: 4, or what the variant allows).")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True,
              help="Bot for every seat (greedy, the default everywhere: it plays as a careful "
                   "player would; random; search:N), or one per seat: "
                   "search:30,greedy,greedy,greedy. search:N spends about N greedy playouts "
                   "per decision (default 30). search:30 costs one core about 0.25 s per "
                   "4-player game with one search seat (the others greedy), 0.8 s with four "
                   "search seats, 0.06 s per solo game; the cost grows with N.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=1000, show_default=True,
              help="Games to play (with --precision: the first batch).")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Games use seeds SEED, SEED+1, …: the same run gives the same figures.")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder whose cards join the pool (repeatable).")
@click.option("--compare", "compare_mod", type=click.Path(exists=True, file_okay=False),
              default=None, help="A/B: also play the same seeds with this mod added; marks "
                                 "the differences whose 95% interval excludes zero.")
@click.option("--difficulty", type=click.IntRange(2, 5), default=None,
              help="Solo: the hero's starting wounds.")
@click.option("--precision", type=click.FloatRange(0.0005, 0.5), default=None,
              help="Keep playing, in batches, until every rate's 95% interval is at most "
                   "±PRECISION wide (0.01: one point), or --max-games.")
@click.option("--until-resolved", is_flag=True, help="Same as --precision 0.01.")
@click.option("--max-games", type=click.IntRange(1, MAX_GAMES), default=None,
              help="The cap for --precision (default: 100 × --games).")
@click.option("--sweep", "sweep_text", multiple=True, callback=given_once,
              metavar="CARD.FIELD=A..B",
              help="Play the games once per value of one number on one card, rewritten in "
                   "the card's text: CARD.FIELD (per-player fields: the shield for --players), "
                   "CARD.FIELD#K (its K-th number), CARD.FIELD.ROW (a table row), CARD#K (the "
                   "card's K-th number); values A..B, A..B:STEP or A,B,C. One line per value.")
@click.option("--target", "target_text", multiple=True, callback=given_once,
              metavar="FIGURE=VALUE",
              help="With --sweep: the value whose FIGURE comes nearest VALUE, e.g. "
                   "win.seat.P1=0.25, card.ID.wounds=1.5, out.unconscious=0.2 (figure names "
                   "as in --json).")
@click.option("--report", "report_file", type=click.Path(dir_okay=False), default=None,
              callback=nonempty_path,
              help="Also write one self-contained HTML page (no network needed) with the "
                   "command, the seed, every figure with its interval, plots (inline SVG) and "
                   "the mods' card texts. Needs matplotlib: pip install 'raiders[report]'.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Processes (default: every core). The figures do not depend on it.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the figures as JSON (schema raiders-simulate/2, docs/simulate.md).")
@click.option("--cluster", metavar="ADDRESS|auto", default=None,
              help="Play on a Dask cluster (pip install 'raiders[cluster]'): its scheduler's "
                   "address (tcp://host:8786), or `auto` for one on this machine with --jobs "
                   "workers. The figures are the same bytes as on local processes.")
@click.option("--log-dir", type=click.Path(file_okay=False), default=None,
              callback=nonempty_path,
              help="Also write one log per game (game-SEED.yaml) into this folder.")
@click.option("--force", is_flag=True,
              help="Let --log-dir replace logs that exist (refused without it).")
def simulate(ruleset: str, variant: Optional[str], n_players: Optional[int], bots: str,
             games: int, seed: int, cards: tuple[str, ...], compare_mod: Optional[str],
             difficulty: Optional[int], precision: Optional[float], until_resolved: bool,
             max_games: Optional[int], sweep_text: Optional[str], target_text: Optional[str],
             report_file: Optional[str], jobs: Optional[int], as_json: bool,
             log_dir: Optional[str], force: bool, cluster: Optional[str]) -> None:
    """Play many games with bots on every core and summarise them, to balance cards.

    Every figure comes with its 95% interval: wins by seat, by character and by
    bot, games with no winner, players out by cause (Wilson intervals); coins and
    wounds at the end and, for every room card, the coins and wounds it gives a
    player each time it is resolved (means, Student's t). --compare MOD plays the
    same seeds with the mod added and gives the paired difference, marked `*` where
    its interval excludes zero. The same seed gives the same figures whatever --jobs.

    Is one card fair? `raiders balance MOD` answers that: the mod's cards beside
    their printed peers, paired by slot (docs/simulate.md). Bots are greedy unless
    --bots says otherwise, as in play, diff and balance. Ctrl-C stops a run and
    prints the figures of the games finished (exit 130).

    \b
    Examples:
      raiders simulate --games 2000
      raiders simulate --players 3 --bots greedy --games 200 --compare examples/mods/shrine
      raiders simulate --games 500 --precision 0.02 --max-games 20000
      raiders simulate --ruleset classic --variant solo --players 1 --json
      raiders simulate --cards examples/mods/gorgon --sweep 'gorgon.wounds=1..4' \
        --target 'card.gorgon.wounds=1.0' --games 400
    """
    import json
    import os

    from raiders.interpreter.tools.simulate import JSON_FORMAT, Setup, SimulationError, table
    from raiders.interpreter.tools.simulate import simulate as run

    rules = load_rules_or_exit(ruleset, variant, cards)
    var = rules.variant
    if n_players is None:
        n_players = min(max(4, var.min_players), var.max_players)
    if rules.wrong_player_count(n_players):
        raise click.UsageError(rules.wrong_player_count(n_players))
    if difficulty is not None and var.scoring != "solo":
        raise click.UsageError("--difficulty is for solo play")
    if until_resolved and precision is not None:
        raise click.UsageError("--until-resolved is --precision 0.01: give one of them")
    if until_resolved:
        precision = 0.01
    if max_games is not None and precision is None:
        raise click.UsageError("--max-games caps --precision/--until-resolved")
    if max_games is not None and max_games < games:
        raise click.UsageError("--max-games is less than --games")
    from raiders.interpreter.tools.simulate import most_games

    check_seed_range(seed, most_games(games, precision, max_games))
    kinds = tuple(bot_kinds(bots, n_players))
    if log_dir and compare_mod:
        raise click.UsageError("--log-dir logs one run; leave out --compare")
    log_at = os.path.join(log_dir, "x.yaml") if log_dir else "x.yaml"
    if log_dir:

        last = seed + most_games(games, precision, max_games)
        check_targets(_logs_in(log_dir, seed, last), log_dir, force)
    # `variant` as given (None: the ruleset's first), so that the setups ask load_rules for
    # the rules loaded above (its cache) instead of loading and compiling them again.
    setups = [Setup(ruleset, variant, n_players, kinds, tuple(cards), difficulty, log_dir,
                    relative_to_log(ruleset, log_at),
                    tuple(relative_to_log(c, log_at) for c in cards),
                    overwrite=force)]
    if compare_mod:
        load_rules_or_exit(ruleset, variant, (*cards, compare_mod))
        setups.append(Setup(ruleset, variant, n_players, kinds, (*cards, compare_mod), difficulty))
    setup_json = {"ruleset": ruleset, "variant": var.name, "players": n_players,
                  "bots": list(kinds), "cards": list(cards), "seed": seed,
                  "difficulty": difficulty if var.scoring == "solo" else None,
                  "precision": precision}
    if report_file:
        from raiders.interpreter.tools import report

        if not report.available():
            raise click.UsageError(report.MISSING)
    command = _command_line(click.get_current_context())
    if cluster is not None:
        import importlib.util

        from raiders.interpreter.tools.simulate import CLUSTER_MISSING

        if importlib.util.find_spec("distributed") is None:
            raise click.UsageError(CLUSTER_MISSING)
        if sweep_text:
            raise click.UsageError("--cluster plays one run; a --sweep runs on local processes")
    if target_text and not sweep_text:
        raise click.UsageError("--target picks a value of --sweep")
    if sweep_text:
        if compare_mod or log_dir:
            raise click.UsageError("--sweep plays its own runs; leave out --compare and --log-dir")
        from .sweep import run_sweep

        run_sweep(setups[0], rules, sweep_text, target_text, games, seed, jobs, precision,
                  max_games, as_json, setup_json, report_file, command)
        return
    label = "games" if not compare_mod else "games (base and mod)"
    with games_bar(max_games or games, label) as step:
        try:
            tally = run(tuple(setups), games, seed, jobs, step, precision, max_games,
                        cluster)
        except SimulationError as err:
            raise Failure(f"\nerror: {err}") from None
    if tally.interrupted:
        click.echo(interrupted_note(tally.games), err=True)
    elif precision is not None:
        from raiders.interpreter.tools.simulate import widest

        reached = widest(tally)
        if reached > precision:  # the cap came first: say so, the figures are still good
            click.echo(f"note: stopped at {tally.games} games (--max-games) before every rate "
                       f"was within ±{precision:.2%}: the widest is ±{reached:.2%}", err=True)
    if report_file and not tally.interrupted:  # nothing more is written after Ctrl-C
        _write_report(report_file, tally, setup_json, command, seed, cards, compare_mod)
    if as_json:
        out: dict = {"format": JSON_FORMAT, "setup": setup_json}
        if tally.interrupted:
            out["interrupted"] = True
        if compare_mod:
            out.update(games=tally.games, players=n_players, mod=compare_mod,
                       base=tally.to_json(0), with_mod=tally.to_json(1),
                       differences={k: d.to_json() for k, d in tally.differences().items()
                                    if d.value is not None})
        else:
            out.update(tally.to_json(0))
        click.echo(json.dumps(out, indent=2, sort_keys=True))
    else:
        if tally.interrupted:
            click.echo(interrupted_note(tally.games) + ": the figures of the games finished")
        for line in table(tally, ("base", display_path(compare_mod) if compare_mod else "")):
            click.echo(line)
    if tally.interrupted:
        raise SystemExit(INTERRUPTED)


def _command_line(ctx: click.Context) -> str:
    """The command as it could be typed again: every option given a non-default value."""
    import shlex

    words = ["raiders", "simulate"]
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if value in (None, False, ()) or value == param.default:
            continue
        flag = param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0]
        for v in (value if isinstance(value, tuple) else (value,)):
            words += [flag] if value is True else [flag, str(v)]
    return shlex.join(words)


def _write_report(path: str, tally, setup_json: dict, command: str, seed: int,
                  cards: tuple[str, ...], compare_mod: Optional[str]) -> None:
    from raiders.interpreter.tools import report

    runs = [("base" if compare_mod else "games", tally.figures(0))]
    if compare_mod:
        runs.append((f"with {display_path(compare_mod)}", tally.figures(1)))
    diffs = tally.differences() if compare_mod else None
    texts = report.card_texts([*cards, *([compare_mod] if compare_mod else [])])
    title = "raiders simulate" + (f": {display_path(compare_mod)} against the base game"
                                  if compare_mod else "")
    write_page(path, report.page(title, command, seed, tally.games, setup_json,
                                 report.run_sections(runs, diffs), texts))


def _logs_in(log_dir: str, first: int, end: int) -> list:
    """The logs already in `log_dir` for seeds first..end-1 (one look at the folder, however
    many games: `--precision` may play up to 100 × --games)."""
    import os
    import re
    from pathlib import Path

    try:
        names = os.listdir(log_dir)
    except OSError:
        return []
    taken = []
    for name in sorted(names):
        m = re.fullmatch(r"game-(-?[0-9]+)\.yaml", name)
        if m is not None and first <= int(m.group(1)) < end:
            taken.append(Path(log_dir) / name)
    return taken
