"""Words a modder asked for and could not say (a review that wrote cards nobody printed):
`may … else`, the selectors `left` and `right`, an event naming its card (`mark(venom)`,
`give(torch)`) and a steal naming who it takes `from`. Each is pinned by scenarios on a small
mod written here, and its mistakes by the checker's diagnostics (docs/dsl.md)."""
import itertools
from pathlib import Path

import pytest

from raiders.formats.validate import validate_paths
from raiders.interpreter.records.scenarios import run_file

MOD = """
status venom { name "Venom" }
status blessed { name "Blessed" }
item antidote-ring { name "Antidote Ring"  instead of mark(venom) on you { } }
item lockbox { name "Lockbox"  instead of steal from you { } }
item torch-lover { name "Torch Lover"  after give(torch) on you { you: gain 3 coins } }
character pickpocket { name "Pickpocket"  after room { you: steal 1 coin from left } }
character hermit { name "Hermit"  after room { right: gain 2 coins } }
character watcher { name "Watcher"  after gain on left { you: gain 1 coin } }
treasure spider { name "Spider"  chest 0  after room { everyone: mark venom, mark blessed } }
treasure alley { name "Alley"  chest 0  after room { lowest: steal 2 coins from richest } }
treasure gifts { name "Gifts"  chest 0  after room { everyone: give torch, give key } }
treasure empty { name "Empty"  chest 0 }
item purse { name "Purse"  after give(purse) on you { you: gain 7 coins } }
status lucky { name "Lucky"  after mark(lucky) on you { you: gain 2 coins } }
status faint { name "Faint"  after room { you: wound 1 } }
treasure purse-vault { name "Purse Vault"  chest 0  after room { highest: give purse } }
treasure clover { name "Clover"  chest 0  after room { highest: mark lucky } }
treasure faint-room {
  name "Faint"  chest 0  after room { everyone: mark faint by lowest_value - 1 }
}
treasure headcount {
  name "Headcount"  chest 0
  after room { everyone { if your_coins >= 0 and count(them) == 1 { gain 5 coins } } }
}
kind echo() {
  resolve { for each value { 2 -> gain count(them) coins  5 -> gain count(them) coins } }
}
echo echo-hall { name "Echo Hall" }
kind deep-echo() { resolve { everyone { gain DEEP coins } } }
deep-echo deep-echo-hall { name "Deep Echo" }
monster toll-troll {
  name "Toll Troll"  strength 99  wounds 2
  instead of wound on lowest {
    may "Pay 1 coin instead?" { lose 1 coin } else { wound amount }
  }
}
"""

DEEP = "count(them)"
for _ in range(60):  # deeper than one generated expression holds: a function of its own
    DEEP = f"({DEEP} + 0)"
MOD = MOD.replace("DEEP", DEEP)

MANIFEST = """
rulesets: [deluxe]
items: {antidote-ring: 1, lockbox: 1, torch-lover: 1, purse: 2}
characters: [pickpocket, hermit, watcher]
deck: {spider: 1, alley: 1, gifts: 1, empty: 1, toll-troll: 1, echo-hall: 1,
       deep-echo-hall: 1, purse-vault: 1, clover: 1, faint-room: 1, headcount: 1}
"""


@pytest.fixture(scope="module")
def mod(tmp_path_factory) -> Path:
    """The mod, written once, in a folder below its scenarios' (a scenario file written beside
    the cards would change their folder: each scenario would load the rules again)."""
    folder = tmp_path_factory.mktemp("words") / "mod"
    folder.mkdir()
    (folder / "mod.dsl").write_text(MOD)
    (folder / "mod.yaml").write_text(MANIFEST)
    return folder


_SCENARIOS = itertools.count()


def scenario(mod: Path, body: str, players: str = "[A, B, C]"):
    path = mod.parent / f"s{next(_SCENARIOS)}.yaml"
    path.write_text("format: raiders-scenario/1\nname: s\nruleset: deluxe\ncards: [mod]\n"
                    f"players: {players}\n" + body.strip() + "\n")
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_may_else_runs_the_else_block_for_those_who_say_no(mod):
    # the lowest are attacked (strength 99) and asked: A pays, B takes the wounds
    scenario(mod, """
start: {A: {coins: 2}, B: {coins: 2}}
room: toll-troll
plays: {A: 1, B: 1, C: 5}
choices: {A: [true], B: [false]}
expect:
  A: {coins: 1, wounds: 0}
  B: {coins: 2, wounds: 2}
  C: {wounds: 0}
""")


