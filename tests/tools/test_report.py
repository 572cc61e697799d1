"""`simulate --report` (interpreter/tools/report.py): one self-contained HTML page — parsed, its SVG
plots parsed, nothing fetched from outside, opened in headless Chromium when it is installed.
matplotlib is the optional extra `raiders[report]`; CI installs it and sets
RAIDERS_REPORT_REQUIRED=1, so there these tests fail rather than skip."""
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.tools import report

VOID = {"meta", "br", "img", "hr", "input", "link", "col", "area", "base", "wbr", "source"}


def _need_matplotlib():
    if report.available():
        return
    if os.environ.get("RAIDERS_REPORT_REQUIRED"):
        pytest.fail("matplotlib is not installed but RAIDERS_REPORT_REQUIRED is set "
                    "(pip install '.[report]')")
    pytest.skip("matplotlib not installed (pip install '.[report]')")


class _Balanced(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tags = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def check_page(text: str) -> None:
    assert text.startswith("<!DOCTYPE html>")
    p = _Balanced()
    p.feed(text)
    p.close()
    assert not p.errors and not p.stack, (p.errors, p.stack)
    # Self-contained: no script, no stylesheet link, no image or frame from a URL.
    for tag, attrs in p.tags:
        assert tag not in ("script", "link", "iframe", "img", "object"), tag
        for name, value in attrs.items():
            if name in ("src", "href", "xlink:href"):
                assert value is not None and value.startswith("#"), (tag, name, value)
    assert "@import" not in text and "url(http" not in text
    svgs = re.findall(r"<svg.*?</svg>", text, flags=re.S)
    assert svgs
    for svg in svgs:
        ET.fromstring(svg)  # well-formed XML
    return len(svgs)


def run(*args):
    return CliRunner().invoke(main, list(args))


# two runs of games and a page of plots (3 s); the sweep report is in the fast tier
@pytest.mark.slow
def test_compare_report_is_one_self_contained_page(tmp_path):
    _need_matplotlib()
    page = tmp_path / "report.html"
    out = run("simulate", "--games", "20", "--players", "3", "--bots", "greedy", "--jobs", "1",
              "--compare", "examples/mods/shrine", "--seed", "7", "--report", str(page))
    assert out.exit_code == 0, out.output
    text = page.read_text(encoding="utf-8")
    assert check_page(text) >= 5
    assert "raiders simulate" in text and "--compare examples/mods/shrine" in text
    assert "Seed 7" in text and "win.seat.P1" in text and "%" in text
    assert "shrine-of-ash" in text and "Card texts of the mods" in text
    # the same run, the same page
    again = tmp_path / "again.html"
    run("simulate", "--games", "20", "--players", "3", "--bots", "greedy", "--jobs", "2",
        "--compare", "examples/mods/shrine", "--seed", "7", "--report", str(again))
    assert again.read_text(encoding="utf-8") == text.replace(str(page), str(again)) \
        .replace("--jobs 1", "--jobs 2")


def test_sweep_report_plots_the_figure_against_the_value(tmp_path):
    _need_matplotlib()
    page = tmp_path / "sweep.html"
    out = run("simulate", "--games", "8", "--players", "3", "--jobs", "1",
              "--cards", "examples/mods/gorgon", "--sweep", "gorgon.wounds=1..3",
              "--target", "card.gorgon.wounds=1", "--report", str(page))
    assert out.exit_code == 0, out.output
    text = page.read_text(encoding="utf-8")
    check_page(text)
    assert "as gorgon.wounds varies" in text and "boss gorgon" in text


@pytest.mark.slow  # a browser: the slow tier, where .ci/run installs Debian's chromium
def test_the_report_opens_in_headless_chromium(tmp_path):
    assert shutil.which("chromium"), "no chromium: `apt-get install chromium` (as .ci/run does)"
    _need_matplotlib()
    page = tmp_path / "report.html"
    assert run("simulate", "--games", "6", "--players", "3", "--jobs", "1",
               "--report", str(page)).exit_code == 0
    dom = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
         page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert "<svg" in dom and "Wins by seat" in dom and "Every figure" in dom


def test_without_matplotlib_report_is_a_usage_error(monkeypatch, tmp_path):
    monkeypatch.setattr(report, "available", lambda: False)
    out = run("simulate", "--games", "2", "--report", str(tmp_path / "r.html"))
    assert out.exit_code == 2 and "raiders[report]" in out.output
