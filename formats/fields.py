"""Reading a YAML map field by field (rulesets, mods, scenarios, logs): each field's kind is
checked where it stands, and each problem becomes a positioned Diagnostic. The one reader of
the project's YAML formats; a format adds only its own kinds of value."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from raiders.dsl.diagnostics import Diagnostic, Problems, did_you_mean
from raiders.dsl.spans import Span

from . import yamlsrc

# A field that is wrong: the one exception for problems with diagnostics (dsl/diagnostics.py),
# under the name the readers of logs and scenarios have long used.
InputError = Problems


def _kind_of(node: Any) -> str:
    if node is None:
        return "nothing"
    if yamlsrc.is_seq(node):
        return "a list"
    return f"`{node}`"


# What each kind of field takes (only the asked one is tested: a log has thousands of fields).
_KINDS = {
    "str": yamlsrc.is_str,
    "int": yamlsrc.is_int,
    "nat": lambda v: yamlsrc.is_int(v) and v >= 0,
    "map": yamlsrc.is_map,
    "list": yamlsrc.is_seq,
    "any": lambda v: True,
}


class Reader:
    """Checks one YAML map against the fields a format allows."""

    def __init__(self, path: str, node: Any, allowed: Iterable[str], what: str,
                 diags: Optional[list[Diagnostic]] = None, where: Optional[Span] = None,
                 unknown: Optional[str] = None, fields: Optional[str] = None):
        """`diags`: a parent reader's list to report into; `where`: the node's position
        when it is a scalar (which carries none of its own). An unknown field is E504, `unknown`
        its message (`{key}` the field; default "unknown WHAT field `KEY`"), with the nearest
        field as its hint, else `fields` (default: the fields, listed)."""
        self.path = path
        self.node = node
        self.what = what
        self.diags: list[Diagnostic] = diags if diags is not None else []
        self.where = where
        if not yamlsrc.is_map(node):
            self.diags.append(Diagnostic(where or yamlsrc.node_span(path, node), "E503",
                                         f"a {what} is a YAML map",
                                         f"got {_kind_of(node)}"))
            self.node = {}
            return
        allowed = list(allowed)
        for key in node:
            if key not in allowed:
                self.diags.append(Diagnostic(
                    yamlsrc.key_span(path, node, key), "E504",
                    (unknown or f"unknown {what} field `{{key}}`").format(key=key),
                    did_you_mean(str(key), allowed) or fields
                    or "fields: " + ", ".join(allowed)))

    def span(self, key: Any = None, node: Any = None) -> Span:
        node = self.node if node is None else node
        if key is None:
            return self.where or yamlsrc.node_span(self.path, node) if node is self.node \
                else yamlsrc.node_span(self.path, node)
        return yamlsrc.value_span(self.path, node, key)

    def fail(self, span: Span, message: str, hint: Optional[str] = None,
             code: str = "E503") -> None:
        self.diags.append(Diagnostic(span, code, message, hint))

    def require_format(self, expected: str, what: str) -> None:
        """The file's `format:` must be `expected` (this version's); else stop here."""
        fmt = self.get("format", "str", required=True)
        if fmt is not None and fmt != expected:
            self.fail(self.span("format"), f"unknown {what} format `{fmt}`",
                      f"this version of raiders reads `{expected}`")
        if self.diags:
            raise InputError(self.diags)

    def has(self, key: str) -> bool:
        return yamlsrc.is_map(self.node) and key in self.node

    def get(self, key: str, kind: str, required: bool = False, default: Any = None,
            node: Any = None) -> Any:
        node = self.node if node is None else node
        if not yamlsrc.is_map(node) or key not in node:
            if required:
                self.fail(yamlsrc.node_span(self.path, node), f"{self.what} is missing `{key}`",
                          code="E504")
            return default
        v = node[key]
        if not _KINDS[kind](v):
            words = {"str": "a string", "int": "a whole number", "nat": "a whole number ≥ 0",
                     "map": "a map", "list": "a list"}[kind]
            self.fail(yamlsrc.value_span(self.path, node, key), f"`{key}` takes {words}")
            return default
        return v