@pytest.mark.parametrize("seat,robbed", [("A", "B"), ("B", "C"), ("C", "A")])
def test_left_is_the_next_seat_clockwise_and_wraps_around(mod, seat, robbed):
    start = {p: "{coins: 5}" for p in "ABC"}
    start[seat] = "{character: pickpocket, coins: 0}"
    scenario(mod, f"""
start: {{{", ".join(f"{p}: {v}" for p, v in start.items())}}}
room: empty
plays: {{A: 1, B: 2, C: 3}}
expect:
  {seat}: {{coins: 1}}
  {robbed}: {{coins: 4}}
""")


def test_right_is_the_seat_before_wrapping_back(mod):
    scenario(mod, """
start: {A: {character: hermit}}
room: empty
plays: {A: 1, B: 2, C: 3}
expect:
  C: {coins: 2}
  B: {coins: 0}
""")


def test_a_tag_left_hears_only_the_neighbour(mod):
    # B watches its left (C): C's chest coin pays B one; A's does not
    scenario(mod, """
start: {B: {character: watcher}}
rooms:
  - room: treasure-1
    plays: {A: 1, B: 2, C: 5}
  - room: treasure-1
    plays: {A: 5, B: 1, C: 2}
expect:
  A: {coins: 1}
  B: {coins: 1}
  C: {coins: 1}
""")


def test_an_event_naming_its_card_hears_only_that_card(mod):
    # the ring stops venom but not the blessing; torch-lover pays for the torch, not the key
    scenario(mod, """
start: {A: {items: [antidote-ring, torch-lover]}}
room: spider
plays: {A: 1, B: 2, C: 3}
expect:
  A: {marks: {blessed: 1}}
  B: {marks: {venom: 1, blessed: 1}}
""")
    scenario(mod, """
start: {A: {items: [torch-lover]}}
room: gifts
plays: {A: 1, B: 2, C: 3}
expect:
  A: {coins: 3, items: [key, torch, torch-lover]}
  B: {coins: 0}
""")


def test_a_steal_from_the_holder_is_replaced_not_one_by_the_holder(mod):
    # C (lowest) steals 2 from the richest: A holds the lockbox, B does not
    scenario(mod, """
start: {A: {coins: 5, items: [lockbox]}, B: {coins: 5}}
room: alley
plays: {A: 4, B: 5, C: 1}
expect:
  A: {coins: 5}
  B: {coins: 3}
  C: {coins: 2}
""")
    # the box guards the one stolen from, not the thief: A, the lowest, robs B
    scenario(mod, """
start: {A: {coins: 0, items: [lockbox]}, B: {coins: 5}}
room: alley
plays: {A: 1, B: 5, C: 4}
expect:
  A: {coins: 2}
  B: {coins: 3}
""")


def test_count_them_counts_the_players_a_row_or_a_block_is_about(mod):
    # three played 2 (the row's `them`), one played 5; everyone (4) in the deep block
    scenario(mod, """
rooms:
  - room: echo-hall
    plays: {A: 2, B: 2, C: 5, D: 2}
  - room: deep-echo-hall
    plays: {A: 1, B: 1, C: 1, D: 1}
expect:
  A: {coins: 7}
  C: {coins: 5}
""", players="[A, B, C, D]")


def test_a_card_hears_the_event_that_brings_it_into_play(mod):
    """docs/dsl.md "The event bus": an item hears the `give` that gave it, a status the
    `mark` that marked it, even when no other card in play hears that event."""
    scenario(mod, """
rooms:
  - room: purse-vault
    plays: {A: 5, B: 1, C: 2}
  - room: clover
    plays: {A: 1, B: 4, C: 3}
expect:
  A: {coins: 7, items: [purse]}
  B: {coins: 2, marks: {lucky: 1}}
""")


def test_a_mark_by_0_gives_no_status(mod):
    # the lowest value is 1: `by lowest_value - 1` marks by 0, which gives nothing (no
    # status at count 0 whose rules would still run)
    scenario(mod, """
rooms:
  - room: faint-room
    plays: {A: 1, B: 4, C: 2}
  - room: empty
    plays: {A: 2, B: 3, C: 4}
expect:
  A: {wounds: 0, marks: {}}
""")


def test_them_in_a_per_player_condition_is_still_the_blocks_players(mod):
    # count(them) == 1 is false for everyone (3 of them), whatever else the condition reads
    scenario(mod, """
room: headcount
plays: {A: 1, B: 4, C: 2}
expect:
  A: {coins: 0}
  B: {coins: 0}
""")


