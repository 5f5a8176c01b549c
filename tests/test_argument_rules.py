"""Argument rules of the newer surface: inverted declared bounds (``lower > upper``),
None where a measure is required, too few sampled pairs for a variance (a named
warning), and sizes with no useful upper range refused with the rule in the message;
named resampling schemes draw their splits lazily, so the first fit starts at once
however large ``n_runs``."""
import time
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py
from propstab import (
    InvalidParameterError,
    SampledPairsWarning,
    StabilityGridSearch,
    StabilitySelection,
    assess,
    audit,
    estimate,
    resample,
)
from propstab.testing import assert_measure_properties, parametrize_with_checks


def coverage(Z):
    return float(Z.mean())


# ----------------------------------------------------------------------------------
# lower > upper, None


@pytest.mark.parametrize(
    "call",
    [
        lambda **kw: audit(coverage, claims=["bounds"], max_examples=5, progress=False, **kw),
        lambda **kw: assert_measure_properties(coverage, claims=["bounds"], max_examples=5, **kw),
        lambda **kw: parametrize_with_checks(coverage, claims=["bounds"], **kw),
    ],
    ids=["audit", "assert_measure_properties", "parametrize_with_checks"],
)
def test_inverted_bounds_are_refused(call):
    with pytest.raises(
        InvalidParameterError, match=r"^lower: must be at most upper .* got " r"lower=1 > upper=0"
    ) as caught:
        call(lower=1, upper=0)
    assert caught.value.argument == "lower"
    with pytest.raises(InvalidParameterError, match=r"^lower: .* not nan"):
        call(lower=float("nan"), upper=1)
    call(lower=0, upper=1)  # the right way round: accepted


def test_assert_measure_properties_refuses_none():
    start = time.perf_counter()
    with pytest.raises(
        InvalidParameterError,
        match=r"^f: must be a registered measure's name, "
        r"a MeasureInfo or a function .*got None",
    ):
        assert_measure_properties(None)
    assert time.perf_counter() - start < 1  # it audited every measure (20 s) before


# ----------------------------------------------------------------------------------
# sampled pairs


@pytest.mark.parametrize(
    "pairs, says",
    [
        (1, "1 sampled pair of the M = 30 runs is too few " "for the variance of their mean"),
        (2, "2 sampled pairs of the M = 30 runs are too few " "for the runs' variance"),
    ],
)
def test_too_few_sampled_pairs_for_a_variance_warn_by_name(pairs, says):
    Z = np.random.default_rng(0).random((30, 10)) < 0.4
    with pytest.warns(SampledPairsWarning, match=says):
        est = estimate(Z, "jaccard", pairs=pairs, random_state=0)
    assert np.isnan(est.variance) and np.isfinite(est.statistic)
    assert all(np.isnan(est.confidence_interval(0.95)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", SampledPairsWarning)
        est = estimate(Z, "jaccard", pairs=500, random_state=0)
    assert np.isfinite(est.variance)


# ----------------------------------------------------------------------------------
# sizes


def top2(X, y):
    return np.argsort(-np.abs(X.T @ (y - y.mean())))[:2]


def test_sizes_without_a_useful_upper_range_are_refused_with_the_rule():
    from sklearn.linear_model import Lasso

    X, y = shared.regression(n=40, d=5)
    huge = 10**12
    calls = {
        "n_runs": lambda: resample(top2, X, y, n_runs=huge, random_state=0),
        "n_runs ": lambda: assess(top2, X, y, n_runs=huge, random_state=0),
        "max_runs": lambda: assess(top2, X, y, n_runs=10, max_runs=huge, target_halfwidth=0.1),
        "n_runs  ": lambda: StabilityGridSearch(Lasso(), {"alpha": [0.1, 0.2]}, n_runs=huge).fit(
            X, y
        ),
        "n_subsamples": lambda: StabilitySelection(Lasso(), n_subsamples=huge).fit(X, y),
        "param_grid": lambda: StabilityGridSearch(
            Lasso(), {"alpha": np.arange(1, 10**4) / 1e4, "max_iter": [100, 200]}
        ).fit(X, y),
        "max_examples": lambda: audit(coverage, max_examples=huge),
        "max_examples ": lambda: parametrize_with_checks(coverage, max_examples=huge),
    }
    for argument, call in calls.items():
        start = time.perf_counter()
        with pytest.raises(
            InvalidParameterError, match=r"<= 10000\b|<= 1000000\b|at most 10000 "
        ) as caught:
            call()
        assert caught.value.argument == argument.strip()
        assert str(huge) in str(caught.value) or argument == "param_grid"
        assert time.perf_counter() - start < 2


class _Stop(KeyboardInterrupt):
    pass


def test_the_first_fit_starts_before_the_other_splits_are_drawn():
    """n_runs = 200,000 bootstrap splits took seconds (and memory) to draw before the
    first fit; drawn lazily, the first fits start at once."""
    X, y = shared.regression(n=200, d=5)
    calls = []

    def selector(X, y):
        calls.append(time.perf_counter())
        if len(calls) == 3:
            raise _Stop
        return top2(X, y)

    start = time.perf_counter()
    with pytest.raises(_Stop):
        resample(selector, X, y, n_runs=200_000, random_state=0, progress=False)
    assert calls[0] - start < 0.5 and calls[2] - start < 1.0, (calls[0] - start, calls[2] - start)


@pytest.mark.parametrize(
    "scheme, stratify",
    [
        ("bootstrap", None),
        ("subsample", None),
        ("leave_out", None),
        ("complementary_pairs", None),
        ("bootstrap", True),
    ],
)
def test_lazily_drawn_splits_are_those_drawn_at_once(scheme, stratify):
    from propstab.resampling._schemes import complementary_pairs, groups_of

    X, y = shared.classification(n=30, d=4)
    res = resample(
        top2, X, y, n_runs=2050, random_state=3, scheme=scheme, stratify=stratify, downstream=False
    )
    # a literal twin of the eager drawing (before splits were drawn lazily)
    rng = np.random.default_rng(np.random.SeedSequence(3))
    groups = groups_of(None if stratify is None else y, 30)
    fraction = {"subsample": 0.5, "leave_out": 0.05}.get(scheme)
    if scheme == "complementary_pairs":
        trains = complementary_pairs(groups, 2050 // 2, rng)
    else:
        trains = []
        for _ in range(2050):
            parts = []
            for g in groups:
                if scheme == "bootstrap":
                    parts.append(g[rng.integers(0, len(g), size=len(g))])
                else:
                    size = (
                        int(np.floor(fraction * len(g)))
                        if scheme == "subsample"
                        else len(g) - int(np.floor(fraction * len(g)))
                    )
                    parts.append(rng.choice(g, size=size, replace=False))
            trains.append(np.sort(np.concatenate(parts)))
    assert len(res.train_indices) == 2050
    for got, want in zip(res.train_indices, trains):
        np.testing.assert_array_equal(got, want)
