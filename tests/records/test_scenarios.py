"""Every scenario under examples/scenarios passes (each names the rule id it pins).

Collection only lists the files; each file's scenarios are read and run inside its test.
"""
from pathlib import Path

import pytest

from raiders.interpreter.records.scenarios import run_file

ROOT = Path(__file__).resolve().parents[2]
# Scenario files of the rules, and those a mod keeps in its own folder.
FILES = sorted((ROOT / "examples" / "scenarios").rglob("*.yaml")) + sorted(
    (ROOT / "examples" / "mods").rglob("scenarios*.yaml"))


def test_scenarios_exist():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[f.relative_to(ROOT).as_posix() for f in FILES])
def test_scenario_file(path):
    # the mods' scenarios name their mod in examples/mods, outside their own folder
    outcomes = run_file(str(path), allow=[str(ROOT / "examples" / "mods")])
    assert outcomes, f"{path}: no scenario"
    failed = []
    for o in outcomes:
        if o.diagnostics:
            failed.append(f"{o.line}: {o.name}: " + "; ".join(d.message for d in o.diagnostics))
        elif not o.ok:
            failed.append(f"{o.line}: {o.name}: " + "; ".join(o.differences))
    assert not failed, f"{len(failed)} of {len(outcomes)} scenario(s) failed:\n" + "\n".join(failed)
