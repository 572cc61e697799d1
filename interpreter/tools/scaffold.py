"""`raiders new boss NAME` / `raiders new mod NAME`: a mod folder that checks clean and whose
scenarios pass from the first minute, so a modder starts from a green test.

The files are templates filled with the name; nothing here knows a card of the game (the base
ruleset's ids are looked up only to refuse a name that is taken).
"""
from __future__ import annotations

import re
from pathlib import Path

import attrs

from raiders.formats.atomic import write_atomic

NAME_RE = re.compile(r"[a-z_][a-z0-9_]*(-[a-z0-9_]+)*")

_BOSS = """\
# {title}: a new boss, text only (docs/first-boss.md, docs/dsl.md).
# Try: change a number, then `raiders validate {folder}` and `raiders test {folder}/scenarios.yaml`.

boss {name} {{
  name "{title}"
  strength 12 / 16 / 20  # to beat it: the sum of the values played, for 3 / 4 / 5 players
  wounds 2               # each player it attacks takes this many wounds
  target lowest          # whom it attacks when not beaten
  after attack {{ attacked: lose 1 coin }}
}}
"""

_MONSTER = """\
# {title}: a new room card, text only (docs/dsl.md).
# Try: change a number, then `raiders validate {folder}` and `raiders test {folder}/scenarios.yaml`.

monster {name} {{
  name "{title}"
  strength 9 / 12 / 15  # to beat it: the sum of the values played, for 3 / 4 / 5 players
  wounds 1              # each player it attacks takes this many wounds
}}
"""

_MANIFEST = """\
# What this mod adds to a game (docs/rulesets.md).
name: {name}
version: "0.1"
raiders: ">=0.1"  # the raiders versions it works with
{what}
rulesets: [deluxe]
"""

_SCENARIOS = """\
# Scenarios for this mod (docs/scenarios.md): one room each, pinned down. Run them with
#   raiders test {folder}/scenarios.yaml
# Three players, so the strength is the first number ({strength}).
format: raiders-scenario/1
name: {title} is beaten when the values played add up to its strength
ruleset: deluxe
cards: [.]
players: [A, B, C]
room: {name}
plays: {beaten}
expect:
  A: {{wounds: 0}}
  B: {{wounds: 0}}
  C: {{wounds: 0}}
---
format: raiders-scenario/1
name: {title} not beaten attacks the lowest value
ruleset: deluxe
cards: [.]
players: [A, B, C]
start: {{A: {{coins: 3}}}}
room: {name}
plays: {{A: 1, B: 2, C: 3}}
expect:
  A: {lowest}
  B: {{wounds: 0, coins: 0}}
  C: {{wounds: 0, coins: 0}}
"""


@attrs.frozen
class Scaffold:
    folder: Path
    files: tuple[Path, ...]


class ScaffoldError(Exception):
    """A name or a folder that cannot be used; the message says why."""


def _title(name: str) -> str:
    return " ".join(w.capitalize() for w in re.split(r"[-_]+", name) if w)


def _taken(name: str) -> bool:
    from raiders.formats.rulesets import builtin_ids, builtin_ruleset_path, load_ruleset

    for rid in builtin_ids():
        ruleset, _ = load_ruleset(builtin_ruleset_path(rid))
        if ruleset is not None and (name in ruleset.library.cards or
                                    name in ruleset.library.kinds):
            return True
    return False


def create(what: str, name: str, parent: Path) -> Scaffold:
    """Write a new mod folder `parent/name`: a boss (`what` = "boss") or a room card ("mod")."""
    if not NAME_RE.fullmatch(name):
        raise ScaffoldError(f"`{name}` cannot be a card id: use lowercase letters, digits, `_` "
                            "and hyphens between parts, starting with a letter (e.g. `stone-"
                            "giant`)")
    if _taken(name):
        raise ScaffoldError(f"`{name}` is already a card or kind of a built-in ruleset; "
                            "pick another name")
    folder = parent / name
    if folder.exists():
        raise ScaffoldError(f"`{folder}` already exists; nothing was written")
    shown = str(folder)
    title = _title(name)
    if what == "boss":
        card = _BOSS.format(name=name, title=title, folder=shown)
        manifest = _MANIFEST.format(name=name, what=f"bosses: [{name}]")
        # strength 12 for three players: 5 + 4 + 3 beats it; 1 + 2 + 3 does not, and the
        # lowest (A) takes 2 wounds and loses 1 of its 3 coins
        scenarios = _SCENARIOS.format(name=name, title=title, folder=shown, strength=12,
                                      beaten="{A: 5, B: 4, C: 3}",
                                      lowest="{wounds: 2, coins: 2}")
    else:
        card = _MONSTER.format(name=name, title=title, folder=shown)
        manifest = _MANIFEST.format(name=name, what=f"deck: {{{name}: 1}}")
        scenarios = _SCENARIOS.format(name=name, title=title, folder=shown, strength=9,
                                      beaten="{A: 5, B: 3, C: 1}",
                                      lowest="{wounds: 1, coins: 3}")
    folder.mkdir(parents=True)
    files = (folder / f"{name}.dsl", folder / "mod.yaml", folder / "scenarios.yaml")
    for path, text in zip(files, (card, manifest, scenarios), strict=True):
        path.touch()
        write_atomic(str(path), text)
    return Scaffold(folder, files)
