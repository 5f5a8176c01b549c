"""Repository-wide pytest hooks.

The doctests of :mod:`propstab.r` call R: like the live suite in r_compat/, they fail
when R or the reference packages cannot be loaded, unless PROPSTAB_SKIP_R=1 opts out.
(Kept here rather than inside the package so that no test hook ships in a wheel.)

Every Hypothesis search in the suite runs under one profile, propstab's one settings object
:data:`propstab.search.REPRODUCIBLE`: derandomised and without an example database (the
same examples on every machine and every run), and without per-example deadlines (timings
belong to benchmarks/, and a loaded 2-core CI machine must not turn a slow example into a
failure).
"""
import gc
import os
import pathlib
import sys
import threading

import pytest
from hypothesis import settings

from propstab.search import REPRODUCIBLE

settings.register_profile("propstab", REPRODUCIBLE)
settings.load_profile("propstab")


def _blas_threads_per_worker():
    """Under ``pytest -n N`` each xdist worker is one of N processes that already fill the
    cores: a worker's BLAS and OpenMP pools get cores // N threads (at least 1), as do the
    processes it starts (R, the site's build, studies) unless the caller set their
    variables. With OpenBLAS's 2 threads per worker on 2 cores, the second thread mostly
    spins, taking CPU from the other worker (scikit-learn's conftest does the same)."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if not workers:
        return
    threads = max(1, (os.cpu_count() or 1) // int(workers))
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if not os.environ.get(name):
            os.environ[name] = str(threads)
    try:
        threads = int(os.environ["OPENBLAS_NUM_THREADS"])
    except ValueError:
        pass
    from threadpoolctl import threadpool_limits

    threadpool_limits(threads)  # for the whole worker


_blas_threads_per_worker()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item, settings):
    """pytest-timeout's thread method (pyproject.toml: every test has a timeout), with the
    test named first: on expiry one line ``Timeout: <test id> ran longer than N s`` on
    stderr, the process groups of the children the test started through tests/shared.py
    killed (a hung R CMD check or Chromium would outlive the test process), then
    pytest-timeout's own ending: every thread's stack, and the test process ends (under
    ``-n 2`` xdist reports the worker's crash naming the test, and starts another)."""
    if settings.method != "thread":
        return None
    import pytest_timeout

    def expire():
        sys.stderr.write(
            f"\nTimeout: {item.nodeid} ran longer than {settings.timeout} s; "
            f"the stacks of its threads follow\n"
        )
        sys.stderr.flush()
        helpers = sys.modules.get("shared")
        if helpers is not None and hasattr(helpers, "kill_process_groups"):
            helpers.kill_process_groups()
        pytest_timeout.timeout_timer(item, settings.timeout)

    timer = threading.Timer(settings.timeout, expire)
    timer.name = f"pytest_timeout {item.nodeid}"
    timer.daemon = True

    def cancel():
        timer.cancel()
        timer.join()

    item.cancel_timeout = cancel
    timer.start()
    return True


@pytest.hookimpl(optionalhook=True)
def pytest_collection_finish(session):
    """Once the suite is collected, the objects alive (modules, the registry, the collected
    items: hundreds of thousands, alive to the end) leave the cyclic garbage collector's
    generations (``gc.freeze``): its full collections stop walking them again and again.
    Garbage made by the tests is collected as before. Measured on four test modules
    (gc.callbacks): collection time 2.8 -> 1.9 CPU-s of ~46, the same results.

    Hypothesis creates and registers its own random generator on its first search, after
    checking with ``gc.get_referrers`` that something refers to it; frozen referrers are
    not seen, so the check would warn that it is about to be garbage collected. One empty
    search before the freeze makes that registration happen first."""
    from hypothesis import given, strategies

    given(strategies.none())(lambda _: None)()
    gc.collect()
    gc.freeze()


def pytest_xdist_make_scheduler(config, log):
    """``pytest -n 2`` (``--dist load``, the default): tests/scheduling.py's scheduler,
    whole modules longest first (``make test`` in minutes, not in a long tail)."""
    if config.getoption("dist") != "load":
        return None
    import importlib.util

    path = pathlib.Path(__file__).resolve().parent / "tests" / "scheduling.py"
    spec = importlib.util.spec_from_file_location("propstab_test_scheduling", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LongestFirstScheduling(config, log)


_R_PACKAGE_DIR = pathlib.Path(__file__).resolve().parent / "propstab" / "r"


@pytest.fixture(autouse=True)
def _r_for_bridge_doctests(request):
    path = pathlib.Path(str(request.node.fspath)).resolve()
    if _R_PACKAGE_DIR not in path.parents:
        return
    try:
        from propstab.r import require_package

        for name in ("stabm", "irr", "Matrix"):
            require_package(name)
        import hypothesis  # noqa: F401

        return
    except ImportError as exc:
        problem = str(exc)
    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip(f"PROPSTAB_SKIP_R=1: doctests calling R skipped ({problem})")
    pytest.fail(
        f"the doctests of propstab.r need R: {problem}; set PROPSTAB_SKIP_R=1 to skip",
        pytrace=False,
    )
