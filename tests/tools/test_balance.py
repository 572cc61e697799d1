"""`raiders balance` (issue 22, "The answer a designer asks for"): slot pairing with common
random numbers per slot, the verdict beside the peers, and the recipe of docs/simulate.md."""
import json
import re
import shlex
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import balance_sweep as bal_sweep
from raiders.interpreter.cli import main
from raiders.interpreter.runtime.rules import load_rules
from raiders.interpreter.tools import balance as bal
from raiders.interpreter.tools import pairs
from raiders.interpreter.tools import simulate as sim
from tests.handovers import count_hand_overs

ROOT = Path(__file__).resolve().parents[2]
GORGON = str(ROOT / "examples/mods/gorgon")
SHRINE = str(ROOT / "examples/mods/shrine")


def _paired(mod: str, games: int, bots: str = "random", players: int = 4):
    base = load_rules("deluxe", None, ())
    modded = load_rules("deluxe", None, (mod,))
    plan, _ = bal.entries(base, modded, bal.own_cards(mod, modded))
    kinds = (bots,) * players
    setups = (sim.Setup("deluxe", None, players, kinds, ()),
              *(sim.Setup("deluxe", None, players, kinds, (mod,)) for _ in plan))
    return plan, sim.simulate(setups, games, 1, 1, chunk_fn=bal.chunk_fn(tuple(plan)))


def test_a_new_boss_moves_no_unrelated_figure_at_all():
    """Before (simulate --compare): adding a boss changed which boss other seeds drew and the
    dice after, so unrelated rows moved (`mummy.wounds +0.03 *`). Paired by slot, with bots
    that play each room as it comes (random), every room before the boss slot plays exactly
    as in the base game: their sums are equal, integer for integer, and the whole game's
    change is the boss slot's change. Greedy players who see the boss ahead on its floor
    answer it there (the next test); search bots sample the world (docs/simulate.md)."""
    games = 40
    plan, tally = _paired(GORGON, games, "random")
    assert [e.card for e in plan] == ["gorgon"] and plan[0].boss
    base = load_rules("deluxe", None, ())
    bosses = set(base.bosses)
    rooms = [k for k in tally.sums if k.startswith("card.") and k.split(".")[1] not in bosses
             and k.split(".")[1] != "gorgon"]
    assert len(rooms) > 10
    for key in rooms:
        s = tally.sums[key]
        assert s.s[0:2] == s.s[2:4], key  # Σx, Σy: base and with the gorgon
        assert s.prod(0, 0) == s.prod(2, 2) and s.prod(1, 1) == s.prod(3, 3), key
    assert tally.counts[1]["resolved.gorgon"] > games * 3 // 4  # in the slot in (nearly) every game
    whole, slot = tally.sums["wounds"], tally.sums["slot.gorgon.wounds"]
    assert whole.s[2] - whole.s[0] == slot.s[2] - slot.s[0] != 0  # the whole change: the slot


def test_greedy_plays_every_floor_before_the_boss_s_as_in_the_base_game():
    """The default greedy bots look at the rooms ahead on their floor (GreedyBot.later): on
    the boss's floor, players who see the new boss ahead may keep other cards for it, an
    answer to the card, part of what it does to a game; every floor before plays exactly as
    in the base game, play for play and effect for effect."""
    mod = GORGON
    base_rules, mod_rules = load_rules("deluxe", None, ()), load_rules("deluxe", None, (mod,))
    setups = (sim.Setup("deluxe", None, 4, ("greedy",) * 4, ()),
              sim.Setup("deluxe", None, 4, ("greedy",) * 4, (mod,)))
    entry = bal.Entry("gorgon", "boss", True, ())
    for seed in range(1, 7):
        base, _start, deal, _outs, _game = bal._play(setups[0], base_rules, seed, None)
        slot = bal.slot_of(entry, deal, seed, True)
        modded = bal._play(setups[1], mod_rules, seed, bal.with_card(deal, slot, "gorgon"))[0]
        last = slot[0]
        before = [(r.floor, r.index, r.card, r.plays, list(r.trace), r.after_state)
                  for r in base.rooms if r.floor < last]
        assert before == [(r.floor, r.index, r.card, r.plays, list(r.trace), r.after_state)
                          for r in modded.rooms if r.floor < last], seed
        assert len(before) >= 4 * len(deal.floors[0].rooms)


@pytest.mark.parametrize("mod, games", [(GORGON, 6), (SHRINE, 6)])
def test_replaying_the_floors_before_the_slot_changes_no_figure(mod, games, monkeypatch):
    """The paired games take the base game's answers on the floors before their slot's (only
    the bots' thinking is spared: a gorgon balance run took 31 s, now 14): every figure and
    count is the pairs' played afresh, integer for integer, for a boss (the last floor) and
    for rooms in slots drawn anywhere."""
    base = load_rules("deluxe", None, ())
    modded = load_rules("deluxe", None, (mod,))
    plan, _ = bal.entries(base, modded, bal.own_cards(mod, modded))
    kinds = ("greedy",) * 4
    setups = (sim.Setup("deluxe", None, 4, kinds, ()),
              *(sim.Setup("deluxe", None, 4, kinds, (mod,)) for _ in plan))
    afresh = bal.run_slots(tuple(plan), setups, range(1, games + 1), replay=False)
    seen = count_hand_overs(monkeypatch)
    replayed = bal.run_slots(tuple(plan), setups, range(1, games + 1))
    assert seen["handed over"] >= games * 2 // 3 and not seen["diverged"]
    assert replayed.sums == afresh.sums and replayed.counts == afresh.counts


