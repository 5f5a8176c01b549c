"""The execution layer (propstab/_utils/execution.py): resample, assess and StabilitySelection
on a real dask.distributed LocalCluster (two worker processes) equal the serial results
exactly; progress follows finished tasks; no per-run warning noise; checkpoints resume an
interrupted run (a killed process included) to the identical result, and refuse a
checkpoint of another call.

The cluster tests run in CI (not skipped; distributed is a test dependency) and take a few
seconds at these sizes."""
import gc
import os
import pathlib
import runpy
import signal
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py: the data and selectors the tests share
from propstab import StabilitySelection, assess, resample
from propstab._utils.execution import FORK, Checkpoint, fork_available, run_tasks

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_backend_dask_without_a_client_and_invalid_backends_are_refused():
    """First in the file: before the module's cluster exists."""
    X, y = shared.regression()
    with pytest.raises(ValueError, match="backend: 'dask' runs on the current"):
        run_tasks(pow, [(1,)], shared=(2,), backend="dask")
    with pytest.raises(ValueError, match="backend: must be None, a joblib backend"):
        resample(shared.lasso(), X, y, n_runs=4, backend="spark")
    with pytest.raises(TypeError, match="backend: must be None"):
        StabilitySelection(shared.lasso(), backend=3).fit(X, y)


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of two worker processes, one thread each (as a small real cluster:
    every task pickled to another process), on the loopback, started within two minutes or
    failed, always closed (tests/shared.py's local_cluster)."""
    with shared.local_cluster(n_workers=2, threads_per_worker=1) as c:
        yield c


def _same_resampling(a, b):
    np.testing.assert_array_equal(a.Z, b.Z)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.runs, b.runs)
    for s, t in zip(a.train_indices, b.train_indices):
        np.testing.assert_array_equal(s, t)


def test_resample_on_a_local_cluster_equals_serial(client):
    X, y = shared.regression()
    serial = resample(shared.lasso(), X, y, n_runs=8, random_state=3)
    on_client = resample(shared.lasso(), X, y, n_runs=8, random_state=3, backend=client)
    default_client = resample(shared.lasso(), X, y, n_runs=8, random_state=3, backend="dask")
    assert len(client.scheduler_info()["workers"]) == 2
    _same_resampling(serial, on_client)
    _same_resampling(serial, default_client)


def test_a_cluster_listens_on_the_loopback_only(client):
    """While the module's cluster is up, no socket of this process or of its children
    (the scheduler, the nannies, the worker processes, their HTTP servers) listens
    outside the loopback; the check finds one that does (with dashboard_address=None,
    distributed 2022.12 served HTTP on 0.0.0.0:8787 and on 0.0.0.0 in each worker)."""
    import socket

    import psutil

    workers = client.run(os.getpid)
    assert len(workers) == 2 and all(psutil.pid_exists(pid) for pid in workers.values())
    listening = [
        c.laddr.port
        for c in psutil.Process().connections(kind="tcp")
        if c.status == psutil.CONN_LISTEN
    ]
    assert int(client.scheduler.address.rsplit(":", 1)[1]) in listening
    assert shared.listening_outside_loopback() == []
    with socket.socket() as exposed:  # the check can fail
        exposed.bind(("0.0.0.0", 0))
        exposed.listen()
        found = shared.listening_outside_loopback()
        assert [(pid, address, port) for pid, _, address, port in found] == [
            (os.getpid(), "0.0.0.0", exposed.getsockname()[1])
        ]


def test_assess_on_a_local_cluster_equals_serial_and_loky(client):
    X, y = shared.regression(seed=1)
    kw = dict(n_runs=20, random_state=4)  # 20 runs: the 95 % interval compared has its level
    serial = assess(shared.lasso(0.05), X, y, **kw)
    on_client = assess(shared.lasso(0.05), X, y, backend=client, **kw)
    loky = assess(shared.lasso(0.05), X, y, n_jobs=2, **kw)
    for other in (on_client, loky):
        assert other.stability == serial.stability
        assert other.confidence_interval(0.95) == serial.confidence_interval(0.95)
        _same_resampling(serial.result, other.result)


