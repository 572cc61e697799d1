"""The search bot (interpreter/search_bot.py): legal plays, deterministic for a seed, blind to
hidden state (the same view gives the same choice whatever is hidden), and any mod."""
from click.testing import CliRunner

from raiders.interpreter.botspec import make_bot, parse_bot
from raiders.interpreter.cli import main
from raiders.interpreter.engine import Game
from raiders.interpreter.players import GreedyBot
from raiders.interpreter.rules import load_rules


def _game(seed: int, budget: int = 8, ruleset: str = "deluxe", cards=()):
    rules = load_rules(ruleset, None, cards)
    seats = [make_bot(f"search:{budget}"), GreedyBot(), GreedyBot()]
    return Game(rules, ["A", "B", "C"], seats, seed=seed)


def test_budget_is_parsed_and_plays_are_legal_and_deterministic():
    assert parse_bot("search:200") == ("search", 200) and make_bot("search:7").budget == 7
    one = _game(4).run()
    two = _game(4).run()
    assert [r.plays for r in one.rooms] == [r.plays for r in two.rooms]
    assert one.winners == two.winners and len(one.rooms) == 25


def test_it_does_not_read_the_hidden_deal():
    """Two games alike in all the search seat can see before its first choice, but with other
    face-down rooms on later floors: its first choice is the same."""
    rules = load_rules("deluxe")
    g1 = Game(rules, ["A", "B", "C"], [make_bot("search:12"), GreedyBot(), GreedyBot()], seed=9)
    g2 = Game(rules, ["A", "B", "C"], [make_bot("search:12"), GreedyBot(), GreedyBot()], seed=9)
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


def test_it_plays_a_mod_and_classic_solo():
    result = _game(2, 4, cards=("examples/mods/gorgon",)).run()
    assert len(result.rooms) == 25
    out = CliRunner().invoke(main, ["simulate", "--ruleset", "classic", "--variant", "solo",
                                    "--players", "1", "--bots", "search:6", "--games", "2",
                                    "--jobs", "1", "--json"])
    assert out.exit_code == 0, out.output
