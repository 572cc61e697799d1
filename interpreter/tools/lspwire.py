"""The wire of `raiders lsp`: JSON-RPC messages read from an editor that may send anything, and
worked through so that only the latest text of a document is checked (issue 27).

- Framing (`read_frames`): `Content-Length` headers; a message's body is at most MAX_MESSAGE
  bytes and a header line at most MAX_HEADER_LINE. What is not a usable message (a length that
  is not a size or is over the limit, a broken header, bytes outside any message) is dropped
  with one line on stderr, and reading resumes at the next `Content-Length:` header, so a broken
  frame costs that message, never the session. No body over the limit is ever held in memory.
- Messages (`RaidersServer._handle`): JSON-RPC's errors where a response is due: -32700 for a
  body that is not JSON, -32600 for JSON that is not a request, -32602 for params of the wrong
  shape (checked strictly: a string is a string); a notification that cannot be used is dropped
  with one line on stderr. Nothing prints a traceback: the server's log is one line a record.
- Coalescing: didOpen, didChange and didSave only note that a document is due for a check; the
  checks run when no message is waiting, oldest document first, each at its latest version. A
  burst of edits is read through first and checked once.

pygls reads stdin in its own loop (`pygls.io_.run_async`), which allocates whatever length a
header names and prints a traceback for a body it cannot read; `RaidersServer.start_io` runs
this loop instead, and hands each checked message to pygls's protocol as pygls would.
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
from collections import deque
from typing import Any, BinaryIO, Callable, Iterator, Optional, Union

import attrs
from lsprotocol import types as T
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter

MAX_MESSAGE = 16 * 1024 * 1024  # bytes in one message's body (an open document and its JSON)
MAX_HEADER_LINE = 8192  # a header line is short: a longer line is no header
READ_AHEAD = 64 * 1024 * 1024  # bytes of messages read ahead of the one being handled
QUIET = 0.002  # seconds without a message before a due check runs (lets the reader catch up)
_CARRY = 64  # bytes kept across a cut in a long line, so a header behind junk is still found
_NAME = b"content-length"
_VALUE = re.compile(rb"[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?\n")
_HEADER = re.compile(rb"[A-Za-z0-9-]+[ \t]*:[^\r\n]*\r?\n")

log = logging.getLogger("raiders.lsp")


@attrs.frozen
class Dropped:
    """Input that was not a usable message, and why (the line the log gets)."""

    why: str


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n:,} bytes"


def _length(value: bytes, limit: int) -> Union[int, str]:
    """A Content-Length's value → the size, or why the message is dropped."""
    if not re.fullmatch(rb"[0-9]+", value):
        shown = value[:20].decode("ascii", "backslashreplace")
        return f"a Content-Length of `{shown}` is not a size: the message is dropped"
    if len(value) > 15 or int(value) > limit:
        shown = value.decode() if len(value) <= 15 else f"{value[:15].decode()}…"
        return f"a message of {shown} bytes is over the limit of {_size(limit)}: dropped"
    return int(value)


