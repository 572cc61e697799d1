"""Checked card libraries, kept in the user's cache folder: a command that plays with card files
that did not change since a load checked them clean skips parsing and checking them, and does
not even import the parser or the checker (issue 11, start-up).

What is kept is what the caller (interpreter/runtime/rules.py) derived from the files before
compiling them — the library, the ruleset, the deck, … — as plain data (formats/plaindata.py:
only the classes of `_classes` are ever built from it), in a file named by a hash of the request
(ruleset, variant, mods, edits, …) and of what produces the answer: the card language's own
modules and grammar, the caller's files, Python's and marshal's versions, the packages that
read card text and YAML. The file also holds what the load read, each with what it was then:
files (a SHA-256 of their text); folders (their real path, and below them every file whose
name matters — with its text's SHA-256 — and every link, with where it leads); the running
raiders' version when a mod asked for one. A later load is answered from the file only when
all of that is the same now; anything else, or any doubt, and it loads as before.

A load that read a file changed in the last seconds is not kept: it may have read the file
before the change, and the cache would answer the new text with the old result.

Where and how the file is kept: formats/cachefile.py (a private folder, the header checked before
the data is read, written whole or not at all, RAIDERS_NO_CACHE=1 turns it off).
"""
from __future__ import annotations

import functools
import hashlib
import marshal
import os
import stat
import sys
from importlib import resources, util
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence, Union

import attrs

from raiders.dsl.ast import (
    allow_deep_trees,  # trees read back here: no parser ran to raise the limit
)

from . import cachefile, plaindata
from .safeio import read_text

FORMAT = b"raiders-library-cache/2"
MAX_BYTES = 50_000_000  # the built-in rulesets take about 0.1 MB
KEEP = 64  # cache files kept (one per request: a mod in a temporary folder, a sweep's values)
RACY_NS = 2 * 10**9  # files changed this recently may have changed while they were read
_PREFIX = "lib-"
# One input as the cache file records it: ("file", path), ("folder", path, watched names) or
# ("version",); `_observed` reads what it is now.
Spec = Union[tuple[str, str], tuple[str, str, tuple[str, ...]], tuple[str]]


@attrs.frozen
class Inputs:
    """What a load read: files, and folders it listed (everything below that matters)."""

    files: tuple[str, ...]
    folders: tuple[str, ...]
    watched: tuple[str, ...]  # below a folder: the names (endings) whose files matter
    version: bool = False  # the running raiders' version mattered (a mod's `raiders:`)
    # The text the load parsed of every file ending in watched[0] (the card files), by path:
    # what the files below the folders must still hold for the result to be kept.
    texts: Mapping[str, str] = attrs.field(factory=dict, eq=False, repr=False)


# The cache never makes a run slower than no cache. Writing a file's parse (flattening it, a
# file) costs from a third of a parse to a whole one (when the disk is busy), and a parse read
# back saves about two thirds of one; a whole load kept costs about a quarter of a parse per
# card file, and read back saves parsing and checking them all. So a process writes only as
# far as what it read back paid for: one parse written per two parses read (a whole load read
# counts as one per card file it covers), a whole load as half a parse per card file, plus
# FREE_WRITES of its own (a ruleset and a mod of a dozen files are kept whole at once). A
# large mod is then kept over a few runs, none slower than the cache off (599 files: 6),
# instead of its first run paying for all of it (issue 23: a 10,000-file mod's first validate
# was 26% slower). Checked in shards (formats/loader.py `_uncached`), a mod uses no parse
# cache at all: there a write cost more than a parse.
FREE_WRITES = 32


@attrs.define
class WriteBudget:
    """This process's files' parses read from the cache and written to it, in parses."""

    hits: int = 0
    writes: int = 0

    def allows(self, cost: int = 1) -> bool:
        return self.writes + cost <= FREE_WRITES + self.hits // 2


BUDGET = WriteBudget()


