"""`simulate --cluster` (issue 12, beyond one machine): a Dask cluster started by the test
plays the games; the JSON is the same bytes as the single-process run. Needs the `cluster`
extra; `.ci/run` installs it and sets RAIDERS_CLUSTER_REQUIRED=1, so there this fails rather
than skips."""
import os

import pytest
from click.testing import CliRunner

from raiders.interpreter.cli import main


def _distributed():
    try:
        import distributed
    except ImportError:
        if os.environ.get("RAIDERS_CLUSTER_REQUIRED"):
            pytest.fail("distributed is not installed but RAIDERS_CLUSTER_REQUIRED is set "
                        "(pip install '.[cluster]')")
        pytest.skip("distributed not installed (pip install '.[cluster]')")
    return distributed


@pytest.mark.slow
def test_a_cluster_gives_the_same_figures_as_one_process():
    distributed = _distributed()
    args = ["simulate", "--games", "40", "--players", "3", "--seed", "5", "--json"]
    alone = CliRunner().invoke(main, [*args, "--jobs", "1"])
    assert alone.exit_code == 0, alone.output
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_cluster = CliRunner().invoke(main, [*args, "--cluster", cluster.scheduler_address])
    assert on_cluster.exit_code == 0, on_cluster.output
    assert on_cluster.stdout == alone.stdout
    auto = CliRunner().invoke(main, [*args, "--jobs", "2", "--cluster", "auto"])
    assert auto.exit_code == 0 and auto.stdout == alone.stdout


@pytest.mark.slow  # it waits for the connection to time out (10 s)
def test_an_unreachable_cluster_is_an_error_not_a_traceback():
    _distributed()
    r = CliRunner().invoke(main, ["simulate", "--games", "2", "--players", "3",
                                  "--cluster", "tcp://127.0.0.1:9"])
    assert r.exit_code == 1 and "cannot reach the cluster" in r.output, r.output


@pytest.mark.slow
def test_relative_paths_mean_the_same_on_a_cluster_as_here(tmp_path, monkeypatch):
    """Issue 24: a relative --cards was read in the workers' own folder (a traceback). The
    workers here are started in `/`, as a cluster's are somewhere else."""
    import shutil
    from pathlib import Path

    distributed = _distributed()
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "mods" / "gorgon",
                    tmp_path / "mymod")
    args = ["simulate", "--games", "6", "--players", "3", "--seed", "2", "--json",
            "--cards", "mymod"]
    monkeypatch.chdir("/")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        monkeypatch.chdir(tmp_path)
        alone = CliRunner().invoke(main, [*args, "--jobs", "1"])
        on_cluster = CliRunner().invoke(main, [*args, "--cluster", cluster.scheduler_address])
    assert alone.exit_code == 0, alone.output
    assert on_cluster.exit_code == 0, on_cluster.output
    assert on_cluster.stdout == alone.stdout


def test_a_setup_sent_elsewhere_names_absolute_paths(tmp_path, monkeypatch):
    from raiders.interpreter.tools.simulate import Setup

    monkeypatch.chdir(tmp_path)
    setup = Setup("deluxe", None, 3, ("greedy",) * 3, ("mymod", "../other"), log_dir="logs",
                  log_cards=("../mymod",))
    moved = setup.anywhere()
    assert moved.ruleset == "deluxe"  # a built-in id stays an id
    assert moved.cards == (str(tmp_path / "mymod"), str(tmp_path.parent / "other"))
    assert moved.log_dir == str(tmp_path / "logs") and moved.log_cards == ("../mymod",)
    assert Setup("my/ruleset.yaml", None, 3, (), ()).anywhere().ruleset == \
        str(tmp_path / "my" / "ruleset.yaml")
