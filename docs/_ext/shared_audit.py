"""The audit behind the site's catalogue, done once per test run with the property suite.

:func:`audit_rows` gives the catalogue its verdicts (cached in docs/_build/cache under a
hash of the package's sources, :func:`source_fingerprint`).

The site's build (docs/conf.py: the catalogue's verdicts, ``propstab.audit(name,
max_examples=40, random_state=0)`` for every measure) and properties/test_axioms.py
(``CHECKS[axiom](subject, max_examples=40, random_state=0)`` for every subject and axiom) run the
same checks: the same subjects, the same searches, the same seeds, hence the same
results. In a test run both start at the same time (the scheduler sends them first to the
two workers); here each check is computed once, by whichever process reaches it first,
and the others read its :class:`~propstab.auditing.CheckResult` (pickled, so the property
suite gets the very object it asserts on: status, counterexample, values, context).

The results live in a folder of this test run only (:func:`run_folder`: the run's id and
a hash of the package's sources and the audit's settings), so a check is never read from
another run or other code. Claims use ``flock``: a process computing a check holds a lock
on its claim file; another process reaching it waits for the lock (or, when it asks not
to wait, leaves the check for later) and then reads the result. A lock dies with its
process, so a crashed claimer leaves nothing to wait for: the next one computes the check.
"""
from __future__ import annotations

import concurrent.futures
import fcntl
import hashlib
import json
import multiprocessing
import os
import pathlib
import pickle
import re
import shutil
import time
from typing import Optional

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: Where the test runs' shared results go (git ignores docs/_build).
FOLDER = ROOT / "docs" / "_build" / "shared-audit"
#: The environment variable that hands the test run's id to the site's build.
ENV = "PROPSTAB_SHARED_AUDIT_RUN"
#: Run folders older than this are removed when a new run starts one (seconds).
STALE = 6 * 3600


