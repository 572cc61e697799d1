"""A load whose files checked clean before is answered from the user's cache (formats/libcache.py,
issue 11): the same rules as a load from the text, never a stale one, never from a file that
is not exactly what was written, and without importing the parser or the checker."""
import hashlib
import marshal
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest
from cachedamage import damage as damage_file
from childproc import run_ok
from click.testing import CliRunner

from raiders.formats import libcache, plaindata
from raiders.interpreter.cli import main
from raiders.interpreter.runtime import rules as R
from raiders.interpreter.runtime.describe import compiled, describe
from raiders.interpreter.runtime.rules import LoadError, load_rules, load_rules_afresh
from raiders.interpreter.runtime.sweep import NumberEdit

ROOT = Path(__file__).resolve().parents[2]
MODS = sorted(str(p) for p in (ROOT / "examples" / "mods").iterdir() if p.is_dir())


@attrs.define
class Cache:
    folder: Path
    checked: list  # the loads that parsed and checked (the others came from the cache)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache folder, and no rules kept in this process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RAIDERS_CACHE_DIR", str(folder))
    monkeypatch.delenv("RAIDERS_NO_CACHE", raising=False)
    monkeypatch.setattr(R, "_LOADED", {})
    monkeypatch.setattr(libcache, "BUDGET", libcache.WriteBudget())  # a process of its own
    checked = []
    real = R._checked

    def counting(*args):
        checked.append(args)
        return real(*args)

    monkeypatch.setattr(R, "_checked", counting)
    return Cache(folder, checked)


def load(cache, *args, **kwargs):
    """load_rules in a process that has kept nothing; (rules, whether it parsed and checked)."""
    R._LOADED.clear()
    before = len(cache.checked)
    rules = load_rules(*args, **kwargs)
    return rules, len(cache.checked) > before


def settle(*paths: Path) -> None:
    """Date files and folders a minute back: a load that read files changed in the last
    seconds is not kept (they may have changed while it read them)."""
    then = time.time() - 60
    for top in paths:
        for p in [top, *top.rglob("*")] if top.is_dir() else [top]:
            os.utime(p, (then, then), follow_symlinks=False)


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("lib-*.bin"))


def same_rules(a, b) -> None:
    """Two Rules objects hold the same game: the same cards, words and compiled source."""
    assert (a.ruleset, a.variant, a.deck, a.bosses, a.supply, a.pool, a.boss_facing) == \
        (b.ruleset, b.variant, b.deck, b.bosses, b.supply, b.pool, b.boss_facing)
    assert a.warnings == b.warnings and a.library.sources == b.library.sources
    assert a.library == b.library and a.ruleset.library == b.ruleset.library
    for cid in a.library.cards:
        assert describe(a, cid) == describe(b, cid), cid
        assert compiled(a, cid).source == compiled(b, cid).source, cid


@pytest.fixture
def mod(tmp_path):
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "a.dsl").write_text('treasure chest-a { name "A" chest 3 }\n')
    settle(folder)
    return folder


def test_a_second_load_takes_the_cache(cache):
    first, parsed = load(cache, "deluxe")
    assert parsed and len(cache_files(cache.folder)) == 1
    again, parsed = load(cache, "deluxe")
    assert not parsed and again is not first
    same_rules(first, again)
    lib = again.library  # identity kept where code relies on it
    for info in lib.kinds.values():
        assert info.chain[-1] is info.decl
        assert all(any(k is d for m in lib.modules for d in m.decls) for k in info.chain)
    assert again.variant is again.ruleset.variants[again.variant.name]
    assert again.ruleset.library.cards["dragon"] is lib.cards["dragon"]


@pytest.mark.parametrize("ruleset,variant", [("deluxe", "standard"), ("deluxe", "tactical"),
                                             ("classic", "standard"), ("classic", "quick"),
                                             ("classic", "duel"), ("classic", "solo")])
