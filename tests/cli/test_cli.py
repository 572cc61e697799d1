"""The command line as a user meets it: help, usage errors (exit 2), simulate, a human seat."""
import json
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_every_command_has_help():
    for cmd in ("validate", "play", "replay", "simulate", "test", "show"):
        result = run(cmd, "--help")
        assert result.exit_code == 0 and "Usage:" in result.output and len(result.output) > 300


def test_usage_errors_exit_2():
    assert run("play", "--variant", "duel").exit_code == 2  # deluxe has no duel
    assert run("play", "--ruleset", "classic", "--variant", "solo", "--players", "3").exit_code == 2
    assert run("play", "--bots", "clever").exit_code == 2
    assert run("play", "--difficulty", "3").exit_code == 2  # not solo
    unknown = run("show", "dragn")  # a card not found is a problem found (1), not usage (2)
    assert unknown.exit_code == 1 and "did you mean `dragon`" in unknown.stderr


def test_show_words_come_from_the_compiled_card():
    out = run("show", "golem").output
    assert "Every power 5 played counts as 1." in out
    assert "strength: never" in out


def test_simulate_json_same_for_any_number_of_processes():
    # random bots (as the test was written; greedy is the default since): what is tested is
    # the merging of the workers' tallies, whatever plays
    one = run("simulate", "--games", "40", "--players", "3", "--bots", "random", "--json",
              "--jobs", "1")
    two = run("simulate", "--games", "40", "--players", "3", "--bots", "random", "--json",
              "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0
    assert one.stdout == two.stdout  # byte for byte: integer tallies, merged in any order
    a = json.loads(one.stdout)
    assert a["format"] == "raiders-simulate/2" and a["games"] == 40
    figs = a["figures"]
    seats = [f["value"] for k, f in figs.items() if k.startswith("win.seat.")]
    assert abs(sum(seats) + figs["no_winner"]["value"] - 1) < 1e-5
    assert all(f["low"] <= f["value"] <= f["high"] for f in figs.values())


def test_simulate_compare_shows_both_columns():
    result = run("simulate", "--games", "20", "--players", "3", "--jobs", "1",
                 "--bots", "random", "--compare", "examples/mods/shrine")
    assert result.exit_code == 0
    assert "shrine-of-ash" in result.stdout and "examples/mods/shrine" in result.stdout


def test_simulate_s_figures_stand_one_under_the_other():
    """A reviewer saw `P1  23.1% [8.2%, 50.3%]` one column right of `P2 30.8% [12.7%,
    57.6%]`: the cell was aligned as a whole. Each figure's value now ends in one column, and
    no line ends in spaces."""
    import re

    result = run("simulate", "--games", "13", "--players", "4", "--jobs", "1", "--bots",
                 "random")
    assert result.exit_code == 0, result.output
    rows = list(re.finditer(r"^  \S.*?(\d+\.\d%) \[", result.stdout, re.M))
    assert len(rows) > 8
    assert len({m.end(1) - m.start() for m in rows}) == 1, result.stdout
    assert not any(line.endswith(" ") for line in result.stdout.splitlines())


def test_a_human_seat_is_asked_and_illegal_answers_are_refused():
    # seat 1 answers "9" (refused), then the cards 1..5 in turn, each followed by an empty
    # line: a card prompt asks again, a yes/no question takes its default (no)
    answers = "9\n" + "\n\n".join(["1", "2", "3", "4", "5"] * 5 * 3) + "\n\n"
    result = run("play", "--players", "3", "--seed", "2", "--human", "1", "--bots", "random",
                 "-q", input=answers)
    assert result.exit_code == 0, result.output
    assert "is not one of" in result.output
    assert "your card" in result.output and "Winner" in result.output


def test_validate_checks_logs_and_scenarios_by_their_format(tmp_path):
    good = run("validate", "examples/logs/classic-solo-table.yaml",
               "examples/mods/shrine/scenarios.yaml")
    assert good.exit_code == 0, good.output
    text = open("examples/logs/deluxe-standard-table.yaml", encoding="utf-8").read()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("{Ann: sword, Bob: 4, Cid: 5, Dee: 3}",
                                "{Ann: 2, Bob: 4, Cid: key, Dee: 3}"), encoding="utf-8")
    result = run("validate", str(bad))
    assert result.exit_code == 1
    assert "illegal play: Cid played a key but holds none" in result.output


def test_every_selector_has_behaviour_and_words():
    from raiders.dsl.vocabulary import ATOMS, FUNCTIONS, SELECTORS
    from raiders.interpreter.runtime import compiler

    assert set(SELECTORS) == set(compiler._SELECTOR_SOURCE)
    assert set(ATOMS) == set(compiler._ATOM_SOURCE)
    assert all(w.doc and w.phrase for w in (*SELECTORS.values(), *ATOMS.values()))
    assert {"half", "min", "max", "div", "count", "coins", "wounds", "value", "roll",
            "your_roll", "holds", "played", "marked", "supply", "in_hand",
            "among"} == set(FUNCTIONS)
    assert "threat" in ATOMS


def test_simulate_log_dir_writes_logs_that_replay(tmp_path):
    result = run("simulate", "--games", "6", "--players", "3", "--jobs", "2",
                 "--log-dir", str(tmp_path / "logs"))
    assert result.exit_code == 0, result.output
    logs = sorted((tmp_path / "logs").glob("game-*.yaml"))
    assert len(logs) == 6
    check = run("replay", "--check", str(tmp_path / "logs"))
    assert check.exit_code == 0 and "6 log(s): 6 ok, 0 failed" in check.output
    # the same seed played alone writes the same bytes
    single = tmp_path / "one.yaml"
    run("play", "--players", "3", "--seed", "1", "--log", str(single), "-q")  # both: greedy
    assert single.read_bytes() == (tmp_path / "logs" / "game-1.yaml").read_bytes()


