"""Bad logs get a positioned diagnostic and exit 1, never a traceback (issue 5)."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "examples" / "logs" / "deluxe-standard-table.yaml").read_text(encoding="utf-8")


def _line_of(text: str, needle: str) -> int:
    return next(i + 1 for i, line in enumerate(text.splitlines()) if needle in line)


# (name, old, new, expected message piece, the line holding `anchor` is where it points)
CASES = [
    ("version", "format: raiders-log/1", "format: raiders-log/2",
     "unknown log format `raiders-log/2`", "format: raiders-log/2"),
    ("unknown card", "treasure-3, gelatinous-cube,", "treasure-3, gelatinous-cub,",
     "unknown room `gelatinous-cub`", "gelatinous-cub,"),
    ("unknown character", "character: thief}", "character: theif}",
     "unknown character `theif`", "theif"),
    ("unknown player", "plays: {Ann: 5, Bob: 3, Cid: key, Dee: 4}",
     "plays: {Ann: 5, Bob: 3, Cid: key, Dex: 4}", "unknown player `Dex`", "Dex: 4"),
    ("illegal play", "plays: {Ann: sword, Bob: 4, Cid: 5, Dee: 3}",
     "plays: {Ann: 2, Bob: 4, Cid: key, Dee: 3}", "illegal play", "Cid: key, Dee: 3}"),
    ("card no longer held", "plays: {Ann: 3, Bob: 1, Cid: 3, Dee: 5}",
     "plays: {Ann: 3, Bob: 1, Cid: 3, Dee: 3}", "not in their hand", "Cid: 3, Dee: 3}"),
    ("missing play", "plays: {Ann: 1, Bob: 2, Cid: 1, Dee: 1}",
     "plays: {Ann: 1, Bob: 2, Cid: 1}", "has no play for Dee", "{Ann: 1, Bob: 2, Cid: 1}"),
    ("yaml error", "plays: {Ann: 1, Bob: 2, Cid: 1, Dee: 1}",
     "plays: {Ann: 1, Bob: 2, Cid: 1, Dee: 1", "YAML", None),
    ("typo in an item", "Cid: key, Dee: 4}", "Cid: kye, Dee: 4}", "did you mean `key`?", "kye"),
    ("nested type error", "Dee: {coins: 5, wounds: 1}", "Dee: {coins: five, wounds: 1}",
     "`coins` takes a whole number", "coins: five"),
    ("boss not last", "[treasure-3-2, goblin, item-vault, lava, treasure-2]",
     "[necromancer, goblin, item-vault, lava, treasure-2]",
     "can only be the last room", "[necromancer, goblin"),
    ("difficulty outside solo", "variant: standard", "variant: standard\ndifficulty: 3",
     "for solo play only", "difficulty: 3"),
    ("player not a map", "  - {name: Cid, character: thief}", "  - Cid",
     "a player is a YAML map", "  - Cid"),
]


@pytest.mark.parametrize("name,old,new,message,anchor", CASES, ids=[c[0] for c in CASES])
def test_bad_log(tmp_path, name, old, new, message, anchor):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert message in result.output, result.output
    if anchor is not None:
        assert f"bad.yaml:{_line_of(text, anchor)}:" in result.output, result.output


def test_good_log_passes():
    result = CliRunner().invoke(main, ["replay", "--check",
                                       str(ROOT / "examples" / "logs")])
    assert result.exit_code == 0, result.output
    assert "7 log(s): 7 ok, 0 failed" in result.output


def test_wrong_checkpoint_names_room_field_and_values(tmp_path):
    text = GOOD.replace("Dee: {coins: 5, wounds: 1}", "Dee: {coins: 6, wounds: 1}", 1)
    path = tmp_path / "cp.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--check", str(path)])
    assert result.exit_code == 1
    assert "floor 1, room 3 (item-vault): Dee.coins: expected 6, got 5" in result.output


def test_a_log_spec_with_a_gap_and_no_seed_is_a_diagnostic_not_a_traceback(tmp_path):
    """read_log lets a log leave a character out only when it gives a seed to deal it; a spec
    built otherwise (without read_log's check) gets E503 from build_game, not an
    AttributeError on the missing seed deal (found by the type checker)."""
    from raiders.dsl.diagnostics import Problems
    from raiders.interpreter.records.logs import read_log
    from raiders.interpreter.records.replay import build_game

    log = tmp_path / "game.yaml"
    log.write_text(GOOD, encoding="utf-8")
    spec = read_log(str(log))
    assert spec.meta.seed is None
    spec.characters[0] = None
    with pytest.raises(Problems) as err:
        build_game(spec)
    (diag,) = err.value.diagnostics
    assert diag.code == "E503" and "gives no `seed`" in diag.message
