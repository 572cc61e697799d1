"""`raiders lsp`: a language server for card files over stdio (pygls + lsprotocol).

What it offers: diagnostics as you type (the checker's, with `validate`'s codes, positions and
hints), hover (what `raiders show` says of a card or a kind, what a word of the language
means, what a field means), completion (the fields of the card's own kind, parameters,
keywords, events, selectors, atoms, functions, kinds, item and card ids of the loaded
library), go to definition (a card's kind, a kind's parent, an item or card id), document
symbols, a quick fix for every "did you mean" hint, and formatting (`raiders fmt`).

A document is checked with the cards it plays with, as `raiders validate` would check it: a
file inside a ruleset's card folders with that ruleset, any other file with the other card
files of its mod (the folder holding `mod.yaml`, or its own folder) on top of the base
ruleset (the first of mod.yaml's `rulesets`, else deluxe). Unsaved text of open documents is
used. A mod's check is kept between edits (formats/incremental.py): an edit re-checks what
it can change, and the other open card files whose diagnostics it changed are published
too. What hover, completion and definitions read (the library, the rules of `show`'s words)
is kept per unit until an edit changes what it is built from (`Workspace.known`); the word
under the cursor and a field's name come from the grammar's tokens and the parse of the
card's declaration (dsl/parser.py `tokens`, `declaration_at`). YAML files (rulesets,
mod.yaml, scenarios, logs) get their YAML syntax checked as you type and the full check of
`validate` when saved.

The server speaks only of raiders' own files (`Workspace.claims`): card files (`*.dsl`),
`mod.yaml`, `ruleset.yaml`, and YAML files that declare a raiders format on a `format:` line.
Any other file, a CI workflow say, gets no diagnostics, hover, completion or anything else.

The analysis is plain Python (`Workspace`), tested without the protocol; `build_server()`
wires it to pygls, which is imported only there (the `lsp` extra: `pip install
'raiders[lsp]'`); how messages are read, checked and coalesced is `lspwire.py`'s.
"""
from __future__ import annotations

import functools
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

import attrs

from raiders.dsl import ast
from raiders.dsl import library as L
from raiders.dsl import vocabulary as V
from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import CARD_SUFFIX
from raiders.dsl.parser import declaration_at, parse, tokens
from raiders.dsl.spans import Span, located

