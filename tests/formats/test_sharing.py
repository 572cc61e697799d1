"""Sharing and reviewing mods (issue 10): mod.yaml's name, version and the raiders it needs;
two mods defining one id; `raiders diff`."""
import shutil
from pathlib import Path

from click.testing import CliRunner

from raiders.formats.versions import _fallback, satisfies
from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
GORGON = ROOT / "examples" / "mods" / "gorgon"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_version_specifiers_with_and_without_packaging():
    for spec, have, want in ((">=0.1", "0.1.0", True), (">=0.2", "0.1.0", False),
                             (">=0.1,<1", "0.3", True), ("0.1", "0.1.0", True),
                             ("==0.1", "0.1.0", True), ("!=0.1", "0.1.0", False)):
        assert satisfies(spec, have) is want, spec
        assert _fallback(spec if spec[0] in "<>=!~" else ">=" + spec, have) is want, spec
    assert satisfies("hello") is None


def test_mod_yaml_names_the_mod_and_the_raiders_it_needs(tmp_path):
    mod = tmp_path / "stone"
    shutil.copytree(GORGON, mod)
    (mod / "mod.yaml").write_text('name: Stone Gorgon\nversion: "1.2"\nraiders: ">=0.1"\n'
                                  "bosses: [gorgon]\nrulesets: [deluxe]\n")
    assert run("validate", mod).exit_code == 0
    (mod / "mod.yaml").write_text('raiders: ">=99"\nbosses: [gorgon]\n')
    out = run("play", "--cards", mod, "--seed", "1", "-q")
    assert out.exit_code == 1 and "error[E509]: the mod needs raiders >=99" in out.stderr
    (mod / "mod.yaml").write_text('raiders: "soon"\nbosses: [gorgon]\n')
    assert "E503" in run("validate", mod).stderr


def test_two_mods_defining_one_id_are_named_not_merged(tmp_path):
    for name in ("a", "b"):
        shutil.copytree(GORGON, tmp_path / name)
    (tmp_path / "b" / "mod.yaml").write_text("name: Gorgon Redux\nbosses: [gorgon]\n")
    out = run("play", "--cards", tmp_path / "a", "--cards", tmp_path / "b", "--seed", "1")
    assert out.exit_code == 1
    assert "card id `gorgon` is defined by mod gorgon" not in out.stderr  # named by mod.yaml
    assert "is defined by mod a (" in out.stderr and "and by mod Gorgon Redux (" in out.stderr
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "t.dsl").write_text('monster troll { name "T" strength 1 / 2 / 3 '
                                          "wounds 1 }\n")
    out = run("play", "--cards", tmp_path / "c", "--seed", "1")
    assert "`troll` is defined by the deluxe ruleset and by mod c (" in out.stderr


def _changed_copy(tmp_path, name="new"):
    new = tmp_path / name
    shutil.copytree(GORGON, new)
    card = new / "gorgon.dsl"
    card.write_text(card.read_text().replace("wounds 2", "wounds 3"))
    return new


def test_diff_of_two_folders_is_a_markdown_review(tmp_path):
    new = _changed_copy(tmp_path)
    out = run("diff", GORGON, new, "--games", "12", "--jobs", "1", "--players", "3")
    assert out.exit_code == 0, out.output
    text = out.stdout
    assert "| `gorgon` | changed |" in text
    assert "take 2 wounds" in text.split("After:")[0] and "take 3 wounds" in text
    assert "-  wounds 2\n+  wounds 3" in text
    assert "| card.gorgon.wounds |" in text and "12 games on seeds 1..12" in text
    # posted in the mod's repository, a relative link to raiders' docs would be dead (issue 24)
    assert "](docs/" not in text and "`docs/simulate.md`" in text
    same = run("diff", GORGON, GORGON, "--games", "0")
    assert same.exit_code == 0 and "No card and nothing in `mod.yaml` changed" in same.stdout
    assert run("diff", GORGON, tmp_path / "nowhere").exit_code == 1  # neither folder nor REV:


def test_diff_reads_a_git_revision_without_a_checkout(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    shutil.copytree(GORGON, repo / "gorgon")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.chdir(repo)
    import subprocess

    for args in (["init", "-q"], ["add", "gorgon"], ["commit", "-q", "-m", "one"]):
        subprocess.run(["git", *args], check=True)
    card = repo / "gorgon" / "gorgon.dsl"
    card.write_text(card.read_text().replace("wounds 2", "wounds 3"))
    out = run("diff", "HEAD:gorgon", "gorgon", "--games", "0")
    assert out.exit_code == 0, out.output
    assert "## raiders diff: `HEAD:gorgon` → `gorgon`" in out.stdout
    assert "+  wounds 3" in out.stdout
    bad = run("diff", "nosuchrev:gorgon", "gorgon", "--games", "0")
    assert bad.exit_code == 1 and "git ls-tree" in bad.stderr
    # a REV that git would take for an option (issue 27): refused, before git runs
    for rev in ("--output=written", "-h", "--end-of-options"):
        bad = run("diff", "--games", "0", "--", f"{rev}:gorgon", "gorgon")
        assert bad.exit_code == 1, bad.output
        assert f"`{rev}` in `{rev}:gorgon` is not a revision: it starts with `-`" in bad.stderr
    assert not list(repo.glob("written*"))


def test_diff_sees_a_change_of_the_rulesets_a_mod_is_for(tmp_path):
    import shutil

    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    root = Path(__file__).resolve().parents[2] / "examples" / "mods" / "tutorial-boss"
    shutil.copytree(root, tmp_path / "a")
    shutil.copytree(root, tmp_path / "b")
    manifest = tmp_path / "b" / "mod.yaml"
    manifest.write_text("\n".join(line for line in manifest.read_text().splitlines()
                                  if not line.startswith("rulesets")) + "\n")
    out = CliRunner().invoke(main, ["diff", str(tmp_path / "a"), str(tmp_path / "b"),
                                    "--games", "0"]).output
    assert "- rulesets: deluxe → any" in out
