"""Reading user YAML (scenarios, logs) field by field, each problem a positioned Diagnostic."""
from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Any, Iterable, Iterator, Optional

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


# What each kind of field takes (only the asked one is tested: a log has thousands of fields).
_KINDS = {
    "str": Y.is_str,
    "int": Y.is_int,
    "nat": lambda v: Y.is_int(v) and v >= 0,
    "map": Y.is_map,
    "list": Y.is_seq,
    "any": lambda v: True,
}


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
        if not _KINDS[kind](v):
            words = {"str": "a string", "int": "a whole number", "nat": "a whole number ≥ 0",
                     "map": "a map", "list": "a list"}[kind]
            self.fail(Y.value_span(self.path, node, key), f"`{key}` takes {words}")
            return default
        return v


# Folders the user allowed on the command line (`--allow-path`): paths named inside a log or
# a scenario file may lead there too, besides the file's own folder (dsl/safeio.py).
_ALLOWED: ContextVar[tuple[str, ...]] = ContextVar("raiders_allowed_paths", default=())


@contextlib.contextmanager
def allowing(paths: Iterable[str]) -> Iterator[None]:
    """Within the block, logs and scenario files may also name paths inside `paths`."""
    token = _ALLOWED.set(tuple(_ALLOWED.get()) + tuple(str(p) for p in paths))
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def rules_from(r: Reader, ruleset: str, variant: Optional[str], cards: list[str], what: str):
    """The rules a scenario file or a log names: a built-in id or a path, and mod folders,
    both read relative to the file's own folder, and confined to it (or to the folders allowed
    with --allow-path): a path that leads elsewhere is refused (E506) and never opened.
    Problems point at the file's fields."""
    from pathlib import Path

    from raiders.dsl.rulesets import RULESET_FILE, builtin_ids
    from raiders.dsl.safeio import Confinement, is_dir, is_file, refused

    from .rules import LoadError, load_rules

    box = Confinement(Path(r.path).parent, _ALLOWED.get())
    roots: Optional[tuple[str, ...]] = None
    if ruleset not in builtin_ids():
        where = r.span("ruleset") if r.has("ruleset") else r.span()
        path, why = box.resolve(str(ruleset))
        if path is not None and is_dir(path):
            path = str(Path(path) / RULESET_FILE)
            if not box.inside(path):
                path, why = None, "a link that leads out of the file's own folder"
        if path is None:
            r.diags.append(refused(where, str(ruleset), why or "", what))
        elif not is_file(path):
            r.fail(where, f"unknown ruleset `{ruleset}` (built in: {', '.join(builtin_ids())}; "
                   f"or a path to a ruleset.yaml, relative to the {what}'s own folder)")
        else:
            ruleset, roots = path, box.key()
    mods: list[str] = []
    for i, raw in enumerate(map(str, cards)):
        where = Y.value_span(r.path, r.node["cards"], i)
        path, why = box.resolve(raw)
        if path is None:
            r.diags.append(refused(where, raw, why or "", what))
        elif not is_dir(path):
            r.fail(where, f"card folder `{raw}` not found",
                   f"mod folders are read relative to the {what}'s own folder", code="E505")
        else:
            mods.append(path)
    if r.diags:
        raise InputError(r.diags)
    try:
        return load_rules(ruleset, variant, tuple(mods), roots)
    except ValueError as err:
        field = "variant" if variant and "variant" in str(err) else "ruleset"
        r.fail(r.span(field) if r.has(field) else r.span(), str(err))
        raise InputError(r.diags) from None
    except LoadError as err:
        raise InputError(err.diagnostics) from None
