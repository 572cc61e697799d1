"""A mod's check kept between edits (formats/incremental.py): after every edit its diagnostics
are those of a fresh full check of the same buffers (`validate_paths` with the same loader),
and an edit re-checks only the files it can change."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raiders.formats.incremental import ModCheck
from raiders.formats.loader import Loader
from raiders.formats.rulesets import load_ruleset, resolve_ruleset_path
from raiders.formats.validate import _key, validate_paths

SHRINE = """vault lamp-shrine {{
  name "Shrine"
  rewards {{
    1 -> give {item}
    2 -> gain 1 coin
    3 -> gain 2 coins
    4 -> gain 3 coins
    5 -> {five}
  }}
}}
"""
IMP = """monster imp {{
  name "Imp"
  strength {s} / 7 / 9
  wounds 1{rule}
}}
"""
# Each file of the mod, and the texts an edit may give it (None: no such file).
VARIANTS: dict[str, list] = {
    "items.dsl": [
        'item lamp {\n  name "Lamp"\n}\n',
        'item lantern {\n  name "Lantern"\n}\n',  # renamed: the shrine's `give lamp` breaks
        "",
        'item lamp {\n  name "Lamp"\n',  # syntax broken
        'status dazed {\n  name "Dazed"\n  after room { you: lose 1 coin }\n}\n'
        'item lamp { name "Lamp" }\n',
        'item lamp { name "Lamp" }\nitem lamp { name "Lamp again" }\n',  # twice in a file
    ],
    "shrine.dsl": [
        SHRINE.format(item="lamp", five="wound 1"),
        SHRINE.format(item="lantern", five="wound 1"),
        SHRINE.format(item="lamp", five="next_room: mark dazed"),  # W605 with `dazed`
        SHRINE.format(item="lamp", five="wound 1").replace("rewards {", "rewards {{"),
        None,
    ],
    "imp.dsl": [
        IMP.format(s=5, rule=""),
        IMP.format(s=6, rule=""),
        IMP.format(s=5, rule="\n  after wound { everyone: wound 1 }"),  # W602
        IMP.format(s=5, rule="") + 'treasure lamp-shrine { name "Clash"  chest 2 }\n',
        IMP.format(s=5, rule="").replace("monster imp", "beast imp"),
        'monster imp {\n  name "Imp"\n  strength 5 / 7 / 9\n}\n',  # E201
    ],
    "kinds.dsl": [None, "kind beast : monster(wounds = 2) { }\n", "kind beast : monstr { }\n"],
    "mod.yaml": [None, "items: {lamp: 2}\ndeck: {lamp-shrine: 1, imp: 1}\n",
                 "deck: {lamp-shrine: 1, ghost: 1}\n", "bosses: [imp]\n", "dek: {imp: 1}\n",
                 "items: {lamp: 1}\ndeck: {imp: 1}\n"],  # W604: no room dealt gives the lamp
}


@pytest.fixture(scope="module")
def deluxe():
    return load_ruleset(resolve_ruleset_path("deluxe"))[0]


class Editor:
    """A mod folder as an editor sees it: files on disk, some open with unsaved text."""

    def __init__(self, folder: Path, deluxe):
        self.folder = folder
        self.buffers: dict[str, str] = {}
        self.kept = ModCheck(folder.resolve(), deluxe)
        for name, texts in VARIANTS.items():
            if texts[0] is not None:
                (folder / name).write_text(texts[0])

    def type(self, name: str, text) -> None:
        """Unsaved text in an open buffer (None: the buffer closed, the disk again)."""
        path = str((self.folder / name).resolve())
        if text is None:
            self.buffers.pop(path, None)
        else:
            self.buffers[path] = text

    def write(self, name: str, text) -> None:
        """A file written on disk (None: deleted), as a save or a `git checkout` does."""
        path = self.folder / name
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(text)
        self.kept.changed_on_disk([str(path)])

    def same_as_a_full_check(self) -> list:
        loader = Loader.of_texts(self.buffers)
        got = self.kept.check(loader)
        assert got is not None
        fresh = validate_paths([str(self.folder)], loader=loader).diagnostics
        assert sorted({_key(d) for d in got}) == sorted(_key(d) for d in fresh)
        return [d.code for d in fresh]


def test_an_edit_sequence_gives_the_full_checks_diagnostics(tmp_path, deluxe):
    """Add an id, remove one another file names, break the syntax, fix it, clash, kinds."""
    ed = Editor(tmp_path, deluxe)
    assert ed.same_as_a_full_check() == ["E410"]  # no mod.yaml: the supply has no lamp
    ed.type("items.dsl", VARIANTS["items.dsl"][1])  # `lamp` gone, `lantern` added
    assert "E103" in ed.same_as_a_full_check()
    assert set(ed.kept.rechecked) >= {str(tmp_path.resolve() / "shrine.dsl")}
    ed.type("shrine.dsl", VARIANTS["shrine.dsl"][1])  # it gives `lantern` now
    assert ed.same_as_a_full_check() == ["E410"]
    ed.type("items.dsl", VARIANTS["items.dsl"][3])  # syntax broken, then fixed
    assert ed.same_as_a_full_check() == ["E003", "E103"]
    ed.type("items.dsl", None)
    ed.type("shrine.dsl", VARIANTS["shrine.dsl"][3])
    assert ed.same_as_a_full_check() == ["E003"]
    ed.type("shrine.dsl", None)
    ed.type("imp.dsl", VARIANTS["imp.dsl"][3])  # `lamp-shrine` twice: E401
    assert "E401" in ed.same_as_a_full_check()
    ed.type("imp.dsl", VARIANTS["imp.dsl"][2])  # W602
    assert ed.same_as_a_full_check() == ["W602"]
    ed.write("kinds.dsl", VARIANTS["kinds.dsl"][1])  # a new file with a kind
    ed.type("imp.dsl", VARIANTS["imp.dsl"][4])
    assert ed.same_as_a_full_check() == ["E410"]
    ed.write("mod.yaml", VARIANTS["mod.yaml"][2])
    assert ed.same_as_a_full_check() == ["E502"]
    ed.type("new.dsl", "treasure urn { chest 2 }\n")  # a new card, not yet saved
    assert ed.same_as_a_full_check() == ["E502"]
    ed.write("kinds.dsl", None)
    assert ed.same_as_a_full_check() == ["E101", "E502"]


def test_an_edit_that_keeps_the_ids_rechecks_only_its_file(tmp_path, deluxe):
    ed = Editor(tmp_path, deluxe)
    ed.same_as_a_full_check()
    assert len(ed.kept.rechecked) == 3  # the first check: every file
    imp = str(tmp_path.resolve() / "imp.dsl")
    for s in (6, 7, 8):
        ed.type("imp.dsl", IMP.format(s=s, rule=""))
        assert ed.same_as_a_full_check() == ["E410"]
        assert ed.kept.rechecked == [imp]
    ed.type("imp.dsl", VARIANTS["imp.dsl"][5])  # a problem of its own: still only its file
    assert ed.same_as_a_full_check() == ["E201"]
    assert ed.kept.rechecked == [imp]
    ed.same_as_a_full_check()
    assert ed.kept.rechecked == [imp]  # (nothing changed: the last answer)


def test_a_folder_that_is_not_one_plain_mod_is_left_to_the_full_check(tmp_path, deluxe):
    Editor(tmp_path, deluxe)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mod.yaml").write_text("deck: {}\n")
    assert ModCheck(tmp_path.resolve(), deluxe).check(Loader.of_texts({})) is None


EDITS = st.lists(st.tuples(st.sampled_from(sorted(VARIANTS)), st.integers(0, 5),
                           st.sampled_from(["type", "write", "close"])), max_size=8)


@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_random_edit_sequences_give_the_full_checks_diagnostics(tmp_path_factory, deluxe,
                                                                 edits):
    ed = Editor(tmp_path_factory.mktemp("mod"), deluxe)
    ed.same_as_a_full_check()
    for name, i, how in edits:
        texts = VARIANTS[name]
        text = texts[i % len(texts)]
        if how == "close" or (how == "type" and (name == "mod.yaml" or text is None)):
            ed.type(name, None)  # (mod.yaml is read from the disk, as `validate` reads it)
        elif how == "type":
            ed.type(name, text)
        else:
            ed.write(name, text)
        ed.same_as_a_full_check()


def test_w604_walks_only_the_edited_cards_and_mod_yaml_is_checked_again(tmp_path, deluxe,
                                                                         monkeypatch):
    """W604 (an item mod.yaml adds that no card gives) asks every card dealt or in play what
    it hands out: an edit reads again the edited file's cards only, not the mod's or the
    ruleset's; a changed mod.yaml or a kind's extension is judged again, as a full check."""
    import raiders.dsl.checker as checker

    shrine = "vault lamp-shrine {{ rewards {{ 1 -> give lamp  2 -> {two}  3 -> gain 2 coins" \
        "  4 -> gain 3 coins  5 -> heal 1 }} }}\n"
    (tmp_path / "shrine.dsl").write_text(shrine.format(two="gain 1 coin"))
    (tmp_path / "items.dsl").write_text(
        'item lamp { name "Lamp" }\nitem charm { name "Charm" }\nitem bell { name "Bell" }\n')
    for i in range(12):
        (tmp_path / f"imp{i}.dsl").write_text(IMP.format(s=5, rule="").replace("imp", f"imp{i}"))
    (tmp_path / "mod.yaml").write_text("items: {lamp: 1, charm: 1}\ndeck: {lamp-shrine: 1}\n")
    kept = ModCheck(tmp_path.resolve(), deluxe)
    buffers: dict[str, str] = {}
    walked: list[str] = []
    card_text = checker._card_text

    def counted(lib, cid):
        walked.append(cid)
        return card_text(lib, cid)

    monkeypatch.setattr(checker, "_card_text", counted)

    def check() -> tuple[list[str], set[str]]:
        """The kept check's codes (those of a full check) and the cards it walked."""
        walked.clear()
        loader = Loader.of_texts(buffers)
        got = kept.check(loader)
        read = set(walked)
        fresh = validate_paths([str(tmp_path)], loader=loader).diagnostics
        assert got is not None and sorted({_key(d) for d in got}) == sorted(map(_key, fresh))
        return [d.code for d in fresh], read

    codes, read = check()
    assert codes == ["W604"] and len(read) > 20  # the first check: every card of the game
    buffers[str(tmp_path.resolve() / "imp3.dsl")] = \
        IMP.format(s=6, rule="").replace("imp", "imp3")  # a room not dealt
    assert check() == (["W604"], set())
    buffers[str(tmp_path.resolve() / "shrine.dsl")] = shrine.format(two="give charm")
    assert check() == ([], {"lamp-shrine"})  # the dealt room gives the charm now
    (tmp_path / "mod.yaml").write_text("items: {lamp: 1, charm: 1, bell: 1}\n"
                                       "deck: {lamp-shrine: 1}\n")
    kept.changed_on_disk([str(tmp_path / "mod.yaml")])
    codes, _ = check()
    assert codes == ["W604"]  # the bell: mod.yaml judged again
    (tmp_path / "kinds.dsl").write_text("extend vault { after room { everyone: give bell } }\n")
    kept.changed_on_disk([str(tmp_path / "kinds.dsl")])
    assert check()[0] == []  # every vault gives it now: a kind's rules are each card's too


def test_a_mod_whose_every_card_file_is_deleted_is_checked_again(tmp_path, deluxe):
    """The listing that finds no card file any more is a change like any other (it answered
    with the last check's diagnostics: mod.yaml's boss still found)."""
    (tmp_path / "imp.dsl").write_text(IMP.format(s=5, rule=""))
    (tmp_path / "mod.yaml").write_text("bosses: [imp]\n")
    kept = ModCheck(tmp_path.resolve(), deluxe)
    assert kept.check(Loader.of_texts({})) == []
    (tmp_path / "imp.dsl").unlink()
    got = kept.check(Loader.of_texts({}))
    fresh = validate_paths([str(tmp_path)]).diagnostics
    assert [d.code for d in fresh] == ["E502"]
    assert sorted(map(_key, got)) == sorted(map(_key, fresh))
