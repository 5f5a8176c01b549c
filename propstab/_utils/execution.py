"""The one execution layer: independent seeded tasks run in order (serial), with joblib
(``n_jobs=``, a joblib backend name), or on a dask.distributed cluster (a ``Client``, or
``"dask"``: the current default client); and the checkpoint that makes a long run
resumable.

Every long computation of propstab is a list of independent tasks, each carrying its own
seed drawn up front from the user's ``random_state`` (``SeedSequence``, see
:func:`propstab.selectors.run_seeds`), so that the results do not depend on the backend,
the number of workers or the order in which tasks finish: :func:`run_tasks` returns them
in task order. A progress bar advances as tasks *finish*. With a :class:`Checkpoint`,
each finished task's output is written (atomically) as it finishes, and a rerun runs only
the missing tasks.

What travels to the workers: the ``shared`` objects (the selector, X, y) once per call
(on dask: scattered once to every worker), and per task its own arguments (split
indices, a seed). What comes back: each task's output (a run's selection mask,
importances and score), and, from worker processes, the warnings the task raised,
issued again here once each (the workers print nothing). Inside a parallel worker a task
runs under joblib's sequential backend: an estimator's own ``n_jobs`` starts no nested
pool, and scikit-learn's "'n_jobs' > 1 does not have any effect when 'solver' is set to
'liblinear'" (raised when joblib's active backend reports several workers) is not raised
for every run.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import warnings
from typing import Callable, Optional, Sequence

from .checks import fail, shown
from .params import Checked

# the checkpoints: one module (names kept here for the callers of this module)
from .checkpoint import Checkpoint, check_checkpoint_seed, data_hash, described  # noqa: F401

__all__ = [
    "BACKEND",
    "FORK",
    "Checkpoint",
    "check_backend",
    "check_checkpoint_seed",
    "data_hash",
    "described",
    "fork_available",
    "is_client",
    "run_tasks",
]

#: joblib backends whose workers are other processes (their warnings are sent back).
_PROCESS_BACKENDS = ("loky", "multiprocessing")


def is_client(value) -> bool:
    """Whether ``value`` is a dask.distributed ``Client`` (checked without importing
    distributed).

    >>> is_client("dask"), is_client(None)
    (False, False)
    """
    module = type(value).__module__ or ""
    return (
        module.split(".")[0] == "distributed"
        and hasattr(value, "submit")
        and hasattr(value, "scatter")
    )


def check_backend(name: str, value, function=None):
    """``backend=``: None, a dask.distributed ``Client``, ``"dask"`` (the current
    default client) or a joblib backend name; returned as given.

    >>> check_backend("backend", "threading")
    'threading'
    >>> check_backend("backend", "spark")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: backend: must be None, a joblib backend (dask, loky,
    multiprocessing, sequential, threading) or a dask.distributed Client; got 'spark'
    """
    if value is None or is_client(value):
        return value
    if not isinstance(value, str):
        fail(
            f"{name}: must be None, a joblib backend name, 'dask' or a "
            f"dask.distributed Client; got {shown(value)}",
            TypeError,
            function=function,
        )
    from joblib.parallel import BACKENDS, EXTERNAL_BACKENDS

    known = sorted(set(BACKENDS) | set(EXTERNAL_BACKENDS) | {"dask"})
    if value not in known:
        fail(
            f"{name}: must be None, a joblib backend ({', '.join(known)}) or a "
            f"dask.distributed Client; got {value!r}",
            function=function,
        )
    return value


#: The declared rule of ``backend=`` (resample, assess, StabilitySelection).
BACKEND = [
    Checked(
        check_backend,
        "a joblib backend's name, 'dask' or a dask.distributed Client",
        invalid=(5, "no-such-backend", ["loky"]),
    ),
    None,
]


def _default_client():
    try:
        from distributed import get_client
    except ImportError:  # pragma: no cover - a dependency of [dask]
        raise ImportError(
            "backend='dask' needs dask.distributed: pip install "
            "propstab[dask] (Debian: python3-distributed)"
        ) from None
    try:
        return get_client()
    except ValueError:
        fail(
            "backend: 'dask' runs on the current dask.distributed Client and there is "
            "none; start one first (Client() for a local cluster, "
            "Client('tcp://scheduler:8786') for an existing one) or pass it as "
            "backend=client; got backend='dask'"
        )


class _Silent:
    def update(self, n: int = 1) -> None:
        pass


#: Held by a task of ``run_tasks(..., exclusive=True)`` in a worker that runs several
#: tasks at once in threads (a dask worker's): one such task at a time per process.
_EXCLUSIVE = threading.Lock()


class _Recording:
    """Each task's warnings, also for tasks running at once in one process's threads (a
    dask worker's). ``warnings.catch_warnings`` sets the process's filters and
    ``showwarning``: tasks entering and leaving it at once dropped each other's
    recorders (on a worker of 4 threads, 149 to 164 of 200 warnings came back). Here the
    first task to start records every warning (``"always"``) through one dispatcher that
    hands each warning to the task of the thread that raised it (other threads' go where
    they went), and the last task to end restores the process's warning state. A task's
    own ``catch_warnings`` still changes the process's state while it runs."""

    def __init__(self):
        self.lock, self.local, self.depth = threading.Lock(), threading.local(), 0
        self.context, self.shown = None, None

    def unlock(self) -> None:
        """In a forked child: a new lock (the parent's other threads may have held it
        at the fork); the recording state is kept, as the process's warning state is."""
        self.lock = threading.Lock()

    def _show(self, message, category, filename, lineno, file=None, line=None):
        caught = getattr(self.local, "caught", None)
        if caught is None:
            self.shown(message, category, filename, lineno, file, line)
        else:
            caught.append((category, str(message)))

    @contextlib.contextmanager
    def __call__(self):
        caught: list = []
        with self.lock:
            if self.depth == 0:
                self.context = warnings.catch_warnings()
                self.context.__enter__()
                warnings.simplefilter("always")
                self.shown, warnings.showwarning = warnings.showwarning, self._show
            self.depth += 1
        self.local.caught = caught
        try:
            yield caught
        finally:
            self.local.caught = None
            with self.lock:
                self.depth -= 1
                if self.depth == 0:
                    self.context.__exit__(None, None, None)
                    self.context, self.shown = None, None


_RECORDING = _Recording()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_RECORDING.unlock)


