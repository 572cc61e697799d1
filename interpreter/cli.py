"""The `raiders` command line (click). Exit codes: 0 ok, 1 findings or failures, 2 usage."""
from __future__ import annotations

import sys
from typing import Optional

import click

from raiders.dsl.diagnostics import Diagnostic, render, to_json
from raiders.dsl.library import display_path


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="raiders")
def main() -> None:
    """raiders: a rules interpreter for the card game Dungeon Raiders.

    Cards, bosses, room kinds and items are text files in a card language
    (docs/dsl.md). Check them with `validate`, play with `play`, test rooms with
    `test`, look at a card with `show`.
    """


def _print_diagnostics(diags: list[Diagnostic], sources: dict[str, str], fmt: str = "text") -> None:
    diags = sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col))
    diags = [d.with_path(display_path(d.span.path)) for d in diags]
    if fmt == "json":
        click.echo(to_json(diags))
        return
    for d in diags:
        click.echo(render(d, _source_lines(sources, d.span.path)) + "\n", err=True)


def _split_yaml_documents(paths: tuple[str, ...]) -> tuple[list[str], list[tuple[str, str]]]:
    """Logs and scenario files named on the command line are checked by their own readers;
    everything else goes to the card checker."""
    import re
    from pathlib import Path

    cards, other = [], []
    for p in paths:
        kind = None
        if Path(p).name == "mod.yaml":
            cards.append(str(Path(p).parent))  # a mod's manifest: check the whole mod
            continue
        if Path(p).is_file() and Path(p).suffix in (".yaml", ".yml"):
            try:
                head = Path(p).read_text(encoding="utf-8", errors="replace")[:4000]
            except OSError:
                head = ""
            m = re.search(r"^format:\s*[\"']?raiders-(log|scenario)/", head, re.M)
            kind = m.group(1) if m else None
        if kind:
            other.append((p, kind))
        else:
            cards.append(p)
    return cards, other


def _check_document(path: str, kind: str) -> list[Diagnostic]:
    """A log's or a scenario file's own checks (a scenario's expectations are not run)."""
    from raiders.interpreter.yamlcheck import InputError

    if kind == "log":
        from raiders.interpreter.logs import read_log

        from raiders.interpreter.replay import replay

        try:
            replay(read_log(path))  # every play legal, in the room it is in
        except InputError as err:
            return err.diagnostics
        return []
    from raiders.interpreter.scenarios import run_file

    return [d for outcome in run_file(path) for d in outcome.diagnostics]


def _source_lines(sources: dict[str, str], shown_path: str):
    for path, text in sources.items():
        if display_path(path) == shown_path:
            return text.splitlines()
    try:
        with open(shown_path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None


def _load_rules(ruleset: str, variant: Optional[str], cards: tuple[str, ...]):
    """Rules for a command, or a clean exit with diagnostics (1) or a usage error (2)."""
    from raiders.interpreter.rules import LoadError, load_rules

    import os

    cards = tuple(dict.fromkeys(os.path.normpath(c) for c in cards))  # the same mod once
    try:
        return load_rules(ruleset, variant, cards)
    except ValueError as err:
        raise click.UsageError(str(err))
    except LoadError as err:
        _print_diagnostics(err.diagnostics, err.sources)
        click.echo(f"the cards do not check clean: {len(err.diagnostics)} problem(s)", err=True)
        sys.exit(1)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="`json`: one object per diagnostic, for editors and CI.")
@click.option("--base", default="deluxe", show_default=True, metavar="RULESET",
              help="Ruleset whose kinds and items loose card files (a mod) build on.")
