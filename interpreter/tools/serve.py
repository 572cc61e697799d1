"""`raiders serve`: the replay viewer over HTTP on localhost, for a folder of logs.

The standard library's http.server, bound to 127.0.0.1 only. The index lists the logs found
when the server starts (the same search as `replay FOLDER`); a page is asked for by its number
in that list, so no path from a request ever reaches the file system.
"""
from __future__ import annotations

import html
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from raiders.dsl.diagnostics import render
from raiders.dsl.library import display_path


def _index_page(folder: str, files: list[str]) -> str:
    rows = "\n".join(f'<li><a href="/log/{i}">{html.escape(display_path(f))}</a></li>'
                     for i, f in enumerate(files))
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>raiders logs: {html.escape(display_path(folder))}</title>"
            "<style>body{font:15px system-ui,sans-serif;margin:20px;background:#f6f3ec}"
            "</style></head><body>"
            f"<h1>Logs in {html.escape(display_path(folder))}</h1>"
            f"<ol>{rows or '<li>no logs (*.yaml) here</li>'}</ol></body></html>")


def _error_page(title: str, text: str) -> str:
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
            f"<pre>{html.escape(text)}</pre><p><a href=\"/\">all logs</a></p></body></html>")


def make_server(folder: str, port: int, allow: tuple[str, ...] = ()) -> ThreadingHTTPServer:
    """A server for the logs below `folder` (not started: call serve_forever)."""
    from raiders.dsl.diagnostics import Problems
    from raiders.formats.quote import source_lines
    from raiders.formats.safeio import found_files

    from .viewer import render_html, view_for

    files, _ = found_files((folder,), ["*.y*ml"])

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, body: str) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path in ("/", "/index.html"):
                self._send(200, _index_page(folder, files))
                return
            head, _, number = path.rpartition("/")
            if head != "/log" or not number.isdigit() or int(number) >= len(files):
                self._send(404, _error_page("not found", path))
                return
            f = files[int(number)]
            try:
                self._send(200, render_html(view_for(f, allow, display_path(f))))
            except Problems as err:
                text = "\n\n".join(render(d.with_path(display_path(d.span.path)),
                                          source_lines({}, display_path(d.span.path)))
                                   for d in err.diagnostics)
                self._send(422, _error_page(f"bad log: {display_path(f)}", text))

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass  # quiet: the command line is for the address, not for every request

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
