"""`raiders balance MOD`: is the mod's card fair? (docs/simulate.md#balance-is-my-card-fair)"""
from __future__ import annotations

from typing import Optional

import click

from .common import (
    DEFAULT_BOTS,
    MAX_GAMES,
    SEED,
    Failure,
    bot_kinds,
    given_once,
    load_rules_or_exit,
)
from .progress import INTERRUPTED, games_bar, interrupted_note, seeds_played


@click.command(name="balance")
@click.argument("mod", type=click.Path(exists=True, file_okay=False))
@click.option("--ruleset", default=None,
              help="The ruleset (default: the first of the mod's mod.yaml `rulesets:`, else "
                   "deluxe).")
@click.option("--variant", default=None, help="The variant (default: the ruleset's first).")
@click.option("--players", "n_players", type=click.IntRange(1, 8), default=None,
              help="Players per game (default: 4, or what the variant allows).")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True,
              help="Bot for every seat, or one per seat (as `simulate`). Greedy is the "
                   "default everywhere: see the output's last line, or docs/simulate.md.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=1000, show_default=True,
              help="Paired games: each seed played without the mod, then once per mod card "
                   "with that card in a slot.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="The first seed.")
@click.option("--cards", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="Other mods both sides play with (repeatable).")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Processes (default: every core; the figures do not depend on it).")
@click.option("--sweep", "sweep_text", multiple=True, callback=given_once,
              metavar="CARD.FIELD=VALUES",
              help="What number makes it fair? Play the mod's card once per value of one of "
                   "its numbers (as `simulate --sweep`: 'gorgon.strength=10..22:2'), each "
                   "in its slot of the same deals, with a verdict per value. VALUES: A..B, "
                   "A..B:STEP or A,B,C; a per-player field sweeps the --players shield; "
                   "CARD.FIELD#K, CARD.FIELD.ROW (a table row) and CARD#K (any number of the "
                   "card's text) reach the others; a wrong one lists the card's numbers.")
@click.option("--target", "target_text", multiple=True, callback=given_once,
              metavar="FIGURE=VALUE",
              help="With --sweep: the value whose figure comes nearest VALUE; FIGURE is out "
                   "(a share of the players, 0..1), wounds or coins (negative: taken), per "
                   "player each time resolved, e.g. wounds=1.2 or coins=-1.")
