"""A real browser for the replay viewer: Debian's Chromium driven by Playwright for Python.

Playwright's own browser download does not work everywhere, so it is pointed at the system
binary (`executable_path`): $RAIDERS_CHROMIUM, else `chromium` / `chromium-browser` on PATH.

Also a command, to look at the viewer by eye (docs/viewer.md):

    python tests/viewer_browser.py examples/logs/deluxe-standard-table.yaml --out screenshots/

writes the first and the last room of the log as PNG files (first-room.png, last-room.png).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Optional

WIDTH, HEIGHT = 1400, 1000


def chromium_path() -> Optional[str]:
    env = os.environ.get("RAIDERS_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def why_no_browser() -> Optional[str]:
    """None when a browser can be driven here, else why not."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install '.[viewer-test]')"
    if chromium_path() is None:
        return "no Chromium (apt-get install -y chromium, or set RAIDERS_CHROMIUM)"
    return None


def launch(playwright):
    # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    return playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                      args=["--no-sandbox"])


def screenshots(log: str, out: Path) -> list[Path]:
    """The viewer of `log` at its first and its last room, as PNG files in `out`."""
    from playwright.sync_api import sync_playwright

    from raiders.interpreter.tools.viewer import view_for, write_html

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "viewer.html"
        data = view_for(log)
        write_html(str(page_file), data)
        shots = []
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            for name, step in (("first-room", 1), ("last-room", len(data["steps"]))):
                page.goto(f"{page_file.as_uri()}#room={step}")
                page.reload()  # a new hash alone does not run the page again
                target = out / f"{name}.png"
                page.screenshot(path=str(target), full_page=True)
                shots.append(target)
            browser.close()
    return shots


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Screenshots of the replay viewer's first and "
                                             "last room of a log.")
    ap.add_argument("log")
    ap.add_argument("--out", default="screenshots", help="folder for the PNG files")
    args = ap.parse_args(argv)
    why = why_no_browser()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 1
    for shot in screenshots(args.log, Path(args.out)):
        print(f"wrote {shot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
