"""Every card number of both editions, transcribed from CARDS.md and RULES.md (D-5, C-6),
checked against the AST of the built-in card files and rulesets.

The tables below are copied by hand from the docs, not computed from the cards: a wrong number
in a card file (or a ruleset) fails here. A field a card leaves out counts as its kind's
default (e.g. a boss's `wounds` defaults to 0, a character's `items` to `none`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from raiders.dsl import ast
from raiders.formats.rulesets import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
RULESET_FILES = {
    "deluxe": ROOT / "cards" / "deluxe" / "ruleset.yaml",
    "classic": ROOT / "cards" / "classic" / "ruleset.yaml",
}
_LOADED: dict = {}


def ruleset(name: str):
    if name not in _LOADED:
        _LOADED[name] = load_ruleset(RULESET_FILES[name])
    rs, diags = _LOADED[name]
    assert rs is not None, diags
    return rs


# ---- reading the AST ------------------------------------------------------------------------


def render(node) -> str:
    """A compact, stable text of an expression, statement or card reference."""
    if isinstance(node, ast.Num):
        return str(node.value)
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Str):
        return f'"{node.value}"'
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(render(a) for a in node.args)})"
    if isinstance(node, ast.BinOp):
        return f"{render(node.left)} {node.op} {render(node.right)}"
    if isinstance(node, ast.Not):
        return f"not {render(node.operand)}"
    if isinstance(node, ast.Effect):
        return node.verb + (f" {render(node.arg)}" if node.arg is not None else "")
    if isinstance(node, ast.Apply):
        sels = ", ".join(s.name for s in node.selectors)
        return f"{sels}: " + ", ".join(render(e) for e in node.effects)
    if isinstance(node, ast.If):
        word = "unless" if node.negate else "if"
        text = f"{word} {render(node.cond)} {render(node.then)}"
        return text + (f" else {render(node.otherwise)}" if node.otherwise else "")
    if isinstance(node, ast.Block):
        return "{ " + "; ".join(render(s) for s in node.stmts) + " }"
    if isinstance(node, ast.CardRef):
        return str(node)
    raise TypeError(f"no rendering for {node!r}")


def plain(value):
    """A field value as plain data: ints, tuples, strings."""
    if isinstance(value, ast.Num):
        return value.value
    if isinstance(value, ast.PerPlayers):
        return tuple(plain(v) for v in value.values)
    if isinstance(value, ast.ValueList):
        return tuple(plain(v) for v in value.values)
    if isinstance(value, ast.Str):
        return value.value
    if isinstance(value, ast.Name):
        return value.name
    return render(value)


def field(rs, card_id: str, name: str):
    """The card's value for a field, or its kind's default; exactly one given, at most."""
    lib = rs.library
    card = lib.cards[card_id]
    given = [m for m in card.members if isinstance(m, ast.Field) and m.name == name]
    assert len(given) <= 1, f"{card_id}: `{name}` given {len(given)} times"
    if given:
        return given[0].value
    param = lib.kinds[card.kind].params.get(name)
    assert param is not None, f"{card_id} ({card.kind}) has no field `{name}`"
    return param.default


def table(rs, card_id: str, name: str) -> dict[int, str]:
    block = field(rs, card_id, name)
    assert isinstance(block, ast.Block)
    rows: dict[int, str] = {}
    for row in block.stmts:
        assert isinstance(row, ast.Row)
        assert row.key not in rows
        rows[row.key] = render(row.body)
    return rows


def items_of(rs, card_id: str) -> tuple[str, ...]:
    v = plain(field(rs, card_id, "items"))
    if v == "none":
        return ()
    return v if isinstance(v, tuple) else (v,)


def rules_of(rs, card_id: str) -> list[str]:
    """A card's members other than fields, as text (handlers, escapes, modifiers)."""
    out = []
    for m in rs.library.cards[card_id].members:
        if isinstance(m, ast.Field):
            continue
        if isinstance(m, ast.Handler):
            head = ("instead of " if m.sort == "replace" else "after ") + m.event
            out.append(head + (f" on {m.tag}" if m.tag else "") + " " + render(m.body))
        elif isinstance(m, ast.Escape):
            out.append(f"escape {render(m.card)}")
        elif isinstance(m, ast.Modify):
            of = f" of {render(m.card)}" if m.card is not None else ""
            out.append(f"modify {m.target}{of} to {render(m.expr)}")
        elif isinstance(m, ast.Playable):
            out.append(f"playable {render(m.card)}" + (f" as {render(m.value)}" if m.value else ""))
        elif isinstance(m, ast.Unplayable):
            out.append(f"unplayable {render(m.card)}")
        elif isinstance(m, ast.Resolve):
            out.append(f"resolve {render(m.body)}")
        else:
            raise TypeError(m)
    return out


