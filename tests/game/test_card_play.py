"""The engine makes a room's plays and its record field by field (Game.card_play and
Game.finish_room, without the classes' __init__): every field must be set there as the
__init__ sets it, or a later read of the slot fails (a field added to the class and forgotten in
the engine) or holds a stale value."""
import attrs

from raiders.interpreter.game.engine import Game, RoomRecord
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


def test_every_field_of_a_room_record_is_set():
    rules = load_rules("deluxe")
    game = Game(rules, ["A", "B", "C", "D"], [RandomBot() for _ in range(4)], seed=8)
    result = game.run()
    assert result.rooms
    for rec in result.rooms:
        # each field read (a slot never set raises), and the record the __init__ would make
        # from them equal to the engine's
        values = {field.alias: getattr(rec, field.name) for field in attrs.fields(RoomRecord)}
        assert RoomRecord(**values) == rec
