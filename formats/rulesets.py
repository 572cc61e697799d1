"""Ruleset files (YAML): the card pool, supplies and an edition's parameters, checked.

A ruleset names its card folders; loading it parses and checks those cards too, so one call
gives every diagnostic of an edition. Format: docs/rulesets.md.
"""
from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path
from typing import AbstractSet, Any, Callable, Optional

import attrs

from raiders.dsl import ast, extend_library
from raiders.dsl.diagnostics import Diagnostic, did_you_mean
from raiders.dsl.library import CARD_SUFFIX, Library
from raiders.dsl.spans import Span

from . import yamlsrc
from .fields import Reader
from .loader import DISK, Loader, Parsed
from .safeio import (
    BUILTIN,
    Confinement,
    builtin_names,
    is_dir,
    is_file,
    listed_files,
    read_text,
    refused,
)

FORMAT = "raiders-ruleset/1"
RULESET_FILE = "ruleset.yaml"
PLAY_MODES = ("simultaneous", "sequential")
FIRST_PLAYER = ("none", "random")
SCORING = ("standard", "duel", "solo")
MAX_COPIES = 100  # copies of one card in a deck or a supply (a ruleset's, a mod's)
MAX_SETTING = 1_000_000  # any number setting (coins, floors, a cap): beyond it, not a game
MAX_FOLDERS = 100  # card folders one `cards:` list names: 100,000 were 100,000 diagnostics


@attrs.frozen
class Variant:
    name: str
    play: str = "simultaneous"
    first_player: str = "none"  # who starts sequential play: random, then the highest value
    min_players: int = 3
    max_players: int = 5
    cards: tuple[str, ...] = ()  # extra card folders whose kinds override the ruleset's
    scoring: str = "standard"  # standard (D-9/C-8), duel (C-9), solo (C-12)
    items: bool = True  # False: no item cards, and no rooms that hand them out (C-11)
    remove: Optional[int] = None  # rooms removed unseen, when not the ruleset's
    coin_cap: Optional[int] = -1  # -1: the ruleset's; None: no cap (C-12)
    start_coins: Optional[int] = None  # every hero starts with this many coins (C-11)
    threat_deck: tuple[int, ...] = ()  # the solo monster deck (C-12)


@attrs.frozen
class Ruleset:
    path: str
    id: str
    name: str
    card_paths: tuple[str, ...]
    variant_dirs: tuple[str, ...]  # folders that only a variant loads
    characters: tuple[str, ...]
    items: dict[str, int]
    deck: dict[str, int]
    remove: int
    bosses: tuple[str, ...]
    floors: tuple[str, ...]
    floors_used: int
    rooms_per_floor: int
    face_up: Optional[int]  # rooms turned face up at setup (classic); None: floor cards decide
    coin_cap: Optional[int]
    death: Optional[int]
    ties_fall_from: int  # with at least this many starting players, all tied for most wounds fall
    strength_players: int  # the player count of a per_players field's first value
    variants: dict[str, Variant]
    library: Library = attrs.field(eq=False, repr=False)
    # The text of every card file the ruleset's check read, by path: its own folders' and
    # every variant's (a card broken in one variant stops them all); what a kept load of
    # these files is compared with (formats/libcache.py).
    read: dict[str, str] = attrs.field(factory=dict, eq=False, repr=False)


# field -> (kind of value, required)
_FIELDS: dict[str, tuple[str, bool]] = {
    "format": ("format", True),
    "id": ("str", True),
    "name": ("str", False),
    "cards": ("paths", True),
    "characters": ("ids", True),
    "items": ("counts", True),
    "deck": ("counts", True),
    "remove": ("int", False),
    "bosses": ("ids", False),
    "floors": ("ids", False),
    "floors_used": ("int", False),
    "rooms_per_floor": ("int", False),
    "face_up": ("int?", False),
    "coin_cap": ("int?", False),
    "death": ("int?", False),
    "ties_fall_from": ("int", False),
    "strength_players": ("int", False),
    "variants": ("variants", True),
}
_VARIANT_FIELDS: dict[str, str] = {
    "play": "mode", "first_player": "first", "players": "range", "cards": "paths",
    "scoring": "scoring", "items": "bool", "remove": "int", "coin_cap": "int?",
    "start_coins": "int", "threat_deck": "values",
}


