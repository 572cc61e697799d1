"""Hostile input (issue 14): no file disclosure, bounded time and memory, never a traceback.

A log or scenario file may name only built-in rulesets and paths inside its own folder (or
folders the user allows with --allow-path); links out of a mod folder are not followed; YAML
anchors and aliases are refused; sizes and numbers are bounded. Each test would fail if its
protection were removed: the secret would show, the bomb would run out of time or memory.
"""
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.dsl.diagnostics import CODES, MAX_QUOTE
from raiders.formats.rulesets import MAX_COPIES
from raiders.formats.safeio import MAX_FILE_BYTES
from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD_LOG = (ROOT / "examples" / "logs" / "deluxe-standard-table.yaml").read_text(encoding="utf-8")
SECRET = "s3cr3t-TOKEN-4f9a"
# the mod's scenarios name it as `cards: [.]` (their own folder)
GORGON_SCENARIOS = (ROOT / "examples" / "mods" / "gorgon" / "scenarios.yaml").read_text()
SCENARIO = """format: raiders-scenario/1
name: hostile
ruleset: {ruleset}
cards: {cards}
players: [A, B, C]
room: dragon
plays: {{A: 5, B: 5, C: 5}}
expect:
  A: {{wounds: 0}}
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def run_bounded(*args, timeout=60, memory=2 * 1024 ** 3, cwd=None):
    """The CLI in a subprocess with a time limit and an address-space limit: a bomb that got
    through would fail the test (timeout, MemoryError) instead of eating the machine."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    code = "from raiders.interpreter.cli import main; main()"
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit, cwd=cwd)
    return proc, time.monotonic() - start


def assert_clean_failure(result, code):
    """Exit 1 with a diagnostic of this code: no traceback, no secret."""
    out = result.output
    assert result.exit_code == 1, out
    assert f"[{code}]" in out, out
    assert "Traceback" not in out
    assert SECRET not in out
    assert result.exception is None or isinstance(result.exception, SystemExit), out


def assert_bounded_failure(proc, took, code):
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert f"[{code}]" in out, out
    assert "Traceback" not in out
    assert took < 30
    assert len(out) < 10_000


