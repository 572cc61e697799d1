"""The engine makes a room's plays field by field (Game.card_play, without Play's __init__):
every field of Play must be set there as Play(player, card) sets it, or a later read of a slot
fails (a field added to Play and forgotten in the engine) or holds a stale value."""
import attrs

from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.players import RandomBot
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.runtime.state import Play


def test_every_field_of_a_play_is_set_as_its_init_sets_it():
    rules = load_rules("deluxe")
    game = Game(rules, ["A", "B", "C", "D"], [RandomBot() for _ in range(4)], seed=7)
    made = []
    card_play = game.card_play

    def keep(*args, **kwargs):
        plays = card_play(*args, **kwargs)
        made.extend((pl, pl.card) for pl in plays)
        return plays

    game.card_play = keep  # a spy on the plays the engine makes
    game.run()
    assert len(made) > 50
    for pl, card in made:
        fresh = Play(pl.player, card)
        fresh.value, fresh.escaped = pl.value, pl.escaped  # the two the room's valuing sets
        fresh.chain = pl.chain  # a second-card item's chain, when one was played
        for field in attrs.fields(Play):
            assert getattr(pl, field.name) == getattr(fresh, field.name), field.name
