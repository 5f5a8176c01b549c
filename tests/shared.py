"""The data and selectors the tests share (one place: before, each test file kept its own
copy of the same Lasso, the same simulated regressions and the same scikit-learn data
loaders).

Plain functions, imported by the test files (``from shared import lasso``; tests/ is on
sys.path in pytest's rootdir-relative import mode); ``tests/conftest.py`` turns the real
data sets into fixtures. Every function returns fresh objects: a test may modify what it
gets.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import warnings

import numpy as np

__all__ = [
    "breast_cancer",
    "check_names",
    "classification",
    "diabetes",
    "failed_checks",
    "import_order",
    "imports_of",
    "interrupt_when_working",
    "kill_group",
    "kill_process_groups",
    "l1_logistic_pipeline",
    "lasso",
    "listening_outside_loopback",
    "load_script",
    "load_study",
    "local_cluster",
    "regression",
    "run",
    "started",
    "three_signals",
    "watched",
]


def regression(n=120, d=8, seed=0, coef=(1.0, -1.0), noise=1.0):
    """X standard normal (n x d), y = sum_j coef[j] X[:, j] + noise * N(0, 1), from one
    generator seeded with ``seed`` (X drawn first)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = 0
    for j, c in enumerate(coef):
        y = y + c * X[:, j]
    return X, y + noise * rng.normal(size=n)


def classification(n=120, d=8, seed=0):
    """X standard normal (n x d), y = 1 where X[:, 0] + N(0, 0.5^2) > 0.3."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0.3).astype(int)
    return X, y


def lasso(alpha=0.1):
    """A Lasso (scikit-learn), alpha 0.1 unless given."""
    from sklearn.linear_model import Lasso

    return Lasso(alpha=alpha)


def l1_logistic_pipeline(C=1.0):
    """Standardisation, then an L1 logistic regression whose liblinear solver shuffles with
    its random_state (None here) and stops at tol=1e-2: two unseeded fits on the same rows
    can select differently."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(
        StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear", C=C, tol=1e-2)
    )


@functools.lru_cache(maxsize=None)
def _loaded(name, as_frame):
    from sklearn import datasets

    return getattr(datasets, f"load_{name}")(return_X_y=True, as_frame=as_frame)


def breast_cancer(as_frame=False):
    """scikit-learn's breast cancer data, ``(X, y)`` (a copy: read once per session)."""
    X, y = _loaded("breast_cancer", as_frame)
    return X.copy(), y.copy()


def diabetes(as_frame=False):
    """scikit-learn's diabetes data, ``(X, y)`` (a copy: read once per session)."""
    X, y = _loaded("diabetes", as_frame)
    return X.copy(), y.copy()


def three_signals(n=200, d=12, seed=0):
    """:func:`regression` with y = 2 X_0 - 2 X_1 + 1.5 X_2 + N(0, 1), 200 x 12 by default
    (stability selection's tests)."""
    return regression(n=n, d=d, seed=seed, coef=(2.0, -2.0, 1.5))


def load_script(path, name, *, reuse=False):
    """The Python file ``path`` (an example, a benchmark, a script of scripts/) imported as
    the module ``name`` and registered in ``sys.modules`` (dataclasses look their module
    up there); with ``reuse``, the module already registered under ``name`` is returned."""
    if reuse and name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


STUDIES = pathlib.Path(__file__).resolve().parents[1] / "studies"


def load_study(name):
    """The study script ``studies/<name>.py`` imported as the module ``name`` (the loader
    of the tests of the studies' quick modes, tests/test_*_study_quick.py)."""
    return load_script(STUDIES / f"{name}.py", name)


def failed_checks(out):
    """The checks of a study's output (``out["checks"]``) that did not pass, as
    ``(name, value, target)``: [] when every check passes."""
    return [(c["name"], c["value"], c["target"]) for c in out["checks"] if not c["passed"]]


def check_names(out):
    """The names of a study's checks as one string (a test looks for a check by name)."""
    return " ".join(c["name"] for c in out["checks"])


def import_order(graph):
    """The modules of ``graph`` (``{module: set of the modules it imports}``) in an order
    where each comes after those it imports; AssertionError naming the modules left when
    they import one another in a cycle.

    >>> import_order({"a": {"b"}, "b": set()})
    ['b', 'a']
    >>> import_order({"a": {"b"}, "b": {"a"}, "c": set()})
    Traceback (most recent call last):
    ...
    AssertionError: import cycle among ['a', 'b']
    """
    graph = {m: set(deps) for m, deps in graph.items()}
    order = []
    while graph:
        leaves = [m for m, deps in graph.items() if deps <= set(order)]
        assert leaves, f"import cycle among {sorted(graph)}"
        order += sorted(leaves)
        for m in leaves:
            del graph[m]
    return order


