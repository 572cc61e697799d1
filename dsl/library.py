"""A set of parsed card files and their symbol tables: kinds (with inheritance) and cards."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Union

import attrs

from . import ast as A
from .diagnostics import Diagnostic
from .parser import parse_file
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
    extensions: list[A.ExtendDecl] = attrs.Factory(list)  # `extend KIND { … }` of this kind
    inherited_extensions: list[A.ExtendDecl] = attrs.Factory(list)  # … of its ancestors

    def members(self):
        """Every rule of the kind, root first, each kind's extensions after its own rules."""
        for kind in self.chain:
            yield from kind.members
            if kind is self.decl:
                for ext in self.extensions:
                    yield from ext.members
            else:
                for ext in self.inherited_extensions:
                    if ext.kind == kind.name:
                        yield from ext.members

    @property
    def role(self) -> str:
        """'room' or one of ROLE_KINDS, from the root of the chain."""
        root = self.chain[0].name
        return root if root in ROLE_KINDS else "room"



@attrs.define
class Library:
    modules: list[A.Module] = attrs.Factory(list)
    sources: dict[str, str] = attrs.Factory(dict)
    kinds: dict[str, KindInfo] = attrs.Factory(dict)
    cards: dict[str, A.CardDecl] = attrs.Factory(dict)
    diagnostics: list[Diagnostic] = attrs.Factory(list)

    def role_of(self, card_id: str) -> Optional[str]:
        card = self.cards.get(card_id)
        kind = self.kinds.get(card.kind) if card else None
        return kind.role if kind else None



def card_files(path: Union[str, Path]) -> list[Path]:
    """The card files a path names: the file itself, or every *.dsl below a folder, sorted."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob(f"*{CARD_SUFFIX}") if f.is_file())
    return [p]


# From this many files on, `raiders validate` checks a mod in shards on every core
# (dsl/validate.py); below it, starting processes costs more than it saves.
PARALLEL_FROM = 600


def parse_many(files: list[Path]) -> list[tuple[str, Optional[A.Module], list[Diagnostic], str]]:
    """Parse files in order: (path, module or None, diagnostics, text) each."""
    out = []
    for f in files:
        module, diags, text = parse_file(f)
        out.append((str(f), module, diags, text))
    return out


def add_module(lib: Library, module: Optional[A.Module], diags: list[Diagnostic], text: str,
               path: str) -> None:
    lib.sources[path] = text
    lib.diagnostics.extend(diags)
    if module is not None:
        lib.modules.append(module)




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
