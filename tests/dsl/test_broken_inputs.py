"""A corpus of broken inputs (tests/corpus/), each checked by the real validator.

Every case states the EXACT diagnostics expected: (file, code, line, col) for each one, and
optionally a substring of the first diagnostic's message and hint. A single .dsl file is
checked as a mod on top of the built-in deluxe cards; a folder is checked with its
ruleset.yaml (or, without one, as a mod); a .yaml file is checked as a ruleset.

Cases where the checker's answer is wrong or unhelpful are strict xfails: the expectation says
what the checker should do, the reason says what it does today.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple, Optional

import pytest
from click.testing import CliRunner

from raiders.dsl.diagnostics import CODES
from raiders.formats.validate import validate_paths
from raiders.interpreter.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"  # every layer's tests
CORPUS = TESTS / "corpus"  # its rulesets name the cards by relative paths: it stays there


class Case(NamedTuple):
    path: str                      # relative to tests/corpus
    expected: list                 # [(code, line, col)] or [(file, code, line, col)]
    message: Optional[str] = None  # substring of the first expected diagnostic's message
    hint: Optional[str] = None     # substring of the first expected diagnostic's hint
    xfail: Optional[str] = None    # reason, when the checker is known to get this wrong


def C(path, expected, message=None, hint=None, xfail=None) -> Case:
    return Case(path, expected, message, hint, xfail)


CASES: list[Case] = [
    # ---- misspelt keywords -------------------------------------------------------------
    C("kw_resolve_typo_card.dsl", [("E105", 3, 3)], "unknown field `resolv`",
      "did you mean `resolve`?"),
    C("kw_instead_typo.dsl", [("E001", 3, 13)], "unexpected `wound`",
      "`insted` is not a keyword: did you mean `instead`?"),
    C("kw_resolve_typo.dsl", [("E405", 3, 3)], "`resolv`", "did you mean `resolve`"),
    C("kw_playable_typo_card.dsl", [("E105", 3, 3)], "unknown field `playble`",
      "did you mean `playable`"),
    C("kw_attack_typo.dsl", [("E001", 3, 11)], "unexpected name `lowest`",
      "`atack` is not a keyword: did you mean `attack`?"),
    # ---- unknown words -------------------------------------------------------------------
    C("unknown_kind.dsl", [("E101", 1, 1)], "unknown kind `monstr`", "did you mean `monster`?"),
    C("unknown_selector.dsl", [("E102", 3, 5)], "unknown selector `richets`",
      "did you mean `richest`?"),
    C("unknown_selector_attack.dsl", [("E102", 3, 12)], "unknown selector `lowset`",
      "did you mean `lowest`?"),
    C("unknown_item_give.dsl", [("E103", 4, 15)], "unknown item `swrod`", "did you mean `sword`?"),
    C("unknown_item_playable.dsl", [("E103", 2, 12)], "unknown item `kye`",
      "did you mean `key`?"),
    C("unknown_item_escape.dsl", [("E103", 4, 10)], "unknown item `lantern`",
      "items: crystal-ball, key, sword, torch"),
    C("unknown_item_items.dsl", [("E103", 1, 53)], "unknown item `lute`", "torch"),
    C("unknown_field.dsl", [("E105", 2, 3)], "unknown field `strenght`",
      "did you mean `strength`?"),
    C("unknown_name_expr.dsl", [("E104", 3, 26)], "unknown name `bonnus`"),
    C("unknown_name_minus.dsl", [("E104", 3, 19)], "unknown name `total-gift`",
      "subtraction needs spaces"),
    C("amount_outside_modify.dsl", [("E104", 2, 27)], "`amount` only has a meaning inside"),
    C("unknown_table.dsl", [("E104", 3, 33)], "unknown table `hitz`", "did you mean `hits`?"),
    C("unknown_function.dsl", [("E106", 3, 19)], "unknown function `hlf`",
      "did you mean `half`?"),
    C("wrong_arg_count.dsl", [("E303", 3, 19)], "`min` takes 2 argument(s), got 1"),
    C("unknown_event_after.dsl", [("E107", 4, 9)], "unknown event `wond` in `after`",
      "did you mean `wound`?"),
    C("unknown_event_instead.dsl", [("E107", 3, 14)], "unknown event `atack` in `instead of`",
      "did you mean `attack`?"),
    C("unknown_tag.dsl", [("E109", 3, 23)], "unknown tag `atacked`", "did you mean `attacked`?"),
    C("unknown_param_type.dsl", [("E108", 1, 18)], "unknown parameter type `integer`",
      "did you mean `int`?"),
    C("unknown_param_type_used.dsl", [("E108", 1, 18)], "unknown parameter type `integer`"),
    C("untyped_param.dsl", [("E108", 1, 12)], "parameter `gift` needs a type"),
    C("unknown_ability.dsl", [("E110", 3, 11)], "unknown ability `peak`", "did you mean `peek`?"),
    # ---- fields and values ---------------------------------------------------------------
    C("missing_wounds.dsl", [("E201", 1, 9)], "missing required field `wounds`"),
    C("field_twice.dsl", [("E202", 4, 3)], "field `wounds` is given twice",
      "first given at line 3"),
    C("duplicate_param.dsl", [("E202", 1, 27)], "gift"),
    C("table_key_0.dsl", [("E301", 4, 5)], "table key 0 is outside 1..5"),
    C("table_key_6.dsl", [("E301", 3, 5)], "table key 6 is outside 1..5"),
    C("table_row_twice.dsl", [("E304", 5, 5)], "table row 5 is given twice",
      "first given at line 3"),
    C("power_card_7.dsl", [("E301", 4, 19)], "there is no power card 7"),
    C("per_players_two.dsl", [("E302", 2, 12)], "needs 3 values", "14 / 18 / 23"),
    C("negative_coins.dsl", [("E001", 2, 9)], "unexpected `-`"),
    C("negative_coins_expr.dsl", [("E301", 2, 9)], "cannot be negative"),
    C("facing_bad_letters.dsl", [("E302", 1, 24)], "five letters U or D"),
    C("facing_wrong_length.dsl", [("E302", 1, 24)], "five letters U or D"),
    C("facing_lowercase.dsl", [("E302", 1, 24)], "five letters U or D"),
    C("string_for_number.dsl", [("E302", 2, 9)], "`chest` takes a number"),
    C("kind_sets_field.dsl", [("E405", 2, 3)], "a kind cannot set field `gift`"),
    # ---- declarations ----------------------------------------------------------------------
    C("dup_id_two_files", [("dup_id_two_files/b.dsl", "E401", 2, 10)],
      "card id `lucky-chest` is defined twice", "a.dsl:1:10"),
    C("duplicate_base_id.dsl", [("E401", 1, 9)], "card id `dragon` is defined twice",
      "monsters.dsl"),
    C("duplicate_kind.dsl", [("E402", 4, 6)], "kind `altar` is defined twice",
      "duplicate_kind.dsl:1:6"),
    C("kind_parent_unknown.dsl", [("E403", 1, 16)], "unknown parent kind `montser`",
      "did you mean `monster`?"),
    C("kind_cycle.dsl", [("E403", 1, 6), ("E403", 2, 6)], "kind `egg` derives from itself"),
    # ---- statements in the wrong place -----------------------------------------------------
    C("effect_without_players.dsl", [("E404", 3, 5)], "`gain` has no players to affect"),
    C("row_outside_table.dsl", [("E405", 3, 5)], "belongs in a table"),
    # ---- syntax ------------------------------------------------------------------------------
    C("missing_brace.dsl", [("E003", 1, 27)], "this `{` is never closed",
      "add the missing `}`"),
    C("missing_brace_then_card.dsl", [("E003", 2, 11)], "never closed"),
    C("extra_brace.dsl", [("E001", 1, 30)], "unexpected `}`"),
    C("missing_arrow.dsl", [("E001", 3, 7)], "expected `->`"),
    C("uppercase_id.dsl", [("E002", 1, 10)], "unexpected character `C`", "lowercase"),
    C("stray_char.dsl", [("E002", 2, 11)], "unexpected character `@`"),
    C("unterminated_string.dsl", [("E002", 2, 8)], 'unexpected character `"`'),
    C("binary.dsl", [("E004", 1, 1)], "cannot read file"),
    C("empty.dsl", []),
    C("character_wounds_then_coins.dsl", []),
    C("deep_expression.dsl", []),
    # ---- rulesets ------------------------------------------------------------------------------
    C("ruleset_missing_card", [("ruleset_missing_card/ruleset.yaml", "E502", 8, 3)],
      "`deck` names `altar-of-gold`", "did you mean `altar-of-gilt`?"),
    C("ruleset_card_unknown_item", [("ruleset_card_unknown_item/vault.dsl", "E103", 4, 15)],
      "unknown item `lantern`"),
    C("ruleset_unknown_field", [("ruleset_unknown_field/ruleset.yaml", "E504", 7, 1)],
      "unknown ruleset field `coins_cap`", "did you mean `coin_cap`?"),
    C("ruleset_wrong_type", [("ruleset_wrong_type/ruleset.yaml", "E503", 7, 9)],
      "`remove` takes a whole number"),
    C("ruleset_wrong_role", [("ruleset_wrong_role/ruleset.yaml", "E503", 4, 23)],
      "`snake` is a room, not a character"),
    C("ruleset_missing_folder", [("ruleset_missing_folder/ruleset.yaml", "E505", 3, 25)],
      "card folder `./extra` not found"),
    C("yaml_malformed.yaml", [("E501", 3, 8)], "never closed"),  # at the `[`, not the next key
    C("yaml_duplicate_key.yaml", [("E501", 3, 1)], "duplicate key"),
    C("yaml_python_tag.yaml", [("E501", 7, 9)], "python/object/apply:os.system` is not allowed"),
    C("yaml_python_tag_doc.yaml", [("E501", 3, 1)], "is not allowed here"),
    C("yaml_list.yaml", [("E503", 1, 1)], "a ruleset is one YAML map"),
    C("yaml_empty.yaml", [("E503", 1, 1)], "a ruleset is one YAML map"),
    C("yaml_bad_format.yaml", [("E503", 1, 9)], "unknown ruleset format", "raiders-ruleset/1"),
    C("yaml_bad_variant.yaml", [("E503", 8, 20), ("E504", 8, 33)], "`play` is one of",
      "did you mean `simultaneous`?"),
    C("yaml_missing_fields.yaml", [("E504", 1, 1)] * 5, "ruleset is missing field `cards`"),
    C("yaml_binary.yaml", [("E004", 1, 9)],  # where the bad byte stands, not 1:1
      "cannot read file: not utf-8 text (byte 0xff at offset 8)"),
    # issue 8 §6: what passed and then crashed or misbehaved
    C("param_cycle.dsl", [("E305", 2, 7), ("E305", 3, 39)],
      "`strength` and `wounds` of `circle` refer to each other", "give one of them a number"),
    C("param_hides_builtin.dsl", [("E203", 1, 23)], "hides the built-in number `total`"),
    C("contradictory_rules.dsl", [("E307", 4, 3)],
      "`unplayable torch` contradicts `playable torch` at line 3"),
    C("huge_literal.dsl", [("E301", 1, 25)], "this number is too large: it has 5000 digits",
      "strength never"),
    C("game_checks", [("game_checks/cards.dsl", "E410", 2, 36),
                        ("game_checks/cards.dsl", "E409", 3, 26)],
      "`charm-vault` gives `charm`, but the supply holds none", "items: {charm: 2}"),
    C("boss_in_deck", [("boss_in_deck/lich.dsl", "W601", 1, 1)],
      "`lich` is a boss but joins the room deck", "bosses: [lich]"),
]


def _expected(case: Case) -> list[tuple[str, str, int, int]]:
    out = []
    for e in case.expected:
        out.append(tuple(e) if len(e) == 4 else (case.path, *e))
    return sorted(out, key=lambda t: (t[0], t[2], t[3], t[1]))


def _rel(path: str) -> str:
    return Path(path).resolve().relative_to(CORPUS).as_posix()


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        yield pytest.param(case, id=case.path, marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_broken_input(case: Case, monkeypatch):
    calls: list = []
    monkeypatch.setattr(os, "system", lambda *a, **k: calls.append(a) or 0)
    report = validate_paths([str(CORPUS / case.path)])
    diags = sorted(report.diagnostics, key=lambda d: (_rel(d.span.path), d.span.line,
                                                       d.span.col, d.code))
    got = [(_rel(d.span.path), d.code, d.span.line, d.span.col) for d in diags]
    assert got == _expected(case), "\n".join(
        f"{_rel(d.span.path)}:{d.span.line}:{d.span.col} {d.code} {d.message} | {d.hint}"
        for d in diags)
    assert not calls
    for d in diags:
        assert d.code in CODES
        assert d.severity == ("warning" if d.code.startswith("W") else "error")
    if case.expected and (case.message or case.hint):
        e = case.expected[0]
        file, code, line, col = e if len(e) == 4 else (case.path, *e)
        first = next(d for d in diags if (_rel(d.span.path), d.code, d.span.line, d.span.col)
                     == (file, code, line, col))
        if case.message:
            assert case.message in first.message
        if case.hint:
            assert first.hint is not None and case.hint in first.hint, first.hint


def test_corpus_is_big_enough_and_every_input_has_a_case():
    listed = {c.path for c in CASES}
    assert len(listed) == len(CASES), "a corpus input is listed twice"
    on_disk = {p.name for p in CORPUS.iterdir()}
    assert on_disk == listed
    assert len(CASES) >= 36


def test_text_nested_too_deeply_is_refused_cleanly():
    from raiders.dsl.parser import parse

    module, diags = parse("monster m { strength 1 wounds 1 resolve " + "{" * 20000
                          + "}" * 20000 + " }", "deep.dsl")
    assert module is None and [d.code for d in diags] == ["E005"]


def test_every_code_is_exercised_by_some_test():
    """Each stable code has a test that makes the tool emit it (the fast tier touches all)."""
    text = "".join(p.read_text() for p in TESTS.rglob("test_*.py"))
    missing = [code for code in CODES if f'"{code}"' not in text and f"[{code}]" not in text]
    assert not missing, missing


def test_every_code_the_tool_emits_is_a_stable_code():
    """A code written in the source (`Diagnostic(span, "E509", …)`) is in CODES, so `--format
    json`, the docs' table and the language server know it (E509 was emitted but unlisted)."""
    import re

    root = TESTS.parent
    source = "".join(p.read_text(encoding="utf-8") for d in ("dsl", "formats", "interpreter")
                     for p in (root / d).rglob("*.py"))
    emitted = set(re.findall(r'"([EW][1-9]\d\d)"', source))
    assert emitted - set(CODES) == set(), emitted - set(CODES)


