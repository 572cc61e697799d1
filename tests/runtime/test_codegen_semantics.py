"""The source compiler (interpreter/runtime/codegen.py, since 7ba94fa) against the closures it
replaced: the constructs of the card language the built-in cards, the reference logs and the
example mods exercise little or not at all, each pinned by a scenario on a small mod written
here. Each scenario passes on the closure compiler too
(`git show 37cddde:interpreter/compiler.py`), so they pin the behaviour the card language had,
not the one the generated code happens to have; the last test pins a fix of a bug both had
(`amount` after a modified parameter).

What they pin: the order dice are rolled in (an expression's operands left to right, `div`'s
divisor first, the count's own number of a per-player list only), what is never worked out
(`and`/`or` short-circuit, `div` by 0), per-player conditions at the top of `resolve` and in
nested blocks (docs/dsl.md "if"), a steal's amount per taker and victim, statuses' counts and
durations, shares, tables, `do`, `may`, the value selectors when nobody or only a 0 counts,
modified parameters (the card's own and from outside) read for nobody, and cards nested or summed
deeper than Python's parser takes in one function.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from raiders.interpreter.records.scenarios import run_file

# ---- the mod ------------------------------------------------------------------------------

MOD = """
# A room kind without a procedure: each card below gives its own.
kind bare(toll: int = 2, who: selector = lowest, bonus: effects = { gain 1 coin }) { }

status mark-a { name "Mark A" }
status mark-b { name "Mark B" }

# ---- dice: the order operands are worked out in, and what is never worked out
bare dice-div { name "Div"  resolve { everyone: gain div(roll(6), roll(2)) coins } }
bare dice-div0 { name "Div0"  resolve { everyone: gain 1 + div(roll(6), roll(2) - roll(2)) coins } }
bare dice-order { name "Order"
  resolve { everyone: gain min(roll(4), roll(6)) + max(roll(8), roll(10)) - roll(3) coins } }
bare dice-logic { name "Logic"
  resolve {
    if roll(2) == 2 and roll(6) > 3 { highest: gain 1 coin }
    if roll(4) == 4 or roll(8) > 3 { highest: gain 2 coins }
    if not roll(3) == 3 { highest: gain 4 coins }
  }
}
monster dice-count { name "Count"  strength roll(4) / roll(6) / roll(8)  wounds 1 }
bare dice-own { name "Own dice"
  resolve { everyone: gain your_roll(6) - roll(2) coins  highest: gain your_roll(6) coins } }

# ---- per-player conditions (docs/dsl.md "if")
bare purse { name "Purse"
  resolve {
    if your_coins > 0 { everyone: gain 10 coins } else { everyone: gain 2 coins }
    everyone { if your_coins >= 5 { lose 1 coin } else { gain 1 coin } }
    lowest { if not holds(key) { wound 1 } else { heal 1 } }
    highest { unless your_coins > 4 { gain 1 coin } }
  }
}
bare nest { name "Nest"
  resolve { everyone { if your_coins >= 2 { everyone { if your_coins >= 4 { gain 1 coin } } } } }
}
bare them-one { name "Them"
  resolve {
    everyone { if your_coins >= 1 { them: gain count(everyone) coins } else { them: wound 1 } }
  }
}

# ---- effects
bare robbers { name "Robbers"  who lowest, second
  resolve { highest: steal your_coins + 1 coins from who } }
bare marks { name "Marks"
  resolve {
    highest: mark mark-a by roll(4) lasting roll(6) rooms, mark mark-b by 2
    lowest: mark mark-a by 2 lasting floor
    second: mark mark-a, mark mark-b by 3
    everyone: unmark mark-a by 1
    highest: unmark mark-b
  }
}
bare shares { name "Shares"
  resolve {
    share 5 among everyone
    share 2 among everyone
    share highest_value - 10 among highest
    share 0 among everyone
    share your_coins + 1 among lowest
    share roll(6) among nobody
  }
}
bare lookup { name "Lookup"
  resolve {
    table roll(6) { 1 -> everyone: gain 1 coin  5 -> everyone: gain 5 coins }
    table lowest_value { 2 -> highest: wound 1  3 -> lowest: wound 1 }
  }
}
bare keyed { name "Keyed"
  resolve { everyone { table your_coins + 1 { 1 -> gain 1 coin  2 -> wound 1 } } }
}
vault claims { name "Claims"
  rewards { 1 -> give sword  3 -> { gain 1 coin  if your_coins > 1 { heal 1 } }  5 -> gain 5 coins }
}
bare doer { name "Doer"
  bonus { if your_coins > 2 { gain 1 coin } else { wound 1 } }
  resolve { highest { do bonus }  lowest { do bonus } }
}
bare asker { name "Asker"
  resolve {
    everyone {
      may "Pay?" { if your_coins >= 2 { lose 2 coins  them: gain 1 coin } else { wound 1 } }
    }
  }
}

