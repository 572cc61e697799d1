"""The `raiders record` command: what it prints and serves (docs/record.md)."""
from __future__ import annotations

import http.client
import re
import subprocess
from urllib.parse import urlsplit

from childproc import PYTHON


def start(*args: str) -> tuple[subprocess.Popen, str]:
    child = subprocess.Popen([PYTHON, "-m", "raiders", "record", "--port", "0", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    for line in child.stdout:
        m = re.search(r"open (http://\S+)", line)
        if m:
            return child, m.group(1)
    child.kill()
    raise AssertionError("no URL printed: " + (child.stderr.read() if child.stderr else ""))


def get(url: str, path: str) -> int:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=30)
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{parts.port}"})
    status = conn.getresponse().status
    conn.close()
    return status


def test_on_localhost_the_page_is_served_without_a_token(tmp_path):
    child, url = start(str(tmp_path / "games"))
    try:
        assert urlsplit(url).hostname == "127.0.0.1" and "token" not in url
        assert get(url, "/") == 200
        assert (tmp_path / "games").is_dir()
    finally:
        child.kill()
        child.wait()


def test_on_the_network_every_request_needs_the_printed_token(tmp_path):
    child, url = start(str(tmp_path), "--network")
    try:
        token = re.search(r"token=([\w-]+)", url).group(1)
        assert len(token) >= 32
        assert get(url, "/") == 403
        assert get(url, "/api/games") == 403
        assert get(url, f"/?token={token}") == 200
    finally:
        child.kill()
        child.wait()
    assert list(tmp_path.iterdir()) == []


def test_a_port_in_use_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        done = subprocess.run([PYTHON, "-m", "raiders", "record", str(tmp_path), "--port",
                               str(port)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "the port is in use" in done.stderr and "Traceback" not in done.stderr


def test_a_folder_that_did_not_exist_is_said_to_be_new(tmp_path):
    """A mistyped folder name starts an empty one: the command says so (a user review)."""
    for folder, new in ((tmp_path / "typo", True), (tmp_path, False)):
        child = subprocess.Popen([PYTHON, "-m", "raiders", "record", "--port", "0", str(folder)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            first = child.stdout.readline()
            assert first.startswith("recording into"), first
            assert ("a new folder" in first) is new, first
        finally:
            child.kill()
            child.wait()