def read_frames(stream: BinaryIO, limit: int = MAX_MESSAGE) -> Iterator[Union[bytes, Dropped]]:
    """The bodies of the messages on a stream, and a Dropped for what was not one, until the
    stream ends. Memory stays bounded whatever comes: lines are read at most MAX_HEADER_LINE
    at a time, and a body is read only when its length is within `limit`."""
    length: Optional[int] = None  # the Content-Length of the header being read
    refused: Optional[str] = None  # why the message of the header being read is dropped
    in_header = False
    skipping = False  # the bytes after a dropped header are its body: no second line for them
    junk = 0  # bytes outside any message since the last one
    carry = b""
    while True:
        raw = stream.readline(MAX_HEADER_LINE)
        if not raw:
            if in_header:
                yield Dropped("the input ended inside a message's header")
            elif (junk or carry) and not skipping:
                yield Dropped(f"{junk + len(carry)} bytes that are not a message were dropped")
            return
        line, carry = carry + raw, b""
        if not line.endswith(b"\n"):  # a long line: no header, unless one ends it
            carry = line[-_CARRY:]
            junk += len(line) - len(carry)
            continue
        if not line.strip():  # the end of a header
            if not in_header:
                continue  # a blank line between messages costs nothing
            in_header = False
            if length is not None:
                body = stream.read(length)
                if len(body) < length:
                    yield Dropped(f"the input ended inside a message ({len(body)} of "
                                  f"{length} bytes)")
                    return
                length = None
                yield body
                continue
            yield Dropped(refused or "a message without a Content-Length was dropped")
            refused, skipping = None, True
            continue
        at = line.lower().rfind(_NAME)
        value = _VALUE.fullmatch(line, at + len(_NAME)) if at >= 0 else None
        if value is not None:
            junk += at
            if in_header:  # the header before was cut short: its message is lost
                yield Dropped(refused or "a message whose header was cut short was dropped")
            elif junk and not skipping:
                yield Dropped(f"{junk} bytes that are not a message were dropped")
            junk, skipping, in_header = 0, False, True
            size = _length(value.group(1), limit)
            length, refused = (size, None) if isinstance(size, int) else (None, size)
        elif in_header and _HEADER.fullmatch(line):
            continue  # Content-Type, or a header of no use to us
        else:
            if in_header:
                yield Dropped(refused or "a message with a broken header was dropped")
                in_header, length, refused, skipping = False, None, None, True
            junk += len(line)


class _Inbox:
    """Messages read ahead of the one being handled, at most READ_AHEAD bytes of them (the
    reader waits while it is full), so that the server can see that more is waiting."""

    def __init__(self, budget: int = READ_AHEAD) -> None:
        self._items: deque = deque()
        self._bytes = 0
        self._budget = budget
        self._cv = threading.Condition()

    def put(self, item: Any, size: int) -> None:
        with self._cv:
            self._cv.wait_for(lambda: not self._items or self._bytes + size <= self._budget)
            self._items.append((item, size))
            self._bytes += size
            self._cv.notify_all()

    def get(self, timeout: Optional[float]) -> Any:
        """The next item, or None when nothing came within `timeout` seconds."""
        with self._cv:
            if not self._cv.wait_for(lambda: self._items, timeout):
                return None
            item, size = self._items.popleft()
            self._bytes -= size
            self._cv.notify_all()
            return item


_END = object()  # the input ended
# notifications about a document the editor opened before (pygls's workspace must know it)
_ABOUT_AN_OPEN_DOCUMENT = {T.TEXT_DOCUMENT_DID_CHANGE, T.TEXT_DOCUMENT_DID_CLOSE,
                           T.TEXT_DOCUMENT_DID_SAVE}


class _OneLine(logging.Formatter):
    """A log record as one line: its message's first line, and what went wrong in short."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage().strip().splitlines()
        out = f"raiders lsp: {text[0] if text else record.levelname.lower()}"
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            out += f" ({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''})"
        return out[:1000]


def _strict(kind: type) -> Callable[[Any, type], Any]:
    def structure(value: Any, target: type) -> Any:
        if type(value) is not kind and not (kind is float and type(value) is int):
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return value if target is kind else target(value)  # an enum: by its value

    return structure


def _converter():
    """pygls's converter, but a string must be a string and a number a number (by default
    cattrs turns 7 into "7" and "7" into 7: a document's text would be `7`)."""
    converter = default_converter()
    for kind in (str, int, bool, float):  # enums of strings or numbers come here too
        converter.register_structure_hook(kind, _strict(kind))
    return converter


