"""Running a child process from a test: always the venv's own interpreter (`sys.executable`,
never its realpath, which is the base Python without raiders), and a failure that shows what
the child printed on stderr instead of a bare CalledProcessError."""
import subprocess
import sys
from typing import Any

PYTHON = sys.executable


def run_ok(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
    """subprocess.run with output captured as text; a non-zero exit fails the test with the
    child's command, exit code and stderr."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    done = subprocess.run(cmd, **kwargs)
    if done.returncode != 0:
        err = done.stderr if isinstance(done.stderr, str) else (done.stderr or b"").decode(
            "utf-8", "replace")
        raise AssertionError(f"child exited {done.returncode}: {' '.join(map(str, cmd))}\n"
                             f"--- its stderr ---\n{err}")
    return done