def test_corpus_covers_the_codes():
    covered = {e[-3] for c in CASES if not c.xfail for e in c.expected}
    wanted = {"E001", "E002", "E003", "E004", "E101", "E102", "E103", "E104", "E105", "E106",
              "E107", "E108", "E109", "E110", "E201", "E202", "E301", "E302", "E303", "E304",
              "E401", "E402", "E403", "E404", "E405", "E501", "E502", "E503", "E504", "E505",
              "E203", "E305", "E307", "E409", "E410", "W601"}
    assert wanted <= covered, wanted - covered
    assert covered <= set(CODES)


PAYLOADS = [
    ("field", "remove: !!python/object/apply:{call} [{args}]\n"),  # a value inside the ruleset
    ("document", "!!python/object/apply:{call} [{args}]\n"),       # a whole document
]


@pytest.mark.parametrize("call", ["os.system", "subprocess.check_call"])
@pytest.mark.parametrize("where,payload", PAYLOADS, ids=[p[0] for p in PAYLOADS])
def test_python_tag_in_yaml_is_never_executed(tmp_path, call, where, payload):
    """The real thing, not a patched os.system: a ruleset whose tag would create a file (if
    the YAML loader constructed it) is refused and the file never appears."""
    marker = tmp_path / "ran"
    args = (f'"touch {marker}"' if call == "os.system" else f'[touch, "{marker}"]')
    # (a file must declare its format before it is parsed at all: E510 without it)
    head = "format: raiders-ruleset/1\n" + ("id: tiny\n" if where == "field" else "---\n")
    path = tmp_path / "ruleset.yaml"
    path.write_text(head + payload.format(call=call, args=args), encoding="utf-8")
    report = validate_paths([str(path)])
    assert [d.code for d in report.diagnostics] == ["E501"]  # refused, not constructed
    assert "is not allowed" in report.diagnostics[0].message
    assert not marker.exists()


