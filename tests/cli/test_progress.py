"""Progress of a long run (issue 22): on a terminal, a bar with the games done of all, the
rate and the time left; when stderr is not a terminal, nothing at all."""
import os
import re
import select
import subprocess

import pytest

from tests.childproc import PYTHON


def _on_a_terminal(args: list[str]) -> str:
    """What the command writes on stderr when stderr is a terminal (a pseudo-terminal)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    proc = subprocess.Popen([PYTHON, "-m", "raiders", *args], stdout=subprocess.PIPE,
                            stderr=slave)
    os.close(slave)
    seen = b""
    while select.select([master], [], [], 120)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    proc.communicate(timeout=120)
    os.close(master)
    assert proc.returncode == 0
    return seen.decode("utf-8", "replace")


@pytest.mark.parametrize("args", [
    # long enough (greedy bots) for click's estimate of the time left, made once a second
    pytest.param(["simulate", "--games", "150", "--jobs", "1", "--players", "3"],
                 marks=pytest.mark.slow),  # 3 s of games; the fast tier checks the quiet case
    pytest.param(["diff", "HEAD:examples/mods/gorgon", "examples/mods/gorgon", "--games", "80",
                  "--jobs", "1", "--players", "3"], marks=pytest.mark.slow),
], ids=["simulate", "diff"])
def test_a_terminal_sees_count_rate_and_eta(args):
    seen = _on_a_terminal(args)
    total = args[args.index("--games") + 1]
    assert re.search(rf"\b{total}/{total}\b", seen), seen[-400:]  # the count
    assert re.search(r"[0-9.,]+ games/s", seen), seen[-400:]  # the rate
    assert re.search(r"\d\d:\d\d:\d\d", seen), seen[-400:]  # the time left, on the way


def test_nothing_when_stderr_is_not_a_terminal():
    # a terminal is shown the bar from the first game on (click draws it at once): a few
    # games are enough to see that a pipe is shown nothing
    done = subprocess.run([PYTHON, "-m", "raiders", "simulate", "--games", "20", "--jobs",
                           "1", "--bots", "random", "--players", "3"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("20 games, 3 players")
