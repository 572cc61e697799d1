"""`raiders record` without a browser: the recorder's rules checks and its HTTP server
(interpreter/tools/record.py, recordserver.py; issue 25)."""
from __future__ import annotations

import http.client
import json
import tempfile
import threading
import time
from pathlib import Path

import pytest
from record_plays import answer_for, record_rooms, setup_of

from raiders.interpreter.records.logs import read_log
from raiders.interpreter.records.replay import replay
from raiders.interpreter.tools.record import MARK, Recorder, RecordError
from raiders.interpreter.tools.recordserver import MAX_BODY, make_server

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "examples/logs/classic-duel-table.yaml"


def same_game(saved: Path, original: Path) -> None:
    """The saved log replays with --check, to the original's state after every room and its
    result."""
    mine, theirs = replay(read_log(str(saved)), check=True), replay(read_log(str(original)))
    assert mine.divergence is None
    assert mine.result is not None and theirs.result is not None
    assert (mine.result.winners, mine.result.out) == (theirs.result.winners, theirs.result.out)
    assert [r.after_state for r in mine.result.rooms] == \
        [r.after_state for r in theirs.result.rooms]


def test_a_logged_duel_recorded_answer_by_answer_replays_to_the_same_result(tmp_path):
    # the face-down rooms are left blank at the set-up and said as each is turned over
    spec = read_log(str(DUEL))
    rec = Recorder(tmp_path)
    name = rec.create("duel", setup_of(spec, hidden=True))
    state = rec.state(name)
    assert state["unseen"][:2] == ["1.2", "1.5"]
    state = record_rooms(spec, state, lambda answers: rec.state(name, answers), range(1))
    q = state["question"]
    assert q["kind"] == "room" and state["next"]["card"] is None
    assert "zombie" in [o["card"] for o in q["options"]]
    with pytest.raises(RecordError, match="face down: say first which room"):
        rec.state(name, [{"kind": "room", "player": None, "value": "necromancer"}])
    state = record_rooms(spec, state, lambda answers: rec.state(name, answers),
                         range(1, len(spec.rooms)))
    assert state["finished"] and state["view"]["result"]["winners"] == ["Hugo"]
    assert state["unseen"] == []
    text = (tmp_path / name).read_text()
    assert text.startswith(MARK + "\nformat: raiders-log/1\n")
    assert "\nresult: {winners: [Hugo], out: []}\n" in text
    same_game(tmp_path / name, DUEL)
    assert read_log(str(tmp_path / name)).floors == spec.floors


def test_only_legal_cards_are_offered_and_each_other_says_why(tmp_path):
    # X-3: a thief's key is a card only where the room says; a goblin (a monster) does not.
    rec = Recorder(tmp_path)
    floors = [["goblin", "treasure-3-2", "item-vault", "lava", "treasure-2"],
              ["dragon", "treasure-4-2", "snake", "coin-vault", "treasure-2-1"],
              ["magnet", "troll", "treasure-4", "skeleton", "treasure-3-2"],
              ["goblin", "treasure-2-1", "item-vault", "troll", "spikes"],
              ["treasure-3", "gelatinous-cube", "dragon", "treasure-4-2", "necromancer"]]
    name = rec.create("keys", {
        "ruleset": "deluxe", "variant": "standard",
        "players": [{"name": "Ann", "character": "thief"}, {"name": "Bob", "character": "knight"},
                    {"name": "Cid", "character": "wizard"}],
        "dungeon": [{"rooms": f, "facing": "UUUUU"} for f in floors]})
    q = rec.state(name)["question"]
    assert (q["kind"], q["player"]) == ("card", "Ann")
    key = next(o for o in q["options"] if o["card"] == "key")
    assert not key["legal"] and "cannot be played in Goblin" in key["why"]
    assert all(o["legal"] for o in q["options"] if isinstance(o["card"], int))
    # the same entry sent anyway is refused with the reason, and nothing is written
    before = (tmp_path / name).read_bytes()
    with pytest.raises(RecordError, match="illegal play: .*key cannot be played in Goblin"):
        rec.state(name, [{"kind": "card", "player": "Ann", "value": "key"}])
    with pytest.raises(RecordError, match="Ann played 7: power cards are 1..5"):
        rec.state(name, [{"kind": "card", "player": "Ann", "value": 7}])
    assert (tmp_path / name).read_bytes() == before