def validate(paths: tuple[str, ...], fmt: str, base: str) -> None:
    """Parse and check card files, folders and rulesets.

    PATHS may be card files (*.dsl), folders (searched for *.dsl, ruleset.yaml and
    mod.yaml), ruleset files, and also game logs and scenario files (*.yaml with
    `format: raiders-log/1` or `raiders-scenario/1`). A ruleset is checked with every
    card it names; card files no ruleset covers are checked as one mod on top of
    --base.

    Every problem is printed as `path:line:col: error[CODE]: message`, with the
    source line, a caret under the problem and a hint. Exit status: 0 when all is
    clean, 1 when there are problems, 2 on usage errors.

    \b
    Examples:
      raiders validate cards/
      raiders validate examples/mods/gorgon --format json
    """
    from raiders.dsl.rulesets import builtin_ids, resolve_ruleset_path
    from raiders.dsl.validate import validate_paths

    if resolve_ruleset_path(base) is None:
        raise click.BadParameter(f"no ruleset `{base}` (built in: {', '.join(builtin_ids())}, "
                                 "or a path to a ruleset.yaml)", param_hint="--base")
    card_paths, other = _split_yaml_documents(paths)
    report = validate_paths(card_paths, base) if card_paths else None
    if report is None:
        from raiders.dsl.validate import Report

        report = Report()
    for path, kind in other:
        report.rulesets += 1
        report.add(_check_document(path, kind))
    diags = report.diagnostics
    if fmt == "json":
        _print_diagnostics(diags, report.sources, "json")
    else:
        for d in sorted(diags, key=lambda d: (d.span.path, d.span.line, d.span.col)):
            d = d.with_path(display_path(d.span.path))
            click.echo(render(d, _source_lines(report.sources, d.span.path)) + "\n")
        errors = sum(d.severity == "error" for d in diags)
        if report.files == 0:
            click.echo("nothing to check: no card files (*.dsl), ruleset.yaml, mod.yaml, logs "
                       "or scenario files in " + ", ".join(paths), err=True)
            sys.exit(1)
        summary = f"checked {report.files} file(s): " + (
            f"{errors} error(s)" if errors else "no problems found")
        click.echo(summary, err=bool(errors))
    sys.exit(1 if diags or report.files == 0 else 0)


@main.command(name="test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
def test_cmd(paths: tuple[str, ...], quiet: bool) -> None:
    """Run scenario files (raiders-scenario/1): one room each, checked.

    PATHS are scenario files or folders (searched for *.yaml). One line per
    scenario; a failing one lists what differed. Exit status 1 if any fails.
    Format: docs/scenarios.md.
    """
    from pathlib import Path

    from raiders.interpreter.scenarios import run_file

    files: list[str] = []
    for p in paths:
        pp = Path(p)
        files.extend(sorted(str(f) for f in pp.rglob("*.y*ml")) if pp.is_dir() else [p])
    if not files:
        click.echo("no scenario files (*.yaml) in " + ", ".join(paths), err=True)
        sys.exit(1)
    passed = failed = 0
    for f in files:
        for o in run_file(f):
            where = f"{display_path(o.path)}:{o.line}"
            if o.ok:
                passed += 1
                if not quiet:
                    click.echo(f"ok    {where}  {o.name}")
                continue
            failed += 1
            click.echo(f"FAIL  {where}  {o.name}")
            for d in o.differences:
                click.echo(f"        {d}")
            if o.diagnostics:
                _print_diagnostics(o.diagnostics, {})
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


def _relative_to(path_or_id: str, log_file) -> str:
    """A path as a log must hold it: relative to the log's folder (a log is read from
    anywhere); a built-in ruleset id stays an id."""
    import os
    from pathlib import Path

    from raiders.dsl.rulesets import builtin_ids

    if path_or_id in builtin_ids() or not Path(path_or_id).exists():
        return path_or_id
    return os.path.relpath(Path(path_or_id).resolve(), Path(log_file).parent.resolve())


def _bot_kinds(bots: str, n_players: int) -> list[str]:
    from raiders.interpreter.players import BOTS

    kinds = bots.split(",")
    if len(kinds) == 1:
        kinds = kinds * n_players
    if len(kinds) != n_players or any(k not in BOTS for k in kinds):
        raise click.UsageError(f"--bots takes one of {', '.join(BOTS)} or one per seat "
                               f"({n_players} seats)")
    return kinds


@main.command()
@click.option("--ruleset", default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None,
              help="deluxe: standard, tactical; classic: standard, quick, duel, solo "
                   "(default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: 4, or what the variant allows).")
@click.option("--bots", default="greedy", show_default=True,
              help="Bot for every seat (random, greedy), or one per seat: greedy,random,greedy.")
@click.option("--seed", type=int, default=None, help="Seed for the deal and the bots.")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder whose cards join the pool (repeatable).")
@click.option("--names", default=None, help="Player names, comma separated.")
@click.option("--difficulty", type=click.IntRange(2, 5), default=None,
              help="Solo: the hero's starting wounds, 2..5 (default 3).")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), default=None,
              help="Write the game's log (raiders-log/1) to this file.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="Play this many games (seeds SEED, SEED+1, …); with --log-dir, one log each.")
