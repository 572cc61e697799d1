"""`raiders fuzz MOD`: random games with a mod, each crash or runaway kept as a scenario.

A modder's own fuzzing (issue 14): many games on random seeds, player counts and bots, each
within a time limit. A game that stops with a rules error (a runaway chain, a supply run dry),
with an unexpected exception (a bug of the tool), or that passes its time limit is a finding.
Each finding is written as the smallest scenario that shows it: the one room where the game
stopped, the table as it stood before that room, and the cards every seat played there
(docs/scenarios.md). The scenario is run once more to say whether it reproduces the finding;
the seed, player count and bots to play the whole game again are in its header.
"""
from __future__ import annotations

import json
import os
import random
import signal
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import attrs

from raiders.interpreter.game.botspec import make_bot
from raiders.interpreter.game.engine import Game
from raiders.interpreter.runtime.room import RulesError

BOTS = ("random", "greedy")


@attrs.frozen
class Finding:
    kind: str  # "runaway" (a rules error), "crash" (an exception of the tool), "hang"
    seed: int
    message: str
    room: Optional[str]
    scenario: Optional[str]  # the file written, or None when no room was reached
    reproduced: Optional[bool]  # the scenario shows the same error (None: not run)


class _Hang(Exception):
    pass


class _Recorder:
    """A seat that plays as `inner` does and remembers the cards it played in this room."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.played: list = []
        self.answers: list[bool] = []

    def choose_card(self, view, legal, second):
        card = self.inner.choose_card(view, legal, second)
        self.played.append(card)
        return card

    def use_peek(self, view) -> bool:
        return self.inner.use_peek(view)

    def decide(self, view, question, card) -> bool:
        answer = self.inner.decide(view, question, card)
        self.answers.append(answer)
        return answer


def _table(game: Game) -> dict[str, dict[str, Any]]:
    """Every living player's state, as a scenario's `start` gives it."""
    out: dict[str, dict[str, Any]] = {}
    for p in game.players:
        if p.dead:
            continue
        state: dict[str, Any] = {"coins": p.coins, "wounds": p.wounds, "hand": sorted(p.hand)}
        if p.items:
            state["items"] = list(p.items)
        marks = {k: m.count for k, m in (p.marks or {}).items() if m.count >= 1}
        if marks:
            state["marks"] = marks
        out[p.name] = state
    return out


def _room_at(game: Game, index: int) -> Optional[str]:
    for f, floor in enumerate(game.deal.floors):
        if index < len(floor.rooms):
            return game.table.card_at((f, index))
        index -= len(floor.rooms)
    return None


def _flow(value: Any) -> str:
    """A YAML flow value (JSON is YAML; card ids and names need no quotes, but quoting is
    safe)."""
    return json.dumps(value, ensure_ascii=False)


def scenario_text(ruleset: str, variant: str, cards: Sequence[str], names: Sequence[str],
                  start: dict, room: str, plays: dict, choices: dict, title: str,
                  header: Sequence[str], rolls: Sequence[int] = (),
                  monster: Optional[int] = None) -> str:
    lines = [f"# {h}" for h in header]
    lines += ["format: raiders-scenario/1", f"name: {_flow(title[:200])}",
              f"ruleset: {_flow(ruleset)}", f"variant: {_flow(variant)}",
              f"cards: {_flow(list(cards))}", f"players: {_flow(list(names))}", "start:"]
    lines += [f"  {_flow(n)}: {_flow(s)}" for n, s in start.items()]
    lines += [f"room: {_flow(room)}", f"plays: {_flow(plays)}"]
    if choices:
        lines.append(f"choices: {_flow(choices)}")
    if rolls:
        lines.append(f"rolls: {_flow(list(rolls))}")
    if monster is not None:
        lines.append(f"monster: {_flow(monster)}")
    return "\n".join(lines) + "\n"


def fuzz(rules_for: Callable[[], Any], ruleset: str, mod: str, games: int, seed: int,
         out_dir: Path, time_limit: float = 10.0,
         progress: Optional[Callable[[Finding | None], None]] = None) -> list[Finding]:
    """Play `games` random games with the mod; write a scenario per finding into out_dir."""
    from raiders.formats.atomic import write_new

    rules = rules_for()
    var = rules.variant
    rng = random.Random(seed)
    findings: list[Finding] = []
    for g in range(games):
        game_seed = rng.randrange(10**9)
        n = rng.randint(var.min_players, var.max_players)
        bots = [rng.choice(BOTS) for _ in range(n)]
        names = [f"P{i + 1}" for i in range(n)]
        seats = [_Recorder(make_bot(b)) for b in bots]
        solo = var.scoring == "solo"
        before: dict = {}
        game: Optional[Game] = None

        # what the table drew in the room being played: a scenario needs them to replay it
        rolled: list[int] = []
        revealed: list[int] = []

        def on_room(rec, seats=seats, rolled=rolled, revealed=revealed) -> None:
            nonlocal before
            if game is None:  # noqa: B023 - not yet dealt (the game calls this once it is)
                return
            before = _table(game)  # noqa: B023 - the game of this very loop
            for s in seats:
                s.played.clear()
                s.answers.clear()
            rolled.clear()
            revealed.clear()

        kind = message = None
        old = signal.signal(signal.SIGALRM, _alarm) if _can_alarm() else None
        try:
            if old is not None:
                signal.setitimer(signal.ITIMER_REAL, time_limit)
            game = Game(rules, names, seats, seed=game_seed, difficulty=3 if solo else None)
            _record_draws(game, rolled, revealed)
            before = _table(game)
            game.run(on_room)
        except RulesError as err:
            kind, message = "runaway", str(err)
        except _Hang:
            kind, message = "hang", f"the game took more than {time_limit:g} s"
        except RecursionError:
            kind, message = "crash", "RecursionError"
        except Exception as err:  # noqa: BLE001 - a bug of the tool is exactly what we look for
            kind, message = "crash", f"{type(err).__name__}: {err}"
        finally:
            if old is not None:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
        if kind is None:
            if progress:
                progress(None)
            continue
        room = _room_at(game, len(game.records)) if game is not None else None
        path = None
        reproduced = None
        if game is not None and room is not None:
            plays = {}
            for name, s in zip(names, seats, strict=True):
                if name in before and s.played:
                    plays[name] = s.played[0] if len(s.played) == 1 else list(s.played)
            choices = {name: list(s.answers) for name, s in zip(names, seats, strict=True)
                       if s.answers}
            header = [f"raiders fuzz: {kind} in game {g + 1}, room {len(game.records) + 1} "
                      f"({room})", message.splitlines()[0][:300] if message else "",
                      f"the whole game: raiders play --cards {mod} --seed {game_seed} "
                      f"--players {n} --bots {','.join(bots)}"
                      + (f" --ruleset {ruleset}" if ruleset != "deluxe" else ""),
                      f"run it: raiders test --allow-path {mod} THIS-FILE"]
            mod_path = os.path.abspath(mod)
            text = scenario_text(ruleset, var.name, [mod_path], list(before), before, room,
                                 plays, choices, f"fuzz {kind}: seed {game_seed}, {room}",
                                 header, rolled, revealed[0] if revealed else None)
            target = out_dir / f"{kind}-{game_seed}.yaml"
            write_new(target, text, overwrite=True)
            path = str(target)
            reproduced = _reproduces(target, mod_path, message or "")
        finding = Finding(kind, game_seed, message or "", room, path, reproduced)
        findings.append(finding)
        if progress:
            progress(finding)
    return findings


def _record_draws(game: Game, rolled: list[int], revealed: list[int]) -> None:
    """Keep each die the table rolls and each monster card it reveals (solo), in order."""
    table = game.table
    dice, threat = table.dice, table.threat_source

    if dice is not None:
        def roll(faces: int) -> int:
            rolled.append(dice(faces))
            return rolled[-1]

        table.dice = roll
    if threat is not None:
        def reveal() -> int:
            revealed.append(threat())
            return revealed[-1]

        table.threat_source = reveal


def _reproduces(path: Path, mod: str, message: str) -> bool:
    """Whether the scenario stops with the finding's first words (a runaway, a rule)."""
    from raiders.interpreter.records.scenarios import run_file

    try:
        outcomes = run_file(str(path), (mod,))
    except Exception:  # noqa: BLE001 - the scenario reader failing is itself a finding's mark
        return False
    key = message.split(":")[0][:40]
    said = " ".join(" ".join(d.message for d in o.diagnostics) + " " + " ".join(o.differences)
                    for o in outcomes)
    return bool(key) and key in said


def _can_alarm() -> bool:
    import threading

    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _alarm(signum, frame) -> None:
    raise _Hang()