def test_undo_takes_back_the_last_room_only(tmp_path):
    spec = read_log(str(DUEL))
    rec = Recorder(tmp_path)
    name = rec.create("duel", setup_of(spec))
    send = lambda answers: rec.state(name, answers)  # noqa: E731
    state = record_rooms(spec, rec.state(name), send, range(3))
    three = (tmp_path / name).read_text()
    assert len(state["view"]["steps"]) == 3
    state = rec.undo(name)
    assert len(state["view"]["steps"]) == 2
    assert len(read_log(str(tmp_path / name)).rooms) == 2
    state = record_rooms(spec, state, send, range(2, 3))
    assert (tmp_path / name).read_text() == three  # the same room again: the same bytes
    for _ in range(3):
        rec.undo(name)
    with pytest.raises(RecordError, match="nothing to undo"):
        rec.undo(name)


def test_a_new_game_never_writes_over_a_file(tmp_path):
    spec = read_log(str(DUEL))
    (tmp_path / "mine.yaml").write_text("someone's notes\n")
    rec = Recorder(tmp_path)
    with pytest.raises(RecordError, match="already exists"):
        rec.create("mine", setup_of(spec))
    assert (tmp_path / "mine.yaml").read_text() == "someone's notes\n"
    # a file the recorder did not write is no game of its, and is never written
    with pytest.raises(RecordError, match="no game"):
        rec.state("mine.yaml")
    for bad in ("../escape", "a/b", ".hidden", "x" * 80, ""):
        with pytest.raises(RecordError):
            rec.create(bad, setup_of(spec))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.yaml"]


def test_a_set_up_the_rules_refuse_leaves_no_file(tmp_path):
    spec = read_log(str(DUEL))
    setup = setup_of(spec)
    setup["dungeon"][0]["rooms"][0] = "necromancer"  # a deluxe boss: no card of classic
    with pytest.raises(RecordError, match="unknown room `necromancer`"):
        Recorder(tmp_path).create("duel", setup)
    assert list(tmp_path.iterdir()) == []


# ---- over HTTP ---------------------------------------------------------------------------


POLL = 0.05  # seconds between a server's looks at whether it is asked to stop


