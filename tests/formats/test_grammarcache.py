"""The parser tables are cached in the user's cache folder, keyed by what they depend on, and
a cache file that is not exactly what was written is never used (issue 11)."""
import os
import stat

import pytest
from cachedamage import damage as damage_file

from raiders.formats import grammarcache as G

GRAMMAR = 'start: WORD+\n%import common.WORD\n%ignore " "\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("RAIDERS_CACHE_DIR", str(folder))
    monkeypatch.delenv("RAIDERS_NO_CACHE", raising=False)
    return folder


def _files(folder):
    return sorted(folder.glob("grammar-*.bin"))


def test_written_once_then_read(cache, monkeypatch):
    first = G.lalr_parser(GRAMMAR)
    (written,) = _files(cache)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    built = []
    monkeypatch.setattr("lark.Lark.__init__", lambda *a, **k: built.append(1))
    again = G.lalr_parser(GRAMMAR)  # from the file: lark builds nothing
    assert built == [] and again.parse("a b c") == first.parse("a b c")
    assert _files(cache) == [written]


def test_another_grammar_or_option_is_another_file(cache):
    G.lalr_parser(GRAMMAR)
    G.lalr_parser(GRAMMAR + "\n// edited\n")
    G.lalr_parser(GRAMMAR, maybe_placeholders=False)
    assert len(_files(cache)) == 3


@pytest.mark.parametrize("damage", ["payload", "key", "truncate", "group-writable", "link"])
def test_a_damaged_or_foreign_file_is_not_used(cache, damage):
    G.lalr_parser(GRAMMAR)
    (path,) = _files(cache)
    damage_file(path, damage)
    assert G._read(path, G._key(GRAMMAR, {"parser": "lalr"})) is None
    assert G.lalr_parser(GRAMMAR).parse("x y")  # built from the grammar instead


def test_no_cache_folder_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RAIDERS_NO_CACHE", "1")
    assert G.cache_dir() is None
    assert G.lalr_parser(GRAMMAR).parse("x")
    readonly = tmp_path / "ro"
    readonly.mkdir(mode=0o500)
    monkeypatch.delenv("RAIDERS_NO_CACHE")
    monkeypatch.setenv("RAIDERS_CACHE_DIR", str(readonly / "raiders"))
    assert G.lalr_parser(GRAMMAR).parse("x")  # a folder it cannot write: built, not cached
