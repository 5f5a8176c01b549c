"""Every registered measure against its slow literal twin (tests/twins.py).

Random seeded matrices with constant and with varying subset sizes, empty and full
rows included. Where the twin is undefined, the fast path must return NaN with
UndefinedMeasureWarning; elsewhere it must match the twin to rel 1e-12 and raise
no warning (pytest turns UndefinedMeasureWarning into an error). Dense, sparse,
DataFrame and index-collection inputs must give identical results.
The exact correction for chance is compared with a twin that enumerates the null
model (tests/test_chance.py checks propstab.chance itself).
"""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

import propstab
from propstab import UndefinedMeasureWarning

import twins  # tests/ is on sys.path (rootdir-relative import mode)

# the twins cover the pairwise and frequency families (correlated measures, which
# take a similarity matrix, are tested in their own suite)
INFOS = propstab.list_measures(family="pairwise") + propstab.list_measures(family="frequency")
MEASURES = [m.name for m in INFOS]
CORRECTABLE = [m.name for m in INFOS if "correction_for_chance" in m.parameter_names]
REL, ABS = 1e-12, 1e-13


def random_matrices(seed, n, *, max_runs=6, max_features=7, constant_size=False):
    """n matrices: half with a constant row size k (in 1..d-1, or 0 or d
    one time in five), half with varying
    sizes (random sizes in 1..d-1, some with a forced empty or full row, some
    with Bernoulli rows);
    with ``constant_size=True`` all of them have a constant row size."""
    rng = np.random.default_rng(seed)
    out = []
    for t in range(n):
        M = int(rng.integers(2, max_runs + 1))
        d = int(rng.integers(2, max_features + 1))
        if t % 2 == 0 or constant_size:
            k = int(rng.integers(1, d)) if rng.random() < 0.8 else int(rng.choice([0, d]))
            Z = np.zeros((M, d), dtype=int)
            for i in range(M):
                Z[i, rng.choice(d, size=k, replace=False)] = 1
        elif t % 6 == 5:
            Z = (rng.random((M, d)) < rng.uniform(0.1, 0.9)).astype(int)
        else:
            Z = np.zeros((M, d), dtype=int)
            for i, k in enumerate(rng.integers(1, d, size=M)):
                Z[i, rng.choice(d, size=k, replace=False)] = 1
            if t % 6 == 1:
                Z[rng.integers(M)] = 0
            elif t % 12 == 3:
                Z[rng.integers(M)] = 1
        out.append(Z)
    # deterministic corner cases: identical rows, all empty, all full, disjoint
    out += [
        np.tile([1, 1, 0, 0, 1], (3, 1)),
        np.zeros((3, 4), int),
        np.ones((2, 3), int),
        np.eye(4, dtype=int),
        np.array([[1, 0, 0], [1, 1, 1], [0, 0, 0]]),
    ]
    return out


def forms(Z):
    """The same selection as dense array, CSR matrix, DataFrame and index lists."""
    d = Z.shape[1]
    return {
        "dense": (Z, {}),
        "sparse": (sparse.csr_matrix(Z), {}),
        "dataframe": (pd.DataFrame(Z, columns=[f"x{j}" for j in range(d)]), {}),
        "indices": ([np.flatnonzero(row).tolist() for row in Z], {"n_features": d}),
    }


def check(name, Z, **options):
    """Compare measure ``name`` on Z (every input form) with its twin."""
    expected = twins.twin(name, Z.tolist(), **options)
    results = {}
    for form, (X, kw) in forms(Z).items():
        if expected is None:
            with pytest.warns(UndefinedMeasureWarning):
                results[form] = propstab.stability(X, name, **kw, **options)
            assert math.isnan(results[form]), (name, form, Z.tolist(), options)
        else:
            results[form] = propstab.stability(X, name, **kw, **options)
            assert results[form] == pytest.approx(float(expected), rel=REL, abs=ABS), (
                name,
                form,
                Z.tolist(),
                options,
                float(expected),
            )
    values = list(results.values())
    assert all(v == values[0] or (math.isnan(v) and math.isnan(values[0])) for v in values), (
        name,
        Z.tolist(),
        results,
    )
    return expected


def test_every_measure_has_a_twin():
    assert sorted(MEASURES) == sorted(twins.TWINS)
    assert set(CORRECTABLE) <= set(twins.TWINS)


@pytest.mark.parametrize("name", MEASURES)
def test_measure_matches_twin(name):
    info = propstab.get_measure(name)
    option_sets = [{}]
    if "penalty" in info.parameter_names:
        option_sets += [{"penalty": 0.5}, {"penalty": 2.0}]
    outcomes = {"defined": 0, "undefined": 0}
    matrices = random_matrices(seed=sum(map(ord, name)), n=60)
    if info.domain == "constant_size":
        matrices += random_matrices(seed=len(name), n=40, constant_size=True)
    for Z in matrices:
        for options in option_sets:
            outcome = check(name, Z, **options)
            outcomes["undefined" if outcome is None else "defined"] += 1
    # the comparison really ran on many defined values
    assert outcomes["defined"] >= 30, outcomes


@pytest.mark.parametrize("name", CORRECTABLE)
def test_exact_correction_for_chance_matches_enumeration(name):
    """correction_for_chance="exact" against the twin that enumerates every pair
    of subsets (pairwise measures) or every matrix (frequency measures)."""
    family = propstab.get_measure(name).family
    small = (
        dict(max_runs=4, max_features=6)
        if family == "pairwise"
        else dict(max_runs=3, max_features=5)
    )
    option_sets = [{}]
    if "penalty" in propstab.get_measure(name).parameter_names:
        option_sets.append({"penalty": 0.5})
    defined = 0
    for Z in random_matrices(seed=7 + len(name), n=24, **small):
        if family == "frequency" and Z.shape[0] * Z.shape[1] > 15:
            continue  # keep the enumeration small
        for options in option_sets:
            defined += check(name, Z, correction_for_chance="exact", **options) is not None
    assert defined >= 8


@pytest.mark.parametrize("name", MEASURES)
def test_measure_matches_twin_on_wide_sparse_selections(name):
    """Many features, small k: the regime where a sparse product is the cheaper
    way to the intersections (for dense input too when M is not tiny)."""
    rng = np.random.default_rng(11)
    for M, d in ((3, 300), (5, 3000), (30, 600)):
        for constant in (True, False):
            sizes = np.full(M, 4) if constant else rng.integers(1, 9, size=M)
            Z = np.zeros((M, d), dtype=int)
            for i, k in enumerate(sizes):
                Z[i, rng.choice(12, size=k, replace=False)] = 1  # overlapping runs
            check(name, Z)
