"""`simulate --sweep`/`--target` (interpreter/runtime/sweep.py): the spec's syntax, which number it
names, the AST rewrite reaching the compiled card, and clear exit-2 diagnostics."""
import json

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.runtime.sweep import (
    SweepError,
    holding,
    nearest,
    parse_sweep,
    parse_target,
    parse_values,
    places_for,
    resolve,
    separates,
)

GORGON = "examples/mods/gorgon"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_values_and_specs_parse():
    assert parse_values("10..14") == (10, 11, 12, 13, 14)
    assert parse_values("0..10:5") == (0, 5, 10)
    assert parse_values("3,1,3") == (3, 1)
    s = parse_sweep("lava.hits.5#1=1..3")
    assert (s.card, s.path, s.k, s.values) == ("lava", ("hits", "5"), 1, (1, 2, 3))
    assert parse_sweep("treasure-4-2#2=0,1").path == ()
    assert parse_target("win.seat.P1=0.25").value == 0.25
    for bad in ("x..y", "5..1", "1..3:0", "0..1000000"):
        with pytest.raises(SweepError):
            parse_values(bad)
    for bad in ("gorgon", "gorgon=1..2", "a.b.c.d=1", "gorgon.wounds=", ".x=1"):
        with pytest.raises(SweepError):
            parse_sweep(bad)
    with pytest.raises(SweepError):
        parse_target("win.seat.P1")
    # an infinite target is nearest nothing: every value tied, the smallest named (`inf` named
    # the value of 0.00 wounds beside one of 1.00)
    for bad in ("card.lich.wounds=inf", "wounds=-inf", "out=1e400", "coins=nan"):
        with pytest.raises(SweepError, match="FIGURE=VALUE|finite"):
            parse_target(bad)


def test_a_per_player_field_sweeps_the_shield_of_the_table_played():
    rules = load_rules("deluxe", None, (GORGON,))
    lib, first = rules.library, rules.ruleset.strength_players
    four = resolve(lib, parse_sweep("gorgon.strength=10..11"), 4, first)
    three = resolve(lib, parse_sweep("gorgon.strength=10..11"), 3, first)
    explicit = resolve(lib, parse_sweep("gorgon.strength#2=10..11"), 3, first)
    assert four[0].index == explicit[0].index != three[0].index
    edited = load_rules("deluxe", None, (GORGON,), edits=(four[0],))
    assert "12/10/20" in " ".join(edited.rooms["gorgon"].words)
    assert "12/16/20" in " ".join(load_rules("deluxe", None, (GORGON,)).rooms["gorgon"].words)


def test_rows_numbers_in_rules_and_absent_fields():
    rules = load_rules("deluxe")
    lib, first = rules.library, rules.ruleset.strength_players
    row = resolve(lib, parse_sweep("lava.hits.4=5"), 4, first)[0]
    words = " ".join(load_rules("deluxe", edits=(row,)).rooms["lava"].words)
    assert "lose 5 coin" in words
    gl = load_rules("deluxe", None, (GORGON,)).library
    rule_number = resolve(gl, parse_sweep("gorgon#5=3"), 4, first)[0]  # `lose 1 coin` in a rule
    words = " ".join(load_rules("deluxe", None, (GORGON,), edits=(rule_number,))
                     .rooms["gorgon"].words)
    assert "lose 3 coin" in words
    added = resolve(lib, parse_sweep("treasure-1.second_chest=2"), 4, first)[0]
    assert added.field == "second_chest"
    assert load_rules("deluxe", edits=(added,)).rooms["treasure-1"] is not None
    with pytest.raises(SweepError, match="has no number there"):
        resolve(lib, parse_sweep("lava.hits.9=1"), 4, first)
    with pytest.raises(SweepError, match="did you mean"):
        resolve(lib, parse_sweep("lavaa.hits.5=1"), 4, first)


def test_a_wrong_number_lists_the_fields_a_sweep_would_add_too():
    """`balance examples/mods/shrine --sweep 'shrine-of-ash.x=1'` said "its numbers: none",
    though `shrine-of-ash.offering` (left at the kind's default) sweeps."""
    rules = load_rules("deluxe", None, ("examples/mods/shrine",))
    lib, first = rules.library, rules.ruleset.strength_players
    with pytest.raises(SweepError) as err:
        resolve(lib, parse_sweep("shrine-of-ash.x=1"), 4, first)
    said = str(err.value)
    assert "its numbers: none written; and, left at the kind's default (a sweep adds the " \
           "field): " in said, said
    assert "shrine-of-ash.offering" in said and "shrine-of-ash.blessing" in said
    with pytest.raises(SweepError) as err:  # the dawn sets its blessing: listed as written
        resolve(lib, parse_sweep("shrine-of-dawn.x=1"), 4, first)
    said = str(err.value)
    assert "shrine-of-dawn.blessing = 2" in said and "shrine-of-dawn.blessing," not in said
    assert not said.endswith("shrine-of-dawn.blessing")


