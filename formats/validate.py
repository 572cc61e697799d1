"""What `raiders validate` checks: files, folders and rulesets, grouped into units.

A ruleset is checked with all its cards. Card files that no ruleset among the paths covers are
checked together as one mod, on top of a base ruleset (deluxe unless told), so a mod may use
the base kinds and items, and a clash with a base id is reported in the mod's file.
"""
from __future__ import annotations

import functools
import os
import shlex
from pathlib import Path
from typing import Callable, Iterable, Optional

import attrs

from raiders.dsl.checker import check_in_game
from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import CARD_SUFFIX, Library, display_path
from raiders.dsl.spans import Span

from .loader import DISK, Loader, card_files
from .mods import (
    MOD_FILE,
    ModManifest,
    defined_twice,
    mod_manifest,
    mod_rulesets,
    unused_items,
)
from .rulesets import RULESET_FILE, Ruleset, builtin_ids, load_ruleset, resolve_ruleset_path
from .safeio import BUILTIN, Confinement, files_below, listed_files, read_text

YAML_SUFFIXES = (".yaml", ".yml")


@attrs.define
class Report:
    diagnostics: list[Diagnostic] = attrs.Factory(list)
    sources: dict[str, str] = attrs.Factory(dict)
    rulesets: int = 0

    @property
    def files(self) -> int:
        return len(self.sources) + self.rulesets

    def add(self, diags: Iterable[Diagnostic], lib: Library | None = None) -> None:
        """Add diagnostics, each once: the same problem found through two routes (a mod's
        folder, and a scenario file that loads the mod) may name its file two ways."""
        seen = {_key(d) for d in self.diagnostics}
        for d in diags:
            if _key(d) not in seen:
                seen.add(_key(d))
                self.diagnostics.append(d)
        if lib is not None:
            self.sources.update(lib.sources)


def _key(d: Diagnostic) -> tuple:
    s = d.span
    return (os.path.realpath(s.path), s.line, s.col, d.code, d.message)


def _covered_by(ruleset_file: Path) -> list[Path]:
    """The card folders a ruleset file names (read without checking: a cheap pre-pass)."""
    from .yamlsrc import load_documents

    text, _ = read_text(ruleset_file)
    if text is None:
        return []
    docs, diags = load_documents(text, str(ruleset_file))
    if diags or not docs or not isinstance(docs[0], dict):
        return []
    cards = docs[0].get("cards")
    folders = list(cards) if isinstance(cards, list) else []
    variants = docs[0].get("variants")
    for v in (variants.values() if isinstance(variants, dict) else ()):
        if isinstance(v, dict) and isinstance(v.get("cards"), list):
            folders.extend(v["cards"])  # a variant's own folders are the ruleset's too
    # resolved as load_ruleset resolves them (the one path policy): a refused one is left out
    box = Confinement(ruleset_file.parent)
    named = [c for c in folders if isinstance(c, str)]
    resolved = [box.resolve(c)[0] for c in named]
    # a checkout's own copy of a built-in folder (cards/common beside cards/deluxe, validated
    # with raiders installed from a wheel) holds the cards `builtin:common` reads: covered too
    twins = [_builtin_twin(ruleset_file, c[len(BUILTIN):], p)
             for c, p in zip(named, resolved, strict=True) if c.startswith(BUILTIN)]
    # realpath, not Path.resolve: a link loop is no folder, not a RuntimeError
    return [Path(os.path.realpath(p)) for p in [*resolved, *twins] if p is not None]


def _builtin_twin(ruleset_file: Path, name: str, installed: str | None) -> str | None:
    """The folder NAME beside the ruleset's own folder when it holds exactly the installed
    built-in folder's card files, byte for byte (the raiders source tree itself); else None.
    Only ever compared, never read as cards: the installed folder is what the ruleset loads."""
    twin = ruleset_file.parent.parent / name
    if installed is None or not twin.is_dir() or twin.resolve() == Path(installed).resolve():
        return None
    ours = {f.relative_to(twin): f for f in card_files(twin)}
    theirs = {f.relative_to(installed): f for f in card_files(Path(installed))}
    if ours.keys() != theirs.keys():
        return None
    same = all(ours[k].read_bytes() == theirs[k].read_bytes() for k in ours)
    return str(twin) if same else None


def owning_ruleset(card_folder: Path) -> Path | None:
    """A ruleset near a card folder (in it, an ancestor, or a sibling of one) that names it."""
    target = card_folder.resolve()
    for ancestor in [target, *list(target.parents)[:3]]:
        for rf, folders in _rulesets_near(ancestor):
            if any(target.is_relative_to(folder) for folder in folders):
                return rf
    return None


