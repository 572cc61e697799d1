"""`raiders fmt` on a file: read it (bounded), lay it out (dsl/fmt.py format_text), and replace
it whole or not at all when its layout changes."""
from __future__ import annotations

from typing import Optional

import attrs

from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.fmt import FormatError, format_text

from .atomic import write_atomic
from .safeio import read_text


@attrs.frozen
class FileResult:
    path: str
    changed: bool
    diagnostics: tuple[Diagnostic, ...] = ()
    error: Optional[str] = None  # a FormatError or a write error: the file was left alone
    text: str = ""  # the original text
    formatted: str = ""


def format_file(path: str, write: bool) -> FileResult:
    """Format one file; with `write`, replace it (atomically) when its layout changes."""
    text, diags = read_text(path)
    if text is None:
        return FileResult(path, False, tuple(diags))
    try:
        out, diags = format_text(text, path)
    except FormatError as err:
        return FileResult(path, False, error=str(err), text=text)
    if out is None:
        return FileResult(path, False, tuple(diags), text=text)
    changed = out != text
    if changed and write:
        try:
            write_atomic(path, out)
        except OSError as err:
            return FileResult(path, True, error=f"{path}: cannot write: {err.strerror or err}",
                              text=text, formatted=out)
    return FileResult(path, changed, text=text, formatted=out)
