"""The random bot's draw (players.index_below) is randrange's, number for number: a seed's
games and logs do not change with it."""
import random

from hypothesis import given
from hypothesis import strategies as st

from raiders.interpreter.game.players import index_below


@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(1, 300), max_size=50))
def test_index_below_draws_what_randrange_draws(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [index_below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()
