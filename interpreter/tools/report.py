"""`simulate --report FILE`: one self-contained HTML page (no script, no link, no fetch) with
the command and seed, every figure with its 95% interval, plots as inline SVG (matplotlib,
the optional extra `raiders[report]`), and the card texts of the mods played."""
from __future__ import annotations

import html
import io
import math
from pathlib import Path
from typing import Optional, Sequence

from .stats import Figure

MISSING = ("--report needs matplotlib, an optional extra: pip install 'raiders[report]' "
           "(or pip install matplotlib)")


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _err(x: float) -> float:
    """An error bar's length: rounding may leave a value a hair outside its interval, and an
    interval from a single game is unbounded (no bar drawn)."""
    return max(0.0, x) if math.isfinite(x) else 0.0


def _svg(fig) -> str:
    buf = io.StringIO()
    # No date, no creator: the same figures give the same page, and no URL in the metadata.
    fig.savefig(buf, format="svg", bbox_inches="tight",
                metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]  # inline: no XML prologue, no DOCTYPE


def _figure_cls():
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "raiders"  # the same ids on every run
    matplotlib.rcParams["svg.fonttype"] = "path"  # glyphs as paths: no font to fetch
    from matplotlib.figure import Figure as MplFigure  # no pyplot: no GUI, no global state

    return MplFigure


def bars(title: str, names: Sequence[str], runs: Sequence[tuple[str, dict[str, Figure]]],
         pct: bool) -> str:
    """Horizontal bars with 95% error bars, one colour per run."""
    MplFigure = _figure_cls()
    fig = MplFigure(figsize=(7.5, 0.35 * len(names) * max(1, len(runs)) + 1.2))
    ax = fig.subplots()
    height = 0.8 / len(runs)
    scale = 100 if pct else 1
    for i, (label, figs) in enumerate(runs):
        ys, vals, lo, hi = [], [], [], []
        for j, n in enumerate(names):
            f = figs.get(n)
            if f is None or f.value is None or f.low is None or f.high is None:
                continue
            ys.append(j + i * height)
            vals.append(f.value * scale)
            lo.append(_err((f.value - f.low) * scale))
            hi.append(_err((f.high - f.value) * scale))
        ax.barh(ys, vals, height=height, xerr=[lo, hi], capsize=3, label=label)
    ax.set_yticks([j + height * (len(runs) - 1) / 2 for j in range(len(names))])
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    ax.set_xlabel("% (95% interval)" if pct else "per player (95% interval)")
    ax.set_title(title)
    ax.axvline(0, color="black", linewidth=0.6)
    if len(runs) > 1:
        ax.legend(loc="best", fontsize="small")
    return _svg(fig)


def sweep_plot(param: str, rows: Sequence[tuple[int, dict[str, Figure]]], figure: str,
               target: Optional[float], best: Optional[int]) -> str:
    MplFigure = _figure_cls()
    fig = MplFigure(figsize=(7.5, 3.6))
    ax = fig.subplots()
    xs, ys, lo, hi = [], [], [], []
    for v, figs in rows:
        f = figs.get(figure)
        if f is None or f.value is None or f.low is None or f.high is None:
            continue
        xs.append(v)
        ys.append(f.value)
        lo.append(_err(f.value - f.low))
        hi.append(_err(f.high - f.value))
    ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3)
    if target is not None:
        ax.axhline(target, color="tab:red", linestyle="--", label=f"target {target:g}")
    if best is not None:
        ax.axvline(best, color="tab:green", linestyle=":", label=f"nearest: {best}")
    if target is not None or best is not None:
        ax.legend(fontsize="small")
    ax.set_xlabel(param)
    ax.set_ylabel(f"{figure} (95% interval)")
    ax.set_title(f"{figure} as {param} varies")
    return _svg(fig)


def _fmt(f: Optional[Figure]) -> str:
    if f is None or f.value is None:
        return "-"
    if f.kind == "rate":
        return f"{f.value:.1%} [{f.low:.1%}, {f.high:.1%}]"
    return f"{f.value:+.3f} [{f.low:+.3f}, {f.high:+.3f}]"


