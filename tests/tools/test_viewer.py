"""The replay viewer without a browser: the page's embedded data against the logs'
checkpoints, byte-identical pages, divergences, bad input, the `why` trace, branches
(`play --from`), and `serve`. The browser itself: test_viewer_browser.py (slow tier)."""
from __future__ import annotations

import json
import re
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.records.logs import read_log
from raiders.interpreter.tools.viewer import embed_json, render_html, view_for

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted((ROOT / "examples" / "logs").glob("*.yaml"))
MODS = str(ROOT / "examples" / "mods")


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def embedded(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert m, "no embedded data"
    return json.loads(m.group(1))


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_the_page_holds_the_logs_checkpoints(log, tmp_path):
    out = tmp_path / "v.html"
    r = cli("replay", str(log), "--html", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    # self-contained: nothing fetched from anywhere
    assert not re.search(r'<(script|link|img)[^>]+(src|href)=', page)
    assert "http://" not in page and "https://" not in page
    data = embedded(page)
    spec = read_log(str(log))
    assert len(data["steps"]) == len(spec.rooms)
    names = [p["name"] for p in data["players"]]
    compared = 0
    for k, room in enumerate(spec.rooms):
        step = data["steps"][k]
        assert step["diverges"] == []
        for name, fields in room.after.items():
            state = step["players"][names.index(name)]
            for field, want in fields.items():
                assert state[field] == (sorted(want) if field == "items" else want)
                compared += 1
    assert compared > 0
    assert data["firstDivergence"] is None
    assert (data["result"] is None) == (spec.result is None)
    if spec.result is not None:
        assert sorted(data["result"]["winners"]) == sorted(spec.result.get("winners", []))


def test_the_same_log_gives_the_same_bytes(tmp_path):
    log = str(ROOT / "examples" / "logs" / "deluxe-tactical-table.yaml")
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    assert cli("replay", log, "--html", str(a)).exit_code == 0
    assert cli("replay", log, "--html", str(b)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()


def test_a_folder_of_logs_gives_a_page_each(tmp_path):
    r = cli("replay", str(ROOT / "examples" / "logs"), "--html", str(tmp_path / "pages"))
    assert r.exit_code == 0, r.output
    assert sorted(p.stem for p in (tmp_path / "pages").glob("*.html")) == \
        sorted(p.stem for p in LOGS)


def test_a_divergence_is_marked_at_its_room(tmp_path):
    text = (ROOT / "examples" / "logs" / "classic-duel-table.yaml").read_text()
    log = tmp_path / "wrong.yaml"
    log.write_text(text.replace("Hugo: {coins: 12, wounds: 2}", "Hugo: {coins: 13, wounds: 2}", 1))
    out = tmp_path / "v.html"
    r = cli("replay", "--check", str(log), "--html", str(out))
    assert r.exit_code == 1  # --check: a divergence fails, the page is written all the same
    assert "checkpoint differs at floor 1, room 5" in r.output
    data = embedded(out.read_text())
    assert data["firstDivergence"] == 4
    assert data["steps"][4]["diverges"] == [
        {"player": "Hugo", "field": "coins", "expected": 13, "actual": 12}]
    # without --check the page is written and the exit status is 0, as replay's narration
    assert cli("replay", str(log), "--html", str(out)).exit_code == 0


def test_a_bad_log_is_a_diagnostic_and_no_page(tmp_path):
    log = tmp_path / "bad.yaml"
    log.write_text("format: raiders-log/1\nruleset: deluxe\nplayers: [\n")
    out = tmp_path / "v.html"
    r = CliRunner().invoke(main, ["replay", str(log), "--html", str(out)])
    assert r.exit_code == 1
    assert isinstance(r.exception, SystemExit)  # a clean exit, not an error raised
    assert re.search(r"bad\.yaml:\d+:\d+: error", r.output)
    assert not out.exists()


def test_an_unwritable_page_is_an_error_not_a_traceback(tmp_path):
    log = str(ROOT / "examples" / "logs" / "classic-solo-table.yaml")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = cli("replay", log, "--html", str(blocker / "v.html"))  # a file stands in the way
    assert r.exit_code == 1
    assert "error: cannot write" in r.output
    assert isinstance(r.exception, SystemExit)
    # an existing page (one replay --html wrote) is replaced whole or not at all
    page = tmp_path / "page.html"
    page.write_text('<!DOCTYPE html>\n<meta name="generator" content="raiders replay --html">old')
    assert cli("replay", log, "--html", str(page)).exit_code == 0
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert not list(tmp_path.glob(".page.html.*"))  # no temporary file left behind


def test_text_from_a_log_cannot_end_the_script():
    text = embed_json({"name": "</script><script>alert(1)</script>&"})
    assert "</script>" not in text and "<" not in text and "&" not in text
    assert json.loads(text) == {"name": "</script><script>alert(1)</script>&"}
    page = render_html({"title": "{{DATA}} <b>", "steps": []})
    assert "<title>{{DATA}} &lt;b&gt;" in page  # a title is text, never a placeholder


def _mod_log(tmp_path: Path, mod: str, seed: int) -> Path:
    log = tmp_path / f"{mod}-{seed}.yaml"
    r = cli("play", "--cards", str(ROOT / "examples" / "mods" / mod), "--seed", str(seed),
            "-q", "--log", str(log))
    assert r.exit_code == 0, r.output
    return log


def test_why_names_the_card_that_replaced_reacted_or_modified(tmp_path):
    sorts: dict[str, set[str]] = {}
    for mod, seed in (("pickpockets", 5), ("ambush", 2), ("wounded-pride", 1)):
        data = view_for(str(_mod_log(tmp_path, mod, seed)), (MODS,))
        steps = [w for s in data["steps"] for w in s["why"]] + data["result"]["why"]
        for w in steps:
            sorts.setdefault(w["sort"], set()).add(w["card"])
            assert w["card"] in data["cards"]  # the card's text goes with the page
    assert "replace" in sorts and "react" in sorts and "modify" in sorts
    assert "?" not in set().union(*sorts.values())


def test_replay_trace_prints_the_steps_in_order(tmp_path):
    log = _mod_log(tmp_path, "pickpockets", 5)
    r = cli("replay", "--trace", "--allow-path", MODS, str(log))
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    replaced = [i for i, line in enumerate(lines) if line.strip().startswith("[replace]")]
    assert replaced, r.output
    # the replacement comes before the effect it replaced with (a loss of coins)
    assert "loses" in lines[replaced[0] + 1]
    assert "[react]" in r.output


def test_a_branch_shares_the_first_rooms_and_replays_clean(tmp_path):
    log = ROOT / "examples" / "logs" / "deluxe-standard-table.yaml"
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for out in (a, b):
        r = cli("play", "--from", str(log), "--room", "10", "--seed", "4", "-q", "--log",
                str(out))
        assert r.exit_code == 0, r.output
    assert a.read_bytes() == b.read_bytes()
    old, new = read_log(str(log)), read_log(str(a))
    assert [{n: p.cards for n, p in r.plays.items()} for r in old.rooms[:10]] == \
        [{n: p.cards for n, p in r.plays.items()} for r in new.rooms[:10]]
    assert cli("replay", "--check", str(a)).exit_code == 0


@pytest.mark.parametrize("name,room", [("classic-solo-table.yaml", 3),
                                       ("deluxe-standard-in-progress.yaml", 7),
                                       ("classic-duel-table.yaml", 0)])
def test_branches_of_every_kind_of_game_replay_clean(tmp_path, name, room):
    out = tmp_path / "branch.yaml"
    r = cli("play", "--from", str(ROOT / "examples" / "logs" / name), "--room", str(room),
            "--bots", "random", "-q", "--log", str(out))
    assert r.exit_code == 0, r.output
    assert cli("replay", "--check", str(out)).exit_code == 0


def test_a_branch_past_the_log_is_a_usage_error():
    r = cli("play", "--from", str(ROOT / "examples" / "logs" / "deluxe-standard-in-progress.yaml"),
            "--room", "8")
    assert r.exit_code == 2
    assert "--room takes 0..7" in r.output


def test_serve_lists_the_logs_and_serves_each_page():
    from raiders.interpreter.tools.serve import make_server

    server = make_server(str(ROOT / "examples" / "logs"), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        base = f"http://{host}:{port}"
        index = urllib.request.urlopen(base + "/").read().decode()
        assert index.count('href="/log/') == len(LOGS)
        page = urllib.request.urlopen(base + "/log/0").read().decode()
        assert embedded(page)["steps"]
        for bad in ("/log/99", "/log/../../etc/passwd", "/etc/passwd"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(base + bad)
            assert err.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_play_from_refuses_options_that_the_log_already_says():
    log = str(ROOT / "examples" / "logs" / "deluxe-standard-table.yaml")
    r = cli("play", "--from", log, "--room", "10", "--players", "3", "--ruleset", "classic")
    assert r.exit_code == 2 and "leave out --ruleset, --players" in r.output
    r = cli("play", "--room", "0", "--games", "2")  # found by the CLI fuzzer (slow tier)
    assert r.exit_code == 2 and "give --from LOG" in r.output


def test_what_happened_names_items_and_rooms_as_the_narration_does():
    """The viewer's steps are the narration's words (items by the names on their cards, the
    room by its name), not the trace's ids."""
    data = view_for(str(ROOT / "examples" / "logs" / "deluxe-standard-table.yaml"))
    said = [s["text"] for step in data["steps"] for s in step["steps"]]
    assert any("gets a Torch" in t for t in said), said[:20]
    assert not any(re.search(r"gets an? (torch|key|sword|crystal-ball)\b", t) for t in said)
    assert any(re.search(r"the (Goblin|Troll|Dragon|Snake|Skeleton) (attacks|is)", t)
               for t in said), said[:40]
