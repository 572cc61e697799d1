"""One room's resolution: values of the cards played, then the compiled procedure, with the
event bus that runs the room's handlers (modify, replace, react) on every effect.

Handler order (documented in docs/dsl.md): for one event, first every `modify` in declaration
order (kind rules before card rules), then the first `instead of` that applies (a replacement
never applies twice within its own chain, so two replacements cannot loop), then the effect,
then every `after` in declaration order. A chain deeper than MAX_DEPTH is a RulesError.
"""
from __future__ import annotations

from typing import Callable, Iterable, Mapping, Optional, Sequence

from .compiler import CompiledRoom, Handler, Stmt
from .state import Card, Play, Player

MAX_DEPTH = 32
SECOND_CARD = "second_card"


class RulesError(Exception):
    """A play or a card that breaks the rules at run time (an illegal play, a runaway chain)."""


class RoomContext:
    """What a room's compiled procedure reads and changes while it resolves."""

    __slots__ = (
        "room", "participants", "plays", "supply", "coin_cap", "death", "n_players",
        "values_by_player", "distinct_values", "total", "highest_value", "lowest_value",
        "all_same", "escaped_seats", "attack_targets", "attacked_seats", "amount", "applied",
        "depth", "trace", "threat_source", "threat_value",
    )

    def __init__(self, room: CompiledRoom, participants: list[Player], plays: list[Play],
                 supply: dict[str, int], coin_cap: Optional[int], death: Optional[int],
                 n_players: int, trace: Optional[list] = None,
                 threat_source: Optional[Callable[[], int]] = None):
        self.room = room
        self.threat_source = threat_source
        self.threat_value: Optional[int] = None
        self.participants = participants
        self.plays = plays
        self.supply = supply
        self.coin_cap = coin_cap
        self.death = death if death is not None else 0
        self.n_players = n_players
        vb: dict[int, int] = {}
        escaped = set()
        for pl in plays:
            if pl.escaped:
                escaped.add(pl.player.seat)
            elif pl.value is not None:
                vb[pl.player.seat] = pl.value
        self.values_by_player = vb
        self.escaped_seats = escaped
        values = sorted(set(vb.values()))
        self.distinct_values = values
        self.total = sum(vb.values())
        self.highest_value = values[-1] if values else 0
        self.lowest_value = values[0] if values else 0
        self.all_same = 1 if len(values) <= 1 else 0
        self.attack_targets: list[Player] = []
        self.attacked_seats: frozenset[int] = frozenset()
        self.amount = 0
        self.applied: tuple[Handler, ...] = ()
        self.depth = 0
        self.trace = trace

    def threat(self) -> int:
        """The room's monster card from the threat deck (C-12), revealed once per room."""
        if self.threat_value is None:
            if self.threat_source is None:
                raise RulesError(f"room `{self.room.id}` reads `threat`, but this game has no "
                                 "threat deck (a variant's `threat_deck`)")
            self.threat_value = self.threat_source()
            if self.trace is not None:
                self.trace.append(("threat", "", self.threat_value))
        return self.threat_value

    # ---- the event bus
    def emit(self, event: str, p: Player, amount: int, item: Optional[str] = None) -> None:
        room = self.room
        mods = room.effect_mods.get(event)
        if mods:
            for m in mods:
                self.amount = amount
                amount = m(self, p)
        reps = room.replacers.get(event)
        if reps:
            for h in reps:
                if h not in self.applied and self._tag_ok(h, p):
                    self._run(h, [p])
                    return
        self._apply(event, p, amount, item)
        reacts = room.reactors.get(event)
        if reacts:
            for h in reacts:
                if h not in self.applied and self._tag_ok(h, p):
                    self._run(h, [p])

    def _tag_ok(self, h: Handler, p: Player) -> bool:
        return h.tag is None or p.seat in self.attacked_seats

    def _run(self, h: Handler, subject: list[Player]) -> None:
        if self.depth >= MAX_DEPTH:
            raise RulesError(f"room `{self.room.id}`: handlers trigger each other more than "
                             f"{MAX_DEPTH} deep (a runaway chain from `{h.card}`)")
        saved = self.applied
        self.applied = saved + (h,)
        self.depth += 1
        try:
            h.body(self, subject)
        finally:
            self.depth -= 1
            self.applied = saved

    def _apply(self, event: str, p: Player, amount: int, item: Optional[str]) -> None:
        if amount < 0:
            amount = 0
        if event == "wound":
            p.wounds += amount
        elif event == "heal":
            p.wounds = p.wounds - amount if p.wounds > amount else 0
        elif event == "gain":
            coins = p.coins + amount
            cap = self.coin_cap
            p.coins = cap if cap is not None and coins > cap else coins
        elif event == "lose":
            p.coins = p.coins - amount if p.coins > amount else 0
        elif event == "eliminate":
            if p.out is None:
                p.out = "eliminated"
        elif event == "give":
            self.supply[item] -= 1
            p.give_item(item)
        if self.trace is not None:
            self.trace.append((event, p.name, item if event == "give" else amount))

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

    def attack(self, targets: list[Player], body: Stmt) -> None:
        """An attack on its targets: `instead of attack` replaces it (and then no `after
        attack` runs, as for every event); with no target (all escaped) nothing happens."""
        if not targets:
            if self.trace is not None:
                self.trace.append(("attack", "", 0))
            return
        saved_targets, saved_seats = self.attack_targets, self.attacked_seats
        self.attack_targets = targets
        self.attacked_seats = frozenset(p.seat for p in targets)
        if self.trace is not None:
            self.trace.append(("attack", ",".join(p.name for p in targets), 0))
        try:
            room = self.room
            reps = room.replacers.get("attack")
            replaced = False
            if reps:
                for h in reps:
                    if h not in self.applied:
                        self._run(h, targets)
                        replaced = True
                        break
            if replaced:
                return
            body(self, targets)
            reacts = room.reactors.get("attack")
            if reacts:
                for h in reacts:
                    if h not in self.applied:
                        self._run(h, targets)
        finally:
            self.attack_targets, self.attacked_seats = saved_targets, saved_seats


