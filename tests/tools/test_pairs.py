"""tools/pairs.py: a game that replays another game of the same seed up to the floor where
their cards differ (issue 22: what a modder waits for). Replaying must never change a figure:
each test compares the replayed games with the same games played afresh."""
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.dsl import ast
from raiders.interpreter.cli import main
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.tools import pairs
from raiders.interpreter.tools import simulate as sim
from tests.handovers import count_hand_overs

ROOT = Path(__file__).resolve().parents[2]
MODS = ROOT / "examples/mods"


def _copy(tmp_path, mod: str, old: str, new: str, name: str = "") -> str:
    """The mod copied to tmp_path with one piece of its text changed."""
    folder = tmp_path / (name or f"{mod}-changed")
    shutil.copytree(MODS / mod, folder)
    for path in folder.glob("*.dsl"):
        text = path.read_text()
        if old in text:
            path.write_text(text.replace(old, new, 1))
            return str(folder)
    raise AssertionError(f"{old!r} is not in {mod}")


@pytest.mark.parametrize("mod, old, new, seeds", [
    # a boss, dealt about one game in 11: seeds 4 and 8 deal it, 5 to 7 do not
    ("gorgon", "  wounds 2\n", "  wounds 3\n", range(4, 9)),
    ("shrine", "blessing 2", "blessing 3", range(1, 7)),  # a room: dealt on any floor
])
def test_simulate_compare_replays_each_seed_up_to_the_changed_card_and_changes_no_figure(
        tmp_path, monkeypatch, mod, old, new, seeds):
    """`simulate --compare` (and `diff`) play each seed under both versions: the new
    version's game takes the old one's answers up to the floor where a changed card lies
    (the whole game, checked at its end, where none is dealt): the figures are those of
    both games played afresh, integer for integer."""
    changed = _copy(tmp_path, mod, old, new)
    kinds = ("greedy",) * 4
    setups = (sim.Setup("deluxe", None, 4, kinds, (str(MODS / mod),)),
              sim.Setup("deluxe", None, 4, kinds, (changed,)))
    rules = [s.rules() for s in setups]
    apart = sim._replays(setups, rules)
    assert apart and apart[0] is not None and apart[0].why_not is None
    assert len(apart[0].rooms) == 1
    seen = count_hand_overs(monkeypatch)
    replayed = sim.run_chunk(setups, seeds)
    assert seen["handed over"] >= 1 and not seen["diverged"]
    monkeypatch.setattr(sim, "_replays", lambda setups, rules: ())
    afresh = sim.run_chunk(setups, seeds)
    assert replayed.sums == afresh.sums and replayed.counts == afresh.counts


def test_a_replay_that_leaves_the_recorded_game_is_played_afresh(tmp_path, monkeypatch):
    """Forced where it must not replay (a house rule acts in every room, so the recorded
    answers no longer fit the rooms), a game finds out at the hand-over or at its end and is
    played afresh: the same figures as a pair never replayed."""
    changed = _copy(tmp_path, "gorgon", "  wounds 2\n", "  wounds 2\n")
    (Path(changed) / "toll.dsl").write_text(
        'rule toll { name "Toll" after room { everyone: lose 1 coin } }\n')
    kinds = ("greedy",) * 4
    setups = (sim.Setup("deluxe", None, 4, kinds, (str(MODS / "gorgon"),)),
              sim.Setup("deluxe", None, 4, kinds, (changed,)))
    rules = [s.rules() for s in setups]
    assert "toll" in pairs.apart(rules[0], rules[1], kinds, same_deck=True).why_not
    forced = (pairs.Apart(frozenset(), None),)  # a lie: nothing differs, replay it all
    diverged = Counter()
    finish = pairs.TapedGame.finish

    def counted(self):
        try:
            return finish(self)
        except pairs.Diverged:
            diverged["at the end"] += 1
            raise

    monkeypatch.setattr(pairs.TapedGame, "finish", counted)
    seen = count_hand_overs(monkeypatch)
    for seed in range(1, 5):
        replayed = sim._play_each(setups, rules, seed, forced)
        afresh = sim._play_each(setups, rules, seed)
        assert [p[0].rooms for p in replayed] == [p[0].rooms for p in afresh]
    assert diverged["at the end"] == 4 and not seen["handed over"]


