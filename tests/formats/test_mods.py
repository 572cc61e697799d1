"""Mods that add to the game (issue 8 §5): mod.yaml's items, characters and rulesets, a folder
of mods, the boss-in-the-deck warning, and the example mods playing and replaying."""
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main
from raiders.interpreter.runtime.rules import LoadError, load_rules

ROOT = Path(__file__).resolve().parents[2]
MODS = ROOT / "examples" / "mods"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_mod_adds_items_to_the_supply_and_characters_to_the_pool():
    rules = load_rules("deluxe", None, (str(MODS / "amulet"), str(MODS / "merchant")))
    base = load_rules("deluxe")
    assert rules.supply["amulet"] == 2 and "amulet" not in base.supply
    assert "amulet" in rules.items and rules.items["amulet"].rules.effect_mods
    assert rules.pool[-1] == "merchant" and "merchant" not in base.pool
    assert rules.supply["sword"] == base.supply["sword"]  # the ruleset's own supply kept


def test_a_folder_of_mods_loads_each_mod_and_skips_those_for_other_rulesets():
    rules = load_rules("classic", None, (str(MODS),))
    assert "gorgon" not in rules.rooms  # mod.yaml: rulesets: [deluxe]
    assert "wishing-well" in rules.deck and "sphinx-2013" in rules.bosses
    deluxe = load_rules("deluxe", None, (str(MODS),))
    assert "gorgon" in deluxe.bosses


def test_a_mod_named_with_a_ruleset_it_is_not_for_is_an_error():
    try:
        load_rules("classic", None, (str(MODS / "gorgon"),))
    except LoadError as err:
        assert [d.code for d in err.diagnostics] == ["E508"]
        assert "for deluxe, not classic" in err.diagnostics[0].message
    else:
        raise AssertionError("the deluxe-only mod loaded with classic")
    result = run("play", "--ruleset", "classic", "--cards", MODS / "gorgon", "-q")
    assert result.exit_code == 1 and "E508" in result.output


def test_a_boss_in_the_deck_warns_but_does_not_fail(tmp_path):
    (tmp_path / "lich.dsl").write_text('boss lich { name "Lich" strength 10 / 12 / 14 '
                                       'wounds 2 }\n')
    result = run("validate", tmp_path)
    assert result.exit_code == 0, result.output
    assert "warning[W601]" in result.output and "bosses: [lich]" in result.output
    (tmp_path / "mod.yaml").write_text("bosses: [lich]\n")
    assert "W601" not in run("validate", tmp_path).output


def test_mod_yaml_fields_are_checked(tmp_path):
    (tmp_path / "c.dsl").write_text('item charm { name "Charm" }\n')
    (tmp_path / "mod.yaml").write_text("items: {charm: many, dragon: 1}\ncharacters: [charm]\n"
                                       "colour: red\n")
    out = run("validate", tmp_path).output
    assert "copies of `charm` must be a whole number" in out
    assert "`dragon`, which is not an item card" in out
    assert "`charm`, which is not a character card" in out
    assert "unknown or malformed mod field `colour`" in out


def test_a_misspelt_mod_yaml_field_gets_did_you_mean(tmp_path):
    """mod.yaml is read through the shared field reader (formats/fields.py), as rulesets,
    scenarios and logs are: `dek` is E504 at its key, with the field meant (issue 24)."""
    (tmp_path / "c.dsl").write_text("treasure urn { chest 2 }\n")
    (tmp_path / "mod.yaml").write_text("dek: {urn: 1}\n")
    out = run("validate", tmp_path).output
    assert "mod.yaml:1:1: error[E504]: unknown or malformed mod field `dek`" in out
    assert "hint: did you mean `deck`?" in out


def test_every_example_mod_plays_and_replays(tmp_path):
    for ruleset in ("deluxe", "classic"):
        for seed in (1, 2):
            log = tmp_path / f"{ruleset}-{seed}.yaml"
            result = run("play", "--ruleset", ruleset, "--cards", MODS, "--seed", seed, "-q",
                         "--bots", "random,greedy,random,greedy", "--log", log)
            assert result.exit_code == 0, result.output
    result = run("replay", "--check", "-q", "--allow-path", MODS, tmp_path)
    assert result.exit_code == 0 and "4 ok" in result.output, result.output


