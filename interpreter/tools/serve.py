"""`raiders serve`: the replay viewer over HTTP, for a folder of logs (docs/security.md says what
it promises).

One asyncio loop reads every connection (no thread per connection); pages are made in a small
pool of threads and kept while their log is unchanged. Each connection carries one request and
is closed after its answer. What a request may be is narrow and checked before anything is
read from disk:

- at most MAX_CONNECTIONS open at once; when full, the connection that has waited longest
  without sending a whole request is dropped for the new one, so idle half-sent requests never
  keep a new one from being answered;
- the request's head within CLIENT_TIMEOUT seconds (else 408), its line within MAX_LINE bytes
  (414), its headers within MAX_HEADERS lines of MAX_LINE bytes (431); HTTP/1.0 or 1.1 (505);
  GET or HEAD (501); anything else malformed is a 400;
- a `Host:` naming this server, else 403, so a web page using DNS rebinding cannot read the
  logs; bound to an address other machines can reach, the server also wants its random token
  (`?token=`) on every request (403 without it) — both checks are httpguard.py's, shared
  with `raiders record`;
- the index lists the files below the folder that declare a raiders log (`format:
  raiders-log/…`), found when the server starts, and a page is asked for by its number in that
  list: no path from a request reaches the file system, and no other YAML (a `secrets.yaml`,
  a `mod.yaml`) is listed or quoted.
"""
from __future__ import annotations

import asyncio
import html
import re
import socket
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from pathlib import Path
from typing import Callable, Optional
from urllib.parse import parse_qs

import attrs

from raiders.dsl.diagnostics import render
from raiders.dsl.library import display_path

from .httpguard import Guard, is_loopback, network_address, new_token, url_host

MAX_CONNECTIONS = 256
CLIENT_TIMEOUT = 10.0  # seconds for a request's whole head, and for taking its answer
MAX_LINE = 8192  # bytes of the request line, and of any header line
MAX_HEADERS = 100
RENDER_THREADS = 2
_KEPT_PAGES = 16

_TOKEN_CHARS = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110's token
_VERSION = re.compile(r"HTTP/([0-9])\.([0-9])")
_TARGET_CHARS = re.compile(r"/[\x21-\x7e]*")
_LOG_PAGE = re.compile(r"/log/(0|[1-9][0-9]{0,8})")


class Refused(Exception):
    """A request answered with an error status (and closed)."""

    def __init__(self, status: HTTPStatus, text: str):
        super().__init__(text)
        self.status = status
        self.text = text


@attrs.frozen
class Request:
    method: str
    path: str
    query: str
    host: str


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title>"
            "<style>body{font:15px system-ui,sans-serif;margin:20px;background:#f6f3ec}"
            "</style></head><body>" + body + "</body></html>")


def _index_page(folder: str, files: list[str], link: Callable[[str], str]) -> str:
    rows = "\n".join(f'<li><a href="{html.escape(link(f"/log/{i}"))}">'
                     f"{html.escape(display_path(f))}</a></li>" for i, f in enumerate(files))
    where = html.escape(display_path(folder))
    return _page(f"raiders logs: {display_path(folder)}",
                 f"<h1>Logs in {where}</h1>"
                 f"<ol>{rows or '<li>no logs here (files with format: raiders-log/…)</li>'}</ol>")


def _error_page(title: str, text: str, index: Optional[str]) -> str:
    back = f'<p><a href="{html.escape(index)}">all logs</a></p>' if index else ""
    return _page(title, f"<h1>{html.escape(title)}</h1><pre>{html.escape(text)}</pre>{back}")


