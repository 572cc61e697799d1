"""`raiders balance MOD`: is the mod's card fair? Each of the mod's dealt room cards beside its
peers (the printed cards of its kind), with intervals and a verdict (docs/simulate.md#balance).

The design: **slot pairing** with common random numbers per slot. For every seed the base game
(without the mod) is dealt as usual; then, for each of the mod's cards, the same deal is played
again with that card in one slot (a boss in the boss slot, any other room in a slot drawn from
the seed), every other room, the characters, the first player and the seats' generators left
as they were. In these games every die comes from a stream of its own slot (the seed and the
room's place), so a room rolls the same dice whatever the rooms before it rolled. So the rooms
before the slot play exactly as in the base game (unrelated figures do not move), the slot
holds the mod's card in every game instead of one game in ten, and its effect is measured
against the card it replaced on the same table, the noise both share cancelled.

Ordinary games (`play`, `simulate`, `replay`) do not pay for this: the per-slot streams live in
`SlotGame` here, and only balance plays it.
"""
from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Callable, Optional

import attrs

from raiders.interpreter.game.engine import Deal, Game, GameResult
from raiders.interpreter.runtime.room import RulesError
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Floor, RoomSlot

from . import simulate as sim
from .stats import Difference, Figure, Known, Sums, difference, known

# Why greedy is the default for every command that plays bots (cli/common.DEFAULT_BOTS).
BOTS_WHY = ("greedy bots: each seat looks one room ahead and plays the card that serves it "
            "best, as a careful player would. Random bots play cards no player would, so a "
            "room's figures say more about careless play than about the card; search bots "
            "play better still but cost about 14 times more a game for each search seat "
            "(check a close verdict with --bots search:30,greedy,greedy,greedy).")


@attrs.frozen
class Entry:
    """One of the mod's cards: where it goes, and the printed cards it is measured against."""

    card: str
    kind: str
    boss: bool  # takes the boss slot; else a room slot drawn from the seed
    peers: tuple[str, ...]  # the base game's dealt cards of the same kind


class BalanceError(Exception):
    """The mod has nothing balance can measure (no room card that is dealt)."""


def entries(base: Rules, modded: Rules, own: set[str]) -> tuple[list[Entry], list[str]]:
    """The mod's dealt room cards, each with its peers; and notes on the mod's other cards."""
    dealt_base = set(base.deck) | set(base.bosses)
    out, notes = [], []
    for cid in sorted(own):
        room = modded.rooms.get(cid)
        if room is None:
            if cid in modded.characters:
                notes.append(f"{cid}: a character; balance measures room cards (see its wins "
                             f"with `raiders simulate --cards MOD`: win.character.{cid})")
            continue
        boss = cid in modded.bosses
        if not boss and cid not in modded.deck:
            notes.append(f"{cid}: a room card (kind {room.kind}) the mod does not deal (not in "
                         "mod.yaml's deck or bosses): not measured")
            continue
        if cid in dealt_base:
            notes.append(f"{cid}: already dealt without the mod: not measured")
            continue
        peers = tuple(sorted(c for c in dealt_base if base.rooms[c].kind == room.kind
                             and (c in base.bosses) == boss))
        out.append(Entry(cid, room.kind, boss, peers))
    return out, notes


class SlotGame(Game):
    """A game whose dice come from one stream per room (the seed and the room's place), so
    that changing one room leaves every other room's dice as they were. Solo's monster deck
    reshuffle, the only other draw, gets a stream of its own."""

    def __init__(self, rules: Rules, names, seats, seed: int, deal: Optional[Deal] = None,
                 difficulty: Optional[int] = None) -> None:
        super().__init__(rules, names, seats, seed=seed, deal=deal, difficulty=difficulty)
        self.slot_seed = seed
        self.streams: dict[int, random.Random] = {}
        self.rng = random.Random(f"{seed}/rest")  # the deal has been drawn (or given)

    def _roll(self, faces: int) -> int:
        room = self.entry_index
        stream = self.streams.get(room)
        if stream is None:
            stream = self.streams[room] = random.Random(f"{self.slot_seed}/{room}")
        value = stream.randint(1, faces)
        self._rolls.append(value)
        return value