def _why(err: BaseException) -> str:
    """What cattrs found wrong first, and where (`params.position.line: expected int, got
    str`): its own message names only the outer class."""
    where = []
    while True:
        for note in getattr(err, "__notes__", ()):
            m = re.search(r"@ attribute (\w+)", note)
            if m:
                where.append(m.group(1))
        inner = getattr(err, "exceptions", None)
        if not inner:
            break
        err = inner[0]
    what = "missing" if isinstance(err, KeyError) else (
        str(err).splitlines()[0] if str(err) else type(err).__name__)
    return (f"{'.'.join(where)}: {what}" if where else what)[:200]


class _Protocol(LanguageServerProtocol):
    def reply_error(self, msg_id: Any, code: int, message: str) -> None:
        """A JSON-RPC error response (with `"id": null` when the id could not be read, which
        pygls's own responses leave out)."""
        self._send_data({"jsonrpc": "2.0", "id": msg_id,
                         "error": {"code": code, "message": message}})

    @property
    def shut_down(self) -> bool:
        return self._shutdown


class RaidersServer(LanguageServer):
    """pygls's language server, reading its input with read_frames and coalescing checks."""

    protocol: _Protocol

    def __init__(self, name: str, version: str, **kwargs: Any) -> None:
        self._converter = _converter()
        super().__init__(name, version, protocol_cls=_Protocol,
                         converter_factory=lambda: self._converter, **kwargs)
        self._due: dict[str, None] = {}  # documents due for a check, the oldest first
        self._versions: dict[str, int] = {}  # each open document's latest version
        # what checks a document (its uri and version) and publishes what it found
        self.checker: Callable[[str, Optional[int]], None] = lambda uri, version: None

    # -- coalescing
    def check_later(self, uri: str, version: Optional[int] = None) -> None:
        """Check a document once no message is waiting; a document already due keeps its
        place, and is checked once, at its latest version."""
        self._due.setdefault(uri, None)
        if version is not None:
            self._versions[uri] = version

    def forget(self, uri: str) -> None:
        """A document closed: no check is due, and its version is no more."""
        self._due.pop(uri, None)
        self._versions.pop(uri, None)

    def _check_oldest(self) -> None:
        uri = next(iter(self._due))
        del self._due[uri]
        try:
            self.checker(uri, self._versions.get(uri))
        except (BrokenPipeError, ConnectionResetError):
            raise
        except Exception as err:  # noqa: BLE001 - a check that fails must not end the session
            log.warning(f"checking {uri} failed ({type(err).__name__}: {err})")

    # -- the loop
    def start_io(self, stdin: Optional[BinaryIO] = None,
                 stdout: Optional[BinaryIO] = None) -> None:
        from pygls.io_ import StdoutWriter

        _log_one_line_a_record()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        inbox = _Inbox()
        # stdin's own reader is not the thread's: a daemon thread blocked in it would hold its
        # lock when Python, exiting, closes stdin (a fatal error, exit status -6)
        stream = stdin or open(os.dup(sys.stdin.fileno()), "rb")
        threading.Thread(target=_read, args=(stream, inbox), daemon=True).start()
        try:
            while True:
                item = inbox.get(QUIET if self._due else None)
                if item is None:
                    self._check_oldest()
                elif item is _END:
                    return
                elif isinstance(item, Dropped):
                    log.warning(item.why)
                else:
                    self._handle(item)
        except (BrokenPipeError, ConnectionResetError):
            log.warning("the editor closed the connection")
        except KeyboardInterrupt:
            pass

    def _handle(self, body: bytes) -> None:
        """One message's body: checked as JSON-RPC, then handled by pygls."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
            return self._refuse(None, -32700, f"parse error: the message is not JSON ({err})")
        if not isinstance(data, dict):
            return self._refuse(None, -32600, "invalid request: a message is a JSON object, "
                                f"not {type(data).__name__}")
        has_id, msg_id, method = "id" in data, data.get("id"), data.get("method")
        id_ok = isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)
        is_response = "method" not in data and ("result" in data or "error" in data)
        problem = _envelope_problem(data, is_response)
        if problem and is_response:
            return log.warning(f"a response that cannot be read was dropped: {problem}")
        if problem:  # JSON-RPC answers an invalid request even without an id (id null)
            return self._refuse(msg_id if id_ok else None, -32600, f"invalid request: {problem}")
        if has_id and method is not None and self.protocol.shut_down:
            return self._refuse(msg_id, -32600, "invalid request: the server is shut down")
        if method not in (None, T.INITIALIZE, T.EXIT) and not self._initialized():
            if has_id:
                return self._refuse(msg_id, -32002, f"{method}: the server is not initialized")
            return log.warning(f"{method}: dropped, the server is not initialized")
        try:
            message = self._structure(data, method)
        except Exception as err:  # noqa: BLE001 - whatever cattrs raises: the shape is wrong
            if has_id and not is_response:
                return self._refuse(msg_id, -32602, f"invalid params for {method}: {_why(err)}")
            return log.warning(f"{method or 'a response'}: dropped, it is not of the right "
                               f"shape ({_why(err)})")
        if has_id and method is not None and not hasattr(message, "id"):
            return self._refuse(msg_id, -32600, f"invalid request: {method} is a notification")
        if method in _ABOUT_AN_OPEN_DOCUMENT and not self._is_open(message.params):
            return log.warning(f"{method}: dropped, the document is not open")
        try:
            self.protocol.handle_message(message)
        except Exception as err:  # noqa: BLE001 - pygls answers a handler's error itself
            log.warning(f"{method or 'a response'} could not be handled ({_why(err)})")

    def _initialized(self) -> bool:
        try:
            self.workspace  # noqa: B018 - pygls raises until `initialize`
        except RuntimeError:
            return False
        return True

    def _is_open(self, params: Any) -> bool:
        from urllib.parse import unquote  # pygls's own key for a document

        return unquote(params.text_document.uri) in self.workspace.text_documents

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A handler of a notification failed: one line on stderr (pygls's default shows the
        editor a message box; a request's error is in its answer already)."""
        if source is not FeatureRequestError:
            log.warning(f"a notification could not be handled ({error})")

    def _structure(self, data: dict, method: Optional[str]) -> Any:
        kind = T.METHOD_TO_TYPES.get(method, (None,))[0] if method else None
        if kind is None:  # a response, or a method of no lsprotocol type: pygls's own way
            return self.protocol.structure_message(data)
        return self._converter.structure(data, kind)

    def _refuse(self, msg_id: Any, code: int, message: str) -> None:
        """Answer a message that cannot be handled with an error, and say so on stderr."""
        log.warning(message)
        self.protocol.reply_error(msg_id, code, message)


