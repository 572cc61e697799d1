"""`simulate --sweep 'CARD.FIELD=10..20'`: one number of one card's text, rewritten in the
card's AST before the cards are checked and compiled, so any number on any card — a field, a
shield of a per-player field, a table row, a number inside a rule — can be swept, and the
checker still judges every value. `--target 'FIGURE=VALUE'` picks the value whose figure
comes nearest. Syntax in docs/simulate.md.

    CARD.FIELD=VALUES         a field holding one number (per-player fields: the shield for
                              the number of players simulated)
    CARD.FIELD#K=VALUES       the K-th number of the field (a per-player field's K-th shield)
    CARD.FIELD.ROW=VALUES     the number in a table row (`hits.5`); #K when it holds several
    CARD#K=VALUES             the K-th number anywhere in the card's text
    VALUES: A..B, A..B:STEP (both ends included) or A,B,C — whole numbers 0..10000
"""
from __future__ import annotations

import math
import re
from typing import Optional

import attrs

from raiders.dsl import ast
from raiders.dsl.diagnostics import did_you_mean
from raiders.dsl.library import Library

MAX_VALUES = 200
MAX_NUMBER = 10_000

_SPEC = re.compile(r"^(?P<card>[A-Za-z0-9_-]+)(?P<path>(\.[A-Za-z0-9_]+)*)(#(?P<k>\d+))?$")


class SweepError(ValueError):
    """A sweep or target the user wrote that cannot be carried out: the message says why."""


@attrs.frozen
class NumberEdit:
    """Set the `index`-th number (walk order) of `card` to `value`; or, with `field`, add the
    field to a card that leaves it at its kind's default."""

    card: str
    value: int
    index: Optional[int] = None
    field: Optional[str] = None


@attrs.frozen
class Sweep:
    text: str  # as the user wrote it, left of `=`
    card: str
    path: tuple[str, ...]  # field, then row key
    k: Optional[int]  # #K, 1-based
    values: tuple[int, ...]


def _too_long_number(text: str) -> bool:
    """A run of digits longer than any value a sweep takes (int() of 5,000 digits raises)."""
    return any(len(d) > 9 for d in re.findall(r"\d+", text))


def parse_values(text: str) -> tuple[int, ...]:
    text = text.strip()
    if _too_long_number(text):  # before any int() of it
        raise SweepError(f"`{text}`: values go up to {MAX_NUMBER}")
    m = re.fullmatch(r"(\d+)\.\.(\d+)(?::(\d+))?", text)
    if m:
        a, b, step = int(m[1]), int(m[2]), int(m[3] or 1)
        if step < 1 or b < a:
            raise SweepError(f"`{text}`: a range goes up, A..B with A ≤ B and a step ≥ 1")
        count = (b - a) // step + 1  # counted, not listed: 1..1000000000 is refused at once
        if count > MAX_VALUES:
            raise SweepError(f"`{text}`: {count} values; at most {MAX_VALUES}")
        values = tuple(range(a, b + 1, step))
    elif re.fullmatch(r"\d+(,\d+)*", text):
        values = tuple(dict.fromkeys(int(v) for v in text.split(",")))
    else:
        raise SweepError(f"`{text}`: values are A..B, A..B:STEP or A,B,C (whole numbers)")
    if len(values) > MAX_VALUES:
        raise SweepError(f"`{text}`: {len(values)} values; at most {MAX_VALUES}")
    if any(v > MAX_NUMBER for v in values):
        raise SweepError(f"`{text}`: values go up to {MAX_NUMBER}")
    return values


def parse_sweep(text: str) -> Sweep:
    """`CARD.FIELD[.ROW][#K]=VALUES`, or SweepError."""
    left, eq, right = text.partition("=")
    m = _SPEC.match(left.strip())
    if not eq or not m:
        raise SweepError(f"`{text}`: a sweep is CARD.FIELD=A..B (e.g. gorgon.wounds=2..5; "
                         "also CARD.FIELD.ROW=…, CARD.FIELD#K=…, CARD#K=…)")
    path = tuple(p for p in m["path"].split(".") if p)
    if len(path) > 2:
        raise SweepError(f"`{left}`: at most CARD.FIELD.ROW")
    if not path and m["k"] is None:
        raise SweepError(f"`{left}`: name a field (CARD.FIELD) or a number (CARD#K)")
    if m["k"] is not None and _too_long_number(m["k"]):
        raise SweepError(f"`{left}`: #K is a card's K-th number; no card has that many")
    k = int(m["k"]) if m["k"] is not None else None
    if k is not None and k < 1:
        raise SweepError(f"`{left}`: #K counts from 1")
    return Sweep(left.strip(), m["card"], path, k, parse_values(right))


