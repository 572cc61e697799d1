"""Card faces (interpreter/tools/cardfaces.py) laid out and drawn: sheets of nine cards for home
printers (PDF, A4 or Letter, crop marks, fonts embedded) or one file per card (SVG, PNG).

Drawing is matplotlib's (the `print` extra; `report` needs it too): one drawing serves PDF,
SVG and PNG, and the font travels with it (DejaVu Sans from matplotlib's own data, embedded as
a TrueType subset), so nothing is looked up on the system or the network.

Sizes are in points (1/72 inch). A card is poker size, 63.5 × 88.9 mm (2.5 × 3.5 in): the size
of most card games and their sleeves, and the largest whose 3 × 3 grid (190.5 × 266.7 mm) fits
both A4 and Letter with room left for crop marks. The cards of a sheet touch, so one cut
serves two of them; the marks in the margin show where to cut.

Every word is measured before it is placed: words that do not fit shrink, down to a limit
that stays readable, and what still does not fit is cut at a line end with `…` and reported
(a warning naming the card), never cut silently nor drawn past the card's edge.
"""
from __future__ import annotations

import contextlib
import io
import os
import warnings
from typing import TYPE_CHECKING, Any, Callable, Optional

import attrs
import matplotlib
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, get_font
from matplotlib.patches import Circle, FancyBboxPatch, Patch, Rectangle
from matplotlib.textpath import text_to_path

if TYPE_CHECKING:  # matplotlib.typing names rc keys from 3.9; the extra asks only 3.8
    from matplotlib.typing import RcKeyType

from .cardfaces import Face

MM = 72 / 25.4
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM  # 180 × 252 pt
PAPERS = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * 72, 11 * 72)}
COLUMNS, ROWS = 3, 3
PER_PAGE = COLUMNS * ROWS
INSET = 6.0  # the frame's distance from the card's edge: a cut a little off still shows it
PAD = 12.0  # words keep this far from the card's edge
MARK_GAP, MARK_LEN = 3.0, 12.0  # crop marks: how far from the grid they start, how long

# Type sizes in points: the largest tried first, the smallest a reader can still read.
NAME_SIZES = (12.0, 7.0)
WORD_SIZES = (7.0, 4.5)
FOOT_SIZES = (5.0, 3.5)
LEADING = 1.22  # line height, in type sizes

# Frame colours, by a family's place among the library's root kinds; a kind below its root
# (a boss below the monster) is drawn darker.
PALETTE = ("#2e7d32", "#1565c0", "#616161", "#b8860b", "#c62828", "#00838f", "#e65100",
           "#6a1b9a", "#5d4037", "#ad1457", "#283593", "#558b2f")
INK, GREY, PAPER = "#1a1a1a", "#555555", "#ffffff"

_FONTS = os.path.join(matplotlib.get_data_path(), "fonts", "ttf")
REGULAR = os.path.join(_FONTS, "DejaVuSans.ttf")
BOLD = os.path.join(_FONTS, "DejaVuSans-Bold.ttf")
_RC: dict[RcKeyType, Any] = {"pdf.fonttype": 42, "svg.fonttype": "path",
                             "svg.hashsalt": "raiders", "path.simplify": False}


@attrs.frozen
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float
    font: str  # a TrueType file
    color: str = INK
    align: str = "left"  # left | center


@attrs.frozen
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: Optional[str]
    edge: Optional[str]
    width: float = 0.0
    round: float = 0.0
    circle: bool = False


@attrs.define
class Drawn:
    """One card face as shapes and words at card coordinates (origin bottom left), with the
    warnings its layout raised."""

    face: Face
    items: list = attrs.Factory(list)
    warnings: list[str] = attrs.Factory(list)


# ---- measuring: widths at one size, scaled (an outline font scales exactly)
_WIDTHS: dict[tuple[str, str], float] = {}
_REF = 100.0


def width(text: str, font: str, size: float) -> float:
    key = (text, font)
    if key not in _WIDTHS:
        prop = FontProperties(fname=font, size=_REF)
        with _quiet():
            _WIDTHS[key] = text_to_path.get_text_width_height_descent(text, prop,
                                                                      ismath=False)[0]
    return _WIDTHS[key] * size / _REF


