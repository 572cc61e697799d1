"""At the table (issue 10): seeds always reproducible, the dealt dungeon, `python -m raiders`,
the human seat's prompt, narration in words, colour."""
import os
import re
import subprocess
import sys

from click.testing import CliRunner

from raiders.interpreter.cli import main


def run(*args, input=None, env=None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


def test_a_drawn_seed_is_printed_and_logged_and_replays_the_same_game(tmp_path):
    log = tmp_path / "g.yaml"
    first = run("play", "-q", "--log", str(log))
    assert first.exit_code == 0, first.output
    seed = int(re.search(r"seed (\d+) \(drawn", first.stderr).group(1))
    assert f"seed: {seed}\n" in log.read_text()
    again = run("play", "-q", "--seed", str(seed))
    assert again.stdout == first.stdout


def test_log_never_changes_which_game_is_played(tmp_path):
    narrated = run("play", "--seed", "11")
    logged = run("play", "--seed", "11", "--log", str(tmp_path / "g.yaml"))
    assert narrated.exit_code == 0 and narrated.stdout == logged.stdout


def test_show_dungeon_is_the_deal_play_uses():
    shown = run("show", "--dungeon", "--seed", "7")
    assert shown.exit_code == 0, shown.output
    played = run("play", "--seed", "7").stdout
    rooms = re.findall(r"Room \d+: ([^(]+) \(", shown.stdout)
    assert rooms == re.findall(r"Room \d+: ([^(]+) \(", played)
    assert "18 for 4 players" in shown.stdout  # the troll's strength at this table
    assert run("show", "--seed", "3").exit_code == 2  # --seed goes with --dungeon
    assert run("show", "troll", "--dungeon").exit_code == 2


def test_python_dash_m_raiders_is_the_command():
    out = subprocess.run([sys.executable, "-m", "raiders", "show", "--help"],
                         capture_output=True, text=True, cwd=os.path.dirname(__file__))
    assert out.returncode == 0 and "--dungeon" in out.stdout