def live_package(name):
    """The R package ``name`` through rpy2's ``importr`` under r_compat's policy: skipped
    when PROPSTAB_SKIP_R=1, else a failure (never a skip) when it cannot be loaded (the
    fixtures of r_compat/test_stabs_live.py and r_compat/test_sharp_live.py)."""
    import pytest

    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip("PROPSTAB_SKIP_R=1: live R cross-checks skipped")
    try:
        from rpy2.robjects.packages import importr

        return importr(name)
    except Exception as exc:  # noqa: BLE001 - any failure to load R is a failure
        pytest.fail(
            f"R package {name} could not be loaded through rpy2 ({exc}); run "
            f"scripts/setup.sh (r_compat/install.R) or set PROPSTAB_SKIP_R=1"
        )


def imports_of(path, root):
    """(absolute module, imported names) of every propstab import of the file ``path``
    of the package at ``root`` (propstab/), at top level or inside functions (``import
    propstab.x`` gives no names)."""
    import ast

    path, root = pathlib.Path(path), pathlib.Path(root)
    package = list(path.relative_to(root.parent).with_suffix("").parts)[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] == "propstab":
                yield module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "propstab":
                    yield alias.name, []


# ----------------------------------------------------------------------------------
# processes started by the tests: each in a process group of its own, under a timeout,
# the whole group killed when it expires (or when the test fails or times out)

#: The process groups (their leaders' pids) of the children started by :func:`started`
#: that are still running; the suite's timeout kills them before it ends the test
#: process (conftest.py's ``pytest_timeout_set_timer``).
_GROUPS: set = set()


