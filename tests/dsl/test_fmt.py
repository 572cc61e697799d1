"""`raiders fmt`: the canonical layout, comments kept, idempotent, meaning preserved."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token

from raiders.dsl.fmt import format_text, parse_tree, shape
from raiders.dsl.parser import parse
from raiders.interpreter.cli import main
from tests.cardfiles import card_texts, parsing_texts

ROOT = Path(__file__).resolve().parents[2]


# Every card file in the repository's cards, examples and corpus that reads as text (the
# corpus holds broken ones on purpose: fmt refuses those)
FILES = {name: text for name, text in card_texts().items()
         if name.startswith(("cards/", "examples/", "tests/corpus/"))}


def _parsing() -> dict[str, str]:
    """The files that parse: what a respacing of a real file starts from."""
    parsing = parsing_texts()
    return {name: text for name, text in FILES.items() if name in parsing}


def _fmt(text: str) -> str:
    out, diags = format_text(text)
    assert out is not None, diags
    return out


def _same_meaning(a: str, b: str) -> None:
    ma, mb = parse(a)[0], parse(b)[0]
    assert ma is not None and mb is not None
    assert shape(ma.decls) == shape(mb.decls)


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_card_file_formats_idempotently(name):
    text = FILES[name]
    if name not in parsing_texts():  # a broken corpus file: fmt refuses it and says why
        out, diags = format_text(text, name)
        assert out is None and diags and name.startswith("tests/corpus/"), name
        return
    once = _fmt(text)
    _same_meaning(text, once)
    assert _fmt(once) == once
    assert [str(c).strip() for c in parse_tree(once)[1]] == \
        [str(c).strip() for c in parse_tree(text)[1]]


# ---- hypothesis: any spacing of a real file, with comments anywhere -------------------------

SEPARATORS = [" ", "  ", "\n", "\n\n", "\n\n\n", "\t", " ; ", ";", "\n    ", " \n  "]


def _tokens(text: str) -> list[Token]:
    tree, comments = parse_tree(text)
    toks = [t for t in tree.scan_values(lambda v: isinstance(v, Token))]
    return sorted([*toks, *comments], key=lambda t: t.start_pos)


@st.composite
def respaced(draw) -> str:
    """A real card file with its whitespace redrawn and comments added between tokens."""
    text = _parsing()[draw(st.sampled_from(sorted(_parsing())))]
    out = []
    for tok in _tokens(text):
        if draw(st.integers(0, 15)) == 0:  # a new comment, trailing or on its own line
            out.append(draw(st.sampled_from(["# added\n", "  # added, trailing\n",
                                             "\n# own line\n"])))
        out.append(str(tok))
        sep = draw(st.sampled_from(SEPARATORS))
        out.append(sep if tok.type != "COMMENT" or "\n" in sep else sep + "\n")
    return "".join(out)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(respaced())
def test_fmt_is_idempotent_and_keeps_the_meaning(text):
    _check_fmt(text)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(respaced())
def test_fmt_is_idempotent_and_keeps_the_meaning_many_examples(text):
    _check_fmt(text)


def _check_fmt(text: str) -> None:
    once = _fmt(text)
    _same_meaning(text, once)
    assert _fmt(once) == once
    # every comment is still there, in order (two comments may share a line)
    before = "".join(str(c).strip() for c in parse_tree(text)[1]).replace(" ", "")
    after = "".join(str(c).strip() for c in parse_tree(once)[1]).replace(" ", "")
    assert before == after
    assert all(len(line) == len(line.rstrip()) for line in once.splitlines())
    assert (once == "" or once.endswith("\n")) and "\n\n\n" not in once


# ---- the layout ------------------------------------------------------------------------------


def test_the_canonical_layout():
    messy = """\
# a kind
kind  shrine (offering:int=1,blessing : int = 1){resolve{lowest : lose offering coins
highest:heal blessing}}



shrine shrine-of-ash{name "Shrine of Ash";}
shrine shrine-of-dawn {name "Shrine of Dawn" ; blessing 2}   # trailing
monster m {
      name "M" ; strength 1+2 / half( 3 ) / max(1,2)   wounds 2
  after attack { if total>=strength and not all_same {attacked:lose 1 coin} else {} }
  modify value of power 5 to amount -1
}
"""
    assert _fmt(messy) == """\
# a kind
kind shrine(offering: int = 1, blessing: int = 1) {
  resolve {
    lowest: lose offering coins
    highest: heal blessing
  }
}

shrine shrine-of-ash  { name "Shrine of Ash" }
shrine shrine-of-dawn { name "Shrine of Dawn"  blessing 2 }  # trailing

monster m {
  name "M"
  strength 1 + 2 / half(3) / max(1, 2)
  wounds 2
  after attack { if total >= strength and not all_same { attacked: lose 1 coin } else { } }
  modify value of power 5 to amount - 1
}
"""


def test_comments_stay_where_they_were():
    text = """\
