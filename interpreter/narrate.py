"""Plain-text narration of a game: floor by floor, room by room, then the winners."""
from __future__ import annotations

from typing import Iterable, Optional

from .engine import GameResult, RoomRecord
from .rules import Rules
from .state import Card

_EVENT_WORDS = {
    "wound": "{who} takes {n} wound(s)",
    "heal": "{who} heals {n} wound(s)",
    "gain": "{who} gains {n} coin(s)",
    "lose": "{who} loses {n} coin(s)",
    "give": "{who} gets a {n}",
    "eliminate": "{who} is eliminated",
    "attack": "it attacks {who}",
    "short": "too few {n} for {who}: nobody gets one",
    "threat": "the monster card is {n}",
    "take": "{who} gives a {n} back to the supply",
    "steal": "{who} takes {n}",
    "mark": "{who} is now {n}",
    "unmark": "{who} is no longer {n}",
    "death": "{who} dies",
    "roll": "a die rolls {n}",
    "choice": "{who} answers {n}",
}


def effect_words(event: str, who: str, n: object) -> str:
    """One traced effect in words: `Ann takes 2 wound(s)`."""
    if event == "attack" and not who:
        return "it attacks nobody"
    if event == "roll" and who:
        return f"{who} rolls {n}"
    return _EVENT_WORDS.get(event, "{who} {n}").format(who=who, n=n)


def card_words(cards: list[Card]) -> str:
    return " then ".join(str(c) for c in cards)


def room_lines(rules: Rules, rec: RoomRecord) -> list[str]:
    room = rules.rooms[rec.card]
    lines = [f"  Room {rec.index + 1}: {room.name} ({room.kind})"]
    if rec.first_player:
        lines.append(f"    first player: {rec.first_player}")
    if rec.peeks:
        lines.append(f"    peeked: {', '.join(rec.peeks)} looked ahead")
    lines.append("    plays: " + ", ".join(f"{n} {card_words(c)}" for n, c in rec.plays.items()))
    happened = [effect_words(event, who, n) for event, who, n in rec.trace]
    lines.append("    " + ("; ".join(happened) if happened else "nothing happens"))
    return lines


def standings(players: Iterable) -> str:
    return "    " + " | ".join(
        f"{p.name}: {p.coins}c {p.wounds}w" + (f" [{', '.join(p.items)}]" if p.items else "")
        + (f" {{{_statuses(p)}}}" if getattr(p, "marks", None) else "")
        + (f" ({p.out})" if p.out else "") for p in players)


def _statuses(p) -> str:
    return ", ".join(n if m.count == 1 else f"{n} x{m.count}" for n, m in sorted(p.marks.items()))


def result_lines(result: GameResult, solo: bool = False) -> list[str]:
    lines = ["", "End of the game."]
    for p in result.players:
        lines.append(f"  {p.name} ({p.character}): {p.coins} coins, {p.wounds} wounds"
                     + (f" — {p.out}" if p.out else ""))
    if solo:
        hero = result.players[0]
        lines.append("The hero died: no score." if hero.dead else
                     f"The hero survived. Score: {hero.coins} coins (20 is a good score).")
    elif result.winners:
        lines.append("Winner(s): " + ", ".join(result.winners))
    else:
        lines.append("Nobody wins.")
    return lines


def floor_header(floor: int, card: Optional[str]) -> str:
    return f"\nFloor {floor + 1}" + (f" ({card})" if card else "")