# ---- selectors
bare void { name "Void"
  escape torch
  playable key as 0
  resolve {
    highest: gain 1 coin
    lowest: gain 2 coins
    tied: gain 4 coins
    escaped: heal 1
    everyone: gain count(highest) + value(lowest) coins
  }
}
bare ranks { name "Ranks"
  who highest, lowest
  resolve {
    second: gain 1 coin
    second_lowest: gain 2 coins
    who: wound 1
    richest, poorest: gain coins(richest) - wounds(most_wounded) coins
  }
}

# ---- modified parameters (docs/dsl.md "modify"): the card's own, then the held cards'
status spur { name "Spur"  modify toll to amount + 10 }
status weight { name "Weight"  modify toll to amount + your_wounds + holds(key) }
bare gate { name "Gate"
  toll 3
  modify toll to amount * 2
  modify toll to amount + 1
  resolve { everyone: lose toll coins  share toll among highest }
}
bare gate-mine { name "Gate of mine"
  toll 1
  modify toll to amount + your_coins + holds(key) + marked(mark-a) + your_value + your_items
                 + played(key)
  resolve { everyone: wound toll  share toll + 1 among highest }
}
bare gate-read { name "Gate read"
  toll 3
  modify toll to amount * 2
  modify wound to toll - 6 + amount
  after wound { if amount < toll { them: gain amount coins } }
  resolve { everyone: wound 1 }
}
bare gate-die { name "Gate die"
  toll 0
  modify toll to amount + your_roll(6)
  resolve { everyone: gain toll coins  share toll + 3 among highest }
}
"""

SCENARIO = """format: raiders-scenario/1
name: {name}
ruleset: deluxe
cards: [{cards}]
players: {players}
{body}
"""


def mod_folder(tmp_path_factory, name: str) -> Path:
    """A mod's folder, below the folder its scenarios are written to: a scenario file written
    beside the cards would change their folder, and each scenario would load, check and
    compile the rules again (runtime/rules.py load_rules keeps them while their folders are
    unchanged)."""
    folder = tmp_path_factory.mktemp(name) / "mod"
    folder.mkdir()
    return folder


@pytest.fixture(scope="module")
def mod(tmp_path_factory) -> Path:
    folder = mod_folder(tmp_path_factory, "semantics")
    (folder / "mod.dsl").write_text(MOD)
    return folder


def scenario(folder: Path, name: str, body: str, players: str = "[A, B, C]"):
    """A scenario of the mod in `folder`, written beside that folder."""
    path = folder.parent / f"{name.replace(' ', '-')}.yaml"
    path.write_text(SCENARIO.format(name=name, cards=folder.name, players=players,
                                    body=body.strip()))
    [outcome] = run_file(str(path))
    return outcome


def ok(outcome) -> None:
    assert outcome.ok, outcome.differences + [d.message for d in outcome.diagnostics]


# ---- dice ---------------------------------------------------------------------------------

@pytest.mark.parametrize("room,rolls,coins", [
    # div: the divisor first (rolls fit no other order: a 6 on a 2-sided die is an error)
    ("dice-div", "[2, 6]", 3),
    # div by 0 gives 0 and the dividend is never worked out (its die is never rolled)
    ("dice-div0", "[1]", 1),
    # min, max, plus, minus: left to right; 4 + 10 - 3
    ("dice-order", "[4, 6, 8, 10, 3]", 11),
])
def test_dice_roll_in_the_order_an_expression_is_worked_out(mod, room, rolls, coins):
    """docs/dsl.md "Dice and choices": a die is rolled when the rules first read it, so the
    order operands are worked out in is the order of `rolls:`."""
    ok(scenario(mod, room, f"""
room: {room}
plays: {{A: 1, B: 2, C: 3}}
rolls: {rolls}
expect:
  A: {{coins: {coins}}}
  C: {{coins: {coins}}}