def test_narration_says_what_the_new_effects_did(tmp_path):
    """Statuses, dice, transfers and answers are narrated (issue 8 §3: shown in narration)."""
    from raiders.interpreter.records.narrate import effect_words, standings
    from raiders.interpreter.runtime.state import Mark, Player

    # a status by its name, adjective or noun, with the count it comes to (issue 21)
    assert effect_words("mark", "Ann", ("poisoned", 1)) == "Ann now has the status poisoned"
    assert effect_words("mark", "Ann", ("idol", 2)) == "Ann now has the status idol (2)"
    assert effect_words("unmark", "Ann", ("idol", 1)) == "Ann now has the status idol (1 left)"
    assert effect_words("unmark", "Ann", ("poisoned", 0)) == \
        "Ann no longer has the status poisoned"
    assert effect_words("roll", "", 4) == "a die rolls 4"
    # plurals made right for the number (issue 10: "gains 1 coin(s)" no more)
    assert effect_words("steal", "Bob", "2 coin(s) from Ann") == "Bob takes 2 coins from Ann"
    assert effect_words("steal", "Bob", "1 coin(s) from Ann") == "Bob takes 1 coin from Ann"
    assert effect_words("gain", "Bob", 1) == "Bob gains 1 coin"
    assert effect_words("take", "Ann", "key") == "Ann gives a key back to the supply"
    ann = Player(0, "Ann")
    ann.marks["poisoned"] = Mark(2)
    assert "{poisoned x2}" in standings([ann])


def test_rooms_of_rounds_and_several_cards_play_and_replay_with_every_bot(tmp_path):
    """A deck of two-round and two-card rooms: players run out of cards mid-room (they count
    `missing`, the log says `[]`), a crystal ball with nothing to follow it is not playable."""
    mod = tmp_path / "heads"
    mod.mkdir()
    (mod / "heads.dsl").write_text(
        'monster twin-heads { name "Twin Heads" strength 6 / 8 / 10  wounds 1  rounds 2 }\n'
        'monster pair { name "Pair" strength 9 / 11 / 13  wounds 1  cards 2 }\n')
    (mod / "mod.yaml").write_text("deck: {twin-heads: 12, pair: 8}\n")
    logs = tmp_path / "logs"
    logs.mkdir()
    for bots in ("greedy", "random"):
        for seed in (1, 2):
            result = run("play", "--cards", mod, "--seed", seed, "-q", "--bots", bots,
                         "--log", logs / f"{bots}-{seed}.yaml")
            assert result.exit_code == 0, result.output
    assert any(": []" in f.read_text() for f in logs.iterdir())
    result = run("replay", "--check", "-q", "--allow-path", mod, logs)
    assert result.exit_code == 0 and "4 ok" in result.output, result.output


def test_a_log_without_a_seed_must_record_its_dice(tmp_path):
    import re

    for seed in range(1, 30):
        log = tmp_path / f"dice-{seed}.yaml"
        assert run("play", "--cards", MODS / "dice", "--seed", seed, "-q",
                   "--log", log).exit_code == 0
        text = log.read_text()
        if "rolls:" in text:
            break
    assert run("replay", "--check", "-q", "--allow-path", MODS, log).exit_code == 0
    stripped = re.sub(r"^seed: .*\n", "", text, flags=re.M)
    stripped = re.sub(r",? ?rolls: \[[0-9, ]*\]", "", stripped)
    log.write_text(stripped)
    result = run("replay", "--check", "-q", "--allow-path", MODS, log)
    assert result.exit_code == 1 and "rolls a die, but the log gives 0 roll(s) and no seed" \
        in result.output, result.output


def test_classic_deals_a_2013_boss_as_the_25th_room_and_its_logs_replay(tmp_path):
    """Issue 8's acceptance: `play --ruleset classic --cards examples/mods/bosses-2013`."""
    import re

    from raiders.interpreter.runtime.rules import load_rules

    bosses = set(load_rules("classic", None, (str(MODS / "bosses-2013"),)).bosses)
    assert len(bosses) == 11
    for seed in (1, 2, 3):
        log = tmp_path / f"g{seed}.yaml"
        result = run("play", "--ruleset", "classic", "--cards", MODS / "bosses-2013",
                     "--seed", seed, "-q", "--bots", "greedy", "--log", log)
        assert result.exit_code == 0, result.output
        floors = re.findall(r"\{rooms: \[(.*?)\], facing: (\w+)\}", log.read_text())
        assert len(floors) == 5
        last_room = floors[-1][0].split(", ")[-1]
        assert last_room in bosses and floors[-1][1][-1] == "U"  # mod.yaml: boss_facing up
    result = run("replay", "--check", "-q", "--allow-path", MODS, tmp_path)
    assert result.exit_code == 0 and "3 ok" in result.output, result.output


