"""What goes on each printed card (`raiders print`): the cards a path names, and for each one
its face as data: name, kind, numbers, and its rules in the plain words `raiders show` prints
(interpreter/runtime/describe.py). No drawing here: interpreter/tools/cardsheet.py lays the
faces out on sheets.

A path is a built-in ruleset (`deluxe`), a ruleset file or a folder holding one (every card of
the ruleset), a folder of rulesets (`cards/`: each of them), a mod folder or a card file in one
(the mod's own cards, loaded on the ruleset the mod is written for), or a folder of mods (each
mod's cards).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import attrs

from raiders.formats.mods import is_mod_collection, mod_name, mod_rulesets
from raiders.formats.rulesets import (
    RULESET_FILE,
    builtin_dir,
    builtin_ids,
    resolve_ruleset_path,
)
from raiders.interpreter.runtime.compiled import CompiledRoom
from raiders.interpreter.runtime.describe import compiled, describe
from raiders.interpreter.runtime.rules import Rules, load_rules

# `strength: 14/18/23 for 3..5 players.`: a number per player count, as the compiler words it
_PER_PLAYERS = re.compile(r"^(\d+(?:/\d+)*) for (\d+)\.\.(\d+) players$")
_NUMBER = re.compile(r"^-?\d+$")
_PARAM_LINE = re.compile(r"^(\w+): (.*)\.$")
# where a table's rows start in the words (`by the highest value played: 5 → …; 4 → …`)
_TABLE_ROW = re.compile(r"(?:: |; )(?=-?\d+ → )")


@attrs.frozen
class Face:
    """One card face, ready to lay out."""

    card_id: str
    name: str
    kind_line: str  # `boss → monster room`, `item`, `character`
    family: str  # the root of the card's kind chain: cards of a family share a frame colour
    family_index: int  # the family's place among the library's root kinds: its colour
    depth: int  # how far the card's kind is below its family's root (a boss of a monster: 1)
    per_players: tuple[tuple[str, tuple[tuple[int, str], ...]], ...]  # (name, ((3, "14"), …))
    badges: tuple[tuple[str, str], ...]  # (label, number): wounds, chests, coins, supply
    layout: str  # a floor card's faces left to right (U/D); "" for other cards
    words: tuple[str, ...]  # the rules in plain words, one paragraph each
    footer: str  # where the card comes from and how many copies a game has
    copies: int = 1  # faces to print with --copies: the deck's or the supply's count


@attrs.frozen
class Source:
    """The cards one path names, with the rules they were loaded with."""

    label: str  # the ruleset's or the mod's name
    rules: Rules
    card_ids: tuple[str, ...]


class PathError(ValueError):
    """A path that names no ruleset, mod or card file."""


def sources(paths: tuple[str, ...], ruleset: Optional[str],
            variant: Optional[str]) -> list[Source]:
    """The cards each path names, in the order given. `ruleset`: the base for mods that do not
    say which ruleset they are for (else `deluxe`). Raises PathError, Problems."""
    found: list[Source] = []
    for raw in paths:
        found.extend(_path_sources(raw, ruleset, variant))
    return found


def _path_sources(raw: str, ruleset: Optional[str], variant: Optional[str]) -> list[Source]:
    path = Path(raw)
    if raw in builtin_ids() and not path.exists():
        return [_ruleset_source(raw, variant)]
    if not path.exists():
        raise PathError(f"{raw}: no such file or folder, nor a built-in ruleset "
                        f"({', '.join(builtin_ids())})")
    if path.is_file() and path.suffix != ".dsl" and path.name != RULESET_FILE:
        raise PathError(f"{raw}: not a card file (*.dsl), a {RULESET_FILE} or a folder")
    if path.name == RULESET_FILE or (path.is_dir() and (path / RULESET_FILE).is_file()):
        return [_ruleset_source(str(path), variant)]
    if path.is_dir() and is_mod_collection(path):
        return [_mod_source(sub, ruleset, variant, None) for sub in sorted(path.iterdir())
                if sub.is_dir() and not sub.is_symlink() and (sub / "mod.yaml").is_file()]
    if path.is_dir():
        below = sorted(path.glob(f"*/{RULESET_FILE}"))
        if below and not any(path.glob("*.dsl")):  # a folder of rulesets (`cards/`)
            return [_ruleset_source(str(rf.parent), variant) for rf in below]
    owner = _owning_ruleset(path, variant)
    if owner is not None:  # a ruleset's own card file or folder (`cards/deluxe/bosses.dsl`)
        root = path.resolve()
        return [Source(owner.ruleset.name, owner, tuple(
            cid for cid, decl in owner.library.cards.items()
            if _inside(Path(decl.span.path).resolve(), root)))]
    if path.is_dir():
        return [_mod_source(path, ruleset, variant, None)]
    return [_mod_source(path.parent, ruleset, variant, path)]


def _owning_ruleset(path: Path, variant: Optional[str]) -> Optional[Rules]:
    """The ruleset whose cards a file or folder is, if any: a built-in one for a file among
    the built-in cards (`cards/common/monsters.dsl`), else one whose ruleset.yaml sits in the
    folder or a folder above it (up to three) and reads it. No other folder is looked into."""
    root = path.resolve()
    builtin = builtin_dir().resolve()
    if _inside(root, builtin):
        candidates = [builtin_dir() / name / RULESET_FILE for name in builtin_ids()]
    else:
        folders = [root if root.is_dir() else root.parent, *list(root.parents)[:3]]
        candidates = [f / RULESET_FILE for f in folders if (f / RULESET_FILE).is_file()]
    for rf in candidates:
        rules = load_rules(str(rf), variant, ())
        if any(_inside(Path(f).resolve(), root) for f in rules.library.sources):
            return rules
    return None


def _ruleset_source(name: str, variant: Optional[str]) -> Source:
    if resolve_ruleset_path(name) is None:
        raise PathError(f"{name}: no {RULESET_FILE} there")
    rules = load_rules(name, variant, ())
    return Source(rules.ruleset.name, rules, tuple(rules.library.cards))


def _mod_source(folder: Path, ruleset: Optional[str], variant: Optional[str],
                only: Optional[Path]) -> Source:
    """A mod's own cards (or one card file's), on the ruleset it is written for."""
    wants = mod_rulesets(folder)
    base = ruleset or (wants[0] if wants else "deluxe")
    rules = load_rules(base, variant, (str(folder),))
    root = (only or folder).resolve()
    own = tuple(cid for cid, decl in rules.library.cards.items()
                if _inside(Path(decl.span.path).resolve(), root))
    return Source(mod_name(folder), rules, own)


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def faces(source: Source) -> list[Face]:
    """The faces of a source's cards, grouped by family (in the order families first appear),
    then in the order the cards are written."""
    made = [face(source.rules, cid, source.label) for cid in source.card_ids]
    order: dict[str, int] = {}
    for f in made:
        order.setdefault(f.family, len(order))
    return sorted(made, key=lambda f: order[f.family])  # stable: card order within a family


def face(rules: Rules, card_id: str, origin: str) -> Face:
    """A card's face: the numbers pulled out of its plain words into places of their own, the
    rest of the words as they are."""
    lib = rules.library
    decl = lib.cards[card_id]
    chain = [k.name for k in reversed(lib.kinds[decl.kind].chain)]  # most specific first
    card = compiled(rules, card_id)
    lines = describe(rules, card_id)
    head, body, extra = _split(lines)
    params = set(lib.kinds[decl.kind].params)
    per_players: list[tuple[str, tuple[tuple[int, str], ...]]] = []
    badges: list[tuple[str, str]] = []
    words: list[str] = []
    for line in body:
        m = _PARAM_LINE.match(line)
        if m is None or m.group(1) not in params:
            words.extend(_rows(line))
            continue
        name, value = m.group(1), m.group(2)
        pp = _PER_PLAYERS.match(value)
        if pp is not None:
            counts = pp.group(1).split("/")
            first = int(pp.group(2))
            per_players.append((name, tuple((first + i, v) for i, v in enumerate(counts))))
        elif _NUMBER.match(value):
            badges.append((name.replace("_", " "), value))
        else:
            words.append(f"{name.replace('_', ' ').capitalize()}: {value}.")
    is_room = isinstance(card, CompiledRoom)
    if is_room:
        kind_line = " → ".join(card.kinds) + " room"
    else:
        kind_line = chain[0] if len(chain) == 1 else " → ".join(chain)
        # the head says what the card is in words (`an item; play it …`): keep all but the name
        own = f"{card.name}: "
        words.insert(0, _capital(head[len(own):] if head.startswith(own) else head))
    for attr, label in (("coins", "coins"), ("wounds", "wounds")):
        if hasattr(card, attr) and not is_room:
            badges.append((label, str(getattr(card, attr))))
    copies = 1
    if card_id in rules.deck:
        copies = rules.deck[card_id]
    elif card_id in rules.supply:
        copies = rules.supply[card_id]
        badges.append(("supply", str(copies)))
    footer = " · ".join([card_id, origin, *(e.rstrip(".") for e in extra)])
    roots = list(dict.fromkeys(k.chain[0].name for k in lib.kinds.values()))
    return Face(card_id=card_id, name=card.name, kind_line=kind_line, family=chain[-1],
                family_index=roots.index(chain[-1]) if chain[-1] in roots else len(roots),
                depth=len(chain) - 1, per_players=tuple(per_players), badges=tuple(badges),
                layout=getattr(card, "layout", ""), words=tuple(words), footer=footer,
                copies=max(copies, 1))


def _rows(line: str) -> list[str]:
    """A table's rows on lines of their own (a vault's rewards, a trap's hits): the words
    before the first row end with a colon, each row keeps its arrow."""
    parts = _TABLE_ROW.split(line)
    if len(parts) == 1:
        return [line]
    return [parts[0] + ":", *parts[1:]]


def _split(lines: list[str]) -> tuple[str, list[str], list[str]]:
    """describe()'s lines: the head, the rules (indented), then notes on where the card goes."""
    head, rest = lines[0], lines[1:]
    body = [line.strip() for line in rest if line.startswith("  ")]
    extra = [line for line in rest if not line.startswith("  ")]
    return head, body, extra


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
