"""The one loader of card files: read, parse (through the parse cache), index and check.

The way to read a file is an argument, as miniwdl's `load(read_source=…)`: the command line
reads the file system (`Loader()`), the language server its editor's open buffers
(`Loader(read=buffers.read)`), a test a dict (`Loader.of_texts({...})`). Everything that turns
card files into a library goes through a `Loader`, so a reader given here is what every card
file is read with, forked workers included (they inherit it). Nothing is swapped at run time.

Behind it: each file's parse kept per process and in the user's cache folder
(formats/libcache.py; only for a reader's text, keyed by path and text, so a buffer's parse is
as good as a file's), and, for very many files, checking in shards on every core
(`check_files`): the same library and the same diagnostics as checking them in one piece;
the shards parse without the cache, which only made them slower (`_uncached`).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable, Iterable, Mapping, Optional, Sequence, Union

import attrs

from raiders.dsl import ast, checked, extend_library
from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import CARD_SUFFIX, Library, add_module, build_tables
from raiders.dsl.spans import Span

from . import libcache
from .safeio import read_text

# A card file's text, or None and why not (E004, E006, …): how a loader reads one file.
ReadSource = Callable[[str], tuple[Optional[str], list[Diagnostic]]]
Parsed = tuple[str, Optional[ast.Module], list[Diagnostic], str]  # path, module, diags, text

# From this many files on, a load is checked in shards on every core (`check_files`); below
# it, starting processes costs more than it saves.
PARALLEL_FROM = 600


def card_files(path: Union[str, Path]) -> list[Path]:
    """The card files a path names: the file itself, or every *.dsl below a folder, sorted."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob(f"*{CARD_SUFFIX}") if f.is_file())
    return [p]


def read_disk(path: str) -> tuple[Optional[str], list[Diagnostic]]:
    """A card file from the file system: bounded (its size checked before it is read),
    decoded, a bad byte at its real position (formats/safeio.py)."""
    return read_text(path, limit=ast.MAX_CARD_FILE_BYTES)


@attrs.frozen
class Loader:
    """Card files read with `read`; `cached=False` parses every file afresh (no cache)."""

    read: ReadSource = read_disk
    cached: bool = True
    # Card files `read` holds that the disk may not (an editor's buffers, a new card not yet
    # saved among them): listed with a folder's files (`card_files`); their parses are kept
    # in this process only, not written to the cache folder at every keystroke. Real paths.
    unsaved: frozenset[str] = frozenset()

    @classmethod
    def of_texts(cls, texts: Mapping[str, str],
                 fallback: Optional[ReadSource] = read_disk) -> "Loader":
        """Files read from `texts` (path → text; a path also found by its real path), the
        rest with `fallback` (None: a path not in `texts` is not found, E004)."""
        by_real = {os.path.realpath(p): t for p, t in texts.items()}

        def read(path: str) -> tuple[Optional[str], list[Diagnostic]]:
            text = texts.get(path)
            if text is None:
                text = by_real.get(os.path.realpath(path))
            if text is not None:
                return text, []  # (the parser refuses text over the size limit, as a file's)
            if fallback is not None:
                return fallback(path)
            return None, [Diagnostic(Span.whole_file(path), "E004",
                                     f"cannot read {path}: no such file")]

        return cls(read=read, unsaved=frozenset(p for p in by_real if p.endswith(CARD_SUFFIX)))

    def card_files(self, folder: Union[str, Path]) -> list[Path]:
        """The card files below a folder (or the file itself), sorted: those on disk and the
        unsaved ones `read` holds there."""
        found = card_files(folder) if os.path.isdir(folder) else []
        seen = {os.path.realpath(f) for f in found}
        return sorted([*found, *(f for f in self.unsaved_below(folder)
                                 if str(f) not in seen)])

    def unsaved_below(self, folder: Union[str, Path]) -> list[Path]:
        """The unsaved card files `read` holds at or below a folder (real paths)."""
        if not self.unsaved:
            return []
        root = os.path.realpath(folder)
        return [Path(p) for p in sorted(self.unsaved)
                if p == root or p.startswith(root.rstrip(os.sep) + os.sep)]

    # -- one file, many files
    def parse(self, path: Union[str, Path]) -> Parsed:
        """A card file read and parsed: (path, module or None, diagnostics, text); a file
        that cannot be read is its diagnostics."""
        p = str(path)
        text, diags = self.read(p)
        if text is None:
            return p, None, diags, ""
        module, diags = self.parse_text(p, text)
        return p, module, diags, text

    def parse_many(self, files: Iterable[Union[str, Path]]) -> list[Parsed]:
        files = list(files)
        if self.cached:
            libcache.expect_parsed(len(files))  # the parse cache keeps a load this size
        return [self.parse(f) for f in files]

    def parse_text(self, path: str, text: str) -> tuple[Optional[ast.Module], list[Diagnostic]]:
        """Card text parsed, unless it was before: once per process (rulesets share their
        common cards; the tree is frozen), and across processes from the user's cache folder,
        so that unchanged files import neither lark nor the parser. Only a clean parse is
        kept: a file with errors is parsed, and reported, afresh."""
        if not self.cached:
            from raiders.dsl.parser import parse

            return parse(text, path)
        found = _PARSED.get((path, text))
        if found is None:
            found = libcache.fetch_parsed(path, text)
            if found is None:
                from raiders.dsl.parser import parse

                found = parse(text, path)
                if not self.unsaved or os.path.realpath(path) not in self.unsaved:
                    libcache.store_parsed(path, text, found)
            if len(_PARSED) >= _MEMO:
                _PARSED.clear()
            _PARSED[(path, text)] = found
        return found[0], list(found[1])

    def parse_all(self, files: Sequence[str]) -> list[Parsed]:
        """As `parse_many`, on every core when there are very many files (a language
        server's first look at a large mod): the same parses, in the same order."""
        if len(files) < PARALLEL_FROM or not can_fork():
            return self.parse_many(files)
        shards = _in_shards(_parse_worker, (_uncached(self), list(files)), len(files))
        return [parsed for shard in shards for parsed in shard]

    # -- a checked library
    def library(self, files: Sequence[Union[str, Path]],
                base: Optional[Library] = None) -> tuple[Library, list[Diagnostic]]:
        """Parse, index and check card files on top of `base` (a ruleset's library, already
        checked): the library, and the diagnostics of the given files only."""
        return checked(extend_library(base, self.parse_many(files)), base)

    def check_files(self, files: Sequence[Union[str, Path]],
                    base: Library) -> tuple[Library, list[Diagnostic]]:
        """As `library`, on every core when there are very many files: the same library
        (every card of every file) and the same diagnostics, warnings included."""
        if len(files) >= PARALLEL_FROM and can_fork():
            return _sharded(self, [str(f) for f in files], base)
        return self.library(files, base)


