"""What a compiled card's rules may read and take (interpreter/runtime/reads.py), worked out
by the compiler from the card's tree: every way the language has of reading a player's coins
or wounds, what they hold, of taking from them, and of reading where the game is, is found
however it is written (a selector, a function, a condition, an amount, a parameter, a tag,
the kind chain, an item's value); what the analysis does not know reads everything."""
import re
from pathlib import Path

import attrs
import pytest

from raiders.interpreter.game.players import _Plain
from raiders.interpreter.runtime import reads as reads_module
from raiders.interpreter.runtime.reads import EVERYTHING, NOTHING, Reads
from raiders.interpreter.runtime.rules import load_rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# (card id, what it says after its chest, the facts expected)
CARDS = [
    # coins or wounds: through a selector, a function of a selector, an amount, a condition
    ("coins-of-richest", "after room { if coins(richest) >= 5 { everyone: wound 1 } }",
     {"tokens"}),
    ("richest-lose", "after room { richest: lose 1 coin }", {"tokens"}),
    ("poorest-block", "after room { poorest { gain 1 coin } }", {"tokens"}),
    ("count-wounded", "after room { everyone: gain count(most_wounded) coins }", {"tokens"}),
    ("least-wounded", "after room { least_wounded: wound 1 }", {"tokens"}),
    ("half-coins", "after room { lowest: lose half(your_coins) coins }", {"tokens"}),
    ("wounds-compared", "after room { everyone { if your_wounds > 2 { heal 1 } } }",
     {"tokens"}),
    ("wounds-of", "after room { everyone: gain wounds(highest) coins }", {"tokens"}),
    ("coins-of", "after room { if coins(highest) > 9 { lowest: wound 1 } }", {"tokens"}),
    ("tag-richest", "after wound on richest { them: gain 1 coin }", {"tokens"}),
    ("modify-by-coins", "modify gain to amount + half(your_coins)", {"tokens"}),
    # what a player holds
    ("holds-count", "after room { everyone { if holds(key) >= 1 { wound 1 } } }",
     {"holdings"}),
    ("holds-selector", "after room { holds(sword): wound 1 }", {"holdings"}),
    ("most-items", "after room { most_items: wound 1 }", {"holdings"}),
    ("your-items", "after room { everyone: gain your_items coins }", {"holdings"}),
    ("count-holders", "after room { everyone: gain count(holds(torch)) coins }",
     {"holdings"}),
    ("tag-holds", "after wound on holds(key) { them: heal 1 }", {"holdings"}),
    # taking from a player
    ("take-key", "after room { lowest: take key }", {"holdings", "takes"}),
    ("take-any", "after room { lowest: take any }", {"holdings", "takes"}),
    ("steal-item", "after room { lowest: steal key from highest }", {"holdings", "takes"}),
    ("pass-item", "after room { highest: pass key to your_left }", {"holdings", "takes"}),
    ("steal-coins", "after room { lowest: steal 3 coins from highest }", {"takes"}),
    ("pass-coins", "after room { highest: pass 1 coin to your_left }", {"takes"}),
    # where the game is
    ("floor", "after room { everyone: gain floor_number coins }", {"floor_number"}),
    ("room", "after room { everyone: gain room_number coins }", {"room_number"}),
    ("rooms", "after room { everyone: gain rooms_played coins }", {"rooms_played"}),
    # nothing of the kind, whatever the words say (text the old scan of the compiled Python
    # took for a read: a question that names items and coins)
    ("plain", "after room { everyone: gain 1 coin }", set()),
    ("question", 'after room { everyone { may "Give up your items, coins and character?" '
     '{ gain 1 coin } } }', set()),
]

ROOMS = "\n".join(f"treasure {cid} {{ chest 1  {text} }}" for cid, text, _ in CARDS) + """
# a number parameter of the kind, read by the engine and by the procedure
kind tithe(cut: int) { resolve { everyone: lose cut coins } }
tithe tithe-by-wounds { cut your_wounds }
# a selector parameter
monster hunter { strength 10 / 13 / 16  wounds 1  target richest }
# an effects parameter done by the procedure
kind ritual(rite: effects) { resolve { do rite } }
ritual ritual-holds { rite { holds(key): wound 1 } }
# another room's procedure, whatever it reads
kind echo() { resolve { do previous_room } }
echo echo-room { name "Echo" }
"""
OTHERS = {"tithe-by-wounds": {"tokens"}, "hunter": {"tokens"}, "ritual-holds": {"holdings"}}


def _write_mod(folder: Path, deck: list[str], text: str, extra: str = "") -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mod.yaml").write_text("deck: {" + ", ".join(f"{c}: 1" for c in deck) + "}\n"
                                     + extra)
    (folder / "cards.dsl").write_text(text)
    return str(folder)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    deck = [cid for cid, _, _ in CARDS] + [*OTHERS, "echo-room"]
    mod = _write_mod(tmp_path_factory.mktemp("reads"), deck, ROOMS)
    return load_rules("deluxe", None, (mod,))


