"""Commands about games: `play`, `replay` and `simulate`."""
from __future__ import annotations

from typing import Optional

import click

from raiders.dsl.library import display_path

from .common import (
    DEFAULT_BOTS,
    MAX_GAMES,
    SEED,
    Failure,
    allow_path_option,
    bot_kinds,
    check_seed_range,
    check_targets,
    complete_ruleset,
    draw_seed,
    load_rules_or_exit,
    nonempty_path,
    print_diagnostics,
    relative_to_log,
    replay_hint,
    styled_narration,
)


@click.command()
@click.option("--ruleset", shell_complete=complete_ruleset, default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None,
              help="deluxe: standard, tactical; classic: standard, quick, duel, solo "
                   "(default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: 4, or what the variant allows).")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True,
              help="Bot for every seat (random, greedy), or one per seat: greedy,random,greedy.")
@click.option("--seed", type=SEED, default=None,
              help="Seed for the deal and the bots (default: drawn at random, printed and "
                   "logged).")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder whose cards join the pool (repeatable). With --from: the "
                   "mods to play the log with, instead of those it names.")
@click.option("--names", default=None, help="Player names, comma separated.")
@click.option("--difficulty", type=click.IntRange(2, 5), default=None,
              help="Solo: the hero's starting wounds, 2..5 (default 3).")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), default=None,
              callback=nonempty_path,
              help="Write the game's log (raiders-log/1) to this file.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=1, show_default=True,
              help="Play this many games (seeds SEED, SEED+1, …); with --log-dir, one log each.")
@click.option("--log-dir", type=click.Path(file_okay=False), default=None,
              callback=nonempty_path,
              help="Folder for one log per game (game-SEED.yaml).")
@click.option("--human", "human_seats", multiple=True, type=click.IntRange(1),
              help="A person plays this seat (1-based) at the terminal (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the result.")
@click.option("--force", is_flag=True,
              help="Let --log and --log-dir replace logs that exist (refused without it).")
@click.option("--from", "from_log", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Continue this logged game: its first --room N rooms as logged, then the "
                   "seats play on (docs/viewer.md).")
@click.option("--room", "from_room", type=click.IntRange(0), default=None,
              help="With --from: how many of the log's rooms to keep (default: all).")