@click.option("--log-dir", type=click.Path(file_okay=False), default=None,
              help="Folder for one log per game (game-SEED.yaml).")
@click.option("--human", "human_seats", multiple=True, type=click.IntRange(1),
              help="A person plays this seat (1-based) at the terminal (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the result.")
def play(ruleset: str, variant: Optional[str], n_players: Optional[int], bots: str,
         seed: Optional[int], cards: tuple[str, ...], names: Optional[str],
         difficulty: Optional[int], log_file: Optional[str], games: int,
         log_dir: Optional[str], human_seats: tuple[int, ...], quiet: bool) -> None:
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
    """
    from pathlib import Path

    from raiders.interpreter.engine import Game
    from raiders.interpreter.logs import LogMeta, render_log, write_atomic
    from raiders.interpreter.narrate import floor_header, result_lines, room_lines, standings
    from raiders.interpreter.players import BOTS
    from raiders.interpreter.room import RulesError

    rules = _load_rules(ruleset, variant, cards)
    var = rules.variant
    if n_players is None:
        n_players = min(max(4, var.min_players), var.max_players)
    if log_file and games > 1:
        raise click.UsageError("--log is for one game; use --log-dir with --games")
    solo = var.scoring == "solo"
    if difficulty is not None and not solo:
        raise click.UsageError("--difficulty is for solo play")
    kinds = _bot_kinds(bots, n_players)
    seat_names = names.split(",") if names else [f"P{i + 1}" for i in range(n_players)]
    if len(seat_names) != n_players or len(set(seat_names)) != n_players:
        raise click.UsageError(f"--names takes {n_players} distinct names")
    if seed is None and (log_file or log_dir or games > 1):
        seed = 1
    narrate = games == 1 and not quiet
    if any(h > n_players for h in human_seats):
        raise click.UsageError(f"--human takes a seat 1..{n_players}")
    if human_seats and games > 1:
        raise click.UsageError("--human is for one game")
    from raiders.interpreter.human import HumanSeat

    for g in range(games):
        game_seed = None if seed is None else seed + g
        seats = [HumanSeat() if i + 1 in human_seats else BOTS[k]() for i, k in enumerate(kinds)]
        try:
            game = Game(rules, seat_names, seats, seed=game_seed,
                        trace=narrate, difficulty=(difficulty or 3) if solo else None)
        except ValueError as err:
            raise click.UsageError(str(err))
        except RulesError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(1)
        if narrate:
            click.echo(f"{rules.ruleset.name}, {var.name} play, {n_players} player(s), "
                       f"seed {game_seed}")
            for p in game.players:
                click.echo(f"  {p.name}: {rules.characters[p.character].name} "
                           f"({p.coins} coins, {p.wounds} wounds"
                           + (f", {', '.join(p.items)}" if p.items else "") + ")")

        def on_room(rec, game=game) -> None:
            if not narrate:
                return
            if rec.index == 0:
                click.echo(floor_header(rec.floor, game.deal.floors[rec.floor].floor_card))
            for line in room_lines(rules, rec):
                click.echo(line)
            click.echo(standings(game.players))

        try:
            result = game.run(on_room)
        except RulesError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(1)
        if narrate or (games == 1 and quiet):
            for line in result_lines(result, solo):
                click.echo(line)
        else:
            click.echo(f"game {g + 1} (seed {game_seed}): winners "
                       + (", ".join(result.winners) or "none"))
        if log_file or log_dir:
            target = Path(log_file) if log_file else Path(log_dir) / f"game-{game_seed}.yaml"
            meta = LogMeta(_relative_to(ruleset, target), var.name, game_seed,
                           tuple(_relative_to(c, target) for c in cards),
                           (difficulty or 3) if solo else None)
            text = render_log(meta, rules, result)
            try:
                write_atomic(target, text)
            except OSError as err:
                click.echo(f"error: cannot write {target}: {err}", err=True)
                sys.exit(1)


@main.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--check", is_flag=True,
              help="Compare every checkpoint and the result; report the first divergence.")
@click.option("-q", "--quiet", is_flag=True, help="No narration (with --check: failures only).")
def replay(logs: tuple[str, ...], check: bool, quiet: bool) -> None:
    """Re-run logged games (raiders-log/1) and narrate them room by room.

    A log may give a seed instead of a deal, leave out checkpoints, or stop early
    (a game in progress: the state reached is shown). With --check, every
    checkpoint (`after`) and the result are compared; the first divergence names
    the floor, room, card, player and field. LOGS may be files or folders of
    *.yaml. Exit status 1 if any log is bad or diverges. Format: docs/logs.md.
    """
    from pathlib import Path

    from raiders.interpreter.logs import read_log
    from raiders.interpreter.narrate import floor_header, result_lines, room_lines, standings
    from raiders.interpreter.replay import replay as run_replay
    from raiders.interpreter.yamlcheck import InputError

    files: list[str] = []
    for p in logs:
        pp = Path(p)
        files.extend(sorted(str(f) for f in pp.rglob("*.y*ml")) if pp.is_dir() else [p])
    narrate = not check and not quiet
    if not files:
        click.echo("no logs (*.yaml) in " + ", ".join(logs), err=True)
        sys.exit(1)
    ok = bad = 0
    for f in files:
        shown = display_path(f)
        try:
            spec = read_log(f)
            rules = spec.rules

            def on_room(rec, game, rules=rules) -> None:
                if not narrate:
                    return
                if rec.index == 0:
                    click.echo(floor_header(rec.floor, None))
                for line in room_lines(rules, rec):
                    click.echo(line)
                click.echo(standings(game.players))

            if narrate:
                click.echo(f"{shown}: {rules.ruleset.name}, {rules.variant.name} play, "
                           f"{len(spec.names)} player(s)")
            outcome = run_replay(spec, check, on_room)
        except InputError as err:
            bad += 1
            click.echo(f"FAIL  {shown}: bad log", err=True)
            _print_diagnostics(err.diagnostics, {})
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
                click.echo(standings(outcome.game.players))
        elif narrate:
            for line in result_lines(outcome.result, rules.variant.scoring == "solo"):
                click.echo(line)
        elif check and not quiet:
            compared = (f"{outcome.checkpoints} checkpoint(s) equal" if outcome.checkpoints
                        else "no checkpoints to compare")
            click.echo(f"ok    {shown}: {outcome.rooms_played} rooms, {compared}")
    if check or len(files) > 1:
        click.echo(f"{len(files)} log(s): {ok} ok, {bad} failed")
    sys.exit(1 if bad else 0)


@main.command()
@click.option("--ruleset", default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None, help="The variant (default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: 4, or what the variant allows).")
@click.option("--bots", default="random", show_default=True,
              help="Bot for every seat (random, greedy), or one per seat.")
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True,
              help="Games use seeds SEED, SEED+1, …: the same run gives the same figures.")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder whose cards join the pool (repeatable).")
@click.option("--compare", "compare_mod", type=click.Path(exists=True, file_okay=False),
              default=None, help="A/B: also play the same seeds with this mod added.")
@click.option("--difficulty", type=click.IntRange(2, 5), default=None,
              help="Solo: the hero's starting wounds.")
@click.option("--jobs", type=click.IntRange(1), default=None,
              help="Processes (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--log-dir", type=click.Path(file_okay=False), default=None,
              help="Also write one log per game (game-SEED.yaml) into this folder.")
def simulate(ruleset: str, variant: Optional[str], n_players: Optional[int], bots: str,
             games: int, seed: int, cards: tuple[str, ...], compare_mod: Optional[str],
             difficulty: Optional[int], jobs: Optional[int], as_json: bool,
             log_dir: Optional[str]) -> None:
    """Play many games with bots on every core and summarise them, to balance cards.

    The summary gives wins by seat and by character, coins and wounds at the end,
    how often players go out and why, and for every room card the coins and wounds
    it gives a player on average. --compare MOD plays the same seeds with the mod
    added and shows both columns side by side.

    \b
    Examples:
      raiders simulate --games 2000
      raiders simulate --players 3 --bots greedy --games 200 --compare examples/mods/shrine
      raiders simulate --ruleset classic --variant solo --players 1 --json
    """
    import json
    import os

    from raiders.interpreter.simulate import Setup, SimulationError, simulate as run, table

    rules = _load_rules(ruleset, variant, cards)
    var = rules.variant
    if n_players is None:
        n_players = min(max(4, var.min_players), var.max_players)
    if not var.min_players <= n_players <= var.max_players:
        raise click.UsageError(f"{rules.ruleset.id} {var.name} is for {var.min_players}"
                               f"–{var.max_players} players, not {n_players}")
    if difficulty is not None and var.scoring != "solo":
        raise click.UsageError("--difficulty is for solo play")
    kinds = tuple(_bot_kinds(bots, n_players))
    if log_dir and compare_mod:
        raise click.UsageError("--log-dir logs one run; leave out --compare")
    log_at = os.path.join(log_dir, "x.yaml") if log_dir else "x.yaml"
    setups = [Setup(ruleset, var.name, n_players, kinds, tuple(cards), difficulty, log_dir,
                    _relative_to(ruleset, log_at), tuple(_relative_to(c, log_at) for c in cards))]
    if compare_mod:
        _load_rules(ruleset, variant, (*cards, compare_mod))
        setups.append(Setup(ruleset, var.name, n_players, kinds, (*cards, compare_mod), difficulty))
    results = []
    for setup in setups:
        label = "with " + display_path(setup.cards[-1]) if setup is not setups[0] else "games"
        with click.progressbar(length=games, label=label, file=sys.stderr, show_eta=False,
                               hidden=not sys.stderr.isatty()) as bar:
            try:
                results.append(run(setup, games, seed, jobs, bar.update))
            except SimulationError as err:
                click.echo(f"\nerror: {err}", err=True)
                sys.exit(1)
    if as_json:
        out = results[0].to_json()
        if compare_mod:
            out = {"base": out, "mod": results[1].to_json(), "mod_path": compare_mod}
        click.echo(json.dumps(out, indent=2, sort_keys=True))
        return
    for line in table(results[0], results[1] if compare_mod else None,
                      ("base", display_path(compare_mod) if compare_mod else "")):
        click.echo(line)


@main.command()
@click.argument("card", required=False)
@click.option("--ruleset", default="deluxe", show_default=True,
              help="A built-in ruleset (deluxe, classic) or a path to a ruleset.yaml.")
@click.option("--variant", default=None,
              help="Show the card as this variant plays it (e.g. classic solo's monsters).")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A mod folder to look in too (repeatable).")
def show(card: Optional[str], ruleset: str, variant: Optional[str], cards: tuple[str, ...]) -> None:
    """Print a card's (or a kind's) text and what it does in plain words.

    The words are generated from the compiled card, so they say what the engine
    will do. CARD is a card id or a kind name; without CARD, every card id of the
    ruleset is listed, by kind.

    \b
    Examples:
      raiders show                      (every card id, by kind)
      raiders show CARD-ID
      raiders show CARD-ID --ruleset classic --variant solo
      raiders show monster              (a kind)
    """
    from raiders.dsl.diagnostics import did_you_mean
    from raiders.interpreter.describe import describe

    rules = _load_rules(ruleset, variant, cards)
    lib = rules.library
    if card is None:
        by_kind: dict[str, list[str]] = {}
        for cid, decl in lib.cards.items():
            by_kind.setdefault(decl.kind, []).append(cid)
        click.echo(f"{rules.ruleset.name}, {rules.variant.name}:")
        for kind in sorted(by_kind):
            click.echo(f"  {kind}: {', '.join(by_kind[kind])}")
        return
    decl = lib.cards.get(card)
    kind = lib.kinds.get(card)
    if decl is None and kind is None:
        hint = did_you_mean(card, [*lib.cards, *lib.kinds])
        raise click.UsageError(f"no card or kind `{card}` in {rules.ruleset.id}"
                               + (f"; {hint}" if hint else "") + " (`raiders show` lists them)")
    node = decl if decl is not None else kind.decl
    text = lib.sources[node.span.path].splitlines()
    click.echo(f"# {display_path(node.span.path)}:{node.span.line}")
    for line in text[node.span.line - 1: node.span.end_line]:
        click.echo(line)
    click.echo("")
    if decl is None:
        chain = " → ".join(k.name for k in reversed(kind.chain))
        click.echo(f"kind {chain}; parameters:")
        for name, p in kind.params.items():
            click.echo(f"  {name}: {p.type}" + ("" if p.default is None else " (has a default)"))
        users = [cid for cid, d in lib.cards.items() if d.kind == card]
        click.echo(f"cards of this kind: {', '.join(users) or 'none'}")
        return
    for line in describe(rules, card):
        click.echo(line)
