"""`raiders lsp` end to end: the server in a subprocess, spoken to over stdio in JSON-RPC, as an
editor would. Needs pygls and lsprotocol (in the `test` extra: without them this fails)."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import lsprotocol  # noqa: F401  (the extra is installed: fail here, not later, if it is not)
import pygls  # noqa: F401
import pytest

from raiders.formats.validate import validate_paths

TIMEOUT = 60

BOSS = """\
boss gorgon {
  name "Gorgon"
  strength 12 / 16 / 20
  wounds 2
  target higest
  after attack { attacked: lose 1 coin }
}
"""


def uri(path: Path) -> str:
    return path.resolve().as_uri()


class Client:
    """A minimal LSP client: Content-Length framing over the server's stdin and stdout."""

    def __init__(self, cwd: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from raiders.interpreter.cli import main; main()", "lsp"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd)
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

    def send(self, msg: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.inbox.get(timeout=TIMEOUT)
            if msg.get("id") == self.next_id and "method" not in msg:
                assert "error" not in msg, msg
                return msg["result"]
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                self.send({"id": msg["id"], "result": None})
            else:
                self.notes.append(msg)

    def diagnostics(self, file_uri: str) -> list[dict]:
        """The next diagnostics published for a document."""
        for i, note in enumerate(self.notes):
            if note.get("method") == "textDocument/publishDiagnostics" and \
                    note["params"]["uri"] == file_uri:
                del self.notes[i]
                return note["params"]["diagnostics"]
        while True:
            msg = self.inbox.get(timeout=TIMEOUT)
            if msg.get("method") == "textDocument/publishDiagnostics" and \
                    msg["params"]["uri"] == file_uri:
                return msg["params"]["diagnostics"]
            if "method" in msg and "id" in msg:
                self.send({"id": msg["id"], "result": None})
            else:
                self.notes.append(msg)

    def open(self, path: Path, text: str, language: str = "raiders") -> list[dict]:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": language, "version": 1, "text": text}})
        return self.diagnostics(uri(path))

    def change(self, path: Path, text: str, version: int) -> list[dict]:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri(path), "version": version},
            "contentChanges": [{"text": text}]})
        return self.diagnostics(uri(path))

    def at(self, method: str, path: Path, line: int, char: int):
        return self.request(method, {"textDocument": {"uri": uri(path)},
                                     "position": {"line": line, "character": char}})

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    folder = tmp_path / "gorgon-mod"
    folder.mkdir()
    (folder / "gorgon.dsl").write_text(BOSS)
    (folder / "mod.yaml").write_text("bosses: [gorgon]\n")
    return folder


@pytest.fixture
def client(tmp_path: Path):
    c = Client(tmp_path)
    caps = c.request("initialize", {"processId": None, "rootUri": uri(tmp_path),
                                    "capabilities": {}})["capabilities"]
    c.notify("initialized", {})
    for feature in ("hoverProvider", "completionProvider", "definitionProvider",
                    "documentSymbolProvider", "codeActionProvider",
                    "documentFormattingProvider"):
        assert caps.get(feature), feature
    yield c
    c.close()


def test_diagnostics_are_those_of_validate_and_the_quick_fix_applies(client, mod):
    boss = mod / "gorgon.dsl"
    diags = client.open(boss, BOSS)
    expected = [d.to_json() for d in validate_paths([str(mod)]).diagnostics]
    assert [(d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1,
             d["range"]["end"]["character"] + 1) for d in diags] == \
        [(e["code"], e["line"], e["col"], e["end"]["col"]) for e in expected]
    [d] = diags
    assert d["code"] == "E102" and "unknown selector `higest`" in d["message"]
    assert "did you mean `highest`?" in d["message"]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri(boss)}, "range": d["range"],
        "context": {"diagnostics": [d]}})
    [fix] = actions
    [edit] = fix["edit"]["changes"][uri(boss)]
    assert edit["newText"] == "highest" and edit["range"] == d["range"]
    # typing the fix clears the diagnostic; a new slip brings one (unsaved text is used)
    assert client.change(boss, BOSS.replace("higest", "highest"), 2) == []
    broken = client.change(boss, BOSS.replace("wounds 2", "wounds 2 +"), 3)
    assert [x["code"] for x in broken] == ["E001"]


def test_hover_definition_completion_symbols_formatting(client, mod):
    boss = mod / "gorgon.dsl"
    text = BOSS.replace("higest", "highest")
    assert client.open(boss, text) == []
    # hover: a card (what `raiders show` says), a kind, a word of the language
    card = client.at("textDocument/hover", boss, 0, 7)["contents"]["value"]
    assert "boss gorgon" in card and "Gorgon: a boss → monster room" in card
    kind = client.at("textDocument/hover", boss, 0, 1)["contents"]["value"]
    assert "kind boss → monster" in kind and "gorgon" in kind
    word = client.at("textDocument/hover", boss, 4, 10)["contents"]["value"]
    assert "selector" in word
    # go to definition: the card's kind, in the base ruleset's files
    loc = client.at("textDocument/definition", boss, 0, 1)
    target = Path(loc["uri"].removeprefix("file://"))
    line = target.read_text().splitlines()[loc["range"]["start"]["line"]]
    assert line.startswith("kind boss")
    # completion inside the card: its kind's fields, selectors, items of the base
    lines = text.splitlines()
    lines.insert(5, "  ")
    client.change(boss, "\n".join(lines) + "\n", 2)
    labels = {i["label"] for i in client.at("textDocument/completion", boss, 5, 2)["items"]}
    assert {"strength", "wounds", "target", "name", "after", "highest", "torch",
            "total", "half", "monster"} <= labels
    events = {i["label"] for i in client.at("textDocument/completion", boss, 6, 8)["items"]}
    assert "attack" in events
    # document symbols
    [sym] = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(boss)}})
    assert sym["name"] == "gorgon" and sym["detail"] == "boss"
    assert [c["name"] for c in sym["children"]] == ["name", "strength", "wounds", "target"]
    # formatting: `raiders fmt`'s layout
    client.change(boss, 'boss gorgon {name "Gorgon"; strength 1/2/3}\n', 3)
    [edit] = client.request("textDocument/formatting", {
        "textDocument": {"uri": uri(boss)}, "options": {"tabSize": 2, "insertSpaces": True}})
    assert edit["newText"] == 'boss gorgon { name "Gorgon"  strength 1 / 2 / 3 }\n'


def test_yaml_files_are_checked(client, mod):
    manifest = mod / "mod.yaml"
    manifest.write_text("bosses: [gorgn]\n")
    (mod / "gorgon.dsl").write_text(BOSS.replace("higest", "highest"))
    [d] = client.open(manifest, "bosses: [gorgn]\n", "yaml")
    assert d["code"] == "E502" and "did you mean `gorgon`?" in d["message"]
    # as you type: the YAML's syntax
    [d] = client.change(manifest, "bosses: [gorgon\n", 2)
    assert d["code"] == "E501"


def test_the_server_survives_nonsense(client, tmp_path):
    odd = tmp_path / "odd.dsl"
    client.open(odd, "}}} { \x00 kind")
    assert client.at("textDocument/hover", odd, 0, 3) is None
    assert client.at("textDocument/definition", odd, 5, 50) is None
    assert client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(odd)}}) \
        == []
