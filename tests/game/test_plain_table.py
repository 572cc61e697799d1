"""The playouts' plain table (interpreter/game/players.py `_Plain`): a room whose rules never
read a player's coins or wounds is resolved once for every place the key can say, yet each
key's value is the one its own plain state gives, even where an effect stops at zero (coins
lost or taken beyond what a seat holds, wounds healed beyond those it has)."""
import pytest

from raiders.interpreter.game.players import _Plain, _reads_tokens
from raiders.interpreter.runtime.rules import load_rules

ROOMS = """
# coins lost beyond the fewest a seat holds in the plain state: the clamp depends on the place
trap fleecing {
  name "Fleecing"
  hits {
    5 -> lowest: lose 15 coins
    4 -> lowest: lose 15 coins
    3 -> lowest: lose 15 coins
    2 -> lowest: lose 15 coins
    1 -> lowest: lose 15 coins
  }
}

# wounds healed beyond those a seat has at the lowest place
trap spring {
  name "Spring"
  hits {
    5 -> highest: heal 3
    4 -> highest: heal 3
    3 -> highest: heal 3
    2 -> highest: heal 3
    1 -> highest: heal 3
  }
}

# a steal takes what there is
treasure den {
  name "Den"
  chest 0
  after room { lowest: steal 30 coins from highest }
}
"""

PLACES = [(spread, where) for spread in (False, True) for where in range(5)]


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    mod = tmp_path_factory.mktemp("clamps")
    (mod / "mod.yaml").write_text("deck: {fleecing: 1, spring: 1, den: 1}\n")
    (mod / "rooms.dsl").write_text(ROOMS)
    return load_rules("deluxe", None, (str(mod),))


@pytest.mark.parametrize("room_id, card", [("fleecing", 1), ("spring", 5), ("den", 1),
                                           ("den", 5), ("treasure-4-2", 5), ("goblin", 1)])
def test_every_place_gets_the_outcome_of_its_own_plain_state(rules, room_id, card):
    room = rules.rooms[room_id]
    assert not _reads_tokens(room.source)  # the rooms the sharing is for
    shared = _Plain(rules)
    expected = {}
    for coin_place in PLACES:
        for wound_place in PLACES:
            key = (room.id, 4, card, "", (), (), (2, 3, 4), coin_place, wound_place)
            # the key's own state, resolved afresh, with nothing shared
            expected[coin_place, wound_place] = _Plain(rules)._resolve(room, key)[0]
            assert shared.outcome(room, key) == expected[coin_place, wound_place], \
                (coin_place, wound_place)
    if room_id in ("fleecing", "spring", "den"):
        # the clamp makes some places differ: one shared value would have been wrong
        assert len(set(expected.values())) > 1


def test_a_room_blind_to_tokens_is_resolved_once_for_every_place(rules):
    room = rules.rooms["treasure-4-2"]
    plain = _Plain(rules)
    resolved = []
    resolve = plain._resolve

    def counted(*args, **kwargs):
        resolved.append(args[1])
        return resolve(*args, **kwargs)

    plain._resolve = counted
    for coin_place in PLACES:
        for wound_place in PLACES:
            plain.outcome(room, (room.id, 4, 5, "", (), (), (2, 3, 4), coin_place, wound_place))
    assert len(resolved) == 1
    # a room that reads them (the richest loses) is resolved per place
    lava = rules.rooms["lava"]
    assert _reads_tokens(lava.source)
    for coin_place in PLACES:
        plain.outcome(lava, (lava.id, 4, 5, "", (), (), (2, 3, 4), coin_place, (False, 1)))
    assert len(resolved) == 1 + len(PLACES)


def test_what_reads_tokens_in_compiled_text():
    assert _reads_tokens("    group = extreme(ctx, 'coins', True)\n")
    assert _reads_tokens("    if p1.wounds >= 3:\n")
    assert not _reads_tokens("    # the richest lose coins and take wounds\n"
                             "    ctx.emit('wound', p4, 2)\n")
