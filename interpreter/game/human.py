"""A person at the terminal: shows what their seat may see and asks for each decision.

At a card prompt, `help` (or `?`) lists what may be typed, `room` says again what the room
does and `table` shows everyone's coins, wounds and items again."""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import click

from raiders.interpreter.runtime.describe import (
    card_name,
    count,
    item_names,
    room_numbers,
    room_words,
)
from raiders.interpreter.runtime.state import Card

from .players import SeatView

HELP = (
    "  type one of the cards offered: a power value (1-5) or an item's id",
    "  room    what this room does, with the numbers for this table",
    "  table   everyone's coins, wounds, items and power cards left this floor",
    "  help, ? this list",
)


def _prompt(text: str, default: Optional[str] = None) -> str:
    """A question at the terminal; its text says the answers (`[y/n]`), so click does not
    repeat the default after it."""
    return str(click.prompt(text, default=default, show_default=False))


class HumanSeat:
    name = "human"

    def __init__(self, ask: Callable[..., str] = _prompt,
                 say: Callable[[str], None] = click.echo):
        self.ask = ask
        self.say = say

    def _show(self, view: SeatView) -> None:
        me = view.me
        floor = " | ".join(self._room_name(view, c, i >= view.room_index)
                           for i, c in enumerate(view.floor_rooms))
        self.say(f"\n[{me.name}] floor {view.floor_index + 1}, room {view.room_index + 1}: "
                 f"{floor}")
        self._table(view)
        if view.revealed:
            self.say("  on the table: " + ", ".join(f"{pl.player.name} {pl.card}"
                                                   for pl in view.revealed))

    @staticmethod
    def _room_name(view: SeatView, card: Optional[str], to_come: bool) -> str:
        """A room of the floor; one still to play with its numbers at this table."""
        rooms = view.rules.rooms
        if card is None or card not in rooms:
            return "??"  # a face-down room
        players = sum(1 for p in view.players if not p.dead)
        numbers = room_numbers(view.rules, card, players) if to_come else ""
        return rooms[card].name + (f" ({numbers})" if numbers else "")

    def _table(self, view: SeatView) -> None:
        """Everyone: coins, wounds, items by name (as the narration names them: they all come
        to a player in the open), statuses, the power cards left in hand this floor (played
        ones lie face up); your hand."""
        me = view.me
        self.say(f"  you: hand {' '.join(str(c) for c in me.hand)}")
        for p in view.players:
            if p.dead:
                continue
            items = item_names(view.rules, p.items) or "no items"
            marks = _statuses(view.marks.items()) if p is me else _statuses(p.marks)
            hand = "" if p is me else f"  hand {' '.join(map(str, p.hand)) or '-'}"
            self.say(f"    {p.name + (' (you)' if p is me else ''):<12} "
                     f"{count(p.coins, 'coin'):>8}  {count(p.wounds, 'wound'):>9}{hand}  {items}"
                     + (f"  [{marks}]" if marks else "") + (f"  ({p.out})" if p.out else ""))

    def _room(self, view: SeatView, second: bool = False) -> None:
        room = view.room
        if room is None:
            return
        self.say(f"  room: {room.name} ({room.face}); {view.how_played}"
                 + (" — your second card" if second else ""))
        players = sum(1 for p in view.players if not p.dead)
        for line in room_words(view.rules, room.id, players):
            self.say(f"    {line}")

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        self._show(view)
        self._room(view, second)
        if len(legal) == 1:  # the last card of a floor, say: there is nothing to ask
            self.say(f"  you play {self._card_name(view, legal[0])}: the only card you can "
                     "play here")
            return legal[0]
        options = [str(c) for c in legal]
        while True:
            answer = str(self.ask(f"  your card ({', '.join(options)}) [? for help]")).strip()
            if answer in options:
                return legal[options.index(answer)]
            if answer.lower() in ("help", "?", "h"):
                for line in HELP:
                    self.say(line)
            elif answer.lower() == "room":
                self._room(view, second)
            elif answer.lower() == "table":
                self._table(view)
            else:
                self.say(f"  `{answer}` is not one of: {', '.join(options)} (? for help)")

    @staticmethod
    def _card_name(view: SeatView, card: Card) -> str:
        return card_name(card, view.rules)

    def use_peek(self, view: SeatView) -> bool:
        if None not in view.floor_rooms[view.room_index:]:
            return False
        self._show(view)
        while True:
            answer = str(self.ask(f"  look at the hidden rooms now with your {self._peeker(view)}? "
                                  "[y/n]", default="n")).strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.say("  answer y or n")

    @staticmethod
    def _peeker(view: SeatView) -> str:
        """The item of this seat that looks at face-down rooms, by name."""
        items = view.rules.items
        return next((items[i].name for i in view.me.items
                     if i in items and items[i].ability == "peek"), "peek item")

    def decide(self, view: SeatView, question: str, card: str) -> bool:
        """A choice a card offers (`may "question" { … }`): yes or no."""
        self._show(view)
        while True:
            answer = str(self.ask(f"  {card}: {question} [y/n]", default="n")).strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.say("  answer y or n")


def _statuses(marks) -> str:
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in marks)
