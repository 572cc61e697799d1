"""Highlighting: the Pygments lexer (an entry point) and the VS Code TextMate grammar, against
every card file of the repository."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lark import Lark
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Text, Whitespace

from raiders.dsl.highlight import RaidersLexer, textmate_grammar
from raiders.dsl.parser import grammar_text
from tests.cardfiles import parsing_texts

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editors" / "vscode"
TM_FILE = VSCODE / "syntaxes" / "raiders.tmLanguage.json"


FILES = [ROOT / name for name in parsing_texts()]
IDS = [str(f.relative_to(ROOT)) for f in FILES]


def _lark_keywords() -> set[str]:
    """The grammar's words, read by Lark itself (not by the module under test)."""
    lark = Lark(grammar_text(), parser="lalr", lexer="contextual")
    return {t.pattern.value for t in lark.terminals
            if t.pattern.type == "str" and t.pattern.value.isalpha()}


def test_there_are_card_files():
    assert len(FILES) > 15


# ---- Pygments ------------------------------------------------------------------------------


def test_the_lexer_is_a_registered_pygments_plugin():
    assert type(get_lexer_by_name("raiders")).__name__ == "RaidersLexer"
    assert type(get_lexer_for_filename("boss.dsl")).__name__ == "RaidersLexer"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_pygments_classifies_every_token(path):
    text = path.read_text(encoding="utf-8")
    tokens = list(RaidersLexer().get_tokens(text))
    assert "".join(v for _, v in tokens).rstrip("\n") == text.rstrip("\n")
    bad = [(t, v) for t, v in tokens if t in Error or (t in Text and t not in Whitespace
                                                      and v.strip())]
    assert not bad


def test_pygments_token_types():
    text = 'kind k : monster(x: int = 1) { }\nk a { name "A"  x half(2) }  # c\n' \
           "monster m { after attack { lowest: lose total coins } }\n"
    got = {v: str(t) for t, v in RaidersLexer().get_tokens(text) if v.strip()}
    assert got["kind"] == "Token.Keyword.Declaration"
    assert got["k"] == "Token.Name.Class"
    assert got["a"] == "Token.Name.Entity"
    assert got["int"] == "Token.Keyword.Type"
    assert got['"A"'] == "Token.Literal.String.Double"
    assert got["half"] == "Token.Name.Function"
    assert got["# c"] == "Token.Comment.Single"
    assert got["after"] == got["lose"] == "Token.Keyword"
    assert got["lowest"] == "Token.Name.Builtin"
    assert got["total"] == "Token.Name.Constant"


def test_every_grammar_keyword_is_a_keyword_for_pygments():
    for word in _lark_keywords():
        [(tok, value)] = [(t, v) for t, v in RaidersLexer().get_tokens(word) if v.strip()]
        assert value == word and str(tok).startswith("Token.Keyword"), word


# ---- TextMate ------------------------------------------------------------------------------


def _tm() -> dict:
    return json.loads(TM_FILE.read_text(encoding="utf-8"))


def test_vscode_files_are_valid_json():
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    [lang] = manifest["contributes"]["languages"]
    [grammar] = manifest["contributes"]["grammars"]
    assert ".dsl" in lang["extensions"] and grammar["language"] == lang["id"]
    assert (VSCODE / grammar["path"]).resolve() == TM_FILE
    assert _tm()["scopeName"] == grammar["scopeName"]
    # the extension starts the language server
    setting = manifest["contributes"]["configuration"]["properties"]["raiders.server.command"]
    assert setting["default"] == ["raiders", "lsp"]
    assert "vscode-languageclient" in manifest["dependencies"]
    assert (VSCODE / manifest["main"]).is_file()


def test_textmate_regexes_compile():
    for p in _tm()["patterns"]:
        re.compile(p["match"], re.M)


def test_textmate_covers_every_grammar_keyword():
    keyword = [p for p in _tm()["patterns"] if p.get("name") == "keyword.control.raiders"]
    assert keyword
    missing = [w for w in _lark_keywords()
               if not any(re.fullmatch(p["match"], w) for p in keyword)]
    assert not missing, (f"the TextMate grammar misses {missing}: regenerate it with `python "
                         f"-m raiders.dsl.highlight --textmate > {TM_FILE.relative_to(ROOT)}`")


def test_textmate_file_is_the_generated_one():
    generated = textmate_grammar()
    assert [p["match"] for p in _tm()["patterns"]] == \
        [p["match"] for p in generated["patterns"]], \
        "regenerate: python -m raiders.dsl.highlight --textmate > " \
        + str(TM_FILE.relative_to(ROOT))


def _scan(text: str, patterns: list[dict]) -> list[tuple[str, str]]:
    """TextMate's way with a list of `match` patterns, line by line: at each position the
    earliest match wins, the first pattern on a tie; returns the text no pattern matched."""
    unmatched = []
    compiled = [re.compile(p["match"], re.M) for p in patterns]
    for line in text.split("\n"):
        pos = 0
        while pos < len(line):
            best = None
            for rx in compiled:
                m = rx.search(line, pos)
                if m and m.end() > m.start() and (best is None or m.start() < best.start()):
                    best = m
            if best is None:
                unmatched.append(line[pos:])
                break
            unmatched.append(line[pos:best.start()])
            pos = best.end()
    return [u for u in unmatched if u.strip()]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_textmate_classifies_every_token(path):
    assert _scan(path.read_text(encoding="utf-8"), _tm()["patterns"]) == []
