"""A ruleset with every card compiled: what the engine and the scenario runner play with."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

import attrs

from raiders.dsl.checker import check
from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import Library
from raiders.dsl.mods import mod_manifest
from raiders.dsl.rulesets import (
    Ruleset,
    Variant,
    load_ruleset,
    resolve_ruleset_path,
    ruleset_library,
)

from .compiler import (
    CardRules,
    CompiledCharacter,
    CompiledFloor,
    CompiledItem,
    CompiledRoom,
    CompiledRule,
    CompiledStatus,
    compile_card,
)


class LoadError(Exception):
    """A ruleset or mod that does not check clean; carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Optional[dict[str, str]] = None):
        super().__init__(f"{len(diagnostics)} problem(s)")
        self.diagnostics = diagnostics
        self.sources = sources or {}


@attrs.define(eq=False, slots=False)
class Rules:
    ruleset: Ruleset
    variant: Variant
    rooms: dict[str, CompiledRoom]
    characters: dict[str, CompiledCharacter]
    items: dict[str, CompiledItem]
    floors: dict[str, CompiledFloor]
    deck: dict[str, int]  # room id -> copies, mods included
    bosses: tuple[str, ...]
    library: Library
    statuses: dict[str, CompiledStatus] = attrs.Factory(dict)
    house: dict[str, CompiledRule] = attrs.Factory(dict)  # rule cards: in play all game
    boss_facing: Optional[str] = None  # a mod's `boss_facing`: up or down, else the layout's

    @property
    def abilities(self) -> dict[str, Optional[str]]:
        return {i: c.ability for i, c in self.items.items()}

    @functools.cached_property
    def held_rules(self) -> dict[str, CardRules]:
        """The rules of every card a player can hold (characters, items, statuses), by id."""
        held: dict[str, CardRules] = {}
        for group in (self.characters, self.items, self.statuses):
            for cid, card in group.items():
                held[cid] = card.rules
        return held

    @property
    def house_rules(self) -> list[CardRules]:
        return [c.rules for c in self.house.values()]

    def room(self, card_id: str) -> CompiledRoom:
        return self.rooms[card_id]


@functools.lru_cache(maxsize=32)
def load_rules(ruleset: str = "deluxe", variant: Optional[str] = None,
               cards: tuple[str, ...] = (), roots: Optional[tuple[str, ...]] = None) -> Rules:
    """Load, check and compile a ruleset (a built-in id or a path) with mod folders.

    `roots`: for a ruleset named inside a log or scenario file, the folders its own card
    folders must stay inside (dsl/safeio.py); None for a ruleset the user named.
    Raises LoadError with diagnostics when anything does not check clean, and ValueError
    for an unknown ruleset or variant.
    """
    path = resolve_ruleset_path(ruleset)
    if path is None:
        from raiders.dsl.rulesets import builtin_ids

        raise ValueError(f"unknown ruleset `{ruleset}` (built in: {', '.join(builtin_ids())}; "
                         "or give a path to a ruleset.yaml)")
    rs, diags = load_ruleset(path, roots=roots)
    if rs is None or diags:
        raise LoadError(diags, rs.library.sources if rs else {})
    variant_name = variant or next(iter(rs.variants))
    if variant_name not in rs.variants:
        raise ValueError(f"ruleset `{rs.id}` has no variant `{variant_name}` "
                         f"(it has: {', '.join(rs.variants)})")
    var = rs.variants[variant_name]
    lib = _library(rs, var, cards)
    problems = check(lib)
    deck = dict(rs.deck)
    bosses = list(rs.bosses)
    boss_facing: Optional[str] = None
    for folder in cards:
        mod_deck, mod_bosses, mdiags = mod_manifest(Path(folder), lib)
        problems.extend(mdiags)
        for b in mod_bosses:
            if "@" in b:  # `boss_facing` in mod.yaml
                boss_facing = b.split("@")[1]
        mod_bosses = [b.split("@")[0] for b in mod_bosses]
        for cid, n in mod_deck.items():
            deck[cid] = deck.get(cid, 0) + n
        bosses.extend(b for b in mod_bosses if b not in bosses)
    if problems:
        raise LoadError(problems, lib.sources)
    compiled = {cid: compile_card(lib, cid, rs.strength_players) for cid in lib.cards}
    pick = lambda typ: {k: v for k, v in compiled.items() if isinstance(v, typ)}  # noqa: E731
    items = {k: v for k, v in pick(CompiledItem).items() if k in rs.items}
    if not var.items:
        deck = {k: n for k, n in deck.items() if not _gives_items(lib, k)}
    return Rules(rs, var, pick(CompiledRoom), pick(CompiledCharacter), items,
                 pick(CompiledFloor), deck, tuple(bosses), lib, pick(CompiledStatus),
                 pick(CompiledRule), boss_facing)


def _gives_items(lib: Library, card_id: str) -> bool:
    """Whether a room's text hands out items (solo play removes those rooms, C-11)."""
    from raiders.dsl import ast as A

    found = False

    def walk(node) -> None:
        nonlocal found
        if isinstance(node, A.Effect) and node.verb == "give":
            found = True
        elif attrs.has(type(node)):
            for f in attrs.fields(type(node)):
                walk(getattr(node, f.name))
        elif isinstance(node, tuple):
            for x in node:
                walk(x)

    walk(lib.cards[card_id])
    return found


def _library(rs: Ruleset, var: Variant, cards: tuple[str, ...]) -> Library:
    return ruleset_library(list(rs.card_paths), var.cards, cards, set(rs.variant_dirs))
