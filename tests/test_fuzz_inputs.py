"""Malformed and degenerate inputs through every consumer.

tests/test_fuzz_entry_points.py gives each argument hostile values one at a time. Here
the inputs themselves are generated with their validity known by construction:

- selection matrices in every accepted form (arrays of every dtype, lists, index
  collections, DataFrames, sparse matrices) with one corruption or none: every
  consumer (as_selection, stability, estimate, the tests, the feature map) must agree,
  raising ValueError or TypeError naming Z where the matrix is corrupted, and keep the
  contract where it is not;
- degenerate valid matrices (empty and full runs, d = 1, M = 2, identical runs) for
  every registered measure: a value, or NaN with its warning; an invalid similarity
  still raises there;
- inconsistent companions (indices beyond n_features, names of the wrong length, a
  similarity or importance matrix of the wrong size, labels that disagree);
- error control over its whole domain (docs/stability_selection.md, "The domain"),
  with an oracle written from the docs;
- misbehaving selectors and resampling schemes, generated;
- the same seed, the same answer.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import sparse

import contract
from contract import HOSTILE, check_call
import propstab
import propstab.plots
from propstab.error_control import PFERBoundWarning, PFERExceededWarning, error_control
from propstab.measures import cw_max, cw_min
from propstab.selection import StabilitySelection

FUZZ = settings(max_examples=60, suppress_health_check=list(HealthCheck))
MEASURES = tuple(m.name for m in propstab.list_measures())


# ----------------------------------------------------------------------------------
# selection matrices: every form, with or without one corruption


DENSE_FORMS = ("bool", "int8", "int64", "float", "object", "list", "frame", "csr", "coo", "dok")
INDEX_FORMS = ("sets", "names")
DENSE_CORRUPTIONS = (
    "none",
    "value 2",
    "value -1",
    "value 0.5",
    "nan",
    "inf",
    "string",
    "complex",
    "missing",
    "one run",
    "no feature",
    "ragged",
    "1-D",
    "3-D",
    "names too few",
    "names repeated",
    "names unhashable",
)
INDEX_CORRUPTIONS = (
    "none",
    "index too large",
    "negative index",
    "float index",
    "repeated index",
    "n_features too small",
    "one run",
    "names too few",
    "names repeated",
    "mapping run",
    "string",
)
CORRUPTIONS = tuple(sorted(set(DENSE_CORRUPTIONS) | set(INDEX_CORRUPTIONS)))


@st.composite
def selections(draw):
    """(Z, keyword arguments, corruption): a selection matrix in some form, and what was
    done to it ("none": valid)."""
    M = draw(st.integers(2, 5))
    d = draw(st.integers(1, 5))
    dense = np.array(
        draw(st.lists(st.lists(st.booleans(), min_size=d, max_size=d), min_size=M, max_size=M)),
        dtype=bool,
    ).reshape(M, d)
    form = draw(st.sampled_from(DENSE_FORMS + INDEX_FORMS))
    corruption = draw(
        st.sampled_from(INDEX_CORRUPTIONS if form in INDEX_FORMS else DENSE_CORRUPTIONS)
    )
    i, j = draw(st.integers(0, M - 1)), draw(st.integers(0, d - 1))
    return build(dense, form, corruption, i, j)


def build(dense, form, corruption, i, j):
    """``dense`` (a boolean M x d matrix) in ``form``, with ``corruption`` applied at run
    i (and feature j), as (Z, keyword arguments, the corruption actually applied)."""
    M, d = dense.shape
    kwargs = {}
    names = [f"f{k}" for k in range(d)]
    if form in ("sets", "names"):
        runs = [list(np.flatnonzero(row)) for row in dense]
        runs = [[int(x) for x in r] for r in runs]
        kwargs = {"n_features": d} if form == "sets" else {"feature_names": names}
        if form == "names":
            runs = [[names[x] for x in r] for r in runs]
        if (
            corruption
            in (
                "index too large",
                "negative index",
                "float index",
                "repeated index",
                "n_features too small",
            )
            and form == "sets"
        ):
            bad = {"index too large": d, "negative index": -1, "float index": 0.0}
            if corruption in bad:
                runs[i] = runs[i] + [bad[corruption]]
            elif corruption == "repeated index":
                runs[i] = runs[i] + [0, 0]
            else:  # a run names a feature beyond d - 1
                runs[i] = sorted(set(runs[i]) | {d - 1})
                kwargs["n_features"] = d - 1 if d > 1 else 0
        elif corruption == "one run":
            runs = runs[:1]
        elif corruption == "names too few" and form == "names":
            kwargs["feature_names"] = names[:-1] if d > 1 else []
            runs = [[x for x in r if x in kwargs["feature_names"]] for r in runs]
            runs[i] = runs[i] + [names[-1]]  # a name not in feature_names
        elif corruption == "names repeated" and form == "names" and d > 1:
            kwargs["feature_names"] = [names[0]] * d
        elif corruption == "mapping run":
            runs[i] = {x: 1 for x in runs[i]}
        elif corruption == "string" and form == "sets":
            runs[i] = runs[i] + ["0"]
        else:
            corruption = "none"
        return runs, kwargs, corruption
    Z = dense.astype(np.int64)
    if corruption in (
        "value 2",
        "value -1",
        "value 0.5",
        "nan",
        "inf",
        "string",
        "complex",
        "missing",
    ):
        value = {
            "value 2": 2,
            "value -1": -1,
            "value 0.5": 0.5,
            "nan": math.nan,
            "inf": math.inf,
            "string": "1",
            "complex": 1 + 0j,
            "missing": None,
        }[corruption]
        if form in ("csr", "coo", "dok") and corruption in ("string", "complex", "missing"):
            corruption = "none"  # sparse matrices hold numbers only
        else:
            Z = Z.astype(object)
            Z[i, j] = value
    elif corruption == "one run":
        Z = Z[:1]
    elif corruption == "no feature":
        Z = Z[:, :0]
    elif corruption == "1-D":
        Z = Z[0]
    elif corruption == "3-D" and form not in ("frame", "csr", "coo", "dok"):
        Z = Z[None]
    elif corruption == "ragged" and form in ("list", "object") and d > 1:
        return [list(map(int, Z[0]))] + [list(map(int, row[:-1])) for row in Z[1:]], {}, corruption
    elif corruption in ("names too few", "names repeated", "names unhashable") and form in (
        "bool",
        "int8",
        "float",
        "list",
        "csr",
    ):
        kwargs["feature_names"] = {
            "names too few": names[:-1] + (["x"] if False else []),
            "names repeated": [names[0]] * d,
            "names unhashable": [[n] for n in names],
        }[corruption]
        if corruption == "names repeated" and d == 1:
            corruption = "none"
    else:
        corruption = "none"
    if corruption in ("1-D", "no feature") and form in ("csr", "coo", "dok") and Z.ndim != 2:
        corruption, Z = "none", dense.astype(np.int64)
    return _form(Z, form, names), kwargs, corruption


def _form(Z, form, names):
    if Z.dtype == object:  # a corrupted entry: keep it as is
        if form in ("frame",) and Z.ndim == 2:
            return pd.DataFrame(Z, columns=names[: Z.shape[1]])
        return Z.tolist() if form == "list" else Z
    if form == "bool":
        return Z.astype(bool)
    if form in ("int8", "int64"):
        return Z.astype(form)
    if form == "float":
        return Z.astype(float)
    if form == "object":
        return Z.astype(object)
    if form == "list":
        return Z.tolist()
    if form == "frame" and Z.ndim == 2:
        return pd.DataFrame(Z.astype(bool), columns=names[: Z.shape[1]])
    if form in ("csr", "coo", "dok") and Z.ndim == 2:
        return getattr(sparse, f"{form}_matrix")(Z.astype(np.int8))
    return Z


def _consumers(Z, kwargs):
    """Every entry point that reads a selection matrix, as (name, call, argument)."""
    return [
        ("as_selection", lambda: propstab.as_selection(Z, **kwargs), "Z"),
        ("stability", lambda: propstab.stability(Z, **kwargs), "Z"),
        ("stability jaccard", lambda: propstab.stability(Z, "jaccard", **kwargs), "Z"),
        ("stability sechidis", lambda: propstab.stability(Z, "sechidis", **kwargs), "Z"),
        ("estimate", lambda: propstab.estimate(Z, **kwargs), "Z"),
        ("one_sample_test", lambda: propstab.one_sample_test(Z, 0.0, **kwargs), "Z"),
        ("two_sample_test", lambda: propstab.two_sample_test(Z, Z, **kwargs), "Z1"),
        (
            "pairwise_tests",
            lambda: propstab.pairwise_tests({"a": Z, "b": Z}, **kwargs),
            "matrices['a']",
        ),
    ]


@FUZZ
@given(selections())
def test_every_consumer_agrees_on_a_selection_matrix(case):
    Z, kwargs, corruption = case
    invalid = corruption != "none"
    for name, call, argument in _consumers(Z, kwargs):
        outcome = check_call(lambda: call(), {}, entry=f"{name} [{corruption}]")
        if invalid:
            assert outcome.raised, f"{name}: a matrix with {corruption!r} was accepted"
            message = outcome.message
            named = [argument] + [k for k in kwargs]
            assert any(contract.names(message, a) for a in named), (name, message)
        else:
            assert not outcome.raised, f"{name} refused a valid matrix: {outcome.error!r}"


def test_every_form_with_every_corruption():
    """The whole grid, on a few matrices: no form or corruption left to chance."""
    rng = np.random.default_rng(12)
    applied = set()
    for shape in ((3, 4), (2, 1), (4, 2)):
        dense = rng.random(shape) < 0.5
        dense[0, 0] = True
        for form in DENSE_FORMS + INDEX_FORMS:
            for corruption in INDEX_CORRUPTIONS if form in INDEX_FORMS else DENSE_CORRUPTIONS:
                Z, kwargs, done = build(dense, form, corruption, 1, shape[1] - 1)
                applied.add(done)
                test_every_consumer_agrees_on_a_selection_matrix.hypothesis.inner_test(
                    (Z, kwargs, done)
                )
    assert applied == set(CORRUPTIONS), set(CORRUPTIONS) - applied


# ----------------------------------------------------------------------------------
# degenerate but valid


DEGENERATE = {
    "empty runs": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    "full runs": [[1, 1, 1], [1, 1, 1]],
    "one feature selected": [[1], [1]],
    "one feature, one empty run": [[0], [1]],
    "one feature, empty": [[0], [0]],
    "two runs, disjoint": [[1, 0], [0, 1]],
    "identical runs": [[1, 0, 1, 0]] * 4,
    "one empty run": [[1, 1, 0], [0, 0, 0], [1, 0, 1]],
}


DEGENERATE_RANKINGS = {
    "identical rankings": [[1, 2, 3, 4]] * 3,
    "reversed": [[1, 2, 3], [3, 2, 1]],
    "all tied": [[2, 2, 2], [2, 2, 2]],
    "one run tied": [[1.5, 1.5, 3], [1, 2, 3]],
    "two features": [[1, 2], [2, 1], [1, 2]],
}
RANKING_MEASURES = tuple(m.name for m in propstab.list_measures("ranking"))
SET_MEASURES = tuple(m for m in MEASURES if m not in RANKING_MEASURES)


@pytest.mark.parametrize("measure", RANKING_MEASURES)
@pytest.mark.parametrize("name", sorted(DEGENERATE_RANKINGS))
def test_every_ranking_measure_on_degenerate_input(measure, name):
    R = DEGENERATE_RANKINGS[name]
    options = {"k": 1} if "k" in propstab.get_measure(measure).parameter_names else {}
    outcome = check_call(
        lambda: propstab.stability(R, measure, **options), {}, entry=f"{measure} on {name}"
    )
    assert not outcome.raised, outcome.error  # valid input: a value or NaN


@pytest.mark.parametrize("measure", SET_MEASURES)
@pytest.mark.parametrize("name", sorted(DEGENERATE))
def test_every_measure_on_degenerate_input(measure, name):
    Z = DEGENERATE[name]
    info = propstab.get_measure(measure)
    options = {"n_simulations": 200} if "n_simulations" in info.parameter_names else {}
    outcome = check_call(
        lambda: propstab.stability(Z, measure, **options), {}, entry=f"{measure} on {name}"
    )
    assert not outcome.raised, outcome.error  # valid input: a value or NaN
    if "similarity" in info.parameter_names:  # an invalid matrix still raises
        d = len(Z[0])
        for S in (np.full((d, d), 2.0), np.ones((d + 1, d + 1)), "x"):
            outcome = check_call(
                lambda S=S: propstab.stability(Z, measure, similarity=S, **options),
                {},
                entry=f"{measure} on {name}",
                argument="similarity",
                must_raise=True,
            )


@pytest.mark.parametrize("name", sorted(DEGENERATE))
def test_inference_on_degenerate_input(name):
    Z = DEGENERATE[name]
    for call in (
        lambda: propstab.estimate(Z),
        lambda: propstab.estimate(Z, "jaccard"),
        lambda: propstab.one_sample_test(Z, 0.0, alternative="two-sided"),
        lambda: propstab.two_sample_test(Z, Z),
        lambda: propstab.estimate(Z).confidence_interval(0.9),
    ):
        check_call(call, {}, entry=f"inference on {name}")


# ----------------------------------------------------------------------------------
# inconsistent companions


Z4 = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 1]]


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: propstab.stability([[0, 4], [1]], n_features=4), "Z"),
        (lambda: propstab.stability(np.array(Z4), n_features=3), "n_features"),
        (lambda: propstab.stability(Z4, feature_names=["a", "b"]), "feature_names"),
        (lambda: propstab.stability([["a"], ["c"]], feature_names=["a", "b"]), "Z"),
        (
            lambda: propstab.stability(
                pd.DataFrame(Z4, columns=list("abcd")), feature_names=list("abcd")
            ),
            "feature_names",
        ),
        (lambda: propstab.stability(Z4, "sechidis", similarity=np.eye(3)), "similarity"),
        (
            lambda: propstab.stability(
                pd.DataFrame(Z4, columns=list("abcd")),
                "sechidis",
                similarity=pd.DataFrame(np.eye(4), index=list("abcd"), columns=list("abce")),
            ),
            "similarity",
        ),
        (
            lambda: propstab.stability(
                Z4, "msi", similarity=np.eye(4), importances=np.ones((3, 4))
            ),
            "importances",
        ),
        (lambda: propstab.stability(Z4, "pearson", importances=np.ones((2, 4))), "importances"),
        (lambda: propstab.two_sample_test(Z4, [r + [0] for r in Z4]), "Z1"),
        (lambda: propstab.two_sample_test(Z4, Z4[:2], paired=True), "Z1"),
        (
            lambda: propstab.two_sample_test(
                pd.DataFrame(Z4, columns=list("abcd")), pd.DataFrame(Z4, columns=list("abdc"))
            ),
            "Z1",
        ),
        (lambda: propstab.pairwise_tests([Z4, [r + [1] for r in Z4]]), "matrices[0]"),
        (
            lambda: propstab.resample(lambda X, y: [0], np.zeros((6, 3)), y=np.zeros(5), n_runs=2),
            "y",
        ),
        (
            lambda: propstab.resample(
                lambda X, y: [0], np.zeros((6, 3)), n_runs=2, stratify=[0, 1]
            ),
            "stratify",
        ),
        (
            lambda: propstab.resample(lambda X, y: [0], np.zeros((6, 3)), n_runs=2, top_k=4),
            "top_k",
        ),
        (
            lambda: propstab.resample(
                lambda X, y: [0], np.zeros((6, 3)), n_runs=3, scheme="complementary_pairs"
            ),
            "n_runs",
        ),
        (
            lambda: propstab.resample(lambda X, y: [0], np.zeros((6, 3)), n_runs=2, fraction=0.5),
            "fraction",
        ),
        (
            lambda: propstab.similarity_from_groups([["a", "z"]], None, feature_names=["a", "b"]),
            "groups",
        ),
        (
            lambda: propstab.similarity_from_groups([[0]], 3, feature_names=["a", "b"]),
            "feature_names",
        ),
        (
            lambda: propstab.plots.plot_feature_stability_map(Z4, similarity=np.eye(5)),
            "similarity",
        ),
        (
            lambda: propstab.plots.plot_selection_frequencies([0.1, 0.2], feature_names=["a"]),
            "feature_names",
        ),
        (lambda: propstab.plots.plot_pareto_front([0.1, 0.2], [0.3]), "score"),
        (lambda: propstab.plots.plot_pareto_front([0.1, 0.2], [0.3, 0.4], labels=["a"]), "labels"),
        (lambda: StabilitySelection(_lasso(), cutoff=None, PFER=1).fit(*_xy()), "cutoff"),
        (lambda: StabilitySelection(_lasso(), cutoff=0.7, PFER=1, q=2).fit(*_xy()), "cutoff"),
    ],
    ids=lambda x: "" if callable(x) else x,
)
def test_inconsistent_companions_are_named(call, argument):
    import matplotlib

    matplotlib.use("Agg")
    check_call(call, {}, entry=argument, argument=argument, must_raise=True)
    import matplotlib.pyplot as plt

    plt.close("all")


def _lasso():
    from sklearn.linear_model import Lasso

    return Lasso(alpha=0.1)


def _xy():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    return X, X[:, 0] + 0.1 * rng.normal(size=20)


# ----------------------------------------------------------------------------------
# error control over its whole domain


def _outside_domain(p, cutoff, q, PFER, sampling, assumption, B):
    """The argument that docs/stability_selection.md ("The domain") rules out, or None;
    written from the docs' table, independently of the implementation."""
    assumption = assumption or ("none" if sampling == "mb" else "unimodal")
    if sampling == "mb" and assumption != "none":
        return "assumption"
    if not 2 <= B <= (100 if assumption == "r-concave" else 10**6):
        return "n_subsamples"
    if sum(v is not None for v in (cutoff, q, PFER)) != 2:
        return "error_control"
    if PFER is not None and not 0 < PFER < p:
        return "PFER"
    if cutoff is not None:
        if assumption == "r-concave":
            if not 0 < cutoff <= 1:
                return "cutoff"
        elif not 0.5 < cutoff <= 1:
            return "cutoff"
        elif assumption == "unimodal" and cutoff <= 0.5 + 1 / (4 * B):
            return "cutoff"
    if q is not None and not 0 < q <= p:
        return "q"
    return None


