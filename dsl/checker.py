"""Semantic checks beyond syntax. Every problem becomes a Diagnostic; all are collected."""
from __future__ import annotations

from typing import Callable, Optional

import attrs

from . import ast
from .ast import const_value
from .diagnostics import Diagnostic, an, did_you_mean
from .library import KindInfo, Library, ParamInfo
from .vocabulary import (
    ABILITIES,
    ATOMS,
    COMMON_FIELDS,
    EVENTS,
    FUNCTIONS,
    HELD_ROLES,
    MODIFIABLE,
    MODIFY_ONLY_ATOMS,
    ONE_PLAYER_SELECTORS,
    OWNER_SELECTORS,
    PARAM_TYPES,
    PLACE_EFFECTS,
    PLACES,
    PLAY_SELECTORS,
    ROOM_SHAPE,
    SELECTORS,
    SELECTORS_OF,
    SUBJECT_SELECTORS,
    TABLE_KEYS,
    as_selector,
)

# ---- symbol tables -----------------------------------------------------------------------


# ---- scopes ---------------------------------------------------------------------------------


@attrs.frozen
class Scope:
    """What names mean where an expression or statement sits."""

    params: dict[str, ParamInfo]
    subject: bool  # statements here have implicit players (a handler, a row of a group)
    in_modify: bool = False
    role: str = "room"  # the role of the card (or kind) the rule is written on
    amount: bool = False  # `amount` has a meaning here (modify, or a numeric event's handler)
    # Where no card is valued here (`in \`after floor_start\``): `highest`, `played(…)`, …
    # pick nobody (E407). None: there may be values.
    no_values: Optional[str] = None
    # Where no attack is running here: `attacked` picks nobody (E407). None: there may be one.
    no_attack: Optional[str] = None
    # The subject when it is one player: a selector of one (`you`, `left`, …), or "one" (the
    # single player an event or a `may` is about); None: none, several, or not known.
    one: Optional[str] = None
    # The moment a held card's handler hears, holder after holder (`room`), for W603.
    moment: Optional[str] = None
    guards: frozenset = frozenset()  # statuses the enclosing conditions read (`marked(s)`)
    tracked: bool = False  # the statement marks one of them: its moves are kept track of


# The words that start a rule in a kind or card body (for "did you mean" on a misspelt one).
RULE_WORDS = ("resolve", "playable", "unplayable", "escape", "modify", "instead", "after")

# Rules that only a room can carry: they say how the room's cards are played and resolved.
ROOM_ONLY = {ast.Resolve: "resolve", ast.Playable: "playable", ast.Unplayable: "unplayable",
             ast.Escape: "escape"}

# Where a card's value is worked out: before the room's numbers exist (docs/dsl.md).
_VALUING = "while the cards are valued (`modify value`, `playable … as`)"


@attrs.frozen
class Known:
    """What the checker looks names up in besides the kinds: the item and status ids, and the
    numbers of room kinds. Worked out once per library; a caller that keeps it between checks
    (formats/incremental.py) passes it in while the ids and kinds stay the same."""

    items: frozenset[str]
    statuses: frozenset[str]
    room_numbers: frozenset[str]

    @classmethod
    def of(cls, lib: Library) -> "Known":
        return cls(frozenset(cid for cid in lib.cards if lib.role_of(cid) == "item"),
                   frozenset(cid for cid in lib.cards if lib.role_of(cid) == "status"),
                   # Numeric parameters of room kinds: a held card, a floor or a rule may
                   # modify them in whatever room has them (`modify strength to amount + 3`).
                   frozenset(name for info in lib.kinds.values() if info.role == "room"
                             for name, p in info.params.items()
                             if p.type in ("int", "number", "per_players")))