def fetch(request: Sequence[str], code: Sequence[str],
          kinds: tuple[type, ...] = ()) -> Optional[Any]:
    """What `store` kept for this request, when everything it read is unchanged; else None.
    `kinds`: the caller's classes it may hold besides the language's (a ruleset, …)."""
    folder = cachefile.cache_dir()
    if folder is None:
        return None
    key = _key(request, code)
    payload = None if key is None else cachefile.read(_path(folder, key), FORMAT, key,
                                                      MAX_BYTES)
    if payload is None:
        return None
    try:
        seen, data, card_files = marshal.loads(payload)
        if not all(_observe(spec) == was for spec, was in seen):
            return None
        value = plaindata.rebuild(data, _classes(kinds))
    except (ValueError, TypeError, EOFError, OSError):
        return None
    allow_deep_trees()
    if type(card_files) is int:
        BUDGET.hits += card_files
    return value


def store(request: Sequence[str], code: Sequence[str], value: Any, inputs: Inputs,
          since_ns: int, kinds: tuple[type, ...] = ()) -> None:
    """Keep `value` for this request with what was read to make it (a load begun at
    `since_ns`), when this process's hits have paid for it (`BUDGET`). Nothing is kept when
    a file changed while the load read it: one found now that is not the text the load
    parsed (`inputs.texts`), or one changed since the load began. Never fails: a value that
    cannot be stored, or a folder that cannot be written, leaves no cache."""
    folder = cachefile.cache_dir()
    card_files = sum(1 for path in inputs.texts if path.endswith(inputs.watched[0]))
    cost = max(1, card_files // 2)
    if folder is None or not BUDGET.allows(cost):
        return
    try:
        data = plaindata.flatten(value, _classes(kinds))
        specs: list[Spec] = [("file", f) for f in inputs.files]
        specs += [("folder", f, inputs.watched) for f in inputs.folders]
        specs += [("version",)] if inputs.version else []
        seen, newest = [], 0
        for spec in specs:
            was, changed = _observed(spec)
            seen.append((spec, was))
            newest = max(newest, changed)
        if newest >= since_ns - RACY_NS or not _as_read(seen, inputs.texts,
                                                         inputs.watched[0]):
            return
        payload = marshal.dumps((tuple(seen), data, card_files))
    except (ValueError, OSError, RecursionError):
        return
    key = _key(request, code)
    if key is not None and cachefile.write(folder, _path(folder, key), FORMAT, key, payload):
        BUDGET.writes += cost
        cachefile.prune(folder, f"{_PREFIX}*.bin", KEEP)


def _as_read(seen: list, texts: Mapping[str, str], suffix: str) -> bool:
    """Whether every file ending in `suffix` that the folders hold now and the load read is
    the very text it read (a file rewritten during the load, its time set back, would
    otherwise be kept with the result of its old text). A file the load did not read (a mod
    for another ruleset) does not count; one added while it read shows in its folder's time."""
    read = {os.path.realpath(p): hashlib.sha256(t.encode("utf-8")).hexdigest()
            for p, t in texts.items()}
    for spec, was in seen:
        if spec[0] != "folder" or was is None:
            continue
        if was[1] == "file":  # a folder argument that is a file
            found = [(was[0], was[2])]
        else:
            real, listing = was
            found = [(os.path.join(real, e[0]), e[2]) if e[1] == "file" else (e[2], e[3])
                     for e in listing if e[1] in ("file", "link") and e[0].endswith(suffix)]
        for path, digest in found:
            was = read.get(os.path.realpath(path))
            if was is not None and was != digest:
                return False
    return True


# ---- parsed card files: one entry per file's path and text (what `validate` and a load that
# misses the whole-load entry above would otherwise parse again; the checks still run)

PARSED_FORMAT = b"raiders-parsed-cache/1"
_PARSED_PREFIX = "ast-"
KEEP_PARSED = 4096  # a 600-file mod edited a few times over
_pruned = False  # the parsed entries are pruned once per process that writes one
_largest_load = 0  # the most files one load of this process parsed (formats/loader.py)


def expect_parsed(files: int) -> None:
    """A load of this many files is under way: the parsed entries kept are never fewer than
    that (plus KEEP_PARSED), or a load larger than the cache would prune the entries it is
    about to read, and parse and write every file on every run (a 10,000-file mod)."""
    global _largest_load
    _largest_load = max(_largest_load, files)


def fetch_parsed(path: str, text: str) -> Optional[tuple[Any, list]]:
    """The parse (module, diagnostics) of this file's text at this path, if kept; else None."""
    folder = cachefile.cache_dir()
    if folder is None:
        return None
    key = _parsed_key(path, text)
    if key is None:
        return None
    name = f"{_PARSED_PREFIX}{key[:40]}.bin"
    if name not in _kept_names(folder):
        return None
    payload = cachefile.read(folder / name, PARSED_FORMAT, key, MAX_BYTES)
    if payload is None:
        return None
    try:
        module, diags = plaindata.rebuild(marshal.loads(payload), _classes())
    except (ValueError, TypeError, EOFError):
        return None
    if not isinstance(module, _classes().by_name["ast.Module"]) or type(diags) is not list:
        return None
    allow_deep_trees()
    BUDGET.hits += 1
    return module, diags


def store_parsed(path: str, text: str, parsed: tuple[Any, list]) -> None:
    """Keep a file's parse (only a clean one: a file with errors is parsed again, so its
    diagnostics are always fresh), when this process's hits have paid for it (`BUDGET`).
    Never fails."""
    global _pruned
    folder = cachefile.cache_dir()
    if folder is None or parsed[0] is None or parsed[1] or not BUDGET.allows():
        return
    try:
        payload = marshal.dumps(plaindata.flatten((parsed[0], list(parsed[1])), _classes()))
    except (ValueError, RecursionError):
        return
    key = _parsed_key(path, text)
    name = f"{_PARSED_PREFIX}{key[:40]}.bin" if key is not None else ""
    if key is None or not cachefile.write(folder, folder / name, PARSED_FORMAT, key, payload):
        return
    BUDGET.writes += 1
    _kept_names(folder).add(name)
    if not _pruned:
        _pruned = True
        cachefile.prune(folder, f"{_PARSED_PREFIX}*.bin", KEEP_PARSED + _largest_load)


# The parses the cache folder held when this process first looked (and those it wrote since):
# a file not among them is parsed without trying to open its entry (a first run of a large
# mod misses every file; an open that fails cost a tenth of what a write does).
_kept: dict[Path, set[str]] = {}


def _kept_names(folder: Path) -> set[str]:
    names = _kept.get(folder)
    if names is None:
        try:
            names = {n for n in os.listdir(folder) if n.startswith(_PARSED_PREFIX)}
        except OSError:
            names = set()
        _kept.clear()  # one folder a process (tests name one per test)
        _kept[folder] = names
    return names


def _parsed_key(path: str, text: str) -> Optional[str]:
    # surrogatepass: an editor's buffer may hold a lone surrogate (a file read never does)
    return _key(("parsed", path, hashlib.sha256(text.encode("utf-8", "surrogatepass"))
                 .hexdigest()), ())


def _path(folder: Path, key: str) -> Path:
    return folder / f"{_PREFIX}{key[:40]}.bin"


def _key(request: Sequence[str], code: Sequence[str]) -> Optional[str]:
    """The name a request's file answers to; None when the code that makes it cannot be read
    (an install without its sources: then nothing tells one version's files from another's,
    and nothing is cached)."""
    try:
        digest = _code_digest(tuple(code))
    except OSError:
        return None
    text = "\0".join([FORMAT.decode(), sys.version, str(marshal.version), digest,
                      *map(str, request)])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@functools.lru_cache(maxsize=4)
def _code_digest(extra: tuple[str, ...]) -> str:
    """A hash of the code that makes what is kept: the card language's own (`_language_digest`)
    and the caller's files."""
    h = hashlib.sha256(_language_digest().encode())
    for f in map(Path, extra):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def _language_digest() -> str:
    """A hash of the card language's modules (dsl/, formats/) and grammar, and of the packages
    that read card text and YAML or compare versions (their `__init__`, which names their
    version, or their absence: found without importing them, but for a namespace's parent,
    `ruamel`)."""
    h = hashlib.sha256()
    here = Path(__file__).parent  # formats/, beside the language's dsl/
    files = sorted([*(here.parent / "dsl").glob("*.py"), *here.glob("*.py")])
    if not any(f.parent.name == "dsl" for f in files) or not any(f.parent == here for f in files):
        raise OSError("the card language's sources are not there to read")
    for f in files:
        h.update(f"{f.parent.name}/{f.name}".encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(resources.files("raiders.grammar").joinpath("raiders.lark").read_bytes())
    for package in ("lark", "yaml", "ruamel.yaml", "packaging"):  # packaging: `raiders:`
        try:
            spec = util.find_spec(package)
            origin = spec.origin if spec is not None else None
            h.update(Path(origin).read_bytes() if origin else b"absent")
        except (ImportError, ValueError, OSError):
            h.update(b"absent")
    return h.hexdigest()


@functools.lru_cache(maxsize=4)
def _classes(kinds: tuple[type, ...] = ()) -> plaindata.Classes:
    """What a kept parse or load may hold: the AST's nodes, the library, diagnostics, and the
    caller's `kinds` (a whole load's ruleset: interpreter/runtime/rules.py says which)."""
    from raiders.dsl import ast, diagnostics, library, spans

    nodes = [c for c in vars(ast).values()
             if isinstance(c, type) and attrs.has(c) and c.__module__ == ast.__name__]
    return plaindata.Classes([*nodes, spans.Span, diagnostics.Diagnostic, library.Library,
                              library.KindInfo, library.ParamInfo, *kinds])


def _observe(spec: Any) -> Any:
    return _observed(spec)[0]


def _observed(spec: Any) -> tuple[Any, int]:
    """What a file or folder (or the running version) is now, and when it last changed."""
    if spec == ("version",):
        from .versions import running_version

        return running_version(), 0
    if type(spec) is tuple and len(spec) >= 2 and type(spec[1]) is str:
        if spec[0] == "file" and len(spec) == 2:
            return _file(spec[1])
        if spec[0] == "folder" and len(spec) == 3 and type(spec[2]) is tuple \
                and all(type(w) is str for w in spec[2]):
            return _folder(spec[1], spec[2])
    raise ValueError("not an input")


def _file(path: str) -> tuple[Optional[str], int]:
    """A SHA-256 of a file's text as a load reads it (None: it cannot be read)."""
    text, _ = read_text(path)
    if text is None:
        return None, 0
    changed = os.stat(path).st_mtime_ns
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), changed


def _folder(path: str, watched: tuple[str, ...]) -> tuple[Any, int]:
    """A folder's real path, and below it (links to folders not followed, as a load lists
    them) each watched file with its text's hash, and each link with where it leads."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None, 0
    real = os.path.realpath(path)
    if not stat.S_ISDIR(st.st_mode):
        text, changed = _file(path)
        return (real, "file", text), changed
    found: list[tuple] = []
    newest = st.st_mtime_ns
    todo = [""]
    while todo:
        rel = todo.pop()
        with os.scandir(os.path.join(path, rel)) as entries:
            for entry in entries:
                name = os.path.join(rel, entry.name)
                text, changed = (_file(entry.path) if entry.name.endswith(watched)
                                 and entry.is_file() else (None, 0))
                if entry.is_symlink():  # where it leads, and what a load reads through it
                    found.append((name, "link", os.path.realpath(entry.path), text))
                elif entry.is_dir():
                    if entry.name.endswith(watched):  # a folder named like a card file
                        found.append((name, "dir"))
                    todo.append(name)
                    changed = entry.stat().st_mtime_ns
                elif entry.name.endswith(watched):
                    found.append((name, "file" if entry.is_file() else "other", text))
                newest = max(newest, changed)
    return (real, tuple(sorted(found))), newest
