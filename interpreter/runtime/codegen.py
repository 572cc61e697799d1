"""The Python source a card compiles to, and the few run-time helpers it calls.

The compiler (`compiler.py`) walks a card once and writes one small Python module per card:
a function for the room's procedure, one per handler, modifier, tag and parameter. `CardSource`
collects those functions, compiles the text once with `compile()`, and hands back the
functions; the text stays on the compiled card for `raiders show --python`.

Everything a card file says reaches the text as a literal made by `repr()` (item names,
questions, words) or as a number, never as code: names in the generated code are made here,
from a fixed alphabet.
"""
from __future__ import annotations

import contextlib
import hashlib
import linecache
import re
from typing import Any, Callable, Iterator, Optional

INDENT = "    "


def indent(lines: list[str]) -> list[str]:
    return [INDENT + line for line in lines]


class CardSource:
    """One card's generated module: functions added as the compiler meets them."""

    def __init__(self, card_id: str):
        self.card_id = card_id
        self._defs: list[str] = []
        self._taken: set[str] = set()
        self._fresh = 0
        self._dry = 0

    def name(self, hint: str) -> str:
        """A new identifier for a function of this card (`on_wound`, `param_strength`)."""
        base = re.sub(r"\W", "_", hint).strip("_") or "f"
        if base[0].isdigit():
            base = "_" + base
        candidate, n = base, 1
        while candidate in self._taken or candidate in RUNTIME:
            n += 1
            candidate = f"{base}_{n}"
        self._taken.add(candidate)
        return candidate

    def var(self, hint: str) -> str:
        """A fresh local variable (every binding in generated code gets its own name, so a
        nested loop never rebinds a name an outer expression still reads)."""
        self._fresh += 1
        return f"{hint}{self._fresh}"

    @contextlib.contextmanager
    def dry(self) -> Iterator[None]:
        """A pass that only wants the words: functions it defines are not kept."""
        self._dry += 1
        try:
            yield
        finally:
            self._dry -= 1

    @contextlib.contextmanager
    def kept(self) -> Iterator[None]:
        """Functions defined here are kept even within a dry pass: a function the compiler
        remembers (a parameter's), and every function its body calls."""
        dry, self._dry = self._dry, 0
        try:
            yield
        finally:
            self._dry = dry

    def define(self, hint: str, params: str, body: list[str], doc: Optional[str] = None) -> str:
        """Add `def NAME(params): body` and return NAME (in a dry pass, only a name)."""
        if self._dry:
            return hint
        name = self.name(hint)
        lines = [f"def {name}({params}):"]
        if doc:  # a comment is one line of printable characters, whatever the card says
            lines.append(INDENT + "# " + "".join(c if c.isprintable() else " " for c in doc)[:200])
        lines.extend(indent(body or ["return None"]))
        self._defs.append("\n".join(lines))
        return name

    @property
    def text(self) -> str:
        head = f"# card `{self.card_id}`, compiled by raiders (interpreter/runtime/compiler.py)\n"
        if not self._defs:
            return head + "# no rules: the card adds nothing to run (its numbers are data)\n"
        return head + "\n\n".join(self._defs) + "\n"

    def build(self) -> tuple[dict[str, Callable], str]:
        """Compile the text once; the functions by name, and the text."""
        text = self.text
        filename = f"<card {self.card_id}>"
        known = linecache.cache.get(filename)
        if known is not None and len(known) == 4 and "".join(known[2]) != text:
            # another card of that id (a mod's, a changed file's): its own name, so that a
            # traceback shows the lines that really ran
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
            filename = f"<card {self.card_id} {digest}>"
        code = compile(text, filename, "exec")
        namespace: dict[str, Any] = dict(RUNTIME)
        exec(code, namespace)  # noqa: S102 - text made by the compiler; card data only as literals
        # tracebacks and debuggers show the generated lines
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        _remember(self.card_id, filename)
        return {n: namespace[n] for n in self._taken}, text


# The traceback names kept per card id: a long-lived process (the language server compiles
# the cards again as the modder types) keeps the last few, not every version ever compiled.
_NAMES: dict[str, list[str]] = {}
KEEP_VERSIONS = 8


def _remember(card_id: str, filename: str) -> None:
    names = _NAMES.setdefault(card_id, [])
    if filename in names:
        return
    names.append(filename)
    while len(names) > KEEP_VERSIONS:
        linecache.cache.pop(names.pop(0), None)


# ---- run-time helpers the generated code calls (closures stay where writing them out buys
# nothing: picking players by rank of value or by coins needs the same loop whatever the card)

def players_of_value(ctx, rank: int) -> list:
    """The players whose value is the rank-th distinct value (0 lowest, 1 second lowest, -1
    highest, -2 second highest); nobody if there are not that many values."""
    values = ctx.distinct_values
    if (rank >= 0 and len(values) <= rank) or (rank < 0 and len(values) < -rank):
        return []
    return players_valued(ctx, values[rank])


# The helpers below are plain loops, not comprehensions: a comprehension is a function call
# of its own in Python 3.11, and these run in most rooms.

