"""What cards can name beyond players (issue 21, docs/dsl.md "What cards can name"): rooms,
the dungeon, a single card, hands, and moves all at once. The behaviour is pinned by the
hand-computed scenarios of examples/mods/table (run here and by `raiders test`); this file
pins the mistakes the checker names, and what the words and the engine do at the edges."""
from pathlib import Path

import pytest

from raiders.formats.validate import validate_paths
from raiders.interpreter.records.scenarios import run_file

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "examples" / "mods" / "table"

HEAD = 'status s { name "S" }\nmonster horde { name "Horde"  strength 10  wounds 2 }\n'


@pytest.mark.parametrize("text,code,message", [
    ('treasure x { chest 1  after room { next_room: wound 1 } }', "E302",
     "`wound` is for players; `next_room` is a room"),
    ('treasure x { chest 1  after room { next_room, lowest: mark s } }', "E302",
     "players and things cannot share one list"),
    ('treasure x { chest 1  after room { this_room: become horde } }', "E406",
     "`this_room` cannot become another card"),
    ('treasure x { chest 1  after room { previous_room: become horde } }', "E406",
     "`previous_room` cannot become another card"),
    ('treasure x { chest 1  after room { lowest: become horde } }', "E302",
     "`become` is for a room not yet played"),
    ('treasure x { chest 1  after room { next_room: become nothing-such } }', "E103",
     "unknown room card `nothing-such`"),
    ('treasure x { chest 1  after room { next_room: become s } }', "E103",
     "unknown room card `s`"),
    ('status t { name "T"  after room { this_card: mark s } }', "E406",
     "`this_card` has no meaning on a status card"),
    ('rule r { name "R"  after room { everyone: gain marked(s, this_card) coins } }', "E406",
     "`this_card` has no meaning on a rule card"),
    ('treasure x { chest marked(s, lowest) }', "E302", "`marked`'s last argument is a thing"),
    ('treasure x { chest marked(s, dungeon, dungeon) }', "E303", "takes 1 argument(s)"),
    ('treasure x { chest count(next_room) }', "E302", "`next_room` is a room, not players"),
    ('kind k() { resolve { your_left: gain 1 coin } }', "E302",
     "`your_left` has nobody to start from here"),
    ('kind k() { resolve { do this_room } }', "E302", "`do this_room` runs nothing"),
    ('kind k() { resolve { do dungeon } }', "E302", "`do dungeon` runs nothing"),
    ('kind k(dungeon: int = 1) { }', "E203", "hides the built-in thing `dungeon`"),
    ('treasure x { chest 1  after room { everyone: give 5 } }', "E001",
     "`give power 5`"),
    ('treasure x { chest 1  after room { everyone: give key to left } }', "E001",
     "`pass ITEM to SELECTOR`"),
    ('treasure x { chest 1  after room { dungeon: pass key to left } }', "E302",
     "`pass` is for players; `dungeon` is a dungeon"),
])
def test_the_things_mistakes_are_diagnosed(tmp_path, text, code, message):
    (tmp_path / "x.dsl").write_text(HEAD + text + "\n")
    report = validate_paths([str(tmp_path)])
    found = [(d.code, d.message, d.hint or "") for d in report.diagnostics]
    assert any(c.startswith(code) and (message in m or message in h) for c, m, h in found), found


def test_the_table_mod_checks_clean_and_its_hand_computed_scenarios_pass():
    report = validate_paths([str(TABLE)])
    assert not report.diagnostics, [d.message for d in report.diagnostics]
    outcomes = run_file(str(TABLE / "scenarios.yaml"))
    assert len(outcomes) >= 13
    assert all(o.ok for o in outcomes), [(o.name, o.differences) for o in outcomes if not o.ok]


def _scenario(tmp_path: Path, cards: str, body: str, manifest: str = ""):
    (tmp_path / "cards.dsl").write_text(cards)
    if manifest:
        (tmp_path / "mod.yaml").write_text(manifest)
    path = tmp_path / "s.yaml"
    path.write_text("format: raiders-scenario/1\nname: s\nruleset: deluxe\ncards: [.]\n"
                    "players: [A, B, C]\n" + body.strip() + "\n")
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