def numbers(card: ast.CardDecl) -> list[tuple[tuple[str, ...], ast.Num]]:
    """Every number of a card's text, in walk order, with its address: (field,) or
    (field, row key) for the numbers of a field, () for those of rules."""
    out: list[tuple[tuple[str, ...], ast.Num]] = []

    def walk(node, where: tuple[str, ...]) -> None:
        if isinstance(node, ast.Num):
            out.append((where, node))
            return
        if isinstance(node, ast.Field):
            where = (node.name,)
        elif isinstance(node, ast.Row) and len(where) == 1:
            where = (*where, str(node.key))
        for _, child in ast.children(node):
            walk(child, where)

    walk(card.members, ())
    return out


def _rewrite(node, target: ast.Num, value: int):
    """The node with `target` (by identity) replaced by the same number set to `value`."""
    if node is target:
        return attrs.evolve(node, value=value)
    if isinstance(node, tuple):
        new = tuple(_rewrite(x, target, value) for _, x in ast.children(node))
        return node if all(a is b for a, b in zip(new, node, strict=True)) else new
    changes: dict[str, object] = {}
    for name, old in ast.children(node):
        new = _rewrite(old, target, value)
        if new is not old:
            assert name is not None  # a node's children are its named fields
            changes[name] = new
    return attrs.evolve(node, **changes) if changes else node


def describe_numbers(card: ast.CardDecl) -> list[str]:
    """What a sweep of this card can name, for a diagnostic: `wounds = 2`, `#6 = 1`."""
    found = numbers(card)
    lines = []
    for i, (where, num) in enumerate(found, 1):
        same = [n for w, n in found if w == where]
        name = ".".join(where) if where else ""
        k = f"#{same.index(num) + 1}" if len(same) > 1 or not where else ""
        if not where:
            k = f"#{i}"
        lines.append(f"{card.id}.{name}{k} = {num.value}".replace(".#", "#"))
    return lines


def resolve(lib: Library, sweep: Sweep, players: int, strength_players: int) -> list[NumberEdit]:
    """One edit per value of the sweep; SweepError naming what the card has otherwise."""
    card = lib.cards.get(sweep.card)
    if card is None:
        hint = did_you_mean(sweep.card, list(lib.cards))
        raise SweepError(f"no card `{sweep.card}` in these rules" + (f"; {hint}" if hint else "")
                         + " (a mod's card needs its folder in --cards)")
    found = numbers(card)
    listing = "; ".join(describe_numbers(card)) or "none written"
    unset = _defaulted_fields(lib, card)
    if unset:  # sweepable too (the field is added), but nowhere in the card's text
        listing += (f"; and, left at the kind's default (a sweep adds the field): "
                    f"{', '.join(f'{card.id}.{name}' for name in unset)}")
    if not sweep.path:  # CARD#K
        if sweep.k is None or sweep.k > len(found):
            raise SweepError(f"`{sweep.text}`: {card.id} has {len(found)} number(s): {listing}")
        index = sweep.k - 1
    else:
        matching = [i for i, (where, _) in enumerate(found) if where == sweep.path]
        if not matching:
            added = _absent_field(lib, card, sweep)
            if added is not None:
                return [NumberEdit(card.id, v, field=added) for v in sweep.values]
            raise SweepError(f"`{sweep.text}`: {card.id} has no number there; "
                             f"its numbers: {listing}")
        if sweep.k is not None:
            if sweep.k > len(matching):
                raise SweepError(f"`{sweep.text}`: {'.'.join(sweep.path)} holds "
                                 f"{len(matching)} number(s)")
            index = matching[sweep.k - 1]
        elif len(matching) == 1:
            index = matching[0]
        elif _is_per_players(card, sweep.path):
            # The shield the simulated table uses (the compiler clamps the same way).
            i = min(max(players - strength_players, 0), len(matching) - 1)
            index = matching[i]
        else:
            raise SweepError(f"`{sweep.text}` holds {len(matching)} numbers: add #K "
                             f"({listing})")
    return [NumberEdit(card.id, v, index=index) for v in sweep.values]


def _is_per_players(card: ast.CardDecl, path: tuple[str, ...]) -> bool:
    return len(path) == 1 and any(isinstance(m, ast.Field) and m.name == path[0]
                                  and isinstance(m.value, ast.PerPlayers) for m in card.members)


def _defaulted_fields(lib: Library, card: ast.CardDecl) -> list[str]:
    """The whole-number parameters of the card's kind that the card does not set."""
    kind = lib.kinds.get(card.kind)
    if kind is None:
        return []
    has = {m.name for m in card.members if isinstance(m, ast.Field)}
    return [name for name, param in kind.params.items()
            if param.type == "int" and name not in has]


def _absent_field(lib: Library, card: ast.CardDecl, sweep: Sweep) -> Optional[str]:
    """A whole-number parameter of the card's kind that the card leaves at its default."""
    if len(sweep.path) != 1 or sweep.k is not None:
        return None
    return sweep.path[0] if sweep.path[0] in _defaulted_fields(lib, card) else None


def edited_card(card: ast.CardDecl, edit: NumberEdit) -> ast.CardDecl:
    if edit.field is not None:
        field = ast.Field(edit.field, ast.Num(edit.value, card.id_span), card.id_span)
        return attrs.evolve(card, members=(*card.members, field))
    assert edit.index is not None  # an edit adds a field or sets a number by its place
    found = numbers(card)
    return _rewrite(card, found[edit.index][1], edit.value)