def test_audit_on_a_local_cluster_equals_serial_loky_and_forked(client):
    """The audit's checks on a cluster's workers (a registered measure, and a user's
    function that travels pickled by value): the same rows, counterexamples included,
    as here, on loky's processes and on forked ones."""
    import propstab

    def coverage(Z):
        return float(Z.mean())

    def run(**kw):
        return [
            propstab.audit(
                ["kuncheva", "jaccard"], max_examples=15, progress=False, **kw
            ).to_json(),
            propstab.audit(
                coverage,
                claims=["bounds"],
                lower=0,
                upper=1,
                max_examples=15,
                progress=False,
                **kw,
            ).to_json(),
        ]

    serial = run()
    assert '"refuted"' in serial[0] and '"refuted"' in serial[1]  # counterexamples too
    assert run(backend=client) == run(backend="dask") == serial
    assert run(backend="loky", n_jobs=2) == serial
    with pytest.raises(
        ValueError,
        match=r"^backend: must run the checks in processes .*" r"got 'threading' \(in audit\)$",
    ):
        propstab.audit("kuncheva", backend="threading", n_jobs=2)
    if fork_available():
        assert run(n_jobs=2) == serial


def test_audit_on_a_worker_of_several_threads_equals_serial_without_stray_warnings():
    """A dask worker runs several tasks at once in threads; Hypothesis's searches, numpy's
    global random state and the warning filters are its process's. The audit's checks
    run there one at a time (run_tasks(exclusive=True)): the serial table, and none of
    the warnings the checks silence (concurrent checks raised Flaky, and one check's
    silenced UndefinedMeasureWarning reached another's recording). Tasks that run at
    once there send back every warning (149 to 164 of 200 came back before)."""
    import propstab

    names = ["kuncheva", "jaccard", "dice", "goh"]
    serial = propstab.audit(names, max_examples=20, progress=False).to_json()
    with shared.local_cluster(n_workers=1, threads_per_worker=3) as client:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            threaded = propstab.audit(
                names, max_examples=20, progress=False, backend=client
            ).to_json()
        with warnings.catch_warnings(record=True) as sent_back:
            warnings.simplefilter("always")
            out = run_tasks(
                lambda k: (warnings.warn(f"run {k}", UserWarning), k)[1],
                [(k,) for k in range(60)],
                backend=client,
            )
    assert threaded == serial
    assert not [w for w in caught if not issubclass(w.category, DeprecationWarning)], [
        str(w.message) for w in caught
    ]
    assert out == list(range(60))  # and every run's warning came back
    assert sorted(str(w.message) for w in sent_back if w.category is UserWarning) == sorted(
        f"run {k}" for k in range(60)
    )


def test_cli_audit_on_a_scheduler_address_prints_the_local_table(client, capsys, monkeypatch):
    """``propstab audit --scheduler ADDRESS`` (an existing cluster, by its scheduler's
    address) prints the table of a local audit; an address where nothing answers, or
    with --jobs, is one line and status 2."""
    from propstab.cli import main
    from propstab.commands import audit as audit_command

    argv = ["audit", "--measure", "jaccard", "--max-examples", "15"]
    assert main(argv + ["--jobs", "1"]) == 0
    local = capsys.readouterr().out
    assert main(argv + ["--scheduler", client.scheduler.address]) == 0
    assert capsys.readouterr().out == local
    monkeypatch.setattr(audit_command, "CONNECT_SECONDS", 1)
    for extra in (
        ["--scheduler", "tcp://127.0.0.1:9"],
        ["--scheduler", "no-port"],
        ["--scheduler", client.scheduler.address, "--jobs", "2"],
    ):
        assert main(argv + extra) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1, err
        assert err.startswith("propstab audit: error: ") and "--scheduler" in err, err
    # the command's clients, the one that failed half-way included, never became this
    # process's default client (a run on another client followed the default's loop)
    from distributed.client import _get_global_client

    assert _get_global_client() is client