@settings(max_examples=120, suppress_health_check=list(HealthCheck))
@given(
    p=st.one_of(st.integers(1, 200), st.sampled_from([10**4, 10**6, 10**7])),
    cutoff=st.one_of(st.none(), st.floats(-0.2, 1.2), st.sampled_from([0.5, 1.0, 0.75])),
    q=st.one_of(st.none(), st.floats(-1, 300), st.integers(0, 50)),
    PFER=st.one_of(st.none(), st.floats(-0.5, 20), st.sampled_from([0.0, 1.0])),
    sampling=st.sampled_from(["mb", "ss"]),
    assumption=st.sampled_from([None, "none", "unimodal", "r-concave"]),
    B=st.one_of(st.integers(2, 30), st.sampled_from([1, 101, 10**6 + 1])),
)
def test_error_control_domain(p, cutoff, q, PFER, sampling, assumption, B):
    kwargs = dict(
        n_features=p,
        cutoff=cutoff,
        q=q,
        PFER=PFER,
        sampling=sampling,
        assumption=assumption,
        n_subsamples=B,
    )
    outside = _outside_domain(p, cutoff, q, PFER, sampling, assumption, B)
    outcome = check_call(
        error_control,
        kwargs,
        entry="error_control domain",
        argument=outside,
        must_raise=outside is not None,
        argument_names=("cutoff", "q", "PFER", "n_subsamples", "n_features"),
    )
    if outcome.raised:
        return
    ec = outcome.value
    assert 0 < ec.q <= p and math.isfinite(ec.PFER) and ec.PFER >= 0
    assert (0.5 < ec.cutoff <= 1) or (ec.assumption == "r-concave" and 0 < ec.cutoff <= 1)
    if ec.assumption == "r-concave":
        assert ec.cutoff > ec.q / p
    exceeded = [w for w in outcome.warnings if issubclass(w.category, PFERExceededWarning)]
    if PFER is not None:
        assert ec.specified_PFER == PFER
        bound = error_control(
            p,
            cutoff=ec.cutoff,
            q=ec.q,
            sampling=sampling,
            assumption=ec.assumption,
            n_subsamples=B,
        ).specified_PFER
        if exceeded:  # no cutoff up to 1 attains it: the cutoff is 1
            assert cutoff is None and ec.cutoff == 1.0 and bound > PFER
        else:
            assert bound <= PFER * (1 + 1e-12)
    else:
        assert not exceeded


