"""A ruleset with every card compiled: what the engine and the scenario runner play with."""
from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import Optional

import attrs

from raiders.dsl import ast
from raiders.dsl.diagnostics import Diagnostic, Problems
from raiders.dsl.library import Library
from raiders.formats.loader import DISK, Loader
from raiders.formats.mods import MOD_FILE, expand_mod_folders, mod_manifest, name_clashes
from raiders.formats.rulesets import (
    Ruleset,
    Variant,
    builtin_ids,
    load_ruleset,
    resolve_ruleset_path,
    ruleset_library,
)

from .compiled import (
    CardRules,
    CompiledCharacter,
    CompiledFloor,
    CompiledItem,
    CompiledRoom,
    CompiledRule,
    CompiledStatus,
)
from .compiler import compile_card, with_item_values
from .legality import item_plays

PEEK = "peek"  # the ability of an item played to look at the hidden rooms


# A ruleset or mod that does not check clean: the one exception for problems with
# diagnostics (dsl/diagnostics.py), under the name its callers have long used.
LoadError = Problems


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
    supply: dict[str, int] = attrs.Factory(dict)  # item -> copies: the ruleset's plus mods'
    pool: tuple[str, ...] = ()  # the characters heroes are dealt from: the ruleset's plus mods'
    warnings: tuple[Diagnostic, ...] = ()  # what the mods' manifests warned about

    @functools.cached_property
    def abilities(self) -> dict[str, Optional[str]]:
        """Each item's ability (None: none); read once a game, so kept."""
        return {i: c.ability for i, c in self.items.items()}

    @functools.cached_property
    def held_rules(self) -> dict[str, CardRules]:
        """The rules of every card a player can hold (characters, items, statuses) that has
        any, by id: a game whose held cards have none pays nothing for them."""
        held: dict[str, CardRules] = {}
        for group in (self.characters, self.items, self.statuses):
            for cid, card in group.items():
                if not card.rules.empty:
                    held[cid] = card.rules
        return held

    @functools.cached_property
    def house_rules(self) -> list[CardRules]:
        """The rules of the house rules that have any (a table hears only these)."""
        return [c.rules for c in self.house.values() if not c.rules.empty]

    # What every game would otherwise work out again: kept here, once per ruleset.
    @functools.cached_property
    def peek_items(self) -> tuple[str, ...]:
        """The items played before a room's cards to look at the hidden rooms (X-2), in the
        order a player holding several spends them: plain ones (no value of their own, no
        rules) before those worth more held, then by id. A log says only who peeked."""
        return tuple(sorted((i for i, c in self.items.items() if c.ability == PEEK),
                            key=lambda i: (self.items[i].value is not None
                                           or not self.items[i].rules.empty, i)))

    @functools.cached_property
    def item_plays(self) -> dict[str, dict[str, bool]]:
        """Per room id: the items that may be put down as its card, each with whether it
        is a second-card item (legality.item_plays): what each seat may play, once per room."""
        return {rid: item_plays(room, self.abilities) for rid, room in self.rooms.items()}

    @functools.cached_property
    def deck_cards(self) -> tuple[str, ...]:
        """The room deck as a pile of cards (each copy once), in the ruleset's order: what a
        deal shuffles."""
        return tuple(cid for cid, n in self.deck.items() for _ in range(n))

    def room(self, card_id: str) -> CompiledRoom:
        return self.rooms[card_id]

    @property
    def coin_cap(self) -> Optional[int]:
        """The most coins a player may hold in this variant (None: no cap, C-12)."""
        var = self.variant
        return self.ruleset.coin_cap if var.coin_cap == -1 else var.coin_cap

    def wrong_player_count(self, n: int) -> Optional[str]:
        """Why `n` players cannot play this variant, or None when they can."""
        var = self.variant
        if var.min_players <= n <= var.max_players:
            return None
        span = (f"{var.min_players}–{var.max_players}" if var.max_players != var.min_players
                else f"{var.min_players}")
        return f"{self.ruleset.id} {var.name} is for {span} players, not {n}"


# Loaded rules by how they were asked for, with the files they were read from: the ruleset's
# default variant named or not is the same game, so both names find it (a command and its
# simulation must not load it twice); a file changed since (an editor, the language server, a
# test rewriting a mod) loads them again.
_LOADED: dict[tuple, tuple[Rules, tuple]] = {}