def test_a_run_waits_on_its_clients_loop_not_the_default_clients(client):
    """distributed.as_completed follows the *default* client's event loop unless given
    one. A client that fails half-way (``Client("no-port")``: ValueError) stays the
    default, status "connecting", with a loop of its own, closed when it is collected:
    a run on ``client`` then waited for ever, its tasks done and the workers idle (the
    client's report handler logged "Event loop is closed"; a 30-fold soak hung so in
    tests/test_execution.py under -n 2). The run waits on its own client's loop."""
    import distributed
    from distributed.client import _get_global_client

    # the failed client is held only by distributed's weak registry of clients: a garbage
    # collection before it is fetched would drop it (1 of 30 soak runs), so none runs then
    gc.disable()
    try:
        with pytest.raises(ValueError), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            distributed.Client("no-port", timeout=5)
        zombie = _get_global_client()
    finally:
        gc.enable()
    assert zombie is not client and zombie.status == "connecting"
    zombie._loop_runner.stop()  # its loop closed, as when it is collected

    def stuck(*_):
        raise AssertionError("the run waited on another client's closed event loop")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)
    try:
        assert run_tasks(pow, [(k,) for k in range(4)], shared=(2,), backend=client) == [
            1,
            2,
            4,
            8,
        ]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        zombie.status = "closed"  # nobody's default any more


def test_stability_search_on_a_local_cluster_equals_serial(client):
    from sklearn.linear_model import Lasso
    from propstab import StabilityGridSearch

    X, y = shared.regression(n=80, d=6)
    make = lambda **kw: StabilityGridSearch(
        Lasso(), {"alpha": [0.05, 0.2]}, n_runs=6, random_state=2, **kw  # noqa: E731
    ).fit(X, y)
    conger = dict(measure="conger")  # the lasso's sizes vary
    serial, on_client = make(**conger), make(backend=client, **conger)
    for key in ("mean_stability", "stability_ci_low", "mean_test_score", "mean_n_selected"):
        np.testing.assert_array_equal(on_client.cv_results_[key], serial.cv_results_[key])
    assert on_client.best_params_ == serial.best_params_


def test_stability_selection_on_a_local_cluster_equals_serial(client):
    from sklearn.linear_model import Lasso

    X, y = shared.regression(n=80, d=6)
    make = lambda **kw: StabilitySelection(
        Lasso(), n_subsamples=4, n_alphas=5, random_state=0, **kw  # noqa: E731
    ).fit(X, y)
    serial = make()
    for other in (make(backend=client), make(n_jobs=2), make(backend="threading", n_jobs=2)):
        np.testing.assert_array_equal(serial.stability_scores_, other.stability_scores_)
        np.testing.assert_array_equal(serial.support_, other.support_)
        assert serial.q_ == other.q_ and serial.PFER_ == other.PFER_


