"""benchmarks/balance.py runs, checks that replaying keeps the figures, and prints a ratio."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_balance_benchmark_prints_a_ratio_for_the_same_figures():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/balance.py"), "--games", "4",
                          "--repeat", "1"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "gorgon: 1 card(s), 4 seeds, bots greedy; replays: yes" in out.stdout
    assert re.search(r"ratio +\d+\.\d\dx \(the same figures\)", out.stdout), out.stdout