def players_valued(ctx, target: int) -> list:
    """The players whose play counted `target` (highest, lowest, …), in seat order."""
    vb = ctx.values_by_player
    found = []
    for p in ctx.participants:
        if vb.get(p.seat) == target:
            found.append(p)
    return found


def extreme(ctx, attr: str, most: bool) -> list:
    """The players with the most (`most`) or the least coins or wounds (`attr`), in seat
    order; one pass over the table."""
    found: list = []
    target = None
    for p in ctx.participants:
        v = getattr(p, attr)
        if target is None or (v > target if most else v < target):
            target = v
            found = [p]
        elif v == target:
            found.append(p)
    return found


def extreme_items(ctx, most: bool) -> list:
    """The players holding the most (`most`) or the fewest item cards, in seat order."""
    counts = [len(p.items) for p in ctx.participants]
    if not counts:
        return []
    target = max(counts) if most else min(counts)
    return [p for p, n in zip(ctx.participants, counts, strict=True) if n == target]


def tied(ctx) -> list:
    vb = ctx.values_by_player
    counts: dict[int, int] = {}
    for v in vb.values():
        counts[v] = counts.get(v, 0) + 1
    return [p for p in ctx.participants if counts.get(vb.get(p.seat, -1), 0) > 1]


def neighbour(ctx, owner, step: int) -> list:
    """The player next to a card's holder among those in play: clockwise, the next seat
    (`left`, step 1), or the seat before (`right`, step -1); nobody without a holder or
    without anyone else."""
    if owner is None:
        return []
    seat = owner.seat
    others = [p for p in ctx.participants if p is not owner]  # in seat order
    if not others:
        return []
    if step > 0:
        for p in others:
            if p.seat > seat:
                return [p]
        return [others[0]]
    for p in reversed(others):
        if p.seat < seat:
            return [p]
    return [others[-1]]


def neighbours(ctx, players: list, step: int) -> list:
    """`your_left`, `your_right`: the neighbour of each of the players, in seat order."""
    seats = {q.seat for p in players for q in neighbour(ctx, p, step)}
    return [p for p in ctx.participants if p.seat in seats]


def item_of_choice(ctx, p, card: str) -> str:
    """The item a player gives up where a card says `take any`: asked kind by kind (sorted)
    until they say yes, the last kind when they said no to every other; no question when
    they hold one kind only. The answers are the game's, in a log like any `may`."""
    kinds = list(dict.fromkeys(p.items))
    for item in kinds[:-1]:
        if ctx.ask(p, f"Give back your {item}?", card):
            return item
    return kinds[-1]


def union(ctx, parts: list[list]) -> list:
    """Several selectors at once (`richest, most_wounded`): seat order, no duplicates."""
    seen = {p.seat for part in parts for p in part}
    return [p for p in ctx.participants if p.seat in seen]


class AtOnce:
    """`at once { … }`: the block's code reads the table through this stand-in for its
    Context, and every effect it asks for waits; `done()` then makes them happen, in the
    order asked. So nothing in the block sees what the block moves."""

    __slots__ = ("ctx", "moves")

    def __init__(self, ctx) -> None:
        object.__setattr__(self, "ctx", ctx)
        object.__setattr__(self, "moves", [])

    def __getattr__(self, name: str) -> Any:  # every read: the table as it is
        return getattr(self.ctx, name)

    def __setattr__(self, name: str, value: Any) -> None:  # `amount`, `owner`: the Context's
        setattr(self.ctx, name, value)

    def _later(self, name: str) -> Callable[..., None]:
        def wait(*args) -> None:
            self.moves.append((name, args))
        return wait

    def give(self, item: str, players: list) -> None:
        """The supply is read now, as everything else in the block (X-6)."""
        ctx = self.ctx
        if players and ctx.supply.get(item, 0) >= len(players):
            for p in players:
                self.moves.append(("emit", ("give", p, 0, item)))
        elif players and ctx.trace is not None:
            ctx.trace.append(("short", ",".join(p.name for p in players), item))

    def done(self) -> None:
        for name, args in self.moves:
            getattr(self.ctx, name)(*args)


# The Context methods that change the table: inside `at once` they wait for the block's end.
def _waits(name: str) -> property:
    def method(self: AtOnce) -> Callable[..., None]:
        return self._later(name)
    return property(method)


for _name in ("emit", "unmark", "attack", "mark_place", "unmark_place", "become", "do_room",
              "give_power", "take_power"):
    setattr(AtOnce, _name, _waits(_name))


def at_once(ctx, block: Callable, subject) -> None:
    later = AtOnce(ctx)
    block(later, subject)
    later.done()


RUNTIME: dict[str, Any] = {
    "at_once": at_once,
    "players_of_value": players_of_value,
    "players_valued": players_valued,
    "extreme": extreme,
    "extreme_items": extreme_items,
    "tied": tied,
    "union": union,
    "neighbour": neighbour,
    "neighbours": neighbours,
    "item_of_choice": item_of_choice,
    "__builtins__": {"len": len, "list": list, "max": max, "min": min, "sorted": sorted,
                     "set": set, "bool": bool, "int": int},
}