def _in_worker(function, record, args, save=None, exclusive=False):
    """A task in a parallel worker: under joblib's sequential backend (no nested pools;
    ``effective_n_jobs(None) == 1`` for scikit-learn's checks); with ``record`` the
    warnings raised are returned with the output; with ``save`` (a checkpoint and the
    task's key) the output is written as soon as it is computed; with ``exclusive``
    alone in its process (its code is not thread-safe)."""
    if exclusive:
        with _EXCLUSIVE:
            return _in_worker(function, record, args, save)
    from joblib import parallel_backend

    with parallel_backend("sequential"):
        if record:
            with _RECORDING() as caught:
                out = function(*args)
            caught = tuple(caught)
        else:
            out, caught = function(*args), ()
    if save is not None:
        save[0].save(save[1], out, save[2])
    return out, caught


class _Reissue:
    """Warnings sent back by workers, issued once each (as a serial run would)."""

    def __init__(self):
        self.seen = set()

    def __call__(self, caught) -> None:
        for category, message in caught:
            if (category, message) not in self.seen:
                self.seen.add((category, message))
                warnings.warn(message, category, stacklevel=3)


def run_tasks(
    function: Callable,
    tasks: Sequence[tuple],
    *,
    shared: tuple = (),
    n_jobs: Optional[int] = None,
    backend=None,
    bar=None,
    keys: Optional[Sequence[int]] = None,
    checkpoint: Optional["Checkpoint"] = None,
    exclusive: bool = False,
    tags: Optional[Sequence[str]] = None,
) -> list:
    """``function(*shared, *task)`` for every task; the outputs in task order.

    Parameters
    ----------
    function : callable
        Picklable (a module-level function) for process backends and dask.
    tasks : sequence of tuple
        Each task's own arguments (its split, its seed).
    shared : tuple
        Arguments common to every task (the selector, X, y): on dask scattered once to
        every worker.
    n_jobs : int, optional
        joblib's ``n_jobs`` (None: 1 without a backend, every worker with one).
    backend : None, str or Client
        None (serial; joblib's loky with ``n_jobs``), a joblib backend name, ``"dask"``
        (the current default ``Client``), a ``distributed.Client``, or :data:`FORK`
        (``n_jobs`` processes forked from this one; see :func:`fork_available`).
    bar : progress counter, optional
        Advanced by one as each task finishes.
    keys : sequence of int, optional
        The tasks' indices in the whole computation (default 0, 1, ...): their keys in
        the checkpoint.
    checkpoint : Checkpoint, optional
        Finished tasks are read from it and not run again; each task run is written
        to it as it finishes.
    tags : sequence of str, optional
        The digest of each task's own arguments (its resample, its seed:
        :func:`propstab._utils.checkpoint.task_digest`), stored with its output in the
        checkpoint: a file is read only for the very task that wrote it.
    exclusive : bool, default False
        Tasks that are not thread-safe (the audit's Hypothesis searches): where a worker
        runs several tasks in threads (dask, joblib's ``"threading"``), one at a time
        per process.

    Returns
    -------
    list
        One output per task, in task order, the same for every backend.

    Examples
    --------
    >>> from propstab._utils.execution import run_tasks
    >>> run_tasks(pow, [(2,), (3,)], shared=(10,))
    [100, 1000]
    >>> run_tasks(pow, [(2,), (3,)], shared=(10,), backend="threading", n_jobs=2)
    [100, 1000]
    """
    bar = _Silent() if bar is None else bar
    keys = list(range(len(tasks))) if keys is None else list(keys)
    if checkpoint is not None:  # what a worker writes: the key and the tag of its task
        tags = [None] * len(tasks) if tags is None else list(tags)
        keys = [(key, tag) for key, tag in zip(keys, tags)]
    out: list = [None] * len(tasks)
    todo = list(range(len(tasks)))
    if checkpoint is not None:
        done = checkpoint.load([k for k, _ in keys], [t for _, t in keys])
        todo = [pos for pos, (key, _) in enumerate(keys) if key not in done]
        for pos, (key, _) in enumerate(keys):
            if key in done:
                out[pos] = done[key]
        if len(todo) < len(tasks):
            bar.update(len(tasks) - len(todo))
    if not todo:
        return out
    if backend == "dask" or is_client(backend):
        client = _default_client() if backend == "dask" else backend
        _on_dask(client, function, tasks, shared, todo, keys, out, bar, checkpoint, exclusive)
    elif backend == FORK:
        _on_fork(function, tasks, shared, todo, keys, out, bar, checkpoint, n_jobs or -1)
    elif backend is None and n_jobs in (None, 1):
        for pos in todo:
            out[pos] = function(*shared, *tasks[pos])
            if checkpoint is not None:
                checkpoint.save(keys[pos][0], out[pos], keys[pos][1])
            bar.update(1)
    else:
        _on_joblib(
            function,
            tasks,
            shared,
            todo,
            keys,
            out,
            bar,
            checkpoint,
            backend or "loky",
            n_jobs or -1,
            exclusive,
        )
    return out