DISK = Loader()  # the file system, cached: what the command line loads with

# Files parsed in this process, by path and text (an edited file is parsed again): enough for
# the built-in rulesets, their variants and a mod of a few thousand files.
_PARSED: dict[tuple[str, str], tuple[Optional[ast.Module], list[Diagnostic]]] = {}
_MEMO = 4096


def can_fork() -> bool:
    import multiprocessing as mp  # here: most loads check few files and never fork

    return (os.cpu_count() or 1) > 1 and "fork" in mp.get_all_start_methods()


# ---- many files: shards checked in forked workers --------------------------------------------
#
# Most of a large mod is cards. The few files that declare kinds, or cards of the role kinds
# (items, characters, floors), are parsed here first; then each worker, forked with that
# library in memory, parses and checks its shard and sends back its diagnostics and its parsed
# files. The whole library is then indexed here, in file order: duplicate ids over all shards,
# and every card for what comes after (mod.yaml's names, the game-load checks, W601).

_KIND_LINE = re.compile(r"^\s*kind\s", re.M)
Read = tuple[str, str, list[Diagnostic]]  # path, text ("" when unread), the read's diagnostics
# Set in the parent before forking; read by the workers: the work of a check's shards (the
# loader, the shared declarations, the files they split) or of a parse's (the loader, files)
_SHARD_WORK: Union[tuple[Loader, Library, list[Read]], tuple[Loader, list[str]], None] = None


def _read_all(loader: Loader, files: list[str]) -> list[Read]:
    out = []
    for f in files:
        text, diags = loader.read(f)
        out.append((f, text if text is not None else "", diags if text is None else []))
    return out


def _parse_into(loader: Loader, entries: Iterable[Read]) -> list[Parsed]:
    parsed: list[Parsed] = []
    for path, text, read_diags in entries:
        if read_diags:
            parsed.append((path, None, read_diags, text))
            continue
        module, diags = loader.parse_text(path, text)
        parsed.append((path, module, diags, text))
    return parsed


