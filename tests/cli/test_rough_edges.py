"""Issue 24's rough edges of the command line, each pinned: colour options after the command,
one stream per kind of line, `replay --check --complete` for CI."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "examples" / "logs"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_no_color_is_taken_after_the_command_as_before_it():
    bad = ROOT / "tests" / "corpus" / "missing_wounds.dsl"
    after = run("validate", "--no-color", bad)
    assert after.exit_code == 1 and "error[E201]" in after.stderr
    assert "\x1b[" not in after.stderr
    forced = run("validate", "--color", bad)
    assert "\x1b[31m" in forced.stderr
    # the later word wins, as on any command line
    assert "\x1b[" not in run("--color", "validate", "--no-color", bad).stderr
    assert "--no-color" in run("play", "--help").output


def test_validate_summary_is_on_stdout_clean_or_not():
    clean = run("validate", ROOT / "examples" / "mods" / "gorgon")
    broken = run("validate", ROOT / "tests" / "corpus" / "missing_wounds.dsl")
    assert clean.stdout.startswith("checked ") and "no problems found" in clean.stdout
    assert broken.stdout == "checked 1 file(s): 1 error(s)\n"
    assert "checked" not in clean.stderr + broken.stderr


def test_replay_check_prints_every_fail_line_on_stdout(tmp_path):
    table = (LOGS / "deluxe-standard-table.yaml").read_text(encoding="utf-8")
    (tmp_path / "diverges.yaml").write_text(
        table.replace("coins: 2, wounds: 1", "coins: 3, wounds: 1", 1), encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(table.replace("Dee: 4}", "Dee: swrod}", 1),
                                       encoding="utf-8")
    for extra in ([], ["--html", tmp_path / "pages"]):
        result = run("replay", "--check", tmp_path / "bad.yaml", tmp_path / "diverges.yaml",
                     *extra)
        assert result.exit_code == 1
        assert "bad.yaml: bad log" in result.stdout, extra
        assert "FAIL" not in result.stderr and "error[E503]" in result.stderr


def test_replay_check_complete_wants_a_finished_game(tmp_path):
    progress = LOGS / "deluxe-standard-in-progress.yaml"
    assert run("replay", "--check", progress).exit_code == 0  # a game in progress is ok…
    result = run("replay", "--check", "--complete", progress)
    assert result.exit_code == 1  # …but not where a finished game is wanted
    assert "a game in progress, not a finished game (--complete)" in result.stdout
    assert "FAIL  " in result.stdout and "0 ok, 1 failed" in result.stdout
    finished = run("replay", "--check", "--complete", "-q", *sorted(LOGS.glob("*table.yaml")))
    assert finished.exit_code == 0, finished.output
    # the same through the worker processes of many logs
    for f in LOGS.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    many = run("replay", "--check", "--complete", "--jobs", 2, tmp_path)
    assert many.exit_code == 1 and many.stdout.count("FAIL  ") == 1
    assert run("replay", "--complete", progress).exit_code == 2  # it is about --check
    page = run("replay", "--check", "--complete", "--html", tmp_path / "p.html", progress)
    assert page.exit_code == 1 and "not a finished game (--complete)" in page.stdout


def test_items_are_named_wherever_a_person_reads():
    """Issue 24: the standings of a game in progress and the dealt dungeon gave item ids."""
    progress = run("replay", "--check", LOGS / "deluxe-standard-in-progress.yaml")
    assert "Sam: 7c 5w [Torch] | Ivy: 4c 1w [Crystal Ball]" in progress.stdout
    narrated = run("replay", LOGS / "deluxe-standard-in-progress.yaml")
    assert "[Crystal Ball]" in narrated.stdout and "crystal-ball" not in narrated.stdout
    dungeon = run("show", "--dungeon", "--seed", 7)
    assert "Wizard (1 coin, 1 wound, Crystal Ball, Crystal Ball)" in dungeon.stdout


def complete(words: str) -> list[str]:
    """What bash completion offers for the last word (click's protocol: `type,value` lines)."""
    env = {"_RAIDERS_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    result = CliRunner().invoke(main, [], env=env, prog_name="raiders")
    return result.output.splitlines()


def test_completion_offers_rulesets_and_card_ids():
    assert {"plain,deluxe", "plain,classic", "file,"} <= set(complete("raiders play --ruleset "))
    assert complete("raiders simulate --ruleset cl") == ["file,cl", "plain,classic"]
    assert "plain,dragon" in complete("raiders show drag")
    assert "plain,monster" in complete("raiders show mon")  # a kind
    gorgon = f"raiders show --cards {ROOT / 'examples' / 'mods' / 'gorgon'} gor"
    assert complete(gorgon) == ["plain,gorgon"]  # the mod's cards too
    assert complete("raiders show --ruleset nowhere drag") in ([], [""])  # no error, nothing


def test_bash_completes_a_ruleset_name_and_falls_back_to_files(tmp_path):
    """Through click's own bash script (a file item empties the list it has built so far)."""
    script = subprocess.run([sys.executable, "-m", "raiders"], capture_output=True, text=True,
                            env={**os.environ, "_RAIDERS_COMPLETE": "bash_source"}).stdout
    (tmp_path / "my.yaml").write_text("")
    driver = script + """
ask() { COMP_WORDS=($1); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
        _raiders_completion raiders 2>/dev/null; echo "${COMPREPLY[*]:-<files>}"; }
ask 'raiders play --ruleset de'
ask 'raiders validate --base cl'
ask 'raiders play --ruleset my'
"""
    bindir = os.path.dirname(sys.executable)
    out = subprocess.run(["bash", "-c", driver], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PATH": bindir + os.pathsep + os.environ["PATH"]})
    assert out.stdout.splitlines() == ["deluxe", "classic", "<files>"], out.stderr