# ---- the tables, from CARDS.md --------------------------------------------------------------

# id: (strength 3p / 4p / 5p, wounds, classic copies, deluxe copies)
MONSTERS = {
    "snake": ((8, 10, 13), 3, 1, 1),
    "zombie": ((11, 14, 18), 1, 1, 1),
    "skeleton": ((11, 14, 18), 3, 1, 1),
    "gelatinous-cube": ((14, 18, 23), 1, 1, 1),
    "goblin": ((11, 14, 18), 2, 2, 3),
    "troll": ((14, 18, 23), 2, 2, 2),
    "dragon": ((14, 18, 23), 3, 2, 2),
}

# id: (chest, second chest (0: none), copies in both editions)
TREASURES = {
    "treasure-1": (1, 0, 1),
    "treasure-2": (2, 0, 1),
    "treasure-3": (3, 0, 1),
    "treasure-4": (4, 0, 1),
    "treasure-2-1": (2, 1, 2),
    "treasure-3-2": (3, 2, 2),
    "treasure-4-2": (4, 2, 2),
}

# id: ({value: reward}, copies in both editions); potion N = heal N
VAULTS = {
    "item-vault": ({1: "give torch", 2: "give crystal-ball", 3: "give key", 4: "give sword",
                    5: "heal 1"}, 3),
    "coin-vault": ({1: "gain 1", 2: "gain 2", 3: "heal 1", 4: "gain 3", 5: "heal 2"}, 2),
}

# id: (coins, wounds, items)
CHARACTERS = {
    "warrior": (2, 0, ()),
    "wizard": (1, 1, ("crystal-ball", "crystal-ball")),
    "thief": (2, 2, ("key",)),
    "explorer": (3, 2, ("torch",)),
    "knight": (1, 1, ("sword",)),
}

# id: (deluxe supply, classic supply)
ITEMS = {"torch": (6, 5), "crystal-ball": (6, 5), "key": (6, 5), "sword": (6, 5)}

# trap copies: CARDS.md "Traps"
TRAP_COPIES = {
    "classic": {"magnet": 2, "boulder": 1, "lava": 1, "spikes": 1},
    "deluxe": {"lava": 1, "magnet": 1, "spikes": 1, "boulder": 1},
}

# id: (strength 3p / 4p / 5p or "never", wounds (0: deals none))
BOSSES = {
    "tax-collector": ((14, 18, 23), 0),
    "medusa": ((12, 16, 20), 0),
    "vampire": ((14, 18, 23), 1),
    "sphinx": ((14, 18, 23), 2),
    "minotaur": ((11, 15, 19), 1),
    "wolf-pack": ((11, 14, 18), 3),
    "necromancer": ((12, 15, 19), 2),
    "mega-dragon": ("never", 4),
    "golem": ("never", 3),
    "mummy": ("never", 4),
}

# What each boss changes (CARDS.md "rule" column, RULES.md D-7, D-8).
BOSS_RULES = {
    "tax-collector": ["instead of wound on attacked { lose 3 }"],
    "medusa": ["instead of wound on attacked { eliminate }"],
    "vampire": ["after wound on attacked { lose 2 }"],
    "sphinx": ["after room { unless all_same and total < strength { highest: gain 2 } }"],
    "minotaur": ["after room { unless all_same and total < strength { highest: gain 1 } }"],
    "wolf-pack": ["escape torch"],
    "necromancer": ["escape crystal-ball"],
    "mega-dragon": ["escape key"],
    "golem": ["modify value of power 5 to 1", "modify value of sword to 1"],
    "mummy": [],
}
BOSS_TARGETS = {"mummy": "highest"}  # every other boss attacks the lowest value(s)

