"""The game's one event bus, and a room's resolution on it.

Every card in play adds its compiled rules to the bus (`CardRules`): the room being played,
the floor card, the house rules, and for each player (seat order) their character, the items
they hold and their statuses. For one event, in that order of cards (docs/dsl.md, "Events"):
every `modify` that applies, then the first `instead of` that applies (a replacement never
applies twice within its own chain, so two replacements cannot loop), then the effect, then
every `after`. A chain deeper than MAX_DEPTH, or a room that sets off more than MAX_EVENTS
events, is a RulesError naming the card.

`Table` is the game as the rules see it (players, supply, where dice and choices come from);
`Context` is one room's round (or one phase of the game) being played on it.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Mapping, Optional, Sequence, Union

import attrs

from .compiled import CardRules, CompiledRoom, Handler
from .state import Card, Mark, Play, Player

MAX_DEPTH = 32
MAX_EVENTS = 20_000  # per room: enough for any real card, a clear stop for runaway ones
MAX_NUMBER = 10**6  # amounts beyond this are a runaway card, not a game
MAX_VALUE = 10**12  # a modified value or strength (`never` is 10**9); floats hold it exactly


_NONE: tuple = ()
_NO_SEATS: frozenset[int] = frozenset()
_NO_VALUES: Mapping[int, int] = MappingProxyType({})


class RulesError(Exception):
    """A play or a card that breaks the rules at run time (an illegal play, a runaway chain)."""


@attrs.define(eq=False, slots=True)
class Bus:
    """The handlers of every card in play, merged per event, in the documented order."""

    mods: dict[str, list] = attrs.Factory(dict)  # event -> [(fn, pred, owner)]
    reps: dict[str, list] = attrs.Factory(dict)  # event -> [(Handler, owner)]
    reacts: dict[str, list] = attrs.Factory(dict)  # event -> [(Handler, owner)]
    value_mods: list = attrs.Factory(list)  # [(key, fn, pred, owner)]
    param_mods: dict[str, list] = attrs.Factory(dict)  # room parameter -> [(fn, pred, owner)]
    heard: frozenset[str] = frozenset()  # events some card modifies, replaces or reacts to

    def add(self, rules: CardRules, owner: Optional[Player]) -> None:
        for event, mods in rules.effect_mods.items():
            self.mods.setdefault(event, []).extend((f, pred, owner) for f, pred in mods)
        for event, hs in rules.replacers.items():
            self.reps.setdefault(event, []).extend((h, owner) for h in hs)
        for event, hs in rules.reactors.items():
            self.reacts.setdefault(event, []).extend((h, owner) for h in hs)
        self.value_mods.extend((k, f, pred, owner) for k, f, pred in rules.value_mods)
        for name, mods in rules.param_mods.items():
            self.param_mods.setdefault(name, []).extend((f, pred, owner) for f, pred in mods)
        self.heard = frozenset((*self.mods, *self.reps, *self.reacts))


class Table:
    """The game as its rules see it: players, supply, the cards in play besides the room,
    the round of the game, and where dice and choices come from (the engine's seeded
    generator and seats; a log or a scenario when replaying)."""

    def __init__(self, players: list[Player], supply: dict[str, int], coin_cap: Optional[int],
                 death: Optional[int], held: Optional[Mapping[str, CardRules]] = None,
                 house: Sequence[CardRules] = (), first: Optional[int] = None,
                 trace: Optional[list] = None,
                 dice: Optional[Callable[[int], int]] = None,
                 ask: Optional[Callable[[Player, str, str], bool]] = None,
                 threat_source: Optional[Callable[[], int]] = None):
        self.players = players
        self.supply = supply
        self.coin_cap = coin_cap
        self.death = death
        # Rules of cards a player holds (characters, items, statuses), by card id, and the
        # house rules: only those with rules (`Rules.held_rules`, `Rules.house_rules` are made
        # so, once per ruleset), so a game whose cards have none pays nothing for them.
        self.held = held if held is not None else {}
        self.house = house
        self.floor_rules: Optional[CardRules] = None
        self.first = first
        self.trace = trace
        self.dice = dice
        self.ask = ask
        self.threat_source = threat_source
        self.floor_index = 0
        self.room_number = 0  # the room being played, 1..5 on its floor; 0 between rooms
        self.rooms_done = 0
        self._buses: dict = {}
        # An optional recorder of which card's handler did what (interpreter/records/why.py, `replay
        # --trace`); None, the default, costs one test where a handler runs.
        self.why = None

    @property
    def listening(self) -> bool:
        """Whether any card besides the room is in play with rules (the game's moments are
        emitted only when some card may hear them)."""
        return bool(self.house or self.held or self.floor_rules is not None)

    def living(self) -> list[Player]:
        return [p for p in self.players if not p.dead]

    # ---- the bus
    def bus(self, room: Optional[CompiledRoom]) -> Bus:
        """The merged handlers for the cards in play now (cached by what is in play)."""
        if room is not None and not self.listening:
            own = room.own_bus  # the common case: only the room's rules are in play
            if own is None:
                own = room.own_bus = Bus()
                own.add(room.rules, None)
            return own
        key = (id(room), id(self.floor_rules), self._held_key() if self.held else None)
        bus = self._buses.get(key)
        if bus is None:
            if len(self._buses) > 512:
                self._buses.clear()
            bus = Bus()
            if room is not None:
                bus.add(room.rules, None)
            if self.floor_rules is not None:
                bus.add(self.floor_rules, None)
            for rules in self.house:
                bus.add(rules, None)
            if self.held:
                held = self.held
                for p in self.players:
                    if p.dead:
                        continue
                    for cid in (p.character, *p.items, *sorted(p.marks)):
                        rules = held.get(cid)
                        if rules is not None:
                            bus.add(rules, p)
            self._buses[key] = bus
        return bus

    def _held_key(self) -> tuple:
        return tuple((p.character, tuple(p.items), tuple(sorted(p.marks)), p.dead)
                     for p in self.players)

    # ---- what the rules share
    def return_item(self, p: Player, item: str) -> None:
        """An item card goes from a player back to the supply."""
        p.take_item(item)
        self.supply[item] = self.supply.get(item, 0) + 1

    def roll(self, faces: int) -> int:
        if self.dice is None:
            raise RulesError("a card rolls a die, but this game has no dice (give `rolls:`)")
        value = self.dice(faces)
        if self.trace is not None:
            self.trace.append(("roll", "", value))
        return value

    def choose(self, p: Player, question: str, card: str) -> bool:
        if self.ask is None:
            return False
        answer = bool(self.ask(p, question, card))
        if self.trace is not None:
            self.trace.append(("choice", p.name, "yes" if answer else "no"))
        return answer

    def expire_marks(self, floor_over: bool = False) -> None:
        """Statuses whose time is up go (after each room, and at the end of a floor)."""
        done, floor = self.rooms_done, self.floor_index
        for p in self.players:
            if p.marks:
                for name in [n for n, m in p.marks.items() if _time_up(m, done, floor,
                                                                         floor_over)]:
                    del p.marks[name]


def _time_up(m: Mark, done: int, floor: int, floor_over: bool) -> bool:
    """A status ends when every limit it has is reached (a status marked both for some rooms
    and for the floor lasts as long as the longer); one without limits lasts the game."""
    if m.until_room is None and m.until_floor is None:
        return False
    rooms_up = m.until_room is None or m.until_room <= done
    floor_up = m.until_floor is None or m.until_floor < floor or (
        floor_over and m.until_floor <= floor)
    return rooms_up and floor_up


class Context:
    """One room's round (or one phase of the game) as the compiled cards see it."""

    __slots__ = (
        "table", "room", "participants", "plays", "supply", "coin_cap", "death", "n_players",
        "values_by_player", "total", "highest_value", "lowest_value",
        "highest_card", "all_same", "escaped_seats", "attack_targets",
        "amount", "applied", "depth", "trace", "threat_value", "owner", "mods", "reps",
        "reacts", "param_mods", "value_mods", "round", "events", "rolls", "why", "heard",
    )

    def __init__(self, table: Table, room: Optional[CompiledRoom], plays: Sequence[Play] = (),
                 participants: Optional[list[Player]] = None, round_no: int = 1):
        self.table = table
        self.room = room
        self.participants = participants = \
            participants if participants is not None else table.living()
        self.plays = plays
        self.supply = table.supply
        self.coin_cap = table.coin_cap
        self.death = table.death or 0
        self.n_players = len(participants)
        self.trace = table.trace
        self.why = table.why
        bus = table.bus(room)
        self.mods, self.reps, self.reacts = bus.mods, bus.reps, bus.reacts
        self.param_mods, self.value_mods = bus.param_mods, bus.value_mods
        self.heard = bus.heard
        self.threat_value: Optional[int] = None
        self.owner: Optional[Player] = None
        self.round = round_no
        self.events = 0
        self.rolls: Optional[dict] = None
        self.attack_targets: Sequence[Player] = _NONE
        self.amount = 0
        self.applied: tuple = ()
        self.depth = 0
        self.values_by_player: Mapping[int, int] = _NO_VALUES  # seat -> value played
        self.escaped_seats: Union[set[int], frozenset[int]] = _NO_SEATS  # a set once needed
        self.total = self.highest_value = self.lowest_value = self.highest_card = 0
        self.all_same = 1

    # ---- the plays
    def value_plays(self) -> None:
        """What every play counts for here (the room's rules and every `modify value`),
        then the numbers the room reads: total, highest, lowest, …"""
        plain = not self.value_mods and self.room.any_item is None
        vb: dict[int, int] = {}
        top_card = 0
        for pl in self.plays:
            card = pl.card
            if pl.cards is None:  # one card each, the common case: valued here
                value = card if plain and card.__class__ is int else \
                    self._counts(card, pl.player)
                if value is None:
                    self._escaped(pl)
                    continue
                pl.value = vb[pl.player.seat] = value
                if value > top_card:
                    top_card = value
                continue
            values = []
            for card in pl.cards:
                value = self._counts(card, pl.player)
                if value is None:
                    break
                values.append(value)
            else:
                pl.value = vb[pl.player.seat] = sum(values)
                pl.card_values = tuple(values)
                top_card = max([top_card, *values])
                continue
            self._escaped(pl)
        self._numbers(vb, top_card)

    def _counts(self, card: Optional[Card], p: Player) -> Optional[int]:
        """What one card counts for in this room; None: it is an escape (its player escapes,
        and none of their cards counts)."""
        if card is None:  # a card the player lacks (a room of several cards)
            return self.room.missing
        if card.__class__ is str and card in self.room.escapes:
            return None
        return self.card_value(card, p)

    def _escaped(self, pl: Play) -> None:
        pl.escaped, pl.value = True, None
        if not self.escaped_seats:
            self.escaped_seats = set()
        self.escaped_seats.add(pl.player.seat)

    def _numbers(self, vb: dict[int, int], top_card: int) -> None:
        self.values_by_player = vb
        if vb:
            values = vb.values()
            self.total = sum(values)
            self.highest_value = high = max(values)
            self.lowest_value = low = min(values)
            if high != low:
                self.all_same = 0
        self.highest_card = top_card

    @property
    def distinct_values(self) -> list[int]:
        """The values played, each once, lowest first (asked by `second`, `second_lowest`)."""
        return sorted(set(self.values_by_player.values()))

    def card_value(self, card: Card, p: Player) -> int:
        room = self.room
        if card.__class__ is int:
            value = card
        elif card in room.playable:
            value = room.playable[card](self, p)
        elif room.any_item is not None:
            value = room.any_item(self, p)
        else:
            value = 0
        for key, fn, pred, owner in self.value_mods:
            if (key is None or key == card) and (pred is None or pred(self, p, owner)):
                self.owner = owner
                self.amount = value
                value = fn(self, p)
                if not -MAX_VALUE <= value <= MAX_VALUE:
                    self._runaway("value")
                if self.why is not None:
                    self.why.modified(self, "value", p, self.amount, value, fn, owner)
        return value

    def cards_of(self, p: Player) -> tuple:
        # a scan of the few plays (no table of them is built per room: most rooms never ask)
        pl = next((pl for pl in self.plays if pl.player is p), None)
        return pl.played if pl is not None else ()

    def threat(self) -> int:
        """The room's monster card from the threat deck (C-12), revealed once per room."""
        if self.threat_value is None:
            source = self.table.threat_source
            if source is None:
                name = self.room.id if self.room is not None else "a card"
                raise RulesError(f"room `{name}` reads `threat`, but this game has no "
                                 "threat deck (a variant's `threat_deck`)")
            self.threat_value = source()
            if self.trace is not None:
                self.trace.append(("threat", "", self.threat_value))
        return self.threat_value

    def roll(self, faces: int, p: Optional[Player]) -> int:
        """A die rolled once per room: the table's (p None) or a player's own."""
        if faces < 1:
            return 0
        key = (p.seat if p is not None else None, faces)
        if self.rolls is None:
            self.rolls = {}
        value = self.rolls.get(key)
        if value is None:
            value = self.rolls[key] = self.table.roll(faces)
        return value

    def ask(self, p: Player, question: str, card: str) -> bool:
        return self.table.choose(p, question, card)

    def modified(self, mods: list, value: int, p: Optional[Player]) -> int:
        for fn, pred, owner in mods:
            if pred is None or (p is not None and pred(self, p, owner)):
                self.owner = owner
                self.amount = value
                value = fn(self, p)
                if not -MAX_VALUE <= value <= MAX_VALUE:  # squared 32 times: not a game
                    self._runaway("modify")
                if self.why is not None:
                    self.why.modified(self, None, p, self.amount, value, fn, owner)
        return value

    # ---- the bus
    def emit(self, event: str, p: Player, amount: int, item: Optional[str] = None,
             extra=None) -> None:
        """One effect on one player: modify, replace, apply, react."""
        self.events += 1
        if self.events > MAX_EVENTS:
            self._runaway(event)
        if event not in self.heard:  # no card hears it: the effect, and that is all
            if amount > MAX_NUMBER:
                self._runaway(event)
            _APPLY[event](self, p, amount if amount > 0 else 0, item, extra)
            if event in self.heard:  # unless the effect brought in a card that hears it (an
                reacts = self.reacts.get(event)  # item hears the `give` that gave it)
                if reacts:
                    self._react(reacts, [p], amount if amount > 0 else 0, item, extra)
            return
        mods = self.mods.get(event)
        if mods:
            for fn, pred, owner in mods:
                if pred is None or pred(self, p, owner):
                    self.owner = owner
                    self.amount = amount
                    amount = fn(self, p)
                    if amount > MAX_NUMBER:  # at each step: 32 squarings would not fit memory
                        self._runaway(event)
                    if self.why is not None:
                        self.why.modified(self, event, p, self.amount, amount, fn, owner)
        elif amount > MAX_NUMBER:  # `wound 1000000 * 1000000`: no modifier needed
            self._runaway(event)
        if amount < 0:
            amount = 0
        reps = self.reps.get(event)
        if reps and self._replaced(reps, [p], amount, item, extra):
            return
        _APPLY[event](self, p, amount, item, extra)
        reacts = self.reacts.get(event)
        if reacts:
            self._react(reacts, [p], amount, item, extra)

    def _applies(self, h: Handler, owner: Optional[Player], subject: list[Player], item,
                 extra) -> bool:
        """Whether a handler hears this event: not already running in this chain, its card
        in play, and the event the one it names (its card, its `on` players, the player a
        `steal` takes `from`)."""
        return ((h, owner) not in self.applied and _in_play(h, owner)
                and (h.about is None or h.about == item)
                and (h.pred is None or any(h.pred(self, p, owner) for p in subject))
                and (h.victim is None or (extra.__class__ is Player
                                          and h.victim(self, extra, owner))))

    def _replaced(self, reps: list, subject: list[Player], amount: int, item=None,
                  extra=None) -> bool:
        """`instead of`: the first handler that applies runs in the event's place."""
        for h, owner in reps:
            if self._applies(h, owner, subject, item, extra):
                self._run(h, owner, subject, amount)
                return True
        return False

    def _react(self, reacts: list, subject: list[Player], amount: int, item=None,
               extra=None) -> None:
        """`after`: every handler that applies, in bus order."""
        for h, owner in reacts:
            if self._applies(h, owner, subject, item, extra):
                self._run(h, owner, subject, amount)

    def phase(self, event: str, subject: list[Player]) -> None:
        """A moment of the game (game_start, reveal, room, …): only `after` handlers."""
        reacts = self.reacts.get(event)
        if reacts:
            for h, owner in reacts:
                if (h, owner) in self.applied or not _in_play(h, owner):
                    continue
                about = subject if h.pred is None else \
                    [p for p in subject if h.pred(self, p, owner)]
                if about or h.pred is None:
                    self._run(h, owner, list(about), 0)

    def _runaway(self, event: str) -> None:
        cards = {h.card for h, _ in self.applied}
        who = ", ".join(sorted(cards)) or (self.room.id if self.room is not None else "?")
        raise RulesError(f"a runaway chain of `{event}` events (more than {MAX_EVENTS} in one "
                         f"room, or amounts beyond {MAX_NUMBER}) set off by {who}")

    def _run(self, h: Handler, owner: Optional[Player], subject: list[Player],
             amount: int) -> None:
        if self.depth >= MAX_DEPTH:
            raise RulesError(f"handlers trigger each other more than {MAX_DEPTH} deep "
                             f"(a runaway chain from `{h.card}`)")
        saved, saved_owner, saved_amount = self.applied, self.owner, self.amount
        self.applied = saved + ((h, owner),)
        self.owner = owner
        self.amount = amount
        self.depth += 1
        if self.why is not None:
            self.why.ran(self, h, owner, subject, amount)
        try:
            h.body(self, subject)
        finally:
            self.depth -= 1
            self.applied, self.owner, self.amount = saved, saved_owner, saved_amount

    def give(self, item: str, players: list[Player]) -> None:
        """X-6: players claiming the same item get one each, or none if the supply is short."""
        if not players:
            return
        if self.supply.get(item, 0) < len(players):
            if self.trace is not None:
                self.trace.append(("short", ",".join(p.name for p in players), item))
            return
        for p in players:
            self.emit("give", p, 0, item)

    def _use_bus(self, bus: Bus) -> None:
        self.mods, self.reps, self.reacts = bus.mods, bus.reps, bus.reacts
        self.param_mods, self.value_mods = bus.param_mods, bus.value_mods
        self.heard = bus.heard

    def held_changed(self, card_id: str) -> None:
        """A player gained or lost a card with rules (an item, a status) or died: its rules
        are in play, or not, from the next event on."""
        if card_id in self.table.held or card_id == "":
            self._use_bus(self.table.bus(self.room))

    def unmark(self, p: Player, status: str, count: Optional[int]) -> None:
        m = p.marks.get(status)
        if m is None:
            return
        taken = m.count if count is None else max(count, 0)
        if taken == 0:  # `unmark S by 0`: nothing changes, nothing to tell
            return
        m.count -= taken
        if m.count <= 0:
            del p.marks[status]
            self.held_changed(status)
        if self.trace is not None:  # what is left, for the narration's `(1 left)`
            self.trace.append(("unmark", p.name, (status, max(m.count, 0))))

    def attack(self, targets: list[Player], body) -> None:
        """An attack on its targets: `instead of attack` replaces it (and then no `after
        attack` runs, as for every event); with no target (all escaped) nothing happens."""
        if not targets:
            if self.trace is not None:
                self.trace.append(("attack", "", 0))
            return
        saved_targets = self.attack_targets
        self.attack_targets = targets
        if self.trace is not None:
            self.trace.append(("attack", ",".join(p.name for p in targets), 0))
        try:
            reps = self.reps.get("attack")
            if reps and self._replaced(reps, targets, 0):
                return
            body(self, targets)
            reacts = self.reacts.get("attack")
            if reacts:
                self._react(reacts, targets, 0)
        finally:
            self.attack_targets = saved_targets