def _on_dask(
    client, function, tasks, shared, todo, keys, out, bar, checkpoint, exclusive=False
) -> None:
    """Submit every task (the shared objects scattered once), collect as they finish:
    each output placed, written to the checkpoint here (the client's file system) and
    counted."""
    from distributed import as_completed

    # hash=False: keys of this call alone (two calls scattering the same X must not share
    # data that the end of the first releases)
    remote = client.scatter(list(shared), broadcast=True, hash=False) if shared else []
    position = {}
    futures = []
    for pos in todo:
        future = client.submit(
            _in_worker, function, True, (*remote, *tasks[pos]), None, exclusive, pure=False
        )
        position[future.key] = pos
        futures.append(future)
    reissue = _Reissue()
    try:
        # on this client's event loop: as_completed follows the *default* client's unless
        # told, and another client (one that failed to connect stays the default) may
        # have a loop of its own, closed when it is collected: the run then waited for
        # ever, its tasks done
        for future, result in as_completed(futures, with_results=True, loop=client.loop):
            if future.status != "finished":  # cancelled or lost: its error, raised
                future.result()
                raise RuntimeError(f"backend: the task {future.key} ended as " f"{future.status}")
            value, caught = result
            pos = position[future.key]
            out[pos] = value
            if checkpoint is not None:
                checkpoint.save(keys[pos][0], value, keys[pos][1])
            reissue(caught)
            bar.update(1)
    except BaseException:  # an error or an interruption: stop the rest
        client.cancel(futures)
        raise


