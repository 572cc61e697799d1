"""A person at the terminal: shows what their seat may see and asks for each decision."""
from __future__ import annotations

from typing import Callable, Sequence

import click

from .players import SeatView
from .state import Card


class HumanSeat:
    name = "human"

    def __init__(self, ask: Callable[..., str] = click.prompt,
                 say: Callable[[str], None] = click.echo):
        self.ask = ask
        self.say = say

    def _show(self, view: SeatView) -> None:
        me = view.me
        floor = " ".join(c or "??" for c in view.floor_rooms)
        self.say(f"\n[{me.name}] floor {view.floor_index + 1}: {floor}")
        marks = view.marks
        self.say(f"  you: {me.coins} coins, {me.wounds} wounds; hand {me.hand}"
                 + (f"; items {', '.join(me.items)}" if me.items else "")
                 + (f"; statuses {_statuses(marks.items())}" if marks else ""))
        others = [p for p in view.players if p.seat != me.seat and not p.dead]
        self.say("  others: " + ", ".join(
            f"{p.name} {p.coins}c {p.wounds}w"
            + (f" ({_statuses(p.marks)})" if getattr(p, "marks", ()) else "") for p in others))
        if view.revealed:
            self.say("  on the table: " + ", ".join(f"{pl.player.name} {pl.card}"
                                                   for pl in view.revealed))

    def choose_card(self, view: SeatView, legal: Sequence[Card], second: bool) -> Card:
        self._show(view)
        room = view.room
        if room is not None:
            self.say(f"  room: {room.name} ({room.kind}); {view.how_played}"
                     + (" — your second card" if second else ""))
        options = [str(c) for c in legal]
        while True:
            answer = str(self.ask(f"  your card ({', '.join(options)})")).strip()
            if answer in options:
                return legal[options.index(answer)]
            self.say(f"  `{answer}` is not one of: {', '.join(options)}")

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
    return ", ".join(name if count == 1 else f"{name} x{count}" for name, count in marks)