@pytest.fixture
def secrets(tmp_path):
    """A folder of secrets next to the folder a stranger's file is in."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"api_key: {SECRET}\npassword: {SECRET}\n")
    (outside / "ruleset.yaml").write_text(f"{SECRET}: [\n")  # would be quoted as bad YAML
    (outside / "evil.dsl").write_text(f"{SECRET} {{\n")  # a syntax error quoting the secret
    (outside / "mod.yaml").write_text(f"{SECRET}: 1\n")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return outside, inbox


def write_log(folder: Path, ruleset: str = "deluxe", cards: str = "") -> Path:
    text = GOOD_LOG.replace("ruleset: deluxe", f"ruleset: {ruleset}" + (
        f"\ncards: {cards}" if cards else ""), 1)
    path = folder / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def write_scenario(folder: Path, ruleset: str = "deluxe", cards: str = "[]") -> Path:
    path = folder / "scenario.yaml"
    path.write_text(SCENARIO.format(ruleset=ruleset, cards=cards), encoding="utf-8")
    return path


def invoke_on(command: str, path: Path, *extra):
    if command == "replay":
        return run("replay", "--check", path, *extra)
    return run(command, path, *extra)


# ---- disclosure -------------------------------------------------------------------------------

def _ruleset_values(outside: Path) -> list[str]:
    return [
        "/etc/passwd",
        "/proc/self/environ",
        str(outside / "secret.yaml"),
        "../outside/secret.yaml",
        "../outside",                       # a folder: its ruleset.yaml would be read
        "../../../../../../../../etc/passwd",
        "sub/../../outside/secret.yaml",
    ]


@pytest.mark.parametrize("command", ["replay", "validate"])
def test_a_log_cannot_name_a_ruleset_outside_its_folder(secrets, command, monkeypatch):
    outside, inbox = secrets
    monkeypatch.setenv("RAIDERS_TEST_SECRET", SECRET)  # what /proc/self/environ would show
    for value in _ruleset_values(outside):
        log = write_log(inbox, ruleset=value)
        result = invoke_on(command, log)
        assert_clean_failure(result, "E506")
        assert "root:" not in result.output
        assert "--allow-path" in result.output
        line = next(i + 1 for i, t in enumerate(log.read_text().splitlines())
                    if t.startswith("ruleset:"))
        assert f"game.yaml:{line}:10: error[E506]" in result.output, result.output


@pytest.mark.parametrize("command", ["test", "validate"])
def test_a_scenario_cannot_name_a_ruleset_outside_its_folder(secrets, command, monkeypatch):
    outside, inbox = secrets
    monkeypatch.setenv("RAIDERS_TEST_SECRET", SECRET)
    for value in _ruleset_values(outside):
        scenario = write_scenario(inbox, ruleset=value)
        result = run(command, scenario)
        assert_clean_failure(result, "E506")
        assert "scenario.yaml:3:10: error[E506]" in result.output, result.output


def test_a_log_cannot_name_mod_folders_outside_its_folder(secrets):
    outside, inbox = secrets
    start = time.monotonic()
    for cards in ("[/]", f"[{outside}]", "[../outside]", "[.., ../..]"):
        result = run("replay", "--check", write_log(inbox, cards=cards))
        assert_clean_failure(result, "E506")
    assert time.monotonic() - start < 30  # `/` is refused, not walked


def test_a_scenario_cannot_name_mod_folders_outside_its_folder(secrets):
    outside, inbox = secrets
    result = run("test", write_scenario(inbox, cards="[../outside]"))
    assert_clean_failure(result, "E506")
    assert "scenario.yaml:4:9: error[E506]" in result.output


def test_a_link_out_of_the_files_folder_is_refused(secrets):
    outside, inbox = secrets
    (inbox / "rules").symlink_to(outside, target_is_directory=True)
    (inbox / "secret.yaml").symlink_to(outside / "secret.yaml")
    for value in ("rules", "rules/ruleset.yaml", "secret.yaml"):
        result = run("replay", "--check", write_log(inbox, ruleset=value))
        assert_clean_failure(result, "E506")
        assert "link" in result.output
    result = run("replay", "--check", write_log(inbox, cards="[rules]"))
    assert_clean_failure(result, "E506")


def test_a_ruleset_in_the_logs_folder_cannot_lead_out_of_it(secrets):
    """A log may name a ruleset of its own folder, but that ruleset's card folders are held
    to the log's folder too."""
    outside, inbox = secrets
    rules = inbox / "rules"
    rules.mkdir()
    text = (ROOT / "cards" / "deluxe" / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("cards: [builtin:common, .]", f"cards: [{outside}, ../../outside]")
    (rules / "ruleset.yaml").write_text(text, encoding="utf-8")
    result = run("replay", "--check", write_log(inbox, ruleset="rules"))
    assert_clean_failure(result, "E506")
    assert result.output.count("[E506]") == 2


def test_allow_path_lets_a_log_name_more(tmp_path):
    """The same log, refused without --allow-path, replays with it."""
    log = write_log(tmp_path, ruleset=str(ROOT / "cards" / "deluxe"))
    refused = run("replay", "--check", log)
    assert_clean_failure(refused, "E506")
    allowed = run("replay", "--check", log, "--allow-path", ROOT / "cards")
    assert allowed.exit_code == 0, allowed.output
    assert "1 log(s): 1 ok, 0 failed" in allowed.output
    checked = run("validate", log, "--allow-path", ROOT / "cards")
    assert checked.exit_code == 0, checked.output


def test_allow_path_lets_a_scenario_name_a_mod(tmp_path):
    scenario = tmp_path / "gorgon.yaml"
    gorgon = ROOT / "examples" / "mods" / "gorgon"
    scenario.write_text(GORGON_SCENARIOS.replace("cards: [.]", f"cards: [{gorgon}]"))
    assert_clean_failure(run("test", scenario), "E506")
    result = run("test", scenario, "--allow-path", ROOT / "examples" / "mods")
    assert result.exit_code == 0, result.output


def test_paths_inside_the_files_folder_stay_allowed(tmp_path):
    mods = tmp_path / "mods"
    mods.mkdir()
    for name in ("gorgon.dsl", "mod.yaml"):
        (mods / name).write_text((ROOT / "examples" / "mods" / "gorgon" / name).read_text())
    scenario = tmp_path / "gorgon.yaml"
    scenario.write_text(GORGON_SCENARIOS.replace("cards: [.]", "cards: [./mods/]"))
    result = run("test", scenario)
    assert result.exit_code == 0, result.output


def test_a_card_file_linking_out_of_its_mod_folder_is_not_read(secrets):
    outside, inbox = secrets
    mod = inbox / "mod"
    mod.mkdir()
    (mod / "good.dsl").write_text("monster ogre { strength 9 / 12 / 15  wounds 2 }\n")
    (mod / "evil.dsl").symlink_to(outside / "evil.dsl")
    result = run("validate", mod)
    assert_clean_failure(result, "E506")
    assert "evil.dsl" in result.output
    # the same mod named by a log of its folder: refused there too
    result = run("replay", "--check", write_log(inbox, cards="[mod]"))
    assert_clean_failure(result, "E506")


def test_a_mod_yaml_linking_out_of_its_mod_folder_is_not_read(secrets):
    outside, inbox = secrets
    mod = inbox / "mod"
    mod.mkdir()
    (mod / "good.dsl").write_text("monster ogre { strength 9 / 12 / 15  wounds 2 }\n")
    (mod / "mod.yaml").symlink_to(outside / "mod.yaml")
    result = run("validate", mod)
    assert_clean_failure(result, "E506")
    result = run("replay", "--check", write_log(inbox, cards="[mod]"))
    assert_clean_failure(result, "E506")


def test_a_scenario_linking_out_of_a_folder_given_to_test_is_not_read(secrets):
    outside, inbox = secrets
    (inbox / "evil.yaml").symlink_to(outside / "ruleset.yaml")
    result = run("test", inbox)
    assert_clean_failure(result, "E506")
    result = run("replay", "--check", inbox)
    assert_clean_failure(result, "E506")


def test_a_quoted_source_line_is_an_excerpt(tmp_path):
    long_value = "x" * 20_000
    log = tmp_path / "long.yaml"
    log.write_text(GOOD_LOG.replace("ruleset: deluxe", f"ruleset: {long_value}", 1))
    result = run("replay", "--check", log)
    assert result.exit_code == 1
    # the excerpt, the message and the file's path (longer under pytest-xdist's folders)
    assert max(len(line) for line in result.output.splitlines()) < \
        MAX_QUOTE + 400 + len(str(log))
    assert len(result.output) < 5_000


# ---- time and memory: YAML alias bombs ------------------------------------------------------

def _laughs(levels: int = 12, width: int = 10) -> str:
    lines = ['a0: &a0 "lol"']
    for i in range(1, levels):
        refs = ", ".join(f"*a{i - 1}" for _ in range(width))
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines)