def test_every_built_in_card_is_the_same_from_the_cache(cache, ruleset, variant):
    fresh = load_rules_afresh(ruleset, variant)
    load(cache, ruleset, variant)
    kept, parsed = load(cache, ruleset, variant)
    assert not parsed
    same_rules(fresh, kept)


@pytest.mark.parametrize("ruleset,pure_yaml", [("deluxe", False), ("classic", False),
                                               ("deluxe", True)])
def test_every_example_mod_is_the_same_from_the_cache(cache, monkeypatch, ruleset, pure_yaml):
    if pure_yaml:  # ruamel reads the YAML: its values must be plain too, or nothing is kept
        monkeypatch.setenv("RAIDERS_PURE_YAML", "1")
    fresh = load_rules_afresh(ruleset, None, (str(ROOT / "examples" / "mods"),))
    load(cache, ruleset, None, (str(ROOT / "examples" / "mods"),))
    kept, parsed = load(cache, ruleset, None, (str(ROOT / "examples" / "mods"),))
    assert not parsed and len(kept.library.sources) > len(load(cache, ruleset)[0].library.sources)
    same_rules(fresh, kept)


def _edit_card(folder: Path) -> None:
    (folder / "a.dsl").write_text('treasure chest-a { name "A" chest 4 }\n')


def _add_card(folder: Path) -> None:
    (folder / "b.dsl").write_text('treasure chest-b { name "B" chest 2 }\n')


def _add_manifest(folder: Path) -> None:
    (folder / "mod.yaml").write_text("deck: {chest-a: 3}\n")


def _add_sub_card(folder: Path) -> None:
    (folder / "deeper").mkdir()
    (folder / "deeper" / "c.dsl").write_text('treasure chest-c { name "C" chest 1 }\n')


@pytest.mark.parametrize("change", [_edit_card, _add_card, _add_manifest, _add_sub_card])
def test_a_changed_mod_is_loaded_again(cache, mod, change):
    first, parsed = load(cache, "deluxe", None, (str(mod),))
    assert parsed and load(cache, "deluxe", None, (str(mod),))[1] is False
    change(mod)
    settle(mod)
    second, parsed = load(cache, "deluxe", None, (str(mod),))
    assert parsed
    assert second.deck != first.deck or second.library.sources != first.library.sources
    assert load(cache, "deluxe", None, (str(mod),))[1] is False  # and kept again


def test_a_changed_manifest_is_loaded_again(cache, mod):
    _add_manifest(mod)
    settle(mod)
    assert load(cache, "deluxe", None, (str(mod),))[0].deck["chest-a"] == 3
    (mod / "mod.yaml").write_text("deck: {chest-a: 2}\n")
    settle(mod)
    second, parsed = load(cache, "deluxe", None, (str(mod),))
    assert parsed and second.deck["chest-a"] == 2


def test_a_mod_that_names_its_raiders_is_checked_against_the_running_one(cache, mod,
                                                                         monkeypatch):
    (mod / "mod.yaml").write_text('deck: {chest-a: 1}\nraiders: ">=0.1"\n')
    settle(mod)
    load(cache, "deluxe", None, (str(mod),))
    assert not load(cache, "deluxe", None, (str(mod),))[1]
    monkeypatch.setattr("raiders.formats.versions.running_version", lambda: "0.0.1")
    with pytest.raises(LoadError) as err:
        load(cache, "deluxe", None, (str(mod),))
    assert [d.code for d in err.value.diagnostics] == ["E509"]


def test_a_link_leading_out_is_refused_even_after_a_clean_load(cache, mod):
    """a.dsl is a link inside the mod, then the same text through a link leading out: E506."""
    (mod / "inside").mkdir()
    (mod / "a.dsl").rename(mod / "inside" / "a.txt")
    (mod / "a.dsl").symlink_to(mod / "inside" / "a.txt")
    outside = mod.parent / "elsewhere.txt"
    shutil.copy(mod / "inside" / "a.txt", outside)
    settle(mod.parent)
    load(cache, "deluxe", None, (str(mod),))
    assert not load(cache, "deluxe", None, (str(mod),))[1]
    (mod / "a.dsl").unlink()
    (mod / "a.dsl").symlink_to(outside)
    settle(mod)
    with pytest.raises(LoadError) as err:
        load(cache, "deluxe", None, (str(mod),))
    assert [d.code for d in err.value.diagnostics] == ["E506"]