def parse_head(lines: list[bytes]) -> tuple[str, str, dict[str, list[str]]]:
    """(method, target, headers) of a request's head (its lines, CRLF or LF ended), or Refused."""
    bad = HTTPStatus.BAD_REQUEST
    try:
        text = [line.decode("ascii").rstrip("\r\n") for line in lines]
    except UnicodeDecodeError:
        raise Refused(bad, "a request's head is ASCII") from None
    parts = text[0].split(" ")
    if len(parts) != 3 or not _TOKEN_CHARS.fullmatch(parts[0]):
        raise Refused(bad, "a request line is METHOD TARGET HTTP/1.1")
    method, target, version = parts
    m = _VERSION.fullmatch(version)
    if not m:
        raise Refused(bad, "a request line is METHOD TARGET HTTP/1.1")
    if m.group(1) != "1" or m.group(2) not in ("0", "1"):
        raise Refused(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP/1.0 and HTTP/1.1 only")
    if method not in ("GET", "HEAD"):
        raise Refused(HTTPStatus.NOT_IMPLEMENTED, "GET and HEAD only")
    if not _TARGET_CHARS.fullmatch(target):
        raise Refused(bad, "a target is a path, /…")
    headers: dict[str, list[str]] = {}
    for line in text[1:]:
        name, colon, value = line.partition(":")
        if not colon or not _TOKEN_CHARS.fullmatch(name):
            raise Refused(bad, "a header line is NAME: VALUE")
        if any(c < " " and c != "\t" or c == "\x7f" for c in value):
            raise Refused(bad, "a header's value has a control character")
        headers.setdefault(name.lower(), []).append(value.strip(" \t"))
    return method, target, headers


class LogServer:
    """A server for the logs below `folder`, bound when made (server_address is known); run it
    with serve_forever, stop it from another thread with shutdown."""

    def __init__(self, folder: str, port: int, allow: tuple[str, ...] = (),
                 bind: str = "127.0.0.1", *, allow_hosts: tuple[str, ...] = (),
                 timeout: float = CLIENT_TIMEOUT, max_connections: int = MAX_CONNECTIONS):
        from raiders.formats.declared import file_format
        from raiders.formats.safeio import found_files

        self.folder, self.allow = folder, allow
        found, _ = found_files((folder,), ["*.yaml", "*.yml"])
        self.files = [f for f in found if file_format(f) == "log"]
        self.timeout, self.max_connections = timeout, max_connections
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        self._sock = socket.create_server((bind, port), family=family, backlog=128)
        self.server_address = self._sock.getsockname()
        self.port = self.server_address[1]
        # Reachable from other machines: a token in the URL, as notebook servers do.
        self.guard = Guard.for_bind(bind, self.port, allow_hosts,
                                    None if is_loopback(bind) else new_token())
        self.token = self.guard.token
        shown = network_address() if bind in ("0.0.0.0", "", "::") else bind
        self.url = self.link(f"http://{url_host(shown)}:{self.port}/")
        self._waiting: dict[asyncio.StreamWriter, None] = {}  # reading a head, oldest first
        self._open = 0
        self._tasks: set[asyncio.Task] = set()
        self._stopping = False
        self._pages: dict[tuple[int, int, int], str] = {}  # by the log's inode, time, size
        self._pages_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="raiders-serve")
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._stopped = threading.Event()
        self._stop_asked = False  # shutdown before the loop ran

    def link(self, path: str) -> str:
        return f"{path}?token={self.token}" if self.token else path

    # ---- running

    def serve_forever(self) -> None:
        try:
            asyncio.run(self._main())
        finally:
            self._stopped.set()

    async def _main(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        if self._stop_asked:
            return
        server = await asyncio.start_server(self._connection, sock=self._sock, limit=MAX_LINE)
        async with server:
            await self._stop.wait()
            self._stopping = True
            server.close()
            for task in list(self._tasks):  # the connections still open end with the server
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def shutdown(self) -> None:
        """Stop serve_forever (from another thread) and wait until it has returned."""
        self._stop_asked = True
        if self._loop is not None and self._stop is not None and not self._stopped.is_set():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._stopped.wait()

    def server_close(self) -> None:
        self._sock.close()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ---- one connection

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._serve_one(reader, writer)
        except asyncio.CancelledError:
            pass  # the server is stopping: asyncio's stream callback would print the cancel
        finally:
            self._tasks.discard(task)

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        if self._open >= self.max_connections:
            if not self._waiting:  # every slot is sending an answer: refused, to try again
                writer.transport.abort()
                return
            oldest = next(iter(self._waiting))
            del self._waiting[oldest]
            oldest.transport.abort()
        self._open += 1
        self._waiting[writer] = None
        try:
            try:
                request = await asyncio.wait_for(self._read_request(reader), self.timeout)
                self._waiting.pop(writer, None)
                status, body = await self._answer(request)
                head_only = request.method == "HEAD"
            except Refused as refused:
                status, body, head_only = refused.status, _error_page(
                    f"{refused.status.value} {refused.status.phrase}", refused.text,
                    None), False
            except asyncio.TimeoutError:
                status, body, head_only = HTTPStatus.REQUEST_TIMEOUT, _error_page(
                    "408 Request Timeout", "the request took too long", None), False
            self._waiting.pop(writer, None)
            await asyncio.wait_for(self._send(writer, status, body, head_only), self.timeout)
            if status >= 400:
                await self._linger(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError, OSError):
            pass  # the client went away, or would not take its answer
        finally:
            self._waiting.pop(writer, None)
            await self._close(writer)
            self._open -= 1

    async def _close(self, writer: asyncio.StreamWriter) -> None:
        """Close once the answer is sent (an abort would drop what is still buffered), within
        the timeout; at once when the server stops or the connection is gone."""
        if self._stopping or writer.transport.is_closing():
            writer.transport.abort()
            return
        writer.close()
        try:
            await asyncio.wait_for(writer.wait_closed(), self.timeout)
        except (asyncio.TimeoutError, ConnectionError, OSError):
            writer.transport.abort()

    async def _linger(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """After an error, half-close and read (and drop) what the client still sends, a little
        while: closed at once with its request unread, the connection would be reset, and the
        client could lose the answer (a lingering close, as Apache makes)."""
        if not writer.can_write_eof():
            return
        writer.write_eof()

        async def drain_input() -> None:
            for _ in range(64):  # at most 64 * MAX_LINE bytes
                if not await reader.read(MAX_LINE):
                    return

        try:
            await asyncio.wait_for(drain_input(), min(1.0, self.timeout))
        except asyncio.TimeoutError:
            pass

    async def _read_request(self, reader: asyncio.StreamReader) -> Request:
        lines: list[bytes] = []
        while True:
            try:
                line = await reader.readline()
            except ValueError:  # longer than MAX_LINE
                if not lines:
                    raise Refused(HTTPStatus.REQUEST_URI_TOO_LONG,
                                  f"a request line is at most {MAX_LINE} bytes") from None
                raise Refused(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                              f"a header line is at most {MAX_LINE} bytes") from None
            if not line.endswith(b"\n"):
                raise Refused(HTTPStatus.BAD_REQUEST, "the request ended before its head did")
            if line in (b"\r\n", b"\n"):
                if lines:
                    break
                continue  # an empty line before the request line is allowed (RFC 9112 2.2)
            lines.append(line)
            if len(lines) > MAX_HEADERS + 1:
                raise Refused(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                              f"at most {MAX_HEADERS} headers")
        method, target, headers = parse_head(lines)
        hosts = headers.get("host", [])
        if len(hosts) != 1:
            raise Refused(HTTPStatus.BAD_REQUEST, "a request has one Host header")
        if not self.guard.host_allowed(hosts[0]):
            raise Refused(HTTPStatus.FORBIDDEN,
                          "this server answers only to its own host names "
                          "(raiders serve --allow-host NAME adds one)")
        path, _, query = target.partition("?")
        if not self.guard.token_given(parse_qs(query).get("token", [""])[0]):
            raise Refused(HTTPStatus.FORBIDDEN,
                          "this server wants its token: open the URL it printed")
        return Request(method, path, query, hosts[0])

    async def _answer(self, request: Request) -> tuple[HTTPStatus, str]:
        index = self.link("/")
        if request.path in ("/", "/index.html"):
            return HTTPStatus.OK, _index_page(self.folder, self.files, self.link)
        m = _LOG_PAGE.fullmatch(request.path)
        if not m or int(m.group(1)) >= len(self.files):
            return HTTPStatus.NOT_FOUND, _error_page("404 Not Found", "no such page", index)
        assert self._loop is not None
        return await self._loop.run_in_executor(self._pool, self._log_page,
                                                self.files[int(m.group(1))], index)

    def _log_page(self, log: str, index: str) -> tuple[HTTPStatus, str]:
        """A log's page (made in a thread of the pool), or its diagnostics."""
        from raiders.dsl.diagnostics import Problems
        from raiders.formats.declared import file_format

        from .viewer import render_html, view_for

        try:
            st = Path(log).stat()
        except OSError:
            return HTTPStatus.NOT_FOUND, _error_page("404 Not Found", "the log is gone", index)
        if file_format(log) != "log":  # replaced since the server started: no longer a log
            return HTTPStatus.NOT_FOUND, _error_page("404 Not Found", "no longer a log", index)
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
        with self._pages_lock:
            kept = self._pages.get(key)
        if kept is not None:
            return HTTPStatus.OK, kept
        try:
            page = render_html(view_for(log, self.allow, display_path(log)),
                               nav=f'<a href="{html.escape(index)}">all logs</a>')
        except Problems as err:
            text = "\n\n".join(render(d.with_path(display_path(d.span.path)),
                                      _quotable(d.span.path, log))
                               for d in err.diagnostics)
            return HTTPStatus.UNPROCESSABLE_ENTITY, _error_page(
                f"bad log: {display_path(log)}", text, index)
        except Exception as err:  # noqa: BLE001 (one line for the operator, a 500 for the page)
            print(f"raiders serve: {display_path(log)}: {type(err).__name__}: {err}",
                  file=sys.stderr)
            return HTTPStatus.INTERNAL_SERVER_ERROR, _error_page(
                "500 Internal Server Error", "this log could not be shown", index)
        with self._pages_lock:  # two threads make pages
            if len(self._pages) >= _KEPT_PAGES:
                self._pages.pop(next(iter(self._pages)))
            self._pages[key] = page
        return HTTPStatus.OK, page

    async def _send(self, writer: asyncio.StreamWriter, status: HTTPStatus, body: str,
                    head_only: bool) -> None:
        data = body.encode("utf-8")
        head = (f"HTTP/1.1 {status.value} {status.phrase}\r\n"
                "Content-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(data)}\r\n"
                "Connection: close\r\n"
                "Cache-Control: no-store\r\n"
                "X-Content-Type-Options: nosniff\r\n"
                "X-Frame-Options: DENY\r\n"
                "Referrer-Policy: no-referrer\r\n\r\n")
        writer.write(head.encode("ascii") + (b"" if head_only else data))
        await writer.drain()


def _quotable(path: str, log: str) -> Optional[list[str]]:
    """The lines a bad log's page may quote: from the log, a card file or a file that declares
    a raiders format; never from any other file a log names (a secrets.yaml beside it)."""
    from raiders.formats.declared import file_format
    from raiders.formats.quote import source_lines

    shown = display_path(path)
    if shown == display_path(log) or path.endswith(".dsl") or file_format(path) is not None:
        return source_lines({}, shown)
    return None


def make_server(folder: str, port: int, allow: tuple[str, ...] = (), bind: str = "127.0.0.1",
                allow_hosts: tuple[str, ...] = (), **limits) -> LogServer:
    """A server for the logs below `folder` (bound, not started: call serve_forever)."""
    return LogServer(folder, port, allow, bind, allow_hosts=allow_hosts, **limits)
