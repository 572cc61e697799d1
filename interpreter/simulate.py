"""Many games with bots, on every core: wins by seat and character, coins, wounds, who went
out and why, and what each room card does on average — for balancing cards.

Seeds are fixed (seed, seed+1, …), so a run gives the same figures whatever the number of
processes; `--compare` plays the same seeds with and without a mod.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing as mp
import os
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

import attrs

from .engine import Game
from .logs import LogMeta, render_log, write_atomic
from .players import BOTS
from .room import RulesError
from .rules import load_rules


class SimulationError(Exception):
    """A game of the simulation broke a rule at run time (a card's runaway chain…)."""


@attrs.define
class Stats:
    games: int = 0
    rooms: int = 0
    wins_by_seat: Counter = attrs.Factory(Counter)  # a shared win counts 1/n to each
    wins_by_character: Counter = attrs.Factory(Counter)
    games_by_character: Counter = attrs.Factory(Counter)
    no_winner: int = 0
    coins: int = 0  # summed over players, at the end
    wounds: int = 0
    out: Counter = attrs.Factory(Counter)  # reason -> players
    card_seen: Counter = attrs.Factory(Counter)  # room card -> times resolved
    card_coins: Counter = attrs.Factory(Counter)  # room card -> coins gained (net) by all
    card_wounds: Counter = attrs.Factory(Counter)
    players: int = 0

    def merge(self, other: "Stats") -> None:
        for f in attrs.fields(Stats):
            if f.name == "players":  # the table size, not a count to add up
                continue
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            else:
                setattr(self, f.name, mine + theirs)

    def to_json(self) -> dict:
        g = max(self.games, 1)
        return {
            "games": self.games,
            "players": self.players,
            "win_rate_by_seat": {s: round(w / g, 4) for s, w in sorted(self.wins_by_seat.items())},
            "win_rate_by_character": {
                c: round(self.wins_by_character[c] / n, 4)
                for c, n in sorted(self.games_by_character.items())},
            "no_winner_rate": round(self.no_winner / g, 4),
            "average_coins": round(self.coins / max(self.games * self.players, 1), 3),
            "average_wounds": round(self.wounds / max(self.games * self.players, 1), 3),
            "out_rate": {r: round(n / max(self.games * self.players, 1), 4)
                         for r, n in sorted(self.out.items())},
            "cards": {c: {"resolved": n,
                          "coins_per_player": round(self.card_coins[c] / (n * self.players), 3),
                          "wounds_per_player": round(self.card_wounds[c] / (n * self.players), 3)}
                      for c, n in sorted(self.card_seen.items())},
        }


@attrs.frozen
class Setup:
    ruleset: str
    variant: Optional[str]
    players: int
    bots: tuple[str, ...]
    cards: tuple[str, ...]
    difficulty: Optional[int] = None
    log_dir: Optional[str] = None  # write one log per game here (game-SEED.yaml)
    log_ruleset: str = ""  # the ruleset and mod paths as a log in log_dir must name them
    log_cards: tuple[str, ...] = ()


def run_chunk(setup: Setup, seeds: range) -> Stats:
    rules = load_rules(setup.ruleset, setup.variant, setup.cards)
    names = [f"P{i + 1}" for i in range(setup.players)]
    solo = rules.variant.scoring == "solo"
    stats = Stats(players=setup.players)
    for seed in seeds:
        game = Game(rules, names, [BOTS[b]() for b in setup.bots], seed=seed,
                    difficulty=(setup.difficulty or 3) if solo else None)
        before = {p.name: (p.coins, p.wounds) for p in game.players}
        try:
            result = game.run()
        except RulesError as err:
            raise SimulationError(f"game with seed {seed}: {err}") from None
        if setup.log_dir:
            meta = LogMeta(setup.log_ruleset or setup.ruleset, rules.variant.name, seed,
                           setup.log_cards, (setup.difficulty or 3) if solo else None)
            write_atomic(Path(setup.log_dir) / f"game-{seed}.yaml", render_log(meta, rules, result))
        stats.games += 1
        stats.rooms += len(result.rooms)
        for rec in result.rooms:
            stats.card_seen[rec.card] += 1
            for name, coins, wounds, _ in rec.after_state:
                c0, w0 = before[name]
                stats.card_coins[rec.card] += coins - c0
                stats.card_wounds[rec.card] += wounds - w0
                before[name] = (coins, wounds)
        if not result.winners:
            stats.no_winner += 1
        share = 1 / len(result.winners) if result.winners else 0
        for p in result.players:
            stats.games_by_character[p.character] += 1
            stats.coins += p.coins
            stats.wounds += p.wounds
            if p.out:
                stats.out[p.out] += 1
            if p.name in result.winners:
                stats.wins_by_seat[p.name] += share
                stats.wins_by_character[p.character] += share
    return stats


def _chunks(seed: int, games: int, parts: int) -> list[range]:
    size = max(1, -(-games // parts))
    return [range(s, min(s + size, seed + games)) for s in range(seed, seed + games, size)]


def simulate(setup: Setup, games: int, seed: int = 1, jobs: Optional[int] = None,
             progress: Optional[Callable[[int], None]] = None) -> Stats:
    """Play `games` games (seeds seed..seed+games-1) on `jobs` processes."""
    jobs = jobs or os.cpu_count() or 1
    load_rules(setup.ruleset, setup.variant, setup.cards)  # fail early, in this process
    chunks = _chunks(seed, games, jobs * 8 if jobs > 1 else 1)
    total = Stats(players=setup.players)
    if jobs <= 1 or "fork" not in mp.get_all_start_methods():
        for chunk in chunks:
            total.merge(run_chunk(setup, chunk))
            if progress:
                progress(len(chunk))
        return total
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=mp.get_context("fork")) as pool:
        futures = {pool.submit(run_chunk, setup, c): len(c) for c in chunks}
        for fut in concurrent.futures.as_completed(futures):
            total.merge(fut.result())
            if progress:
                progress(futures[fut])
    return total


def table(stats: Stats, other: Optional[Stats] = None,
          labels: tuple[str, str] = ("base", "mod")) -> list[str]:
    """The summary as text lines (two columns with `other`)."""
    a = stats.to_json()
    b = other.to_json() if other else None

    def row(label: str, x, y=None, fmt="{:.1%}") -> str:
        left = fmt.format(x) if x is not None else "-"
        if b is None:
            return f"  {label:<28} {left:>10}"
        right = fmt.format(y) if y is not None else "-"
        return f"  {label:<28} {left:>10} {right:>10}"

    head = f"  {'':<28} {labels[0]:>10}" + (f" {labels[1]:>10}" if b else "")
    lines = [f"{stats.games} games, {stats.players} player(s)", head,
             "Survived (solo):" if stats.players == 1 else "Wins by seat:"]
    seats = sorted(set(a["win_rate_by_seat"]) | set(b["win_rate_by_seat"] if b else ()))
    for s in seats or (["P1"] if stats.players == 1 else []):
        lines.append(row(s, a["win_rate_by_seat"].get(s, 0.0),
                         b["win_rate_by_seat"].get(s, 0.0) if b else None))
    lines.append("Wins by character (per game played):")
    for c in sorted(set(a["win_rate_by_character"]) | set(b["win_rate_by_character"] if b else ())):
        lines.append(row(c, a["win_rate_by_character"].get(c),
                         b["win_rate_by_character"].get(c) if b else None))
    lines.append("Per player, at the end:")
    lines.append(row("coins", a["average_coins"], b["average_coins"] if b else None, "{:.2f}"))
    lines.append(row("wounds", a["average_wounds"], b["average_wounds"] if b else None, "{:.2f}"))
    lines.append(row("no winner (games)", a["no_winner_rate"], b["no_winner_rate"] if b else None))
    reasons = sorted(set(a["out_rate"]) | set(b["out_rate"] if b else ()))
    for r in reasons:
        lines.append(row(f"out: {r}", a["out_rate"].get(r, 0.0),
                         b["out_rate"].get(r, 0.0) if b else None))
    lines.append("Room cards (per player, each time resolved): coins / wounds")
    cards = sorted(set(a["cards"]) | set(b["cards"] if b else ()))
    for c in cards:
        def cell(d, c=c):
            e = d["cards"].get(c) if d else None
            if not e:
                return "-"
            coins, wounds = e["coins_per_player"], e["wounds_per_player"]
            return f"{coins:+.2f}/{wounds:+.2f}".replace("-0.00", "+0.00")
        lines.append(f"  {c:<28} {cell(a):>10}" + (f" {cell(b):>10}" if b else ""))
    return lines
