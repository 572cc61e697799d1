"""A mod's check kept between edits: what the language server answers an edit with.

`ModCheck(folder)` checks one mod folder as `validate_paths([folder], loader=…)` does, and
keeps what it found: each card file's text and parse (through the loader it is given, the
one loader), each declaration's own checks, its `after` rules (W602) and its marks on rooms
(W605), the library, the mod.yaml verdict and each dealt room's game-load check. An edit then
costs what it can change:

- a file whose ids and kinds stay the same (a number, a rule, a typo): that file parsed and
  its declarations checked again; the checks over the whole mod (rule cycles, holderless
  statuses) redone from what every other file keeps;
- a file that adds, removes or renames an id (or a duplicate one): the library re-indexed,
  and re-checked besides it are the files that name an id it defines or defined (a reverse
  index of the words of every file) and the files with a problem (whose hints list ids);
- a file that declares a kind or an extension, a card file added or removed (the folders'
  times), mod.yaml changed: everything again, from the parses kept.

What a game would refuse at load is kept per card as well: each dealt room's check (E409,
E410) and what each card hands out (W604), so that neither walks the whole mod at an edit.
`version` counts the checks that found something changed, and `library_on` indexes the
parses kept on another base ruleset: what the language server keeps its hover's library by.

The diagnostics are the same as a full check's (tests/formats/test_incremental.py checks
random edit sequences against `validate_paths`). A folder that is not one plain mod (it
holds a ruleset.yaml, or mods below it) is not kept: `check` says None and the caller runs
the full check. Files not open in the editor are read when the folder is listed and when
the caller says they changed (`changed_on_disk`: a save, the editor's file watcher).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping, Optional

import attrs

from raiders.dsl import ast, extend_library
from raiders.dsl.checker import (
    Checker,
    Known,
    check_in_game,
    holderless_marks,
    items_given,
    marks_on_things,
)
from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import CARD_SUFFIX, Library
from raiders.dsl.loops import after_rules, cycle_warnings

from .loader import PARALLEL_FROM, Loader, Parsed, can_fork
from .mods import MOD_FILE, ModManifest, mod_manifest
from .rulesets import RULESET_FILE, Ruleset
from .safeio import files_below, listed_files

_WORD = re.compile(r"[a-z_][a-z0-9_]*(?:-[a-z0-9_]+)*")


@attrs.define
class _File:
    """One card file as last checked."""

    text: str
    unread: bool  # it could not be read: `parsed` holds why
    module: Optional[ast.Module]
    parsed: list[Diagnostic]  # the parse's (or the read's) diagnostics
    names: frozenset[str]  # every word of its text: the ids it may name
    defines: tuple[tuple[str, str, str], ...]  # (what, name, kind) of each declaration
    checked: list[Diagnostic] = attrs.Factory(list)  # its declarations' own checks

    @property
    def declares_kinds(self) -> bool:
        return any(what != "card" for what, _, _ in self.defines)

    @property
    def decls(self) -> tuple[ast.Decl, ...]:
        return self.module.decls if self.module is not None else ()


def _file(parsed: Parsed) -> _File:
    """A card file as the loader read and parsed it (`Loader.parse`)."""
    _, module, diags, text = parsed
    defines = tuple(("card", d.id, d.kind) if isinstance(d, ast.CardDecl) else
                    ("kind", d.name, d.parent or "") if isinstance(d, ast.KindDecl) else
                    ("extend", d.kind, "") for d in (module.decls if module else ()))
    unread = module is None and text == ""  # (empty text parses, to no declarations)
    return _File(text, unread, module, diags, frozenset(_WORD.findall(text)), defines)


@attrs.define
class _Listing:
    """The card files of the folder, and what tells that they changed: each folder's time
    and the editor's unsaved card files in it."""

    files: list[str]  # in the order a full check indexes them
    real: dict[str, str]  # real path -> the path as listed
    diagnostics: list[Diagnostic]  # files refused while listing (links out, too large)
    folder_times: dict[str, int]
    unsaved: frozenset[str]  # the editor's card files the disk does not hold (real paths)
    on_disk: frozenset[str]  # the card files listed from the disk (real paths)

    def stale(self, loader: Loader, folder: Path) -> bool:
        if frozenset(map(str, loader.unsaved_below(folder))) - self.on_disk != self.unsaved:
            return True  # a new card not yet saved, or one closed unsaved
        for d, t in self.folder_times.items():
            try:
                if os.stat(d).st_mtime_ns != t:
                    return True
            except OSError:
                return True
        return False


