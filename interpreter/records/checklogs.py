"""`replay --check` of many logs on every core, printed in the order the logs were named.

Each log is read and replayed on its own, so the logs are shared out among forked worker
processes (the rules the first log needs are loaded before the fork, so most workers start with
them). A worker sends back what the command prints for its log; the parent prints the results
in file order, whatever the number of processes.
"""
from __future__ import annotations

import multiprocessing as mp
import os
from typing import Iterator, Optional, Sequence

import attrs

from raiders.dsl.diagnostics import Diagnostic
from raiders.dsl.library import display_path
from raiders.formats.forking import shared_heap


@attrs.define
class Checked:
    """What `replay --check` says about one log."""

    path: str
    ok: bool
    lines: list[str]  # for stdout
    diagnostics: list[Diagnostic] = attrs.Factory(list)  # a bad log: for stderr


def check_file(path: str, allow: Sequence[str] = (), quiet: bool = False,
               cards: Optional[Sequence[str]] = None, complete: bool = False) -> Checked:
    """Read one log, replay it and compare its checkpoints: the lines `replay --check` prints.
    `cards`: the mods to play it with instead of the log's (`--cards`); `complete`: a game in
    progress fails (`--complete`)."""
    from raiders.dsl.diagnostics import Problems

    from .logs import read_log
    from .narrate import standings
    from .replay import replay

    shown = display_path(path)
    try:
        outcome = replay(read_log(path, allow, cards), check=True)
    except Problems as err:
        return Checked(path, False, [], err.diagnostics)
    if outcome.divergence is not None:
        return Checked(path, False, [f"FAIL  {shown}: {outcome.divergence}"])
    lines: list[str] = []
    if outcome.result is None and complete:
        return Checked(path, False, [f"FAIL  {shown}: stopped after {outcome.rooms_played} "
                                     "room(s): a game in progress, not a finished game "
                                     "(--complete)"])
    if outcome.result is None:
        if not quiet:
            lines.append(f"ok    {shown}: stopped after {outcome.rooms_played} room(s): "
                         "a game in progress")
            lines.append(standings(outcome.game.players, outcome.game.rules))
    elif not quiet:
        compared = (f"{outcome.checkpoints} checkpoint(s) equal" if outcome.checkpoints
                    else "no checkpoints to compare")
        lines.append(f"ok    {shown}: {outcome.rooms_played} rooms, {compared}")
    return Checked(path, True, lines)


# check_file's arguments after the path (allow, quiet, cards, complete): set before forking
_JOB: Optional[tuple] = None


def _work(path: str) -> Checked:
    assert _JOB is not None
    return check_file(path, *_JOB)


def default_jobs() -> int:
    return os.cpu_count() or 1


def check_files(files: Sequence[str], allow: Sequence[str] = (), quiet: bool = False,
                jobs: Optional[int] = None, cards: Optional[Sequence[str]] = None,
                complete: bool = False) -> Iterator[Checked]:
    """check_file for every file, in `jobs` processes (default: one per core), in file order."""
    global _JOB
    job = (tuple(allow), quiet, None if cards is None else tuple(cards), complete)
    jobs = min(jobs or default_jobs(), len(files))
    if jobs <= 1 or len(files) < 4 or "fork" not in mp.get_all_start_methods():
        for f in files:
            yield check_file(f, *job)
        return
    # The first log here: its rules (usually every log's) are then loaded before the fork.
    yield check_file(files[0], *job)
    rest = list(files[1:])
    _JOB = job
    try:
        with shared_heap():
            try:
                pool = mp.get_context("fork").Pool(jobs)
            except OSError:  # no processes to be had: one after the other, here
                yield from (check_file(f, *job) for f in rest)
                return
            with pool:
                chunk = max(1, min(16, len(rest) // (jobs * 8)))
                yield from pool.imap(_work, rest, chunksize=chunk)
    finally:
        _JOB = None