def slot_of(entry: Entry, deal: Deal, seed: int, has_boss: bool) -> tuple[int, int]:
    """(floor, room) where the entry's card goes in this seed's deal: the boss slot (the last
    room), or a room slot drawn from the seed (any but the boss's when the game has one)."""
    last = (len(deal.floors) - 1, len(deal.floors[-1].rooms) - 1)
    if entry.boss:
        return last
    places = [(f, r) for f, fl in enumerate(deal.floors) for r in range(len(fl.rooms))
              if not (has_boss and (f, r) == last)]
    return random.Random(f"{seed}/slot/{entry.card}").choice(places)


def with_card(deal: Deal, slot: tuple[int, int], card: str) -> Deal:
    """The same deal with `card` in `slot` (its facing kept), every list a copy."""
    floors = []
    for f, fl in enumerate(deal.floors):
        rooms = [RoomSlot(card if (f, r) == slot else s.card, s.face_up)
                 for r, s in enumerate(fl.rooms)]
        floors.append(Floor(rooms, fl.floor_card))
    return Deal(floors, list(deal.characters), deal.first_player, list(deal.threat_deck))


def slot_change(result: GameResult, start: dict, slot: tuple[int, int]) -> Optional[tuple]:
    """The table's change in coins and wounds in the slot's room (None: never reached)."""
    coins0 = sum(c for c, _ in start.values())
    wounds0 = sum(w for _, w in start.values())
    for rec in result.rooms:
        coins = sum(c for _, c, _, _ in rec.after_state)
        wounds = sum(w for _, _, w, _ in rec.after_state)
        if (rec.floor, rec.index) == slot:
            return coins - coins0, wounds - wounds0
        coins0, wounds0 = coins, wounds
    return None


def _play(setup: sim.Setup, rules: Rules, seed: int, deal: Optional[Deal]):
    names = [f"P{i + 1}" for i in range(setup.players)]
    solo = rules.variant.scoring == "solo"
    try:
        game = SlotGame(rules, names, [sim._bot_maker(b)() for b in setup.bots], seed, deal,
                        (setup.difficulty or 3) if solo else None)
        start = {p.name: (p.coins, p.wounds) for p in game.players}
        return game.run(), start, game.deal
    except RulesError as err:
        raise sim.SimulationError(f"game with seed {seed}: {err}") from None


def run_slots(plan: tuple[Entry, ...], setups: tuple[sim.Setup, ...], seeds: range,
              progress: Optional[Callable[[int], None]] = None) -> sim.Tally:
    """The chunk of seeds for `sim.play_games`: run 0 the base game, run k the same deal
    with entry k's card in its slot. Stops on Ctrl-C as `sim.run_chunk` does."""
    base_rules, mod_rules = setups[0].rules(), setups[1].rules()
    has_boss = bool(base_rules.bosses)
    tally = sim.Tally(len(setups), setups[0].players)
    resolved: list[dict[str, int]] = [{} for _ in setups]
    n = setups[0].players
    for seed in seeds:
        if sim._STOP:
            break
        def pair(seed: int = seed) -> tuple:
            base, start, deal = _play(setups[0], base_rules, seed, None)
            runs = []
            for entry, setup in zip(plan, setups[1:], strict=True):
                slot = slot_of(entry, deal, seed, has_boss)
                runs.append((entry, slot, _play(setup, mod_rules, seed,
                                                with_card(deal, slot, entry.card))))
            return base, start, runs

        played = sim.unless_interrupted(pair)
        if played is None:
            break
        base, start, runs = played
        first = sim.observe(base, start, setups[0].bots, resolved[0])
        per_run = [first]
        for k, (entry, slot, (result, mstart, _)) in enumerate(runs, start=1):
            obs = sim.observe(result, mstart, setups[k].bots, resolved[k])
            for which, (res, st) in ((first, (base, start)), (obs, (result, mstart))):
                change = slot_change(res, st, slot)
                if change is not None:
                    which[f"slot.{entry.card}.coins"] = (change[0], n)
                    which[f"slot.{entry.card}.wounds"] = (change[1], n)
            per_run.append(obs)
        tally.add_game(per_run)
        if progress is not None:
            progress(1)
    tally.interrupted = sim._STOP
    for c, times in zip(tally.counts, resolved, strict=True):
        c["rooms"] += sum(times.values())
        for card, k in times.items():
            c[f"resolved.{card}"] += k
    return tally