@allow_path_option
def play(ruleset: str, variant: Optional[str], n_players: Optional[int], bots: str,
         seed: Optional[int], cards: tuple[str, ...], names: Optional[str],
         difficulty: Optional[int], log_file: Optional[str], games: int,
         log_dir: Optional[str], human_seats: tuple[int, ...], quiet: bool,
         force: bool, from_log: Optional[str], from_room: Optional[int],
         allow_paths: tuple[str, ...]) -> None:
    """Play a game with bots and narrate it floor by floor, room by room.

    With --games N, plays N games (quietly, one result line each); --log-dir keeps
    a log of each, and --log the log of a single game. Logs replay with
    `raiders replay`.

    \b
    Examples:
      raiders play --ruleset deluxe --players 4 --bots greedy --seed 7
      raiders play --ruleset classic --variant duel --players 2 --seed 3
      raiders play --ruleset classic --variant solo --players 1 --difficulty 4
      raiders play --games 100 --seed 1 --log-dir logs/
      raiders play --from game.yaml --room 12 --bots greedy --log branch.yaml
    """
    from pathlib import Path

    if from_room is not None and not from_log:
        raise click.UsageError("--room N is where a logged game goes on: give --from LOG")
    if from_log:
        from .viewer import play_from

        # The log says the game: options that would say it again are a usage error, not
        # silently ignored.
        ctx = click.get_current_context()
        def given(names: tuple[str, ...]) -> str:
            return ", ".join(f"--{n.replace('_', '-')}".replace("--n-players", "--players")
                             for n in names if ctx.get_parameter_source(n)
                             == click.core.ParameterSource.COMMANDLINE)

        fixed = given(("ruleset", "variant", "n_players", "names", "difficulty"))
        if fixed:
            raise click.UsageError(f"--from plays on the logged game: leave out {fixed} "
                                   "(the log says them)")
        many = given(("games", "log_dir"))
        if many:
            raise click.UsageError(f"--from plays on one logged game: leave out {many} "
                                   "(write the new game's log with --log)")

        check_targets([Path(log_file)] if log_file else [], None, force)
        return play_from(from_log, from_room, bots, human_seats, seed, log_file, quiet,
                         allow_paths, cards or None)
    from raiders.formats.atomic import write_new
    from raiders.interpreter.game.botspec import make_bot
    from raiders.interpreter.game.engine import Game
    from raiders.interpreter.records.logs import LogMeta, render_log
    from raiders.interpreter.records.narrate import (
        floor_header,
        result_lines,
        room_lines,
        standings,
    )
    from raiders.interpreter.runtime.describe import count, item_names
    from raiders.interpreter.runtime.room import RulesError

    rules = load_rules_or_exit(ruleset, variant, cards)
    var = rules.variant
    if n_players is None:
        n_players = min(max(4, var.min_players), var.max_players)
    if log_file and games > 1:
        raise click.UsageError("--log is for one game; use --log-dir with --games")
    solo = var.scoring == "solo"
    if difficulty is not None and not solo:
        raise click.UsageError("--difficulty is for solo play")
    kinds = bot_kinds(bots, n_players)
    seat_names = names.split(",") if names else [f"P{i + 1}" for i in range(n_players)]
    if len(seat_names) != n_players or len(set(seat_names)) != n_players:
        raise click.UsageError(f"--names takes {n_players} distinct names")
    if seed is not None:
        check_seed_range(seed, games)
    if seed is None:
        # Every game is reproducible: a drawn seed is printed and logged like a given one, so
        # `--log` never changes which game is played.
        seed = draw_seed()
        click.echo(f"seed {seed} (drawn; --seed {seed} plays this game again)", err=True)
    narrate = games == 1 and not quiet
    targets = [Path(log_file)] if log_file else \
        [Path(log_dir) / f"game-{seed + g}.yaml" for g in range(games)] if log_dir else []
    check_targets(targets, log_dir, force)
    if any(h > n_players for h in human_seats):
        raise click.UsageError(f"--human takes a seat 1..{n_players}")
    if human_seats and games > 1:
        raise click.UsageError("--human is for one game")
    from raiders.interpreter.game.human import HumanSeat

    for g in range(games):
        game_seed = seed + g
        seats = [HumanSeat() if i + 1 in human_seats else make_bot(k)
                 for i, k in enumerate(kinds)]
        try:
            game = Game(rules, seat_names, seats, seed=game_seed,
                        trace=narrate, difficulty=(difficulty or 3) if solo else None)
        except ValueError as err:
            raise click.UsageError(str(err)) from None
        except RulesError as err:
            raise Failure(f"error: {err}") from None
        if narrate:
            click.echo(f"{rules.ruleset.name}, {var.name} play, "
                       f"{count(n_players, 'player')}, seed {game_seed}")
            for p in game.players:
                click.echo(f"  {p.name}: {rules.characters[p.character].name} "
                           f"({count(p.coins, 'coin')}, {count(p.wounds, 'wound')}"
                           + (f", {item_names(rules, p.items)}" if p.items else "") + ")")

        def on_room(rec, game=game) -> None:
            if not narrate:
                return
            if rec.index == 0:
                click.echo(styled_narration(floor_header(
                    rec.floor, game.deal.floors[rec.floor].floor_card, rules)))
            for line in room_lines(rules, rec):
                click.echo(styled_narration(line))
            click.echo(standings(game.players, rules))

        try:
            result = game.run(on_room)
        except RulesError as err:
            raise Failure(f"error: {err}") from None
        if narrate or (games == 1 and quiet):
            for line in result_lines(result, solo, rules):
                click.echo(styled_narration(line))
        else:
            click.echo(f"game {g + 1} (seed {game_seed}): winners "
                       + (", ".join(result.winners) or "none"))
        if targets:
            target = targets[g]
            meta = LogMeta(relative_to_log(ruleset, target), var.name, game_seed,
                           tuple(relative_to_log(c, target) for c in cards),
                           (difficulty or 3) if solo else None)
            text = render_log(meta, rules, result)
            try:
                write_new(target, text, overwrite=force)
            except OSError as err:
                raise Failure(f"error: cannot write {target}: {err.strerror or err}") from None
            if g == 0:  # --log-dir: every log names the same paths; said once, of the folder
                replay_hint(meta, target, cards, ruleset, log_dir)


@click.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--check", is_flag=True,
              help="Compare every checkpoint and the result; report the first divergence.")
@click.option("-q", "--quiet", is_flag=True, help="No narration (with --check: failures only).")
@click.option("--trace", is_flag=True,
              help="Narrate with the rules' steps: which card modified, replaced or reacted.")
@click.option("--html", default=None, metavar="PATH", callback=nonempty_path,
              help="Write the browser viewer instead of narrating: one page (a folder for "
                   "several logs). docs/viewer.md.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="With --check: check the logs in this many processes (default: one per "
                   "core); the output is in the same order whatever the number.")
@click.option("--complete", is_flag=True,
              help="With --check: a log that stops before the game's end fails (for CI).")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="Play the logs with this mod folder (repeatable) instead of the mods they "
                   "name, which are then not read: your own mod, wherever the log lies.")
