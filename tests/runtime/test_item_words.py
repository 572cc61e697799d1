"""A room's plain words about items (`raiders show`, `raiders diff`, the printed card, the human
seat's prompt) say only what the engine does: a card's `unplayable sword` undoes its kind's
`playable sword as 5` (X-3, X-5, D-6), and the words say so once, decided by the legality rule
the engine plays by (interpreter/runtime/legality.py). A reviewer's Lich (fixtures/lich, copied
from their mod) once read both "A Sword may be played here" and "A Sword cannot be played here".
"""
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.runtime.describe import compiled, describe
from raiders.interpreter.runtime.legality import legal_cards
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.runtime.state import Player

HERE = Path(__file__).resolve().parent
LICH = HERE / "fixtures" / "lich"
MODS = HERE.parent.parent / "examples" / "mods"

MAY = re.compile(r"^(?:An?|Any) (.+?) may be played here; it counts as (.+?)(?: unless said "
                 r"otherwise)?\.$")
CANNOT = re.compile(r"^An? (.+?) cannot be played here\.$")
ESCAPES = re.compile(r"^A player who plays an? (.+?) escapes: ")


def _said(lines: list[str]) -> dict[str, list[str]]:
    """Each item a room's words name, with what they say of it: `may N`, `cannot`, `escape`."""
    said: dict[str, list[str]] = {}
    for line in (w.strip() for w in lines):
        if m := MAY.match(line):
            said.setdefault(m.group(1), []).append(f"may {m.group(2)}")
        elif m := CANNOT.match(line):
            said.setdefault(m.group(1), []).append("cannot")
        elif m := ESCAPES.match(line):
            said.setdefault(m.group(1), []).append("escape")
    return said


def test_a_boss_that_forbids_its_kinds_sword_says_only_that_it_cannot_be_played():
    """X-3/X-5: a sword counts 5 in a monster room; D-6: a boss resolves like one except as
    its card says, and the Lich says `unplayable sword`."""
    rules = load_rules("deluxe", None, (str(LICH),))
    lines = describe(rules, "lich")
    assert _said(lines) == {"Sword": ["cannot"]}, lines
    # the engine agrees: a player holding a sword may not put it down for the Lich
    holder = Player(0, "A", hand=[1, 2], items=["sword"])
    assert legal_cards(rules.rooms["lich"], holder, rules.abilities) == [1, 2]
    # and its kind's other monsters still say the sword counts 5
    assert _said(describe(rules, "dragon"))["Sword"] == ["may 5"]


def test_show_prints_the_lich_words_once():
    result = CliRunner().invoke(main, ["show", "lich", "--cards", str(LICH)])
    assert result.exit_code == 0, result.output
    assert "A Sword cannot be played here." in result.output
    assert "A Sword may be played here" not in result.output, result.output


def test_diff_shows_the_lich_words_once_before_and_after(tmp_path):
    weak = tmp_path / "lich-weak"
    shutil.copytree(LICH, weak)
    card = weak / "lich.dsl"
    card.write_text(card.read_text().replace("strength 13 / 18 / 22", "strength 8 / 10 / 12"))
    result = CliRunner().invoke(main, ["diff", str(LICH), str(weak), "--games", "0"])
    assert result.exit_code == 0, result.output
    assert result.output.count("A Sword cannot be played here.") == 2, result.output
    assert "A Sword may be played here" not in result.output, result.output


def _every_ruleset():
    """Every ruleset and variant, with every example mod written for it."""
    for ruleset in ("deluxe", "classic"):
        first = load_rules(ruleset, None, (str(MODS),))
        for variant in first.ruleset.variants:
            yield load_rules(ruleset, variant, (str(MODS),))


def test_no_room_says_an_item_both_may_and_cannot_be_played():
    """Every room of deluxe, classic (each variant) and examples/mods: each item its words
    name is said one thing of (X-3), and what is said is what the engine allows."""
    rooms = 0
    for rules in _every_ruleset():
        names = {compiled(rules, cid).name: cid for cid in rules.library.cards
                 if rules.library.role_of(cid) == "item"}
        for room_id, room in rules.rooms.items():
            rooms += 1
            for name, says in _said(describe(rules, room_id)).items():
                where = (rules.ruleset.id, rules.variant.name, room_id, name, says)
                assert len(says) == 1, where
                if name == "item":  # `playable any`: nothing more to ask of one item
                    continue
                holder = Player(0, "A", hand=[1], items=[names[name]])
                legal = names[name] in legal_cards(room, holder, rules.abilities)
                assert legal == (says[0] != "cannot"), where
    assert rooms > 300  # every variant's rooms were read


def test_a_card_that_overrides_its_kinds_sword_says_only_what_wins(tmp_path):
    """The order of rules (docs/dsl.md): the card's `playable sword as 3` replaces its kind's
    value (X-5 says 5), an `escape sword` makes the sword an escape, not a card that counts,
    and a later `playable` undoes an `unplayable` of the kind."""
    (tmp_path / "cards.dsl").write_text(
        'monster blunt { name "Blunt"  strength 9  wounds 1  playable sword as 3 }\n'
        'monster slippery { name "Slippery"  strength 9  wounds 1  escape sword }\n'
        'kind armoured : monster() { unplayable sword }\n'
        'armoured rusted { name "Rusted"  strength 9  wounds 1  playable sword as 2 }\n')
    (tmp_path / "mod.yaml").write_text("deck: {blunt: 1, slippery: 1, rusted: 1}\n"
                                       "rulesets: [deluxe]\n")
    rules = load_rules("deluxe", None, (str(tmp_path),))
    assert _said(describe(rules, "blunt")) == {"Sword": ["may 3"]}
    assert _said(describe(rules, "slippery")) == {"Sword": ["escape"]}
    assert _said(describe(rules, "rusted")) == {"Sword": ["may 2"]}
    holder = Player(0, "A", hand=[1], items=["sword"])
    for room in ("blunt", "slippery", "rusted"):
        assert "sword" in legal_cards(rules.rooms[room], holder, rules.abilities), room