@functools.lru_cache(maxsize=256)
def _rulesets_near(folder: Path) -> tuple[tuple[Path, tuple[Path, ...]], ...]:
    found = sorted([*folder.glob(RULESET_FILE), *folder.glob(f"*/{RULESET_FILE}")])
    return tuple((rf, tuple(_covered_by(rf))) for rf in found)


def validate_paths(paths: Iterable[str], base: str = "deluxe", loader: Loader = DISK) -> Report:
    """Everything `raiders validate PATHS` checks; card files are read by `loader` (folders
    are listed from the file system)."""
    report = Report()
    rulesets: list[Path] = []
    loose: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found, refused = files_below(p, [RULESET_FILE])  # no link out of the folder
            rulesets.extend(found)
            cards, too_big = listed_files(p, f"*{CARD_SUFFIX}")
            loose.extend(cards)
            loose.extend(_unsaved(loader, p, cards))
            report.add(refused + too_big)
            report.rulesets += len(refused) + len(too_big)
        elif p.suffix in YAML_SUFFIXES:
            rulesets.append(p)
        else:
            cards, too_big = listed_files(p, f"*{CARD_SUFFIX}")
            loose.extend(cards)
            report.add(too_big)
            report.rulesets += len(too_big)
    covered: set[Path] = set()
    for rf in rulesets:
        for folder in _covered_by(rf):
            covered.update(f.resolve() for f in card_files(folder)) if folder.is_dir() else None
    for rf in rulesets:
        report.rulesets += 1
        ruleset, diags = load_ruleset(rf, loader=loader)
        report.add(diags, ruleset.library if ruleset else None)
    # Loose files inside a ruleset's card folders are checked with that ruleset (only their
    # own problems reported); coverage is by folder, so each folder is looked up once.
    pending = [f for f in loose if not (covered and f.resolve() in covered)]
    for folder in dict.fromkeys(f.parent for f in pending):
        owner = owning_ruleset(folder)
        if owner is None or owner in rulesets:
            continue
        rulesets.append(owner)
        report.rulesets += 1
        covered.update(g.resolve() for d in _covered_by(owner) if d.is_dir()
                       for g in card_files(d))
        ruleset, diags = load_ruleset(owner, loader=loader)
        asked = {str(g.resolve()) for g in loose}
        report.add([d for d in diags if str(Path(d.span.path).resolve()) in asked],
                   ruleset.library if ruleset else None)
    mod_files = [f for f in dict.fromkeys(loose) if not covered or f.resolve() not in covered]
    mod_dirs = [Path(raw) for raw in paths if Path(raw).is_dir()
                and not any(Path(raw).rglob(RULESET_FILE))]
    # Mods below a folder (a folder of mods, or `examples/` with mods two levels down): each
    # mod is checked on its own, with its mod.yaml and its base, as a game would load it.
    for folder in list(mod_dirs):
        mods = mods_below(folder)
        if not mods or mods == [folder.resolve()]:
            continue  # no mod.yaml below, or the folder is one mod: checked as one below
        mod_dirs.remove(folder)
        for sub in mods:
            deeper = [m for m in mods if m != sub and m.is_relative_to(sub)]
            own = {f.resolve() for f in loader.card_files(sub)
                   if not any(f.resolve().is_relative_to(m) for m in deeper)}
            validate_mod(report, [f for f in mod_files if f.resolve() in own],
                         _base_for(sub, base), [sub], loader)
            mod_files = [f for f in mod_files if f.resolve() not in own]
    if mod_files or mod_dirs:
        # one mod folder: on the ruleset its mod.yaml names, as in a folder of mods above
        validate_mod(report, mod_files,
                     _base_for(mod_dirs[0], base) if len(mod_dirs) == 1 else base, mod_dirs,
                     loader)
    return report


def _base_for(mod: Path, base: str) -> str:
    """The ruleset a mod is checked on: `base`, unless its mod.yaml's `rulesets:` leaves it
    out and names a built-in one (a game would load it there); a name that is none (a typo,
    another game's ruleset) is the manifest's own diagnostic, and the mod is checked on
    `base`."""
    wants = mod_rulesets(mod)
    if wants is None or base in wants:
        return base
    return next((w for w in wants if w in builtin_ids()), base)


def _unsaved(loader: Loader, folder: Path, listed: list[Path]) -> list[Path]:
    """The loader's unsaved card files below a folder that the disk does not hold."""
    unsaved = loader.unsaved_below(folder)
    if not unsaved:
        return []  # (the common case: no need to resolve every file listed)
    seen = {f.resolve() for f in listed}
    return [f for f in unsaved if f.resolve() not in seen]


def mods_below(folder: Path) -> list[Path]:
    """The mod folders (with a mod.yaml) at or below `folder`, sorted; links are not followed."""
    root = folder.resolve()
    found = []
    for manifest in sorted(root.rglob(MOD_FILE)):
        sub = manifest.parent
        if manifest.is_file() and not manifest.is_symlink() and not any(
                p.is_symlink() for p in [sub, *sub.parents] if p.is_relative_to(root)):
            found.append(sub)
    return found


