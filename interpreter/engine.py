"""The engine's phases: setup, floors, peeking, card play, resolution, end of game.

It knows players, hands, items, floors and rooms; what a room does comes from its compiled
text. The order of play and the scoring procedure are selected by ruleset/variant parameters.
Every random choice comes from the game's one seeded generator.
"""
from __future__ import annotations

import random
from typing import Callable, Optional, Sequence

import attrs

from .compiler import CompiledRoom
from .players import Seat, SeatView
from .room import RulesError, apply_death, check_play, is_second_card, legal_cards, resolve_room
from .rules import Rules
from .state import POWER_CARDS, Card, Floor, Play, Player, RoomSlot

PEEK = "peek"


@attrs.define
class Deal:
    """Everything setup decides: the dungeon, the characters, the first player."""

    floors: list[Floor]
    characters: list[str]
    first_player: Optional[int] = None  # seat
    threat_deck: list[int] = attrs.Factory(list)  # solo monster deck, top card first (C-12)


@attrs.define
class RoomRecord:
    floor: int
    index: int
    card: str
    torches: list[str]
    plays: dict[str, list[Card]]  # name -> second-card items…, card
    trace: list
    after_state: list[tuple[str, int, int, tuple[str, ...]]]  # name, coins, wounds, items
    first_player: Optional[str] = None
    monster: Optional[int] = None  # the threat card revealed in this room (solo)

    @property
    def after(self) -> dict[str, dict]:
        """The state after the room, per player (a log's checkpoint)."""
        return {n: {"coins": c, "wounds": w, "items": list(i)} for n, c, w, i in self.after_state}


@attrs.define
class GameResult:
    winners: list[str]
    out: list[str]
    players: list[Player]
    rooms: list[RoomRecord]
    deal: Deal