def test_a_pair_that_leaves_the_base_game_early_is_played_afresh(tmp_path, monkeypatch):
    """Replayed where it should not be (a house rule acts from the first room: answers given
    for the base game's rooms no longer fit), the pair finds out at the slot's floor and
    plays afresh: the same figures as a pair never replayed."""
    mod = tmp_path / "tax"
    mod.mkdir()
    (mod / "tax.dsl").write_text('boss taxman { name "Taxman" strength 14 / 18 / 22 wounds 2 }\n'
                                 'rule toll { name "Toll" after room { everyone: lose 1 coin } }\n')
    (mod / "mod.yaml").write_text("bosses: [taxman]\n")
    base = load_rules("deluxe", None, ())
    modded = load_rules("deluxe", None, (str(mod),))
    assert "toll" in pairs.apart(base, modded, {"greedy"}, same_deck=False).why_not
    plan = (bal.Entry("taxman", "boss", True, ()),)
    setups = (sim.Setup("deluxe", None, 4, ("greedy",) * 4, ()),
              sim.Setup("deluxe", None, 4, ("greedy",) * 4, (str(mod),)))
    seen = count_hand_overs(monkeypatch)
    for seed in (1, 2):
        forced = bal._play_pair(plan, setups, (base, modded), seed, True, replay=(True,))
        afresh = bal._play_pair(plan, setups, (base, modded), seed, True, replay=(False,))
        assert forced[1][0][2][0].rooms == afresh[1][0][2][0].rooms
    assert seen["diverged"] == 2 and not seen["handed over"]