def _in_play(h: Handler, owner: Optional[Player]) -> bool:
    """A held card's handler runs only while its owner still holds it: a status removed, an
    item taken or a player dead earlier in the same event stops it at once."""
    if owner is None:
        return True
    card = h.card
    return not owner.dead and (card == owner.character or card in owner.marks
                               or card in owner.items)


# ---- what each effect does (the only place tokens, items and statuses change)

def _wound(ctx: Context, p: Player, amount: int, item, extra) -> None:
    if amount > 0:
        p.wounds += amount
    if ctx.trace is not None:
        ctx.trace.append(("wound", p.name, amount))


def _heal(ctx: Context, p: Player, amount: int, item, extra) -> None:
    if amount > 0:
        p.wounds = p.wounds - amount if p.wounds > amount else 0
    if ctx.trace is not None:
        ctx.trace.append(("heal", p.name, amount))


def _gain(ctx: Context, p: Player, amount: int, item, extra) -> None:
    if amount > 0:
        coins = p.coins + amount
        cap = ctx.coin_cap
        p.coins = cap if cap is not None and coins > cap else coins
    if ctx.trace is not None:
        ctx.trace.append(("gain", p.name, amount))


def _lose(ctx: Context, p: Player, amount: int, item, extra) -> None:
    if amount > 0:
        p.coins = p.coins - amount if p.coins > amount else 0
    if ctx.trace is not None:
        ctx.trace.append(("lose", p.name, amount))


