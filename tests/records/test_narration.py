"""What the narration tells of a room in disguise and of statuses (issue 21, "Nothing silently
wrong"): the table's view of a room until it is played, and a status by its name and count."""
from pathlib import Path

from raiders.interpreter.game.engine import Deal, Game
from raiders.interpreter.game.players import BOTS
from raiders.interpreter.records.narrate import room_lines
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.runtime.state import Floor, RoomSlot

MIMIC = Path(__file__).resolve().parents[2] / "examples" / "mods" / "mimic"

IDOL = """
status idol { name "Idol" }
status poisoned { name "Poisoned" }
treasure idol-shrine {
  name "Idol Shrine"  chest 0
  after room { everyone: mark idol by 2, mark poisoned, unmark idol by 1 }
}
"""


def narrated(tmp_path: Path, rooms: list[str]) -> list[str]:
    """Three bots play `rooms`, face up, on one floor; every room's narration."""
    (tmp_path / "idol.dsl").write_text(IDOL)
    (tmp_path / "mod.yaml").write_text("deck: {idol-shrine: 1}\n")
    rules = load_rules("deluxe", None, (str(MIMIC), str(tmp_path)))
    deal = Deal([Floor([RoomSlot(r, True) for r in rooms])], ["knight", "thief", "wizard"])
    game = Game(rules, ["P1", "P2", "P3"], [BOTS["random"]() for _ in range(3)], seed=1,
                deal=deal, trace=True)
    result = game.run()
    return [line for rec in result.rooms for line in room_lines(rules, rec)]


def test_a_room_in_disguise_is_narrated_as_the_table_sees_it_until_it_is_played(tmp_path):
    """The mimic is dealt as a treasure (its kind derives from `treasure`) and fights as a
    monster (X-5): its header says what the table sees, the line after its effects what it
    was."""
    lines = narrated(tmp_path, ["chest-mimic", "treasure-4"])
    assert lines[0] == "  Room 1: Treasure (treasure)", lines
    assert not any("mimic" in line for line in lines[:3]), lines
    assert "    the Treasure was a mimic, not a treasure" in lines, lines
    assert lines[4] == "  Room 2: Treasure 4 (treasure)", lines  # no disguise, nothing more
    assert not any("was a" in line for line in lines[4:]), lines


def test_a_status_is_narrated_by_its_name_with_its_count(tmp_path):
    """`mark idol by 2` then `unmark idol by 1`: the count each player has, by the status's
    name; an adjective (`Poisoned`) reads as well as a noun (`Idol`)."""
    lines = narrated(tmp_path, ["idol-shrine", "idol-shrine"])
    first, second = lines[2], lines[5]
    assert "P1 now has the status Idol (2)" in first, first
    assert "P1 now has the status Poisoned;" in first, first
    assert "P1 now has the status Idol (1 left)" in first, first
    assert "P1 now has the status Idol (3)" in second and "(2 left)" in second, second
    assert " is now " not in first + second
