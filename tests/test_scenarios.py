"""Every scenario under examples/scenarios passes (each names the rule id it pins)."""
from pathlib import Path

import pytest

from raiders.interpreter.scenarios import run_file

ROOT = Path(__file__).resolve().parent.parent
# Scenario files of the rules, and those a mod keeps in its own folder.
FILES = sorted((ROOT / "examples" / "scenarios").rglob("*.yaml")) + sorted(
    (ROOT / "examples" / "mods").rglob("scenarios*.yaml"))


def _cases():
    for f in FILES:
        for outcome in run_file(str(f)):
            yield pytest.param(outcome, id=f"{f.relative_to(ROOT)}:{outcome.line}")


def test_scenarios_exist():
    assert len(FILES) >= 3


@pytest.mark.parametrize("outcome", list(_cases()))
def test_scenario(outcome):
    assert not outcome.diagnostics, [d.message for d in outcome.diagnostics]
    assert outcome.ok, f"{outcome.name}: " + "; ".join(outcome.differences)