class Game:
    def __init__(self, rules: Rules, names: Sequence[str], seats: Sequence[Seat],
                 seed: Optional[int] = None, deal: Optional[Deal] = None,
                 trace: bool = False, difficulty: Optional[int] = None):
        if len(names) != len(seats):
            raise ValueError("one seat per player name")
        var = rules.variant
        if not var.min_players <= len(names) <= var.max_players:
            raise ValueError(
                f"{rules.ruleset.id} {var.name} is for {var.min_players}"
                + (f"–{var.max_players}" if var.max_players != var.min_players else "")
                + f" players, not {len(names)}")
        if deal is None and len(names) > len(rules.ruleset.characters):
            raise ValueError(f"{len(names)} players but only {len(rules.ruleset.characters)} "
                             "characters to deal")
        self.rules = rules
        self.rng = random.Random(seed)
        self.seats = list(seats)
        # Each seat gets its own generator, derived from the game's, so a bot's choices do not
        # shift the deal and the same seed always gives the same game.
        self.seat_rngs = [random.Random(self.rng.getrandbits(64)) for _ in seats]
        self.trace = trace
        self.supply = dict(rules.ruleset.items) if var.items else {}
        self.abilities = rules.abilities
        self.peek_items = frozenset(i for i, a in self.abilities.items() if a == PEEK)
        self.deal = deal if deal is not None else self.random_deal(len(names))
        self.players = []
        for seat, (name, char_id) in enumerate(zip(names, self.deal.characters)):
            char = rules.characters[char_id]
            coins = char.coins if var.start_coins is None else var.start_coins
            wounds = char.wounds if difficulty is None else difficulty
            p = Player(seat, name, char_id, coins, wounds)
            for item in char.items if var.items else ():
                if self.supply.get(item, 0) <= 0:
                    raise RulesError(f"the supply has no {item} left for {name}'s {char_id}")
                self.supply[item] -= 1
                p.give_item(item)
            self.players.append(p)
        self.first = self.deal.first_player
        self.sequential = var.play == "sequential"
        self.coin_cap = rules.ruleset.coin_cap if var.coin_cap == -1 else var.coin_cap
        self.scoring = var.scoring
        self.threats_drawn = 0
        self.scripted_threats: dict[int, int] = {}  # room number -> card, from a log
        self.death = rules.ruleset.death
        self.records: list[RoomRecord] = []
        self.peeked: dict[int, set[int]] = {}  # seat -> room indexes seen on this floor
        self.floor_index = 0

    # ---- setup (D-2, D-3, C-2)
    def random_deal(self, n_players: int) -> Deal:
        rs, rng = self.rules.ruleset, self.rng
        deck = [cid for cid, n in self.rules.deck.items() for _ in range(n)]
        rng.shuffle(deck)
        deck = deck[rs.remove if self.rules.variant.remove is None else self.rules.variant.remove:]
        n_rooms = rs.floors_used * rs.rooms_per_floor
        boss = [rng.choice(self.rules.bosses)] if self.rules.bosses else []
        rooms = deck[: n_rooms - len(boss)] + boss
        if len(rooms) < n_rooms:
            raise RulesError(f"the deck holds {len(rooms)} rooms; {n_rooms} are needed")
        if rs.floors:
            cards = list(rs.floors)
            rng.shuffle(cards)
            layouts = [(c, self.rules.floors[c].layout) for c in cards[: rs.floors_used]]
        else:
            up = set(rng.sample(range(n_rooms), rs.face_up or 0))
            layouts = [(None, "".join("U" if f * rs.rooms_per_floor + i in up else "D"
                                      for i in range(rs.rooms_per_floor)))
                       for f in range(rs.floors_used)]
        floors = []
        for f, (card, layout) in enumerate(layouts):
            chunk = rooms[f * rs.rooms_per_floor:(f + 1) * rs.rooms_per_floor]
            floors.append(Floor([RoomSlot(c, layout[i] == "U") for i, c in enumerate(chunk)], card))
        characters = rng.sample(list(rs.characters), n_players)
        first = rng.randrange(n_players) if self.rules.variant.first_player == "random" else None
        threats = list(self.rules.variant.threat_deck)
        rng.shuffle(threats)
        return Deal(floors, characters, first, threats)

    # ---- the game
    def living(self) -> list[Player]:
        return [p for p in self.players if not p.dead]

    def run(self, on_room: Optional[Callable[[RoomRecord], None]] = None) -> GameResult:
        for f, floor in enumerate(self.deal.floors):
            self.floor_index = f
            self.peeked = {}
            for p in self.players:
                p.hand = list(POWER_CARDS)
            for r, slot in enumerate(floor.rooms):
                record = self.play_room(f, r, floor, slot)
                self.records.append(record)
                if on_room is not None:
                    on_room(record)
                if self.game_over():
                    break
            if self.game_over():
                break
        return self.finish()

    def game_over(self) -> bool:
        if self.scoring == "duel":  # C-9: reaching the death threshold ends the duel at once
            return any(p.dead for p in self.players)
        return all(p.dead for p in self.players)

    def draw_threat(self) -> int:
        """C-12: the next card of the monster deck. **Interpretation**: should the deck run
        out (a mod with more monsters), the revealed cards are shuffled into a new one."""
        deck = self.deal.threat_deck
        if not deck:
            scripted = self.scripted_threats.get(len(self.records))
            if scripted is not None:
                return scripted
            raise RulesError("a room reads `threat`, but this game has no threat deck")
        if self.threats_drawn >= len(deck):
            extra = list(self.rules.variant.threat_deck)
            self.rng.shuffle(extra)
            deck.extend(extra)
        value = deck[self.threats_drawn]
        self.threats_drawn += 1
        scripted = self.scripted_threats.get(len(self.records))
        return value if scripted is None else scripted

    def view(self, p: Player, r: int, revealed: Sequence[Play], entered: bool) -> SeatView:
        return SeatView(self, p, r, revealed, entered)

    def torches(self, floor: Floor, r: int) -> list[str]:
        """X-2: before a room's cards, anyone may play a peek item to see the hidden rooms."""
        used = []
        peek_items = self.peek_items
        for p in self.players:
            if p.dead or not p.items:
                continue
            peek_item = next((i for i in p.items if i in peek_items), None)
            if peek_item is None:
                continue
            if self.seats[p.seat].use_torch(self.view(p, r, (), False)):
                self.use_torch(p, peek_item, floor)
                used.append(p.name)
        return used

    def use_torch(self, p: Player, item: str, floor: Floor) -> None:
        p.take_item(item)
        self.supply[item] = self.supply.get(item, 0) + 1
        self.peeked.setdefault(p.seat, set()).update(range(len(floor.rooms)))

    def play_order(self) -> list[Player]:
        """Seat order, or clockwise from the first player where the variant has one."""
        if self.first is None:
            return [p for p in self.players if not p.dead]
        n = len(self.players)
        order = [self.players[(self.first + k) % n] for k in range(n)]
        return [p for p in order if not p.dead]

    def choose(self, p: Player, room: CompiledRoom, r: int, revealed: Sequence[Play],
               second: bool, chosen: Sequence[Card] = ()) -> Card:
        legal = legal_cards(room, p, self.abilities)
        card = self.seats[p.seat].choose_card(SeatView(self, p, r, revealed, True), legal, second)
        if card not in legal:
            raise RulesError(check_play(room, p, [*chosen, card], self.abilities)
                             or f"{p.name} made an illegal play: {card}")
        return card

    def card_play(self, room: CompiledRoom, r: int) -> list[Play]:
        """D-4/C-10 (simultaneous) or C-3/D-10 (in turn); second-card items play again after."""
        sequential = self.sequential
        abilities = self.abilities
        plays: list[Play] = []
        revealed: list[Play] = []
        pending: list[Play] = []
        for p in self.play_order():
            card = self.choose(p, room, r, revealed if sequential else (), False)
            pl = Play(p, card)
            plays.append(pl)
            if card.__class__ is str and is_second_card(room, card, abilities):
                self._return_at_once(pl)
                pending.append(pl)
            elif sequential:
                revealed.append(pl)
        if pending:
            if not sequential:
                revealed = [pl for pl in plays if pl not in pending]
            self._second_cards(room, r, pending, revealed)
        if self.first is not None:
            plays.sort(key=lambda pl: pl.player.seat)
        return plays

    def _second_cards(self, room: CompiledRoom, r: int, pending: list[Play],
                      revealed: list[Play]) -> None:
        """Second-card players choose after the reveal: in turn (sequential: each sees the
        ones before) or together (simultaneous: revealed at once), until no chain goes on."""
        sequential = self.sequential
        while pending:
            again: list[Play] = []
            batch: list[Play] = []
            for pl in pending:
                p = pl.player
                card = self.choose(p, room, r, revealed, True, pl.chain)
                pl.card = card
                if is_second_card(room, card, self.abilities):
                    self._return_at_once(pl)
                    again.append(pl)
                elif sequential:
                    revealed.append(pl)
                else:
                    batch.append(pl)
            revealed.extend(batch)
            pending = again

    def _return_at_once(self, pl: Play) -> None:
        """X-3: a second-card item goes back to the supply as soon as it is played."""
        item = pl.card
        pl.player.take_item(item)
        self.supply[item] = self.supply.get(item, 0) + 1
        pl.chain = (*pl.chain, item)

    def play_room(self, f: int, r: int, floor: Floor, slot: RoomSlot) -> RoomRecord:
        first_name = self.players[self.first].name if self.first is not None else None
        torches = self.torches(floor, r)
        plays = self.card_play(self.rules.rooms[slot.card], r)
        return self.resolve(f, r, slot.card, plays, torches, first_name)

    def resolve(self, f: int, r: int, card: str, plays: list[Play], torches: list[str],
                first_name: Optional[str]) -> RoomRecord:
        living = [p for p in self.players if not p.dead]
        trace: Optional[list] = [] if self.trace else None
        ctx = resolve_room(self.rules.rooms[card], living, plays, self.supply, self.coin_cap,
                           self.death, len(living), trace, self.draw_threat)
        self.after_room(plays)
        return RoomRecord(
            f, r, card, torches, {pl.player.name: [*pl.chain, pl.card] for pl in plays},
            trace or [], [(p.name, p.coins, p.wounds, tuple(p.items)) for p in self.players],
            first_name, ctx.threat_value)

    def after_room(self, plays: list[Play]) -> None:
        apply_death(self.players, self.supply, self.rules.ruleset.death)
        if self.first is not None:
            self.pass_first_player(plays)

    def pass_first_player(self, plays: list[Play]) -> None:
        self.first = next_first_player(self.first, plays, len(self.players))

    # ---- end of game
    def finish(self) -> GameResult:
        winners = final_scoring(self.players, self.rules.ruleset, self.scoring)
        return GameResult(winners, [p.name for p in self.players if p.out],
                          self.players, self.records, self.deal)