def test_a_new_room_takes_one_slot_and_leaves_the_rest_of_the_deal():
    base = load_rules("deluxe", None, ())
    game = bal.SlotGame(base, ["P1", "P2", "P3"], [sim._bot_maker("random")()] * 3, seed=5)
    deal = game.deal
    entry = bal.Entry("shrine-of-ash", "shrine", False, ())
    slot = bal.slot_of(entry, deal, 5, True)
    assert slot != (len(deal.floors) - 1, len(deal.floors[-1].rooms) - 1)  # not the boss's
    moved = bal.with_card(deal, slot, "shrine-of-ash")
    cells = [(f, r, s.card, s.face_up) for f, fl in enumerate(deal.floors)
             for r, s in enumerate(fl.rooms)]
    new = [(f, r, s.card, s.face_up) for f, fl in enumerate(moved.floors)
           for r, s in enumerate(fl.rooms)]
    changed = [(a, b) for a, b in zip(cells, new, strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1][:3] == (*slot, "shrine-of-ash")
    assert moved.characters == deal.characters and moved.first_player == deal.first_player
    assert bal.slot_of(entry, deal, 5, True) == slot  # drawn from the seed alone


def test_per_slot_dice_leave_a_room_its_dice_whatever_came_before():
    """The common random numbers: room k's dice depend on (seed, k) only, not on how many dice
    the rooms before it rolled."""
    base = load_rules("deluxe", None, ())

    def game():
        return bal.SlotGame(base, ["P1", "P2", "P3"], [sim._bot_maker("random")()] * 3, seed=9)

    a, b = game(), game()
    b.records = [None]  # b's room 1 rolls three dice first
    early = [b._roll(6) for _ in range(3)]
    a.records = [None] * 3
    b.records = [None] * 3
    rolls = [a._roll(6) for _ in range(8)]
    assert [b._roll(6) for _ in range(8)] == rolls  # room 3: the same dice
    other = game()
    other.records = [None] * 4
    assert [other._roll(6) for _ in range(8)] != rolls  # room 4 has dice of its own
    assert len(early) == 3


def test_every_mod_card_is_paired_and_ordinary_games_keep_their_dice():
    plan, tally = _paired(SHRINE, 30)
    assert sorted(e.card for e in plan) == ["shrine-of-ash", "shrine-of-dawn"]
    assert tally.runs == 3 and all(e.peers == () or e.kind for e in plan)
    # each card is resolved in its own run only
    assert tally.counts[1]["resolved.shrine-of-ash"] > 0
    assert tally.counts[1]["resolved.shrine-of-dawn"] == 0
    assert tally.counts[2]["resolved.shrine-of-dawn"] > 0
    # an ordinary game's dice are the game's one generator, as before (the logs replay)
    ordinary = sim.play_one(sim.Setup("deluxe", None, 4, ("random",) * 4, ()),
                            load_rules("deluxe", None, ()), 3)[0]
    slotted = bal._play(sim.Setup("deluxe", None, 4, ("random",) * 4, ()),
                        load_rules("deluxe", None, ()), 3, None)[0]
    assert ordinary.deal == slotted.deal  # the same deal: only the dice's streams differ


def test_the_answer_names_peers_bots_and_a_verdict():
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "400", "--jobs", "1",
                                  "--players", "3", "--bots", "random"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Gorgon (gorgon, a boss, in the boss slot):" in out
    assert re.search(r"wounds a player \d\.\d\d \[\d\.\d\d, \d\.\d\d\] each time "
                     r"resolved: (harder|easier) than", out), out
    assert "the printed bosses" in out and "Mega Dragon" in out
    assert re.search(r"verdict: (in line|OUT OF LINE)", out), out
    assert "Bots: random. Chosen with --bots" in out
    greedy = CliRunner().invoke(main, ["balance", GORGON, "--games", "6", "--jobs", "1",
                                       "--players", "3"]).stdout
    assert "Bots: greedy. greedy bots:" in greedy  # which bots played, and why
    doc = json.loads(CliRunner().invoke(main, ["balance", GORGON, "--games", "6", "--jobs", "1",
                                               "--players", "3", "--json"]).stdout)
    card = doc["cards"][0]
    assert doc["format"] == "raiders-balance/1" and doc["bots"] == ["greedy"] * 3
    assert card["card"] == "gorgon" and len(card["peers"]) == 10
    assert card["wounds"]["low"] <= card["wounds"]["value"] <= card["wounds"]["high"]
    # the keys of before, beside the new ones
    assert {"wounds", "coins", "against_slot", "game", "verdict", "peers"} <= set(card)
    assert {"out", "verdict_code", "flags", "resolved", "enough"} <= set(card)


def test_a_mod_without_a_dealt_room_says_so():
    r = CliRunner().invoke(main, ["balance", str(ROOT / "examples/mods/merchant"),
                                  "--games", "2"])
    assert r.exit_code == 1 and "deals no room card of its own" in r.output
    assert "a character" in r.output


def test_the_jobs_do_not_change_the_answer():
    args = ["balance", GORGON, "--games", "8", "--players", "3", "--json"]
    one = CliRunner().invoke(main, [*args, "--jobs", "1"])
    two = CliRunner().invoke(main, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0 and one.stdout == two.stdout


def test_one_default_for_bots_everywhere():
    from raiders.interpreter.cli import balance, games, review, simulate
    from raiders.interpreter.cli.common import DEFAULT_BOTS

    for cmd in (balance.balance_cmd, games.play, review.diff_cmd, simulate.simulate):
        (bots,) = [p for p in cmd.params if p.name == "bots"]
        assert bots.default == DEFAULT_BOTS == "greedy", cmd.name


def _recipe() -> list[list[str]]:
    """The commands of docs/simulate.md's recipe, between its markers."""
    text = (ROOT / "docs/simulate.md").read_text()
    block = text.split("<!-- recipe: tests/tools/test_balance.py -->", 1)[1]
    block = block.split("<!-- end recipe -->", 1)[0]
    cmds = []
    for line in re.findall(r"```sh\n(.*?)```", block, re.S):
        for cmd in line.replace("\\\n", " ").splitlines():
            if cmd.strip().startswith("raiders "):
                cmds.append(shlex.split(cmd.split("#", 1)[0])[1:])
    return cmds


def test_the_recipe_in_the_docs_runs_and_answers():
    """docs/simulate.md's "is my boss too strong?" recipe, run as written but with fewer games."""
    cmds = _recipe()
    assert [c[0] for c in cmds] == ["balance", "balance"], cmds
    assert "--sweep" in cmds[1] and "--target" in cmds[1]
    for args in cmds:
        args = [a.replace("examples/", str(ROOT / "examples") + "/") for a in args]
        i = args.index("--games")
        args[i + 1] = "6"
        r = CliRunner().invoke(main, [*args, "--jobs", "1"])
        assert r.exit_code == 0, (args, r.output)
        if "--sweep" not in args:
            assert "verdict:" in r.stdout
        else:
            # six games a value: the answer may be that they do not tell the values apart
            assert "target wounds = 1.2" in r.stdout
            assert "<- nearest" in r.stdout or "does not separate the values" in r.stdout
            # six games: too few to judge, which is not "out of line"
            assert "no verdict at any value swept (too few games)" in r.stdout


# ---- issue 22, the reviewer playing a modder: the verdict must be honest ----------------------

BASILISK = """\
boss basilisk {
  name "Basilisk"
  strength never
  target everyone
  instead of wound on attacked { eliminate }
}
"""


def _mod(tmp_path, text: str, yaml: str) -> str:
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "card.dsl").write_text(text)
    (folder / "mod.yaml").write_text(yaml + "rulesets: [deluxe]\n")
    return str(folder)


def test_a_boss_that_puts_players_out_is_out_of_line_whatever_its_wounds(tmp_path):
    """The reviewer's lethal boss (eliminates everyone it attacks, never beaten) gave
    "wounds 0.00: easier than every printed boss" and "verdict: in line". The players it puts
    out are a figure of its row (and of its peers', Medusa's among them), and weigh in the
    verdict: harder, beyond every interval, whatever its wounds."""
    mod = _mod(tmp_path, BASILISK, "bosses: [basilisk]\n")
    args = ["balance", mod, "--games", "400", "--players", "3", "--bots", "random"]
    r = CliRunner().invoke(main, [*args, "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.output
    card = json.loads(r.stdout)["cards"][0]
    assert card["out"]["value"] > 0.9  # nearly every player, every time (a few escape)
    assert card["verdict_code"] == "out_of_line_harder", card["verdict"]
    assert card["peers"]["medusa"]["out"]["value"] > 0  # Medusa puts players out too
    assert card["peers"]["golem"]["out"]["value"] == 0
    assert card["against_slot"]["out"]["low"] > 0
    text = CliRunner().invoke(main, [*args, "--jobs", "1"]).stdout
    assert "easier than every" not in text and "in line" not in text, text
    assert re.search(r"puts \d+\.\d% \[\d+\.\d%, \d+\.\d%\] of the players out each time "
                     r"resolved: more often than every printed boss", text), text


def _side(name, out=(0, 0, 0), wounds=(1, 0.9, 1.1), coins=(0, 0, 0), resolved=100, games=100):
    return bal.Side(name, {"out": out, "wounds": wounds, "coins": coins}, resolved, games,
                    dealt=games)


def _judge(me, peers, games=1000):
    return bal.judge(me, peers, "boss", games)


def test_no_ranking_words_for_a_card_that_puts_players_out_when_its_peers_do_not():
    peers = [_side(f"Peer {i}", wounds=(1 + i / 10, 0.9 + i / 10, 1.1 + i / 10))
             for i in range(4)]
    # puts players out (rarely: the interval holds 0), never wounds
    me = _side("Me", out=(0.01, -0.002, 0.022), wounds=(0, 0, 0))
    j = _judge(me, peers)
    text = "\n".join(j.lines)
    assert "easier than every" not in text and "easier than" not in text, text
    assert "no printed boss does" in text
    assert j.code != "out_of_line_easier"
    # often enough to tell from none: out of line, harder, whatever its wounds
    j = _judge(_side("Me", out=(0.3, 0.25, 0.35), wounds=(0, 0, 0)), peers)
    assert j.code == "out_of_line_harder" and "players out" in j.sentence


def test_rank_words_and_verdict_follow_one_rule():
    """Issue 22's review: "harder than every printed boss" beside "verdict: in line". A card is
    harder than a peer only when its interval lies above the peer's; so "every" means out of
    line, and overlapping intervals are "not told apart"."""
    peers = [_side("Golem", wounds=(1.0, 0.8, 1.2)), _side("Dragon", wounds=(1.5, 1.3, 1.7))]
    me = _side("Me", wounds=(1.6, 1.25, 1.95))  # above both values, inside Dragon's interval
    j = _judge(me, peers)
    text = "\n".join(j.lines)
    assert "than every" not in text and j.code == "in_line", text
    assert "harder than 1 of the 2 printed bosses" in text
    assert "not told apart from 1 (Dragon)" in text
    j = _judge(_side("Me", wounds=(2.5, 2.3, 2.7)), peers)
    assert j.code == "out_of_line_harder"
    assert "harder than every printed boss" in "\n".join(j.lines)


def test_ties_and_takings_are_said_as_they_are():
    peers = [_side("Medusa", wounds=(0, 0, 0)), _side("Tax Collector", wounds=(0, 0, 0),
                                                       coins=(-1.9, -2.4, -1.4)),
             _side("Golem", wounds=(2, 1.6, 2.3)), _side("Vampire", wounds=(0.5, 0.4, 0.6),
                                                          coins=(-0.94, -1.1, -0.78))]
    me = _side("Basilisk", wounds=(0, 0, 0), coins=(-0.5, -0.6, -0.4))
    text = "\n".join(_judge(me, peers).lines)
    assert "as easy as the easiest (tied with Medusa, Tax Collector)" in text, text
    assert "easier than every" not in text
    assert "takes 0.50 [0.40, 0.60] coins from a player" in text, text
    assert "takes fewer coins than 2 of the 4" in text, text


def test_too_few_games_give_no_verdict():
    """`--games 12`: 4 of the 10 printed bosses never dealt, the others met once or twice;
    the answer was "OUT OF LINE … beyond every interval" against a peer's [+1.00, +1.00]."""
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "12", "--jobs", "1",
                                  "--players", "3", "--bots", "random", "--json"])
    assert r.exit_code == 0, r.output
    card = json.loads(r.stdout)["cards"][0]
    assert card["verdict_code"] == "too_few_games"
    assert re.fullmatch(r"too few games for a verdict: 1[0-2] resolutions of the card, at least "
                        r"30 wanted; run with --games \d+", card["verdict"]), card["verdict"]
    wanted = int(card["verdict"].rsplit(" ", 1)[1])
    assert 300 <= wanted <= 1000
    never = [c for c, p in card["peers"].items() if p["resolved"] == 0]
    assert never and all(not card["peers"][c]["enough"] for c in card["peers"])
    text = CliRunner().invoke(main, ["balance", GORGON, "--games", "12", "--jobs", "1",
                                     "--players", "3", "--bots", "random"]).stdout
    assert "every printed boss" not in text and "OUT OF LINE" not in text, text
    assert "never dealt" in text and "too few" in text


def test_one_resolution_is_said_in_the_singular():
    """`balance --games 1 --sweep …`: "too few games for a verdict: 1 resolutions of the card"."""
    peers = [_side(f"Peer {i}") for i in range(3)]
    j = _judge(_side("Me", resolved=1, games=1), peers, games=1)
    assert j.code == "too_few_games"
    assert j.sentence.startswith("too few games for a verdict: 1 resolution of the card,"), \
        j.sentence
    assert "(too few: 1 resolution)" in "\n".join(j.lines)
    j = _judge(_side("Me", resolved=40, games=1), peers, games=1)
    assert "the card was resolved in 1 game, at least 10 wanted" in j.sentence, j.sentence


def test_a_difference_of_exactly_nothing_is_printed_as_0():
    assert bal.signed((0.0, 0.0, 0.0)) == "0"
    assert bal.signed((0.25, -0.5, 1.0)) == "+0.25 [-0.50, +1.00]"


def test_a_peer_met_a_few_times_is_marked_and_not_judged_against():
    """The review's peer seen in one game: [+1.00, +1.00], n 4, and the verdict judged against
    it. Below 30 resolutions (or 10 games) a peer is left out, said so, and the verdict says
    how many peers it rests on and what would compare the rest; a peer never dealt is named."""
    peers = [_side(f"Peer {i}", wounds=(1, 0.9, 1.1)) for i in range(3)]
    seldom = _side("Seldom", wounds=(3, 3, 3), resolved=4, games=4)
    never = bal.Side("Never", {"out": None, "wounds": None, "coins": None}, 0, 0, 0)
    j = _judge(_side("Me", wounds=(2, 1.9, 2.1)), [*peers, seldom, never])
    text = "\n".join(j.lines)
    assert j.code == "out_of_line_harder", j.sentence  # beyond the three it is compared with
    assert "harder than every printed boss compared" in text
    assert "too few to compare: Seldom (4 resolutions); never dealt: Never" in text
    assert re.search(r"\(3 of the 5 compared, the others too seldom met: --games \d+ would "
                     r"compare them\)", j.sentence), j.sentence
    # fewer than half the peers compared: no verdict at all
    j = _judge(_side("Me", wounds=(2, 1.9, 2.1)), [peers[0], seldom, never])
    assert j.code == "too_few_games" and "1 of the 3 printed bosses" in j.sentence


# ---- balance --sweep: what number makes it fair? ------------------------------------------

def _balance_json(*args: str) -> dict:
    r = CliRunner().invoke(main, ["balance", *args, "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_a_swept_value_gives_the_figures_of_the_card_written_with_it(tmp_path):
    """`balance --sweep 'gorgon.wounds=1,3'`: the value 3 is measured exactly as `balance` of
    the same mod with `wounds 3` written in the card, figure for figure (the same deals, the
    same slot, the same replayed floors)."""
    text = (Path(GORGON) / "gorgon.dsl").read_text()
    assert "  wounds 2\n" in text
    written = tmp_path / "gorgon3"
    written.mkdir()
    (written / "gorgon.dsl").write_text(text.replace("  wounds 2\n", "  wounds 3\n"))
    (written / "mod.yaml").write_text((Path(GORGON) / "mod.yaml").read_text())
    common = ("--games", "12", "--players", "3", "--bots", "greedy")
    swept = _balance_json(GORGON, *common, "--sweep", "gorgon.wounds=1,3",
                          "--target", "wounds=1.5")
    plain = _balance_json(str(written), *common)
    assert swept["format"] == "raiders-balance-sweep/1" and swept["card"] == "gorgon"
    values = swept["sweep"]["values"]
    assert [v["value"] for v in values] == [1, 3]
    card = plain["cards"][0]
    for key in ("out", "wounds", "coins", "resolved", "against_slot", "game", "verdict_code"):
        assert values[1][key] == card[key], key
    assert values[0]["wounds"]["value"] < values[1]["wounds"]["value"]
    assert swept["peers"] == card["peers"]
    target = swept["sweep"]["target"]
    assert target["figure"] == "wounds" and target["value"] == 1.5
    assert set(swept["sweep"]["in_line"]) <= {1, 3}


def test_the_sweep_lines_name_each_value_its_verdict_and_the_nearest():
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "300", "--jobs", "1", "--bots",
                                  "random", "--sweep", "gorgon.strength=2,40",
                                  "--target", "wounds=0.5"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "balance " in out and "--sweep gorgon.strength=2,40" in out
    rows = re.findall(r"^ +(\d+) +(\d+) .*(in line|OUT OF LINE, \w+|too few games)", out, re.M)
    assert [int(v) for v, _, _ in rows] == [2, 40] and all(int(n) == 300 for _, n, _ in rows)
    verdicts = {int(v): said for v, _, said in rows}
    assert "too few games" not in verdicts.values()
    fair = [v for v, said in verdicts.items() if said == "in line"]
    assert re.search(r"in line with the printed bosses at " + (
        "gorgon\\.strength = " + ", ".join(map(str, fair)) if fair else "no value swept") + "\n",
        out), out
    assert re.search(r"target wounds = 0\.5: (nearest at gorgon\.strength = (2|40) \(|the "
                     r"figure does not separate)", out), out
    assert "the printed bosses (base games" in out and out.rstrip().splitlines()[-1].startswith(
        "Design:")


def test_values_without_a_verdict_are_not_said_to_be_out_of_line():
    """`--games 5`: every value "too few games", and the line under them said "in line with the
    printed bosses at no value swept", as though each were out of line."""
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "5", "--jobs", "1", "--bots",
                                  "random", "--sweep", "gorgon.wounds=1,3"])
    assert r.exit_code == 0, r.output
    assert "at no value swept" not in r.stdout and "in line with" not in r.stdout, r.stdout
    assert "  no verdict at any value swept (too few games)\n" in r.stdout
    lines = bal_sweep.sweep_lines(*_sweep_case(["in_line", "too_few_games", "out_of_line_harder"]))
    assert ("  in line with the printed bosses at gorgon.wounds = 1; no verdict at 2 (too few "
            "games)") in lines, lines
    lines = bal_sweep.sweep_lines(*_sweep_case(["out_of_line_easier", "too_few_games",
                                                "out_of_line_harder"]))
    assert ("  in line with the printed bosses at no value swept; no verdict at 2 (too few "
            "games)") in lines, lines


def test_the_target_line_does_not_round_a_target_outside_into_the_interval():
    """coins=0.2 against [0.204188, 0.302478] read "(0.25, 95% [0.20, 0.30], the target is
    outside)"."""
    entry, param, values, verdicts, fair, _ = _sweep_case(["in_line"])
    me = _side("Gorgon", coins=(0.253333, 0.204188, 0.302478))
    verdicts = [attrs.evolve(verdicts[0], me=me)]
    aim = {"figure": "coins", "value": 0.2, "separated": True, "holding": [], "best": 1}
    line = bal_sweep.sweep_lines(entry, param, values, verdicts, fair, aim)[-1]
    assert line == ("  target coins = 0.2: nearest at gorgon.wounds = 1 (0.253, 95% [0.204, "
                    "0.302], the target is outside)"), line


def test_a_value_out_of_line_says_on_which_figure_and_what_the_verdicts_rest_on():
    """The table said "OUT OF LINE, harder" with no figure, and nothing said that the verdicts
    rested on 6 of the 10 printed bosses (plain balance's verdict says so)."""
    peers = [_side(f"Peer {i}", coins=(-0.8, -1.0, -0.6)) for i in range(3)]
    seldom = _side("Seldom", resolved=4, games=4)
    harder = _judge(_side("Me", coins=(-1.2, -1.3, -1.1)), [*peers, seldom])
    assert harder.code == "out_of_line_harder" and harder.partial.startswith(
        "3 of the 4 compared, the others too seldom met: --games "), harder.partial
    mixed = _judge(_side("Me", wounds=(3, 2.9, 3.1), coins=(0.9, 0.8, 1.0)), peers)
    assert mixed.code == "out_of_line_mixed" and mixed.partial == ""
    assert bal_sweep.short(harder) == "OUT OF LINE, harder (coins)"
    assert bal_sweep.short(mixed) == "OUT OF LINE, mixed (wounds harder, coins easier)"
    entry, param, values, verdicts, fair, aim = _sweep_case(["in_line", "in_line"])
    verdicts = [attrs.evolve(verdicts[0], judgement=harder),
                attrs.evolve(verdicts[1], judgement=mixed)]
    lines = bal_sweep.sweep_lines(entry, param, values, verdicts, [], aim)
    assert lines[2].endswith("OUT OF LINE, harder (coins)"), lines
    assert lines[3].endswith("OUT OF LINE, mixed (wounds harder, coins easier)"), lines
    assert re.fullmatch(r"  the verdicts compare it with 3 of the 4 printed bosses, the others "
                        r"too seldom met: --games \d+ would compare them", lines[5]), lines


def test_a_figure_that_is_0_at_every_value_is_not_said_to_want_more_games():
    """`--sweep 'lich.strength=10,20' --target out=0.1` on a boss that puts nobody out said
    "their 95% intervals all overlap, and none holds 0.1 (more --games may)": no number of
    games moves a figure that is 0 every time."""
    entry, param, values, verdicts, fair, _ = _sweep_case(["in_line", "in_line"])
    aim = {"figure": "out", "value": 0.1, "separated": False, "holding": [], "best": None}
    line = bal_sweep.sweep_lines(entry, param, values, verdicts, fair, aim)[-1]
    assert line == ("  target out = 0.1: the figure does not separate the values: the card put "
                    "no player out any time it was resolved, at any value swept"), line
    aim = {"figure": "wounds", "value": 3.0, "separated": False, "holding": [], "best": None}
    line = bal_sweep.sweep_lines(entry, param, values, verdicts, fair, aim)[-1]
    # alike, and alike far from the target: the values swept do not reach it ("none holds 3.0
    # (more --games may)" said nothing of where the target lay)
    assert line.endswith("their 95% intervals all lie below 3.0 and overlap one another; the "
                         "values swept do not reach it (sweep further, or more --games may tell "
                         "them apart)"), line
    aim = {"figure": "wounds", "value": 0.5, "separated": False, "holding": [], "best": None}
    line = bal_sweep.sweep_lines(entry, param, values, verdicts, fair, aim)[-1]
    assert "all lie above 0.5" in line, line


def test_the_target_line_says_when_the_nearest_value_is_out_of_line():
    """The recipe writes the nearest value into the card: `--target wounds=1.2` named
    lich.strength = 16 with nothing on that line saying 16 was OUT OF LINE (on its coins)."""
    entry, param, values, verdicts, fair, _ = _sweep_case(["in_line", "in_line"])
    peers = [_side(f"Peer {i}", coins=(-0.8, -1.0, -0.6)) for i in range(3)]
    harder = _judge(_side("Me", wounds=(1.18, 1.08, 1.27), coins=(-1.2, -1.3, -1.1)), peers)
    verdicts = [verdicts[0], attrs.evolve(verdicts[1], judgement=harder,
                                          me=_side("Me", wounds=(1.18, 1.08, 1.27)))]
    aim = {"figure": "wounds", "value": 1.2, "separated": True, "holding": [2], "best": 2}
    line = bal_sweep.sweep_lines(entry, param, values, verdicts, [1], aim)[-1]
    assert line == ("  target wounds = 1.2: nearest at gorgon.wounds = 2 (1.18, 95% [1.08, "
                    "1.27], the target is inside); but its verdict there is OUT OF LINE, harder "
                    "(coins)"), line
    aim = {"figure": "wounds", "value": 1.0, "separated": True, "holding": [1], "best": 1}
    line = bal_sweep.sweep_lines(entry, param, values, verdicts, [1], aim)[-1]
    assert "verdict there" not in line, line  # in line there: nothing to add


def test_a_card_without_peers_is_not_sent_to_lines_a_sweep_does_not_print():
    """`balance examples/mods/bosses-2013 --ruleset classic --sweep 'medusa-2013#1=10,20'` said
    "at 10: no printed boss-2013 …; judge it by the whole game's change above": a sweep prints
    no whole game's change."""
    entry, param, values, verdicts, fair, aim = _sweep_case(["no_peers", "no_peers"])
    lines = bal_sweep.sweep_lines(entry, param, values, verdicts, fair, aim)
    assert "  no verdict at any value swept (no printed bosses)" in lines, lines
    assert lines[-1] == ("  no printed boss to measure it against: its figures above are the "
                         "answer (each value's change to the whole game: --json, `game`)"), lines
    assert not any("above" in line and "whole game's change" in line for line in lines)


def _sweep_case(codes: list[str]):
    """sweep_lines' arguments for gorgon.wounds = 1, 2, 3 with these verdicts."""
    entry = bal.Entry("gorgon", "boss", True, ())
    me = _side("Gorgon")
    verdicts = [bal.Verdict(entry, {}, me, {}, {}, {},
                            bal.Judgement([], code, code, []), []) for code in codes]
    values = [1, 2, 3][:len(codes)]
    fair = [v for v, c in zip(values, codes, strict=True) if c == "in_line"]
    return entry, "gorgon.wounds", values, verdicts, fair, {}


@pytest.mark.parametrize("args, said", [
    (["--sweep", "dragon.wounds=1..3"], "not one of the cards this mod deals"),
    (["--target", "wounds=1"], "--target needs --sweep"),
    (["--sweep", "gorgon.wounds=1..3", "--target", "win.seat.P1=0.2"], "no figure `win.seat.P1`"),
    (["--sweep", "gorgon.armour=1..3"], "gorgon"),
    (["--sweep", "gorgon.wounds"], "--sweep"),
    # balance's own figures in the example, not simulate's (win.seat.P1 is refused above)
    (["--sweep", "gorgon.wounds=1..3", "--target", "wounds"], "e.g. wounds=1.2"),
    (["--sweep", "gorgon.wounds=1..3", "--target", "wounds=inf"], "a finite number"),
    (["--sweep", "gorgon.wounds=1..3", "--target", "out=30"], "out is a share of the players"),
    # the second --sweep was silently played instead of the first
    (["--sweep", "gorgon.wounds=1..3", "--sweep", "gorgon.strength=10,20"], "given 2 times"),
    (["--sweep", "gorgon.wounds=1..3", "--target", "wounds=1", "--target", "out=0.2"],
     "aims at one figure at a time"),
])
def test_a_sweep_balance_cannot_run_is_a_usage_error(args, said):
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "5", "--jobs", "1", *args])
    assert r.exit_code == 2, r.output
    assert said in r.output and "Traceback" not in r.output
    assert "win.seat.P1=0.25" not in r.output  # a figure balance does not know


