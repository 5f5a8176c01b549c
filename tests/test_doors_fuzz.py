"""The independent fuzz of the newer surface's doors (scripts/fuzz_doors.py) in its
quick mode, and a regression test for each of its findings: a plain RuntimeWarning from
StabilitySelection, file handles left open by unreadable archives (a checkpoint's task
file, a .npy or sparse .npz input, a baseline), an archive under a .npy name or a
truncated one ending the command line with an internal error, and Hypothesis's Flaky
escaping a search whose probe refuted once (the agree command with a short timeout)."""
import gc
import os
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py
import propstab

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_quick_fuzz_finds_nothing():
    fuzz = shared.load_script(os.path.join(ROOT, "scripts", "fuzz_doors.py"), "fuzz_doors")
    report = fuzz.run(40, seed=0)
    assert report["total_calls"] >= 40
    assert set(report["calls"]) >= {"checkpoint path", "spoiled file", "sizes", "cli"}
    assert report["findings"] == [], "\n".join(
        f"[{f['category']}] {f['call']}: {f['detail']}" for f in report["findings"]
    )


def _all_warnings(call):
    """(result or exception, every warning), the garbage collected inside (a file left
    open warns ResourceWarning when it is collected)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as exc:  # noqa: BLE001 - returned to the test
            out = exc
        gc.collect()
    return out, caught


def test_stability_selection_warns_a_propstab_warning_when_its_bound_does_not_apply():
    """Was a plain RuntimeWarning (so not selected by PropstabWarning)."""
    from sklearn.linear_model import Lasso

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 5))
    y = X[:, 0] - X[:, 1] + rng.normal(size=30)
    with pytest.warns(propstab.stability_selection.PFERBoundWarning) as caught:
        propstab.StabilitySelection(
            Lasso(alpha=0.1), n_subsamples=3, PFER=None, cutoff=0.6, random_state=0
        ).fit(X, y)
    assert all(issubclass(w.category, propstab.PropstabWarning) for w in caught)
    assert issubclass(propstab.stability_selection.PFERBoundWarning, RuntimeWarning)


def _truncated_zip(path, **arrays):
    with open(path, "wb") as f:
        np.savez(f, **arrays)
    with open(path, "rb") as f:
        body = f.read()
    with open(path, "wb") as f:
        f.write(body[: len(body) // 2])  # the zip's signature kept, its directory gone


def test_a_truncated_task_file_is_rerun_and_closed(tmp_path):
    X, y = shared.regression(n=30, d=4)

    def run():
        return propstab.resample(
            lambda X, y: [0, 1], X, y, n_runs=4, random_state=0, checkpoint=tmp_path
        )

    first = run()
    task = sorted(p for p in tmp_path.iterdir() if p.name.startswith("task"))[1]
    _truncated_zip(task, a=np.arange(100))
    again, caught = _all_warnings(run)
    assert np.array_equal(again.Z, first.Z)
    kinds = {w.category.__name__ for w in caught}
    assert kinds == {"CheckpointWarning"}, [str(w.message) for w in caught]


@pytest.mark.parametrize(
    "kind, argv, message",
    [
        ("archive", ["estimate", "{f}"], "a .npz archive of arrays, not one .npy array"),
        ("truncated", ["estimate", "{f}"], "could not be read as a .npy array: BadZipFile"),
        (
            "truncated sparse",
            ["estimate", "--similarity", "{f}", "{z}"],
            "could not be read as a scipy.sparse .npz matrix: BadZipFile",
        ),
        ("truncated baseline", ["check", "--at-least", "0.1", "{f}"], "not a baseline file"),
    ],
)
def test_an_unreadable_archive_is_one_line_and_closed(tmp_path, capsys, kind, argv, message):
    from propstab import cli

    Z = (np.random.default_rng(0).random((5, 6)) < 0.5).astype(int)
    z = tmp_path / "Z.csv"
    z.write_text("\n".join(",".join(map(str, r)) for r in Z))
    f = tmp_path / ("Z.npy" if kind in ("archive", "truncated") else "m.npz")
    if kind == "archive":
        with open(f, "wb") as handle:
            np.savez(handle, Z=Z)
    else:
        _truncated_zip(f, selection=Z)
    args = [a.format(f=f, z=z) for a in argv]
    status, caught = _all_warnings(lambda: cli.main(args))
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and message in err and "internal error" not in err, err
    assert not [w for w in caught if w.category is ResourceWarning], err


def test_a_truncated_baseline_is_refused_naming_path(tmp_path):
    from propstab.testing import Baseline

    path = tmp_path / "b.npz"
    _truncated_zip(path, selection=np.eye(3))
    out, caught = _all_warnings(lambda: Baseline.load(path))
    assert isinstance(out, propstab.InvalidParameterError) and out.argument == "path", out
    assert "BadZipFile" in str(out)
    assert not [w for w in caught if w.category is ResourceWarning]


def test_a_flaky_probe_gives_its_first_refutation_not_flaky():
    """A probe that refutes an example once and not when replayed (agree with a short
    --timeout): Hypothesis raised Flaky, which the command line reported as an internal
    error (exit 3)."""
    from hypothesis import strategies as st

    from propstab.search import Found, search

    calls = []

    def probe(n):
        calls.append(n)
        return Found(n, (n,), "refuted once") if len(calls) == 3 else None

    found = search(st.integers(0, 100), probe, max_examples=20, random_state=0)
    assert isinstance(found, Found) and found.example == calls[2]

    def raising(n):
        calls.append(n)
        if len(calls) == 3:
            raise KeyError("once")

    calls.clear()
    with pytest.raises(KeyError, match="once"):
        search(st.integers(0, 100), raising, max_examples=20, random_state=0)


def test_a_numpy_integer_seed_and_max_examples_are_integers():
    """audit(random_state=np.int64(3)) (seed= before) raised random.seed's TypeError."""
    from propstab.testing import assert_measure_properties

    table = propstab.audit(
        "jaccard",
        max_examples=np.int64(2),
        random_state=np.int64(3),
        axioms=["bounds"],
        progress=False,
    )
    assert str(table) == str(
        propstab.audit(
            "jaccard", max_examples=2, random_state=3, axioms=["bounds"], progress=False
        )
    )

    def coverage(Z):
        return float(np.mean(Z))

    assert_measure_properties(
        coverage, claims=["fully_defined"], max_examples=np.int64(2), random_state=np.int64(1)
    )