# Where the caret should be: under the misspelt word, not at the start of the construct.
CARET_CASES = [
    ("unknown_event_after.dsl", "E107", 4, 9),    # `wond`, not `after`
    ("unknown_tag.dsl", "E109", 3, 23),           # `atacked`, not `instead`
    ("kind_parent_unknown.dsl", "E403", 1, 16),   # `montser`, not `kind`
    ("unknown_param_type.dsl", "E108", 1, 18),    # `integer`, not the parameter's name
]


@pytest.mark.parametrize("name,code,line,col", CARET_CASES, ids=[c[0] for c in CARET_CASES])
def test_caret_under_the_misspelt_word(name, code, line, col):
    report = validate_paths([str(CORPUS / name)])
    assert [(d.code, d.span.line, d.span.col) for d in report.diagnostics] == [(code, line, col)]


# ---- the command line ---------------------------------------------------------------------

HEADER = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                    r"error\[(?P<code>E\d{3})\]: (?P<message>.+)$")


def _run_cli(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    return CliRunner().invoke(cli_main, args)


def _check_rendered(text: str, path: str, code: str, line: int, col: int, word: str,
                    hint: str) -> None:
    lines = text.splitlines()
    m = HEADER.match(lines[0])
    assert m, lines[0]
    assert (m["path"], m["code"], int(m["line"]), int(m["col"])) == (path, code, line, col)
    gutter = " " * len(str(line))
    assert lines[1] == f"{gutter} |"
    assert lines[2].startswith(f"{line} | ")
    source = lines[2][len(f"{line} | "):]
    assert lines[3].startswith(f"{gutter} | ")
    caret = lines[3][len(f"{gutter} | "):]
    assert caret.strip(" ") == "^" * len(caret.strip(" "))
    assert caret.index("^") == col - 1
    assert source[col - 1:].startswith(word)
    assert len(caret.strip()) == len(word)
    assert lines[4] == f"  = hint: {hint}"


@pytest.mark.parametrize("name,code,line,col,word,hint", [
    ("unknown_selector.dsl", "E102", 3, 5, "richets", "did you mean `richest`?"),
    ("unknown_item_give.dsl", "E103", 4, 15, "swrod", "did you mean `sword`?"),
    ("uppercase_id.dsl", "E002", 1, 10, "C", "names and ids are lowercase"),
    ("ruleset_unknown_field/ruleset.yaml", "E504", 7, 1, "coins_cap",
     "did you mean `coin_cap`?"),
])
def test_cli_text_output(name, code, line, col, word, hint, monkeypatch):
    shown = f"tests/corpus/{name}"
    result = _run_cli(["validate", shown], monkeypatch)
    assert result.exit_code == 1, result.output
    _check_rendered(result.stderr, shown, code, line, col, word, hint)
    assert "1 error(s)" in result.stdout  # the summary is a report: stdout (docs/tools.md)


def test_cli_json_output(monkeypatch):
    result = _run_cli(["validate", "--format", "json", "tests/corpus/unknown_selector.dsl",
                       "tests/corpus/ruleset_wrong_type/ruleset.yaml"], monkeypatch)
    assert result.exit_code == 1
    items = json.loads(result.stdout)
    assert len(items) == 2
    for item in items:
        assert set(item) == {"path", "line", "col", "end", "code", "severity", "message", "hint"}
        assert set(item["end"]) == {"line", "col"}
        assert item["severity"] == "error"
    by_code = {i["code"]: i for i in items}
    sel = by_code["E102"]
    assert sel["path"] == "tests/corpus/unknown_selector.dsl"
    assert (sel["line"], sel["col"]) == (3, 5)
    assert sel["end"] == {"line": 3, "col": 12}
    assert sel["message"] == "unknown selector `richets`"
    assert sel["hint"] == "did you mean `richest`?"
    yml = by_code["E503"]
    assert yml["path"] == "tests/corpus/ruleset_wrong_type/ruleset.yaml"
    assert (yml["line"], yml["col"]) == (7, 9)
    assert yml["hint"] is None


def test_cli_clean_file_exits_zero(monkeypatch):
    result = _run_cli(["validate", "tests/corpus/empty.dsl"], monkeypatch)
    assert result.exit_code == 0
    assert "no problems found" in result.output


def test_cli_counts_only_the_files_asked_about(monkeypatch):
    result = _run_cli(["validate", "tests/corpus/empty.dsl"], monkeypatch)
    assert "checked 1 file(s)" in result.output


def test_cli_subprocess_exit_code_and_streams():
    exe = Path(sys.executable).with_name("raiders")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-c",
                                            "from raiders.interpreter.cli import main; main()"]
    proc = subprocess.run([*cmd, "validate", "tests/corpus/missing_wounds.dsl"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    # diagnostics all go to stderr; the summary, clean or not, is the one line on stdout
    assert proc.stdout == "checked 1 file(s): 1 error(s)\n"
    first = proc.stderr.splitlines()[0]
    assert first == ("tests/corpus/missing_wounds.dsl:1:9: error[E201]: "
                     "monster `bat` is missing required field `wounds`")
    assert "= hint: add `wounds …`" in proc.stderr
    assert "error(s)" not in proc.stderr


def test_an_unquoted_card_name_gets_the_quotes_hint_and_later_errors_still_show(tmp_path):
    from raiders.dsl.parser import parse

    text = ("monster bat { name Bat  strength 3 wounds 1 }\n"
            "monster rat { strength 3 wounds }\n")
    module, diags = parse(text, "bats.dsl")
    assert module is None and [d.code for d in diags] == ["E002", "E001"]
    assert diags[0].hint == 'a card\'s name is a quoted string: `name "Bat"`'


@pytest.mark.parametrize("bad, shown", [("\x00", "\\x00"), ("\x1b", "\\x1b"), ("\x07", "\\x07"),
                                        ("\u202e", "\\u202e"), ("\x9b", "\\x9b")])
def test_a_control_character_is_shown_escaped_with_the_caret_under_it(tmp_path, bad, shown):
    """Before: a NUL in a card was ``unexpected character ` ` `` and the raw byte went to the
    terminal (an escape sequence could rewrite the screen) (issue 27). Now escaped, in the
    message and in the quoted line, the caret under the escape."""
    card = tmp_path / "bad.dsl"
    card.write_bytes(f"monster bat {{ strength 3 {bad} wounds 1 }}\n".encode())
    result = CliRunner().invoke(cli_main, ["validate", str(card)])
    assert result.exit_code == 1
    out = result.output
    assert f"error[E002]: unexpected character `{shown}`" in out, out
    assert bad not in out
    quoted = next(line for line in out.splitlines() if line.startswith("1 | "))
    caret = next(line for line in out.splitlines() if line.strip().startswith("| ") and "^" in line)
    assert quoted == f"1 | monster bat {{ strength 3 {shown} wounds 1 }}"
    assert caret.index("^") == quoted.index(shown) and caret.count("^") == len(shown)


def test_tokens_pass_over_a_line_they_cannot_read_and_keep_every_place():
    """An editor's half-typed text (dsl/parser.py `tokens`, what hover reads words from): a
    line the lexer cannot read is passed over from where it stops, the next lines keep their
    places; a text of many such lines is lexed once, not once per line."""
    from raiders.dsl.parser import declaration_at, tokens

    text = 'boss x { name "not closed\n  strength @ 1 / 2 / 3 }\nvault y { rounds 2 }\n'
    got = [(str(t), t.line, t.column, text[t.start_pos:t.end_pos]) for t in tokens(text)]
    assert got[:4] == [("boss", 1, 1, "boss"), ("x", 1, 6, "x"), ("{", 1, 8, "{"),
                       ("name", 1, 10, "name")]
    assert got[4:] == [("strength", 2, 3, "strength"), ("vault", 3, 1, "vault"),
                       ("y", 3, 7, "y"), ("{", 3, 9, "{"), ("rounds", 3, 11, "rounds"),
                       ("2", 3, 18, "2"), ("}", 3, 20, "}")]
    vault = declaration_at(text, "x.dsl", 3, 12)  # the card after the broken one parses
    assert vault.id == "y" and vault.members[0].span.line == 3
    assert declaration_at(text, "x.dsl", 1, 11) is None  # the broken one does not
    above = 'boss half {\n  strength 1 /\nvault y { name "Y"  rounds 2 }\n'  # never closed
    assert declaration_at(above, "x.dsl", 3, 22).members[1].name == "rounds"
    # a text of many lines the lexer cannot read: passed over up to a bound, each lexed once
    assert len(tokens("boss x { @ }\n" * 15_000)) == 3 * 200