CROSSING = """
status heavy { name "Heavy"  modify strength to amount + 5 }
kind echo() { resolve { do previous_room } }
echo echo-room { name "Echo" }
treasure omen { name "Omen"  chest 0  after room { next_room: mark heavy } }
"""


def test_next_room_crosses_into_the_next_floor(tmp_path):
    _scenario(tmp_path, CROSSING, """
rooms:
  - room: omen            # the last room of the floor: the next floor's first is 5 stronger
    plays: {A: 2, B: 3, C: 4}
    floor_end: true
  - room: goblin          # 16 against 5+5+5 = 15: all tie lowest, all take 2 (11 is beaten)
    plays: {A: 5, B: 5, C: 5}
expect:
  A: {wounds: 2}
  B: {wounds: 2}
  C: {wounds: 2}
""")


def test_previous_room_is_on_this_floor_only(tmp_path):
    # RULES D-3: a new floor is a new row of rooms; its first room has none before it
    _scenario(tmp_path, CROSSING, """
rooms:
  - room: goblin          # 1+2+3 = 6 < 11: A takes 2
    plays: {A: 1, B: 2, C: 3}
    floor_end: true
  - room: echo-room       # no room before it on this floor: nothing (as the goblin: all hit)
    plays: {A: 1, B: 1, C: 1}
expect:
  A: {wounds: 2}
  B: {wounds: 0}
  C: {wounds: 0}
""")


def test_a_status_on_the_dungeon_is_in_play_for_everyone_until_unmarked(tmp_path):
    cards = """
status calm { name "Calm"  modify wound to 0 }
treasure chapel { name "Chapel"  chest 0  after room { dungeon: mark calm } }
treasure riot { name "Riot"  chest 0  after room { dungeon: unmark calm } }
"""
    _scenario(tmp_path, cards, """
rooms:
  - room: chapel
    plays: {A: 1, B: 2, C: 3}
  - room: goblin          # 2+3+4 < 11, but no wound while the dungeon is calm
    plays: {A: 2, B: 3, C: 4}
  - room: riot
    plays: {A: 3, B: 4, C: 5}
  - room: goblin          # 4+1+2 < 11: B takes 2
    plays: {A: 4, B: 1, C: 2}
expect:
  A: {wounds: 0}
  B: {wounds: 2}
""")


def test_until_that_never_holds_fights_every_round(tmp_path):
    cards = ('monster wall { name "Wall"  strength 99  wounds 1  rounds 2\n'
             '  until total >= strength }\n')
    _scenario(tmp_path, cards, """
room: wall
plays: {A: [1, 2], B: [2, 3], C: [3, 4]}
expect:
  A: {wounds: 2, hand: [3, 4, 5]}
""")


def test_show_says_every_new_word_in_plain_words(tmp_path):
    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    said = {}
    for card in ("stalker", "war-horn", "echo-chamber", "labyrinth-beast", "tripwire", "buckler",
                 "quiet-spring", "snare", "spinning-hall"):
        out = CliRunner().invoke(main, ["show", card, "--cards", str(TABLE)])
        assert out.exit_code == 0, out.output
        said[card] = out.output
    assert "the next room gets `trail`" in said["stalker"]
    assert "the next room becomes `horde`" in said["war-horn"]
    assert "the previous room is resolved here" in said["echo-chamber"]
    assert "the room ends once the sum of the values played is at least strength" \
        in said["labyrinth-beast"]
    assert "the dungeon gets `alarm` ×1 for 2 rooms" in said["tripwire"]
    assert "this card gets `wear`" in said["buckler"]
    assert "the `wear` count of this card is at least 3" in said["buckler"]
    assert "their highest power card played this floor back into their hand" \
        in said["quiet-spring"]
    assert "they have power card 5 in hand" in said["snare"]
    assert "all at once (the table read first)" in said["spinning-hall"]
    assert "pass a key to their left neighbour" in said["spinning-hall"]


def test_a_status_reading_its_holder_put_on_a_room_or_the_dungeon_is_warned(tmp_path):
    (tmp_path / "x.dsl").write_text(
        'status sore { name "Sore"  after room { you: wound 1 } }\n'
        'treasure x { chest 1  after room { next_room: mark sore  lowest: mark sore '
        ' dungeon: mark sore } }\n')
    report = validate_paths([str(tmp_path)])
    warned = [(d.code, d.severity, d.span.line, d.span.col) for d in report.diagnostics]
    assert warned == [("W605", "warning", 2, 47), ("W605", "warning", 2, 86)], warned