def test_validate_finds_every_mod_below_a_folder_and_checks_each_with_its_manifest():
    """`validate examples/`: mods two levels down are each checked with their mod.yaml (no
    false W601 for bosses, no false E410 for items a mod adds), scenarios beside them too."""
    result = run("validate", ROOT / "examples")
    assert result.exit_code == 0, result.output
    assert "W601" not in result.output and "E410" not in result.output


def test_a_ruleset_typo_in_mod_yaml_says_so(tmp_path):
    import shutil

    mod = tmp_path / "gorgon"
    shutil.copytree(MODS / "gorgon", mod)
    (mod / "mod.yaml").write_text("bosses: [gorgon]\nrulesets: [delux]\n")
    out = run("validate", mod).output
    assert "`delux` is not a built-in ruleset" in out and "did you mean `deluxe`?" in out
    assert "E508" not in run("play", "--cards", mod, "-q").output


def test_a_room_nobody_can_beat_is_narrated_in_words():
    from raiders.interpreter.records.narrate import _test_words
    from raiders.interpreter.runtime.compiled import NEVER

    text = _test_words((7, ">=", NEVER, False, "beaten"), "the Golem")
    assert text == "7, but no sum reaches the Golem's strength: the Golem cannot be beaten"


def test_show_describes_every_card_of_every_mod_in_words():
    """`raiders show` of a status, a house rule, an item or a character with rules: its kind in
    a sentence and its rules in words (a status once crashed `show`)."""
    from raiders.interpreter.runtime.describe import describe

    for ruleset in ("deluxe", "classic"):
        rules = load_rules(ruleset, None, (str(MODS),))
        for card_id in rules.library.cards:
            lines = describe(rules, card_id)
            assert lines and all("(s)" not in line for line in lines), (card_id, lines)
    rules = load_rules("deluxe", None, (str(MODS / "poison"),))
    assert describe(rules, "poisoned") == [
        "Poisoned: a status (`mark poisoned`); its rules run for whoever has it, for as long "
        "as it lasts.", "  After room: you: take 1 wound."]


def test_a_card_file_that_does_not_parse_is_the_only_error_not_every_card_it_holds(tmp_path):
    """A syntax error hides the file's cards: mod.yaml naming them is not reported as well
    (a modder saw one E502 per card); a name that is wrong for another reason still is."""
    (tmp_path / "cards.dsl").write_text('item lucky-charm { name "L" }\n'
                                        'item broken { name "B"  after wound on you {\n')
    (tmp_path / "mod.yaml").write_text("items: {lucky-charm: 1, broken: 1}\n")
    result = run("validate", tmp_path)
    assert result.exit_code == 1 and "E003" in result.output, result.output
    assert "E502" not in result.output, result.output
    (tmp_path / "cards.dsl").write_text('item lucky-charm { name "L" }\n')
    result = run("validate", tmp_path)
    assert result.exit_code == 1 and "E502" in result.output and "`broken`" in result.output


def test_a_card_file_dropped_for_a_number_too_large_brings_no_e502_either(tmp_path):
    (tmp_path / "c.dsl").write_text(
        'item r1 { name "R"  after room { you: gain roll(1000000000000) coins } }\n')
    (tmp_path / "mod.yaml").write_text("items: {r1: 1}\n")
    result = run("validate", tmp_path)
    assert result.exit_code == 1 and "E301" in result.output and "E502" not in result.output


def test_a_second_document_in_mod_yaml_is_an_error_not_dropped(tmp_path):
    (tmp_path / "c.dsl").write_text('treasure t1 { name "T"  chest 1 }\n')
    (tmp_path / "mod.yaml").write_text("deck: {t1: 5}\n---\n{}\n")
    result = run("validate", tmp_path)
    assert result.exit_code == 1 and "mod.yaml:2:1: error[E503]: mod.yaml is one YAML document" \
        in result.output, result.output
    (tmp_path / "mod.yaml").write_text("# a comment first\n---\ndeck: {t1: 5}\n")
    assert run("validate", tmp_path).exit_code == 0