boss b {   # on the brace line
  # before a field

  name "B"   # trailing
  strength 1 /   # inside an expression
     2 / 3
  wounds 1
  # the last line of the body
}
# at the end
"""
    out = _fmt(text)
    assert out == """\
boss b {  # on the brace line
  # before a field

  name "B"      # trailing
  strength 1 /  # inside an expression
      2 / 3
  wounds 1
  # the last line of the body
}
# at the end
"""
    assert _fmt(out) == out


def test_a_long_one_line_card_is_broken_up():
    card = "monster m { name \"" + "x" * 80 + "\"  strength 1 / 2 / 3  wounds 1 }\n"
    assert _fmt(card).splitlines()[1:3] == ['  name "' + "x" * 80 + '"', "  strength 1 / 2 / 3"]


def test_kind_with_parent_and_extend():
    text = "kind boss:monster(wounds=0){}\nextend monster{playable torch as 3}\n"
    assert _fmt(text) == ("kind boss : monster(wounds = 0) { }\n"
                          "extend monster { playable torch as 3 }\n")


def test_an_events_card_hugs_it_and_may_else_keeps_its_blocks():
    text = ('item r { name "R"  instead of mark ( venom ) on you { }  after steal  from left {'
            ' may{gain 1 coin}else{lose 1 coin} } }\n')
    assert _fmt(text) == (
        'item r {\n  name "R"\n  instead of mark(venom) on you { }\n'
        '  after steal from left { may { gain 1 coin } else { lose 1 coin } }\n}\n')


def test_empty_and_comment_only_files():
    assert _fmt("") == ""
    assert _fmt("\n\n  \n") == ""
    assert _fmt("  # only a comment  \n\n\n") == "# only a comment\n"


# ---- the command -----------------------------------------------------------------------------

UGLY = 'monster m {name "M"; strength 1/2/3; wounds 2}\n'
PRETTY = 'monster m { name "M"  strength 1 / 2 / 3  wounds 2 }\n'


def test_cli_check_lists_unformatted_files_and_changes_nothing(tmp_path):
    (tmp_path / "a.dsl").write_text(UGLY)
    (tmp_path / "b.dsl").write_text(PRETTY)
    res = CliRunner().invoke(main, ["fmt", "--check", str(tmp_path)])
    assert res.exit_code == 1
    assert str(tmp_path / "a.dsl") in res.stdout and "b.dsl" not in res.stdout
    assert (tmp_path / "a.dsl").read_text() == UGLY
    res = CliRunner().invoke(main, ["fmt", "--check", str(tmp_path / "b.dsl")])
    assert res.exit_code == 0, res.output


def test_cli_formats_in_place_atomically(tmp_path):
    f = tmp_path / "a.dsl"
    f.write_text(UGLY)
    os.chmod(f, 0o640)
    res = CliRunner().invoke(main, ["fmt", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert f.read_text() == PRETTY
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.dsl"]  # no temporary file left
    assert CliRunner().invoke(main, ["fmt", "--check", str(f)]).exit_code == 0


def test_cli_a_failed_write_leaves_the_file_whole(tmp_path, monkeypatch):
    f = tmp_path / "a.dsl"
    f.write_text(UGLY)

    def broken(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    res = CliRunner().invoke(main, ["fmt", str(f)])
    assert res.exit_code == 1
    assert "cannot write" in res.output and "Traceback" not in res.output
    assert f.read_text() == UGLY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.dsl"]


def test_cli_syntax_error_is_a_diagnostic_and_the_file_is_kept(tmp_path):
    f = tmp_path / "bad.dsl"
    f.write_text("monster m {\n  name \"M\"\n")
    res = CliRunner().invoke(main, ["fmt", str(f)])
    assert res.exit_code == 1
    assert "bad.dsl:1:11: error[E003]" in res.output
    assert f.read_text() == "monster m {\n  name \"M\"\n"


def test_cli_stdin_and_diff(tmp_path):
    res = CliRunner().invoke(main, ["fmt", "-"], input=UGLY)
    assert res.exit_code == 0 and res.stdout == PRETTY
    f = tmp_path / "a.dsl"
    f.write_text(UGLY)
    res = CliRunner().invoke(main, ["fmt", "--diff", str(f)])
    assert res.exit_code == 1 and "+" + PRETTY.strip() in res.stdout
    assert f.read_text() == UGLY


def test_fmt_refuses_a_file_that_is_not_a_card_file():
    result = CliRunner().invoke(main, ["fmt", "examples/mods/gorgon/mod.yaml"])
    assert result.exit_code == 2 and "is not a card file (*.dsl)" in result.output


def test_the_shipped_cards_and_examples_are_in_the_canonical_layout():
    """CI runs `raiders fmt --check cards examples`; a card file added out of layout fails here
    first, in the fast tier, instead of at the end of CI."""
    res = CliRunner().invoke(main, ["fmt", "--check", str(ROOT / "cards"), str(ROOT / "examples")])
    assert res.exit_code == 0, res.output
