"""The VS Code extension's package (editors/vscode/.vscodeignore): vsce leaves out tests and
development files and keeps what the extension runs on. vsce is not needed: its rule is
applied here (a file is left out when it matches a pattern and no `!` pattern; globs with
`**`, `*`, `?`, dot files matched, as vsce's minimatch with `dot: true`)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def _regex(glob: str) -> re.Pattern:
    out, i = "", 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif glob.startswith("**", i):
            out, i = out + ".*", i + 2
        elif glob[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif glob[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(glob[i]), i + 1
    return re.compile(out + r"\Z")


def left_out(path: str) -> bool:
    lines = [s.strip() for s in (EXTENSION / ".vscodeignore").read_text().splitlines()]
    patterns = [s for s in lines if s and not s.startswith("#")]
    ignore = [_regex(p) for p in patterns if not p.startswith("!")]
    keep = [_regex(p[1:]) for p in patterns if p.startswith("!")]
    return any(r.match(path) for r in ignore) and not any(r.match(path) for r in keep)


def test_the_files_the_extension_runs_on_are_packaged():
    shipped = [str(p.relative_to(EXTENSION)) for p in EXTENSION.rglob("*")
               if p.is_file() and p.name != ".vscodeignore"]
    assert {"package.json", "extension.js", "language-configuration.json", "README.md",
            "syntaxes/raiders.tmLanguage.json"} <= set(shipped)
    assert [p for p in shipped if left_out(p)] == []  # every file of the folder today
    for dependency in ("node_modules/vscode-languageclient/package.json",
                       "node_modules/vscode-languageclient/lib/node/main.js",
                       "node_modules/vscode-languageclient/lib/node/main.d.ts"):
        assert not left_out(dependency), dependency


@pytest.mark.parametrize("path", [
    ".vscode/launch.json", ".vscode-test/user-data/x.json", "test/extension.test.js",
    "tests/suite/index.js", "src/extension.ts", "extension.js.map", "tsconfig.json",
    ".eslintrc.json", ".gitignore", "raiders-cards-0.1.0.vsix", "npm-debug.log",
    "node_modules/.bin/vsce", "node_modules/x/lib/y.test.js", "node_modules/x/lib/y.js.map"])
def test_tests_and_development_files_are_left_out(path):
    assert left_out(path)
