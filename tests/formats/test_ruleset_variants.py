"""A variant's card folder replaces the ruleset's kinds and cards of the same name
(formats/rulesets.py `ruleset_library`); an `extend KIND { … }` (docs/dsl.md) replaces nothing,
in the variant's folder or in the ruleset's, and is kept. Found by the type checker: the
replacing read a card's `id` off every declaration, and an `extend` has none (a traceback)."""
import shutil
from pathlib import Path

from click.testing import CliRunner

from raiders.formats.rulesets import ruleset_library
from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXTEND_TRAP = "extend trap {\n  playable torch as 2\n}\n"
EXTEND_MONSTER = "extend monster {\n  playable torch as 2\n}\n"


def _classic(tmp_path: Path) -> Path:
    """A copy of the classic ruleset, its card folder on its own (the common cards built in)."""
    folder = tmp_path / "classic"
    shutil.copytree(ROOT / "cards" / "classic", folder)
    return folder


def test_an_extend_in_a_variants_folder_is_added_and_replaces_nothing(tmp_path):
    classic = _classic(tmp_path)
    duel = classic / "variants" / "duel"
    (duel / "torch.dsl").write_text(EXTEND_TRAP, encoding="utf-8")
    common = str(ROOT / "cards" / "common")
    lib = ruleset_library([common, str(classic)], (str(duel),),
                          exclude={str(classic / "variants")})
    assert not lib.diagnostics
    assert [e.kind for e in lib.kinds["trap"].extensions] == ["trap"]
    # the duel's own `monster` kind still replaces the common one (C-9: no defeating)
    assert lib.kinds["monster"].decl.span.path == str(duel / "monster.dsl")


def test_an_extend_in_the_rulesets_folder_is_kept_beside_a_variants_replacement(tmp_path):
    classic = _classic(tmp_path)
    (classic / "torch.dsl").write_text(EXTEND_MONSTER, encoding="utf-8")
    duel = classic / "variants" / "duel"
    common = str(ROOT / "cards" / "common")
    lib = ruleset_library([common, str(classic)], (str(duel),),
                          exclude={str(classic / "variants")})
    assert not lib.diagnostics
    assert [e.span.path for e in lib.kinds["monster"].extensions] == [str(classic / "torch.dsl")]


def test_validate_checks_a_ruleset_whose_variant_extends_a_kind(tmp_path):
    classic = _classic(tmp_path)
    (classic / "variants" / "solo" / "torch.dsl").write_text(EXTEND_TRAP, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(classic / "ruleset.yaml")])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "no problems found" in result.output