# ----------------------------------------------------------------------------------
# misbehaving selectors and schemes


X12 = np.random.default_rng(3).normal(size=(12, 4))


@FUZZ
@given(outputs=st.lists(HOSTILE, min_size=1, max_size=3))
def test_a_selector_returning_anything(outputs):
    """A selector function returning hostile values run after run: resample keeps the
    runs whose output is a valid selection, warns about the others, and when fewer
    than 2 are left raises ValueError naming the selector."""
    calls = iter(outputs * 4)

    def selector(X, y):
        return next(calls)

    def valid(out):
        try:
            arr = np.asarray(out)
        except (ValueError, TypeError):
            return False
        if arr.dtype == bool:
            return arr.shape == (4,)
        return arr.ndim == 1 and (
            arr.size == 0 or (arr.dtype.kind in "iu" and bool(((arr >= 0) & (arr < 4)).all()))
        )

    good = sum(valid(o) for o in (outputs * 4)[:3])
    outcome = check_call(
        propstab.resample,
        dict(selector=selector, X=X12, n_runs=3, random_state=0),
        entry="resample(selector returning hostile values)",
        argument="selector",
        must_raise=good < 2,
    )
    if not outcome.raised:
        failed = [
            w
            for w in outcome.warnings
            if issubclass(w.category, propstab.resampling.FailedFitWarning)
        ]
        assert bool(failed) == (good < 3)
        assert outcome.value.selection.n_runs == good