def test_another_variant_or_edit_is_another_load(cache):
    load(cache, "deluxe")
    assert load(cache, "deluxe", "tactical")[1]
    edit = (NumberEdit("dragon", 15, 0),)
    edited, parsed = load(cache, "deluxe", None, edits=edit)
    assert parsed and edited.library.cards["dragon"] != load(cache, "deluxe")[0].library.cards[
        "dragon"]
    kept, parsed = load(cache, "deluxe", None, edits=edit)
    assert not parsed and kept.library.cards["dragon"] == edited.library.cards["dragon"]
    assert load(cache, "deluxe", None, edits=(NumberEdit("dragon", 16, 0),))[1]


def test_a_broken_card_is_never_hidden_by_a_clean_load_before_it(cache, mod):
    load(cache, "deluxe", None, (str(mod),))
    (mod / "a.dsl").write_text('treasure chest-a { name "A" chest }\n')
    settle(mod)
    with pytest.raises(LoadError) as err:
        load(cache, "deluxe", None, (str(mod),))
    (diag,) = err.value.diagnostics
    assert (diag.span.path, diag.span.line) == (str(mod / "a.dsl"), 1)


def test_a_broken_variant_card_stops_every_variant(cache, tmp_path):
    """A ruleset checks all its variants' folders: a card broken in the duel folder stops a
    standard game too, cached or not."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    settle(cards)
    load(cache, str(cards / "classic"))
    assert not load(cache, str(cards / "classic"))[1]
    duel = next((cards / "classic" / "variants" / "duel").glob("*.dsl"))
    duel.write_text(duel.read_text() + "\nmonster broken {\n")
    settle(cards)
    with pytest.raises(LoadError):
        load(cache, str(cards / "classic"))


def _forge_class(blob: bytes, parsed: bool = False) -> bytes:
    """The same file, one object renamed to a class that is not on the list, the header's
    hash made right: only the list of classes stands in the way. `parsed`: a file's parse,
    whose data is the table alone (a load's also says what it read, and how many card files)."""
    head, _, payload = blob.partition(b"\n")
    seen, (table, top), files = ((), marshal.loads(payload), 0) if parsed \
        else marshal.loads(payload)
    i = next(i for i, e in enumerate(table) if e[0] == "o")
    table = (*table[:i], ("o", "os.system", table[i][2]), *table[i + 1:])
    payload = marshal.dumps((table, top) if parsed else (seen, (table, top), files))
    fmt, key, _ = head.split(b" ")
    return b" ".join([fmt, key, hashlib.sha256(payload).hexdigest().encode()]) + b"\n" + payload


@pytest.mark.parametrize("damage", ["payload", "key", "garbage", "class", "group-writable",
                                    "link"])
def test_a_damaged_or_foreign_file_is_not_used(cache, damage):
    fresh, _ = load(cache, "deluxe")
    (path,) = cache_files(cache.folder)
    if damage == "class":
        path.write_bytes(_forge_class(path.read_bytes()))
    else:
        damage_file(path, damage)
    again, parsed = load(cache, "deluxe")
    assert parsed  # loaded from the card files instead
    same_rules(fresh, again)


def test_rebuild_builds_only_the_listed_classes():
    classes = libcache._classes()
    data = plaindata.flatten(("a", [1, 2.5, None], {"k": (True,)}), classes)
    assert plaindata.rebuild(data, classes) == ("a", [1, 2.5, None], {"k": (True,)})
    for bad in [((("o", "os.system", ("echo",)),), (0,)),          # a class not on the list
                ((("t", ((5,),)),), (0,)),                        # a reference forward
                ((("t", (compile("1", "x", "eval"),)),), (0,)),   # a value of another type
                ((("d", ((0,),)),), (0,)),                        # a key and no value
                ((("o", "spans.Span", ("p", 1)),), (0,))]:        # too few fields
        with pytest.raises(ValueError):
            plaindata.rebuild(bad, classes)
    with pytest.raises(ValueError):
        plaindata.flatten(object(), classes)  # nothing it cannot rebuild is written
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError):
        plaindata.flatten(loop, classes)


