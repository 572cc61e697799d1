"""The greedy bot's foresight (interpreter/game/players.py `GreedyBot.later`): the rooms later
on this floor that a seat knows (D-3: face up where the floor card shows green; or looked at)
are weighed with the power cards its hand keeps, so it does not spend the high cards two
monsters ahead need on a treasure; a myopic greedy did, and met the boss with its 1s (a
modder's sweep of a boss's strength then moved nothing: issue 22's review)."""
from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.players import GreedyBot, SeatView, _Plain
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.runtime.state import RoomSlot


class _Myopic(GreedyBot):
    """The greedy bot without its foresight, as it was."""

    def later(self, view, card):
        return 0.0


def _first_room_view(rooms, items=(), rules=None, at_floor=0):
    """Seat A's view of the first room of a 4-player deluxe floor (`at_floor`) dealt as
    `rooms` ((card, face up) each), every hand full, A holding `items`."""
    rules = rules or load_rules("deluxe")
    g = Game(rules, ["A", "B", "C", "D"], [GreedyBot() for _ in range(4)], seed=1)
    floor = g.deal.floors[at_floor]
    floor.rooms[:] = [RoomSlot(card, up) for card, up in rooms]
    g.start_floor(at_floor, floor)
    g.players[0].items[:] = items
    return SeatView(g, g.players[0], 0, [], True)


def test_it_keeps_the_high_cards_two_monsters_ahead_need():
    # the others play the middle of their hands (3): a 4 or a 5 beats the Skeleton and the
    # Troll (D-6), a 3 does not
    view = _first_room_view([("treasure-2", True), ("goblin", False), ("snake", False),
                             ("skeleton", True), ("troll", True)])
    bot = GreedyBot()
    later = [bot.later(view, card) for card in (1, 2, 3, 4, 5)]
    assert later[0] == later[1] == later[2] == 0.0  # the 4 and the 5 are kept for them
    assert later[3] < 0 and later[4] < 0  # one of them goes unbeaten: wounds
    assert {bot.choose_card(view, [1, 2, 3, 4, 5], False) for _ in range(12)} <= {1, 2, 3}
    # without the foresight the treasure takes the high cards
    myopic = {_Myopic().choose_card(view, [1, 2, 3, 4, 5], False) for _ in range(12)}
    assert myopic & {4, 5}


def test_an_item_kept_counts_in_the_rooms_ahead():
    """X-3: a sword counts 5 in a monster room (D-6). Two monsters ahead: holding one, the 5
    spent now leaves the sword for the second, at the price of the item. Three monsters
    ahead: the sword is needed there, so playing it now costs what it would have done."""
    two = [("treasure-2", True), ("goblin", False), ("snake", False), ("skeleton", True),
           ("troll", True)]
    bare, armed = _first_room_view(two), _first_room_view(two, ["sword"])
    bot = GreedyBot()
    assert bot.later(bare, 5) < bot.later(armed, 5) < 0
    assert bot.later(armed, 1) == bot.later(armed, "sword") == 0.0  # the 4 and 5 suffice
    three = [("treasure-2", True), ("skeleton", True), ("snake", False), ("goblin", True),
             ("troll", True)]
    armed = _first_room_view(three, ["sword"])
    assert bot.later(armed, 1) == 0.0  # the 4, the 5 and the sword beat all three
    assert bot.later(armed, "sword") < 0


def test_rooms_it_cannot_see_weigh_nothing():
    view = _first_room_view([("treasure-2", True), ("goblin", False), ("snake", False),
                             ("skeleton", False), ("troll", False)])
    assert [GreedyBot().later(view, card) for card in (1, 2, 3, 4, 5)] == [0.0] * 5


def test_a_room_ahead_that_reads_the_floor_is_weighed_at_its_floor(tmp_path):
    """A treasure whose chest grows with the floor (`floor_number`) is worth keeping the 5 for
    on a deep floor more than on the first; and what the table kept from another floor never
    answers for this one (the same value as a fresh table's, whatever was asked before)."""
    (tmp_path / "mod.yaml").write_text("deck: {deep-vault: 2}\n")
    (tmp_path / "rooms.dsl").write_text(
        'treasure deep-vault { name "Deep Vault"  chest 4 * floor_number }\n')
    rules = load_rules("deluxe", None, (str(tmp_path),))
    # two vaults ahead: the 4 and the 5 win them outright against the others' 3s
    rooms = [("treasure-2", True), ("goblin", False), ("snake", False), ("deep-vault", True),
             ("deep-vault", True)]
    _Plain._by_rules.clear()
    shallow = GreedyBot().later(_first_room_view(rooms, rules=rules), 5)
    deep = GreedyBot().later(_first_room_view(rooms, rules=rules, at_floor=4), 5)
    assert deep < shallow <= 0.0
    _Plain._by_rules.clear()
    assert GreedyBot().later(_first_room_view(rooms, rules=rules, at_floor=4), 5) == deep
    assert GreedyBot().later(_first_room_view(rooms, rules=rules), 5) == shallow