def paired(tally: sim.Tally, run: int, key: str) -> Optional[Difference]:
    """Run `run` minus run 0 for one figure, paired game by game."""
    s = tally.sums.get(key)
    if s is None:
        return None
    s = tally._with_n(key)
    idx = (0, 1, 2 * run, 2 * run + 1)
    ss = [s.prod(a, b) for i, a in enumerate(idx) for b in idx[i:]]
    return difference(key, Sums(4, s.n, [s.s[i] for i in idx], ss), sim._kind(key)[1])


@attrs.frozen
class Verdict:
    entry: Entry
    wounds: Optional[Figure]
    coins: Optional[Figure]
    peers: dict[str, tuple[Optional[Figure], Optional[Figure]]]  # card -> (wounds, coins)
    against_slot: tuple[Optional[Difference], Optional[Difference]]  # wounds, coins
    game: dict[str, Optional[Difference]]  # whole-game figures, with the card against without
    lines: list[str]


_MOST = {"harder": "hardest", "easier": "easiest", "richer": "richest", "poorer": "poorest"}


def _rank(value: float, peers: dict[str, Known], names: dict[str, str], more: str,
          less: str, kind: str, kinds: str) -> str:
    """'harder than 8 of the 10 printed bosses, between A and B' (A and B: the peers'
    names either side)."""
    ordered = sorted(peers.items(), key=lambda kv: (kv[1][0], kv[0]))
    below = [c for c, (v, _, _) in ordered if v < value]
    above = [c for c, (v, _, _) in ordered if v > value]
    if not below:
        return f"{less} than every printed {kind} (the {_MOST[less]}: {names[ordered[0][0]]})"
    if not above:
        return f"{more} than every printed {kind} (the {_MOST[more]}: {names[ordered[-1][0]]})"
    return (f"{more} than {len(below)} of the {len(ordered)} printed {kinds}, between "
            f"{names[below[-1]]} and {names[above[0]]}")