def legal_cards(room: CompiledRoom, player: Player, abilities: Mapping[str, Optional[str]]) -> list[Card]:
    """The cards a player may put down as their card for this room (X-3, the room's rules)."""
    cards: list[Card] = list(player.hand)
    if not player.items:
        return cards
    for item in dict.fromkeys(player.items):
        if item in room.unplayable:
            continue
        if item in room.playable or item in room.escapes or abilities.get(item) == SECOND_CARD:
            cards.append(item)
    return cards


def is_second_card(room: CompiledRoom, card: Card, abilities: Mapping[str, Optional[str]]) -> bool:
    """Whether playing this card means playing another after the reveal."""
    return (isinstance(card, str) and abilities.get(card) == SECOND_CARD
            and card not in room.playable and card not in room.escapes)


def card_value(room: CompiledRoom, ctx_like, play: Play) -> None:
    """Set a play's value and escape flag for this room (modifiers included)."""
    card = play.card
    if isinstance(card, int):
        value = card
    elif card in room.escapes:
        play.escaped, play.value = True, None
        return
    else:
        value = room.playable[card](ctx_like, play.player)
    for key, fn in room.value_mods:
        if key == card:
            ctx_like.amount = value
            value = fn(ctx_like, play.player)
    play.value = value


class _ValueContext:
    """Enough of a context for value expressions, before the plays' values exist."""

    __slots__ = ("n_players", "amount", "total", "highest_value", "lowest_value", "all_same",
                 "death", "participants", "values_by_player", "distinct_values",
                 "attack_targets", "attacked_seats", "escaped_seats")

    def __init__(self, n_players: int, death: int, participants: list[Player]):
        self.values_by_player: dict[int, int] = {}
        self.distinct_values: list[int] = []
        self.attack_targets: list[Player] = []
        self.attacked_seats: frozenset[int] = frozenset()
        self.escaped_seats: set[int] = set()
        self.n_players = n_players
        self.amount = 0
        self.total = self.highest_value = self.lowest_value = 0
        self.all_same = 1
        self.death = death
        self.participants = participants