class _Broken:
    """A scikit-learn-like estimator misbehaving in one way."""

    def __init__(self, how="raise"):
        self.how = how

    def get_params(self, deep=True):
        return {"how": self.how}

    def set_params(self, **params):
        self.how = params.get("how", self.how)
        return self

    def fit(self, X, y=None):
        if self.how == "raise":
            raise ValueError("broken on purpose")
        if self.how == "crash":
            raise ZeroDivisionError("a bug in the user's estimator")
        if self.how == "short coef":
            self.coef_ = np.ones(2)
        if self.how == "nan coef":
            self.coef_ = np.full(X.shape[1], np.nan)
        if self.how == "support":
            self.get_support = lambda: "all"
        if self.how == "importances":
            self.feature_importances_ = np.ones(X.shape[1])
        return self


@pytest.mark.parametrize(
    "how", ["raise", "crash", "short coef", "support", "importances", "nothing"]
)
def test_a_misbehaving_estimator(how):
    outcome = check_call(
        propstab.resample,
        dict(selector=_Broken(how), X=X12, n_runs=3, random_state=0),
        entry=f"resample(estimator: {how})",
        argument="selector",
        must_raise=True,
    )
    assert outcome.message.startswith("selector: ")


@pytest.mark.parametrize("how", ["raise", "short coef", "nothing"])
def test_a_misbehaving_estimator_in_stability_selection(how):
    X, y = _xy()
    check_call(
        lambda: StabilitySelection(
            _Broken(how), param_name="how", PFER=None, param_grid=[how], n_subsamples=2
        ).fit(X, y),
        {},
        entry=f"StabilitySelection({how})",
        argument="estimator",
        must_raise=True,
    )


