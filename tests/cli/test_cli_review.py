"""What a new user's review of the command line found (tried from the README alone, with
hostile arguments), each pinned: nothing but an ordinary file is replaced, a page is never
written over someone's file, seeds stay within what a log holds, empty or impossible paths
are refused before any game is played, processes never outnumber the work, conflicting
options say so, and a scenario's errors say where they stand."""
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_force_never_replaces_what_is_not_an_ordinary_file(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = run("play", "--seed", 1, "-q", "--log", pipe, "--force")
    assert result.exit_code == 1 and "it is not an ordinary file: not replaced" in result.output
    assert "Winner" not in result.output  # refused before the game, not after it
    assert Path(pipe).is_fifo()
    folder = tmp_path / "taken.yaml"
    folder.mkdir()
    result = run("play", "--seed", 1, "-q", "--log", folder, "--force")
    assert result.exit_code != 0 and folder.is_dir()


def test_a_page_is_written_over_an_earlier_page_but_never_over_another_file(tmp_path):
    log = tmp_path / "g.yaml"
    assert run("play", "--seed", 1, "-q", "--log", log).exit_code == 0
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    result = run("replay", log, "--html", keep)
    assert result.exit_code == 1 and "is not a page raiders wrote" in result.output
    assert keep.read_text() == "precious\n"
    page = tmp_path / "page.html"
    for _ in range(2):  # written, then written again over its own page
        result = run("replay", log, "--html", page)
        assert result.exit_code == 0, result.output
    result = run("replay", log, log, "--html", keep)
    assert result.exit_code == 1 and "make a page each, in a folder" in result.output
    pipe = tmp_path / "pipe.html"  # opened for a look, a pipe would block forever
    os.mkfifo(pipe)
    result = run("replay", log, "--html", pipe)
    assert result.exit_code == 1 and "is not a page raiders wrote" in result.output
    assert pipe.is_fifo()


@pytest.mark.parametrize("args,message", [
    (["--seed", 2**63], "is not in the range"),
    (["--seed", -(2**63) - 1], "is not in the range"),
    (["--seed", 2**63 - 1, "--games", 2], "runs past the largest seed a log holds"),
    (["--log", ""], "takes a path, not an empty name"),
    (["--games", 2, "--log-dir", ""], "takes a path, not an empty name"),
])
def test_play_refuses_what_a_log_cannot_hold_before_playing(args, message):
    result = run("play", "-q", *args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_the_largest_seed_plays_and_its_log_replays(tmp_path):
    log = tmp_path / "big.yaml"
    result = run("play", "-q", "--seed", 2**63 - 1, "--log", log)
    assert result.exit_code == 0, result.output
    result = run("replay", "--check", "-q", log)
    assert result.exit_code == 0, result.output


def test_a_log_in_a_missing_folder_is_refused_before_the_game(tmp_path):
    result = run("play", "--seed", 1, "--log", tmp_path / "nodir" / "x.yaml")
    assert result.exit_code == 1 and "no folder" in result.output
    assert "Room 1" not in result.output


@pytest.mark.parametrize("args,message", [
    (["--until-resolved", "--precision", "0.1"], "give one of them"),
    (["--seed", 2**63 - 5, "--games", 10], "runs past the largest seed"),
    (["--log-dir", ""], "takes a path, not an empty name"),
    (["--jobs", 257], "is not in the range"),
])
def test_simulate_refuses_conflicting_or_impossible_options(args, message):
    result = run("simulate", "--games", 2, *args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_never_more_processes_than_pieces_of_work(monkeypatch):
    import concurrent.futures

    from raiders.interpreter.tools import simulate as sim

    sizes = []
    real = concurrent.futures.ProcessPoolExecutor

    def recording(max_workers, *args, **kwargs):
        sizes.append(max_workers)
        return real(max_workers, *args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", recording)
    setup = sim.Setup("deluxe", None, 4, ("random",) * 4, ())
    many = sim.simulate((setup,), 3, seed=1, jobs=200)
    one = sim.simulate((setup,), 3, seed=1, jobs=1)
    assert sizes == [3]
    assert many.sums.keys() == one.sums.keys() and many.games == one.games == 3


INLINE = """format: raiders-scenario/1
name: inline
ruleset: deluxe
room: {room}
players: [A, B, C]
plays: {{A: 1, B: 2, C: 3}}
expect:
  A: {{coins: 0}}
"""
CARD = 'monster zz {{ name "Z" strength 1 / 2 / 3 wounds 1 target higest }}'


@pytest.mark.parametrize("room,line,col", [
    ("'" + CARD + "'", 4, 65),
    (CARD, 4, 64),
    ("|\n  " + CARD.replace(" wounds", "\n    wounds"), 6, 21),
])
def test_an_inline_rooms_diagnostic_points_at_its_text(tmp_path, room, line, col):
    from raiders.interpreter.records.scenarios import run_file

    path = tmp_path / "s.yaml"
    path.write_text(INLINE.format(room=room.replace("{{", "{").replace("}}", "}")))
    [outcome] = run_file(str(path))
    [d] = outcome.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("E102", line, col), path.read_text()
    assert path.read_text().splitlines()[line - 1][col - 1:].startswith("higest")


def test_an_illegal_play_in_a_scenario_says_where_it_stands(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("format: raiders-scenario/1\nname: bad\nruleset: deluxe\n"
                    "players: [A, B, C]\nroom: dragon\nplays: {A: 1, B: sword, C: 3}\n"
                    "expect:\n  A: {coins: 0}\n")
    result = run("test", path)
    assert result.exit_code == 1
    assert "B played a sword but holds none (at " in result.output
    assert "s.yaml:6:18)" in result.output


def test_small_usage_slips_say_what_is_wrong(tmp_path):
    log = tmp_path / "g.yaml"
    assert run("play", "--seed", 1, "-q", "--log", log).exit_code == 0
    result = run("replay", "--jobs", 2, log)
    assert result.exit_code == 2 and "--jobs is for --check" in result.output
    result = run("play", "--from", log, "--room", 5, "--games", 3)
    assert result.exit_code == 2 and "leave out --games (write the new game's log with --log)" \
        in result.output
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    result = run("test", empty)
    assert result.exit_code == 1 and "no scenarios in" in result.output
    result = run("simulate", "--sweep", "gorgon.wounds=1..1000000000", "--games", 2)
    assert result.exit_code == 2 and "values go up to" in result.output
    result = run("simulate", "--sweep", "gorgon#" + "9" * 5000 + "=1..2", "--games", 2)
    assert result.exit_code == 2 and "no card has that many" in result.output
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)  # --force would not help: say that, not "--force replaces it"
    result = run("play", "--seed", 1, "-q", "--log", pipe)
    assert result.exit_code == 1 and "not an ordinary file" in result.output
    assert "--force" not in result.output