class Checker:
    def __init__(self, lib: Library, known: Optional[Known] = None,
                 into: Optional[list[Diagnostic]] = None):
        self.lib = lib
        self.diags = lib.diagnostics if into is None else into
        known = known or Known.of(lib)
        self.items = known.items
        self.statuses = known.statuses
        self.room_numbers = known.room_numbers
        self._kind_tables: dict[str, dict[str, bool]] = {}

    def err(self, span, code: str, message: str, hint: Optional[str] = None) -> None:
        self.diags.append(Diagnostic(span, code, message, hint))

    def warn(self, span, code: str, message: str, hint: Optional[str] = None) -> None:
        self.diags.append(Diagnostic(span, code, message, hint, severity="warning"))

    # ---- top level
    def run(self) -> list[Diagnostic]:
        for info in self.lib.kinds.values():
            self.check_kind(info)
            for ext in info.extensions:
                self.check_extension(info, ext)
        for card in self.lib.cards.values():
            self.check_card(card)
        from .loops import rule_cycles  # W602: rules that set each other off

        self.diags.extend(rule_cycles(
            [(info.decl.members, info.decl.name) for info in self.lib.kinds.values()]
            + [(card.members, card.id) for card in self.lib.cards.values()]))
        self.check_holderless_statuses()
        return self.diags

    def check_decl(self, decl: ast.Decl) -> None:
        """One declaration's own checks, as `run` makes them: a kind, an extension or a card
        the library indexed (a second card of one id, a kind of a broken chain: none)."""
        if isinstance(decl, ast.KindDecl):
            info = self.lib.kinds.get(decl.name)
            if info is not None and info.decl is decl:
                self.check_kind(info)
        elif isinstance(decl, ast.ExtendDecl):
            info = self.lib.kinds.get(decl.kind)
            if info is not None and any(e is decl for e in info.extensions):
                self.check_extension(info, decl)
        elif self.lib.cards.get(decl.id) is decl:
            self.check_card(decl)

    def check_extension(self, info: KindInfo, ext: ast.ExtendDecl) -> None:
        self.check_members(ext.members, info.params, allow_fields=False, role=info.role)

    def status_readers(self) -> dict[str, ast.Selector]:
        """The statuses whose rules read their holder (`you`, `others`, …), each with the
        first such selector: what W605 looks for on a room or the dungeon."""
        reads_holder: dict[str, ast.Selector] = {}
        for sid in sorted(self.statuses):
            for n in ast.walk(tuple(self.lib.cards[sid].members)):
                if isinstance(n, ast.Selector) and n.arg is None and n.name in OWNER_SELECTORS:
                    reads_holder[sid] = n
                    break
        return reads_holder

    def check_holderless_statuses(self) -> None:
        """W605: `next_room: mark S` or `dungeon: mark S` where S's rules read `you`,
        `others`, `left` or `right`: on a room or the dungeon nobody holds S, so those parts
        never do anything."""
        reads_holder = self.status_readers()
        if not reads_holder:
            return
        decls: list[ast.CardDecl | ast.KindDecl] = [
            *self.lib.cards.values(), *(i.decl for i in self.lib.kinds.values())]
        self.diags.extend(holderless_marks(marks_on_things(d.members for d in decls),
                                           reads_holder))

    def check_kind(self, info: KindInfo) -> None:
        decl = info.decl
        seen_params: dict[str, ast.Param] = {}
        for p in decl.params:
            if p.name in seen_params:
                self.err(p.span, "E202", f"parameter `{p.name}` is declared twice",
                         f"first declared at line {seen_params[p.name].span.line}")
            seen_params.setdefault(p.name, p)
            if p.name in ATOMS or p.name in SELECTORS or p.name in PLACES:
                what = "number" if p.name in ATOMS else "selector" if p.name in SELECTORS \
                    else "thing"
                self.err(p.span, "E203", f"parameter `{p.name}` hides the built-in {what} "
                         f"`{p.name}`", "give the parameter another name")
            if p.type is not None and p.type not in PARAM_TYPES:
                self.err(p.type_span or p.span, "E108", f"unknown parameter type `{p.type}`",
                         did_you_mean(p.type, PARAM_TYPES) or
                         "types: " + ", ".join(PARAM_TYPES))
            elif p.default is not None and p.name in info.params:
                self.check_value(info.params[p.name].type, p.default, Scope(info.params, False),
                                 p.name)
        self.check_members(decl.members, info.params, allow_fields=False, role=info.role)

    def check_card(self, card: ast.CardDecl) -> None:
        info = self.lib.kinds.get(card.kind)
        if info is None:
            self.err(card.kind_span, "E101", f"unknown kind `{card.kind}`",
                     did_you_mean(card.kind, self.lib.kinds) or
                     "a card starts with its kind: " + ", ".join(sorted(self.lib.kinds)))
            return
        given: dict[str, ast.Field] = {}
        for m in card.members:
            if isinstance(m, ast.Field):
                if m.name in given:
                    self.err(m.span, "E202", f"field `{m.name}` is given twice",
                             f"first given at line {given[m.name].span.line}")
                given[m.name] = m
        for name, p in info.params.items():
            if name not in given and p.default is None:
                self.err(card.id_span, "E201",
                         f"{card.kind} `{card.id}` is missing required field `{name}`",
                         f"add `{name} …` ({PARAM_TYPES.get(p.type, p.type)})")
        self.check_param_cycles(card, info, given)
        for name, f in given.items():
            declared = info.params.get(name)
            if declared is None or declared.type != "int" or not self.is_expr(f.value) \
                    or const_value(f.value) is not None:
                continue
            if info.role != "room":
                self.err(f.value.span, "E302",
                         f"`{name}` of a {info.role} must be a plain number",
                         "a setup value cannot depend on the game")
            elif name in ROOM_SHAPE and ROOM_SHAPE[name][0] == "int":
                self.err(f.value.span, "E302", f"`{name}` must be a plain number",
                         "how a room is played is known before anyone plays")
        for name in ("cards", "rounds"):
            shape = given.get(name)
            count = const_value(shape.value) if shape is not None else None
            if shape is not None and count is not None and not 1 <= count <= 5:
                self.err(shape.value.span, "E301", f"`{name}` is 1..5, not {count}",
                         "a player holds five power cards")
        self.table_subject = self._table_usage(info, card) if any(
            p.type == "table" for p in info.params.values()) else {}
        self.check_members(card.members, info.params, allow_fields=True, role=info.role,
                           card_id=card.id)
        self.table_subject = {}

    def check_param_cycles(self, card: ast.CardDecl, info: KindInfo,
                           given: dict[str, ast.Field]) -> None:
        """A number that, through the card's fields and its kind's defaults, needs itself
        (`wounds wounds + 1`; `strength = wounds`, `wounds = strength`) has no value: E305."""
        numeric = {n for n, p in info.params.items() if p.type in ("int", "number", "per_players")}
        deps: dict[str, list[str]] = {}
        for n in numeric:
            value = given[n].value if n in given else info.params[n].default
            deps[n] = sorted({x.name for x in ast.walk(value) if isinstance(x, ast.Name)} & numeric)
        state: dict[str, int] = {}  # 1: on the current path, 2: done
        stack: list[str] = []
        found: set[frozenset] = set()

        def visit(n: str) -> None:
            state[n] = 1
            stack.append(n)
            for d in deps[n]:
                if state.get(d) == 1:
                    cycle = stack[stack.index(d):]
                    if frozenset(cycle) not in found:
                        found.add(frozenset(cycle))
                        self._report_cycle(card, given, cycle)
                elif d not in state:
                    visit(d)
            stack.pop()
            state[n] = 2

        for n in sorted(numeric):
            if n not in state:
                visit(n)

    def _report_cycle(self, card: ast.CardDecl, given: dict[str, ast.Field],
                      cycle: list[str]) -> None:
        at = next((given[n].value.span for n in cycle if n in given), card.id_span)
        names = [f"`{n}`" for n in cycle]
        if len(cycle) == 1:
            message = f"{names[0]} of `{card.id}` refers to itself"
        else:
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            message = (f"{listed} of `{card.id}` refer to each other "
                       f"({' -> '.join([*cycle, cycle[0]])})")
        self.err(at, "E305", message, "give one of them a number, or an expression of "
                 "what is played (`total`, `highest_value`, …)")

    def _table_usage(self, info: KindInfo, card: ast.CardDecl) -> dict[str, bool]:
        """For each table parameter, whether its rows run with players to affect (in
        `for each value`, or inside a block about players) or not (a top-level `table`)."""
        usage: dict[str, bool] = {}

        def walk(node, subject: bool) -> None:
            if isinstance(node, ast.TableLookup) and isinstance(node.table, ast.Name):
                usage[node.table.name] = usage.get(node.table.name, True) and subject
            elif isinstance(node, ast.ForEachValue) and isinstance(node.table, ast.Name):
                usage.setdefault(node.table.name, True)
            if isinstance(node, (ast.Each, ast.Attack)):
                walk(node.body, True)
                return
            if isinstance(node, ast.Handler):
                walk(node.body, True)
                return
            for _, child in ast.children(node):
                walk(child, subject)

        cached = self._kind_tables.get(info.decl.name)
        if cached is None:
            for kind in info.chain:
                walk(kind.members, False)
            cached = self._kind_tables[info.decl.name] = dict(usage)
        usage = dict(cached)
        own = tuple(m for m in card.members if isinstance(m, (ast.Resolve, ast.Handler)))
        if own:
            walk(own, False)
        return usage

    def check_members(self, members, params: dict[str, ParamInfo], allow_fields: bool,
                      role: str = "room", card_id: Optional[str] = None) -> None:
        scope = Scope(params, subject=False, role=role)
        resolves = 0
        said: dict[str, ast.Playable | ast.Unplayable | ast.Escape] = {}  # item -> first rule on it
        bad_lines: set[int] = set()  # a misspelt rule word makes the rest of its line look
        for m in members:              # like more fields: report the first only
            if isinstance(m, ast.Field):
                if m.span.line in bad_lines:
                    continue
                if not allow_fields:
                    bad_lines.add(m.span.line)
                    self.err(m.span, "E405", f"a kind cannot set field `{m.name}`",
                             did_you_mean(m.name, RULE_WORDS)
                             or f"give it as a parameter default: `kind k({m.name}: int = …)`")
                    continue
                if m.name in COMMON_FIELDS:
                    self.check_value(COMMON_FIELDS[m.name], m.value, scope, m.name)
                elif m.name in params:
                    self.check_value(params[m.name].type, m.value, scope, m.name)
                else:
                    bad_lines.add(m.span.line)
                    self.err(m.span, "E105", f"unknown field `{m.name}`",
                             did_you_mean(m.name, [*params, *COMMON_FIELDS, *RULE_WORDS]) or
                             ("fields here: " + ", ".join(sorted([*params, *COMMON_FIELDS]))))
            elif role == "item" and isinstance(m, ast.Playable) and card_id is not None \
                    and m.card.item == card_id and m.value is not None:
                self.check_contradiction(m, said)  # two values of its own: E307
                self.check_expr(m.value, scope)  # the item's own value, in any room
            elif role != "room" and type(m) in ROOM_ONLY:
                self.err(m.span, "E406",
                         f"`{ROOM_ONLY[type(m)]}` on {an(role)} card never takes effect",
                         "it says how a room is played; a room card (or kind) can carry it"
                         + ("; an item card may say what it counts for itself, in any room "
                            "that says nothing of it: `playable ITEM as N`, ITEM its own id"
                            if role == "item" else ""))
            elif isinstance(m, ast.Resolve):
                resolves += 1
                if resolves > 1:
                    self.err(m.span, "E202", "`resolve` is given twice")
                self.check_block(m.body, attrs.evolve(
                    scope, no_attack="at the top of `resolve`, outside an `attack`"))
            elif isinstance(m, (ast.Playable, ast.Unplayable, ast.Escape)):
                self.check_card_ref(m.card)
                self.check_contradiction(m, said)
                if m.card.any_item and not isinstance(m, ast.Playable):
                    word = type(m).__name__.lower()
                    self.err(m.card.span, "E302", f"`{word}` takes one item, not `any`",
                             "`playable any as 0` lets every item be played")
                if m.card.power is not None:
                    word = type(m).__name__.lower()
                    self.err(m.card.span, "E302", f"`{word}` takes an item, not a power card",
                             "power cards can always be played; `modify value of power N` "
                             "changes what one counts for")
                if isinstance(m, ast.Playable) and m.value is not None:
                    self.check_expr(m.value, attrs.evolve(scope, no_values=_VALUING))
            elif isinstance(m, ast.Modify):
                self.check_modify(m, params, scope)
            elif isinstance(m, ast.Handler):
                self.check_handler(m, scope)

    # ---- rules
    def check_contradiction(self, m, said: dict) -> None:
        """One card (or kind) saying two things about one item: `playable ITEM` and
        `unplayable ITEM`, or two different `playable … as` values (E307). A derived kind or
        a card may override its kind; only rules side by side contradict."""
        ref = m.card
        key = "any" if ref.any_item else ref.item if ref.power is None else None
        if key is None:
            return
        first = said.get(key)
        if first is None:
            said[key] = m
            return
        words = {ast.Playable: "playable", ast.Unplayable: "unplayable", ast.Escape: "escape"}
        if type(first) is type(m) and not isinstance(m, ast.Playable):
            return  # said twice, the same way
        self.err(m.span, "E307", f"`{words[type(m)]} {key}` contradicts "
                 f"`{words[type(first)]} {key}` at line {first.span.line}",
                 "keep one of the two rules")

    def check_card_ref(self, ref: ast.CardRef) -> None:
        if ref.any_item:
            return
        if ref.power is not None:
            if ref.power not in TABLE_KEYS:
                self.err(ref.span, "E301", f"there is no power card {ref.power}",
                         "power cards are 1..5")
        elif ref.item is not None and ref.item not in self.items:
            self.unknown_item(ref.item, ref.span)

    def unknown_item(self, name: str, span) -> None:
        self.err(span, "E103", f"unknown item `{name}`",
                 did_you_mean(name, self.items) or
                 ("items: " + ", ".join(sorted(self.items)) if self.items else None))

    def check_modify(self, m: ast.Modify, params: dict[str, ParamInfo], scope: Scope) -> None:
        if m.target == "value":  # worked out while the cards are valued: no values yet
            scope = attrs.evolve(scope, no_values=_VALUING)
        targets = [*MODIFIABLE, *params]
        if scope.role != "room":
            targets += sorted(self.room_numbers - set(targets))
        if m.tag is not None:
            self.check_selector(m.tag, scope, code="E109")
        event = EVENTS.get(m.target)
        if m.target in ROOM_SHAPE:
            self.err(m.target_span or m.span, "E302", f"`{m.target}` cannot be modified",
                     "how a room is played is known before anyone plays: give the room "
                     f"card its own `{m.target}`")
        elif m.tag is not None and m.target not in MODIFIABLE:
            self.err(m.tag.span, "E302", f"`modify {m.target}` takes no `on` players",
                     "a room's number is the same for everyone; `on` narrows per-player "
                     "quantities (value, wound, heal, gain, lose, steal, score)")
        elif event is not None and ((scope.role == "room" and not event.in_room) or
                                    (scope.role == "floor" and not event.on_floor)):
            self.err(m.target_span or m.span, "E406",
                     f"`{m.target}` is never read while {an(scope.role)} card is in play",
                     "a character, item, status or rule card can modify it")
        if m.target not in targets:
            self.err(m.target_span or m.span, "E107", f"`{m.target}` cannot be modified",
                     did_you_mean(m.target, targets) or "modifiable: " + ", ".join(targets))
        elif m.target in params and params[m.target].type not in ("int", "number", "per_players"):
            self.err(m.target_span or m.span, "E302",
                     f"`{m.target}` is a {params[m.target].type}: only numbers can be modified",
                     "give the card its own value instead: `" + m.target + " …`")
        elif m.target != "value" and m.card is not None:
            self.err(m.card.span, "E302", f"`modify {m.target}` takes no `of` card",
                     "only `value` is per card")
        if m.card is not None:
            self.check_card_ref(m.card)
        self.check_expr(m.expr, attrs.evolve(scope, in_modify=True, amount=True))

    def check_handler(self, h: ast.Handler, scope: Scope) -> None:
        word = "instead of" if h.sort == "replace" else "after"
        event = EVENTS.get(h.event)
        if event is None:
            self.err(h.event_span or h.span, "E107", f"unknown event `{h.event}` in `{word}`",
                     did_you_mean(h.event, EVENTS) or "events: " + ", ".join(EVENTS))
        elif not event.hookable:
            self.err(h.event_span or h.span, "E107",
                     f"`{h.event}` can only be modified (`modify {h.event} to …`)")
        elif h.sort == "replace" and not event.replaceable:
            self.err(h.event_span or h.span, "E107",
                     f"`{h.event}` can only be reacted to (`after {h.event}`)")
        elif (scope.role == "room" and not event.in_room) or \
                (scope.role == "floor" and not event.on_floor):
            self.err(h.event_span or h.span, "E406",
                     f"`{h.event}` never happens while {an(scope.role)} card is in play",
                     "a room is in play from `reveal` to `room`, a floor from `floor_start` to "
                     "`floor_end`; a character, item, status or rule card hears every event")
        if event is not None:
            scope = self.handler_scope(h, event, scope)
        if h.tag is not None:
            self.check_selector(h.tag, scope, code="E109")
        if h.card is not None and event is not None:
            self.check_event_card(h, event)
        if h.victim is not None:
            if event is not None and not event.victim:
                self.err(h.victim.span, "E107", f"`{word} {h.event}` takes no `from`",
                         "`from SELECTOR` names who is stolen from: `instead of steal from you`")
            self.check_selector(h.victim, scope, code="E109")
        # A handler is about the event's players (`after room`: every player in the room).
        self.check_block(h.body, attrs.evolve(
            scope, subject=True, amount=event is not None and event.numeric))

    @staticmethod
    def handler_scope(h: ast.Handler, event, scope: Scope) -> Scope:
        """What a handler's tag and body can see: values played and an attack running, by
        its event; who `them` is when it is one player."""
        where = f"in `{'instead of' if h.sort == 'replace' else 'after'} {h.event}`"
        tag = h.tag.name if h.tag is not None and h.tag.arg is None else None
        one = tag if tag in ONE_PLAYER_SELECTORS else \
            "one" if event.about in ("that player", "the taker", "the new first player") \
            else None
        moment = h.event if (scope.role in ("item", "status") and event.hookable
                             and not event.replaceable) else None
        return attrs.evolve(scope, no_values=where if event.values is False else None,
                            no_attack=where if event.attacking is False else None,
                            one=one, moment=moment)

    def check_event_card(self, h: ast.Handler, event) -> None:
        """`mark(STATUS)`, `give(ITEM)`: the event names a card, of the kind it is about."""
        span = h.card_span or h.span
        if h.card is None:
            return
        if event.card is None:
            named = ", ".join(f"`{n}({e.card.upper()})`" for n, e in EVENTS.items() if e.card)
            self.err(span, "E107", f"`{h.event}` is not about a card: it takes no `({h.card})`",
                     f"events that name their card: {named}")
        elif event.card == "item":
            if h.card not in self.items:
                self.unknown_item(h.card, span)
        else:
            self.check_status(h.card, span)

    # ---- values of fields and parameters
    def check_value(self, typ: str, value, scope: Scope, field: str) -> None:
        span = value.span
        if typ in ("int", "number"):
            if not self.is_expr(value):
                self.err(span, "E302", f"`{field}` takes a number",
                         "one value per player count needs a `per_players` parameter"
                         if isinstance(value, ast.PerPlayers) else None)
                return
            self.check_expr(value, scope)
            const = const_value(value)
            if typ == "int" and const is not None and const < 0:
                self.err(span, "E301", f"`{field}` cannot be negative (it is {const})")
        elif typ == "per_players":
            if isinstance(value, ast.PerPlayers):
                if len(value.values) != 3:
                    self.err(span, "E302",
                             f"`{field}` needs 3 values (for 3, 4 and 5 players), "
                             f"got {len(value.values)}", "e.g. `14 / 18 / 23`")
                for v in value.values:
                    self.check_value("int", v, scope, field)
            elif self.is_expr(value):
                self.check_expr(value, scope)
            else:
                self.err(span, "E302", f"`{field}` takes `N / N / N` or one number")
        elif typ == "selector":
            names = value.values if isinstance(value, ast.ValueList) else (value,)
            for n in names:
                if not isinstance(n, ast.Name):
                    self.err(n.span, "E302", f"`{field}` takes selectors",
                             "e.g. `lowest` or `lowest, second_lowest`")
                else:
                    self.check_selector(ast.Selector(n.name, n.span), scope)
        elif typ == "table":
            if not isinstance(value, ast.Block):
                self.err(span, "E302", f"`{field}` takes a table: `{{ 5 -> … 4 -> … }}`")
                return
            subject = getattr(self, "table_subject", {}).get(field, True)
            self.check_table(value, attrs.evolve(scope, subject=subject))
        elif typ == "effects":
            if not isinstance(value, ast.Block):
                self.err(span, "E302", f"`{field}` takes a block of statements: `{{ … }}`")
                return
            self.check_block(value, attrs.evolve(scope, subject=True))
        elif typ == "items":
            names = value.values if isinstance(value, ast.ValueList) else (value,)
            for n in names:
                if isinstance(n, ast.Name) and n.name == "none" and len(names) == 1:
                    continue
                if not isinstance(n, ast.Name):
                    self.err(n.span, "E302", f"`{field}` takes item ids")
                elif n.name not in self.items:
                    self.unknown_item(n.name, n.span)
        elif typ == "facing":
            if not isinstance(value, ast.Str) or len(value.value) != 5 or \
                    set(value.value) - {"U", "D"}:
                self.err(span, "E302", f"`{field}` takes five letters U or D in quotes",
                         'e.g. `layout "UDUDU"`: U face up, D face down')
        elif typ == "ability":
            if not isinstance(value, ast.Name) or value.name not in (*ABILITIES, "none"):
                word = value.name if isinstance(value, ast.Name) else "?"
                self.err(span, "E110", f"unknown ability `{word}`",
                         did_you_mean(word, ABILITIES) or "abilities: " + ", ".join(ABILITIES))
        elif typ == "string":
            if not isinstance(value, ast.Str):
                self.err(span, "E302", f'`{field}` takes a "quoted string"')

    @staticmethod
    def is_expr(value) -> bool:
        return isinstance(value, (ast.Num, ast.Name, ast.Call, ast.BinOp, ast.Not))

    # ---- statements
    def check_table(self, block: ast.Block, scope: Scope) -> None:
        seen: dict[int, ast.Row] = {}
        for stmt in block.stmts:
            if not isinstance(stmt, ast.Row):
                self.err(stmt.span, "E405", "a table holds only rows `VALUE -> statement`")
                continue
            if stmt.key not in TABLE_KEYS:
                key_span = attrs.evolve(stmt.span, end_line=stmt.span.line,
                                        end_col=stmt.span.col + len(str(stmt.key)))
                self.err(key_span, "E301", f"table key {stmt.key} is outside 1..5",
                         "rows are keyed by a card value, 1 to 5")
            elif stmt.key in seen:
                self.err(stmt.span, "E304", f"table row {stmt.key} is given twice",
                         f"first given at line {seen[stmt.key].span.line}")
            seen[stmt.key] = stmt
            self.check_stmt(stmt.body, scope)

    def check_block(self, block: ast.Block, scope: Scope) -> None:
        for stmt in block.stmts:
            self.check_stmt(stmt, scope)

    def check_stmt(self, stmt, scope: Scope) -> None:
        if isinstance(stmt, ast.Block):
            self.check_block(stmt, scope)
        elif isinstance(stmt, ast.Row):
            self.err(stmt.span, "E405", "a row `VALUE -> …` belongs in a table",
                     "put rows inside `table KEY { … }` or a table field")
        elif isinstance(stmt, ast.Effect):
            if not scope.subject:
                self.err(stmt.span, "E404", f"`{stmt.verb}` has no players to affect",
                         f"say who: `everyone: {stmt.verb} …` or `attack lowest {{ … }}`")
            self.check_effect(stmt, scope, scope.one if scope.subject else None)
        elif isinstance(stmt, ast.Apply):
            if any(sel.arg is None and sel.name in PLACES for sel in stmt.selectors):
                self.check_place_apply(stmt, scope)
                return
            self.check_players(stmt.selectors, scope)
            tracked = attrs.evolve(scope, tracked=any(
                e.verb == "mark" and isinstance(e.arg, ast.Name) and e.arg.name in scope.guards
                for e in stmt.effects))
            for e in stmt.effects:
                self.check_effect(e, tracked, self.one_of(stmt.selectors, scope))
        elif isinstance(stmt, (ast.Each, ast.Attack)):
            self.check_players(stmt.selectors, scope)
            inner = attrs.evolve(scope, subject=True, one=self.one_of(stmt.selectors, scope))
            if isinstance(stmt, ast.Attack):
                inner = attrs.evolve(inner, no_attack=None)
            self.check_block(stmt.body, inner)
        elif isinstance(stmt, ast.Share):
            self.check_expr(stmt.amount, scope)
            self.check_players(stmt.selectors, scope)
        elif isinstance(stmt, ast.If):
            self.check_expr(stmt.cond, scope)
            guarded = attrs.evolve(scope, guards=scope.guards | {
                n.args[0].name for n in ast.walk(stmt.cond) if isinstance(n, ast.Call)
                and n.func == "marked" and n.args and isinstance(n.args[0], ast.Name)})
            self.check_block(stmt.then, guarded)
            if stmt.otherwise is not None:
                self.check_block(stmt.otherwise, guarded)
        elif isinstance(stmt, ast.TableLookup):
            self.check_expr(stmt.key, scope)
            self.check_table_ref(stmt.table, scope)
        elif isinstance(stmt, ast.ForEachValue):
            self.check_table_ref(stmt.table, attrs.evolve(scope, subject=True))
        elif isinstance(stmt, ast.May):
            if not scope.subject:
                self.err(stmt.span, "E404", "`may` has no players to ask",
                         "say who: `highest { may { … } }`")
            alone = attrs.evolve(scope, one=scope.one or "one")  # each player who answers
            self.check_block(stmt.body, alone)
            if stmt.otherwise is not None:
                self.check_block(stmt.otherwise, alone)
        elif isinstance(stmt, ast.AtOnce):
            self.check_block(stmt.body, scope)
        elif isinstance(stmt, ast.Do):
            place = PLACES.get(stmt.name.name)
            p = scope.params.get(stmt.name.name)
            if place is not None:
                if place.sort != "room" or stmt.name.name == "this_room":
                    self.err(stmt.name.span, "E302", f"`do {stmt.name.name}` runs nothing",
                             "`do` runs an effects parameter, or another room's procedure: "
                             "`do previous_room`, `do next_room`")
            elif p is None:
                blocks = [n for n, q in scope.params.items() if q.type == "effects"]
                self.err(stmt.name.span, "E104", f"unknown effects parameter `{stmt.name.name}`",
                         did_you_mean(stmt.name.name, blocks) or
                         "declare it: `kind k(hit: effects = { wound 1 })`")
            elif p.type != "effects":
                self.err(stmt.name.span, "E302",
                         f"`do` runs an effects parameter; `{stmt.name.name}` is a {p.type}")

    def check_table_ref(self, ref, scope: Scope) -> None:
        if isinstance(ref, ast.Block):
            self.check_table(ref, scope)
            return
        p = scope.params.get(ref.name)
        if p is None:
            tables = [n for n, q in scope.params.items() if q.type == "table"]
            self.err(ref.span, "E104", f"unknown table `{ref.name}`",
                     did_you_mean(ref.name, tables) or "declare it: `kind k(hits: table)`")
        elif p.type != "table":
            self.err(ref.span, "E302", f"`{ref.name}` is a {p.type}, not a table")

    def check_place_apply(self, stmt: ast.Apply, scope: Scope) -> None:
        """`next_room: mark hunted`: effects on things that are not players (docs/dsl.md,
        "What cards can name")."""
        places = [s for s in stmt.selectors if s.arg is None and s.name in PLACES]
        if len(places) != len(stmt.selectors):
            self.err(stmt.span, "E302", "players and things cannot share one list",
                     f"`{places[0].name}` is not a player: give it a statement of its own")
            return
        for sel in places:
            self.check_place(sel.name, sel.span, scope)
        sorts = {PLACES[s.name].sort for s in places}
        for e in stmt.effects:
            takes = frozenset.intersection(*(PLACE_EFFECTS[sort] for sort in sorts))
            verb = e.verb
            if verb not in takes:
                shown = {"steal_item": "steal", "pass_item": "pass", "take_any": "take",
                         "give_power": "give", "take_power": "take"}.get(verb, verb)
                self.err(e.span, "E302", f"`{shown}` is for players; "
                         f"`{places[0].name}` is {an(PLACES[places[0].name].sort)}",
                         f"`{places[0].name}` takes " + ", ".join(f"`{w}`" for w in sorted(takes)))
                continue
            if verb == "become":
                for sel in places:
                    if sel.name != "next_room":
                        self.err(sel.span, "E406", f"`{sel.name}` cannot become another card",
                                 "only a room not yet played can: `next_room: become CARD`")
            self.check_effect(e, scope, on_place=True)

    def check_place(self, name: str, span, scope: Scope) -> None:
        if name == "this_card" and scope.role in ("status", "floor", "rule"):
            self.err(span, "E406", f"`this_card` has no meaning on {an(scope.role)} card",
                     "a status is on a thing (a player, a room, the dungeon, a card): name that "
                     "thing" if scope.role == "status" else
                     "`this_card` is an item, a character or a room card")

    @staticmethod
    def one_of(sels, scope: Scope) -> Optional[str]:
        """The one player a statement's selectors pick, when they pick one at most: `you`,
        `left`, …, or `them` when the subject is one player."""
        if len(sels) != 1 or sels[0].arg is not None:
            return None
        name = sels[0].name
        if name == "them":
            return scope.one if scope.subject else None
        return name if name in ONE_PLAYER_SELECTORS else None

    def check_players(self, sels, scope: Scope) -> None:
        """The selectors of a statement: known words, and not nobody where they stand."""
        self.check_selectors(sels, scope)
        for s in sels:
            if s.name == "them" and s.arg is None and not scope.subject:
                self.err(s.span, "E407", "`them` picks nobody here: this block is not about "
                         "any players", "`them` is the players a handler or a block is "
                         "about; at the top of `resolve` say who (`everyone`, `lowest`, …)")

    def check_effect(self, e: ast.Effect, scope: Scope, taker: Optional[str] = None,
                     on_place: bool = False) -> None:
        """One effect; `taker`: the one player it is applied to, when known (`you`, …);
        `on_place`: it is applied to a thing, not players (`next_room: …`)."""
        if e.verb == "become":
            assert isinstance(e.arg, ast.Name)
            if not any(e.arg.name == c and self.lib.role_of(c) == "room" for c in self.lib.cards):
                rooms = [c for c in self.lib.cards if self.lib.role_of(c) == "room"]
                self.err(e.arg.span, "E103", f"unknown room card `{e.arg.name}`",
                         did_you_mean(e.arg.name, rooms) or "`become` takes a room card's id")
            if not on_place:
                self.err(e.span, "E302", "`become` is for a room not yet played, not players",
                         "`next_room: become CARD`")
            return
        if e.unit is not None and e.unit.text not in ("coins", "coin"):
            self.err(e.unit.span, "E302", f"`{e.verb}` takes an amount of coins",
                     f"`{e.verb} 2 coins`" + (f"; `{e.unit.text}` is not `coins`"))
        power = const_value(e.arg) if e.verb in ("give_power", "take_power") else None
        if e.arg is not None and power is not None and not 1 <= power <= 5:
            self.err(e.arg.span, "E301", f"power cards are 1..5, not {power}")
        if e.verb in ("give", "take", "steal_item", "pass_item"):
            assert isinstance(e.arg, ast.Name)
            if e.arg.name not in self.items:
                self.unknown_item(e.arg.name, e.arg.span)
        elif e.verb in ("mark", "unmark"):
            assert isinstance(e.arg, ast.Name)
            self.check_status(e.arg.name, e.arg.span)
        elif e.arg is not None:
            self.check_expr(e.arg, scope)
        # `to` is read for each player who passes (`pass key to your_left`)
        self.check_players(e.source, attrs.evolve(scope, subject=True)
                           if e.verb in ("pass", "pass_item") else scope)
        if e.source and e.verb in ("steal", "steal_item"):
            self.check_steal(e, scope, taker)
        for extra in (e.count, e.lasting):
            if extra is not None:
                self.check_expr(extra, scope)

    def check_steal(self, e: ast.Effect, scope: Scope, taker: Optional[str]) -> None:
        """A steal from the player who takes never happens (E408); an item passed between
        neighbours by a card several players hold is passed on (W603)."""
        source = self.one_of(e.source, scope)
        what = f"`steal {e.named if e.verb == 'steal_item' else 'coins'} from " \
               f"{e.source[0].name}`"
        if taker is not None and source == taker:
            who = "them" if taker == "one" else f"`{taker}`"
            self.err(e.span, "E408", f"{what} takes from the player who steals ({who}): "
                     "it never does anything", "a player never steals from themselves: "
                     "say whom from (`left`, `richest`, `holds(key)`, …)")
        elif e.verb == "steal_item" and scope.moment is not None and not scope.tracked \
                and {taker, source} in ({"you", "left"}, {"you", "right"}):
            item = e.named
            # taking from the right is passing to the left: the hint passes, in that direction
            to = taker if taker != "you" else ("right" if source == "left" else "left")
            self.warn(e.span, "W603",
                      f"{what} in `after {scope.moment}` of {an(scope.role)} is passed on: "
                      "when several players hold this card, their rules run one after the "
                      f"other in seat order, and the {item} one of them passes is passed on "
                      "again by the next (all the way round when everyone holds it)",
                      "to pass it once, mark who received it and skip them, with a status "
                      f"of your own: `after {scope.moment} on you {{ if holds({item}) > 0 and "
                      f"not marked(passed) {{ {to}: steal {item} from you, mark passed "
                      "lasting 0 rooms } }`; or pass them all at once from one rule: "
                      f"`after {scope.moment} {{ at once {{ holds({item}): pass {item} to "
                      f"your_{to} }} }}`")

    def check_status(self, name: str, span) -> None:
        if name not in self.statuses:
            self.err(span, "E103", f"unknown status `{name}`",
                     did_you_mean(name, self.statuses) or
                     f"declare it: `status {name} {{ name \"…\" }}` (its rules, if any, run "
                     "for whoever has it)")

    def check_selectors(self, sels, scope: Scope) -> None:
        for s in sels:
            self.check_selector(s, scope)

    def check_selector(self, s: ast.Selector, scope: Scope, code: str = "E102") -> None:
        if s.arg is not None:
            spec = SELECTORS_OF.get(s.name)
            if spec is None:
                self.err(s.span, "E102", f"unknown selector `{s.name}(…)`",
                         did_you_mean(s.name, SELECTORS_OF) or
                         "selectors with an argument: " + ", ".join(SELECTORS_OF))
            elif spec[0] == "item" and s.arg not in self.items:
                self.unknown_item(s.arg, s.span)
            elif spec[0] == "status":
                self.check_status(s.arg, s.span)
            else:
                self.check_reach(s, scope)
            return
        if s.name in SELECTORS_OF:
            self.err(s.span, "E302", f"`{s.name}` takes an argument: `{s.name}(…)`")
            return
        if s.name in PLACES and s.name not in scope.params:
            place = PLACES[s.name]
            self.err(s.span, "E302", f"`{s.name}` is {an(place.sort)}, not players",
                     f"`{s.name}: mark STATUS` puts a status on it; `marked(STATUS, {s.name})` "
                     "reads one")
            return
        if s.name in SUBJECT_SELECTORS - {"them"} and not scope.subject:
            self.err(s.span, "E302", f"`{s.name}` has nobody to start from here",
                     f"`{s.name}` is next to each player a block is about: "
                     f"`holds(key): pass key to {s.name}`")
            return
        self.check_reach(s, scope)
        if s.name in OWNER_SELECTORS and scope.role not in HELD_ROLES:
            self.err(s.span, "E406", f"`{s.name}` has no meaning on {an(scope.role)} card",
                     "`you`, `others`, `left` and `right` are about the player holding a "
                     "character, an item or a status")
            return
        if s.name in SELECTORS:
            return
        p = scope.params.get(s.name)
        if p is not None and p.type == "selector":
            return
        own = [n for n, q in scope.params.items() if q.type == "selector"]
        what = "tag" if code == "E109" else "selector"
        self.err(s.span, code, f"unknown {what} `{s.name}`",
                 did_you_mean(s.name, [*SELECTORS, *own]) or
                 "selectors: " + ", ".join(SELECTORS))

    def check_reach(self, s: ast.Selector, scope: Scope) -> None:
        """A selector that picks nobody where it stands: the values played before any card
        is valued, `attacked` where no attack runs (E407)."""
        word = f"`{s.name}({s.arg})`" if s.arg is not None else f"`{s.name}`"
        if s.name in PLAY_SELECTORS and scope.no_values is not None:
            self.err(s.span, "E407", f"{word} picks nobody {scope.no_values}: no card is "
                     "valued there", "the cards played are valued from `after play` of a "
                     "room to its `after room`; outside that, pick players by what they hold "
                     "(`richest`, `most_wounded`, `holds(…)`, …)")
        elif s.name == "attacked" and scope.no_attack is not None:
            self.err(s.span, "E407", f"`attacked` picks nobody {scope.no_attack}: no attack "
                     "is running there", "`attacked` is who an attack hits: inside "
                     "`attack … { }`, in `after attack`, and in the handlers of the effects an "
                     "attack causes (`after wound on attacked`)")

    # ---- expressions
    def check_expr(self, e, scope: Scope) -> None:
        if isinstance(e, ast.Name):
            if e.name in scope.params:
                p = scope.params[e.name]
                if p.type in PARAM_TYPES and p.type not in ("int", "number", "per_players"):
                    self.err(e.span, "E302", f"`{e.name}` is a {p.type}, not a number")
                return
            if e.name in ATOMS and (e.name not in MODIFY_ONLY_ATOMS or scope.amount):
                return
            if e.name in MODIFY_ONLY_ATOMS:
                self.err(e.span, "E104", f"`{e.name}` only has a meaning inside `modify` and in "
                         "a handler of an event with an amount (wound, heal, gain, lose, …)")
                return
            known = [*ATOMS, *scope.params]
            parts = e.name.split("-")
            if len(parts) > 1 and all(x in known or x.isdigit() for x in parts):
                hint: Optional[str] = "subtraction needs spaces: `" + " - ".join(parts) + "`"
            elif e.name in FUNCTIONS:  # `lose half coins`: a function used as a word
                takes = ", ".join(FUNCTIONS[e.name].params)
                hint = f"`{e.name}` is a function: `{e.name}(…)` takes {takes}; " \
                       + FUNCTIONS[e.name].doc
            else:
                hint = did_you_mean(e.name, known)
            self.err(e.span, "E104", f"unknown name `{e.name}`", hint)
        elif isinstance(e, ast.Call):
            fn = FUNCTIONS.get(e.func)
            if fn is None:
                self.err(e.span, "E106", f"unknown function `{e.func}`",
                         did_you_mean(e.func, FUNCTIONS) or "functions: " + ", ".join(FUNCTIONS))
                return
            args = e.args
            if fn.place and len(args) == len(fn.params) + 1:  # marked(wear, this_card)
                args, where = args[:-1], args[-1]
                if not (isinstance(where, ast.Name) and where.name in PLACES):
                    self.err(where.span, "E302", f"`{e.func}`'s last argument is a thing",
                             "a room, the dungeon or a card: " + ", ".join(PLACES))
                else:
                    self.check_place(where.name, where.span, scope)
            elif len(args) != len(fn.params):
                more = " (and a thing, optionally)" if fn.place else ""
                self.err(e.span, "E303",
                         f"`{e.func}` takes {len(fn.params)} argument(s){more}, got {len(args)}")
            for arg, kind in zip(args, fn.params, strict=False):
                if kind in ("item", "status"):
                    if not isinstance(arg, ast.Name):
                        self.err(arg.span, "E302", f"`{e.func}` takes an {kind} id")
                    elif kind == "item" and arg.name not in self.items:
                        self.unknown_item(arg.name, arg.span)
                    elif kind == "status":
                        self.check_status(arg.name, arg.span)
                elif kind == "selector":
                    if isinstance(arg, ast.Name) and arg.name == "them" and \
                            (not scope.subject or scope.in_modify):
                        self.err(arg.span, "E302", f"`{e.func}(them)` has nobody to count here",
                                 "`them` is the players a block or a handler is about; here "
                                 f"give a selector: `{e.func}(highest)`")
                    elif isinstance(arg, ast.Name):
                        self.check_selector(ast.Selector(arg.name, arg.span), scope)
                    elif (chosen := as_selector(arg)) is not None:  # count(marked(poisoned))
                        self.check_selector(chosen, scope)
                    else:
                        self.err(arg.span, "E302", f"`{e.func}` takes a selector",
                                 "a selector word, or one with its argument: "
                                 f"`{e.func}(marked(poisoned))`")
                else:
                    self.check_expr(arg, scope)
        elif isinstance(e, ast.BinOp):
            self.check_expr(e.left, scope)
            self.check_expr(e.right, scope)
        elif isinstance(e, ast.Not):
            self.check_expr(e.operand, scope)
        elif isinstance(e, ast.Str):
            self.err(e.span, "E302", "a string is not a number")


