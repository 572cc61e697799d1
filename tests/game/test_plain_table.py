"""The playouts' plain table (interpreter/game/players.py `_Plain`): a room whose rules never
read a player's coins or wounds is resolved once for every place the key can say, and one
whose rules never read what a player holds nor who they are once for every character and
items, yet each key's value is the one its own plain state gives, even where an effect stops
at zero (coins lost or taken beyond what a seat holds, wounds healed beyond those it has) or
takes a card the seat holds."""
from pathlib import Path

import pytest

from raiders.interpreter.game.players import _PLACED, _UNKNOWN, _Plain
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

# a key taken from the lowest: what the seat holds changes its outcome
trap customs {
  name "Customs"
  hits {
    5 -> lowest: take key
    4 -> lowest: take key
    3 -> lowest: take key
    2 -> lowest: take key
    1 -> lowest: take key
  }
}

# whoever holds a sword is hit: what the seat holds changes its outcome, nothing is taken
trap armoury {
  name "Armoury"
  hits {
    5 -> holds(sword): wound 1
    4 -> holds(sword): wound 1
    3 -> holds(sword): wound 1
    2 -> holds(sword): wound 1
    1 -> holds(sword): wound 1
  }
}

# a steal takes what there is
treasure den {
  name "Den"
  chest 0
  after room { lowest: steal 30 coins from highest }
}
"""

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLACES = [(spread, where) for spread in (False, True) for where in range(5)]


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    mod = tmp_path_factory.mktemp("clamps")
    (mod / "mod.yaml").write_text(
        "deck: {fleecing: 1, spring: 1, den: 1, customs: 1, armoury: 1}\n")
    (mod / "rooms.dsl").write_text(ROOMS)
    return load_rules("deluxe", None, (str(mod),))


@pytest.mark.parametrize("room_id, card", [("fleecing", 1), ("spring", 5), ("den", 1),
                                           ("den", 5), ("treasure-4-2", 5), ("goblin", 1)])
def test_every_place_gets_the_outcome_of_its_own_plain_state(rules, room_id, card):
    room = rules.rooms[room_id]
    assert not (room.reads.coins or room.reads.wounds)  # the rooms the sharing is for
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
    # a room that reads the coins (the richest loses) is resolved per place of the coins,
    # and once for every place of the wounds, which it never reads
    lava = rules.rooms["lava"]
    assert lava.reads.coins and not lava.reads.wounds
    for coin_place in PLACES:
        for wound_place in PLACES:
            plain.outcome(lava, (lava.id, 4, 5, "", (), (), (2, 3, 4), coin_place, wound_place))
    assert len(resolved) == 1 + len(PLACES)


HOLDINGS = [(character, items) for character in ("", "knight", "thief")
            for items in ((), ("key",), ("key", "sword"), ("sword", "torch"))]


@pytest.mark.parametrize("room_id, card", [("customs", 1), ("customs", "key"), ("armoury", 1),
                                           ("item-vault", 5), ("goblin", 1), ("den", 1)])
def test_every_seat_gets_the_outcome_of_its_own_cards(rules, room_id, card):
    room = rules.rooms[room_id]
    # a key taken, coins stolen, a sword looked for (runtime/reads.py)
    assert (room.reads.holdings or room.reads.takes) == (room_id in ("customs", "den", "armoury"))
    shared = _Plain(rules)
    outcomes = set()
    for character, items in HOLDINGS:
        for coin_place in (PLACES[0], PLACES[7]):
            key = (room.id, 4, card, character, (), items, (2, 3, 4), coin_place, (False, 1))
            expected = _Plain(rules)._resolve(room, key)[0]
            outcomes.add(expected)
            assert shared.outcome(room, key) == expected, (character, items, coin_place)
    if (room_id, card) in (("customs", 1), ("armoury", 1)):
        assert len(outcomes) > 1  # a key taken, a sword hit: one shared value was wrong


def test_held_cards_with_rules_keep_what_a_seat_holds_in_the_key():
    """A mod whose items or statuses have rules (the amulet, poison): what the seat holds may
    bring rules into play, so no room is resolved without it."""
    rules = load_rules("deluxe", None, (str(EXAMPLES / "mods" / "amulet"),))
    assert rules.held_rules
    plain = _Plain(rules)
    assert all(not plain._blind(room).holdings for room in rules.rooms.values())


DEPTHS = """
# the deeper, the richer: its chest is read at the floor the game is on
treasure deep-vault { name "Deep Vault"  chest 2 * floor_number }
# the later in its floor, the richer
treasure late-vault { name "Late Vault"  chest room_number }
"""


class _At:
    """What `_Plain.where` reads of a seat's view: where the game is."""

    def __init__(self, floor_index: int, room_index: int, rooms_done: int):
        self.floor_index, self.room_index, self.rooms_done = floor_index, room_index, rooms_done


@pytest.fixture(scope="module")
def depths(tmp_path_factory):
    mod = tmp_path_factory.mktemp("depths")
    (mod / "mod.yaml").write_text("deck: {deep-vault: 6, late-vault: 6}\n")
    (mod / "rooms.dsl").write_text(DEPTHS)
    return mod


