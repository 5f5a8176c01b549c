"""Every resampling scheme draws its splits as the runs need them: a scikit-learn
splitter object and a callable scheme returning a generator as lazily as the named
schemes, so that the first fit starts at once and the memory held before it does not
grow with the number of runs; the splits are exactly those drawn up front."""
import time
import tracemalloc

import numpy as np
import pytest
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.linear_model import Lasso
from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit

import shared  # tests/shared.py
from propstab import InvalidParameterError, StabilityGridSearch, assess, resample


def top2(X, y):
    return np.argsort(-np.abs(X.T @ y))[:2]


def halves(n, n_runs, rng):
    """A callable scheme returning a generator: random halves."""
    for _ in range(n_runs):
        yield np.sort(rng.permutation(n)[: n // 2])


class _Stop(BaseException):  # not an Exception: a run does not catch it
    pass


SCHEMES = {
    "ShuffleSplit": lambda m: ShuffleSplit(n_splits=m, test_size=0.25, random_state=0),
    "RepeatedKFold": lambda m: RepeatedKFold(n_splits=2, n_repeats=m // 2, random_state=0),
    "generator": lambda m: halves,
    "bootstrap": lambda m: "bootstrap",
}


def _until_third_fit(scheme, n_runs, X, y):
    """(seconds to the first fit, seconds to the third, peak bytes traced until then)"""
    calls = []

    def selector(X, y):
        calls.append(time.perf_counter())
        if len(calls) == 3:
            raise _Stop
        return top2(X, y)

    runs = None if not isinstance(scheme, str) and not callable(scheme) else n_runs
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(_Stop):
            resample(selector, X, y, scheme=scheme, n_runs=runs, random_state=0, progress=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return calls[0] - start, calls[2] - start, peak


@pytest.mark.parametrize("name", list(SCHEMES))
def test_the_first_fit_starts_at_once_and_memory_does_not_grow_with_n_runs(name):
    """At n_runs = 10**6 (the most allowed) the first fit starts at once (within 2 s), and
    the peak memory traced until the third fit exceeds that at n_runs = 1,000 by less
    than 1 MB. Drawn up front (the former code for a splitter or a callable), at 10**5
    runs of 200 rows the first fit came after 9.7 s (ShuffleSplit) and 31.6 s (the
    generator), the peak at 371 MB and 268 MB (1.9 MB drawn lazily)."""
    X, y = shared.regression(n=200, d=5)
    _, _, small = _until_third_fit(SCHEMES[name](1000), 1000, X, y)
    first, third, big = _until_third_fit(SCHEMES[name](10**6), 10**6, X, y)
    # the first fit alone, then a batch of 1,000 drawn (seconds on a loaded machine)
    assert first < 2.0 and third < 10.0, (first, third)
    assert big - small < 2**20, (small, big)


@pytest.mark.parametrize("name", ["ShuffleSplit", "RepeatedKFold", "KFold"])
def test_a_splitter_read_lazily_gives_the_splits_drawn_at_once(name):
    """More than one batch of runs (1,000): the result equals that of the same splits
    drawn up front and given as a list (the eager path), run by run, with the same
    seed; and the splitter's own splits."""
    X, y = shared.regression(n=40, d=4)
    m = 2050
    make = {
        "ShuffleSplit": lambda: ShuffleSplit(n_splits=m, test_size=0.25, random_state=1),
        "RepeatedKFold": lambda: RepeatedKFold(n_splits=2, n_repeats=m // 2, random_state=1),
        "KFold": lambda: KFold(n_splits=5, shuffle=True, random_state=1),
    }[name]
    lazy = resample(top2, X, y, scheme=make(), random_state=5, downstream=False)
    drawn = [tuple(s) for s in make().split(X, y)]
    eager = resample(
        top2,
        X,
        y,
        scheme=lambda n, n_runs, rng: drawn,
        n_runs=len(drawn),
        random_state=5,
        downstream=False,
    )
    assert lazy.n_runs == len(drawn)
    np.testing.assert_array_equal(lazy.Z, eager.Z)
    for (train, test), a, b, c, d in zip(
        drawn, lazy.train_indices, eager.train_indices, lazy.test_indices, eager.test_indices
    ):
        np.testing.assert_array_equal(a, train)
        np.testing.assert_array_equal(b, train)
        np.testing.assert_array_equal(c, test)
        np.testing.assert_array_equal(d, test)


def test_a_generator_scheme_read_lazily_gives_its_list():
    """A callable scheme's generator, read lazily, gives what its list gives (the same
    rng, the same seed), for resample, assess of a mapping (the resamples shared) and
    StabilityGridSearch."""
    X, y = shared.regression(n=40, d=4)

    def as_list(n, n_runs, rng):
        return list(halves(n, n_runs, rng))

    lazy = resample(top2, X, y, scheme=halves, n_runs=1500, random_state=2, downstream=False)
    eager = resample(top2, X, y, scheme=as_list, n_runs=1500, random_state=2, downstream=False)
    np.testing.assert_array_equal(lazy.Z, eager.Z)
    assert all(np.array_equal(a, b) for a, b in zip(lazy.train_indices, eager.train_indices))
    pair = {"a": top2, "b": lambda X, y: [0, 1]}
    one, two = (
        assess(pair, X, y, scheme=s, n_runs=30, random_state=2, downstream=Lasso())
        for s in (halves, as_list)
    )
    for k in pair:
        np.testing.assert_array_equal(one.assessments[k].result.Z, two.assessments[k].result.Z)
        assert one.assessments[k].stability == two.assessments[k].stability
    grids = [
        StabilityGridSearch(
            SelectKBest(f_regression), {"k": [1, 2]}, n_runs=20, scheme=s, random_state=2
        ).fit(X, y)
        for s in (halves, as_list)
    ]
    for key in ("mean_stability", "mean_test_score"):
        np.testing.assert_array_equal(grids[0].cv_results_[key], grids[1].cv_results_[key])
    splitter = ShuffleSplit(n_splits=20, test_size=0.25, random_state=1)
    drawn = list(splitter.split(X, y))
    grids = [
        StabilityGridSearch(
            SelectKBest(f_regression), {"k": [1, 2]}, scheme=s, n_runs=r, random_state=2
        )
        .fit(X, y)
        .cv_results_["mean_stability"]
        for s, r in ((splitter, None), (lambda n, m, rng: drawn, 20))
    ]
    np.testing.assert_array_equal(*grids)


def _endless(n, n_runs, rng):
    while True:
        yield np.arange(n // 2)


def _short(n, n_runs, rng):
    yield from (np.arange(n // 2) for _ in range(n_runs - 1))


def _broken(n, n_runs, rng):
    yield np.arange(n // 2)
    raise KeyError("oops")


class _Lying(ShuffleSplit):
    def get_n_splits(self, X=None, y=None, groups=None):
        return super().get_n_splits() + 1


class _Broken(ShuffleSplit):
    def split(self, X, y=None, groups=None):
        raise KeyError("oops")


@pytest.mark.parametrize(
    "scheme, n_runs, message",
    [
        (_endless, 5, r"^scheme: the callable must yield n_runs=5 resamples; got more than 5"),
        (_short, 5, r"^scheme: the callable must yield n_runs=5 resamples; got 4"),
        (_broken, 5, r"^scheme: the callable failed at run 1: KeyError: 'oops'"),
        (lambda n, m, rng: 1 / 0, 5, r"^scheme: the callable failed: ZeroDivisionError"),
        (_Lying(n_splits=3, random_state=0), None, r"yielded 3 splits but get_n_splits says 4"),
        (_Broken(n_splits=3), None, r"^scheme: _Broken.split\(X, y\) failed: KeyError"),
        (
            ShuffleSplit(n_splits=10**6 + 1),
            None,
            r"^scheme: ShuffleSplit makes 1000001 splits.*at most 1000000 runs",
        ),
    ],
    ids=["endless", "short", "broken", "raising", "lying", "split-fails", "too-many"],
)
def test_a_scheme_drawn_lazily_is_refused_naming_scheme(scheme, n_runs, message):
    """What a lazily read scheme gets wrong is refused naming ``scheme`` when it is seen
    (an endless generator when its last run is drawn), never as the scheme's own error."""
    X, y = shared.regression(n=20, d=3)
    start = time.perf_counter()
    with pytest.raises(InvalidParameterError, match=message) as caught:
        resample(top2, X, y, scheme=scheme, n_runs=n_runs, random_state=0, downstream=False)
    assert caught.value.argument == "scheme"
    assert time.perf_counter() - start < 5
