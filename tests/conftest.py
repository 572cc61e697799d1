import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The tests sit in one folder per layer (tests/dsl, tests/runtime, …); the helpers they share
# (childproc, cachedamage, viewer_browser) sit here, importable from every folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# The tests (and the commands they start) keep the grammar and checked libraries in a cache
# folder of their own, not the user's: a run never reads what another program left there,
# nor leaves anything behind. A folder named by the caller is kept (CI may share one).
if not os.environ.get("RAIDERS_CACHE_DIR"):
    _cache = tempfile.mkdtemp(prefix="raiders-test-cache-")
    os.environ["RAIDERS_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)

# Where PYTHONDONTWRITEBYTECODE is set (no __pycache__ in the tree), each of the ~70 commands
# the tests start in a child process (`raiders ...`) would compile again every module of raiders
# it imports, 0.1-0.2 s of CPU each: they keep that bytecode in a folder of the run's own
# instead, removed at its end (as benchmarks/simulate.py does). Not the test processes: with
# the folder they would compile the installed libraries again too, whose bytecode pip wrote.
_PYC = "RAIDERS_TEST_PYCACHE"
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX") \
        and not os.environ.get(_PYC):
    os.environ[_PYC] = tempfile.mkdtemp(prefix="raiders-test-pyc-")
    atexit.register(shutil.rmtree, os.environ[_PYC], ignore_errors=True)


def pytest_configure(config):
    # an xdist controller starts its workers after this: they must not start with the folder
    controller = not hasattr(config, "workerinput") and config.getoption("dist", "no") != "no"
    if os.environ.get(_PYC) and not controller:
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = os.environ[_PYC]


@pytest.fixture
def root() -> Path:
    return ROOT


def _copy_under_test() -> str:
    """Which `raiders` the tests import: the working tree (an editable install) or an
    installed copy (`pip install .` puts one in site-packages; edits to the tree are not seen)."""
    try:
        import raiders.dsl
    except Exception as err:  # the header must not hide the real error: the tests will show it
        return f"raiders under test: not importable ({type(err).__name__}: {err})"
    where = Path(raiders.dsl.__file__).resolve().parent.parent  # dsl/ sits in the copy's root
    if where == ROOT:
        return f"raiders under test: the working tree {where}"
    return (f"raiders under test: the installed copy {where} (not the working tree {ROOT}; "
            "`pip install -e '.[test]'` tests the working tree)")


def pytest_report_header(config):
    return _copy_under_test()


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    # `-q` (the README's command) hides the header: say it there too, on one line.
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and reporter.verbosity == -1:
        reporter.write_line(_copy_under_test())


# The parser raises the recursion limit on first use (for deeply nested input); raise it
# before any test runs so hypothesis does not see it change under its feet.
from raiders.dsl.ast import RECURSION_LIMIT  # noqa: E402

sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
