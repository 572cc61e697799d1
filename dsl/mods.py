"""Mod folders: card files plus an optional `mod.yaml` saying what joins a game's pool.

    deck: {shrine-of-ash: 2}     # room cards and copies added to the deck
    bosses: [gorgon]             # room cards added to the bosses

Without mod.yaml, every new room card of the folder joins the deck once.
"""
from __future__ import annotations

from pathlib import Path

from . import yamlsrc as Y
from .diagnostics import Diagnostic, did_you_mean
from .library import Library
from .rulesets import MAX_COPIES
from .safeio import leads_out, link_out
from .spans import Span

MOD_FILE = "mod.yaml"


def mod_manifest(folder: Path, lib: Library) -> tuple[dict[str, int], list[str], list[Diagnostic]]:
    """A mod's deck additions and bosses, checked against the library it joins."""
    manifest = folder / MOD_FILE
    if not manifest.is_file():
        ids = [cid for cid in lib.cards
               if Path(lib.cards[cid].span.path).resolve().is_relative_to(folder.resolve())
               and lib.role_of(cid) == "room"]
        return {cid: 1 for cid in ids}, [], []
    path = str(manifest)
    if leads_out(manifest, folder):
        return {}, [], [link_out(manifest, folder)]
    _, docs, diags = Y.load_file(path)
    if diags:
        return {}, [], diags
    doc = docs[0] if docs else None
    if doc is None:
        return {}, [], []  # an empty mod.yaml adds nothing
    if not Y.is_map(doc):
        return {}, [], [Diagnostic(Y.node_span(path, doc), "E503",
                                   "mod.yaml is a map: {deck: {id: copies}, bosses: [ids]}")]
    problems: list[Diagnostic] = []
    deck: dict[str, int] = {}
    bosses: list[str] = []
    facing = [None]  # `boss_facing: up|down`: the boss room's facing, whatever the layout
    rooms = [c for c in lib.cards if lib.role_of(c) == "room"]

    def known(cid, where: Span) -> bool:
        if lib.role_of(str(cid)) == "room":
            return True
        what = "not a room card" if str(cid) in lib.cards else "not a card of this mod or its base"
        problems.append(Diagnostic(where, "E502", f"mod.yaml names `{cid}`, which is {what}",
                                   did_you_mean(str(cid), rooms)))
        return False

    for key in doc:
        value = doc[key]
        if key == "deck" and Y.is_map(value):
            for cid, n in value.items():
                where = Y.key_span(path, value, cid)
                if not Y.is_int(n) or not 0 <= n <= MAX_COPIES:
                    problems.append(Diagnostic(Y.value_span(path, value, cid), "E503",
                                               f"copies of `{cid}` must be a whole number "
                                               f"0..{MAX_COPIES}"))
                elif known(cid, where):
                    deck[str(cid)] = n
        elif key == "boss_facing" and value in ("up", "down"):
            facing[0] = str(value)
        elif key == "bosses" and Y.is_seq(value):
            for i, cid in enumerate(value):
                if known(cid, Y.value_span(path, value, i)):
                    bosses.append(str(cid))
        else:
            problems.append(Diagnostic(Y.key_span(path, doc, key), "E504",
                                       f"unknown or malformed mod field `{key}`",
                                       "mod.yaml holds `deck: {id: copies}`, `bosses: [ids]` "
                                       "and `boss_facing: up|down`"))
    if facing[0] is not None:
        bosses = [f"{b}@{facing[0]}" for b in bosses]
    return deck, bosses, problems
