"""The search bot (interpreter/game/search_bot.py): legal plays, deterministic for a seed whatever
--jobs, blind to hidden state (the same view gives the same choice whatever is hidden), any
mod, and (slow tier) stronger than greedy.

Its playouts are greedy games, so a whole game of it costs seconds: the fast tests hand it the
seat for the last floor only (greedy before), or one decision."""
import json

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.game.botspec import make_bot, parse_bot
from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.players import GreedyBot, _Plain, place
from raiders.interpreter.game.search_bot import SearchBot
from raiders.interpreter.runtime.rules import load_rules


def _last_floor(seed: int, budget: int = 2, cards=()):
    """A 3-player deluxe game: greedy for four floors, then the search bot takes seat 1."""
    rules = load_rules("deluxe", None, cards)
    g = Game(rules, ["A", "B", "C"], [GreedyBot(), GreedyBot(), GreedyBot()], seed=seed)
    chosen = []
    for f, floor in enumerate(g.deal.floors):
        if f == len(g.deal.floors) - 1:
            bot = make_bot(f"search:{budget}")
            orig = bot.choose_card

            def spy(view, legal, second, orig=orig):
                card = orig(view, legal, second)
                assert card in legal
                chosen.append(card)
                return card

            bot.choose_card = spy
            g.seats[0] = bot
        g.start_floor(f, floor)
        for r, slot in enumerate(floor.rooms):
            g.records.append(g.play_room(f, r, floor, slot))
        g.end_floor()
    return g.finish(), chosen


def test_budget_is_parsed_and_plays_are_legal_and_deterministic():
    assert parse_bot("search:200") == ("search", 200) and make_bot("search:7").budget == 7
    assert SearchBot().budget == 30  # the documented default
    one, chosen = _last_floor(4)
    two, again = _last_floor(4)
    assert chosen and chosen == again
    assert [r.plays for r in one.rooms] == [r.plays for r in two.rooms]
    assert one.winners == two.winners and len(one.rooms) == 25


def test_playouts_weigh_cards_the_same_whatever_the_process_played_before():
    """Issue 22: the playout seats read their outcomes from a table kept for every game of the
    process (rooms resolved in a plain state made from the key alone), so a game's choices do
    not depend on what the process played before it, nor so on how --jobs splits the games."""
    _Plain._by_rules.clear()
    cold = _last_floor(4)[1]
    table = next(iter(_Plain._by_rules.values())).outcomes
    filled = len(table)
    assert filled > 0  # the playouts resolved their rooms there
    _last_floor(6)
    _last_floor(8, budget=3)
    assert len(table) > filled
    assert _last_floor(4)[1] == cold


def test_playout_seats_know_whether_a_trap_takes_them():
    """D-5: a trap's row falls on the richest. The playouts' plain table knows where the seat's
    coins stand among the others', so a poorer seat loses nothing when it springs the trap
    and the richest loses the row's coins (everyone tied in the plain state before, and
    every seat took the penalty)."""
    rules = load_rules("deluxe")
    plain = _Plain(rules)
    lava = rules.rooms["lava"]  # 5 -> richest: lose 3 coins

    def coins_lost(mine: int, theirs: list[int]) -> int:
        key = (lava.id, 4, 5, "", (), (), (1, 2, 3), place(mine, theirs), place(0, [0, 0, 0]))
        return plain.outcome(lava, key)[0]

    assert coins_lost(1, [4, 6, 2]) == 0
    assert coins_lost(6, [4, 6, 2]) == -3  # tied richest: both lose
    assert coins_lost(9, [4, 4, 4]) == -3
    assert coins_lost(3, [4, 4, 4]) == 0


def test_a_playout_plays_to_the_end_of_this_floor_and_no_further(monkeypatch):
    """The playouts' horizon (search_bot's docstring): from the first room of a floor every
    playout plays this floor's rooms to its last one, then scores; no room of a later floor
    is played (a playout of the whole game cost 3.5 times as much for the same strength)."""
    rules = load_rules("deluxe")
    g = Game(rules, ["A", "B", "C"], [make_bot("search:6"), GreedyBot(), GreedyBot()], seed=3)
    played: list[tuple[int, int]] = []  # (floor, room) of every room a playout played
    real = Game.play_room

    def spy(game, f, r, floor, slot):
        if game is not g:
            played.append((f, r))
        return real(game, f, r, floor, slot)

    monkeypatch.setattr(Game, "play_room", spy)
    for f in (0, 3):  # a floor's first room, early and late in the game
        played.clear()
        floor = g.deal.floors[f]
        g.start_floor(f, floor)
        g.play_room(f, 0, floor, floor.rooms[0])
        assert played, "the search seat had a choice to make"
        assert {room_floor for room_floor, _ in played} == {f}
        assert {r for _, r in played} == set(range(len(floor.rooms)))


