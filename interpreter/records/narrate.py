"""Plain-text narration of a game: floor by floor, room by room, then the winners — in words a
player reads: card and item names rather than ids, plurals right, the sum against the strength
when a room is beaten or not, why a chest is not shared, how the winners' ties were broken."""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from raiders.dsl.diagnostics import an
from raiders.dsl.vocabulary import PLACES
from raiders.interpreter.game.engine import GameResult, RoomRecord
from raiders.interpreter.runtime.compiled import NEVER
from raiders.interpreter.runtime.describe import card_name, count, item_names, plurals
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Card

_EVENT_WORDS = {
    "give": "{who} gets a {n}",
    "eliminate": "{who} is eliminated",
    "attack": "{room} attacks {who}",
    "short": "too few {n}s for {who}: nobody gets one",
    "threat": "the monster card is {n}",
    "take": "{who} gives a {n} back to the supply",
    "steal": "{who} takes {n}",
    "death": "{who} dies",
    "roll": "a die rolls {n}",
    "choice": "{who} answers {n}",
    "pass": "{who} passes {n}",
    "regain": "{who} takes power card {n} back into their hand",
    "discard": "{who} discards power card {n}",
    "echo": "{room} resolves as {n}",
    "until": "{room} ends after round {n}: nobody plays another card there",
}
_COUNTED = {"wound": ("takes", "wound"), "heal": ("heals", "wound"), "gain": ("gains", "coin"),
            "lose": ("loses", "coin")}
_OPS = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than", "==": "exactly",
        "!=": "other than"}


def names(who: str) -> str:
    """`P1,P2,P3` (how the trace lists players) → `P1, P2 and P3`."""
    parts = [w for w in who.split(",") if w]
    if len(parts) < 2:
        return parts[0] if parts else who
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def effect_words(event: str, who: str, n: object, rules: Optional[Rules] = None,
                 room: str = "") -> str:
    """One traced effect in words: `Ann takes 2 wounds`. With `rules`, items by their names;
    `room`: the room's name, for what it does (`the Ogre attacks Ann`)."""
    it = f"the {room}" if room else "it"
    if event == "attack" and not who:
        return f"{it} attacks nobody"
    if event == "roll" and who:
        return f"{who} rolls {n}"
    if event in _COUNTED:
        verb, noun = _COUNTED[event]
        return f"{who} {verb} {count(int(n), noun)}" if isinstance(n, int) \
            else f"{who} {verb} {n} {noun}s"
    if event == "test" and isinstance(n, tuple):
        return _test_words(n, it)
    if event in ("mark", "unmark") and isinstance(n, tuple):
        status, held = n
        return _status_words(event, names(who), status, held, rules)
    if event == "split" and isinstance(n, int):
        return (f"{names(who)} tie for the {count(n, 'coin')}: more sharers than coins, "
                "so nobody gets any")
    if event in ("mark_place", "unmark_place"):  # a status on a room, the dungeon, a card
        thing = PLACES[who].phrase if who in PLACES else who
        return f"{thing} {'now has' if event == 'mark_place' else 'no longer has'} `{n}`"
    if event == "become" and isinstance(n, tuple):
        was, now = n
        if rules is not None:
            was, now = (rules.rooms[c].name if c in rules.rooms else c for c in (was, now))
        return f"the room {was} will be played as {now}"
    if event == "echo" and rules is not None and isinstance(n, str) and n in rules.rooms:
        n = rules.rooms[n].name
    if rules is not None and isinstance(n, str) and n in rules.items:
        n = rules.items[n].name
    text = _EVENT_WORDS.get(event, "{who} {n}").format(who=names(who), n=n, room=it)
    return plurals(text)


def _status_words(event: str, who: str, status: str, held: int,
                  rules: Optional[Rules]) -> str:
    """`Ann now has the status Idol (2)`: a status by its name, whatever word it is (an
    adjective, `Poisoned`, or a noun, `Idol`), with the count when it is more than one."""
    if rules is not None and status in rules.statuses:
        status = rules.statuses[status].name
    if event == "mark":
        return f"{who} now has the status {status}" + (f" ({held})" if held > 1 else "")
    if held:
        return f"{who} now has the status {status} ({held} left)"
    return f"{who} no longer has the status {status}"


def _test_words(test: tuple, it: str) -> str:
    """A comparison the rules made: `18 against 16: the Ogre is beaten`."""
    left, op, right, passed, kind = test[:5]
    if kind == "beaten" and isinstance(right, int) and right >= NEVER:
        return f"{left}, but no sum reaches {it}'s strength: {it} cannot be beaten"
    if kind == "beaten":
        return f"{left} against {right}: {it} is {'beaten' if passed else 'not beaten'}"
    wl, wr = (test[5], test[6]) if len(test) > 6 else ("", "")
    return (f"{left} against {right}: {wl or left} is {'' if passed else 'not '}"
            f"{_OPS.get(op, op)} {wr or right}")


def card_words(cards: list[Card], rules: Optional[Rules] = None) -> str:
    return " then ".join(card_name(c, rules) for c in cards)


