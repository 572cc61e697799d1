"""docs/first-boss.md is followed to the letter in an empty folder of the reader's own (issue
24): every file it says to write is written, every `$ raiders …` command in a ```text block is
run there, and its output must be what the tutorial prints (a line `…` stands for any lines
left out). The steps the prose asks for are marked in the page by comments a reader does not
see: `<!-- doc-test: write PATH -->` (the next code block is the file), `append PATH`, and
`edit PATH: OLD => NEW`."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main

DOC = Path(__file__).resolve().parent.parent / "docs" / "first-boss.md"
STEP = re.compile(r"<!-- doc-test: (write|append|edit) ([^:\s]+)(?:: (.*?))? -->\s*"
                  r"(?:```\w*\n(.*?)```)?", re.S)
COMMAND = re.compile(r"```text\n\$ (raiders .*?)\n(.*?)```", re.S)


def steps(text: str):
    """The page's steps in order: ("write"|"append"|"edit", path, arg) and ("run", cmd, out)."""
    found = [(m.start(), (m.group(1), m.group(2), m.group(4) if m.group(1) != "edit"
                          else m.group(3))) for m in STEP.finditer(text)]
    found += [(m.start(), ("run", m.group(1), m.group(2))) for m in COMMAND.finditer(text)]
    return [s for _, s in sorted(found)]


def matches(expected: list[str], actual: list[str]) -> bool:
    """The expected lines in order, `…` standing for any run of actual lines."""
    if not expected:
        return not actual
    if expected[0] == "…":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


def test_the_tutorial_works_in_a_folder_of_ones_own(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    ran = 0
    for kind, path, arg in steps(DOC.read_text(encoding="utf-8")):
        if kind in ("write", "append"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w" if kind == "write" else "a", encoding="utf-8") as f:
                f.write(arg)
        elif kind == "edit":
            old, new = arg.split(" => ")
            text = Path(path).read_text(encoding="utf-8")
            assert old in text, f"edit {path}: `{old}` is not in it"
            Path(path).write_text(text.replace(old, new, 1), encoding="utf-8")
        else:
            result = CliRunner().invoke(main, shlex.split(path)[1:])
            actual = result.output.rstrip("\n").split("\n")
            expected = arg.rstrip("\n").split("\n")
            assert matches(expected, actual), (
                f"$ {path}\n--- the tutorial says:\n{arg}--- it prints:\n{result.output}")
            ran += 1
    assert ran >= 10
    assert not Path(tmp_path / "examples").exists()  # nothing but the reader's own folder


@pytest.mark.parametrize("expected,actual,ok", [
    (["a", "…", "d"], ["a", "b", "c", "d"], True),
    (["a", "…"], ["a"], True),
    (["a", "d"], ["a", "b", "d"], False),
    (["…", "x"], ["a", "b"], False),
])
def test_an_ellipsis_stands_for_any_lines(expected, actual, ok):
    assert matches(expected, actual) is ok
