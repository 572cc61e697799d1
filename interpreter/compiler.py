"""AST → behaviour. Each card is compiled once, at load time, into plain closures.

Every compile function returns a pair: the callable, and the same thing in plain words
(`raiders show` prints the words, so they always say what the callable does). Running a room
never walks the AST.

Callable shapes (ctx is a `raiders.interpreter.room.RoomContext`):
  expression  f(ctx, player) -> int       player: who "your_coins" refers to, or None
  selector    f(ctx, subject) -> [Player]  seat order, no duplicates
  statement   f(ctx, subject) -> None      subject: the players the block is about, or None
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

from raiders.dsl import ast
from raiders.dsl.checker import const_value
from raiders.dsl.library import KindInfo, Library
from raiders.dsl.vocabulary import ATOMS, FUNCTIONS, PER_PLAYER_ATOMS, ROOM_SHAPE, SELECTORS

from .state import Card, Player

NEVER = 10**9  # `never`: a strength no sum reaches

Expr = Callable[[Any, Optional[Player]], int]
Select = Callable[[Any, Optional[list]], list]
Stmt = Callable[[Any, Optional[list]], None]


class CompileError(Exception):
    """A card that checked clean but cannot be compiled (should not happen: report it)."""


# A tag's test: does the event's player count (ctx, player, owner of the handler's card)?
Pred = Callable[[Any, Player, Optional[Player]], bool]


@attrs.define(eq=False)
class Handler:
    sort: str  # replace | react
    event: str
    tag: Optional[str]
    body: Stmt
    words: str
    card: str
    pred: Optional[Pred] = None  # from the tag; None: every player


@attrs.define(eq=False)
class CardRules:
    """What a card adds to the game's bus while it is in play (docs/dsl.md, "Events").

    Each list keeps declaration order, the kind's rules before the card's."""

    value_mods: list[tuple[Optional[Card], Expr, Optional[Pred]]] = attrs.Factory(list)
    effect_mods: dict[str, list[tuple[Expr, Optional[Pred]]]] = attrs.Factory(dict)
    param_mods: dict[str, list[tuple[Expr, Optional[Pred]]]] = attrs.Factory(dict)
    replacers: dict[str, list[Handler]] = attrs.Factory(dict)
    reactors: dict[str, list[Handler]] = attrs.Factory(dict)

    @property
    def empty(self) -> bool:
        return not (self.value_mods or self.effect_mods or self.param_mods or self.replacers
                    or self.reactors)


@attrs.define(eq=False)
class CompiledRoom:
    id: str
    name: str
    kind: str
    kinds: tuple[str, ...]  # the kind and its ancestors, most specific first
    playable: dict[str, Expr]  # item -> the value it counts for here
    escapes: frozenset[str]
    unplayable: frozenset[str]
    rules: CardRules
    resolve: Stmt
    params: dict[str, Expr]
    words: list[str]  # the card in plain words, one line per rule
    any_item: Optional[Expr] = None  # `playable any as N`: what other items count for
    cards_each: int = 1  # how a room is played (ROOM_SHAPE): cards per player per round
    rounds: int = 1
    missing: int = 0  # what a card counts for when a player has none left
    source: str = ""
    own_bus: Any = None  # the bus when only this room's rules are in play (built once)

    @property
    def value_mods(self):
        return self.rules.value_mods


@attrs.define(eq=False)
class CompiledCard:
    """What a card that is not a room compiles to: its id, its name, the rules it adds to the
    bus while it is in play, and its plain words."""

    id: str
    name: str
    rules: CardRules = attrs.Factory(CardRules)
    words: list[str] = attrs.Factory(list)


@attrs.define(eq=False)
class CompiledCharacter(CompiledCard):
    coins: int = 0
    wounds: int = 0
    items: tuple[str, ...] = ()


@attrs.define(eq=False)
class CompiledItem(CompiledCard):
    ability: Optional[str] = None


@attrs.define(eq=False)
class CompiledFloor(CompiledCard):
    layout: str = ""


@attrs.define(eq=False)
class CompiledStatus(CompiledCard):
    """A status a player can have (`mark NAME`): its rules run for whoever has it."""


@attrs.define(eq=False)
class CompiledRule(CompiledCard):
    """A house rule: in play the whole game."""


def _join(words: list[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def _union(parts: list[Select]) -> Select:
    if len(parts) == 1:
        return parts[0]

    def union(ctx, subject):
        seen = set()
        for part in parts:
            for p in part(ctx, subject):
                seen.add(p.seat)
        return [p for p in ctx.participants if p.seat in seen]

    return union


class CardCompiler:
    """Compiles one card (its kind chain supplies defaults, rules and the procedure)."""

    def __init__(self, lib: Library, card: ast.CardDecl, strength_players: int):
        self.lib = lib
        self.card = card
        self.kind: KindInfo = lib.kinds[card.kind]
        self.strength_players = strength_players
        self.param_mods: dict[str, list[Expr]] = {}
        self._param_cache: dict[str, tuple[Any, str]] = {}
        self._compiling: set[str] = set()
        fields = {m.name: m.value for m in card.members if isinstance(m, ast.Field)}
        self.values: dict[str, Any] = {}
        for name, info in self.kind.params.items():
            self.values[name] = fields.get(name, info.default)
        self.types = {name: info.type for name, info in self.kind.params.items()}
        self.display = fields["name"].value if "name" in fields else card.id

    # ---- parameters
    def param(self, name: str) -> tuple[Any, str]:
        """The compiled value of a parameter (kind default or card field), with mods."""
        if name in self._param_cache:
            return self._param_cache[name]
        if name in self._compiling:
            raise CompileError(f"{self.card.id}: parameter `{name}` refers to itself")
        self._compiling.add(name)
        typ, value = self.types[name], self.values[name]
        if typ == "per_players":
            base, words = self.per_players(value)
        elif typ in ("int", "number"):
            base, words = self.expr(value)
        elif typ == "selector":
            names = value.values if isinstance(value, ast.ValueList) else (value,)
            sel = [self.selector(ast.Selector(n.name, n.span)) for n in names]
            base, words = _union([s for s, _ in sel]), _join([w for _, w in sel])
        elif typ == "table":
            base, words = self.table(value)
        elif typ == "effects":
            base, words = self.block(value)
        else:
            base, words = value, _plain_words(value)
        mods = self.param_mods.get(name)
        if mods and typ in ("per_players", "int", "number"):
            base = self._modified(base, mods)
            words = f"{words} (modified)"
        if typ in ("per_players", "int", "number") and name not in ROOM_SHAPE \
                and self.kind.role == "room" and name in _modified_from_outside(self.lib):
            base = _open_to_mods(name, base)
        self._compiling.discard(name)
        self._param_cache[name] = (base, words)
        return base, words

    @staticmethod
    def _modified(base: Expr, mods: list[Expr]) -> Expr:
        def modified(ctx, p):
            v = base(ctx, p)
            for m in mods:
                ctx.amount = v
                v = m(ctx, p)
            return v

        return modified

    def per_players(self, value) -> tuple[Expr, str]:
        if not isinstance(value, ast.PerPlayers):
            return self.expr(value)
        parts = [self.expr(v) for v in value.values]
        fns = [f for f, _ in parts]
        first = self.strength_players
        last = len(fns) - 1
        counts = "/".join(w for _, w in parts)
        words = f"{counts} for {first}..{first + last} players"
        if all(isinstance(v, ast.Num) for v in value.values):
            consts = [v.value for v in value.values]

            def const_per_players(ctx, p):
                i = ctx.n_players - first
                return consts[0 if i < 0 else (last if i > last else i)]

            return const_per_players, words

        def per_players(ctx, p):
            i = ctx.n_players - first
            return fns[0 if i < 0 else (last if i > last else i)](ctx, p)

        return per_players, words

    # ---- expressions
    def expr(self, e) -> tuple[Expr, str]:
        if isinstance(e, ast.Num):
            v = e.value
            return (lambda ctx, p: v), str(v)
        if isinstance(e, ast.Name):
            return self.name(e.name)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.Not):
            f, w = self.expr(e.operand)
            return (lambda ctx, p: 0 if f(ctx, p) else 1), f"not ({w})"
        if isinstance(e, ast.BinOp):
            return self.binop(e)
        raise CompileError(f"{self.card.id}: cannot compile {type(e).__name__}")

    def name(self, name: str) -> tuple[Expr, str]:
        if name in self.types:
            f, w = self.param(name)
            return f, w if self.types[name] != "per_players" else f"{name} ({w})"
        value = _ATOM_VALUES.get(name)
        if value is None:
            raise CompileError(f"{self.card.id}: unknown name `{name}`")
        return value, ATOMS[name].phrase

    def call(self, e: ast.Call) -> tuple[Expr, str]:
        spec = FUNCTIONS[e.func]
        if spec.params == ("selector",):
            sel, w = self.selector(ast.Selector(e.args[0].name, e.args[0].span))
            if e.func == "count":
                return (lambda ctx, p: len(sel(ctx, None))), f"the number of {w}"
            return _read_of(e.func, sel), f"the {e.func} of {w}"
        if spec.params in (("item",), ("status",)):
            what = e.args[0].name
            if e.func == "holds":
                return (lambda ctx, p: p.items.count(what) if p else 0), f"the {what}s they hold"
            if e.func == "played":
                return ((lambda ctx, p: 1 if p is not None and what in ctx.cards_of(p) else 0),
                        f"they played a {what}")
            return ((lambda ctx, p: p.mark_count(what) if p else 0),
                    f"their `{what}` count")
        args = [self.expr(a) for a in e.args]
        fs = [f for f, _ in args]
        ws = [w for _, w in args]
        if e.func == "half":
            f = fs[0]
            return (lambda ctx, p: f(ctx, p) // 2), f"half of {ws[0]}, rounded down"
        if e.func == "roll":
            f = fs[0]
            return (lambda ctx, p: ctx.roll(f(ctx, p), None)), f"a {ws[0]}-sided die (the table's)"
        if e.func == "your_roll":
            f = fs[0]
            return ((lambda ctx, p: ctx.roll(f(ctx, p), p) if p else 0),
                    f"their own {ws[0]}-sided die")
        a, b = fs
        if e.func == "min":
            return (lambda ctx, p: min(a(ctx, p), b(ctx, p))), f"the smaller of {ws[0]} and {ws[1]}"
        if e.func == "max":
            return (lambda ctx, p: max(a(ctx, p), b(ctx, p))), f"the larger of {ws[0]} and {ws[1]}"
        if e.func == "div":
            def div(ctx, p):
                d = b(ctx, p)
                return a(ctx, p) // d if d else 0

            return div, f"{ws[0]} divided by {ws[1]}, rounded down"
        raise CompileError(f"{self.card.id}: unknown function `{e.func}`")

    def binop(self, e: ast.BinOp) -> tuple[Expr, str]:
        a, wa = self.expr(e.left)
        b, wb = self.expr(e.right)
        op = e.op
        table: dict[str, tuple[Callable[[int, int], int], str]] = {
            "+": (lambda x, y: x + y, "plus"),
            "-": (lambda x, y: x - y, "minus"),
            "*": (lambda x, y: x * y, "times"),
            ">=": (lambda x, y: int(x >= y), "is at least"),
            "<=": (lambda x, y: int(x <= y), "is at most"),
            ">": (lambda x, y: int(x > y), "is more than"),
            "<": (lambda x, y: int(x < y), "is less than"),
            "==": (lambda x, y: int(x == y), "is"),
            "!=": (lambda x, y: int(x != y), "is not"),
        }
        if op == "and":
            return (lambda ctx, p: int(bool(a(ctx, p) and b(ctx, p)))), f"{wa} and {wb}"
        if op == "or":
            return (lambda ctx, p: int(bool(a(ctx, p) or b(ctx, p)))), f"{wa} or {wb}"
        fn, word = table[op]
        return (lambda ctx, p: fn(a(ctx, p), b(ctx, p))), f"{wa} {word} {wb}"

    # ---- selectors
    def selector(self, s: ast.Selector) -> tuple[Select, str]:
        name = s.name
        if s.arg is not None:
            return _selector_of(name, s.arg)
        if name in self.types and self.types[name] == "selector":
            return self.param(name)
        builtin = _SELECTOR_FUNCS.get(name)
        if builtin is None:
            raise CompileError(f"{self.card.id}: unknown selector `{name}`")
        return builtin, SELECTORS[name].phrase

    def selectors(self, sels) -> tuple[Select, str]:
        parts = [self.selector(s) for s in sels]
        return _union([f for f, _ in parts]), _join([w for _, w in parts])

    # ---- statements
    def block(self, b: ast.Block) -> tuple[Stmt, str]:
        parts = [self.stmt(s) for s in b.stmts]
        fns = tuple(f for f, _ in parts)
        words = "; ".join(w for _, w in parts) or "nothing happens"
        if len(fns) == 1:
            return fns[0], words

        def block(ctx, subject):
            for f in fns:
                f(ctx, subject)

        return block, words

    def traced_test(self, s: ast.If) -> Optional[Callable[[Any, bool], None]]:
        """For a traced game: a comparison's two sides as numbers, so that the narration
        can say `18 against 16`. The verdict is structural, not by name: an `unless` that
        guards an attack is a room beaten when it holds (a monster's rule, or any like it)."""
        c = s.cond
        if not isinstance(c, ast.BinOp) or c.op not in (">=", "<=", ">", "<", "==", "!="):
            return None
        left, wl = self.expr(c.left)
        right, wr = self.expr(c.right)
        guards_attack = any(isinstance(n, ast.Attack) for n in ast.walk(s.then))
        kind = "beaten" if guards_attack and s.negate else "test"
        op = c.op

        def test(ctx, passed: bool) -> None:
            ctx.trace.append(("test", "", (left(ctx, None), op, right(ctx, None), passed, kind,
                                           wl, wr)))

        return test

    def stmt(self, s) -> tuple[Stmt, str]:
        if isinstance(s, ast.Block):
            return self.block(s)
        if isinstance(s, ast.Effect):
            eff, w = self.effect(s)
            return (lambda ctx, subject: eff(ctx, subject) if subject else None), w
        if isinstance(s, ast.Apply):
            sel, ws = self.selectors(s.selectors)
            effs = [self.effect(e) for e in s.effects]
            fns = tuple(f for f, _ in effs)

            def apply(ctx, subject):
                players = sel(ctx, subject)
                if players:
                    for f in fns:
                        f(ctx, players)

            return apply, f"{ws}: " + ", ".join(w for _, w in effs)
        if isinstance(s, ast.Each):
            sel, ws = self.selectors(s.selectors)
            body, wb = self.block(s.body)
            return (lambda ctx, subject: body(ctx, sel(ctx, subject))), f"for {ws}: {wb}"
        if isinstance(s, ast.Attack):
            return self.attack(s)
        if isinstance(s, ast.Share):
            amount, wa = self.expr(s.amount)
            sel, ws = self.selectors(s.selectors)

            def share(ctx, subject):
                players = sel(ctx, subject)
                if not players:
                    return
                total = amount(ctx, None)
                each = total // len(players)
                if each > 0:
                    for p in players:
                        ctx.emit("gain", p, each)
                elif total > 0 and ctx.trace is not None:
                    # why nobody gets the chest: more sharers than coins
                    ctx.trace.append(("split", ",".join(p.name for p in players), total))

            return share, f"{ws} share {wa} coin(s) (rounded down; more sharers than coins: none)"
        if isinstance(s, ast.If):
            cond, wc = self.expr(s.cond)
            then, wt = self.block(s.then)
            other, wo = self.block(s.otherwise) if s.otherwise else (None, "")
            negate = s.negate
            if _per_player(s.cond):
                # A condition about "your" coins is asked of each player the block is about
                # (outside such a block, "your" coins read 0).
                def if_each(ctx, subject):
                    if subject is None:
                        if bool(cond(ctx, None)) != negate:
                            then(ctx, None)
                        elif other is not None:
                            other(ctx, None)
                        return
                    for p in subject:
                        if bool(cond(ctx, p)) != negate:
                            then(ctx, [p])
                        elif other is not None:
                            other(ctx, [p])

                words = f"for each of them, {'unless' if negate else 'if'} {wc}: {wt}"
                return if_each, words + (f"; otherwise {wo}" if other else "")

            test = self.traced_test(s)

            def if_(ctx, subject):
                passed = bool(cond(ctx, None))
                if ctx.trace is not None and test is not None:
                    test(ctx, passed)  # the narration's "18 against 16"
                if passed != negate:
                    then(ctx, subject)
                elif other is not None:
                    other(ctx, subject)

            words = f"{'unless' if negate else 'if'} {wc}: {wt}"
            return if_, words + (f"; otherwise {wo}" if other else "")
        if isinstance(s, ast.TableLookup):
            key, wk = self.expr(s.key)
            rows, wr = self.table_ref(s.table)

            def lookup(ctx, subject):
                row = rows.get(key(ctx, None))
                if row is not None:
                    row(ctx, subject)

            return lookup, f"by {wk}: {wr}"
        if isinstance(s, ast.ForEachValue):
            rows, wr = self.table_ref(s.table)

            def for_each_value(ctx, subject):
                for value in sorted(set(ctx.values_by_player.values())):
                    row = rows.get(value)
                    if row is not None:
                        group = [p for p in ctx.participants
                                 if ctx.values_by_player.get(p.seat) == value]
                        row(ctx, group)

            return for_each_value, f"whoever played each value: {wr}"
        if isinstance(s, ast.Do):
            body, wb = self.param(s.name.name)
            return body, wb
        if isinstance(s, ast.May):
            body, wb = self.block(s.body)
            question = s.prompt or wb
            card = self.card.id

            def may(ctx, subject):
                for p in list(subject or ()):
                    if ctx.ask(p, question, card):
                        body(ctx, [p])

            return may, f"each of them may choose: {wb}"
        if isinstance(s, ast.Row):
            raise CompileError(f"{self.card.id}: a row outside a table")
        raise CompileError(f"{self.card.id}: cannot compile {type(s).__name__}")

    def table_ref(self, ref) -> tuple[dict[int, Stmt], str]:
        if isinstance(ref, ast.Name):
            return self.param(ref.name)
        return self.table(ref)

    def table(self, block: ast.Block) -> tuple[dict[int, Stmt], str]:
        rows: dict[int, Stmt] = {}
        words = []
        for row in block.stmts:
            f, w = self.stmt(row.body)
            rows[row.key] = f
            words.append(f"{row.key} → {w}")
        return rows, "; ".join(words)

    def attack(self, s: ast.Attack) -> tuple[Stmt, str]:
        sel, ws = self.selectors(s.selectors)
        body, wb = self.block(s.body)

        def attack(ctx, subject):
            targets = [p for p in sel(ctx, subject) if p.seat not in ctx.escaped_seats]
            ctx.attack(targets, body)

        return attack, f"it attacks {ws}: {wb}"

    def effect(self, e: ast.Effect) -> tuple[Callable[[Any, list], None], str]:
        verb = e.verb
        if verb == "give":
            item = e.arg.name
            return ((lambda ctx, players: ctx.give(item, players)),
                    f"get a {item} (none if the supply is short)")
        if verb == "take":
            item = e.arg.name

            def take(ctx, players):
                for p in players:
                    if item in p.items:
                        ctx.emit("take", p, 0, item)

            return take, f"return a {item} to the supply (if they hold one)"
        if verb in ("steal", "steal_item"):
            source, wsrc = self.selectors(e.source)
            if verb == "steal":
                amount, wa = self.expr(e.arg)
                item, words = None, f"take {wa} coin(s) from {wsrc} (no more than they have)"
            else:
                amount, item = None, e.arg.name
                words = f"take a {item} from {wsrc} (if they hold one)"

            def steal(ctx, players):
                givers = source(ctx, players)
                for p in players:
                    for giver in givers:
                        if giver is not p:
                            n = amount(ctx, p) if amount is not None else 0
                            ctx.emit("steal", p, n, item, giver)

            return steal, words
        if verb in ("mark", "unmark"):
            status = e.arg.name
            count, wc = self.expr(e.count) if e.count is not None else ((lambda ctx, p: 1), "1")
            if verb == "unmark":
                def unmark(ctx, players):
                    for p in players:
                        ctx.unmark(p, status, count(ctx, p) if e.count is not None else None)

                return unmark, (f"lose {wc} `{status}`" if e.count is not None
                                else f"lose the status `{status}`")
            lasting, wl = self.expr(e.lasting) if e.lasting is not None else (None, "")
            floor = e.lasting_floor
            how_long = (f" for {wl} room(s)" if lasting is not None else
                        " until the end of the floor" if floor else "")

            def mark(ctx, players):
                for p in players:
                    rooms = lasting(ctx, p) if lasting is not None else None
                    ctx.emit("mark", p, count(ctx, p), status, (rooms, floor))

            return mark, f"get `{status}` ×{wc}{how_long}"
        if verb == "eliminate":
            def eliminate(ctx, players):
                for p in players:
                    ctx.emit("eliminate", p, 0)

            return eliminate, "are eliminated"
        amount, wa = self.expr(e.arg)
        words = {"wound": f"take {wa} wound(s)", "heal": f"heal {wa} wound(s)",
                 "gain": f"gain {wa} coin(s)", "lose": f"lose {wa} coin(s)"}[verb]

        def numeric(ctx, players):
            for p in players:
                ctx.emit(verb, p, amount(ctx, p))

        return numeric, words

    # ---- the whole card
    def members(self):
        """Rules from the kind chain (root first, extensions after each kind's own) then the
        card: later ones win or add."""
        yield from self.kind.members()
        yield from self.card.members

    def tag(self, sel: Optional[ast.Selector]) -> tuple[Optional[Pred], str]:
        """A handler's or modifier's `on SELECTOR`: which players the event must be about."""
        if sel is None:
            return None, ""
        if sel.arg is None and sel.name == "attacked":
            return (lambda ctx, p, owner: p.seat in ctx.attacked_seats), " on attacked"
        if sel.arg is None and sel.name == "you":
            return (lambda ctx, p, owner: p is owner), " on you"
        if sel.arg is None and sel.name == "others":
            return (lambda ctx, p, owner: owner is not None and p is not owner), " on others"
        pick, words = self.selector(sel)
        return (lambda ctx, p, owner: p in pick(ctx, [p])), f" on {words}"

    def compile_rules(self) -> tuple[CardRules, dict[str, Any]]:
        """Every rule of the card: what it adds to the bus, and (rooms) how it is played."""
        rules = CardRules()
        room: dict[str, Any] = {"playable": {}, "escapes": set(), "unplayable": set(),
                                "any_item": None, "resolve": None, "resolve_words": None}
        words: list[str] = []
        members = list(self.members())
        # Modifiers of the card's own parameters must be known before any is compiled.
        for m in members:
            if isinstance(m, ast.Modify) and m.target in self.types:
                f, _ = self.expr(m.expr)
                self.param_mods.setdefault(m.target, []).append(f)
        playable, escapes, unplayable = room["playable"], room["escapes"], room["unplayable"]
        for m in members:
            if isinstance(m, ast.Playable):
                f, w = self.expr(m.value) if m.value is not None else ((lambda ctx, p: 0), "0")
                if m.card.any_item:
                    room["any_item"] = f
                    words.append(f"Any item may be played here; it counts as {w} unless "
                                 "said otherwise.")
                    continue
                item = m.card.item
                playable[item] = f
                unplayable.discard(item)
                words.append(f"A {item} may be played here; it counts as {w}.")
            elif isinstance(m, ast.Unplayable):
                unplayable.add(m.card.item)
                playable.pop(m.card.item, None)
                escapes.discard(m.card.item)
                words.append(f"A {m.card.item} cannot be played here.")
            elif isinstance(m, ast.Escape):
                escapes.add(m.card.item)
                unplayable.discard(m.card.item)
                words.append(f"A player who plays a {m.card.item} escapes: their card does not "
                             "count and they cannot be attacked.")
            elif isinstance(m, ast.Modify):
                f, w = self.expr(m.expr)
                pred, wt = self.tag(m.tag)
                if m.target == "value":
                    ref = m.card
                    key: Optional[Card] = None if ref is None else (
                        ref.power if ref.power is not None else ref.item)
                    rules.value_mods.append((key, f, pred))
                    what = "card" if ref is None else str(ref)
                    words.append(f"Every {what} played{wt} counts as {w}.")
                elif m.target in self.types:
                    words.append(f"Its {m.target} becomes {w}.")
                elif m.target in _EFFECT_MODS:
                    rules.effect_mods.setdefault(m.target, []).append((f, pred))
                    words.append(f"Every {m.target}{wt} becomes {w}.")
                else:
                    rules.param_mods.setdefault(m.target, []).append((f, pred))
                    words.append(f"A room's {m.target} becomes {w}.")
            elif isinstance(m, ast.Handler):
                body, w = self.block(m.body)
                pred, wt = self.tag(m.tag)
                h = Handler(m.sort, m.event, str(m.tag) if m.tag else None, body, w,
                            self.card.id, pred)
                if m.sort == "replace":
                    rules.replacers.setdefault(m.event, []).append(h)
                    words.append(f"Instead of {m.event}{wt}: {w}.")
                else:
                    rules.reactors.setdefault(m.event, []).append(h)
                    words.append(f"After {m.event}{wt}: {w}.")
            elif isinstance(m, ast.Resolve):
                room["resolve"], room["resolve_words"] = self.block(m.body)
        room["words"] = words
        return rules, room

    def compile_room(self) -> CompiledRoom:
        rules, r = self.compile_rules()
        words = r["words"]
        params = {}
        for name, typ in self.types.items():
            if typ in ("int", "number", "per_players") and self.values[name] is not None \
                    and name not in ROOM_SHAPE:
                params[name] = self.param(name)[0]
        resolve = r["resolve"]
        if resolve is None:
            resolve = lambda ctx, subject: None  # noqa: E731 - a room with no procedure
        words.insert(0, f"When the room resolves: {r['resolve_words'] or 'nothing happens'}.")
        shape = {name: self.constant(name, default) for name, (_, default, _) in ROOM_SHAPE.items()}
        if shape["cards"] != 1 or shape["rounds"] != 1:
            words.insert(0, f"Each player plays {shape['cards']} card(s), values summed"
                         + (f", in {shape['rounds']} rounds (the room is fought once per round)"
                            if shape["rounds"] != 1 else "")
                         + f"; a card a player lacks counts {shape['missing']}.")
        for name in self.types:
            if self.values[name] is not None and self.types[name] not in ("table", "effects") \
                    and name not in ROOM_SHAPE:
                words.append(f"{name}: {self.param(name)[1]}.")
        return CompiledRoom(
            id=self.card.id, name=self.display, kind=self.card.kind,
            kinds=tuple(k.name for k in reversed(self.kind.chain)),
            playable=r["playable"], escapes=frozenset(r["escapes"]),
            unplayable=frozenset(r["unplayable"]), rules=rules, resolve=resolve, params=params,
            words=words, any_item=r["any_item"], cards_each=shape["cards"],
            rounds=shape["rounds"], missing=shape["missing"])

    def constant(self, name: str, default: Any = None) -> Any:
        v = self.values.get(name)
        if v is None:
            return default
        if const_value(v) is not None:
            return const_value(v)
        if isinstance(v, ast.Str):
            return v.value
        if isinstance(v, ast.Name):
            return None if v.name == "none" else v.name
        if isinstance(v, ast.ValueList):
            return tuple(x.name for x in v.values)
        raise CompileError(f"{self.card.id}: `{name}` must be a constant here")


def _plain_words(value) -> str:
    """Words for a parameter that is data, not behaviour (items, facing, ability, text)."""
    if isinstance(value, ast.Str):
        return value.value
    if isinstance(value, ast.Name):
        return value.name
    if isinstance(value, ast.ValueList):
        return ", ".join(_plain_words(v) for v in value.values)
    return "?"


_EFFECT_MODS = frozenset({"wound", "heal", "gain", "lose", "steal", "score"})


def _per_player(node) -> bool:
    """Whether an expression reads the player being affected (`your_coins`, `holds(key)`)."""
    if isinstance(node, ast.Name):
        return node.name in PER_PLAYER_ATOMS
    if isinstance(node, ast.Call) and FUNCTIONS.get(node.func) and FUNCTIONS[node.func].per_player:
        return True
    if attrs.has(type(node)):
        return any(_per_player(getattr(node, f.name)) for f in attrs.fields(type(node)))
    if isinstance(node, tuple):
        return any(_per_player(x) for x in node)
    return False


_OUTSIDE: dict[int, tuple[Library, frozenset[str]]] = {}


def _modified_from_outside(lib: Library) -> frozenset[str]:
    """The room numbers some card that is not a room modifies (`modify strength to …` on a
    status, a floor or a house rule): only those pay for a look-up when read."""
    known = _OUTSIDE.get(id(lib))
    if known is not None and known[0] is lib:
        return known[1]
    names: set[str] = set()
    for info in lib.kinds.values():
        if info.role != "room":
            names.update(m.target for m in info.members() if isinstance(m, ast.Modify))
    for card in lib.cards.values():
        info = lib.kinds.get(card.kind)
        if info is not None and info.role != "room":
            names.update(m.target for m in card.members if isinstance(m, ast.Modify))
    if len(_OUTSIDE) > 64:
        _OUTSIDE.clear()
    _OUTSIDE[id(lib)] = (lib, frozenset(names))
    return _OUTSIDE[id(lib)][1]


def _open_to_mods(name: str, base: Expr) -> Expr:
    """A room's number that cards in play elsewhere (a status, a floor, a house rule) may
    modify: `modify strength to amount + 3`. Costs one lookup when nothing does."""
    def param(ctx, p):
        v = base(ctx, p)
        mods = ctx.param_mods.get(name) if ctx.param_mods else None
        if mods:
            v = ctx.modified(mods, v, p)
        return v

    return param


def _read_of(what: str, sel: Select) -> Expr:
    """`coins(richest)`: one number of the players a selector picks (the largest; 0: none)."""
    if what == "value":
        def value_of(ctx, p):
            vb = ctx.values_by_player
            return max((vb.get(q.seat, 0) for q in sel(ctx, None)), default=0)

        return value_of

    def read(ctx, p):
        return max((getattr(q, what) for q in sel(ctx, None)), default=0)

    return read


def _selector_of(name: str, arg: str) -> tuple[Select, str]:
    if name == "holds":
        return ((lambda ctx, subject: [p for p in ctx.participants if arg in p.items]),
                f"whoever holds a {arg}")
    if name == "played":
        return ((lambda ctx, subject: [p for p in ctx.participants if arg in ctx.cards_of(p)]),
                f"whoever played a {arg}")
    return ((lambda ctx, subject: [p for p in ctx.participants if p.mark_count(arg)]),
            f"whoever has `{arg}`")


def _values_selector(pick: Callable[[list[int]], Optional[int]]) -> Select:
    def select(ctx, subject):
        target = pick(ctx.distinct_values)
        if target is None:
            return []
        vb = ctx.values_by_player
        return [p for p in ctx.participants if vb.get(p.seat) == target]

    return select


def _extreme(attr: str, best: Callable) -> Select:
    def select(ctx, subject):
        players = ctx.participants
        if not players:
            return []
        b = best(getattr(p, attr) for p in players)
        return [p for p in players if getattr(p, attr) == b]

    return select


_SELECTOR_FUNCS: dict[str, Select] = {
    "everyone": lambda ctx, subject: list(ctx.participants),
    "nobody": lambda ctx, subject: [],
    "highest": _values_selector(lambda v: v[-1] if v else None),
    "second": _values_selector(lambda v: v[-2] if len(v) > 1 else None),
    "lowest": _values_selector(lambda v: v[0] if v else None),
    "second_lowest": _values_selector(lambda v: v[1] if len(v) > 1 else None),
    "richest": _extreme("coins", max),
    "poorest": _extreme("coins", min),
    "least_wounded": _extreme("wounds", min),
    "most_wounded": _extreme("wounds", max),
    "attacked": lambda ctx, subject: list(ctx.attack_targets),
    "escaped": lambda ctx, subject: [p for p in ctx.participants if p.seat in ctx.escaped_seats],
    "them": lambda ctx, subject: list(subject or ()),
    "tied": lambda ctx, subject: _tied(ctx),
    "you": lambda ctx, subject: [p for p in ctx.participants if p is ctx.owner],
    "others": lambda ctx, subject: [p for p in ctx.participants
                                    if ctx.owner is not None and p is not ctx.owner],
    "first": lambda ctx, subject: [p for p in ctx.participants if p.seat == ctx.table.first],
}


# What each atom of the vocabulary reads (its meaning and phrase: dsl/vocabulary.py ATOMS).
_ATOM_VALUES: dict[str, Expr] = {
    "total": lambda ctx, p: ctx.total,
    "highest_value": lambda ctx, p: ctx.highest_value,
    "lowest_value": lambda ctx, p: ctx.lowest_value,
    "players": lambda ctx, p: ctx.n_players,
    "your_coins": lambda ctx, p: p.coins if p else 0,
    "your_wounds": lambda ctx, p: p.wounds if p else 0,
    "your_value": lambda ctx, p: ctx.values_by_player.get(p.seat, 0) if p else 0,
    "your_items": lambda ctx, p: len(p.items) if p else 0,
    "highest_card": lambda ctx, p: ctx.highest_card,
    "round": lambda ctx, p: ctx.round,
    "floor_number": lambda ctx, p: ctx.table.floor_index + 1,
    "death": lambda ctx, p: ctx.death,
    "never": lambda ctx, p: NEVER,
    "all_same": lambda ctx, p: ctx.all_same,
    "amount": lambda ctx, p: ctx.amount,
    "threat": lambda ctx, p: ctx.threat(),
}

# Every word the vocabulary declares has a behaviour here, and nothing else does: a word added
# to one side only is a programming error, caught when the compiler is first imported.
for _table, _words in ((_ATOM_VALUES, ATOMS), (_SELECTOR_FUNCS, SELECTORS)):
    if set(_table) != set(_words):
        raise RuntimeError(f"vocabulary and compiler disagree: {set(_table) ^ set(_words)}")


def _tied(ctx) -> list:
    vb = ctx.values_by_player
    counts: dict[int, int] = {}
    for v in vb.values():
        counts[v] = counts.get(v, 0) + 1
    return [p for p in ctx.participants if counts.get(vb.get(p.seat, -1), 0) > 1]


def _as_tuple(v) -> tuple:
    if v is None:
        return ()
    return (v,) if isinstance(v, str) else tuple(v)


def compile_card(lib: Library, card_id: str, strength_players: int = 3):
    """Compile one card of a checked library by its role."""
    card = lib.cards[card_id]
    cc = CardCompiler(lib, card, strength_players)
    role = cc.kind.role
    if role == "room":
        return cc.compile_room()
    rules, r = cc.compile_rules()
    words = r["words"]
    if role == "character":
        return CompiledCharacter(card_id, cc.display, rules, words,
                                 coins=cc.constant("coins", 0), wounds=cc.constant("wounds", 0),
                                 items=_as_tuple(cc.constant("items")))
    if role == "item":
        return CompiledItem(card_id, cc.display, rules, words, ability=cc.constant("ability"))
    if role == "floor":
        return CompiledFloor(card_id, cc.display, rules, words, layout=cc.constant("layout"))
    if role == "status":
        return CompiledStatus(card_id, cc.display, rules, words)
    return CompiledRule(card_id, cc.display, rules, words)
