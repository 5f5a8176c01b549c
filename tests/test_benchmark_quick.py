"""The benchmark scripts run (``--quick``) and print well-formed numbers; the products
the cost model chooses between give identical intersection counts.

No timing is asserted here: timings depend on the machine and its load. The
performance targets are read from the full benchmark's output
(``benchmarks/bench_measures.py``, see benchmarks/README.md).
"""
from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
import pathlib
import re

import numpy as np
import pytest
from scipy import sparse

import shared  # tests/shared.py (tests/ is on sys.path)

from propstab import UndefinedMeasureWarning, as_selection, get_measure, list_measures
from propstab._data import gram as _gram, selection as _selection
from propstab.measures import _common

ROOT = pathlib.Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench_measures.py"
CALIBRATE = ROOT / "benchmarks" / "calibrate_gram.py"
NUMBER = r"[0-9.]+(?:e[-+]?[0-9]+)?"


def _load(path: pathlib.Path):
    return shared.load_script(path, f"_propstab_benchmark_{path.stem}", reuse=True)


def _main(path: pathlib.Path, *argv):
    """The script's ``main(argv)`` run in this process (no interpreter start and imports
    of its own): its return value and what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = _load(path).main(list(argv))
    return code, printed.getvalue()


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "rows.json"
    code, stdout = _main(BENCH, "--quick", "--json", str(out))
    assert code == 0, stdout
    return stdout, json.loads(out.read_text())


def _half_unit(x: float) -> float:
    """Half a unit in the last of 3 significant digits of ``x`` (its rounding error)."""
    return 0.5 * 10 ** (math.floor(math.log10(abs(x))) - 2)


def test_quick_benchmark_prints_a_row_of_numbers_per_case_and_measure(quick_run):
    stdout, _ = quick_run
    bench = _load(BENCH)
    row = re.compile(
        rf"^(M=\d+ d=\d+ k=\d+ (?:dense|sparse))\s+(nogueira|jaccard)\s+"
        rf"({NUMBER})\s+({NUMBER})\s+(n/a)\s+({NUMBER})\s+(n/a)$"
    )
    found = {}
    for line in stdout.splitlines():
        m = row.match(line)
        if m:
            case, measure, prop, floor, _, ratio, _ = m.groups()
            prop, floor, ratio = float(prop), float(floor), float(ratio)
            assert prop > 0 and floor > 0 and math.isfinite(ratio)
            # the printed ratio is propstab / floor: the times are printed to 3 significant
            # digits and the ratio to 2 decimals, so it lies in the interval the rounded
            # numbers allow (no fixed tolerance)
            lo = (prop - _half_unit(prop)) / (floor + _half_unit(floor))
            hi = (prop + _half_unit(prop)) / (floor - _half_unit(floor))
            assert lo - 0.005 <= ratio <= hi + 0.005
            found[(case, measure)] = ratio
    expected = {(c.label, m) for c in bench.QUICK_CASES for m in bench.MEASURES}
    assert set(found) == expected
    assert "R: not run (--quick)" in stdout
    targets = [line for line in stdout.splitlines() if "propstab/floor" in line and "|" in line]
    assert len(targets) == len(expected)
    assert all(re.search(r"(met|MISSED)$", line) for line in targets)
    # the sparse case checks its memory: no dense M x d copy
    assert stdout.count("no dense copy") == len(bench.MEASURES)


def test_quick_benchmark_json_rows_are_consistent(quick_run):
    _, rows = quick_run
    for r in rows:
        assert r["propstab_ms"] > 0 and r["floor_ms"] > 0
        assert r["floor_ratio"] == pytest.approx(r["propstab_ms"] / r["floor_ms"], rel=1e-12)
        assert r["stabm_ms"] is None and r["stabm_ratio"] is None
        assert math.isfinite(r["value"])


def test_quick_benchmark_measures_the_values_of_its_feature_sets(quick_run):
    """The values timed are the measures of the benchmark's feature sets (literal twins)."""
    _, rows = quick_run
    bench = _load(BENCH)
    rng = np.random.default_rng(20240601)  # the script's default --seed
    values = {(r["case"], r["measure"]): r["value"] for r in rows}
    for case in bench.QUICK_CASES:
        sets = [set(s.tolist()) for s in bench.feature_sets(case, rng)]
        M, d = case.n_runs, case.n_features
        jac = [len(a & b) / len(a | b) for a, b in itertools.permutations(sets, 2)]
        assert values[(case.label, "jaccard")] == pytest.approx(np.mean(jac), abs=1e-12)
        # Nogueira (thesis Definition 3) from per-feature variances, only the
        # selected features contribute (p_f = 0 elsewhere)
        counts = {}
        for s in sets:
            for f in s:
                counts[f] = counts.get(f, 0) + 1
        var = sum(M / (M - 1) * (c / M) * (1 - c / M) for c in counts.values())
        kbar = sum(len(s) for s in sets) / M
        nog = 1 - (var / d) / (kbar / d * (1 - kbar / d))
        assert values[(case.label, "nogueira")] == pytest.approx(nog, abs=1e-12)


