"""The game-wide bus's finer points (issue 8 §1, §3; docs/dsl.md "The event bus"), each a
scenario on a small mod written here: what a modder would otherwise find by surprise."""
from pathlib import Path

import pytest

from raiders.formats.validate import validate_paths
from raiders.interpreter.records.scenarios import run_file

MOD = """
status cursed { name "Cursed" }
status blessed { name "Blessed"  after room { you: gain 1 coin } }
treasure curse-then-bless {
  name "Curse"  chest 0
  after room { everyone: mark cursed }
}
treasure short-curse {
  name "Short"  chest 0
  after room { everyone: mark cursed lasting 1 room }
}
treasure herald {
  name "Herald"  chest 0
  after reveal { everyone: gain 1 coin }
}
"""

SCENARIO = """
format: raiders-scenario/1
name: {name}
ruleset: deluxe
cards: [.]
players: [A, B, C]
{body}
"""


def scenario(tmp_path: Path, name: str, body: str):
    (tmp_path / "mod.dsl").write_text(MOD)
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(name=name, body=body.strip()))
    [outcome] = run_file(str(path))
    return outcome


def test_a_status_that_lasts_the_game_is_not_shortened_by_a_later_shorter_mark(tmp_path):
    o = scenario(tmp_path, "cursed for good, then for one room - still cursed after it", """
rooms:
  - room: curse-then-bless
    plays: {A: 1, B: 2, C: 3}
  - room: short-curse
    plays: {A: 2, B: 3, C: 4}
  - room: treasure-4-2
    plays: {A: 3, B: 4, C: 5}
  - room: treasure-4-2
    plays: {A: 4, B: 5, C: 1}
expect:
  A: {marks: {cursed: 2}}
""")
    assert o.ok, o.differences + [d.message for d in o.diagnostics]


def test_a_short_mark_runs_out(tmp_path):
    o = scenario(tmp_path, "cursed for one room - gone two rooms later", """
rooms:
  - room: short-curse
    plays: {A: 1, B: 2, C: 3}
  - room: treasure-4-2
    plays: {A: 3, B: 4, C: 5}
expect:
  A: {marks: {}}
""")
    assert o.ok, o.differences + [d.message for d in o.diagnostics]


def test_scenarios_emit_reveal_like_a_game(tmp_path):
    o = scenario(tmp_path, "after reveal runs in a scenario too", """
room: herald
plays: {A: 1, B: 2, C: 3}
expect:
  A: {coins: 1}
""")
    assert o.ok, o.differences + [d.message for d in o.diagnostics]


WATCHER = """
status watcher {
  name "Watcher"
  after game_start { you: gain 1 coin }
  after reveal { you: gain 2 coins }
  after first_player { you: gain 4 coins }
}
"""


@pytest.mark.parametrize("first,coins", [("first_player: A", 6), ("", 2)])
def test_a_scenario_emits_reveal_and_first_player_as_a_game_does_but_no_game_start(
        tmp_path, first, coins):
    """What docs/dsl.md ("Events") and docs/scenarios.md both say: a scenario starts mid-game
    (no `game_start`), `reveal` happens, and `first_player` too when the scenario names one.
    By hand (classic standard, C-4): A plays 3, B and C 5; the chest of 4 goes to B and C (X-4);
    the first player passes from A to B, the tied player nearest clockwise after A. A, the
    watcher, gains 2 at the reveal and 4 when the first player changes: 6; without a first
    player, 2."""
    (tmp_path / "mod.dsl").write_text(WATCHER)
    path = tmp_path / "s.yaml"
    path.write_text(f"""
format: raiders-scenario/1
name: watched
ruleset: classic
cards: [.]
players: [A, B, C]
start: {{A: {{marks: {{watcher: 1}}}}}}
{first}
room: treasure-4
plays: {{A: 3, B: 5, C: 5}}
expect:
  A: {{coins: {coins}}}
  B: {{coins: 2}}
""")
    [o] = run_file(str(path))
    assert o.ok, o.differences + [d.message for d in o.diagnostics]
    docs = Path(__file__).resolve().parents[2] / "docs"
    said = " ".join((docs / "dsl.md").read_text().split())
    claim = said[said.index("A [scenario](scenarios.md)"):][:250]
    assert "no `game_start`" in claim and "`reveal` happens as in a game" in claim, claim
    said = " ".join((docs / "scenarios.md").read_text().split())
    claim = said[said.index("a scenario starts mid-game"):][:250]
    assert "no `game_start`" in claim and "`reveal` and the rest happen as in a game" in claim


@pytest.mark.parametrize("extra,message", [
    ("rolls: [3]", "1 roll(s) given but not used"),
    ("choices: {A: [true]}", "answers given but never asked for"),
])
def test_rolls_and_answers_a_scenario_never_uses_are_an_error(tmp_path, extra, message):
    o = scenario(tmp_path, "leftovers", f"""
room: treasure-4-2
plays: {{A: 1, B: 2, C: 3}}
{extra}
expect:
  A: {{coins: 0}}
""")
    assert not o.ok and any(message in d for d in o.differences), o.differences


@pytest.mark.parametrize("text,code,message", [
    ("rule r1 { after score { gain 1 coin } }", "E107", "`score` can only be modified"),
    ("monster m1 { strength 5 wounds 1  modify score to amount + 1 }", "E406",
     "`score` is never read while a room card is in play"),
    ("status s1 { modify cards to 2 }", "E302", "`cards` cannot be modified"),
    ("status s2 { modify strength on you to amount + 3 }", "E302",
     "`modify strength` takes no `on` players"),
    ("monster m2 { strength 5 wounds coins(them) }", "E302",
     "`coins(them)` has nobody to count here"),
])
def test_modifiers_and_handlers_that_could_never_work_are_refused(tmp_path, text, code, message):
    path = tmp_path / "c.dsl"
    path.write_text(text + "\n")
    diags = validate_paths([str(path)]).diagnostics
    assert [d.code for d in diags] == [code], [d.message for d in diags]
    assert message in diags[0].message
