"""The game's one event bus, and a room's resolution on it.

Every card in play adds its compiled rules to the bus (`CardRules`): the room being played,
the floor card, the house rules, and for each player (seat order) their character, the items
they hold and their statuses. For one event, in that order of cards (docs/dsl.md, "Events"):
every `modify` that applies, then the first `instead of` that applies (a replacement never
applies twice within its own chain, so two replacements cannot loop), then the effect, then
every `after`. A chain deeper than MAX_DEPTH, or a room that sets off more than MAX_EVENTS
events and rule checks, is a RulesError naming the card.

`Table` is the game as the rules see it (players, supply, where dice and choices come from);
`Context` is one room's round (or one phase of the game) being played on it.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Mapping, Optional, Sequence, Union

import attrs

from .compiled import CardRules, CompiledRoom, Handler, WhyListener
from .state import Card, Floor, Mark, Play, Player

MAX_DEPTH = 32
# Per room, the events set off plus the rules checked for them (a fan-out, many rules hearing
# each event, is stopped after as much work as a chain): real games take at most 17, and a
# runaway stops within 20,000 steps, a few hundredths of a second. A Gate the event cannot
# pass is one step, not one per rule it stands for: a mod's thousand quiet rules cost a step
# an event, and never stop a game.
MAX_EVENTS = 20_000
MAX_NUMBER = 10**6  # amounts beyond this are a runaway card, not a game
MAX_VALUE = 10**12  # a modified value or strength (`never` is 10**9); floats hold it exactly


_NONE: tuple = ()
_NO_SEATS: frozenset[int] = frozenset()
_NO_VALUES: Mapping[int, int] = MappingProxyType({})


class RulesError(Exception):
    """A play or a card that breaks the rules at run time (an illegal play, a runaway chain)."""


class Gate:
    """Handlers of the bus, next to each other in its order, that each need something the
    event must bring: the card it is about (`after give(relic)`), or a status or an item its
    player has (`on marked(S)`, `on holds(I)`). One test of the event against all of them
    (`may_hear`) stands for testing each: a mod's hundred quiet rules cost one test per event
    they hear, not a hundred. When it may, its handlers are tested one by one, as ever.
    Built once per set of house rules (`House`), never per room."""

    __slots__ = ("members", "event", "abouts", "statuses", "items")

    def __init__(self, members: list) -> None:
        self.members = members  # [(Handler, owner)] in bus order
        self.event = members[0][0].event  # the one event of the bus list it stands in
        abouts, statuses, items = set(), set(), set()
        for h, _ in members:
            if h.about is not None:
                abouts.add(h.about)
            elif h.needs[0] == "marked":
                statuses.add(h.needs[1])
            else:
                items.add(h.needs[1])
        self.abouts, self.statuses, self.items = frozenset(abouts), frozenset(statuses), \
            frozenset(items)

    def may_hear(self, subject: Sequence[Player], item) -> bool:
        """Whether any handler of the group could apply to this event (a necessary test)."""
        if item is not None and item.__class__ is str and item in self.abouts:
            return True
        statuses, items = self.statuses, self.items
        if statuses or items:
            for p in subject:
                if statuses and p.marks and not statuses.isdisjoint(p.marks):
                    return True
                if items and p.items and not items.isdisjoint(p.items):
                    return True
        return False


GATE_MIN = 4  # fewer handlers in a row are tested one by one: a group is no cheaper


def _gated(handlers: list) -> list:
    """Bus entries for handlers in bus order: each run of GATE_MIN or more that a Gate can
    test at once becomes one entry `(Gate, None)`; the others stay `(Handler, owner)`."""
    out: list = []
    run: list = []
    for entry in (*handlers, None):
        h = entry[0] if entry is not None else None
        if h is not None and (h.about is not None or h.needs is not None):
            run.append(entry)
            continue
        if len(run) >= GATE_MIN:
            out.append((Gate(run), None))
        else:
            out.extend(run)
        run = []
        if entry is not None:
            out.append(entry)
    return out


def _each(ctx: Context, entries: list, subject: Sequence[Player], item):
    """A bus list's handlers one by one, each Gate tested when the dispatch reaches it (not
    before: a handler earlier in the list may have marked the status or given the item a
    gated one waits for) and left out when it cannot hear this event. Each rule given out is
    a step of the room's budget, a Gate's test one more."""
    for entry in entries:
        g = entry[0]
        if g.__class__ is Gate:
            ctx.events += 1
            if g.may_hear(subject, item):
                ctx.events += len(g.members)
                if ctx.events > MAX_EVENTS:
                    ctx._runaway(g.event)
                yield from g.members
        else:
            ctx.events += 1
            if ctx.events > MAX_EVENTS:
                ctx._runaway(g.event)
            yield entry


@attrs.define(eq=False, slots=True)
class Bus:
    """The handlers of every card in play, merged per event, in the documented order."""

    mods: dict[str, list] = attrs.Factory(dict)  # event -> [(fn, pred, owner)]
    reps: dict[str, list] = attrs.Factory(dict)  # event -> [(Handler, owner) or (Gate, None)]
    reacts: dict[str, list] = attrs.Factory(dict)  # event -> [(Handler, owner) or (Gate, None)]
    value_mods: list = attrs.Factory(list)  # [(key, fn, pred, owner)]
    param_mods: dict[str, list] = attrs.Factory(dict)  # room parameter -> [(fn, pred, owner)]
    heard: frozenset[str] = frozenset()  # events some card modifies, replaces or reacts to
    gated: bool = False  # some list holds a Gate (the dispatch goes through `_each`)

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

    def extend(self, other: Bus) -> None:
        """Another bus's entries after this one's (lists copied whole, entry by entry in C):
        the house rules' segment, built once, joined to a room's bus in a few steps however
        many rules it holds."""
        for mine, theirs in ((self.mods, other.mods), (self.reps, other.reps),
                             (self.reacts, other.reacts), (self.param_mods, other.param_mods)):
            for event, entries in theirs.items():
                mine.setdefault(event, []).extend(entries)
        self.value_mods.extend(other.value_mods)
        self.gated = self.gated or other.gated
        self.heard = frozenset((*self.mods, *self.reps, *self.reacts))


class House:
    """The house rules of a ruleset and its mods as the bus uses them, made once (`house_of`),
    whatever the number of games and rooms: their entries of the bus in their order, quiet
    runs gated; the moments they hear; and the buses of the rooms of a game whose held cards
    have no rules (room, floor card and house rules only: no owner, so every game shares them)."""

    __slots__ = ("rules", "bus", "moments", "buses")

    def __init__(self, house: Sequence[CardRules]) -> None:
        self.rules = house  # kept, so the id it is found by is not reused
        seg = self.bus = Bus()
        for rules in house:
            seg.add(rules, None)
        for lists in (seg.reps, seg.reacts):
            for event, entries in lists.items():
                lists[event] = gated = _gated(entries)
                seg.gated = seg.gated or any(e[0].__class__ is Gate for e in gated)
        self.moments = frozenset(seg.reacts)
        self.buses: dict[tuple, Bus] = {}  # (room, floor card's rules) -> bus


_HOUSE: dict[int, House] = {}


def house_of(house: Sequence[CardRules]) -> House:
    """The House of a list of house rules' rules (Rules.house_rules), made at its first game."""
    known = _HOUSE.get(id(house))
    if known is not None and known.rules is house:
        return known
    if len(_HOUSE) > 64:
        _HOUSE.clear()
    known = _HOUSE[id(house)] = House(house)
    return known


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
        self._house = house_of(house) if house else None
        # The moments (game_start, reveal, room, …) some house rule or held card may react
        # to, wherever it is: a moment nothing can hear is not emitted (`may_hear`).
        self._moments = self._house.moments if self._house is not None else frozenset()
        if self.held:
            self._moments = self._moments.union(*(r.reactors for r in self.held.values()))
        self.floor_rules: Optional[CardRules] = None
        # Whether any card besides the room is in play with rules (the game's moments are
        # emitted only when some card may hear them): a plain attribute, asked twice a room,
        # kept true by `set_floor_rules`.
        self.listening = bool(house or self.held)
        self.first = first
        self.trace = trace
        self.dice = dice
        self.ask = ask
        self.threat_source = threat_source
        self.floor_index = 0
        self.room_number = 0  # the room being played, 1..5 on its floor; 0 between rooms
        self.rooms_done = 0
        # The things on the table besides players (docs/dsl.md, "What cards can name"): the
        # dungeon's own statuses; the rooms, floor by floor as dealt, with the index on its
        # floor of the room being played (or last played; -1 before the floor's first), the
        # statuses put on rooms and the cards rooms `become`, by (floor, room). None until a
        # rule puts one there: a game without them pays nothing for them.
        self.marks: Optional[dict[str, Mark]] = None
        self.floors: Sequence[Floor] = ()
        self.room_index = -1
        self.room_marks: Optional[dict[tuple[int, int], dict[str, Mark]]] = None
        self.played_as: Optional[dict[tuple[int, int], str]] = None
        self.room_cards: Mapping[str, CompiledRoom] = {}
        self.places_marked = False  # a status was ever put on a room or the dungeon
        # The room whose procedure `do ROOM` is running, seen from there (None: this room's);
        # while an `instead of EVENT` runs: (EVENT, the modifiers the replaced event had), so
        # the EVENT it deals in its place (`wound amount`) is not modified by them again.
        self.echo_at: Optional[tuple[int, int]] = None
        self.reissued: Optional[tuple[str, frozenset]] = None
        self._buses: dict = {}
        # An optional recorder of which card's handler did what (interpreter/records/why.py, `replay
        # --trace`); None, the default, costs one test where a handler runs.
        self.why: Optional[WhyListener] = None

    def set_floor_rules(self, rules: Optional[CardRules]) -> None:
        """The rules of the floor card in play (None: no floor card, or one without rules)."""
        self.floor_rules = rules
        self.listening = bool(self.house or self.held) or rules is not None

    def may_hear(self, moment: str, room: Optional[CompiledRoom]) -> bool:
        """Whether a card in play may react to a moment of the game now (else the moment
        need not be emitted at all)."""
        return (moment in self._moments
                or (room is not None and moment in room.rules.reactors)
                or (self.floor_rules is not None and moment in self.floor_rules.reactors))

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
        held = self.held
        key: tuple
        if not held:  # the room, the floor card and the house rules: shared by every game
            key = (room, self.floor_rules)
            buses = self._house.buses if self._house is not None else self._buses
        else:
            key = (id(room), id(self.floor_rules), self._held_key(),
                   self._places_key() if self.places_marked else None)
            buses = self._buses
        bus = buses.get(key)
        if bus is None:
            if len(buses) > 512:
                buses.clear()
            bus = Bus()
            if room is not None:
                bus.add(room.rules, None)
                here = self._marks_here()
                if here and held:  # the statuses on the room being played
                    self._add_statuses(bus, here, None)
            if self.floor_rules is not None:
                bus.add(self.floor_rules, None)
            if self._house is not None:
                bus.extend(self._house.bus)
            if self.marks and held:  # the dungeon's statuses: for everyone, as a house rule
                self._add_statuses(bus, self.marks, None)
            if held:
                for p in self.players:
                    if p.dead:
                        continue
                    for cid in (p.character, *p.items):
                        rules = held.get(cid)
                        if rules is not None:
                            bus.add(rules, p)
                    if p.card_marks:  # statuses on the cards they hold, card by card
                        for cid in sorted(p.card_marks):
                            self._add_statuses(bus, p.card_marks[cid], p)
                    if p.marks:
                        self._add_statuses(bus, p.marks, p)
            buses[key] = bus
        return bus

    def _add_statuses(self, bus: Bus, marks: Mapping[str, Mark], owner: Optional[Player]) -> None:
        for status in sorted(marks):
            rules = self.held.get(status)
            if rules is not None:
                bus.add(rules, owner)

    def _held_key(self) -> tuple:
        return tuple((p.character, tuple(p.items), tuple(sorted(p.marks)), p.dead,
                      tuple((c, tuple(sorted(m))) for c, m in sorted(p.card_marks.items()))
                      if p.card_marks else None)
                     for p in self.players)

    def _marks_here(self) -> Optional[dict[str, Mark]]:
        """The statuses on the room being played (None: none, or between rooms)."""
        where = self.here()
        return self.room_marks.get(where) if self.room_marks and where is not None else None

    def _places_key(self) -> tuple:
        here = self._marks_here()
        return (tuple(sorted(self.marks)) if self.marks else None,
                tuple(sorted(here)) if here else None)

    def clear_places(self) -> None:
        """The things on the table besides players as a new table has them: none (a
        look-ahead's copy of the table, used again for another decision)."""
        self.marks = self.room_marks = self.played_as = None
        self.places_marked = False
        self.echo_at = self.reissued = None

    # ---- the rooms, as things cards name: (floor, room) positions in the dealt dungeon
    def here(self) -> Optional[tuple[int, int]]:
        """The room being played (None between rooms)."""
        return (self.floor_index, self.room_index) if self.room_number else None

    def room_at(self, name: str, seen_from: Optional[tuple[int, int]]) -> Optional[tuple[int, int]]:
        """The room a word names (`this_room`, `next_room`, `previous_room`), seen from a room
        (None: between rooms); None when there is no such room. `next_room` goes on to the
        next floor's first; `previous_room` stays on this floor."""
        if seen_from is None:
            if name != "next_room":
                return None
            f, r = self.floor_index, self.room_index  # the last room played on this floor
        else:
            f, r = seen_from
            if name == "this_room":
                return seen_from
            if name == "previous_room":
                return (f, r - 1) if r >= 1 else None
        floors = self.floors
        if f < len(floors) and r + 1 < len(floors[f].rooms):
            return (f, r + 1)
        return (f + 1, 0) if f + 1 < len(floors) and floors[f + 1].rooms else None

    def card_at(self, at: tuple[int, int]) -> str:
        """The card a room is played as: dealt, or the one it was made to `become`."""
        if self.played_as:
            card = self.played_as.get(at)
            if card is not None:
                return card
        f, r = at
        return self.floors[f].rooms[r].card

    # ---- what the rules share
    def return_item(self, p: Player, item: str) -> Optional[dict[str, Mark]]:
        """An item card goes from a player back to the supply, a fresh card: the statuses on
        it (returned) are gone."""
        dropped = p.take_item(item)
        self.supply[item] = self.supply.get(item, 0) + 1
        return dropped

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
        """Statuses whose time is up go (after each room, and at the end of a floor): on the
        players, on the cards they hold, on the rooms and on the dungeon."""
        done, floor = self.rooms_done, self.floor_index
        for p in self.players:
            if p.marks:
                _expire(p.marks, done, floor, floor_over)
            if p.card_marks:
                for marks in p.card_marks.values():
                    _expire(marks, done, floor, floor_over)
        if self.places_marked:
            if self.marks:
                _expire(self.marks, done, floor, floor_over)
            for marks in (self.room_marks or {}).values():
                _expire(marks, done, floor, floor_over)