def test_calibration_script_runs_and_reports_regrets():
    code, stdout = _main(CALIBRATE, "--quick")
    assert code in (0, None), stdout  # its main returns None
    fitted = re.search(
        rf"fitted DENSE_NS .*: ({NUMBER}), ({NUMBER}), ({NUMBER}), ({NUMBER})$", stdout, re.M
    )
    assert fitted and all(float(x) >= 0 for x in fitted.groups())
    regret = re.search(rf"median ({NUMBER}), max ({NUMBER})", stdout)
    assert regret and 1.0 <= float(regret.group(1)) <= float(regret.group(2))


def _literal_intersections(Z):
    rows = [set(np.flatnonzero(z)) for z in Z]
    return np.array([[len(a & b) for b in rows] for a in rows])


@pytest.mark.parametrize(
    "M, d, density", [(2, 1, 0.5), (5, 7, 0.0), (6, 9, 1.0), (30, 40, 0.3), (40, 300, 0.05)]
)
def test_every_product_the_cost_model_may_choose_gives_the_same_counts(M, d, density):
    rng = np.random.default_rng(M * 1000 + d)
    Z = rng.random((M, d)) < density
    Z[0] = False  # an empty run
    if M > 2:
        Z[1] = True  # a full run
    expected = _literal_intersections(Z)
    csr = _selection.csr_from_dense(Z)
    assert np.array_equal(csr.toarray().astype(bool), Z)
    assert np.array_equal(_gram.gram_dense(Z), expected)
    assert np.array_equal(_gram.gram_sparse(csr), expected)
    assert _gram.gram_sparse(csr).dtype == _gram.gram_dense(Z).dtype == np.int64
    for form in (Z, sparse.csr_matrix(Z.astype(np.float64))):
        sel = as_selection(form)
        assert np.array_equal(sel.intersections, expected)
        assert np.array_equal(sel.row_sizes, Z.sum(axis=1))
        assert np.array_equal(sel.column_counts, Z.sum(axis=0))
        assert sel.column_sum_squares == int((Z.sum(axis=0) ** 2).sum())
        assert sel.total == int(Z.sum())


def test_cost_model_choices_follow_the_costs():
    # few runs: BLAS without scanning; many sparse, spread runs: CSR; a stable core: BLAS
    assert _gram.dense_is_surely_cheaper(5, 10_000, 500)
    assert not _gram.dense_is_surely_cheaper(1000, 20_000, 100_000)
    spread = 100_000**2 / 20_000  # sum F^2 when F is uniform
    core = 100 * 1000**2  # 100 features chosen by all runs
    assert _gram.sparse_is_cheaper(1000, 20_000, 100_000, spread, dense_input=True)
    assert not _gram.sparse_is_cheaper(1000, 20_000, 100_000, core, dense_input=True)


def test_a_large_sparse_selection_is_never_densified(monkeypatch):
    """d = 10^6: the intersections come from the CSR product; no dense copy is made."""
    M, d, k = 50, 1_000_000, 20
    rng = np.random.default_rng(7)
    indices = np.concatenate([np.sort(rng.choice(d, k, replace=False)) for _ in range(M)])
    S = sparse.csr_matrix((np.ones(M * k), indices, np.arange(M + 1) * k), shape=(M, d))

    def refuse(*args, **kwargs):
        raise AssertionError("a dense M x d copy was requested")

    monkeypatch.setattr(_selection.Selection, "toarray", refuse)
    monkeypatch.setattr(_gram, "gram_dense", refuse)
    sel = as_selection(S)
    r = sel.intersections
    assert sel.is_sparse and r.shape == (M, M)
    assert np.array_equal(np.diag(r), np.full(M, k))
    assert np.array_equal(r, (S @ S.T).toarray().astype(np.int64))


@pytest.mark.parametrize("name", sorted(m.name for m in list_measures("pairwise")))
def test_blocked_pair_mean_equals_the_full_matrix_mean(name, monkeypatch):
    """score_pair_mean on blocks of 3 rows = pair_mean on the M x M arrays (to 1e-12)."""
    score = get_measure(name).kernel.score
    rng = np.random.default_rng(sum(map(ord, name)))
    M, d = 11, 15
    monkeypatch.setattr(_common, "_BLOCK_BYTES", 8 * M * 3)
    for sizes in (np.full(M, 4), rng.integers(1, d, M)):
        Z = np.zeros((M, d), dtype=bool)
        for i, k in enumerate(sizes):
            Z[i, rng.choice(d, k, replace=False)] = True
        sel = as_selection(Z)
        r = sel.intersections.astype(np.float64)
        k = sel.row_sizes.astype(np.float64)
        full = _common.pair_mean(name, *score(r, k[:, None], k[None, :], float(d)), "x")
        blocked = _common.score_pair_mean(name, score, sel, "x")
        assert blocked == pytest.approx(full, rel=1e-12, abs=1e-13)


def test_blocked_pair_mean_warns_like_the_full_one(monkeypatch):
    monkeypatch.setattr(_common, "_BLOCK_BYTES", 8 * 6 * 2)
    Z = np.zeros((6, 5), dtype=bool)
    Z[:3, :2] = True  # runs 3, 4, 5 are empty
    with pytest.warns(UndefinedMeasureWarning, match=r"both empty \(3 pair\(s\) of runs\)"):
        value = _common.score_pair_mean(
            "jaccard",
            get_measure("jaccard").kernel.score,
            as_selection(Z),
            "two runs are both empty",
        )
    assert math.isnan(value)
