"""Reading user YAML (scenarios, logs) field by field, each problem a positioned Diagnostic."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from raiders.dsl import yamlsrc as Y
from raiders.dsl.diagnostics import Diagnostic, did_you_mean
from raiders.dsl.spans import Span


class InputError(Exception):
    """Bad user input; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _kind_of(node: Any) -> str:
    if node is None:
        return "nothing"
    if Y.is_seq(node):
        return "a list"
    return f"`{node}`"


class Reader:
    """Checks one YAML map against the fields a format allows."""

    def __init__(self, path: str, node: Any, allowed: Iterable[str], what: str,
                 diags: Optional[list[Diagnostic]] = None, where: Optional[Span] = None):
        """`diags`: a parent reader's list to report into; `where`: the node's position
        when it is a scalar (which carries none of its own)."""
        self.path = path
        self.node = node
        self.what = what
        self.diags: list[Diagnostic] = diags if diags is not None else []
        self.where = where
        if not Y.is_map(node):
            self.diags.append(Diagnostic(where or Y.node_span(path, node), "E503",
                                         f"a {what} is a YAML map",
                                         f"got {_kind_of(node)}"))
            self.node = {}
            return
        allowed = list(allowed)
        for key in node:
            if key not in allowed:
                self.diags.append(Diagnostic(Y.key_span(path, node, key), "E504",
                                             f"unknown {what} field `{key}`",
                                             did_you_mean(str(key), allowed)
                                             or "fields: " + ", ".join(allowed)))

    def span(self, key: Any = None, node: Any = None) -> Span:
        node = self.node if node is None else node
        if key is None:
            return self.where or Y.node_span(self.path, node) if node is self.node \
                else Y.node_span(self.path, node)
        return Y.value_span(self.path, node, key)

    def fail(self, span: Span, message: str, hint: Optional[str] = None, code: str = "E503") -> None:
        self.diags.append(Diagnostic(span, code, message, hint))

    def has(self, key: str) -> bool:
        return Y.is_map(self.node) and key in self.node

    def get(self, key: str, kind: str, required: bool = False, default: Any = None,
            node: Any = None) -> Any:
        node = self.node if node is None else node
        if not Y.is_map(node) or key not in node:
            if required:
                self.fail(Y.node_span(self.path, node), f"{self.what} is missing `{key}`",
                          code="E504")
            return default
        v = node[key]
        ok = {
            "str": Y.is_str(v),
            "int": Y.is_int(v),
            "nat": Y.is_int(v) and v >= 0,
            "map": Y.is_map(v),
            "list": Y.is_seq(v),
            "any": True,
        }[kind]
        if not ok:
            words = {"str": "a string", "int": "a whole number", "nat": "a whole number ≥ 0",
                     "map": "a map", "list": "a list"}[kind]
            self.fail(Y.value_span(self.path, node, key), f"`{key}` takes {words}")
            return default
        return v


def rules_from(r: Reader, ruleset: str, variant: Optional[str], cards: list[str], what: str):
    """The rules a scenario file or a log names: a built-in id or a path, and mod folders,
    both read relative to the file's own folder. Problems point at the file's fields."""
    from pathlib import Path

    from raiders.dsl.rulesets import builtin_ids

    from .rules import LoadError, load_rules

    base = Path(r.path).parent
    if ruleset not in builtin_ids() and not Path(ruleset).is_absolute() and (base / ruleset).exists():
        ruleset = str(base / ruleset)
    mods = tuple(c if Path(c).is_absolute() else str(base / c) for c in map(str, cards))
    for i, folder in enumerate(mods):
        if not Path(folder).is_dir():
            r.fail(Y.value_span(r.path, r.node["cards"], i), f"card folder `{cards[i]}` not found",
                   f"mod folders are read relative to the {what}'s own folder", code="E505")
    if r.diags:
        raise InputError(r.diags)
    try:
        return load_rules(ruleset, variant, mods)
    except ValueError as err:
        field = "variant" if variant and "variant" in str(err) else "ruleset"
        r.fail(r.span(field) if r.has(field) else r.span(), str(err))
        raise InputError(r.diags)
    except LoadError as err:
        raise InputError(err.diagnostics)