def test_what_keeps_a_game_from_replaying_another(tmp_path):
    """Only where nothing before the floor where they differ can tell the games apart."""
    base = load_rules("deluxe", None, ())
    gorgon = load_rules("deluxe", None, (str(MODS / "gorgon"),))
    table = load_rules("deluxe", None, (str(MODS / "table"),))
    ok = pairs.apart(base, gorgon, ("greedy", "random"), same_deck=False)
    assert ok.why_not is None and ok.rooms == {"gorgon"}
    assert "search" in pairs.apart(base, gorgon, ("search:30",), same_deck=False).why_not
    assert "too little" in pairs.apart(base, gorgon, ("random",), same_deck=False).why_not
    assert "buckler" in pairs.apart(base, table, ("greedy",), same_deck=False).why_not
    # each game draws its own deal: the deck (here the bosses) must be the same
    assert "deck" in pairs.apart(base, gorgon, ("greedy",), same_deck=True).why_not
    extended = tmp_path / "torch"
    extended.mkdir()
    (extended / "torch.dsl").write_text("extend monster { playable torch as 2 }\n")
    assert "kind monster" in pairs.apart(base, load_rules("deluxe", None, (str(extended),)),
                                         ("greedy",), same_deck=False).why_not
    ahead = tmp_path / "ahead"
    ahead.mkdir()
    (ahead / "a.dsl").write_text('kind omen() { resolve { do next_room } }\n'
                                 'omen omen-room { name "Omen" }\n')
    assert "do next_room" in pairs.apart(base, load_rules("deluxe", None, (str(ahead),)),
                                         ("greedy",), same_deck=False).why_not
    # a card that is the same in both makes a room become one that differs: played early
    horde = _copy(tmp_path, "table", 'strength 10 / 13 / 16  wounds 2 }',
                  'strength 11 / 14 / 17  wounds 2 }', "horde")
    apart = pairs.apart(table, load_rules("deluxe", None, (horde,)), ("greedy",), True)
    assert apart.rooms == {"horde"} and "war-horn makes a room become horde" in apart.why_not


def test_the_same_card_in_two_folders_is_the_same_card(tmp_path):
    """Two versions of a mod live in two folders: their cards' positions differ, not the
    cards (`ast.same_shape`); a changed number is a change."""
    same = _copy(tmp_path, "gorgon", "  wounds 2\n", "  wounds 2\n", "same")
    a = load_rules("deluxe", None, (str(MODS / "gorgon"),)).library.cards["gorgon"]
    b = load_rules("deluxe", None, (same,)).library.cards["gorgon"]
    assert a != b and ast.same_shape(a, b)
    c = load_rules("deluxe", None, (_copy(tmp_path, "gorgon", "  wounds 2\n", "  wounds 3\n"),)
                   ).library.cards["gorgon"]
    assert not ast.same_shape(a, c)


def test_diff_replays_and_says_the_same(tmp_path, monkeypatch):
    """`raiders diff OLD NEW` plays each seed under both versions: with the replay, the
    Markdown it prints is the same, byte for byte."""
    changed = _copy(tmp_path, "gorgon", "  wounds 2\n", "  wounds 3\n")
    # seeds 4 and 8 deal the gorgon (a boss of 11)
    args = ["diff", str(MODS / "gorgon"), changed, "--seed", "4", "--games", "5", "--jobs", "1"]
    seen = count_hand_overs(monkeypatch)
    replayed = CliRunner().invoke(main, args)
    assert replayed.exit_code == 0, replayed.output
    assert seen["handed over"] >= 1
    monkeypatch.setattr(sim, "_replays", lambda setups, rules: ())
    afresh = CliRunner().invoke(main, args)
    assert afresh.exit_code == 0 and afresh.stdout == replayed.stdout


