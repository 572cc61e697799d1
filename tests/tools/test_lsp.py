"""`raiders lsp` end to end: the server in a subprocess, spoken to over stdio in JSON-RPC, as an
editor would (tests/lspclient.py). Needs pygls and lsprotocol (in the `test` extra: without them
this fails)."""
from __future__ import annotations

from pathlib import Path

import lsprotocol  # noqa: F401  (the extra is installed: fail here, not later, if it is not)
import pygls  # noqa: F401
import pytest
from lspclient import Client, uri

from raiders.formats.validate import validate_paths

BOSS = """\
boss gorgon {
  name "Gorgon"
  strength 12 / 16 / 20
  wounds 2
  target higest
  after attack { attacked: lose 1 coin }
}
"""


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    folder = tmp_path / "gorgon-mod"
    folder.mkdir()
    (folder / "gorgon.dsl").write_text(BOSS)
    (folder / "mod.yaml").write_text("bosses: [gorgon]\n")
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the tests of this file, as an editor keeps one for a session: each test
    opens documents of its own folder (its own URIs), so they do not see each other's; starting
    a server costs about a second (lsprotocol's types)."""
    root = tmp_path_factory.mktemp("workspace")
    c = Client(root)
    caps = c.initialize(root)
    for feature in ("hoverProvider", "completionProvider", "definitionProvider",
                    "documentSymbolProvider", "codeActionProvider",
                    "documentFormattingProvider"):
        assert caps.get(feature), feature
    yield c
    assert c.close() == 0, c.stderr()


@pytest.fixture
def own_client(tmp_path: Path):
    """A server of its own, for a test that reads everything the server printed."""
    c = Client(tmp_path)
    c.initialize(tmp_path)
    yield c
    c.close()


@pytest.fixture
def client(server):
    assert server.proc.poll() is None, server.stderr()  # alive after the tests before
    return server


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


# a server started for it alone (about 1 s): the fast tier's lsp fuzz cases send such frames
@pytest.mark.slow
def test_the_server_survives_nonsense(own_client, tmp_path):
    odd = tmp_path / "odd.dsl"
    own_client.open(odd, "}}} { \x00 kind")
    assert own_client.at("textDocument/hover", odd, 0, 3) is None
    assert own_client.at("textDocument/definition", odd, 5, 50) is None
    assert own_client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(odd)}}) \
        == []
    # a lone surrogate in a checked card (its diagnostic's columns are counted in UTF-16)
    lone = tmp_path / "lone.dsl"
    lone.write_text("boss x { }\n")
    [d] = own_client.open(lone, "boss x {\ud800 }\n")
    assert d["range"]["start"] == {"line": 0, "character": 8}
    # a uri with a NUL in it, an edit of a document never opened: dropped
    own_client.notify("textDocument/didOpen", {"textDocument": {
        "uri": "file:///%00.dsl", "languageId": "raiders", "version": 1, "text": "x"}})
    own_client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri(tmp_path / "never.dsl"), "version": 2},
        "contentChanges": [{"text": "x"}]})
    assert own_client.at("textDocument/hover", lone, 0, 1)["contents"]["value"].startswith("```")
    errors = own_client.stderr()
    assert errors.splitlines() == [
        "raiders lsp: textDocument/didChange: dropped, the document is not open"], errors


# ---- hostile input (issue 27): answered or dropped, one line on stderr, and the server lives on

def _alive_and_answering(own_client, tmp_path: Path) -> None:
    odd = tmp_path / "odd.dsl"
    assert own_client.request("textDocument/documentSymbol",
                          {"textDocument": {"uri": uri(odd)}}) == []
    assert own_client.proc.poll() is None


def _quiet(text: str) -> None:
    assert "Traceback" not in text and "Error:" not in text.replace("MemoryError", "Error:"), text