@pytest.mark.parametrize("sweep", [[], ["--sweep", "gorgon.wounds=1,2"]], ids=["plain", "sweep"])
def test_a_run_stopped_by_ctrl_c_does_not_claim_seeds_it_did_not_play(sweep, monkeypatch):
    """Ctrl-C after 2 of 10 games: the header said "2 games on seeds 1..2", yet with --jobs 2
    the games finished are each worker's first ones (seeds 1..224 and 501..724 of 2000, say),
    whose figures differ from seeds 1..448's. It now says how many of the seeds asked were
    played, and the note is on stderr for a --json reader (a sweep said it on stdout only)."""
    real = bal._play_pair
    played = []

    def stop_after_two(*args):
        played.append(args)
        if len(played) == 2:  # as the SIGINT handler does: the chunk stops before the next
            monkeypatch.setattr(sim, "_STOP", True)
        return real(*args)

    monkeypatch.setattr(bal, "_play_pair", stop_after_two)
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "10", "--jobs", "1", "--bots",
                                  "random", *sweep])
    assert r.exit_code == 130, r.output
    assert r.stdout.startswith("interrupted after 2 games"), r.stdout
    assert "interrupted after 2 games" in r.stderr
    assert "seeds 1..2" not in r.stdout
    assert re.search(r" 2 (paired )?games (a value )?of the 10 asked \(those finished when "
                     r"stopped\) from seeds 1\.\.10", r.stdout), r.stdout
    played.clear()
    r = CliRunner().invoke(main, ["balance", GORGON, "--games", "10", "--jobs", "1", "--bots",
                                  "random", "--json", *sweep])
    assert r.exit_code == 130 and "interrupted after 2 games" in r.stderr, r.output
    assert json.loads(r.stdout)["interrupted"] is True


