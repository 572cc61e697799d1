"""Cards compile to Python source (issue 11): every card of every ruleset and mod compiles to
valid Python that `raiders show --python` prints; what a card file says reaches that source only
as literals, never as code; a traceback through a card shows the generated line."""
import ast as pyast
import linecache
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.records.scenarios import run_file
from raiders.interpreter.runtime.codegen import CardSource
from raiders.interpreter.runtime.compiler import compile_card
from raiders.interpreter.runtime.rules import load_rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mods"


@pytest.mark.parametrize("ruleset", ["deluxe", "classic"])
def test_every_card_compiles_to_python_that_parses(ruleset):
    rules = load_rules(ruleset)
    lib = rules.library
    for cid in lib.cards:
        card = compile_card(lib, cid, rules.ruleset.strength_players)
        assert card.source.startswith(f"# card `{cid}`"), cid
        pyast.parse(card.source)  # raises on anything that is not Python
    # the room procedures are functions of the source, not of the AST
    snake = rules.rooms["snake"]
    assert "def resolve(ctx, subject):" in snake.source
    # named after the card (with a digest when another `snake` of other text compiled earlier
    # in this process: which test ran before depends on how the tests are shared out)
    name = snake.resolve.__code__.co_filename
    assert name == "<card snake>" or name.startswith("<card snake ")
    assert "".join(linecache.getlines(name)) == snake.source


def test_every_example_mod_card_compiles():
    for mod in sorted(p for p in EXAMPLES.iterdir() if (p / "mod.yaml").exists()):
        rules = load_rules("classic" if mod.name == "bosses-2013" else "deluxe",
                           cards=(str(mod),))
        for cid in rules.library.cards:
            pyast.parse(compile_card(rules.library, cid, rules.ruleset.strength_players).source)


def test_show_python_prints_the_source_and_refuses_a_kind():
    runner = CliRunner()
    r = runner.invoke(main, ["show", "dragon", "--python"])
    assert r.exit_code == 0, r.output
    assert "def resolve(ctx, subject):" in r.output
    assert "(14, 18, 23)" in r.output  # the card's strengths, inlined
    r = runner.invoke(main, ["show", "monster", "--python"])
    assert r.exit_code == 2 and "is a kind" in r.output
    r = runner.invoke(main, ["show", "--python"])
    assert r.exit_code == 2 and "one card" in r.output
    r = runner.invoke(main, ["show", "knight", "--python"])
    assert r.exit_code == 0 and "no rules" in r.output


HOSTILE = '''
treasure sly {
  name "Sly"
  chest 2
  after room {
    lowest {
      may "x'); __import__('os').system('touch PWNED'); ('" { gain 1 coin }
    }
  }
}
'''

SCENARIO = """
format: raiders-scenario/1
name: a question that looks like code is asked as it is written
ruleset: deluxe
cards: [.]
players: [A, B, C]
room: sly
plays: {A: 1, B: 2, C: 3}
choices: {A: [true]}
expect:
  A: {coins: 1}
"""


def test_card_text_is_data_in_the_source_never_code(tmp_path, monkeypatch):
    (tmp_path / "sly.dsl").write_text(HOSTILE)
    (tmp_path / "s.yaml").write_text(SCENARIO)
    monkeypatch.chdir(tmp_path)
    [outcome] = run_file(str(tmp_path / "s.yaml"))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]
    assert not (tmp_path / "PWNED").exists()
    rules = load_rules("deluxe", cards=(str(tmp_path),))
    source = rules.rooms["sly"].source
    tree = pyast.parse(source)
    calls = {n.func.attr for n in pyast.walk(tree)
             if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Attribute)}
    assert "system" not in calls  # the question is one string constant
    strings = [n.value for n in pyast.walk(tree) if isinstance(n, pyast.Constant)]
    assert any(isinstance(s, str) and "__import__('os')" in s for s in strings)


def test_a_traceback_through_a_card_shows_the_generated_line():
    rules = load_rules("deluxe")
    room = rules.rooms["snake"]
    filename = room.resolve.__code__.co_filename
    first = room.resolve.__code__.co_firstlineno
    assert linecache.getline(filename, first).startswith("def resolve(")

    class Boom(Exception):
        pass

    class Ctx:  # a context whose total cannot be read
        @property
        def total(self):
            raise Boom

    try:
        room.resolve(Ctx(), None)
    except Boom:
        tb = sys.exc_info()[2]
        frames = []
        while tb is not None:
            frames.append(tb.tb_frame.f_code.co_filename)
            tb = tb.tb_next
        assert filename in frames