NAME_RE = re.compile(r"[a-z_][a-z0-9_]*(?:-[a-z0-9_]+)*")
DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`\?")
YAML_SUFFIXES = (".yaml", ".yml")
VALIDATE_BASE = "deluxe"  # the base `validate FOLDER` checks a mod folder on


@attrs.frozen
class _Unit:
    """What a document is checked with: the ruleset whose card folders hold it (`owner`),
    else its mod folder on the base ruleset `base`."""

    owner: Optional[Path]  # the ruleset.yaml
    folder: Path  # the mod folder (a ruleset's file: its own folder)
    base: str  # the ruleset a mod plays on (mod.yaml's first `rulesets`, else deluxe)
    untitled: bool  # a document that is no file: nothing around it is read

    @property
    def key(self) -> tuple[str, str]:
        return ("ruleset", str(self.owner)) if self.owner is not None else \
            (self.base, str(self.folder))


@attrs.define
class _Known:
    """What hover, completion and definitions read of a unit, kept while what it was built
    from stays the same (`stamp`): its library, and the game's rules for `show`'s words."""

    stamp: tuple
    library: Optional[L.Library]
    ruleset: Optional[str]  # the ruleset path the unit plays with (for `show`'s words)
    mod_folder: Optional[str]
    rules: Any = None  # loaded at the first hover of a card; False: they do not load


def _mod_root(path: Path) -> Path:
    for folder in [path.parent, *list(path.parents)[1:4]]:
        if (folder / "mod.yaml").is_file():
            return folder
    return path.parent


def _mod_base(folder: Path) -> str:
    """The ruleset a mod plays on: the first of mod.yaml's `rulesets`, else deluxe."""
    try:
        text = (folder / "mod.yaml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return "deluxe"
    return _first_ruleset(text, str(folder / "mod.yaml"))


@functools.lru_cache(maxsize=64)
def _first_ruleset(text: str, path: str) -> str:
    """mod.yaml's first `rulesets` when it names one, else deluxe (read once per text)."""
    from raiders.formats.rulesets import resolve_ruleset_path
    from raiders.formats.yamlsrc import load_documents

    docs, _ = load_documents(text, path)
    sets = docs[0].get("rulesets") if docs and isinstance(docs[0], dict) else None
    if isinstance(sets, list) and sets and resolve_ruleset_path(str(sets[0])):
        return str(sets[0])
    return "deluxe"


class Workspace:
    """The open documents and what the checker says of them."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}  # real path -> text of an open document
        self._bases: dict[str, Any] = {}
        self._mods: dict[str, Any] = {}  # mod folder -> its check kept between edits
        self._derived: dict[tuple[str, str], _Known] = {}  # by unit (_Unit.key)
        self.edits = 0  # every change of an open document's text, or on disk, told of
        # Where documents that are no file (`untitled:`) are given a path: a folder never
        # made (nothing is read or written there), one subfolder per document, so that each
        # is checked alone, as a mod of one file on deluxe.
        self.scratch = os.path.join(os.path.realpath(tempfile.gettempdir()),
                                    f"raiders-untitled-{os.getpid()}-{secrets.token_hex(6)}")

    def untitled_path(self, uri: str, language: str) -> str:
        """The path an `untitled:` document is checked under: a card file when the editor
        says it is raiders' (or its name ends in .dsl), else a file no one claims."""
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", uri.partition(":")[2])[:100] or "untitled"
        suffix = ".dsl" if language == "raiders" and not name.endswith(".dsl") else ""
        return os.path.join(self.scratch, name, name + suffix)

    def open(self, path: str, text: str) -> None:
        key = os.path.realpath(path)
        if self.texts.get(key) != text:
            self.edits += 1
        self.texts[key] = text

    def close(self, path: str) -> None:
        if self.texts.pop(os.path.realpath(path), None) is not None:
            self.edits += 1

    def claims(self, path: str) -> bool:
        """Whether a file is raiders' to judge: a card file, `mod.yaml`, `ruleset.yaml`, or
        YAML that declares a raiders format (its open text's, else the file's on disk)."""
        from raiders.formats.declared import declared_format, file_format

        name = os.path.basename(path)
        if name.endswith(".dsl") or name in ("mod.yaml", "ruleset.yaml"):
            return True
        if not name.endswith(YAML_SUFFIXES):
            return False
        text = self.texts.get(os.path.realpath(path))
        return (declared_format(text) if text is not None else file_format(path)) is not None

    def text(self, path: str) -> str:
        key = os.path.realpath(path)
        if key in self.texts:
            return self.texts[key]
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    def loader(self):
        """Card files as the editor shows them: an open document's text, else the file's
        (formats/loader.py); a new card not yet saved is one of its folder's files."""
        from raiders.formats.loader import Loader

        return Loader.of_texts(self.texts)

    def _base(self, name: str):
        from raiders.formats.rulesets import load_ruleset, resolve_ruleset_path

        if name not in self._bases:  # the built-in rulesets do not change while editing
            path = resolve_ruleset_path(name)  # a ruleset gone since: none, as one that fails
            self._bases[name] = load_ruleset(path)[0] if path is not None else None
        return self._bases[name]

    # -- checking
    def _unit(self, p: Path) -> _Unit:
        """What a card file (a real path) is checked with."""
        from raiders.formats.validate import owning_ruleset

        untitled = p.is_relative_to(self.scratch)  # nothing around it is read
        owner = None if untitled else owning_ruleset(p.parent)
        if owner is not None:
            return _Unit(owner, p.parent, "", False)
        folder = p.parent if untitled else _mod_root(p)
        return _Unit(None, folder, _mod_base(folder), untitled)

    def analyse(self, path: str) -> dict[str, list[Diagnostic]]:
        """The diagnostics of the unit a card file belongs to, by file (real path), with the
        open documents' text: `raiders validate`'s own (mod.yaml and all), from the mod's
        check kept between edits when the folder is one plain mod."""
        from raiders.formats.rulesets import load_ruleset
        from raiders.formats.validate import Report, validate_mod, validate_paths

        p = Path(path).resolve()
        loader = self.loader()
        unit = self._unit(p)
        out: dict[str, list[Diagnostic]] = {}
        if unit.owner is not None:
            diags = load_ruleset(unit.owner, loader=loader)[1]
        else:
            folder = unit.folder
            kept = self._mod_check(folder) if folder.is_dir() and not unit.untitled else None
            found = kept.check(loader) if kept is not None else None
            if found is not None:
                diags = found
            elif folder.is_dir():
                diags = validate_paths([str(folder)], loader=loader).diagnostics
            else:  # a new card in a folder not made yet: its buffers are the mod
                report = Report()
                validate_mod(report, loader.card_files(folder), unit.base, [folder], loader)
                diags = report.diagnostics
        for d in diags:
            out.setdefault(_real(d.span.path), []).append(d)
        return out

    def known(self, path: str) -> _Known:
        """The library hover, completion and definitions read, of the unit a card file belongs
        to: built when first asked for and kept until what it is built from changes (an edit
        of one of its files, a change on disk, mod.yaml), never per request. A plain mod's
        comes from its kept check (formats/incremental.py): on the base `validate` checks it
        on, its very library; on another (mod.yaml's `rulesets`), its kept parses indexed on
        that ruleset, nothing read or parsed again."""
        from raiders.formats.rulesets import load_ruleset, resolve_ruleset_path
        from raiders.formats.validate import check_mod

        p = Path(path).resolve()
        loader = self.loader()
        unit = self._unit(p)
        # what the library is built from, as it is now: the kept check's version (brought up
        # to date first: an edit not yet checked), else every edit the server was told of
        stamp: tuple = ("edits", self.edits)
        build: Callable[[], Optional[L.Library]]
        if unit.owner is not None:
            owner = unit.owner
            ruleset, mod_folder = str(owner), None

            def build():
                found = load_ruleset(owner, loader=loader)[0]
                return found.library if found is not None else None
        else:
            folder, base = unit.folder, self._base(unit.base)
            ruleset, mod_folder = str(resolve_ruleset_path(unit.base)), str(folder)
            kept = self._mod_check(folder) if folder.is_dir() and not unit.untitled else None
            mine = kept is not None and kept.check(loader) is not None and (
                str(p) in kept.files_real() or not p.name.endswith(CARD_SUFFIX))
            if kept is not None and mine:  # (a card file of the mod, or its mod.yaml)
                stamp = ("mod", id(kept), kept.version)
                if unit.base == VALIDATE_BASE:
                    def build():
                        return kept.lib  # the mod's own library: validate's, on the same base
                else:
                    def build():
                        return kept.library_on(base) if base is not None else None
            else:
                def build():
                    files = sorted({*loader.card_files(folder), p} if
                                   p.name.endswith(CARD_SUFFIX) else loader.card_files(folder))
                    return check_mod(base.library, files, loader)[2] if base is not None \
                        else None
        entry = self._derived.get(unit.key)
        if entry is None or entry.stamp != stamp:
            entry = self._derived[unit.key] = _Known(stamp, build(), ruleset, mod_folder)
        return entry

    def _mod_check(self, folder: Path):
        """The kept check of a mod folder (formats/incremental.py), made at its first use;
        on the base `validate` checks a lone mod folder on."""
        from raiders.formats.incremental import ModCheck

        key = str(folder)
        if key not in self._mods:
            base = self._base(VALIDATE_BASE)
            if base is None:
                return None
            self._mods[key] = ModCheck(folder, base)
        return self._mods[key]

    def changed_on_disk(self, paths: list[str]) -> None:
        """Files written outside the editor's buffers (a save, the editor's file watcher):
        every kept check reads them again."""
        self.edits += 1
        for kept in self._mods.values():
            kept.changed_on_disk(paths)

    def diagnostics(self, path: str) -> list[Diagnostic]:
        """What `raiders validate` reports in this file (card file or YAML); nothing for a
        file that is not raiders'."""
        if not self.claims(path):
            return []
        key = os.path.realpath(path)
        if not path.endswith(YAML_SUFFIXES):
            return _unique(self.analyse(path).get(key, []))
        from raiders.formats.yamlsrc import load_documents

        text = self.text(path)
        _, syntax = load_documents(text, path)
        if syntax:
            return syntax
        try:
            on_disk = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        if on_disk != text:
            return []  # checked in full when saved
        return [d for d in _validate_yaml(path) if os.path.realpath(d.span.path) == key]

    # -- what a word is
    def library(self, path: str) -> Optional[L.Library]:
        try:
            return self.known(path).library
        except Exception:  # a half-typed file must never take the server down
            return None

    def hover(self, path: str, line: int, char: int) -> Optional[str]:
        text = self.text(path)
        word = word_at(text, line, char, path) if self.claims(path) else None
        if word is None:
            return None
        lib = self.library(path)
        kind = field_at(text, path, line, char) if lib is not None else None
        if lib is not None and kind is not None:
            doc = field_doc(lib, kind, word)
            if doc is not None:
                return doc
        if lib is not None and (word in lib.cards or word in lib.kinds):
            return self._show(path, lib, word)
        return vocabulary_doc(word)

    def _show(self, path: str, lib: L.Library, name: str) -> str:
        """What `raiders show NAME` prints, as Markdown."""
        decl = lib.cards.get(name)
        kind = lib.kinds.get(name) if decl is None else None
        node = decl if decl is not None else kind.decl  # type: ignore[union-attr]
        source = lib.sources.get(node.span.path, "").splitlines()
        text = "\n".join(source[node.span.line - 1: node.span.end_line])
        out = [f"```raiders\n{text}\n```", f"*{L.display_path(node.span.path)}:{node.span.line}*"]
        if kind is not None:
            chain = " → ".join(k.name for k in reversed(kind.chain))
            params = "\n".join(f"- `{n}`: {p.type}" + ("" if p.default is None else
                                                          " (has a default)")
                               for n, p in kind.params.items())
            users = [cid for cid, d in lib.cards.items() if d.kind == name]
            out += [f"kind {chain}; parameters:\n\n{params}",
                    f"cards of this kind: {', '.join(users) or 'none'}"]
        else:
            out += self._words(path, name)
        return "\n\n".join(out)

    def _words(self, path: str, card: str) -> list[str]:
        """What `raiders show` says a card does, from the game's rules: compiled at the first
        hover of a card and kept with the library (`known`) until an edit."""
        from raiders.interpreter.runtime.describe import describe
        from raiders.interpreter.runtime.rules import load_rules_afresh

        known = self.known(path)
        if known.rules is None:
            mods = (known.mod_folder,) if known.mod_folder else ()
            try:
                # not the cached loader: the cards change as the modder types
                known.rules = load_rules_afresh(known.ruleset or "deluxe", None, mods,
                                                loader=self.loader(), items_only=True)
            except Exception:  # the cards do not check clean yet: the text alone
                known.rules = False
        if known.rules is False:
            return []
        try:
            return ["\n".join(describe(known.rules, card))]
        except Exception:  # a card the rules do not hold (one of another mod's): no words
            return []

    def definition(self, path: str, line: int, char: int) -> Optional[Span]:
        word = word_at(self.text(path), line, char, path) if self.claims(path) else None
        lib = self.library(path) if word is not None else None
        if word is None or lib is None:
            return None
        if word in lib.kinds:
            return lib.kinds[word].decl.name_span
        if word in lib.cards:
            return lib.cards[word].id_span
        return None

    def completions(self, path: str, line: int, char: int) -> list[tuple[str, str, str]]:
        """(label, what it is, detail) for every word that may stand here."""
        if not self.claims(path):
            return []
        text = self.text(path)
        lines = text.splitlines()
        before = lines[line][:char] if line < len(lines) else ""
        prev = re.findall(r"[a-z_][a-z0-9_-]*", before)
        prev_word = prev[-2] if before and not before[-1:].isspace() and len(prev) > 1 else \
            (prev[-1] if prev and before[-1:].isspace() else None)
        lib = self.library(path)
        events = [(e, "event", ev.doc) for e, ev in V.EVENTS.items()]
        if prev_word in ("after", "of") and "modify" not in prev:
            return events
        out: list[tuple[str, str, str]] = []
        kind = card_body_at(text, line, char)  # only the card's own kind's fields
        if kind is not None and lib is not None and kind in lib.kinds:
            out += [(n, "field", field_doc(lib, kind, n) or "") for n in fields_of(lib, kind)]
        from raiders.dsl.highlight import grammar_keywords

        out += [(k, "keyword", "") for k in grammar_keywords()]
        out += events
        out += [(s, "selector", d.doc) for s, d in V.SELECTORS.items()]
        out += [(s, "thing", f"{d.sort}: {d.doc}") for s, d in V.PLACES.items()]
        out += [(s, "function", d) for s, (_, d) in V.SELECTORS_OF.items()]
        out += [(a, "atom", d.doc) for a, d in V.ATOMS.items()]
        out += [(f, "function", fn.doc) for f, fn in V.FUNCTIONS.items()]
        out += [(t, "type", d) for t, d in V.PARAM_TYPES.items()]
        out += [(a, "ability", d) for a, d in V.ABILITIES.items()]
        if lib is not None:
            out += [(k, "kind", f"kind ({info.role})") for k, info in lib.kinds.items()]
            out += [(c, "item" if lib.role_of(c) == "item" else "card", d.kind)
                    for c, d in lib.cards.items()]
        seen: set[str] = set()
        return [c for c in out if not (c[0] in seen or seen.add(c[0]))]  # type: ignore[func-returns-value]

    def symbols(self, path: str) -> list[tuple[str, str, Span, Span, list[tuple[str, Span]]]]:
        """(name, what, whole span, name span, [(field or parameter, span)]) per declaration."""
        if not self.claims(path):
            return []
        module, _ = parse(self.text(path), path)
        if module is None:
            return []
        out = []
        for d in module.decls:
            if isinstance(d, ast.KindDecl):
                kids = [(p.name, p.span) for p in d.params]
                out.append((d.name, "kind", d.span, d.name_span, kids))
            elif isinstance(d, ast.CardDecl):
                kids = [(m.name, m.span) for m in d.members if isinstance(m, ast.Field)]
                out.append((d.id, d.kind, d.span, d.id_span, kids))
            elif isinstance(d, ast.ExtendDecl):
                out.append((f"extend {d.kind}", "extend", d.span, d.kind_span, []))
        return out


@functools.lru_cache(maxsize=65536)
def _real(path: str) -> str:
    """A diagnostic's file by its real path (a mod's thousands of warnings name few files)."""
    return os.path.realpath(path)


def _unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Each problem once, in the order of the file: the same whichever way it was checked."""
    seen: dict[tuple, Diagnostic] = {}
    for d in diags:
        s = d.span
        seen.setdefault((_real(s.path), s.line, s.col, d.code, d.message), d)
    return sorted(seen.values(), key=lambda d: (d.span.line, d.span.col, d.span.end_line,
                                                d.span.end_col, d.code, d.message))


def _validate_yaml(path: str) -> list[Diagnostic]:
    """`raiders validate PATH` for a YAML file, from the disk."""
    from raiders.formats.validate import validate_paths
    from raiders.interpreter.records.documents import check_document, split_documents

    cards, other = split_documents((path,))
    diags: list[Diagnostic] = []
    if cards:
        diags += validate_paths(cards).diagnostics
    for p, kind in other:
        diags += check_document(p, kind)
    return diags


_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[{}]|' + NAME_RE.pattern)


def card_body_at(text: str, line: int, char: int) -> Optional[str]:
    """The kind of the card whose body holds the position directly (not inside one of its
    rules' blocks), read from the text (it may not parse): None elsewhere."""
    lines = text.split("\n")
    before = "\n".join([*lines[:line], lines[line][:char] if line < len(lines) else ""])
    open_: list[list[str]] = []  # the words before each open brace
    words: list[str] = []
    for m in _TOKENS.finditer(before):
        tok = m.group(0)
        if tok == "{":
            open_.append(words)
            words = []
        elif tok == "}":
            if open_:
                open_.pop()
            words = []
        elif tok[0] not in "\"#":
            words.append(tok)
    if len(open_) != 1 or len(open_[0]) < 2 or open_[0][-2] in ("kind", "extend"):
        return None
    return open_[0][-2]  # `KIND ID {`


def field_at(text: str, path: str, line: int, char: int) -> Optional[str]:
    """The kind of the card whose field's name is at the position (line and character from
    0), or None: where the parser puts each field (the card's declaration parsed alone, so
    a half-typed card elsewhere in the file does not matter). A declaration that does not
    parse yet is read from its text: a name that starts a member on its line."""
    decl = declaration_at(text, path, line + 1, char + 1)
    if decl is not None:
        if isinstance(decl, ast.CardDecl) and any(
                isinstance(m, ast.Field) and m.span.line == line + 1
                and m.span.col <= char + 1 <= m.span.col + len(m.name) for m in decl.members):
            return decl.kind
        return None
    word = word_at(text, line, char, path)
    kind = card_body_at(text, line, char)
    return kind if kind is not None and word is not None and _leads_member(text, line, word) \
        else None


def _leads_member(text: str, line: int, word: str) -> bool:
    """Whether `word` starts a member on its line (`strength 12 / 16`, `{ chest 2`): where a
    field's name stands in text that does not parse."""
    lines = text.splitlines()
    row = lines[line] if line < len(lines) else ""
    return re.search(r"(^|[{;])\s*" + re.escape(word) + r"\b", row) is not None


def fields_of(lib: L.Library, kind: str) -> list[str]:
    """The fields a card of `kind` may give: its kind's parameters (room shape included)
    and the fields every card has."""
    return [*lib.kinds[kind].params, *V.COMMON_FIELDS]


def field_doc(lib: L.Library, kind: str, name: str) -> Optional[str]:
    """What a field of a card of `kind` means, from where it is declared: the parameter
    in its kind's declaration (with the comment above that kind in its card file), the
    room shape in the vocabulary the checker reads, the type's words from the vocabulary."""
    info = lib.kinds.get(kind)
    if info is None:
        return None
    if name not in info.params:
        if name in V.COMMON_FIELDS:
            t = V.COMMON_FIELDS[name]
            return f"`{name}` ({t}, a field of every card): {V.PARAM_TYPES.get(t, t)}"
        return None
    p = info.params[name]
    head = f"`{name}`: {p.type} — {V.PARAM_TYPES.get(p.type, p.type)}"
    if name in V.ROOM_SHAPE:
        _, shape_default, doc = V.ROOM_SHAPE[name]
        return f"{head}\n\n{doc} (a field of every room, default {shape_default})"
    owner = next((k for k in reversed(info.chain) if any(q is p.decl for q in k.params)),
                 info.chain[0])
    default = "required" if p.default is None else "has a default"
    out = [head, f"a parameter of kind `{owner.name}` ({default}), "
           f"*{L.display_path(owner.span.path)}:{owner.span.line}*"]
    said = _comment_above(lib.sources.get(owner.span.path, ""), owner.span.line)
    if said:
        out.append(said)
    return "\n\n".join(out)


def _comment_above(source: str, line: int) -> str:
    """The `#` comment lines just above a declaration, as text: what its file says of it."""
    lines = source.splitlines()[: line - 1]
    said: list[str] = []
    while lines and lines[-1].lstrip().startswith("#"):
        said.insert(0, lines.pop().lstrip()[1:].strip())
    return " ".join(said)


def word_at(text: str, line: int, char: int, path: str = "") -> Optional[str]:
    """The word at a position (line and character from 0; just after its end counts): in a
    card file, a token of the language wherever it is on its line (none in a comment or a
    string); in YAML, a name."""
    if path.endswith(CARD_SUFFIX):
        for tok in tokens(text):
            if tok.line == line + 1 and located(tok.column) <= char + 1 <= located(tok.end_column) \
                    and NAME_RE.fullmatch(tok):
                return str(tok)
        return None
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for m in NAME_RE.finditer(lines[line]):
        if m.start() <= char <= m.end():
            return m.group(0)
    return None


def vocabulary_doc(word: str) -> Optional[str]:
    for table, what in ((V.SELECTORS, "selector"), (V.ATOMS, "atom"),
                        (V.PARAM_TYPES, "parameter type"), (V.ABILITIES, "item ability")):
        if word in table:
            entry = table[word]
            return f"`{word}` ({what}): {getattr(entry, 'doc', entry)}"
    if word in V.FUNCTIONS:
        fn = V.FUNCTIONS[word]
        return f"`{word}({', '.join(fn.params)})` (function): {fn.doc}"
    if word in V.SELECTORS_OF:
        arg, doc = V.SELECTORS_OF[word]
        return f"`{word}({arg})` (selector): {doc}"
    if word in V.EVENTS:
        return f"`{word}` (event): {V.EVENTS[word].doc}; a handler is about {V.EVENTS[word].about}"
    if word in V.PLACES:
        place = V.PLACES[word]
        return (f"`{word}` (a {place.sort}, a thing cards name): {place.doc}; it takes "
                + ", ".join(f"`{w}`" for w in sorted(V.PLACE_EFFECTS[place.sort])))
    if word in V.ROOM_SHAPE:
        t, default, doc = V.ROOM_SHAPE[word]
        return f"`{word}` ({t} field of every room, default {default}): {doc}"
    return None


# ---- the protocol ------------------------------------------------------------------------------


def _utf16(line_text: str, col: int) -> int:
    """A 1-based column in characters → an LSP character offset (UTF-16 code units)."""
    prefix = line_text[: max(0, col - 1)]
    return len(prefix.encode("utf-16-le", "surrogatepass")) // 2  # a lone surrogate is a unit


def _from_utf16(line_text: str, units: int) -> int:
    count = 0
    for i, ch in enumerate(line_text):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line_text)


def serve() -> None:  # pragma: no cover - run by the end-to-end test in a subprocess
    build_server().start_io()


def build_server():
    from lsprotocol import types as T
    from pygls.uris import from_fs_path

    from raiders.dsl.fmt import FormatError, format_text

    from .lspwire import RaidersServer

    server = RaidersServer("raiders", _version(),
                           text_document_sync_kind=T.TextDocumentSyncKind.Full)
    ws = Workspace()
    said: dict[str, list[Diagnostic]] = {}  # document -> the diagnostics last published
    untitled: dict[str, str] = {}  # uri of an open `untitled:` document -> its path

    def to_fs_path(uri: str) -> Optional[str]:
        """The file a document's uri names, or the path an open `untitled:` document is
        checked under (Workspace.untitled_path); None for anything else (a NUL)."""
        from pygls.uris import to_fs_path as path_of

        if uri in untitled:
            return untitled[uri]
        path = path_of(uri)
        return path if path and "\x00" not in path else None

    def lines_of(path: str) -> list[str]:
        return ws.text(path).splitlines() or [""]

    def rng(span: Span, lines: list[str]) -> Any:
        def pos(line: int, col: int):
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            return T.Position(line=max(0, line - 1), character=_utf16(text, col))

        return T.Range(start=pos(span.line, span.col), end=pos(span.end_line, span.end_col))

    def publish(uri: str, version: Optional[int] = None) -> None:
        """A document's diagnostics (run by the server once no message is waiting), and those
        of the other open card files whose diagnostics the edit changed (a card naming an id
        the edited file no longer defines)."""
        publish_one(uri, version)
        for other in sorted(said):
            if other != uri and other.endswith(".dsl"):
                publish_one(other, None, only_if_changed=True)

    def publish_one(uri: str, version: Optional[int], only_if_changed: bool = False) -> None:
        path = to_fs_path(uri)
        if path is None:
            return
        if not ws.claims(path):  # not raiders': nothing to say, or no longer anything
            if said.pop(uri, None) is not None:
                server.text_document_publish_diagnostics(
                    T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
            return
        try:
            diags = ws.diagnostics(path)
        except Exception as err:  # noqa: BLE001 - say so in the editor, never crash
            server.window_log_message(T.LogMessageParams(
                type=T.MessageType.Error, message=f"raiders: checking failed: {err!r}"))
            return
        if only_if_changed and said.get(uri) == diags:
            return
        lines = lines_of(path)
        out = []
        for d in diags:
            message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
            out.append(T.Diagnostic(
                range=rng(d.span, lines), message=message, code=d.code, source="raiders",
                severity=T.DiagnosticSeverity.Error if d.severity == "error"
                else T.DiagnosticSeverity.Warning,
                data={"hint": d.hint} if d.hint else None))
        said[uri] = diags
        server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=out, version=version))

    server.checker = publish

    def path_pos(params) -> tuple[str, int, int]:
        path = to_fs_path(params.text_document.uri) or ""
        lines = lines_of(path)
        line = params.position.line
        text = lines[line] if line < len(lines) else ""
        return path, line, _from_utf16(text, params.position.character)

    # An edit only records the text: the check waits until no message is waiting, so a
    # burst of edits is checked once, at its last version (lspwire.RaidersServer).
    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        if doc.uri.startswith("untitled:") and "\x00" not in doc.uri:
            untitled[doc.uri] = ws.untitled_path(doc.uri, doc.language_id)
        path = to_fs_path(doc.uri)
        if path:
            ws.open(path, doc.text)
            server.check_later(doc.uri, doc.version)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams) -> None:
        doc = params.text_document
        path = to_fs_path(doc.uri)
        if path and params.content_changes:
            ws.open(path, getattr(params.content_changes[-1], "text", ""))
            server.check_later(doc.uri, doc.version)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: T.DidSaveTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri)
        if path:
            ws.changed_on_disk([path])
        server.check_later(params.text_document.uri)

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls, params: T.DidChangeWatchedFilesParams) -> None:
        """Files changed outside the editor's buffers (a `git checkout`): the kept checks
        read them again, and the open documents are checked again."""
        ws.changed_on_disk([p for p in (to_fs_path(c.uri) for c in params.changes) if p])
        for uri in sorted(said):
            server.check_later(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: T.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = to_fs_path(uri)
        if path:
            ws.close(path)
        untitled.pop(uri, None)
        server.forget(uri)
        if said.pop(uri, None) is not None:
            server.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: T.HoverParams) -> Optional[T.Hover]:
        text = ws.hover(*path_pos(params))
        if text is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))

    kinds = {"field": T.CompletionItemKind.Field, "keyword": T.CompletionItemKind.Keyword,
             "event": T.CompletionItemKind.Event, "selector": T.CompletionItemKind.Variable,
             "atom": T.CompletionItemKind.Constant, "function": T.CompletionItemKind.Function,
             "type": T.CompletionItemKind.TypeParameter, "kind": T.CompletionItemKind.Class,
             "item": T.CompletionItemKind.Reference, "card": T.CompletionItemKind.Value,
             "ability": T.CompletionItemKind.EnumMember, "thing": T.CompletionItemKind.Variable}

    @server.feature(T.TEXT_DOCUMENT_COMPLETION,
                    T.CompletionOptions(trigger_characters=[" ", "(", ":"]))
    def completion(ls, params: T.CompletionParams) -> T.CompletionList:
        items = [T.CompletionItem(label=label, kind=kinds.get(what), detail=what,
                                  documentation=doc or None, sort_text=f"{i:04d}")
                 for i, (label, what, doc) in enumerate(ws.completions(*path_pos(params)))]
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params: T.DefinitionParams) -> Optional[T.Location]:
        span = ws.definition(*path_pos(params))
        if span is None:
            return None
        return T.Location(uri=from_fs_path(span.path), range=rng(span, lines_of(span.path)))

    sym_kinds = {"kind": T.SymbolKind.Class, "extend": T.SymbolKind.Namespace}

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        path = to_fs_path(params.text_document.uri) or ""
        lines = lines_of(path)
        out = []
        for name, what, span, name_span, kids in ws.symbols(path):
            children = [T.DocumentSymbol(name=n, kind=T.SymbolKind.Field, range=rng(s, lines),
                                         selection_range=rng(s, lines)) for n, s in kids]
            out.append(T.DocumentSymbol(name=name, detail=what,
                                        kind=sym_kinds.get(what, T.SymbolKind.Object),
                                        range=rng(span, lines),
                                        selection_range=rng(name_span, lines),
                                        children=children))
        return out

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    def code_action(ls, params: T.CodeActionParams) -> list[T.CodeAction]:
        path = to_fs_path(params.text_document.uri) or ""
        if not ws.claims(path):
            return []
        lines = lines_of(path)
        out = []
        for diag in params.context.diagnostics:
            hint = (diag.data or {}).get("hint") if isinstance(diag.data, dict) else None
            m = DID_YOU_MEAN.search(hint or diag.message)
            if not m:
                continue
            r = diag.range
            line = lines[r.start.line] if r.start.line < len(lines) else ""
            old = line[_from_utf16(line, r.start.character):_from_utf16(line, r.end.character)]
            if r.start.line != r.end.line or not NAME_RE.fullmatch(old) or old == m.group(1):
                continue  # only a misspelt word is replaced
            edit = T.WorkspaceEdit(changes={params.text_document.uri: [
                T.TextEdit(range=r, new_text=m.group(1))]})
            out.append(T.CodeAction(title=f"Replace `{old}` with `{m.group(1)}`",
                                    kind=T.CodeActionKind.QuickFix, diagnostics=[diag],
                                    edit=edit, is_preferred=True))
        return out

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls, params: T.DocumentFormattingParams) -> Optional[list[T.TextEdit]]:
        path = to_fs_path(params.text_document.uri) or ""
        if not path.endswith(".dsl"):  # only card files have raiders' layout
            return None
        text = ws.text(path)
        try:
            out, _ = format_text(text, path)
        except FormatError:
            return None
        if out is None or out == text:
            return []
        lines = text.split("\n")
        end = T.Position(line=len(lines) - 1, character=_utf16(lines[-1], len(lines[-1]) + 1))
        return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end),
                           new_text=out)]

    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("raiders")
    except PackageNotFoundError:
        return "0"
