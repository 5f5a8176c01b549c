"""Issue 24, part 2: the pairwise measures in bounded memory.

The value and the leave-one-out values computed by row blocks of Z Z^T equal the
whole-matrix path (one block) with ``==`` for every block size, dense and sparse
input; they agree with the literal twin (pair_mean on the M x M arrays) to rounding;
a blocked call never builds the M x M intersection matrix.
"""
from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest
from scipy import sparse

from propstab import InvalidParameterError, as_selection, get_measure, list_measures, stability
from propstab._data import gram as _gram
from propstab.measures import _common
from propstab.settings import get_pair_memory, pair_memory, parse_memory, set_pair_memory

PAIRWISE = sorted(m.name for m in list_measures("pairwise"))
WHOLE = 2**40  # one block: the whole-matrix path


def _random_selection(rng, M, d, *, sparse_input, constant):
    sizes = np.full(M, int(rng.integers(1, d))) if constant else rng.integers(1, d, M)
    Z = np.zeros((M, d), dtype=bool)
    for i, k in enumerate(sizes):
        Z[i, rng.choice(d, k, replace=False)] = True
    return sparse.csr_matrix(Z.astype(np.float64)) if sparse_input else Z


@contextlib.contextmanager
def _budget(memory):
    """Any budget, below the public minimum too (blocks of a few rows at small M)."""
    previous = _gram.set_pair_memory(memory)
    try:
        yield
    finally:
        _gram.set_pair_memory(previous)


def _values(name, Z, rows):
    """(value, leave-one-out values, pair sums) of a pairwise measure, blocks of ``rows``."""
    kernel = get_measure(name).kernel
    sel = as_selection(Z)
    memory = _gram.PAIR_BYTES * sel.n_runs * rows
    assert _gram.block_rows(sel.n_runs, memory) == min(rows, sel.n_runs)
    with warnings.catch_warnings(), _budget(memory):
        warnings.simplefilter("ignore")
        sums = _common.pair_score_sums(sel, kernel.score, columns=True)
        value = kernel.value(name, as_selection(Z))
        loo = kernel.leave_one_out(as_selection(Z))
    return value, loo, sums


@pytest.mark.parametrize("name", PAIRWISE)
def test_blocked_value_equals_the_whole_matrix_value_bit_for_bit(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    for trial in range(12):
        M = int(rng.integers(3, 40))
        d = int(rng.integers(3, 30))
        Z = _random_selection(rng, M, d, sparse_input=bool(trial % 2), constant=trial % 3 == 0)
        value, loo, sums = _values(name, Z, M)
        for rows in (1, int(rng.integers(2, M))):
            v, l, s = _values(name, Z, rows)
            assert (v == value) or (math.isnan(v) and math.isnan(value))
            assert np.array_equal(l, loo, equal_nan=True)
            assert np.array_equal(s.rows, sums.rows, equal_nan=True)
            assert np.array_equal(s.columns, sums.columns, equal_nan=True)


@pytest.mark.parametrize("name", PAIRWISE)
def test_blocked_value_agrees_with_the_literal_matrix_twin(name):
    """The literal twin: every pair's score on the whole M x M arrays, then the mean."""
    kernel = get_measure(name).kernel
    rng = np.random.default_rng(3 + sum(map(ord, name)))
    for trial in range(6):
        Z = _random_selection(rng, 25, 18, sparse_input=bool(trial % 2), constant=trial < 3)
        sel = as_selection(Z)
        dense = sel.toarray().astype(np.int64)
        r = (dense @ dense.T).astype(np.float64)
        k = dense.sum(axis=1).astype(np.float64)
        num, den = np.broadcast_arrays(*kernel.score(r, k[:, None], k[None, :], 18.0))
        off = ~np.eye(25, dtype=bool)
        if np.any(den[off] == 0):
            continue
        P = np.where(off, num / np.where(off, den, 1.0), 0.0)
        expected = P.sum() / (25 * 24)
        loo = (P.sum() - P.sum(axis=0) - P.sum(axis=1)) / (24 * 23)
        with _budget(_gram.PAIR_BYTES * 25 * 4):  # blocks of 4 rows
            assert kernel.value(name, as_selection(Z)) == pytest.approx(
                expected, rel=1e-12, abs=1e-14
            )
            assert np.allclose(kernel.leave_one_out(as_selection(Z)), loo, rtol=1e-12, atol=1e-14)


def test_blocked_path_never_builds_the_whole_intersection_matrix(monkeypatch):
    rng = np.random.default_rng(5)
    M, d, k = 300, 100_000, 30
    indices = np.concatenate([np.sort(rng.choice(d, k, replace=False)) for _ in range(M)])
    S = sparse.csr_matrix((np.ones(M * k), indices, np.arange(M + 1) * k), shape=(M, d))
    whole = stability(S, "jaccard")
    estimate_whole = get_measure("jaccard").kernel.leave_one_out(as_selection(S))

    def refuse(*args, **kwargs):
        raise AssertionError("the whole M x M intersection matrix was requested")

    monkeypatch.setattr(_gram, "intersections", refuse)
    with _budget(_gram.PAIR_BYTES * M * 7):  # 7 rows per block
        assert _gram.block_rows(M) == 7
        assert stability(S, "jaccard") == whole
        assert np.array_equal(
            get_measure("jaccard").kernel.leave_one_out(as_selection(S)), estimate_whole
        )


def test_blocked_undefined_pairs_warn_with_the_same_count():
    Z = np.zeros((6, 5), dtype=bool)
    Z[:3, :2] = True  # runs 3, 4, 5 are empty: 3 pairs
    for memory in (_gram.PAIR_BYTES * 6, WHOLE):
        with _budget(memory), pytest.warns(match=r"both empty \(3 pair\(s\) of runs\)"):
            assert math.isnan(stability(Z, "jaccard"))


def test_memory_setting_parses_sizes_and_restores():
    assert parse_memory("memory", "64MiB") == 64 * 2**20
    assert parse_memory("memory", " 1.5 GB ") == 1_500_000_000
    assert parse_memory("memory", 2048) == 2048
    before = get_pair_memory()
    with pair_memory("1MB") as budget:
        assert budget == get_pair_memory() == 10**6
    assert get_pair_memory() == before
    previous = set_pair_memory(4096)
    assert set_pair_memory(previous) == 4096 and get_pair_memory() == before


@pytest.mark.parametrize(
    "bad, kind",
    [
        (0, ValueError),
        (1023, ValueError),
        ("lots", ValueError),
        ("12XB", ValueError),
        (float("nan"), ValueError),
        (True, TypeError),
        ([1024], TypeError),
    ],
)
def test_memory_setting_rejects_bad_sizes_naming_the_argument(bad, kind):
    with pytest.raises(kind, match=r"^memory: must be a number of bytes") as info:
        set_pair_memory(bad)
    assert isinstance(info.value, InvalidParameterError)
    assert info.value.argument == "memory" and "set_pair_memory" in str(info.value)
