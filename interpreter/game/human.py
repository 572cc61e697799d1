"""A person at the terminal: shows what their seat may see and asks for each decision.

At a card prompt, `help` (or `?`) lists what may be typed, `room` says again what the room
does and `table` shows everyone's coins, wounds and items again."""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import click

from raiders.interpreter.runtime.describe import count, room_words
from raiders.interpreter.runtime.state import Card

from .players import SeatView

HELP = (
    "  type one of the cards offered: a power value (1-5) or an item's id",
    "  room    what this room does, with the numbers for this table",
    "  table   everyone's coins, wounds and items",
    "  help, ? this list",
)


class HumanSeat:
    name = "human"

    def __init__(self, ask: Callable[..., str] = click.prompt,
                 say: Callable[[str], None] = click.echo):
        self.ask = ask
        self.say = say

    def _show(self, view: SeatView) -> None:
        me = view.me
        floor = " | ".join(self._room_name(view, c) for c in view.floor_rooms)
        self.say(f"\n[{me.name}] floor {view.floor_index + 1}, room {view.room_index + 1}: "
                 f"{floor}")
        self._table(view)
        if view.revealed:
            self.say("  on the table: " + ", ".join(f"{pl.player.name} {pl.card}"
                                                   for pl in view.revealed))

    @staticmethod
    def _room_name(view: SeatView, card: Optional[str]) -> str:
        rooms = view.rules.rooms
        return rooms[card].name if card in rooms else "??"  # a face-down room

    def _table(self, view: SeatView) -> None:
        """Everyone: coins, wounds, items (the others' by number: which ones is hidden),
        statuses; your hand."""
        me = view.me
        self.say(f"  you: hand {' '.join(str(c) for c in me.hand)}")
        for p in view.players:
            if p.dead:
                continue
            items = (", ".join(me.items) or "no items") if p is me else \
                (count(p.item_count, "item") if p.item_count else "no items")
            marks = _statuses(view.marks.items()) if p is me else _statuses(p.marks)
            self.say(f"    {p.name + (' (you)' if p is me else ''):<12} "
                     f"{count(p.coins, 'coin'):>8}  {count(p.wounds, 'wound'):>9}  {items}"
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

    def use_peek(self, view: SeatView) -> bool:
        if None not in view.floor_rooms[view.room_index:]:
            return False
        self._show(view)
        while True:
            answer = str(self.ask("  look at the hidden rooms now (your peek item)? [y/n]",
                                  default="n")).strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")

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