# a server started for it alone (about 1 s): the fast tier's lsp fuzz cases send such frames
@pytest.mark.slow
def test_a_length_too_large_or_not_a_size_drops_its_message_and_the_next_is_served(
        own_client, tmp_path):
    from lspclient import frame, message

    # a length no memory holds, with a few bytes of body: dropped, and the next header found
    own_client.raw(frame(b'{"jsonrpc": "2.0"}', 99999999999))
    _alive_and_answering(own_client, tmp_path)
    # an honest message over the limit (16 MiB) is read through without being kept
    big = {"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri(tmp_path / "big.dsl"), "languageId": "raiders", "version": 1,
        "text": "#" * (17 * 1024 * 1024)}}}
    own_client.raw(message(big))
    _alive_and_answering(own_client, tmp_path)
    # a length that is not a size: its message is dropped (this one would shut the server down)
    body = b'{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}'
    lengths = [b"-5", b"abc", b"", b"1e3", b"0x10", "\u0663".encode()]
    for length in lengths:
        own_client.raw(b"Content-Length: " + length + b"\r\n\r\n" + body)
        _alive_and_answering(own_client, tmp_path)
    errors = own_client.stderr()
    _quiet(errors)
    lines = errors.splitlines()
    assert len(lines) == 2 + len(lengths), errors
    assert "99999999999 bytes" in lines[0] and "over the limit of 16 MiB" in lines[0]
    assert "over the limit of 16 MiB" in lines[1]
    assert all("is not a size" in x for x in lines[2:]), errors


def test_frames_are_found_again_after_what_is_not_one():
    """In-process: the framing alone (interpreter/tools/lspwire.py's read_frames)."""
    import io

    from lspclient import frame

    from raiders.interpreter.tools.lspwire import MAX_HEADER_LINE, Dropped, read_frames

    def frames(data: bytes) -> list:
        return [x.why.split(" ")[:3] if isinstance(x, Dropped) else x
                for x in read_frames(io.BytesIO(data))]

    body = b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}'
    # junk with no newline, the next header glued to it and cut in two by the line limit
    junk = b"x" * (MAX_HEADER_LINE - 5)
    assert frames(junk + frame(body)) == [["8187", "bytes", "that"], body]
    # any case, no space, another header; a blank line between messages
    assert frames(b"content-length:%d\r\nContent-Type: a/b\r\n\r\n%s\r\n" % (len(body), body)
                  + frame(body)) == [body, body]
    # a header line that is no header: that message is lost, the next one is read
    assert frames(b"Content-Length: 3\r\nnonsense\r\n\r\n{}}" + frame(body)) == \
        [["a", "message", "with"], body]
    # a length too large: its body is skipped as it comes, never held
    assert frames(frame(b"{}" * 100, 17 * 1024 * 1024) + frame(body)) == \
        [["a", "message", "of"], body]
    assert frames(b"Content-Length: 5\r\n") == [["the", "input", "ended"]]


def test_malformed_messages_get_json_rpc_errors(own_client, tmp_path):
    from lspclient import frame

    own_client.raw(frame(b"this is not json"))
    assert own_client.answer(None)["error"]["code"] == -32700
    own_client.raw(frame(b"\xff\xfe{"))  # not UTF-8
    assert own_client.answer(None)["error"]["code"] == -32700
    own_client.raw(frame(b"[" * 100_000))  # deeper than any parser goes
    assert own_client.answer(None)["error"]["code"] == -32700
    own_client.raw(frame(b"[1, 2, 3]"))
    assert own_client.answer(None)["error"]["code"] == -32600
    own_client.send({"id": 7})  # neither a request nor a response
    assert own_client.answer(7)["error"]["code"] == -32600
    own_client.raw(frame(b'{"id": 8, "method": "shutdown"}'))  # no "jsonrpc": "2.0"
    assert own_client.answer(8)["error"]["code"] == -32600
    own_client.send({"id": [1], "method": "shutdown"})  # an id is a number or a string
    assert own_client.answer(None)["error"]["code"] == -32600
    own_client.send({"id": 9, "method": "textDocument/hover", "params": {"textDocument": 5}})
    assert own_client.answer(9)["error"]["code"] == -32602
    own_client.send({"id": 10, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri(tmp_path / "a.dsl")},
        "position": {"line": -1, "character": "x"}}})
    assert own_client.answer(10)["error"]["code"] == -32602
    own_client.send({"id": 11, "method": "no/such/method", "params": {}})
    assert own_client.answer(11)["error"]["code"] == -32601
    # a notification gets no answer: dropped with a line on stderr
    own_client.notify("textDocument/didOpen", {"textDocument": {
        "uri": 5, "languageId": [], "version": "x", "text": 7}})
    own_client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri(tmp_path / "b.dsl"), "languageId": "raiders", "version": 1, "text": 7}})
    _alive_and_answering(own_client, tmp_path)
    assert not [n for n in own_client.notes if n.get("method") == "textDocument/publishDiagnostics"
                and n["params"]["uri"] == uri(tmp_path / "b.dsl")]
    errors = own_client.stderr()
    _quiet(errors)
    assert len([x for x in errors.splitlines() if "didOpen" in x]) == 2, errors