class Client:
    def __init__(self, folder: Path, token=None, mods=()):
        self.server = make_server(Recorder(folder, mods), "127.0.0.1", 0, token)
        self.port = self.server.server_address[1]
        # polled often, so that close() need not wait out the default half second
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": POLL},
                         daemon=True).start()

    def request(self, method, path, body=None, headers=None, raw=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        h = {"Host": f"127.0.0.1:{self.port}"}
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        conn.request(method, path, body=data, headers=h)
        res = conn.getresponse()
        out = res.read()
        conn.close()
        kind = res.getheader("Content-Type", "")
        return res.status, (json.loads(out) if kind == "application/json" else out.decode())

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def client(tmp_path):
    c = Client(tmp_path)
    yield c
    c.close()


def test_over_http_a_game_is_recorded_and_a_restarted_server_resumes_it(tmp_path):
    spec = read_log(str(DUEL))
    c = Client(tmp_path)
    status, page = c.request("GET", "/")
    assert status == 200 and "raiders record" in page and "http" not in page.split("<body>")[1]
    status, state = c.request("POST", "/api/games", {"name": "duel", "setup": setup_of(spec)})
    assert status == 201, state

    def send(answers):
        status, state = c.request("POST", "/api/games/duel.yaml/answer", {"answers": answers})
        assert status == 200, state
        return state

    record_rooms(spec, state, send, range(5))
    c.close()
    c = Client(tmp_path)  # the server is started again: the log on disk is the state
    try:
        status, state = c.request("GET", "/api/games/duel.yaml")
        assert status == 200 and len(state["view"]["steps"]) == 5
        assert c.request("GET", "/api/games")[1]["games"][0]["rooms"] == 5
        status, bad = c.request("POST", "/api/games/duel.yaml/answer", {
            "answers": [{"kind": "card", "player": state["question"]["player"], "value": 9}]})
        assert status == 422 and "power cards are 1..5" in bad["error"]
        status, state = c.request("POST", "/api/games/duel.yaml/undo", {})
        assert status == 200 and len(state["view"]["steps"]) == 4
        record_rooms(spec, state, send, range(4, 6))
    finally:
        c.close()
    # a game in progress: the rooms so far replay with --check to the original's states
    mine = replay(read_log(str(tmp_path / "duel.yaml")), check=True)
    theirs = replay(read_log(str(DUEL)))
    assert mine.divergence is None and mine.rooms_played == 6 and mine.result is None
    assert [r.after_state for r in mine.game.records] == \
        [r.after_state for r in theirs.game.records[:6]]


def test_the_token_is_needed_on_every_request_when_one_is_set(tmp_path):
    c = Client(tmp_path, token="s3cret-token")
    try:
        for path in ("/", "/api/games", "/api/options?ruleset=deluxe", "/api/games/x.yaml"):
            status, body = c.request("GET", path)
            assert status == 403 and "token" in body["error"]
            assert c.request("GET", path + ("&" if "?" in path else "?") + "token=wrong")[0] == 403
        assert c.request("GET", "/?token=s3cret-token")[0] == 200
        assert c.request("GET", "/api/games", headers={"X-Raiders-Token": "s3cret-token"})[0] == 200
        status, _ = c.request("POST", "/api/games", {"name": "g", "setup": {}})
        assert status == 403
        assert list(tmp_path.iterdir()) == []
    finally:
        c.close()


def test_a_host_that_is_not_this_server_is_refused(client, tmp_path):
    for host in ("evil.example:%d", "127.0.0.1.nip.io:%d", "localhost:1", ""):
        status, body = client.request("GET", "/api/games",
                                      headers={"Host": host % client.port if "%" in host else host})
        assert status == 403 and "Host" in body["error"]
    for host in ("localhost:%d", "[::1]:%d", "192.168.1.20:%d"):
        status, _ = client.request("GET", "/api/games", headers={"Host": host % client.port})
        assert status == 200, host


def test_bad_requests_are_refused_and_write_nothing(client, tmp_path):
    spec = read_log(str(DUEL))
    huge = b"{" + b" " * (MAX_BODY + 1) + b"}"
    status, body = client.request("POST", "/api/games", raw=huge,
                                  headers={"Content-Type": "application/json"})
    assert status == 413
    status, body = client.request("POST", "/api/games", raw=b"name=x",
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415  # what a cross-site form could send
    status, body = client.request("POST", "/api/games", {"name": "x", "setup": setup_of(spec)},
                                  headers={"Origin": "http://evil.example"})
    assert status == 403
    status, body = client.request("POST", "/api/games", raw=b"{not json",
                                  headers={"Content-Type": "application/json"})
    assert status == 400
    for path in ("/api/games/..%2F..%2Fetc%2Fpasswd", "/api/games/../x.yaml",
                 "/api/games/%2Fetc%2Fhosts", "/record.js", "/../../etc/passwd"):
        status, body = client.request("GET", path)
        assert status in (404, 422), path
    status, body = client.request("POST", "/api/games", {"name": "../out", "setup": setup_of(spec)})
    assert status == 422 and body["field"] == "name"
    for setup in ([1, 2], {"ruleset": "deluxe", "players": "everyone"},
                  {"ruleset": "deluxe", "players": [{"name": "Ann: {x}"}]},
                  {"ruleset": "../../etc", "players": [{"name": "A"}]},
                  {"ruleset": "deluxe", "seed": 10 ** 30, "players": [{"name": "A"}]}):
        status, body = client.request("POST", "/api/games", {"name": "x", "setup": setup})
        assert status == 422, (setup, body)
    assert list(tmp_path.iterdir()) == []


def test_dice_and_questions_are_asked_of_the_table(tmp_path):
    # A game with the dice and wishing-well mods, played by bots: its rolls and `may` answers
    # are entered as the table's, and the rooms come out as logged.
    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    mods = tuple(str(ROOT / "examples/mods" / m) for m in ("dice", "wishing-well"))
    source = tmp_path / "source"
    source.mkdir()
    args = ["play", "--seed", "6", "--players", "3", "--bots", "greedy",
            "--log", str(source / "bots.yaml")]
    for m in mods:
        args += ["--cards", m]
    assert CliRunner().invoke(main, args).exit_code == 0
    spec = read_log(str(source / "bots.yaml"), mods)
    upto = 1 + max(next(k for k, r in enumerate(spec.rooms) if r.rolls),
                   next(k for k, r in enumerate(spec.rooms) if r.choices))
    rec = Recorder(tmp_path, mods)
    name = rec.create("dice", setup_of(spec))
    asked: set[str] = set()

    def send(answers):
        asked.update(a["kind"] for a in answers)
        return rec.state(name, answers)

    # up to the first room that rolls a die; there the die is asked, and a face it does not
    # have is refused
    k_roll = next(k for k, r in enumerate(spec.rooms) if r.rolls)
    state = record_rooms(spec, rec.state(name), send, range(k_roll))
    answers: list = []
    used: dict = {}
    while state["question"]["kind"] != "roll":
        q = state["question"]
        answers.append({"kind": q["kind"], "player": q.get("player"),
                        "value": answer_for(spec, k_roll, q, used)})
        state = rec.state(name, answers)
    faces = state["question"]["faces"]
    with pytest.raises(RecordError, match=f"a {faces}-sided die shows 1 to {faces}, not "
                                          f"{faces + 1}"):
        rec.state(name, [*answers, {"kind": "roll", "player": None, "value": faces + 1}])
    record_rooms(spec, rec.state(name), send, range(k_roll, upto))
    assert {"roll", "may"} <= asked
    mine = replay(read_log(str(tmp_path / name), mods), check=True)
    theirs = replay(spec)
    assert mine.divergence is None and mine.rooms_played == upto
    assert [r.after_state for r in mine.game.records] == \
        [r.after_state for r in theirs.game.records[:upto]]


def test_idle_half_sent_requests_neither_hang_the_server_nor_pile_up_threads():
    """Issue 27's lesson for every server: a client that sends half a request is dropped after
    the timeout, and past MAX_CONNECTIONS a connection is closed at once, so a new request is
    still answered while hundreds of idle ones are open."""
    import socket

    from raiders.interpreter.tools import recordserver

    server = make_server(Recorder(Path(tempfile.mkdtemp()), ()), "127.0.0.1", 0, None,
                         client_timeout=0.5)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL},
                     daemon=True).start()
    before = threading.active_count()
    idle = []
    try:
        for _ in range(recordserver.MAX_CONNECTIONS + 40):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")  # never finished
            idle.append(s)
        time.sleep(0.2)
        assert threading.active_count() - before <= recordserver.MAX_CONNECTIONS + 1
        time.sleep(1.0)  # past the timeout: the idle ones are dropped, their threads gone
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
        assert conn.getresponse().status == 200
        assert threading.active_count() - before <= 2
    finally:
        for s in idle:
            s.close()
        server.shutdown()
        server.server_close()
