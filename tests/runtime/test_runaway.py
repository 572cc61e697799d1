"""A runaway is stopped after a bounded amount of work, however it fans out (issue 27): the
room's budget (room.MAX_EVENTS) counts the rules checked for each event as well as the events,
so 31 rules that each hear every wound stop as soon as a chain would; a group of quiet house
rules the event cannot pass is one step, so a thousand of them never stop a game. Measured as
work (rule checks), never as time."""
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.runtime import room


def test_a_fan_out_of_rules_stops_within_the_rooms_budget_of_checks(tmp_path: Path, monkeypatch):
    rules = "\n".join(["  after wound { everyone: wound 1 }"] * 31)
    (tmp_path / "cards.dsl").write_text(
        "monster ogre { strength 90 / 90 / 90  wounds 2\n" + rules + "\n}\n")  # never beaten
    most = [0]  # the most rules checked in one room (one Context; bots try rooms too)
    applies = room.Context._applies

    seen: dict[int, list] = {}  # id -> [the Context, kept so that no id is reused; checks]

    def counted(self, *args):
        entry = seen.setdefault(id(self), [self, 0])
        entry[1] += 1
        most[0] = max(most[0], entry[1])
        return applies(self, *args)

    monkeypatch.setattr(room.Context, "_applies", counted)
    result = CliRunner().invoke(main, ["play", "-q", "--seed", "1", "--cards", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "a runaway chain of `wound` events" in result.output and "ogre" in result.output
    # Before: 20,000 events a room, each checking 31 rules: 9.9 million checks in all for
    # the bots' tries and the room (39 s on the issue's machine, 8.6 s of CPU here). Now the
    # checks count against the same budget: 0.3 million in all.
    assert most[0] <= room.MAX_EVENTS, most[0]


def test_a_thousand_quiet_rules_never_stop_a_room_of_many_events(tmp_path: Path):
    """Counting every rule checked stopped this game: 1,000 house rules hearing `wound` (their
    `on` filter never holds) and a room that wounds every player 8 times is 32 wound events,
    32,000 checks. Only rules run are steps: the room plays."""
    for part in range(4):  # a card file holds at most 500 cards
        (tmp_path / f"quiet{part}.dsl").write_text("\n".join(
            f'rule q{i} {{ name "Q{i}"  after wound on marked(never) {{ heal 1 }} }}'
            for i in range(part * 250, part * 250 + 250)))
    (tmp_path / "rain.dsl").write_text(
        'status never { name "Never" }\n'
        "kind drizzle() { resolve { " + "everyone: wound 1 " * 8 + "} }\n"
        'drizzle rain { name "Rain" }\n')
    (tmp_path / "mod.yaml").write_text("deck: {rain: 25}\n")
    result = CliRunner().invoke(main, ["play", "-q", "--seed", "1", "--bots", "random",
                                       "--players", "4", "--cards", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "runaway" not in result.output
