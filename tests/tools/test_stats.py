"""Figures with intervals (interpreter/tools/stats.py, simulate): Wilson, t, exact merging, paired
differences, --precision, --compare marks, and usage errors (exit 2)."""
import json
import random

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.tools import simulate
from raiders.interpreter.tools.stats import Sums, difference, figure, t975, wilson


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_wilson_matches_published_values():
    # Newcombe (1998), table I: 0/10 -> 0 .. 0.2775; 5/10 -> 0.2366 .. 0.7634
    lo, hi = wilson(0, 10)
    assert lo == 0 and abs(hi - 0.2775) < 1e-4
    lo, hi = wilson(5, 10)
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4
    assert wilson(0, 0) == (0.0, 1.0)


def test_t_quantiles():
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert abs(t975(60) - 2.0003) < 1e-3 and abs(t975(10**6) - 1.96) < 1e-3


def test_wilson_covers_about_95_percent():
    rng = random.Random(5)
    hits = 0
    for _ in range(2000):
        p = rng.choice([0.03, 0.25, 0.5])
        k = sum(rng.random() < p for _ in range(60))
        lo, hi = wilson(k, 60)
        hits += lo <= p <= hi
    assert 0.92 < hits / 2000 < 0.98


def test_sums_merge_exactly_in_any_order():
    rng = random.Random(1)
    vecs = [(rng.randrange(0, 61), 1, rng.randrange(0, 61), 1) for _ in range(300)]
    whole = Sums(4)
    for v in vecs:
        whole.add(v)
    parts = [Sums(4) for _ in range(7)]
    for i, v in enumerate(vecs):
        parts[i % 7].add(v)
    merged = Sums(4)
    for p in reversed(parts):
        merged.merge(p)
    assert merged == whole
    assert whole.part(1).s == [sum(v[2] for v in vecs), 300]


def test_tally_counts_games_then_sums_them_exactly(monkeypatch):
    """A one-run Tally counts each game's (x, y) per figure and sums them later (`fold`): the
    sums are those of adding game by game, whenever they are read and however often the
    pending pairs are folded (here: every few games, as a long run does)."""
    monkeypatch.setattr(simulate, "_PENDING_PAIRS", 5)
    rng = random.Random(3)
    games = [{key: (rng.randrange(-3, 9), rng.choice((4, 8))) for key in
              rng.sample(["card.a.coins", "card.b.wounds", "coins", "win.seat.P1"], 3)}
             for _ in range(200)]
    tally = simulate.Tally(1, 4)
    expected: dict = {}
    for k, obs in enumerate(games):
        tally.add_game([obs])
        for key, (x, y) in obs.items():
            s = expected.setdefault(key, Sums(2))
            s.add((x, y))
        if k in (0, 57):  # read midway: what has been added so far, exactly
            assert tally.sums == expected
    assert tally.sums == expected and tally.games == 200
    again = simulate.Tally(1, 4)
    again.merge(tally)
    assert again.sums == expected


def test_mean_interval_and_paired_difference():
    rng = random.Random(2)
    s = Sums(4)
    for _ in range(400):
        x = rng.randrange(0, 20)
        s.add((x, 1, x + 2, 1))  # the mod adds exactly 2 to every game
    f = figure("coins", "mean", s.part(0))
    assert f.low < f.value < f.high
    d = difference("coins", s)
    assert abs(d.value - 2) < 1e-9 and abs(d.high - d.low) < 1e-6 and d.resolved
    same = Sums(4)
    for _ in range(400):
        x = rng.randrange(0, 20)
        same.add((x, 1, rng.randrange(0, 20), 1))
    d = difference("coins", same)
    assert d.low < d.value < d.high