def builtin_dir() -> Path:
    return Path(str(resources.files("raiders.cards")))


def builtin_ids() -> list[str]:
    return list(_builtin_ids())


@functools.lru_cache(maxsize=1)
def _builtin_ids() -> tuple[str, ...]:
    """The installed rulesets, looked up once a process (every log read asks)."""
    return tuple(sorted(p.parent.name for p in builtin_dir().glob(f"*/{RULESET_FILE}")))


def builtin_ruleset_path(ruleset_id: str) -> Path:
    """The ruleset file of a built-in ruleset (one of `builtin_ids`)."""
    return builtin_dir() / ruleset_id / RULESET_FILE


def resolve_ruleset_path(name_or_path: str) -> Optional[Path]:
    """A built-in id (`deluxe`) or a path to a ruleset file or to a folder holding one."""
    if name_or_path in builtin_ids():
        return builtin_ruleset_path(name_or_path)
    p = Path(name_or_path)
    if is_dir(p):  # not Path.is_dir: a name too long is "not found", not an OSError
        p = p / RULESET_FILE
    return p if is_file(p) else None


class _Reader(Reader):
    """The field reader, with the kinds of value only a ruleset has (variants, counts, …)."""

    def __init__(self, path: str, doc: Any):
        # Unknown fields are reported by the loop in load_ruleset, which knows the required.
        super().__init__(path, doc, _FIELDS, "ruleset")

    def err(self, span: Span, code: str, message: str, hint: Optional[str] = None) -> None:
        self.fail(span, message, hint, code=code)

    def value(self, node: Any, key: Any, kind: str) -> Any:
        """Check one field's value; returns it as plain data, or None when it is wrong."""
        v = node[key]
        where = yamlsrc.value_span(self.path, node, key)
        checks: dict[str, Callable[[], Any]] = {
            "format": lambda: v if v == FORMAT else self._bad(
                where, f"unknown ruleset format `{v}`", f"this version reads `{FORMAT}`"),
            "str": lambda: v if yamlsrc.is_str(v) else self._bad(where, f"`{key}` takes a string"),
            "int": lambda: v if yamlsrc.is_int(v) and 0 <= v <= MAX_SETTING else self._bad(
                where, f"`{key}` takes a whole number 0..{MAX_SETTING:,}"),
            "int?": lambda: v if v is None or (yamlsrc.is_int(v) and 0 <= v <= MAX_SETTING) else
            self._bad(where, f"`{key}` takes a whole number 0..{MAX_SETTING:,} or null"),
            "bool": lambda: v if isinstance(v, bool) else self._bad(
                where, f"`{key}` takes true or false"),
            "ids": lambda: self._ids(v, where, key),
            "paths": lambda: self._paths(v, where, key),
            "counts": lambda: self._counts(v, where, key),
            "variants": lambda: self._variants(v, where),
            "mode": lambda: self._choice(v, where, key, PLAY_MODES),
            "first": lambda: self._choice(v, where, key, FIRST_PLAYER),
            "scoring": lambda: self._choice(v, where, key, SCORING),
            "range": lambda: self._range(v, where, key),
            "values": lambda: tuple(v) if yamlsrc.is_seq(v) and v and all(
                yamlsrc.is_int(x) and 1 <= x <= 5 for x in v) else self._bad(
                where, f"`{key}` takes a list of card values 1..5"),
        }
        return checks[kind]()

    def _bad(self, where: Span, message: str, hint: Optional[str] = None) -> None:
        self.fail(where, message, hint)
        return None

    def _choice(self, v, where, key, choices):
        if v in choices:
            return v
        return self._bad(where, f"`{key}` is one of {', '.join(choices)}",
                         did_you_mean(str(v), choices))

    def _ids(self, v, where, key):
        if not yamlsrc.is_seq(v) or not all(yamlsrc.is_str(x) for x in v):
            return self._bad(where, f"`{key}` takes a list of names: [a, b]")
        return tuple(v)

    def _paths(self, v, where, key):
        folders = self._ids(v, where, key)
        if folders is not None and len(folders) > MAX_FOLDERS:
            return self._bad(where, f"`{key}` names {len(folders):,} card folders: at most "
                             f"{MAX_FOLDERS}")
        return folders

    def _counts(self, v, where, key):
        if not yamlsrc.is_map(v):
            return self._bad(where, f"`{key}` takes a map of id: count")
        out = {}
        for k, n in v.items():
            if not yamlsrc.is_int(n) or not 0 <= n <= MAX_COPIES:
                self._bad(yamlsrc.value_span(self.path, v, k),
                          f"count of `{k}` must be a whole number 0..{MAX_COPIES}")
            else:
                out[str(k)] = n
        return out

    def _range(self, v, where, key):
        if yamlsrc.is_int(v) and v >= 1:
            return (v, v)
        if yamlsrc.is_map(v) and set(v) == {"min", "max"} and all(yamlsrc.is_int(v[k]) for k in v) \
                and 1 <= v["min"] <= v["max"]:
            return (v["min"], v["max"])
        return self._bad(where, f"`{key}` takes a number or {{min: N, max: M}}")

    def _variants(self, v, where):
        if not yamlsrc.is_map(v) or not v:
            return self._bad(where, "`variants` takes a map of variant name: settings")
        out = {}
        for name, body in v.items():
            settings: dict[str, Any] = {"name": str(name)}
            if body is None:
                out[str(name)] = settings
                continue
            if not yamlsrc.is_map(body):
                self._bad(yamlsrc.value_span(self.path, v, name), f"variant `{name}` takes a map")
                continue
            for k in body:
                if k not in _VARIANT_FIELDS:
                    self.err(yamlsrc.key_span(self.path, body, k), "E504",
                             f"unknown variant field `{k}`",
                             did_you_mean(str(k), _VARIANT_FIELDS) or
                             "fields: " + ", ".join(_VARIANT_FIELDS))
                    continue
                got = self.value(body, k, _VARIANT_FIELDS[k])
                if got is None and not (k == "coin_cap" and body[k] is None):
                    continue
                if k == "players":
                    settings["min_players"], settings["max_players"] = got
                else:
                    settings[k] = got
            out[str(name)] = settings
        return out


