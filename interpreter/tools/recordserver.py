"""`raiders record` over HTTP: the recording page and its small JSON API (docs/record.md).

The standard library's http.server, on 127.0.0.1 unless told otherwise. What it guards:

- **Host** and **token** (httpguard.py, shared with `raiders serve`): a request whose Host
  header is not this server's own is refused (DNS rebinding), and on the network
  (`--network`) every request must carry the random token the command prints (`?token=…` in
  the URL; the page sends it back as a header). Without it, nothing is answered but a refusal.
- **Other sites**: a POST must be JSON (a cross-site form cannot send it without asking
  first, and we never answer that question) and, if it says where it comes from (Origin),
  from this server.
- **Size**: a body over `MAX_BODY` bytes is refused unread.
- **Paths**: a URL never reaches the file system: the page is built from the package's own
  assets, and a game is named by a file name that `Recorder.file` checks is one of the
  folder's logs this recorder wrote.

The page loads nothing from the network: its style and script are inlined, and its
Content-Security-Policy forbids any other load.
"""
from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Optional
from urllib.parse import parse_qs, unquote, urlsplit

from .httpguard import Guard
from .record import Recorder, RecordError

MAX_BODY = 64 * 1024
# A recording is one table's phones and laptops: a few connections. A client that does not send
# its request in CLIENT_TIMEOUT seconds is dropped, and past MAX_CONNECTIONS a new connection is
# closed at once, so idle half-sent requests cannot take a thread each without end (issue 27).
CLIENT_TIMEOUT = 10.0
MAX_CONNECTIONS = 64
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
_GAME_URL = re.compile(r"^/api/games/([^/]+)(/answer|/undo)?$")


def _asset(name: str) -> str:
    # one name a step: a Traversable's joinpath takes one before Python 3.11
    return resources.files(__package__).joinpath("record_assets").joinpath(name).read_text(
        "utf-8")


def page() -> str:
    """The page: one HTML file with its style and script inside."""
    text = _asset("record.html")
    parts = {"{{STYLE}}": _asset("record.css"), "{{SCRIPT}}": _asset("record.js")}
    return re.sub(r"\{\{[A-Z]+\}\}", lambda m: parts[m.group(0)], text)


class _BoundedServer(ThreadingHTTPServer):
    """A thread per connection, at most MAX_CONNECTIONS of them: the next is closed unread."""

    daemon_threads = True
    guard: Guard  # set once bound (the port is known then)
    # the kernel's queue of connections not yet accepted (socketserver's default is 5: a burst
    # beyond it waits on TCP's retransmission, seconds)
    request_queue_size = 128

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


def make_server(recorder: Recorder, host: str = "127.0.0.1", port: int = 0,
                token: Optional[str] = None,
                client_timeout: float = CLIENT_TIMEOUT) -> ThreadingHTTPServer:
    """The server (not started: call serve_forever). `token`: required on every request
    (None: none needed, for a server on the loopback only); `client_timeout`: seconds a client
    has to send its request."""
    lock = threading.Lock()  # one request at a time touches the logs
    html = page().encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        server_version = "raiders-record"
        sys_version = ""
        timeout = client_timeout  # the socket's: a slow or idle client is dropped

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
            pass  # quiet: the command prints what matters

        # ---- replies
        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Security-Policy", CSP)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data, ensure_ascii=True).encode("ascii"),
                       "application/json")

        def _refuse(self, status: int, message: str, field: Optional[str] = None) -> None:
            self._json(status, {"error": message, "field": field})

        # ---- checks every request passes
        def _admitted(self) -> bool:
            guard = server.guard  # the server this handler class was made for
            if not guard.host_allowed(self.headers.get("Host")):
                self._refuse(403, "refused: the Host header does not name this server")
                return False
            query = parse_qs(urlsplit(self.path).query)
            if not guard.token_given(self.headers.get("X-Raiders-Token")
                                     or (query.get("token") or [""])[0]):
                self._refuse(403, "refused: a wrong or missing token (open the URL the "
                                  "`raiders record` command printed)")
                return False
            return True

        def _body(self) -> Optional[Any]:
            kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if kind != "application/json":
                self._refuse(415, "refused: the body must be JSON (Content-Type: "
                                  "application/json)")
                return None
            origin = self.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != self.headers.get("Host"):
                self._refuse(403, "refused: a request from another site")
                return None
            length = self.headers.get("Content-Length")
            if length is None or not length.isdigit():
                self._refuse(411, "refused: a body needs a Content-Length")
                return None
            if int(length) > MAX_BODY:
                self._refuse(413, f"refused: a body over {MAX_BODY} bytes")
                self.close_connection = True
                return None
            try:
                return json.loads(self.rfile.read(int(length)).decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self._refuse(400, "refused: the body is not JSON")
                return None

        # ---- routes
        def do_HEAD(self) -> None:  # noqa: N802 (http.server's name)
            self.do_GET()

        def do_GET(self) -> None:  # noqa: N802
            if not self._admitted():
                return
            path = urlsplit(self.path).path
            query = parse_qs(urlsplit(self.path).query)
            if path == "/":
                self._send(200, html, "text/html; charset=utf-8")
            elif path == "/api/games":
                with lock:
                    self._json(200, {"games": recorder.games(), "mods": recorder.mod_names()})
            elif path == "/api/options":
                variant = query.get("variant")
                self._answer(lambda: recorder.options((query.get("ruleset") or ["deluxe"])[0],
                                                      variant[0] if variant else None))
            elif (m := _GAME_URL.match(path)) and m.group(2) is None:
                self._answer(lambda: recorder.state(unquote(m.group(1))))
            else:
                self._refuse(404, "no such page")

        def do_POST(self) -> None:  # noqa: N802
            if not self._admitted():
                return
            path = urlsplit(self.path).path
            m = _GAME_URL.match(path)
            if path != "/api/games" and m is None:
                self._refuse(404, "no such page")
                return
            body = self._body()
            if body is None:
                return
            if not isinstance(body, dict):
                self._refuse(400, "refused: the body must be a JSON object")
                return
            if m is None:
                self._answer(lambda: recorder.state(recorder.create(body.get("name"),
                                                                    body.get("setup") or {})),
                             201)
            elif m.group(2) == "/answer":
                self._answer(lambda: recorder.state(unquote(m.group(1)),
                                                    body.get("answers", [])))
            elif m.group(2) == "/undo":
                self._answer(lambda: recorder.undo(unquote(m.group(1))))
            else:
                self._refuse(405, "a game is read with GET")

        def _answer(self, work, status: int = 200) -> None:
            with lock:
                try:
                    data = work()
                except RecordError as err:
                    self._refuse(422, err.message, err.field)
                    return
                except OSError as err:
                    self._refuse(500, f"could not write the log: {err.strerror or err}")
                    return
                except Exception as err:  # a bug: said to the page, never a traceback here
                    self._refuse(500, f"internal error ({type(err).__name__}: {err}); the log "
                                      "is as it was before this request")
                    return
            self._json(status, data)

    server = _BoundedServer((host, port), Handler)
    server.guard = Guard.for_bind(host, server.server_address[1], token=token)
    return server