@pytest.mark.parametrize("text,code,message", [
    ("item x { name \"X\"  after wound(venom) { } }", "E107",
     "`wound` is not about a card: it takes no `(venom)`"),
    ("item x { name \"X\"  after gain from you { } }", "E107", "`after gain` takes no `from`"),
    ("item x { name \"X\"  after mark(sword) { } }", "E103", "unknown status `sword`"),
    ("item x { name \"X\"  after give(nothing-such) { } }", "E10", "nothing-such"),
    ("treasure x { name \"X\"  chest 1  after room { left: gain 1 coin } }", "E406",
     "`left` has no meaning on a room card"),
    ("treasure x { name \"X\"  chest count(them) }", "E302",
     "`count(them)` has nobody to count here"),
    ("treasure x { name \"X\"  chest 1  after room { lowest { may { gain 1 coin } else "
     "{ wound half } } } }", "E", "half"),
])
def test_the_new_words_mistakes_are_diagnosed(tmp_path, text, code, message):
    (tmp_path / "x.dsl").write_text("status venom { name \"Venom\" }\n" + text + "\n")
    report = validate_paths([str(tmp_path)])
    found = [(d.code, d.message) for d in report.diagnostics]
    assert any(c.startswith(code) and message in m for c, m in found), found


NEW_WORDS = """
status staked { name "Staked" }
item purse { name "Purse" }
kind growing(strength: per_players, wounds: int) {
  resolve { unless total >= strength + 2 * room_number { lowest: wound wounds } }
}
growing grower { name "Grower"  strength 4  wounds 1 }
treasure pot { name "Pot"  chest 0  after room { highest: gain count(marked(staked)) coins } }
treasure alms {
  name "Alms"  chest 0
  after room { fewest_items: gain 2 coins  most_items: lose 1 coin }
}
treasure shop { name "Shop"  chest 0  after room { if supply(purse) > 0 { highest: give purse } } }
treasure clock { name "Clock"  chest 0  after room { everyone: gain rooms_played coins } }
"""


def test_room_number_rooms_played_items_selectors_supply_and_a_selector_with_its_argument(
        tmp_path):
    # pot: A (highest) gains 2 (A and B are staked); alms: A and B hold no item (+2 each), C
    # holds the purse (-1 of 0); shop: the purse is C's, none in the supply; clock: 3 rooms
    # were played before it (+3 each); grower, the 5th room: 4 + 2 x 5 = 14 > 13, A and C
    # (lowest, 4) are wounded
    (tmp_path / "c.dsl").write_text(NEW_WORDS)
    (tmp_path / "mod.yaml").write_text("items: {purse: 1}\n")
    path = tmp_path / "s.yaml"
    path.write_text("""format: raiders-scenario/1
name: new words
ruleset: deluxe
cards: [.]
players: [A, B, C]
start: {A: {marks: {staked: 1}}, B: {marks: {staked: 2}}, C: {items: [purse]}}
rooms:
  - room: pot
    plays: {A: 5, B: 1, C: 2}
  - room: alms
    plays: {A: 1, B: 2, C: 3}
  - room: shop
    plays: {A: 2, B: 3, C: 5}
  - room: clock
    plays: {A: 3, B: 4, C: 1}
  - room: grower
    plays: {A: 4, B: 5, C: 4}
expect:
  A: {coins: 7, wounds: 1}
  B: {coins: 5, wounds: 0}
  C: {coins: 3, wounds: 1, items: [purse]}
""")
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_a_function_of_a_selector_takes_a_word_or_a_selector_with_its_argument(tmp_path):
    (tmp_path / "x.dsl").write_text(
        'status s { name "S" }\n'
        'treasure x { name "X"  chest count(1 + 2)  second_chest coins(holds(s)) }\n')
    report = validate_paths([str(tmp_path)])
    found = [(d.code, d.message) for d in report.diagnostics]
    assert ("E302", "`count` takes a selector") in found, found
    assert any(c == "E103" for c, _ in found), found  # `holds` takes an item, not a status


