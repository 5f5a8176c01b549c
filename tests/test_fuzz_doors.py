"""A fuzz of the newer surface's doors: checkpoint path kinds, spoiled task files and
manifests, SIGKILL during a checkpointed run, huge sizes, CLI option combinations,
inverted bounds and None where a measure or a function is required.

The contract checked everywhere: a result (for a checkpoint, exactly the uninterrupted
one), or an InvalidParameterError naming the argument (on the command line: exit 2 and
one line naming the option); never another exception, never a hang (every call runs
under a time limit), never code run from a checkpoint. The CLI part also runs an
independent oracle of ignored options: an option given with a non-default value whose
removal changes neither the output nor the exit status was ignored (a "suspect", listed
with the reason it is expected when it is).

Quick mode (the test, about half a minute): ``PROPSTAB_FUZZ_DOORS`` examples per category
(default 12). Full mode, with a report::

    PYTHONPATH=. python tests/test_fuzz_doors.py 300
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import random
import signal
import sys
import tempfile
import time
import warnings

import numpy as np

import shared  # tests/shared.py

N = int(os.environ.get("PROPSTAB_FUZZ_DOORS", "10"))


# the time limit of the doors fuzz script (a call past it raises Hang, a BaseException
# that no ``except Exception`` of the code under test can hide)
_DOORS = shared.load_script(
    os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "fuzz_doors.py"
    ),
    "fuzz_doors",
    reuse=True,
)
Hang, time_limit = _DOORS.Hang, _DOORS.time_limit


def _data():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 6))
    return X, X[:, 0] - X[:, 1] + rng.normal(size=40)


def top2(X, y):
    return np.argsort(-np.abs(X.T @ (y - y.mean())))[:2]


def _verdict(call, argument, seconds=20.0):
    """'ok', 'refused' (InvalidParameterError naming ``argument``) or a finding."""
    from propstab import InvalidParameterError

    try:
        with time_limit(seconds), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", call()
    except InvalidParameterError as exc:
        if argument is not None and exc.argument != argument:
            return f"refused naming {exc.argument!r}, not {argument!r}: {exc}", None
        return "refused", exc
    except Hang as exc:
        return f"HANG: {exc}", None
    except BaseException as exc:  # noqa: BLE001 - every other outcome is a finding
        return f"{type(exc).__name__}: {str(exc)[:200]}", None


# ----------------------------------------------------------------------------------
# checkpoint paths


def _entries(X, y):
    from sklearn.linear_model import Lasso

    from propstab import StabilityGridSearch, StabilitySelection, assess, resample

    return {
        "resample": lambda w: resample(top2, X, y, n_runs=4, random_state=0, checkpoint=w).Z,
        "assess": lambda w: assess(top2, X, y, n_runs=4, random_state=0, checkpoint=w).result.Z,
        # two lassos: each has a score for the Pareto front, and their runs differ (two
        # copies of top2 were left out of the front and had a zero jackknife variance)
        "assess(mapping)": lambda w: assess(
            {"a": Lasso(alpha=0.1), "b": Lasso(alpha=0.3)},
            X,
            y,
            n_runs=4,
            random_state=0,
            checkpoint=w,
        )
        .assessments["b"]
        .result.Z,
        "StabilitySelection": lambda w: StabilitySelection(
            Lasso(), n_subsamples=2, n_alphas=3, random_state=0, checkpoint=w
        )
        .fit(X, y)
        .stability_scores_,
        "StabilityGridSearch": lambda w: StabilityGridSearch(
            Lasso(),
            {"alpha": [0.1, 0.2]},
            measure="conger",  # the lasso's sizes vary
            n_runs=4,
            random_state=0,
            checkpoint=w,
        )
        .fit(X, y)
        .cv_results_["mean_stability"],
    }


def _path_kinds(root: str, rng: random.Random):
    afile = os.path.join(root, "afile")
    open(afile, "w").write("x")
    adir = os.path.join(root, "adir")
    os.makedirs(adir, exist_ok=True)
    kinds = {
        "empty": "",
        "blank": " \t",
        "a file": afile,
        "under a file": afile + "/sub/deeper",
        "/dev/null": os.devnull,
        "under /dev/null": os.devnull + "/x",
        "/proc": "/proc/propstab-fuzz",
        "/sys": "/sys/propstab-fuzz",
        "an existing empty directory": adir,
        "a new directory": os.path.join(root, "new"),
        "a new nested directory": os.path.join(root, "n1", "n2", "n3"),
        "a name too long": os.path.join(root, "x" * 300),
        "a NUL": os.path.join(root, "a\0b"),
        "a newline": os.path.join(root, "a\nb"),
        "unicode": os.path.join(root, "données-é"),
        "relative": "rel/sub",
        "a dot": ".",
        "bytes": root.encode(),
        "an int": 7,
        "a float": 1.5,
        "a list": [root],
        "True": True,
    }
    link = os.path.join(root, "link-to-file")
    if not os.path.lexists(link):
        os.symlink(afile, link)
    dangling = os.path.join(root, "dangling")
    if not os.path.lexists(dangling):
        os.symlink(os.path.join(root, "nowhere"), dangling)
    dirlink = os.path.join(root, "link-to-dir")
    if not os.path.lexists(dirlink):
        os.symlink(adir, dirlink)
    kinds.update(
        {"a link to a file": link, "a dangling link": dangling, "a link to a directory": dirlink}
    )
    names = sorted(kinds)
    rng.shuffle(names)
    return [(n, kinds[n]) for n in names]


def fuzz_checkpoint_paths(n: int, seed: int = 0):
    import pathlib

    X, y = _data()
    entries = _entries(X, y)
    reference = {name: call(None) for name, call in entries.items()}
    rng = random.Random(seed)
    findings, cases = [], 0
    with tempfile.TemporaryDirectory() as root:
        here = os.getcwd()
        os.chdir(root)
        try:
            kinds = _path_kinds(root, rng)
            for i in range(n):
                kind, where = kinds[i % len(kinds)]
                if rng.random() < 0.3 and isinstance(where, str) and where.strip():
                    # (not "": pathlib.Path("") is ".", the working directory: valid)
                    where = pathlib.Path(where)
                for name, call in entries.items():
                    cases += 1
                    target = where
                    if kind in (
                        "an existing empty directory",
                        "a new directory",
                        "a new nested directory",
                        "unicode",
                        "relative",
                        "a dot",
                        "a link to a directory",
                    ):
                        # a fresh copy per call (one directory holds one call)
                        target = os.path.join(os.fspath(where), f"{name}-{i}")
                    verdict, value = _verdict(lambda: call(target), "checkpoint")
                    if verdict == "ok":
                        if not np.array_equal(np.asarray(value), np.asarray(reference[name])):
                            findings.append(f"checkpoint {kind} {name}: another result")
                    elif verdict != "refused":
                        findings.append(f"checkpoint {kind!r} {name}: {verdict}")
            stray = sorted(p for p in os.listdir(root) if p.startswith("selector-"))
            if stray:
                findings.append(f"checkpoint: wrote {stray} into the working directory")
        finally:
            os.chdir(here)
    return cases, findings


# ----------------------------------------------------------------------------------
# spoiled task files and manifests


class _Marker:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _spoil(folder: str, rng: random.Random, marker: str, other: str) -> str:
    tasks = sorted(
        p
        for p in os.listdir(folder)
        if p.startswith("task-") and os.path.isfile(os.path.join(folder, p))
    )  # not a FIFO made before
    if not tasks:
        return "nothing left to spoil"
    target = os.path.join(folder, rng.choice(tasks))
    data = open(target, "rb").read() or b"\0"  # emptied by an earlier spoil
    how = rng.choice(
        [
            "truncate",
            "flip",
            "random bytes",
            "empty",
            "pickle",
            "swap",
            "another call",
            "append",
            "zero a block",
            "fifo",
            "manifest flip",
            "manifest junk",
            "manifest another call",
            "remove",
        ]
    )
    if how == "truncate":
        open(target, "wb").write(data[: rng.randrange(len(data))])
    elif how == "flip":
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        open(target, "wb").write(bytes(b))
    elif how == "random bytes":
        open(target, "wb").write(rng.randbytes(rng.randint(1, 2000)))
    elif how == "empty":
        open(target, "wb").write(b"")
    elif how == "pickle":
        open(target, "wb").write(pickle.dumps(_Marker(marker)))
    elif how == "swap":
        other_task = os.path.join(folder, rng.choice(tasks))
        os.replace(other_task, target) if other_task != target else None
    elif how == "another call":
        name = os.path.basename(target)
        if os.path.exists(os.path.join(other, name)):
            open(target, "wb").write(open(os.path.join(other, name), "rb").read())
    elif how == "append":
        open(target, "ab").write(rng.randbytes(50))
    elif how == "zero a block":
        b = bytearray(data)
        start = rng.randrange(len(b))
        b[start : start + 64] = bytes(len(b[start : start + 64]))
        open(target, "wb").write(bytes(b))
    elif how == "fifo":
        os.remove(target)
        os.mkfifo(target)
    elif how == "remove":
        os.remove(target)
    else:
        manifest = os.path.join(folder, "manifest.json")
        text = open(manifest, "rb").read()
        if how == "manifest flip":
            b = bytearray(text)
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            open(manifest, "wb").write(bytes(b))
        elif how == "manifest junk":
            open(manifest, "wb").write(
                rng.choice([b"", b"[]", b"null", b'{"a": 1}', rng.randbytes(30)])
            )
        else:
            open(manifest, "wb").write(open(os.path.join(other, "manifest.json"), "rb").read())
    return how


def fuzz_task_files(n: int, seed: int = 0):
    from propstab import resample

    X, y = _data()
    run = lambda w, rs=3: resample(
        top2, X, y, n_runs=6, random_state=rs, checkpoint=w  # noqa: E731
    )
    whole = run(None)
    rng = random.Random(seed)
    findings = []
    with tempfile.TemporaryDirectory() as root:
        other = os.path.join(root, "other")
        run(other, rs=4)
        marker = os.path.join(root, "code-ran")
        for i in range(n):
            folder = os.path.join(root, f"c{i}")
            run(folder)
            with time_limit(20):
                hows = [_spoil(folder, rng, marker, other) for _ in range(rng.randint(1, 3))]
            verdict, value = _verdict(lambda: run(folder), "checkpoint")
            if os.path.exists(marker):
                findings.append(f"task files {hows}: CODE RAN on load")
                os.remove(marker)
            if verdict == "ok":
                if not (
                    np.array_equal(value.Z, whole.Z) and repr(value.scores) == repr(whole.scores)
                ):
                    findings.append(f"task files {hows}: another result")
            elif verdict != "refused":
                findings.append(f"task files {hows}: {verdict}")
            elif not any(h.startswith("manifest") for h in hows):
                findings.append(f"task files {hows}: refused ({value}) where the rule reruns")
    return n, findings


def fuzz_sigkill(n: int, seed: int = 0):
    """Kill a checkpointed run (forked) at random instants; each resume must give the
    uninterrupted result without any CheckpointWarning."""
    from propstab import CheckpointWarning, resample

    X, y = _data()
    run = lambda w: resample(top2, X, y, n_runs=12, random_state=9, checkpoint=w)  # noqa: E731
    whole = run(None)
    rng = random.Random(seed)
    findings = []
    with tempfile.TemporaryDirectory() as root:
        start = time.perf_counter()
        run(os.path.join(root, "timing"))
        duration = time.perf_counter() - start
        for i in range(n):
            folder = os.path.join(root, f"k{i}")
            pid = os.fork()
            if pid == 0:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        run(folder)
                finally:
                    os._exit(0)
            time.sleep(rng.uniform(0, 1.2 * duration))
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                verdict, value = _verdict(lambda: run(folder), "checkpoint")
            if verdict != "ok" or not np.array_equal(value.Z, whole.Z):
                findings.append(f"SIGKILL {i}: {verdict}")
            if any(issubclass(w.category, CheckpointWarning) for w in caught):
                findings.append(f"SIGKILL {i}: a half-written file was found")
    return n, findings


# ----------------------------------------------------------------------------------
# huge sizes

HUGE = (10**6 + 1, 10**9, 10**12, 2**63, 10**30)


def fuzz_sizes(n: int, seed: int = 0):
    from sklearn.linear_model import Lasso

    from propstab import (
        StabilityGridSearch,
        StabilitySelection,
        assess,
        audit,
        estimate,
        resample,
        two_sample_test,
    )
    from propstab.error_control import error_control
    from propstab.testing import parametrize_with_checks

    X, y = _data()
    Z = np.random.default_rng(0).random((20, 6)) < 0.5
    calls = {
        "n_runs": lambda v: resample(top2, X, y, n_runs=v, random_state=0),
        "n_runs ": lambda v: assess(top2, X, y, n_runs=v, random_state=0),
        "max_runs": lambda v: assess(
            top2, X, y, n_runs=10, max_runs=v, target_halfwidth=0.01, random_state=0
        ),
        "n_runs  ": lambda v: StabilityGridSearch(Lasso(), {"alpha": [0.1]}, n_runs=v).fit(X, y),
        "n_subsamples": lambda v: StabilitySelection(Lasso(), n_subsamples=v).fit(X, y),
        "param_grid": lambda v: StabilityGridSearch(
            Lasso(), {"alpha": np.linspace(0.01, 1, 10**4 + 1), "tol": [1e-4] * (v % 7 + 1)}
        ).fit(X, y),
        "n_alphas": lambda v: StabilitySelection(Lasso(), n_alphas=v).fit(X, y),
        "max_examples": lambda v: audit(lambda Z: float(Z.mean()), max_examples=v),
        "max_examples ": lambda v: parametrize_with_checks("jaccard", max_examples=v),
        "pairs": lambda v: estimate(Z, "jaccard", pairs=v),
        "n_resamples": lambda v: two_sample_test(Z, Z, test="permutation", n_resamples=v),
        "n_subsamples ": lambda v: error_control(1000, cutoff=0.9, q=10, n_subsamples=v),
    }
    rng = random.Random(seed)
    findings, cases = [], 0
    for _ in range(max(1, n // len(calls))):
        for argument, call in calls.items():
            value = rng.choice(HUGE if argument != "pairs" else HUGE[1:])  # pairs <= 1e8
            cases += 1
            start = time.perf_counter()
            verdict, _ = _verdict(lambda: call(value), argument.strip(), seconds=10)
            took = time.perf_counter() - start
            if verdict != "refused":
                findings.append(f"size {argument.strip()}={value}: {verdict}")
            elif took > 3:
                findings.append(f"size {argument.strip()}={value}: refused after {took:.1f} s")
    # the largest allowed n_runs: the first fits start at once (the splits drawn lazily)
    from propstab import resample as rs

    class Stop(KeyboardInterrupt):
        pass

    seen = []

    def stopping(X, y):
        seen.append(time.perf_counter())
        if len(seen) == 3:
            raise Stop
        return top2(X, y)

    start = time.perf_counter()
    try:
        with time_limit(20):
            rs(stopping, X, y, n_runs=10**6, random_state=0, progress=False)
    except Stop:
        if seen[-1] - start > 2:
            findings.append(f"n_runs=10**6: the third fit started after {seen[-1] - start:.1f} s")
    except Hang:
        findings.append("n_runs=10**6: HANG before the third fit")
    return cases + 1, findings


# ----------------------------------------------------------------------------------
# inverted bounds and None


def fuzz_bounds(n: int, seed: int = 0):
    from propstab import audit
    from propstab.auditing import subject
    from propstab.testing import assert_measure_properties

    def coverage(Z):
        return float(Z.mean())

    values = [0, 1, -1, 0.5, 2, float("nan"), float("inf"), -float("inf"), None, True, "0", [0]]
    entries = {
        "audit": lambda lo, hi: audit(
            coverage, claims=["bounds"], lower=lo, upper=hi, max_examples=3, progress=False
        ),
        "assert_measure_properties": lambda lo, hi: assert_measure_properties(
            coverage, claims=["bounds"], lower=lo, upper=hi, max_examples=3
        ),
        "subject": lambda lo, hi: subject(coverage, claims=["bounds"], lower=lo, upper=hi),
    }
    rng = random.Random(seed)
    findings, cases = [], 0
    for _ in range(n):
        lo, hi = rng.choice(values), rng.choice(values)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi))
        invalid = (
            not all(
                v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
                for v in (lo, hi)
            )
            or any(isinstance(v, float) and v != v for v in (lo, hi))
            or (numbers and lo > hi)
        )
        for name, call in entries.items():
            if not invalid and name != "subject" and rng.random() < 0.75:
                continue  # a valid declaration runs an audit: seconds
            cases += 1
            verdict, value = _verdict(lambda: call(lo, hi), None)
            if invalid and verdict != "refused":
                findings.append(f"bounds {name}(lower={lo!r}, upper={hi!r}): {verdict}")
            if not invalid and verdict == "refused":
                findings.append(f"bounds {name}(lower={lo!r}, upper={hi!r}): refused: {value}")
            if verdict not in ("ok", "refused") and not verdict.startswith("AssertionError"):
                findings.append(f"bounds {name}(lower={lo!r}, upper={hi!r}): {verdict}")
    return cases, findings


def fuzz_none(n: int = 0, seed: int = 0):
    """None for every required measure, function, selector or data argument."""
    from sklearn.linear_model import Lasso

    import propstab
    from propstab import inference, testing
    from propstab.auditing import subject

    X, y = _data()
    Z = np.random.default_rng(0).random((20, 6)) < 0.5
    calls = {
        "f": lambda: testing.assert_measure_properties(None),
        "measure": lambda: subject(None),
        "Z": lambda: propstab.stability(None),
        "measure ": lambda: propstab.stability(Z, measure=None),
        "Z ": lambda: propstab.estimate(None),
        "Z  ": lambda: inference.one_sample_test(None, 0.5),
        "Z1": lambda: inference.two_sample_test(None, Z),
        "Z2": lambda: inference.two_sample_test(Z, None),
        "selector": lambda: propstab.resample(None, X, y, n_runs=4),
        "X": lambda: propstab.resample(top2, None, y, n_runs=4),
        "selector ": lambda: propstab.assess(None, X, y, n_runs=4),
        "estimator": lambda: propstab.StabilitySelection(None).fit(X, y),
        "estimator ": lambda: propstab.StabilityGridSearch(None, {"alpha": [0.1]}).fit(X, y),
        "param_grid": lambda: propstab.StabilityGridSearch(Lasso(), None).fit(X, y),
        "Z_or_result": lambda: testing.assert_stable(None, 0.5),
        "at_least": lambda: testing.assert_stable(Z, None),
        "baseline": lambda: testing.assert_not_less_stable(None, Z, margin=0.1),
        "margin": lambda: testing.assert_not_less_stable(Z, Z, margin=None),
        "name": lambda: propstab.get_measure(None),
    }
    findings = []
    for argument, call in calls.items():
        verdict, value = _verdict(call, None, seconds=20)
        if verdict != "refused":
            findings.append(f"None for {argument.strip()}: {verdict}")
        elif value.argument is None or value.argument.split(", ")[0] not in (
            argument.strip(),
            "measure",
            "Z",
            "selector",
            "estimator",
            "Z_or_result",
            "baseline",
            "f",
            "X",
            "X, y",
            "name",
        ):
            findings.append(f"None for {argument.strip()}: refused naming {value.argument!r}")
    return len(calls), findings


# ----------------------------------------------------------------------------------
# CLI combinations


def _cli(argv):
    from propstab import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(
        err
    ), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


#: values per option (valid and invalid); "{x}" are the files
VALUES = {
    "--measure": ["nogueira", "jaccard", "spearman", "sechidis", "nosuch"],
    "--confidence-level": ["0.9", "0.3", "1.5", "nan"],
    "--similarity": ["identity", "{a}"],
    "--threshold": ["0.5", "2"],
    "--option": ["correction_for_chance=exact", "nosuch=1", "x"],
    "--n-features": ["8", "0"],
    "--zero-based": [None],
    "--one-based": [None],
    "--scores": [None],
    "--paired": [None],
    "--feature-names": ["{names}"],
    "--index-col": ["none", "0", "auto"],
    "--alternative": ["greater", "less"],
    "--test": ["permutation", "wald", "auto"],
    "--n-resamples": ["199", "5"],
    "--random-state": ["3", "-3"],
    "--noninferiority": ["0.1", "nan"],
    "--drop": ["0.1", "-1"],
    "--at-least": ["0.1", "2"],
}
COMMAND_OPTIONS = {
    "estimate": [
        "--measure",
        "--confidence-level",
        "--similarity",
        "--threshold",
        "--option",
        "--n-features",
        "--zero-based",
        "--one-based",
        "--scores",
        "--feature-names",
        "--index-col",
    ],
    "compare": [
        "--measure",
        "--confidence-level",
        "--similarity",
        "--threshold",
        "--option",
        "--n-features",
        "--zero-based",
        "--scores",
        "--feature-names",
        "--index-col",
        "--alternative",
        "--test",
        "--n-resamples",
        "--random-state",
        "--noninferiority",
        "--drop",
        "--paired",
    ],
    "check": [
        "--measure",
        "--confidence-level",
        "--similarity",
        "--threshold",
        "--option",
        "--n-features",
        "--zero-based",
        "--scores",
        "--feature-names",
        "--index-col",
        "--at-least",
    ],
}
#: the options' defaults (given explicitly, they change nothing by design)
DEFAULTS = {"--measure": "nogueira", "--index-col": "auto", "--test": "auto"}

#: (command, option): why removing it may change nothing although it was read
NO_EFFECT_EXPECTED = {
    ("compare", "--random-state"): "the permutation test enumerates every split when few",
    ("compare", "--n-resamples"): "the permutation test enumerates every split when few",
    ("compare", "--test"): "auto is permutation below 100 runs",
    ("estimate", "--index-col"): "the file has no index column: 'auto' and 'none' agree",
    ("compare", "--index-col"): "the file has no index column: 'auto' and 'none' agree",
    ("check", "--index-col"): "the file has no index column: 'auto' and 'none' agree",
    ("estimate", "--feature-names"): "names are read but the printed estimate is the same",
    ("compare", "--feature-names"): "names are read but the printed test is the same",
    ("check", "--feature-names"): "names are read but the decision is the same",
    ("estimate", "--option"): "the option's value is its default",
    ("compare", "--option"): "the option's value is its default",
    ("check", "--option"): "the option's value is its default",
    ("compare", "--paired"): "a margin test on the same runs",
    ("compare", "--alternative"): "both files the same runs",
    ("compare", "--confidence-level"): "the decision is the same at both levels",
    ("check", "--confidence-level"): "the decision is the same at both levels",
    ("estimate", "--n-features"): "the index lines' d equals the largest index + 1",
    ("compare", "--n-features"): "the index lines' d equals the largest index + 1",
    ("check", "--n-features"): "the index lines' d equals the largest index + 1",
    ("estimate", "--zero-based"): "the indices start at 0 anyway",
    ("compare", "--zero-based"): "the indices start at 0 anyway",
    ("check", "--zero-based"): "the indices start at 0 anyway",
    ("estimate", "--threshold"): "no similarity below the threshold",
    ("compare", "--threshold"): "no similarity below the threshold",
    ("check", "--threshold"): "no similarity below the threshold",
}


def _cli_files(root):
    rng = np.random.default_rng(0)
    files = {}
    for name in ("a", "b"):
        Z = (rng.random((30, 8)) < 0.4).astype(int)
        np.savetxt(os.path.join(root, f"{name}.csv"), Z, delimiter=",", fmt="%d")
        files[name] = os.path.join(root, f"{name}.csv")
    ranks = np.argsort(rng.random((12, 8)), axis=1) + 1
    np.savetxt(os.path.join(root, "r.csv"), ranks, delimiter=",", fmt="%d")
    files["r"] = os.path.join(root, "r.csv")
    open(os.path.join(root, "names.txt"), "w").write("\n".join(f"g{j}" for j in range(8)))
    files["names"] = os.path.join(root, "names.txt")
    return files


def fuzz_cli(n: int, seed: int = 0):
    rng = random.Random(seed)
    findings, suspects, cases = [], [], 0
    with tempfile.TemporaryDirectory() as root:
        files = _cli_files(root)
        for _ in range(n):
            command = rng.choice(sorted(COMMAND_OPTIONS))
            chosen = rng.sample(COMMAND_OPTIONS[command], rng.randint(1, 4))
            positional = {
                "estimate": [rng.choice(["{a}", "{r}"])],
                "compare": ["{a}", "{b}"],
                "check": ["{a}"],
            }[command]
            options = []
            for option in chosen:
                value = rng.choice(VALUES[option])
                options.append((option, value))
            if command == "check" and "--at-least" not in chosen:
                options.append(("--at-least", "0.1"))

            def line(opts):
                argv = [command, *positional]
                for option, value in opts:
                    argv += [option] + ([] if value is None else [value])
                return [a.format(**files) for a in argv]

            argv = line(options)
            cases += 1
            try:
                with time_limit(60):
                    code, out, err = _cli(argv)
            except Hang:
                findings.append(f"cli {' '.join(argv)}: HANG")
                continue
            lines = err.splitlines()
            errors = [x for x in lines if ": error: " in x]
            if code in (0, 1):
                if errors:
                    findings.append(f"cli {' '.join(argv)}: exit {code} with an error line")
                # the oracle of ignored options: remove each given option in turn
                for k, (option, value) in enumerate(options):
                    if (command, option) == ("check", "--at-least") or DEFAULTS.get(
                        option
                    ) == value:  # removing it changes nothing
                        continue
                    rest = options[:k] + options[k + 1 :]
                    if command == "check" and not any(o == "--at-least" for o, _ in rest):
                        continue
                    cases += 1
                    code2, out2, _ = _cli(line(rest))
                    if code2 == code and out2 == out:
                        why = NO_EFFECT_EXPECTED.get((command, option))
                        suspects.append((command, option, value, why, " ".join(line(options))))
            elif code == 2 or code == 3:
                if (
                    len(lines) < 1
                    or not errors
                    or not errors[-1].startswith(f"propstab {command}: error: ")
                ):
                    findings.append(f"cli {' '.join(argv)}: exit {code} without one error line")
                elif "Traceback" in err or "internal error" in err:
                    findings.append(f"cli {' '.join(argv)}: {errors[-1]}")
                else:
                    named = errors[-1].split(": error: ", 1)[1]
                    # the option at fault, given or missing (--similarity for sechidis)
                    if not any(
                        named.startswith(o) or o in named
                        for o in [*COMMAND_OPTIONS[command], "--similarity"]
                    ) and not any(f.format(**files) in named for f in positional):
                        findings.append(
                            f"cli {' '.join(argv)}: error names no option "
                            f"given: {errors[-1][:160]}"
                        )
            else:
                findings.append(f"cli {' '.join(argv)}: exit {code}: {err[-200:]}")
    unexplained = [s for s in suspects if s[3] is None]
    findings += [
        f"cli {cmd} {opt} {val!r} changed nothing: {argv}"
        for cmd, opt, val, _, argv in unexplained
    ]
    return cases, findings, suspects


CATEGORIES = {
    "checkpoint paths": fuzz_checkpoint_paths,
    "task files": fuzz_task_files,
    "SIGKILL": lambda n, seed=0: fuzz_sigkill(max(2, n // 4), seed),
    "sizes": fuzz_sizes,
    "bounds": fuzz_bounds,
    "None": fuzz_none,
    "cli": fuzz_cli,
}


def run_all(n: int, seed: int = 0) -> dict:
    report = {}
    for name, fuzz in CATEGORIES.items():
        start = time.perf_counter()
        out = fuzz(n, seed)
        report[name] = {
            "cases": out[0],
            "findings": out[1],
            "seconds": round(time.perf_counter() - start, 1),
        }
        if len(out) > 2:
            report[name]["suspects (explained)"] = sorted(
                {f"{c} {o}: {w}" for c, o, _, w, _ in out[2] if w}
            )
    return report


# ----------------------------------------------------------------------------------
# the quick test, one per category

import pytest  # noqa: E402


@pytest.mark.parametrize("category", sorted(CATEGORIES))
def test_the_doors_keep_their_contract(category):
    out = CATEGORIES[category](N, 0)
    assert out[1] == [], "\n".join(out[1])


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    report = run_all(n, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print(json.dumps(report, indent=1, ensure_ascii=False))
    print(
        "findings:",
        sum(len(r["findings"]) for r in report.values()),
        "cases:",
        sum(r["cases"] for r in report.values()),
    )