@click.option("--json", "as_json", is_flag=True, help="The figures and verdicts as JSON.")
def balance_cmd(mod: str, ruleset: Optional[str], variant: Optional[str],
                n_players: Optional[int], bots: str, games: int, seed: int,
                cards: tuple[str, ...], jobs: Optional[int], sweep_text: Optional[str],
                target_text: Optional[str], as_json: bool) -> None:
    """Is the mod's card fair? Each of its room cards beside the printed cards of its
    kind, with intervals and a verdict.

    A boss is set beside the printed bosses, a trap beside the traps: the players it
    puts out, the wounds it deals and the coins it gives a player each time it is
    resolved, with 95% intervals; where it stands among its peers; its difference
    from the card it replaced on the same tables; and a verdict. One rule decides
    both: the card is harder than a peer only when its interval lies beyond the
    peer's, and out of line when so against every peer on some figure. A card or
    peer resolved fewer than 30 times (or in fewer than 10 games) is not compared;
    too few such games give no verdict but the --games to run. The last lines say
    which bots played and why (greedy unless --bots says otherwise).

    The games are paired by slot: every seed is dealt once; the base game plays it
    as dealt, then for each mod card the same deal is played with that card in one
    slot (a boss in the boss slot), every room's dice drawn from a stream of its own
    slot. So nothing unrelated moves (with greedy or random bots; a search bot's
    playouts see the card), and the card is measured in every game.

    --sweep answers "what number makes it fair?": one of the card's numbers takes
    each value in turn, every value on the same paired deals, and each value gets
    the card's figures and its verdict beside the same peers (--target marks the
    value nearest a figure). Only the swept card is measured then.

    --json adds a verdict_code: in_line, out_of_line_harder, out_of_line_easier,
    out_of_line_mixed, too_few_games or no_peers (docs/simulate.md#reading-the-verdict).

    Exit status: 0 (whatever the verdict), 1 when the mod does not check clean,
    2 on usage errors, 130 after Ctrl-C (the games finished are still shown).

    \b
    Examples:
      raiders balance examples/mods/gorgon
      raiders balance examples/mods/gorgon --games 3000 --players 3
      raiders balance my-trap/ --bots search:30,greedy,greedy,greedy --games 200
      raiders balance examples/mods/gorgon --sweep 'gorgon.strength=10..22:2'
      raiders balance examples/mods/gorgon --sweep 'gorgon.wounds=1..3' --target wounds=1.2
    """
    import json
    from pathlib import Path

    from raiders.formats.mods import mod_rulesets
    from raiders.interpreter.tools import balance as bal
    from raiders.interpreter.tools.simulate import Setup, SimulationError, simulate

    if ruleset is None:
        wants = mod_rulesets(Path(mod))
        ruleset = wants[0] if wants else "deluxe"
    base = load_rules_or_exit(ruleset, variant, cards)
    modded = load_rules_or_exit(ruleset, variant, (*cards, mod))
    var = modded.variant
    if n_players is None:
        n_players = min(max(4, var.min_players), var.max_players)
    if modded.wrong_player_count(n_players):
        raise click.UsageError(modded.wrong_player_count(n_players))
    kinds = tuple(bot_kinds(bots, n_players))
    plan, notes = bal.entries(base, modded, bal.own_cards(mod, modded))
    for note in notes:
        click.echo(f"note: {note}", err=True)
    if not plan:
        raise Failure(f"error: {mod} deals no room card of its own: nothing to measure "
                      "(balance measures the room cards a mod adds to the deck or the bosses)")
    if target_text is not None and sweep_text is None:
        raise click.UsageError("--target needs --sweep: it picks one of the swept values")
    difficulty = 3 if var.scoring == "solo" else None
    base_setup = Setup(ruleset, variant, n_players, kinds, tuple(cards), difficulty)
    if sweep_text is not None:
        from .balance_sweep import sweep_balance

        sweep_balance(mod, base, modded, plan, base_setup, sweep_text, target_text, games,
                      seed, jobs, as_json, closing_lines(kinds))
        return
    setups = (base_setup,
              *(Setup(ruleset, variant, n_players, kinds, (*cards, mod), difficulty)
                for _ in plan))
    with games_bar(games, "paired games") as step:
        try:
            tally = simulate(setups, games, seed, jobs, step, chunk_fn=bal.chunk_fn(tuple(plan)))
        except SimulationError as err:
            raise Failure(f"\nerror: {err}") from None
    verdicts = [bal.verdict(tally, k, e, base, modded, n_players)
                for k, e in enumerate(plan, start=1)]
    bots_line = ", ".join(dict.fromkeys(kinds))
    setup = (f"{modded.ruleset.id} {var.name}, {n_players} player"
             f"{'s' if n_players != 1 else ''}, {tally.games} games "
             f"{seeds_played(seed, games, tally.interrupted)}, bots {bots_line}")
    if tally.interrupted:
        click.echo(interrupted_note(tally.games), err=True)
    if as_json:
        def fig(f):
            return None if f is None else f.to_json()

        def met(side):
            return {"resolved": side.resolved, "games_resolved": side.games,
                    "enough": side.enough}

        doc = {"format": "raiders-balance/1", "mod": mod, "ruleset": ruleset,
               "variant": var.name, "players": n_players, "bots": list(kinds), "seed": seed,
               "games": tally.games, "interrupted": tally.interrupted,
               "min_resolutions": bal.MIN_RESOLUTIONS, "min_games": bal.MIN_GAMES, "cards": [
                   {"card": v.entry.card, "kind": v.entry.kind,
                    "peer_kind": v.entry.peer_kind, "boss": v.entry.boss,
                    **{m: fig(f) for m, f in v.figures.items()}, **met(v.me),
                    "against_slot": {m: fig(d) for m, d in v.against_slot.items()},
                    "game": {k: fig(d) for k, d in v.game.items()},
                    "verdict": v.judgement.sentence, "verdict_code": v.judgement.code,
                    "flags": v.judgement.flags,
                    "peers": {c: {**{m: fig(f) for m, f in figs.items()}, **met(side),
                                  "dealt": side.dealt}
                              for c, (side, figs) in v.peers.items()}} for v in verdicts]}
        click.echo(json.dumps(doc, indent=2, sort_keys=True))
    else:
        if tally.interrupted:
            click.echo(interrupted_note(tally.games) + ": the figures of the games finished")
        click.echo(f"balance {mod}: {setup}; 95% intervals in brackets")
        for v in verdicts:
            click.echo("")
            for line in v.lines:
                click.echo(line)
            for line in bal.peer_table(v):
                click.echo(line)
        click.echo("")
        for line in closing_lines(kinds):
            click.echo(line)
    if tally.interrupted:
        raise SystemExit(INTERRUPTED)


def closing_lines(kinds: tuple[str, ...]) -> list[str]:
    """Which bots played and why, and the design: the last lines of every balance answer."""
    from raiders.interpreter.tools import balance as bal

    bots_line = ", ".join(dict.fromkeys(kinds))
    why = (bal.BOTS_WHY if kinds[0] == DEFAULT_BOTS and len(set(kinds)) == 1 else
           "Chosen with --bots (default: " + DEFAULT_BOTS + ", see docs/simulate.md).")
    return [f"Bots: {bots_line}. {why}",
            "Design: each seed dealt once; the mod's card takes one slot of the same deal, "
            "every room's dice from its own slot's stream (docs/simulate.md)."]


COMMANDS = (balance_cmd,)