def load_rules(ruleset: str = "deluxe", variant: Optional[str] = None,
               cards: tuple[str, ...] = (), roots: Optional[tuple[str, ...]] = None,
               edits: tuple = ()) -> Rules:
    """Load, check and compile a ruleset (a built-in id or a path) with mod folders; kept per
    process while its files are unchanged, so asking again costs a few `stat` calls.

    `edits`: numbers rewritten in the cards' text before checking (`simulate --sweep`,
    interpreter/runtime/sweep.py NumberEdit).

    `roots`: for a ruleset named inside a log or scenario file, the folders its own card
    folders must stay inside (formats/safeio.py); None for a ruleset the user named.
    Raises LoadError with diagnostics when anything does not check clean, and ValueError
    for an unknown ruleset or variant.
    """
    key = (ruleset, variant, tuple(cards), roots, edits)
    known = _LOADED.get(key)
    if known is not None and _stamp(known[1]) == known[1]:
        return known[0]
    rules = _compiled(_checked_kept(*key))
    # Every card file read (every variant's: a card broken in one stops them all) and every
    # manifest that may count: a mod's, or those of the mods in a folder of mods.
    files = {*rules.library.sources, *rules.ruleset.read, *_manifests(key[2])}
    ruleset_file = resolve_ruleset_path(ruleset)
    if ruleset_file is not None:
        files.add(str(ruleset_file))
    files |= {os.path.dirname(f) for f in files}  # a card file added to a folder
    entry = (rules, _stamp(tuple((f, None) for f in sorted(files))))
    if len(_LOADED) > 64:
        _LOADED.clear()
    _LOADED[key] = entry
    if rules.variant.name == next(iter(rules.ruleset.variants)):
        _LOADED[(ruleset, None) + key[2:]] = entry
        _LOADED[(ruleset, rules.variant.name) + key[2:]] = entry
    return rules


def _manifests(folders: tuple[str, ...]) -> set[str]:
    """The mod.yaml a mod folder may hold, and those of its subfolders (a folder of mods)."""
    found = set()
    for folder in folders:
        found.add(os.path.join(folder, "mod.yaml"))
        try:
            with os.scandir(folder) as entries:
                found.update(os.path.join(e.path, "mod.yaml") for e in entries if e.is_dir())
        except OSError:
            pass
    return found


def _stamp(files: tuple) -> tuple:
    """Each file with its modification time and size now (None: gone)."""
    stamped: list[tuple[str, Optional[tuple[int, int]]]] = []
    for path, _ in files:
        try:
            st = os.stat(path)
            stamped.append((path, (st.st_mtime_ns, st.st_size)))
        except OSError:
            stamped.append((path, None))
    return tuple(stamped)


def load_rules_afresh(ruleset: str = "deluxe", variant: Optional[str] = None,
                      cards: tuple[str, ...] = (), roots: Optional[tuple[str, ...]] = None,
                      edits: tuple = (), loader: Loader = DISK, items_only: bool = False) -> Rules:
    """`load_rules` without the per-process and whole-load caches, its card files read by
    `loader`: for text that is not on disk yet (the language server's unsaved buffers).
    `items_only`: of the cards, only the items compiled (their names and values are what
    the words of any card read): rules to describe cards with (runtime/describe.py compiles
    the card it is asked about), never to play; the language server's hover of a big mod."""
    return _compiled(_checked(ruleset, variant, cards, roots, edits, loader), items_only)


def _compiled(c: _Checked, items_only: bool = False) -> Rules:
    """Every card compiled (`items_only`: the items): the rules a game is played with."""
    rs, var, lib = c.ruleset, c.variant, c.library
    compiled = {cid: compile_card(lib, cid, rs.strength_players) for cid in lib.cards
                if not items_only or lib.role_of(cid) == "item"}
    pick = lambda typ: {k: v for k, v in compiled.items() if isinstance(v, typ)}  # noqa: E731
    items = {k: v for k, v in pick(CompiledItem).items() if k in c.supply}
    deck = c.deck
    if not var.items:
        deck = {k: n for k, n in deck.items() if not _gives_items(lib, k)}
    rooms = with_item_values(pick(CompiledRoom), items)
    return Rules(rs, var, rooms, pick(CompiledCharacter), items,
                 pick(CompiledFloor), deck, c.bosses, lib, pick(CompiledStatus),
                 pick(CompiledRule), c.boss_facing, c.supply, c.pool, c.warnings)


def _is(*types: type):
    return attrs.validators.instance_of(types)


@attrs.frozen
class _Checked:
    """What a load derives from the card files before compiling them, when they check clean:
    what the user's cache keeps (formats/libcache.py), checked on the way back in."""

    ruleset: Ruleset = attrs.field(validator=_is(Ruleset))
    variant: Variant = attrs.field(validator=_is(Variant))
    mods: tuple[str, ...] = attrs.field(validator=_is(tuple))  # folders of mods expanded
    library: Library = attrs.field(validator=_is(Library))
    deck: dict[str, int] = attrs.field(validator=_is(dict))  # the ruleset's and the mods'
    bosses: tuple[str, ...] = attrs.field(validator=_is(tuple))
    boss_facing: Optional[str] = attrs.field(validator=_is(str, type(None)))
    supply: dict[str, int] = attrs.field(validator=_is(dict))
    pool: tuple[str, ...] = attrs.field(validator=_is(tuple))
    warnings: tuple[Diagnostic, ...] = attrs.field(validator=_is(tuple))  # the manifests'
    versioned: bool = attrs.field(validator=_is(bool))  # a mod's `raiders:` was checked