def check_in_game(lib: Library, rooms: list[str], supply: dict[str, int],
                  threat_deck: bool) -> list[Diagnostic]:
    """What only a ruleset can tell: a room dealt in a game that reads `threat` without a
    threat deck (E409), or gives an item its supply does not hold (E410). `rooms`: the ids
    dealt (deck and bosses); `supply`: item -> copies (empty: the variant plays without)."""
    problems: list[Diagnostic] = []
    for cid in dict.fromkeys(rooms):
        seen: set[str] = set()
        for node in ast.walk(_card_text(lib, cid)):
            if isinstance(node, ast.Name) and node.name == "threat" and not threat_deck \
                    and "threat" not in seen:
                seen.add("threat")
                problems.append(Diagnostic(node.span, "E409", f"`{cid}` reads `threat`, but "
                                           "this game has no threat deck",
                                           "only a variant with `threat_deck` (solo) reveals "
                                           "a monster card for each room"))
            elif isinstance(node, ast.Effect) and node.verb == "give" and supply \
                    and isinstance(node.arg, ast.Name) and supply.get(node.arg.name, 0) == 0 \
                    and node.arg.name not in seen:
                item = node.arg.name
                seen.add(item)
                problems.append(Diagnostic(node.span, "E410", f"`{cid}` gives `{item}`, "
                                           "but the supply holds none", "add it to the supply "
                                           "(mod.yaml `items: {" + item + ": 2}`)"))
    return problems


