"""Why the numbers changed: a recorder of which card's handler modified, replaced or reacted.

The event bus (room.py, `Table.why`) reports to a `WhyRecorder` when one is set; with none set
(the default) it reports nothing and costs one test per handler run. `replay --trace` prints
what is recorded, and the browser viewer (viewer.py) shows the same steps per room.

A step remembers where it happened in the game's effect trace (`at`: how many effects were
traced before it), so it can be shown in order among the effects (`merge`).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import attrs

from raiders.interpreter.runtime.compiled import CardRules, Handler
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Player


@attrs.frozen
class WhyStep:
    sort: str  # modify | replace | react
    card: str  # the card whose rule it is
    owner: Optional[str]  # the player holding that card (a character, item, status), if any
    event: str  # the event (wound, gain, attack, room, …), `value` or `number`
    who: tuple[str, ...]  # the players it was about
    everyone: bool  # it was about every player in the room (a moment of the game)
    before: Optional[int]  # modify: the number before and after; react/replace: the amount
    after: Optional[int]
    words: str  # the rule in plain words, where the compiled card keeps them
    at: int  # effects traced before it (game-wide)

    def text(self) -> str:
        """One line: `[react] CARD (after wound on Ann): lose 2 coin(s)`."""
        whose = f"{self.owner}'s {self.card}" if self.owner else self.card
        about = (" on everyone" if self.everyone else
                 f" on {', '.join(self.who)}" if self.who else "")
        if self.sort == "modify":
            return f"[modify] {whose}: {self.event}{about} {self.before} → {self.after}"
        how = "instead of" if self.sort == "replace" else "after"
        return f"[{self.sort}] {whose} ({how} {self.event}{about}): {self.words}"

    def to_json(self) -> dict[str, Any]:
        return {"sort": self.sort, "card": self.card, "owner": self.owner, "event": self.event,
                "who": list(self.who), "everyone": self.everyone, "before": self.before,
                "after": self.after, "words": self.words, "text": self.text()}


class WhyRecorder:
    """Collects the steps of the rules as they run; `take()` hands over those since the last
    call (the engine calls back after every room)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.steps: list[WhyStep] = []
        self._cards: Optional[dict[int, tuple[str, str]]] = None

    # ---- what the bus calls (room.py)
    def modified(self, ctx: Any, event: Optional[str], p: Optional[Player], before: int,
                 after: int, fn: Any, owner: Optional[Player]) -> None:
        if before == after:  # a rule that applied but changed nothing explains nothing
            return
        card, target = self._card_of(fn)
        self.steps.append(WhyStep(
            "modify", card, owner.name if owner is not None else None, event or target,
            (p.name,) if p is not None else (), False, before, after, "", _at(ctx)))

    def ran(self, ctx: Any, h: Handler, owner: Optional[Player], subject: Sequence[Player],
            amount: int) -> None:
        # A moment of the game heard by everyone reads better as "everyone" than as a list.
        everyone = len(subject) > 1 and len(subject) == len(ctx.participants)
        self.steps.append(WhyStep(
            h.sort, h.card, owner.name if owner is not None else None, h.event,
            tuple(p.name for p in subject), everyone, amount or None, None, h.words, _at(ctx)))

    # ---- for the readers
    def take(self) -> list[WhyStep]:
        steps, self.steps = self.steps, []
        return steps

    def _card_of(self, fn: Any) -> tuple[str, str]:
        """The card a compiled `modify` belongs to, and what it modifies (an event, `value`,
        a room's number, `score`): each card compiles its own closures, so the function object
        names its card."""
        if self._cards is None:
            cards: dict[int, tuple[str, str]] = {}
            r = self.rules
            groups = (r.rooms, r.characters, r.items, r.statuses, r.floors, r.house)
            for group in groups:
                for cid, card in group.items():
                    _index(card.rules, cid, cards)
            self._cards = cards
        return self._cards.get(id(fn), ("?", "number"))


def _index(rules: CardRules, cid: str, into: dict[int, tuple[str, str]]) -> None:
    for _, fn, _ in rules.value_mods:
        into[id(fn)] = (cid, "value")
    for group in (rules.effect_mods, rules.param_mods):
        for target, mods in group.items():
            for fn, _ in mods:
                into[id(fn)] = (cid, target)


def _at(ctx: Any) -> int:
    trace = ctx.trace
    return len(trace) if trace is not None else 0


def merge(effects: Sequence[tuple], start: int, steps: Sequence[WhyStep],
          describe_effect: Any) -> list[tuple[str, str]]:
    """The room's effects (the trace from game-wide index `start`) and the rule steps, in the
    order they happened: a list of (sort, text), sort `effect` for an effect."""
    out: list[tuple[str, str]] = []
    i = 0
    for step in steps:
        while i < len(effects) and start + i < step.at:
            out.append(("effect", describe_effect(*effects[i])))
            i += 1
        out.append((step.sort, step.text()))
    for e in effects[i:]:
        out.append(("effect", describe_effect(*e)))
    return out


class RoomEffects:
    """Each room's own effects from the records' traces. The engine may keep one trace list
    for the whole game; then a room's effects are those added since the previous room."""

    def __init__(self) -> None:
        self._trace: Optional[Sequence] = None
        self._len = 0

    def of(self, trace: Sequence) -> tuple[list, int]:
        """(the room's effects, their game-wide index of the first) for the latest record."""
        start = self._len if trace is self._trace else 0
        self._trace, self._len = trace, len(trace)
        return list(trace[start:]), start


def trace_lines(effects: Sequence[tuple], start: int, steps: Sequence[WhyStep],
                describe_effect: Any, indent: str = "    ") -> list[str]:
    """`replay --trace`: the room's effects and the rules' steps, one a line, in order."""
    merged = merge(effects, start, steps, describe_effect)
    if not merged:
        return [f"{indent}nothing happens"]
    return [f"{indent}{text}" if sort != "effect" else f"{indent}- {text}"
            for sort, text in merged]