def _true(reads: Reads) -> set[str]:
    return {name for name, value in attrs.asdict(reads).items() if value}


@pytest.mark.parametrize("card_id, expected", [(cid, facts) for cid, _, facts in CARDS]
                         + list(OTHERS.items()))
def test_each_way_of_reading_is_found(rules, card_id, expected):
    assert _true(rules.rooms[card_id].reads) == expected


def test_another_rooms_procedure_reads_everything(rules):
    assert rules.rooms["echo-room"].reads == EVERYTHING


@attrs.frozen
class _NewStatement:
    """A node of a tree the language does not have yet."""

    body: object


def test_a_node_the_analysis_does_not_know_reads_everything(rules):
    assert reads_module.card_reads([_NewStatement(None)], {}) == EVERYTHING
    # even inside rules it knows
    tree = attrs.evolve(rules.library.cards["plain"].members[-1],
                        body=_NewStatement(None))
    assert reads_module.card_reads([tree], {}) == EVERYTHING
    assert reads_module.card_reads([], {}) == NOTHING


def test_the_kind_chain_and_an_items_value_are_read_with_the_room(tmp_path):
    """`extend trap { … }` reads coins in every trap; an item worth its holder's coins
    (`playable SELF as your_coins`) reads them in every room that says nothing of it."""
    traps = _write_mod(tmp_path / "traps", [], "extend trap { after room { richest: wound 1 } }\n")
    rules = load_rules("deluxe", None, (traps,))
    assert all(r.reads.tokens for r in rules.rooms.values() if "trap" in r.kinds)
    assert not rules.rooms["goblin"].reads.tokens
    coin = _write_mod(tmp_path / "coin", [], "item lucky-coin { playable lucky-coin as "
                      "your_coins }\n", "items: {lucky-coin: 1}\n")
    rules = load_rules("deluxe", None, (coin,))
    assert rules.items["lucky-coin"].reads.tokens
    assert rules.rooms["treasure-4-2"].reads.tokens  # it may be played there
    assert not rules.rooms["treasure-4-2"].rules.value_mods  # nothing else reads them


def test_a_held_card_that_reads_coins_makes_every_room_read_them(tmp_path):
    """A character whose rule reads its holder's coins runs in every room: no room is
    resolved once for every place (players.py `_Plain._blind`)."""
    mod = _write_mod(tmp_path / "miser", [], "character miser { coins 1  after wound on you "
                     "{ if your_coins > 5 { you: heal 1 } } }\n", "characters: [miser]\n")
    rules = load_rules("deluxe", None, (mod,))
    assert rules.characters["miser"].reads.tokens
    plain = _Plain(rules)
    assert not any(plain._blind(room)[0] for room in rules.rooms.values())
    # without it, the base game's treasures are blind to the tokens
    assert _Plain(load_rules("deluxe"))._blind(rules.rooms["treasure-4-2"])[0]


# The scan of the compiled Python that the facts replace (players.py before them), kept as a
# second opinion: wherever it saw a read, the facts must see it too.
_TOKEN_TEXT = re.compile(r"\.(?:coins|wounds)\b|'(?:coins|wounds)'")
_HOLDINGS_TEXT = re.compile(r"items|holds|character|'(?:take|steal|pass|death)'")


def _in_text(pattern: re.Pattern, source: str) -> bool:
    return any(pattern.search(line.split("#", 1)[0] if "'" not in line else line)
               for line in source.splitlines())


SETUPS = [(rs, variant, ()) for rs, variants in (("deluxe", ("standard", "tactical")),
                                                 ("classic", ("standard", "quick", "duel",
                                                              "solo")))
          for variant in variants] + \
    [("deluxe", None, (str(m),)) for m in sorted((EXAMPLES / "mods").iterdir()) if m.is_dir()]


@pytest.mark.parametrize("ruleset, variant, mods", SETUPS,
                         ids=[f"{r}-{v or Path(m[0]).name}" for r, v, m in SETUPS])
def test_the_facts_see_every_read_the_compiled_text_shows(ruleset, variant, mods):
    rules = load_rules(ruleset, variant, mods)
    for group in (rules.characters, rules.items, rules.statuses, rules.floors, rules.house):
        for card in group.values():
            assert card.reads.tokens or not _in_text(_TOKEN_TEXT, card.source), card.id
    for room in rules.rooms.values():
        assert room.reads.tokens or not _in_text(_TOKEN_TEXT, room.source), room.id
        assert room.reads.holdings or room.reads.takes \
            or not _in_text(_HOLDINGS_TEXT, room.source), room.id