def apply_edits(lib: Library, edits: tuple[NumberEdit, ...]) -> None:
    """Rewrite the numbers in the library's ASTs (its modules and its card table), before
    the checker and the compiler see them."""
    by_card: dict[str, list[NumberEdit]] = {}
    for e in edits:
        by_card.setdefault(e.card, []).append(e)
    for cid, mine in by_card.items():
        old = lib.cards.get(cid)
        if old is None:
            continue
        new = old
        for e in mine:
            new = edited_card(new, e)
        lib.cards[cid] = new
        for i, module in enumerate(lib.modules):
            if any(d is old for d in module.decls):
                lib.modules[i] = ast.Module(module.path, tuple(new if d is old else d
                                                             for d in module.decls))


@attrs.frozen
class Target:
    figure: str
    value: float


def parse_target(text: str, example: str = "win.seat.P1=0.25 or card.ID.wounds=1.5 (figure "
                                           "names: docs/simulate.md)") -> Target:
    """`FIGURE=VALUE`: a figure name as in the JSON (win.seat.P1, card.ID.wounds, …);
    `example`: what the caller's targets look like, for the error."""
    left, eq, right = text.partition("=")
    try:
        value = float(right)
    except ValueError:
        value = None
    if not eq or not left.strip() or value is None or value != value:
        raise SweepError(f"`{text}`: a target is FIGURE=VALUE, e.g. {example}")
    if not math.isfinite(value):  # every figure is nearest an infinite target: no answer
        raise SweepError(f"`{text}`: a target is a finite number, e.g. {example}")
    return Target(left.strip(), value)


def nearest(rows: list[tuple[int, Optional[float]]], target: float) -> Optional[int]:
    """The swept value whose figure is nearest the target (ties: the smaller value)."""
    scored = [(abs(f - target), v) for v, f in rows if f is not None]
    return min(scored)[1] if scored else None


def places_for(low: float, high: float, target: float, places: int) -> int:
    """Decimal places (`places` or more, at most 6) at which an interval reads on the side of
    the target it lies: 0.2 just below [0.2042, 0.3025] reads "[0.20, 0.30], the target is
    outside" at 2 places, "[0.204, 0.302]" at 3."""
    while places < 6 and ((target < low and round(low, places) <= target)
                          or (target > high and round(high, places) >= target)):
        places += 1
    return places


def holding(rows: list[tuple[int, Optional[tuple[float, float]]]], target: float) -> list[int]:
    """The swept values whose 95% interval (low, high) holds the target."""
    return [v for v, iv in rows if iv is not None and iv[0] <= target <= iv[1]]


def separates(rows: list[tuple[int, Optional[tuple[float, float]]]], target: float) -> bool:
    """Whether the figure tells the values apart at the target: not when every value's
    interval holds it, nor when none does and the intervals all overlap one another (the
    values are then alike, and alike far from the target): naming a "nearest" would be
    reading noise."""
    known = [iv for _, iv in rows if iv is not None]
    if len(known) < 2:
        return True
    held = len(holding(rows, target))
    if held == len(known):
        return False
    alike = max(low for low, _ in known) <= min(high for _, high in known)
    return not (held == 0 and alike)


def aim(rows: list[tuple[int, Optional[tuple[float, float, float]]]], target: float) -> dict:
    """Where a target stands among the swept values, each with its figure (value, low, high;
    None: never arose): `separated` (whether the figure tells the values apart there),
    `holding` (the values whose interval holds it) and `best` (the nearest value, None when
    the figure does not separate them). One rule for `simulate --sweep` and `balance --sweep`."""
    spans = [(v, (f[1], f[2]) if f is not None else None) for v, f in rows]
    separated = separates(spans, target)
    return {"separated": separated, "holding": holding(spans, target),
            "best": nearest([(v, f[0] if f is not None else None) for v, f in rows], target)
            if separated else None}


def check_figure(name: str, rules, players: int, bots: tuple[str, ...]) -> None:
    """SweepError unless `name` is a figure these games can report (docs/simulate.md)."""
    known = ["no_winner", "coins", "wounds"]
    known += [f"win.seat.P{i + 1}" for i in range(players)]
    known += [f"win.character.{c}" for c in rules.characters]
    known += [f"win.bot.{b}" for b in dict.fromkeys(bots)]
    known += [f"card.{r}.{w}" for r in rules.rooms for w in ("coins", "wounds")]
    if name in known or (name.startswith("out.") and len(name) > 4):
        return
    hint = did_you_mean(name, known)
    raise SweepError(f"no figure `{name}`" + (f"; {hint}" if hint else "")
                     + " (figures: win.seat.P1, win.character.ID, win.bot.BOT, no_winner, "
                       "out.REASON, coins, wounds, card.ID.coins, card.ID.wounds)")
