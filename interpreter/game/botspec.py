"""Bots named on the command line: `greedy`, `random`, `search:30` (a name and an optional
whole-number argument, the search bot's budget)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from .players import Seat


def bot_classes() -> dict[str, Callable[..., Seat]]:
    """Every bot by name: the ones players.py registers, and the search bot."""
    from .players import BOTS
    from .search_bot import SearchBot

    return {**BOTS, SearchBot.name: SearchBot}


def parse_bot(spec: str) -> tuple[str, Optional[int]]:
    """`name` or `name:N`; ValueError with a message for anything else."""
    name, _, arg = spec.strip().partition(":")
    kinds = bot_classes()
    if name not in kinds:
        raise ValueError(f"unknown bot `{name}` (bots: {', '.join(kinds)}; "
                         "the search bot takes a budget: search:30)")
    if not arg:
        return name, None
    if not arg.isdigit() or int(arg) < 1:
        raise ValueError(f"`{spec}`: a bot's argument is a whole number ≥ 1 (search:30)")
    if not getattr(kinds[name], "takes_budget", False):
        raise ValueError(f"`{spec}`: the {name} bot takes no argument")
    return name, int(arg)


def make_bot(spec: str):
    """A new bot for one seat of one game."""
    name, arg = parse_bot(spec)
    cls = bot_classes()[name]
    return cls() if arg is None else cls(arg)