@pytest.mark.slow  # 240 greedy games for one statistical claim; the columns are in test_cli
def test_compare_marks_a_real_difference():
    out = run("simulate", "--games", "60", "--players", "3", "--bots", "greedy", "--jobs", "1",
              "--compare", "examples/mods/shrine", "--json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["base"]["games"] == doc["with_mod"]["games"] == 60
    diffs = doc["differences"]
    assert all(d["low"] <= d["value"] <= d["high"] for d in diffs.values())
    # the shrines heal: wounds at the end go down, and the interval says so
    assert diffs["wounds"]["resolved"] and diffs["wounds"]["high"] < 0
    text = run("simulate", "--games", "60", "--players", "3", "--bots", "greedy", "--jobs", "1",
               "--compare", "examples/mods/shrine").stdout
    assert any(line.startswith("  wounds") and line.endswith("*") for line in text.splitlines())


def test_precision_plays_on_until_narrow_and_stays_deterministic():
    # random bots: the stopping rule is under test, not the bots (greedy is the default)
    args = ["simulate", "--games", "40", "--players", "3", "--bots", "random",
            "--precision", "0.06", "--max-games", "1500", "--json"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.exit_code == 0 and one.stdout == two.stdout
    doc = json.loads(one.stdout)
    assert 40 < doc["games"] <= 1500
    rates = [f for f in doc["figures"].values() if f["kind"] == "rate"]
    assert doc["games"] == 1500 or max(f["high"] - f["low"] for f in rates) <= 0.12 + 1e-9


@pytest.mark.parametrize("args", [
    ["--max-games", "100"],                      # a cap without --precision
    ["--precision", "0.01", "--games", "50", "--max-games", "10"],
    ["--bots", "search:x"], ["--bots", "greedy:3"], ["--bots", "clever"],
    ["--precision", "2"],
])
def test_bad_simulate_options_exit_2(args):
    out = run("simulate", "--games", "5", *args)
    assert out.exit_code == 2 and "Traceback" not in out.output


def test_a_precision_cut_short_by_the_cap_says_so():
    out = run("simulate", "--games", "10", "--players", "3", "--jobs", "1", "--bots", "random",
              "--precision", "0.01", "--max-games", "20")
    assert out.exit_code == 0
    assert "stopped at 20 games (--max-games) before every rate was within ±1.00%" in out.stderr


def test_workers_share_the_parents_memory_and_give_it_back(tmp_path):
    """--jobs 2 forks with the collector frozen (no copy of the heap in each worker) and
    unfreezes after, also when a worker fails; the tallies are those of one process."""
    import gc

    from raiders.interpreter.tools.simulate import Setup, SimulationError, simulate

    setup = Setup("deluxe", None, 3, ("random",) * 3, ())
    one, two = simulate((setup,), 24, jobs=1), simulate((setup,), 24, jobs=2)
    assert one.to_json() == two.to_json() and gc.get_freeze_count() == 0
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    failing = Setup("deluxe", None, 3, ("random",) * 3, (), log_dir=str(blocked))
    with pytest.raises(SimulationError):
        simulate((failing,), 4, jobs=2)
    assert gc.get_freeze_count() == 0


def _per_player_run(rng, games: int, p_two: float = 0.5) -> Sums:
    """A per-player rate whose seats pull against each other: of 4 players, one or two go out
    in every game (never 0, 3 or 4), as `out.REASON` where a room takes the lowest."""
    s = Sums()
    for _ in range(games):
        s.add((1 + (rng.random() < p_two), 4))
    return s


def test_a_per_player_rate_interval_is_as_wide_as_its_spread_over_repeated_runs():
    """Issue 24: the design effect was floored at 1, so this rate's interval (binomial sd
    0.242/√n) was about twice its real spread (0.125/√n). Now it follows the spread, and
    still covers the true rate in about 95% of runs."""
    import statistics

    rng = random.Random(24)
    true = 1.5 / 4
    runs = [figure("out.x", "rate", _per_player_run(rng, 200)) for _ in range(400)]
    spread = statistics.stdev(f.value for f in runs)
    reported = statistics.mean(f.half_width for f in runs) / 1.96
    assert 0.85 < reported / spread < 1.15, (reported, spread)
    covered = sum(f.low <= true <= f.high for f in runs) / len(runs)
    assert 0.92 < covered < 0.98


def test_a_rate_of_one_trial_a_game_keeps_at_least_the_binomial_width():
    s = Sums()
    for i in range(100):  # a perfectly alternating series: less spread than binomial
        s.add((i % 2, 1))
    f = figure("win.seat.P1", "rate", s)
    low, high = wilson(50, 100)
    assert f.low <= low and f.high >= high
    same = Sums()  # every game split the same way: still an interval, not a point
    for _ in range(100):
        same.add((1, 4))
    g = figure("out.x", "rate", same)
    assert g.low < 0.25 < g.high