# a server started for it alone (about 1 s): the fast tier's lsp fuzz cases send such frames
@pytest.mark.slow
def test_the_input_ending_inside_a_message_ends_the_server_quietly(tmp_path):
    from lspclient import frame

    client = Client(tmp_path)
    early = client.new_id()
    client.send({"id": early, "method": "textDocument/documentSymbol",
                 "params": {"textDocument": {"uri": uri(tmp_path / "a.dsl")}}})
    assert client.answer(early)["error"]["code"] == -32002  # not initialized yet
    client.initialize(tmp_path)
    client.raw(frame(b'{"jsonrpc": "2.0", "id": 5, "met', 100))
    client.proc.stdin.close()
    assert client.proc.wait(timeout=30) == 0
    errors = client.stderr()
    _quiet(errors)
    assert len(errors.splitlines()) == 2 and "ended inside a message" in errors, errors


# ---- edits coalesced: only the latest text of a document is checked -----------------------------

def test_a_burst_of_edits_is_checked_at_its_last_version(client, mod):
    from lspclient import message

    boss = mod / "gorgon.dsl"
    good = BOSS.replace("higest", "highest")
    assert client.open(boss, good) == []
    edits = 400
    burst = b"".join(message({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri(boss), "version": v},
        "contentChanges": [{"text": good.replace("wounds 2", f"wounds {v}")}]}})
        for v in range(2, edits + 1))
    last = good.replace("highest", "lowest-ish")  # one slip, in the last version only
    burst += message({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri(boss), "version": edits + 1},
        "contentChanges": [{"text": last}]}})
    client.raw(burst)
    versions = []
    while True:
        got = client.published(uri(boss))
        versions.append(got["version"])
        if got["version"] == edits + 1:
            break
    assert versions == sorted(set(versions)), versions  # never an older version after a newer
    assert len(versions) < edits // 2, versions  # most intermediate versions never checked
    [d] = got["diagnostics"]
    assert d["code"] == "E102" and "lowest-ish" in d["message"]


# ---- only raiders' own files (issue 24) ------------------------------------------------------

WORKFLOW = """\
name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python -m pytest -q
"""


def test_other_yaml_gets_nothing(client, mod):
    workflow = mod / ".github" / "workflows" / "ci.yaml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(WORKFLOW)
    client.open_quietly(workflow, WORKFLOW, "yaml")
    assert client.at("textDocument/hover", workflow, 4, 12) is None  # `latest`: not a word of ours
    assert client.at("textDocument/completion", workflow, 4, 4)["items"] == []
    assert client.request("textDocument/documentSymbol",
                          {"textDocument": {"uri": uri(workflow)}}) == []
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri(workflow)}})
    # a file of ours opened after it is checked after it: nothing came for the workflow
    assert client.open(mod / "gorgon.dsl", BOSS.replace("higest", "highest")) == []
    assert not [n for n in client.notes if n.get("method") == "textDocument/publishDiagnostics"
                and n["params"]["uri"] == uri(workflow)]
    # a YAML file that declares a raiders format is ours, whatever its name
    scenario = mod / "checks.yaml"
    text = "format: raiders-scenario/1\nname: x\nruleset: deluxe\nroom: gorgn\n"
    scenario.write_text(text)
    assert client.open(scenario, text, "yaml")


