"""A set of parsed card files and their symbol tables: kinds (with inheritance) and cards."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional, Union

import attrs

from . import ast as A
from .diagnostics import Diagnostic
from .parser import parse, parse_file
from .vocabulary import ROLE_KINDS

CARD_SUFFIX = ".dsl"


@attrs.frozen
class ParamInfo:
    name: str
    type: str
    default: Optional[Union[A.Expr, A.PerPlayers, A.Block]]
    decl: A.Param


@attrs.define
class KindInfo:
    """A kind with its ancestry resolved: params merged root first, members in order."""

    decl: A.KindDecl
    chain: tuple[A.KindDecl, ...]  # root … self
    params: dict[str, ParamInfo]

    @property
    def role(self) -> str:
        """'room' or one of ROLE_KINDS, from the root of the chain."""
        root = self.chain[0].name
        return root if root in ROLE_KINDS else "room"

    def derives_from(self, name: str) -> bool:
        return any(k.name == name for k in self.chain)


@attrs.define
class Library:
    modules: list[A.Module] = attrs.Factory(list)
    sources: dict[str, str] = attrs.Factory(dict)
    kinds: dict[str, KindInfo] = attrs.Factory(dict)
    cards: dict[str, A.CardDecl] = attrs.Factory(dict)
    diagnostics: list[Diagnostic] = attrs.Factory(list)

    def kind_of(self, card: A.CardDecl) -> Optional[KindInfo]:
        return self.kinds.get(card.kind)

    def role_of(self, card_id: str) -> Optional[str]:
        card = self.cards.get(card_id)
        kind = self.kinds.get(card.kind) if card else None
        return kind.role if kind else None

    def ids_with_role(self, role: str) -> list[str]:
        return [cid for cid in self.cards if self.role_of(cid) == role]


def card_files(path: Union[str, Path]) -> list[Path]:
    """The card files a path names: the file itself, or every *.dsl below a folder, sorted."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob(f"*{CARD_SUFFIX}") if f.is_file())
    return [p]


PARALLEL_FROM = 600  # below this many files, starting worker processes costs more than it saves


def _parse_chunk(paths: list[str]) -> list[tuple[str, Optional[A.Module], list[Diagnostic], str]]:
    out = []
    for p in paths:
        module, diags, text = parse_file(p)
        out.append((p, module, diags, text))
    return out


def parse_many(files: list[Path]) -> list[tuple[str, Optional[A.Module], list[Diagnostic], str]]:
    """Parse files, on every core when there are many; results in the order given."""
    paths = [str(f) for f in files]
    workers = os.cpu_count() or 1
    if len(paths) < PARALLEL_FROM or workers < 2:
        return _parse_chunk(paths)
    import concurrent.futures as cf
    import multiprocessing as mp

    size = max(50, len(paths) // (workers * 4))
    chunks = [paths[i:i + size] for i in range(0, len(paths), size)]
    try:
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with cf.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
            return [r for chunk in pool.map(_parse_chunk, chunks) for r in chunk]
    except (OSError, cf.process.BrokenProcessPool):
        return _parse_chunk(paths)  # no processes here (a sandbox): parse in this one


def add_module(lib: Library, module: Optional[A.Module], diags: list[Diagnostic], text: str,
               path: str) -> None:
    lib.sources[path] = text
    lib.diagnostics.extend(diags)
    if module is not None:
        lib.modules.append(module)


def load(paths: Iterable[Union[str, Path]], texts: Iterable[tuple[str, str]] = ()) -> Library:
    """Parse files/folders (and (path, text) pairs) into one library and build its tables."""
    lib = Library()
    files = [f for path in paths for f in card_files(path)]
    for path, module, diags, text in parse_many(files):
        add_module(lib, module, diags, text, path)
    for path, text in texts:
        module, diags = parse(text, path)
        add_module(lib, module, diags, text, path)
    build_tables(lib)
    return lib


def build_tables(lib: Library) -> None:
    """Fill kinds and cards; duplicates and bad parents become diagnostics (E401–E403)."""
    from .checker import index_declarations  # the checker owns the rules for these errors

    index_declarations(lib)


def display_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
