"""What `raiders validate` checks: files, folders and rulesets, grouped into units.

A ruleset is checked with all its cards. Card files that no ruleset among the paths covers are
checked together as one mod, on top of a base ruleset (deluxe unless told), so a mod may use
the base kinds and items, and a clash with a base id is reported in the mod's file.
"""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Iterable

import attrs

from raiders.dsl import ast
from raiders.dsl.checker import check, check_in_game
from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import (
    CARD_SUFFIX,
    PARALLEL_FROM,
    Library,
    add_module,
    build_tables,
    card_files,
    display_path,
    parse_text,
)
from raiders.dsl.spans import Span

from .mods import MOD_FILE, mod_manifest, mod_rulesets, unused_items
from .rulesets import RULESET_FILE, load_ruleset, resolve_ruleset_path
from .safeio import Confinement, files_below, listed_files, read_text

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
    resolved = (box.resolve(c)[0] for c in folders if isinstance(c, str))
    # realpath, not Path.resolve: a link loop is no folder, not a RuntimeError
    return [Path(os.path.realpath(p)) for p in resolved if p is not None]


def _owning_ruleset(card_folder: Path) -> Path | None:
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


def validate_paths(paths: Iterable[str], base: str = "deluxe") -> Report:
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
        ruleset, diags = load_ruleset(rf)
        report.add(diags, ruleset.library if ruleset else None)
    # Loose files inside a ruleset's card folders are checked with that ruleset (only their
    # own problems reported); coverage is by folder, so each folder is looked up once.
    pending = [f for f in loose if not (covered and f.resolve() in covered)]
    for folder in dict.fromkeys(f.parent for f in pending):
        owner = _owning_ruleset(folder)
        if owner is None or owner in rulesets:
            continue
        rulesets.append(owner)
        report.rulesets += 1
        covered.update(g.resolve() for d in _covered_by(owner) if d.is_dir()
                       for g in card_files(d))
        ruleset, diags = load_ruleset(owner)
        asked = {str(g.resolve()) for g in loose}
        report.add([d for d in diags if str(Path(d.span.path).resolve()) in asked],
                   ruleset.library if ruleset else None)
    mod_files = [f for f in dict.fromkeys(loose) if not covered or f.resolve() not in covered]
    mod_dirs = [Path(raw) for raw in paths if Path(raw).is_dir()
                and not any(Path(raw).rglob(RULESET_FILE))]
    # Mods below a folder (a folder of mods, or `examples/` with mods two levels down): each
    # mod is checked on its own, with its mod.yaml and its base, as a game would load it.
    for folder in list(mod_dirs):
        mods = _mods_below(folder)
        if not mods or mods == [folder.resolve()]:
            continue  # no mod.yaml below, or the folder is one mod: checked as one below
        mod_dirs.remove(folder)
        for sub in mods:
            deeper = [m for m in mods if m != sub and m.is_relative_to(sub)]
            own = {f.resolve() for f in card_files(sub)
                   if not any(f.resolve().is_relative_to(m) for m in deeper)}
            wants = mod_rulesets(sub)
            _validate_mod(report, [f for f in mod_files if f.resolve() in own],
                          base if wants is None or base in wants else wants[0], [sub])
            mod_files = [f for f in mod_files if f.resolve() not in own]
    if mod_files or mod_dirs:
        _validate_mod(report, mod_files, base, mod_dirs)
    return report


def _mods_below(folder: Path) -> list[Path]:
    """The mod folders (with a mod.yaml) at or below `folder`, sorted; links are not followed."""
    root = folder.resolve()
    found = []
    for manifest in sorted(root.rglob(MOD_FILE)):
        sub = manifest.parent
        if manifest.is_file() and not manifest.is_symlink() and not any(
                p.is_symlink() for p in [sub, *sub.parents] if p.is_relative_to(root)):
            found.append(sub)
    return found


def _validate_mod(report: Report, files: list[Path], base: str, folders: list[Path]) -> None:
    base_path = resolve_ruleset_path(base)
    if base_path is None:
        report.add([Diagnostic(Span.whole_file(base), "E505", f"unknown base ruleset `{base}`")])
        return
    ruleset, diags = load_ruleset(base_path)
    if ruleset is None:
        report.add(diags)
        return
    base_lib = ruleset.library
    diags, sources, lib = check_mod(base_lib, files)
    # Only the mod's own problems are reported: the base was checked on its own.
    report.add(diags)
    for folder in folders:
        if (folder / MOD_FILE).is_file():
            report.rulesets += 1
        # without a mod.yaml the folder's rooms join the deck: that can warn too (W601)
        mod = mod_manifest(folder, lib)
        report.add(mod.diagnostics)
        if not diags and not any(d.severity == "error" for d in mod.diagnostics):
            # what the game would refuse at load: E409 (no variant deals a threat), E410
            supply = {**ruleset.items, **mod.items}
            threat = any(v.threat_deck for v in ruleset.variants.values())
            report.add(check_in_game(lib, [*mod.deck, *mod.bosses], supply, threat))
            report.add(unused_items(mod, lib, [*ruleset.deck, *ruleset.bosses, *mod.deck,
                                               *mod.bosses],
                                    [*ruleset.characters, *mod.characters]))
    report.sources.update(sources)


