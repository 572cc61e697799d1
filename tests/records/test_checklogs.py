"""`replay --check` on every core prints what one process prints, in the same order (issue 11)."""
import shutil
from pathlib import Path

from click.testing import CliRunner

from raiders.interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_check_output_is_the_same_whatever_the_number_of_processes(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    for f in (ROOT / "examples" / "logs").glob("deluxe-*.yaml"):
        shutil.copy(f, logs / f.name)
    table = (logs / "deluxe-standard-table.yaml").read_text(encoding="utf-8")
    # a log that diverges (a checkpoint's coins), and a bad one (a card that is not one)
    (logs / "diverges.yaml").write_text(table.replace("coins: 2, wounds: 1", "coins: 3, "
                                                      "wounds: 1", 1), encoding="utf-8")
    (logs / "bad.yaml").write_text(table.replace("Dee: 4}", "Dee: swrod}", 1), encoding="utf-8")
    runs = [CliRunner().invoke(main, ["replay", "--check", "--jobs", str(jobs), str(logs)])
            for jobs in (1, 2)]
    assert runs[0].exit_code == runs[1].exit_code == 1
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stderr == runs[1].stderr
    assert "FAIL  " in runs[0].stdout and "diverges.yaml: line" in runs[0].stdout
    # every FAIL line on stdout (a bad log's as a divergence's), diagnostics on stderr
    assert "bad.yaml: bad log" in runs[0].stdout
    assert "bad log" not in runs[0].stderr and "error[E503]" in runs[0].stderr
    assert runs[0].stdout.rstrip().endswith("5 log(s): 3 ok, 2 failed")