def test_a_room_that_reads_the_floor_is_resolved_at_the_true_floor(depths):
    """A rule that reads the floor or the room's number (docs/dsl.md atoms) gets the true one
    in the plain state: the floor index and the room number are in the key of those rooms,
    and of no other."""
    rules = load_rules("deluxe", None, (str(depths),))
    plain = _Plain(rules)
    deep, late = rules.rooms["deep-vault"], rules.rooms["late-vault"]
    third_floor_fourth_room = _At(2, 3, 13)
    assert plain.where(deep, third_floor_fourth_room) == ("deep-vault", 2, 1, 0)
    assert plain.where(late, third_floor_fourth_room) == ("late-vault", 0, 4, 0)
    # the room after it, as a greedy seat's foresight weighs it (GreedyBot.later)
    assert plain.where(late, third_floor_fourth_room, 1) == ("late-vault", 0, 5, 0)
    assert plain.where(deep, third_floor_fourth_room, 1) == ("deep-vault", 2, 1, 0)
    assert plain.where(rules.rooms["treasure-4-2"], third_floor_fourth_room) == "treasure-4-2"

    def coins(room, at):  # the seat plays 5 against 2, 3 and 4: the chest is its own
        key = (plain.where(room, at), 4, 5, "", (), (), (2, 3, 4), (False, 1), (False, 1))
        return plain.outcome(room, key)[0]

    assert coins(deep, _At(0, 0, 0)) == 2
    assert coins(deep, third_floor_fourth_room) == 6
    assert coins(deep, _At(4, 2, 22)) == 10
    assert coins(late, _At(0, 0, 0)) == 1
    assert coins(late, third_floor_fourth_room) == 4


def test_search_playouts_key_such_rooms_by_the_floor_they_are_played_on(depths):
    """Playouts on the last floor read the deep vault's outcome at that floor (a plain state
    on the first floor before: a vault worth 2 coins where it holds 10), and so do the greedy
    seats' foresight of the rooms later on it; the table is emptied before the last floor,
    since the greedy seats weighed the vaults of the floors before at theirs."""
    from raiders.interpreter.game.engine import Game
    from raiders.interpreter.game.players import GreedyBot
    from raiders.interpreter.game.search_bot import SearchBot

    rules = load_rules("deluxe", None, (str(depths),))
    _Plain._by_rules.clear()
    g = Game(rules, ["A", "B", "C"], [GreedyBot(), GreedyBot(), GreedyBot()], seed=4)
    for f, floor in enumerate(g.deal.floors):
        if f == len(g.deal.floors) - 1:
            g.seats[0] = SearchBot(4)
            _Plain.of(rules).outcomes.clear()
        g.start_floor(f, floor)
        for r, slot in enumerate(floor.rooms):
            g.records.append(g.play_room(f, r, floor, slot))
        g.end_floor()
    outcomes = _Plain.of(rules).outcomes
    deep = [key[0] for key in outcomes if key[0].__class__ is tuple
            and key[0][0] == "deep-vault"]
    assert deep and all(where[1] == 4 for where in deep)
    assert not any(key[0] == "deep-vault" for key in outcomes)


@pytest.mark.parametrize("room_id, card", [("fleecing", 1), ("spring", 5), ("den", 1),
                                           ("treasure-4-2", 5), ("customs", 1), ("lava", 5),
                                           ("spikes", 5)])
def test_a_decisions_row_gives_each_key_its_own_plain_state(rules, room_id, card):
    """How a playout seat reads the table (search_bot._Forced): a row of outcomes by card
    under the decision's key reduced as far as the room allows (`head`: no place of the coins
    or of the wounds where no rule reads them, no character nor items where none reads what a
    seat holds), the even place's outcome kept only where nothing could have stopped at zero
    (`shared`, else `placed`). Every place and holding still gets its own state's outcome, and
    a room blind to the coins (the wounds) has one row for every place of them (a room that
    reads them, one per place)."""
    room = rules.rooms[room_id]
    plain = _Plain(rules)
    heads = set()
    for character, items in HOLDINGS[::3]:
        for coin_place in PLACES:
            for wound_place in (PLACES[1], PLACES[8]):
                key = (room.id, 4, card, character, (), items, (2, 3, 4), coin_place,
                       wound_place)
                head = plain.head(room, room.id, 4, character, (), items, (2, 3, 4),
                                  coin_place, wound_place)
                heads.add(head)
                row = plain.row(head)
                got = row.get(card, _UNKNOWN)
                if got is _UNKNOWN:
                    got = row[card] = plain.shared(room, head, card)
                if got is _PLACED:
                    got = plain.placed(room, head, card, coin_place, wound_place)
                expected = _Plain(rules)._resolve(room, key)[0]
                assert got == expected, (character, items, coin_place, wound_place)
    blind = plain._blind(room)
    assert (blind.coins, blind.wounds) == (room_id != "lava", room_id != "spikes")
    assert len(heads) == (1 if blind.holdings else len(HOLDINGS[::3])) \
        * (1 if blind.coins else len(PLACES)) * (1 if blind.wounds else 2)