@FUZZ
@given(
    items=st.lists(
        st.one_of(HOSTILE, st.tuples(HOSTILE, HOSTILE), st.lists(st.integers(-3, 14), max_size=6)),
        min_size=0,
        max_size=4,
    ),
    endless=st.booleans(),
)
def test_a_scheme_yielding_anything(items, endless):
    def scheme(n, n_runs, rng):
        if endless:
            while True:
                yield from items or [[0, 1]]
        return items

    outcome = check_call(
        propstab.resample,
        dict(selector=lambda X, y: [0], X=X12, n_runs=3, scheme=scheme),
        entry="resample(scheme yielding hostile values)",
        argument="scheme",
        argument_names=("selector",),
    )
    if endless:  # read lazily: a bad item is refused when drawn, before the count is known
        assert outcome.raised and (
            "more than 3" in outcome.message or outcome.message.startswith("scheme: ")
        ), outcome.message


@pytest.mark.parametrize(
    "returned, message",
    [
        (None, "must return an iterable"),
        (5, "must return an iterable"),
        ([np.ones(12, bool)] * 3, "not a boolean mask"),
        ([np.arange(6.0)] * 3, "integer row indices"),
        ([[0, 1, 12]] * 3, "row index 12 is outside 0..11"),
        ([[0, -1]] * 3, "row index -1 is outside"),
        ([([0, 1], [20])] * 3, "the held-out rows of run 0: the row index 20"),
        ([[]] * 3, "run 0 has no training rows"),
        ([[0, 1]] * 2, "must yield n_runs=3 resamples; got 2"),
        ([[[0, 1]]] * 3, "1-D sequence of integer row indices"),
        ({"a": [0]}, "must yield n_runs=3"),
    ],
)
def test_a_scheme_yielding_the_wrong_thing(returned, message):
    outcome = check_call(
        propstab.resample,
        dict(selector=lambda X, y: [0], X=X12, n_runs=3, scheme=lambda n, m, rng: returned),
        entry="resample(scheme)",
        argument="scheme",
        must_raise=True,
    )
    assert message in outcome.message, outcome.message


