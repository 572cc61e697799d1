"""`raiders print` (interpreter/tools/cardfaces.py, cardsheet.py, cli/printing.py): card faces
for every card of a mod, a folder or a ruleset, nine to a sheet.

The PDFs are read back with Debian's poppler-utils: pdftotext for the text layer (each card's
name and numbers inside that card), pdftoppm for the pixels (as many frames as cards, nothing
drawn outside the cards nor between a card's edge and its frame), pdffonts for embedded fonts.
matplotlib is the optional extra `raiders[print]`; CI installs it and poppler-utils and sets
RAIDERS_PRINT_REQUIRED=1, so there these tests fail rather than skip. Rendering every built-in
card and every example mod is the slow tier; the fast tier prints one mod through the command.
"""
import importlib.util
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
MODS = ROOT / "examples" / "mods"
TOOLS = ("pdftotext", "pdftoppm", "pdffonts", "pdfinfo")


def _need(what: str, ok: bool) -> None:
    if ok:
        return
    if os.environ.get("RAIDERS_PRINT_REQUIRED"):
        pytest.fail(f"{what} is missing but RAIDERS_PRINT_REQUIRED is set "
                    "(pip install '.[print]'; apt-get install poppler-utils)")
    pytest.skip(f"{what} is missing (pip install '.[print]'; apt-get install poppler-utils)")


@pytest.fixture
def printing():
    """matplotlib and poppler-utils, or a skip (a failure in CI)."""
    _need("matplotlib", importlib.util.find_spec("matplotlib") is not None)
    _need("poppler-utils", all(shutil.which(t) for t in TOOLS))
    from raiders.interpreter.tools import cardsheet

    return cardsheet


def run(*args):
    return CliRunner().invoke(main, ["print", *map(str, args)])


# ---- reading a PDF back
def pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))


def words(pdf: Path) -> list[list[tuple[float, float, float, float, str]]]:
    """Per page, each word of the text layer with its box (points, origin top left)."""
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         check=True).stdout.decode("utf-8")
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", xml).replace('xmlns="http://www.w3.org/1999/xhtml"', "")
    out = []
    for page in ET.fromstring(xml).iter("page"):
        out.append([(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")),
                     float(w.get("yMax")), w.text or "") for w in page.iter("word")])
    return out


def gray_pages(pdf: Path, tmp: Path) -> list[tuple[int, int, bytes]]:
    """Each page as 8-bit grey pixels at 72 dpi: one pixel a point."""
    subprocess.run(["pdftoppm", "-r", "72", "-gray", str(pdf), str(tmp / "page")], check=True)
    out = []
    for f in sorted(tmp.glob("page-*.pgm"), key=lambda p: int(p.stem.split("-")[-1])):
        data = f.read_bytes()
        m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        w, h = int(m.group(1)), int(m.group(2))
        out.append((w, h, data[m.end():]))
    return out


def card_rects(sheet, paper: str, n: int):
    """The first n slots' rectangles, top-left origin: (x0, y0, x1, y1)."""
    ph = sheet.PAPERS[paper][1]
    rects = []
    for slot in range(n):
        x, y = sheet.card_origin(paper, slot)
        rects.append((x, ph - y - sheet.CARD_H, x + sheet.CARD_W, ph - y))
    return rects


