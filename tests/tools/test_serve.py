"""`raiders serve` against hostile clients (issue 27) and its index (issue 24): who may ask
(the Host header, the token off loopback), what it lists (only files that declare a raiders
log), and what a connection may cost (no thread each, bounded, timed out, nonsense answered).
The fuzzing of it: test_fuzz_serve.py."""
import shutil
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from raiders.interpreter.tools.httpguard import Guard, network_address
from raiders.interpreter.tools.serve import make_server

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "logs" / "classic-duel-table.yaml"
SECRET = "hunter2-do-not-show"


@pytest.fixture
def folder(tmp_path):
    shutil.copy(LOG, tmp_path / "game.yaml")
    (tmp_path / "secrets.yaml").write_text(f"password: {SECRET}\napi_key: {SECRET}\n")
    (tmp_path / "mod.yaml").write_text("name: mine\ndeck: [a]\n")
    # a log that names the secrets as its ruleset: a bad log whose page must not quote them
    (tmp_path / "pointing.yaml").write_text(
        LOG.read_text().replace("ruleset: classic", "ruleset: secrets.yaml"))
    return tmp_path


@contextmanager
def running(folder, **kw):
    server = make_server(str(folder), 0, **kw)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def raw(port: int, data: bytes, half_close: bool = True) -> bytes:
    """What the server answers to these bytes (the whole answer, up to its closing)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as c:
        c.sendall(data)
        if half_close:
            c.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := c.recv(65536):
            out += chunk
    return out


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def get(port: int, target: str, host: str = "localhost") -> bytes:
    return raw(port, f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())


def test_only_the_servers_own_host_names_are_answered(folder):
    with running(folder) as server:
        port = server.port
        for host in ("localhost", "127.0.0.1", "[::1]", "LOCALHOST"):
            assert status(get(port, "/", host)) == 200, host
        # DNS rebinding: a page on evil.example.com whose name now leads to 127.0.0.1
        for bad in (b"evil.example.com", b"evil.example.com:%d" % port, b"localhost:1",
                    b"localhost.evil.example.com:%d" % port, b"127.0.0.1.nip.io:%d" % port):
            answer = raw(port, b"GET /log/0 HTTP/1.1\r\nHost: " + bad + b"\r\n\r\n")
            assert status(answer) == 403, bad
            assert b"Hugo" not in answer
        assert status(raw(port, b"GET / HTTP/1.1\r\n\r\n")) == 400  # no Host
        two = b"GET / HTTP/1.1\r\nHost: localhost:%d\r\nHost: evil.example.com\r\n\r\n" % port
        assert status(raw(port, two)) == 400


def test_host_names_with_their_port():
    guard = Guard.for_bind("127.0.0.1", 8000, ("raiders.lan",))
    assert guard.host_allowed("localhost:8000")
    assert guard.host_allowed("Raiders.LAN:8000")
    assert guard.host_allowed("127.0.0.1:8000") and guard.host_allowed("[::1]:8000")
    assert Guard.for_bind("127.0.0.1", 80, ()).host_allowed("localhost")  # port 80 left out
    assert not guard.host_allowed("localhost")
    assert not guard.host_allowed("localhost:80000")
    assert not guard.host_allowed("[::1]x:8000")
    assert not guard.host_allowed("")
    assert not guard.host_allowed(None)
    assert not guard.host_allowed("rebind.example.com:8000")
    # an address names this server (rebinding always comes with a name): a phone on the
    # table's network opens the laptop's address
    assert Guard.for_bind("0.0.0.0", 8000).host_allowed("192.168.1.9:8000")
    assert Guard.for_bind("raiders.lan", 8000).host_allowed("raiders.lan:8000")


def test_the_token_is_wanted_only_when_there_is_one():
    assert Guard.for_bind("127.0.0.1", 8000).token_given(None)
    guard = Guard.for_bind("0.0.0.0", 8000, token="s3cret")
    assert guard.token_given("s3cret")
    assert not any(guard.token_given(bad) for bad in ("s3cre", "", None))


def test_off_loopback_every_request_wants_the_token(folder):
    with running(folder, bind="0.0.0.0") as server:
        port, token = server.port, server.token
        assert token and len(token) >= 24
        assert f"?token={token}" in server.url
        # the URL printed is one another machine can open: this machine's network address
        assert server.url.startswith(f"http://{network_address()}:{port}/")
        assert status(get(port, "/")) == 403
        assert status(get(port, f"/?token={token}", network_address())) == 200
        assert status(get(port, "/log/0")) == 403
        assert status(get(port, "/?token=" + "x" * len(token))) == 403
        index = get(port, f"/?token={token}")
        assert status(index) == 200
        assert f'href="/log/0?token={token}"'.encode() in index  # the links carry it
        page = get(port, f"/log/0?token={token}")
        assert status(page) == 200 and f'href="/?token={token}"'.encode() in page
    with running(folder) as server:  # on loopback: no token
        assert server.token is None and status(get(server.port, "/")) == 200


def test_only_files_that_declare_a_log_are_listed_and_nothing_else_is_shown(folder):
    with running(folder) as server:
        port = server.port
        assert [Path(f).name for f in server.files] == ["game.yaml", "pointing.yaml"]
        index = get(port, "/")
        assert b"secrets.yaml" not in index and b"mod.yaml" not in index
        answers = [get(port, f"/log/{i}") for i in range(4)]
        assert [status(a) for a in answers] == [200, 422, 404, 404]
        for answer in answers:
            assert SECRET.encode() not in answer
        # the bad log's page says what is wrong (E510: the file declares no raiders format),
        # without quoting the file it points at
        assert b"error[E510]" in answers[1] and b"pointing.yaml" in answers[1]
        # the log swapped for another file since the server started: not shown
        (folder / "game.yaml").write_text((folder / "secrets.yaml").read_text())
        swapped = get(port, "/log/0")
        assert status(swapped) == 404 and SECRET.encode() not in swapped


def test_a_log_page_links_back_to_its_index(folder):
    with running(folder) as server:
        page = get(server.port, "/log/0")
        assert b'<a href="/">all logs</a>' in page
        bad = get(server.port, "/log/1")
        assert b'<a href="/">all logs</a>' in bad


@pytest.mark.parametrize("request_bytes, expected", [
    (b"GET /log/" + b"9" * 5000 + b" HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 404),
    (b"GET /log/\xd9\xa3 HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 400),  # an Arabic digit
    (b"GET /log/-1 HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 404),
    (b"GET /log/01 HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 404),
    (b"GET /../../etc/passwd HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 404),
    (b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: localhost:PORT\r\nX: " + b"a" * 20000 + b"\r\n\r\n", 431),
    (b"GET / HTTP/1.1\r\nHost: localhost:PORT\r\n" + b"X: y\r\n" * 500 + b"\r\n", 431),
    (b"POST / HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 501),
    (b"GET / HTTP/2.0\r\nHost: localhost:PORT\r\n\r\n", 505),
    (b"GET / HTTP/1.1 extra\r\nHost: localhost:PORT\r\n\r\n", 400),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),  # TLS to a plain port
    (b"GET http://evil.example.com/ HTTP/1.1\r\nHost: localhost:PORT\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: localhost:PORT\r\n folded\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: localhost:PORT", 400),  # ended before its head did
])
def test_nonsense_is_answered_with_its_status(folder, request_bytes, expected):
    with running(folder) as server:
        answer = raw(server.port, request_bytes.replace(b"PORT", str(server.port).encode()))
        assert status(answer) == expected
        assert answer.startswith(b"HTTP/1.1 ")


def test_a_slow_client_is_timed_out_with_408(folder):
    with running(folder, timeout=0.5) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as c:
            c.sendall(b"GET / HTTP/1.1\r\nHost: loc")  # and nothing more
            answer = c.recv(65536)
        assert status(answer) == 408


def test_idle_half_sent_requests_take_no_thread_and_do_not_stop_a_new_request(folder):
    # A long timeout: the new request is answered because the oldest idle connection makes
    # way for it, not because the idle ones timed out.
    # A small cap keeps the test quick; past it the oldest idle connection makes way, as at
    # the default's 256.
    with running(folder, timeout=600, max_connections=32) as server:
        threads = threading.active_count()
        idle = []
        try:
            for _ in range(60):
                c = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                c.sendall(b"GET / HTTP/1.1\r\nHost: localhost")
                idle.append(c)
            assert status(get(server.port, "/log/0")) == 200
            assert threading.active_count() <= threads + 2  # the page's pool, not one each
            assert server._open <= 32
        finally:
            for c in idle:
                c.close()


def test_head_gets_the_headers_only(folder):
    with running(folder) as server:
        answer = raw(server.port, b"HEAD / HTTP/1.1\r\nHost: localhost:%d\r\n\r\n" % server.port)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert status(answer) == 200 and b"Content-Length:" in head and body == b""


def test_the_command_prints_its_url_with_the_token_off_loopback(folder):
    proc = subprocess.Popen([sys.executable, "-m", "raiders", "serve",
                             str(folder), "--port", "0", "--bind", "0.0.0.0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "serving" in line and "2 log(s)" in line and "?token=" in line, line
        url = line.split(" on ", 1)[1].split()[0]
        assert urllib.request.urlopen(url, timeout=30).status == 200
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(url.split("?")[0], timeout=30)
        assert err.value.code == 403
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_port_in_use_is_an_error_not_a_traceback(folder):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "raiders", "serve",
                            str(folder), "--port", str(port)],
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "cannot listen on 127.0.0.1 port" in r.stderr + r.stdout
    assert "Traceback" not in r.stderr