def test_it_does_not_read_the_hidden_deal():
    """Two games alike in all the search seat can see before its first choice, but with other
    face-down rooms on later floors: its first choice is the same."""
    rules = load_rules("deluxe")
    g1 = Game(rules, ["A", "B", "C"], [make_bot("search:3"), GreedyBot(), GreedyBot()], seed=9)
    g2 = Game(rules, ["A", "B", "C"], [make_bot("search:3"), GreedyBot(), GreedyBot()], seed=9)
    later = g2.deal.floors[3].rooms
    later[0], later[1] = later[1], later[0]
    g2.deal.floors[4].rooms[2].card = g2.deal.floors[2].rooms[2].card
    first = []
    for g in (g1, g2):
        seat = g.seats[0]
        orig = seat.choose_card

        def spy(view, legal, second, orig=orig):
            card = orig(view, legal, second)
            first.append(card)
            return card

        seat.choose_card = spy
        g.start_floor(0, g.deal.floors[0])
        g.play_room(0, 0, g.deal.floors[0], g.deal.floors[0].rooms[0])
    assert first[0] == first[1]


def test_it_plays_a_mod_and_classic_solo_the_same_whatever_the_jobs():
    result, chosen = _last_floor(2, cards=("examples/mods/gorgon",))
    assert len(result.rooms) == 25 and chosen
    args = ["simulate", "--ruleset", "classic", "--variant", "solo", "--players", "1",
            "--bots", "search:4", "--games", "3", "--json"]
    runs = [CliRunner().invoke(main, [*args, "--jobs", jobs]) for jobs in ("1", "2")]
    for out in runs:
        assert out.exit_code == 0, out.output
    assert json.loads(runs[0].output)["figures"] == json.loads(runs[1].output)["figures"]


@pytest.mark.slow
def test_it_survives_classic_solo_more_often_than_greedy():
    """Issue 12's solo goal on the same 200 seeds (benchmarks/search_bot.sh measures more)."""
    def survived(bots: str) -> float:
        out = CliRunner().invoke(main, ["simulate", "--ruleset", "classic", "--variant", "solo",
                                        "--players", "1", "--bots", bots, "--games", "200",
                                        "--json"])
        assert out.exit_code == 0, out.output
        return json.loads(out.output)["figures"]["win.seat.P1"]

    search, greedy = survived("search:30"), survived("greedy")
    assert search["low"] > greedy["high"]


class _GreedyAsIssue22Found(GreedyBot):
    """The greedy bot as it was when issue 22 set the search's strength goal: one room at a
    time, without its foresight of the rooms ahead (GreedyBot.later), the same choices
    otherwise (tests/game/test_greedy_foresight.py). The goal's yardstick stays put while
    the default greedy gets stronger."""

    def later(self, view, card):
        return 0.0


def _search_wins(opponents, games: int = 300) -> tuple[float, float, float]:
    """One search:30 seat (P1) against three `opponents` on seeds 1..games (as `raiders
    simulate --seed 1`): P1's share of the wins (shared wins split) and its 95% interval."""
    from raiders.interpreter.tools.stats import wilson

    rules = load_rules("deluxe")
    won = 0.0
    for seed in range(1, games + 1):
        result = Game(rules, ["P1", "P2", "P3", "P4"],
                      [SearchBot(30), opponents(), opponents(), opponents()], seed=seed).run()
        if "P1" in result.winners:
            won += 1 / len(result.winners)
    low, high = wilson(won, games)
    return won / games, low, high


@pytest.mark.slow
def test_one_search_seat_beats_three_greedy_seats_three_times_in_four():
    """Issue 22's strength goal, kept while the search got faster: over 300 4-player deluxe
    games one search:30 seat (P1) against three greedy seats as the goal found them wins at
    least 75% (an equal player wins 25%). The interval is printed (`pytest -s`); the point
    estimate is the goal. Against today's greedy (with its foresight) the seat's share is
    printed and must stay well above an equal player's."""
    won, low, high = _search_wins(_GreedyAsIssue22Found)
    print(f"search:30 against three greedy seats (as issue 22 found them), 300 games: P1 wins "
          f"{won:.1%} [{low:.1%}, {high:.1%}]")
    assert won >= 0.75, (won, low, high)
    out = CliRunner().invoke(main, ["simulate", "--players", "4", "--bots",
                                    "search:30,greedy,greedy,greedy", "--games", "300",
                                    "--json"])
    assert out.exit_code == 0, out.output
    today = json.loads(out.output)["figures"]["win.seat.P1"]
    print(f"search:30 against three greedy seats (today's), 300 games: P1 wins "
          f"{today['value']:.1%} [{today['low']:.1%}, {today['high']:.1%}]")
    assert today["low"] > 0.35, today
