"""benchmarks/simulate.py's hand-coded engine (issue 11's baseline) still plays sane games, so
the speed comparison cannot silently rot into a comparison with a broken baseline."""
import importlib.util
import sys
from pathlib import Path

import pytest
from childproc import run_ok

from raiders.interpreter.runtime.rules import load_rules

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "simulate.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("raiders_bench_simulate", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cards(bench):
    return bench.Cards(load_rules("deluxe"))


def test_games_finish_with_winners_and_consistent_tokens(bench, cards):
    rules = load_rules("deluxe")
    per_game = cards.floors * cards.per_floor
    for seed in range(1, 41):
        game = bench.play_game(cards, seed)
        assert len(game.rooms) == per_game == 25
        # the boss is the last room (D-2, D-6), the others come from the room deck
        assert game.rooms[-1][0] in rules.bosses
        assert all(cid in rules.deck for cid, _, _ in game.rooms[:-1])
        names = {p.name for p in game.heroes}
        assert len({p.character for p in game.heroes}) == 4
        # 4 players: someone always wins unless every contender is out (D-7, D-9)
        assert set(game.winners) <= names
        if any(p.out is None for p in game.heroes):
            assert game.winners
        for p in game.heroes:
            assert 0 <= p.coins <= rules.coin_cap
            assert p.wounds >= 0
            assert p.out in (None, "eliminated", "unconscious")
            assert p.name not in game.winners or p.out is None
            # one card a room: a power card, unless an item was played instead
            assert len(set(p.hand)) == len(p.hand) and set(p.hand) <= {1, 2, 3, 4, 5}
        # the per-room changes add up to the tokens at the end
        start = {cid: cards.characters[cid] for cid in (p.character for p in game.heroes)}
        coins0 = sum(c for c, _, _ in start.values())
        wounds0 = sum(w for _, w, _ in start.values())
        assert coins0 + sum(c for _, c, _ in game.rooms) == sum(p.coins for p in game.heroes)
        assert wounds0 + sum(w for _, _, w in game.rooms) == sum(p.wounds for p in game.heroes)
        # no item card is made or lost: the supply and the hands hold the ruleset's copies
        for item, copies in rules.supply.items():
            held = sum(p.items.count(item) for p in game.heroes)
            assert game.supply[item] >= 0 and held + game.supply[item] == copies


def test_same_seed_same_game(bench, cards):
    a, b = bench.play_game(cards, 7), bench.play_game(cards, 7)
    assert a.rooms == b.rooms and a.winners == b.winners
    assert [(p.coins, p.wounds, p.items) for p in a.heroes] == \
        [(p.coins, p.wounds, p.items) for p in b.heroes]


def test_totals_are_the_figures_simulate_reports(bench, cards):
    totals = bench.Totals(4)
    games = [bench.play_game(cards, s) for s in range(1, 31)]
    for g in games:
        totals.add(g)
    assert totals.games == 30 and totals.rooms == 30 * 25
    assert sum(totals.resolved.values()) == totals.rooms
    # every game's wins share out to one whole win (or none): seats, bots and characters agree
    seats = sum(s[0] for k, s in totals.sums.items() if k.startswith("win.seat."))
    chars = sum(s[0] for k, s in totals.sums.items() if k.startswith("win.character."))
    no_winner = totals.sums["no_winner"][0]
    assert seats == chars == totals.sums["win.bot.random"][0]
    assert abs(seats - bench.SHARE * (30 - no_winner)) < 30 * 5  # shares round down
    assert totals.sums["coins"][0] == sum(p.coins for g in games for p in g.heroes)
    assert totals.sums["coins"][1] == 30 * 4
    lines = totals.lines()
    assert lines[0].startswith("30 games, 4 players, 750 rooms")
    assert any(line.split()[0] == "win.seat.P1" for line in lines[1:])


def test_room_steps_cover_the_same_rooms_as_the_hand_written(bench):
    """benchmarks/engine.py --stages times each step of a room on copies of the recorded
    tables: every step is measured, and taking the snapshots leaves the recorded games whole."""
    engine = bench._room_bench()
    rules = load_rules("deluxe")
    results = engine.record_games(rules, 3)
    peek = {i for i, c in rules.items.items() if c.ability == "peek"}
    ends = engine.replay_recorded(rules, results, engine.interpreter_resolver(rules), peek)[1]
    costs = engine.stage_costs(rules, results, repeat=1)
    assert list(costs) == ["plays", "context", "values", "procedure", "returns", "hand-written"]
    assert all(isinstance(v, float) for v in costs.values())
    again = engine.replay_recorded(rules, results, engine.interpreter_resolver(rules), peek)[1]
    assert again == ends


@pytest.mark.slow
def test_instruction_counts_print_the_first_goal_as_a_ratio():
    """`--instructions` (valgrind): both sides counted, start-up subtracted, the ratio printed.
    CI installs valgrind; without it this fails there rather than skipping."""
    import os
    import re
    import shutil

    if shutil.which("valgrind") is None:
        if os.environ.get("RAIDERS_REQUIRE_VALGRIND"):
            pytest.fail("valgrind is required here (RAIDERS_REQUIRE_VALGRIND)")
        pytest.skip("valgrind is not installed")
    out = run_ok([sys.executable, str(BENCH), "--instructions", "--games", "6"]).stdout
    counts = [float(m) for m in re.findall(r":\s+([\d.]+) million", out)]
    assert len(counts) == 2 and all(0.1 < c < 100 for c in counts), out
    ratio = float(re.search(r"hand-coded\s*: ([\d.]+)x", out).group(1))
    assert ratio == pytest.approx(counts[0] / counts[1], abs=0.001), out