def _give(ctx: Context, p: Player, amount: int, item, extra) -> None:
    ctx.supply[item] -= 1
    p.give_item(item)
    if item in ctx.table.held:
        ctx.held_changed(item)
    if ctx.trace is not None:
        ctx.trace.append(("give", p.name, item))


def _take(ctx: Context, p: Player, amount: int, item, extra) -> None:
    if item in p.items:
        ctx.table.return_item(p, item)
        ctx.held_changed(item)
        if ctx.trace is not None:
            ctx.trace.append(("take", p.name, item))


def _steal(ctx: Context, taker: Player, amount: int, item, giver: Player) -> None:
    """Coins or an item move from one player to another: nothing is made or lost (a taker
    at the coin cap takes only what fits)."""
    if item is not None:
        if item in giver.items:
            giver.take_item(item)
            taker.give_item(item)
            ctx.held_changed(item)
            if ctx.trace is not None:
                ctx.trace.append(("steal", taker.name, f"{item} from {giver.name}"))
        return
    cap = ctx.coin_cap
    moved = min(max(amount, 0), giver.coins,
                (cap - taker.coins) if cap is not None else giver.coins)
    if moved > 0:
        giver.coins -= moved
        taker.coins += moved
    if ctx.trace is not None:
        ctx.trace.append(("steal", taker.name, f"{max(moved, 0)} coin(s) from {giver.name}"))


