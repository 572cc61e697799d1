"""Dice and answers asked between two rooms (`after floor_end`, `after floor_start`) and after
the last (`after scoring`): a log writes them on the next room's entry, or on the last entry
when no room follows (docs/logs.md, "rolls and choices"), and `replay`, `play --from` and
scenarios read them from there. Reported by a modder: such logs did not replay, `play --from`
crashed, and the scoring's dice and answers were never written."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from raiders.interpreter.cli import main

ASK_AT_FLOOR_START = """\
rule toll-gate {
  name "Toll Gate"
  after floor_start { everyone { may "Pay 1 coin to heal 1?" { lose 1 coin  heal 1 } } }
}
"""

AT_THE_END = """\
rule floor-roll { name "Floor Roll"  after floor_end { everyone: gain your_roll(3) coins } }
rule last-roll { name "Last Roll"  after scoring { everyone: gain your_roll(6) coins } }
rule last-call {
  name "Last Call"
  after scoring { everyone { may "Pay 2 coins to heal 2?" { lose 2 coins  heal 2 } } }
}
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def mod(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "cards.dsl").write_text(text)
    return folder


def played_log(tmp_path: Path, cards: Path, seed: int = 1) -> Path:
    log = tmp_path / f"{cards.name}-{seed}.yaml"
    result = run("play", "--cards", cards, "--seed", seed, "--players", 3, "-q", "--log", log)
    assert result.exit_code == 0, result.output
    return log


def entries(log: Path) -> list:
    return YAML(typ="safe").load(log.read_text())["rooms"]


def without_seed(log: Path) -> Path:
    bare = log.with_name("bare-" + log.name)
    bare.write_text(re.sub(r"^seed: .*\n", "", log.read_text(), flags=re.M))
    return bare


def test_answers_at_a_floor_start_are_on_the_next_rooms_entry_and_replay(tmp_path):
    log = played_log(tmp_path, mod(tmp_path, "toll", ASK_AT_FLOOR_START))
    asked = [k for k, e in enumerate(entries(log)) if "choices" in e]
    assert asked == [0, 5, 10, 15, 20]  # D-3: a floor starts before its first room
    for path in (log, without_seed(log)):
        result = run("replay", "--check", "-q", path)
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("room", [0, 4, 5, 6, 9, 10, 12])
def test_play_from_any_room_of_such_a_log_plays_on(tmp_path, room):
    log = played_log(tmp_path, mod(tmp_path, "toll", ASK_AT_FLOOR_START))
    result = run("play", "--from", log, "--room", room, "--bots", "random", "-q")
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output or "winner" in result.output


def test_dice_and_answers_after_the_last_room_are_on_the_last_entry(tmp_path):
    log = played_log(tmp_path, mod(tmp_path, "end", AT_THE_END), seed=2)
    rooms = entries(log)
    last = rooms[-1]
    # a floor's three `floor_end` dice go on the next floor's first room; the last floor's
    # three and the scoring's three on the last entry, then everyone's scoring answer
    assert [len(e.get("rolls", [])) for e in rooms[4:25:5]] == [0, 0, 0, 0, 6]
    assert [len(e.get("rolls", [])) for e in rooms[5:25:5]] == [3, 3, 3, 3]
    assert {name: len(answers) for name, answers in last["choices"].items()} == \
        {"P1": 1, "P2": 1, "P3": 1}
    # without the seed, the replay takes every die and answer from the log: always the same
    bare = without_seed(log)
    outputs = {run("replay", "-q", bare).output for _ in range(3)}
    assert len(outputs) == 1
    result = run("replay", "--check", "-q", bare)
    assert result.exit_code == 0, result.output


def scenario(tmp_path: Path, rooms: str, expect: str) -> Path:
    folder = mod(tmp_path, "cards", ASK_AT_FLOOR_START + """\
rule windfall { name "Windfall"  after floor_start { everyone: gain your_roll(6) coins } }
rule last-roll { name "Last Roll"  after scoring { everyone: gain your_roll(2) coins } }
""")
    path = folder / "scenario.yaml"
    path.write_text(f"""\
format: raiders-scenario/1
name: input between rooms
ruleset: deluxe
cards: [.]
players: [A, B, C]
start: {{A: {{coins: 3, wounds: 2}}, B: {{coins: 3, wounds: 2}}, C: {{coins: 0}}}}
rooms:
{rooms}
end: true
expect:
{expect}
""")
    return path


TWO_FLOORS = """\
  - room: treasure-1
    plays: {A: 5, B: 4, C: 1}
    floor_end: true
  - room: treasure-1
    plays: {A: 5, B: 4, C: 1}
    rolls: [6, 1, 3, 2, 2, 1]
    choices: {A: [true], B: [false], C: [false]}"""


def test_a_scenario_gives_a_floor_starts_and_the_scorings_input_on_its_room_entries(tmp_path):
    # A: 3 + 1 (the chest of each treasure-1) x 2 - 1 (toll) + 6 (windfall) + 2 (scoring)
    path = scenario(tmp_path, TWO_FLOORS,
                    "  A: {coins: 12, wounds: 1}\n  B: {coins: 6, wounds: 2}\n  C: {coins: 4}")
    result = run("test", path)
    assert result.exit_code == 0, result.output


def test_a_scenarios_input_left_over_or_missing_is_reported_not_raised(tmp_path):
    extra = scenario(tmp_path, TWO_FLOORS.replace("2, 2, 1]", "2, 2, 1, 4]"), "  A: {}")
    result = run("test", extra)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "room 2 (treasure-1): 1 roll(s) given but not used: [4]" in result.output
    short = extra.parent.parent / "short"
    short.mkdir()
    missing = scenario(short, TWO_FLOORS.replace("rolls: [6, 1, 3, 2, 2, 1]", "rolls: [6]"),
                       "  A: {}")
    result = run("test", missing)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "room 2 (treasure-1): the room rolls a die" in result.output


def test_the_narration_puts_a_floor_starts_effects_before_the_room(tmp_path):
    cards = mod(tmp_path, "toll", ASK_AT_FLOOR_START)
    result = run("play", "--cards", cards, "--seed", 2, "--players", 3)
    assert result.exit_code == 0, result.output
    floor2 = result.output.split("Floor 2")[1].splitlines()
    assert floor2[1].startswith("  Room 1:")
    assert floor2[2].startswith("    before the room: P1 answers") and "plays:" in floor2[3]
    assert "answers" not in floor2[4]  # the room's own effects follow the plays


def test_the_trace_lists_a_floor_starts_effects_once(tmp_path):
    log = played_log(tmp_path, mod(tmp_path, "toll", ASK_AT_FLOOR_START), seed=2)
    result = run("replay", "--trace", log)
    assert result.exit_code == 0, result.output
    floor2 = result.output.split("Floor 2")[1].split("Room 2")[0]
    assert "before the room" not in floor2
    assert floor2.count("P1 answers") == 1