def resolve_room(room: CompiledRoom, participants: list[Player], plays: list[Play],
                 supply: dict[str, int], coin_cap: Optional[int], death: Optional[int],
                 n_players: int, trace: Optional[list] = None,
                 threat_source: Optional[Callable[[], int]] = None) -> RoomContext:
    """Value the plays, run the room, then hand back item cards played as the room card.

    Second-card items in a chain are expected back in the supply already (X-3: at once).
    Power cards leave the hand here; they come back at the end of the floor (the engine).
    """
    if room.value_mods:
        vctx = _ValueContext(n_players, death or 0, participants)
        for play in plays:
            card_value(room, vctx, play)
    else:
        vctx = None
        for play in plays:
            if play.card.__class__ is int:
                play.value = play.card  # a power card counts its value: the common case
            else:
                vctx = vctx or _ValueContext(n_players, death or 0, participants)
                card_value(room, vctx, play)
    ctx = RoomContext(room, participants, plays, supply, coin_cap, death, n_players, trace,
                      threat_source)
    room.resolve(ctx, None)
    reacts = room.reactors.get("room")
    if reacts:
        for h in reacts:
            ctx._run(h, list(participants))
    for play in plays:
        card = play.card
        if isinstance(card, int):
            play.player.hand.remove(card)
        else:
            play.player.take_item(card)
            supply[card] = supply.get(card, 0) + 1
    return ctx


def check_play(room: CompiledRoom, player: Player, cards: Sequence[Card],
               abilities: Mapping[str, Optional[str]]) -> Optional[str]:
    """Why a play (a card, or a chain of second-card items then a card) is illegal, or None."""
    held_items = list(player.items)
    hand = list(player.hand)
    if not cards:
        return f"{player.name} played no card (every player plays exactly one, X-3)"
    for i, card in enumerate(cards):
        legal = legal_cards(room, Player(player.seat, player.name, hand=hand, items=held_items),
                            abilities)
        if card not in legal:
            return _why_illegal(room, player, card, hand, held_items,
                                player.items.count(card) if isinstance(card, str) else 0)
        last = i == len(cards) - 1
        chained = is_second_card(room, card, abilities)
        if chained and last:
            return f"{player.name} played a {card} but no second card after it"
        if not chained and not last:
            if isinstance(card, str) and (card in room.escapes or card in room.playable):
                what = "an escape card" if card in room.escapes else "played as a card"
                return (f"{player.name}: in {room.name} a {card} is {what}: it is the "
                        "player's card, with no second card after it")
            return f"{player.name}: only a second-card item may be followed by another card"
        if isinstance(card, str):
            held_items.remove(card)
    return None


def _why_illegal(room: CompiledRoom, player: Player, card: Card, hand: Iterable[int],
                 items: Iterable[str], held: int) -> str:
    who = player.name
    if isinstance(card, int):
        if card not in (1, 2, 3, 4, 5):
            return f"{who} played {card}: power cards are 1..5"
        return f"{who} played power {card}, which is not in their hand ({sorted(hand)})"
    if card not in items:
        if held:
            return f"{who} played a {card} more times than they hold one ({held})"
        return f"{who} played a {card} but holds none"
    if card in room.unplayable:
        return f"{who}: a {card} cannot be played in {room.name}"
    return (f"{who}: a {card} cannot be played in {room.name} (a {room.kind}); items are "
            "room cards only where the room says (`playable`), and a peek item is played "
            "outside card play")


def apply_death(players: Iterable[Player], supply: dict[str, int], death: Optional[int]) -> list[Player]:
    """C-7: a player with `death` or more wounds dies at once; their items go back to the
    supply. Returns who died now."""
    died = []
    if death is None:
        return died
    for p in players:
        if not p.dead and p.wounds >= death:
            p.dead = True
            p.out = p.out or "dead"
            for item in p.items:
                supply[item] = supply.get(item, 0) + 1
            p.items = []
            died.append(p)
    return died