def _mark(ctx: Context, p: Player, amount: int, status, lasting) -> None:
    if amount <= 0:  # `mark S by 0`: nothing to add (a status is never held at 0)
        return
    rooms, floor = lasting
    table = ctx.table
    until_room = None
    if rooms is not None:
        # "for N rooms": the N rooms after the current one (or from the next, between rooms).
        until_room = table.rooms_done + max(rooms, 0) + (1 if ctx.room is not None else 0)
    until_floor = table.floor_index if floor else None
    m = p.marks.get(status)
    if m is None:
        p.marks[status] = Mark(amount, until_room, until_floor)
        ctx.held_changed(status)
    else:
        m.count += amount
        if m.until_room is None and m.until_floor is None:
            pass  # it lasts the game already: a shorter mark does not shorten it
        elif until_room is None and until_floor is None:
            m.until_room = m.until_floor = None  # now it lasts the game
        else:  # the later end of each kind of limit
            m.until_room = until_room if m.until_room is None else \
                m.until_room if until_room is None else max(m.until_room, until_room)
            m.until_floor = until_floor if m.until_floor is None else \
                m.until_floor if until_floor is None else max(m.until_floor, until_floor)
    if ctx.trace is not None:  # with the count now held, for the narration's `(2)`
        ctx.trace.append(("mark", p.name, (status, p.marks[status].count)))


