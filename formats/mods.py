"""Mod folders: card files plus an optional `mod.yaml` saying what joins a game.

    deck: {shrine-of-ash: 2}     # room cards and copies added to the deck
    bosses: [gorgon]             # room cards added to the bosses
    boss_facing: up              # the boss room lies face up (or down) whatever the layout
    items: {amulet: 2}           # item cards and copies added to the supply
    characters: [merchant]       # characters added to the pool heroes are dealt from
    rulesets: [deluxe]           # the rulesets the mod is written for (default: any)
    name: gorgon                 # what diagnostics and `raiders diff` call it (default: folder)
    version: "1.2"               # the mod's own version, for its players and reviewers
    raiders: ">=0.1"             # the raiders it needs (a version specifier; E509 if not met)

Without mod.yaml, every new room card of the folder joins the deck once (a boss-like card
that lands there is a warning: say where it goes). A folder that holds no card file and no
mod.yaml but mod folders (`examples/mods`) is a folder of mods: each loads as its own mod.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable, Optional

import attrs

from raiders.dsl.diagnostics import Diagnostic, an, did_you_mean
from raiders.dsl.library import Library, display_path
from raiders.dsl.spans import Span

from . import yamlsrc
from .fields import Reader
from .rulesets import MAX_COPIES
from .safeio import leads_out, link_out

MOD_FILE = "mod.yaml"
MOD_FIELDS = ("deck", "bosses", "boss_facing", "items", "characters", "rulesets", "name",
              "version", "raiders")
_UNKNOWN = "unknown or malformed mod field `{key}`"
_FIELDS_HINT = ("mod.yaml holds `deck: {id: copies}`, `bosses: [ids]`, `boss_facing: up|down`, "
                "`items: {id: copies}` and `characters: [ids]`, `rulesets: [ids]`, `name`, "
                "`version` and `raiders: \">=0.1\"`")
# The kind name a modder gives a boss (`boss`, `boss-2013`, …): such a card dealt into the
# room deck is almost always a mistake, so it is a warning.
_BOSS_WORD = "boss"


@attrs.define
class ModManifest:
    """What one mod folder adds to a game, read from its mod.yaml (or its cards)."""

    deck: dict[str, int] = attrs.Factory(dict)
    bosses: list[str] = attrs.Factory(list)
    boss_facing: Optional[str] = None  # "up" | "down" | None (the layout decides)
    items: dict[str, int] = attrs.Factory(dict)
    characters: list[str] = attrs.Factory(list)
    diagnostics: list[Diagnostic] = attrs.Factory(list)
    item_spans: dict[str, Span] = attrs.Factory(dict)  # where `items:` names each (W604)
    name: Optional[str] = None
    version: Optional[str] = None
    raiders: Optional[str] = None  # the version specifier of raiders it needs


def _manifest_doc(folder: Path):
    """mod.yaml's map, or None (absent, unreadable, a link out: the manifest's own check
    reports what is wrong with it)."""
    manifest = folder / MOD_FILE
    if not manifest.is_file() or leads_out(manifest, folder):
        return None
    _, docs, diags = yamlsrc.load_file(str(manifest))
    doc = docs[0] if docs and not diags else None
    return doc if yamlsrc.is_map(doc) else None


def mod_name(folder: Path) -> str:
    """What a mod is called in diagnostics: mod.yaml's `name`, else its folder's name."""
    doc = _manifest_doc(folder)
    name = doc.get("name") if doc is not None else None
    return name if isinstance(name, str) and name.strip() else folder.resolve().name


def is_mod_collection(folder: Path) -> bool:
    """A folder of mods: no card file or mod.yaml of its own, and subfolders with a mod.yaml."""
    if not folder.is_dir() or (folder / MOD_FILE).exists() or any(
            f.is_file() for f in folder.glob("*.dsl")):  # a folder named x.dsl is no card
        return False
    return any((sub / MOD_FILE).is_file() for sub in folder.iterdir() if sub.is_dir())


def mod_rulesets(folder: Path) -> Optional[tuple[str, ...]]:
    """The rulesets a mod says it is for (`rulesets:` in mod.yaml); None: any, or unreadable
    (the manifest's own check reports what is wrong with it)."""
    doc = _manifest_doc(folder)
    value = doc.get("rulesets") if doc is not None else None
    if yamlsrc.is_seq(value) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _ruleset_typos(path: str, names, check: bool = True) -> list[Diagnostic]:
    """`rulesets: [delux]`: a name that is not a built-in ruleset but close to one is a typo
    (E503 with the name to use), not a mod for another game (a custom ruleset's id is fine).
    `check=False`: only whether there is one (the manifest's own check says where)."""
    from .rulesets import builtin_ids

    builtin = builtin_ids()
    found = []
    for i, name in enumerate(names):
        close = did_you_mean(str(name), builtin) if name not in builtin else None
        if close is not None:
            if not check:
                return [Diagnostic(Span.whole_file(path), "E503", "")]
            _, docs, _ = yamlsrc.load_file(path)
            node = docs[0]["rulesets"] if docs and yamlsrc.is_map(docs[0]) else None
            where = (yamlsrc.value_span(path, node, i) if yamlsrc.is_seq(node)
                     else Span.whole_file(path))
            found.append(Diagnostic(where, "E503", f"`{name}` is not a built-in ruleset", close))
    return found


def expand_mod_folders(folders: tuple[str, ...],
                       ruleset: Optional[str] = None) -> tuple[tuple[str, ...], list[Diagnostic]]:
    """Each folder of mods replaced by its mod folders, in name order (determinism); a mod of
    such a folder written for other rulesets is left out. A mod named on its own that is not
    for `ruleset` is an error (E508)."""
    out: list[str] = []
    problems: list[Diagnostic] = []
    for raw in folders:
        folder = Path(raw)
        if is_mod_collection(folder):
            for sub in sorted(folder.iterdir()):
                if sub.is_dir() and not sub.is_symlink() and (sub / MOD_FILE).is_file():
                    wants = mod_rulesets(sub)
                    if ruleset is None or wants is None or ruleset in wants:
                        out.append(str(sub))
            continue
        wants = mod_rulesets(folder)
        if ruleset is not None and wants is not None and ruleset not in wants and \
                not _ruleset_typos(str(folder / MOD_FILE), wants, check=False):
            manifest = str(folder / MOD_FILE)
            _, docs, _ = yamlsrc.load_file(manifest)
            problems.append(Diagnostic(
                yamlsrc.value_span(manifest, docs[0], "rulesets"), "E508",
                f"the mod {folder.name} is for {', '.join(wants)}, not {ruleset}",
                f"play it with --ruleset {wants[0]}" if wants else None))
        out.append(raw)
    return tuple(out), problems


def _needs(path: str, doc, key: str, spec: str) -> list[Diagnostic]:
    """`raiders: ">=0.2"`: the running raiders must meet it (E509), and it must read as a
    version specifier (E503)."""
    from .versions import running_version, satisfies

    ok = satisfies(spec)
    where = yamlsrc.value_span(path, doc, key)
    if ok is None:
        return [Diagnostic(where, "E503", f"`raiders: {spec}` is not a version specifier",
                           "e.g. `raiders: \">=0.1\"` or `raiders: \">=0.1,<0.3\"`")]
    if not ok:
        return [Diagnostic(where, "E509", f"the mod needs raiders {spec}; this is raiders "
                           f"{running_version()}", "upgrade raiders, or use a version of the "
                           "mod written for this one")]
    return []


def _own_cards(folder: Path, lib: Library) -> list[str]:
    root = folder.resolve()
    folders: dict[str, Path] = {}  # each folder resolved once: a mod may have 10,000 cards

    def real(path: str) -> Path:
        if os.path.islink(path):
            return Path(path).resolve()
        head, name = os.path.split(path)
        if head not in folders:
            folders[head] = Path(head or ".").resolve()
        return folders[head] / name

    return [cid for cid in lib.cards if real(lib.cards[cid].span.path).is_relative_to(root)]


def _kind_chain(lib: Library, cid: str) -> list[str]:
    info = lib.kinds.get(lib.cards[cid].kind)
    return [k.name for k in info.chain] if info else []


def _boss_warnings(folder: Path, lib: Library, deck: dict[str, int]) -> list[Diagnostic]:
    found = []
    for cid in deck:
        if deck[cid] and any(_BOSS_WORD in k.split("-") for k in _kind_chain(lib, cid)):
            card = lib.cards[cid]
            found.append(Diagnostic(
                card.span, "W601", f"`{cid}` is a {card.kind} but joins the room deck",
                "say where it goes: `bosses: [" + cid + "]` in the mod's mod.yaml "
                "(or `deck: {" + cid + ": 1}` to keep it in the deck)", severity="warning"))
    return found


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def mod_manifest(folder: Path, lib: Library) -> ModManifest:
    """A mod's additions to a game, checked against the library it joins."""
    manifest = folder / MOD_FILE
    if not manifest.is_file():
        deck = {cid: 1 for cid in _own_cards(folder, lib) if lib.role_of(cid) == "room"}
        return ModManifest(deck=deck, diagnostics=_boss_warnings(folder, lib, deck))
    path = str(manifest)
    if leads_out(manifest, folder):
        return ModManifest(diagnostics=[link_out(manifest, folder)])
    text, docs, diags = yamlsrc.load_file(path)
    if diags:
        return ModManifest(diagnostics=diags)
    if len(docs) > 1:  # the second would be silently dropped: say where it starts
        lines = (text or "").splitlines()
        at = next((i + 1 for i, line in enumerate(lines) if line.startswith("---")
                   and any(x.strip() and not x.lstrip().startswith("#") for x in lines[:i])),
                  1)
        return ModManifest(diagnostics=[Diagnostic(
            Span(path, at, 1, at, 4), "E503", "mod.yaml is one YAML document",
            "put every field in one map: `deck`, `items`, `characters`, … (no `---`)")])
    doc = docs[0] if docs else None
    if doc is None:
        return ModManifest()  # an empty mod.yaml adds nothing
    out = ModManifest()
    if not yamlsrc.is_map(doc):
        out.diagnostics.append(Diagnostic(yamlsrc.node_span(path, doc), "E503",
                                          "mod.yaml is a map: {deck: {id: copies}, "
                                          "bosses: [ids], items: {id: copies}, "
                                          "characters: [ids]}"))
        return out
    problems = out.diagnostics
    # A card file of this mod that could not be read or parsed (a syntax error, a number
    # too large) may hold the cards mod.yaml names: its own error says what to fix, and
    # "not a card" would mislead.
    parsed = {m.path for m in lib.modules}
    unparsed = any(path not in parsed and _inside(Path(path), folder)
                   for path in lib.sources) or any(
        d.code.startswith("E00") and _inside(Path(d.span.path), folder) for d in lib.diagnostics)

    def known(cid, where: Span, role: str) -> bool:
        if lib.role_of(str(cid)) == role:
            return True
        if unparsed and str(cid) not in lib.cards:
            return False
        what = (f"not {an(role)} card"
                if str(cid) in lib.cards else "not a card of this mod or its base")
        problems.append(Diagnostic(where, "E502", f"mod.yaml names `{cid}`, which is {what}",
                                   did_you_mean(str(cid), [c for c in lib.cards
                                                           if lib.role_of(c) == role])))
        return False

    def counts(value, role: str, into: dict[str, int], spans: Optional[dict] = None) -> None:
        for cid, n in value.items():
            where = yamlsrc.key_span(path, value, cid)
            if not yamlsrc.is_int(n) or not 0 <= n <= MAX_COPIES:
                problems.append(Diagnostic(yamlsrc.value_span(path, value, cid), "E503",
                                           f"copies of `{cid}` must be a whole number "
                                           f"0..{MAX_COPIES}"))
            elif known(cid, where, role):
                into[str(cid)] = n
                if spans is not None:
                    spans[str(cid)] = where

    def ids(value, role: str, into: list[str]) -> None:
        for i, cid in enumerate(value):
            if known(cid, yamlsrc.value_span(path, value, i), role) and str(cid) not in into:
                into.append(str(cid))

    # Unknown fields (E504, the nearest as a hint: `dek` → `deck`): the shared field reader.
    Reader(path, doc, MOD_FIELDS, "mod.yaml", problems, unknown=_UNKNOWN, fields=_FIELDS_HINT)
    for key in doc:
        value = doc[key]
        if key not in MOD_FIELDS:
            continue  # reported above
        if key == "deck" and yamlsrc.is_map(value):
            counts(value, "room", out.deck)
        elif key == "items" and yamlsrc.is_map(value):
            counts(value, "item", out.items, out.item_spans)
        elif key == "bosses" and yamlsrc.is_seq(value):
            ids(value, "room", out.bosses)
        elif key == "characters" and yamlsrc.is_seq(value):
            ids(value, "character", out.characters)
        elif key == "rulesets" and yamlsrc.is_seq(value) and all(isinstance(v, str) for v in value):
            problems.extend(_ruleset_typos(path, value))  # the rest: mod_rulesets()
        elif key == "boss_facing" and value in ("up", "down"):
            out.boss_facing = str(value)
        elif key in ("name", "version") and isinstance(value, (str, int, float)) \
                and not isinstance(value, bool) and str(value).strip():
            setattr(out, key, str(value))
        elif key == "raiders" and isinstance(value, (str, int, float)) \
                and not isinstance(value, bool):
            out.raiders = str(value)
            problems.extend(_needs(path, doc, key, str(value)))
        else:
            problems.append(Diagnostic(yamlsrc.key_span(path, doc, key), "E504",
                                       _UNKNOWN.format(key=key), _FIELDS_HINT))
    problems.extend(_boss_warnings(folder, lib, out.deck))
    return out


def unused_items(mod: ModManifest, lib: Library, rooms: list[str], characters: list[str],
                 given: Optional[Callable[[Library, str], frozenset[str]]] = None
                 ) -> list[Diagnostic]:
    """W604: an item `items:` adds to the supply that no card of the game ever hands out (no
    room dealt, no character of the pool, no card in play): it never appears in a game.
    `given`: what one card hands out (dsl/checker.py items_given, or one that keeps it)."""
    from raiders.dsl.checker import items_handed_out  # the checker: only when a mod adds items

    if not any(mod.items.values()):
        return []
    handed = items_handed_out(lib, rooms, characters, given)
    return [Diagnostic(mod.item_spans[item], "W604", f"`{item}` joins the supply, but no card "
                       "of the game ever gives it: it never appears in a game",
                       f"give it from a room the mod deals (`give {item}` in a vault's rewards), "
                       "or as a character's starting `items`", severity="warning")
            for item, n in mod.items.items() if n and item not in handed]


_DEFINED_TWICE = re.compile(r"(card id|kind) `([^`]+)` is defined twice")


def defined_twice(d: Diagnostic, lib: Library) -> Optional[tuple[str, str, Span]]:
    """A duplicate-id diagnostic of the library (E401 a card, E402 a kind): what is defined
    twice ("card id" or "kind"), its name, and where the definition the library kept is;
    None for any other diagnostic."""
    m = _DEFINED_TWICE.match(d.message)
    if d.code not in ("E401", "E402") or not m:
        return None
    what, name = m.groups()
    kept = lib.cards.get(name) if what == "card id" else getattr(
        lib.kinds.get(name), "decl", None)
    return None if kept is None else (what, name, kept.span)


def name_clashes(lib: Library, mods: tuple[str, ...], base: str) -> None:
    """Rewrite the library's duplicate-id diagnostics (E401 cards, E402 kinds) where a mod is
    involved so that they name both sides: two mods, or a mod and the ruleset `base`, never
    merge silently, and the modder learns which mod to rename in."""
    roots = [(Path(m).resolve(), m) for m in mods]

    def owner(path: str) -> Optional[str]:
        p = Path(path).resolve()
        for root, m in roots:
            if p.is_relative_to(root):
                return f"mod {mod_name(Path(m))} ({m})"
        return None

    out = []
    for d in lib.diagnostics:
        twice = defined_twice(d, lib)
        if twice is None:
            out.append(d)
            continue
        what, name, kept = twice
        second = owner(d.span.path)
        first = owner(kept.path)
        if second is None or first == second:
            out.append(d)
            continue
        first = first or f"the {base} ruleset"
        where = display_path(str(kept.path)) + f":{kept.line}"
        out.append(attrs.evolve(
            d, message=f"{what} `{name}` is defined by {first} and by {second}",
            hint=f"the other is at {where}; a game holds one `{name}`: rename it in one "
                 "of them (mods may add cards, not replace them)"))
    lib.diagnostics[:] = out