def _checked_kept(ruleset: str, variant: Optional[str], cards: tuple[str, ...],
                  roots: Optional[tuple[str, ...]], edits: tuple) -> _Checked:
    """`_checked`, answered from the user's cache when these very files checked clean
    before (no parser, no checker: neither is even imported); else checked, and kept."""
    from raiders.formats import libcache

    path = resolve_ruleset_path(ruleset)
    if path is None:
        return _checked(ruleset, variant, cards, roots, edits)  # says what is wrong
    # A relative path names other files from another folder: the folder is part of the key.
    here = "" if all(os.path.isabs(p) for p in (str(path), *cards)) else os.getcwd()
    request = tuple(map(repr, ("rules", ruleset, str(path), variant, cards, roots, edits,
                               builtin_ids(), here)))
    kept = libcache.fetch(request, _CODE, _KEPT)
    if kept is not None:
        try:
            return _Checked(**kept)
        except TypeError:
            pass  # not what was stored: load it
    from raiders.dsl.library import CARD_SUFFIX

    since = time.time_ns()
    checked = _checked(ruleset, variant, cards, roots, edits)
    rs = checked.ruleset
    folders = (*rs.card_paths, *rs.variant_dirs, *checked.variant.cards, *cards, *checked.mods)
    inputs = libcache.Inputs(files=(str(path),), folders=tuple(dict.fromkeys(folders)),
                             watched=(CARD_SUFFIX, MOD_FILE), version=checked.versioned,
                             texts={**rs.read, **checked.library.sources})
    libcache.store(request, _CODE, attrs.asdict(checked, recurse=False), inputs, since, _KEPT)
    return checked


# The files besides the card language's own whose code decides what `_checked` gives (the
# compiler runs after the cache, on what it gives back).
_CODE = tuple(str(Path(__file__).with_name(f)) for f in ("rules.py", "sweep.py"))
_KEPT = (Ruleset, Variant)  # the classes a kept load holds besides the language's


def _checked(ruleset: str, variant: Optional[str], cards: tuple[str, ...],
             roots: Optional[tuple[str, ...]], edits: tuple, loader: Loader = DISK) -> _Checked:
    """Parse and check a ruleset with its mods, and add up what the mods add to the game.
    Raises LoadError or ValueError as `load_rules` says."""
    from raiders.dsl.checker import check, check_in_game

    path = resolve_ruleset_path(ruleset)
    if path is None:
        raise ValueError(f"unknown ruleset `{ruleset}` (built in: {', '.join(builtin_ids())}; "
                         "or give a path to a ruleset.yaml)")
    rs, diags = load_ruleset(path, roots=roots, loader=loader)
    diags = [d for d in diags if d.severity == "error"]  # warnings (W602) do not stop a game
    if rs is None or diags:
        raise Problems(diags, rs.library.sources if rs else {})
    variant_name = variant or next(iter(rs.variants))
    if variant_name not in rs.variants:
        raise ValueError(f"ruleset `{rs.id}` has no variant `{variant_name}` "
                         f"(it has: {', '.join(rs.variants)})")
    var = rs.variants[variant_name]
    cards, wrong = expand_mod_folders(cards, rs.id)
    if wrong:
        raise Problems(wrong, {})
    lib = _library(rs, var, cards, loader)
    if edits:
        from .sweep import apply_edits

        apply_edits(lib, edits)
    problems = [d for d in check(lib) if d.severity == "error"]
    deck = dict(rs.deck)
    bosses = list(rs.bosses)
    boss_facing: Optional[str] = None
    supply = dict(rs.items)
    pool = list(rs.characters)
    warnings: list[Diagnostic] = []
    versioned = False
    for folder in cards:
        mod = mod_manifest(Path(folder), lib)
        problems.extend(d for d in mod.diagnostics if d.severity == "error")
        warnings.extend(d for d in mod.diagnostics if d.severity != "error")
        boss_facing = mod.boss_facing or boss_facing
        versioned = versioned or mod.raiders is not None
        for cid, n in mod.deck.items():
            deck[cid] = deck.get(cid, 0) + n
        for cid, n in mod.items.items():
            supply[cid] = supply.get(cid, 0) + n
        bosses.extend(b for b in mod.bosses if b not in bosses)
        pool.extend(c for c in mod.characters if c not in pool)
    if not problems:
        problems = check_in_game(lib, [*deck, *bosses], supply if var.items else {},
                                 bool(var.threat_deck))
    if problems:
        raise Problems(problems, lib.sources)
    return _Checked(rs, var, cards, lib, deck, tuple(bosses), boss_facing, supply, tuple(pool),
                    tuple(warnings), versioned)


def _gives_items(lib: Library, card_id: str) -> bool:
    """Whether a room's text (its own, or its kind's) hands out items (solo play removes those
    rooms, C-11)."""
    card = lib.cards[card_id]
    info = lib.kinds.get(card.kind)
    text = (card, tuple(info.members()) if info is not None else ())
    return any(isinstance(n, ast.Effect) and n.verb == "give" for n in ast.walk(text))


def _library(rs: Ruleset, var: Variant, cards: tuple[str, ...], loader: Loader) -> Library:
    """The ruleset's cards, its variant's and the mods'; a clash names the mods involved."""
    lib = ruleset_library(list(rs.card_paths), var.cards, cards, set(rs.variant_dirs),
                          loader=loader)
    if cards:
        name_clashes(lib, cards, rs.id)
    return lib