"""))


def test_and_or_not_short_circuit(mod):
    """`and` stops at a false left side, `or` at a true one (their right die is never
    rolled): d2 1 (the d6 is not rolled), d4 4 (the d8 is not), d3 2 (`not`: true)."""
    ok(scenario(mod, "logic", """
room: dice-logic
plays: {A: 1, B: 2, C: 3}
rolls: [1, 4, 2]
expect:
  C: {coins: 6}
  A: {coins: 0}
"""))


def test_a_per_player_list_works_out_only_the_count_s_own_number(mod):
    """docs/dsl.md "Per player count": four players read the second number; the first and
    third, which roll other dice, are never worked out."""
    ok(scenario(mod, "count", """
room: dice-count
plays: {A: 1, B: 2, C: 1, D: 1}
rolls: [6]
expect:
  A: {wounds: 1}
  B: {wounds: 0}
  D: {wounds: 1}
""", players="[A, B, C, D]"))


def test_each_player_rolls_their_own_die_once_per_room(mod):
    """`your_roll(6)`: one die per player (seat order as they are affected), kept for the
    room; the table's `roll(2)` is one die for everyone. A's own die, the table's, B's, C's;
    then C (highest) reads their own die again: no new roll."""
    ok(scenario(mod, "own dice", """
room: dice-own
plays: {A: 1, B: 2, C: 3}
rolls: [5, 2, 3, 6]
expect:
  A: {coins: 3}
  B: {coins: 1}
  C: {coins: 10}
"""))


# ---- per-player conditions ----------------------------------------------------------------

def test_per_player_conditions_at_the_top_read_nobody_and_in_a_block_each_player(mod):
    """docs/dsl.md "if": at the top of `resolve` `your_coins` reads 0 (the else runs: +2
    each); in a block each player is asked alone (A 5 loses 1, B 2 gains 1, C 6 loses 1);
    `unless holds(key)` for the lowest (C holds a key: heals instead of a wound)."""
    ok(scenario(mod, "purse", """
start: {A: {coins: 3}, C: {coins: 4, wounds: 2, items: [key]}}
room: purse
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 5, wounds: 0}
  B: {coins: 3, wounds: 0}
  C: {coins: 5, wounds: 1}
"""))


def test_nested_blocks_ask_their_own_players_after_what_came_before(mod):
    """An inner block's condition is about the inner player, read when it runs: A (2 coins)
    lets B (4) gain; then B (5) lets B (5) gain again; C (0) asks nobody. A, below 4, never
    gains, whoever's outer turn it is."""
    ok(scenario(mod, "nest", """
start: {A: {coins: 2}, B: {coins: 4}}
room: nest
plays: {A: 1, B: 2, C: 3}
expect:
  A: {coins: 2}
  B: {coins: 6}
  C: {coins: 0}
"""))


def test_them_in_a_per_player_branch_is_that_player_alone(mod):
    """In a branch run for one player, `them` is that player (not the block's players)."""
    ok(scenario(mod, "them one", """
start: {A: {coins: 1}}
room: them-one
plays: {A: 1, B: 2, C: 3}
expect:
  A: {coins: 4, wounds: 0}
  B: {coins: 0, wounds: 1}
  C: {coins: 0, wounds: 1}
"""))


# ---- effects ------------------------------------------------------------------------------

def test_a_steal_works_out_its_amount_per_victim_in_seat_order(mod):
    """docs/dsl.md "Effects": one steal event per taker and victim, its amount worked out for
    the taker each time, from a selector parameter that is a union (`who lowest, second`, in
    seat order): A (1 coin) takes 2 from B (second), then, with 3 coins, 4 from C."""
    ok(scenario(mod, "robbers", """
start: {A: {coins: 1}, B: {coins: 5}, C: {coins: 10}}
room: robbers
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 7}
  B: {coins: 3}
  C: {coins: 6}
"""))


def test_mark_counts_durations_and_unmark(mod):
    """`mark … by EXPR lasting EXPR rooms`: the duration is worked out before the count (d6,
    then d4); `unmark by 1` takes one off (at 0 it goes); `unmark` without a count takes all;
    `lasting floor` runs out with the floor, `lasting 6 rooms` does not."""
    ok(scenario(mod, "marks", """
rooms:
  - room: marks
    plays: {A: 5, B: 3, C: 1}
    rolls: [6, 4]
    floor_end: true
expect:
  A: {marks: {mark-a: 3}}
  B: {marks: {mark-b: 3}}
  C: {marks: {}}
"""))


