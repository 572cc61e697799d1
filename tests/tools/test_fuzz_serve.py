"""`raiders serve` fuzzed (issue 27): random and hostile requests sent to a real server in a
child process, two of them (on loopback; on every address, where a token is wanted).

Requests drawn: well-formed ones with every kind of method, target (the logs, numbers past the
list, 5,000 digits, `..`, huge paths, any text), version, `Host:` (its own names, other names,
none, two, nonsense), token (right, wrong, none), many or huge headers, LF or CRLF; and plain
random bytes. Each is sent whole or cut short, and the connection half-closed or left open (a
half-sent request, which the server must time out). For each case:

- an answer `HTTP/1.1 NNN` with NNN one of the statuses the server promises, and the
  connection ended by the server within HANG seconds (else a hang);
- no disclosure: a log's content (200, 422) only to a request naming a host of the server,
  with the token where one is wanted; a file that is not a log (secrets.yaml) never;
- the server alive, answering the next honest request, and its stderr free of tracebacks.

The fast tier tries a few cases; the slow tier RAIDERS_FUZZ_EXAMPLES (default 300).
RAIDERS_FUZZ_COUNTS=FILE records one `serve` line per case, as test_fuzz.py does."""
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SLOW = int(os.environ.get("RAIDERS_FUZZ_EXAMPLES", "300"))
HANG = 20.0  # seconds: the server's client timeout is 0.5 s
SECRET = b"hunter2-serve-fuzz"
PROMISED = {200, 400, 403, 404, 408, 414, 422, 431, 501, 505}
# What only a log's page holds: the players' names of the log served.
LOG_CONTENT = b"Hugo"


