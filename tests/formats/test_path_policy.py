"""The one path policy (formats/safeio.py Confinement, docs/security.md), issue 27: a ruleset
from a stranger names card folders as a log or a scenario names its ruleset and mods, and all
of them are held to the file's own folder (or a built-in folder by name, `builtin:common`, or
a folder allowed with --allow-path). A file that declares no raiders format (a secrets file
beside a log) is refused before any of it is parsed or quoted (E510).

Each attack runs the real command in a child process with an audit hook (tests/audit.py), so
the tests prove that nothing outside the allowed folders is even opened or listed, not only
that nothing of it is printed."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from audit import run_audited
from click.testing import CliRunner

from raiders.formats import safeio
from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cr3t-TOKEN-27"
DELUXE = (ROOT / "cards" / "deluxe" / "ruleset.yaml").read_text(encoding="utf-8")
CARDS_LINE = "cards: [builtin:common, .]"
GOOD_LOG = (ROOT / "examples" / "logs" / "deluxe-standard-table.yaml").read_text(encoding="utf-8")
SCENARIO = """format: raiders-scenario/1
name: beside secrets
ruleset: {ruleset}
players: [A, B, C]
room: dragon
plays: {{A: 5, B: 5, C: 5}}
expect:
  A: {{wounds: 0}}