def test_a_dask_run_emits_no_warning_and_sends_back_worker_warnings(client):
    """The liblinear n_jobs warning came from joblib's dask context in every run; now
    none is raised. A warning a run does raise (a ConvergenceWarning) comes back to the
    caller once, as in a serial run."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Lasso, LogisticRegression

    X, y = shared.classification()
    l1 = LogisticRegression(penalty="l1", solver="liblinear", C=0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = resample(l1, X, y, n_runs=6, random_state=0, backend=client)
    assert [str(w.message) for w in caught] == []
    _same_resampling(res, resample(l1, X, y, n_runs=6, random_state=0))
    Xr, yr = shared.regression()
    messages = []
    for backend in (None, client):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            resample(
                Lasso(alpha=1e-4, max_iter=1),
                Xr,
                yr,
                n_runs=6,
                random_state=0,
                backend=backend,
                downstream=False,
            )
        messages.append({(w.category, str(w.message)) for w in caught})
    assert messages[0] == messages[1]
    assert any(issubclass(c, ConvergenceWarning) for c, _ in messages[1])


class _Bar:
    def __init__(self):
        self.steps = []

    def update(self, n=1):
        self.steps.append(n)


def test_run_tasks_keeps_task_order_and_counts_finished_tasks(client):
    tasks = [(k,) for k in range(7)]
    for backend, n_jobs in (
        (None, None),
        ("threading", 2),
        ("loky", 2),
        (client, None),
        *([(FORK, 2)] if fork_available() else []),
    ):
        bar = _Bar()
        assert run_tasks(pow, tasks, shared=(3,), backend=backend, n_jobs=n_jobs, bar=bar) == [
            3**k for k in range(7)
        ]
        assert sum(bar.steps) == 7


def _pid_and_power(base, k):
    warnings.warn(f"parity {k % 2}", RuntimeWarning)
    if k == 11:
        raise ValueError("task 11 failed")
    return os.getpid(), base**k


@pytest.mark.skipif(not fork_available(), reason="forked workers: Linux only")
def test_forked_workers_inherit_the_tasks_and_send_back_outputs_warnings_and_errors(tmp_path):
    """backend=FORK (the audit's checks): the workers are forked from this process, so a
    function that cannot be pickled (a local lambda) runs there; the outputs come back
    in task order, each task written to the checkpoint, the workers' warnings issued
    again once each, and a task's error raised here."""
    tasks = [(k,) for k in range(9)]
    bar, cp = _Bar(), Checkpoint(tmp_path, {"call": "fork"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = run_tasks(
            lambda base, k: _pid_and_power(base, k),
            tasks,
            shared=(2,),
            backend=FORK,
            n_jobs=2,
            bar=bar,
            checkpoint=cp,
        )
    assert [power for _, power in out] == [2**k for k in range(9)]
    pids = {pid for pid, _ in out}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    assert sum(bar.steps) == 9
    assert [str(w.message) for w in caught] == ["parity 0", "parity 1"]
    assert cp.load(range(9)) == dict(enumerate(out))
    with pytest.raises(ValueError, match="task 11 failed"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        run_tasks(_pid_and_power, [(k,) for k in range(12)], shared=(2,), backend=FORK, n_jobs=2)


_INTERRUPTED = textwrap.dedent(
    """
    import sys, time
    from propstab._utils.execution import FORK, run_tasks
    def nap(seconds):
        time.sleep(seconds)
        return seconds
    try:
        run_tasks(nap, [(30,), (0.01,)], backend=FORK, n_jobs=2)
    except KeyboardInterrupt:
        sys.exit("interrupted")
"""
)


@pytest.mark.skipif(not fork_available(), reason="forked workers: Linux only")
def test_ctrl_c_stops_forked_workers_at_once_without_their_tracebacks():
    """SIGINT to the process group (Ctrl-C), with one worker in a 30 s task and the other
    waiting for a task: KeyboardInterrupt in the parent within seconds, the workers
    stopped, and nothing printed by them (a waiting worker used to print a traceback)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code, out, err, workers = shared.interrupt_when_working(
        [sys.executable, "-c", _INTERRUPTED], env, timeout=20
    )  # not the task's 30 s
    assert (code, err, out) == (1, "interrupted\n", "")
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")]


_INTERRUPTED_WHILE_SUBMITTING = textwrap.dedent(
    """
    import concurrent.futures, multiprocessing, sys, time
    from propstab._utils.execution import FORK, run_tasks
    submit = concurrent.futures.ProcessPoolExecutor.submit
    calls = []
    def interrupted_submit(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:  # the workers run the first two tasks: Ctrl-C comes now
            time.sleep(1)
            raise KeyboardInterrupt
        return submit(self, *args, **kwargs)
    concurrent.futures.ProcessPoolExecutor.submit = interrupted_submit
    def nap(seconds):
        time.sleep(seconds)
        return seconds
    start = time.monotonic()
    try:
        run_tasks(nap, [(30,), (30,), (0.01,)], backend=FORK, n_jobs=2)
    except KeyboardInterrupt:
        print(*[child.pid for child in multiprocessing.active_children()])
        sys.exit("interrupted")
"""
)


@pytest.mark.skipif(not fork_available(), reason="forked workers: Linux only")
def test_ctrl_c_while_the_tasks_are_submitted_stops_the_workers_too():
    """Ctrl-C that lands while the parent is still handing out the tasks (a loaded host
    can be that slow): the workers already running tasks are stopped as well, so the
    interpreter's exit does not wait for their 30 s tasks."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.monotonic()
    done = shared.run(
        [sys.executable, "-c", _INTERRUPTED_WHILE_SUBMITTING],
        env=env,
        capture_output=True,
        text=True,
        timeout=25,
    )
    assert (done.returncode, done.stderr) == (1, "interrupted\n")
    # the workers were stopped, not waited for: the exit came long before their 30 s
    # tasks would have ended, and none of them is left (a worker still being reaped
    # when the script printed its children is gone once the script has exited)
    assert time.monotonic() - start < 20
    left = [pid for pid in map(int, done.stdout.split()) if os.path.exists(f"/proc/{pid}")]
    assert not left, left


def test_tasks_in_threads_each_get_their_own_warnings():
    """Two tasks recording at once in one process's threads (a dask worker's), the first
    ending while the second still runs, and a thread that runs no task: each task gets
    exactly its warnings, the other thread's go where they went (with
    ``catch_warnings`` per task, the first task's end dropped the second's recorder)."""
    import threading
    from propstab._utils.execution import _in_worker

    a_in, b_in, a_out, c_done = (threading.Event() for _ in range(4))
    results = {}

    def task_a():
        warnings.warn("a1", UserWarning)
        a_in.set()
        b_in.wait(10)
        return "a"

    def task_b():
        b_in.set()
        a_in.wait(10)
        warnings.warn("b1", UserWarning)
        a_out.wait(10)  # task a has ended: b still records
        c_done.wait(10)
        warnings.warn("b2", RuntimeWarning)
        return "b"

    def run(name, function):
        results[name] = _in_worker(function, True, ())

    with warnings.catch_warnings(record=True) as outside:
        warnings.simplefilter("always")
        threads = {
            name: threading.Thread(target=run, args=(name, f))
            for name, f in (("a", task_a), ("b", task_b))
        }
        for thread in threads.values():
            thread.start()
        threads["a"].join(10)
        a_out.set()
        other = threading.Thread(target=lambda: warnings.warn("c", UserWarning))
        other.start()
        other.join(10)
        c_done.set()
        threads["b"].join(10)
    assert results["a"] == ("a", ((UserWarning, "a1"),))
    assert results["b"] == ("b", ((UserWarning, "b1"), (RuntimeWarning, "b2")))
    assert [str(w.message) for w in outside] == ["c"]


@pytest.mark.skipif(not fork_available(), reason="forked workers: Linux only")
def test_a_fork_while_another_thread_records_does_not_lock_the_workers():
    """A thread of this process holds the warning recorder's lock (a task starting or
    ending on an in-process worker) when the audit forks its workers: the forked
    workers get a lock of their own and record their tasks' warnings."""
    from propstab._utils.execution import _RECORDING

    def stuck(*_):
        raise AssertionError("a forked worker waited for its parent's lock")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)
    try:
        with _RECORDING.lock, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = run_tasks(
                _pid_and_power, [(k,) for k in range(4)], shared=(3,), backend=FORK, n_jobs=2
            )
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [power for _, power in out] == [1, 3, 9, 27]
    assert sorted(str(w.message) for w in caught) == ["parity 0", "parity 1"]


def _dies_at(fatal, k):
    if k == fatal:
        os.kill(os.getpid(), signal.SIGKILL)
    return k


@pytest.mark.skipif(not fork_available(), reason="forked workers: Linux only")
def test_a_forked_worker_that_dies_raises_instead_of_waiting_for_its_task():
    """A worker killed mid-task (out of memory, a crash in compiled code) loses its
    task: the call raises BrokenProcessPool (multiprocessing.Pool would wait forever)."""
    from concurrent.futures.process import BrokenProcessPool

    def stuck(*_):
        raise AssertionError("run_tasks waited for the task of a dead worker")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(120)
    try:
        with pytest.raises(BrokenProcessPool):
            run_tasks(_dies_at, [(k,) for k in range(6)], shared=(3,), backend=FORK, n_jobs=2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ----------------------------------------------------------------------------------
# checkpoints

_CALLS = {"n": 0, "stop_at": None}


class _Interrupted(KeyboardInterrupt):
    pass


def _interrupting_top2(X, y):
    """The two features most correlated with y; raises KeyboardInterrupt at the
    ``stop_at``-th call (an interruption in the middle of a run)."""
    _CALLS["n"] += 1
    if _CALLS["stop_at"] is not None and _CALLS["n"] == _CALLS["stop_at"]:
        raise _Interrupted
    return np.argsort(-np.abs(X.T @ (y - y.mean())))[:2]


def _count_calls(stop_at=None):
    _CALLS.update(n=0, stop_at=stop_at)


def test_an_interrupted_assess_resumes_to_the_uninterrupted_result(tmp_path):
    X, y = shared.regression(seed=2)
    _count_calls()
    whole = assess(_interrupting_top2, X, y, n_runs=12, random_state=5)
    _count_calls(stop_at=8)
    with pytest.raises(_Interrupted):
        assess(_interrupting_top2, X, y, n_runs=12, random_state=5, checkpoint=tmp_path)
    assert len(list(tmp_path.glob("task-*.npz"))) == 7
    _count_calls()
    resumed = assess(_interrupting_top2, X, y, n_runs=12, random_state=5, checkpoint=tmp_path)
    assert _CALLS["n"] == 5  # only the missing runs
    assert resumed.stability == whole.stability
    _same_resampling(whole.result, resumed.result)
    _count_calls()
    again = assess(_interrupting_top2, X, y, n_runs=12, random_state=5, checkpoint=tmp_path)
    assert _CALLS["n"] == 0 and again.stability == whole.stability


def test_a_checkpoint_of_another_call_is_refused_naming_what_differs(tmp_path):
    X, y = shared.regression(seed=2)
    resample(shared.lasso(), X, y, n_runs=4, random_state=5, checkpoint=tmp_path)
    with pytest.raises(
        ValueError, match=r"checkpoint: .* n_runs differs \(checkpoint: 4, " r"this call: 6\)"
    ):
        resample(shared.lasso(), X, y, n_runs=6, random_state=5, checkpoint=tmp_path)
    with pytest.raises(
        ValueError, match=r"another call: X differs \(checkpoint: content " r"hash [0-9a-f]{12}, "
    ):
        resample(shared.lasso(), X + 1, y, n_runs=4, random_state=5, checkpoint=tmp_path)
    with pytest.raises(ValueError, match=r"selector differs .*alpha.*0.1.*0.2"):
        resample(shared.lasso(0.2), X, y, n_runs=4, random_state=5, checkpoint=tmp_path)
    with pytest.raises(ValueError, match=r"random_state differs"):
        resample(shared.lasso(), X, y, n_runs=4, random_state=6, checkpoint=tmp_path)
    with pytest.raises(ValueError, match=r"checkpoint: needs a fixed random_state"):
        resample(shared.lasso(), X, y, n_runs=4, checkpoint=tmp_path / "other")
    with pytest.raises(TypeError, match=r"checkpoint: must be a directory path"):
        resample(shared.lasso(), X, y, n_runs=4, random_state=5, checkpoint=3)
    with pytest.raises(ValueError, match=r"checkpoint: needs a fixed random_state"):
        StabilitySelection(shared.lasso(), checkpoint=tmp_path).fit(X, y)


def test_a_mapping_checkpoints_each_selector_and_loky_workers_write_their_runs(tmp_path):
    X, y = shared.regression(seed=3)
    selectors = {"a": shared.lasso(0.05), "b": shared.lasso(0.2)}
    kw = dict(n_runs=6, random_state=1, measure="conger")  # the lasso's sizes vary
    whole = assess(selectors, X, y, **kw)
    first = assess(selectors, X, y, checkpoint=tmp_path, n_jobs=2, **kw)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["selector-0", "selector-1"]
    assert len(list((tmp_path / "selector-1").glob("task-*.npz"))) == 6
    again = assess(selectors, X, y, checkpoint=tmp_path, **kw)
    for name in selectors:
        for other in (first, again):
            _same_resampling(whole.assessments[name].result, other.assessments[name].result)


_SS_CALLS = {"n": 0, "stop_at": None}


def _stop_lasso_fit(self, X, y, *args, **kwargs):
    _SS_CALLS["n"] += 1
    if _SS_CALLS["stop_at"] is not None and _SS_CALLS["n"] == _SS_CALLS["stop_at"]:
        raise _Interrupted
    return type(self).__mro__[1].fit(self, X, y, *args, **kwargs)


def test_an_interrupted_stability_selection_resumes_to_the_same_fit(tmp_path):
    from sklearn.linear_model import Lasso

    StoppingLasso = type("StoppingLasso", (Lasso,), {"fit": _stop_lasso_fit})
    X, y = shared.regression(n=80, d=6)
    make = lambda **kw: StabilitySelection(
        StoppingLasso(), n_subsamples=4, n_alphas=5, random_state=0, **kw  # noqa
    )
    _SS_CALLS.update(n=0, stop_at=None)
    whole = make().fit(X, y)
    _SS_CALLS.update(n=0, stop_at=5 * 5 + 3)  # within the sixth subsample's path
    with pytest.raises(_Interrupted):
        make(checkpoint=tmp_path).fit(X, y)
    assert len(list(tmp_path.glob("task-*.npz"))) == 5
    _SS_CALLS.update(n=0, stop_at=None)
    resumed = make(checkpoint=tmp_path).fit(X, y)
    assert _SS_CALLS["n"] == 3 * 5  # 8 fits of 5 path values, 5 read
    np.testing.assert_array_equal(whole.stability_scores_, resumed.stability_scores_)
    np.testing.assert_array_equal(whole.support_, resumed.support_)


_KILLED_SCRIPT = """
import os, pickle, sys
import numpy as np
from sklearn.linear_model import Ridge
from propstab import resample

checkpoint, out, kill_after = sys.argv[1], sys.argv[2], int(sys.argv[3])

def top2(X, y):
    done = len([f for f in os.listdir(checkpoint) if f.startswith("task-")])
    if kill_after >= 0 and done >= kill_after:
        os.kill(os.getpid(), 9)                      # SIGKILL: nothing runs after this
    with open(os.path.join(checkpoint, "calls.log"), "a") as log:
        log.write("call\\n")
    return np.argsort(-np.abs(X.T @ (y - y.mean())))[:2]

rng = np.random.default_rng(0)
X = rng.normal(size=(50, 6)); y = X[:, 0] - X[:, 1] + rng.normal(size=50)
res = resample(top2, X, y, n_runs=10, random_state=7, checkpoint=checkpoint,
               downstream=Ridge())
with open(out, "wb") as f:
    pickle.dump((res.Z, res.scores, res.runs), f)
"""


def test_a_killed_process_resumes_to_the_identical_result(tmp_path, monkeypatch):
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(_KILLED_SCRIPT))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    checkpoint, uninterrupted = tmp_path / "cp", tmp_path / "whole"

    def run(directory, out, kill_after):
        directory.mkdir(exist_ok=True)
        return shared.run(
            [sys.executable, str(script), str(directory), str(out), str(kill_after)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    killed = run(checkpoint, tmp_path / "never.pkl", 4)
    assert killed.returncode == -9, killed.stderr
    assert len(list(checkpoint.glob("task-*.npz"))) == 4
    assert not list(checkpoint.glob(".tmp-*"))  # no half-written file left
    done = run(checkpoint, tmp_path / "resumed.pkl", -1)
    assert done.returncode == 0, done.stderr
    assert (checkpoint / "calls.log").read_text().count("call") == 4 + 6
    # the uninterrupted reference: the same script in this process (a third interpreter
    # would only pay the imports again)
    uninterrupted.mkdir()
    monkeypatch.setattr(
        sys, "argv", [str(script), str(uninterrupted), str(tmp_path / "whole.pkl"), "-1"]
    )
    runpy.run_path(str(script), run_name="__main__")
    import pickle

    Z1, s1, r1 = pickle.loads((tmp_path / "resumed.pkl").read_bytes())
    Z2, s2, r2 = pickle.loads((tmp_path / "whole.pkl").read_bytes())
    assert np.array_equal(Z1, Z2) and np.array_equal(s1, s2) and np.isfinite(s1).all()
    assert np.array_equal(r1, r2)


def test_checkpoint_writes_are_atomic_and_keyed(tmp_path):
    cp = Checkpoint(tmp_path, {"a": "1"})
    cp.save(0, {"x": 1})
    cp.save(0, {"x": 2})  # replaced whole
    assert cp.load([0, 1]) == {0: {"x": 2}}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json", "task-0.npz"]
    with pytest.raises(ValueError, match=r"a differs \(checkpoint: 1, this call: 2\)"):
        Checkpoint(tmp_path, {"a": "2"})
