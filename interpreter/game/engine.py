"""The engine's phases: setup, floors, peeking, card play, resolution, end of game.

It knows players, hands, items, floors and rooms; what a room does comes from its compiled
text. The order of play and the scoring procedure are selected by ruleset/variant parameters.
Every random choice comes from the game's one seeded generator.
"""
from __future__ import annotations

import _random
import random
import weakref
from types import MappingProxyType
from typing import Callable, Mapping, Optional, Sequence

import attrs

from raiders.interpreter.runtime.compiled import CompiledRoom
from raiders.interpreter.runtime.legality import check_play, is_second_card, legal_cards
from raiders.interpreter.runtime.room import Context, RulesError, Table, check_deaths, resolve_round
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import POWER_CARDS, Card, Floor, Play, Player, RoomSlot

from .players import Seat, SeatView


@attrs.define
class Deal:
    """Everything setup decides: the dungeon, the characters, the first player."""

    floors: list[Floor]
    characters: list[str]
    first_player: Optional[int] = None  # seat
    threat_deck: list[int] = attrs.Factory(list)  # solo monster deck, top card first (C-12)


def _by_name(plays: "dict[str, list[Card]] | list[Play]") -> dict[str, list[Card]]:
    """What each player put down, by name (a record keeps its round's plays until asked)."""
    if isinstance(plays, dict):
        return plays
    return {pl.player.name: list(pl.played) for pl in plays}


@attrs.define
class RoomRecord:
    floor: int
    index: int
    card: str
    peeks: list[str]  # who played a peek item before the room (a log's `torches`)
    # name -> second-card items…, card; or the room's one round of plays, read into that
    # dict when first asked (a simulation never asks, and most rooms are one round)
    _plays: "dict[str, list[Card]] | list[Play]" = attrs.field(alias="plays", eq=_by_name)
    trace: Sequence  # this room's effects (a shared empty tuple when none)
    after_state: list[tuple[str, int, int, tuple[str, ...]]]  # name, coins, wounds, items
    first_player: Optional[str] = None
    monster: Optional[int] = None  # the threat card revealed in this room (solo)
    # dice rolled by the rules, in order; `may` answers, per player in order (shared empty
    # containers when a room has none)
    rolls: Sequence[int] = attrs.Factory(list)
    choices: Mapping[str, list[bool]] = attrs.Factory(dict)
    before: int = 0  # how many of `trace` happened between rooms, before this one was entered

    @property
    def plays(self) -> dict[str, list[Card]]:
        """What each player put down, by name: second-card items…, then the card."""
        plays = self._plays
        if isinstance(plays, list):
            plays = self._plays = _by_name(plays)
        return plays

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
    # Each player's score at the end, by name, when a card changed it (`modify score`); None:
    # the score is the coins. Only those still in when the winners are picked have one.
    scores: Optional[dict[str, int]] = None