def _envelope_problem(data: dict, is_response: bool) -> Optional[str]:
    """What makes a JSON object no JSON-RPC message, if anything (its params aside)."""
    msg_id = data.get("id")
    if "id" in data and (not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool)):
        return "the id must be a number or a string"
    if data.get("jsonrpc") != "2.0":
        return 'it lacks "jsonrpc": "2.0"'
    if "method" in data and not isinstance(data["method"], str):
        return "its method is not a string"
    if "method" not in data and not is_response:
        return "it is neither a request nor a response"
    if data.get("params") is not None and not isinstance(data["params"], (dict, list)):
        return "its params are neither an object nor a list"
    return None


def _read(stream: BinaryIO, inbox: _Inbox) -> None:
    """The reading thread: frames into the inbox, then the end."""
    try:
        for item in read_frames(stream):
            inbox.put(item, len(item) if isinstance(item, bytes) else 0)
    except (OSError, ValueError) as err:  # stdin closed or unreadable: the session is over
        inbox.put(Dropped(f"the input could not be read ({err})"), 0)
    finally:
        inbox.put(_END, 0)


def _log_one_line_a_record() -> None:
    """The server's log (pygls's too) on stderr, one line a record, tracebacks left out: an
    editor shows a language server's stderr in its output panel."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