def kill_group(pgid):
    """SIGKILL to every process of the group ``pgid`` (nothing when none is left)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def kill_process_groups():
    """Kill the process groups of every child of :func:`started` still registered (the
    suite's timeout calls this before ending the test process: their children would
    otherwise outlive it, a hung ``R CMD check`` or Chromium included)."""
    for pgid in list(_GROUPS):
        kill_group(pgid)


@contextlib.contextmanager
def watched(pgid):
    """The process group ``pgid`` (started elsewhere, e.g. chromedriver's) registered
    for the suite's timeout while the block runs."""
    _GROUPS.add(pgid)
    try:
        yield pgid
    finally:
        _GROUPS.discard(pgid)


@contextlib.contextmanager
def started(argv, **popen):
    """``subprocess.Popen(argv, **popen)`` as the leader of a new session (a process
    group of its own, which its children join), registered for the suite's timeout.
    On leaving while the child still runs (an error, a timeout, an interruption) its
    whole group is killed; then the pipes are closed and the child reaped. (A child that
    ended is left to the test: whether its own children stopped is for it to check.)"""
    child = subprocess.Popen(argv, start_new_session=True, **popen)
    _GROUPS.add(child.pid)
    try:
        yield child
    finally:
        if child.poll() is None:
            kill_group(child.pid)
        for stream in (child.stdin, child.stdout, child.stderr):
            if stream is not None:
                stream.close()
        child.wait()
        _GROUPS.discard(child.pid)


def run(argv, *, timeout, input=None, capture_output=False, check=False, **popen):
    """``subprocess.run`` for the tests: ``argv`` in a process group of its own
    (:func:`started`); when ``timeout`` seconds pass, the whole group is killed (R's and
    make's children too, which ``subprocess.run`` leaves running and holding the pipes)
    and ``subprocess.TimeoutExpired`` raised with the output so far. ``timeout`` is
    required: no test waits for a child without a bound."""
    if capture_output:
        popen["stdout"] = popen["stderr"] = subprocess.PIPE
    if input is not None:
        popen["stdin"] = subprocess.PIPE
    with started(argv, **popen) as child:
        try:
            out, err = child.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(child.pid)
            out, err = child.communicate()
            raise subprocess.TimeoutExpired(argv, timeout, out, err) from None
    done = subprocess.CompletedProcess(argv, child.returncode, out, err)
    if check:
        done.check_returncode()
    return done


def interrupt_when_working(argv, env, *, workers=2, settle=0.5, timeout=60):
    """Start ``argv`` in a process group of its own, wait until it runs ``workers`` child
    processes, let them work ``settle`` seconds, then SIGINT the whole group as Ctrl-C
    in a terminal does: (return code, stdout, stderr, the children's pids)."""
    with started(
        argv,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as child:
        found, deadline = [], time.monotonic() + 120
        while len(found) < workers and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
            found = run(
                ["pgrep", "-P", str(child.pid)], capture_output=True, text=True, timeout=30
            ).stdout.split()
        assert len(found) == workers, f"{argv}: no {workers} child processes started"
        time.sleep(settle)
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=timeout)
    time.sleep(0.2)
    return child.returncode, out, err, [int(pid) for pid in found]


# ----------------------------------------------------------------------------------
# dask clusters: bound to the loopback, started within a time limit, always closed

#: The only address a test's server may listen on.
LOOPBACK = "127.0.0.1"


@contextlib.contextmanager
def _deadline(seconds, what):
    """TimeoutError (naming ``what``) if the block is still running after ``seconds``, and
    again every 5 s until it ends (a handler of the block that catches the first, as
    distributed's start does to close the cluster, cannot wait forever either). SIGALRM:
    in the main thread only; elsewhere the block runs under the suite's timeout alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame):
        raise TimeoutError(f"{what}: not done within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds, 5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _close_cluster(clients, clusters, seconds):
    """Close ``clients`` then ``clusters``, each within ``seconds``; a cluster that does
    not close has its worker processes killed and its event loop stopped."""
    for client in clients:
        with contextlib.suppress(Exception):
            client.close(timeout=seconds)
    for cluster in clusters:
        try:
            with _deadline(seconds, "closing the LocalCluster"):
                cluster.close(timeout=seconds)
        except Exception:  # noqa: BLE001 - whatever failed, nothing of it may outlive the test
            for spec in list(getattr(cluster, "workers", {}).values()):
                pid = getattr(getattr(spec, "process", None), "pid", None)
                if pid:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                cluster._loop_runner.stop()


def cluster_options(n_workers=2, threads_per_worker=1, processes=True, timeout=120):
    """The keyword arguments of ``distributed.LocalCluster`` for a test's cluster: every
    server on the loopback (scheduler, nannies, workers and their HTTP servers: with
    ``dashboard_address=None`` distributed 2022.12 still serves HTTP, on 0.0.0.0:8787
    for the scheduler and 0.0.0.0 for each worker), no dashboard, and a worker process
    that has not reported to its nanny within ``timeout`` seconds fails the start
    (``death_timeout``) instead of leaving it waiting forever."""
    options = dict(
        n_workers=n_workers,
        threads_per_worker=threads_per_worker,
        processes=processes,
        dashboard_address=f"{LOOPBACK}:0",
        scheduler_kwargs={"dashboard": False},
        worker_dashboard_address=f"{LOOPBACK}:0",
    )
    if processes:  # (workers in threads talk inproc://, through no socket)
        options.update(host=LOOPBACK, death_timeout=timeout)
    return options


@contextlib.contextmanager
def local_cluster(n_workers=2, threads_per_worker=1, processes=True, timeout=120):
    """A ``distributed.LocalCluster`` (:func:`cluster_options`) and a ``Client`` of it
    (the default client, for ``backend="dask"``), yielded as the client: started within
    ``timeout`` seconds (ten times a start on a loaded 2-core machine) or TimeoutError,
    and closed on leaving - also when the start failed or timed out half-way (the
    clusters and clients created meanwhile are found and closed; worker processes that
    do not stop are killed). distributed is imported here, not at collection (a second
    of import for an xdist worker that needs none)."""
    import distributed
    from distributed.deploy.spec import SpecCluster

    clusters_before = set(SpecCluster._instances)
    clients_before = set(distributed.Client._instances)
    try:
        try:
            with warnings.catch_warnings(), _deadline(timeout, "starting a LocalCluster"):
                warnings.simplefilter("ignore", DeprecationWarning)  # distributed's own
                cluster = distributed.LocalCluster(
                    **cluster_options(n_workers, threads_per_worker, processes, timeout)
                )
                client = distributed.Client(cluster, timeout=timeout)
        except TimeoutError:  # where every thread was (the loop's, the nannies')
            import faulthandler

            stream = sys.stderr if hasattr(sys.stderr, "fileno") else sys.__stderr__
            stream.write("local_cluster: the start timed out; the threads' stacks:\n")
            stream.flush()
            try:
                faulthandler.dump_traceback(file=stream, all_threads=True)
            except (OSError, ValueError):  # capsys's stream: no file descriptor
                faulthandler.dump_traceback(file=sys.__stderr__, all_threads=True)
            raise
        yield client
    finally:
        _close_cluster(
            set(distributed.Client._instances) - clients_before,
            set(SpecCluster._instances) - clusters_before,
            timeout,
        )


def listening_outside_loopback(pid=None):
    """The TCP sockets listening on an address other than the loopback (127.0.0.0/8,
    ::1) of the process ``pid`` (this one by default) and of all its descendants, as
    ``(pid, command, address, port)``."""
    import psutil

    root = psutil.Process(pid)
    found = []
    for process in [root] + root.children(recursive=True):
        try:
            sockets = process.connections(kind="tcp")
            command = " ".join(process.cmdline())[:80]
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        for s in sockets:
            if s.status == psutil.CONN_LISTEN and not (
                s.laddr.ip.startswith("127.") or s.laddr.ip == "::1"
            ):
                found.append((process.pid, command, s.laddr.ip, s.laddr.port))
    return found