class Game:
    def __init__(self, rules: Rules, names: Sequence[str], seats: Sequence[Seat],
                 seed: Optional[int] = None, deal: Optional[Deal] = None,
                 trace: bool = False, difficulty: Optional[int] = None,
                 start: Optional[tuple[list[Player], dict[str, int]]] = None):
        """`start`: players and supply as they already are (a scenario's table), instead of
        dealing characters and their items from the supply."""
        if len(names) != len(seats):
            raise ValueError("one seat per player name")
        var = rules.variant
        if rules.wrong_player_count(len(names)):
            raise ValueError(rules.wrong_player_count(len(names)))
        if deal is None and start is None and len(names) > len(rules.pool):
            raise ValueError(f"{len(names)} players but only {len(rules.pool)} "
                             "characters to deal")
        self.rules = rules
        self.rng = seeded(seed)
        self.seats = list(seats)
        # Each seat gets its own generator, derived from the game's, so a bot's choices do not
        # shift the deal and the same seed always gives the same game.
        self.seat_rngs = []
        for _ in seats:
            self.seat_rngs.append(seeded(self.rng.getrandbits(64)))
        self.trace = trace
        self.supply = dict(rules.supply) if var.items else {}
        self.abilities = rules.abilities
        self.peek_items = rules.peek_items
        self.item_plays = rules.item_plays  # room id -> the items a seat may put down there
        self.deal = deal if deal is not None else self.random_deal(len(names))
        self.players: list[Player] = []
        if start is not None:
            self.players, self.supply = start
        for seat, (name, char_id) in enumerate(zip(names, self.deal.characters, strict=False)):
            if start is not None:
                break
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
        self.sequential = var.play == "sequential"
        # A status exists only where a status card does (a mark names a declared one): without
        # any, no status can run out, and the rooms skip looking.
        self.statuses = bool(rules.statuses)
        self.coin_cap = rules.coin_cap
        self.scoring = var.scoring
        self.threats_drawn = 0
        self.scripted_threats: dict[int, int] = {}  # room number -> card, from a log
        # Dice and choices a log or scenario gives, consumed in order (None: roll / ask).
        self.scripted_rolls: Optional[Callable[[int], Optional[int]]] = None
        self.death = rules.ruleset.death
        # The seats' views (`view`), kept for the next decision. They see the game through a
        # weak proxy: a view holding the game itself would make game and views a cycle, and
        # every game (a search bot's playouts too) would wait, whole, for the garbage collector
        # instead of going when dropped.
        self._views: list[Optional[SeatView]] = [None] * len(self.seats)
        self.records: list[RoomRecord] = []
        self.peeked: dict[int, set[int]] = {}  # seat -> room indexes seen on this floor
        self._rolls: list[int] = []
        self._choices: dict[str, list[bool]] = {}
        self._room_index = 0
        self._before = 0
        self._rooms_dealt = sum(len(fl.rooms) for fl in self.deal.floors)
        self._scoring = False
        # The table calls back into the game (dice, questions, the monster deck) through a weak
        # reference: with bound methods, game and table would form a cycle, and every game's
        # whole record would wait for the garbage collector instead of going when dropped.
        me = weakref.ref(self)
        self.table = Table(self.players, self.supply, self.coin_cap, self.death,
                           rules.held_rules, rules.house_rules, self.deal.first_player,
                           [] if trace else None, lambda faces: _alive(me)._roll(faces),
                           lambda p, question, card: _alive(me)._ask(p, question, card),
                           lambda: _alive(me).draw_threat())
        # The rooms as things cards name (`next_room`, `previous_room`)
        self.table.floors = self.deal.floors
        self.table.room_cards = rules.rooms

    # The first player and the floor live on the table, where the rules read them.
    @property
    def first(self) -> Optional[int]:
        return self.table.first

    @first.setter
    def first(self, seat: Optional[int]) -> None:
        self.table.first = seat

    @property
    def floor_index(self) -> int:
        return self.table.floor_index

    @floor_index.setter
    def floor_index(self, f: int) -> None:
        self.table.floor_index = f

    # ---- setup (D-2, D-3, C-2)
    def random_deal(self, n_players: int) -> Deal:
        rs, rng = self.rules.ruleset, self.rng
        deck = list(self.rules.deck_cards)
        shuffle(rng, deck)
        deck = deck[rs.remove if self.rules.variant.remove is None else self.rules.variant.remove:]
        n_rooms = rs.floors_used * rs.rooms_per_floor
        boss = [rng.choice(self.rules.bosses)] if self.rules.bosses else []
        rooms = deck[: n_rooms - len(boss)] + boss
        if len(rooms) < n_rooms:
            raise RulesError(f"the deck holds {len(rooms)} rooms; {n_rooms} are needed")
        if rs.floors:
            cards = list(rs.floors)
            shuffle(rng, cards)
            layouts: list[tuple[Optional[str], str]] = [
                (c, self.rules.floors[c].layout) for c in cards[: rs.floors_used]]
        else:
            up = set(rng.sample(range(n_rooms), rs.face_up or 0))
            layouts = [(None, "".join("U" if f * rs.rooms_per_floor + i in up else "D"
                                      for i in range(rs.rooms_per_floor)))
                       for f in range(rs.floors_used)]
        if boss and self.rules.boss_facing is not None:
            card, layout = layouts[-1]
            layouts[-1] = (card, layout[:-1] + ("U" if self.rules.boss_facing == "up" else "D"))
        floors = []
        for f, (card, layout) in enumerate(layouts):
            chunk = rooms[f * rs.rooms_per_floor:(f + 1) * rs.rooms_per_floor]
            floors.append(Floor([RoomSlot(c, layout[i] == "U") for i, c in enumerate(chunk)], card))
        characters = rng.sample(list(self.rules.pool), n_players)
        first = rng.randrange(n_players) if self.rules.variant.first_player == "random" else None
        threats = list(self.rules.variant.threat_deck)
        shuffle(rng, threats)
        return Deal(floors, characters, first, threats)

    # ---- the game
    def living(self) -> list[Player]:
        return [p for p in self.players if not p.dead]

    def run(self, on_room: Optional[Callable[[RoomRecord], None]] = None) -> GameResult:
        self.phase("game_start", None)
        for f, floor in enumerate(self.deal.floors):
            self.start_floor(f, floor)
            for r, slot in enumerate(floor.rooms):
                record = self.play_room(f, r, floor, slot)
                self.records.append(record)
                if on_room is not None:
                    on_room(record)
                if self.game_over():
                    break
            if self.game_over():
                break
            self.end_floor()
        return self.finish()

    def phase(self, event: str, room: Optional[CompiledRoom]) -> Optional[Context]:
        """A moment of the game on the bus (`after floor_start { … }`); cheap when no card in
        play hears it."""
        table = self.table
        if not table.may_hear(event, room):
            return None
        ctx = Context(table, room)
        ctx.phase(event, list(ctx.participants))
        return ctx

    def start_floor(self, f: int, floor: Floor) -> None:
        """D-3/C-2: the floor is laid out; everyone takes their power cards back."""
        self.floor_index = f
        self.table.room_index = -1  # no room of this floor played yet
        self.peeked = {}
        for p in self.players:
            p.hand = list(POWER_CARDS)
        card = self.rules.floors.get(floor.floor_card) if floor.floor_card else None
        self.table.set_floor_rules(card.rules if card is not None and not card.rules.empty
                                   else None)
        self.phase("floor_start", None)

    def end_floor(self) -> None:
        self.phase("floor_end", None)
        self.table.expire_marks(floor_over=True)
        self.table.set_floor_rules(None)

    # ---- dice and choices: from the game's generator and the seats, recorded for the log
    @property
    def entry_index(self) -> int:
        """The room entry (0-based) that a die rolled or an answer given now belongs to, in a
        log or a scenario: the room being played; between two rooms (`floor_end`,
        `floor_start`), the next room; after the last room (the last `floor_end`, the
        end-of-game scoring), the last room played."""
        done = len(self.records)
        if done and (self._scoring or done == self._rooms_dealt):
            return done - 1
        return done

    def _roll(self, faces: int) -> int:
        value = self.scripted_rolls(faces) if self.scripted_rolls is not None else None
        if value is None:
            value = self.rng.randint(1, faces)
        elif not 1 <= value <= faces:
            raise RulesError(f"a roll of {value} on a {faces}-sided die")
        self._rolls.append(value)
        return value

    def _ask(self, p: Player, question: str, card: str) -> bool:
        seat = self.seats[p.seat]
        decide = getattr(seat, "decide", None)
        view = self.view(p, self._room_index, (), True)
        answer = bool(decide(view, question, card)) if decide is not None else False
        self._choices.setdefault(p.name, []).append(answer)
        return answer

    def game_over(self) -> bool:
        if self.scoring == "duel":  # C-9: reaching the death threshold ends the duel at once
            return any(p.dead for p in self.players)
        for p in self.players:  # asked after every room: a loop, not a generator
            if not p.dead:
                return False
        return True

    def draw_threat(self) -> int:
        """C-12: the next card of the monster deck. **Interpretation**: should the deck run
        out (a mod with more monsters), the revealed cards are shuffled into a new one."""
        deck = self.deal.threat_deck
        if not deck:
            scripted = self.scripted_threats.get(len(self.records))
            if scripted is not None:
                return scripted
            raise RulesError("a room reads `threat`, but this game has no threat deck (a "
                             "scenario reveals the monster card with `monster: N`)")
        if self.threats_drawn >= len(deck):
            extra = list(self.rules.variant.threat_deck)
            self.rng.shuffle(extra)
            deck.extend(extra)
        value = deck[self.threats_drawn]
        self.threats_drawn += 1
        scripted = self.scripted_threats.get(len(self.records))
        return value if scripted is None else scripted

    def view(self, p: Player, r: int, revealed: Sequence[Play], entered: bool,
             taken: Sequence[Card] = ()) -> SeatView:
        """What a player's seat sees for a decision: the seat's one view, aimed at it."""
        view = self._views[p.seat]
        if view is None or view.me is not p:  # (a scenario may seat new players)
            view = self._views[p.seat] = SeatView(weakref.proxy(self), p, r, revealed, entered,
                                                  taken)
        else:
            view.aim(r, revealed, entered, taken)
        return view

    def peeks(self, floor: Floor, r: int) -> list[str]:
        """X-2: before a room's cards, anyone may play a peek item to see the hidden rooms."""
        used = []
        peek_items = self.peek_items
        for p in self.players:
            if p.dead or not p.items:
                continue
            for peek_item in peek_items:  # the plainest first (Rules.peek_items); most: 1
                if peek_item in p.items:
                    break
            else:
                continue
            if self.seats[p.seat].use_peek(self.view(p, r, (), False)):
                self.use_peek(p, peek_item, floor)
                used.append(p.name)
        return used

    def use_peek(self, p: Player, item: str, floor: Floor) -> None:
        self.table.return_item(p, item)
        self.peeked.setdefault(p.seat, set()).update(range(len(floor.rooms)))

    def play_order(self) -> list[Player]:
        """Seat order, or clockwise from the first player where the variant has one."""
        first, players = self.table.first, self.players
        if first is None:
            return [p for p in players if not p.dead]
        return [p for p in (*players[first:], *players[:first]) if not p.dead]

    def choose(self, p: Player, room: CompiledRoom, r: int, revealed: Sequence[Play],
               second: bool, chosen: Sequence[Card] = (), taken: Sequence[Card] = (),
               legal: Optional[list[Card]] = None) -> Card:
        if legal is None:
            legal = legal_cards(room, p, self.abilities, taken, self.item_plays.get(room.id))
        view = self.view(p, r, revealed, True, taken)
        card = self.seats[p.seat].choose_card(view, legal, second)
        if card not in legal:
            self._illegal(room, p, [*chosen, card])
        return card

    def _illegal(self, room: CompiledRoom, p: Player, cards: list[Card]) -> None:
        raise RulesError(check_play(room, p, cards, self.abilities)
                         or f"{p.name} cannot play {cards[-1]} here")

    def card_play(self, room: CompiledRoom, r: int,
                  living: Optional[list[Player]] = None) -> list[Play]:
        """D-4/C-10 (simultaneous) or C-3/D-10 (in turn); second-card items play again after.
        In a room of several cards (`cards 2`) each player puts down that many, one at a time;
        a player with no card left for one counts the room's `missing` value for it.
        `living`: those still in, in seat order, when the caller has them."""
        if room.cards_each != 1:
            return self._card_play_several(room, r)
        sequential = self.sequential
        abilities = self.abilities
        item_plays = self.item_plays[room.id]
        seats, views = self.seats, self._views
        plays: list[Play] = []
        revealed: list[Play] = []
        pending: list[Play] = []
        # those still in, as play_order gives them, from the caller's list when it has one
        order = living if living is not None and self.table.first is None \
            else self.play_order()
        for p in order:
            # the most common decision: no items, any card left in hand, which the seat is
            # shown as it is (a seat reads the cards it is given, never changes them)
            legal: Sequence[Card] = legal_cards(room, p, abilities, (), item_plays) \
                if p.items else p.hand
            if not legal:  # nothing left to play (a room fought in rounds)
                plays.append(Play(p, None, cards=(None,), sequence=()))
                continue
            # what `choose` (and `view`) do, without the calls: four times a room
            view = views[p.seat]
            if view is not None and view.me is p:
                view.aim(r, revealed if sequential else (), True)
            else:
                view = self.view(p, r, revealed if sequential else (), True)
            card = seats[p.seat].choose_card(view, legal, False)
            if card not in legal:
                self._illegal(room, p, [card])
            # Play(p, card), field by field: a class's __init__ is a call of its own, and
            # this is the game's commonest object (a new field of Play is set here too:
            # tests/game/test_card_play.py holds every field set as Play(p, card) sets it)
            pl = _new_object(Play)
            pl.player = p
            pl.card = card
            pl.chain = pl.card_values = ()
            pl.value = pl.cards = pl.sequence = None
            pl.escaped = False
            plays.append(pl)
            if card.__class__ is str and item_plays.get(card):  # a second-card item
                self._return_at_once(pl)
                pending.append(pl)
            elif sequential:
                revealed.append(pl)
        if pending:
            if not sequential:
                revealed = [pl for pl in plays if pl not in pending]
            self._second_cards(room, r, pending, revealed)
        if self.table.first is not None:
            plays.sort(key=_seat_of)
        return plays

    def _card_play_several(self, room: CompiledRoom, r: int) -> list[Play]:
        sequential, abilities, n = self.sequential, self.abilities, room.cards_each
        plays: list[Play] = []
        revealed: list[Play] = []
        for p in self.play_order():
            cards: list[Optional[Card]] = []
            sequence: list[Card] = []
            chain: list[str] = []
            for _ in range(n):
                taken = [c for c in cards if c is not None]
                card: Optional[Card] = None
                while True:
                    legal = legal_cards(room, p, abilities, taken, self.item_plays[room.id])
                    if not legal:
                        card = None
                        break
                    card = self.choose(p, room, r, revealed if sequential else (),
                                       bool(chain) and sequence[-1] in chain, chain, taken,
                                       legal)
                    sequence.append(card)
                    if not isinstance(card, str) or not is_second_card(room, card, abilities):
                        break
                    # a second-card item goes back at once; the next card replaces it.
                    self.table.return_item(p, card)
                    chain.append(card)
                cards.append(card)
            pl = Play(p, cards[0], tuple(chain), cards=tuple(cards), sequence=tuple(sequence))
            plays.append(pl)
            if sequential:
                revealed.append(pl)
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
        assert isinstance(item, str)  # the caller found it a second-card item
        self.table.return_item(pl.player, item)
        pl.chain = (*pl.chain, item)

    def play_room(self, f: int, r: int, floor: Floor, slot: RoomSlot) -> RoomRecord:
        self._room_index = r
        table = self.table
        table.room_number = r + 1
        table.room_index = r
        self._before = len(table.trace) if table.trace else 0  # between-room effects so far
        first = table.first
        first_name = self.players[first].name if first is not None else None
        peeks = self.peeks(floor, r)
        room = self.rules.rooms[slot.card if table.played_as is None
                                else table.card_at((f, r))]  # `become`
        if room.rules.reactors or table.listening:
            self.phase("reveal", room)  # only when some card in play may hear it (`phase`)
        if room.rounds == 1:  # the common case, without merging rounds
            # Who is still in, once for the card play and the round (nobody falls between);
            # a loop, not a comprehension, which is a call of its own in Python 3.11
            living = []
            for p in self.players:
                if not p.dead:
                    living.append(p)
            plays = self.card_play(room, r, living)
            ctx = resolve_round(table, room, plays, participants=living)
            return self.finish_room(f, r, room, ctx, plays, plays, peeks, first_name)
        played: dict[str, list[Card]] = {}
        for round_no in range(1, room.rounds + 1):
            plays = self.card_play(room, r)
            for pl in plays:
                played.setdefault(pl.player.name, []).extend(pl.played)
            ctx = resolve_round(self.table, room, plays, round_no)
            if room.until is not None and round_no < room.rounds and room.until(ctx, None):
                if ctx.trace is not None:  # `until`: the room ends before its last round
                    ctx.trace.append(("until", "", round_no))
                break
        return self.finish_room(f, r, room, ctx, plays, played, peeks, first_name)

    def finish_room(self, f: int, r: int, room: CompiledRoom, ctx: Context, plays: list[Play],
                    played: "dict[str, list[Card]] | list[Play]", peeks: list[str],
                    first_name: Optional[str]) -> RoomRecord:
        """After the room's last round: `after room`, deaths, statuses that run out, the
        first player's hand-over; then the room's record. `played`: what each put down, by
        name (a room of several rounds), or the one round's plays, which the record reads
        into that only when asked."""
        table = self.table
        if "room" in ctx.reacts:
            ctx.phase("room", list(ctx.participants))
        if table.death is not None:
            check_deaths(ctx)
        table.rooms_done += 1
        table.room_number = 0
        if self.statuses:
            table.expire_marks()
        before = table.first
        if before is not None:
            self.pass_first_player(plays)
            first = table.first
            if first is not None and first != before:
                new = self.players[first]
                if table.may_hear("first_player", None):
                    Context(table, None).phase("first_player", [new])
        # Fresh lists only when this room used them: most rooms roll no die, ask nothing and
        # trace nothing, and every container made per room is work for the garbage collector.
        rolls: Sequence[int] = self._rolls
        choices: Mapping[str, list[bool]] = self._choices
        if rolls:
            self._rolls = []
        else:
            rolls = _NOTHING
        if choices:
            self._choices = {}
        else:
            choices = _NO_ANSWERS
        # Each record gets this room's effects only; the list itself lives on (every Context
        # of the game appends to it), so it is emptied in place.
        effects: Sequence = _NOTHING
        if table.trace:
            effects = list(table.trace)
            table.trace.clear()
        after = []  # a loop, not a comprehension (a call of its own in Python 3.11)
        for p in self.players:
            after.append((p.name, p.coins, p.wounds, tuple(p.items)))
        # RoomRecord(f, r, room.id, peeks, played, effects, after, first_name, ctx.threat_value,
        # rolls, choices, self._before), field by field: an __init__ is a call of its own, once
        # a room (tests/game/test_card_play.py holds every field set)
        rec = _new_object(RoomRecord)
        rec.floor = f
        rec.index = r
        rec.card = room.id
        rec.peeks = peeks
        rec._plays = played
        rec.trace = effects
        rec.after_state = after
        rec.first_player = first_name
        rec.monster = ctx.threat_value
        rec.rolls = rolls
        rec.choices = choices
        rec.before = self._before
        return rec

    def record_late_input(self) -> None:
        """Dice and answers after the last room's record (the last floor's end, the scoring)
        go on that record, after its own (`entry_index`): a log has no later entry."""
        if not (self._rolls or self._choices) or not self.records:
            return
        last = self.records[-1]
        last.rolls = [*last.rolls, *self._rolls]
        choices = {name: list(answers) for name, answers in last.choices.items()}
        for name, answers in self._choices.items():
            choices.setdefault(name, []).extend(answers)
        last.choices = choices
        self._rolls, self._choices = [], {}

    def pass_first_player(self, plays: list[Play]) -> None:
        """D-4: the first player passes on (a game that has one)."""
        first = self.first
        if first is not None:
            self.first = next_first_player(first, plays, len(self.players))

    # ---- end of game
    def finish(self) -> GameResult:
        self._scoring = True
        winners, scores = final_scoring(self.players, self.rules.ruleset, self.scoring,
                                        self.table)
        self.record_late_input()
        return GameResult(winners, [p.name for p in self.players if p.out],
                          self.players, self.records, self.deal, scores)


