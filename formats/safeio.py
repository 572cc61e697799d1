"""Reading files that strangers wrote: bounded in size, and confined to where they may lead.

Card files, rulesets, mods, scenarios and logs come from strangers (a log from a forum, a mod
from a pull request, a ruleset from a friend). Two rules hold for every file the tool reads:

- **Size.** A file is checked (`stat`) before it is read: only regular files of at most
  `MAX_FILE_BYTES` are read, and never more than that many bytes (E006).
- **Confinement: one path policy.** A path named *inside* a file (a ruleset's `cards:` and its
  variants' `cards:`, a log's or a scenario's `ruleset:` and `cards:`) is resolved by
  `Confinement.resolve`, and by nothing else: it may lead only into the file's own folder (and
  below), into a folder the user allowed on the command line (`--allow-path DIR`), or to a
  built-in card folder by name (`builtin:common`). No absolute path elsewhere, no `..` out of
  it, no link that leads out of it (E506). A refused path is never opened, not even looked at
  with `stat`. Likewise a card file or `mod.yaml` found in a folder must not be a link leading
  out of that folder (`files_below`, `leads_out`).

Paths the user typed on the command line are the user's own choice and are not confined; the
paths inside the files they name are.
"""
from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.spans import Span

MAX_FILE_BYTES = 5_000_000  # any file larger than this is refused before it is read
ALLOW_HINT = "to allow more, name the folder on the command line: --allow-path DIR"
# A built-in card folder named by a file (`cards: [builtin:common, .]`): the one way out of a
# file's own folder that needs no --allow-path, since it leads only into the installed cards.
BUILTIN = "builtin:"
_PATH_MAX, _NAME_MAX = 4096, 255  # longer is no path on any file system raiders runs on

PathLike = Union[str, "os.PathLike[str]"]


def _size_text(n: int) -> str:
    return f"{n:,} bytes"


def read_text(path: PathLike, encoding: str = "utf-8",
              limit: int = MAX_FILE_BYTES) -> tuple[Optional[str], list[Diagnostic]]:
    """A file's text, or (None, [diagnostic]) when it cannot be read, is not a regular file,
    or is larger than `limit` bytes (E006). The size is checked before anything is read."""
    p = os.fspath(path)
    where = Span.whole_file(p)
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            return None, [Diagnostic(where, "E004", "cannot read file: not a regular file")]
        if st.st_size > limit:
            return None, [_too_large(p, st.st_size, limit)]
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)  # a file that grows, or /proc, is bounded too
    except (OSError, ValueError) as err:
        return None, [Diagnostic(where, "E004", f"cannot read file: {_os_message(err)}")]
    return decode_text(p, data, encoding, limit)


def decode_text(path: str, data: bytes, encoding: str = "utf-8",
                limit: int = MAX_FILE_BYTES) -> tuple[Optional[str], list[Diagnostic]]:
    """Bytes read (from a file, or standard input) as text, as `read_text` takes them: within
    `limit` (E006), in `encoding` (E004 at the first bad byte), a byte-order mark dropped."""
    if len(data) > limit:
        return None, [_too_large(path, None, limit)]
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        return None, [_bad_byte(path, data, err, encoding)]
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark is not a character
    return text, []


def _bad_byte(path: str, data: bytes, err: UnicodeDecodeError, encoding: str) -> Diagnostic:
    """E004 where the first byte that is not `encoding` stands: its line and column (counted in
    characters of the good text before it), not 1:1."""
    line_start = data.rfind(b"\n", 0, err.start) + 1
    line = data.count(b"\n", 0, err.start) + 1
    col = len(data[line_start:err.start].decode(encoding, errors="replace")) + 1
    return Diagnostic(Span(path, line, col, line, col + 1), "E004",
                      f"cannot read file: not {encoding} text (byte 0x{data[err.start]:02x} at "
                      f"offset {err.start})", f"save the file as {encoding.upper()}")


def too_large(path: PathLike) -> Optional[Diagnostic]:
    """E006 when a file is larger than MAX_FILE_BYTES (checked with stat, nothing read)."""
    try:
        size = os.stat(os.fspath(path)).st_size
    except (OSError, ValueError):
        return None
    return _too_large(os.fspath(path), size) if size > MAX_FILE_BYTES else None