def room_lines(rules: Rules, rec: RoomRecord) -> list[str]:
    room = rules.rooms[rec.card]
    lines = [f"  Room {rec.index + 1}: {room.name} ({room.face})"]  # as the table sees it
    effects = rec.trace
    if rec.before:  # a floor's end and start, before the room is entered
        lines.append("    before the room: " + "; ".join(
            effect_words(event, who, n, rules, room.name) for event, who, n in
            effects[:rec.before]))
        effects = effects[rec.before:]
    if rec.first_player:
        lines.append(f"    first player: {rec.first_player}")
    if rec.peeks:
        lines.append(f"    peeked: {names(','.join(rec.peeks))} looked ahead")
    lines.append("    plays: " + ", ".join(f"{n} {card_words(c, rules)}"
                                           for n, c in rec.plays.items()))
    happened = [effect_words(event, who, n, rules, room.name) for event, who, n in effects]
    lines.append("    " + ("; ".join(happened) if happened else "nothing happens"))
    if room.face != room.kind:  # played: the disguise is off
        lines.append(f"    the {room.name} was {an(room.kind)}, not {an(room.face)}")
    return lines


def standings(players: Iterable, rules: Optional[Rules] = None) -> str:
    """Everyone's coins, wounds, items and statuses after a room: `P1: 2c 3w [War Axe]`."""
    return "    " + " | ".join(
        f"{p.name}: {p.coins}c {p.wounds}w"
        + (f" [{item_names(rules, p.items)}]" if p.items else "")
        + (f" {{{_statuses(p)}}}" if getattr(p, "marks", None) else "")
        + (f" ({p.out})" if p.out else "") for p in players)


def _statuses(p) -> str:
    return ", ".join(n if m.count == 1 else f"{n} x{m.count}" for n, m in sorted(p.marks.items()))


def result_lines(result: GameResult, solo: bool = False,
                 rules: Optional[Rules] = None) -> list[str]:
    lines = ["", "End of the game."]
    scores = result.scores or {}
    for p in result.players:
        character = p.character
        if rules is not None and character in rules.characters:
            character = rules.characters[character].name
        lines.append(f"  {p.name} ({character}): {count(p.coins, 'coin')}, "
                     f"{count(p.wounds, 'wound')}"
                     + (f", score {scores[p.name]}" if p.name in scores else "")
                     + (f" — {p.out}" if p.out else ""))
    if solo:
        hero = result.players[0]
        lines.append("The hero died: no score." if hero.dead else
                     f"The hero survived. Score: {scores[hero.name]} ({count(hero.coins, 'coin')})."
                     if hero.name in scores else
                     f"The hero survived. Score: {hero.coins} coins (20 is a good score).")
    elif result.winners:
        lines.append(("Winner: " if len(result.winners) == 1 else "Winners: ")
                     + names(",".join(result.winners)))
        why = tie_break_words(result.players, result.winners, result.scores)
        if why:
            lines.append(why)
    else:
        lines.append("Nobody wins.")
    return lines


def tie_break_words(players: Sequence, winners: Sequence[str],
                    scores: Optional[dict[str, int]] = None) -> Optional[str]:
    """Why these winners (D-9, C-8): the best score among those still in (their coins, or
    `scores` when a card changed it); a tie is broken by the fewest wounds; still tied, all
    of them win. None when the scores do not explain the winners."""
    still = [p for p in players if not p.out and (scores is None or p.name in scores)]
    won = [p for p in still if p.name in winners]
    if not won or not still:
        return None

    def points(p) -> int:
        return p.coins if scores is None else scores[p.name]

    def worth(n: int) -> str:
        return count(n, "coin") if scores is None else f"a score of {n}"

    top = max(points(p) for p in still)
    if any(points(p) != top for p in won):
        return None
    level = [p for p in still if points(p) == top]
    out = [p for p in players if p.out]
    fell = (f" ({names(','.join(p.name for p in out))} out)" if out else "")
    if len(level) == 1:
        best = "Most coins" if scores is None else "The best score"
        return f"{best} among those still in{fell}: {won[0].name} with {top}" + (
            "." if scores is None else f" ({count(won[0].coins, 'coin')}).")
    tied = names(",".join(p.name for p in level))
    if len(won) == len(level):
        return (f"{tied} have {worth(top)} and {count(won[0].wounds, 'wound')} each: "
                f"still tied after the wounds, {'both' if len(won) == 2 else 'they all'} win.")
    others = [p for p in level if p.name not in winners]
    least = min(p.wounds for p in level)
    return (f"{tied} have {worth(top)} each{fell}; the tie goes to the fewest wounds: "
            f"{names(','.join(p.name for p in won))} with {least} against "
            f"{min(p.wounds for p in others)}.")


def floor_header(floor: int, card: Optional[str], rules: Optional[Rules] = None) -> str:
    if card and rules is not None and card in rules.floors:
        card = rules.floors[card].name
    return f"\nFloor {floor + 1}" + (f" ({card})" if card else "")
