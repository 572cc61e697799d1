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