def load_ruleset(path: Path, roots: Optional[tuple[str, ...]] = None,
                 loader: Loader = DISK) -> tuple[Optional[Ruleset], list[Diagnostic]]:
    """Read, check and build a ruleset and its card library (card files read by `loader`).

    The ruleset's card folders (its `cards:` and its variants') are held to its own folder,
    or a built-in folder by name (`builtin:common`), by the one path policy
    (formats/safeio.py Confinement): a folder elsewhere is refused (E506) and never opened.
    `roots`: the folders they may also lead into: for a ruleset named inside a log or
    scenario file, that file's own folder and those allowed with --allow-path."""
    from raiders.dsl.checker import check  # imported when used: a cached load needs no checker

    spath = str(path)
    text, diags = read_text(path)
    if text is None:
        return None, diags
    foreign = yamlsrc.not_declared(spath, text, "ruleset")
    if foreign is not None:  # a secrets file is refused before anything of it is echoed
        return None, [foreign]
    docs, diags = yamlsrc.load_documents(text, spath)
    if diags:
        return None, diags
    if len(docs) != 1 or not yamlsrc.is_map(docs[0]):
        return None, [Diagnostic(Span.whole_file(spath), "E503",
                                 "a ruleset is one YAML map", "see docs/rulesets.md")]
    doc = docs[0]
    r = _Reader(spath, doc)  # reports unknown fields (E504, with the nearest field)
    values: dict[str, Any] = {}
    for key in doc:
        if key in _FIELDS:
            values[key] = r.value(doc, key, _FIELDS[key][0])
    for key, (_, required) in _FIELDS.items():
        if required and key not in doc:
            r.err(yamlsrc.node_span(spath, doc), "E504", f"ruleset is missing field `{key}`")
    if r.diags or any(values.get(k) is None for k, (_, req) in _FIELDS.items() if req):
        return None, r.diags
    base = path.parent
    box = Confinement(base, roots or ())
    folders = [Path(f) for f in _card_folders(r, doc["cards"], values["cards"], box, "")]
    for name, variant in values["variants"].items():
        node = doc["variants"][name]["cards"] if "cards" in variant else None
        found = _card_folders(r, node, variant.get("cards", ()), box, f"variant `{name}`: ")
        if "cards" in variant:
            variant["cards"] = tuple(found)
    if r.diags:
        return None, r.diags
    variant_dirs = {c for v in values["variants"].values() for c in v.get("cards", ())}
    lib = ruleset_library([str(f) for f in folders], (), (), variant_dirs, loader=loader)
    lib_diags = check(lib)
    read = dict(lib.sources)
    _check_references(r, doc, values, lib)
    _check_counts(r, doc, values)
    for v in values["variants"].values():
        if v.get("cards"):
            vlib = ruleset_library([str(f) for f in folders], v["cards"],
                                   (), variant_dirs, loader=loader)
            read.update(vlib.sources)
            seen = {(d.span, d.code) for d in lib_diags}
            lib_diags += [d for d in check(vlib) if (d.span, d.code) not in seen]
    variants = {n: Variant(**s) for n, s in values["variants"].items()}
    ruleset = Ruleset(
        path=spath, id=values["id"], name=values.get("name") or values["id"],
        card_paths=tuple(str(f) for f in folders), variant_dirs=tuple(sorted(variant_dirs)),
        characters=values["characters"], items=values["items"], deck=values["deck"],
        remove=values.get("remove", 0), bosses=values.get("bosses") or (),
        floors=values.get("floors") or (), floors_used=values.get("floors_used", 5),
        rooms_per_floor=values.get("rooms_per_floor", 5), face_up=values.get("face_up"),
        coin_cap=values.get("coin_cap"), death=values.get("death"),
        ties_fall_from=values.get("ties_fall_from", 1),
        strength_players=values.get("strength_players", 3), variants=variants, library=lib,
        read=read)
    return ruleset, r.diags + lib_diags


