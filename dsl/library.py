"""The symbol tables of a set of parsed card files: kinds (with inheritance) and cards.

It reads no file: formats/loader.py reads and parses them, and hands the trees here."""
from __future__ import annotations

import os
from typing import Optional, Union

import attrs

from . import ast
from .diagnostics import Diagnostic, did_you_mean
from .vocabulary import ROLE_KINDS, ROOM_SHAPE

CARD_SUFFIX = ".dsl"  # what a card file's name ends in


@attrs.frozen
class ParamInfo:
    name: str
    type: str
    default: Optional[Union[ast.Expr, ast.PerPlayers, ast.Block]]
    decl: ast.Param


@attrs.define
class KindInfo:
    """A kind with its ancestry resolved: params merged root first, members in order."""

    decl: ast.KindDecl
    chain: tuple[ast.KindDecl, ...]  # root … self
    params: dict[str, ParamInfo]
    extensions: list[ast.ExtendDecl] = attrs.Factory(list)  # `extend KIND { … }` of this kind
    inherited_extensions: list[ast.ExtendDecl] = attrs.Factory(list)  # … of its ancestors

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
    modules: list[ast.Module] = attrs.Factory(list)
    sources: dict[str, str] = attrs.Factory(dict)
    kinds: dict[str, KindInfo] = attrs.Factory(dict)
    cards: dict[str, ast.CardDecl] = attrs.Factory(dict)
    diagnostics: list[Diagnostic] = attrs.Factory(list)

    def role_of(self, card_id: str) -> Optional[str]:
        card = self.cards.get(card_id)
        kind = self.kinds.get(card.kind) if card else None
        return kind.role if kind else None



def add_module(lib: Library, module: Optional[ast.Module], diags: list[Diagnostic], text: str,
               path: str) -> None:
    lib.sources[path] = text
    lib.diagnostics.extend(diags)
    if module is not None:
        lib.modules.append(module)




def build_tables(lib: Library) -> None:
    """Fill kinds and cards; duplicates and bad parents become diagnostics (E401–E403)."""
    index_declarations(lib)


def index_declarations(lib: Library) -> None:
    """Build lib.kinds and lib.cards; report duplicate ids/kinds and bad parents."""
    decls: dict[str, ast.KindDecl] = {}
    extensions: list[ast.ExtendDecl] = []
    for module in lib.modules:
        for decl in module.decls:
            if isinstance(decl, ast.ExtendDecl):
                extensions.append(decl)
            elif isinstance(decl, ast.KindDecl):
                if decl.name in decls:
                    first_kind = decls[decl.name]
                    lib.diagnostics.append(Diagnostic(
                        decl.name_span, "E402", f"kind `{decl.name}` is defined twice",
                        f"first defined at {display_path(str(first_kind.name_span))}"))
                    continue
                decls[decl.name] = decl
            else:
                if decl.id in lib.cards:
                    first_card = lib.cards[decl.id]
                    lib.diagnostics.append(Diagnostic(
                        decl.id_span, "E401", f"card id `{decl.id}` is defined twice",
                        f"first defined at {display_path(str(first_card.id_span))}; "
                        "ids must be unique in a ruleset"))
                    continue
                lib.cards[decl.id] = decl
    for name, decl in decls.items():
        chain = _chain(decl, decls, lib.diagnostics)
        if chain is None:
            continue
        params: dict[str, ParamInfo] = {}
        if chain[0].name not in ROLE_KINDS:
            # Every room kind says how it is played (cards each, rounds), by default 1 and 1;
            # a kind or card may change that like any parameter: `kind k : monster(cards = 2)`.
            for shape, (typ, default, _) in ROOM_SHAPE.items():
                value = ast.Num(default, chain[0].name_span)
                params[shape] = ParamInfo(shape, typ, value,
                                          ast.Param(shape, typ, value, chain[0].name_span))
        for kind in chain:
            for p in kind.params:
                if p.type is None:
                    inherited = params.get(p.name)
                    if inherited is None:
                        lib.diagnostics.append(Diagnostic(
                            p.span, "E108", f"parameter `{p.name}` needs a type",
                            f"`{p.name}: int`; only a parent's parameter may be given a "
                            "new default without a type"))
                        continue
                    params[p.name] = attrs.evolve(inherited, default=p.default, decl=p)
                else:
                    params[p.name] = ParamInfo(p.name, p.type, p.default, p)
        lib.kinds[name] = KindInfo(decl, chain, params)
    for ext in extensions:
        info = lib.kinds.get(ext.kind)
        if info is None:
            lib.diagnostics.append(Diagnostic(
                ext.kind_span, "E101", f"`extend` names unknown kind `{ext.kind}`",
                did_you_mean(ext.kind, lib.kinds)))
            continue
        info.extensions.append(ext)
    # A kind's children inherit what extends it.
    for info in lib.kinds.values():
        for ancestor in info.chain[:-1]:
            parent = lib.kinds.get(ancestor.name)
            if parent is not None:
                info.inherited_extensions.extend(
                    e for e in parent.extensions if e not in info.inherited_extensions)


def _chain(decl: ast.KindDecl, decls: dict[str, ast.KindDecl],
           diags: list[Diagnostic]) -> Optional[tuple[ast.KindDecl, ...]]:
    chain = [decl]
    seen = {decl.name}
    while chain[-1].parent is not None:
        parent = chain[-1].parent
        if parent not in decls:
            diags.append(Diagnostic(chain[-1].parent_span or chain[-1].span, "E403",
                                    f"unknown parent kind `{parent}`",
                                    did_you_mean(parent, decls)))
            return None
        if parent in seen:
            diags.append(Diagnostic(decl.name_span, "E403",
                                    f"kind `{decl.name}` derives from itself",
                                    "remove the cycle of `:` parents"))
            return None
        seen.add(parent)
        chain.append(decls[parent])
    return tuple(reversed(chain))


def display_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
