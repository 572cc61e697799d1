"""Engine throughput: full 4-player deluxe games per second with random bots, and the same
rooms resolved by the interpreter next to a hand-written plain-Python resolution.

The baseline is what a programmer would write without a card language: one hand-coded
function per room kind, with the cards' numbers read once from the card files into plain
tuples. Both resolve exactly the same recorded rooms (same plays, same order) in the same
process, and the benchmark checks that they end in the same state, so the ratio compares
equal work.

    python benchmarks/engine.py [--games 2000]
    python benchmarks/engine.py --stages     # also: where a room's time goes, µs per room
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from raiders.dsl import ast
from raiders.interpreter.game.engine import Game, GameResult
from raiders.interpreter.game.players import RandomBot
from raiders.interpreter.runtime.room import Context, Table, resolve_round
from raiders.interpreter.runtime.rules import Rules, load_rules
from raiders.interpreter.runtime.state import Play, Player

NAMES = ["A", "B", "C", "D"]


# ---- the games --------------------------------------------------------------------------


def time_games(rules: Rules, n: int) -> float:
    """Seconds for n full games (results dropped as they come, like a simulation would)."""
    t = time.perf_counter()
    for seed in range(n):
        Game(rules, NAMES, [RandomBot() for _ in NAMES], seed=seed).run()
    return time.perf_counter() - t


def record_games(rules: Rules, n: int) -> list[GameResult]:
    return [Game(rules, NAMES, [RandomBot() for _ in NAMES], seed=seed).run() for seed in range(n)]


def start_state(rules: Rules, result: GameResult) -> tuple[list[Player], dict[str, int]]:
    supply = dict(rules.ruleset.items)
    players = []
    for seat, (name, cid) in enumerate(zip(NAMES, result.deal.characters, strict=True)):
        c = rules.characters[cid]
        p = Player(seat, name, cid, c.coins, c.wounds, items=sorted(c.items))
        for item in c.items:
            supply[item] -= 1
        players.append(p)
    return players, supply


def final(players: list[Player]) -> list[tuple]:
    return [(p.coins, p.wounds, tuple(sorted(p.items)), p.out) for p in players]


def replay_recorded(rules: Rules, results: list[GameResult],
                    resolve: Callable[[str, list[Player], list, dict[str, int]], None],
                    peek_items: set[str]) -> tuple[float, list]:
    """Play the recorded rooms again through `resolve(card, players, cards, supply)`; the
    bookkeeping around each room (hands, second-card items, peeks) is the same for both."""
    ends = []
    t = time.perf_counter()
    for result in results:
        players, supply = start_state(rules, result)
        for rec in result.rooms:
            if rec.index == 0:
                for p in players:
                    p.hand = [1, 2, 3, 4, 5]
            cards = []
            for p in players:
                chain = rec.plays[p.name]
                for ball in chain[:-1]:
                    p.items.remove(ball)
                    supply[ball] += 1
                cards.append(chain[-1])
            for name in rec.peeks:
                p = players[NAMES.index(name)]
                item = next(i for i in p.items if i in peek_items)
                p.items.remove(item)
                supply[item] += 1
            resolve(rec.card, players, cards, supply)
        ends.append(final(players))
    return time.perf_counter() - t, ends


def interpreter_resolver(rules: Rules):
    """The engine's own path: the compiled closures and the event bus."""
    rooms, cap = rules.rooms, rules.ruleset.coin_cap

    table: list = [None]  # the engine keeps one Table a game: so does the benchmark

    def resolve(card: str, players: list[Player], cards: list, supply: dict[str, int]) -> None:
        t = table[0]
        if t is None or t.players is not players:
            t = table[0] = Table(players, supply, cap, None)
        plays = [Play(p, c) for p, c in zip(players, cards, strict=True)]
        ctx = resolve_round(t, rooms[card], plays)
        if "room" in ctx.reacts:  # as the engine's finish_room: only when a card hears it
            ctx.phase("room", list(ctx.participants))

    return resolve


