"""Quiet rules (issue 22): house rules that hear a common event but filter on something the
game never brings cost a test per event, not a table rebuild, and act exactly as before when
the thing they filter on is there (docs/dsl.md, "The event bus": bus order, every `after`
that applies)."""
from pathlib import Path

from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.players import RandomBot
from raiders.interpreter.records.scenarios import run_file
from raiders.interpreter.runtime import room as bus_module
from raiders.interpreter.runtime.room import Gate, house_of
from raiders.interpreter.runtime.rules import load_rules

NAMES = ["P1", "P2", "P3", "P4"]

# Six gated rules in a row (one Gate), then an unfiltered one, then two more gated ones (too
# few for a Gate): every shape the bus can test at once, in a mix that does act.
MOD = """
status hush { name "Hush" }
status loud { name "Loud" }
item relic { name "Relic" }
rule r1 { name "R1"  after wound on marked(hush) { gain 1 coin } }
rule r2 { name "R2"  after wound on marked(loud) { gain 3 coins } }
rule r3 { name "R3"  after wound on holds(relic) { gain 5 coins } }
rule r4 { name "R4"  after give(relic) { gain 7 coins } }
rule r5 { name "R5"  after wound on marked(hush) { heal 1 } }
rule r6 { name "R6"  after wound on marked(loud) { mark hush } }
rule r7 { name "R7"  after wound { if amount > 99 { gain 1 coin } } }
rule r8 { name "R8"  after wound on marked(hush) { gain 2 coins } }
rule r9 { name "R9"  after wound on holds(relic) { gain 4 coins } }
kind pinprick() { resolve { everyone: wound 2 } }
pinprick needles { name "Needles" }
kind relic-shop() { resolve { highest: give relic } }
relic-shop shop { name "Shop" }
"""


def mod(tmp_path: Path) -> Path:
    (tmp_path / "quiet.dsl").write_text(MOD)
    (tmp_path / "mod.yaml").write_text("items: {relic: 2}\ndeck: {needles: 1, shop: 1}\n")
    return tmp_path


def run_scenario(tmp_path: Path, body: str):
    path = tmp_path / "s.yaml"
    path.write_text(f"""
format: raiders-scenario/1
name: quiet rules that act
ruleset: deluxe
cards: [.]
players: [A, B, C]
{body.strip()}
""")
    [outcome] = run_file(str(path))
    return outcome


def test_filtered_house_rules_are_gated_in_bus_order(tmp_path):
    rules = load_rules("deluxe", cards=(str(mod(tmp_path)),))
    wound = house_of(rules.house_rules).bus.reacts["wound"]
    gate, owner = wound[0]
    assert gate.__class__ is Gate and owner is None
    assert [h.card for h, _ in gate.members] == ["r1", "r2", "r3", "r5", "r6"]
    assert gate.statuses == {"hush", "loud"} and gate.items == {"relic"}
    # r7 filters inside its body: tested alone; r8, r9: too few to gate
    assert [h.card for h, _ in wound[1:]] == ["r7", "r8", "r9"]
    assert gate.event == "wound"


def test_gated_rules_act_as_written_when_what_they_filter_on_is_there(tmp_path):
    """B is `loud`: R2 (+3) and R6 (marks hush) run after the wound. R1 and R5 come before
    R6 in bus order (not yet hushed: they do not run), R8 after it (hushed: +2). C holds a
    relic: R3 (+5) and R9 (+4). A has nothing: no rule acts. The needles wound each 2 (deluxe
    caps coins at 20: the amounts stay under it)."""
    mod(tmp_path)
    o = run_scenario(tmp_path, """
start: {B: {marks: {loud: 1}}, C: {items: [relic]}}
room: needles
plays: {A: 1, B: 2, C: 3}
expect:
  A: {coins: 0, wounds: 2}
  B: {coins: 5, wounds: 2, marks: {loud: 1, hush: 1}}
  C: {coins: 9, wounds: 2}
""")
    assert o.ok, o.differences + [d.message for d in o.diagnostics]


def test_a_gate_opens_for_the_card_an_event_is_about(tmp_path):
    """R4 hears `give(relic)`: the highest player gets a relic and 7 coins."""
    mod(tmp_path)
    o = run_scenario(tmp_path, """
room: shop
plays: {A: 1, B: 2, C: 5}
expect:
  C: {coins: 7, items: [relic]}
  A: {coins: 0}
""")
    assert o.ok, o.differences + [d.message for d in o.diagnostics]


def test_quiet_rules_cost_no_test_of_their_own_and_no_rebuild_per_game(tmp_path, monkeypatch):
    """In base-game deals nobody is hushed, loud or holds a relic: the gated rules' own tests
    never run, and a second game builds no bus at all (the house's buses are shared)."""
    rules = load_rules("deluxe", cards=(str(mod(tmp_path)),))
    calls = []
    gate = house_of(rules.house_rules).bus.reacts["wound"][0][0]
    for h, _ in gate.members:
        pred = h.pred
        monkeypatch.setattr(h, "pred", lambda ctx, p, owner, pred=pred: calls.append(1) or
                            pred(ctx, p, owner))
    # no deal puts the mod's rooms in play: the base deck only
    rules.deck = {c: n for c, n in rules.deck.items() if c not in ("needles", "shop")}
    vars(rules).pop("deck_cards", None)
    built = []
    real_add = bus_module.Bus.add
    monkeypatch.setattr(bus_module.Bus, "add", lambda self, r, o: built.append(1) or
                        real_add(self, r, o))
    Game(rules, NAMES, [RandomBot() for _ in NAMES], seed=1).run()
    first = len(built)
    Game(rules, NAMES, [RandomBot() for _ in NAMES], seed=1).run()
    assert calls == []
    assert first > 0 and len(built) == first


MARKS_FIRST = """
status hush { name "Hush" }
rule marker { name "Marker"  after wound { mark hush } }
rule q1 { name "Q1"  after wound on marked(hush) { gain 1 coin } }
rule q2 { name "Q2"  after wound on marked(hush) { gain 1 coin } }
rule q3 { name "Q3"  after wound on marked(hush) { gain 1 coin } }
rule q4 { name "Q4"  after wound on marked(hush) { gain 1 coin } }
kind pinprick() { resolve { everyone: wound 2 } }
pinprick needles { name "Needles" }
"""


def test_a_gate_is_tested_when_the_dispatch_reaches_it(tmp_path):
    """The marker, earlier in bus order, hushes the wounded player; the four gated rules after
    it then hear the same wound (docs/dsl.md, "The event bus": every `after` that applies, in
    bus order). A gate tested before the marker ran would have skipped them."""
    (tmp_path / "quiet.dsl").write_text(MARKS_FIRST)
    (tmp_path / "mod.yaml").write_text("deck: {needles: 1}\n")
    rules = load_rules("deluxe", cards=(str(tmp_path),))
    assert house_of(rules.house_rules).bus.reacts["wound"][1][0].__class__ is Gate
    o = run_scenario(tmp_path, """
room: needles
plays: {A: 1, B: 2, C: 3}
expect:
  A: {coins: 4, wounds: 2, marks: {hush: 1}}
  C: {coins: 4, wounds: 2, marks: {hush: 1}}
""")
    assert o.ok, o.differences + [d.message for d in o.diagnostics]