@contextlib.contextmanager
def _quiet():
    """matplotlib's own warning of a missing glyph: draw_face reports it, naming the card."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font")
        yield


def missing_glyphs(text: str, font: str) -> list[str]:
    """The characters of `text` the font has no glyph for (they would print as boxes)."""
    charmap = get_font(font).get_charmap()
    return sorted({c for c in text if not c.isspace() and ord(c) not in charmap})


def wrap(text: str, font: str, size: float, limit: float) -> list[str]:
    """Greedy line breaking at spaces (a line's width is its words' and spaces' widths: no
    font kerns across a space); a word wider than a line is broken where it must be."""
    space = width(" ", font, size)
    lines: list[str] = []
    line, used = "", 0.0
    for word in text.split():
        w = width(word, font, size)
        while w > limit:  # a word no line holds: break it
            lo, hi = 1, len(word)  # the longest piece that fits (at least one character)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if width(word[:mid], font, size) <= limit else (lo, mid - 1)
            cut = lo
            if line:
                lines.append(line)
                line, used = "", 0.0
            lines.append(word[:cut])
            word = word[cut:]
            w = width(word, font, size)
        if line and used + space + w > limit:
            lines.append(line)
            line, used = word, w
        elif line:
            line, used = f"{line} {word}", used + space + w
        else:
            line, used = word, w
    if line:
        lines.append(line)
    return lines


def fit(paragraphs: list[str], font: str, sizes: tuple[float, float], limit: float,
        height: float, gap: float = 0.4) -> tuple[float, list[list[str]], int]:
    """The largest size (in quarter points, down to the smallest allowed) at which the
    paragraphs fit `height`, their lines, and how many lines had to be left out at the
    smallest (0 when all fit)."""
    size = sizes[0]
    while True:
        laid = [wrap(p, font, size, limit) for p in paragraphs]
        need = _height(laid, size, gap)
        if need <= height or size <= sizes[1]:
            break
        size = max(sizes[1], size - 0.25)
    dropped = 0
    while laid and _height(laid, size, gap) > height:  # cut at the smallest size: reported
        if not laid[-1]:
            laid.pop()
            continue
        laid[-1].pop()
        dropped += 1
    if dropped:
        while laid and not laid[-1]:
            laid.pop()
        if laid:
            last = laid[-1]
            while last and width(last[-1] + " …", font, size) > limit:
                last[-1] = last[-1][:-1]
            if last:
                last[-1] = last[-1].rstrip() + " …"
    return size, laid, dropped


def _height(laid: list[list[str]], size: float, gap: float) -> float:
    lines = sum(len(p) for p in laid)
    return lines * size * LEADING + max(0, len(laid) - 1) * gap * size


# ---- a card face
def colour(face: Face) -> str:
    base = PALETTE[face.family_index % len(PALETTE)]
    if not face.depth:
        return base
    r, g, b = (int(base[i:i + 2], 16) for i in (1, 3, 5))
    k = 0.65 ** min(face.depth, 2)
    return "#" + "".join(f"{int(v * k):02x}" for v in (r, g, b))


def draw_face(face: Face) -> Drawn:
    """A card face laid out: frame, name band, kind, numbers, words, footer."""
    out = Drawn(face)
    ink = colour(face)
    inner = CARD_W - 2 * PAD
    out.items.append(Box(0, 0, CARD_W, CARD_H, PAPER, None))
    out.items.append(Box(INSET, INSET, CARD_W - 2 * INSET, CARD_H - 2 * INSET, None, ink,
                         width=2.0, round=6.0))
    # the name, on a band of the frame's colour: one line, or two at smaller sizes
    band = 36.0
    top = CARD_H - INSET
    out.items.append(Box(INSET, top - band, CARD_W - 2 * INSET, band, ink, None, round=6.0))
    size, lines, dropped = _fit_name(face.name, inner, band - 8)
    y = top - band / 2 + (len(lines) * size * LEADING) / 2 - size * 0.95
    for line in lines:
        out.items.append(Text(PAD, y, line, size, BOLD, PAPER))
        y -= size * LEADING
    if dropped:
        out.warnings.append(f"its name is too long even at {size:g} pt: printed as "
                            f"`{' '.join(lines)}`")
    y = top - band - 9.5
    kind_size, kind_lines, kind_dropped = fit([face.kind_line], REGULAR, (6.5, 5.0), inner, 8)
    for line in kind_lines[0] if kind_lines else []:
        out.items.append(Text(PAD, y, line, kind_size, REGULAR, GREY))
    if kind_dropped:
        out.warnings.append("its kind is too long to print whole")
    y -= 6
    # the footer: where the card comes from
    foot_size, foot, foot_dropped = fit([face.footer], REGULAR, FOOT_SIZES, inner,
                                        2 * FOOT_SIZES[0] * LEADING)
    foot_lines = foot[0] if foot else []
    fy = INSET + 4 + (len(foot_lines) - 1) * foot_size * LEADING
    for line in foot_lines:
        out.items.append(Text(PAD, fy, line, foot_size, REGULAR, GREY))
        fy -= foot_size * LEADING
    if foot_dropped:
        out.warnings.append("its footer (id, origin, copies) is too long to print whole")
    bottom = INSET + 6 + len(foot_lines) * foot_size * LEADING
    # the numbers, then the rules in words; a card with more numbers than leave room for its
    # words (a mod's kind with a dozen parameters) says the last of them in words instead
    while True:
        size, laid, dropped = fit(list(face.words), REGULAR, WORD_SIZES, inner,
                                  y - _numbers_height(face) - bottom)
        if not dropped or not (face.badges or face.per_players):
            break
        face = _one_number_in_words(face)
    y = _numbers(out, face, ink, y, inner)
    for para in laid:
        for line in para:
            y -= size * LEADING
            out.items.append(Text(PAD, y + size * 0.25, line, size, REGULAR))
        y -= 0.4 * size
    if dropped:
        out.warnings.append(f"its words do not fit even at {WORD_SIZES[1]:g} pt: the last "
                            f"{dropped} line(s) are left out (`raiders show {face.card_id}` "
                            "says them all)")
    for text in (face.name, face.kind_line, face.footer, *face.words):
        lost = missing_glyphs(text, BOLD if text == face.name else REGULAR)
        if lost:
            out.warnings.append("the font has no glyph for " + ", ".join(
                f"{c!r} (U+{ord(c):04X})" for c in lost) + ": printed as a box")
    return out


def _fit_name(name: str, limit: float, height: float) -> tuple[float, list[str], int]:
    """One line down to 9 pt, else two lines down to the smallest size."""
    size = NAME_SIZES[0]
    while size > 9.0 and width(name, BOLD, size) > limit:
        size -= 0.25
    if width(name, BOLD, size) <= limit:
        return size, [name], 0
    size, laid, dropped = fit([name], BOLD, (9.0, NAME_SIZES[1]), limit, height)
    return size, laid[0] if laid else [], dropped


def _numbers_height(face: Face) -> float:
    """How far down _numbers draws (keep the two in step)."""
    rows = len(face.per_players)
    badges = len(face.badges) - (1 if rows and face.badges and len(face.per_players[0][1]) <= 3
                                 else 0)
    return rows * 42 + -(-badges // 4) * 34 + (1 if badges else 0) + (31 if face.layout else 0)


def _one_number_in_words(face: Face) -> Face:
    """The last number of a face (a badge, else a row of boxes) said in words instead, above
    the rules."""
    if face.badges:
        (label, value), badges = face.badges[-1], face.badges[:-1]
        said = f"{label.capitalize()}: {value}."
        face = attrs.evolve(face, badges=badges)
    else:
        (name, values), rows = face.per_players[-1], face.per_players[:-1]
        counts = "/".join(v for _, v in values)
        said = (f"{name.replace('_', ' ').capitalize()}: {counts} for "
                f"{values[0][0]}..{values[-1][0]} players.")
        face = attrs.evolve(face, per_players=rows)
    return attrs.evolve(face, words=(said, *face.words))


def _numbers(out: Drawn, face: Face, ink: str, y: float, inner: float) -> float:
    """The numbers where a player looks for them: a row of boxes per number that depends on
    the player count (a monster's strength) with the first badge beside it (its wounds),
    badges for the others (chests, coins, supply), a floor card's five rooms; returns the
    height left below them."""
    badges = list(face.badges)
    beside = 34.0  # the column a badge takes beside a row of boxes
    for row, (name, values) in enumerate(face.per_players):
        out.items.append(Text(PAD, y - 6, name.replace("_", " ").upper(), 6.0, BOLD, ink))
        y -= 9
        n = len(values)
        gap = 4.0
        h = 28.0
        side = badges.pop(0) if row == 0 and badges and n <= 3 else None
        room = inner - (beside + gap if side else 0)
        w = min(44.0, (room - gap * (n - 1)) / n)
        for i, (players, value) in enumerate(values):
            x = PAD + i * (w + gap)
            out.items.append(Box(x, y - h, w, h, None, ink, width=1.0, round=3.0))
            label = f"{players} player{'s' if players != 1 else ''}"
            lsize = _shrunk(label, REGULAR, 5.5, 3.5, w - 4)
            out.items.append(Text(x + w / 2, y - 7, label, lsize, REGULAR, GREY, "center"))
            vsize = _shrunk(value, BOLD, 15.0, 6.0, w - 4)
            out.items.append(Text(x + w / 2, y - h + 5, value, vsize, BOLD, INK, "center"))
        if side:
            _badge(out, ink, side, PAD + inner - beside, y + 1, beside, h)
        y -= h + 5
    if badges:
        per_row = 4
        gap = 4.0
        w = (inner - gap * (per_row - 1)) / per_row
        h = 30.0
        for i, badge in enumerate(badges):
            row, col = divmod(i, per_row)
            _badge(out, ink, badge, PAD + col * (w + gap), y - row * (h + gap), w, h)
        y -= ((len(badges) + per_row - 1) // per_row) * (h + gap) + 1
    if face.layout:
        n = len(face.layout)
        gap = 3.0
        w = (inner - gap * (n - 1)) / n
        h = 26.0
        for i, facing in enumerate(face.layout):
            x = PAD + i * (w + gap)
            down = facing != "U"
            out.items.append(Box(x, y - h, w, h, ink if down else None, ink, width=1.0,
                                 round=2.0))
            out.items.append(Text(x + w / 2, y - h / 2 - 2, "down" if down else "up", 5.5,
                                  BOLD, PAPER if down else INK, "center"))
        y -= h + 5
    return y


def _badge(out: Drawn, ink: str, badge: tuple[str, str], x: float, top: float, w: float,
           h: float) -> None:
    """A number in a disc of the frame's colour, what it is written under it."""
    label, value = badge
    d = 19.0
    out.items.append(Box(x + (w - d) / 2, top - d, d, d, ink, None, circle=True))
    vsize = _shrunk(value, BOLD, 10.0, 5.0, d - 3)
    out.items.append(Text(x + w / 2, top - d / 2 - vsize * 0.36, value, vsize, BOLD, PAPER,
                          "center"))
    lsize = _shrunk(label, REGULAR, 5.5, 3.5, w)
    out.items.append(Text(x + w / 2, top - h + 3, label, lsize, REGULAR, GREY, "center"))


def _shrunk(text: str, font: str, largest: float, smallest: float, limit: float) -> float:
    size = largest
    while size > smallest and width(text, font, size) > limit:
        size -= 0.25
    return size


# ---- drawing on a page or a card of its own
def _axes(fig: Figure, w: float, h: float):
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.set_axis_off()
    return ax


def _draw(ax, drawn: Drawn, x0: float, y0: float) -> None:
    clip = Rectangle((x0, y0), CARD_W, CARD_H, transform=ax.transData)
    for item in drawn.items:
        if isinstance(item, Box):
            patch: Patch
            if item.circle:
                patch = Circle((x0 + item.x + item.w / 2, y0 + item.y + item.h / 2), item.w / 2)
            elif item.round:
                r = item.round
                patch = FancyBboxPatch((x0 + item.x + r, y0 + item.y + r), item.w - 2 * r,
                                       item.h - 2 * r, boxstyle=f"round,pad={r}")
            else:
                patch = Rectangle((x0 + item.x, y0 + item.y), item.w, item.h)
            patch.set_facecolor(item.fill or "none")
            patch.set_edgecolor(item.edge or "none")
            patch.set_linewidth(item.width)
            ax.add_patch(patch)
            patch.set_clip_path(clip)
        else:
            t = ax.text(x0 + item.x, y0 + item.y, item.text, fontsize=item.size,
                        fontproperties=FontProperties(fname=item.font, size=item.size),
                        color=item.color, ha=item.align, va="baseline", parse_math=False)
            t.set_clip_path(clip)


def grid_origin(paper: str) -> tuple[float, float]:
    """Where a page's grid of cards starts (bottom left), centred on the sheet."""
    pw, ph = PAPERS[paper]
    return (pw - COLUMNS * CARD_W) / 2, (ph - ROWS * CARD_H) / 2


def card_origin(paper: str, slot: int) -> tuple[float, float]:
    """Bottom left of the card in `slot` (0..8, rows from the top, left to right)."""
    gx, gy = grid_origin(paper)
    row, col = divmod(slot, COLUMNS)
    return gx + col * CARD_W, gy + (ROWS - 1 - row) * CARD_H


def crop_marks(paper: str) -> list[tuple[float, float, float, float]]:
    """Crop marks in the margins: short lines continuing every cut line of the grid."""
    pw, ph = PAPERS[paper]
    gx, gy = grid_origin(paper)
    gw, gh = COLUMNS * CARD_W, ROWS * CARD_H
    vlen = min(MARK_LEN, gy - MARK_GAP - 2)
    hlen = min(MARK_LEN, gx - MARK_GAP - 2)
    marks = []
    for i in range(COLUMNS + 1):
        x = gx + i * CARD_W
        marks.append((x, gy - MARK_GAP - vlen, x, gy - MARK_GAP))
        marks.append((x, gy + gh + MARK_GAP, x, gy + gh + MARK_GAP + vlen))
    for j in range(ROWS + 1):
        y = gy + j * CARD_H
        marks.append((gx - MARK_GAP - hlen, y, gx - MARK_GAP, y))
        marks.append((gx + gw + MARK_GAP, y, gx + gw + MARK_GAP + hlen, y))
    return marks


def pdf_sheets(drawn: list[Drawn], paper: str, title: str = "raiders cards") -> bytes:
    """Sheets of nine cards: the PDF's bytes (the same cards give the same bytes)."""
    from matplotlib.backends.backend_pdf import PdfPages

    buf = io.BytesIO()
    pw, ph = PAPERS[paper]
    with matplotlib.rc_context(_RC), _quiet():
        with PdfPages(buf, metadata={"Title": title, "Creator": "raiders print",
                                     "CreationDate": None, "Producer": None}) as pdf:
            for start in range(0, max(len(drawn), 1), PER_PAGE):
                fig = Figure(figsize=(pw / 72, ph / 72))
                ax = _axes(fig, pw, ph)
                for x1, y1, x2, y2 in crop_marks(paper):
                    ax.plot([x1, x2], [y1, y2], color="black", linewidth=0.4,
                            solid_capstyle="butt")
                for slot, card in enumerate(drawn[start:start + PER_PAGE]):
                    _draw(ax, card, *card_origin(paper, slot))
                pdf.savefig(fig)
    return buf.getvalue()


def card_file(card: Drawn, fmt: str, dpi: int = 300) -> bytes:
    """One card on its own, as SVG (words as outlines: it prints the same anywhere) or PNG."""
    buf = io.BytesIO()
    with matplotlib.rc_context(_RC), _quiet():
        fig = Figure(figsize=(CARD_W / 72, CARD_H / 72))
        _draw(_axes(fig, CARD_W, CARD_H), card, 0, 0)
        metadata: dict = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(buf, format=fmt, dpi=dpi, metadata=metadata)
    return buf.getvalue()


def lay_out(faces: list[Face], warn: Callable[[Face, str], None]) -> list[Drawn]:
    """Every face drawn; each warning reported with its card."""
    drawn = []
    for f in faces:
        d = draw_face(f)
        for w in d.warnings:
            warn(f, w)
        drawn.append(d)
    return drawn
