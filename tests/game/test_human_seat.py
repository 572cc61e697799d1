"""`play --human` (issue 24): the table names the others' items as the narration does, shows
the power cards they have left this floor (X-3: played ones lie face up), gives the rooms to
come with their numbers, and does not ask for a card when only one can be played."""
import functools
import re

from raiders.interpreter.game.botspec import make_bot
from raiders.interpreter.game.engine import Game
from raiders.interpreter.game.human import HumanSeat
from raiders.interpreter.runtime.rules import load_rules


@functools.lru_cache(maxsize=None)  # one game for every test here: the fast tier stays fast
def play_as_person(seed: int = 2):
    """Seat 1 a person who always answers the highest power card offered (and no to
    questions): one who lives to the end of the game."""
    said: list[str] = []
    asked: list[str] = []

    def ask(prompt: str, default=None) -> str:
        asked.append(prompt)
        offered = re.search(r"\(([^)]*)\) \[\? for help\]", prompt)
        if not offered:
            return "n"
        cards = offered.group(1).split(", ")
        return max((c for c in cards if c.isdigit()), default=cards[0])

    rules = load_rules("deluxe", None, ())
    seats = [HumanSeat(ask, said.append), make_bot("random"), make_bot("random")]
    game = Game(rules, ["P1", "P2", "P3"], seats, seed=seed)
    game.run(lambda rec: None)
    return game, "\n".join(said), asked


def test_the_others_items_are_named_as_the_narration_names_them():
    _, text, _ = play_as_person()
    # P2 is the Wizard with two crystal balls (seed 2), named, not counted
    assert re.search(r"P2 .* Crystal Ball, Crystal Ball", text), text[:2000]
    assert not re.search(r"\b\d+ items?\b", text)


def test_the_others_power_cards_left_this_floor_are_shown():
    _, text, _ = play_as_person()
    first = text.split("[P1] floor 1, room 2")[1].split("[P1]")[0]
    hands = re.findall(r"^    P[23] .*hand ([1-5 ]+?)  ", first, re.M)
    assert len(hands) == 2 and all(len(h.split()) == 4 for h in hands), first


def test_rooms_to_come_show_their_numbers_for_this_table():
    _, text, _ = play_as_person()
    line = next(ln for ln in text.splitlines() if ln.startswith("[P1] floor 1, room 1:"))
    assert "Snake (strength 8, wounds 3)" in line  # strength for 3 players
    later = next(ln for ln in text.splitlines() if ln.startswith("[P1] floor 1, room 3:"))
    assert later.split(" | ")[0].endswith("Snake")  # a room played: its name only


def test_the_only_card_left_is_played_without_asking():
    game, text, asked = play_as_person()
    card_prompts = [a for a in asked if "your card" in a]
    assert all(", " in re.search(r"\(([^)]*)\)", a).group(1) for a in card_prompts)
    # a floor's last room, unless an item could be played there instead (a real choice)
    assert text.count("the only card you can play here") >= 2
    assert game.records  # the game was played to its end


def test_the_peek_question_names_the_item_and_gives_the_answers_once():
    """A person holding a torch (rule X-2: a peek item looks at the floor's face-down rooms) is
    asked by the item's name; the terminal prompt does not repeat a default after `[y/n]`."""
    _, _, asked = play_as_person(1)
    peeks = [a for a in asked if "hidden rooms" in a]
    assert peeks and all(p.endswith("with your Torch? [y/n]") for p in peeks), peeks
    from click.testing import CliRunner

    from raiders.interpreter.game import human

    shown = CliRunner().invoke(click_prompt_probe(human._prompt), input="y\n").output
    assert shown.startswith("question? [y/n]: ") and "[n]" not in shown


def click_prompt_probe(prompt):
    import click

    @click.command()
    def probe():
        click.echo(prompt("question? [y/n]", default="n"))

    return probe