def stage_costs(rules: Rules, results: list[GameResult], repeat: int = 5) -> dict[str, float]:
    """Microseconds per room for each step of the interpreter's resolution of the recorded
    rooms, and for the hand-written resolution of the same rooms: each room's table as it was
    before the room, copied before the clock starts; a step's cost is the pipeline up to it
    less the pipeline up to the step before (best of `repeat`)."""
    rooms, data = rules.rooms, extract(rules)
    peek = {i for i, c in rules.items.items() if c.ability == "peek"}
    before: list[tuple[str, list[Player], list, dict[str, int]]] = []

    def snapshot(card: str, players: list[Player], cards: list, supply: dict[str, int]) -> None:
        before.append((card, _copies(players), list(cards), dict(supply)))
        resolve(card, players, cards, supply)

    resolve = interpreter_resolver(rules)
    replay_recorded(rules, results, snapshot, peek)
    steps = ["plays", "context", "values", "procedure", "returns", "hand-written"]

    def run(step: str) -> float:
        tables = [(card, Table(ps, sup, rules.ruleset.coin_cap, None), cards)
                  for card, ps, cards, sup in ((c, _copies(p), k, dict(s))
                                                for c, p, k, s in before)]
        t = time.perf_counter()
        for card, table, cards in tables:
            if step == "hand-written":
                hand_resolve(data[card], table.players, cards, table.supply)
                continue
            plays = [Play(p, c) for p, c in zip(table.players, cards, strict=True)]
            if step == "plays":
                continue
            if step == "returns":  # the whole of resolve_round
                resolve_round(table, rooms[card], plays)
                continue
            ctx = Context(table, rooms[card], plays)
            if step == "context":
                continue
            ctx.value_plays()
            if step == "procedure":
                rooms[card].resolve(ctx, None)
        return (time.perf_counter() - t) / len(before) * 1e6

    best = {step: min(run(step) for _ in range(max(1, repeat))) for step in steps}
    costs, previous = {}, 0.0
    for step in steps[:-1]:
        costs[step], previous = best[step] - previous, best[step]
    costs["hand-written"] = best["hand-written"]
    return costs


def _copies(players: list[Player]) -> list[Player]:
    return [Player(p.seat, p.name, p.character, p.coins, p.wounds, list(p.hand), list(p.items),
                   p.out) for p in players]


# ---- the hand-written baseline ------------------------------------------------------------


def _fields(card: ast.CardDecl) -> dict[str, Any]:
    return {m.name: m.value for m in card.members if isinstance(m, ast.Field)}


def _num(v) -> int:
    return v.value


def _rows(block: ast.Block) -> dict[int, Any]:
    return {row.key: row.body for row in block.stmts}


def extract(rules: Rules) -> dict[str, tuple]:
    """Each room card as a plain tuple of numbers, read once from the card files."""
    lib = rules.library
    data: dict[str, tuple] = {}
    for cid in rules.rooms:
        card = lib.cards[cid]
        f = _fields(card)
        kinds = [k.name for k in lib.kinds[card.kind].chain]
        if "treasure" in kinds:
            items = {m.card.item: _num(m.value) for k in lib.kinds[card.kind].chain
                     for m in k.members if isinstance(m, ast.Playable)}
            data[cid] = ("treasure", _num(f["chest"]),
                         _num(f["second_chest"]) if "second_chest" in f else 0, items)
        elif "vault" in kinds:
            rows = {}
            for v, body in _rows(f["rewards"]).items():
                rows[v] = (body.verb, body.arg.name if body.verb == "give" else _num(body.arg))
            data[cid] = ("vault", rows)
        elif "trap" in kinds:
            rows = {}
            for v, body in _rows(f["hits"]).items():
                eff = body.effects[0]
                rows[v] = (body.selectors[0].name, eff.verb, _num(eff.arg))
            data[cid] = ("trap", rows)
        elif "monster" in kinds:
            s = f.get("strength")
            strength = [_num(x) for x in s.values] if isinstance(s, ast.PerPlayers) else None
            wounds = _num(f["wounds"]) if "wounds" in f else 0
            target = f.get("target")
            high = isinstance(target, ast.Name) and target.name == "highest"
            escape = next((m.card.item for m in card.members if isinstance(m, ast.Escape)), None)
            value_mods = {(m.card.power if m.card.power is not None else m.card.item): _num(m.expr)
                          for m in card.members if isinstance(m, ast.Modify)}
            on_hit, also, bonus = None, 0, 0
            for m in card.members:
                if isinstance(m, ast.Handler):
                    stmt = m.body.stmts[0]
                    if m.sort == "replace":
                        on_hit = (stmt.verb, _num(stmt.arg) if stmt.arg is not None else 0)
                    elif m.event == "wound":
                        also = _num(stmt.arg)
                    else:
                        bonus = _num(stmt.then.stmts[0].effects[0].arg)
            data[cid] = ("monster", strength, wounds, high, escape, value_mods, on_hit, also, bonus)
    return data


def _gain(p: Player, n: int) -> None:
    p.coins = min(20, p.coins + n)


def _lose(p: Player, n: int) -> None:
    p.coins = max(0, p.coins - n)


