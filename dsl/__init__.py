"""The card language's front door: text → parse tree → AST → indexed, checked library.

    from raiders.dsl import load_text
    lib, diagnostics = load_text("treasure urn { chest 2 }", "urn.dsl", base=ruleset.library)

The language reads no file: card files are read, parsed and checked by the one loader
(formats/loader.py, which builds on `extend_library`); text that is no file of its own (a
scenario's inline room) comes in through `load_text`. The steps live in their own modules:
`parser` (text → AST), `library` (symbol tables: kinds, cards, extensions), `checker`
(diagnostics), `vocabulary` (every word of the language).
"""
from __future__ import annotations

from typing import Iterable, Optional

from . import ast
from .diagnostics import Diagnostic
from .library import Library, add_module, build_tables

__all__ = ["Library", "Diagnostic", "checked", "extend_library", "load_text"]


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


def checked(lib: Library, base: Optional[Library]) -> tuple[Library, list[Diagnostic]]:
    """The library and the diagnostics of what it adds to `base` (the base was checked on
    its own)."""
    from .checker import check  # imported when used: a cached load needs no checker

    base_files = set(base.sources) if base is not None else set()
    return lib, [d for d in check(lib) if d.span.path not in base_files]


def load_text(text: str, path: str,
              base: Optional[Library] = None) -> tuple[Library, list[Diagnostic]]:
    """Card text that is not a file of its own (a scenario's inline room), parsed, indexed
    and checked on top of `base`, as `Loader.library` does card files: `path` names it in
    diagnostics."""
    from .parser import parse

    module, diags = parse(text, path)
    lib = extend_library(base, [(path, module, diags, text)])
    return checked(lib, base)
