"""The random bot's draw (players.index_below) is randrange's, the deal's shuffle
(engine.shuffle) random.shuffle's, and a game's generators (engine.seeded) random.Random's,
number for number: a seed's games and logs do not change with them."""
import random

from hypothesis import given
from hypothesis import strategies as st

from raiders.interpreter.game.engine import seeded, shuffle
from raiders.interpreter.game.players import index_below


@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(1, 300), max_size=50))
def test_index_below_draws_what_randrange_draws(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [index_below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(1, 12), max_size=50))
def test_the_random_bot_draws_what_randrange_draws(seed: int, sizes: list[int]) -> None:
    """RandomBot.choose_card writes index_below out (its commonest decision): the same
    draws, so a seed's random-bot games and logs stay as they were."""
    from types import SimpleNamespace

    from raiders.interpreter.game.players import RandomBot

    bot, theirs = RandomBot(), random.Random(seed)
    view = SimpleNamespace(rng=random.Random(seed))
    legal = list(range(100))
    assert [bot.choose_card(view, legal[:n], False) for n in sizes] == \
        [legal[theirs.randrange(n)] for n in sizes]
    assert view.rng.getstate() == theirs.getstate()


@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(0, 40), max_size=8))
def test_the_deal_shuffles_as_random_shuffle(seed: int, lengths: list[int]) -> None:
    """engine.shuffle writes random.shuffle out (every deal shuffles the room deck): the same
    order and the same generator state after, so a seed's deals and logs stay as they were."""
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in lengths:
        mine, yours = list(range(n)), list(range(n))
        shuffle(ours, mine)
        theirs.shuffle(yours)
        assert mine == yours
    assert ours.getstate() == theirs.getstate()


@given(st.integers(min_value=-2**63, max_value=2**64))
def test_a_games_generators_are_random_random(seed: int) -> None:
    """engine.seeded makes the game's and the seats' generators without Random's Python
    layers: the same state as random.Random(seed), so every seed deals and draws as before."""
    ours, theirs = seeded(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(3)] == [theirs.random() for _ in range(3)]
