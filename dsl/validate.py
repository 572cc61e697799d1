"""What `raiders validate` checks: files, folders and rulesets, grouped into units.

A ruleset is checked with all its cards. Card files that no ruleset among the paths covers are
checked together as one mod, on top of a base ruleset (deluxe unless told), so a mod may use
the base kinds and items, and a clash with a base id is reported in the mod's file.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable

import attrs

from .checker import check
from .diagnostics import Diagnostic
from .library import Library, add_module, build_tables, card_files, parse_many
from .parser import parse_file
from .mods import MOD_FILE, mod_manifest
from .rulesets import RULESET_FILE, load_ruleset, resolve_ruleset_path
from .spans import Span

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
        seen = {(d.span, d.code, d.message) for d in self.diagnostics}
        for d in diags:
            if (d.span, d.code, d.message) not in seen:
                seen.add((d.span, d.code, d.message))
                self.diagnostics.append(d)
        if lib is not None:
            self.sources.update(lib.sources)


def _covered_by(ruleset_file: Path) -> list[Path]:
    """The card folders a ruleset file names (read without checking: a cheap pre-pass)."""
    from .yamlsrc import load_documents

    try:
        docs, diags = load_documents(ruleset_file.read_text(encoding="utf-8"), str(ruleset_file))
    except (OSError, UnicodeDecodeError):
        return []
    if diags or not docs or not isinstance(docs[0], dict):
        return []
    cards = docs[0].get("cards")
    if not isinstance(cards, list):
        return []
    return [(ruleset_file.parent / str(c)).resolve() for c in cards]


def _owning_ruleset(card_file: Path) -> Path | None:
    """A ruleset near a card file (in an ancestor folder or a sibling of one) that names it."""
    target = card_file.resolve()
    for ancestor in list(target.parents)[:3]:
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
            rulesets.extend(sorted(p.rglob(RULESET_FILE)))
            loose.extend(card_files(p))
        elif p.suffix in YAML_SUFFIXES:
            rulesets.append(p)
        else:
            loose.append(p)
    covered: set[Path] = set()
    for rf in rulesets:
        for folder in _covered_by(rf):
            covered.update(f.resolve() for f in card_files(folder)) if folder.is_dir() else None
    for rf in rulesets:
        report.rulesets += 1
        ruleset, diags = load_ruleset(rf)
        report.add(diags, ruleset.library if ruleset else None)
    for f in loose:
        if f.resolve() in covered:
            continue
        owner = _owning_ruleset(f)
        if owner is not None and owner not in rulesets:
            rulesets.append(owner)
            report.rulesets += 1
            covered.update(g.resolve() for folder in _covered_by(owner) if folder.is_dir()
                           for g in card_files(folder))
            ruleset, diags = load_ruleset(owner)
            # Only the named files' problems: the rest of the ruleset was not asked about.
            asked = {str(g.resolve()) for g in loose}
            report.add([d for d in diags if str(Path(d.span.path).resolve()) in asked],
                       ruleset.library if ruleset else None)
    mod_files = [f for f in dict.fromkeys(loose) if f.resolve() not in covered]
    mod_dirs = [Path(raw) for raw in paths if Path(raw).is_dir()
                and not any(Path(raw).rglob(RULESET_FILE))]
    if mod_files or mod_dirs:
        _validate_mod(report, mod_files, base, mod_dirs)
    return report


def _validate_mod(report: Report, files: list[Path], base: str, folders: list[Path]) -> None:
    base_path = resolve_ruleset_path(base)
    if base_path is None:
        report.add([Diagnostic(Span(base, 1, 1, 1, 2), "E505", f"unknown base ruleset `{base}`")])
        return
    ruleset, diags = load_ruleset(base_path)
    if ruleset is None:
        report.add(diags)
        return
    lib = Library()
    for folder in ruleset.card_paths:
        for f in card_files(folder):
            module, fdiags, text = parse_file(f)
            add_module(lib, module, fdiags, text, str(f))
    base_files = set(lib.sources)
    for path, module, fdiags, text in parse_many(files):
        add_module(lib, module, fdiags, text, path)
    build_tables(lib)
    # Only the mod's own problems are reported: the base was checked on its own.
    report.add([d for d in check(lib) if d.span.path not in base_files])
    for folder in folders:
        if (folder / MOD_FILE).is_file():
            report.rulesets += 1
            report.add(mod_manifest(folder, lib)[2])
    report.sources.update({p: t for p, t in lib.sources.items() if p not in base_files})