def test_a_sweep_plays_its_values_together_and_says_the_same(monkeypatch):
    """`simulate --sweep` plays a few values on each seed together, each after the first
    replaying it up to the swept card's floor: every value's figures are what it gave played
    alone (one value a run), byte for byte in the JSON."""
    from raiders.interpreter.cli import sweep as sweep_cli

    args = ["simulate", "--sweep", "dragon.wounds=1..3", "--games", "6", "--jobs", "1",
            "--bots", "greedy", "--json"]
    seen = count_hand_overs(monkeypatch)
    together = CliRunner().invoke(main, args)
    assert together.exit_code == 0, together.output
    assert seen["handed over"] >= 2 and not seen["diverged"]
    monkeypatch.setattr(sweep_cli, "GROUP", 1)
    alone = CliRunner().invoke(main, args)
    assert alone.exit_code == 0 and alone.stdout == together.stdout


def test_one_run_of_a_tally_of_several_is_that_run_s_tally():
    """Tally.run(k): the figures and counts run k would have had as a run of its own."""
    setups = tuple(sim.Setup("deluxe", None, 3, ("random",) * 3, (), edits=e) for e in ((),))
    alone = sim.run_chunk(setups, range(1, 21))
    both = sim.run_chunk((setups[0], sim.Setup("deluxe", None, 3, ("random",) * 3,
                                               (str(MODS / "gorgon"),))), range(1, 21))
    first = both.run(0)
    assert first.figures() == alone.figures() and first.counts == alone.counts
    assert first.games == alone.games == 20
    assert both.run(1).counts[0] == both.counts[1]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, variant, players, mod, old, new", [
    ("deluxe", None, 4, "gorgon", "  wounds 2\n", "  wounds 3\n"),
    ("deluxe", None, 3, "table", "strength 10 / 13 / 16\n  wounds 1", "strength 12 / 15 / 18\n"
     "  wounds 1"),  # the stalker: statuses on rooms, echoes, `become` elsewhere
    ("deluxe", None, 5, "bosses-2013", "strength 12 / 16 / 20", "strength 13 / 17 / 21"),
])
def test_many_seeds_replayed_give_the_figures_of_many_seeds_played_afresh(
        tmp_path, monkeypatch, ruleset, variant, players, mod, old, new):
    """The fast tier's check over 80 seeds, more mods and table sizes."""
    changed = _copy(tmp_path, mod, old, new)
    kinds = ("greedy",) * players
    setups = (sim.Setup(ruleset, variant, players, kinds, (str(MODS / mod),)),
              sim.Setup(ruleset, variant, players, kinds, (changed,)))
    seen = count_hand_overs(monkeypatch)
    replayed = sim.run_chunk(setups, range(1, 81))
    assert seen["handed over"] >= 3 and not seen["diverged"]
    monkeypatch.setattr(sim, "_replays", lambda setups, rules: ())
    afresh = sim.run_chunk(setups, range(1, 81))
    assert replayed.sums == afresh.sums and replayed.counts == afresh.counts


def test_a_changed_status_keeps_a_game_from_replaying(tmp_path):
    """A status that cards already in the game put on players or rooms may act before the
    changed room's floor: a change to it is not a room's change (a new status is: only the
    changed cards can name it)."""
    table = load_rules("deluxe", None, (str(MODS / "table"),))
    changed = _copy(tmp_path, "table", "modify strength to amount + 3 }",
                    "modify strength to amount + 4 }")
    apart = pairs.apart(table, load_rules("deluxe", None, (changed,)), ("greedy",), True)
    assert apart.rooms == set() and "trail differs" in apart.why_not
