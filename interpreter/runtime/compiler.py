"""AST → behaviour. Each card is compiled once, at load time, to Python source: one small
module per card (codegen.py), compiled with `compile()` once. `raiders show --python CARD`
prints it. Running a room never walks the AST, and a card's rules run as plain Python.

Every compile method returns a pair: the code, and the same thing in plain words (`raiders
show` prints the words, so they always say what the code does). In generated code `ctx` is a
`raiders.interpreter.runtime.room.Context`:
  expression  code with a value, reading `ctx` and a player variable ("None": nobody)
  selector    code giving a list of players, seat order, no duplicates
  statement   lines about the players in a variable (the block's `them`; "None": nobody)
What a card compiles to (`CompiledRoom`, `CardRules`, …, and the shapes of their functions)
is the contract in compiled.py, which the bus depends on instead of this module.
"""
from __future__ import annotations

import contextlib
import operator
import os
import re
from functools import reduce
from itertools import pairwise
from typing import Any, Callable, Iterator, Optional

import attrs

from raiders.dsl import ast
from raiders.dsl.ast import const_value
from raiders.dsl.diagnostics import an
from raiders.dsl.library import KindInfo, Library
from raiders.dsl.vocabulary import (
    ATOMS,
    FUNCTIONS,
    PLACES,
    ROOM_SHAPE,
    SELECTORS,
    as_selector,
    reads_a_player,
)

from .codegen import INDENT, CardSource, indent
from .compiled import (
    NEVER,
    CardRules,
    CompiledCharacter,
    CompiledFloor,
    CompiledItem,
    CompiledRoom,
    CompiledRule,
    CompiledStatus,
    Handler,
)
from .legality import may_put_down
from .reads import Reads, card_reads
from .state import Card

# Python's parser reads at most 200 nested brackets and 100 indentations, and its compiler takes
# 20 nested loops in one function; card text may nest 1,500 deep (dsl/parser.py MAX_NESTING).
# Code nested deeper than these bounds goes into a function of its own (`deep`, `nested`). The
# cards of the rulesets and the example mods nest 5 brackets and 7 indentations at most: their
# code never moves.
MAX_BRACKETS = 50
MAX_INDENT = 10


class CompileError(Exception):
    """A card that checked clean but cannot be compiled (should not happen: report it)."""


def _face(kind: KindInfo) -> str:
    """The kind a room is dealt as: a derived kind that replaces its parent's procedure
    (`kind mimic : treasure { resolve { attack … } }`) is that parent in disguise, and the
    table sees the parent until the room is played; any other kind is what it says."""
    for parent, child in pairwise(kind.chain):
        if any(isinstance(m, ast.Resolve) for m in child.members):
            return parent.name
    return kind.decl.name