def verdict(tally: sim.Tally, run: int, entry: Entry, rules: Rules, mod_rules: Rules,
            players: int) -> Verdict:
    base = tally.figures(0)
    mine = tally.figures(run)
    names = {c: rules.rooms[c].name for c in entry.peers}
    me = mod_rules.rooms[entry.card].name
    wounds = mine.get(f"card.{entry.card}.wounds")
    coins = mine.get(f"card.{entry.card}.coins")
    peers = {c: (base.get(f"card.{c}.wounds"), base.get(f"card.{c}.coins")) for c in entry.peers}
    # the peers' figures, known wherever the base games resolved the peer (Tally.figures)
    seen_w = {c: f for c, (w, _) in peers.items() if (f := known(w)) is not None}
    seen_c = {c: f for c, (_, k) in peers.items() if (f := known(k)) is not None}
    kind = entry.kind + ("es" if entry.kind.endswith("s") else "s")
    lines = [f"{me} ({entry.card}, a {entry.kind}"
             + (", in the boss slot" if entry.boss else ", in one room slot a game") + "):"]
    flags = []
    for label, fig, seen, more, less in (
            ("wounds a player", wounds, seen_w, "harder", "easier"),
            ("gives a player", coins, seen_c, "richer", "poorer")):
        mine_known = known(fig)
        if mine_known is None:
            lines.append(f"  {label}: never resolved in these games")
            continue
        value, low, high = mine_known
        unit = "wounds" if label.startswith("wounds") else "coins"
        if value >= 0:
            head = f"  {label} {value:.2f} [{low:.2f}, {high:.2f}] {unit} " \
                   "each time resolved"
        else:  # a room that heals, or takes coins: the same figure, said the other way
            other = "heals a player" if unit == "wounds" else "takes from a player"
            head = f"  {other} {-value:.2f} [{-high:.2f}, {-low:.2f}] {unit} " \
                   "each time resolved"
        if not seen:
            lines.append(head + f": no printed {entry.kind} to compare with")
            continue
        if all(v == 0 and v_high == v_low == 0 for v, v_low, v_high in seen.values()):
            # no printed card of its kind does this at all: a new thing, not a harder one
            if value != 0:
                lines.append(head + f": no printed {entry.kind} does this (they give 0)")
            continue
        lines.append(head + ": " + _rank(value, seen, names, more, less, entry.kind, kind))
        lo = min(f_low for _, f_low, _ in seen.values())
        hi = max(f_high for _, _, f_high in seen.values())
        if low > hi:
            flags.append(f"{more} than any printed {entry.kind}, beyond every interval")
        elif high < lo:
            flags.append(f"{less} than any printed {entry.kind}, beyond every interval")
    slot_w = paired(tally, run, f"slot.{entry.card}.wounds")
    slot_c = paired(tally, run, f"slot.{entry.card}.coins")
    # the slot's wounds and coins rest on the same games (the times it resolved): both or neither
    slot_wounds, slot_coins = known(slot_w), known(slot_c)
    if slot_wounds is not None and slot_coins is not None:
        (w, w_low, w_high), (c, c_low, c_high) = slot_wounds, slot_coins
        lines.append(f"  against the {'boss' if entry.boss else 'room'} it replaced, same "
                     "tables: wounds "
                     f"{w:+.2f} [{w_low:+.2f}, {w_high:+.2f}], coins "
                     f"{c:+.2f} [{c_low:+.2f}, {c_high:+.2f}] a player")
    game = {k: paired(tally, run, k) for k in ("wounds", "coins", "no_winner")}
    parts = []
    for k, d in game.items():
        if (got := known(d)) is not None:
            value, low, high = got
            v = (f"{value * 100:+.1f} pts [{low * 100:+.1f}, {high * 100:+.1f}]"
                 if k == "no_winner" else f"{value:+.2f} [{low:+.2f}, {high:+.2f}]")
            parts.append(f"{k.replace('_', ' ')} {v}")
    if parts:
        lines.append("  the whole game with it in the slot: " + ", ".join(parts)
                     + " (per player at the end; games)")
    if flags:
        lines.append("  verdict: OUT OF LINE: " + "; ".join(flags)
                     + ". Try `--sweep` on its numbers (docs/simulate.md#is-my-boss-too-strong)")
    elif seen_w or seen_c:
        lines.append(f"  verdict: in line with the printed {kind} (within their range)")
    else:
        lines.append(f"  verdict: no printed {entry.kind} to measure it against; judge it by "
                     "the whole game's change above")
    return Verdict(entry, wounds, coins, peers, (slot_w, slot_c), game, lines)


def peer_table(tally: sim.Tally, entry: Entry, rules: Rules) -> list[str]:
    """The peers' own figures, hardest first, from the base games."""
    base = tally.figures(0)
    rows = []
    for c in entry.peers:
        w, k = base.get(f"card.{c}.wounds"), base.get(f"card.{c}.coins")
        wounds = known(w)
        rows.append((wounds[0] if wounds is not None else -1e9, c, sim._cell(w, False),
                     sim._cell(k, False)))
    rows.sort(key=lambda r: (-r[0], r[1]))
    if not entry.peers:
        return []
    kind = entry.kind + ("es" if entry.kind.endswith("s") else "s")
    out = [f"  the printed {kind} (base games; wounds, coins per player each time resolved):"]
    out += [f"    {rules.rooms[c].name:<24} {w:>22} {k:>22}" for _, c, w, k in rows]
    return out


def own_cards(folder: str, rules: Rules) -> set[str]:
    """The ids of the cards declared in the mod's folder."""
    root = Path(folder).resolve()
    return {cid for cid, d in rules.library.cards.items()
            if Path(d.span.path).resolve().is_relative_to(root)}


def chunk_fn(plan: tuple[Entry, ...]):
    return functools.partial(run_slots, plan)