FLOORS = {
    "floor-1": "UDUDU",
    "floor-2": "DUDUD",
    "floor-3": "UUDDD",
    "floor-4": "DDDUU",
    "floor-5": "UDDDU",
    "floor-6": "DUUUD",
    "floor-7": "UUUDD",
}

# Trap tables: RULES.md D-5 (deluxe, by the highest value) and C-6 (classic).
# ruleset, id: (the value read, {value: effect})
TRAPS = {
    ("deluxe", "lava"): ("highest_value", {5: "richest: lose 3", 4: "richest: lose 2",
                                           3: "richest: lose 1"}),
    ("deluxe", "magnet"): ("highest_value", {5: "richest: lose 2", 4: "richest: lose 2",
                                             3: "richest: lose 1", 2: "richest: lose 1"}),
    ("deluxe", "spikes"): ("highest_value", {5: "least_wounded: wound 2",
                                             4: "least_wounded: wound 2",
                                             3: "least_wounded: wound 1"}),
    ("deluxe", "boulder"): ("highest_value", {5: "least_wounded: wound 2",
                                              4: "least_wounded: wound 1",
                                              3: "least_wounded: wound 1",
                                              2: "least_wounded: wound 1"}),
    ("classic", "magnet"): ("highest_value", {3: "richest: lose 1", 4: "richest: lose 2",
                                              5: "richest: lose 3"}),
    ("classic", "boulder"): ("highest_value", {3: "least_wounded: wound 1",
                                               4: "least_wounded: wound 2",
                                               5: "least_wounded: wound 3"}),
    ("classic", "lava"): ("lowest_value", {3: "everyone: lose 1", 2: "everyone: lose 2",
                                           1: "everyone: lose half(your_coins)"}),
    ("classic", "spikes"): ("lowest_value", {3: "everyone: wound 1", 2: "everyone: wound 2",
                                             1: "everyone: wound half(death - your_wounds)"}),
}

# Ruleset parameters (RULES.md D-1, D-2, C-1, C-2, C-7, X-7).
RULESET_NUMBERS = {
    "deluxe": {"remove": 6, "face_up": None, "death": None, "coin_cap": 20, "floors_used": 5,
               "rooms_per_floor": 5},
    "classic": {"remove": 5, "face_up": 12, "death": 10, "coin_cap": 20, "floors_used": 5,
                "rooms_per_floor": 5},
}

BOTH = ("deluxe", "classic")


def _expected_deck(name: str) -> dict[str, int]:
    deck = {}
    for cid, (_, _, classic, deluxe) in MONSTERS.items():
        deck[cid] = deluxe if name == "deluxe" else classic
    deck.update({cid: copies for cid, (_, _, copies) in TREASURES.items()})
    deck.update({cid: copies for cid, (_, copies) in VAULTS.items()})
    deck.update(TRAP_COPIES[name])
    return deck


# ---- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BOTH)
def test_builtin_ruleset_loads_clean(name):
    rs, diags = load_ruleset(RULESET_FILES[name])
    assert rs is not None
    assert diags == []
    assert rs.id == name


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("cid", MONSTERS)
def test_monster(name, cid):
    strength, wounds, _, _ = MONSTERS[cid]
    rs = ruleset(name)
    assert rs.library.cards[cid].kind == "monster"
    assert plain(field(rs, cid, "strength")) == strength
    assert plain(field(rs, cid, "wounds")) == wounds
    assert plain(field(rs, cid, "target")) == "lowest"


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("cid", TREASURES)
def test_treasure(name, cid):
    chest, second, _ = TREASURES[cid]
    rs = ruleset(name)
    assert rs.library.cards[cid].kind == "treasure"
    assert plain(field(rs, cid, "chest")) == chest
    assert plain(field(rs, cid, "second_chest")) == second


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("cid", VAULTS)
def test_vault(name, cid):
    rows, _ = VAULTS[cid]
    rs = ruleset(name)
    assert rs.library.cards[cid].kind == "vault"
    assert table(rs, cid, "rewards") == rows


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("cid", CHARACTERS)
def test_character(name, cid):
    coins, wounds, items = CHARACTERS[cid]
    rs = ruleset(name)
    assert rs.library.cards[cid].kind == "character"
    assert plain(field(rs, cid, "coins")) == coins
    assert plain(field(rs, cid, "wounds")) == wounds
    assert items_of(rs, cid) == items