def _shard_worker(bounds: tuple[int, int]):
    from raiders.dsl.checker import check

    if _SHARD_WORK is None or len(_SHARD_WORK) != 3:
        raise RuntimeError("a shard's work is set by _sharded before its workers start")
    loader, head, entries = _SHARD_WORK
    parsed = _parse_into(loader, entries[bounds[0]:bounds[1]])
    lib = Library(modules=list(head.modules), sources={})
    for path, module, diags, text in parsed:
        add_module(lib, module, diags, text, path)
    build_tables(lib)
    mine = {p for p, _, _, _ in parsed}
    diags = [d for d in check(lib) if d.span.path in mine and d.code != "E401"]
    # the parent indexes every file itself: each file's tree and its parse's diagnostics
    return diags, [(p, m, d) for p, m, d, _ in parsed]


def _parse_worker(bounds: tuple[int, int]) -> list[Parsed]:
    if _SHARD_WORK is None or len(_SHARD_WORK) != 2:
        raise RuntimeError("a parse's work is set by Loader.parse_all before its workers start")
    loader, files = _SHARD_WORK
    return [loader.parse(f) for f in files[bounds[0]:bounds[1]]]


def _uncached(loader: Loader) -> Loader:
    """The loader the shards parse with: the parse cache steps aside there. Measured on a
    10,000-file mod (benchmarks/validate.py --cache-runs): in two workers writing one folder
    a kept parse cost about twice a parse (0.45 ms for the file alone), and one read back saved
    a third of one, so the cache only ever made a sharded check slower (issue 23)."""
    return attrs.evolve(loader, cached=False)


def _in_shards(worker, work, count: int) -> list:
    """`worker` over `count` things in shards on every core (forked with `work` in memory):
    each shard's answer, in order; in this process if workers cannot be had."""
    global _SHARD_WORK
    import concurrent.futures
    import multiprocessing as mp

    from .forking import shared_heap

    workers = os.cpu_count() or 1
    size = max(1, -(-count // workers))
    bounds = [(i, min(i + size, count)) for i in range(0, count, size)]
    _SHARD_WORK = work
    try:
        fork = mp.get_context("fork")
        with shared_heap(), concurrent.futures.ProcessPoolExecutor(workers,
                                                                   mp_context=fork) as pool:
            results = list(pool.map(worker, bounds))
    except (OSError, concurrent.futures.process.BrokenProcessPool):
        results = [worker(b) for b in bounds]
    finally:
        _SHARD_WORK = None
    return results


def _sharded(loader: Loader, files: list[str], base: Library) -> tuple[Library, list[Diagnostic]]:
    from raiders.dsl.checker import check

    entries = _read_all(loader, sorted(files))
    # The declarations every shard needs: kinds, then cards of the role kinds.
    head_idx = {i for i, (_, t, _) in enumerate(entries) if _KIND_LINE.search(t)}
    head_parsed = _parse_into(loader, [entries[i] for i in sorted(head_idx)])
    head = extend_library(base, head_parsed)
    role_kinds = [k for k, info in head.kinds.items() if info.role != "room"]
    role_line = re.compile(r"^\s*(" + "|".join(map(re.escape, role_kinds)) + r")\s+[a-z_]", re.M)
    more = {i for i, (_, t, _) in enumerate(entries) if i not in head_idx and role_line.search(t)}
    if more:
        head_idx |= more
        head_parsed += _parse_into(loader, [entries[i] for i in sorted(more)])
        head_parsed.sort(key=lambda e: e[0])  # file order, as `entries`
        head = extend_library(base, head_parsed)
    head_paths = {entries[i][0] for i in head_idx}
    rest = [e for i, e in enumerate(entries) if i not in head_idx]
    results = _in_shards(_shard_worker, (_uncached(loader), head, rest), len(rest))
    diags = [d for d in check(head) if d.span.path in head_paths and d.code != "E401"]
    trees: dict[str, tuple[Optional[ast.Module], list[Diagnostic]]] = {}
    for shard_diags, parsed in results:
        diags.extend(shard_diags)
        trees.update((p, (m, d)) for p, m, d in parsed)
    # The whole library, in file order as a load in one piece indexes it: every card, and
    # the duplicate ids over all shards (first come first kept: the base, then file order).
    texts = {p: t for p, t, _ in entries}
    heads = {p: (m, d) for p, m, d, _ in head_parsed}
    lib = extend_library(base, [(p, *(heads.get(p) or trees.get(p) or (None, rd)), texts[p])
                                for p, _, rd in entries])
    mine = set(texts)
    diags += [d for d in lib.diagnostics if d.code == "E401" and d.span.path in mine]
    return lib, diags
