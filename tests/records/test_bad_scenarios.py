"""Bad scenario files get positioned diagnostics, not tracebacks; failing ones show a diff."""
import pytest

from raiders.interpreter.records.scenarios import run_file

BASE = """format: raiders-scenario/1
ruleset: {ruleset}
{variant}players: {players}
room: {room}
plays: {plays}
{extra}"""

CASES = [
    ("unknown room", dict(room="dragn"), "unknown room `dragn`", 4, "did you mean `dragon`?"),
    ("too few players", dict(players="[A, B]", plays="{A: 1, B: 2}"), "is for 3–5 players", 3,
     None),
    ("unknown item play", dict(plays="{A: swrod, B: 2, C: 3}"), "unknown card `swrod`", 5, None),
    ("missing play", dict(plays="{A: 1, B: 2}"), "no card for C", 5, None),
    ("solo items", dict(ruleset="classic", variant="variant: solo\n", players="[H]",
                        room="treasure-1", plays="{H: 1}", extra="start:\n  H: {items: [key]}\n"),
     "the solo variant has no items", 8, None),
    ("version", dict(extra=""), None, None, None),
]


@pytest.mark.parametrize("name,fields,message,line,hint", CASES, ids=[c[0] for c in CASES])
def test_bad_scenario(tmp_path, name, fields, message, line, hint):
    values = dict(ruleset="deluxe", variant="", players="[A, B, C]", room="dragon",
                  plays="{A: 1, B: 2, C: 3}", extra="")
    values.update(fields)
    text = BASE.format(**values)
    if name == "version":
        text = text.replace("raiders-scenario/1", "raiders-scenario/7")
        message, line = "unknown scenario format", 1
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    [outcome] = run_file(str(path))
    assert not outcome.ok
    assert outcome.diagnostics, outcome.differences
    d = outcome.diagnostics[0]
    assert message in d.message
    assert d.span.line == line
    if hint:
        assert d.hint == hint


def test_a_failing_scenario_lists_what_differed(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(BASE.format(ruleset="deluxe", variant="", players="[A, B, C, D]",
                                room="dragon", plays="{A: 5, B: 4, C: 3, D: 3}",
                                extra="expect:\n  C: {wounds: 2}\n  A: {wounds: 0}\n"),
                    encoding="utf-8")
    [outcome] = run_file(str(path))
    assert not outcome.ok and not outcome.diagnostics
    assert outcome.differences == ["C.wounds: expected 2, got 3"]


def test_an_item_card_left_out_of_the_supply_says_where_to_add_it(tmp_path):
    (tmp_path / "c.dsl").write_text('item lucky-charm { name "Lucky" }\n')
    path = tmp_path / "s.yaml"
    path.write_text("format: raiders-scenario/1\nruleset: deluxe\ncards: [.]\n"
                    "players: [A, B, C]\nstart: {A: {items: [lucky-charm]}, B: {items: "
                    "[lucky-charn]}}\nroom: dragon\nplays: {A: 1, B: 2, C: 3}\n")
    [outcome] = run_file(str(path))
    found = [(d.span.line, d.span.col, d.message, d.hint) for d in outcome.diagnostics]
    assert found == [
        (5, 21, "item `lucky-charm` is not in this game's supply",
         "a mod puts its items in the supply in mod.yaml: `items: {lucky-charm: 1}`"),
        (5, 48, "unknown item `lucky-charn`", "did you mean `lucky-charm`?")], found