"""
# What each command that takes a ruleset is run as (`validate` takes the folder itself).
COMMANDS = {
    "play": lambda folder: ["play", "--ruleset", folder, "--seed", "1", "--bots", "random"],
    "validate": lambda folder: ["validate", folder],
    "simulate": lambda folder: ["simulate", "--ruleset", folder, "--games", "2", "--jobs", "1"],
}
# Each attack through `validate` in the fast tier (a child process each: about a second), and
# through every command in the slow tier; they share the one loader (formats/rulesets.py).
EVERY_COMMAND = [c if c == "validate" else pytest.param(c, marks=pytest.mark.slow)
                 for c in COMMANDS]


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder of secrets next to the folder a stranger's files are in: a card file and a
    ruleset that would be quoted as errors, were they read."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "evil.dsl").write_text(f"{SECRET} {{\n", encoding="utf-8")
    (out / "ruleset.yaml").write_text(f"{SECRET}: [\n", encoding="utf-8")
    (out / "secrets.yaml").write_text(f"api_key: {SECRET}\n", encoding="utf-8")
    return out


def stranger_ruleset(tmp_path: Path, cards: str) -> Path:
    """A copy of the deluxe edition (its card files too) in a folder of its own, with its
    `cards:` line replaced."""
    folder = tmp_path / "that-folder"
    shutil.copytree(ROOT / "cards" / "deluxe", folder)
    assert CARDS_LINE in DELUXE
    (folder / "ruleset.yaml").write_text(DELUXE.replace(CARDS_LINE, f"cards: {cards}"),
                                         encoding="utf-8")
    return folder


def assert_refused(done, code: str, where: str, forbidden, *gone: str) -> None:
    """Exit 1, a diagnostic of `code` at `where` (file:line:col), no traceback, nothing of the
    forbidden places printed, and none of them opened or listed."""
    out = done.output
    assert done.returncode == 1, out
    assert re.search(re.escape(where) + (r"\d+" if where.endswith(":") else "")
                     + re.escape(f": error[{code}]"), out), out
    assert "Traceback" not in out
    for text in (SECRET, "root:", *gone):
        assert text not in out, out
    assert done.touching(forbidden) == [], done.touching(forbidden)


# ---- a ruleset's `cards:` ----------------------------------------------------------------------

@pytest.mark.parametrize("command", ["validate", "play",
                                     pytest.param("simulate", marks=pytest.mark.slow)])
def test_a_rulesets_cards_cannot_name_an_absolute_path(tmp_path, command):
    """Issue 27: `cards: [../common, ., "/etc/passwd"]` printed /etc/passwd as diagnostics."""
    shutil.copytree(ROOT / "cards" / "common", tmp_path / "common")
    folder = stranger_ruleset(tmp_path, '[../common, ., "/etc/passwd"]')
    done = run_audited(COMMANDS[command](folder), cwd=tmp_path)
    assert_refused(done, "E506", "that-folder/ruleset.yaml:5:23", ["/etc/passwd"])
    assert "the ruleset's `cards` names `/etc/passwd`" in done.output
    # `../common` is refused too, and told what to write instead
    assert "that-folder/ruleset.yaml:5:9: error[E506]" in done.output
    assert "`builtin:common`" in done.output
    assert done.touching([tmp_path / "common"]) == []


@pytest.mark.parametrize("command", EVERY_COMMAND)
def test_a_rulesets_cards_cannot_walk_the_file_system(tmp_path, command):
    folder = stranger_ruleset(tmp_path, '["/", builtin:common, .]')
    done = run_audited(COMMANDS[command](folder), cwd=tmp_path)
    assert_refused(done, "E506", "that-folder/ruleset.yaml:5:9", [])
    assert "/" not in [path for path in done.listed()], "the root folder was listed"
    assert not [p for p in done.listed() if p.startswith(("/etc", "/usr/lib", "/home"))]


@pytest.mark.parametrize("command", EVERY_COMMAND)
def test_a_link_in_the_rulesets_folder_leading_out_is_not_followed(tmp_path, outside, command):
    folder = stranger_ruleset(tmp_path, "[builtin:common, ., link-out]")
    (folder / "link-out").symlink_to(outside, target_is_directory=True)
    done = run_audited(COMMANDS[command](folder), cwd=tmp_path)
    assert_refused(done, "E506", "that-folder/ruleset.yaml:5:28", [outside])
    assert "a link that leads out of the file's own folder" in done.output


def test_a_link_below_a_card_folder_leading_out_is_not_read(tmp_path, outside):
    """The folder `.` itself is allowed; a card file in it linking out is refused (E506)."""
    folder = stranger_ruleset(tmp_path, CARDS_LINE[len("cards: "):])
    (folder / "evil.dsl").symlink_to(outside / "evil.dsl")
    done = run_audited(["validate", folder], cwd=tmp_path)
    assert_refused(done, "E506", "that-folder/evil.dsl:1:1", [outside])


@pytest.mark.parametrize("cards", [
    "[builtin:common, ., ../outside]", "[builtin:common, ., builtin:../../..]",
    *(pytest.param(c, marks=pytest.mark.slow) for c in (
        "[builtin:common, ., ..]", "[builtin:common, ., sub/../../outside]",
        '[builtin:common, ., "builtin:/etc"]'))])
def test_a_rulesets_cards_cannot_lead_out_by_dots(tmp_path, outside, cards):
    folder = stranger_ruleset(tmp_path, cards)
    done = run_audited(["validate", folder], cwd=tmp_path)
    assert_refused(done, "E506", "that-folder/ruleset.yaml:5:", [outside, "/etc"])


def test_a_variants_cards_are_held_to_the_rulesets_folder(tmp_path, outside):
    folder = stranger_ruleset(tmp_path, CARDS_LINE[len("cards: "):])
    text = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("players: {min: 3, max: 5}}                     # D-4",
                        f"players: {{min: 3, max: 5}}, cards: [{outside}]}}")
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if "standard:" in t)
    done = run_audited(["validate", folder], cwd=tmp_path)
    assert_refused(done, "E506", f"that-folder/ruleset.yaml:{line}:", [outside])


def test_a_copied_builtin_ruleset_keeps_working(tmp_path):
    """A ruleset that copies a built-in one names the shared cards by name, from anywhere."""
    folder = stranger_ruleset(tmp_path, CARDS_LINE[len("cards: "):])
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 0, result.output
    played = CliRunner().invoke(main, ["play", "--ruleset", str(folder), "--seed", "3",
                                       "--bots", "random"])
    assert played.exit_code == 0, played.output


def test_a_ruleset_written_with_dot_dot_common_is_told_what_to_write(tmp_path):
    """A user's ruleset copied from a built-in one before `builtin:common` (with the cards
    folder copied beside it): one E506, whose hint gives the line to write."""
    shutil.copytree(ROOT / "cards" / "common", tmp_path / "common")
    folder = stranger_ruleset(tmp_path, "[../common, .]")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    assert result.output.count("error[") == 1, result.output
    assert "ruleset.yaml:5:9: error[E506]" in result.output
    assert "`cards: [builtin:common, .]`" in result.output


def test_an_unknown_builtin_folder_is_not_found(tmp_path):
    folder = stranger_ruleset(tmp_path, "[builtin:commons, .]")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    assert "ruleset.yaml:5:9: error[E505]: card folder `builtin:commons` not found" \
        in result.output, result.output


def test_a_thousand_card_folders_are_one_diagnostic(tmp_path):
    """Found by the ruleset fuzzing: 100,000 `/etc` entries were 100,000 E506 diagnostics
    (65 MB printed, ten minutes). Now one E503 where the list stands (the slow tier's fuzz
    tries the 100,000)."""
    folder = stranger_ruleset(tmp_path, "[" + ", ".join(["/etc"] * 1_000) + "]")
    result = CliRunner().invoke(main, ["validate", str(folder / "ruleset.yaml")])
    assert result.exit_code == 1
    assert "ruleset.yaml:5:8: error[E503]: `cards` names 1,000 card folders: at most 100" \
        in result.output
    assert result.output.count("error[") == 1 and len(result.output) < 2000


def test_a_folder_name_too_long_for_a_path_is_refused_where_it_stands(tmp_path):
    """Found by the ruleset fuzzing: a 40,000-character name was `error: …: File name too
    long`, with no position. Now E506 at the name, nothing looked up."""
    folder = stranger_ruleset(tmp_path, "[builtin:common, ., " + "a" * 40_000 + "]")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    assert "ruleset.yaml:5:28: error[E506]" in result.output, result.output[:2000]
    assert "a name too long to be a path" in result.output


def test_a_file_beside_the_ruleset_named_as_a_card_folder_is_not_read_as_cards(tmp_path):
    """Found by the ruleset fuzzing: `cards: [.., secrets.yaml]` read the secrets file as a
    card file and quoted it in a syntax error. Now E503 at the name; the file is not opened."""
    folder = stranger_ruleset(tmp_path, "[builtin:common, ., secrets.yaml]")
    (folder / "secrets.yaml").write_text(f"api_key: {SECRET}\n", encoding="utf-8")
    done = run_audited(["validate", folder / "ruleset.yaml"], cwd=tmp_path)
    assert_refused(done, "E503", "that-folder/ruleset.yaml:5:28", [folder / "secrets.yaml"])
    assert "`cards` names a file that is not a card folder" in done.output


def test_a_link_loop_named_as_a_card_folder_is_not_found(tmp_path):
    """Found by the ruleset fuzzing: a link to itself named in `cards:` was a RuntimeError
    (`Symlink loop`) with a traceback from `validate`. Now E505 where it stands."""
    folder = stranger_ruleset(tmp_path, "[builtin:common, ., loop]")
    (folder / "loop").symlink_to(folder / "loop")
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1, result.exception
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "ruleset.yaml:5:28: error[E505]: card folder `loop` not found" in result.output


# ---- a file beside that is not a raiders file --------------------------------------------------

def test_a_log_naming_a_secrets_file_beside_it_gets_one_diagnostic(tmp_path):
    """Issue 27: `ruleset: secrets.yaml` quoted every top-level line of the secrets file as
    "unknown ruleset field" diagnostics. Now one E510 at the log's field, and the secrets file
    is never parsed (only its head is looked at for a `format:` line)."""
    (tmp_path / "secrets.yaml").write_text(f"aws_key: {SECRET}\npassword: {SECRET}\n"
                                           f"db:\n  host: {SECRET}\n", encoding="utf-8")
    log = tmp_path / "game.yaml"
    log.write_text(GOOD_LOG.replace("ruleset: deluxe", "ruleset: secrets.yaml", 1),
                   encoding="utf-8")
    line = next(i + 1 for i, t in enumerate(log.read_text().splitlines())
                if t.startswith("ruleset:"))
    for args in (["replay", "--check", log], ["validate", log]):
        done = run_audited(args, cwd=tmp_path)
        assert_refused(done, "E510", f"game.yaml:{line}:10", [], "aws_key", "password")
        assert done.output.count("error[") == 1, done.output
        assert "not a raiders ruleset" in done.output


def test_a_scenario_naming_a_secrets_file_beside_it_gets_one_diagnostic(tmp_path):
    (tmp_path / "secrets.yaml").write_text(f"aws_key: {SECRET}\n", encoding="utf-8")
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO.format(ruleset="secrets.yaml"), encoding="utf-8")
    done = run_audited(["test", scenario], cwd=tmp_path)
    assert_refused(done, "E510", "scenario.yaml:3:10", [], "aws_key")
    assert done.output.count("error[") == 1, done.output


def test_a_log_naming_another_raiders_file_as_its_ruleset_says_what_it_is(tmp_path):
    (tmp_path / "other.yaml").write_text(GOOD_LOG, encoding="utf-8")
    log = tmp_path / "game.yaml"
    log.write_text(GOOD_LOG.replace("ruleset: deluxe", "ruleset: other.yaml", 1))
    result = CliRunner().invoke(main, ["replay", "--check", str(log)])
    assert result.exit_code == 1
    assert "error[E510]" in result.output and "the raiders log format" in result.output


@pytest.mark.parametrize("args", [["replay", "--check"], ["test"], ["validate"],
                                  ["play", "--seed", "1", "--ruleset"]])
def test_a_file_declaring_no_raiders_format_is_not_quoted(tmp_path, args):
    """Named on the command line as a log, a scenario file or a ruleset, a file that is not
    raiders' is refused before it is parsed: one E510, not a line of it shown."""
    secrets = tmp_path / "secrets.yaml"
    secrets.write_text(f"aws_key: {SECRET}\npassword: [{SECRET}\n", encoding="utf-8")
    done = run_audited([*args, secrets], cwd=tmp_path)
    assert done.returncode == 1, done.output
    assert "secrets.yaml:1:1: error[E510]" in done.output, done.output
    assert done.output.count("error[") == 1, done.output
    for text in (SECRET, "aws_key", "password"):
        assert text not in done.output