def source_fingerprint(max_examples: int, seed: int) -> str:
    """A hash of everything an audit's result depends on: the package's sources, the
    Hypothesis version and the audit's settings."""
    import hypothesis

    h = hashlib.sha256(f"{max_examples}:{seed}:{hypothesis.__version__}".encode())
    for f in sorted((ROOT / "propstab").rglob("*.py")):
        h.update(str(f.relative_to(ROOT)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def current_run_id() -> str:
    """The id of the current pytest run, the same in every xdist worker (and in the
    processes they start): xdist's run id, else the process id."""
    return os.environ.get("PYTEST_XDIST_TESTRUNUID", f"pid-{os.getpid()}")


def run_folder(max_examples: int, seed: int, run_id: Optional[str] = None) -> pathlib.Path:
    """The folder of this test run's shared results for these settings (created; older
    runs' folders removed)."""
    run_id = re.sub(r"[^\w-]", "_", run_id or current_run_id())
    folder = FOLDER / f"{run_id}-{source_fingerprint(max_examples, seed)}"
    if not folder.is_dir():
        FOLDER.mkdir(parents=True, exist_ok=True)
        for old in FOLDER.iterdir():
            if old.is_dir() and time.time() - old.stat().st_mtime > STALE:
                shutil.rmtree(old, ignore_errors=True)
        folder.mkdir(exist_ok=True)
    return folder


def _paths(folder: pathlib.Path, subject, axiom):
    name = f"{subject.name}-{axiom.name.lower()}"
    stem = (
        re.sub(r"[^\w.=-]+", "_", name)[:150] + "-" + hashlib.sha256(name.encode()).hexdigest()[:8]
    )
    return folder / f"{stem}.pickle", folder / f"{stem}.claim"


def check(
    folder: pathlib.Path, subject, axiom, *, max_examples: int, seed: int, wait: bool = True
):
    """``CHECKS[axiom](subject, max_examples=..., random_state=...)``, computed here or read from
    the process that computed it in this run's ``folder``. With ``wait=False`` a check that
    another process is computing returns None at once (the caller comes back later)."""
    from propstab.auditing import CHECKS

    result_path, claim_path = _paths(folder, subject, axiom)
    if result_path.exists():
        return pickle.loads(result_path.read_bytes())
    fd = os.open(claim_path, os.O_CREAT | os.O_RDWR, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                return None
            fcntl.flock(fd, fcntl.LOCK_EX)
        if result_path.exists():  # computed while we waited for the claim
            return pickle.loads(result_path.read_bytes())
        result = CHECKS[axiom](subject, max_examples=max_examples, random_state=seed)
        partial = result_path.with_name(f"{result_path.name}.{os.getpid()}.part")
        partial.write_bytes(pickle.dumps(result))
        os.replace(partial, result_path)  # readers see a whole file or none
        return result
    finally:
        os.close(fd)  # releases the claim


# ------------------------------------------------------------------ the site's catalogue


def _audit_one(args):
    name, max_examples, seed = args
    import propstab

    table = propstab.audit(name, max_examples=max_examples, random_state=seed)
    return [r.to_dict() for r in table]


#: The subjects of each measure, built once per process (for the shared checks).
_SUBJECTS: dict = {}


def _subjects(name: str) -> list:
    from propstab.auditing import audited_subjects

    if name not in _SUBJECTS:
        _SUBJECTS[name] = list(audited_subjects(name))
    return _SUBJECTS[name]


def _shared_one(args):
    """One check of the run's shared audit (:mod:`shared_audit`): its row, or None when
    another process is computing it and ``wait`` is False."""
    folder, name, i, axiom, max_examples, seed, wait = args
    from propstab import Axiom

    result = check(
        pathlib.Path(folder),
        _subjects(name)[i],
        Axiom[axiom],
        max_examples=max_examples,
        seed=seed,
        wait=wait,
    )
    return None if result is None else result.to_dict()


def _shared_rows(
    folder: pathlib.Path, names: list, max_examples: int, seed: int, jobs: int
) -> list:
    """The rows of ``propstab.audit(name, ...)`` for every name, in its order (each
    measure's subjects, each of them at every axiom), from the checks shared with the
    property suite in this test run (``folder``). The suite goes through the checks from
    the first; here they go from the last, so the two meet once and rarely wait for each
    other: a check the other is computing is left for the end, then read."""
    from propstab import Axiom

    tasks = [
        (str(folder), name, i, a.name, max_examples, seed)
        for name in names
        for i in range(len(_subjects(name)))
        for a in Axiom
    ]
    rows = [None] * len(tasks)
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        order = list(range(len(tasks)))[::-1]
        for i, row in zip(order, pool.map(_shared_one, [tasks[i] + (False,) for i in order])):
            rows[i] = row
        left = [i for i in order if rows[i] is None]
        for i, row in zip(left, pool.map(_shared_one, [tasks[i] + (True,) for i in left])):
            rows[i] = row
    return rows


def audit_rows(
    cache_dir: pathlib.Path, *, max_examples: int, seed: int = 0, jobs: int = 0, log=print
) -> list:
    """Every (measure or variant, axiom) row of ``propstab.audit(max_examples=...,
    random_state=...)`` as JSON-ready dicts, computed over ``jobs`` processes (0: one per
    CPU) and cached in ``cache_dir`` under a hash of the package's sources (the audit is
    deterministic for a seed, so the cache can only be reused for identical code). In a test
    run (the environment variable :data:`ENV` holds the run's id) each check is shared with
    the property suite, which runs the same checks."""
    import propstab

    key = source_fingerprint(max_examples, seed)
    cache = cache_dir / f"audit-{max_examples}-{seed}-{key}.json"
    if cache.exists():
        log(f"propstab docs: audit verdicts from {cache.relative_to(ROOT)}")
        return json.loads(cache.read_text(encoding="utf-8"))
    names = [m.name for m in propstab.list_measures()]
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    shared = os.environ.get(ENV)
    if shared:
        rows = _shared_rows(
            run_folder(max_examples, seed, shared), names, max_examples, seed, jobs
        )
    else:
        tasks = [(name, max_examples, seed) for name in names]
        if jobs > 1:
            context = multiprocessing.get_context("fork")
            with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
                parts = list(pool.map(_audit_one, tasks))
        else:
            parts = [_audit_one(t) for t in tasks]
        rows = [row for part in parts for row in part]
    log(
        f"propstab docs: audited {len(names)} measures ({len(rows)} checks, "
        f"{max_examples} examples each, {jobs} processes"
        + (", shared with this test run" if shared else "")
        + f") in {time.perf_counter() - start:.0f} s"
    )
    cache_dir.mkdir(parents=True, exist_ok=True)
    for old in cache_dir.glob(f"audit-{max_examples}-{seed}-*.json"):
        old.unlink()
    cache.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return rows
