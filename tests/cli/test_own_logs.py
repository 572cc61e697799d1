"""Issue 24, "Logs you wrote yourself": `play --cards ../mymod --log game.yaml` writes a log
whose mod lies outside its folder. A log may not lead there by itself (E506, docs/security.md);
the person who played names the mod on the command line (`--cards`), and `play` says so, with
the exact command, as it writes the log."""
import shlex
import shutil
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main

GORGON = Path(__file__).resolve().parents[2] / "examples" / "mods" / "gorgon"


def run(*args):
    return CliRunner().invoke(main, list(args))


def own_game(tmp_path, monkeypatch):
    shutil.copytree(GORGON, tmp_path / "mymod")
    (tmp_path / "play").mkdir()
    monkeypatch.chdir(tmp_path / "play")
    result = run("play", "--cards", "../mymod", "--log", "game.yaml", "--seed", "3", "-q")
    assert result.exit_code == 0, result.output
    return result


def test_play_says_how_to_replay_a_log_naming_a_mod_outside_its_folder(tmp_path, monkeypatch):
    result = own_game(tmp_path, monkeypatch)
    assert "game.yaml names `../mymod`, outside its own folder" in result.stderr
    command = result.stderr.strip().splitlines()[-1].strip()
    assert command == "raiders replay --cards ../mymod game.yaml"
    replayed = run(*shlex.split(command)[1:], "--check")
    assert replayed.exit_code == 0, replayed.output
    assert "ok    game.yaml: 25 rooms, 25 checkpoint(s) equal" in replayed.stdout


def test_a_log_beside_its_mod_needs_no_note(tmp_path, monkeypatch):
    shutil.copytree(GORGON, tmp_path / "mymod")
    monkeypatch.chdir(tmp_path)
    result = run("play", "--cards", "mymod", "--log", "game.yaml", "--seed", "3", "-q")
    assert result.exit_code == 0 and "note:" not in result.stderr
    assert run("replay", "--check", "game.yaml").exit_code == 0


def test_the_rule_for_strangers_logs_stands(tmp_path, monkeypatch):
    own_game(tmp_path, monkeypatch)
    refused = run("replay", "--check", "game.yaml")
    assert refused.exit_code == 1
    assert "game.yaml:5:9: error[E506]" in refused.stderr
    assert "--cards DIR (replay, play --from)" in refused.stderr


def test_cards_replace_the_logs_mods_which_are_never_opened(tmp_path, monkeypatch):
    own_game(tmp_path, monkeypatch)
    log = Path("game.yaml")
    # the log now names a folder that is not there at all: with --cards it is not looked at
    log.write_text(log.read_text().replace('cards: ["../mymod"]', 'cards: ["/nowhere/x"]'))
    result = run("replay", "--check", "--cards", "../mymod", "game.yaml")
    assert result.exit_code == 0, result.output


def test_every_command_that_reads_a_log_takes_cards(tmp_path, monkeypatch):
    own_game(tmp_path, monkeypatch)
    html = run("replay", "--cards", "../mymod", "--html", "game.html", "game.yaml")
    assert html.exit_code == 0, html.output and Path("game.html").exists()
    branch = run("play", "--from", "game.yaml", "--room", "20", "--cards", "../mymod", "-q",
                 "--log", "branch.yaml")
    assert branch.exit_code == 0, branch.output
    assert "raiders replay --cards ../mymod branch.yaml" in branch.stderr
    assert run("replay", "--check", "--cards", "../mymod", "branch.yaml").exit_code == 0
    narrated = run("replay", "--cards", "../mymod", "game.yaml")
    assert narrated.exit_code == 0 and "Winner" in narrated.stdout


def test_a_folder_of_logs_gets_the_command_once(tmp_path, monkeypatch):
    shutil.copytree(GORGON, tmp_path / "mymod")
    monkeypatch.chdir(tmp_path)
    result = run("play", "--cards", "mymod", "--games", "2", "--seed", "1", "--log-dir", "logs")
    assert result.exit_code == 0, result.output
    assert result.stderr.count("note: the logs in logs name `../mymod`") == 1
    command = result.stderr.strip().splitlines()[-1].strip()
    assert command == "raiders replay --cards mymod logs"
    replayed = run(*shlex.split(command)[1:], "--check")
    assert replayed.exit_code == 0 and "2 log(s): 2 ok, 0 failed" in replayed.stdout
