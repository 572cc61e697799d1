"""Helpers the `raiders record` tests share: the set-up form of a logged game, and its plays
given to the recorder as the table would, answer by answer, in the order the rules ask."""
from __future__ import annotations

from typing import Any, Callable, Optional

from raiders.interpreter.records.logs import LogSpec


def setup_of(spec: LogSpec, hidden: bool = False) -> dict[str, Any]:
    """What the set-up form sends for the game a log holds (`hidden`: its face-down rooms left
    blank, to be said when turned over)."""
    setup: dict[str, Any] = {
        "ruleset": spec.meta.ruleset, "variant": spec.meta.variant,
        "players": [{"name": n, "character": c} for n, c in zip(spec.names, spec.characters,
                                                                 strict=True)]}
    if spec.first_player is not None and spec.rules.variant.first_player != "none":
        setup["first_player"] = spec.names[spec.first_player]
    if spec.meta.difficulty is not None:
        setup["difficulty"] = spec.meta.difficulty
    assert spec.floors is not None
    setup["dungeon"] = [{"rooms": [s.card if s.face_up or not hidden else "" for s in f.rooms],
                         "facing": "".join("U" if s.face_up else "D" for s in f.rooms)}
                        for f in spec.floors]
    return setup


def answer_for(spec: LogSpec, k: int, question: dict[str, Any], used: dict[str, int]) -> Any:
    """The log's answer to a question the recorder asks in room entry k."""
    room = spec.rooms[k]
    kind, who = question["kind"], question.get("player")

    def nth(key: str, values: list) -> Any:
        i = used.get(key, 0)
        used[key] = i + 1
        return values[i]

    if kind == "room":
        assert spec.floors is not None
        return spec.floors[question["floor"]].rooms[question["room"]].card
    if kind == "card":
        return nth(who, room.plays[who].cards)
    if kind == "peek":
        return who in room.peeks
    if kind == "may":
        return nth("?" + who, room.choices[who])
    if kind == "roll":
        return nth("#roll", room.rolls)
    assert kind == "monster"
    return room.monster


def record_rooms(spec: LogSpec, state: dict[str, Any],
                 send: Callable[[list[dict[str, Any]]], dict[str, Any]],
                 rooms: Optional[range] = None) -> dict[str, Any]:
    """Enter the log's rooms one answer at a time (`send` posts the room's answers so far and
    returns the new state); the state after the last."""
    for k in rooms if rooms is not None else range(len(spec.rooms)):
        answers: list[dict[str, Any]] = []
        used: dict[str, int] = {}
        while len(state["view"]["steps"]) == k and not state["finished"]:
            q = state["question"]
            answers.append({"kind": q["kind"], "player": q.get("player"),
                            "value": answer_for(spec, k, q, used)})
            state = send(answers)
    return state