def validate_mod(report: Report, files: list[Path], base: str, folders: list[Path],
                 loader: Loader = DISK) -> Library | None:
    """A mod's card files checked on top of the ruleset `base`, with each folder's mod.yaml
    and what a game would refuse at load (E409, E410, W604): into `report`. The library of
    the mod and its base, or None when the base does not load."""
    base_path = resolve_ruleset_path(base)
    if base_path is None:
        report.add([Diagnostic(Span.whole_file(base), "E505", f"unknown base ruleset `{base}`")])
        return None
    ruleset, diags = load_ruleset(base_path, loader=loader)
    if ruleset is None:
        report.add(diags)
        return None
    base_lib = ruleset.library
    diags, sources, lib = check_mod(base_lib, files, loader)
    diags = _checked_together(diags, lib, files, folders, base)
    # Only the mod's own problems are reported: the base was checked on its own.
    report.add(diags)
    for folder in folders:
        if (folder / MOD_FILE).is_file():
            report.rulesets += 1
        # without a mod.yaml the folder's rooms join the deck: that can warn too (W601)
        mod = mod_manifest(folder, lib)
        report.add(mod.diagnostics)
        if not diags and not any(d.severity == "error" for d in mod.diagnostics):
            report.add(refused_at_load(ruleset, mod, lib))
    report.sources.update(sources)
    return lib


def _checked_together(diags: list[Diagnostic], lib: Library, files: list[Path],
                      folders: list[Path], base: str) -> list[Diagnostic]:
    """The duplicate ids (E401, E402) whose two definitions come from two of the folders (or
    files) given, which are checked as one mod (docs/dsl.md): two versions of one mod given
    side by side read as "defined twice" in a ruleset they never shared. Say that they were
    checked together, and how to check each on its own."""
    # where each file came from, as the user gave it: a folder, else the file itself
    roots = [(Path(os.path.realpath(g)), g) for g in [*folders, *files]]

    def origin(path: str) -> Optional[Path]:
        real = Path(os.path.realpath(path))
        return next((g for root, g in roots if real.is_relative_to(root)), None)

    out = []
    for d in diags:
        twice = defined_twice(d, lib)
        first, second = (origin(twice[2].path), origin(d.span.path)) if twice else (None, None)
        if twice is None or first is None or second is None or first == second:
            out.append(d)
            continue
        what, name, kept = twice
        noun = "folders" if first.is_dir() and second.is_dir() else "paths"
        command = "raiders validate" + ("" if base == "deluxe" else f" --base {shlex.quote(base)}")
        out.append(attrs.evolve(
            d, message=f"{what} `{name}` is defined in two of the {noun} checked together: "
                       f"{first} and {second}",
            hint=f"`raiders validate` checks the card files of every {noun[:-1]} it is given "
                 f"as one mod, where an id is defined once (the other is at "
                 f"{display_path(str(kept.path))}:{kept.line}); to check each on its own: "
                 f"`{command} {shlex.quote(str(first))} && {command} "
                 f"{shlex.quote(str(second))}`"))
    return out


def refused_at_load(ruleset: Ruleset, mod: ModManifest, lib: Library,
                    in_game: Callable[..., list[Diagnostic]] = check_in_game,
                    given: Optional[Callable[[Library, str], frozenset[str]]] = None
                    ) -> list[Diagnostic]:
    """What a game of the mod on `ruleset` would refuse at load, checked once its cards and
    mod.yaml are clean: E409 (no variant deals a threat), E410 (an item the supply lacks),
    W604 (an item no card hands out). `in_game` and `given`: check_in_game and
    items_given, or ones that keep their answer per card (formats/incremental.py)."""
    supply = {**ruleset.items, **mod.items}
    threat = any(v.threat_deck for v in ruleset.variants.values())
    return [*in_game(lib, [*mod.deck, *mod.bosses], supply, threat),
            *unused_items(mod, lib, [*ruleset.deck, *ruleset.bosses, *mod.deck, *mod.bosses],
                          [*ruleset.characters, *mod.characters], given)]


def check_mod(base_lib: Library, files: list[Path],
              loader: Loader = DISK) -> tuple[list[Diagnostic], dict[str, str], Library]:
    """Parse and check mod files on top of a base library, on every core when there are very
    many (formats/loader.py): (diagnostics of the mod's files, their sources, the library of
    every card of the mod and its base)."""
    base_files = set(base_lib.sources)
    lib, mine = loader.check_files(files, base_lib)
    return mine, {p: t for p, t in lib.sources.items() if p not in base_files}, lib
