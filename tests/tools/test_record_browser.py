"""`raiders record` in a real browser (Chromium through Playwright, tests/viewer_browser.py):
whole games entered by clicks and keys from the plays of example logs, and the saved log
replayed with --check to the same result (issue 25)."""
from __future__ import annotations

from pathlib import Path

import pytest
from record_browser import DESKTOP, PHONE, enter_rooms, new_page, recorded, rendered, serve, set_up
from viewer_browser import launch, why_no_browser

from raiders.interpreter.records.logs import LogSpec, read_log
from raiders.interpreter.records.replay import replay

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def browser():
    why = why_no_browser()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def same_result(saved: Path, spec: LogSpec, allow: tuple[str, ...] = ()) -> None:
    mine = read_log(str(saved), allow)
    outcome = replay(mine, check=True)
    assert outcome.divergence is None, str(outcome.divergence)
    want = replay(spec, check=True).result
    assert outcome.result is not None and want is not None
    assert (outcome.result.winners, outcome.result.out) == (want.winners, want.out)
    assert [r.after_state for r in outcome.result.rooms] == [r.after_state for r in want.rooms]


def test_a_whole_25_room_game_by_clicks_and_keys(browser, tmp_path):
    spec = read_log(str(ROOT / "examples/logs/deluxe-standard-table.yaml"))
    server, url = serve(tmp_path)
    try:
        page = new_page(browser, PHONE)
        page.goto(url)
        set_up(page, spec, "table", hidden=True)
        enter_rooms(page, spec, range(len(spec.rooms)))
        page.wait_for_selector("#result")
        assert "Bob" in page.inner_text("#result")
    finally:
        server.shutdown()
    same_result(tmp_path / "table.yaml", spec)


def test_an_illegal_card_cannot_be_chosen_and_the_page_says_why(browser, tmp_path):
    spec = read_log(str(ROOT / "examples/logs/classic-duel-table.yaml"))
    server, url = serve(tmp_path)
    try:
        page = new_page(browser, DESKTOP)
        page.goto(url)
        set_up(page, spec, "duel")
        enter_rooms(page, spec, range(1))
        # room 2 (C-2: power cards come back only when the floor ends): whoever played a
        # power card in room 1 finds it disabled, with the reason beside it
        checked = 0
        while not checked:
            who = page.get_attribute("#question", "data-player")
            spent = [c for c in spec.rooms[0].plays[who].cards if isinstance(c, int)]
            for card in spent:
                assert page.is_disabled(f"#options button[data-card='{card}']")
                assert f"played power {card}, which is not in their hand" in \
                    page.inner_text("#why-not")
                checked += 1
            if checked:  # the key of a card not in hand does nothing; the next key counts
                seq = page.get_attribute("#app", "data-seq")
                page.keyboard.press(str(spent[0]))
                page.click(f"#options button[data-card='{spec.rooms[1].plays[who].cards[0]}']")
                rendered(page, seq)
            else:  # this player spent an item: answer from the log, ask the next
                seq = page.get_attribute("#app", "data-seq")
                page.keyboard.press(str(spec.rooms[1].plays[who].cards[0]))
                rendered(page, seq)
        # room 2 is complete, with the cards of the log (the ignored key counted for nothing)
        assert recorded(page) == 2
        saved = read_log(str(tmp_path / "duel.yaml"))
        assert {n: p.cards for n, p in saved.rooms[1].plays.items()} == \
            {n: p.cards for n, p in spec.rooms[1].plays.items()}
    finally:
        server.shutdown()


def mod_boss_log(folder: Path) -> Path:
    """A deluxe game whose boss is the gorgon of examples/mods/gorgon (seed 4 deals it),
    played by bots and logged."""
    import subprocess
    import sys

    log = folder / "gorgon-game.yaml"
    subprocess.run([sys.executable, "-m", "raiders", "play", "--cards",
                    str(ROOT / "examples/mods/gorgon"), "--seed", "4", "--players", "3",
                    "--bots", "greedy", "--log", str(log)], check=True, capture_output=True)
    return log


@pytest.mark.parametrize("which", ["classic duel", "mod boss"])
def test_a_classic_duel_and_a_game_with_a_mod_boss(browser, tmp_path, which):
    mods: tuple[str, ...] = ()
    if which == "mod boss":
        mods = (str(ROOT / "examples/mods/gorgon"),)
        source = tmp_path / "source"
        source.mkdir()
        spec = read_log(str(mod_boss_log(source)), mods)
        assert spec.floors is not None and spec.floors[-1].rooms[-1].card == "gorgon"
    else:
        spec = read_log(str(ROOT / "examples/logs/classic-duel-table.yaml"))
    folder = tmp_path / "recorded"
    folder.mkdir()
    server, url = serve(folder, mods)
    try:
        page = new_page(browser, DESKTOP)
        page.goto(url)
        set_up(page, spec, "game")
        enter_rooms(page, spec, range(len(spec.rooms)))
        page.wait_for_selector("#result")
    finally:
        server.shutdown()
    same_result(folder / "game.yaml", spec, mods)


def test_a_reload_mid_game_goes_on(browser, tmp_path):
    spec = read_log(str(ROOT / "examples/logs/classic-duel-table.yaml"))
    server, url = serve(tmp_path)
    try:
        page = new_page(browser, PHONE)
        page.goto(url)
        set_up(page, spec, "duel")
        enter_rooms(page, spec, range(6))
        # half of room 7 entered, then the page is reloaded: the room's answers so far are kept
        seq = page.get_attribute("#app", "data-seq")
        card = spec.rooms[6].plays[page.get_attribute("#question", "data-player")].cards[0]
        page.click(f"#options button[data-card='{card}']")
        rendered(page, seq)
        page.reload()
        page.wait_for_selector("#question")
        assert "So far" in page.inner_text("#question")
        assert recorded(page) == 6
    finally:
        server.shutdown()
    # and a server started afresh on the same folder goes on from the log
    server, url = serve(tmp_path)
    try:
        page = new_page(browser, PHONE)
        page.goto(url + "#game=duel.yaml")
        page.wait_for_selector("#question")
        assert recorded(page) == 6
        enter_rooms(page, spec, range(6, len(spec.rooms)))
        page.wait_for_selector("#result")
    finally:
        server.shutdown()
    same_result(tmp_path / "duel.yaml", spec)