def _card_text(lib: Library, cid: str) -> tuple:
    """Everything a card says: its own members, its kind chain's rules and defaults (empty
    for an unknown card)."""
    card = lib.cards.get(cid)
    info = lib.kinds.get(card.kind) if card is not None else None
    if card is None or info is None:
        return ()
    return (card.members, tuple(info.members()), tuple(p.default for p in info.params.values()))


def items_handed_out(lib: Library, rooms: list[str], characters: list[str],
                     given: Optional[Callable[[Library, str], frozenset[str]]] = None
                     ) -> set[str]:
    """The items some card of a game can put in a player's hands: a `give` in a room dealt
    (`rooms`), a character of the pool (its starting `items` too), or a card in play whatever
    is dealt (a floor, a house rule, a status, an item). What no card hands out never
    appears in that game, whatever the supply holds (W604). `given`: items_given, or one
    that keeps each card's answer between edits (formats/incremental.py)."""
    of_card = items_given if given is None else given
    held = [cid for cid in lib.cards if lib.role_of(cid) not in ("room", "character")]
    found: set[str] = set()
    for cid in dict.fromkeys([*rooms, *characters, *held]):
        found |= of_card(lib, cid)
    return found


def items_given(lib: Library, cid: str) -> frozenset[str]:
    """The items one card can hand out: a `give` in its text or its kind's rules, a name in
    a field (or a default) of one of its kind's item lists (a character's `items`)."""
    info = lib.kinds.get(lib.cards[cid].kind) if cid in lib.cards else None
    if info is None:
        return frozenset()
    found: set[str] = set()
    lists = {n for n, p in info.params.items() if p.type == "items"}
    for node in ast.walk(_card_text(lib, cid)):
        if isinstance(node, ast.Effect) and node.verb == "give" \
                and isinstance(node.arg, ast.Name):
            found.add(node.arg.name)
        elif isinstance(node, ast.Field) and node.name in lists:
            found.update(n.name for n in ast.walk(node.value) if isinstance(n, ast.Name))
    found.update(n.name for name in lists if info.params[name].default is not None
                 for n in ast.walk(info.params[name].default) if isinstance(n, ast.Name))
    return frozenset(found)


