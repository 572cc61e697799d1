"""Driving `raiders record` in a real browser (Chromium through Playwright, as
viewer_browser.py launches it): a server on a folder, the set-up form filled from a log, and
the log's rooms entered by clicks and keys. The browser tests use it; so does this command,
which writes the screenshots docs/record.md shows:

    python tests/record_browser.py --out docs/images/record/
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import threading
from pathlib import Path

from raiders.interpreter.records.logs import LogSpec, read_log
from raiders.interpreter.tools.record import Recorder
from raiders.interpreter.tools.recordserver import make_server

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def new_page(browser, viewport):
    page = browser.new_page(viewport=viewport)
    # generous: a machine shared with other jobs may take long to load a mod's rules the
    # first time (no test here asserts a time)
    page.set_default_timeout(180_000)
    return page


def serve(folder: Path, mods: tuple[str, ...] = ()):
    server = make_server(Recorder(folder, mods), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def rendered(page, before: str) -> str:
    """Wait for the page to draw itself again; its new render number."""
    # a selector, not wait_for_function: the page's CSP forbids eval, which that uses
    page.wait_for_selector(f"#app:not([data-seq='{before}'])", state="attached")
    return page.get_attribute("#app", "data-seq")


def set_up(page, spec: LogSpec, name: str, hidden: bool = False) -> None:
    """Set up the log's game (`hidden`: face-down rooms left blank) and start recording."""
    fill(page, spec, name, hidden)
    page.click("#create")
    page.wait_for_selector("#question, #result")


def fill(page, spec: LogSpec, name: str, hidden: bool = False) -> None:
    """Fill the set-up form for the log's game."""
    page.wait_for_selector("#create")
    page.fill("#game-name", name)
    # each choice draws the form again once its options come: wait for that each time
    page.select_option("#ruleset", spec.meta.ruleset)
    page.wait_for_selector(f"#setup[data-loaded^='{spec.meta.ruleset}/']:not([data-loading])",
                           state="attached")
    page.select_option("#variant", spec.meta.variant)
    page.wait_for_selector(f"#setup[data-loaded='{spec.meta.ruleset}/{spec.meta.variant}']"
                           ":not([data-loading])", state="attached")
    page.select_option("#player-count", str(len(spec.names)))
    rows = page.locator(".player")
    for i, (who, char) in enumerate(zip(spec.names, spec.characters, strict=True)):
        rows.nth(i).locator("input").fill(who)
        rows.nth(i).locator("select").select_option(char)
    if spec.first_player is not None and page.locator("#first-player").count():
        page.select_option("#first-player", str(spec.first_player))
    if spec.meta.difficulty is not None:
        page.select_option("#difficulty", str(spec.meta.difficulty))
    assert spec.floors is not None
    for f, floor in enumerate(spec.floors):
        for r, slot in enumerate(floor.rooms):
            page.select_option(f"#room-{f}-{r}", "" if hidden and not slot.face_up else slot.card)
            page.set_checked(f"#up-{f}-{r}", slot.face_up)


def enter_rooms(page, spec: LogSpec, rooms: range) -> None:
    """Answer each question the page asks from the log's rooms: power cards and yes/no by
    key, items and dice by click."""
    for k in rooms:
        room = spec.rooms[k]
        used: dict[str, int] = {}
        while True:
            seq = page.get_attribute("#app", "data-seq")
            if page.locator("#result").count() or recorded(page) > k:
                break
            kind = page.get_attribute("#question", "data-kind")
            who = page.get_attribute("#question", "data-player")
            if kind == "room":  # a face-down room turned over: the log's card
                assert spec.floors is not None
                f, r = divmod(k, spec.rules.ruleset.rooms_per_floor)
                page.click(f"#options button[data-card='{spec.floors[f].rooms[r].card}']")
            elif kind == "card":
                i = used.get(who, 0)
                used[who] = i + 1
                card = room.plays[who].cards[i]
                if isinstance(card, int):
                    page.keyboard.press(str(card))
                else:
                    page.click(f"#options button[data-card='{card}']")
            elif kind in ("peek", "may"):
                if kind == "peek":
                    yes = who in room.peeks
                else:
                    i = used.get("?" + who, 0)
                    used["?" + who] = i + 1
                    yes = room.choices[who][i]
                page.keyboard.press("y" if yes else "n")
            else:
                i = used.get("#" + kind, 0)
                used["#" + kind] = i + 1
                value = room.rolls[i] if kind == "roll" else room.monster
                page.click(f"#options button[data-value='{value}']")
            rendered(page, seq)
            assert not page.is_visible("#error"), page.inner_text("#error")


def recorded(page) -> int:
    return int(re.search(r"\((\d+)\)", page.inner_text("#history summary")).group(1))



def screenshots(out: Path) -> list[Path]:
    """The set-up, a room and the end of examples/logs/classic-duel-table.yaml, at phone and
    desktop width."""
    from playwright.sync_api import sync_playwright
    from viewer_browser import launch

    root = Path(__file__).resolve().parents[1]
    spec = read_log(str(root / "examples/logs/classic-duel-table.yaml"))
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch(p)
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            folder = Path(tmp) / label
            folder.mkdir()
            server, url = serve(folder)
            page = new_page(browser, size)
            page.goto(url)
            page.wait_for_selector("#create")
            fill(page, spec, "duel", hidden=True)
            shots.append(out / f"setup-{label}.png")
            page.screenshot(path=str(shots[-1]), full_page=label == "desktop")
            page.click("#create")
            page.wait_for_selector("#question")
            enter_rooms(page, spec, range(7))
            shots.append(out / f"room-{label}.png")
            page.screenshot(path=str(shots[-1]), full_page=True)
            enter_rooms(page, spec, range(7, len(spec.rooms)))
            page.wait_for_selector("#result")
            shots.append(out / f"end-{label}.png")
            page.screenshot(path=str(shots[-1]), full_page=label == "desktop")
            server.shutdown()
        browser.close()
    return shots


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    for shot in screenshots(parser.parse_args().out):
        print(shot)