def test_shares_round_down_and_give_nothing_when_short(mod):
    """docs/dsl.md "share": 5 among 3 is 1 each; 2 among 3 is none; a negative chest and a
    chest of 0 are nothing; a share's amount is read for nobody (`your_coins` 0: 1 coin), and
    only when someone shares it (`share roll(6) among nobody` rolls no die)."""
    ok(scenario(mod, "shares", """
start: {C: {coins: 4}}
room: shares
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 1}
  B: {coins: 1}
  C: {coins: 6}
"""))


@pytest.mark.parametrize("die,a,c", [("1", "1, 0", "1, 1"), ("5", "5, 0", "5, 1"),
                                     ("6", "0, 0", "0, 1")])
def test_a_table_runs_the_row_of_its_key_or_none(mod, die, a, c):
    """docs/dsl.md "table": the key is worked out once; a key with no row runs nothing."""
    a_coins, a_wounds = a.split(", ")
    c_coins, c_wounds = c.split(", ")
    ok(scenario(mod, f"lookup {die}", f"""
room: lookup
plays: {{A: 5, B: 4, C: 3}}
rolls: [{die}]
expect:
  A: {{coins: {a_coins}, wounds: {a_wounds}}}
  C: {{coins: {c_coins}, wounds: {c_wounds}}}
"""))


def test_a_table_key_is_read_for_nobody_even_in_a_block(mod):
    """docs/dsl.md "Whose coins?": a `table` key reads 0 for the per-player numbers, in a block
    about players too: the key is 1 for everyone (row 1), not A's 1 + 1 (row 2)."""
    ok(scenario(mod, "keyed", """
start: {A: {coins: 1}}
room: keyed
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 2, wounds: 0}
  B: {coins: 1, wounds: 0}
"""))


def test_for_each_value_gives_each_group_its_row(mod):
    """docs/dsl.md "for each value": A and B claim one sword together (supply 1: neither gets
    it); C's row works out `your_coins` for C."""
    ok(scenario(mod, "claims", """
start: {C: {coins: 1, wounds: 1}}
supply: {sword: 1}
room: claims
plays: {A: 1, B: 1, C: 3}
expect:
  A: {items: []}
  B: {items: []}
  C: {coins: 2, wounds: 0}
  supply: {sword: 1}
"""))


def test_do_runs_its_block_for_the_players_where_it_stands(mod):
    """docs/dsl.md "do": the same `effects` block, per-player `if` and all, for the highest
    (3 coins: gains) and for the lowest (0 coins: a wound)."""
    ok(scenario(mod, "doer", """
start: {A: {coins: 3}}
room: doer
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 4, wounds: 0}
  C: {coins: 0, wounds: 1}
"""))


def test_may_asks_each_player_and_runs_the_block_for_them_alone(mod):
    """docs/dsl.md "may": A says yes (2+ coins: pays 2, then `them: gain 1` is A alone), B
    says no, C says yes with no coins (the else: a wound)."""
    ok(scenario(mod, "asker", """
start: {A: {coins: 3}, B: {coins: 3}}
room: asker
plays: {A: 5, B: 3, C: 1}
choices: {A: [true], B: [false], C: [true]}
expect:
  A: {coins: 2, wounds: 0}
  B: {coins: 3, wounds: 0}
  C: {coins: 0, wounds: 1}
"""))


# ---- selectors ----------------------------------------------------------------------------

def test_value_selectors_pick_nobody_when_every_player_escapes(mod):
    """docs/dsl.md "Selectors": escaped players have no value; with none counted, `highest`,
    `lowest` and `tied` pick nobody (not everyone whose missing value equals 0)."""
    ok(scenario(mod, "void all escape", """
start: {A: {items: [torch]}, B: {items: [torch]}, C: {items: [torch]}}
room: void
plays: {A: torch, B: torch, C: torch}
expect:
  A: {coins: 0}
  C: {coins: 0}
"""))


