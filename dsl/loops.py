"""Rules that set each other off: a warning (W602) before the engine has to stop them.

`after wound { everyone: wound 1 }` on a monster wounds, which is a wound, which the rule
hears again; so do two rules on two cards that set each other off through two events
(`after wound { everyone: gain 1 coin }` and `after gain { everyone: wound 1 }`). The checker
builds a graph of what each `after` rule hears and what its body sets off, across every card
and kind, and warns on each rule in a cycle of it. What the game really does with such a
cycle (interpreter/runtime/room.py): a rule runs at most once in its own chain, so the chain
ends, but each rule of the cycle sets off one event per player it names, which the next
rule hears; the events multiply at every rule of the cycle, and a room past its budget of
steps stops the game as a runaway naming the card. Not in the graph: `instead of X { X … }`
(a replacement applies at most once to one event, so it cannot loop), `modify X to …` (it
changes an amount on its way and sets nothing off), and rules `on others` (they set off their
holder's own events, which they do not hear: two holders of one such item feeding each other
are the engine's to stop).
"""
from __future__ import annotations

from collections import deque
from typing import Iterable, Iterator, Optional

import attrs

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


@attrs.frozen
class _Rule:
    """An `after EVENT` rule of a card (or kind) `owner`, and the events its body sets off,
    each with the node that sets it off (where a warning points)."""

    owner: str
    handler: ast.Handler
    sets_off: dict[str, object]


def _rules(members: Iterable[object], owner: str) -> Iterator[_Rule]:
    for m in members:
        if not isinstance(m, ast.Handler) or m.sort != "react":
            continue
        if m.tag is not None and m.tag.name == "others":
            continue  # `after gain on others { you: gain 1 coin }`: not its own holder's event
        found: dict[str, object] = {}
        for event, n in _sets_off(m.body):
            found.setdefault(event, n)
        if found:
            yield _Rule(owner, m, found)


def _cycles(rules: list[_Rule]) -> list[list[int]]:
    """The strongly connected parts of the graph (rule i -> rule j when i sets off the event
    j hears) that hold a cycle: Tarjan's algorithm, iteratively (a mod may have many rules)."""
    hearing: dict[str, list[int]] = {}
    for j, r in enumerate(rules):
        hearing.setdefault(r.handler.event, []).append(j)
    edges = [sorted({j for e in r.sets_off for j in hearing.get(e, ())}) for r in rules]
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    out: list[list[int]] = []
    for root in range(len(rules)):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on_stack.add(v)
            if i < len(edges[v]):
                work.append((v, i + 1))
                w = edges[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1 or v in edges[v]:
                    out.append(sorted(part))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


def _name(r: _Rule) -> str:
    return f"`after {r.handler.event}` on `{r.owner}`"


_PATH_LIMIT = 200  # rules in one cycle: past this the warning names no path (it would be long)


def _way_back(start: int, part: set[int], rules: list[_Rule]) -> Optional[list[int]]:
    """The shortest cycle of rules from `start` back to it, within `part` (breadth first)."""
    came: dict[int, int] = {}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for e in rules[v].sets_off:
            for w in sorted(part):
                if rules[w].handler.event != e:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return path[::-1]
                if w not in came:
                    came[w] = v
                    queue.append(w)
    return None


def _cycle_words(path: list[int], rules: list[_Rule]) -> str:
    steps = []
    for k, i in enumerate(path):
        nxt = rules[path[(k + 1) % len(path)]].handler.event
        steps.append(f"{_name(rules[i])} sets off `{nxt}`")
    return ", which ".join(steps)


def rule_cycles(cards: Iterable[tuple[Iterable[object], str]]) -> list[Diagnostic]:
    """W602 for each `after` rule, among every card's and kind's (members, owner), that is in
    a cycle of rules setting each other off (itself alone, or with others)."""
    return cycle_warnings([r for members, owner in cards for r in after_rules(members, owner)])


def after_rules(members: Iterable[object], owner: str) -> list[_Rule]:
    """The `after` rules of one card or kind that set something off: what a caller that keeps
    cards between checks (formats/incremental.py) keeps of each, in the order of `rule_cycles`."""
    return list(_rules(members, owner))


def cycle_warnings(rules: list[_Rule]) -> list[Diagnostic]:
    """W602 for the rules (every card's and kind's, in order) that are in a cycle."""
    out: list[Diagnostic] = []
    for part in _cycles(rules):
        members = set(part)
        for i in part:
            r = rules[i]
            path = _way_back(i, members, rules) if len(part) <= _PATH_LIMIT else None
            if path == [i]:
                what = (f"{_name(r)} sets off `{r.handler.event}` again: it runs once in a "
                        "chain, so alone it sets off one more round of events")
            elif path:
                what = (_cycle_words(path, rules) + ", back to the first: each runs once in a "
                        "chain, so the chain ends")
            else:
                what = (f"{_name(r)} is one of {len(part)} rules that set each other off: each "
                        "runs once in a chain, so the chain ends")
            event = rules[path[1 % len(path)]].handler.event if path else \
                next(e for e in r.sets_off if any(rules[j].handler.event == e for j in part))
            out.append(Diagnostic(
                getattr(r.sets_off[event], "span", r.handler.span), "W602",
                what + "; but every such rule in play (on another card, or another holder) "
                "sets off one event per player it names, each heard by the next: the events "
                "multiply at each step, and a room past 20,000 steps stops the game as a "
                "runaway",
                f"make it `instead of {r.handler.event}` (applied once per event), "
                + (f"change the amount with `modify {event} to …`, " if event in MODIFIABLE
                   else "") + "or guard it with a condition that runs out",
                severity="warning"))
    out.sort(key=lambda d: (d.span.path, d.span.line, d.span.col))
    return out
