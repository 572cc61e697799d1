"""The browser replay viewer: one self-contained HTML page for a logged game.

`build_view` replays a log (replay.py) and collects, for the setup and after every room, what
the table shows: the floors and their rooms, each player's coins, wounds, items, statuses and
hand, the cards played, what happened, and why (the rules' steps, why.py). Every checkpoint of
the log is compared as the room is shown, and a room whose checkpoint differs is marked with
the expected and the actual numbers (the first such room is the one `replay --check` names).

`render_html` puts that data, the script and the style into one page (no network, nothing
loaded from elsewhere). The same log always gives the same bytes: no dates, no absolute paths,
dictionaries in a fixed order.
"""
from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any, Optional

from raiders.formats.atomic import write_atomic
from raiders.interpreter.game.engine import Game, RoomRecord
from raiders.interpreter.records.logs import LogSpec
from raiders.interpreter.records.narrate import card_words, effect_words
from raiders.interpreter.records.replay import replay
from raiders.interpreter.records.why import RoomEffects, WhyRecorder, merge
from raiders.interpreter.runtime.rules import Rules
from raiders.interpreter.runtime.state import Player

FORMAT = "raiders-viewer/1"  # the shape of the embedded data (the page's script reads it)


def _player_state(p: Player) -> dict[str, Any]:
    return {"coins": p.coins, "wounds": p.wounds, "items": list(p.items),
            "hand": sorted(p.hand), "out": p.out, "dead": p.dead,
            "marks": {name: m.count for name, m in sorted(p.marks.items())}}


def _card_info(rules: Rules, cid: str) -> dict[str, Any]:
    """A card's name and its text in plain words (what `raiders show` prints)."""
    from raiders.interpreter.runtime.describe import describe

    for group in (rules.rooms, rules.characters, rules.items, rules.floors):
        if cid in group:
            return {"name": group[cid].name or cid, "words": describe(rules, cid)}
    for unlisted in (rules.statuses, rules.house):  # cards `raiders show` does not list
        if cid in unlisted:
            card = unlisted[cid]
            return {"name": getattr(card, "name", None) or cid,
                    "words": list(getattr(card, "words", []))}
    return {"name": cid, "words": []}


def _compare(after: dict[str, dict[str, Any]], rec: RoomRecord) -> list[dict[str, Any]]:
    """Every field of the checkpoint that differs from the engine's state after the room."""
    actual = {n: {"coins": c, "wounds": w, "items": sorted(i)} for n, c, w, i in rec.after_state}
    diffs = []
    for name, fields in after.items():
        for field, want in fields.items():
            got = actual.get(name, {}).get(field)
            if got != want:
                diffs.append({"player": name, "field": field, "expected": want, "actual": got})
    return diffs