def test_a_value_of_0_is_the_highest_when_it_is_the_only_one(mod):
    """A key counts 0 here and the others escape: the key's 0 is the highest and the lowest
    value (1 + 2, and count(highest) 1 + value(lowest) 0); the escaped heal."""
    ok(scenario(mod, "void a zero", """
start: {A: {items: [key]}, B: {items: [torch], wounds: 1}, C: {items: [torch]}}
room: void
plays: {A: key, B: torch, C: torch}
expect:
  A: {coins: 4}
  B: {coins: 1, wounds: 0}
  C: {coins: 1}
"""))


def test_ranks_unions_and_selector_functions(mod):
    """`second` and `second_lowest` (distinct values: B and D), a selector parameter that is
    a union (`who highest, lowest`: A and C), and a union of two selectors (A, C and D, seat
    order) gaining `coins(richest) - wounds(most_wounded)`, worked out for each in turn: A
    gains 6 - 1, then C 11 - 1, then D 11 - 1."""
    ok(scenario(mod, "ranks", """
start: {A: {coins: 6}, B: {coins: 2, wounds: 1}, C: {coins: 0}, D: {coins: 3}}
room: ranks
plays: {A: 5, B: 4, C: 1, D: 4}
expect:
  A: {coins: 11, wounds: 1}
  B: {coins: 5, wounds: 1}
  C: {coins: 10, wounds: 1}
  D: {coins: 16, wounds: 0}
""", players="[A, B, C, D]"))


# ---- modified parameters ------------------------------------------------------------------

def test_a_parameter_s_own_modifiers_apply_in_order_then_a_held_card_s(mod):
    """docs/dsl.md "modify": 3, times 2, plus 1 (7), then B's status adds 10 (17): everyone
    loses it, and the highest shares it."""
    ok(scenario(mod, "gate", """
start: {A: {coins: 20}, B: {coins: 20, marks: {spur: 1}}, C: {coins: 5}}
room: gate
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 20}
  B: {coins: 3}
  C: {coins: 0}
"""))


def test_a_modified_parameter_read_for_nobody_reads_its_per_player_numbers_as_0(mod):
    """docs/dsl.md "modify": "A parameter is read for nobody, so they read 0 there". Each
    player's wound reads their own numbers (1 + coins + keys + `mark-a` + value + items +
    played key); the share reads nobody's: 1 + 1 coins. (The source compiler read them of
    `None` and stopped with an AttributeError; 7ba94fa.)"""
    ok(scenario(mod, "gate mine", """
start: {A: {coins: 2, items: [key], marks: {mark-a: 1}}, B: {coins: 1}}
room: gate-mine
plays: {A: 5, B: 3, C: 1}
expect:
  A: {wounds: 11, coins: 4}
  B: {wounds: 5, coins: 1}
  C: {wounds: 2, coins: 0}
"""))


def test_a_held_card_s_modifier_of_a_room_number_reads_nobody_as_0(mod):
    """A status's `modify toll to amount + your_wounds + holds(key)` on a room number read
    for nobody (the share): 0 for those, not an AttributeError; for each player losing the
    toll, that player's numbers."""
    ok(scenario(mod, "gate weight", """
start: {A: {coins: 20, wounds: 2, items: [key], marks: {weight: 1}}, B: {coins: 20}, C: {coins: 20}}
room: gate
plays: {A: 5, B: 3, C: 1}
expect:
  A: {coins: 17}
  B: {coins: 13}
  C: {coins: 13}
"""))


def test_your_roll_in_a_parameter_read_for_nobody_rolls_no_die(mod):
    """`your_roll(6)` is 0 where there is no player (docs/dsl.md "Functions"): the share reads
    3 and rolls nothing, where the source compiler rolled the table's die for it. A, B and C
    roll their own dice as they gain."""
    ok(scenario(mod, "gate die", """
room: gate-die
plays: {A: 5, B: 3, C: 1}
rolls: [2, 4, 6]
expect:
  A: {coins: 5}
  B: {coins: 4}
  C: {coins: 6}
"""))