class Server:
    """`raiders serve` in a child process; the port it printed, its token, its stderr."""

    def __init__(self, folder: Path, bind: str, tmp: Path, argv: Optional[list[str]] = None):
        # argv: another server that prints the same first line (to measure an older one)
        self.stderr_path = tmp / f"serve-{bind}.err"
        self.stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen(
            argv or [sys.executable, "-m", "raiders", "serve", str(folder), "--port", "0",
                     "--bind", bind, "--client-timeout", "0.5"],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        line = self.proc.stdout.readline()
        assert " on http://" in line, line
        url = line.split(" on ", 1)[1].split()[0]
        self.port = int(url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        self.token = url.split("?token=", 1)[1] if "?token=" in url else None
        self.seen = 0

    def new_stderr(self) -> str:
        text = self.stderr_path.read_text()
        new, self.seen = text[self.seen:], len(text)
        return new

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.stderr.close()


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve-fuzz")
    folder = tmp / "logs"
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "logs" / "classic-duel-table.yaml", folder / "a.yaml")
    (folder / "secrets.yaml").write_bytes(b"password: " + SECRET + b"\n")
    (folder / "b.yaml").write_text(  # a bad log naming the secrets as its ruleset
        (ROOT / "examples" / "logs" / "classic-duel-table.yaml").read_text()
        .replace("ruleset: classic", "ruleset: secrets.yaml"))
    both = {"loopback": Server(folder, "127.0.0.1", tmp), "every": Server(folder, "0.0.0.0", tmp)}
    yield both
    for s in both.values():
        s.close()


# ---- requests --------------------------------------------------------------------------------

_GOOD_HOSTS = ["localhost:{port}", "127.0.0.1:{port}", "[::1]:{port}", "LocalHost:{port}"]
_BAD_HOSTS = ["evil.example.com", "evil.example.com:{port}", "localhost", "localhost:1",
              "127.0.0.1.nip.io:{port}", "", "localhost:{port} x", "[::1", "localhost:{port}:1",
              "\u00e9vil:{port}", "127.0.0.1:0{port}"]
_TARGETS = ["/", "/index.html", "/log/0", "/log/1", "/log/2", "/log/99", "/log/-1",
            "/log/" + "9" * 5000, "/log/../secrets.yaml", "/secrets.yaml", "/../secrets.yaml",
            "//etc/passwd", "*", "http://evil.example.com/", "/log/0#x", "/%2e%2e/secrets.yaml",
            "/log/\u0663", "/log/0?token=", "/?a=1&token=x&token=y"]


@st.composite
def fuzz_request(draw):
    """(bytes to send, whether to half-close after them, the Host values sent, token sent)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=3000)), draw(st.booleans()), [], None
    method = draw(st.sampled_from(["GET", "GET", "GET", "HEAD", "POST", "OPTIONS", "BREW",
                                   "get", "G ET", ""]) | st.text(max_size=8))
    target = draw(st.sampled_from(_TARGETS)
                  | st.text(max_size=100).map(lambda t: "/" + t)
                  | st.integers(0, 20000).map(lambda n: "/" + "a" * n))
    token_kind = draw(st.sampled_from(["right", "right", "wrong", "none"]))
    version = draw(st.sampled_from(["HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0",
                                    "HTTP/0.9", "http/1.1", "HTTP/1.1 x", "", "HTTP/1.12"]))
    hosts = draw(st.lists(st.sampled_from(_GOOD_HOSTS) | st.sampled_from(_BAD_HOSTS)
                          | st.text(max_size=30), min_size=0, max_size=3))
    if draw(st.integers(0, 3)):  # mostly exactly one host, so the rest of the path is reached
        hosts = [draw(st.sampled_from(_GOOD_HOSTS))]
    extra = draw(st.lists(st.tuples(st.sampled_from(["Accept", "X", "Cookie", "host ", " Host",
                                                     "Content-Length", "Transfer-Encoding"])
                                    | st.text(max_size=10), st.text(max_size=40)), max_size=4))
    many = draw(st.sampled_from([0, 0, 0, 0, 60, 150]))
    huge = draw(st.sampled_from([0, 0, 0, 0, 9000, 70000]))
    eol = draw(st.sampled_from(["\r\n", "\r\n", "\n"]))
    cut = draw(st.floats(0, 1)) if draw(st.integers(0, 3)) == 0 else None  # where to cut it
    close = draw(st.booleans())
    return method, target, token_kind, version, hosts, extra, many, huge, eol, cut, close


def _build(req, server: Server):
    if len(req) == 4:
        return req
    method, target, token_kind, version, hosts, extra, many, huge, eol, cut, close = req
    if server.token and token_kind != "none" and "token=" not in target:
        token = server.token if token_kind == "right" else server.token[::-1]
        target += ("&" if "?" in target else "?") + "token=" + token
    hosts = [h.replace("{port}", str(server.port)) for h in hosts]
    lines = [f"{method} {target} {version}"] + [f"Host: {h}" for h in hosts]
    lines += [f"{k}: {v}" for k, v in extra]
    lines += [f"X-Many-{i}: {i}" for i in range(many)]
    if huge:
        lines.append("X-Huge: " + "h" * huge)
    data = (eol.join(lines) + eol + eol).encode("utf-8", "surrogatepass")
    if cut is not None:
        data = data[:int(cut * (len(data) - 1))]
    return data, close, hosts, target


def _send(port: int, data: bytes, close: bool) -> bytes:
    """The answer, read until the server closes; raises socket.timeout on a hang."""
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as c:
        try:
            c.sendall(data)
            if close:
                c.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before taking it all: read what it said
        out = b""
        try:
            while chunk := c.recv(65536):
                out += chunk
        except ConnectionResetError:
            pass
    return out


def _code(answer: bytes) -> Optional[int]:
    """An answer's status (HTTP/1.0 or 1.1), else None."""
    parts = answer.split(b"\r\n", 1)[0].split(b" ", 2)
    if len(parts) >= 2 and parts[0] in (b"HTTP/1.0", b"HTTP/1.1") and parts[1].isdigit():
        return int(parts[1])
    return None


def problems(server: Server, req) -> list[str]:
    """What went wrong with one case: `hang`, `traceback`, `death`, `disclosure`, `status`."""
    data, close, hosts, target = _build(req, server)
    found = []
    try:
        answer = _send(server.port, data, close)
    except socket.timeout:
        return ["hang"]
    head = answer.split(b"\r\n", 1)[0]
    code = _code(answer)
    if code not in PROMISED or not head.startswith(b"HTTP/1.1 "):
        found.append(f"status {head[:80]!r}")
    if SECRET in answer:
        found.append("disclosure: secrets.yaml")
    own = [h for h in hosts if h.lower() in {g.replace("{port}", str(server.port)).lower()
                                             for g in _GOOD_HOSTS}]
    token_ok = server.token is None or (target is not None and f"token={server.token}" in target)
    if (code in (200, 422) or LOG_CONTENT in answer) and not (
            len(hosts) == 1 and own and token_ok):
        found.append("disclosure: a log to a request from elsewhere")
    if server.proc.poll() is not None:
        return found + ["death"]
    try:  # alive and answering
        honest = f"GET /?token={server.token} HTTP/1.1\r\nHost: localhost:{server.port}\r\n\r\n"
        if _code(_send(server.port, honest.encode(), True)) != 200:
            found.append("not answering after it")
    except socket.timeout:
        found.append("hang (the next request)")
    if "Traceback" in server.new_stderr():
        found.append("traceback")
    return found


def _count() -> None:
    out = os.environ.get("RAIDERS_FUZZ_COUNTS")
    if out:
        with open(out, "a") as fh:
            fh.write("serve\n")


def _run(servers, n: int, fast: bool) -> None:
    random_run = not fast and os.environ.get("RAIDERS_FUZZ_RANDOM") == "1"

    @settings(max_examples=n, deadline=None, derandomize=not random_run, database=None,
              suppress_health_check=list(HealthCheck))
    @given(fuzz_request(), st.sampled_from(["loopback", "every"]))
    def run(req, which):
        found = problems(servers[which], req)
        _count()
        assert not found, (which, found, _build(req, servers[which])[0][:300])

    run()


def test_fuzz_serve(servers):
    _run(servers, 6, fast=True)


@pytest.mark.slow
def test_fuzz_serve_slow(servers):
    _run(servers, SLOW, fast=False)