# ----------------------------------------------------------------------------------
# the same seed, the same answer


def _same_twice(call, key=repr):
    first, second = call(), call()
    assert key(first) == key(second)


def test_determinism_for_a_seed():
    X, y = _xy()
    _same_twice(
        lambda: propstab.resample(
            lambda X, y: np.argsort(-np.abs(X.T @ y))[:2], X, y, n_runs=5, random_state=7
        ),
        key=lambda r: (r.Z.tolist(), [t.tolist() for t in r.train_indices]),
    )
    _same_twice(lambda: propstab.assess(_lasso(), X, y, n_runs=5, random_state=7))

    def selection():
        # no PFER target, 3 pairs: q/p = 0.96, beyond the unimodal bound's reach
        with pytest.warns(PFERBoundWarning, match="'unimodal' PFER bound does not apply"):
            return StabilitySelection(
                _lasso(), n_subsamples=3, sampling="ss", PFER=None, random_state=7
            ).fit(X, y)

    _same_twice(selection, key=lambda s: s.stability_scores_.tolist())
    _same_twice(
        lambda: propstab.audit("goh", max_examples=5, random_state=3, axioms=["bounds"]),
        key=lambda t: t.to_json(),
    )
    _same_twice(
        lambda: propstab.stability(
            Z4, "yu", correction_for_chance="estimate", n_simulations=300, random_state=5
        )
    )
    rng_seeded = [
        propstab.resample(
            lambda X, y: [0, 1], X, n_runs=3, random_state=np.random.default_rng(11)
        ).train_indices
        for _ in range(2)
    ]
    assert all(np.array_equal(a, b) for a, b in zip(*rng_seeded))