def test_the_greedy_look_ahead_sees_where_the_game_stands_and_says_yes(monkeypatch):
    """The look-ahead resolves the room on a copy of the table: `room_number`,
    `rooms_played` and `floor_number` read as in the game, and a `may` is answered yes, as
    the greedy bot answers it."""
    from raiders.interpreter.game import players as seats
    from raiders.interpreter.game.engine import Game
    from raiders.interpreter.runtime.rules import load_rules

    seen = []
    real = seats.resolve_round

    def spy(table, room, plays, *args, **kwargs):
        seen.append((table.floor_index, table.rooms_done, table.room_number,
                     table.choose(table.players[0], "?", "card")))
        return real(table, room, plays, *args, **kwargs)

    monkeypatch.setattr(seats, "resolve_round", spy)
    rules = load_rules("deluxe")
    game = Game(rules, ["A", "B", "C"], [seats.GreedyBot() for _ in range(3)], seed=4)
    game.run()
    assert {s[3] for s in seen} == {True}
    positions = {s[:3] for s in seen}
    assert (0, 0, 1) in positions and (4, 23, 4) in positions, sorted(positions)
    assert all(done == floor * 5 + number - 1 for floor, done, number in positions)


SIX = """
item six-shooter { name "Six-Shooter"  playable six-shooter as 6 }
treasure plain { name "Plain"  chest 1 }
treasure names-it { name "Names It"  chest 1  playable six-shooter as 1 }
treasure bars-it { name "Bars It"  chest 1  unplayable six-shooter }
treasure any-item { name "Any"  chest 1  playable any as 0 }
"""


@pytest.fixture(scope="module")
def six_mod(tmp_path_factory) -> Path:
    """The six-shooter's mod, below the folder its scenarios are written to (as `mod`)."""
    folder = tmp_path_factory.mktemp("six") / "mod"
    folder.mkdir()
    (folder / "six.dsl").write_text(SIX)
    (folder / "mod.yaml").write_text("items: {six-shooter: 1}\n")
    return folder


@pytest.mark.parametrize("room,expect", [
    ("plain", "A: {coins: 1}"),  # 6 beats 3: the item's own value
    ("goblin", "A: {wounds: 0}\n  B: {wounds: 2}"),  # a built-in room: 6 + 1 + 2 < 11, B lowest
    ("names-it", "C: {coins: 1}"),  # the room names it: 1
    ("any-item", "C: {coins: 1}"),  # the room's `playable any` decides: 0
    ("bars-it", "error: cannot be played"),
])
def test_an_item_that_says_what_it_counts_for_plays_in_rooms_that_say_nothing_of_it(
        six_mod, room, expect):
    path = six_mod.parent / f"{room}.yaml"
    path.write_text(f"""format: raiders-scenario/1
name: six-shooter in {room}
ruleset: deluxe
cards: [mod]
players: [A, B, C]
start: {{A: {{items: [six-shooter]}}}}
room: {room}
plays: {{A: six-shooter, B: 5, C: 3}}
expect:
  {expect}
""".replace("B: 5, C: 3}", "B: 2, C: 3}" if room != "goblin" else "B: 1, C: 2}"))
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_an_item_may_say_what_it_counts_for_only_of_itself(tmp_path):
    (tmp_path / "x.dsl").write_text('item x { name "X"  playable sword as 2 }\n'
                                    'item y { name "Y"  playable y }\n'
                                    'item z { name "Z"  playable z as 1  playable z as 9 }\n')
    report = validate_paths([str(tmp_path)])
    found = [(d.code, d.span.line) for d in report.diagnostics]
    assert found == [("E406", 1), ("E406", 2), ("E307", 3)], found


def test_show_keeps_the_grouping_an_expression_was_written_with(tmp_path):
    """Words read flat would change the sum: an operand that binds less tightly than its
    operator is put in parentheses, as the card wrote it."""
    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    (tmp_path / "c.dsl").write_text(
        'treasure t { name "T"  chest 1  after room {\n'
        '  if total > 3 and (highest_value == 5 or lowest_value == 1) {\n'
        '    everyone: gain 10 - (2 - 1) coins, lose (your_wounds >= 3) * 2 coins } } }\n')
    out = CliRunner().invoke(main, ["show", "--cards", str(tmp_path), "t"]).output
    assert ("if the sum of the values played is more than 3 and (the highest value played is "
            "5 or the lowest value played is 1)") in out, out
    assert "gain 10 minus (2 minus 1) coins" in out, out
    assert "lose (their wounds is at least 3) times 2 coins" in out, out


TAKEN = """format: raiders-scenario/1
name: "{name}"
ruleset: deluxe
players: [A, B, C]
start: {{A: {{items: [key]}}}}
room: |
  treasure tk {{ name "TK"  chest 1  resolve {{ {rule} }} }}
plays: {{A: key, B: 1, C: 2}}
expect:
{expect}
"""