def _folder_times(folder: Path) -> dict[str, int]:
    out = {}
    for d, _, _ in os.walk(folder):
        try:
            out[d] = os.stat(d).st_mtime_ns
        except OSError:
            pass
    return out


class ModCheck:
    """One mod folder's check, kept between edits (see the module's docstring)."""

    def __init__(self, folder: Path, ruleset: Ruleset):
        self.folder = folder
        self.ruleset = ruleset  # the base ruleset, checked on its own: never re-checked
        self.base_files = frozenset(ruleset.library.sources)
        self.listing: Optional[_Listing] = None
        self.files: dict[str, _File] = {}
        self.open: set[str] = set()  # files read from the editor's buffers at the last check
        self.pending: set[str] = set()  # files to read again (changed on disk)
        self.lib: Optional[Library] = None
        self.indexed: list[Diagnostic] = []  # the library's own: parses, duplicates, parents
        self.known: Optional[Known] = None
        self._rules: dict[int, tuple[ast.Decl, list]] = {}  # id(decl) -> (decl, its rules)
        self._marks: dict[int, tuple[ast.Decl, list]] = {}  # id(decl) -> (decl, its marks)
        self._manifest: Optional[tuple[Optional[str], _Listing, ModManifest, set[str]]] = None
        self._in_game: dict[str, tuple[object, list[Diagnostic]]] = {}  # by room id
        self._given: dict[str, tuple[object, frozenset[str]]] = {}  # W604's, by card id
        self._game: tuple = ()  # the supply and threat deck `_in_game` was found with
        self.rechecked: list[str] = []  # the files the last check checked again (for tests)
        # Counts the checks that found a card file or mod.yaml changed: what is derived from
        # the library (the language server's hover and completion) is kept per version.
        self.version = 0
        self._troubled: dict[str, None] = {}  # the files whose declarations have problems
        self._where: dict[str, int] = {}  # a file's place among the library's modules
        self._dups: set[str] = set()  # card ids defined more than once
        self._rules_kept: Optional[list[Diagnostic]] = None  # the last W602
        self._marks_kept: Optional[list[Diagnostic]] = None  # the last W605
        self._last: Optional[tuple[Optional[str], list[Diagnostic]]] = None
        self._errors: tuple[object, bool] = (None, False)  # mod.yaml's verdict: any error?

    def changed_on_disk(self, paths) -> None:
        """Files written by something else than the editor's buffers: read them again."""
        self.pending.update(os.path.realpath(p) for p in paths)

    def files_real(self) -> dict[str, str]:
        """The mod's card files as last listed: real path -> path as listed."""
        return self.listing.real if self.listing is not None else {}

    # -- the check
    def check(self, loader: Loader) -> Optional[list[Diagnostic]]:
        """The mod's diagnostics, as `validate_paths([folder], loader=loader)` reports them;
        None when the folder is not one plain mod."""
        everything = self.listing is None or self.listing.stale(loader, self.folder)
        if everything:
            listing = self._list(loader)
            self.listing = listing
            if listing is None:
                return None
            self.files = self._read_all(loader, listing.files)
            old: dict[str, Optional[_File]] = dict.fromkeys(listing.files)
            self._troubled = {}
        else:
            listing = self.listing
            assert listing is not None
            old = self._reread(loader, listing)
        self.open = {listing.real[p] for p in loader.unsaved if p in listing.real}
        manifest = _read_manifest(self.folder)
        if not everything and not old and self._last is not None and self._last[0] == manifest:
            return list(self._last[1])  # nothing changed
        self.version += 1
        kinds_changed = everything or any(
            (o is not None and o.declares_kinds) or self.files[p].declares_kinds
            for p, o in old.items())
        ids_changed: set[str] = set()  # the card ids added, removed or of another kind
        for p, o in old.items():
            before = {(n, k) for w, n, k in (o.defines if o else ()) if w == "card"}
            after = {(n, k) for w, n, k in self.files[p].defines if w == "card"}
            ids_changed.update(n for n, _ in before ^ after)
        # Only the edited files' trees change in the library, unless a module comes or goes
        # or an id of theirs is defined twice (the other's E401 names their place).
        patch = not kinds_changed and not ids_changed and self.lib is not None and all(
            o is not None and o.defines == self.files[p].defines
            and (o.module is None) == (self.files[p].module is None)
            and self._dups.isdisjoint(n for _, n, _ in o.defines) for p, o in old.items())
        if patch:
            self._patch(old)
        elif everything or old or self.lib is None:
            self._index(listing.files)
        if kinds_changed:  # (what a card says includes its kind's rules)
            self._in_game.clear()
            self._given.clear()
        if not patch or self.known is None:
            assert self.lib is not None
            self.known = Known.of(self.lib)
        if kinds_changed:
            recheck = list(listing.files)
        elif ids_changed:  # and the files with a problem: their hints may list the ids
            recheck = [p for p in listing.files if p in old or self.files[p].checked
                       or not ids_changed.isdisjoint(self.files[p].names)]
        else:
            recheck = list(old)
        self._check_decls(recheck)
        self.rechecked = recheck
        mine = [*self.indexed, *(d for p in self._troubled for d in self.files[p].checked),
                *self._whole_mod(old if patch else None)]
        mod = self._mod(manifest, listing, old, not patch)
        out = [*listing.diagnostics, *mine, *mod.diagnostics]
        if not mine and not self._mod_errors(mod):
            from .validate import refused_at_load

            assert self.lib is not None
            out += refused_at_load(self.ruleset, mod, self.lib, self._check_in_game,
                                   self._items_given)
        self._last = (manifest, out)
        return list(out)

    def _read_all(self, loader: Loader, paths: list[str]) -> dict[str, _File]:
        """Every file of a new listing: the parse kept when its text is the same (a card
        added to a large mod), the others parsed (on every core when they are many)."""
        kept: dict[str, _File] = {}
        for p in paths:
            entry = self.files.get(p)
            if entry is not None and not entry.unread and loader.read(p)[0] == entry.text:
                kept[p] = entry
        fresh = loader.parse_all([p for p in paths if p not in kept])
        kept.update((f[0], _file(f)) for f in fresh)
        return {p: kept[p] for p in paths}

    def _reread(self, loader: Loader, listing: _Listing) -> dict[str, Optional[_File]]:
        """The files whose text changed since the last check (each with what it was): open
        buffers, buffers closed since (the disk again), files said to have changed on disk."""
        now_open = {listing.real[p] for p in loader.unsaved if p in listing.real}
        maybe = now_open | self.open | {listing.real[p] for p in self.pending
                                        if p in listing.real}
        self.pending.clear()
        changed: dict[str, Optional[_File]] = {}
        for p in sorted(maybe):
            text, diags = loader.read(p)
            entry = self.files[p]
            if (text is None) == entry.unread and (
                    diags == entry.parsed if text is None else text == entry.text):
                continue
            changed[p] = entry
            self.files[p] = _file(loader.parse(p))
        return changed

    def _list(self, loader: Loader) -> Optional[_Listing]:
        """The folder listed as `validate_paths` lists it; None if it is not one plain mod."""
        from .validate import _unsaved, mods_below

        times = _folder_times(self.folder)
        rulesets, refused = files_below(self.folder, [RULESET_FILE])
        mods = mods_below(self.folder)
        if rulesets or (mods and mods != [self.folder.resolve()]):
            return None
        cards, too_big = listed_files(self.folder, f"*{CARD_SUFFIX}")
        files = [*cards, *_unsaved(loader, self.folder, cards)]
        order = [str(f) for f in dict.fromkeys(files)]
        if len(order) >= PARALLEL_FROM and can_fork():
            order.sort()  # as the loader's shards index them (formats/loader.py)
        real = {os.path.realpath(p): p for p in order}
        on_disk = frozenset(os.path.realpath(f) for f in cards)
        return _Listing(order, real, [*refused, *too_big], times,
                        frozenset(map(str, loader.unsaved_below(self.folder))) - on_disk,
                        on_disk)

    def _index(self, order: list[str]) -> None:
        """The library of every file, indexed afresh (the files keep their parses)."""
        lib = self._indexed_on(self.ruleset, order)
        self.lib = lib
        self.indexed = [d for d in lib.diagnostics if d.span.path not in self.base_files]
        self._where = {m.path: i for i, m in enumerate(lib.modules)}
        seen: set[str] = set()
        self._dups = {d.id for m in lib.modules for d in m.decls if isinstance(d, ast.CardDecl)
                      and (d.id in seen or seen.add(d.id))}  # type: ignore[func-returns-value]
        self._rules_kept = None  # W602 and W605 from scratch
        self._marks_kept = None

    def _indexed_on(self, ruleset: Ruleset, order: list[str]) -> Library:
        """The library of `ruleset` and the files kept, in `order`: indexed, not checked."""
        return extend_library(ruleset.library, [(p, self.files[p].module, self.files[p].parsed,
                                                 self.files[p].text) for p in order])

    def library_on(self, ruleset: Ruleset) -> Library:
        """The mod's cards as last checked, on another base ruleset (the language server's
        hover, for a mod whose mod.yaml names another): the parses kept, indexed afresh;
        no file read or parsed again."""
        assert self.listing is not None, "check the mod first"
        return self._indexed_on(ruleset, self.listing.files)

    def _patch(self, old: Mapping[str, Optional[_File]]) -> None:
        """The library with the edited files' new trees, when their ids stay the same and are
        each defined once: what a fresh index would give, in the time of the edited files."""
        lib = self.lib
        assert lib is not None
        for p, o in old.items():
            new = self.files[p]
            lib.sources[p] = new.text
            if new.module is not None and o is not None and o.module is not None:
                lib.modules[self._where[p]] = new.module
                for decl in new.module.decls:
                    assert isinstance(decl, ast.CardDecl)  # (a file of kinds is re-indexed)
                    lib.cards[decl.id] = decl
        edited = set(old)
        lib.diagnostics = [d for d in lib.diagnostics if d.span.path not in edited]
        lib.diagnostics += [d for p in old for d in self.files[p].parsed]
        self.indexed = [d for d in self.indexed if d.span.path not in edited]
        self.indexed += [d for p in old for d in self.files[p].parsed]

    def _check_decls(self, paths: list[str]) -> None:
        assert self.lib is not None and self.known is not None
        checker = Checker(self.lib, self.known, into=[])
        for p in paths:
            entry = self.files[p]
            checker.diags = []
            for decl in entry.decls:
                checker.check_decl(decl)
            entry.checked = [d for d in checker.diags if d.span.path not in self.base_files]
            if entry.checked:
                self._troubled[p] = None
            else:
                self._troubled.pop(p, None)

    def _kept(self, cache: dict, decl: ast.Decl, make) -> list:
        found = cache.get(id(decl))
        if found is None or found[0] is not decl:
            found = cache[id(decl)] = (decl, make(decl))
        return found[1]

    def _whole_mod(self, old: Optional[Mapping[str, Optional[_File]]]) -> list[Diagnostic]:
        """W602 and W605 over the whole library, from what each declaration keeps; the last
        answer again when the edited files (`old`: with what they were; None: the library
        was indexed afresh) had and have no `after` rule that sets something off, or no mark
        on a room and no status."""
        lib = self.lib
        assert lib is not None and self.known is not None
        if len(self._rules) > 4 * (len(lib.cards) + len(lib.kinds)) + 64:
            self._rules.clear()  # old versions of edited declarations
            self._marks.clear()
        touched = [] if old is None else [
            d for p, o in old.items() for f in (o, self.files[p]) if f is not None
            for d in f.decls]
        if old is None or self._rules_kept is None or any(
                self._kept(self._rules, d, _rules_of) for d in touched):
            rules = []
            for info in lib.kinds.values():
                rules += self._kept(self._rules, info.decl, _rules_of)
            for card in lib.cards.values():
                rules += self._kept(self._rules, card, _rules_of)
            self._rules_kept = [d for d in cycle_warnings(rules)
                                if d.span.path not in self.base_files]
        if old is None or self._marks_kept is None or any(
                self._kept(self._marks, d, _marks_of) or (
                    isinstance(d, ast.CardDecl) and d.id in self.known.statuses)
                for d in touched):
            self._marks_kept = []
            readers = Checker(lib, self.known, into=[]).status_readers()
            if readers:
                marks = []
                decls: list[ast.Decl] = [*lib.cards.values(),
                                         *(i.decl for i in lib.kinds.values())]
                for decl in decls:
                    marks += self._kept(self._marks, decl, _marks_of)
                self._marks_kept = [d for d in holderless_marks(marks, readers)
                                    if d.span.path not in self.base_files]
        return [*self._rules_kept, *self._marks_kept]

    def _mod(self, text: Optional[str], listing: _Listing, old: Mapping[str, Optional[_File]],
             reindexed: bool) -> ModManifest:
        """mod.yaml checked against the library (formats/mods.py), again only when what it
        reads can have changed: the ids, mod.yaml, the files, whether a file parses, or a
        file a warning of it points into (W601 names a card's place)."""
        kept = self._manifest
        if kept is not None and kept[0] == text and kept[1] is listing and not reindexed \
                and not any(o is None or o.unread != self.files[p].unread
                            or _broken(o) != _broken(self.files[p]) for p, o in old.items()) \
                and kept[3].isdisjoint(old):
            return kept[2]
        assert self.lib is not None
        found = mod_manifest(self.folder, self.lib)
        self._manifest = (text, listing, found, {d.span.path for d in found.diagnostics})
        return found

    def _mod_errors(self, mod: ModManifest) -> bool:
        if self._errors[0] is not mod:
            self._errors = (mod, any(d.severity == "error" for d in mod.diagnostics))
        return self._errors[1]

    def _check_in_game(self, lib: Library, rooms: list[str], supply: dict[str, int],
                       threat: bool) -> list[Diagnostic]:
        """check_in_game, each room's answer kept while its card and the supply stay."""
        game = (tuple(sorted(supply.items())), threat)
        if game != self._game:
            self._in_game.clear()
            self._game = game
        out: list[Diagnostic] = []
        kept, cards = self._in_game, lib.cards
        for cid in dict.fromkeys(rooms):
            decl = cards.get(cid)
            found = kept.get(cid)
            if found is None or found[0] is not decl:
                found = kept[cid] = (decl, check_in_game(lib, [cid], supply, threat))
            if found[1]:
                out += found[1]
        return out

    def _items_given(self, lib: Library, cid: str) -> frozenset[str]:
        """items_given (W604), each card's answer kept while its declaration stays: an edit
        walks the edited cards' text, not the whole mod's."""
        decl = lib.cards.get(cid)
        found = self._given.get(cid)
        if found is None or found[0] is not decl:
            if len(self._given) > 2 * len(lib.cards) + 64:
                self._given.clear()  # ids gone since
            found = self._given[cid] = (decl, items_given(lib, cid))
        return found[1]


def _rules_of(decl: ast.Decl) -> list:
    return after_rules(decl.members, decl.id if isinstance(decl, ast.CardDecl) else
                       decl.name if isinstance(decl, ast.KindDecl) else decl.kind)


def _marks_of(decl: ast.Decl) -> list:
    return marks_on_things([decl.members])


def _broken(f: _File) -> bool:
    """Whether a file's parse said E00x (mod.yaml's names are then not judged: mods.py)."""
    return any(d.code.startswith("E00") for d in f.parsed)


def _read_manifest(folder: Path) -> Optional[str]:
    try:
        return (folder / MOD_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