def test_which_files_the_server_claims(tmp_path):
    from raiders.interpreter.tools.lsp import Workspace

    ws = Workspace()
    ws.open(str(tmp_path / "ci.yaml"), WORKFLOW)
    ws.open(str(tmp_path / "game.yml"), "# a log\nformat: 'raiders-log/1'\nseed: 1\n")
    ws.open(str(tmp_path / "rules.yaml"), "format: raiders-ruleset/1\n")
    ws.open(str(tmp_path / "mod.yaml"), "deck: {}\n")
    assert [ws.claims(str(tmp_path / n)) for n in
            ("ci.yaml", "game.yml", "rules.yaml", "mod.yaml", "a.dsl", "notes.txt")] == \
        [False, True, True, True, True, False]
    assert ws.diagnostics(str(tmp_path / "ci.yaml")) == []


# ---- a buffer not yet saved (issue 24): its own text is checked, whatever is on disk


def test_a_new_card_in_a_folder_not_made_yet_is_checked(client, tmp_path):
    """didOpen of a card whose folder does not exist: diagnostics from the buffer's text
    (a boss in a folder without mod.yaml joins the deck: W601, as `validate` says)."""
    card = tmp_path / "new-mod" / "rooms" / "gorgon.dsl"
    diags = client.open(card, BOSS)
    assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("W601", 0),
                                                                        ("E102", 4)]
    assert "did you mean `highest`?" in diags[1]["message"]
    fixed = client.change(card, BOSS.replace("higest", "highest"), 2)
    assert [d["code"] for d in fixed] == ["W601"]
    assert not (tmp_path / "new-mod").exists()  # nothing written


def test_a_new_card_in_a_mod_is_checked_with_the_mods_cards(client, mod):
    """A card not on disk in a mod folder is one of the mod's cards: it may name them, and
    a clash with one is found (E401), as `validate` would once it is saved."""
    new = mod / "ambush.dsl"
    text = "vault ambush { rewards { 1 -> gain 2 coins } }\n"
    assert client.open(new, text) == []
    clash = client.change(new, "boss gorgon { strength 1 / 2 / 3  wounds 1 }\n", 2)
    assert [d["code"] for d in clash] == ["E401"]
    assert not new.exists()


def test_an_untitled_buffer_is_checked(client):
    """`untitled:` documents (no file at all) marked as raiders' are checked alone, as a mod
    of one file on deluxe."""
    doc = "untitled:Untitled-1"
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": doc, "languageId": "raiders", "version": 1, "text": BOSS}})
    diags = client.diagnostics(doc)
    assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("W601", 0),
                                                                        ("E102", 4)]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": doc},
                                                  "position": {"line": 0, "character": 6}})
    assert "Gorgon" in hover["contents"]["value"]
    # a plain-text untitled buffer is not raiders': nothing is said of it
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": "untitled:Untitled-2", "languageId": "plaintext", "version": 1,
        "text": "boss x {"}})
    assert client.request("textDocument/hover", {"textDocument": {"uri": "untitled:Untitled-2"},
                                                 "position": {"line": 0, "character": 1}}) is None


def test_an_edit_republishes_the_open_cards_it_changes(client, tmp_path):
    """Removing an id another open card names: that card's diagnostics are published again
    (E103), without an edit of its own; renaming it back clears them."""
    mod = tmp_path / "lamps"
    mod.mkdir()
    items, shrine = mod / "items.dsl", mod / "shrine.dsl"
    lamp = 'item lamp { name "Lamp" }\n'
    gives = "vault lamp-shrine { rewards { 1 -> give lamp } }\n"
    items.write_text(lamp)
    shrine.write_text(gives)
    (mod / "mod.yaml").write_text("items: {lamp: 1}\ndeck: {lamp-shrine: 1}\n")
    assert client.open(shrine, gives) == []
    assert client.open(items, lamp) == []
    assert client.change(items, lamp.replace("lamp", "lantern"), 2) == []
    assert [d["code"] for d in client.diagnostics(uri(shrine))] == ["E103"]
    assert client.change(items, lamp, 3) == []
    assert client.diagnostics(uri(shrine)) == []


