"""Rules that set off their own event: a warning (W602) before the engine has to stop them.

`after wound { wound 1 }` on a monster wounds, which is a wound, which runs the rule again:
the engine stops such a chain (interpreter/runtime/room.py, MAX_EVENTS and MAX_DEPTH) and names the
card, but a modder is better told when they write it. Only the rule's own card is looked at
(two cards feeding each other, or two holders of one item `on others`, are the engine's
to stop). Not warned: `instead of X { X … }`
(a replacement applies at most once to one event, so it cannot loop) and `modify X to …`
(it changes an amount on its way and sets nothing off).
"""
from __future__ import annotations

from typing import Iterable, Iterator

from . import ast
from .diagnostics import Diagnostic
from .vocabulary import MODIFIABLE

# The event an effect sets off (vocabulary.EVENTS), by the effect's verb.
EVENT_OF_VERB = {
    "wound": "wound", "heal": "heal", "gain": "gain", "lose": "lose", "give": "give",
    "take": "take", "take_any": "take", "steal": "steal", "steal_item": "steal", "mark": "mark",
    "eliminate": "eliminate",
}


def _within(node: object) -> Iterator[object]:
    """Every AST node below `node` (iteratively: card text may nest 1,500 deep)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed([child for _, child in ast.children(n)]))


def _sets_off(node: object) -> Iterator[tuple[str, object]]:
    """(event, the node that sets it off) for every effect and attack inside `node`."""
    for n in _within(node):
        if isinstance(n, ast.Effect) and n.verb in EVENT_OF_VERB:
            yield EVENT_OF_VERB[n.verb], n
        elif isinstance(n, ast.Attack):
            yield "attack", n


def self_triggers(members: Iterable[object], owner: str) -> list[Diagnostic]:
    """W602 for each `after EVENT` rule among `members` whose body sets off EVENT again."""
    out: list[Diagnostic] = []
    for m in members:
        if not isinstance(m, ast.Handler) or m.sort != "react":
            continue
        if m.tag is not None and m.tag.name == "others":
            continue  # `after gain on others { you: gain 1 coin }`: not its own holder's event
        for event, n in _sets_off(m.body):
            if event != m.event:
                continue
            out.append(Diagnostic(
                getattr(n, "span", m.span), "W602",
                f"`after {m.event}` on `{owner}` sets off `{m.event}` again: a rule runs once "
                "in a chain, but two such rules in play set each other off, until the game "
                "stops them as a runaway",
                f"make it `instead of {m.event}` (applied once per event), "
                + (f"change the amount with `modify {m.event} to …`, " if m.event in MODIFIABLE
                   else "") + "or guard it with a condition that runs out",
                severity="warning"))
            break  # one warning per rule
    return out