@pytest.mark.parametrize("rule,expect", [
    ("highest: take key", "  A: {items: []}\n  supply: {key: 6}"),
    ("lowest: steal key from highest", "  A: {items: []}\n  B: {items: [key]}\n"
                                       "  supply: {key: 5}"),
])
def test_an_item_taken_or_stolen_while_played_as_the_room_card_is_gone(tmp_path, rule, expect):
    """The played card goes back to the supply at the end of the round only if its player
    still holds it (it had crashed the game: list.remove of an item no longer held)."""
    path = tmp_path / "s.yaml"
    path.write_text(TAKEN.format(name=rule, rule=rule, expect=expect))
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_a_steal_of_an_item_nobody_holds_is_no_event(tmp_path):
    (tmp_path / "m.dsl").write_text(
        'item snitch { name "Snitch"  after steal(key) on you { you: wound 1 }\n'
        '  after steal from you { you: wound 5 } }\n'
        'treasure grab { name "Grab"  chest 0  after room { highest: steal key from lowest } }\n')
    (tmp_path / "mod.yaml").write_text("items: {snitch: 2}\ndeck: {grab: 1}\n")
    path = tmp_path / "s.yaml"
    path.write_text("format: raiders-scenario/1\nname: no key\nruleset: deluxe\ncards: [.]\n"
                    "players: [A, B, C]\nstart: {A: {items: [snitch]}, B: {items: [snitch]}}\n"
                    "room: grab\nplays: {A: 5, B: 1, C: 2}\n"
                    "expect:\n  A: {wounds: 0}\n  B: {wounds: 0}\n")
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_a_player_spends_the_plainest_peek_item(tmp_path):
    from raiders.interpreter.runtime.rules import load_rules

    (tmp_path / "m.dsl").write_text(
        'item six-shooter { name "Six"  ability peek  playable six-shooter as 6 }\n')
    (tmp_path / "mod.yaml").write_text("items: {six-shooter: 1}\n")
    rules = load_rules("deluxe", None, (str(tmp_path),))
    assert rules.peek_items == ("torch", "six-shooter")


def test_a_scenario_goes_on_after_a_player_dies(tmp_path):
    """Who is alive at a later room is known when it is played: a dead player is left out
    of its plays, and one still listed is told so."""
    path = tmp_path / "s.yaml"
    body = """format: raiders-scenario/1
name: B dies in the first room
ruleset: classic
players: [A, B, C]
start: {B: {wounds: 9}}
rooms:
  - room: 'monster m { name "M"  strength 99  wounds 1 }'
    plays: {A: 5, B: 1, C: 4}
  - room: treasure-1
    plays: PLAYS
expect:
  A: {coins: 1}
"""
    path.write_text(body.replace("PLAYS", "{A: 4, C: 3}"))
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]
    path.write_text(body.replace("PLAYS", "{A: 4, B: 2, C: 3}"))
    [outcome] = run_file(str(path))
    assert any("B is out of the game (dead) and plays no more" in d
               for d in outcome.differences), outcome.differences


def test_a_bug_in_the_engine_is_a_fail_line_that_names_it(tmp_path, monkeypatch):
    from raiders.interpreter.game.engine import Game

    def broken(self, *args):
        raise ValueError("list.remove(x): x not in list")

    monkeypatch.setattr(Game, "play_room", broken)
    path = tmp_path / "s.yaml"
    path.write_text("format: raiders-scenario/1\nname: s\nruleset: deluxe\nplayers: [A, B, C]\n"
                    "room: goblin\nplays: {A: 1, B: 2, C: 3}\nexpect:\n  A: {coins: 0}\n")
    [outcome] = run_file(str(path))
    assert not outcome.ok and outcome.differences == [
        "internal error (a bug in raiders, please report it): ValueError: list.remove(x): x not "
        "in list"]


def test_take_any_takes_the_item_the_player_chooses(tmp_path):
    """`take any`: asked kind by kind; A says no to the key, so a sword goes; B holds one
    kind and is not asked."""
    (tmp_path / "c.dsl").write_text(
        'treasure altar { name "Altar"  chest 0  after room { highest: take any, heal 2 } }\n')
    path = tmp_path / "s.yaml"
    path.write_text("""format: raiders-scenario/1
name: take any
ruleset: deluxe
cards: [.]
players: [A, B, C]
start: {A: {items: [key, sword, sword], wounds: 3}, B: {items: [torch]}}
rooms:
  - room: altar
    plays: {A: 5, B: 1, C: 2}
    choices: {A: [false]}
  - room: altar
    plays: {A: 1, B: 5, C: 3}
expect:
  A: {items: [key, sword], wounds: 1}
  B: {items: []}
  supply: {torch: 6}
""")
    [outcome] = run_file(str(path))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]