@pytest.mark.parametrize("kind", ["log", "scenario", "mod", "ruleset"])
def test_a_billion_laughs_anywhere_is_refused_quickly(tmp_path, kind):
    bomb = _laughs(12)
    if kind == "log":
        path = tmp_path / "bomb.yaml"
        path.write_text(bomb + "\n" + GOOD_LOG.replace("variant: standard", "variant: *a11"))
        args = ["replay", "--check", path]
    elif kind == "scenario":
        path = tmp_path / "bomb.yaml"
        path.write_text(bomb + "\n" + SCENARIO.format(ruleset="deluxe", cards="[]")
                        .replace("name: hostile", "name: *a11"))
        args = ["test", path]
    elif kind == "mod":
        mod = tmp_path / "mod"
        mod.mkdir()
        (mod / "ogre.dsl").write_text("monster ogre { strength 9 / 12 / 15  wounds 2 }\n")
        (mod / "mod.yaml").write_text(bomb + "\nbosses: *a11\n")
        args = ["validate", mod]
    else:
        text = (ROOT / "cards" / "deluxe" / "ruleset.yaml").read_text(encoding="utf-8")
        text = text.replace("cards: [builtin:common, .]", "cards: [builtin:common, builtin:deluxe]")
        path = tmp_path / "ruleset.yaml"
        path.write_text(bomb.replace("a", "zz") + "\n" + text.replace(
            "name: Dungeon Raiders (deluxe edition)", "name: *zz11"))
        args = ["validate", path]
    assert_bounded_failure(*run_bounded(*args), "E507")


def test_an_anchor_alone_is_refused_where_it_stands(tmp_path):
    path = tmp_path / "anchor.yaml"
    path.write_text(GOOD_LOG.replace("variant: standard", "variant: &v standard", 1))
    result = run("replay", "--check", path)
    assert_clean_failure(result, "E507")
    line = next(i + 1 for i, t in enumerate(path.read_text().splitlines())
                if t.startswith("variant:"))
    assert f"anchor.yaml:{line}:10: error[E507]" in result.output, result.output


def test_no_built_in_or_example_yaml_uses_anchors():
    from raiders.formats.yamlsrc import load_documents

    files = [*(ROOT / "cards").rglob("*.yaml"), *(ROOT / "examples").rglob("*.yaml")]
    assert len(files) > 10
    for f in files:
        _, diags = load_documents(f.read_text(encoding="utf-8"), str(f))
        assert not [d for d in diags if d.code == "E507"], f


