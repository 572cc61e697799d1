"""The dungeon a seed deals, floor by floor (`raiders show --dungeon --seed N`): what a
table would lay out before the first card is played, without playing."""
from __future__ import annotations

import re
from typing import Optional

from raiders.interpreter.runtime.describe import count, room_words
from raiders.interpreter.runtime.rules import Rules

_PARAM_LINE = re.compile(r"^[a-z][a-z0-9_-]*: ")


def dungeon_lines(rules: Rules, seed: int, players: int,
                  difficulty: Optional[int] = None) -> list[str]:
    """The deal of `play --seed SEED --players PLAYERS` in words: characters, first player,
    and every room with its face and what it does at that table. The deal depends only on
    the seed, the rules and the player count (engine.Game draws it before any bot plays)."""
    from .botspec import make_bot
    from .engine import Game

    names = [f"P{i + 1}" for i in range(players)]
    game = Game(rules, names, [make_bot("random") for _ in names], seed=seed,
                difficulty=difficulty)
    deal = game.deal
    lines = [f"{rules.ruleset.name}, {rules.variant.name} play, {players} "
             f"player{'s' if players != 1 else ''}, seed {seed}"]
    for p in game.players:
        lines.append(f"  {p.name}: {rules.characters[p.character].name} ("
                     f"{count(p.coins, 'coin')}, {count(p.wounds, 'wound')}"
                     + (f", {', '.join(rules.items[i].name for i in p.items)}"
                        if p.items else "") + ")")
    if deal.first_player is not None:
        lines.append(f"  first player: {names[deal.first_player]}")
    for f, floor in enumerate(deal.floors):
        card = rules.floors.get(floor.floor_card) if floor.floor_card else None
        lines.append(f"\nFloor {f + 1}" + (f" ({card.name})" if card else ""))
        for i, slot in enumerate(floor.rooms):
            room = rules.rooms[slot.card]
            face = "face up" if slot.face_up else "face down"
            lines.append(f"  Room {i + 1}: {room.name} ({room.kind}, {face})")
            # what it does; its parameters' own lines (`wounds: 2.`) repeat what that says
            lines.extend(f"      {w}" for w in room_words(rules, slot.card, players)
                         if not _PARAM_LINE.match(w) or "player" in w)
    return lines