def _expire(marks: dict[str, Mark], done: int, floor: int, floor_over: bool) -> None:
    for name in [n for n, m in marks.items() if _time_up(m, done, floor, floor_over)]:
        del marks[name]


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
        "gated",
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
        # Table.bus's common case first, without the call: only the room's rules in play
        bus = room.own_bus if room is not None and not table.listening else None
        if bus is None:
            bus = table.bus(room)
        self.mods, self.reps, self.reacts = bus.mods, bus.reps, bus.reacts
        self.param_mods, self.value_mods = bus.param_mods, bus.value_mods
        self.heard, self.gated = bus.heard, bus.gated
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
        room = self.room
        assert room is not None  # values are played in a room
        plain = not self.value_mods and room.any_item is None
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
        # the numbers the room reads (here, not in a method of their own: once a room)
        self.values_by_player = vb
        if vb:
            counted = vb.values()
            self.total = sum(counted)
            self.highest_value = high = max(counted)
            self.lowest_value = low = min(counted)
            if high != low:
                self.all_same = 0
        self.highest_card = top_card

    def _counts(self, card: Optional[Card], p: Player) -> Optional[int]:
        """What one card counts for in this room; None: it is an escape (its player escapes,
        and none of their cards counts)."""
        room = self.room
        assert room is not None  # cards count in a room
        if card is None:  # a card the player lacks (a room of several cards)
            return room.missing
        if card.__class__ is str and card in room.escapes:
            return None
        return self.card_value(card, p)

    def _escaped(self, pl: Play) -> None:
        pl.escaped, pl.value = True, None
        seats = self.escaped_seats if isinstance(self.escaped_seats, set) else set()
        seats.add(pl.player.seat)
        self.escaped_seats = seats

    @property
    def distinct_values(self) -> list[int]:
        """The values played, each once, lowest first (asked by `second`, `second_lowest`)."""
        return sorted(set(self.values_by_player.values()))

    def card_value(self, card: Card, p: Player) -> int:
        room = self.room
        assert room is not None  # cards count in a room
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
        used: Optional[list] = None
        if mods:
            # a modifier reads `amount` and its own card's holder (`you`); the handler that
            # set this event off reads its own again afterwards
            running = self.owner, self.amount
            again = self.table.reissued
            skip = again[1] if again is not None and again[0] == event else ()
            for fn, pred, owner in mods:
                if pred is None or pred(self, p, owner):
                    if skip and (fn, owner) in skip:
                        continue  # the replaced event had it already
                    self.owner = owner
                    self.amount = amount
                    amount = fn(self, p)
                    if amount > MAX_NUMBER:  # at each step: 32 squarings would not fit memory
                        self._runaway(event)
                    if self.why is not None:
                        self.why.modified(self, event, p, self.amount, amount, fn, owner)
                    if used is None:
                        used = [*skip]
                    used.append((fn, owner))
            self.owner, self.amount = running
        elif amount > MAX_NUMBER:  # `wound 1000000 * 1000000`: no modifier needed
            self._runaway(event)
        if amount < 0:
            amount = 0
        reps = self.reps.get(event)
        if reps and self._replaced(reps, [p], amount, item, extra,
                                   (event, frozenset(used)) if used else None):
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
                  extra=None, reissued: Optional[tuple[str, frozenset]] = None) -> bool:
        """`instead of`: the first handler that applies runs in the event's place (the same
        event dealt there is not modified again by what modified this one)."""
        if self.gated:  # each rule counts as it is given out
            reps = _each(self, reps, subject, item)
        else:  # each rule checked counts against the room's budget
            self.events += len(reps)
            if self.events > MAX_EVENTS:
                self._runaway(reps[0][0].event)
        for h, owner in reps:
            if self._applies(h, owner, subject, item, extra):
                self._run(h, owner, subject, amount, reissued)
                return True
        return False

    def _react(self, reacts: list, subject: list[Player], amount: int, item=None,
               extra=None) -> None:
        """`after`: every handler that applies, in bus order."""
        if self.gated:  # each rule counts as it is given out
            reacts = _each(self, reacts, subject, item)
        else:  # each rule checked counts against the room's budget
            self.events += len(reacts)
            if self.events > MAX_EVENTS:
                self._runaway(reacts[0][0].event)
        for h, owner in reacts:
            if self._applies(h, owner, subject, item, extra):
                self._run(h, owner, subject, amount)

    def phase(self, event: str, subject: list[Player]) -> None:
        """A moment of the game (game_start, reveal, room, …): only `after` handlers."""
        reacts = self.reacts.get(event)
        if reacts:
            if self.gated:
                reacts = _each(self, reacts, subject, None)
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
        raise RulesError(f"a runaway chain of `{event}` events (more than {MAX_EVENTS} events "
                         f"and rules checked in one room, or amounts beyond {MAX_NUMBER}) set "
                         f"off by {who}")

    def _run(self, h: Handler, owner: Optional[Player], subject: list[Player],
             amount: int, reissued: Optional[tuple[str, frozenset]] = None) -> None:
        if self.depth >= MAX_DEPTH:
            raise RulesError(f"handlers trigger each other more than {MAX_DEPTH} deep "
                             f"(a runaway chain from `{h.card}`)")
        saved, saved_owner, saved_amount = self.applied, self.owner, self.amount
        table = self.table
        saved_reissued = table.reissued
        self.applied = saved + ((h, owner),)
        self.owner = owner
        self.amount = amount
        table.reissued = reissued
        self.depth += 1
        if self.why is not None:
            self.why.ran(self, h, owner, subject, amount)
        try:
            h.body(self, subject)
        finally:
            self.depth -= 1
            self.applied, self.owner, self.amount = saved, saved_owner, saved_amount
            table.reissued = saved_reissued

    # ---- things on the table besides players (docs/dsl.md, "What cards can name")
    def _seen_from(self) -> Optional[tuple[int, int]]:
        table = self.table
        return table.echo_at if table.echo_at is not None else table.here()

    def place_marks(self, place: str, card: str, create: bool) -> Optional[dict[str, Mark]]:
        """The statuses of a thing a rule of `card` names (None: no such thing now); made
        when a status is first put on it."""
        table = self.table
        if place == "dungeon":
            if table.marks is None and create:
                table.marks = {}
                table.places_marked = True
            return table.marks
        if place == "this_card" and self.owner is not None:
            owner = self.owner
            if card != owner.character and card not in owner.items:
                return None  # the card has left its holder's hand
            if owner.card_marks is None:
                if not create:
                    return None
                owner.card_marks = {}
            marks = owner.card_marks.get(card)
            if marks is None and create:
                marks = owner.card_marks[card] = {}
            return marks
        at = table.room_at("this_room" if place == "this_card" else place, self._seen_from())
        if at is None:
            return None
        if table.room_marks is None:
            if not create:
                return None
            table.room_marks = {}
        marks = table.room_marks.get(at)
        if marks is None and create:
            marks = table.room_marks[at] = {}
            table.places_marked = True
        return marks

    def marked_at(self, place: str, card: str, status: str) -> int:
        marks = self.place_marks(place, card, False)
        m = marks.get(status) if marks else None
        return m.count if m is not None else 0

    def mark_place(self, place: str, card: str, status: str, count: int,
                   lasting: tuple) -> None:
        """`THING: mark STATUS`: as on a player, but no event (nobody is affected)."""
        if count <= 0:
            return
        marks = self.place_marks(place, card, True)
        if marks is None:
            return
        fresh = status not in marks
        add_mark(self, marks, status, count, lasting)
        if fresh:
            self.held_changed(status)
        if self.trace is not None:
            self.trace.append(("mark_place", place, status))

    def unmark_place(self, place: str, card: str, status: str, count: Optional[int]) -> None:
        marks = self.place_marks(place, card, False)
        if marks and self._unmark(marks, status, count) is not None and self.trace is not None:
            self.trace.append(("unmark_place", place, status))

    def become(self, place: str, card: str) -> None:
        """`next_room: become CARD`: a room not yet played will be played as another card
        (the dealt dungeon, as a log keeps it, does not change)."""
        table = self.table
        at = table.room_at(place, self._seen_from())
        if at is None or at <= (table.floor_index, table.room_index):
            return  # no such room, or one being played or played already
        was = table.card_at(at)
        if table.played_as is None:
            table.played_as = {}
        table.played_as[at] = card
        if self.trace is not None:
            self.trace.append(("become", "", (was, card)))

    def do_room(self, place: str) -> None:
        """`do previous_room`: that room's procedure, run here with this room's plays; inside
        it the room words are seen from that room (an echo of an echo reaches further back)."""
        table = self.table
        at = table.room_at(place, self._seen_from())
        if at is None:
            return
        room = table.room_cards.get(table.card_at(at))
        if room is None:
            return
        if self.depth >= MAX_DEPTH:
            raise RulesError(f"rooms run each other's procedures more than {MAX_DEPTH} deep "
                             f"(`do` from `{self.room.id if self.room else '?'}`)")
        saved = table.echo_at
        table.echo_at = at
        self.depth += 1
        if self.trace is not None:
            self.trace.append(("echo", "", room.id))
        try:
            room.resolve(self, None)
        finally:
            self.depth -= 1
            table.echo_at = saved

    # ---- hands: the power cards a player has not played this floor
    def hand_of(self, p: Player) -> list[int]:
        """The power cards in a player's hand; a card they have on the table in this round
        is not in it."""
        hand = p.hand
        for pl in self.plays:
            if pl.player is p:
                down = pl.cards if pl.cards is not None else (pl.card,)
                return [c for c in hand if c not in down]
        return hand

    def give_power(self, p: Player, n: int) -> None:
        if 1 <= n <= 5 and n not in p.hand:
            p.hand.append(n)
            p.hand.sort()
            if self.trace is not None:
                self.trace.append(("regain", p.name, n))

    def take_power(self, p: Player, n: int) -> None:
        if n in self.hand_of(p):
            p.hand.remove(n)
            if self.trace is not None:
                self.trace.append(("discard", p.name, n))

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
        self.heard, self.gated = bus.heard, bus.gated

    def held_changed(self, card_id: str) -> None:
        """A player gained or lost a card with rules (an item, a status) or died: its rules
        are in play, or not, from the next event on."""
        if card_id in self.table.held or card_id == "":
            self._use_bus(self.table.bus(self.room))

    def unmark(self, p: Player, status: str, count: Optional[int]) -> None:
        left = self._unmark(p.marks, status, count)
        if left is not None and self.trace is not None:  # for the narration's `(1 left)`
            self.trace.append(("unmark", p.name, (status, left)))

    def _unmark(self, marks: dict[str, Mark], status: str, count: Optional[int]) -> Optional[int]:
        """A thing's status loses `count` (all of it: None); at 0 it goes, and its rules leave
        play. How many are left, or None when nothing changed (`unmark S by 0`, or none)."""
        m = marks.get(status)
        if m is None:
            return None
        taken = m.count if count is None else max(count, 0)
        if taken == 0:
            return None
        m.count -= taken
        if m.count <= 0:
            del marks[status]
            self.held_changed(status)
        return max(m.count, 0)

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
                               or card in owner.items
                               or (owner.card_marks is not None
                                   and any(card in m for m in owner.card_marks.values())))


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
        dropped = ctx.table.return_item(p, item)
        ctx.held_changed("" if dropped else item)
        if ctx.trace is not None:
            ctx.trace.append(("take", p.name, item))


