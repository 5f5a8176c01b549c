"""An independent fuzz of the doors of the newer surface: checkpoints, sizes, the command
line, inverted bounds, None where something is required, NaN and inf in numeric options.

It throws at :func:`propstab.resample`, :func:`propstab.assess`,
:class:`propstab.StabilitySelection`, :class:`propstab.StabilityGridSearch`, the audit
(:func:`propstab.audit`, :func:`propstab.testing.assert_measure_properties`,
:func:`propstab.testing.parametrize_with_checks`) and every subcommand of the command
line:

- ``checkpoint``: empty, an existing file, a directory that cannot be written, under a
  file, under /proc, a symlink loop, a path with spaces or non-ASCII letters, bytes, a
  number, and a directory holding another call's checkpoint;
- task files spoiled between two calls: truncated, emptied, random bytes, a pickle
  (one that would leave a marker file when unpickled), another run's file, a foreign
  ``.npz``, a directory in a file's place, a manifest rewritten;
- sizes at and past their stated maxima (``n_runs``, ``max_runs``, ``n_subsamples``,
  grid sizes, ``max_examples``): refused at once past the maximum, the first fit (or
  the first evaluation) at once at it;
- inverted bounds (constants, NumPy numbers, shape-dependent ``Bound`` objects), None
  as the measure, the function or the selector, NaN and inf in numeric arguments;
- the command line: random option combinations drawn from argparse's own parser
  (:func:`propstab.cli.build_parser`), values from each option's type and choices
  (NaN, inf, negative, huge, garbage, files of every kind).

The oracle. A Python call returns, raises :class:`propstab.InvalidParameterError`
naming an argument, or another propstab error; it may warn with a propstab warning.
Anything else is a finding: another exception, another warning category, a call past
its time limit, code run from a checkpoint (the marker file appears), a resumed result
that differs from the uninterrupted one. A command exits 0, 1 or 2 (3 only for R or rpy2
missing, its documented meaning), prints no traceback, and a refusal (exit 2) is one
line on stderr.

Quick mode (the test, seconds)::

    PYTHONPATH=. python scripts/fuzz_doors.py --quick

Full mode (about 1,200 calls in 3-6 minutes on a shared 2-core host), with every
finding listed::

    PYTHONPATH=. python scripts/fuzz_doors.py --calls 1000 --seed 1
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pickle
import random
import shutil
import signal
import stat
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter

import numpy as np

# ----------------------------------------------------------------------------------
# the oracle


class Hang(BaseException):
    """A call past its time limit (a BaseException: no ``except Exception`` hides it)."""


class Stop(BaseException):
    """Raised by a selector or a measure to end a call at its first fit (sizes)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    def alarm(signum, frame):
        raise Hang(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Fuzz:
    """Counts of calls and the findings, by category."""

    def __init__(self, seed: int, limit: float):
        self.rng = random.Random(seed)
        self.nrng = np.random.default_rng(seed)
        self.limit = limit
        self.calls = Counter()
        self.exits = Counter()  # the command line's exit statuses
        self.findings = []
        self.tmp = tempfile.mkdtemp(prefix="propstab fuzz dörs ")

    def finding(self, category, what, detail):
        self.findings.append({"category": category, "call": what, "detail": detail})

    def call(self, category, what, fn, *, expect=None, limit=None, stop_ok=False, foreign=False):
        """Run ``fn()`` under the oracle; returns ("value", v), ("refused", error),
        ("stopped", None) or ("finding", None). ``expect``: "refused" (it must refuse)
        or a callable checking the value (returns a problem or None)."""
        import propstab

        self.calls[category] += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with time_limit(limit or self.limit):
                    value = fn()
            except Stop:
                if not stop_ok:
                    self.finding(category, what, "Stop escaped")
                    return "finding", None
                outcome = ("stopped", None)
            except Hang as exc:
                self.finding(category, what, f"HANG: {exc}")
                return "finding", None
            except propstab.InvalidParameterError as exc:
                if not exc.argument:
                    self.finding(category, what, f"InvalidParameterError naming nothing: {exc}")
                    return "finding", None
                outcome = ("refused", exc)
            except Exception as exc:  # noqa: BLE001 - the oracle's subject
                if type(exc).__module__.startswith("propstab") or (
                    isinstance(exc, AssertionError) and "assert_" in what
                ):  # an assertion's documented failure
                    outcome = ("refused", exc)
                else:
                    tb = traceback.extract_tb(exc.__traceback__)[-1]
                    self.finding(
                        category,
                        what,
                        f"{type(exc).__name__}: {str(exc)[:300]} "
                        f"(at {os.path.basename(tb.filename)}:{tb.lineno})",
                    )
                    return "finding", None
            else:
                outcome = ("value", value)
        for w in caught:  # (foreign: the value goes to the user's estimator, which may warn)
            if not foreign and not issubclass(w.category, propstab.PropstabWarning):
                self.finding(
                    category,
                    what,
                    f"foreign warning {w.category.__name__}: {str(w.message)[:200]} "
                    f"(at {os.path.basename(w.filename)}:{w.lineno})",
                )
                return "finding", None
        if expect == "refused" and outcome[0] != "refused":
            self.finding(category, what, f"accepted, expected a refusal: {outcome[0]}")
            return "finding", None
        if callable(expect) and outcome[0] == "value":
            problem = expect(outcome[1])
            if problem:
                self.finding(category, what, problem)
                return "finding", None
        return outcome


# ----------------------------------------------------------------------------------
# data and selectors


def data(n=30, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X[:, 0] - X[:, 1] + rng.normal(size=n)
    return X, y


def top2(X, y):
    return np.argsort(-np.abs(np.asarray(X).T @ np.asarray(y)))[:2]


def top3(X, y):
    return np.argsort(-np.abs(np.asarray(X).T @ np.asarray(y)))[:3]


def lasso():
    from sklearn.linear_model import Lasso

    return Lasso(alpha=0.1)


def kbest():
    from sklearn.feature_selection import SelectKBest, f_regression

    return SelectKBest(f_regression, k=2)


def _stopping_kbest():
    from sklearn.feature_selection import SelectKBest

    class StoppingKBest(SelectKBest):
        """SelectKBest whose fit ends the call (the first fit of a sizes case)."""

        def fit(self, X, y=None):
            raise Stop

    return StoppingKBest


def StoppingKBest():  # noqa: N802 - a class made on first use (scikit-learn imported late)
    global StoppingKBest
    StoppingKBest = _stopping_kbest()
    return StoppingKBest()


def entry_points(X, y):
    """name -> call(checkpoint=..., **extra) of each checkpointed entry point, small."""
    import propstab

    return {
        "resample": lambda **kw: propstab.resample(
            top2, X, y, n_runs=6, random_state=0, downstream=False, **kw
        ),
        "assess": lambda **kw: propstab.assess(
            top2, X, y, n_runs=6, random_state=0, downstream=False, **kw
        ),
        "assess(mapping)": lambda **kw: propstab.assess(
            {"a": top2, "b": top3}, X, y, n_runs=6, random_state=0, downstream=lasso(), **kw
        ),
        "StabilitySelection": lambda **kw: propstab.StabilitySelection(
            lasso(), n_subsamples=3, PFER=None, cutoff=0.6, random_state=0, **kw
        ).fit(X, y),
        "StabilityGridSearch": lambda **kw: propstab.StabilityGridSearch(
            kbest(), {"k": [1, 2]}, n_runs=6, random_state=0, **kw
        ).fit(X, y),
    }


def summary(value):
    """What a result says, to compare a resumed call with an uninterrupted one."""
    if hasattr(value, "cv_results_"):
        return repr(
            [np.asarray(value.cv_results_[k]).tolist() for k in ("mean_stability", "params")]
        )
    if hasattr(value, "support_") or hasattr(value, "frequencies_"):
        return repr(
            [
                np.asarray(getattr(value, a)).tolist()
                for a in ("frequencies_", "support_", "scores_")
                if hasattr(value, a)
            ]
        )
    if hasattr(value, "assessments"):
        return repr({k: summary(a) for k, a in value.assessments.items()})
    if hasattr(value, "result") and hasattr(value, "stability"):
        return repr((value.stability, summary(value.result)))
    if hasattr(value, "Z"):
        return repr((np.asarray(value.Z).tolist(), [t.tolist() for t in value.train_indices]))
    return repr(value)


# ----------------------------------------------------------------------------------
# checkpoints


def _paths(fz: Fuzz):
    """(label, path, must refuse) of checkpoint path kinds."""
    base = tempfile.mkdtemp(dir=fz.tmp)
    afile = os.path.join(base, "a file")
    with open(afile, "w") as f:
        f.write("x")
    locked = os.path.join(base, "locked")
    os.mkdir(locked)
    os.chmod(locked, stat.S_IRUSR | stat.S_IXUSR)
    loop = os.path.join(base, "loop")
    os.symlink(loop, loop)
    ring_a, ring_b = os.path.join(base, "ring a"), os.path.join(base, "ring b")
    os.symlink(ring_b, ring_a)
    os.symlink(ring_a, ring_b)
    dangling = os.path.join(base, "dangling")
    os.symlink(os.path.join(base, "nowhere", "deeper"), dangling)
    root = os.geteuid() == 0
    return [
        ("empty", "", True),
        ("a file", afile, True),
        ("under a file", os.path.join(afile, "sub"), True),
        ("under /proc", "/proc/propstab-fuzz/x", True),
        ("unwritable dir", os.path.join(locked, "sub"), not root),
        ("unwritable dir itself", locked, not root),
        ("symlink loop", loop, True),
        ("symlink ring", os.path.join(ring_a, "sub"), True),
        ("dangling symlink", dangling, None),
        ("spaces", os.path.join(base, "with spaces", "and more"), False),
        ("unicode", os.path.join(base, "stabilité ✓ データ"), False),
        ("pathlib", __import__("pathlib").Path(base) / "pathlib dir", False),
        ("bytes", os.fsencode(os.path.join(base, "bytes dir")), None),
        ("int", 5, True),
        ("nul byte", os.path.join(base, "a\x00b"), True),
        ("dot", ".", None),
    ]


def fuzz_checkpoint_paths(fz: Fuzz, rounds: int):
    X, y = data()
    calls = entry_points(X, y)
    paths = _paths(fz)
    cwd = os.getcwd()
    for _ in range(rounds):
        label, path, refuse = fz.rng.choice(paths)
        name = fz.rng.choice(list(calls))
        if label == "dot":  # the working directory: run inside a fresh one
            os.chdir(tempfile.mkdtemp(dir=fz.tmp))
        try:
            outcome, value = fz.call(
                "checkpoint path",
                f"{name}(checkpoint={label}: {path!r})",
                lambda: calls[name](checkpoint=path),
                expect="refused" if refuse else None,
            )
        finally:
            os.chdir(cwd)
        if (
            refuse is False
            and outcome == "refused"
            and "holds the runs of another" not in str(value)
        ):  # (a path kind is reused by the entry points: another call's runs are refused)
            fz.finding("checkpoint path", f"{name}(checkpoint={label})", f"refused: {value}")
        if outcome == "refused" and "checkpoint" not in str(getattr(value, "argument", "")):
            fz.finding("checkpoint path", f"{name}(checkpoint={label})", f"names another: {value}")


def _spoilers(fz: Fuzz, marker: str):
    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker!r}",))

    def truncate(path):
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.truncate(fz.rng.randrange(0, max(size, 1)))

    def empty(path):
        open(path, "wb").close()

    def garbage(path):
        with open(path, "wb") as f:
            f.write(fz.nrng.bytes(fz.rng.randrange(1, 400)))

    def pickled(path):
        with open(path, "wb") as f:
            pickle.dump(Evil(), f)

    def foreign_npz(path):
        with open(path, "wb") as f:
            np.savez(f, a=np.arange(3), header=np.array(json.dumps({"format": 1})))

    def pickled_npz(path):
        with open(path, "wb") as f:
            np.savez(f, a=np.array([Evil()], dtype=object))

    def directory(path):
        os.remove(path)
        os.mkdir(path)

    def flip(path):
        with open(path, "r+b") as f:
            data = bytearray(f.read())
            if data:
                i = fz.rng.randrange(len(data))
                data[i] ^= 0xFF
                f.seek(0)
                f.write(data)

    def json_garbage(path):
        with open(path, "w") as f:
            f.write(fz.rng.choice(["", "{", "[]", "null", '{"format": 99}', "\x00\x01", "1e999"]))

    return {
        "truncate": truncate,
        "empty": empty,
        "garbage": garbage,
        "pickle": pickled,
        "foreign npz": foreign_npz,
        "pickled npz": pickled_npz,
        "directory": directory,
        "flip a byte": flip,
        "json garbage": json_garbage,
    }


def _files(root):
    out = []
    for folder, _, names in os.walk(root):
        out += [os.path.join(folder, n) for n in names]
    return sorted(out)


def fuzz_spoiled_files(fz: Fuzz, rounds: int):
    """A checkpointed call, files spoiled, the same call again: the uninterrupted result
    (with CheckpointWarnings) or a refusal naming checkpoint; never code run."""
    X, y = data()
    calls = entry_points(X, y)
    marker = os.path.join(fz.tmp, "MARKER: code ran")
    spoil = _spoilers(fz, marker)
    clean = {}
    for _ in range(rounds):
        name = fz.rng.choice(list(calls))
        if name not in clean:
            outcome, value = fz.call("spoiled file", f"{name}()", lambda: calls[name]())
            clean[name] = summary(value) if outcome == "value" else None
        where = tempfile.mkdtemp(dir=fz.tmp)
        outcome, _ = fz.call(
            "spoiled file", f"{name}(checkpoint) first", lambda: calls[name](checkpoint=where)
        )
        files = _files(where)
        if outcome != "value" or not files:
            continue
        chosen = fz.rng.sample(files, fz.rng.randint(1, min(3, len(files))))
        kinds = [fz.rng.choice(list(spoil)) for _ in chosen]
        other = fz.rng.random() < 0.2  # or another run's task file in its place
        for path, kind in zip(chosen, kinds):
            if other and len(files) > 1:
                source = fz.rng.choice([f for f in files if f != path])
                shutil.copyfile(source, path)
                kind = f"copy of {os.path.basename(source)}"
            else:
                spoil[kind](path)
        what = (
            f"{name}(checkpoint) after {list(zip([os.path.basename(p) for p in chosen], kinds))}"
        )

        def same(value, want=clean[name]):
            got = summary(value)
            if want is not None and got != want:
                return f"resumed result differs: {got[:200]} != {want[:200]}"
            return None

        outcome, value = fz.call(
            "spoiled file", what, lambda: calls[name](checkpoint=where), expect=same
        )
        if outcome == "refused" and getattr(value, "argument", None) != "checkpoint":
            fz.finding("spoiled file", what, f"refused naming another argument: {value}")
        if os.path.exists(marker):
            fz.finding("spoiled file", what, "CODE RAN: the pickle's marker file appeared")
            os.remove(marker)
    # another call's checkpoint in the directory
    for _ in range(max(1, rounds // 4)):
        name = fz.rng.choice(list(calls))
        where = tempfile.mkdtemp(dir=fz.tmp)
        fz.call("spoiled file", f"{name}(checkpoint) first", lambda: calls[name](checkpoint=where))
        X2, y2 = data(seed=fz.rng.randrange(1, 100))
        other = entry_points(X2, y2)[name]
        outcome, value = fz.call(
            "spoiled file",
            f"{name}(checkpoint of another data set)",
            lambda: other(checkpoint=where),
            expect="refused",
        )
        # another entry point's checkpoint: refused, or run as if the directory were new
        second = fz.rng.choice([n for n in calls if n != name])
        want = None
        if fz.rng.random() < 0.5:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = summary(calls[second]())

        def same(value, want=want):
            if want is not None and summary(value) != want:
                return "the result differs from that of a fresh call"
            return None

        outcome, value = fz.call(
            "spoiled file",
            f"{second}(checkpoint of {name})",
            lambda: calls[second](checkpoint=where),
            expect=same,
        )
        if outcome == "refused" and getattr(value, "argument", None) != "checkpoint":
            fz.finding("spoiled file", f"{second}(checkpoint of {name})", f"names: {value}")


# ----------------------------------------------------------------------------------
# sizes


def fuzz_sizes(fz: Fuzz, rounds: int):
    import propstab
    from propstab.testing import assert_measure_properties, parametrize_with_checks

    X, y = data()
    first = []

    def stopping(X, y):
        first.append(time.perf_counter())
        raise Stop

    def stopping_measure(Z):
        raise Stop

    past = [10**6 + 1, 10**9, 10**12, 2**63, 10**30]
    cases = []
    for n in past:
        cases += [
            ("n_runs", lambda n=n: propstab.resample(top2, X, y, n_runs=n, random_state=0)),
            ("n_runs", lambda n=n: propstab.assess(top2, X, y, n_runs=n, random_state=0)),
            (
                "max_runs",
                lambda n=n: propstab.assess(
                    top2, X, y, n_runs=10, max_runs=n, target_halfwidth=0.1, random_state=0
                ),
            ),
            (
                "n_runs",
                lambda n=n: propstab.StabilityGridSearch(kbest(), {"k": [1, 2]}, n_runs=n).fit(
                    X, y
                ),
            ),
            (
                "n_subsamples",
                lambda n=n: propstab.StabilitySelection(lasso(), n_subsamples=n).fit(X, y),
            ),
            ("max_examples", lambda n=n: propstab.audit("jaccard", max_examples=n)),
            (
                "max_examples",
                lambda n=n: assert_measure_properties("jaccard", max_examples=n),
            ),
            ("max_examples", lambda n=n: parametrize_with_checks("jaccard", max_examples=n)),
            (
                "scheme",
                lambda n=n: propstab.resample(
                    top2,
                    X,
                    y,
                    scheme=__import__("sklearn.model_selection").model_selection.ShuffleSplit(
                        n_splits=n
                    ),
                    random_state=0,
                ),
            ),
        ]
    cases += [
        (
            "param_grid",
            lambda: propstab.StabilityGridSearch(
                kbest(), {"k": [1, 2], "score_func": [None] * 5001}
            ).fit(X, y),
        ),
        (
            "param_grid",
            lambda: propstab.StabilityGridSearch(
                lasso(), {"alpha": np.linspace(0.01, 1, 10**4 + 1)}
            ).fit(X, y),
        ),
        ("n_runs", lambda: propstab.resample(top2, X, y, n_runs=1, random_state=0)),
        ("n_runs", lambda: propstab.resample(top2, X, y, n_runs=-5, random_state=0)),
        ("n_runs", lambda: propstab.resample(top2, X, y, n_runs=1e6, random_state=0)),
        ("n_runs", lambda: propstab.resample(top2, X, y, n_runs=float("inf"), random_state=0)),
        ("n_runs", lambda: propstab.resample(top2, X, y, n_runs=float("nan"), random_state=0)),
        ("n_subsamples", lambda: propstab.StabilitySelection(lasso(), n_subsamples=1).fit(X, y)),
    ]
    at_max = [
        lambda: propstab.resample(stopping, X, y, n_runs=10**6, random_state=0, progress=False),
        lambda: propstab.assess(stopping, X, y, n_runs=10**6, random_state=0, progress=False),
        lambda: propstab.resample(
            stopping, X, y, n_runs=10**6, scheme="complementary_pairs", random_state=0
        ),
        lambda: propstab.resample(
            stopping,
            X,
            y,
            scheme=__import__("sklearn.model_selection").model_selection.ShuffleSplit(
                n_splits=10**6, random_state=0
            ),
            random_state=0,
        ),
        lambda: propstab.assess(
            stopping,
            X,
            y,
            n_runs=10,
            max_runs=10**6,
            target_halfwidth=0.01,
            random_state=0,
            progress=False,
        ),
        lambda: propstab.StabilityGridSearch(
            StoppingKBest(),
            {"k": [1, 2]},
            n_runs=10**6,
            random_state=0,
            progress=False,
        ).fit(X, y),
        lambda: propstab.audit(
            stopping_measure, max_examples=10**6, claims=["bounds"], lower=0, upper=1
        ),
        lambda: assert_measure_properties(stopping_measure, max_examples=10**6),
    ]
    for _ in range(rounds):
        if fz.rng.random() < 0.6:
            argument, fn = fz.rng.choice(cases)
            start = time.perf_counter()
            outcome, value = fz.call("sizes", f"past the maximum: {argument}", fn, limit=10)
            if outcome == "refused":
                if getattr(value, "argument", None) != argument:
                    fz.finding("sizes", argument, f"refused naming another: {value}")
                if time.perf_counter() - start > 3:
                    fz.finding("sizes", argument, "refused after more than 3 s")
            elif outcome == "value":
                fz.finding("sizes", argument, "accepted past its stated maximum")
        else:
            k = fz.rng.randrange(len(at_max))
            start = time.perf_counter()
            outcome, value = fz.call(
                "sizes", f"at the maximum, case {k}", at_max[k], limit=20, stop_ok=True
            )
            took = time.perf_counter() - start
            if outcome == "stopped" and took > 5:
                fz.finding("sizes", f"at the maximum, case {k}", f"first fit after {took:.1f} s")
            elif outcome == "value":
                fz.finding("sizes", f"at the maximum, case {k}", "returned without fitting")


# ----------------------------------------------------------------------------------
# bounds, None, NaN and inf


#: Arguments handed to the user's estimator as they are: its own warnings are not
#: propstab's (Lasso(alpha=0) warns that it does not converge well).
ESTIMATOR_OWN = ("StabilityGridSearch(grid value)",)


def fuzz_arguments(fz: Fuzz, rounds: int):
    import propstab
    from propstab.registry import Bound
    from propstab.testing import assert_measure_properties, parametrize_with_checks

    X, y = data()
    Z = (np.random.default_rng(0).random((6, 8)) < 0.4).astype(int)
    Z[:, 0] = 1

    def coverage(Z):
        return float(np.mean(Z))

    numbers = [0, 1, -1, 0.5, 2, np.int64(0), np.float32(1), np.array(0.5)]
    odd = [float("nan"), float("inf"), -float("inf"), np.array([0, 1]), "0", None, True]
    funcs = [
        Bound("M", func=lambda M, d, k: float(M)),
        Bound("-M", func=lambda M, d, k: -float(M)),
        Bound("1/0", func=lambda M, d, k: 1 / 0),
        Bound("nan", func=lambda M, d, k: float("nan")),
    ]
    auditors = {
        "audit": lambda **kw: propstab.audit(coverage, max_examples=5, progress=False, **kw),
        "assert_measure_properties": lambda **kw: assert_measure_properties(
            coverage, max_examples=5, **kw
        ),
        "parametrize_with_checks": lambda **kw: parametrize_with_checks(
            coverage, max_examples=5, **kw
        ),
    }
    nones = {
        "resample(None)": lambda: propstab.resample(None, X, y, n_runs=4, random_state=0),
        "assess(None)": lambda: propstab.assess(None, X, y, n_runs=4, random_state=0),
        "StabilitySelection(None)": lambda: propstab.StabilitySelection(None).fit(X, y),
        "StabilityGridSearch(None)": lambda: propstab.StabilityGridSearch(None, {"k": [1]}).fit(
            X, y
        ),
        "StabilityGridSearch(grid None)": lambda: propstab.StabilityGridSearch(kbest(), None).fit(
            X, y
        ),
        "assert_measure_properties(None)": lambda: assert_measure_properties(None),
        "estimate(Z, None)": lambda: propstab.estimate(Z, None),
        "estimate(None)": lambda: propstab.estimate(None),
        "resample(X None)": lambda: propstab.resample(top2, None, y, n_runs=4),
        "resample(scheme None)": lambda: propstab.resample(top2, X, y, scheme=None, n_runs=4),
    }
    defaults = {
        "audit(None)": lambda: propstab.audit(
            None, max_examples=1, axioms=["bounds"], progress=False
        ),
        "parametrize_with_checks(None)": lambda: parametrize_with_checks(None, max_examples=1),
        "assess(measure=None)": lambda: propstab.assess(
            top2, X, y, n_runs=4, random_state=0, measure=None, downstream=False
        ),
        "StabilityGridSearch(measure None)": lambda: propstab.StabilityGridSearch(
            kbest(), {"k": [1, 2]}, measure=None, n_runs=4, random_state=0
        ).fit(X, y),
    }
    numeric = {
        "resample(fraction)": lambda v: propstab.resample(
            top2, X, y, n_runs=4, scheme="subsample", fraction=v, random_state=0
        ),
        "resample(threshold)": lambda v: propstab.resample(
            lasso(), X, y, n_runs=4, threshold=v, random_state=0
        ),
        "resample(top_k)": lambda v: propstab.resample(
            lasso(), X, y, n_runs=4, top_k=v, random_state=0
        ),
        "resample(random_state)": lambda v: propstab.resample(
            top2, X, y, n_runs=4, random_state=v, downstream=False
        ),
        "resample(n_jobs)": lambda v: propstab.resample(
            top2, X, y, n_runs=4, n_jobs=v, random_state=0, downstream=False
        ),
        "assess(target_halfwidth)": lambda v: propstab.assess(
            top2,
            X,
            y,
            n_runs=10,
            target_halfwidth=v,
            max_runs=20,
            random_state=0,
            downstream=False,
        ),
        "assess(top_k_sizes)": lambda v: propstab.assess(
            lasso(), X, y, n_runs=4, top_k_sizes=[v], random_state=0, output="ranking"
        ),
        "StabilitySelection(cutoff)": lambda v: propstab.StabilitySelection(
            lasso(), n_subsamples=3, cutoff=v, PFER=None, random_state=0
        ).fit(X, y),
        "StabilitySelection(PFER)": lambda v: propstab.StabilitySelection(
            lasso(), n_subsamples=3, PFER=v, random_state=0
        ).fit(X, y),
        "StabilitySelection(q)": lambda v: propstab.StabilitySelection(
            lasso(), n_subsamples=3, q=v, random_state=0
        ).fit(X, y),
        "StabilitySelection(eps)": lambda v: propstab.StabilitySelection(
            lasso(), n_subsamples=3, eps=v, PFER=None, random_state=0
        ).fit(X, y),
        "StabilitySelection(threshold)": lambda v: propstab.StabilitySelection(
            lasso(), n_subsamples=3, threshold=v, PFER=None, random_state=0
        ).fit(X, y),
        "StabilityGridSearch(confidence_level)": lambda v: propstab.StabilityGridSearch(
            kbest(), {"k": [1, 2]}, n_runs=4, confidence_level=v, random_state=0
        ).fit(X, y),
        "StabilityGridSearch(tolerance)": lambda v: propstab.StabilityGridSearch(
            kbest(), {"k": [1, 2]}, n_runs=4, tolerance=v, random_state=0
        ).fit(X, y),
        "StabilityGridSearch(grid value)": lambda v: propstab.StabilityGridSearch(
            lasso(), {"alpha": [v, 0.1]}, n_runs=4, random_state=0
        ).fit(X, y),
        "estimate(confidence)": lambda v: propstab.estimate(Z, "nogueira").confidence_interval(v),
        "estimate(pairs)": lambda v: propstab.estimate(Z, "jaccard", pairs=v),
        "audit(random_state)": lambda v: propstab.audit("jaccard", max_examples=2, random_state=v),
        "audit(null_value)": lambda v: propstab.audit(
            coverage, max_examples=2, claims=["correction_for_chance"], null_value=v
        ),
    }
    values = [
        float("nan"),
        float("inf"),
        -float("inf"),
        -1,
        0,
        0.5,
        1,
        2,
        1e308,
        10**20,
        -0.0,
        np.float64("nan"),
        np.int64(3),
        "0.5",
        True,
        3.5,
    ]
    for _ in range(rounds):
        r = fz.rng.random()
        if r < 0.35:
            name = fz.rng.choice(list(auditors))
            lower = fz.rng.choice(numbers + odd + funcs)
            upper = fz.rng.choice(numbers + odd + funcs)
            claims = fz.rng.sample(["bounds", "maximum", "fully_defined"], fz.rng.randint(1, 3))
            inverted = (
                isinstance(lower, (int, float, np.generic, np.ndarray))
                and isinstance(upper, (int, float, np.generic, np.ndarray))
                and not isinstance(lower, bool)
                and not isinstance(upper, bool)
                and np.ndim(lower) == 0
                and np.ndim(upper) == 0
                and float(lower) > float(upper)
            )
            outcome, value = fz.call(
                "bounds",
                f"{name}(claims={claims}, lower={lower!r}, upper={upper!r})",
                lambda: auditors[name](claims=claims, lower=lower, upper=upper),
                expect="refused" if inverted else None,
                limit=30,
            )
            if inverted and outcome == "refused" and value.argument not in ("lower", "upper"):
                fz.finding("bounds", f"{name}({lower}, {upper})", f"names another: {value}")
        elif r < 0.55:
            name = fz.rng.choice(list(nones))
            fz.call("None", name, nones[name], expect="refused", limit=30)
            # None as a documented default (every registered measure; the default measure)
            name = fz.rng.choice(list(defaults))
            fz.call("None", name, defaults[name], limit=30)
        else:
            name = fz.rng.choice(list(numeric))
            v = fz.rng.choice(values)
            fz.call(
                "NaN/inf",
                f"{name} = {v!r}",
                lambda: numeric[name](v),
                limit=30,
                foreign=name in ESTIMATOR_OWN,
            )


# ----------------------------------------------------------------------------------
# the command line


def _cli_files(fz: Fuzz):
    """Files of every kind for the commands' file arguments."""
    d = tempfile.mkdtemp(dir=fz.tmp)
    rng = np.random.default_rng(1)
    Z = (rng.random((8, 10)) < 0.4).astype(int)
    Z[:, 0] = 1
    R = np.argsort(rng.random((8, 10)), axis=1) + 1
    files = {}

    def write(name, text, mode="w"):
        path = os.path.join(d, name)
        with open(path, mode) as f:
            f.write(text)
        files[name] = path
        return path

    write("Z.csv", "\n".join(",".join(map(str, r)) for r in Z) + "\n")
    write(
        "Z2.csv",
        "\n".join(",".join(map(str, r)) for r in np.roll(Z, 1, axis=1)) + "\n",
    )
    write("sets.txt", "\n".join(" ".join(str(j) for j in np.flatnonzero(r)) for r in Z) + "\n")
    write("ranks.csv", "\n".join(",".join(map(str, r)) for r in R) + "\n")
    write("scores.csv", "\n".join(",".join(f"{v:.3f}" for v in r) for r in rng.random((8, 10))))
    write(
        "sim.csv",
        "\n".join(",".join("1" if i == j else "0.2" for j in range(10)) for i in range(10)),
    )
    write("names.txt", "\n".join(f"g{i}" for i in range(10)))
    write("empty.csv", "")
    write("blank lines.csv", "\n\n\n")
    write("nan.csv", "nan,1,0\n1,inf,0\n")
    write("ragged.csv", "1,0,1\n1\n0,0,0,1,1\n")
    write("header.csv", "a,b,c\n1,0,1\n0,1,1\n")
    write("garbage.bin", bytes(rng.integers(0, 256, 300, dtype=np.uint8)), "wb")
    write("pickle.pkl", pickle.dumps({"Z": Z}), "wb")
    write("json.json", json.dumps({"format": "propstab-baseline", "version": 999}))
    write("données ✓.csv", "\n".join(",".join(map(str, r)) for r in Z) + "\n")
    write("huge numbers.csv", "1e400,0\n0,1\n")
    for name, save in (
        ("Z.npy", lambda f: np.save(f, Z)),
        ("ranks.npy", lambda f: np.save(f, R)),
        ("floats.npy", lambda f: np.save(f, rng.random((8, 10)))),
        ("archive as.npy", lambda f: np.savez(f, Z=Z)),
        ("objects.npy", lambda f: np.save(f, np.array([{"a": 1}], dtype=object))),
        ("sim.npz", lambda f: np.savez(f, data=np.eye(3))),
        ("baseline.npz", lambda f: np.savez(f, selection=Z, metadata=np.array("{}"))),
    ):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            save(f)
        files[name] = path
    for name in ("Z.npy", "archive as.npy", "sim.npz", "baseline.npz"):  # truncated copies
        path = os.path.join(d, "truncated " + name)
        with open(files[name], "rb") as f:
            body = f.read()
        with open(path, "wb") as f:
            f.write(body[: len(body) // 2])
        files["truncated " + name] = path
    write("empty.npy", "")
    write("empty.npz", "")
    write("text.npz", "1,0\n0,1\n")
    files["missing"] = os.path.join(d, "missing.csv")
    files["directory"] = d
    files["dev null"] = "/dev/null"
    return files


INTS = ["0", "1", "2", "5", "-3", "10", "999999999999999999999", "1e3", "nan", "x", ""]
FLOATS = [
    "0.95",
    "0.5",
    "0",
    "1",
    "-1",
    "0.1",
    "nan",
    "inf",
    "-inf",
    "1e309",
    "x",
    "",
    "0.3",
    "1e-300",
]


GOOD = {
    "file": ["Z.csv", "sets.txt", "Z.npy", "Z2.csv"],
    "file1": ["Z.csv"],
    "file2": ["Z2.csv", "Z.csv"],
    "similarity": ["sim.csv"],
    "feature_names": ["names.txt"],
    "input": ["Z.csv"],
    "measure": ["jaccard", "nogueira", "kuncheva", "davis", "spearman"],
    "option": ["penalty=0.5"],
    "index_col": ["auto"],
    "float": ["0.9", "0.5", "0.1", "0.05", "0.3"],
    "int": ["1", "3", "5", "20"],
}


def _value(fz: Fuzz, action, files, measures):
    opt = action.dest
    tname = getattr(action.type, "__name__", "")
    if fz.rng.random() < 0.7 and not action.choices:  # mostly well-formed, to go deep
        key = (
            opt
            if opt in GOOD
            else (
                "int"
                if tname in ("int", "positive_int", "_jobs")
                else "float"
                if tname in ("float", "_tolerance", "_timeout")
                else None
            )
        )
        if key is not None:
            good = fz.rng.choice(GOOD[key])
            return files.get(good, good)
    if action.choices:
        return fz.rng.choice(list(action.choices) + ["bogus"])
    tname = getattr(action.type, "__name__", "")
    if opt in ("file", "file1", "file2", "similarity", "feature_names", "input", "target"):
        if opt == "input" and fz.rng.random() < 0.3:
            return fz.rng.choice(["matrix", "sets", "bogus"])
        if opt == "target" and fz.rng.random() < 0.5:
            return fz.rng.choice(measures)
        return fz.rng.choice(list(files.values()))
    if opt == "measure":
        return fz.rng.choice(measures + ["bogus", "", "JACCARD"])
    if opt == "option":
        return fz.rng.choice(
            [
                "penalty=0.5",
                "penalty=nan",
                "bogus=1",
                "=",
                "noequals",
                "penalty=-1",
                "p=5",
                "correction_for_chance=estimate",
            ]
        )
    if opt == "index_col":
        return fz.rng.choice(["auto", "none", "0", "1", "-1", "99", "x"])
    if opt in ("command",):
        return fz.rng.choice([f"{sys.executable} -c print(0.5)", "true", "/nonexistent/x", ""])
    if opt == "scheduler":
        return fz.rng.choice(["bogus:1", "tcp://127.0.0.1:1", ""])
    if opt == "expected":
        return fz.rng.choice(["0.5", "nan", "[[1,0],[0,1]]=1", "x"])
    if opt == "argv":
        return [sys.executable, "-c", "print(0.5)"]
    if tname in ("int", "positive_int", "_jobs"):
        return fz.rng.choice(INTS)
    return fz.rng.choice(FLOATS)


def _command_line(fz: Fuzz, parser, sub, files, measures):
    """A random command line for a random subcommand, from the subparser's actions."""
    name = fz.rng.choice(list(sub.choices))
    sp = sub.choices[name]
    argv = [name]
    positionals = []
    for action in sp._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:
            if action.nargs in ("?", "...") and fz.rng.random() < 0.3:
                continue
            value = _value(fz, action, files, measures)
            positionals.append(value)
            continue
        if fz.rng.random() > 0.35:
            continue
        flag = fz.rng.choice(action.option_strings)
        if action.nargs == 0:
            argv.append(flag)
        else:
            for _ in range(
                2 if isinstance(action, argparse._AppendAction) and fz.rng.random() < 0.3 else 1
            ):
                argv += [flag, str(_value(fz, action, files, measures))]
    for p in positionals:
        argv += p if isinstance(p, list) else [str(p)]
    # keep the slow commands short: few examples unless the option was drawn
    if name in ("audit", "crosscheck", "agree") and "--max-examples" not in argv:
        argv[1:1] = ["--max-examples", "3"]
    if name in ("audit", "crosscheck") and "--measure" not in argv and fz.rng.random() < 0.9:
        argv[1:1] = ["--measure", fz.rng.choice(measures)]
    return argv


#: Commands that search or call R: a minute before a call counts as a hang.
SLOW = ("audit", "crosscheck", "agree")


def run_cli(argv, limit):
    """(exit status, stdout, stderr) of ``propstab ARGV`` in this process."""
    from propstab import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        with time_limit(limit):
            try:
                status = cli.main(list(argv))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return status, out.getvalue(), err.getvalue()


def fuzz_cli(fz: Fuzz, rounds: int):
    import propstab
    from propstab.cli import build_parser

    parser = build_parser()
    sub = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)][0]
    files = _cli_files(fz)
    measures = (
        [m.name for m in propstab.list_measures()]
        if hasattr(propstab, "list_measures")
        else ["jaccard", "nogueira"]
    )
    for _ in range(rounds):
        argv = _command_line(fz, parser, sub, files, measures)
        what = "propstab " + " ".join(map(str, argv))
        fz.calls["cli"] += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                status, out, err = run_cli(argv, 60 if argv[0] in SLOW else 20)
        except Hang as exc:
            fz.finding("cli", what, f"HANG: {exc}")
            continue
        except BaseException as exc:  # noqa: BLE001 - an escape is the finding
            if isinstance(exc, KeyboardInterrupt):
                raise
            fz.finding("cli", what, f"escaped main: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        fz.exits[status] += 1
        lines = [line for line in err.splitlines() if line.strip()]
        errors = [line for line in lines if ": error:" in line]
        if "Traceback (most recent call last)" in err or "Traceback" in out:
            fz.finding("cli", what, f"traceback on stderr: {err[-300:]}")
        elif status == 3 and "internal error" in err:
            fz.finding("cli", what, f"exit 3: {err.strip()[:300]}")
        elif status not in (0, 1, 2, 3):
            fz.finding("cli", what, f"exit {status}: {err.strip()[:300]}")
        elif status == 2 and len(errors) != 1:
            fz.finding("cli", what, f"a refusal of {len(errors)} error lines: {err[:300]!r}")
        elif status == 2 and any(
            not (": warning:" in line or ": error:" in line) for line in lines
        ):
            fz.finding("cli", what, f"a refusal with more than its line: {err[:300]!r}")


# ----------------------------------------------------------------------------------


CATEGORIES = {
    "checkpoint path": (fuzz_checkpoint_paths, 0.12),
    "spoiled file": (fuzz_spoiled_files, 0.10),
    "sizes": (fuzz_sizes, 0.10),
    "arguments": (fuzz_arguments, 0.28),
    "cli": (fuzz_cli, 0.40),
}


def run(calls: int, seed: int, only=None, limit: float = 30.0) -> dict:
    fz = Fuzz(seed, limit)
    start = time.perf_counter()
    try:
        for name, (fn, share) in CATEGORIES.items():
            if only and name not in only:
                continue
            fn(fz, max(2, int(round(calls * share))))
    finally:
        for folder, dirs, _ in os.walk(fz.tmp):
            for d in dirs:
                with contextlib.suppress(OSError):
                    os.chmod(os.path.join(folder, d), 0o755)
        shutil.rmtree(fz.tmp, ignore_errors=True)
    return {
        "seed": seed,
        "calls": dict(fz.calls),
        "total_calls": sum(fz.calls.values()),
        "cli_exit_statuses": dict(fz.exits),
        "findings": fz.findings,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few calls per category")
    parser.add_argument("--calls", type=int, default=1000, help="about this many calls")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", choices=list(CATEGORIES))
    parser.add_argument("--json", help="write the report here")
    args = parser.parse_args(argv)
    report = run(40 if args.quick else args.calls, args.seed, args.only)
    by = Counter(f["category"] for f in report["findings"])
    print(f"{report['total_calls']} calls in {report['seconds']} s: {dict(report['calls'])}")
    print(f"command line exit statuses: {report['cli_exit_statuses']}")
    print(f"{len(report['findings'])} findings: {dict(by)}")
    seen = set()
    for f in report["findings"]:
        key = (f["category"], f["detail"][:80])
        if key in seen:
            continue
        seen.add(key)
        print(f"- [{f['category']}] {f['call'][:160]}\n    {f['detail'][:400]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 1 if report["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
