"""The source lines a diagnostic quotes: from the text already read, else from the file itself
when it may be read (formats/safeio.py quotable_lines). Every front end (the commands, the
language server, the viewer's server) quotes through this."""
from __future__ import annotations

from typing import Optional

from raiders.dsl.library import display_path


def source_lines(sources: dict[str, str], shown_path: str):
    """The lines a diagnostic may quote: from the sources read, else from the file itself when
    it is a regular file within the size limit and not a link leading out of its folder."""
    return SourceLines(sources)(shown_path)


class SourceLines:
    """source_lines for many diagnostics: each file is split (or read) once, so that 20,000
    diagnostics print in linear time, not quadratic."""

    def __init__(self, sources: dict[str, str]):
        self._texts = {display_path(p): t for p, t in reversed(sources.items())}
        self._lines: dict[str, Optional[list[str]]] = {}

    def __call__(self, shown_path: str) -> Optional[list[str]]:
        if shown_path not in self._lines:
            from .safeio import quotable_lines

            text = self._texts.get(shown_path)
            self._lines[shown_path] = (text.splitlines() if text is not None
                                       else quotable_lines(shown_path))
        return self._lines[shown_path]
