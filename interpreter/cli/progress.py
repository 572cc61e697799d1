"""Progress of a long run on a terminal: games done of all, games a second, time left. Nothing
at all when stderr is not a terminal (a pipe, a file, CI), so output stays clean to parse; and
what a run stopped by Ctrl-C says before its figures."""
from __future__ import annotations

import contextlib
import sys
import time
from typing import Callable, Iterator, Optional

import click

INTERRUPTED = 130  # the exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells use


@contextlib.contextmanager
def games_bar(total: int, label: str) -> Iterator[Optional[Callable[[int], None]]]:
    """A bar for `total` games; yields what to call with the games finished since last time
    (None off a terminal: the games then report nothing, at no cost)."""
    if not sys.stderr.isatty():
        yield None
        return
    start = time.monotonic()
    done = 0
    with click.progressbar(length=total, label=label, file=sys.stderr, show_eta=True,
                           show_pos=True,
                           item_show_func=lambda rate: rate) as bar:
        shown = 0
        last = start

        def step(games: int) -> None:
            nonlocal done, shown, last
            done += games
            now = time.monotonic()
            if now - last < 0.1 and done < total:  # drawn ten times a second at most
                return
            rate = done / max(now - start, 1e-6)
            bar.update(done - shown, f"{rate:,.0f} games/s" if rate >= 10
                       else f"{rate:.2g} games/s")
            shown, last = done, now

        yield step


def interrupted_note(games: int) -> str:
    """The line a run stopped by Ctrl-C prints (on stderr, and above its figures)."""
    return f"interrupted after {games} game{'s' if games != 1 else ''}"


def seeds_played(seed: int, asked: int, interrupted: bool) -> str:
    """Which seeds the figures rest on, said truly: all of them, or after Ctrl-C the games
    finished, which are not the first ones asked for (each process had its own share of the
    seeds when it stopped)."""
    span = f"seeds {seed}..{seed + asked - 1}"
    if not interrupted:
        return f"on {span}"
    return f"of the {asked} asked (those finished when stopped) from {span}"