def test_completion_offers_the_cards_own_fields_and_hover_says_what_a_field_means(client,
                                                                                   tmp_path):
    """A boss's body is offered boss fields, an item's item fields, the space between cards
    and a rule's block none; hover on a field name says what it means, in the words of the
    kind that declares it (its comment in cards/common/kinds.dsl) or of the vocabulary."""
    from raiders.dsl.vocabulary import ROOM_SHAPE

    folder = tmp_path / "fields"
    folder.mkdir()
    card = folder / "cards.dsl"
    text = ('boss ogre {\n  strength 12 / 16 / 20\n  \n  after room { everyone: gain 1 coin }\n'
            '}\n\nitem lamp {\n  \n}\n')
    card.write_text(text)
    client.open(card, text)

    def fields(line: int, char: int) -> set[str]:
        got = client.at("textDocument/completion", card, line, char)["items"]
        return {i["label"] for i in got if i["detail"] == "field"}

    boss = fields(2, 2)
    assert {"strength", "wounds", "target", "cards", "name"} <= boss and "ability" not in boss
    assert fields(7, 2) == {"ability", "name"}
    assert fields(5, 0) == set()  # between the cards
    assert fields(3, 28) == set()  # inside a rule's block
    said = client.at("textDocument/hover", card, 1, 4)["contents"]["value"]
    kinds = (Path(__file__).resolve().parents[2] / "cards" / "common" / "kinds.dsl").read_text()
    above = kinds.split("kind monster(")[0].strip().splitlines()
    assert " ".join(row.lstrip("# ") for row in above[-2:]) in said  # the kind's own comment
    assert "per_players" in said and "kind `monster`" in said
    client.change(card, text.replace("  \n  after", "  rounds 2\n  after", 1), 2)
    said = client.at("textDocument/hover", card, 2, 3)["contents"]["value"]
    assert ROOM_SHAPE["rounds"][2] in said


# ---- what hover and completion read is kept between requests (issue 24's leftovers) --------

IMP = 'monster imp {\n  name "Imp"\n  strength 5 / 7 / 9\n  wounds 1\n}\n'


def _libraries_built(monkeypatch) -> list:
    """Each card library made from now on (every build of one ends in a new Library)."""
    from raiders.dsl.library import Library

    made: list = []
    init = Library.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        init(self, *args, **kwargs)

    monkeypatch.setattr(Library, "__init__", counted)
    return made


def test_hover_and_completion_build_the_library_once_per_edit(tmp_path, monkeypatch):
    """A mod on another base than validate's (mod.yaml: classic): two rounds of hover and
    completion with no edit between build nothing the second time; an edit builds the
    library exactly once again, and the answers after it are the edited text's."""
    from raiders.interpreter.tools.lsp import Workspace

    mod = tmp_path / "classic-mod"
    mod.mkdir()
    (mod / "mod.yaml").write_text("rulesets: [classic]\ndeck: {imp: 1}\n")
    for i in range(5):
        (mod / f"other{i}.dsl").write_text(IMP.replace("imp", f"imp{i}"))
    card = mod / "imp.dsl"
    card.write_text(IMP)
    ws = Workspace()
    ws.open(str(card), IMP)
    ws.diagnostics(str(card))
    made = _libraries_built(monkeypatch)

    def answers() -> tuple:
        field = ws.hover(str(card), 2, 4)  # `strength`
        kind = ws.hover(str(card), 0, 3)  # `monster`
        labels = {c[0] for c in ws.completions(str(card), 3, 2)}
        return field, kind, labels

    first = answers()  # (classic itself loaded once, then the mod's library on it)
    assert first[0].startswith("`strength`") and "kind monster" in first[1]
    assert "imp3" in first[2] and "golem" not in first[2]  # classic's cards, not deluxe's
    built = len(made)
    assert answers() == first and len(made) == built  # asked again: nothing built
    assert ws.hover(str(card), 0, 9).startswith("```raiders\nmonster imp")  # the card's own
    words = len(made)  # (its words: the game's rules, built once)
    ws.hover(str(card), 0, 9)
    assert "monster imp" in ws.hover(str(mod / "mod.yaml"), 1, 8)  # mod.yaml: the same ones
    assert len(made) == words
    ws.open(str(card), IMP.replace('"Imp"', '"Imp Lord"'))  # an edit: the ids stay
    ws.diagnostics(str(card))
    before = len(made)
    answers()
    answers()
    assert len(made) == before + 1
    assert '"Imp Lord"' in ws.hover(str(card), 0, 9)  # not the answer from before the edit


