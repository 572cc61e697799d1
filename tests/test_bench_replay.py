"""benchmarks/replay.py runs each workload, checks that replaying keeps the figures, and prints
a ratio."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_replay_benchmark_prints_a_ratio_for_the_same_figures():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/replay.py"), "--games", "4",
                          "--repeat", "1"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    for name in ("balance (gorgon", "diff (gorgon against a copy", "sweep (a printed card swept: "):
        assert name in out.stdout, out.stdout
    assert len(re.findall(r"ratio +\d+\.\d\dx \(the same figures\)", out.stdout)) == 3
