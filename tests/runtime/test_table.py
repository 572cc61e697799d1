"""At the table (issue 10): seeds always reproducible, the dealt dungeon, `python -m raiders`,
the human seat's prompt, narration in words, colour."""
import os
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args, input=None, env=None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


def test_a_drawn_seed_is_printed_and_logged_and_replays_the_same_game(tmp_path):
    log = tmp_path / "g.yaml"
    first = run("play", "-q", "--log", str(log))
    assert first.exit_code == 0, first.output
    seed = int(re.search(r"seed (\d+) \(drawn", first.stderr).group(1))
    assert f"seed: {seed}\n" in log.read_text()
    again = run("play", "-q", "--seed", str(seed))
    assert again.stdout == first.stdout


def test_log_never_changes_which_game_is_played(tmp_path):
    narrated = run("play", "--seed", "11")
    logged = run("play", "--seed", "11", "--log", str(tmp_path / "g.yaml"))
    assert narrated.exit_code == 0 and narrated.stdout == logged.stdout


def test_show_dungeon_is_the_deal_play_uses():
    shown = run("show", "--dungeon", "--seed", "7")
    assert shown.exit_code == 0, shown.output
    played = run("play", "--seed", "7").stdout
    rooms = re.findall(r"Room \d+: ([^(]+) \(", shown.stdout)
    assert rooms == re.findall(r"Room \d+: ([^(]+) \(", played)
    assert "18 for 4 players" in shown.stdout  # the troll's strength at this table
    assert run("show", "--seed", "3").exit_code == 2  # --seed goes with --dungeon
    assert run("show", "troll", "--dungeon").exit_code == 2


def test_python_dash_m_raiders_is_the_command():
    out = subprocess.run([sys.executable, "-m", "raiders", "show", "--help"],
                         capture_output=True, text=True, cwd=os.path.dirname(__file__))
    assert out.returncode == 0 and "--dungeon" in out.stdout


def test_narration_reads_as_words():
    from raiders.interpreter.records.narrate import effect_words, tie_break_words
    from raiders.interpreter.runtime.state import Player

    assert effect_words("wound", "Ann", 1) == "Ann takes 1 wound"
    assert effect_words("gain", "Ann", 3) == "Ann gains 3 coins"
    assert effect_words("test", "", (18, ">=", 16, True, "beaten", "total", "strength"),
                        room="Troll") == "18 against 16: the Troll is beaten"
    assert effect_words("split", "Ann,Bob,Cid", 2) == (
        "Ann, Bob and Cid tie for the 2 coins: more sharers than coins, so nobody gets any")
    ann, bob, cid = Player(0, "Ann"), Player(1, "Bob"), Player(2, "Cid")
    ann.coins = bob.coins = 9
    ann.wounds, bob.wounds, cid.wounds, cid.out = 2, 4, 9, "unconscious"
    assert tie_break_words([ann, bob, cid], ["Ann"]) == (
        "Ann and Bob have 9 coins each (Cid out); the tie goes to the fewest wounds: Ann with "
        "2 against 4.")
    bob.wounds, ann.coins, bob.coins = 2, 1, 1
    assert tie_break_words([ann, bob, cid], ["Ann", "Bob"]) == (
        "Ann and Bob have 1 coin and 2 wounds each: still tied after the wounds, both win.")


def test_ties_are_explained_in_scores_when_a_card_changes_the_score():
    """Issue 21: with a scoring rule the winner is the best score (D-9: then the fewest
    wounds), and the narration says so in scores, not coins."""
    from raiders.interpreter.records.narrate import tie_break_words
    from raiders.interpreter.runtime.state import Player

    ann, bob = Player(0, "Ann"), Player(1, "Bob")
    ann.coins, ann.wounds, bob.coins, bob.wounds = 7, 0, 7, 2  # coins minus wounds: 7 and 5
    assert tie_break_words([ann, bob], ["Ann"], {"Ann": 7, "Bob": 5}) == (
        "The best score among those still in: Ann with 7 (7 coins).")
    bob.coins = 9  # 9 - 2: a tie on 7, which the fewest wounds break
    assert tie_break_words([ann, bob], ["Ann"], {"Ann": 7, "Bob": 7}) == (
        "Ann and Bob have a score of 7 each; the tie goes to the fewest wounds: Ann with 0 "
        "against 2.")


def test_a_game_with_a_scoring_rule_narrates_each_score():
    """The wounded-pride rule: the score is coins minus wounds (each worked out here from the
    narrated coins and wounds), for every player still in; the winner has the best."""
    out = run("play", "--seed", "1", "--cards", str(ROOT / "examples/mods/wounded-pride")).stdout
    end = out[out.index("End of the game."):]
    rows = re.findall(r"  (P\d) \(\w+\): (\d+) coins?, (\d+) wounds?"
                      r"(?:, score (-?\d+))?( — .*)?", end)
    assert len(rows) == 4, end
    scores = {}
    for name, coins, wounds, score, out_of_it in rows:
        assert (score == "") == bool(out_of_it), end  # a score for those still in, only
        if score:
            assert int(score) == int(coins) - int(wounds)
            scores[name] = int(score)
    best = max(scores.values())
    winner = [n for n, v in scores.items() if v == best]
    assert f"Winner: {winner[0]}" in end and f"with {best} (" in end, end


