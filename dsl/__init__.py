"""The card language's front door: text → parse tree → AST → indexed, checked library.

    from raiders.dsl import load_library, load_text
    lib, diagnostics = load_library([Path("my-mod/boss.dsl")], base=ruleset.library)

Every caller that turns card text into a checked library goes through these two functions
(validate, rulesets, mods, scenarios' inline rooms); the steps themselves live in their own
modules: `parser` (text → AST), `library` (symbol tables: kinds, cards, extensions),
`checker` (diagnostics), `vocabulary` (every word of the language).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional, Sequence

from . import ast
from .diagnostics import Diagnostic
from .library import Library, add_module, build_tables, parse_many

__all__ = ["Library", "Diagnostic", "extend_library", "load_library", "load_text"]


def extend_library(
        base: Optional[Library],
        parsed: Iterable[tuple[str, Optional[ast.Module], list[Diagnostic], str]]) -> Library:
    """A library of `base`'s declarations plus the parsed files (path, module, diagnostics,
    text), indexed: kinds with their ancestry, cards, extensions (E401–E403 on the way)."""
    lib = Library(modules=list(base.modules), sources=dict(base.sources)) if base else Library()
    for path, module, diags, text in parsed:
        add_module(lib, module, diags, text, path)
    build_tables(lib)
    return lib


def _checked(lib: Library, base: Optional[Library]) -> tuple[Library, list[Diagnostic]]:
    from .checker import check  # imported when used: a cached load needs no checker

    base_files = set(base.sources) if base is not None else set()
    return lib, [d for d in check(lib) if d.span.path not in base_files]


def load_library(files: Sequence[Path],
                 base: Optional[Library] = None) -> tuple[Library, list[Diagnostic]]:
    """Parse, index and check card files on top of `base` (a ruleset's library, already
    checked): the library, and the diagnostics of the given files only."""
    return _checked(extend_library(base, parse_many(list(files))), base)


def load_text(text: str, path: str,
              base: Optional[Library] = None) -> tuple[Library, list[Diagnostic]]:
    """As load_library, for card text that is not a file of its own (a scenario's inline
    room): `path` names it in diagnostics."""
    from .parser import parse

    module, diags = parse(text, path)
    lib = extend_library(base, [(path, module, diags, text)])
    return _checked(lib, base)