def build_view(spec: LogSpec, title: str) -> dict[str, Any]:
    """The viewer's data for a log (raises Problems for a bad log, as replay does)."""
    rules = spec.rules
    recorder = WhyRecorder(rules)
    data: dict[str, Any] = {"format": FORMAT, "title": title}
    steps: list[dict[str, Any]] = []
    cards: set[str] = set()
    room_effects = RoomEffects()

    def on_start(game: Game) -> None:
        game.table.why = recorder
        data["players"] = [{"name": p.name, "character": p.character} for p in game.players]
        cards.update(p.character for p in game.players)
        floors = []
        for floor in game.deal.floors:
            if floor.floor_card:
                cards.add(floor.floor_card)
            floors.append({"card": floor.floor_card,
                           "rooms": [{"card": s.card, "up": s.face_up} for s in floor.rooms]})
            cards.update(s.card for s in floor.rooms)
        data["floors"] = floors
        data["start"] = {"players": [_player_state(p) for p in game.players],
                         "supply": dict(sorted(game.supply.items()))}
        cards.update(i for p in game.players for i in p.items)  # shown by name

    def on_room(rec: RoomRecord, game: Game) -> None:
        effects, start = room_effects.of(rec.trace)
        why = recorder.take()
        cards.update(s.card for s in why)
        k = len(steps)
        entry = spec.rooms[k] if k < len(spec.rooms) else None
        room = rules.rooms[rec.card]

        def said(event: str, who: str, n: object) -> str:  # as the narration says it
            return effect_words(event, who, n, rules, room.name)

        step = {
            "floor": rec.floor, "room": rec.index, "card": rec.card,
            "name": room.name, "kind": room.face,
            "firstPlayer": rec.first_player, "torches": list(rec.peeks),
            "plays": [{"player": n, "cards": [str(c) for c in cs], "words": card_words(cs, rules)}
                      for n, cs in rec.plays.items()],
            "monster": rec.monster, "rolls": list(rec.rolls),
            "effects": [said(*e) for e in effects],
            "why": [s.to_json() for s in why],
            "steps": [{"sort": s, "text": t}
                      for s, t in merge(effects, start, why, said)],
            "players": [_player_state(p) for p in game.players],
            "supply": dict(sorted(game.supply.items())),
            "checkpoint": None, "diverges": [],
            "line": entry.span.line if entry is not None else None,
        }
        for cs in rec.plays.values():
            cards.update(c for c in cs if isinstance(c, str))
        cards.update(i for p in game.players for i in p.items)  # shown by name
        if entry is not None and entry.after:
            step["checkpoint"] = entry.after
            step["diverges"] = _compare(entry.after, rec)
        steps.append(step)

    outcome = replay(spec, False, on_room, on_start)
    data["steps"] = steps
    data["ruleset"] = {"id": rules.ruleset.id, "name": rules.ruleset.name,
                       "variant": rules.variant.name}
    first = next((i for i, s in enumerate(steps) if s["diverges"]), None)
    data["firstDivergence"] = first
    result = outcome.result
    if result is None:
        data["result"] = None
    else:
        tail = recorder.take()  # final scoring's rules, if any card hears it
        cards.update(s.card for s in tail)
        solo = rules.variant.scoring == "solo"
        data["result"] = {
            "winners": list(result.winners), "out": list(result.out),
            "solo": solo, "why": [s.to_json() for s in tail],
            "players": [dict(_player_state(p), name=p.name) for p in result.players],
            "diverges": _result_diverges(spec, result.winners, result.out),
        }
    data["cards"] = {cid: _card_info(rules, cid) for cid in sorted(cards)}
    return data


def _result_diverges(spec: LogSpec, winners: list[str], out: list[str]) -> list[dict[str, Any]]:
    diffs: list[dict[str, Any]] = []
    if spec.result is None:
        return diffs
    for key, got in (("winners", winners), ("out", out)):
        want = spec.result.get(key)
        if want is not None and sorted(want) != sorted(got):
            diffs.append({"player": "", "field": key, "expected": want, "actual": got})
    return diffs


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("viewer_assets").joinpath(name).read_text("utf-8")


def embed_json(data: Any) -> str:
    """JSON that is safe inside a <script> element: `<`, `>` and `&` escaped, so text from a
    log (a player named `</script>`) cannot end the element or open a tag."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_html(data: dict[str, Any], nav: str = "") -> str:
    """The page; `nav` is HTML put beside the title (serve's link back to its index)."""
    page = _asset("page.html")
    parts = {"{{TITLE}}": html.escape(data["title"]), "{{NAV}}": nav,
             "{{STYLE}}": _asset("viewer.css"),
             "{{DATA}}": embed_json(data), "{{SCRIPT}}": _asset("viewer.js")}
    # One pass: text put in (a title from a file name) is never searched for a placeholder.
    return re.sub(r"\{\{[A-Z]+\}\}", lambda m: parts[m.group(0)], page)


def write_html(path: str, data: dict[str, Any]) -> None:
    """Write the page atomically (a temporary file renamed into place)."""
    write_atomic(Path(path), render_html(data))


def view_for(log_path: str, allow: tuple[str, ...] = (), title: Optional[str] = None,
             cards: Optional[tuple[str, ...]] = None) -> dict[str, Any]:
    """Read a log and build its viewer data (raises Problems for a bad log); `cards`: the
    mods to play it with instead of the log's (`replay --cards`)."""
    from raiders.interpreter.records.logs import read_log

    spec = read_log(log_path, allow, cards)
    return build_view(spec, title if title is not None else Path(log_path).name)