# ---- sizes --------------------------------------------------------------------------------------

def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as fh:  # no disk used: a hole, read back as zero bytes
        fh.truncate(size)
    return path


def test_a_huge_ruleset_named_by_a_log_is_not_read(tmp_path):
    _sparse(tmp_path / "big.yaml", 3 * 1024 ** 3)
    log = write_log(tmp_path, ruleset="big.yaml")
    proc, took = run_bounded("replay", "--check", log, memory=1024 ** 3)
    assert_bounded_failure(proc, took, "E006")
    assert "big.yaml" in proc.stderr and f"{MAX_FILE_BYTES:,}" in proc.stderr


@pytest.mark.parametrize("command", ["replay", "test", "validate"])
def test_a_huge_log_or_scenario_is_not_read(tmp_path, command):
    path = _sparse(tmp_path / "big.yaml", 3 * 1024 ** 3)
    with open(path, "r+b") as fh:
        fh.write(b"format: raiders-log/1\n" if command != "test" else b"format: x\n")
    assert_bounded_failure(*run_bounded(command, path, memory=1024 ** 3), "E006")


def test_a_huge_card_file_or_mod_yaml_is_not_read(tmp_path):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "ogre.dsl").write_text("monster ogre { strength 9 / 12 / 15  wounds 2 }\n")
    _sparse(mod / "huge.dsl", MAX_FILE_BYTES + 1)
    result = run("validate", mod)
    assert_clean_failure(result, "E006")
    assert "huge.dsl" in result.output
    (mod / "huge.dsl").unlink()
    _sparse(mod / "mod.yaml", MAX_FILE_BYTES + 1)
    assert_clean_failure(run("validate", mod), "E006")


def test_a_billion_copies_in_a_mod_yaml_are_refused(tmp_path):
    mod = tmp_path / "gorgon"
    mod.mkdir()
    (mod / "gorgon.dsl").write_text((ROOT / "examples" / "mods" / "gorgon" / "gorgon.dsl")
                                    .read_text())
    (mod / "mod.yaml").write_text("deck: {gorgon: 1000000000}\n")
    result = run("validate", mod)
    assert_clean_failure(result, "E503")
    assert f"0..{MAX_COPIES}" in result.output
    assert "mod.yaml:1:" in result.output
    (mod / "mod.yaml").write_text(f"deck: {{gorgon: {MAX_COPIES}}}\n")
    assert run("validate", mod).exit_code == 0


def test_a_billion_copies_in_a_ruleset_are_refused(tmp_path):
    text = (ROOT / "cards" / "deluxe" / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("cards: [builtin:common, .]", "cards: [builtin:common, builtin:deluxe]")
    path = tmp_path / "ruleset.yaml"
    path.write_text(text.replace("  goblin: 3 ", "  goblin: 1000000000 ", 1))
    result = run("validate", path)
    assert_clean_failure(result, "E503")
    assert f"count of `goblin` must be a whole number 0..{MAX_COPIES}" in result.output


@pytest.mark.parametrize("number", ["99999999999999999999999", "-99999999999999999999999",
                                    "9" * 5000, "0x" + "f" * 40])
def test_a_huge_number_in_yaml_is_a_diagnostic(tmp_path, number):
    scenario = tmp_path / "big.yaml"
    scenario.write_text(SCENARIO.format(ruleset="deluxe", cards="[]").replace(
        "plays:", f"start: {{A: {{coins: {number}}}}}\nplays:"))
    result = run("test", scenario)
    assert_clean_failure(result, "E301")
    assert "big.yaml:7:" in result.output, result.output
    assert "set_int_max_str_digits" not in result.output
    log = tmp_path / "seed.yaml"
    log.write_text(GOOD_LOG.replace("variant: standard", f"variant: standard\nseed: {number}", 1))
    assert_clean_failure(run("replay", "--check", log), "E301")
    mod = tmp_path / "mod"
    mod.mkdir(exist_ok=True)
    (mod / "ogre.dsl").write_text("monster ogre { strength 9 / 12 / 15  wounds 2 }\n")
    (mod / "mod.yaml").write_text(f"deck: {{ogre: {number}}}\n")
    assert_clean_failure(run("validate", mod), "E301")


def test_the_new_codes_are_known_and_documented():
    docs = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    for code in ("E006", "E506", "E507"):
        assert code in CODES
        assert f"| {code} |" in docs