def _card_folders(r: _Reader, node: Any, raws: tuple[str, ...], box: Confinement,
                  whose: str) -> list[str]:
    """The folders a `cards:` list names, each resolved by the one path policy; a refused
    one (E506: absolute, `..` out, a link out, `/`) is never opened, one missing is E505, and
    a file that is no card file (a `secrets.yaml` beside) is E503, never read as cards. Each
    stands as "" when it is wrong."""
    found = []
    for i, raw in enumerate(raws):
        where = yamlsrc.value_span(r.path, node, i)
        path, why = box.resolve(raw)
        if path is None:
            r.diags.append(refused(
                where, str(raw), why or "", "ruleset's `cards`", hint=
                "a ruleset's card folders lie inside its own folder (move them there), or are "
                "built-in ones named " + ", ".join(f"`{BUILTIN}{n}`" for n in builtin_names())))
        elif not os.path.exists(path):
            r.err(where, "E505", f"{whose}card folder `{raw}` not found", f"looked for {path}")
        elif not is_dir(path) and not path.endswith(CARD_SUFFIX):
            r.err(where, "E503", f"{whose}`cards` names a file that is not a card folder",
                  f"`cards` lists folders of card files (`*{CARD_SUFFIX}`)")
        else:
            found.append(path)
            continue
        found.append("")
    return found


def _replaceable(decl: ast.Decl) -> Optional[str]:
    """The name by which a variant's declaration replaces the ruleset's (a kind's or a card's);
    None for an `extend`, which adds rules to a kind and replaces nothing."""
    if isinstance(decl, ast.KindDecl):
        return decl.name
    if isinstance(decl, ast.CardDecl):
        return decl.id
    return None