def check_pdf(pdf: Path, faces, paper: str, sheet, tmp: Path, cut=frozenset()) -> None:
    """Pages, cards, names and numbers in the text layer, nothing outside the frames. `cut`:
    cards whose name is too long to print whole (the start of it is there, and `…`)."""
    per = sheet.PER_PAGE
    assert pages(pdf) == math.ceil(len(faces) / per)
    text_pages = words(pdf)
    images = gray_pages(pdf, tmp)
    assert len(images) == len(text_pages) == pages(pdf)
    for p, (page_words, (w, h, px)) in enumerate(zip(text_pages, images, strict=True)):
        on_page = faces[p * per:(p + 1) * per]
        rects = card_rects(sheet, paper, len(on_page))
        # every word inside a card's frame, and each card's name and numbers inside it
        inside: list[list[str]] = [[] for _ in rects]
        for x0, y0, x1, y1, word in page_words:
            home = [i for i, (a, b, c, d) in enumerate(rects)
                    if x0 >= a + sheet.INSET and x1 <= c - sheet.INSET
                    and y0 >= b + sheet.INSET - 1 and y1 <= d - sheet.INSET]
            assert home, f"page {p + 1}: {word!r} at {x0:.0f},{y0:.0f} is outside every frame"
            inside[home[0]].append(word)
        for face, got in zip(on_page, inside, strict=True):
            text = " ".join(got)
            if face.card_id in cut:
                assert text.startswith(face.name.split()[0]) and "…" in text
            else:
                assert " ".join(face.name.split()) in text, (face.card_id, text)
            for _, values in face.per_players:
                for players, value in values:
                    assert re.search(rf"\b{players} players?\b", text), (face.card_id, text)
                    assert value in got, (face.card_id, value, text)
            for _, value in face.badges:
                assert value in got, (face.card_id, value, text)
        # pixels: the margin is white but for the crop marks; each used slot shows a frame,
        # each unused slot nothing; between a card's edge and its frame, nothing
        grid = card_rects(sheet, paper, per)
        marks = [(x1, h - y1, x2, h - y2) for x1, y1, x2, y2 in sheet.crop_marks(paper)]

        def ink(x: int, y: int, px=px, w=w) -> bool:
            return px[y * w + x] < 200

        def near_mark(x: int, y: int, marks=marks) -> bool:
            return any(min(a, c) - 2 <= x <= max(a, c) + 2 and min(b, d) - 2 <= y <= max(b, d) + 2
                       for a, b, c, d in marks)

        gx0, gy0 = grid[0][0], grid[0][1]
        gx1, gy1 = grid[-1][2], grid[-1][3]
        for y in range(h):  # the margin, a row at a time (a pixel at a time where inked)
            inside_rows = gy0 - 1 <= y <= gy1 + 1
            spans = [(0, int(gx0) - 1), (int(gx1) + 2, w)] if inside_rows else [(0, w)]
            for x0, x1 in spans:
                if x1 > x0 and min(px[y * w + x0:y * w + x1]) < 200:
                    for x in range(x0, x1):
                        assert not ink(x, y) or near_mark(x, y), f"page {p + 1}: ink at {x},{y}"
        framed = 0
        for slot, (a, b, c, d) in enumerate(grid):
            mid = int((b + d) / 2)
            has_frame = any(ink(int(a + sheet.INSET) + dx, mid) for dx in (-1, 0, 1))
            framed += has_frame
            assert has_frame == (slot < len(on_page)), (p, slot)
            strip = range(2, int(sheet.INSET) - 2)
            left, right, top, bottom = int(a), int(c) - 1, int(b), int(d) - 1
            for y in range(top + 2, bottom - 1):
                row = y * w
                assert min(px[row + left + strip.start:row + left + strip.stop]) >= 200 and \
                    min(px[row + right - strip.stop + 1:row + right - strip.start + 1]) >= 200, \
                    f"page {p + 1} card {slot}: ink between the edge and the frame, row {y}"
            for off in strip:
                for y in (top + off, bottom - off):
                    assert min(px[y * w + left + 2:y * w + right - 1]) >= 200, \
                        f"page {p + 1} card {slot}: ink between the edge and the frame, row {y}"
        assert framed == len(on_page)
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    assert fonts and all(re.search(r"\byes\s+yes\s+yes\b", f) for f in fonts), fonts


def faces_of(*paths: str, ruleset=None):
    from raiders.interpreter.tools.cardfaces import faces, sources

    return [f for s in sources(tuple(map(str, paths)), ruleset, None) for f in faces(s)]


# ---- what goes on the faces (no drawing: fast)
# CARDS.md, appendix: the 2013 printing's eleven bosses, strength 3p/4p/5p and wounds
BOSSES_2013 = {
    "Tax Collector (2013)": ("14", "18", "23", "2"), "Sphinx (2013)": ("14", "18", "23", "4"),
    "Golem (2013)": ("14", "18", "23", None), "Wolf Pack (2013)": ("11", "14", "18", "3"),
    "Medusa (2013)": ("12", "16", "20", "0"), "Mega Dragon (2013)": ("17", "23", "29", "4"),
    "Minotaur (2013)": ("11", "15", "19", "4"), "Mummy (2013)": ("13", "18", "23", "4"),
    "Necromancer (2013)": ("12", "15", "19", "2"), "Vampire (2013)": ("14", "18", "23", "3"),
    "Hydra (2013)": ("8", "10", "13", "2"),
}