@pytest.mark.parametrize("name", BOTH)
def test_characters_of_the_ruleset(name):
    assert list(ruleset(name).characters) == list(CHARACTERS)


@pytest.mark.parametrize("name", BOTH)
def test_item_supply(name):
    rs = ruleset(name)
    column = 0 if name == "deluxe" else 1
    assert rs.items == {cid: supply[column] for cid, supply in ITEMS.items()}
    assert sum(rs.items.values()) == (24 if name == "deluxe" else 20)  # D-1, C-1
    for cid in ITEMS:
        assert rs.library.role_of(cid) == "item"


def test_item_abilities():
    rs = ruleset("deluxe")
    assert {cid: plain(field(rs, cid, "ability")) for cid in ITEMS} == {
        "torch": "peek", "crystal-ball": "second_card", "key": "none", "sword": "none"}


@pytest.mark.parametrize("name", BOTH)
def test_deck_copies(name):
    rs = ruleset(name)
    expected = _expected_deck(name)
    assert rs.deck == expected
    assert sum(rs.deck.values()) == 30  # D-1, C-1
    by_kind: dict[str, int] = {}
    for cid, n in rs.deck.items():
        kind = rs.library.cards[cid].kind
        by_kind[kind] = by_kind.get(kind, 0) + n
    if name == "deluxe":  # D-1: 11 monsters, 10 treasure rooms, 5 vaults, 4 traps
        assert by_kind == {"monster": 11, "treasure": 10, "vault": 5, "trap": 4}
    else:  # C-1: 10 monsters, 10 treasure rooms, 5 traps, 5 vaults
        assert by_kind == {"monster": 10, "treasure": 10, "vault": 5, "trap": 5}


@pytest.mark.parametrize("cid", BOSSES)
def test_boss(cid):
    strength, wounds = BOSSES[cid]
    rs = ruleset("deluxe")
    card = rs.library.cards[cid]
    assert "monster" in [k.name for k in rs.library.kinds[card.kind].chain]
    assert plain(field(rs, cid, "strength")) == strength
    assert plain(field(rs, cid, "wounds")) == wounds
    assert plain(field(rs, cid, "target")) == BOSS_TARGETS.get(cid, "lowest")
    assert rules_of(rs, cid) == BOSS_RULES[cid]


def test_bosses_of_the_rulesets():
    assert list(ruleset("deluxe").bosses) == list(BOSSES)
    assert ruleset("classic").bosses == ()
    for cid in BOSSES:
        assert cid not in ruleset("classic").library.cards


@pytest.mark.parametrize("cid", FLOORS)
def test_floor(cid):
    rs = ruleset("deluxe")
    assert rs.library.cards[cid].kind == "floor"
    assert plain(field(rs, cid, "layout")) == FLOORS[cid]


def test_floors_of_the_rulesets():
    assert list(ruleset("deluxe").floors) == list(FLOORS)
    assert ruleset("classic").floors == ()


@pytest.mark.parametrize("name,cid", list(TRAPS), ids=[f"{n}-{c}" for n, c in TRAPS])
def test_trap(name, cid):
    key, rows = TRAPS[(name, cid)]
    rs = ruleset(name)
    assert rs.library.cards[cid].kind == "trap"
    assert plain(field(rs, cid, "key")) == key
    assert table(rs, cid, "hits") == rows


@pytest.mark.parametrize("name", BOTH)
def test_ruleset_numbers(name):
    rs = ruleset(name)
    for attr, value in RULESET_NUMBERS[name].items():
        assert getattr(rs, attr) == value, attr
    assert rs.strength_players == 3  # per_players values are for 3, 4, 5 players


@pytest.mark.parametrize("name", BOTH)
def test_every_card_of_the_ruleset_is_in_a_table(name):
    """No card escapes the tables: a new or renamed built-in card must be transcribed."""
    rs = ruleset(name)
    known = {*MONSTERS, *TREASURES, *VAULTS, *CHARACTERS, *ITEMS, *TRAP_COPIES[name]}
    if name == "deluxe":
        known |= {*BOSSES, *FLOORS}
    assert set(rs.library.cards) == known