@allow_path_option
def replay(logs: tuple[str, ...], check: bool, quiet: bool, trace: bool, html: Optional[str],
           jobs: Optional[int], complete: bool, cards: tuple[str, ...],
           allow_paths: tuple[str, ...]) -> None:
    """Re-run logged games (raiders-log/1) and narrate them room by room.

    A log may give a seed instead of a deal, leave out checkpoints, or stop early
    (a game in progress: the state reached is shown). With --check, every
    checkpoint (`after`) and the result are compared; the first divergence names
    the floor, room, card, player and field. LOGS may be files or folders of
    *.yaml. Exit status 1 if any log is bad or diverges. Format: docs/logs.md.

    A log may name built-in rulesets and paths inside its own folder; --allow-path DIR
    lets it name paths inside DIR too, and --cards DIR plays it with the mod DIR
    instead of the mods it names (docs/security.md).

    Output: the ok/FAIL line of each log and the summary on stdout; diagnostics (a
    bad log's file, line and column) on stderr.

    \b
    Examples:
      raiders replay --check -q examples/logs
      raiders replay --check --complete game.yaml      # CI: a finished game, replaying equal
      raiders replay --cards ../mymod game.yaml        # a log of a game with your mod
    """
    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.records.logs import read_log
    from raiders.interpreter.records.narrate import (
        floor_header,
        result_lines,
        room_lines,
        standings,
    )
    from raiders.interpreter.records.replay import replay as run_replay

    if jobs is not None and not check:
        raise click.UsageError("--jobs is for --check (a narration is one process)")
    if complete and not check:
        raise click.UsageError("--complete is for --check")
    mods = cards or None
    from raiders.formats.safeio import found_files

    files, refused = found_files(logs, ["*.y*ml"])
    narrate = not check and not quiet
    if refused:
        print_diagnostics(refused, {})
    if not files and not refused:
        raise Failure("no logs (*.yaml) in " + ", ".join(logs)) from None
    if html:
        from .viewer import replay_html

        if replay_html(files, refused, html, check, quiet, allow_paths, mods, complete):
            raise Failure()
        return
    ok = bad = 0
    if check:  # nothing narrated: every core checks logs, printed in file order
        from raiders.interpreter.records.checklogs import check_files

        for checked in check_files(files, allow_paths, quiet, jobs, mods, complete):
            if checked.diagnostics:
                click.echo(f"FAIL  {display_path(checked.path)}: bad log")
                print_diagnostics(checked.diagnostics, {})
            for line in checked.lines:
                click.echo(line)
            ok, bad = ok + checked.ok, bad + (not checked.ok)
    for f in [] if check else files:
        shown = display_path(f)
        try:
            spec = read_log(f, allow_paths, mods)
            rules = spec.rules
            why = None
            if trace and narrate:
                from .viewer import TraceNarration

                why = TraceNarration(rules)

            def on_room(rec, game, rules=rules, why=why) -> None:
                if not narrate:
                    return
                if rec.index == 0:
                    click.echo(styled_narration(floor_header(rec.floor, None)))
                for line in why.room_lines(rec) if why else room_lines(rules, rec):
                    click.echo(styled_narration(line))
                click.echo(standings(game.players, rules))

            if narrate:
                from raiders.interpreter.runtime.describe import count

                click.echo(f"{shown}: {rules.ruleset.name}, {rules.variant.name} play, "
                           f"{count(len(spec.names), 'player')}")
            outcome = run_replay(spec, check, on_room, why.start if why else None)
        except Problems as err:
            bad += 1
            click.echo(f"FAIL  {shown}: bad log")
            print_diagnostics(err.diagnostics, {})
            continue
        if outcome.divergence is not None:
            bad += 1
            click.echo(f"FAIL  {shown}: {outcome.divergence}")
            continue
        ok += 1
        if outcome.result is None:
            msg = f"stopped after {outcome.rooms_played} room(s): a game in progress"
            if narrate or not quiet:
                click.echo(f"{'ok    ' if check else ''}{shown}: {msg}")
                click.echo(standings(outcome.game.players, rules))
        elif narrate:
            for line in result_lines(outcome.result, rules.variant.scoring == "solo", rules):
                click.echo(line)
        elif check and not quiet:
            compared = (f"{outcome.checkpoints} checkpoint(s) equal" if outcome.checkpoints
                        else "no checkpoints to compare")
            click.echo(f"ok    {shown}: {outcome.rooms_played} rooms, {compared}")
    bad += len(refused)
    if check or len(files) + len(refused) > 1:
        click.echo(f"{len(files) + len(refused)} log(s): {ok} ok, {bad} failed")
    if bad:
        raise Failure()