@pytest.mark.parametrize("n_jobs", [10**20, -(10**20), 10**4 + 1])
def test_an_absurd_n_jobs_is_refused_naming_it(n_jobs):
    """resample(n_jobs=10**20) raised joblib's "Stop argument for islice() must be ...
    <= sys.maxsize" (a ValueError naming nothing)."""
    from sklearn.feature_selection import SelectKBest, f_regression
    from sklearn.linear_model import Lasso

    X, y = shared.regression(n=30, d=4)
    calls = [
        lambda: propstab.resample(lambda X, y: [0], X, y, n_runs=3, n_jobs=n_jobs),
        lambda: propstab.assess(lambda X, y: [0], X, y, n_runs=3, n_jobs=n_jobs),
        lambda: propstab.StabilitySelection(Lasso(), n_subsamples=3, n_jobs=n_jobs).fit(X, y),
        lambda: propstab.StabilityGridSearch(
            SelectKBest(f_regression), {"k": [1, 2]}, n_runs=3, n_jobs=n_jobs
        ).fit(X, y),
    ]
    for call in calls:
        with pytest.raises(
            propstab.InvalidParameterError, match=r"^n_jobs: .*at most 10000.*got -?1000"
        ) as caught:
            call()
        assert caught.value.argument == "n_jobs"


def test_the_command_line_names_jobs(capsys):
    from propstab import cli

    assert cli.main(["audit", "--measure", "jaccard", "--jobs", str(10**20)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --jobs: must be a non-zero integer" in err, err