def test_bosses_2013_faces_carry_the_numbers_of_cards_md():
    faces = faces_of(MODS / "bosses-2013")
    assert len(faces) == 11
    for f in faces:
        strength, wounds = BOSSES_2013[f.name][:3], BOSSES_2013[f.name][3]
        assert f.per_players == (("strength", ((3, strength[0]), (4, strength[1]),
                                               (5, strength[2]))),)
        if wounds is None:  # Golem: as many as the highest card played, said in words
            assert not f.badges
            assert any("Wounds: the highest single card played" in w for w in f.words)
        else:
            assert f.badges == (("wounds", wounds),)
        assert f.kind_line == "boss-2013 → monster room"


def test_a_ruleset_prints_every_card_grouped_by_family():
    faces = faces_of("deluxe")
    from raiders.interpreter.runtime.rules import load_rules

    assert sorted(f.card_id for f in faces) == sorted(load_rules("deluxe").library.cards)
    families = [f.family for f in faces]
    assert all(families.index(x) <= i for i, x in enumerate(families))  # each family together
    dragon = next(f for f in faces if f.card_id == "dragon")  # CARDS.md: 14/18/23, 3 wounds
    assert dragon.per_players == (("strength", ((3, "14"), (4, "18"), (5, "23"))),)
    assert dragon.badges == (("wounds", "3"),) and dragon.copies == 2
    assert any("take 3 wounds" in w for w in dragon.words)  # `raiders show`'s words


def test_a_card_file_prints_its_own_cards_only(tmp_path):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "a.dsl").write_text('boss one { name "One" strength 1 / 2 / 3 wounds 1 }\n')
    (mod / "b.dsl").write_text('boss two { name "Two" strength 1 / 2 / 3 wounds 1 }\n')
    other = tmp_path / "other"  # a broken ruleset beside the mod: none of its business
    other.mkdir()
    (other / "ruleset.yaml").write_text("format: [broken\n")
    assert [f.card_id for f in faces_of(mod / "b.dsl")] == ["two"]
    assert sorted(f.card_id for f in faces_of(mod)) == ["one", "two"]


# ---- laying words out (fast; needs matplotlib)
def test_words_shrink_then_are_cut_with_a_warning_never_silently(printing):
    from raiders.interpreter.tools.cardfaces import Face

    def face(words):
        return Face(card_id="long-one", name="Long One", kind_line="monster room",
                    family="monster", family_index=0, depth=0, per_players=(), badges=(),
                    layout="", words=tuple(words), footer="long-one · test")

    short = printing.draw_face(face(["Take 1 wound."]))
    assert not short.warnings
    sizes = [t.size for t in short.items
             if isinstance(t, printing.Text) and t.text == "Take 1 wound."]
    assert sizes == [printing.WORD_SIZES[0]]
    longer = printing.draw_face(face(["word " * 250]))  # fits only when shrunk
    assert not longer.warnings
    body = [t for t in longer.items if isinstance(t, printing.Text) and t.text.startswith("word")]
    assert printing.WORD_SIZES[1] <= body[0].size < printing.WORD_SIZES[0]
    assert sum(t.text.count("word") for t in body) == 250  # all of it, smaller
    huge = printing.draw_face(face(["word " * 3000]))
    assert len(huge.warnings) == 1 and "do not fit" in huge.warnings[0]
    assert "raiders show long-one" in huge.warnings[0]
    body = [t for t in huge.items if isinstance(t, printing.Text) and t.text.startswith("word")]
    assert body[-1].text.endswith("…") and body[0].size == printing.WORD_SIZES[1]
    for t in body:  # what is kept stays inside the frame
        assert printing.PAD <= t.x and t.x + printing.width(t.text, t.font, t.size) <= \
            printing.CARD_W - printing.PAD + 0.01
        assert t.y > printing.INSET


def test_more_numbers_than_a_face_holds_are_said_in_words(printing):
    from raiders.interpreter.tools.cardfaces import Face

    f = Face(card_id="many", name="Many", kind_line="vat room", family="vat", family_index=0,
             depth=0, per_players=tuple((f"p{i}", ((3, "1"), (4, "2"), (5, "3")))
                                        for i in range(4)),
             badges=tuple((f"b{i}", str(i)) for i in range(12)), layout="",
             words=("Rules.",), footer="many")
    drawn = printing.draw_face(f)
    assert not drawn.warnings
    texts = [t for t in drawn.items if isinstance(t, printing.Text)]
    said = [t.text for t in texts]
    assert "P3: 1/2/3 for 3..5 players." in said and "B11: 11." in said and "Rules." in said
    assert "P0" in said  # the first numbers keep their boxes
    for t in texts:  # and nothing leaves the frame
        assert t.y > printing.INSET and t.x >= printing.PAD - 0.01
    for b in drawn.items[2:]:
        if isinstance(b, printing.Box):
            assert b.y >= printing.INSET and b.y + b.h <= printing.CARD_H - printing.INSET