def _on_joblib(
    function, tasks, shared, todo, keys, out, bar, checkpoint, backend, n_jobs, exclusive=False
) -> None:
    """joblib's Parallel: the bar advanced as batches complete, each output written to
    the checkpoint by the worker that computed it (joblib's backends share this
    machine's file system), the outputs (and, from process workers, the warnings)
    collected in order."""
    import joblib

    class Counted(joblib.Parallel):
        seen = 0

        def print_progress(self):  # called by joblib as each batch completes
            new = self.n_completed_tasks - self.seen
            self.seen = self.n_completed_tasks
            if new:
                bar.update(new)

    record = backend in _PROCESS_BACKENDS
    with joblib.parallel_backend(backend, n_jobs=n_jobs):
        results = Counted()(
            joblib.delayed(_in_worker)(
                function,
                record,
                (*shared, *tasks[pos]),
                None if checkpoint is None else (checkpoint, *keys[pos]),
                exclusive,
            )
            for pos in todo
        )
    reissue = _Reissue()
    for pos, (value, caught) in zip(todo, results):
        out[pos] = value
        reissue(caught)


#: ``backend=`` of :func:`run_tasks` for workers forked from this process (not a
#: user-facing backend: the audit's checks use it where :func:`fork_available`).
FORK = "fork"

#: The (function, shared, tasks, keys, checkpoint) of the running fork pools: a forked
#: worker inherits them, so that nothing is pickled on the way to it (only each task's
#: output comes back).
_FORKED: list = []


def fork_available() -> bool:
    """Whether :data:`FORK` can run here: on Linux, where a process can be forked (the
    default way to start one before Python 3.14). A forked worker starts at once, with
    everything this process has imported and built (a loky worker starts a new
    interpreter and imports propstab, about 1.5 s of wall for the audit's two workers on
    a 2-core machine), and receives its tasks without pickling. Only for tasks that
    start no threads of their own before the fork (OpenMP runtimes do not survive one):
    the audit's checks (numpy, scipy, Hypothesis).

    >>> isinstance(fork_available(), bool)
    True
    """
    import multiprocessing

    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _forked_task(pos: int):
    """The task at ``pos`` of the innermost fork pool, in a forked worker."""
    function, shared, tasks, keys, checkpoint = _FORKED[-1]
    save = None if checkpoint is None else (checkpoint, *keys[pos])
    return pos, _in_worker(function, True, (*shared, *tasks[pos]), save)


def _leave_interrupts_to_the_parent() -> None:
    """A forked worker ignores Ctrl-C (SIGINT reaches the whole process group): the
    parent stops it, where a worker waiting for its next task would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_fork(function, tasks, shared, todo, keys, out, bar, checkpoint, n_jobs) -> None:
    """A pool of forked workers (``n_jobs`` as joblib reads it: -1 every core) taking the
    tasks in order as each finishes its previous one; the bar advanced as tasks finish,
    the warnings issued again once each, in task order. A task's error, an interruption
    (Ctrl-C) or a worker that dies (killed, or a crash in compiled code:
    ``BrokenProcessPool``) stops the workers at once and is raised here."""
    import concurrent.futures
    import multiprocessing

    import joblib

    workers = joblib.effective_n_jobs(n_jobs)
    caught = {}
    _FORKED.append((function, shared, tasks, keys, checkpoint))
    others = set(multiprocessing.active_children())
    pool = concurrent.futures.ProcessPoolExecutor(
        min(workers, len(todo)),
        mp_context=multiprocessing.get_context("fork"),
        initializer=_leave_interrupts_to_the_parent,
    )
    try:
        with warnings.catch_warnings():
            # Python >= 3.12 warns on forking a process that runs threads (BLAS's, a
            # progress bar's): the workers run the tasks alone and take no lock of theirs
            warnings.filterwarnings(
                "ignore", "This process .* is multi-threaded", DeprecationWarning
            )
            futures = [pool.submit(_forked_task, pos) for pos in todo]
        for future in concurrent.futures.as_completed(futures):
            pos, (value, warned) = future.result()
            out[pos], caught[pos] = value, warned
            bar.update(1)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        # the workers as they are now: an interruption can come while the tasks are being
        # submitted, and a worker left running would hold the interpreter's exit (it joins
        # its children) until it had done the tasks already handed to it
        workers_now = set(multiprocessing.active_children()) - others
        for process in workers_now:
            process.terminate()
        for process in workers_now:
            process.join(5)
        # let the pool's manager thread see its workers gone and close its wake-up pipe
        # now: at the interpreter's exit, concurrent.futures wakes every manager thread
        # still registered, and one closing its pipe at that instant printed "Exception
        # ignored in: <module 'threading'> ... Bad file descriptor" after the one-line
        # interruption (1 in 30 interrupted audits)
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(10)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        _FORKED.pop()
    reissue = _Reissue()
    for pos in todo:
        reissue(caught[pos])
