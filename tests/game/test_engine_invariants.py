"""Seeded random-bot games: every game finishes and every invariant holds after every room."""
from collections import Counter

import pytest

from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.players import GreedyBot, RandomBot
from raiders.interpreter.runtime.rules import load_rules


def _check_invariants(game: Game) -> None:
    rules = game.rules
    cap = game.coin_cap
    totals = Counter(game.supply)
    for p in game.players:
        assert p.coins >= 0 and p.wounds >= 0
        if cap is not None:
            assert p.coins <= cap
        assert set(p.hand) <= {1, 2, 3, 4, 5}
        totals.update(p.items)
    printed = rules.ruleset.items if rules.variant.items else {}
    for item, n in printed.items():
        assert totals[item] == n, f"{item}: {totals[item]} in play, {n} printed"
    assert set(totals) <= set(printed)


def test_same_seed_same_game():
    rules = load_rules("deluxe")
    runs = []
    for _ in range(2):
        bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
        game = Game(rules, ["A", "B", "C", "D"], bots, seed=99)
        res = game.run()
        runs.append(([r.plays for r in res.rooms], res.winners,
                     [(p.coins, p.wounds, p.items) for p in res.players]))
    assert runs[0] == runs[1]


def test_deal_follows_setup_rules():
    """D-2, D-3: 24 rooms and one boss last; faces follow the floor cards; 2 floor cards out."""
    rules = load_rules("deluxe")
    for seed in range(50):
        game = Game(rules, ["A", "B", "C"], [RandomBot()] * 3, seed=seed)
        floors = game.deal.floors
        assert len(floors) == 5 and all(len(f.rooms) == 5 for f in floors)
        cards = [s.card for f in floors for s in f.rooms]
        assert cards[-1] in rules.bosses
        assert not set(cards[:-1]) & set(rules.bosses)
        deck = Counter(cards[:-1])
        assert all(deck[c] <= rules.deck[c] for c in deck)
        used = [f.floor_card for f in floors]
        assert len(set(used)) == 5
        for f in floors:
            layout = rules.floors[f.floor_card].layout
            assert "".join("U" if s.face_up else "D" for s in f.rooms) == layout
        assert len(set(game.deal.characters)) == 3


def test_greedy_beats_random_on_average():
    rules = load_rules("deluxe")
    wins = Counter()
    for seed in range(60):
        bots = [GreedyBot(), RandomBot(), RandomBot(), RandomBot()]
        res = Game(rules, ["G", "R1", "R2", "R3"], bots, seed=seed).run()
        wins.update(res.winners)
    assert wins["G"] > max(wins["R1"], wins["R2"], wins["R3"])


COMBOS = [("deluxe", "standard", 3), ("deluxe", "standard", 4), ("deluxe", "standard", 5),
          ("deluxe", "tactical", 3), ("deluxe", "tactical", 4), ("deluxe", "tactical", 5),
          ("classic", "standard", 3), ("classic", "standard", 4), ("classic", "standard", 5),
          ("classic", "quick", 3), ("classic", "quick", 4), ("classic", "quick", 5),
          ("classic", "duel", 2), ("classic", "solo", 1)]
FAST_GAMES = 20  # seeds 0..19 in the default run; the slow tier plays 20..999


def _play_checked(ruleset: str, variant: str, n: int, seeds) -> None:
    """Seeded random-bot games: every game finishes, every invariant holds after every room."""
    rules = load_rules(ruleset, variant)
    names = [f"P{i}" for i in range(n)]
    solo = rules.variant.scoring == "solo"
    death = rules.ruleset.death
    for seed in seeds:
        game = Game(rules, names, [RandomBot() for _ in names], seed=seed,
                    difficulty=2 + seed % 4 if solo else None)
        result = game.run(on_room=lambda rec, game=game: _check_invariants(game))
        if death is None:
            assert len(result.rooms) == 25  # nobody dies, every room is played
        elif len(result.rooms) < 25:
            # a game ends early only when every hero died, or a duellist died (C-7, C-9)
            dead = [p for p in game.players if p.dead]
            assert dead and (len(dead) == n or rules.variant.scoring == "duel")
        for p in game.players:
            if death is not None and p.wounds >= death:
                assert p.dead and p.items == []
        assert set(result.winners) <= set(names)
        assert not set(result.winners) & set(result.out)
        if solo:
            assert result.winners == ([] if game.players[0].dead else [names[0]])