def test_a_long_word_is_broken_not_drawn_past_the_edge(printing):
    lines = printing.wrap("x" * 400, printing.REGULAR, 7.0, 100.0)
    assert "".join(lines) == "x" * 400 and len(lines) > 1
    assert all(printing.width(line, printing.REGULAR, 7.0) <= 100.0 for line in lines)


def test_a_character_the_font_lacks_is_reported(printing):
    from raiders.interpreter.tools.cardfaces import Face

    f = Face(card_id="ryu", name="Dragon 龍", kind_line="monster room", family="monster",
             family_index=0, depth=0, per_players=(), badges=(), layout="", words=(),
             footer="ryu")
    warnings = printing.draw_face(f).warnings
    assert len(warnings) == 1 and "U+9F8D" in warnings[0]


# ---- the command (fast: one card)
def test_print_a_mod_to_pdf(printing, tmp_path):
    out = tmp_path / "gorgon.pdf"
    result = run(MODS / "gorgon", "--out", out)
    assert result.exit_code == 0, result.output
    assert "1 card(s) on 1 page(s), A4" in result.output
    assert out.read_bytes().startswith(b"%PDF")
    assert pages(out) == 1
    text = " ".join(w[4] for w in words(out)[0])
    for expected in ("Gorgon", "12", "16", "20", "3 players", "5 players", "wounds"):
        assert expected in text
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_without_the_extra_a_clear_error(monkeypatch, tmp_path):
    import raiders.interpreter.tools as tools

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "raiders.interpreter.tools.cardsheet", raising=False)
    monkeypatch.delattr(tools, "cardsheet", raising=False)
    result = run(MODS / "gorgon", "--out", tmp_path / "g.pdf")
    assert result.exit_code == 1
    assert "pip install 'raiders[print]'" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "g.pdf").exists()


def test_usage_errors(printing, tmp_path):
    assert run("no-such-thing", "--out", tmp_path / "x.pdf").exit_code == 2
    assert run(MODS / "gorgon", "--out", tmp_path).exit_code == 2  # a folder for a PDF
    assert run(MODS / "gorgon", "--out", tmp_path / "x.svg").exit_code == 2
    assert run(MODS / "gorgon", "--out", tmp_path / "nowhere" / "x.pdf").exit_code == 2
    card = tmp_path / "mod" / "boss.dsl"  # an input is never the output
    card.parent.mkdir()
    card.write_text('boss one { name "One" strength 1 / 2 / 3 wounds 1 }\n')
    result = run(card.parent, "--out", card)
    assert result.exit_code == 2 and "card files being printed" in result.output
    assert card.read_text().startswith("boss one")
    (tmp_path / "file").write_text("mine")
    result = run(MODS / "gorgon", "--format", "svg", "--out", tmp_path / "file")
    assert result.exit_code == 2 and (tmp_path / "file").read_text() == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "kinds.dsl").write_text("kind pit(depth: int) { }\n")
    result = run(empty, "--out", tmp_path / "e.pdf")
    assert result.exit_code == 1 and "no cards to print" in result.output