def _eliminate(ctx: Context, p: Player, amount: int, item, extra) -> None:
    if p.out is None:
        p.out = "eliminated"
    if ctx.trace is not None:
        ctx.trace.append(("eliminate", p.name, 0))


def _death(ctx: Context, p: Player, amount: int, item, extra) -> None:
    """C-7: the player dies; their items go back to the supply."""
    p.dead = True
    p.out = p.out or "dead"
    for it in list(p.items):
        ctx.table.return_item(p, it)
    if ctx.table.held:
        ctx.held_changed("")  # a dead player's cards leave play
    if ctx.trace is not None:
        ctx.trace.append(("death", p.name, 0))


_APPLY = {"wound": _wound, "heal": _heal, "gain": _gain, "lose": _lose, "give": _give,
          "take": _take, "steal": _steal, "mark": _mark, "eliminate": _eliminate,
          "death": _death}


# ---- one round of a room

def resolve_round(table: Table, room: CompiledRoom, plays: list[Play], round_no: int = 1,
                  participants: Optional[list[Player]] = None) -> Context:
    """Value the plays, run the room's procedure, then take back the cards played: power
    cards leave the hand (they come back at the end of the floor), item cards played as the
    room card go back to the supply. Second-card items in a chain are back already (X-3)."""
    ctx = Context(table, room, plays, participants, round_no)
    ctx.value_plays()
    reacts = ctx.reacts
    if reacts:  # lists are built only for events some card hears
        if "play" in reacts:
            for pl in plays:
                ctx.phase("play", [pl.player])
        if "room_start" in reacts:
            ctx.phase("room_start", list(ctx.participants))
    room.resolve(ctx, None)
    for play in plays:
        if play.cards is None:  # one card: the common case, without building a tuple
            card = play.card
            if card.__class__ is int:
                play.player.hand.remove(card)
            elif card is not None and card in play.player.items:  # (not taken in the room)
                table.return_item(play.player, card)
            continue
        for card in play.cards:
            if card is None:
                continue
            if card.__class__ is int:
                play.player.hand.remove(card)
            elif card in play.player.items:  # an item taken or stolen in the room is gone
                table.return_item(play.player, card)
    return ctx


def check_deaths(ctx: Context) -> list[Player]:
    """C-7: a player with `death` or more wounds dies at once (`instead of death` may save
    them). Returns who died now."""
    death = ctx.table.death
    died = []
    if death is None:
        return died
    for p in ctx.table.players:
        if not p.dead and p.wounds >= death:
            ctx.emit("death", p, 0)
            if p.dead:
                died.append(p)
    return died