def ruleset_library(folders: list[str], variant_folders: tuple[str, ...] = (),
                    mods: tuple[str, ...] = (), exclude: AbstractSet[str] = frozenset(),
                    loader: Loader = DISK) -> Library:
    """The cards of a ruleset: its folders (less any variant folder inside them), then a
    variant's folders, whose kinds and cards replace those of the same name, then mods, which
    may only add (a clash is a duplicate-id error: formats/mods.py `name_clashes` says whose).
    A card file that is a link leading out of its folder, or that is too large, is not read:
    it is a diagnostic of the library. Card files are read and parsed by `loader`."""
    excluded = [Path(e).resolve() for e in exclude]
    refusals: list[Diagnostic] = []

    def card_files(folder: str) -> list[Path]:
        found, diags = listed_files(folder, f"*{CARD_SUFFIX}")
        refusals.extend(d for d in diags if d not in refusals)
        return found

    def files(folder: str) -> list[Path]:
        return [f for f in card_files(folder)
                if not any(f.resolve().is_relative_to(e) for e in excluded)]

    override_files = [f for folder in variant_folders for f in card_files(folder)]
    parsed_overrides = loader.parse_many(override_files)
    replaced = {name for _, module, _, _ in parsed_overrides if module
                for d in module.decls if (name := _replaceable(d)) is not None}
    parsed: list[Parsed] = []
    for path, module, diags, text in loader.parse_many([f for folder in folders
                                                        for f in files(folder)]):
        if module is not None and replaced:
            module = ast.Module(module.path, tuple(
                d for d in module.decls if _replaceable(d) not in replaced))
        parsed.append((path, module, diags, text))
    parsed += parsed_overrides
    parsed += loader.parse_many([f for folder in mods for f in card_files(folder)])
    parsed.append(("", None, refusals, ""))  # the refused files: diagnostics only
    lib = extend_library(None, parsed)
    lib.sources.pop("", None)
    return lib


def _check_counts(r: _Reader, doc: Any, values: dict) -> None:
    """The deck fills the dungeon, and there is a character for every seat."""
    need = values.get("floors_used", 5) * values.get("rooms_per_floor", 5)
    bosses = 1 if values.get("bosses") else 0
    face_up = values.get("face_up")
    if face_up is not None and face_up > need:  # a sample larger than its population
        r.err(yamlsrc.value_span(r.path, doc, "face_up"), "E503",
              f"`face_up` turns {face_up} rooms face up but the dungeon has {need}")
    for name, v in values["variants"].items():
        remove = v.get("remove", values.get("remove", 0))
        rooms = sum(values["deck"].values()) - remove + bosses
        if rooms < need:
            r.err(yamlsrc.key_span(r.path, doc, "deck"), "E503",
                  f"variant `{name}`: the deck deals {rooms} rooms but the dungeon needs {need}",
                  f"{sum(values['deck'].values())} cards, {remove} removed"
                  + (", plus a boss" if bosses else ""))
        if v.get("max_players", 5) > len(values["characters"]):
            r.err(yamlsrc.key_span(r.path, doc, "characters"), "E503",
                  f"variant `{name}` seats {v.get('max_players', 5)} players but there are "
                  f"{len(values['characters'])} characters")
        if values.get("floors") and len(values["floors"]) < values.get("floors_used", 5):
            r.err(yamlsrc.key_span(r.path, doc, "floors"), "E503",
                  f"{len(values['floors'])} floor cards for {values.get('floors_used', 5)} floors")


def _check_references(r: _Reader, doc: Any, values: dict, lib: Library) -> None:
    """Every id the ruleset names exists in its cards, with the right role."""
    wanted = {"characters": "character", "items": "item", "deck": "room", "bosses": "room",
              "floors": "floor"}
    for field, role in wanted.items():
        if field not in doc:
            continue
        node = doc[field]
        names = list(node)
        for i, name in enumerate(names):
            where = yamlsrc.key_span(r.path, node, name) if yamlsrc.is_map(node) else \
                yamlsrc.value_span(r.path, node, i)
            if name not in lib.cards:
                candidates = [c for c in lib.cards if lib.role_of(c) == role]
                r.err(where, "E502", f"`{field}` names `{name}`, which no card file defines",
                      did_you_mean(str(name), candidates))
            elif lib.role_of(name) != role:
                r.err(where, "E503", f"`{name}` is a {lib.role_of(name)}, not a {role}",
                      f"`{field}` lists {role} cards")
