"""No card that validates while it does nothing, or something else than it says (issue 21,
"Nothing silently wrong"): a selector that picks nobody where it stands (E407), a steal from
the player who steals (E408), an item passed between neighbours that is passed on (W603)."""
from pathlib import Path

import pytest

from raiders.formats.validate import validate_paths
from raiders.interpreter.records.scenarios import run_file


def diagnostics(tmp_path: Path, text: str) -> list:
    path = tmp_path / "c.dsl"
    path.write_text(text + "\n")
    return validate_paths([str(path)]).diagnostics


@pytest.mark.parametrize("text,code,message", [
    # No card is valued before a room's `play` or after its `after room` (docs/dsl.md
    # "Selectors"): a value selector there picks nobody, a tag with one never matches.
    ('status s { name "S"  after floor_start { highest: gain 1 coin } }', "E407",
     "`highest` picks nobody in `after floor_start`"),
    ('status s { name "S"  after reveal on lowest { gain 1 coin } }', "E407",
     "`lowest` picks nobody in `after reveal`"),
    ('status s { name "S"  after floor_end { everyone: gain count(played(key)) coins } }',
     "E407", "`played(key)` picks nobody in `after floor_end`"),
    ('rule r { name "R"  after scoring { tied: lose 1 coin } }', "E407",
     "`tied` picks nobody in `after scoring`"),
    ('character c { name "C"  after first_player { escaped: gain 1 coin } }', "E407",
     "`escaped` picks nobody in `after first_player`"),
    # a card's value is worked out before the room's values exist
    ('status s { name "S"  modify value on highest to amount + 1 }', "E407",
     "`highest` picks nobody while the cards are valued"),
    ('treasure t { name "T"  chest 1  playable key as count(lowest) }', "E407",
     "`lowest` picks nobody while the cards are valued"),
    # `attacked` is who an attack hits: nobody where no attack runs
    ('status s { name "S"  after room { attacked: wound 1 } }', "E407",
     "`attacked` picks nobody in `after room`"),
    ('treasure t { name "T"  chest 1  resolve { attacked: wound 1 } }', "E407",
     "`attacked` picks nobody at the top of `resolve`"),
    # `them` at the top of `resolve` is nobody
    ('treasure t { name "T"  chest 1  resolve { them: gain 1 coin } }', "E407",
     "`them` picks nobody here"),
    # a player never steals from themselves (docs/dsl.md "Effects")
    ('status s { name "S"  after room on you { you: steal key from you } }', "E408",
     "`steal key from you` takes from the player who steals (`you`)"),
    ('status s { name "S"  after wound on you { steal 1 coin from you } }', "E408",
     "takes from the player who steals (`you`)"),
    ('status s { name "S"  after wound { steal 1 coin from them } }', "E408",
     "`steal coins from them` takes from the player who steals (them)"),
    ('status s { name "S"  after room { everyone { may { steal 1 coin from them } } } }',
     "E408", "takes from the player who steals (them)"),
    ('status s { name "S"  after room { left: steal 1 coin from left } }', "E408",
     "takes from the player who steals (`left`)"),
])
def test_a_rule_that_never_does_anything_where_it_stands_is_an_error(tmp_path, text, code,
                                                                       message):
    diags = diagnostics(tmp_path, text)
    assert [d.code for d in diags] == [code], [d.message for d in diags]
    assert message in diags[0].message and diags[0].hint
    assert diags[0].severity == "error"


@pytest.mark.parametrize("text", [
    'status s { name "S"  after room { highest: gain 1 coin  tied: wound 1 } }',
    'status s { name "S"  after play on you { if your_value == 5 { lowest: lose 1 coin } } }',
    'status s { name "S"  after wound on attacked { lose 1 coin } }',
    'status s { name "S"  after attack { attacked: lose 1 coin } }',
    'treasure t { name "T"  chest 1  resolve { attack lowest { attacked: wound 1 } } }',
    'status s { name "S"  after room { everyone { may { steal 1 coin from left } } } }',
    'status s { name "S"  after wound { you: steal 1 coin from them } }',
    'status s { name "S"  after room { highest: steal 1 coin from highest } }',  # ties steal
    'status s { name "S"  modify value on you to amount + 1 }',
    'kind k(hit: effects = { attacked: wound 1 }) { resolve { attack lowest { do hit } } }\n'
    'k kk { name "K" }',
])
def test_the_same_words_where_they_pick_someone_are_clean(tmp_path, text):
    assert diagnostics(tmp_path, text) == []


PASSER = """
status passer {
  name "Passer"
  after room on you { if holds(key) > 0 { left: steal key from you } }
}
# The hint of W603: the receiver is marked for this room only, and a marked player does not
# pass again.
status passed { name "Passed" }
status careful-passer {
  name "Careful Passer"
  after room on you {
    if holds(key) > 0 and not marked(passed) {
      left: steal key from you, mark passed lasting 0 rooms
    }
  }
}
treasure pass-round { name "Pass Round"  chest 0  resolve { everyone: mark passer } }
treasure pass-once { name "Pass Once"  chest 0  resolve { everyone: mark careful-passer } }
"""

SCENARIO = """
format: raiders-scenario/1
name: {name}
ruleset: deluxe
cards: [.]
players: [A, B, C]
start: {{A: {{items: [key]}}}}
room: {room}
plays: {{A: 1, B: 2, C: 3}}
expect:
  A: {{items: {a}}}
  B: {{items: {b}}}
  C: {{items: []}}
"""


def test_the_passer_status_passes_the_key_all_the_way_round_and_validate_says_so(tmp_path):
    """Issue 21's passer: every player is marked during the room, so every holder's `after
    room` runs, one after the other in seat order, each seeing the moves before it
    (docs/dsl.md "The event bus"). By hand, A holding the only key: A's rule, B takes it; B's
    rule, C takes it; C's rule, A (C's left, wrapping round) takes it: back with A. The same
    shape with `gain 1 coin` moves nothing, so nothing is passed on."""
    (tmp_path / "mod.dsl").write_text(PASSER)
    diags = validate_paths([str(tmp_path / "mod.dsl")]).diagnostics
    assert [(d.code, d.span.line) for d in diags] == [("W603", 4)], [d.message for d in diags]
    assert "passed on" in diags[0].message and "marked(passed)" in diags[0].hint
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(name="round the table", room="pass-round", a="[key]",
                                    b="[]")
                    + "---" + SCENARIO.format(name="the hint's card passes once",
                                              room="pass-once", a="[]", b="[key]"))
    outcomes = run_file(str(path))
    assert [o.ok for o in outcomes] == [True, True], [o.differences for o in outcomes]


@pytest.mark.parametrize("text", [
    # pulling from the right is passing to the left: the key goes on too
    'status s { name "S"  after floor_end { you: steal key from right } }',
    'item i { name "I"  after room { right: steal torch from you } }',
])
def test_passing_an_item_between_neighbours_on_a_held_card_warns(tmp_path, text):
    diags = diagnostics(tmp_path, text)
    assert [(d.code, d.severity) for d in diags] == [("W603", "warning")], diags


@pytest.mark.parametrize("text", [
    # one holder only: a character is dealt to one player
    'character c { name "C"  after room { left: steal key from you } }',
    # not a moment every holder hears in turn
    'status s { name "S"  after wound on you { left: steal key from you } }',
    # coins: every holder passing one is what the card says
    'status s { name "S"  after room { left: steal 1 coin from you } }',
])
def test_a_move_that_is_not_passed_on_does_not_warn(tmp_path, text):
    assert diagnostics(tmp_path, text) == []