def test_the_help_says_how_to_name_any_number_and_the_values():
    """`balance --help` named only 'gorgon.strength=10..22:2': nothing of `#K`, table rows or
    `A,B,C`, which a modder sweeping a trap's row needs."""
    text = " ".join(CliRunner().invoke(main, ["balance", "--help"]).stdout.split())
    for said in ("A..B:STEP", "A,B,C", "CARD.FIELD#K", "CARD.FIELD.ROW", "CARD#K",
                 "lists the card's numbers"):
        assert said in text, said


def test_a_solo_balance_says_one_player(tmp_path):
    """`balance MOD --ruleset classic --variant solo --players 1` said "classic solo, 1 players"
    (simulate says "1 player")."""
    (tmp_path / "pit.dsl").write_text("trap pit {\n  name \"Pit\"\n  hits { 1 -> lowest: "
                                      "wound 1 }\n}\n")
    (tmp_path / "mod.yaml").write_text("deck: {pit: 1}\nrulesets: [classic]\n")
    mod = str(tmp_path)
    for sweep in ([], ["--sweep", "pit.hits.1=1,2"]):
        r = CliRunner().invoke(main, ["balance", mod, "--variant", "solo", "--players", "1",
                                      "--games", "3", "--jobs", "1", *sweep])
        assert r.exit_code == 0, r.output
        assert "classic solo, 1 player, 3 " in r.stdout, r.stdout