# ----------------------------------------------------------------------------------
# the two public helpers of Somol and Novovicova's measures


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: cw_min(0, 3, 4), "total"),
        (lambda: cw_min(5, 1, 4), "n_runs"),
        (lambda: cw_min(5, 3, 0), "n_features"),
        (lambda: cw_min(5.5, 3, 4), "total"),
        (lambda: cw_min(99, 3, 4), "total"),
        (lambda: cw_max(0, 3), "total"),
        (lambda: cw_max(5, True), "n_runs"),
        (lambda: cw_max("5", 3), "total"),
    ],
)
def test_cw_helpers_reject_invalid_input(call, argument):
    check_call(call, {}, entry="cw helpers", argument=argument, must_raise=True)


def test_cw_helpers_return_values():
    for call in (lambda: cw_min(5, 3, 4), lambda: cw_max(5, 3)):
        outcome = check_call(call, {}, entry="cw helpers")
        assert not outcome.raised and 0 <= float(outcome.value) <= 1


# ----------------------------------------------------------------------------------
# doors an independent suite found ("Also found")


def _ranking_entry_points(measure, Z):
    """(argument the user passed, call) for every entry point taking a rank matrix."""
    return [
        ("Z", lambda: propstab.stability(Z, measure)),
        ("Z", lambda: propstab.estimate(Z, measure)),
        ("Z", lambda: propstab.one_sample_test(Z, 0.0, measure=measure)),
        ("Z1", lambda: propstab.two_sample_test(Z, Z, measure=measure)),
        ("matrices['a']", lambda: propstab.pairwise_tests({"a": Z, "b": Z}, measure=measure)),
        ("R", lambda: propstab.get_measure(measure).function(Z)),
    ]


@pytest.mark.parametrize("measure", RANKING_MEASURES)
def test_a_ranking_measure_on_a_selection_names_the_users_argument(measure):
    """``stability(Z, "spearman")`` on a 0/1 matrix: the error names Z (the argument the
    user passed, not the validator's internal R) and says the measure takes a rank
    matrix."""
    Z = np.array(Z4)
    for argument, call in _ranking_entry_points(measure, Z):
        outcome = check_call(
            call, {}, entry=f"{measure} via {argument}", argument=argument, must_raise=True
        )
        assert outcome.message.startswith(f"{argument}: "), outcome.message
        assert f"{measure!r} takes a rank matrix" in outcome.message, outcome.message


UNHASHABLE_NAMES = [["a"], ["b"], ["c"], ["d"]]


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda: propstab.stability(Z4, feature_names=UNHASHABLE_NAMES), "feature_names"),
        (
            lambda: propstab.stability(Z4, feature_names=[("a", ["x"]), "b", "c", "d"]),
            "feature_names",
        ),
        (
            lambda: propstab.stability(
                pd.DataFrame(
                    np.array(Z4),
                    columns=pd.Index(
                        [("a", ["x"]), "b", "c", "d"], dtype=object, tupleize_cols=False
                    ),
                )
            ),
            "feature_names",
        ),
        (lambda: propstab.stability([["a"], [{"b": 1}]], feature_names=list("abcd")), "Z"),
        (lambda: propstab.stability([["a"], [["b"]]], feature_names=list("abcd")), "Z"),
        (
            lambda: propstab.as_rankings(
                [[1, 2, 3, 4], [4, 3, 2, 1]], feature_names=UNHASHABLE_NAMES
            ),
            "feature_names",
        ),
        (
            lambda: propstab.similarity_from_groups([[["a"]]], None, feature_names=list("abcd")),
            "groups",
        ),
        (
            lambda: propstab.similarity_from_groups(
                [["a"]], None, feature_names=[("a", ["x"]), "b"]
            ),
            "feature_names",
        ),
        (
            lambda: propstab.similarity_from_groups(
                {"a": ["x"]}, None, feature_names=list("abcd")
            ),
            "groups",
        ),
    ],
    ids=lambda x: "" if callable(x) else x,
)
def test_unhashable_feature_names_raise_naming_the_rule(call, argument):
    """No raw ``unhashable type`` TypeError: the argument and the rule are named."""
    outcome = check_call(call, {}, entry=argument, argument=argument, must_raise=True)
    assert isinstance(outcome.error, TypeError)
    assert "unhashable type" not in outcome.message, outcome.message
    assert "hashable" in outcome.message, outcome.message


