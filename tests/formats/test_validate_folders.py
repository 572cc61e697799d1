"""`raiders validate A B`: card files no ruleset covers are checked together as one mod, even
from several folders (docs/dsl.md, Checking your cards). A reviewer gave two versions of one
mod (`lich-boss`, `lich-weak`) and read only "card id `lich` is defined twice … ids must be
unique in a ruleset": the E401 now says the folders were checked as one and how to check them
one at a time."""
import shutil
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main

LICH = Path(__file__).resolve().parents[1] / "runtime" / "fixtures" / "lich"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _two_versions(tmp_path: Path) -> tuple[Path, Path]:
    strong, weak = tmp_path / "lich-boss", tmp_path / "lich-weak"
    shutil.copytree(LICH, strong)
    shutil.copytree(LICH, weak)
    card = weak / "lich.dsl"
    card.write_text(card.read_text().replace("strength 13 / 18 / 22", "strength 8 / 10 / 12"))
    return strong, weak


def test_two_versions_of_a_mod_in_two_folders_are_told_to_validate_one_at_a_time(tmp_path):
    strong, weak = _two_versions(tmp_path)
    for folder in (strong, weak):
        alone = run("validate", folder)
        assert alone.exit_code == 0, alone.output
    both = run("validate", strong, weak)
    assert both.exit_code == 1
    err = both.stderr
    assert "error[E401]" in err and str(weak / "lich.dsl") + ":2:6" in err, err
    # the lich and the soul drain, each defined in both folders, each said once
    assert err.count("error[E401]") == 2, err
    assert (f"card id `lich` is defined in two of the folders checked together: {strong} and "
            f"{weak}") in err, err
    assert "checks the card files of every folder it is given as one mod" in err, err
    assert f"raiders validate {strong} && raiders validate {weak}" in err, err
    assert "ids must be unique in a ruleset" not in err, err


def test_a_duplicate_inside_one_folder_keeps_the_plain_e401(tmp_path):
    strong, _ = _two_versions(tmp_path)
    (strong / "copy.dsl").write_text((strong / "lich.dsl").read_text())
    out = run("validate", strong)
    assert out.exit_code == 1 and "card id `lich` is defined twice" in out.stderr, out.stderr
    assert "one at a time" not in out.stderr and "&&" not in out.stderr, out.stderr


def test_a_kind_defined_in_two_folders_is_told_so_too(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "k.dsl").write_text("kind shrine() { }\n")
    out = run("validate", tmp_path / "a", tmp_path / "b")
    assert out.exit_code == 1, out.output
    assert (f"kind `shrine` is defined in two of the folders checked together: {tmp_path / 'a'}"
            f" and {tmp_path / 'b'}") in out.stderr, out.stderr



def _ogre_mod(tmp_path, name: str, manifest: str):
    """A mod folder under tmp_path/mods with one monster card and the manifest given."""
    mod = tmp_path / "mods" / name
    mod.mkdir(parents=True)
    (mod / "mod.yaml").write_text(manifest)
    (mod / "ogre.dsl").write_text('monster ogre { name "Ogre" strength 9 / 12 / 15  wounds 2 }\n')
    return mod

def test_one_mod_is_checked_on_the_ruleset_its_mod_yaml_names(tmp_path):
    """A classic mod whose deck names a deluxe-only boss: checked alone it was checked on
    deluxe (a warning, exit 0) while the same mod in a folder of mods was checked on classic
    (E502): a game on classic would not load it. Both now check it on classic."""
    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    mod = _ogre_mod(tmp_path, "classic-ogre", "rulesets: [classic]\ndeck: {mummy: 1}\n")
    for path in (mod, tmp_path / "mods"):
        result = CliRunner().invoke(main, ["validate", str(path)])
        assert result.exit_code == 1, result.output
        assert "error[E502]" in result.output and "`mummy`" in result.output
    # told which ruleset to build on, and it is one the mod names: that one
    assert CliRunner().invoke(main, ["validate", "--base", "classic", str(mod)]).exit_code == 1


def test_a_mod_naming_no_built_in_ruleset_is_checked_on_base_with_its_own_diagnostic(tmp_path):
    """`rulesets: [delux]` is the manifest's typo (E503, with the name to use), not a ruleset
    to build on: checked on --base, alone or among other mods (it gave `unknown base ruleset`
    at `delux:1:1` and "nothing to check" among other mods)."""
    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    mod = _ogre_mod(tmp_path, "typo", "rulesets: [delux]\n")
    for path in (mod, tmp_path / "mods"):
        result = CliRunner().invoke(main, ["validate", str(path)])
        assert result.exit_code == 1, result.output
        assert "error[E503]" in result.output and "deluxe" in result.output
        assert "unknown base ruleset" not in result.output and "nothing to check" not in \
            result.output