def hand_resolve(d: tuple, players: list[Player], cards: list, supply: dict[str, int]) -> None:
    kind = d[0]
    if kind == "treasure":
        values = [d[3][c] if isinstance(c, str) else c for c in cards]
        top = max(values)
        winners = [p for p, v in zip(players, values, strict=True) if v == top]
        each = d[1] // len(winners)
        for p in winners:
            _gain(p, each)
        rest = [v for v in values if v < top]
        if rest and d[2]:
            second = max(rest)
            winners = [p for p, v in zip(players, values, strict=True) if v == second]
            each = d[2] // len(winners)
            for p in winners:
                _gain(p, each)
    elif kind == "vault":
        groups: dict[int, list[Player]] = {}
        for p, v in zip(players, cards, strict=True):
            groups.setdefault(v, []).append(p)
        for v in sorted(groups):
            row = d[1].get(v)
            if row is None:
                continue
            verb, arg = row
            group = groups[v]
            if verb == "give":
                if supply[arg] >= len(group):
                    for p in group:
                        supply[arg] -= 1
                        p.items.append(arg)
            elif verb == "gain":
                for p in group:
                    _gain(p, arg)
            else:
                for p in group:
                    p.wounds = max(0, p.wounds - arg)
    elif kind == "trap":
        row = d[1].get(max(cards))
        if row is not None:
            sel, verb, n = row
            if sel == "richest":
                top = max(p.coins for p in players)
                for p in players:
                    if p.coins == top:
                        _lose(p, n)
            else:
                low = min(p.wounds for p in players)
                for p in players:
                    if p.wounds == low:
                        p.wounds += n
    else:
        _, strength, wounds, high, escape, value_mods, on_hit, also, bonus = d
        counted = []
        for p, c in zip(players, cards, strict=True):
            if c == escape:
                continue
            v = 5 if isinstance(c, str) else c
            v = value_mods.get(c, v)
            counted.append((p, v))
        values = [v for _, v in counted]
        total = sum(values)
        need = strength[len(players) - 3] if strength else None
        defeated = need is not None and total >= need
        if not defeated and counted:
            pick = max(values) if high else min(values)
            for p, v in counted:
                if v != pick:
                    continue
                if on_hit is None:
                    p.wounds += wounds
                    if also:
                        _lose(p, also)
                elif on_hit[0] == "lose":
                    _lose(p, on_hit[1])
                elif p.out is None:
                    p.out = "eliminated"
        if bonus and not (len(set(values)) <= 1 and not defeated) and counted:
            top = max(values)
            for p, v in counted:
                if v == top:
                    _gain(p, bonus)
    for p, c in zip(players, cards, strict=True):
        if isinstance(c, int):
            p.hand.remove(c)
        else:
            p.items.remove(c)
            supply[c] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--stages", action="store_true",
                    help="also print where a room's time goes, step by step (µs per room)")
    ap.add_argument("--repeat", type=int, default=5,
                    help="interleaved runs of each side; the best of each is compared "
                         "(a busy machine slows single runs)")
    args = ap.parse_args()
    rules = load_rules("deluxe")
    n = args.games
    time_games(rules, 50)  # warm up
    full = min(time_games(rules, n) for _ in range(3))
    results = record_games(rules, n)
    data = extract(rules)
    peek = {i for i, c in rules.items.items() if c.ability == "peek"}
    interpreted = interpreter_resolver(rules)

    def hand_written(card: str, players: list[Player], cards: list, supply: dict[str, int]) -> None:
        hand_resolve(data[card], players, cards, supply)

    best_i = best_b = float("inf")
    for _ in range(max(1, args.repeat)):
        ti, ends_i = replay_recorded(rules, results, interpreted, peek)
        tb, ends_b = replay_recorded(rules, results, hand_written, peek)
        best_i, best_b = min(best_i, ti), min(best_b, tb)
    same = sum(a == b for a, b in zip(ends_i, ends_b, strict=True))
    rooms = sum(len(r.rooms) for r in results)
    print(f"full 4-player deluxe games, random bots: {n / full:8.0f} games/s ({n} games)")
    print(f"recorded rooms, interpreter          : {rooms / best_i:8.0f} rooms/s "
          f"= {n / best_i:6.0f} games/s")
    print(f"recorded rooms, hand-written baseline: {rooms / best_b:8.0f} rooms/s "
          f"= {n / best_b:6.0f} games/s")
    print(f"ratio interpreter / hand-written: {best_b / best_i:.2f}x "
          f"(same final state in {same}/{n} games)")
    if args.stages:
        costs = stage_costs(rules, results[:500], args.repeat)
        hand = costs.pop("hand-written")
        print("one room, step by step (µs per room, the table as it was before the room):")
        for step, us in [*costs.items(), ("in all", sum(costs.values()))]:
            print(f"  interpreter, {step:<12}: {us:5.2f}")
        print(f"  {'hand-written, in all':<25}: {hand:5.2f}")


if __name__ == "__main__":
    main()
