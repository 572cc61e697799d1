"""Diagnostics: one problem in one source file, with a stable code, rendered rustc-style."""
from __future__ import annotations

import difflib
import json
import re
from typing import Iterable, Optional, Sequence

import attrs

from .spans import Span

# Every kind of problem has one stable code. Tests and editors rely on them: never renumber.
CODES: dict[str, str] = {
    "E001": "syntax error: unexpected token",
    "E002": "syntax error: unexpected character",
    "E003": "syntax error: unexpected end of file",
    "E004": "file cannot be read",
    "E005": "text nested too deeply",
    "E006": "file too large",
    "E101": "unknown kind",
    "E102": "unknown selector",
    "E103": "unknown item",
    "E104": "unknown name",
    "E105": "unknown field",
    "E106": "unknown function",
    "E107": "unknown event or modifiable quantity",
    "E108": "unknown parameter type",
    "E109": "unknown tag",
    "E110": "unknown ability",
    "E201": "missing required field",
    "E202": "field given twice",
    "E203": "parameter hides a built-in word",
    "E301": "value out of range",
    "E302": "wrong type of value",
    "E303": "wrong number of arguments",
    "E304": "table row given twice",
    "E305": "parameter refers to itself",
    "E307": "rules contradict each other",
    "E401": "duplicate id",
    "E402": "duplicate kind",
    "E403": "bad kind parent",
    "E404": "effect without players",
    "E405": "statement not allowed here",
    "E406": "a rule that never takes effect where it stands",
    "E407": "a selector that picks nobody where it stands",
    "E408": "a steal from the player who steals",
    "E409": "room reads `threat` in a game without a threat deck",
    "E410": "room gives an item the supply does not hold",
    "E501": "YAML syntax error",
    "E502": "ruleset names an unknown card",
    "E503": "ruleset field has the wrong type or value",
    "E504": "ruleset has an unknown or missing field",
    "E505": "path not found",
    "E506": "path not allowed: outside the file's own folder",
    "E507": "YAML anchor or alias",
    "E508": "mod used with a ruleset it is not written for",
    "E510": "not a raiders file: it declares no raiders format",
    "W601": "a mod's boss-like card joins the room deck",
    "W602": "rules set each other off (their events multiply)",
    "W603": "an item passed to a neighbour is passed on by the neighbour's own copy",
    "W604": "an item the supply holds that no card of the game ever gives",
    "W605": "a status that reads its holder is put on a thing nobody holds",
}

# A diagnostic quotes at most this much of a source line, and of its own message and hint
# (which may hold a value from the file): output stays bounded whatever the input.
MAX_QUOTE = 200
MAX_MESSAGE = 500


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# Characters a terminal would act on rather than show (a NUL, an escape sequence, a carriage
# return) or that reorder a line's text (bidirectional controls, "Trojan Source").
_UNSEEN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """The text with every control character written as its escape (`\\x00`, `\\u202e`)."""
    return _UNSEEN.sub(lambda m: repr(m.group(0))[1:-1], text)



@attrs.frozen
class Diagnostic:
    span: Span
    code: str
    message: str
    hint: Optional[str] = None
    severity: str = "error"

    def with_path(self, path: str) -> "Diagnostic":
        return attrs.evolve(self, span=attrs.evolve(self.span, path=path))

    def to_json(self) -> dict:
        return {
            "path": self.span.path,
            "line": self.span.line,
            "col": self.span.col,
            "end": {"line": self.span.end_line, "col": self.span.end_col},
            "code": self.code,
            "severity": self.severity,
            "message": clip(self.message),
            "hint": None if self.hint is None else clip(self.hint),
        }


def did_you_mean(word: str, candidates: Iterable[str]) -> Optional[str]:
    """A 'did you mean' hint for a misspelt word, or None when nothing is close."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def render(diag: Diagnostic, source_lines: Optional[Sequence[str]]) -> str:
    """`path:line:col: error[CODE]: message`, the source line, a caret under the span, a hint."""
    s = diag.span
    out = [f"{visible(s.path)}:{s.line}:{s.col}: {diag.severity}[{diag.code}]: "
           f"{clip(visible(diag.message))}"]
    if source_lines is not None and 1 <= s.line <= len(source_lines):
        raw = source_lines[s.line - 1].rstrip("\n").expandtabs(1)
        # control characters escaped; the column and width follow them
        text = visible(raw)
        col = len(visible(raw[:s.col - 1])) + 1
        if s.end_line == s.line and s.end_col > s.col:
            s = attrs.evolve(s, end_col=col + len(visible(raw[s.col - 1:s.end_col - 1])))
        s = attrs.evolve(s, col=col)
        if len(text) > MAX_QUOTE:  # an excerpt around the column, never the whole line
            start = max(0, min(col - 1 - MAX_QUOTE // 4, len(text) - MAX_QUOTE))
            excerpt = text[start:start + MAX_QUOTE]
            text = ("…" if start else "") + excerpt + ("…" if start + MAX_QUOTE < len(text) else "")
            col = col - start + (1 if start else 0)
        col = max(1, min(col, len(text) + 1))
        gutter = " " * len(str(s.line))
        width = (s.end_col - s.col) if s.end_line == s.line and s.end_col > s.col else 1
        width = max(1, min(width, max(1, len(text) - col + 1)))
        out.append(f"{gutter} |")
        out.append(f"{s.line} | {text}")
        out.append(f"{gutter} | {' ' * max(0, col - 1)}{'^' * width}")
    if diag.hint:
        out.append(f"  = hint: {clip(visible(diag.hint))}")
    return "\n".join(out)


def to_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diags], indent=2)


def an(word: str) -> str:
    """`an item card`, `a room card`: the article a message needs before a word."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


class Problems(Exception):
    """Input that does not check clean, with the diagnostics that say why (and the texts they
    quote): the one exception for problems with diagnostics, whatever layer finds them (a
    ruleset or mod that does not load, a log or scenario field that is wrong). The command
    line turns it into printed diagnostics and exit status 1 in one place
    (interpreter/cli/__init__.py)."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Optional[dict[str, str]] = None):
        super().__init__("; ".join(d.message for d in diagnostics[:3])
                         + (f"; … {len(diagnostics)} problem(s)" if len(diagnostics) > 3 else ""))
        self.diagnostics = diagnostics
        self.sources = sources or {}