def test_no_cache_writes_nothing(cache, monkeypatch):
    monkeypatch.setenv("RAIDERS_NO_CACHE", "1")
    assert load(cache, "deluxe")[1] and load(cache, "deluxe")[1]
    assert not cache.folder.exists()


def test_a_folder_that_cannot_be_written_is_no_error(cache, monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"  # no folder can be made below a file (even by root)
    blocked.write_text("")
    monkeypatch.setenv("RAIDERS_CACHE_DIR", str(blocked / "raiders"))
    assert load(cache, "deluxe")[1] and load(cache, "deluxe")[1]


def test_files_changed_while_loading_are_not_kept(cache, tmp_path):
    mod = tmp_path / "fresh"
    mod.mkdir()
    (mod / "a.dsl").write_text('treasure chest-a { name "A" chest 3 }\n')  # just now
    load(cache, "deluxe", None, (str(mod),))
    assert load(cache, "deluxe", None, (str(mod),))[1]
    assert not any(cache_files(cache.folder))


def test_the_language_server_never_reads_the_cache(cache, monkeypatch):
    load(cache, "deluxe")
    monkeypatch.setattr(libcache, "fetch", lambda *a: pytest.fail("read the cache"))
    load_rules_afresh("deluxe")


def test_a_load_from_the_cache_imports_no_parser(cache, tmp_path):
    """A fresh `raiders play` answered from the cache imports neither lark, the parser nor the
    checker; its game is the game of a load from the card files (the first run's)."""
    env = {**os.environ, "RAIDERS_CACHE_DIR": str(cache.folder)}
    env.pop("RAIDERS_NO_CACHE", None)
    mods = str(ROOT / "examples" / "mods" / "gorgon")
    code = ("import sys\nfrom raiders.interpreter.cli import main\n"
            "try:\n    main(['play', '--cards', sys.argv[1], '--players', '4', '--bots', 'greedy',"
            " '--seed', '5', '-q', '--log', sys.argv[2]], prog_name='raiders')\n"
            "except SystemExit as stop:\n    assert not stop.code, stop.code\n"
            "print(sorted(m for m in ('lark', 'raiders.dsl.parser', 'raiders.dsl.checker')"
            " if m in sys.modules))\n")
    first = run_ok([sys.executable, "-c", code, mods, str(tmp_path / "a.yaml")], env=env).stdout
    assert "lark" in first and len(cache_files(cache.folder)) == 1
    again = run_ok([sys.executable, "-c", code, mods, str(tmp_path / "b.yaml")], env=env).stdout
    assert again.splitlines()[-1] == "[]"
    assert (tmp_path / "a.yaml").read_bytes() == (tmp_path / "b.yaml").read_bytes()


def test_a_broken_card_is_a_diagnostic_on_the_command_line(cache, mod):
    args = ["play", "--cards", str(mod), "--seed", "1", "-q"]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert len(cache_files(cache.folder)) == 1  # the clean load is kept
    (mod / "a.dsl").write_text('treasure chest-a { name "A" chest oops }\n')
    settle(mod)
    R._LOADED.clear()  # as in a new process: only the cache folder remembers the clean load
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"{mod / 'a.dsl'}:1:" in result.stderr


def test_every_class_a_load_holds_can_be_rebuilt():
    from raiders.interpreter.runtime.rules import _KEPT

    names = libcache._classes(_KEPT).by_name
    assert {"ast.CardDecl", "library.Library", "rulesets.Ruleset", "spans.Span"} <= set(names)
    assert all(attrs.has(c) for c in names.values())


# ---- what a review found (each failed before its fix)

def test_a_folder_named_like_a_card_file_is_seen(cache, tmp_path):
    """A folder of mods holds two mods; an empty folder `notes.dsl` beside them is no card
    file: it neither turns the folder into one mod nor goes unseen by the cache."""
    coll = tmp_path / "coll"
    for name in ("gorgon", "shrine"):
        shutil.copytree(ROOT / "examples" / "mods" / name, coll / name)
    settle(coll)
    first, _ = load(cache, "deluxe", None, (str(coll),))
    (coll / "notes.dsl").mkdir()
    settle(coll)
    again, parsed = load(cache, "deluxe", None, (str(coll),))
    assert parsed  # the folder's entries changed: loaded from the files
    same_rules(again, load_rules_afresh("deluxe", None, (str(coll),)))
    assert again.deck == first.deck  # still two mods


def test_a_file_rewritten_while_it_is_read_is_not_kept(cache, tmp_path, monkeypatch):
    """A card file rewritten during a load, its time set back (cp -p, rsync -t, unzip): the
    load read the old text, so its result is not kept, and the next load reads the new."""
    mod = tmp_path / "mod"
    shutil.copytree(ROOT / "examples" / "mods" / "gorgon", mod)
    settle(mod)
    card = next(mod.glob("*.dsl"))
    old = card.read_text()
    new = old.replace("wounds 2", "wounds 3", 1)
    assert new != old and len(new) == len(old)
    real = R._checked

    def rewritten_meanwhile(*args):
        result = real(*args)
        st = card.stat()
        card.write_text(new)
        os.utime(card, ns=(st.st_atime_ns, st.st_mtime_ns))
        return result

    monkeypatch.setattr(R, "_checked", rewritten_meanwhile)
    R._LOADED.clear()
    load_rules("deluxe", None, (str(mod),))
    assert not cache_files(cache.folder)
    monkeypatch.setattr(R, "_checked", real)
    R._LOADED.clear()
    assert load_rules("deluxe", None, (str(mod),)).library.sources[str(card)] == new


def test_a_cache_folder_others_may_write_to_or_a_pipe_is_not_read(cache):
    load(cache, "deluxe")
    (path,) = cache_files(cache.folder)
    os.chmod(cache.folder, 0o777)
    assert load(cache, "deluxe")[1]  # not read: anyone could have put it there
    os.chmod(cache.folder, 0o700)
    assert not load(cache, "deluxe")[1]
    path.unlink()
    os.mkfifo(path)  # a reader that waited on it would never return
    assert load(cache, "deluxe")[1]


def test_whether_packaging_is_installed_is_part_of_the_key(monkeypatch):
    """`raiders:` in mod.yaml is checked with packaging when it is installed, else by our own
    reading: a cache kept under one must not answer under the other."""
    def afresh() -> str:
        libcache._language_digest.cache_clear()
        libcache._code_digest.cache_clear()
        return libcache._code_digest(())

    with_it = afresh()
    real = libcache.util.find_spec
    monkeypatch.setattr(libcache.util, "find_spec",
                        lambda name: None if name == "packaging" else real(name))
    try:
        assert afresh() != with_it
    finally:
        monkeypatch.undo()
        afresh()


def test_without_the_languages_sources_nothing_is_cached(cache, monkeypatch):
    """An install without the card language's .py files (a zipapp, say) cannot tell one
    version's cache from another's: it keeps nothing, and loads as ever."""
    monkeypatch.setattr(libcache, "__file__", str(Path(cache.folder) / "nowhere" / "x.py"))
    libcache._language_digest.cache_clear()
    libcache._code_digest.cache_clear()
    try:
        assert load(cache, "deluxe")[1] and load(cache, "deluxe")[1]
        assert not [*cache.folder.glob("lib-*.bin"), *cache.folder.glob("ast-*.bin")]
    finally:
        monkeypatch.undo()
        libcache._language_digest.cache_clear()
        libcache._code_digest.cache_clear()


@pytest.mark.parametrize("env,on", [({"RAIDERS_NO_CACHE": "0"}, True),
                                    ({"RAIDERS_NO_CACHE": "no"}, True),
                                    ({"RAIDERS_NO_CACHE": "1"}, False),
                                    ({"RAIDERS_NO_CACHE": "yes"}, False),
                                    ({"RAIDERS_CACHE_DIR": "relative/cache"}, False),
                                    ({"XDG_CACHE_HOME": "relative"}, False)])
def test_when_the_caches_are_on(monkeypatch, tmp_path, env, on):
    from raiders.formats import cachefile

    for name in ("RAIDERS_NO_CACHE", "RAIDERS_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert (cachefile.cache_dir() is not None) == on


def test_the_processs_own_cache_sees_a_sub_mods_manifest_and_every_variant(tmp_path,
                                                                          monkeypatch):
    """load_rules keeps rules per process while their files are unchanged: that includes
    the manifests of the mods in a folder of mods, and the card files of every variant."""
    monkeypatch.setenv("RAIDERS_NO_CACHE", "1")
    monkeypatch.setattr(R, "_LOADED", {})
    coll = tmp_path / "coll"
    shutil.copytree(ROOT / "examples" / "mods" / "shrine", coll / "shrine")
    assert load_rules("deluxe", None, (str(coll),)).deck["shrine-of-ash"] == 1
    manifest = coll / "shrine" / "mod.yaml"
    manifest.write_text(manifest.read_text().replace("shrine-of-ash: 1", "shrine-of-ash: 2"))
    assert load_rules("deluxe", None, (str(coll),)).deck["shrine-of-ash"] == 2
    classic = tmp_path / "classic"
    shutil.copytree(ROOT / "cards", classic / "cards")
    ruleset = classic / "cards" / "classic" / "ruleset.yaml"
    load_rules(str(ruleset), "standard")
    duel = classic / "cards" / "classic" / "variants" / "duel" / "monster.dsl"
    duel.write_text(duel.read_text() + "\nkind broken {\n")
    with pytest.raises(LoadError):
        load_rules(str(ruleset), "standard")


# ---- parsed card files (validate, and loads that miss): one entry per path and text

def _validate(cache_folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "RAIDERS_CACHE_DIR": str(cache_folder)}
    env.pop("RAIDERS_NO_CACHE", None)
    code = ("import sys\nfrom raiders.interpreter.cli import main\n"
            "try:\n    main(['validate', *sys.argv[1:]], prog_name='raiders')\n"
            "finally:\n    print('imported:', sorted(m for m in ('lark', 'raiders.dsl.parser')"
            " if m in sys.modules))\n")
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True)


def test_validate_of_unchanged_files_parses_nothing_and_still_checks(tmp_path, mod):
    """The second `validate` of the same files reads their parses from the cache (no lark,
    no parser) and says the same; a file broken since is parsed and reported, and a check
    error (not a syntax error) is still found in a file whose parse was kept."""
    folder = tmp_path / "cache"
    first = _validate(folder, str(mod))
    again = _validate(folder, str(mod))
    assert first.returncode == again.returncode == 0
    assert "imported: ['lark', 'raiders.dsl.parser']" in first.stdout
    assert "imported: []" in again.stdout
    assert first.stdout.replace(first.stdout.splitlines()[-1], "") == \
        again.stdout.replace(again.stdout.splitlines()[-1], "")
    card = mod / "a.dsl"
    assert 'treasure chest-a {' in card.read_text()
    (mod / "b.dsl").write_text('treasure chest-a { name "A again" chest 3 }\n')
    twice = _validate(folder, str(mod))  # a.dsl's parse kept; the duplicate is the checker's
    assert twice.returncode == 1 and "E401" in twice.stdout + twice.stderr
    assert "imported: ['lark', 'raiders.dsl.parser']" in twice.stdout  # b.dsl is new
    card.write_text('treasure chest-a { name "A" chest 3 \n')  # the closing brace gone
    broken = _validate(folder, str(mod))
    assert broken.returncode == 1 and f"{card.name}:" in broken.stdout + broken.stderr


def test_a_parse_is_kept_per_path(cache, tmp_path):
    """The same text in two files is two entries: a parse holds its file's name, which every
    diagnostic about its cards quotes."""
    from raiders.formats import loader as library

    text = 'treasure chest-a { name "A" chest 3 }\n'
    one, two = tmp_path / "one.dsl", tmp_path / "two.dsl"
    one.write_text(text)
    two.write_text(text)
    library._PARSED.clear()
    library.DISK.parse(one)
    library._PARSED.clear()
    _, module, diags, _ = library.DISK.parse(two)
    assert module.path == str(two) and not diags
    assert len(list(cache.folder.glob("ast-*.bin"))) == 2


def test_a_forged_parse_is_not_used(cache, tmp_path):
    from raiders.formats import loader as library

    card = tmp_path / "a.dsl"
    card.write_text('treasure chest-a { name "A" chest 3 }\n')
    library._PARSED.clear()
    library.DISK.parse(card)
    (path,) = cache.folder.glob("ast-*.bin")
    path.write_bytes(_forge_class(path.read_bytes(), parsed=True))
    library._PARSED.clear()
    _, module, diags, _ = library.DISK.parse(card)  # parsed from the text instead
    assert module is not None and not diags and module.decls[0].id == "chest-a"


@pytest.mark.parametrize("command", [["validate"], ["show", "ogre", "--cards"]])
def test_a_deep_card_from_the_cache_has_the_stack_it_needs(tmp_path, command):
    """Blocks 600 deep check clean and play: the parser raises Python's recursion limit for
    such trees, and so does reading them back from the cache, where no parser runs (a fresh
    process, outside the test session's own raised limit)."""
    folder = tmp_path / "deep"
    folder.mkdir()
    n = 600
    (folder / "cards.dsl").write_text(
        'monster ogre { name "Ogre" strength 9 / 12 / 15  wounds 2\n'
        f' after wound {{ {"{ " * n}wound 1{" }" * n} }}\n}}\n')
    settle(folder)
    env = {**os.environ, "RAIDERS_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("RAIDERS_NO_CACHE", None)
    cmd = [sys.executable, "-m", "raiders", *command, str(folder)]
    for _ in range(2):  # cold; then from the cache (validate: the parsed files; the others:
        # the whole load)
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-800:]


def test_pruning_keeps_the_files_used_last(tmp_path):
    """A cache file read is dated then: pruning drops those unused longest, not those
    written first (the built-in cards, read by every run, outlive a mod's many edits)."""
    from raiders.formats import cachefile

    folder = tmp_path / "cache"
    for name in ("old", "new"):
        assert cachefile.write(folder, folder / f"x-{name}.bin", b"f/1", name, name.encode())
    long_ago = time.time() - 3600
    os.utime(folder / "x-old.bin", (long_ago, long_ago))
    os.utime(folder / "x-new.bin", (long_ago + 60, long_ago + 60))
    assert cachefile.read(folder / "x-old.bin", b"f/1", "old", 100) == b"old"
    cachefile.prune(folder, "x-*.bin", 1)
    assert [p.name for p in folder.glob("x-*.bin")] == ["x-old.bin"]


def test_validate_in_shards_neither_reads_nor_writes_parses(cache, tmp_path, monkeypatch):
    """Issue 23: where a mod is checked in shards (PARALLEL_FROM files and more), the parse
    cache steps aside: two workers writing one folder made a kept parse cost more than a
    parse. A sharded validate writes no parse, and a forged one kept for its file is not
    read (the file's own error is reported); the same folder checked in one piece reads it."""
    from raiders.formats import loader
    from raiders.formats.validate import validate_paths

    if not loader.can_fork():
        pytest.skip("no fork here: the sharded path is not used")
    folder = tmp_path / "mod"
    folder.mkdir()
    for i in range(12):
        (folder / f"c{i:02d}.dsl").write_text(f'treasure chest-{i} {{ name "C{i}" chest 3 }}\n')
    broken = folder / "c00.dsl"
    broken.write_text('treasure chest-0 { name "C0" chest oops }\n')

    def kept() -> list[Path]:  # the mod's own files' parses (the ruleset's are kept as ever)
        names = {f"ast-{libcache._parsed_key(str(f), f.read_text())[:40]}.bin"
                 for f in folder.iterdir()}
        return [f for f in cache.folder.glob("ast-*.bin") if f.name in names]

    monkeypatch.setattr(loader, "PARALLEL_FROM", 4)
    loader._PARSED.clear()
    report = validate_paths([str(folder)])
    assert [d.code for d in report.diagnostics] == ["E104"] and not kept()
    # a clean parse kept for the broken file's very text (as if the cache were wrong)
    clean = loader.Loader(cached=False).parse_text(str(broken),
                                                   'treasure chest-0 { name "C0" chest 3 }\n')
    monkeypatch.setattr(libcache, "FREE_WRITES", 10**6)
    libcache.store_parsed(str(broken), broken.read_text(), clean)
    assert len(kept()) == 1
    loader._PARSED.clear()
    sharded = validate_paths([str(folder)])
    assert [d.code for d in sharded.diagnostics] == [d.code for d in report.diagnostics]
    monkeypatch.setattr(loader, "PARALLEL_FROM", 10**9)
    loader._PARSED.clear()
    in_one_piece = validate_paths([str(folder)])
    assert not [d for d in in_one_piece.diagnostics if d.span.path == str(broken)]


def test_a_run_writes_only_the_parses_its_hits_paid_for(cache, tmp_path, monkeypatch):
    """Issue 23, "the cache never hurts": writing a parse costs up to a parse, so a process
    writes FREE_WRITES parses and then one per two it read back. A mod larger than that is
    kept over a few runs (here 3, then 3 + 4, then the last 3), and every run gives the same
    parses."""
    from raiders.formats import loader

    monkeypatch.setattr(libcache, "FREE_WRITES", 3)
    folder = tmp_path / "mod"
    folder.mkdir()
    files = []
    for i in range(10):
        files.append(folder / f"c{i}.dsl")
        files[-1].write_text(f'treasure chest-{i} {{ name "C{i}" chest 3 }}\n')
    kept, parses = [], []
    for _run in range(4):
        monkeypatch.setattr(libcache, "BUDGET", libcache.WriteBudget())  # a new process
        loader._PARSED.clear()
        parses.append([m for _, m, _, _ in loader.DISK.parse_many(files)])
        kept.append(len(list(cache.folder.glob("ast-*.bin"))))
        assert libcache.BUDGET.writes <= 3 + libcache.BUDGET.hits // 2
    assert kept == [3, 7, 10, 10]
    assert all(run == parses[0] for run in parses)


def test_a_large_load_is_kept_whole_once_its_hits_paid_for_it(cache, tmp_path, monkeypatch):
    """A whole load kept costs half a parse written per card file: a load larger than the
    free writes is kept whole only once the parses it read back pay for it. Here 100 card
    files and the ruleset's own: 40 parses written (all the first run may), then 60 more,
    then the rest and the whole load; the fourth run is answered whole. Every run plays the
    same rules."""
    from raiders.formats import loader

    monkeypatch.setattr(libcache, "FREE_WRITES", 40)
    folder = tmp_path / "mod"
    folder.mkdir()
    for i in range(100):
        (folder / f"c{i:03d}.dsl").write_text(f'treasure chest-{i} {{ name "C{i}" chest 3 }}\n')
    settle(folder)
    wholes, parsed, runs = [], [], []
    for run in range(4):
        monkeypatch.setattr(libcache, "BUDGET", libcache.WriteBudget())  # a new process
        loader._PARSED.clear()
        rules, did_parse = load(cache, "deluxe", None, (str(folder),))
        runs.append(rules)
        parsed.append(did_parse)
        wholes.append(len(cache_files(cache.folder)))
        if run == 0:
            assert len(list(cache.folder.glob("ast-*.bin"))) == 40
    assert wholes == [0, 0, 1, 1] and parsed == [True, True, True, False]
    for rules in runs[1:]:
        same_rules(runs[0], rules)