def test_nearest_picks_the_closest_figure_smaller_value_on_ties():
    assert nearest([(1, 0.1), (2, 0.3), (3, 0.5)], 0.31) == 2
    assert nearest([(1, 0.2), (2, 0.4)], 0.3) == 1
    assert nearest([(1, None)], 0.3) is None


def test_sweep_one_line_per_value_and_the_target():
    out = run("simulate", "--games", "12", "--jobs", "1", "--players", "3", "--bots", "random",
              "--sweep", "lava.hits.5=0..3", "--target", "card.lava.coins=-0.6", "--json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    values = doc["sweep"]["values"]
    assert [v["value"] for v in values] == [0, 1, 2, 3]
    coins = [v["figures"]["card.lava.coins"]["value"] for v in values]
    assert coins == sorted(coins, reverse=True)  # a bigger loss, the same seeds
    best = doc["sweep"]["target"]["best"]
    assert best == min(zip(coins, range(4), strict=True),
                       key=lambda c: (abs(c[0] + 0.6), c[1]))[1]
    text = run("simulate", "--games", "12", "--jobs", "1", "--players", "3", "--bots", "random",
               "--sweep", "lava.hits.5=0..3", "--target", "card.lava.coins=-0.6").stdout
    assert len([ln for ln in text.splitlines() if ln.strip()[:1].isdigit()]) == 4
    assert "<- nearest" in text and "target card.lava.coins" in text


def test_the_text_says_how_often_the_swept_card_was_resolved():
    """A sweep deals the card as the deck does (a boss about one game in eleven): the
    precision of its figures rests on the times it was resolved, printed at each value as the
    JSON's `resolved` holds them (issue 22's review)."""
    args = ["simulate", "--games", "40", "--jobs", "1", "--players", "3", "--bots", "random",
            "--cards", GORGON, "--sweep", "gorgon.wounds=1..2"]
    doc = json.loads(run(*args, "--json").stdout)
    times = [v["resolved"].get("gorgon", 0) for v in doc["sweep"]["values"]]
    assert 0 < times[0] < 40
    text = run(*args).stdout.splitlines()
    assert text[1].split()[:3] == ["value", "games", "resolved"], text
    assert [int(line.split()[2]) for line in text[2:4]] == times


def test_separates_only_when_some_interval_leaves_the_target_out():
    assert not separates([(1, (0.1, 0.5)), (2, (0.2, 0.6))], 0.3)  # both hold it
    assert separates([(1, (0.1, 0.5)), (2, (0.4, 0.6))], 0.3)
    assert separates([(1, (0.1, 0.5)), (2, None)], 0.3)  # one value alone: nothing to compare
    # none holds it: alike values (all intervals overlap) are not told apart; distinct ones are
    assert not separates([(1, (0.2, 0.3)), (2, (0.2, 0.3)), (3, (0.25, 0.35))], 0.9)
    assert separates([(1, (0.2, 0.3)), (2, (0.4, 0.5))], 0.9)
    assert holding([(1, (0.1, 0.5)), (2, (0.2, 0.6)), (3, (0.5, 0.9))], 0.3) == [1, 2]


def test_a_target_the_figure_does_not_separate_names_no_nearest():
    """Issue 24: lava dealt or not, seat 1 wins as often in 30 games: every value's interval
    holds 0.3, so no value is "nearest" it."""
    args = ["simulate", "--games", "30", "--jobs", "1", "--players", "3", "--bots", "random",
            "--sweep", "lava.hits.5=0..1", "--target", "win.seat.P1=0.3"]
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert "<- nearest" not in text.stdout
    assert ("target win.seat.P1 = 0.3: the figure does not separate the values: every "
            "value's 95% interval holds 0.3") in text.stdout
    target = json.loads(run(*args, "--json").stdout)["sweep"]["target"]
    assert target["best"] is None and target["separated"] is False
    assert target["holding"] == [0, 1]


@pytest.mark.parametrize("args", [
    ["--sweep", "gorgon.wounds=1..2"],             # the mod is not loaded
    ["--sweep", "lava.hitz.5=1"], ["--sweep", "lava"], ["--sweep", "lava.hits.5=a..b"],
    ["--sweep", "lava.hits.5=9..1"], ["--sweep", "lava#99=1"],
    ["--sweep", "lava.hits.5=1", "--target", "win.seat.P9=0.2"],
    ["--sweep", "lava.hits.5=1", "--target", "nonsense"],
    ["--target", "coins=3"],                        # a target without a sweep
    ["--sweep", "lava.hits.5=1", "--compare", GORGON],
    ["--sweep", "lava.hits.5=1", "--sweep", "lava.hits.5=2"],  # click kept the last silently
    ["--sweep", "lava.hits.5=1", "--target", "coins=1", "--target", "wounds=1"],
])
def test_bad_sweeps_exit_2_with_a_message(args):
    out = run("simulate", "--games", "2", "--jobs", "1", *args)
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and "Error:" in out.output


def _header(text: str) -> list[str]:
    """The figure columns of a sweep's table, in order (after the times the card resolved)."""
    line = next(ln for ln in text.splitlines() if ln.split()[:2] == ["value", "games"])
    return [c for c in line.split()[2:] if c != "resolved"]


def test_the_columns_keep_their_order_with_or_without_a_target():
    """A reviewer saw coins before wounds without --target and wounds first with
    `--target card.X.wounds`: the same figures stay in the same columns; a target that is
    none of them comes first."""
    args = ["simulate", "--games", "3", "--jobs", "1", "--players", "3", "--bots", "random",
            "--sweep", "lava.hits.5=0..1"]
    plain = run(*args)
    assert plain.exit_code == 0, plain.output
    shown = ["card.lava.coins", "card.lava.wounds", "win.seat.P1"]
    assert _header(plain.stdout) == shown
    for figure in shown:
        aimed = run(*args, "--target", f"{figure}=0.3")
        assert aimed.exit_code == 0, aimed.output
        assert _header(aimed.stdout) == shown, figure
    other = run(*args, "--target", "coins=3")
    assert _header(other.stdout) == ["coins", *shown]


def test_the_target_line_rounds_the_value_and_its_interval_alike():
    """One rule for the figure and both ends of its interval, the table's (means to 0.01,
    rates to 0.001, the table's 0.1%): a reviewer read `0.878, 95% [0.824, 0.9321]`."""
    from raiders.interpreter.cli.sweep import sweep_lines
    from raiders.interpreter.tools.stats import Figure

    class Run:  # what sweep_lines reads of one value's simulation
        games = 164

        def __init__(self, figures):
            self._figures = figures

        def figures(self):
            return self._figures

    target = parse_target("card.lich.coins=-0.9")
    coins = Figure("card.lich.coins", "mean", -0.878049, -0.932051, -0.824046, 164, 164)
    lines = sweep_lines("lich.wounds", [(1, Run({"card.lich.coins": coins}))],
                        ["card.lich.coins"], target, 1, {"separated": True, "holding": [1]})
    assert "(-0.88, 95% [-0.93, -0.82], the target is inside)" in lines[-1], lines[-1]
    rate = Figure("win.seat.P1", "rate", 0.8382, 0.7466, 0.9299, 51, 51)
    lines = sweep_lines("lich.wounds", [(1, Run({"win.seat.P1": rate}))], ["win.seat.P1"],
                        parse_target("win.seat.P1=0.9"), 1, {"separated": True, "holding": [1]})
    assert "(0.838, 95% [0.747, 0.930], the target is inside)" in lines[-1], lines[-1]
    # a target just outside must not read as inside once rounded: "(0.25, 95% [0.20, 0.30], the
    # target is outside)" for coins 0.2 below [0.2042, 0.3025]
    coins = Figure("card.lich.coins", "mean", 0.253333, 0.204188, 0.302478, 600, 600)
    lines = sweep_lines("lich.wounds", [(1, Run({"card.lich.coins": coins}))],
                        ["card.lich.coins"], parse_target("card.lich.coins=0.2"), 1,
                        {"separated": True, "holding": []})
    assert "(0.253, 95% [0.204, 0.302], the target is outside)" in lines[-1], lines[-1]


def test_an_interval_reads_on_the_side_of_the_target_it_lies():
    assert places_for(0.204188, 0.302478, 0.2, 2) == 3
    assert places_for(0.1, 0.19999, 0.2, 2) == 5  # rounded up to 0.2 until 5 places
    assert places_for(0.1, 0.3, 0.2, 2) == 2  # inside: as the table rounds
    assert places_for(0.5, 0.6, 0.2, 2) == 2  # far outside
    assert places_for(0.2000001, 0.3, 0.2, 3) == 6  # no more than the JSON's 6 places