def figure_table(runs: Sequence[tuple[str, dict[str, Figure]]],
                 diffs: Optional[dict] = None) -> str:
    names = sorted(set().union(*(figs for _, figs in runs)))
    head = "".join(f"<th>{html.escape(label)}</th>" for label, _ in runs)
    if diffs is not None:
        head += "<th>difference (mod − base)</th>"
    rows = []
    for n in names:
        cells = "".join(f"<td>{html.escape(_fmt(figs.get(n)))}</td>" for _, figs in runs)
        if diffs is not None:
            d = diffs.get(n)
            if d is None or d.value is None:
                cells += "<td>-</td>"
            else:
                k = 100 if n.startswith(("win.", "out.", "no_winner")) else 1
                mark = " <b>*</b>" if d.resolved else ""
                cells += (f"<td>{d.value * k:+.2f} [{d.low * k:+.2f}, {d.high * k:+.2f}]"
                          f"{mark}</td>")
        rows.append(f"<tr><th>{html.escape(n)}</th>{cells}</tr>")
    return (f"<table><thead><tr><th>figure</th>{head}</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def card_texts(folders: Sequence[str]) -> dict[str, str]:
    """The card files of the mods played: path -> text."""
    from raiders.dsl.library import display_path
    from raiders.formats.loader import card_files

    out = {}
    for folder in folders:
        for f in card_files(folder):
            try:
                out[display_path(str(f))] = Path(f).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    return out


CSS = """body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px;
text-align:right}th:first-child{text-align:left}pre{background:#f4f4f4;padding:.6em;
overflow-x:auto}code{background:#f4f4f4}.plot svg{max-width:100%;height:auto}"""


def page(title: str, command: str, seed: int, games: int, setup: dict,
         sections: Sequence[tuple[str, str]], texts: dict[str, str]) -> str:
    """The whole document: sections are (heading, HTML) pairs."""
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Made by <code>{html.escape(command)}</code></p>",
        f"<p>Seed {seed} (games use seeds {seed}, {seed + 1}, …); {games} games per run. "
        "Intervals are 95%: Wilson for rates, Student's t for means; differences are paired "
        "on the same seeds, <b>*</b> where the interval excludes zero.</p>",
        "<p>Setup: " + html.escape(", ".join(f"{k}={v}" for k, v in sorted(setup.items())))
        + "</p>",
    ]
    for heading, body in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>{body}")
    if texts:
        parts.append("<h2>Card texts of the mods</h2>")
        for path, text in sorted(texts.items()):
            parts.append(f"<h3>{html.escape(path)}</h3><pre>{html.escape(text)}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def run_sections(runs: Sequence[tuple[str, dict[str, Figure]]],
                 diffs: Optional[dict] = None) -> list[tuple[str, str]]:
    """Plots of wins, outs and room cards, then the table of every figure."""
    names = sorted(set().union(*(figs for _, figs in runs)))
    sections = []
    groups = [("Wins by seat", "win.seat.", True), ("Wins by character", "win.character.", True),
              ("Wins by bot", "win.bot.", True), ("Players out, by cause", "out.", True)]
    for title, prefix, pct in groups:
        mine = [n for n in names if n.startswith(prefix)]
        if mine:
            svg = bars(title, mine, runs, pct)
            sections.append((title, f'<div class="plot">{svg}</div>'))
    for what in ("coins", "wounds"):
        mine = [n for n in names if n.startswith("card.") and n.endswith("." + what)
                and any((f := figs.get(n)) is not None and (f.low, f.high) != (0, 0)
                        for _, figs in runs)]
        if mine:
            svg = bars(f"Room cards: {what} per player each time resolved", mine, runs, False)
            sections.append((f"Room cards: {what}", f'<div class="plot">{svg}</div>'))
    sections.append(("Every figure", figure_table(runs, diffs)))
    return sections