_NOTHING: tuple = ()
_new_object = object.__new__
_new_random = random.Random.__new__
_seed_generator = _random.Random.seed  # the C generator's own seeding, under Random.seed
_NO_ANSWERS: Mapping[str, list[bool]] = MappingProxyType({})


def seeded(seed: Optional[int]) -> random.Random:
    """`random.Random(seed)`, the same generator, without the Python layers of its __init__
    and `seed`, which hand an int seed (or None: the system's randomness) to the C generator as
    it is (five a game: the game's and each seat's; tests/game/test_index_below.py holds it to
    random.Random)."""
    rng = _new_random(random.Random)
    _seed_generator(rng, seed)
    # what Random.seed sets besides the generator (typeshed does not declare this attribute)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def shuffle(rng: random.Random, cards: list) -> None:
    """`rng.shuffle(cards)`, swap for swap and draw for draw (CPython's: for each place from
    the last, an index below it from k random bits, k its bit length, drawn until it is below),
    without a call per card: every deal shuffles the room deck (tests/game/test_index_below.py
    holds it to random.shuffle)."""
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(cards))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _seat_of(pl: Play) -> int:
    return pl.player.seat


def _alive(game: "weakref.ref[Game]") -> "Game":
    """The game a table calls back into (the table lives no longer than its game)."""
    found = game()
    if found is None:
        raise ReferenceError("the game of this table is gone")
    return found