def test_fmt_diff_marks_a_last_line_without_newline_and_stdin_reads_like_a_file(tmp_path):
    path = tmp_path / "nonl.dsl"
    path.write_text('monster   q {name "Q"\n strength 1/2/3 wounds 1}')
    result = run("fmt", "--diff", path)
    assert "\\ No newline at end of file\n" in result.output
    bom = CliRunner().invoke(main, ["fmt", "-"], input=b'\xef\xbb\xbfmonster q { name "Q" }\n')
    assert bom.exit_code == 0 and bom.output == 'monster q { name "Q" }\n', bom.output
    bad = CliRunner().invoke(main, ["fmt", "-"], input=b"\xff")
    assert bad.exit_code == 1 and "not utf-8 text (byte 0xff at offset 0)" in bad.output


ITEM = 'item charm { name "Charm"  modify wound on you to amount - 1 }\n'


def test_an_item_the_supply_holds_but_no_card_gives_warns(tmp_path):
    """Issue 21: an item of mod.yaml's `items:` that no room dealt, no character of the pool
    and no card in play ever gives never appears in a game (W604, the reverse of E410)."""
    (tmp_path / "c.dsl").write_text(
        ITEM + 'vault charm-shop { name "Charm Shop"  rewards { 1 -> give charm } }\n')
    (tmp_path / "mod.yaml").write_text("items: {charm: 2}\n")  # the shop is not dealt
    result = run("validate", tmp_path)
    assert result.exit_code == 0, result.output  # a warning: validate does not fail
    assert "mod.yaml:1:9: warning[W604]: `charm` joins the supply, but no card of the game " \
           "ever gives it" in result.output, result.output
    (tmp_path / "mod.yaml").write_text("items: {charm: 2}\ndeck: {charm-shop: 1}\n")
    assert "W604" not in run("validate", tmp_path).output


def test_an_item_given_by_a_character_or_a_card_in_play_does_not_warn(tmp_path):
    given = {
        "a character's starting items": ('character charmer { name "Charmer"  items charm }\n',
                                         "characters: [charmer]\n"),
        "a status's rule": ('status lucky { name "Lucky"  after room { you: give charm } }\n',
                            ""),
        "a house rule": ('rule charms { name "Charms"  after floor_start { everyone: '
                         'give charm } }\n', ""),
    }
    for why, (card, manifest) in given.items():
        (tmp_path / "c.dsl").write_text(ITEM + card)
        (tmp_path / "mod.yaml").write_text("items: {charm: 2}\n" + manifest)
        result = run("validate", tmp_path)
        assert result.exit_code == 0 and "W604" not in result.output, (why, result.output)
    (tmp_path / "mod.yaml").write_text("items: {charm: 0}\n")  # no copy: nothing to warn of
    assert "W604" not in run("validate", tmp_path).output


def test_an_unclosed_bracket_in_mod_yaml_points_at_the_bracket(tmp_path):
    """Issue 24: an unclosed `[` was reported past the file's last line, with no source line
    or caret; card files point at the brace never closed, and so does YAML now."""
    from click.testing import CliRunner

    from raiders.interpreter.cli import main

    mod = tmp_path / "m"
    mod.mkdir()
    (mod / "gorgon.dsl").write_text((ROOT / "examples/mods/gorgon/gorgon.dsl").read_text())
    (mod / "mod.yaml").write_text("rulesets: [deluxe]\nbosses: [gorgon\n")
    result = CliRunner().invoke(main, ["validate", str(mod)])
    assert result.exit_code == 1
    assert ("mod.yaml:2:9: error[E501]: YAML: this `[` is never closed: the file ends before "
            "its `]`") in result.stderr
    assert "2 | bosses: [gorgon\n  |         ^" in result.stderr
    (mod / "mod.yaml").write_text("deck: {gorgon: 1\n")
    braces = CliRunner().invoke(main, ["validate", str(mod)]).stderr
    assert "mod.yaml:1:7: error[E501]: YAML: this `{` is never closed" in braces
    # after a comma the parser names no bracket: the last one left open is found in the text
    for text, where, bracket in [("rulesets: [deluxe]\nbosses: [gorgon,\n", "2:9", "["),
                                 ("bosses: [gorgon,", "1:9", "["),
                                 ('name: "a [ b"  # [\ndeck: {gorgon: 1,\n', "2:7", "{")]:
        (mod / "mod.yaml").write_text(text)
        err = CliRunner().invoke(main, ["validate", str(mod)]).stderr
        assert f"mod.yaml:{where}: error[E501]: YAML: this `{bracket}` is never closed" in err, err
        assert "^" in err  # the source line is shown, with a caret