def _is_similarity(C, d):
    """d x d, symmetric, entries in [0, 1], unit diagonal (the definition, Sechidis et
    al. 2019 Def. 1), checked on the dense form."""
    A = C.toarray() if sparse.issparse(C) else np.asarray(C)
    return (
        A.shape == (d, d)
        and np.allclose(A, A.T)
        and np.all((A >= 0) & (A <= 1))
        and np.array_equal(np.diag(A), np.ones(d))
    )


@FUZZ
@given(n=st.integers(2, 8), d=st.integers(1, 6), data=st.data())
def test_similarity_from_data_is_a_similarity_even_with_constant_columns(n, d, data):
    X = np.array(
        data.draw(
            st.lists(
                st.lists(st.sampled_from([0.0, 1.0, 2.5, -1.0]), min_size=d, max_size=d),
                min_size=n,
                max_size=n,
            )
        )
    )
    constant = data.draw(st.lists(st.integers(0, d - 1), max_size=d))
    X[:, constant] = 3.0
    options = data.draw(
        st.sampled_from(
            [
                {},
                {"threshold": 0.5},
                {"threshold": 0.0},
                {"sparse": True},
                {"sparse": False, "threshold": 0.3},
                {"method": "spearman", "threshold": 0.5},
            ]
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the constant-column warning
        C = propstab.similarity_from_data(X, **options)
    assert _is_similarity(C, d), (X.tolist(), options)
    from propstab._data.convert_matrices import as_similarity

    as_similarity(C, d)  # the measures accept it as one


def test_similarity_from_data_refuses_no_column():
    for X in (np.zeros((3, 0)), pd.DataFrame(index=range(3))):
        outcome = check_call(
            lambda: propstab.similarity_from_data(X), {}, entry="X", argument="X", must_raise=True
        )
        assert "column" in outcome.message


def test_similarity_from_groups_reads_a_mapping_as_feature_to_group():
    """A mapping is ``{feature: group label}`` (docstring): the same matrix as the list of
    groups it describes, for a dict and a pandas Series; ``{group: features}`` and a
    mapping as a group are refused, naming groups."""
    names = list("abcde")
    as_list = propstab.similarity_from_groups(
        [["a", "c"], ["b", "d"]], None, feature_names=names
    ).toarray()
    for mapping in (
        {"a": 1, "b": 2, "c": 1, "d": 2},
        pd.Series({"a": "x", "b": "y", "c": "x", "d": "y"}),
    ):
        got = propstab.similarity_from_groups(mapping, None, feature_names=names).toarray()
        assert np.array_equal(got, as_list)
    by_index = propstab.similarity_from_groups({0: "g", 2: "g"}, 3).toarray()
    assert np.array_equal(by_index, propstab.similarity_from_groups([[0, 2]], 3).toarray())
    for call in (
        lambda: propstab.similarity_from_groups({"g": ["a", "c"]}, None, feature_names=names),
        lambda: propstab.similarity_from_groups([{"a": 1, "c": 2}], None, feature_names=names),
    ):
        outcome = check_call(call, {}, entry="groups", argument="groups", must_raise=True)
        assert "mapping" in outcome.message


def test_null_value_checks_do_not_depend_on_the_order_of_the_runs():
    """one_sample_test's check of phi0 against the measure's declared range (bounds that
    depend on M, d and the sizes: krizek's log2(min(M, C(d, k)))) gives the same answer
    for every order of the runs."""
    rng = np.random.default_rng(21)
    Z = [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1], [1, 0, 0, 1]]
    checked = 0
    for info in propstab.list_measures():
        lower, upper = info.bounds
        if all(b is None or b.is_constant for b in (lower, upper)) or info.input != "selection":
            continue
        for phi0 in np.linspace(-4.0, 4.0, 33):
            raised = set()
            for _ in range(6):
                order = rng.permutation(len(Z))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        propstab.one_sample_test(
                            [Z[i] for i in order], float(phi0), measure=info.name
                        )
                        raised.add(False)
                    except ValueError as exc:
                        assert "phi0" in str(exc)
                        raised.add(True)
            assert len(raised) == 1, (info.name, phi0)
            checked += 1
    assert checked >= 33