# What `raiders show` says of a card: the same words from the closures and the source.
WORDS = {
    "dice-logic": [
        "When the room resolves: if a 2-sided die (the table's) is 2 and a 6-sided die (the "
        "table's) is more than 3: whoever played the highest value: gain 1 coin(s); if a "
        "4-sided die (the table's) is 4 or a 8-sided die (the table's) is more than 3: "
        "whoever played the highest value: gain 2 coin(s); if not (a 3-sided die (the "
        "table's) is 3): whoever played the highest value: gain 4 coin(s).",
        "toll: 2.",
        "who: whoever played the lowest value.",
    ],
    "purse": [
        "When the room resolves: for each of them, if their coins is more than 0: every "
        "player: gain 10 coin(s); otherwise every player: gain 2 coin(s); for every player: "
        "for each of them, if their coins is at least 5: lose 1 coin(s); otherwise gain 1 "
        "coin(s); for whoever played the lowest value: for each of them, if not (the Key "
        "items they hold): take 1 wound(s); otherwise heal 1 wound(s); for whoever played the "
        "highest value: for each of them, unless their coins is more than 4: gain 1 coin(s).",
        "toll: 2.",
        "who: whoever played the lowest value.",
    ],
    "marks": [
        "When the room resolves: whoever played the highest value: get `mark-a` ×a 4-sided "
        "die (the table's) for a 6-sided die (the table's) room(s), get `mark-b` ×2; whoever "
        "played the lowest value: get `mark-a` ×2 until the end of the floor; whoever played "
        "the second-highest value: get `mark-a` ×1, get `mark-b` ×3; every player: lose 1 "
        "`mark-a`; whoever played the highest value: lose the status `mark-b`.",
        "toll: 2.",
        "who: whoever played the lowest value.",
    ],
    "asker": [
        "When the room resolves: for every player: each of them may choose: for each of them,"
        " if their coins is at least 2: lose 2 coin(s); them: gain 1 coin(s); otherwise take "
        "1 wound(s).",
        "toll: 2.",
        "who: whoever played the lowest value.",
    ],
    "gate": [
        "When the room resolves: every player: lose 3 (modified) coin(s); whoever played the "
        "highest value share 3 (modified) coin(s) (rounded down; more sharers than coins: "
        "none).",
        "Its toll becomes the amount times 2.",
        "Its toll becomes the amount plus 1.",
        "toll: 3 (modified).",
        "who: whoever played the lowest value.",
    ],
    "robbers": [
        "When the room resolves: whoever played the highest value: take their coins plus 1 "
        "coin(s) from whoever played the lowest value and whoever played the second-highest "
        "value (no more than they have).",
        "toll: 2.",
        "who: whoever played the lowest value and whoever played the second-highest value.",
    ],
}


def test_the_words_of_each_construct(mod):
    """`raiders show`: the plain words of dice, `and`/`or`/`not`, per-player `if`/`unless` with
    `else`, `mark … by … lasting …`, `unmark`, `may`, a parameter's own modifiers and a steal from
    a selector parameter, as the closure compiler wrote them."""
    from raiders.interpreter.runtime.compiler import compile_card
    from raiders.interpreter.runtime.rules import load_rules

    lib = load_rules("deluxe", cards=(str(mod),)).library
    for cid, words in WORDS.items():
        assert compile_card(lib, cid).words == words, cid


# ---- cards nested deep ------------------------------------------------------------------

def _nested_conditions(depth: int) -> str:
    """`if`, a per-player `if` in a block and `may`, in turn, `depth` deep, around one gain."""
    opens = ("if total > 0 { ", "everyone { if your_coins >= 0 { ", "may { ")
    closes = ("} ", "} } ", "} ")
    body = "".join(opens[i % 3] for i in range(depth)) + "gain 1 coin "
    return body + "".join(closes[i % 3] for i in reversed(range(depth)))


def test_nested_conditions_compile_each_block_once(tmp_path, monkeypatch):
    """The source compiler worked out the words of an `if`'s and a `may`'s blocks by compiling
    them a second time, at every level: 2**depth compiles (18 nested `if`s took 17 s to load).
    Each statement is compiled once now, as the closures were."""
    from raiders.interpreter.runtime import compiler
    from raiders.interpreter.runtime.rules import load_rules

    depth = 12
    (tmp_path / "deep.dsl").write_text(
        f'treasure deep {{ name "Deep"  chest 0\n  resolve {{ {_nested_conditions(depth)} }}\n}}\n')
    lib = load_rules("deluxe", cards=(str(tmp_path),)).library
    real, calls = compiler.CardCompiler.stmt, []

    def counting(self, s, *subject):
        calls.append(s)
        return real(self, s, *subject)

    monkeypatch.setattr(compiler.CardCompiler, "stmt", counting)
    compiler.compile_card(lib, "deep")
    assert len(calls) <= 3 * depth, len(calls)