def _move(ctx: Context, taker: Player, giver: Player, amount: int, item) -> Optional[str]:
    """Coins or an item move from one player to another: nothing is made or lost (a taker
    at the coin cap takes only what fits; an item keeps the statuses on its card). What
    moved, in words, or None when nothing could."""
    if item is not None:
        if item not in giver.items:
            return None
        marks = giver.take_item(item)
        taker.give_item(item, marks)
        ctx.held_changed("" if marks else item)
        return item
    cap = ctx.coin_cap
    moved = min(max(amount, 0), giver.coins,
                (cap - taker.coins) if cap is not None else giver.coins)
    if moved > 0:
        giver.coins -= moved
        taker.coins += moved
    return f"{max(moved, 0)} coin(s)"


def _steal(ctx: Context, taker: Player, amount: int, item, giver: Player) -> None:
    what = _move(ctx, taker, giver, amount, item)
    if what is not None and ctx.trace is not None:
        ctx.trace.append(("steal", taker.name, f"{what} from {giver.name}"))


def _pass(ctx: Context, giver: Player, amount: int, item, taker: Player) -> None:
    """`pass … to`: the reverse of a steal, an event about the giver."""
    what = _move(ctx, taker, giver, amount, item)
    if what is not None and ctx.trace is not None:
        ctx.trace.append(("pass", giver.name, f"{what} to {taker.name}"))