# ---- found by a modder writing cards from the docs alone (issue 21's generality check)

REISSUE = """
item tell-tale { name "Tell-tale"  instead of wound on you { wound amount  you: gain 9 coins } }
item decoy { name "Decoy"  instead of wound on you { your_left: wound amount } }
item amulet { name "Amulet"  modify wound on you to amount - 1 }
kind pin() { resolve { lowest: wound 2 } }
pin plain-pins { name "Pins" }
pin idle-pins { name "Idle Pins"  modify wound to amount }
pin sharp-pins { name "Sharp Pins"  modify wound to amount + 1 }
"""
REISSUE_ITEMS = "items: {tell-tale: 1, decoy: 1, amulet: 1}\n"


@pytest.mark.parametrize("room,wounds,coins", [
    ("plain-pins", 2, 9),
    ("idle-pins", 2, 9),   # a modifier no longer hides the holder from the rest of the handler
    ("sharp-pins", 3, 9),  # the wound dealt in its own place is not made one more again
])
def test_an_instead_of_that_deals_its_own_event_again(tmp_path, room, wounds, coins):
    # docs/dsl.md "The event bus": the event a replacement deals in its place has had every
    # modify already; the handler's own `you` is its holder after the event it set off
    _scenario(tmp_path, REISSUE, f"""
start: {{A: {{items: [tell-tale]}}}}
room: {room}
plays: {{A: 1, B: 2, C: 3}}
expect:
  A: {{wounds: {wounds}, coins: {coins}}}
""", REISSUE_ITEMS)


def test_wounds_passed_on_by_a_replacement_keep_their_modifiers_once(tmp_path):
    # A is lowest at the Sharp Pins: 2 + 1 = 3, dealt to B in A's place: not 4; B's amulet,
    # which did not touch A's wound, still takes one off
    _scenario(tmp_path, REISSUE, """
start: {A: {items: [decoy]}, B: {items: [amulet]}}
room: sharp-pins
plays: {A: 1, B: 2, C: 3}
expect:
  A: {wounds: 0}
  B: {wounds: 2}
""", REISSUE_ITEMS)


def test_among_says_whether_the_player_affected_is_among_a_selectors_players(tmp_path):
    # the riddle: whoever nobody matched is paid; an item for its holder only when attacked
    cards = """
kind riddle() { resolve { everyone { unless among(tied) { gain 2 coins } } } }
riddle riddle-hall { name "Riddle Hall" }
"""
    (tmp_path / "cards.dsl").write_text(cards)
    path = tmp_path / "s.yaml"
    path.write_text("format: raiders-scenario/1\nname: s\nruleset: deluxe\ncards: [.]\n"
                    "players: [A, B, C, D]\nroom: riddle-hall\n"
                    "plays: {A: 2, B: 2, C: 3, D: 5}\n"
                    "expect: {A: {coins: 0}, B: {coins: 0}, C: {coins: 2}, D: {coins: 2}}\n")
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_a_power_card_outside_1_to_5_is_e301(tmp_path):
    (tmp_path / "x.dsl").write_text(
        "treasure t { chest 1  after room { everyone: take power 6, give power 0 } }\n")
    report = validate_paths([str(tmp_path)])
    assert [(d.code, d.span.col) for d in report.diagnostics] == [("E301", 57), ("E301", 71)]


def test_the_editor_knows_the_things():
    from raiders.dsl.highlight import textmate_grammar
    from raiders.interpreter.tools.lsp import vocabulary_doc

    assert "a room, a thing cards name" in vocabulary_doc("next_room")
    assert "`become`" in vocabulary_doc("next_room")
    assert "the table itself" in vocabulary_doc("dungeon")
    assert "among(" in (vocabulary_doc("among") or "")
    patterns = " ".join(p["match"] for p in textmate_grammar()["patterns"])
    for word in ("this_card", "previous_room", "dungeon", "become", "pass", "once"):
        assert word in patterns, word