def _too_large(path: str, size: Optional[int], limit: int = MAX_FILE_BYTES) -> Diagnostic:
    got = f" ({_size_text(size)})" if size is not None else ""
    return Diagnostic(Span.whole_file(path), "E006",
                      f"file is too large{got}: the limit is {_size_text(limit)}",
                      "split it into smaller files")


def _os_message(err: Exception) -> str:
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def is_dir(path: PathLike) -> bool:
    """Path.is_dir, but False (not an error) for a name too long or otherwise unusable."""
    try:
        return os.path.isdir(os.fspath(path))
    except (OSError, ValueError):
        return False


def is_file(path: PathLike) -> bool:
    try:
        return os.path.isfile(os.fspath(path))
    except (OSError, ValueError):
        return False


# ---- confinement -------------------------------------------------------------------------------


def _inside(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def builtin_cards() -> str:
    """The installed card folders (`raiders.cards`): where `builtin:NAME` leads."""
    return os.path.abspath(str(resources.files("raiders.cards")))


def builtin_names() -> list[str]:
    """The built-in card folders a file may name as `builtin:NAME` (common, deluxe, …)."""
    root = builtin_cards()
    try:
        return sorted(n for n in os.listdir(root)
                      if not n.startswith(("_", ".")) and os.path.isdir(os.path.join(root, n)))
    except OSError:
        return []


class Confinement:
    """Where the paths named inside one file may lead: the file's own folder, the folders
    allowed on the command line, and the built-in card folders by name. The one resolver of
    every format that names paths (rulesets, logs, scenarios; mod folders are walked with
    `files_below`, which holds their files to them the same way)."""

    def __init__(self, own_folder: PathLike, allowed: Sequence[PathLike] = ()):
        folders = [os.fspath(own_folder) or ".", *(os.fspath(f) for f in allowed)]
        self.lexical = tuple(dict.fromkeys(os.path.abspath(f) for f in folders))
        self.real = tuple(dict.fromkeys(os.path.realpath(f) for f in folders))
        self.base = self.lexical[0]

    def key(self) -> tuple[str, ...]:
        """A hashable form (for caches): the own folder first, then the allowed ones."""
        return self.lexical

    @classmethod
    def from_key(cls, key: Sequence[str]) -> "Confinement":
        return cls(key[0], key[1:])

    def resolve(self, raw: str) -> tuple[Optional[str], Optional[str]]:
        """(absolute path, None) when `raw` (relative to the own folder, or `builtin:NAME`)
        stays inside the allowed folders, else (None, why). Only the names are looked at until
        the path is known to be inside; then links are followed (without reading anything) to
        see where they lead."""
        if not isinstance(raw, str):
            return None, "not a path"
        if raw.startswith(BUILTIN):
            return _builtin(raw[len(BUILTIN):])
        try:
            if "\0" in raw:
                return None, "a path cannot hold a NUL character"
            candidate = os.path.normpath(os.path.join(self.base, raw))
            if len(candidate) > _PATH_MAX or any(len(part) > _NAME_MAX
                                                 for part in candidate.split(os.sep)):
                return None, "a name too long to be a path"
            if not _inside(candidate, self.lexical):
                if os.path.isabs(raw):
                    return None, "an absolute path outside the file's own folder"
                return None, "a path that leads out of the file's own folder"
            if not _inside(os.path.realpath(candidate), self.real):
                return None, "a link that leads out of the file's own folder"
        except (OSError, ValueError):
            return None, "a path that cannot be looked up"
        return candidate, None

    def inside(self, path: PathLike) -> bool:
        """Whether an existing path (a folder a ruleset names, say) stays inside, links
        followed."""
        p = os.fspath(path)
        try:
            return _inside(os.path.abspath(p), self.lexical) and \
                _inside(os.path.realpath(p), self.real)
        except (OSError, ValueError):
            return False


def _builtin(name: str) -> tuple[Optional[str], Optional[str]]:
    """`builtin:NAME`: a folder of the installed cards, held inside them like any path."""
    if not name or name.startswith(("/", "\\", BUILTIN)) or "\0" in name:
        return None, "`builtin:` takes the name of a built-in card folder: " + \
            ", ".join(f"builtin:{n}" for n in builtin_names())
    path, why = Confinement(builtin_cards()).resolve(name)
    return path, why and why.replace("the file's own folder", "the built-in cards")


def refused(span: Span, raw: str, why: str, what: str, more: str = "",
            hint: Optional[str] = None) -> Diagnostic:
    """The diagnostic for a path a file may not name (E506); the path is not opened. `hint`:
    what this format allows (by default, a log's or a scenario's); `more`: another way out,
    said after it; and a built-in folder by name, when `raw` ends in one."""
    shown = raw if len(raw) <= 120 else raw[:117] + "…"
    tail = os.path.basename(os.path.normpath(raw)) if isinstance(raw, str) and raw else ""
    if tail in builtin_names() and not raw.startswith(BUILTIN):
        hint = (f"the built-in `{tail}` cards are named `{BUILTIN}{tail}` (e.g. "
                f"`cards: [{BUILTIN}{tail}, .]`); " + (hint or ALLOW_HINT))
    return Diagnostic(span, "E506", f"the {what} names `{shown}`: {why}; it is not read",
                      (hint or "a log or scenario file may name built-in rulesets and paths "
                               "inside its own folder; " + ALLOW_HINT) + more)


def leads_out(path: PathLike, folder: PathLike) -> bool:
    """Whether a file found in `folder` (a card file, a mod.yaml) is (or passes through) a
    link leading out of it: the path policy's own rule (Confinement.inside)."""
    return not Confinement(folder).inside(path)


def link_out(path: PathLike, folder: PathLike) -> Diagnostic:
    name = Path(path).name
    return Diagnostic(Span.whole_file(os.fspath(path)), "E506",
                      f"`{name}` is a link that leads out of the folder `{os.fspath(folder)}`; "
                      "it is not read",
                      "copy the file into the folder instead of linking to it")


def files_below(folder: PathLike, patterns: Sequence[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The regular files below a folder matching any pattern (sorted), less those that are
    links leading out of the folder (E506) or larger than MAX_FILE_BYTES (E006): those become
    diagnostics and are not read."""
    root = Path(folder)
    found = sorted({f for pat in patterns for f in root.rglob(pat)})
    confined = Confinement(root)  # the folder resolved once, not once a file
    ok: list[Path] = []
    out: list[Diagnostic] = []
    for f in found:
        if not confined.inside(f):
            out.append(link_out(f, root))
        elif f.is_file():
            big = too_large(f)
            if big is not None:
                out.append(big)
            else:
                ok.append(f)
    return ok, out


def listed_files(path: PathLike, pattern: str) -> tuple[list[Path], list[Diagnostic]]:
    """A file itself, or the files below a folder (as files_below); a file larger than
    MAX_FILE_BYTES is a diagnostic (E006) instead."""
    p = Path(path)
    if p.is_dir():
        return files_below(p, [pattern])
    big = too_large(p)
    return ([], [big]) if big is not None else ([p], [])


def quotable_lines(path: str) -> Optional[list[str]]:
    """The lines of a file a diagnostic may quote: a regular file within the size limit, not a
    link that leads out of its own folder, and not a YAML file foreign to raiders (one that
    declares no raiders format: a secrets file named where a ruleset belongs). None otherwise
    (the diagnostic is shown without)."""
    if leads_out(path, os.path.dirname(path) or "."):
        return None
    text, diags = read_text(path)
    if diags or text is None:
        return None
    from .declared import foreign_yaml

    return None if foreign_yaml(path, text) else text.splitlines()


def writable_folder(folder: PathLike) -> Optional[str]:
    """None when files can be written in `folder` (made if missing), else why not, in words."""
    p = os.fspath(folder)
    try:
        os.makedirs(p, exist_ok=True)
    except FileExistsError:
        return "it is not a folder"
    except OSError as err:
        return _os_message(err)
    if not os.path.isdir(p):
        return "it is not a folder"
    if not os.access(p, os.W_OK | os.X_OK):
        return "it is not writable"
    return None


def found_files(paths, patterns) -> tuple[list[str], list[Diagnostic]]:
    """The files the command-line paths name: a file itself, or a folder's files matching the
    patterns, less links leading out of the folder (diagnostics, not read)."""
    files: list[str] = []
    refused: list[Diagnostic] = []
    for p in paths:
        if Path(p).is_dir():
            found, diags = files_below(p, patterns)
            files.extend(sorted(str(f) for f in found))
            refused.extend(diags)
        else:
            files.append(p)
    return files, refused
