"""`raiders diff OLD NEW`: what changed between two versions of a mod, as a Markdown review
(which cards changed, their words before and after, the manifest's changes, and the simulated
figures of both versions on the same seeds).

A side is a folder, or `REV:PATH`: the mod's files at a git revision, read with `git show`
into a temporary folder (nothing of the revision is executed: card files and YAML are read
as data, like any mod)."""
from __future__ import annotations

import difflib
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

import attrs

from raiders.dsl import ast
from raiders.dsl.library import display_path
from raiders.interpreter.runtime.describe import describe, plurals
from raiders.interpreter.runtime.rules import Rules

# What a mod folder holds that the diff reads; everything else at the revision is left alone.
_SUFFIXES = (".dsl", ".yaml", ".yml")
_MAX_FILES = 2000  # a revision's folder is a mod, not a whole repository


class DiffError(Exception):
    """A side that cannot be read (not a folder, not a revision git knows)."""


@attrs.frozen
class Side:
    label: str  # as the user gave it
    folder: str  # where its files are now (a temporary copy for a revision)


def _git(args: list[str], cwd: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise DiffError(f"cannot run git: {err}") from None
    if done.returncode != 0:
        msg = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DiffError(f"git {' '.join(args[:2])}: {msg[-1] if msg else 'failed'}")
    return done.stdout


def materialize(spec: str, scratch: str) -> Side:
    """A side of the diff as a folder: the folder itself, or `REV:PATH` copied out of git."""
    if Path(spec).is_dir():
        return Side(spec, spec)
    rev, sep, path = spec.partition(":")
    if not sep or not rev:
        raise DiffError(f"`{spec}` is neither a folder nor REV:PATH (a git revision of a mod "
                        "folder, e.g. HEAD~1:examples/mods/gorgon)")
    if rev.startswith("-"):  # git would read it as an option (`--output=FILE` writes a file)
        raise DiffError(f"`{rev}` in `{spec}` is not a revision: it starts with `-`")
    path = path or "."
    cwd = os.getcwd()
    # --end-of-options: whatever REV says, git reads it as a revision, never as an option
    names = _git(["ls-tree", "-r", "-z", "--name-only", "--end-of-options", rev, "--", path],
                 cwd)
    files = [n for n in names.decode("utf-8", "replace").split("\0") if n.endswith(_SUFFIXES)]
    if not files:
        raise DiffError(f"no card files or mod.yaml at {spec}")
    if len(files) > _MAX_FILES:
        raise DiffError(f"{spec} holds {len(files)} files: name a mod's folder")
    out = Path(tempfile.mkdtemp(prefix="side-", dir=scratch)) / (Path(path).name or "mod")
    base = Path(os.path.normpath(path))
    for name in files:
        rel = Path(os.path.normpath(name))
        try:
            inside = rel.relative_to(base) if str(base) != "." else rel
        except ValueError:
            continue
        if ".." in inside.parts or inside.is_absolute():
            continue  # ls-tree names paths below PATH; anything else is not copied
        target = out / inside
        target.parent.mkdir(parents=True, exist_ok=True)
        # `REV:./name`: the path relative to the current folder, as ls-tree printed it
        target.write_bytes(_git(["show", "--end-of-options", f"{rev}:./{name}"], cwd))
    return Side(spec, str(out))


@attrs.define
class CardChange:
    id: str
    status: str  # "added" | "removed" | "changed"
    before: list[str] = attrs.Factory(list)  # `show`'s words
    after: list[str] = attrs.Factory(list)
    source_diff: list[str] = attrs.Factory(list)


def _own(folder: str, rules: Rules) -> dict[str, str]:
    """The mod's own cards and kinds: id -> their source text."""
    root = Path(folder).resolve()
    lib = rules.library
    out: dict[str, str] = {}
    decls: list[tuple[str, ast.CardDecl | ast.KindDecl]] = list(lib.cards.items())
    decls += [(f"kind {name}", k.decl) for name, k in lib.kinds.items()]
    for key, decl in decls:
        path = Path(decl.span.path).resolve()
        if not path.is_relative_to(root):
            continue
        lines = lib.sources[decl.span.path].splitlines()[decl.span.line - 1:decl.span.end_line]
        out[key] = "\n".join(lines)
    return out


def _same(a: str, b: str) -> bool:
    """Equal but for layout: whitespace is not a change a reviewer needs to see."""
    return a.split() == b.split()


def card_changes(old: Side, new: Side, old_rules: Rules, new_rules: Rules) -> list[CardChange]:
    before, after = _own(old.folder, old_rules), _own(new.folder, new_rules)
    out = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a is not None and b is not None and _same(a, b):
            continue
        status = "added" if a is None else "removed" if b is None else "changed"
        change = CardChange(key, status)
        if not key.startswith("kind "):
            if a is not None:
                change.before = [plurals(w) for w in describe(old_rules, key)]
            if b is not None:
                change.after = [plurals(w) for w in describe(new_rules, key)]
        change.source_diff = list(difflib.unified_diff(
            (a or "").splitlines(), (b or "").splitlines(), "old", "new", lineterm="", n=2))[2:]
        out.append(change)
    return out


def manifest_changes(old: Rules, new: Rules, old_folder: Optional[str] = None,
                     new_folder: Optional[str] = None) -> list[str]:
    """What joins a game, old against new: the deck, the bosses, the supply, the pool, and the
    rulesets the mod says it is for (read from the two folders' mod.yaml)."""
    lines = []
    if old_folder is not None and new_folder is not None:
        from pathlib import Path

        from raiders.formats.mods import mod_rulesets

        a, b = mod_rulesets(Path(old_folder)), mod_rulesets(Path(new_folder))
        if a != b:
            lines.append(f"rulesets: {', '.join(a) if a else 'any'} → "
                         f"{', '.join(b) if b else 'any'}")
    for what, was, now in (("deck", old.deck, new.deck), ("supply", old.supply, new.supply)):
        for cid in sorted(set(was) | set(now)):
            if was.get(cid, 0) != now.get(cid, 0):
                lines.append(f"{what}: `{cid}` {was.get(cid, 0)} → {now.get(cid, 0)} "
                             f"{'copy' if now.get(cid, 0) == 1 else 'copies'}")
    for what, a, b in (("bosses", old.bosses, new.bosses), ("characters", old.pool, new.pool)):
        for cid in sorted(set(b) - set(a)):
            lines.append(f"{what}: `{cid}` added")
        for cid in sorted(set(a) - set(b)):
            lines.append(f"{what}: `{cid}` removed")
    if old.boss_facing != new.boss_facing:
        lines.append(f"boss_facing: {old.boss_facing or 'as the layout'} → "
                     f"{new.boss_facing or 'as the layout'}")
    return lines


def figure_rows(tally, changed: set[str]) -> list[tuple[str, str, str, str]]:
    """(figure, old, new, difference) for the figures a reviewer reads: the game's totals,
    wins by character, the changed cards' effects, and any figure that moved beyond chance."""
    from .simulate import _cell, _diff_cell, _kind

    figs = [tally.figures(0), tally.figures(1)]
    diffs = tally.differences()
    rows = []
    for key in sorted(set(figs[0]) | set(figs[1])):
        d = diffs.get(key)
        card = key.split(".")[1] if key.startswith("card.") else None
        wanted = (key in ("coins", "wounds", "no_winner") or key.startswith("win.character.")
                  or key.startswith("out.") or card in changed
                  or (d is not None and d.value is not None and d.resolved))
        if not wanted or key.startswith("win.seat.") and not (d and d.resolved):
            continue
        pct = _kind(key)[0] == "rate"
        rows.append((key, _cell(figs[0].get(key), pct).strip(), _cell(figs[1].get(key),
                     pct).strip(), _diff_cell(d, pct).strip()))
    return rows


def markdown(old: Side, new: Side, changes: list[CardChange], manifest: list[str],
             rows: Optional[list[tuple[str, str, str, str]]], setup: str) -> str:
    """The review, in Markdown a pull request shows as written."""
    out = [f"## raiders diff: `{old.label}` → `{new.label}`", ""]
    if not changes and not manifest:
        out += ["No card and nothing in `mod.yaml` changed (layout and comments aside).", ""]
    if changes:
        out += ["| card | change |", "| --- | --- |"]
        out += [f"| `{c.id}` | {c.status} |" for c in changes]
        out.append("")
    for c in changes:
        out += [f"### `{c.id}` ({c.status})", ""]
        if c.before or c.after:
            for title, words in (("Before", c.before), ("After", c.after)):
                if words:
                    out += [f"{title}:", "", "```text", *words, "```", ""]
        if c.source_diff:
            out += ["Card text:", "", "```diff", *c.source_diff, "```", ""]
    if manifest:
        out += ["### What joins a game (`mod.yaml`)", ""]
        out += [f"- {line}" for line in manifest]
        out.append("")
    if rows is not None:
        out += ["### Simulated figures", "", setup, ""]
        out += ["| figure | old | new | difference |", "| --- | --- | --- | --- |"]
        out += [f"| {k} | {a} | {b} | {d} |" for k, a, b, d in rows]
        out += ["", "95% intervals in brackets; `*`: the difference's interval excludes zero "
                "(the same seeds on both sides, so the difference is paired). The figures are "
                # not a link: relative, it would be dead in the mod's own repository, where
                # this comment is posted; raiders has no address of its own to link to
                "explained in raiders' `docs/simulate.md` (and `raiders simulate --help`)."]
    return "\n".join(out) + "\n"


def shown(side: Side) -> str:
    return side.label if side.label != side.folder else display_path(side.folder)