def _mark(ctx: Context, p: Player, amount: int, status, lasting) -> None:
    if amount <= 0:  # `mark S by 0`: nothing to add (a status is never held at 0)
        return
    fresh = status not in p.marks
    add_mark(ctx, p.marks, status, amount, lasting)
    if fresh:
        ctx.held_changed(status)
    if ctx.trace is not None:  # with the count now held, for the narration's `(2)`
        ctx.trace.append(("mark", p.name, (status, p.marks[status].count)))


def add_mark(ctx: Context, marks: dict[str, Mark], status: str, amount: int,
             lasting: tuple) -> None:
    """A status added to a thing's statuses (a player's, a room's, the dungeon's, a card's):
    its count grows, and it lasts until the later of the two ends."""
    rooms, floor = lasting
    table = ctx.table
    until_room = None
    if rooms is not None:
        # "for N rooms": the N rooms after the current one (or from the next, between rooms).
        until_room = table.rooms_done + max(rooms, 0) + (1 if ctx.room is not None else 0)
    until_floor = table.floor_index if floor else None
    m = marks.get(status)
    if m is None:
        marks[status] = Mark(amount, until_room, until_floor)
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
          "take": _take, "steal": _steal, "pass": _pass, "mark": _mark, "eliminate": _eliminate,
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
    died: list[Player] = []
    if death is None:
        return died
    for p in ctx.table.players:
        if not p.dead and p.wounds >= death:
            ctx.emit("death", p, 0)
            if p.dead:
                died.append(p)
    return died