def _join(words: list[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def _lit(value: Any) -> str:
    """A card's data as a Python literal in generated code (never as code)."""
    return repr(value)


# What each selector of the vocabulary is, as generated code: `s` is the variable holding the
# players the block is about ("None" outside any block). Words: dsl/vocabulary.py SELECTORS.
_SELECTOR_SOURCE: dict[str, Callable[[str], str]] = {
    "everyone": lambda s: "list(ctx.participants)",
    "nobody": lambda s: "[]",
    "highest": lambda s: "players_valued(ctx, ctx.highest_value)",
    "second": lambda s: "players_of_value(ctx, -2)",
    "lowest": lambda s: "players_valued(ctx, ctx.lowest_value)",
    "second_lowest": lambda s: "players_of_value(ctx, 1)",
    "richest": lambda s: "extreme(ctx, 'coins', True)",
    "poorest": lambda s: "extreme(ctx, 'coins', False)",
    "least_wounded": lambda s: "extreme(ctx, 'wounds', False)",
    "most_wounded": lambda s: "extreme(ctx, 'wounds', True)",
    "most_items": lambda s: "extreme_items(ctx, True)",
    "fewest_items": lambda s: "extreme_items(ctx, False)",
    "attacked": lambda s: "list(ctx.attack_targets)",
    "escaped": lambda s: "[q for q in ctx.participants if q.seat in ctx.escaped_seats]",
    "them": lambda s: "[]" if s == "None" else f"list({s})",
    "tied": lambda s: "tied(ctx)",
    "you": lambda s: "[q for q in ctx.participants if q is ctx.owner]",
    "others": lambda s: ("[q for q in ctx.participants "
                         "if ctx.owner is not None and q is not ctx.owner]"),
    "first": lambda s: "[q for q in ctx.participants if q.seat == ctx.table.first]",
    "left": lambda s: "neighbour(ctx, ctx.owner, 1)",
    "right": lambda s: "neighbour(ctx, ctx.owner, -1)",
    "your_left": lambda s: "[]" if s == "None" else f"neighbours(ctx, {s}, 1)",
    "your_right": lambda s: "[]" if s == "None" else f"neighbours(ctx, {s}, -1)",
}

# The parameter of a generated modifier or parameter function, `f(ctx, p)`: the player a number
# is read for, or None. A room's parameter is read for nobody (`strength`, a share's `chest`),
# and so are the modifiers of it: there every per-player number reads 0 (docs/dsl.md "modify").
MAYBE_NOBODY = "p"


def _of(p: str, code: str) -> str:
    """Code reading the player in variable `p` (`p.coins`): 0 for nobody ("None"); guarded in a
    function that may be called for nobody, where the read is not worked out at all (a
    `your_roll` there rolls no die)."""
    if p == "None":
        return "0"
    if p == MAYBE_NOBODY:
        return f"({code} if p is not None else 0)"
    return code


# What each atom of the vocabulary reads, as generated code: `p` is the variable holding the
# player being affected ("None": nobody). Meaning and words: dsl/vocabulary.py ATOMS.
_ATOM_SOURCE: dict[str, Callable[[str], str]] = {
    "total": lambda p: "ctx.total",
    "highest_value": lambda p: "ctx.highest_value",
    "lowest_value": lambda p: "ctx.lowest_value",
    "players": lambda p: "ctx.n_players",
    "your_coins": lambda p: _of(p, f"{p}.coins"),
    "your_wounds": lambda p: _of(p, f"{p}.wounds"),
    "your_value": lambda p: _of(p, f"ctx.values_by_player.get({p}.seat, 0)"),
    "your_items": lambda p: _of(p, f"len({p}.items)"),
    "highest_card": lambda p: "ctx.highest_card",
    "round": lambda p: "ctx.round",
    "floor_number": lambda p: "(ctx.table.floor_index + 1)",
    "room_number": lambda p: "ctx.table.room_number",
    "rooms_played": lambda p: "ctx.table.rooms_done",
    "death": lambda p: "ctx.death",
    "never": lambda p: str(NEVER),
    "all_same": lambda p: "ctx.all_same",
    "amount": lambda p: "ctx.amount",
    "threat": lambda p: "ctx.threat()",
    "your_hand": lambda p: _of(p, f"len(ctx.hand_of({p}))"),
    "your_best_card": lambda p: _of(p, f"max(ctx.hand_of({p}), default=0)"),
    "your_best_played": lambda p: _of(p, f"max((c for c in (1, 2, 3, 4, 5) if c not in "
                                         f"ctx.hand_of({p})), default=0)"),
}

_COMPARE = {">=": "is at least", "<=": "is at most", ">": "is more than", "<": "is less than",
            "==": "is", "!=": "is not"}
_ARITH = {"+": "plus", "-": "minus", "*": "times"}
# How tightly each operator binds, as the grammar reads it: words of an operand that binds
# less tightly than its operator get parentheses (`amount minus (their wounds is at least 3)`)
_BINDS = {"or": 1, "and": 2, **{op: 3 for op in _COMPARE}, "+": 4, "-": 4, "*": 5}


def _grouped(operand, words: str, op: str, right: bool) -> str:
    """An operand's words, in parentheses where reading them flat would change the sum."""
    if isinstance(operand, ast.BinOp):
        inner, outer = _BINDS[operand.op], _BINDS[op]
        if inner < outer or (right and inner == outer and op in ("-", *_COMPARE)):
            return f"({words})"
    return words


@attrs.define(eq=False)
class _Pending:
    """What a card adds to the bus, by generated function name, until the source is built."""

    value_mods: list = attrs.Factory(list)  # (key, fn name, pred name)
    effect_mods: dict = attrs.Factory(dict)  # event -> [(fn name, pred name)]
    param_mods: dict = attrs.Factory(dict)
    # (sort, event, tag, fn name, words, pred name, card it is about, victim pred name,
    #  what the tag needs: Handler.needs)
    handlers: list = attrs.Factory(list)

    def bind(self, funcs: dict[str, Callable], card_id: str) -> CardRules:
        def fn(name):
            return None if name is None else funcs[name]

        rules = CardRules()
        rules.value_mods = [(key, fn(f), fn(pred)) for key, f, pred in self.value_mods]
        for into, pending in ((rules.effect_mods, self.effect_mods),
                              (rules.param_mods, self.param_mods)):
            for target, mods in pending.items():
                into[target] = [(fn(f), fn(pred)) for f, pred in mods]
        for sort, event, tag, body, words, pred, about, victim, needs in self.handlers:
            h = Handler(sort, event, tag, fn(body), words, card_id, fn(pred), about, fn(victim),
                        needs)
            table = rules.replacers if sort == "replace" else rules.reactors
            table.setdefault(event, []).append(h)
        return rules


class CardCompiler:
    """Compiles one card (its kind chain supplies defaults, rules and the procedure) into
    Python source, one function per procedure, handler, modifier and parameter."""

    def __init__(self, lib: Library, card: ast.CardDecl, strength_players: int):
        self.lib = lib
        self.card = card
        self.kind: KindInfo = lib.kinds[card.kind]
        self.strength_players = strength_players
        self.src = CardSource(card.id)
        self.them = "None"  # the variable holding the players the current block is about
        self.param_mods: dict[str, list[ast.Expr]] = {}
        self._words: dict[str, str] = {}
        self._param_fns: dict[str, str] = {}
        self._do_fns: dict[tuple[str, bool], str] = {}
        self._compiling: set[str] = set()
        fields = {m.name: m.value for m in card.members if isinstance(m, ast.Field)}
        self.values: dict[str, Any] = {}
        for name, info in self.kind.params.items():
            self.values[name] = fields.get(name, info.default)
        self.types = {name: info.type for name, info in self.kind.params.items()}
        self.display = display_name(card)
        self._outside = (self.kind.role == "room" and _modified_from_outside(lib)) or frozenset()

    def reads(self) -> Reads:
        """What the card's rules may read and take (reads.py), from its tree: the kind
        chain's rules and the card's, and its parameters' values."""
        return card_reads(self.members(), {name: (self.types[name], self.values[name])
                                           for name in self.types})

    def item_word(self, item_id: str) -> str:
        """An item as a person reads it: the name on its card (its id when no card says)."""
        card = self.lib.cards.get(item_id)
        return display_name(card) if card is not None else item_id

    def card_word(self, ref: ast.CardRef) -> str:
        """A card a rule names (an item, `power 5`), as a person reads it."""
        return self.item_word(ref.item) if ref.item is not None else str(ref)

    # ---- parameters: numbers become a function when something modifies them, else inline
    # code; selectors, tables and blocks are written out where they are used.
    @contextlib.contextmanager
    def expanding(self, name: str) -> Iterator[None]:
        """While a parameter's value is being compiled: met again inside, it refers to itself."""
        self._compiling.add(name)
        try:
            yield
        finally:
            self._compiling.discard(name)

    def _guard(self, name: str) -> None:
        if name in self._compiling:
            raise CompileError(f"{self.card.id}: parameter `{name}` refers to itself")

    def param_words(self, name: str) -> str:
        """A parameter in plain words (kind default or card field; `(modified)` if a rule of
        the card modifies it)."""
        if name in self._words:
            return self._words[name]
        self._guard(name)
        with self.expanding(name):
            with self.src.dry():  # the words only: the code is written where it is used
                typ, value = self.types[name], self.values[name]
                if typ == "per_players":
                    words = self.per_players(value, "None")[1]
                elif typ in ("int", "number"):
                    words = self.expr(value, "None")[1]
                elif typ == "selector":
                    words = _join([self.selector(ast.Selector(n.name, n.span), "None")[1]
                                   for n in _names(value)])
                elif typ == "table":
                    words = "; ".join(f"{row.key} → {self.stmt(row.body, 's')[1]}"
                                      for row in value.stmts)
                elif typ == "effects":
                    words = self.block(value, "s")[1]
                else:
                    words = _plain_words(value)
            if self.param_mods.get(name) and typ in ("per_players", "int", "number"):
                words = f"{words} (modified)"
        self._words[name] = words
        return words

    def number_param(self, name: str, p: str) -> str:
        """Code for a number parameter's value, for player variable `p`."""
        self.param_words(name)  # checks for cycles before any code is written
        if name in self._param_fns:
            return f"{self._param_fns[name]}(ctx, {p})"
        mods = self.param_mods.get(name)
        outside = name in self._outside and name not in ROOM_SHAPE
        # A number that reads other parameters is one function, called where it is read: written
        # out at each use, `b = a + a`, `c = b + b`, … would double the code at each step.
        if not mods and not outside and not self.reads_params(name):
            with self.expanding(name):
                return self._number_base(name, p)
        return f"{self.param_function(name)}(ctx, {p})"

    def reads_params(self, name: str) -> bool:
        """Whether a parameter's value reads another parameter of the card."""
        return any(isinstance(n, ast.Name) and n.name in self.types and n.name != name
                   for n in ast.walk(self.values[name]))

    def _number_base(self, name: str, p: str) -> str:
        value = self.values[name]
        if self.types[name] == "per_players":
            return self.per_players(value, p)[0]
        return self.expr(value, p)[0]

    def param_function(self, name: str) -> str:
        """`param_NAME(ctx, p)`: the parameter's value, its own `modify` rules applied in order
        (`amount` is the value so far), then any card in play elsewhere that modifies it.
        Reading it leaves `amount` (and the owner `you` reads) as they were: a handler's or a
        modifier's `amount` read after `strength` is still its own (docs/dsl.md "modify")."""
        if name in self._param_fns:
            return self._param_fns[name]
        self.param_words(name)
        with self.expanding(name):
            with self.src.kept():  # remembered, even when first met in a pass for words
                base = self._number_base(name, "p")
                mods = [self.expr(mod, "p")[0] for mod in self.param_mods.get(name, ())]
        outside = name in self._outside and name not in ROOM_SHAPE
        if not mods and not outside:  # nothing modifies it
            body = [f"return {base}"]
        else:
            body = ["saved = ctx.amount, ctx.owner", f"v = {base}"]
            for mod in mods:
                body += ["ctx.amount = v", f"v = {mod}"]
            if outside:
                body += [f"mods = ctx.param_mods.get({_lit(name)}) if ctx.param_mods else None",
                         "if mods:", "    v = ctx.modified(mods, v, p)"]
            body += ["ctx.amount, ctx.owner = saved", "return v"]
        with self.src.kept():
            fn = self._param_fns[name] = self.src.define(f"param_{name}", "ctx, p", body)
        return fn

    def do_function(self, name: str, for_nobody: bool) -> str:
        """`do_NAME(ctx, subject)`: a block parameter that does other block parameters, as one
        function (written out at each `do`, a chain of them doubled the code at each step).
        For nobody (`do` at the top of a procedure) it is written for nobody, as inline."""
        key = (name, for_nobody)
        if key in self._do_fns:
            return self._do_fns[key]
        with self.expanding(name):
            with self.src.kept():
                lines = self.block(self.values[name], "None" if for_nobody else "subject")[0]
                fn = self._do_fns[key] = self.src.define(f"do_{name}", "ctx, subject", lines)
        return fn

    def per_players(self, value, p: str) -> tuple[str, str]:
        if not isinstance(value, ast.PerPlayers):
            return self.expr(value, p)
        parts = [self.expr(v, p) for v in value.values]
        first = self.strength_players
        last = len(parts) - 1
        counts = "/".join(w for _, w in parts)
        words = f"{counts} for {first}..{first + last} players"
        if last == 0:
            return parts[0][0], words
        if all(isinstance(v, ast.Num) for v in value.values):
            consts = ", ".join(str(v.value) for v in value.values if isinstance(v, ast.Num))
            return f"({consts})[min(max(ctx.n_players - {first}, 0), {last})]", words
        # only the count's own number is worked out (it may roll a die)
        code = parts[last][0]
        for i in range(last - 1, -1, -1):
            test = f"ctx.n_players <= {first}" if i == 0 else f"ctx.n_players == {first + i}"
            code = f"({parts[i][0]} if {test} else {code})"
        return code, words

    # ---- expressions: code with a value, for player variable `p`
    def expr(self, e, p: str) -> tuple[str, str]:
        code, words = self._expr(e, p)
        return self._shallow(code, p), words

    def _shallow(self, code: str, p: str) -> str:
        """Code nested deeper than MAX_BRACKETS goes into a function of its own, called where
        it stood: the same operands, worked out in the same order, as often. Its only
        variables are `ctx` and the player's (every other name is bound inside it)."""
        if len(code) <= 2 * MAX_BRACKETS or _brackets(code) <= MAX_BRACKETS:
            return code
        params, args = ["ctx", "p" if p == "None" else p], ["ctx", p]
        them = self.them  # `count(them)` reads the block's players: passed in too
        if them not in ("None", p) and re.search(rf"\b{re.escape(them)}\b", code):
            params.append(them)
            args.append(them)
        fn = self.src.define("deep", ", ".join(params), [f"return {code}"],
                             doc="nested deeper than Python reads in one expression")
        return f"{fn}({', '.join(args)})"

    def _expr(self, e, p: str) -> tuple[str, str]:
        if isinstance(e, ast.Num):
            return str(e.value), str(e.value)
        if isinstance(e, ast.Name):
            return self.name(e.name, p)
        if isinstance(e, ast.Call):
            return self.call(e, p)
        if isinstance(e, ast.Not):
            c, w = self.cond(e.operand, p)
            return f"(0 if {c} else 1)", f"not ({w})"
        if isinstance(e, ast.BinOp):
            return self.binop(e, p)
        raise CompileError(f"{self.card.id}: cannot compile {type(e).__name__}")

    def cond(self, e, p: str) -> tuple[str, str]:
        """Code for an expression read as true or false (`if`, `unless`, `and`, `not`)."""
        code, words = self._cond(e, p)
        return self._shallow(code, p), words

    def _cond(self, e, p: str) -> tuple[str, str]:
        if isinstance(e, ast.BinOp) and e.op in _COMPARE:
            a, wa = self.expr(e.left, p)
            b, wb = self.expr(e.right, p)
            return f"({a} {e.op} {b})", f"{wa} {_COMPARE[e.op]} {wb}"
        if isinstance(e, ast.BinOp) and e.op in ("and", "or"):
            a, wa = self.cond(e.left, p)
            b, wb = self.cond(e.right, p)
            return f"({a} {e.op} {b})", \
                f"{_grouped(e.left, wa, e.op, False)} {e.op} {_grouped(e.right, wb, e.op, True)}"
        code, words = self.expr(e, p)
        return f"({code} != 0)", words

    def name(self, name: str, p: str) -> tuple[str, str]:
        if name in self.types:
            code = self.number_param(name, p)
            if self.reads_params(name):  # its own words are on its own line (`show`)
                return code, name
            w = self.param_words(name)
            return code, w if self.types[name] != "per_players" else f"{name} ({w})"
        source = _ATOM_SOURCE.get(name)
        if source is None:
            raise CompileError(f"{self.card.id}: unknown name `{name}`")
        return source(p), ATOMS[name].phrase

    def call(self, e: ast.Call, p: str) -> tuple[str, str]:
        spec = FUNCTIONS[e.func]
        if spec.params == ("selector",):
            chosen = as_selector(e.args[0])
            if chosen is None:
                raise CompileError(f"{self.card.id}: `{e.func}` needs a selector")
            sel, w = self.selector(chosen, self.them)
            if e.func == "count":
                return f"len({sel})", f"the number of {w}"
            if e.func == "among":
                return _of(p, f"(1 if {p} in {sel} else 0)"), f"they are among {w}"
            if e.func == "value":
                read = "ctx.values_by_player.get(q.seat, 0)"
            else:
                read = f"q.{e.func}"
            return f"max(({read} for q in {sel}), default=0)", f"the {e.func} of {w}"
        if spec.place and len(e.args) == len(spec.params) + 1:  # marked(wear, this_card)
            what, place = e.name_arg(0), e.name_arg(1)
            return (f"ctx.marked_at({_lit(place)}, {_lit(self.card.id)}, {_lit(what)})",
                    f"the `{what}` count of {PLACES[place].phrase}")
        if spec.params in (("item",), ("status",)):
            what = e.name_arg(0)
            if e.func == "holds":
                return (_of(p, f"{p}.items.count({_lit(what)})"),
                        f"the {self.item_word(what)} items they hold")
            if e.func == "supply":
                return (f"ctx.supply.get({_lit(what)}, 0)",
                        f"the {self.item_word(what)} items in the supply")
            if e.func == "played":
                return (_of(p, f"(1 if {_lit(what)} in ctx.cards_of({p}) else 0)"),
                        f"they played a {what}")
            return _of(p, f"{p}.mark_count({_lit(what)})"), f"their `{what}` count"
        args = [self.expr(a, p) for a in e.args]
        ws = [w for _, w in args]
        a = args[0][0]
        if e.func == "half":
            return f"({a} // 2)", f"half of {ws[0]}, rounded down"
        if e.func == "roll":
            return f"ctx.roll({a}, None)", f"a {ws[0]}-sided die (the table's)"
        if e.func == "your_roll":
            return _of(p, f"ctx.roll({a}, {p})"), f"their own {ws[0]}-sided die"
        if e.func == "in_hand":
            return (_of(p, f"(1 if {a} in ctx.hand_of({p}) else 0)"),
                    f"they have power card {ws[0]} in hand")
        b = args[1][0]
        if e.func == "min":
            return f"min({a}, {b})", f"the smaller of {ws[0]} and {ws[1]}"
        if e.func == "max":
            return f"max({a}, {b})", f"the larger of {ws[0]} and {ws[1]}"
        if e.func == "div":
            d = self.src.var("d")
            # the divisor first, as the rules read it; by 0 gives 0
            return (f"(({a}) // {d} if ({d} := {b}) else 0)",
                    f"{ws[0]} divided by {ws[1]}, rounded down")
        raise CompileError(f"{self.card.id}: unknown function `{e.func}`")

    def binop(self, e: ast.BinOp, p: str) -> tuple[str, str]:
        if e.op in _COMPARE or e.op in ("and", "or"):
            c, w = self.cond(e, p)
            return f"(1 if {c} else 0)", w
        a, wa = self.expr(e.left, p)
        b, wb = self.expr(e.right, p)
        return f"({a} {e.op} {b})", (f"{_grouped(e.left, wa, e.op, False)} {_ARITH[e.op]} "
                                     f"{_grouped(e.right, wb, e.op, True)}")

    # ---- selectors: code giving a list of players, seat order, no duplicates
    def selector(self, s: ast.Selector, subj: str) -> tuple[str, str]:
        name = s.name
        if s.arg is not None:
            return _selector_of(name, s.arg)
        if name in self.types and self.types[name] == "selector":
            words = self.param_words(name)
            with self.expanding(name):
                code = self.selectors([ast.Selector(n.name, n.span)
                                       for n in _names(self.values[name])], subj)[0]
            return code, words
        source = _SELECTOR_SOURCE.get(name)
        if source is None:
            raise CompileError(f"{self.card.id}: unknown selector `{name}`")
        return source(subj), SELECTORS[name].phrase

    def selectors(self, sels, subj: str) -> tuple[str, str]:
        parts = [self.selector(s, subj) for s in sels]
        words = _join([w for _, w in parts])
        if len(parts) == 1:
            return parts[0][0], words
        return f"union(ctx, [{', '.join(c for c, _ in parts)}])", words

    # ---- statements: lines of code about the players in variable `subj` ("None": nobody)
    def block(self, b: ast.Block, subj: str) -> tuple[list[str], str]:
        lines: list[str] = []
        words = []
        for s in b.stmts:
            code, w = self.stmt(s, subj)
            lines += code
            words.append(w)
        return lines, "; ".join(words) or "nothing happens"

    def traced_test(self, s: ast.If, passed: str) -> tuple[list[str], str]:
        """For a traced game: a comparison's two sides as numbers, so that the narration
        can say `18 against 16`. The verdict is structural, not by name: an `unless` that
        guards an attack is a room beaten when it holds (a monster's rule, or any like it).
        The lines (none for a condition that is not a comparison) and the condition's words."""
        c = s.cond
        if not isinstance(c, ast.BinOp) or c.op not in _COMPARE:
            return [], ""
        left, wl = self.expr(c.left, "None")
        right, wr = self.expr(c.right, "None")
        guards_attack = any(isinstance(n, ast.Attack) for n in ast.walk(s.then))
        kind = "beaten" if guards_attack and s.negate else "test"
        a, b = self.src.var("left"), self.src.var("right")
        entry = f"({a}, {_lit(c.op)}, {b}, {passed}, {_lit(kind)}, {_lit(wl)}, {_lit(wr)})"
        return [f"{a} = {left}", f"{b} = {right}", f"{passed} = {a} {c.op} {b}",
                "if ctx.trace is not None:  # the narration's `18 against 16`",
                f"    ctx.trace.append(('test', '', {entry}))"], \
            f"{wl} {_COMPARE[c.op]} {wr}"

    def stmt(self, s, subj: str) -> tuple[list[str], str]:
        outer, self.them = self.them, subj  # `count(them)` in the statement counts these
        try:
            lines, words = self._stmt(s, subj)
        finally:
            self.them = outer
        return self._flat(lines, subj), words

    def _flat(self, lines: list[str], subj: str) -> list[str]:
        """A statement indented deeper than MAX_INDENT goes into a function of its own, called
        where it stood. Its only variables are `ctx` and the block's players (`subj`): every
        other name it reads, it binds."""
        if not lines or max(len(line) - len(line.lstrip(" ")) for line in lines) \
                <= MAX_INDENT * len(INDENT):
            return lines
        fn = self.src.define("nested", f"ctx, {'subject' if subj == 'None' else subj}", lines,
                             doc="nested deeper than Python takes in one function")
        return [f"{fn}(ctx, {subj})"]

    def _stmt(self, s, subj: str) -> tuple[list[str], str]:
        if isinstance(s, ast.Block):
            return self.block(s, subj)
        if isinstance(s, ast.Effect):
            lines, w = self.effect(s, subj)
            return ([] if subj == "None" else [f"if {subj}:", *indent(lines)]), w
        if isinstance(s, ast.Apply) and s.selectors[0].arg is None \
                and s.selectors[0].name in PLACES:
            return self.place_apply(s)
        if isinstance(s, ast.Apply):
            sel, ws = self.selectors(s.selectors, subj)
            group = self.src.var("group")
            lines, words = [f"{group} = {sel}", f"if {group}:"], []
            for e in s.effects:
                code, w = self.effect(e, group)
                lines += indent(code)
                words.append(w)
            return lines, f"{ws}: " + ", ".join(words)
        if isinstance(s, ast.Each):
            sel, ws = self.selectors(s.selectors, subj)
            group = self.src.var("each")
            body, wb = self.block(s.body, group)
            return [f"{group} = {sel}", *body], f"for {ws}: {wb}"
        if isinstance(s, ast.Attack):
            return self.attack(s, subj)
        if isinstance(s, ast.Share):
            return self.share(s, subj)
        if isinstance(s, ast.If):
            return self.if_(s, subj)
        if isinstance(s, ast.TableLookup):
            key, wk = self.expr(s.key, "None")
            k = self.src.var("row")
            rows, wr = self.table_ref(s.table, subj)
            lines = [f"{k} = {key}", *self._rows(k, rows)]
            return lines, f"by {wk}: {wr}"
        if isinstance(s, ast.ForEachValue):
            value, group = self.src.var("value"), self.src.var("group")
            rows, wr = self.table_ref(s.table, group)
            pick = f"{group} = players_valued(ctx, {value})"
            lines = [f"for {value} in ctx.distinct_values:",
                     *indent(self._rows(value, {k: [pick, *body] for k, body in rows.items()}))]
            return lines, f"whoever played each value: {wr}"
        if isinstance(s, ast.AtOnce):
            body, wb = self.block(s.body, "subject")
            fn = self.src.define("at_once", "ctx, subject", body,
                                 doc="read first, then every effect together")
            return [f"at_once(ctx, {fn}, {subj})"], f"all at once (the table read first): {wb}"
        if isinstance(s, ast.Do) and s.name.name in PLACES and s.name.name not in self.types:
            name = s.name.name
            return [f"ctx.do_room({_lit(name)})"], \
                f"{PLACES[name].phrase} is resolved here, as its card says"
        if isinstance(s, ast.Do):
            name = s.name.name
            if self.reads_params(name):  # one function, called here (see number_param)
                self.param_words(name)  # checks for cycles before any code is written
                fn = self.do_function(name, subj == "None")
                return [f"{fn}(ctx, {subj})"], f"`{name}`"
            phrase = self.param_words(name)
            with self.expanding(name):
                lines = self.block(self.values[name], subj)[0]
            return lines, phrase
        if isinstance(s, ast.May):
            return self.may(s, subj)
        if isinstance(s, ast.Row):
            raise CompileError(f"{self.card.id}: a row outside a table")
        raise CompileError(f"{self.card.id}: cannot compile {type(s).__name__}")

    @staticmethod
    def _rows(key: str, rows: dict[int, list[str]]) -> list[str]:
        lines = []
        for i, (value, body) in enumerate(rows.items()):
            lines.append(f"{'if' if i == 0 else 'elif'} {key} == {value}:")
            lines += indent(body or ["pass"])
        return lines

    def table_ref(self, ref, subj: str) -> tuple[dict[int, list[str]], str]:
        if isinstance(ref, ast.Name):
            name = ref.name
            words = self.param_words(name)
            with self.expanding(name):
                rows = self.table(self.values[name], subj)[0]
            return rows, words
        return self.table(ref, subj)

    def table(self, block: ast.Block, subj: str) -> tuple[dict[int, list[str]], str]:
        rows: dict[int, list[str]] = {}
        words = []
        for row in block.stmts:
            if not isinstance(row, ast.Row):
                raise CompileError(f"{self.card.id}: a table holds only rows")
            code, w = self.stmt(row.body, subj)
            rows[row.key] = code
            words.append(f"{row.key} → {w}")
        return rows, "; ".join(words)

    def share(self, s: ast.Share, subj: str) -> tuple[list[str], str]:
        amount, wa = self.expr(s.amount, "None")
        sel, ws = self.selectors(s.selectors, subj)
        if amount == "0":  # nothing to share: no code (selectors change nothing)
            return [], f"{ws} share {wa} coin(s) (rounded down; more sharers than coins: none)"
        group, total, each, q = (self.src.var(v) for v in ("group", "total", "each", "p"))
        lines = [
            f"{group} = {sel}",
            f"if {group}:",
            f"    {total} = {amount}",
            f"    {each} = {total} // len({group})",
            f"    if {each} > 0:",
            f"        for {q} in {group}:",
            f"            ctx.emit('gain', {q}, {each})",
            f"    elif {total} > 0 and ctx.trace is not None:",
            "        # why nobody gets the chest: more sharers than coins (X-4)",
            f"        ctx.trace.append(('split', ','.join(q.name for q in {group}), {total}))",
        ]
        return lines, f"{ws} share {wa} coin(s) (rounded down; more sharers than coins: none)"

    def if_(self, s: ast.If, subj: str) -> tuple[list[str], str]:
        # Each block is compiled once, its words with it: words never depend on the players'
        # variables, and a second pass for them doubled the work at every level of nesting.
        keyword = "unless" if s.negate else "if"
        if reads_a_player(s.cond):
            # A condition about "your" coins is asked of each player the block is about
            # (outside such a block, "your" coins read 0).
            keyword = f"for each of them, {keyword}"
            if subj == "None":
                test, wc = self.cond(s.cond, "None")
                lines, wt, wo = self._branch(test, s, "None")
            else:
                q, one = self.src.var("p"), self.src.var("one")
                # `them` in the condition is still the block's players (`your_value ==
                # value(them)`: one player against the best of them); in the branch, the one
                test, wc = self.cond(s.cond, q)
                branch, wt, wo = self._branch(test, s, one)
                lines = [f"for {q} in {subj}:", *indent([f"{one} = [{q}]", *branch])]
        else:
            passed = self.src.var("passed")
            trace, wc = self.traced_test(s, passed)
            if trace:
                test = passed
            else:
                test, wc = self.cond(s.cond, "None")
            lines, wt, wo = self._branch(test, s, subj)
            lines = [*trace, *lines]
        return lines, f"{keyword} {wc}: {wt}" + (f"; otherwise {wo}" if s.otherwise else "")

    def _branch(self, test: str, s: ast.If, subj: str) -> tuple[list[str], str, str]:
        """`if TEST:` the then block, `else:` the other one; and their words."""
        then, wt = self.block(s.then, subj)
        other, wo = self.block(s.otherwise, subj) if s.otherwise else ([], "")
        lines = [f"if {'not ' if s.negate else ''}{test}:", *indent(then or ["pass"])]
        if other:
            lines += ["else:", *indent(other)]
        return lines, wt, wo

    def may(self, s: ast.May, subj: str) -> tuple[list[str], str]:
        """Each player asked in turn; yes runs the block for them alone, no the `else`."""
        if subj == "None":  # nobody to ask: no code, only the words
            with self.src.dry():
                wb = self.block(s.body, "s")[1]
                wo = self.block(s.otherwise, "s")[1] if s.otherwise is not None else ""
            return [], self._may_words(wb, wo)
        q, one = self.src.var("p"), self.src.var("one")
        body, wb = self.block(s.body, one)
        lines = [f"for {q} in list({subj}):",
                 f"    {one} = [{q}]",
                 f"    if ctx.ask({q}, {_lit(s.prompt or wb)}, {_lit(self.card.id)}):",
                 *indent(indent(body or ["pass"]))]
        wo = ""
        if s.otherwise is not None:
            other, wo = self.block(s.otherwise, one)
            if other:
                lines += ["    else:", *indent(indent(other))]
        return lines, self._may_words(wb, wo)

    @staticmethod
    def _may_words(wb: str, wo: str) -> str:
        return f"each of them may choose: {wb}" + (f"; if not: {wo}" if wo else "")

    def attack(self, s: ast.Attack, subj: str) -> tuple[list[str], str]:
        sel, ws = self.selectors(s.selectors, subj)
        body, wb = self.block(s.body, "subject")
        fn = self.src.define("attack", "ctx, subject", body, doc=f"it attacks {ws}: {wb}")
        targets = self.src.var("targets")
        return [f"{targets} = {sel}",
                "if ctx.escaped_seats:  # nobody escaped, most rooms: no second list",
                f"    {targets} = [q for q in {targets} if q.seat not in ctx.escaped_seats]",
                f"ctx.attack({targets}, {fn})"], f"it attacks {ws}: {wb}"

    def place_apply(self, s: ast.Apply) -> tuple[list[str], str]:
        """`next_room: mark hunted`, `dungeon: unmark alarm`, `next_room: become horde`:
        effects on things that are not players (docs/dsl.md, "What cards can name")."""
        lines, words = [], []
        card = _lit(self.card.id)
        for sel in s.selectors:
            place = _lit(sel.name)
            for e in s.effects:
                if e.verb == "become":
                    lines.append(f"ctx.become({place}, {_lit(e.named)})")
                    words.append(f"{PLACES[sel.name].phrase} becomes `{e.named}`")
                    continue
                status = _lit(e.named)
                count, wc = self.expr(e.count, "None") if e.count is not None else ("1", "1")
                if e.verb == "unmark":
                    how_many = count if e.count is not None else "None"
                    lines.append(f"ctx.unmark_place({place}, {card}, {status}, {how_many})")
                    words.append(f"{PLACES[sel.name].phrase} loses "
                                 + (f"{wc} `{e.named}`" if e.count is not None
                                    else f"the status `{e.named}`"))
                    continue
                lasting, wl = self.expr(e.lasting, "None") if e.lasting is not None \
                    else ("None", "")
                how_long = (f" for {wl} room(s)" if e.lasting is not None else
                            " until the end of the floor" if e.lasting_floor else "")
                lines.append(f"ctx.mark_place({place}, {card}, {status}, {count}, "
                             f"({lasting}, {e.lasting_floor}))")
                words.append(f"{PLACES[sel.name].phrase} gets `{e.named}` ×{wc}{how_long}")
        return lines, "; ".join(words)

    def effect(self, e: ast.Effect, group: str) -> tuple[list[str], str]:
        """Lines applying one effect to each player in variable `group` (a non-empty list)."""
        verb = e.verb
        q = self.src.var("p")
        loop = f"for {q} in {group}:"
        if verb == "give":
            item = e.named
            return [f"ctx.give({_lit(item)}, {group})"], \
                f"get {an(self.item_word(item))} (none if the supply is short)"
        if verb == "take":
            item = _lit(e.named)
            return [loop, f"    if {item} in {q}.items:",
                    f"        ctx.emit('take', {q}, 0, {item})"], \
                f"return {an(self.item_word(e.named))} to the supply (if they hold one)"
        if verb == "take_any":
            item = self.src.var("item")
            return [loop, f"    if {q}.items:",
                    f"        {item} = item_of_choice(ctx, {q}, {_lit(self.card.id)})",
                    f"        ctx.emit('take', {q}, 0, {item})"], \
                "return an item of their choice to the supply (if they hold any)"
        if verb in ("steal", "steal_item"):
            source, wsrc = self.selectors(e.source, group)
            givers, giver = self.src.var("givers"), self.src.var("giver")
            if verb == "steal":
                amount, wa = self.expr(e.arg, q)
                item, words = "None", f"take {wa} coin(s) from {wsrc} (no more than they have)"
            else:
                amount, item = "0", _lit(e.named)
                words = f"take a {e.named} from {wsrc} (if they hold one)"
            # an item is stolen only from a player holding one (as `take`: no event else)
            holds = "" if verb == "steal" else f" and {item} in {giver}.items"
            return [f"{givers} = {source}", loop,
                    f"    for {giver} in {givers}:",
                    f"        if {giver} is not {q}{holds}:",
                    f"            ctx.emit('steal', {q}, {amount}, {item}, {giver})"], words
        if verb in ("mark", "unmark"):
            status = _lit(e.named)
            name = e.named
            count, wc = self.expr(e.count, q) if e.count is not None else ("1", "1")
            if verb == "unmark":
                how_many = count if e.count is not None else "None"
                return [loop, f"    ctx.unmark({q}, {status}, {how_many})"], \
                    (f"lose {wc} `{name}`" if e.count is not None else f"lose the status `{name}`")
            lasting, wl = self.expr(e.lasting, q) if e.lasting is not None else ("None", "")
            floor = e.lasting_floor
            how_long = (f" for {wl} room(s)" if e.lasting is not None else
                        " until the end of the floor" if floor else "")
            rooms = self.src.var("rooms")
            return [loop, f"    {rooms} = {lasting}",
                    f"    ctx.emit('mark', {q}, {count}, {status}, ({rooms}, {floor}))"], \
                f"get `{name}` ×{wc}{how_long}"
        if verb == "eliminate":
            return [loop, f"    ctx.emit('eliminate', {q}, 0)"], "are eliminated"
        if verb in ("give_power", "take_power"):
            n, wn = self.expr(e.arg, q)
            return [loop, f"    ctx.{verb}({q}, {n})"], \
                (f"take power card {wn} back into their hand" if verb == "give_power"
                 else f"discard power card {wn} from their hand")
        if verb in ("pass", "pass_item"):
            # `to` is read for each giver (`your_left`: the giver's own neighbour)
            one, to, taker = self.src.var("one"), self.src.var("to"), self.src.var("taker")
            receivers, wto = self.selectors(e.source, one)
            if verb == "pass":
                amount, wa = self.expr(e.arg, q)
                item, words = "None", f"pass {wa} coin(s) to {wto} (no more than they have)"
                holds = ""
            else:
                amount, item = "0", _lit(e.named)
                words = f"pass a {e.named} to {wto} (if they hold one)"
                holds = f" and {item} in {q}.items"
            return [loop, f"    {one} = [{q}]", f"    {to} = {receivers}",
                    f"    for {taker} in {to}:",
                    f"        if {taker} is not {q}{holds}:",
                    f"            ctx.emit('pass', {q}, {amount}, {item}, {taker})"], words
        amount, wa = self.expr(e.arg, q)
        words = {"wound": f"take {wa} wound(s)", "heal": f"heal {wa} wound(s)",
                 "gain": f"gain {wa} coin(s)", "lose": f"lose {wa} coin(s)"}[verb]
        return [loop, f"    ctx.emit({_lit(verb)}, {q}, {amount})"], words

    # ---- the whole card
    def members(self):
        """Rules from the kind chain (root first, extensions after each kind's own) then the
        card: later ones win or add."""
        yield from self.kind.members()
        yield from self.card.members

    def tag(self, sel: Optional[ast.Selector]) -> tuple[Optional[str], str]:
        """A handler's or modifier's `on SELECTOR`: which players the event must be about
        (the name of a generated `when(ctx, p, owner)`, or None: every player)."""
        if sel is None:
            return None, ""
        if sel.arg is None and sel.name == "attacked":
            code, words = "p in ctx.attack_targets", " on attacked"
        elif sel.arg is None and sel.name == "you":
            code, words = "p is owner", " on you"
        elif sel.arg is None and sel.name == "others":
            code, words = "owner is not None and p is not owner", " on others"
        elif sel.arg is None and sel.name in ("left", "right"):  # next to the holder
            step = 1 if sel.name == "left" else -1
            code, words = f"p in neighbour(ctx, owner, {step})", f" on {sel.name}"
        else:
            pick, w = self.selector(sel, "one")
            return self.src.define("when", "ctx, p, owner",
                                   ["one = [p]", f"return p in {pick}"]), f" on {w}"
        return self.src.define("when", "ctx, p, owner", [f"return {code}"]), words

    def modifier(self, hint: str, e) -> tuple[str, str]:
        code, words = self.expr(e, "p")
        return self.src.define(hint, "ctx, p", [f"return {code}"]), words

    def compile_rules(self) -> tuple[_Pending, dict[str, Any]]:
        """Every rule of the card: what it adds to the bus, and (rooms) how it is played."""
        rules = _Pending()
        room: dict[str, Any] = {"playable": {}, "escapes": set(), "unplayable": set(),
                                "any_item": None, "resolve": None, "resolve_words": None}
        words: list[str] = []
        # the words about one item (by their place in `words`): a card's rule may undo its
        # kind's, and a room's words keep only those that hold (`_true_item_words`)
        about_items: dict[int, tuple[Optional[str], str]] = {}
        members = list(self.members())
        # Modifiers of the card's own parameters must be known before any is compiled.
        for m in members:
            if isinstance(m, ast.Modify) and m.target in self.types:
                self.param_mods.setdefault(m.target, []).append(m.expr)
        playable, escapes, unplayable = room["playable"], room["escapes"], room["unplayable"]
        for m in members:
            if isinstance(m, ast.Playable):
                if m.value is not None:
                    fn, w = self.modifier("playable", m.value)
                else:
                    fn, w = self.src.define("playable", "ctx, p", ["return 0"]), "0"
                if m.card.any_item:
                    room["any_item"] = fn
                    words.append(f"Any item may be played here; it counts as {w} unless "
                                 "said otherwise.")
                    continue
                item = m.card.item
                playable[item] = fn
                unplayable.discard(item)
                if item != self.card.id:
                    about_items[len(words)] = (item, "playable")
                words.append(f"It may be played as the card of any room that says nothing "
                             f"of it; it counts as {w}." if item == self.card.id else
                             f"{_capital(an(self.card_word(m.card)))} may be played here; "
                             f"it counts as {w}.")
            elif isinstance(m, ast.Unplayable):
                unplayable.add(m.card.item)
                playable.pop(m.card.item, None)
                escapes.discard(m.card.item)
                about_items[len(words)] = (m.card.item, "unplayable")
                words.append(f"{_capital(an(self.card_word(m.card)))} cannot be "
                             "played here.")
            elif isinstance(m, ast.Escape):
                escapes.add(m.card.item)
                unplayable.discard(m.card.item)
                about_items[len(words)] = (m.card.item, "escape")
                words.append(f"A player who plays {an(self.card_word(m.card))} escapes: "
                             "their card does not count and they cannot be attacked.")
            elif isinstance(m, ast.Modify):
                if m.target == "value":
                    pred, wt = self.tag(m.tag)
                    fn, w = self.modifier("modify_value", m.expr)
                    ref = m.card
                    key: Optional[Card] = None if ref is None else (
                        ref.power if ref.power is not None else ref.item)
                    rules.value_mods.append((key, fn, pred))
                    what = "card" if ref is None else str(ref)
                    words.append(f"Every {what} played{wt} counts as {w}.")
                elif m.target in self.types:  # applied where the parameter is read
                    with self.src.dry():
                        words.append(f"Its {m.target} becomes {self.expr(m.expr, 'p')[1]}.")
                else:
                    pred, wt = self.tag(m.tag)
                    fn, w = self.modifier(f"modify_{m.target}", m.expr)
                    into = rules.effect_mods if m.target in _EFFECT_MODS else rules.param_mods
                    into.setdefault(m.target, []).append((fn, pred))
                    words.append(f"Every {m.target}{wt} becomes {w}." if m.target in _EFFECT_MODS
                                 else f"A room's {m.target} becomes {w}.")
            elif isinstance(m, ast.Handler):
                body, w = self.block(m.body, "subject")
                pred, wt = self.tag(m.tag)
                victim, wv = self.tag(m.victim)
                when = "instead_of" if m.sort == "replace" else "after"
                fn = self.src.define(f"{when}_{m.event}", "ctx, subject", body,
                                     doc=_where(m.span))
                rules.handlers.append((m.sort, m.event, str(m.tag) if m.tag else None, fn, w,
                                       pred, m.card, victim, _needs(m.tag)))
                event = m.event + (f" {m.card}" if m.card else "") + wt + \
                    (wv.replace(" on ", " from ", 1) if wv else "")
                words.append(f"Instead of {event}: {w}." if m.sort == "replace"
                             else f"After {event}: {w}.")
            elif isinstance(m, ast.Resolve):
                body, room["resolve_words"] = self.block(m.body, "None")
                room["resolve"] = self.src.define("resolve", "ctx, subject", body,
                                                  doc="the room's procedure, " + _where(m.span))
        room["words"], room["about_items"] = words, about_items
        return rules, room

    def compile_room(self) -> CompiledRoom:
        pending, r = self.compile_rules()
        params = {}
        for name, typ in self.types.items():
            if typ in ("int", "number", "per_players") and self.values[name] is not None \
                    and name not in ROOM_SHAPE:
                params[name] = self.param_function(name)
        until = self.values.get("until")
        until_fn = None
        if until is not None and const_value(until) != 0:  # the default never ends it early
            until_fn = self.src.define("until", "ctx, p", [f"return {self.cond(until, 'None')[0]}"])
        resolve = r["resolve"]
        if resolve is None:  # a room with no procedure
            resolve = self.src.define("resolve", "ctx, subject", ["return None"])
        # the words: how the room is played and resolved, its rules, its parameters
        head = [f"When the room resolves: {r['resolve_words'] or 'nothing happens'}."]
        shape = {name: self.constant(name, default)
                 for name, (typ, default, _) in ROOM_SHAPE.items() if typ == "int"}
        if shape["cards"] != 1 or shape["rounds"] != 1:
            head.insert(0, f"Each player plays {shape['cards']} card(s), values summed"
                        + (f", in {shape['rounds']} rounds (the room is fought once per round)"
                           if shape["rounds"] != 1 else "")
                        + f"; a card a player lacks counts {shape['missing']}.")
        if until_fn is not None:
            with self.src.dry():
                head.insert(0, "After each round but the last, the room ends once "
                            f"{self.cond(until, 'None')[1]}.")
        tail = [f"{name}: {self.param_words(name)}." for name in self.types
                if self.values[name] is not None and name not in ROOM_SHAPE and (
                    self.types[name] not in ("table", "effects") or self.reads_params(name))]
        funcs, text = self.src.build()
        room = CompiledRoom(
            id=self.card.id, name=self.display, kind=self.card.kind,
            kinds=tuple(k.name for k in reversed(self.kind.chain)), face=_face(self.kind),
            playable={item: funcs[fn] for item, fn in r["playable"].items()},
            escapes=frozenset(r["escapes"]), unplayable=frozenset(r["unplayable"]),
            rules=pending.bind(funcs, self.card.id), resolve=funcs[resolve],
            params={name: funcs[fn] for name, fn in params.items()},
            words=[], any_item=funcs[r["any_item"]] if r["any_item"] else None,
            cards_each=shape["cards"], rounds=shape["rounds"], missing=shape["missing"],
            until=funcs[until_fn] if until_fn is not None else None, source=text,
            reads=self.reads())
        room.words = [*head, *_true_item_words(room, r["words"], r["about_items"]), *tail]
        return room

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
            return tuple(ast.name_text(x) for x in v.values)
        raise CompileError(f"{self.card.id}: `{name}` must be a constant here")


def _brackets(code: str) -> int:
    """How deep brackets nest in generated code (string literals skipped)."""
    depth = deepest = 0
    quote, escaped = "", False
    for ch in code:
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    return deepest


def _true_item_words(room: CompiledRoom, words: list[str],
                     about_items: dict[int, tuple[str, str]]) -> list[str]:
    """A room's rules in words, less those about an item that no longer hold once the kind's
    rules and the card's are all in: a card's `unplayable ITEM` undoes its kind's `playable
    ITEM as 5`, and a later `playable` its value. Whether the item may be put down is the
    engine's own rule (legality.may_put_down); an escape item counts for nothing even where
    it is also `playable` (room.py `_counts`); of several lines of one sort about one item,
    the last is the one the engine follows."""
    last = {about: i for i, about in about_items.items()}  # later ones win
    kept = []
    for i, line in enumerate(words):
        about = about_items.get(i)
        if about is not None:
            item, sort = about
            allowed = may_put_down(room, item)
            holds = {"unplayable": not allowed, "escape": allowed and item in room.escapes,
                     "playable": allowed and item not in room.escapes}[sort]
            if not holds or last[about] != i:
                continue
        kept.append(line)
    return kept


def _where(span) -> str:
    return f"from {os.path.basename(span.path)}:{span.line}"


def _names(value) -> tuple:
    return value.values if isinstance(value, ast.ValueList) else (value,)


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def display_name(card: ast.CardDecl) -> str:
    """The name a card shows people: its `name` field, else its id."""
    for m in card.members:
        if isinstance(m, ast.Field) and m.name == "name" and isinstance(m.value, ast.Str):
            return m.value.value
    return card.id


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
        card_kind = lib.kinds.get(card.kind)
        if card_kind is not None and card_kind.role != "room":
            names.update(m.target for m in card.members if isinstance(m, ast.Modify))
    if len(_OUTSIDE) > 64:
        _OUTSIDE.clear()
    _OUTSIDE[id(lib)] = (lib, frozenset(names))
    return _OUTSIDE[id(lib)][1]


def _needs(tag: Optional[ast.Selector]) -> Optional[tuple[str, str]]:
    """What a tag needs the event's player to have, when it says so plainly (Handler.needs):
    `on marked(S)` a status S, `on holds(I)` an item I (the players `_selector_of` picks)."""
    if tag is not None and tag.arg is not None and tag.name in ("marked", "holds"):
        return tag.name, tag.arg
    return None


def _selector_of(name: str, arg: str) -> tuple[str, str]:
    what = _lit(arg)
    if name == "holds":
        return f"[q for q in ctx.participants if {what} in q.items]", f"whoever holds a {arg}"
    if name == "played":
        return (f"[q for q in ctx.participants if {what} in ctx.cards_of(q)]",
                f"whoever played a {arg}")
    return f"[q for q in ctx.participants if q.mark_count({what})]", f"whoever has `{arg}`"


# Every word the vocabulary declares has a behaviour here, and nothing else does: a word added
# to one side only is a programming error, caught when the compiler is first imported.
for _table, _words in ((_ATOM_SOURCE, ATOMS), (_SELECTOR_SOURCE, SELECTORS)):
    if set(_table) != set(_words):
        raise RuntimeError(f"vocabulary and compiler disagree: {set(_table) ^ set(_words)}")


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
    pending, r = cc.compile_rules()
    words = r["words"]
    funcs, text = cc.src.build()
    rules = pending.bind(funcs, card_id)
    reads = cc.reads()
    if role == "character":
        return CompiledCharacter(card_id, cc.display, rules, words, text, reads,
                                 coins=cc.constant("coins", 0), wounds=cc.constant("wounds", 0),
                                 items=_as_tuple(cc.constant("items")))
    if role == "item":
        own = r["playable"].get(card_id)
        return CompiledItem(card_id, cc.display, rules, words, text, reads,
                            ability=cc.constant("ability"),
                            value=funcs[own] if own is not None else None)
    if role == "floor":
        return CompiledFloor(card_id, cc.display, rules, words, text, reads,
                             layout=cc.constant("layout"))
    if role == "status":
        return CompiledStatus(card_id, cc.display, rules, words, text, reads)
    return CompiledRule(card_id, cc.display, rules, words, text, reads)


def with_item_values(rooms: dict[str, CompiledRoom],
                     items: dict[str, CompiledItem]) -> dict[str, CompiledRoom]:
    """Every room with the items that say what they count for (`playable SELF as EXPR` on
    the item card) among its playable cards, where the room says nothing of the item: the
    room decides first (its `playable`, `escape`, `unplayable`, `playable any`), the item
    where it does not. Rooms are copied, never changed: another load shares none of this."""
    valued = {i: c.value for i, c in items.items() if c.value is not None}
    if not valued:
        return rooms
    out = {}
    for rid, room in rooms.items():
        extra = {} if room.any_item is not None else {
            i: fn for i, fn in valued.items()
            if i not in room.playable and i not in room.escapes and i not in room.unplayable}
        # what an item's value reads is read in the room it is played in (the item's reads
        # are its whole card's: its value's, and its rules')
        out[rid] = attrs.evolve(room, playable={**room.playable, **extra},
                                reads=reduce(operator.or_, (items[i].reads for i in extra),
                                             room.reads)) if extra else room
    return out