OGRE = """\
boss ogre {  # the ogre; its { braces } in a comment
  # name and strength; wounds
  name "Ogre"  strength 12 / 16 / 20  wounds 2
  after room { everyone: gain 1 coin }  target lowest
}
vault vault-of-ogres { rewards { 1 -> gain 2 coins } name "Vault"  rounds 2 }
treasure half-typed { chest
"""


@pytest.mark.parametrize("line, word, field", [
    (2, "strength", "strength"),  # in the middle of a line, after another field's value
    (2, "wounds", "wounds"),
    (3, "target", "target"),  # after a rule's block on the same line
    (5, "name", "name"),  # after a field whose value is a nested block
    (5, "rounds", "rounds"),  # a field of every room, at the end of a one-line card
    (0, "ogre", None),  # the card's id: `show`'s words, not a field
    (1, "strength", None),  # in a comment: no hover at all
    (1, "wounds", None),
    (3, "room", None),  # inside a rule's block: the event, not a field
])
def test_hover_finds_a_field_wherever_it_stands(tmp_path, line, word, field):
    """Where the parser puts each field's name, not where a line starts: a field in the
    middle of a line, after a comment, after a nested block; a card in the file that does
    not parse yet (`half-typed`) does not stop it. A word in a comment gets nothing."""
    from raiders.interpreter.tools.lsp import Workspace, field_doc

    card = tmp_path / "ogre.dsl"
    card.write_text(OGRE)
    ws = Workspace()
    ws.open(str(card), OGRE)
    row = OGRE.splitlines()[line]
    char = row.index(word, row.index("#") if line == 1 else 0) + 1
    said = ws.hover(str(card), line, char)
    lib = ws.library(str(card))
    if field is not None:
        kind = "boss" if line < 5 else "vault"
        assert said == field_doc(lib, kind, field) and said.startswith(f"`{field}`")
    elif line == 1:
        assert said is None
    else:
        assert said is None or not said.startswith(f"`{word}`: ")  # never a field's words


def test_hover_describes_a_card_in_the_words_of_the_whole_rules():
    """Hover's words of a card come from rules with only the items compiled (the card asked
    about is compiled then): the same words as `raiders show`'s, for every card of deluxe
    and of a mod that adds items, a character and rooms."""
    from raiders.formats.loader import Loader
    from raiders.interpreter.runtime.describe import describe
    from raiders.interpreter.runtime.rules import load_rules_afresh

    mods = (str(Path(__file__).resolve().parents[2] / "examples" / "mods" / "neighbours"),)
    full = load_rules_afresh("deluxe", None, mods, loader=Loader.of_texts({}))
    light = load_rules_afresh("deluxe", None, mods, loader=Loader.of_texts({}), items_only=True)
    assert not light.rooms and light.items.keys() == full.items.keys()
    assert len(full.library.cards) > 50
    for cid in full.library.cards:
        assert describe(light, cid) == describe(full, cid), cid