@pytest.mark.parametrize("ruleset,variant,n", COMBOS)
def test_every_combination_a_few_games(ruleset, variant, n):
    """Issue 4, the default run's share: a few seeded games of every ruleset/variant/count."""
    _play_checked(ruleset, variant, n, range(FAST_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,variant,n", COMBOS)
def test_every_combination_1000_games(ruleset, variant, n):
    """Issue 4: 1,000 seeded random-bot games of every ruleset/variant/player count (seeds
    0..999: the first FAST_GAMES run in the default tier, the rest here)."""
    _play_checked(ruleset, variant, n, range(FAST_GAMES, 1000))


def test_tactical_scroll_carries_across_floors():
    """D-10: after each room the scroll goes to the highest value (ties: nearest clockwise
    after the holder), and it carries over from one floor to the next."""
    from raiders.interpreter.game.engine import next_first_player
    from raiders.interpreter.runtime.state import Play, Player

    rules = load_rules("deluxe", "tactical")
    names = ["A", "B", "C", "D"]
    crossings = 0
    for seed in range(30):
        game = Game(rules, names, [RandomBot() for _ in names], seed=seed)
        result = game.run()
        for prev, nxt in zip(result.rooms, result.rooms[1:], strict=False):
            first = names.index(prev.first_player)
            plays = []
            for seat, name in enumerate(names):
                card = prev.plays[name][-1]
                p = Player(seat, name)
                plays.append(Play(p, card, value=card if isinstance(card, int) else 5))
            assert names[next_first_player(first, plays, 4)] == nxt.first_player
            crossings += nxt.index == 0
    assert crossings == 30 * 4


def test_a_seat_sees_only_what_its_player_may_see():
    """The player interface: own hand and items; others' tokens, their power cards left
    (the played ones lie face up, X-3) and their items (each came to them in the open: printed
    on their character, X-1, or a vault's reward for a card everyone saw, X-6; the narration
    names them: one rule, issue 24), not their hands' order; hidden rooms hidden (X-2)."""
    from raiders.interpreter.game.players import PublicPlayer, SeatView

    rules = load_rules("deluxe")
    game = Game(rules, ["A", "B", "C"], [RandomBot()] * 3, seed=4)
    me = game.players[0]
    view = SeatView(game, me, 0, (), False)
    others = [p for p in view.players if p is not me]
    assert all(isinstance(p, PublicPlayer) for p in others)
    assert [p.items for p in others] == [tuple(p.items) for p in game.players[1:]]
    assert all(p.item_count == len(p.items) for p in others)
    assert view.me.items == me.items
    floor = game.deal.floors[0]
    assert [c is None for c in view.floor_rooms] == [not s.face_up for s in floor.rooms]
    assert view.room is None  # not entered yet


def test_sequential_play_shows_the_cards_already_played():
    """C-3/D-10: playing in turn, each player sees the cards played before them in this room;
    in simultaneous play (D-4) nobody sees any before choosing."""
    seen: list[tuple[tuple[int, int], str, list[str], bool]] = []

    class Watcher(RandomBot):
        def choose_card(self, view, legal, second):
            seen.append(((view.floor_index, view.room_index), view.me.name,
                         [pl.player.name for pl in view.revealed], second))
            return super().choose_card(view, legal, second)

    for variant, sequential in (("standard", True), ("quick", False)):
        seen.clear()
        rules = load_rules("classic", variant)
        game = Game(rules, ["A", "B", "C", "D"], [Watcher() for _ in range(4)], seed=12)
        game.run()
        rooms: dict = {}
        for room, name, before, second in seen:
            if not second:
                rooms.setdefault(room, []).append((name, before))
        for firsts in rooms.values():
            for k, (_, before) in enumerate(firsts):
                if sequential:
                    assert set(before) <= {n for n, _ in firsts[:k]}
                else:
                    assert before == []
        assert any(before for firsts in rooms.values() for _, before in firsts) == sequential


def test_a_game_is_freed_when_dropped():
    """The seats' views (one per seat, aimed at each decision) see the game without holding
    it: dropping a game frees it at once, whether it ran whole or was played room by room (a
    search bot's playout), not whenever the garbage collector next runs (a simulation plays
    thousands, each with its whole record)."""
    import gc
    import weakref

    rules = load_rules("deluxe")
    gc.disable()
    try:
        game = Game(rules, ["A", "B", "C", "D"], [RandomBot() for _ in range(4)], seed=3)
        result = game.run()
        gone = weakref.ref(game)
        del game
        assert gone() is None
        assert result.rooms  # what the game left is kept
        game = Game(rules, ["A", "B", "C", "D"], [RandomBot() for _ in range(4)], seed=4)
        floor = game.deal.floors[0]
        game.start_floor(0, floor)
        game.play_room(0, 0, floor, floor.rooms[0])
        gone = weakref.ref(game)
        del game
        assert gone() is None
    finally:
        gc.enable()


def test_a_seat_view_shows_the_decision_it_is_given_for():
    """One view per seat, aimed anew at each decision: what it shows (the room, the cards
    revealed, the players) is this decision's, never a cached earlier one's (C-3/D-10)."""
    seen: list[tuple] = []

    class Watcher(RandomBot):
        def choose_card(self, view, legal, second):
            game = view._game
            seen.append((view.room.id, game.records and game.records[-1].card,
                         [p.coins for p in view.players], [p.coins for p in game.players],
                         [pl.player.name for pl in view.revealed]))
            return super().choose_card(view, legal, second)

    rules = load_rules("deluxe", "tactical")
    game = Game(rules, ["A", "B", "C", "D"], [Watcher() for _ in range(4)], seed=5)
    result = game.run()
    rooms = [r.card for r in result.rooms]
    for room_id, _, view_coins, coins, _ in seen:
        assert room_id in rooms
        assert view_coins == coins
    assert len({room_id for room_id, *_ in seen}) == len(set(rooms))
    assert any(revealed for *_, revealed in seen)
