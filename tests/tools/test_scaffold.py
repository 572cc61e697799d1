"""`raiders new boss|mod NAME`: a mod that checks clean and whose scenarios pass at once."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main


@pytest.mark.parametrize("what", ["boss", "mod"])
def test_a_new_mod_validates_and_its_scenarios_pass(tmp_path, what, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(main, ["new", what, "stone-giant"])
    assert res.exit_code == 0, res.output
    folder = tmp_path / "stone-giant"
    assert sorted(p.name for p in folder.iterdir()) == ["mod.yaml", "scenarios.yaml",
                                                        "stone-giant.dsl"]
    res = runner.invoke(main, ["validate", "stone-giant"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["test", "stone-giant/scenarios.yaml"])
    assert res.exit_code == 0 and "2 passed, 0 failed" in res.output, res.output
    assert runner.invoke(main, ["fmt", "--check", "stone-giant"]).exit_code == 0
    res = runner.invoke(main, ["play", "--cards", "stone-giant", "--seed", "1", "-q"])
    assert res.exit_code == 0, res.output


def test_new_refuses_bad_names_and_existing_folders(tmp_path):
    runner = CliRunner()
    for bad in ("Stone", "9lives", "a b"):
        res = runner.invoke(main, ["new", "boss", bad, "--dir", str(tmp_path)])
        assert res.exit_code == 2 and "cannot be a card id" in res.output
    res = runner.invoke(main, ["new", "boss", "monster", "--dir", str(tmp_path)])
    assert res.exit_code == 2 and "already a card or kind" in res.output
    (tmp_path / "taken").mkdir()
    res = runner.invoke(main, ["new", "mod", "taken", "--dir", str(tmp_path)])
    assert res.exit_code == 2 and "already exists" in res.output
    assert list((tmp_path / "taken").iterdir()) == []


def test_raiders_test_on_a_mod_folder_skips_mod_yaml(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["new", "boss", "stone-giant", "--dir", str(tmp_path)])
    assert res.exit_code == 0
    res = runner.invoke(main, ["test", str(tmp_path / "stone-giant")])
    assert res.exit_code == 0 and "2 passed, 0 failed" in res.output, res.output
