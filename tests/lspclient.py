"""A minimal LSP client for the tests: `raiders lsp` in a child process, spoken to over stdio
with Content-Length framing, as an editor would (tests/test_lsp.py, and the fuzz harness's
`lsp` cases in tests/test_fuzz.py). Raw bytes can be sent too, for frames an editor would not
send; what the server prints on stderr is kept in a file (a pipe could fill and stall it)."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Optional

TIMEOUT = 60


def uri(path: Path) -> str:
    return path.resolve().as_uri()


def frame(body: bytes, length: Any = None) -> bytes:
    """One message: its header (the body's true length unless told otherwise) and its body."""
    size = len(body) if length is None else length
    return b"Content-Length: %s\r\n\r\n" % str(size).encode() + body


def message(msg: dict) -> bytes:
    return frame(json.dumps({"jsonrpc": "2.0", **msg}).encode())


class Client:
    def __init__(self, cwd: Path):
        self.errors = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from raiders.interpreter.cli import main; main()", "lsp"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, cwd=cwd)
        self.inbox: queue.Queue = queue.Queue()
        self.notes: list[dict] = []
        self.next_id = 0
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg: dict) -> None:
        self.raw(message(msg))

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def answer(self, msg_id: Any, timeout: float = TIMEOUT) -> dict:
        """The server's response to the request `msg_id` (or with no id: to a message it could
        not read), the whole message; notifications meanwhile are kept."""
        while True:
            msg = self.inbox.get(timeout=timeout)
            if "method" not in msg and msg.get("id") == msg_id:
                return msg
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                self.send({"id": msg["id"], "result": None})
            else:
                self.notes.append(msg)

    def request(self, method: str, params: Any):
        msg_id = self.new_id()
        self.send({"id": msg_id, "method": method, "params": params})
        msg = self.answer(msg_id)
        assert "error" not in msg, msg
        return msg["result"]

    def published(self, file_uri: str, timeout: float = TIMEOUT) -> dict:
        """The params of the next diagnostics published for a document."""
        for i, note in enumerate(self.notes):
            if note.get("method") == "textDocument/publishDiagnostics" and \
                    note["params"]["uri"] == file_uri:
                del self.notes[i]
                return note["params"]
        while True:
            msg = self.inbox.get(timeout=timeout)
            if msg.get("method") == "textDocument/publishDiagnostics" and \
                    msg["params"]["uri"] == file_uri:
                return msg["params"]
            if "method" in msg and "id" in msg:
                self.send({"id": msg["id"], "result": None})
            else:
                self.notes.append(msg)

    def diagnostics(self, file_uri: str) -> list[dict]:
        return self.published(file_uri)["diagnostics"]

    def open(self, path: Path, text: str, language: str = "raiders") -> list[dict]:
        self.open_quietly(path, text, language)
        return self.diagnostics(uri(path))

    def open_quietly(self, path: Path, text: str, language: str = "raiders") -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": language, "version": 1, "text": text}})

    def change(self, path: Path, text: str, version: int) -> list[dict]:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": text}]})
        return self.diagnostics(uri(path))

    def at(self, method: str, path: Path, line: int, char: int):
        return self.request(method, {"textDocument": {"uri": uri(path)},
                                     "position": {"line": line, "character": char}})

    def stderr(self) -> str:
        """Everything the server has printed on stderr so far."""
        self.errors.seek(0)
        return self.errors.read().decode("utf-8", "replace")

    def initialize(self, root: Path) -> dict:
        caps = self.request("initialize", {"processId": None, "rootUri": uri(root),
                                           "capabilities": {}})["capabilities"]
        self.notify("initialized", {})
        return caps

    def close(self) -> Optional[int]:
        """Shut the server down as an editor does; its exit status."""
        try:
            if self.proc.poll() is None:
                msg_id = self.new_id()
                self.send({"id": msg_id, "method": "shutdown"})
                self.answer(msg_id, timeout=30)
                self.notify("exit", None)
                self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode
