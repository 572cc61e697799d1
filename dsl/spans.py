"""Source positions carried by every AST node and every diagnostic."""
from __future__ import annotations

from typing import Optional

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



def located(value: Optional[int]) -> int:
    """A lexed token's position. Lark types positions as optional (a token made by hand has
    none); every token the parser hands on came from the lexer, which always sets them."""
    if value is None:
        raise ValueError("a token without a position in the source")
    return value