def marks_on_things(members) -> list[tuple[ast.Effect, str]]:
    """Every `mark S` applied to a room or the dungeon in the members given (the rules of
    some cards and kinds), with the place it is applied to: W605's candidates."""
    out = []
    for n in ast.walk(tuple(members)):
        if not isinstance(n, ast.Apply):
            continue
        places = [s.name for s in n.selectors if s.arg is None and s.name in PLACES
                  and PLACES[s.name].sort in ("room", "dungeon")]
        if places:
            out += [(e, places[0]) for e in n.effects
                    if e.verb == "mark" and isinstance(e.arg, ast.Name)]
    return out


def holderless_marks(marks: list[tuple[ast.Effect, str]],
                     reads_holder: dict[str, ast.Selector]) -> list[Diagnostic]:
    """W605 for each mark (of `marks_on_things`) of a status that reads its holder."""
    out = []
    for e, place in marks:
        sel = reads_holder.get(e.arg.name)  # type: ignore[union-attr]
        if sel is not None:
            out.append(Diagnostic(
                e.span, "W605", f"`{e.named}` reads `{sel.name}`, but on "
                f"{PLACES[place].phrase} nobody holds it",
                f"those parts never act there (line {sel.span.line} of "
                f"{sel.span.path}); a status on a thing is for everyone: say who "
                "without `you`, e.g. `everyone`, `lowest`", severity="warning"))
    return out


def check(lib: Library) -> list[Diagnostic]:
    """Run every semantic check on a library; returns all diagnostics, syntax ones included."""
    return Checker(lib).run()