def test_a_played_game_narrates_names_sums_and_winners():
    # a game whose narration has each of these (the greedy bots' choices pick the seed)
    out = run("play", "--seed", "4").stdout
    assert "coin(s)" not in out and "wound(s)" not in out
    assert "19 against 18: the Dragon is beaten" in out
    assert "P3 Sword" in out  # an item by its name
    assert "tie for the 2 coins: more sharers than coins" in out
    assert "the tie goes to the fewest wounds" in out


def test_the_human_prompt_shows_the_room_the_table_and_help():
    # each card answer followed by an empty line: a yes/no question (a peek) takes its default
    answers = "?\nroom\ntable\n" + "\n\n".join(["1", "2", "3", "4", "5"] * 12) + "\n\n"
    out = run("play", "--seed", "7", "--human", "1", "-q", input=answers).output
    assert "strength (18 for 4 players)" in out  # the troll, for this table
    assert "room    what this room does" in out  # help
    # everyone's coins, wounds, power cards left this floor and items by name (issue 24)
    assert "P2             1 coin    1 wound  hand 1 2 3 4 5  Crystal Ball, Crystal Ball" in out


def test_every_syntax_error_of_a_file_is_reported_with_hints_for_common_slips():
    from raiders.dsl.parser import parse

    text = (
        'monster a { name "A" strength 1 / 2 / 3 wounds 1\n'
        "  resolve { if total >= 3 { lowest: lose 1 coin } else if total >= 1 { } }\n}\n"
        'monster b { name "B" strength 1 / 2 / 3 wounds 1\n'
        "  resolve { lowest lose 1 coin }\n}\n"
        'monster d { name "D" strength 1 / 2 / 3 wounds 1\n'
        "  resolve { lowest: lose total / 2 coins }\n}\n"
        'monster e { name "E" strength 1 / 2 / 3 wounds 1 }\n')
    module, diags = parse(text, "slips.dsl")
    assert module is None
    assert [d.span.line for d in diags] == [2, 5, 8]
    assert "no `else if`" in diags[0].hint
    assert "a selector is followed by `:`" in diags[1].hint
    assert "div(a, b)" in diags[2].hint


def test_validate_a_folder_finds_its_logs_and_scenario_files(tmp_path):
    import shutil
    from pathlib import Path

    logs = Path(__file__).resolve().parents[2] / "examples" / "logs"
    shutil.copy(logs / "deluxe-standard-table.yaml", tmp_path)
    out = run("validate", str(tmp_path))
    assert out.exit_code == 0 and "checked 1 file(s): no problems found" in out.output


def test_a_malformed_scenario_does_not_stop_the_others_of_its_file(tmp_path):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "examples" / "scenarios" / "deluxe"
    text = sorted(folder.glob("*.yaml"))[0].read_text()
    first = text.split("\n---")[0]
    f = tmp_path / "mixed.yaml"
    f.write_text(first + "\n---\nformat: raiders-scenario/1\nname: broken\nplays: {A: [1\n"
                 + "---\n" + first + "\n")
    out = run("test", str(f))
    assert "error[E501]" in out.output
    assert out.output.count("ok    ") == 2 and "2 passed, 1 failed" in out.output


def test_an_event_card_without_parentheses_lists_only_what_may_follow_an_event():
    from raiders.dsl.parser import parse

    _, diags = parse('item x { name "X"  instead of mark venom on you { } }\n', "ring.dsl")
    [d] = diags
    assert (d.span.line, d.span.col, d.code) == (1, 36, "E001")
    assert d.message == "unexpected name `venom`; expected `(`, `from`, `on`, `{`"
    assert d.hint == "an event names its card in parentheses: `mark(venom)`"


def test_a_selector_with_except_gets_a_hint_that_works():
    from raiders.dsl.parser import parse

    _, diags = parse('treasure t { name "T"  chest 1  after room { everyone except richest: '
                     'heal 1 } }\n', "exc.dsl")
    assert "a selector takes no `except`" in diags[0].hint
    assert "`everyone { unless" in diags[0].hint


def test_hints_for_a_handler_in_the_wrong_order_and_may_after_a_colon():
    from raiders.dsl.parser import parse

    _, diags = parse('item x { name "X"  after steal(torch) from left on you { } }\n', "o.dsl")
    assert "`after steal(ITEM) on SELECTOR from SELECTOR { … }`" in diags[0].hint
    _, diags = parse('item x { name "X"  after room { you: may "?" { gain 1 coin } } }\n',
                     "m.dsl")
    assert "`may` is a statement, not an effect" in diags[0].hint