def check_mod(base_lib: Library,
              files: list[Path]) -> tuple[list[Diagnostic], dict[str, str], Library]:
    """Parse and check mod files on top of a base library: (diagnostics of the mod's files,
    their sources, the library of the declarations every card may refer to)."""
    base_files = set(base_lib.sources)
    if len(files) >= PARALLEL_FROM and _can_fork():
        return _check_mod_sharded(base_lib, files)
    from raiders.dsl import (
        load_library,  # the package's front door (it imports this module's peers)
    )

    lib, mine = load_library(files, base_lib)
    return mine, {p: t for p, t in lib.sources.items() if p not in base_files}, lib


# ---- many files: shards checked in forked workers --------------------------------------------
#
# Most of a large mod is cards. The few files that declare kinds, or cards of the role kinds
# (items, characters, floors), are parsed here first; then each worker, forked with that
# library in memory, parses and checks its shard and sends back only diagnostics and the
# card ids it declared. Duplicate ids are found here, over all shards, in file order.

_KIND_LINE = re.compile(r"^\s*kind\s", re.M)
_SHARD_RESULT = None  # set in the parent before forking; read by the workers


def _can_fork() -> bool:
    import multiprocessing as mp  # here: most runs check few files and never fork

    return (os.cpu_count() or 1) > 1 and "fork" in mp.get_all_start_methods()


def _read(files: list[Path]) -> list[tuple[str, str, list[Diagnostic]]]:
    out = []
    for f in files:
        text, diags = read_text(f)  # the one reader: size bound, real position of a bad byte
        out.append((str(f), text if text is not None else "", diags))
    return out


def _parse_into(lib: Library, entries) -> None:
    for path, text, read_diags in entries:
        if read_diags:
            lib.sources[path] = text
            lib.diagnostics.extend(read_diags)
            continue
        module, diags = parse_text(path, text)
        add_module(lib, module, diags, text, path)


def _shard_worker(bounds: tuple[int, int]):
    head, entries = _SHARD_RESULT
    shard = entries[bounds[0]:bounds[1]]
    lib = Library(modules=list(head.modules), sources={})
    _parse_into(lib, shard)
    build_tables(lib)
    mine = {p for p, _, _ in shard}
    diags = [d for d in check(lib) if d.span.path in mine and d.code != "E401"]
    ids = [(d.id, d.id_span) for m in lib.modules if m.path in mine for d in m.decls
           if isinstance(d, ast.CardDecl)]
    return diags, ids  # no texts: the parent read every file itself


def _check_mod_sharded(base_lib: Library, files: list[Path]):
    global _SHARD_RESULT
    entries = _read(sorted(files))
    # The declarations every shard needs: kinds, then cards of the role kinds.
    head_idx = {i for i, (_, t, _) in enumerate(entries) if _KIND_LINE.search(t)}
    head = Library(modules=list(base_lib.modules), sources=dict(base_lib.sources))
    _parse_into(head, [entries[i] for i in sorted(head_idx)])
    build_tables(head)
    role_kinds = [k for k, info in head.kinds.items() if info.role != "room"]
    role_line = re.compile(r"^\s*(" + "|".join(map(re.escape, role_kinds)) + r")\s+[a-z_]", re.M)
    more = {i for i, (_, t, _) in enumerate(entries) if i not in head_idx and role_line.search(t)}
    if more:
        _parse_into(head, [entries[i] for i in sorted(more)])
        head.kinds, head.cards, head.diagnostics = {}, {}, []
        build_tables(head)
        head_idx |= more
    head_paths = {entries[i][0] for i in head_idx}
    rest = [e for i, e in enumerate(entries) if i not in head_idx]
    workers = os.cpu_count() or 1
    size = -(-len(rest) // workers)
    bounds = [(i, min(i + size, len(rest))) for i in range(0, len(rest), size)]
    _SHARD_RESULT = (head, rest)
    import concurrent.futures
    import multiprocessing as mp

    from .forking import shared_heap

    try:
        fork = mp.get_context("fork")
        with shared_heap(), concurrent.futures.ProcessPoolExecutor(workers,
                                                                   mp_context=fork) as pool:
            results = list(pool.map(_shard_worker, bounds))
    except (OSError, concurrent.futures.process.BrokenProcessPool):
        results = [_shard_worker(b) for b in bounds]
    finally:
        _SHARD_RESULT = None
    base_files = set(base_lib.sources)
    diags = [d for d in check(head) if d.span.path in head_paths and d.code != "E401"]
    # Every file read counts as checked (and may be quoted), not only those with problems:
    # a clean mod is 'N files, no problems', not 'nothing to check'.
    sources = {p: t for p, t, _ in entries}
    # Duplicate ids over everything, first come first kept: base, then the mod in file order.
    order = {p: i for i, (p, _, _) in enumerate(entries)}
    declared = [(d.id, d.id_span) for m in head.modules for d in m.decls
                if isinstance(d, ast.CardDecl)]
    for shard_diags, ids in results:
        diags.extend(shard_diags)
        declared.extend(ids)
    declared.sort(key=lambda e: (e[1].path not in base_files, order.get(e[1].path, -1),
                                 e[1].line, e[1].col))
    first: dict[str, Span] = {}
    for cid, span in declared:
        if cid in first:
            if span.path not in base_files:
                diags.append(Diagnostic(span, "E401", f"card id `{cid}` is defined twice",
                                        f"first defined at {display_path(str(first[cid]))}; "
                                        "ids must be unique in a ruleset"))
        else:
            first[cid] = span
    return diags, sources, head
