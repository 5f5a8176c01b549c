"""The resampling schemes: which rows each run trains on and which it holds out.

The named schemes of :func:`propstab.resample` (``"bootstrap"``, ``"subsample"``,
``"leave_out"``, ``"complementary_pairs"``), a callable scheme, a scikit-learn splitter
object, and the subsamples of stability selection (:func:`subsamples`): complementary
pairs are drawn by one function, :func:`complementary_pairs`, for both.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .._utils.checks import fail
from .._utils.checks import check_real_range
from ._scoring import is_continuous, values_of

__all__ = [
    "DEFAULT_FRACTION",
    "SCHEMES",
    "check_fraction",
    "check_rows_left",
    "checked_split",
    "checked_splits",
    "complementary_pairs",
    "draw_splits",
    "groups_of",
    "is_splitter",
    "iter_splits",
    "splitter_splits",
    "strata_of",
    "subsamples",
]

SCHEMES = ("bootstrap", "subsample", "leave_out", "complementary_pairs")
DEFAULT_FRACTION = {"subsample": 0.5, "leave_out": 0.05}


def check_fraction(fraction, scheme):
    if fraction is None:
        return DEFAULT_FRACTION.get(scheme)
    if scheme not in DEFAULT_FRACTION:
        fail(
            f"fraction: only used by the schemes 'subsample' and 'leave_out', "
            f"not by scheme={scheme!r}; got {fraction!r}"
        )
    return check_real_range("fraction", fraction, low=0.0, high=1.0, low_open=True, high_open=True)


def check_rows_left(scheme, fraction, given, groups, n):
    """Refuse a ``fraction`` that leaves no training row, or no held-out row, in every
    run: ``subsample`` trains on floor(fraction n_g) rows of each stratum g (of n_g
    rows; one stratum of n rows without ``stratify``), ``leave_out`` leaves out
    floor(fraction n_g)."""
    if scheme not in DEFAULT_FRACTION:
        return
    if sum(int(np.floor(fraction * len(g))) for g in groups):
        return
    largest = max(len(g) for g in groups)
    rows = (
        f"n_samples={n}" if len(groups) == 1 else f"strata of at most {largest} rows (stratify=)"
    )
    if scheme == "subsample":
        what = "trains on floor(fraction * n) rows: none"
        why = "no run would have a training row"
    else:
        what = "leaves out floor(fraction * n) rows: none"
        why = "no run would hold a row out, every run fitting all the data"
    given_text = f"{fraction!r}" + ("" if given else " (the default)")
    fail(
        f"fraction: scheme={scheme!r} {what} with {rows}, so {why}; needs "
        f"fraction >= 1/{largest} = {1 / largest:.4g}; got fraction={given_text}"
    )


def is_splitter(scheme) -> bool:
    """A scikit-learn splitter object (``split(X, y)`` and ``get_n_splits``)."""
    return (
        not isinstance(scheme, (str, bytes, type))
        and hasattr(scheme, "split")
        and hasattr(scheme, "get_n_splits")
    )


def splitter_splits(splitter, X, y, n: int, n_runs, max_runs=None):
    """The number of splits of a scikit-learn splitter and its (train, test) pairs, each
    split one run, as a generator read as the runs need them (:func:`checked_splits`); a
    given ``n_runs`` must equal the splitter's number of splits, and that number is at
    most ``max_runs``. Checked up front: ``get_n_splits`` and the call of ``split(X, y)``
    (a generator's body runs at its first split); each split as it is drawn."""
    name = type(splitter).__name__
    try:
        count = int(splitter.get_n_splits(X, y))
    except Exception as exc:  # noqa: BLE001 - the splitter's own error, named
        fail(f"scheme: {name}.get_n_splits(X, y) failed: {type(exc).__name__}: {exc}")
    if n_runs is not None and int(n_runs) != count:
        fail(
            f"n_runs: with scheme={name}(...) every split is one run, and it "
            f"makes {count} splits (get_n_splits); leave n_runs out or give "
            f"n_runs={count}; got n_runs={n_runs}"
        )
    if count < 2:
        fail(f"scheme: {name} makes {count} split(s); resampling needs at least 2")
    if max_runs is not None and count > max_runs:
        fail(
            f"scheme: {name} makes {count} splits (get_n_splits), each one run; "
            f"must be at most {max_runs} runs"
        )
    try:
        drawn = iter(splitter.split(X, y))
    except Exception as exc:  # noqa: BLE001 - the splitter's own error, named
        fail(f"scheme: {name}.split(X, y) failed: {type(exc).__name__}: {exc}")
    return count, checked_splits(drawn, count, n, f"{name}.split(X, y)", "split")


def checked_splits(drawn, count: int, n: int, source: str, item: str = "run"):
    """The ``count`` (train, test) pairs of the iterator ``drawn`` (of a splitter, or of a
    callable scheme), each checked as it is drawn: a (train, test) pair of index arrays
    or, for a callable scheme (``item="run"``), an array of training rows (the others
    held out); with at least one training row. An iterator that ends early, yields more
    than ``count`` items (one more is asked for with the last one) or fails is refused
    naming ``scheme``. Nothing is drawn before it is asked for: the first run starts
    before the second split is drawn, whatever ``count``."""
    splitter = item == "split"
    for i in range(count):
        try:
            got = next(drawn)
        except StopIteration:
            if splitter:
                fail(f"scheme: {source} yielded {i} splits but get_n_splits says {count}")
            fail(f"scheme: the callable must yield n_runs={count} resamples; got {i}")
        except Exception as exc:  # noqa: BLE001 - the scheme's own error, named
            fail(f"scheme: {source} failed at {item} {i}: {type(exc).__name__}: {exc}")
        if i == count - 1:
            _refuse_more(drawn, count, source, splitter)
        yield checked_split(got, i, n, item)


def _refuse_more(drawn, count, source, splitter):
    try:
        next(drawn)
    except StopIteration:
        return
    except Exception as exc:  # noqa: BLE001 - the scheme's own error, named
        fail(f"scheme: {source} failed after {count} items: {type(exc).__name__}: {exc}")
    if splitter:
        fail(f"scheme: {source} yielded more than {count} splits but get_n_splits says {count}")
    fail(f"scheme: the callable must yield n_runs={count} resamples; got more than {count}")


def checked_split(got, i: int, n: int, item: str = "run"):
    """Run ``i``'s (train, test) from what a scheme yielded (see :func:`checked_splits`)."""
    if item == "split" or (isinstance(got, tuple) and len(got) == 2):
        if not (isinstance(got, tuple) and len(got) == 2) and item == "split":
            try:
                got = tuple(got)
            except TypeError:
                got = ()
            if len(got) != 2:
                fail(f"scheme: split {i} is not a (train, test) pair of index arrays")
        train = scheme_rows(got[0], n, f"the training rows of {item} {i}")
        test = scheme_rows(got[1], n, f"the held-out rows of {item} {i}")
    else:
        train = scheme_rows(got, n, f"{item} {i}")
        test = np.setdiff1d(np.arange(n), train)
    if train.size == 0:
        fail(f"scheme: {item} {i} has no training rows")
    return train, test


def strata_of(stratify, y, n):
    """Group labels for stratified resampling, or None."""
    if stratify is None or stratify is False:
        return None
    labels = y if stratify is True else stratify
    if labels is None:
        fail("stratify: True needs y (the class labels)")
    if stratify is True and is_continuous(y):
        fail(
            f"stratify: True resamples within each class of y, but y is "
            f"continuous (a float y of more than two values, whole or not, is "
            f"a regression target) with {values_of(y)}: every value would be "
            f"a stratum; pass class labels as stratify=, or leave it out"
        )
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.shape[0] != n:
        fail(f"stratify: must give one label per sample ({n}); got shape " f"{labels.shape}")
    return labels


def groups_of(strata, n):
    if strata is None:
        return [np.arange(n)]
    _, inverse = np.unique(strata, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.cumsum(np.bincount(inverse))[:-1]
    return np.split(order, bounds)


def scheme_rows(rows, n: int, what: str) -> np.ndarray:
    """Row indices yielded by a callable scheme: a 1-D integer array in 0..n-1."""
    arr = np.asarray(rows)
    if arr.dtype == bool:
        fail(
            f"scheme: {what} must be row indices (integers in 0..{n - 1}), not a "
            f"boolean mask; use np.flatnonzero(mask)",
            TypeError,
        )
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        fail(
            f"scheme: {what} must be a 1-D sequence of integer row indices; got "
            f"{arr.dtype} array of shape {arr.shape}",
            TypeError,
        )
    outside = (arr < 0) | (arr >= n)
    if outside.any():
        fail(
            f"scheme: {what}: the row index {arr[outside][0]} is outside "
            f"0..{n - 1} (n_samples={n})"
        )
    return arr.astype(np.intp)


def scheme_splits(scheme, n: int, n_runs: int, rng):
    """The (train, test) pairs of a callable ``scheme(n_samples, n_runs, rng)``: exactly
    n_runs items, each a non-empty array of training rows or a (train, test) pair of
    index arrays. A sized result (a list, a tuple: already in memory) is checked whole,
    here; any other iterable (a generator) is returned as a generator read as the runs
    need them (:func:`checked_splits`: each item checked as it is drawn, an iterator
    that ends early or yields more than n_runs refused when that is seen), so that a
    generator scheme draws nothing before the first run, whatever n_runs."""
    from collections.abc import Sized

    try:
        drawn = scheme(n, n_runs, rng)
    except Exception as exc:  # noqa: BLE001 - the scheme's own error, named
        fail(f"scheme: the callable failed: {type(exc).__name__}: {exc}")
    if isinstance(drawn, (str, bytes, np.ndarray)) or not isinstance(drawn, Iterable):
        fail(
            f"scheme: the callable must return an iterable of n_runs={n_runs} "
            f"resamples (arrays of row indices or (train, test) pairs); got "
            f"{type(drawn).__name__}",
            TypeError,
        )
    if isinstance(drawn, Sized):
        if len(drawn) != n_runs:
            fail(f"scheme: the callable must yield n_runs={n_runs} resamples; got {len(drawn)}")
        return [checked_split(item, i, n) for i, item in enumerate(drawn)]
    return checked_splits(iter(drawn), n_runs, n, "the callable")


def draw_splits(scheme, n, n_runs, fraction, strata, rng):
    """The (train, test) index pairs of every run, drawn in the main process."""
    if callable(scheme):
        return list(scheme_splits(scheme, n, n_runs, rng))
    return list(iter_splits(scheme, n, n_runs, fraction, strata, rng))


def iter_splits(scheme, n, n_runs, fraction, strata, rng):
    """The (train, test) index pairs of a named scheme's runs, drawn one after the other
    as they are asked for (the same pairs as :func:`draw_splits`: one stream, in run
    order), so that nothing is drawn before the first run starts."""
    groups = groups_of(strata, n)
    if scheme == "complementary_pairs":
        for _ in range(n_runs // 2):
            for part in complementary_pairs(groups, 1, rng):
                yield part, np.setdiff1d(np.arange(n), part)
        return
    for _ in range(n_runs):
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
        train = np.sort(np.concatenate(parts))
        in_bag = np.zeros(n, dtype=bool)
        in_bag[train] = True
        yield train, np.flatnonzero(~in_bag)


def complementary_pairs(groups, n_pairs: int, rng) -> list:
    """The training rows of ``n_pairs`` complementary pairs (Shah and Samworth 2013): each
    pair splits every group of rows (one group of all n rows without strata) at random
    into two disjoint halves of floor(n_g / 2) rows; the pair's two subsamples, each
    sorted, come one after the other. The one implementation of the scheme, used by
    :func:`propstab.resample` (``scheme="complementary_pairs"``) and by
    :class:`propstab.StabilitySelection` (``sampling="ss"``).

    >>> import numpy as np
    >>> pairs = complementary_pairs([np.arange(5)], 2, np.random.default_rng(0))
    >>> len(pairs), [p.size for p in pairs], bool(np.intersect1d(pairs[0], pairs[1]).size)
    (4, [2, 2, 2, 2], False)
    """
    out = []
    for _ in range(n_pairs):
        first, second = [], []
        for g in groups:
            perm = rng.permutation(g)
            half = len(g) // 2
            first.append(perm[:half])
            second.append(perm[half : 2 * half])
        out += [np.sort(np.concatenate(first)), np.sort(np.concatenate(second))]
    return out


def subsamples(n: int, n_subsamples: int, sampling: str, rng) -> np.ndarray:
    """The subsamples of stability selection: row indices of shape (n_fits,
    floor(n/2)), each row sorted.

    ``"mb"``: B independent subsamples of floor(n/2) rows without replacement
    (Meinshausen and Bühlmann 2010); ``"ss"``: B complementary pairs
    (:func:`complementary_pairs`), 2B subsamples.

    >>> import numpy as np
    >>> subsamples(6, 2, "ss", np.random.default_rng(0)).shape
    (4, 3)
    """
    if sampling == "mb":
        half = n // 2
        rows = [rng.permutation(n)[:half] for _ in range(n_subsamples)]
        return np.sort(np.asarray(rows, dtype=np.intp), axis=1)
    return np.asarray(complementary_pairs([np.arange(n)], n_subsamples, rng), dtype=np.intp)