def next_first_player(first: int, plays: Sequence[Play], n_seats: int) -> int:
    """C-4/D-10: the highest value leads the next room; a tie goes to the tied player nearest
    clockwise after the current first player (who counts last among the tied).
    **Interpretation**: a card ranks by the value it counted for in the room (an item played
    as a power value counts that value); an escaped player's card does not rank."""
    top: Optional[int] = None
    tied: list[int] = []  # the seats that played the top value (one pass over the plays)
    for pl in plays:
        value = pl.value
        if value is None:
            continue
        if top is None or value > top:
            top, tied = value, [pl.player.seat]
        elif value == top:
            tied.append(pl.player.seat)
    if top is None:
        return first
    for k in range(1, n_seats + 1):
        seat = (first + k) % n_seats
        if seat in tied:
            return seat
    return first


def final_scoring(players: list[Player], ruleset, scoring: str = "standard",
                  table: Optional[Table] = None) -> tuple[list[str], Optional[dict[str, int]]]:
    """The end of the game; returns the winners' names, and the scores of those still in
    when a card changes the score (None: the score is the coins).

    standard (D-9, C-8): the most wounded of those still in fall (ties: all of them, but only
    with at least `ties_fall_from` starting players; nobody when all are level); then most
    coins wins, ties broken by fewest wounds, still tied: all win.
    duel (C-9): no falling; a death already decided the game (both dead: nobody wins).
    solo (C-12): the hero wins by surviving; the coins are the score.
    """
    contenders = [p for p in players if p.out is None]
    score = _coins
    if table is not None and (table.house or table.held):
        # The cards in play hear `scoring` and may change each player's `score`.
        ctx = Context(table, None, participants=contenders)
        ctx.phase("scoring", list(contenders))
        contenders = [p for p in players if p.out is None]
        mods = ctx.mods.get("score")
        if mods:
            def score(p: Player) -> int:
                return ctx.modified(mods, p.coins, p)
    if scoring == "standard":
        wounds = {p.wounds for p in contenders}
        if len(wounds) > 1:
            top = max(wounds)
            fallen = [p for p in contenders if p.wounds == top]
            if len(fallen) == 1 or len(players) >= ruleset.ties_fall_from:
                for p in fallen:
                    p.out = "bled out" if ruleset.death is not None else "unconscious"
    elif scoring == "duel" and any(p.dead for p in players):
        return [p.name for p in contenders], None
    remaining = [p for p in contenders if p.out is None]
    if not remaining:
        return [], None
    ranks = {p.seat: (score(p), -p.wounds) for p in remaining}
    best = max(ranks.values())
    scores = None if score is _coins else {p.name: ranks[p.seat][0] for p in remaining}
    return [p.name for p in remaining if ranks[p.seat] == best], scores


def _coins(p: Player) -> int:
    return p.coins
