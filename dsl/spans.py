"""Source positions carried by every AST node and every diagnostic."""
from __future__ import annotations

import attrs


@attrs.frozen
class Span:
    """A region of one source file; lines and columns are 1-based, end is exclusive."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    @classmethod
    def whole_file(cls, path: str) -> "Span":
        """Where a problem with a file as a whole is shown: its first character."""
        return cls(str(path), 1, 1, 1, 2)

