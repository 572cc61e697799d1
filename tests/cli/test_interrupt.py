"""Ctrl-C during a long run (issue 22, "Stopping and progress"): a real SIGINT to a real process
group, as a terminal sends it. Every process of the group is gone soon after, nothing more is
written, no traceback, exit 130, and the figures of the games finished are printed under
"interrupted after N games"; each log written is whole. A second Ctrl-C exits at once.

No timing is asserted beyond generous timeouts that only catch a run that never stops (before
the fix, workers went on for minutes and the parent hung)."""
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.childproc import PYTHON

GONE_WITHIN = 20  # seconds: only a run that does not stop at all takes this long


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    # its own process group, as a shell makes for a job: the test signals the whole group
    return subprocess.Popen([PYTHON, "-m", "raiders", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _children(pid: int) -> list[int]:
    """The process's children, whichever of its threads started them."""
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def _wait_until(cond, limit: float = 60.0) -> None:
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("the run never got going")
        time.sleep(0.05)


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def _finish(proc: subprocess.Popen) -> tuple[str, str]:
    out, err = proc.communicate(timeout=GONE_WITHIN)
    _wait_until(lambda: _group_gone(proc.pid), GONE_WITHIN)  # no worker left behind
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err and "Traceback" not in out, err
    assert "Aborted" not in err
    return out, err


def _games(text: str) -> int:
    m = re.search(r"interrupted after (\d+) games?", text)
    assert m, text
    return int(m.group(1))


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_simulate_and_its_workers_and_keeps_the_logs_whole(tmp_path):
    logs = tmp_path / "logs"
    proc = _start(["simulate", "--games", "200000", "--jobs", "2", "--bots", "random",
                   "--log-dir", str(logs)], tmp_path)
    _wait_until(lambda: logs.is_dir() and len(os.listdir(logs)) >= 40)
    assert len(_children(proc.pid)) == 2  # two workers playing
    os.killpg(proc.pid, signal.SIGINT)
    out, err = _finish(proc)
    played = _games(out)
    assert _games(err) == played and played > 0
    assert out.splitlines()[1].startswith(f"{played} games, 4 players")
    assert "Wins by seat:" in out
    names = sorted(os.listdir(logs))
    time.sleep(0.5)
    assert sorted(os.listdir(logs)) == names  # nothing more is written
    assert not [n for n in names if n.endswith(".tmp")]  # no half-written file
    assert len(names) == played  # one whole log per game counted, no more
    check = subprocess.run([PYTHON, "-m", "raiders", "replay", "--check", "-q",
                            *[str(logs / n) for n in names[:5] + names[-5:]]],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
@pytest.mark.slow  # a worker kept deaf on purpose (2.4 s); the first Ctrl-C is in the fast tier
def test_a_second_ctrl_c_exits_at_once_when_a_worker_does_not_answer(tmp_path):
    proc = _start(["simulate", "--games", "200000", "--jobs", "2", "--bots", "random"],
                  tmp_path)
    _wait_until(lambda: len(_children(proc.pid)) == 2)
    time.sleep(0.5)
    stuck = _children(proc.pid)[0]
    os.kill(stuck, signal.SIGSTOP)  # a worker that cannot hand its games back
    os.kill(proc.pid, signal.SIGINT)  # the parent alone: it tells the workers itself
    time.sleep(0.2)
    os.kill(proc.pid, signal.SIGINT)
    out, err = _finish(proc)
    assert "interrupted after" not in out  # exited at once: no figures
    assert not Path(f"/proc/{stuck}").exists() or _group_gone(proc.pid)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("args", [
    ["simulate", "--games", "50000", "--jobs", "1", "--bots", "greedy", "--log-dir", "LOGS"],
    ["simulate", "--games", "50000", "--jobs", "2", "--bots", "greedy", "--precision", "0.001"],
    ["simulate", "--games", "5000", "--jobs", "2", "--bots", "greedy", "--players", "3",
     "--sweep", "dragon.wounds=1..4"],
    ["diff", "HEAD:examples/mods/gorgon", "examples/mods/gorgon", "--games", "50000",
     "--jobs", "2"],
    ["balance", "examples/mods/gorgon", "--games", "50000", "--jobs", "2"],
    ["balance", "examples/mods/gorgon", "--games", "50000", "--jobs", "2", "--sweep",
     "gorgon.wounds=1..3", "--target", "wounds=1.2"],
], ids=["simulate-1-job", "precision", "sweep", "diff", "balance", "balance-sweep"])
def test_ctrl_c_stops_every_long_run(args, tmp_path):
    root = Path(__file__).resolve().parents[2]
    logs = tmp_path / "logs"
    proc = _start([str(logs) if a == "LOGS" else a for a in args], root)
    if "LOGS" in args:  # one process: the run has begun once a log is written
        _wait_until(lambda: logs.is_dir() and len(os.listdir(logs)) >= 2)
    else:  # its workers are forked when the games begin
        _wait_until(lambda: len(_children(proc.pid)) >= 2)
        time.sleep(2)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = _finish(proc)
    assert _games(err) >= 0
    assert "interrupted after" in out
    if args[0] == "simulate" and "--sweep" in args:  # its 4 values play together on each seed
        assert "4 of 4 values, each partly" in out, out


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_a_cluster_run(tmp_path):
    pytest.importorskip("distributed")
    proc = _start(["simulate", "--games", "20000", "--jobs", "2", "--bots", "greedy",
                   "--cluster", "auto"], tmp_path)
    # a cluster is slow to start: its two workers and multiprocessing's resource tracker
    _wait_until(lambda: len(_children(proc.pid)) >= 3, 180)
    # past the start-up, while the workers play (a Ctrl-C in the second or two the local
    # cluster takes to start may go unheard: docs/simulate.md says so)
    time.sleep(12)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = _finish(proc)
    assert "interrupted after" in out