def test_replay_narrates_each_room_with_its_own_effects_only():
    # the game's effect list is shared by every room; each record must hold its own room's
    out = run("replay", "examples/logs/deluxe-standard-table.yaml").output
    room2 = out.split("Room 2: Goblin")[1].split("Room 3")[0]
    # the goblin beaten is all that happens there (the sum against its strength, in words)
    assert "17 against 14: the Goblin is beaten" in room2 and " gains " not in room2


def test_a_human_seat_answers_a_card_s_question_and_sees_how_a_room_is_played():
    """`may` asks a --human seat (issue 8 §2, §4); the answer is recorded like a bot's."""
    import re
    from pathlib import Path

    from raiders.interpreter.game.engine import Game
    from raiders.interpreter.game.human import HumanSeat
    from raiders.interpreter.game.players import RandomBot
    from raiders.interpreter.runtime.rules import load_rules

    mods = Path(__file__).resolve().parents[2] / "examples" / "mods"
    rules = load_rules("classic", None, (str(mods / "wishing-well"), str(mods / "bosses-2013")))
    asked, shown = [], []

    def ask(prompt, default=None):
        if "[y/n]" in prompt and "well" in prompt:
            asked.append(prompt)
            return "maybe" if len(asked) == 1 else "y"  # a bad answer first: asked again
        if "[y/n]" in prompt:
            return "n"  # a peek item: not now
        return re.search(r"\((.*)\)", prompt).group(1).split(", ")[0]

    for seed in range(40):
        human = HumanSeat(ask=ask, say=shown.append)
        game = Game(rules, ["Ann", "Bob", "Cid"], [human, RandomBot(), RandomBot()], seed=seed)
        result = game.run()
        if asked:
            break
    assert asked and "Throw 1 coin in the well" in asked[0], "no seed dealt the question"
    assert "  answer y or n" in shown
    assert any(rec.choices.get("Ann") for rec in result.rooms)
    assert any("room: " in line and "card" in line for line in shown)


def test_colour_only_when_asked_or_on_a_terminal_and_never_with_no_color(tmp_path):
    """`--color` forces colour codes, `--no-color` and NO_COLOR remove them; piped output
    (as here: not a terminal) has none by default. Logs and JSON never hold any."""
    bad = tmp_path / "bad.dsl"
    bad.write_text("monster m { strength 3 }\n")
    forced = run("--color", "validate", str(bad))
    assert "\x1b[" in forced.output and "error[E201]" in forced.output
    assert "\x1b[" not in run("validate", str(bad)).output
    assert "\x1b[" not in run("--no-color", "validate", str(bad)).output
    quiet = CliRunner(env={"NO_COLOR": "1"}).invoke(main, ["validate", str(bad)])
    assert "\x1b[" not in quiet.output
    played = run("--color", "play", "--seed", "3", "--log", str(tmp_path / "g.yaml"))
    assert "\x1b[1mFloor 1" in played.output
    assert "\x1b[" not in (tmp_path / "g.yaml").read_text()


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`raiders replay … | head -1`: no 'Broken pipe' error, exit 141 like a Unix tool."""
    import subprocess
    import sys

    proc = subprocess.run(
        f"{sys.executable} -c 'from raiders.interpreter.cli import main; main()' "
        "replay examples/logs | head -1", shell=True, capture_output=True, text=True,
        timeout=120)
    assert proc.stdout.count("\n") == 1 and "Broken pipe" not in proc.stderr, proc.stderr


def test_a_mistyped_command_gets_a_suggestion():
    out = run("playy", "--seed", "1")
    assert out.exit_code == 2 and "Did you mean 'play'?" in out.output
    out = run("zzz")
    assert out.exit_code == 2 and "No such command 'zzz'." in out.output
    assert "Did you mean" not in out.output


def test_problems_from_any_layer_are_one_exit_status():
    """`Problems` (dsl/diagnostics.py) is the one exception for problems with diagnostics:
    whatever command lets one through, the group prints its diagnostics and exits 1, no
    traceback (issue 23: mapped to an exit code once)."""
    import click

    from raiders.dsl.diagnostics import Diagnostic, Problems
    from raiders.dsl.spans import Span
    from raiders.interpreter.cli import _Main
    from raiders.interpreter.runtime.rules import LoadError

    @click.group(cls=_Main)
    def group():
        pass

    @group.command()
    def broken():
        raise LoadError([Diagnostic(Span("x.dsl", 2, 3, 2, 5), "E101", "unknown kind `ogr`")])

    result = CliRunner().invoke(group, ["broken"])
    assert result.exit_code == 1, result.output
    assert "x.dsl:2:3: error[E101]: unknown kind `ogr`" in result.output
    assert "1 problem(s)" in result.output and "Traceback" not in result.output
    assert LoadError is Problems


def test_simulate_help_gives_the_search_cost_with_one_search_seat_and_with_four():
    """A reviewer read "about 1 s of one core per 4-player game" and planned for it with one
    search seat among greedy ones: that is four search seats' cost; one costs about a
    quarter (docs/simulate.md, The search bot: Cost)."""
    text = " ".join(run("simulate", "--help").output.split())
    assert "0.25 s per 4-player game with one search seat (the others greedy)" in text, text
    assert "0.8 s with four search seats" in text, text
    docs = (Path(__file__).resolve().parents[2] / "docs" / "simulate.md").read_text()
    cost = " ".join(docs[docs.index("**Cost**"):].split("\n\n")[0].split())
    assert "about 0.25 s a game for one search seat" in cost, cost
    assert "four search:30 seats play a deluxe game in 0.80 s" in cost, cost