def test_a_boss_of_a_kind_of_the_mod_s_own_is_measured_among_the_printed_bosses(tmp_path):
    """`kind elite-boss : boss` (docs/dsl.md derives kinds so): its boss was "no printed
    elite-boss to compare with" and got no verdict, though it is a boss in the boss slot."""
    mod = _mod(tmp_path, "kind elite-boss : boss(wounds = 2) { }\n"
               "elite-boss ogre-king { name \"Ogre King\"  strength 12 / 16 / 20 }\n",
               "bosses: [ogre-king]\n")
    base = load_rules("deluxe", None, ())
    modded = load_rules("deluxe", None, (mod,))
    (entry,), _ = bal.entries(base, modded, bal.own_cards(mod, modded))
    assert (entry.kind, entry.peer_kind) == ("elite-boss", "boss")
    assert set(entry.peers) == set(base.bosses)
    assert entry.describe() == ("(ogre-king, an elite-boss, measured among the printed bosses, "
                                "in the boss slot)")
    gorgon = bal.Entry("gorgon", "boss", True, ())
    assert gorgon.describe() == "(gorgon, a boss, in the boss slot)"
    r = CliRunner().invoke(main, ["balance", mod, "--games", "3", "--jobs", "1", "--json"])
    card = json.loads(r.stdout)["cards"][0]
    assert (card["kind"], card["peer_kind"]) == ("elite-boss", "boss")
    assert set(card["peers"]) == set(base.bosses)