def test_card_files_never_replace_what_the_user_did_not_name(printing, tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "poisoned.svg").write_text("mine")
    result = run(MODS / "poison", "--format", "svg", "--out", folder)
    assert result.exit_code == 1 and "--force" in result.output
    assert sorted(p.name for p in folder.iterdir()) == ["poisoned.svg"]  # nothing written
    assert (folder / "poisoned.svg").read_text() == "mine"
    result = run(MODS / "poison", "--format", "svg", "--out", folder, "--force")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["antidote-spring.svg", "poison-darts.svg", "poisoned.svg"]
    svg = (folder / "poisoned.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg


# ---- every built-in card and every example mod, rendered (slow)
EXAMPLE_MODS = sorted(p.name for p in MODS.iterdir() if (p / "mod.yaml").is_file()
                      or any(p.glob("*.dsl")))


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ruleset", ["deluxe", "classic"])
def test_every_built_in_card(printing, tmp_path, ruleset, paper):
    out = tmp_path / "cards.pdf"
    result = run(ruleset, "--paper", paper, "--out", out)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    check_pdf(out, faces_of(ruleset), paper, printing, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("mod", EXAMPLE_MODS)
def test_every_example_mod(printing, tmp_path, mod):
    out = tmp_path / "mod.pdf"
    result = run(MODS / mod, "--out", out)
    assert result.exit_code == 0, result.output
    check_pdf(out, faces_of(MODS / mod), "a4", printing, tmp_path)


@pytest.mark.slow
def test_bosses_2013_give_eleven_cards_with_the_numbers_of_cards_md(printing, tmp_path):
    out = tmp_path / "bosses.pdf"
    result = run(MODS / "bosses-2013", "--out", out)
    assert result.exit_code == 0, result.output
    assert "11 card(s) on 2 page(s)" in result.output
    faces = faces_of(MODS / "bosses-2013")
    check_pdf(out, faces, "a4", printing, tmp_path)
    again = tmp_path / "again.pdf"
    assert run(MODS / "bosses-2013", "--out", again).exit_code == 0
    assert again.read_bytes() == out.read_bytes()  # the same cards, the same bytes
    found = {}
    for page_words, on_page in zip(words(out), [faces[:9], faces[9:]], strict=True):
        rects = card_rects(printing, "a4", len(on_page))
        for face, (a, b, c, d) in zip(on_page, rects, strict=True):
            got = [w[4] for w in page_words
                   if a <= w[0] and w[2] <= c and b <= w[1] and w[3] <= d]
            found[face.name] = got
    assert sorted(found) == sorted(BOSSES_2013)
    for name, numbers in BOSSES_2013.items():
        for n in numbers:
            if n is not None:
                assert n in found[name], (name, n, found[name])


@pytest.mark.slow
def test_unicode_names_print_and_copies_fill_the_sheets(printing, tmp_path):
    mod = tmp_path / "unicode"
    mod.mkdir()
    name = "Ωμέγα Дракон — Œil ü $1 {x}"  # `$` is no maths here
    (mod / "cards.dsl").write_text(
        f'boss omega {{ name "{name}" strength 10 / 12 / 14 wounds 2 }}\n'
        'item charm { }\n', encoding="utf-8")
    (mod / "mod.yaml").write_text("bosses: [omega]\nitems: {charm: 10}\n")
    out = tmp_path / "u.pdf"
    result = run(mod, "--copies", "--paper", "letter", "--out", out)
    assert result.exit_code == 0, result.output
    assert "11 card(s) on 2 page(s), Letter" in result.output
    faces = faces_of(mod)
    check_pdf(out, [faces[0]] + [faces[1]] * 10 if faces[0].card_id == "omega"
              else [faces[0]] * 10 + [faces[1]], "letter", printing, tmp_path)
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True,
                          check=True).stdout.decode("utf-8")
    assert name in text


@pytest.mark.slow
def test_png_cards(printing, tmp_path):
    result = run(MODS / "bosses-2013", "--format", "png", "--dpi", "100", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) == 11
    head = pngs[0].read_bytes()[:24]
    assert head.startswith(b"\x89PNG")
    w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    assert (w, h) == (250, 350)  # 2.5 × 3.5 in at 100 dpi


@pytest.mark.slow
def test_a_name_too_long_is_cut_and_reported_by_the_command(printing, tmp_path):
    mod = tmp_path / "long"
    mod.mkdir()
    long_name = " ".join(["Interminable"] * 40)
    (mod / "cards.dsl").write_text(
        f'boss endless {{ name "{long_name}" strength 1 / 2 / 3 wounds 1 }}\n'
        'boss brief { name "Brief" strength 1 / 2 / 3 wounds 1 }\n')
    (mod / "mod.yaml").write_text("bosses: [endless, brief]\n")
    out = tmp_path / "long.pdf"
    result = CliRunner().invoke(main, ["print", str(mod), "--out", str(out)])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1 and "card `endless`" in warnings[0] and "name" in warnings[0]
    faces = faces_of(mod)
    check_pdf(out, faces, "a4", printing, tmp_path, cut={"endless"})  # inside its frame
    strict = CliRunner().invoke(main, ["print", str(mod), "--out", str(out), "--strict"])
    assert strict.exit_code == 1 and "1 warning(s) (--strict)" in strict.output