def test_a_foreign_yaml_file_is_never_quoted(tmp_path):
    """Whatever diagnostic points into it, a YAML file that declares no raiders format is
    shown without its lines (a mod.yaml, which declares none, still is)."""
    secrets = tmp_path / "secrets.yaml"
    secrets.write_text(f"key: {SECRET}\n", encoding="utf-8")
    assert safeio.quotable_lines(str(secrets)) is None
    ruleset = tmp_path / "ruleset.yaml"
    ruleset.write_text(DELUXE, encoding="utf-8")
    assert safeio.quotable_lines(str(ruleset))[1] == "format: raiders-ruleset/1"
    manifest = tmp_path / "mod.yaml"
    manifest.write_text("deck: {ogre: 1}\n", encoding="utf-8")
    assert safeio.quotable_lines(str(manifest)) == ["deck: {ogre: 1}"]


# ---- the resolver itself -----------------------------------------------------------------------

def test_one_resolver_holds_every_path_to_its_folder(tmp_path, outside):
    inbox = tmp_path / "inbox"
    (inbox / "sub").mkdir(parents=True)
    (inbox / "out").symlink_to(outside, target_is_directory=True)
    box = safeio.Confinement(inbox)
    assert box.resolve("sub") == (str(inbox / "sub"), None)
    assert box.resolve(".") == (str(inbox), None)
    for raw in ("/", "/etc/passwd", "..", "../outside", "sub/../../outside", "out",
                "out/evil.dsl", "a\0b", "builtin:", "builtin:/etc", "builtin:../..",
                "builtin:common/../../..", "builtin:builtin:common", "builtin:" * 100_000):
        path, why = box.resolve(raw)
        assert path is None and why, raw
    common = os.path.join(safeio.builtin_cards(), "common")
    assert box.resolve("builtin:common") == (common, None)
    assert "common" in safeio.builtin_names() and "deluxe" in safeio.builtin_names()


def test_the_source_trees_own_common_folder_is_the_built_in_one_when_it_holds_the_same(
        tmp_path, monkeypatch):
    """`raiders validate cards/` of raiders' own source with raiders installed from a wheel:
    the rulesets' `builtin:common` reads the installed copy, and the checkout's cards/common
    (the same files, byte for byte) is covered by it, not checked again as a mod on top (CI
    found 34 E401/E402 'defined twice')."""
    import shutil

    from raiders.formats import safeio
    from raiders.formats.validate import validate_paths

    installed = tmp_path / "site-packages" / "cards"
    shutil.copytree(ROOT / "cards", installed)
    monkeypatch.setattr(safeio, "builtin_cards", lambda: str(installed))
    report = validate_paths([str(ROOT / "cards")])
    assert [d for d in report.diagnostics if d.severity == "error"] == []
