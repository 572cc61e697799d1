"""Which raiders a mod needs (`raiders: ">=0.1"` in mod.yaml), against the one running.

`packaging`'s specifiers when it is installed; otherwise a small reading of the same
clauses (`>=`, `>`, `<=`, `<`, `==`, `!=`, comma-separated) on dotted numbers, which is all a
mod needs to say."""
from __future__ import annotations

import re
from typing import Optional

_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<|~=)?\s*(\d+(?:\.\d+)*)\s*$")


def running_version() -> str:
    """The installed raiders' version (the project's own when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("raiders")
    except PackageNotFoundError:
        return "0.1.0"


def _numbers(v: str) -> tuple[int, ...]:
    parts = [int(x) for x in re.findall(r"\d+", v.split("+")[0])[:4]]
    while parts and parts[-1] == 0:
        parts.pop()  # 0.1 == 0.1.0
    return tuple(parts)


def _fallback(spec: str, have: str) -> Optional[bool]:
    """None when `spec` is not a specifier this reading knows."""
    mine = _numbers(have)
    for clause in spec.split(","):
        m = _CLAUSE.match(clause)
        if not m:
            return None
        op, want = m.group(1) or "==", _numbers(m.group(2))
        if op == "~=":  # compatible release: >= want, same prefix less its last number
            prefix = _numbers(m.group(2))[:-1] if len(m.group(2).split(".")) > 1 else ()
            ok = mine >= want and mine[:len(prefix)] == prefix
        else:
            ok = {">=": mine >= want, "<=": mine <= want, ">": mine > want, "<": mine < want,
                  "==": mine == want, "!=": mine != want}[op]
        if not ok:
            return False
    return True


def satisfies(spec: str, have: Optional[str] = None) -> Optional[bool]:
    """Whether raiders `have` (default: the running one) meets `spec`; None: `spec` is not a
    version specifier."""
    have = have or running_version()
    bare = _CLAUSE.match(spec)
    if bare and not bare.group(1):
        spec = ">=" + spec.strip()  # a bare version (`raiders: "0.1"`) means at least that one
    try:
        from packaging.specifiers import InvalidSpecifier, SpecifierSet
    except ImportError:
        return _fallback(spec, have)
    try:
        return SpecifierSet(spec).contains(have, prereleases=True)
    except InvalidSpecifier:
        return None