DEEP = {
    "long-sum": 'monster long-sum {{ name "Long Sum"  strength {sum}  wounds 1 }}',
    "long-logic": """bare long-logic {{ name "Long Logic"
  resolve {{
    if {chain} {{ highest: gain 1 coin }}
    lowest: gain {divs} coins
  }}
}}""",
    "deep-tables": 'bare deep-tables {{ name "Deep Tables"  resolve {{ {tables} }} }}',
    "deep-loops": 'bare deep-loops {{ name "Deep Loops"  resolve {{ {loops} }} }}',
    # a modified parameter first met in the words of an `effects` block: its function, and the
    # one its long sum moves into, are kept all the same
    "deep-param": """kind hoard(gold: int = {sum}, prize: effects = {{ gain gold coins }}) {{
  modify gold to amount - 247
  resolve {{ highest {{ do prize }} }}
}}
hoard deep-param {{ name "Deep Param" }}""",
}


@pytest.fixture(scope="module")
def deep(tmp_path_factory) -> dict[str, Path]:
    """Cards nested or summed deeper than Python reads in one function (the parser takes 1,500
    levels, dsl/parser.py MAX_NESTING), a mod each. The source compiler stopped at load on
    them with a SyntaxError: `too many nested parentheses` (a sum of 250 terms, `div` 110
    deep), `too many levels of indentation` (tables 120 deep) or `too many statically nested
    blocks` (21 loops in one function)."""
    loops = ""
    for i in range(24):  # 8 each of: for each value, a per-player if, may
        loops += ("for each value { 1 -> ", "highest { if your_coins >= 0 { ", "may { ")[i % 3]
    loops += "gain 1 coin " + "} } } } " * 8
    parts = dict(
        sum=" + ".join(["1"] * 250),
        chain=" and ".join(["total > 0"] * 100) + " and (" + " or ".join(["total > 99"] * 100)
        + " or not not not all_same)",
        divs="div(" * 110 + "roll(6)" + ", 1)" * 110,
        tables="table 1 { 1 -> " * 120 + "everyone: gain 1 coin" + " }" * 120,
        loops=loops)
    folders = {}
    for room, text in DEEP.items():
        folders[room] = folder = mod_folder(tmp_path_factory, room)
        (folder / "mod.dsl").write_text("kind bare() { }\n" + text.format(**parts) + "\n")
    return folders


@pytest.mark.parametrize("room,plays,extra,expect", [
    ("long-sum", "{A: 5, B: 4, C: 1}", "", "C: {wounds: 1}\n  A: {wounds: 0}"),
    # 100 `and`s then 100 `or`s; the die of `div` 110 deep is rolled once, for the lowest
    ("long-logic", "{A: 1, B: 2, C: 3}", "rolls: [4]", "C: {coins: 1}\n  A: {coins: 4}"),
    ("deep-tables", "{A: 1, B: 2, C: 3}", "", "A: {coins: 1}\n  C: {coins: 1}"),
    ("deep-param", "{A: 1, B: 2, C: 3}", "", "C: {coins: 3}\n  A: {coins: 0}"),
    # the 1 is a group of its own, C is the highest: asked 8 times, C gains at the bottom
    ("deep-loops", "{A: 1, B: 2, C: 3}", "choices: {C: [true, true, true, true, true, true, true,"
     " true]}", "C: {coins: 1}\n  A: {coins: 0}"),
])
def test_cards_nested_deeper_than_python_reads_load_and_play(deep, room, plays, extra, expect):
    ok(scenario(deep[room], room, f"""
room: {room}
plays: {plays}
{extra}
expect:
  {expect}
"""))


def test_reading_a_modified_parameter_leaves_amount_alone(mod):
    """docs/dsl.md "modify" and "after": in a handler `amount` is the event's amount, and in a
    modifier the number being modified, whatever the rule reads before it. Reading a modified
    `toll` (3 times 2) used to leave `amount` at the toll's 3, in the closures as in the
    generated code: the wound's modifier made 6 - 6 + 3 of a wound of 1, and the handler gained
    3. Now: wounds of 6 - 6 + 1, and the handler gains 1 (1 < 6). (This one pins a fix: it
    fails on the closure compiler.)"""
    ok(scenario(mod, "gate read", """
room: gate-read
plays: {A: 5, B: 3, C: 1}
expect:
  A: {wounds: 1, coins: 1}
  C: {wounds: 1, coins: 1}
"""))