def test_names_and_comments_are_made_safe():
    src = CardSource("odd-card")
    a = src.define("after_crystal-ball", "ctx, subject", [], doc="line one\nline two\r\x0bthree")
    b = src.define("after_crystal-ball", "ctx, subject", [])
    c = src.define("3rd", "ctx, p", ["return 3"])
    assert a.isidentifier() and b.isidentifier() and c.isidentifier() and a != b
    funcs, text = src.build()
    assert funcs[c](None, None) == 3
    assert len(pyast.parse(text).body) == 3
    comments = [line for line in text.splitlines() if line.strip().startswith("#")]
    assert len(comments) == 2  # the card's header and the one-line doc


def test_two_cards_of_one_id_keep_their_own_lines_for_tracebacks(tmp_path):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "a.dsl").write_text('treasure twin { name "Twin" chest 3 }\n')
    one = load_rules("deluxe", None, (str(mod),)).rooms["twin"]
    (mod / "a.dsl").write_text('treasure twin { name "Twin" chest 7  second_chest 1 }\n')
    two = load_rules("deluxe", None, (str(mod),)).rooms["twin"]
    files = {one.resolve.__code__.co_filename, two.resolve.__code__.co_filename}
    assert len(files) == 2 and all(f.startswith("<card twin") for f in files)
    for room in (one, two):
        code = room.resolve.__code__
        lines = "".join(linecache.getlines(code.co_filename))
        assert lines == room.source


def test_a_long_lived_process_keeps_a_few_versions_of_a_card_not_all():
    from raiders.interpreter.runtime import codegen

    for n in range(codegen.KEEP_VERSIONS * 3):
        src = CardSource("often-edited")
        src.define("resolve", "ctx, subject", [f"return {n}"])
        src.build()
    kept = [f for f in linecache.cache if f.startswith("<card often-edited")]
    assert len(kept) == codegen.KEEP_VERSIONS


def test_parameters_reading_parameters_compile_to_linear_code(tmp_path):
    """`a1 = a0 + a0`, `a2 = a1 + a1`, …: each is one function, called where it is read, so
    40 levels are 40 small functions (written out at each use, the code doubled each step:
    350 MB at 18 levels), and the words name the parameter instead of repeating it."""
    n = 40
    params = ", ".join(["a0: int = 1"] + [f"a{i}: int = a{i - 1} + a{i - 1}" for i in range(1, n)])
    mod = tmp_path / "doubling"
    mod.mkdir()
    (mod / "d.dsl").write_text(f"kind doubler({params}) {{\n"
                               f"  resolve {{ everyone: gain a19 coins }}\n}}\n"
                               'doubler doubling { name "Doubling" }\n')
    rules = load_rules("deluxe", None, (str(mod),))
    room = rules.rooms["doubling"]
    assert len(room.source) < 20_000
    assert "a39: a38 plus a38." in room.words
    (mod / "s.yaml").write_text("format: raiders-scenario/1\nname: 2^19 coins, capped at 20\n"
                                "ruleset: deluxe\ncards: [.]\nplayers: [A, B, C]\n"
                                "room: doubling\nplays: {A: 1, B: 2, C: 3}\n"
                                "expect:\n  A: {coins: 20}\n")
    [outcome] = run_file(str(mod / "s.yaml"))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


def test_a_chain_of_do_compiles_to_linear_code_and_does_the_same(tmp_path):
    """`e1 = { do e0  do e0 }`, `e2 = { do e1  do e1 }`, …: a block parameter that does
    others is one function (written out at each `do`, 20 levels took a minute and 5 GB)."""
    n = 30
    params = ", ".join(["e0: effects = { gain 1 coin }"]
                       + [f"e{i}: effects = {{ do e{i - 1}  do e{i - 1} }}" for i in range(1, n)])
    mod = tmp_path / "doer"
    mod.mkdir()
    (mod / "d.dsl").write_text(f"kind doer({params}) {{\n"
                               "  resolve { do e3  everyone { do e3 } }\n}\n"
                               'doer doer-room { name "Doer" }\n')
    room = load_rules("deluxe", None, (str(mod),)).rooms["doer-room"]
    assert len(room.source) < 20_000
    assert "e29: `e28`; `e28`." in room.words
    (mod / "s.yaml").write_text("format: raiders-scenario/1\n"
                                "name: e3 doubles e0 three times, for everyone (nobody first)\n"
                                "ruleset: deluxe\ncards: [.]\nplayers: [A, B, C]\n"
                                "room: doer-room\nplays: {A: 1, B: 2, C: 3}\n"
                                "expect:\n  A: {coins: 8}\n  C: {coins: 8}\n")
    [outcome] = run_file(str(mod / "s.yaml"))
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]