def next_first_player(first: int, plays: Sequence[Play], n_seats: int) -> int:
    """C-4/D-10: the highest value leads the next room; a tie goes to the tied player nearest
    clockwise after the current first player (who counts last among the tied).
    **Interpretation**: a card ranks by the value it counted for in the room (an item played
    as a power value counts that value); an escaped player's card does not rank."""
    valued = [(pl.value, pl.player.seat) for pl in plays if pl.value is not None]
    if not valued:
        return first
    top = max(v for v, _ in valued)
    tied = {s for v, s in valued if v == top}
    for k in range(1, n_seats + 1):
        seat = (first + k) % n_seats
        if seat in tied:
            return seat
    return first


def final_scoring(players: list[Player], ruleset, scoring: str = "standard") -> list[str]:
    """The end of the game; returns the winners' names.

    standard (D-9, C-8): the most wounded of those still in fall (ties: all of them, but only
    with at least `ties_fall_from` starting players; nobody when all are level); then most
    coins wins, ties broken by fewest wounds, still tied: all win.
    duel (C-9): no falling; a death already decided the game (both dead: nobody wins).
    solo (C-12): the hero wins by surviving; the coins are the score.
    """
    contenders = [p for p in players if p.out is None]
    if scoring == "standard":
        wounds = {p.wounds for p in contenders}
        if len(wounds) > 1:
            top = max(wounds)
            fallen = [p for p in contenders if p.wounds == top]
            if len(fallen) == 1 or len(players) >= ruleset.ties_fall_from:
                for p in fallen:
                    p.out = "bled out" if ruleset.death is not None else "unconscious"
    elif scoring == "duel" and any(p.dead for p in players):
        return [p.name for p in contenders]
    remaining = [p for p in contenders if p.out is None]
    if not remaining:
        return []
    best = max((p.coins, -p.wounds) for p in remaining)
    return [p.name for p in remaining if (p.coins, -p.wounds) == best]
