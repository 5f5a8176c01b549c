"""The Python half of the R package (propstab.r._frontend), without R.

The R package's own testthat suite (rpackage/tests/testthat, run by ``make test``)
checks the values against stabm; here: the translation generated from the registry,
the conversion of R input, stabm's impute.na against a slow literal twin, the intervals,
the orientation of the two-sample test and the error/warning records R turns into
conditions.
"""
import itertools
import math
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py: processes under a timeout

import propstab
from propstab import UndefinedMeasureWarning, as_selection, list_measures
from propstab.r import _frontend as fe


# ---------------------------------------------------------------- registry -> stabm table


def test_stabm_table_is_generated_from_every_stabm_reference():
    refs = {
        m.r_reference.function: m
        for m in list_measures()
        if m.r_reference is not None and m.r_reference.package == "stabm"
    }
    table = fe.stabm_functions()
    assert set(table) == set(refs)
    for name, spec in table.items():
        info = refs[name]
        assert spec.measure == info.name
        assert {option: r for r, option in spec.arguments.items()} == dict(
            info.r_reference.arguments
        )
        assert spec.similarity == ("similarity" in info.parameter_names)


def test_r_options_are_translated_through_the_registry():
    yu = propstab.get_measure("yu")
    assert fe._options_from_r(
        yu, {"correction.for.chance": "estimate", "N": 1e4, "threshold": 0.5}
    ) == {"correction_for_chance": "estimate", "n_simulations": 10000, "threshold": 0.5}
    assert isinstance(fe._options_from_r(yu, {"N": 100.0})["n_simulations"], int)
    sechidis = propstab.get_measure("sechidis")  # R's threshold 0 is "none"
    assert fe._options_from_r(sechidis, {"threshold": 0.0}) == {"threshold": None}
    davis = propstab.get_measure("davis")  # no r name: dots -> underscores
    assert fe._options_from_r(davis, {"correction_for_chance": "exact", "penalty": None}) == {
        "correction_for_chance": "exact"
    }


# ---------------------------------------------------------------- R input


def test_runs_selection_equals_the_index_lists():
    rng = np.random.default_rng(0)
    for _ in range(20):
        d = int(rng.integers(1, 12))
        runs = [
            sorted(rng.choice(d, size=int(rng.integers(0, d + 1)), replace=False))
            for _ in range(int(rng.integers(2, 7)))
        ]
        sizes = [len(r) for r in runs]
        flat = [i + 1 for r in runs for i in r]
        got = fe.runs_selection(sizes, flat, d).toarray()
        want = as_selection(runs, n_features=d).toarray()
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "sizes, flat, d, message",
    [
        ([1, 1], [1, 2.5], 3, "features: run 2 contains 2.5"),
        ([2, 1], [1, 0, 2], 3, "features: run 1 contains the feature index 0"),
        ([1, 2], [1, 2], 3, "add up to the 2 listed indices"),
        ([1], [1], 3, "at least 2 runs"),
    ],
)
def test_runs_selection_rejects_bad_input(sizes, flat, d, message):
    with pytest.raises(ValueError, match=message):
        fe.runs_selection(sizes, flat, d)


# ---------------------------------------------------------------- stabm's functions


def test_estimate_is_exact_where_propstab_has_no_simulation():
    args = ("stabilityJaccard", [2, 2, 3], [1, 2, 1, 3, 2, 3, 4])
    exact = fe.stabm_value(*args, p=5, options={"correction.for.chance": "exact"})
    estimate = fe.stabm_value(*args, p=5, options={"correction.for.chance": "estimate", "N": 10.0})
    assert (
        estimate
        == exact
        == propstab.stability(
            [[0, 1], [0, 2], [1, 2, 3]],
            n_features=5,
            measure="jaccard",
            correction_for_chance="exact",
        )
    )


def test_estimate_is_seeded_where_propstab_simulates():
    C = np.eye(6)
    C[0, 1] = C[1, 0] = 0.95
    call = dict(
        sim_mat=C, options={"correction.for.chance": "estimate", "N": 500.0, "threshold": 0.9}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = fe.stabm_value("stabilityYu", [2, 2], [1, 3, 2, 4], random_state=1, **call)
        b = fe.stabm_value("stabilityYu", [2, 2], [1, 3, 2, 4], random_state=1, **call)
        c = fe.stabm_value("stabilityYu", [2, 2], [1, 3, 2, 4], random_state=2, **call)
    assert a == b != c


def test_errors_name_the_r_arguments():
    with pytest.raises(
        ValueError,
        match=r"^correction\.for\.chance: stabilityIntersectionMean "
        r"in propstab takes 'none' or 'exact' or 'estimate'",
    ):
        fe.stabm_value(
            "stabilityIntersectionMean",
            [1, 1],
            [1, 2],
            sim_mat=np.eye(2),
            options={"correction.for.chance": "approximate"},
        )
    assert (
        fe.stabm_value(
            "stabilityIntersectionMean",
            [1, 1],
            [1, 2],
            sim_mat=np.eye(2),
            options={"correction.for.chance": "exact"},
        )
        == -1.0
    )
    with pytest.raises(ValueError, match=r"^sim\.mat: "):
        fe.stabm_value("stabilityZucknick", [1, 1], [1, 2], sim_mat=np.full((2, 2), 0.5))
    with pytest.raises(ValueError, match=r"^p: stabilityNogueira needs the number"):
        fe.stabm_value("stabilityNogueira", [1, 1], [1, 2])
    with pytest.raises(ValueError, match=r"^p: the number of features is needed to correct"):
        fe.stabm_value("stabilityDice", [1, 1], [1, 2], options={"correction.for.chance": "exact"})
    with pytest.raises(TypeError, match=r"^penalty: stabilityJaccard has no such argument"):
        fe.stabm_value("stabilityJaccard", [1, 1], [1, 2], options={"penalty": 1.0})
    with pytest.raises(ValueError, match="not a stabm function"):
        fe.stabm_value("stabilityKuncheva", [1, 1], [1, 2], p=3)


def test_p_is_optional_only_where_the_value_ignores_d():
    for fun in ("stabilityJaccard", "stabilityDice", "stabilityOchiai", "stabilityNovovicova"):
        without = fe.stabm_value(fun, [2, 2, 1], [1, 2, 2, 3, 1])
        assert without == fe.stabm_value(fun, [2, 2, 1], [1, 2, 2, 3, 1], p=40)


def _jaccard_pair(a, b):
    return math.nan if not a and not b else len(a & b) / len(a | b)


def _expected_jaccard(ka, kb, d):
    """E[Jaccard] of two uniformly random subsets of sizes ka, kb of d features, by
    enumerating every pair (the slow twin of the hypergeometric expectation)."""
    subsets_a = list(itertools.combinations(range(d), ka))
    subsets_b = list(itertools.combinations(range(d), kb))
    values = [_jaccard_pair(set(a), set(b)) for a in subsets_a for b in subsets_b]
    return math.nan if any(math.isnan(v) for v in values) else float(np.mean(values))


def _stabm_imputed_jaccard(runs, d, impute, corrected):
    """stabm's impute.na, literally: score every unordered pair, correct it, replace NA."""
    scores = []
    for a, b in itertools.combinations([set(r) for r in runs], 2):
        s = _jaccard_pair(a, b)
        if corrected and not math.isnan(s):
            E = _expected_jaccard(len(a), len(b), d)
            s = math.nan if E == 1 else (s - E) / (1 - E)
        scores.append(impute if math.isnan(s) else s)
    return float(np.mean(scores))


@pytest.mark.parametrize("corrected", [False, True])
def test_impute_na_is_stabms_per_pair_imputation(corrected):
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(25):
        d = int(rng.integers(2, 6))
        runs = [
            sorted(rng.choice(d, size=int(rng.choice([0, 0, 1, 2, d])), replace=False))
            for _ in range(int(rng.integers(2, 5)))
        ]
        sizes = [len(r) for r in runs]
        flat = [i + 1 for r in runs for i in r]
        options = {"correction.for.chance": "exact" if corrected else "none"}
        got = fe.stabm_value(
            "stabilityJaccard", sizes, flat, p=d, impute_na=-0.25, options=options
        )
        want = _stabm_imputed_jaccard(runs, d, -0.25, corrected)
        assert got == pytest.approx(want, abs=1e-12), (runs, d)
        checked += any(len(r) == 0 for r in runs)
    assert checked > 5  # undefined pairs were exercised


def _zucknick_pair(a, b, S):
    """Zucknick's score of two sets as stabm defines it (NaN for two empty sets), from
    its formula: (|a & b| + C(a, b) + C(b, a)) / |a | b|, C(x, y) the summed similarity
    of y - x to x over |x|."""
    union = a | b
    if not union:
        return math.nan
    c_ab = sum(S[x, y] for x in b - a for y in a) / len(a) if b - a and a else 0.0
    c_ba = sum(S[x, y] for x in a - b for y in b) / len(b) if a - b and b else 0.0
    return (len(a & b) + c_ab + c_ba) / len(union)


ADJUSTED = [
    "stabilityYu",
    "stabilityZucknick",
    "stabilityIntersectionCount",
    "stabilityIntersectionMean",
    "stabilityIntersectionGreedy",
    "stabilityIntersectionMBM",
]


@pytest.mark.parametrize("fun", ADJUSTED)
@pytest.mark.parametrize("correction", ["none", "exact"])
def test_impute_na_of_the_adjusted_measures_is_per_pair(fun, correction):
    """stabm imputes each undefined pair score of Yu, Zucknick and the adjusted
    intersections before the mean: the value is the mean over the pairs of the measure
    of the two runs alone (the pair score), impute.na where that is undefined."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(12):
        d = int(rng.integers(3, 6))
        S = np.eye(d)
        S[0, 1] = S[1, 0] = 0.95
        runs = [
            sorted(rng.choice(d, size=int(rng.choice([0, 0, 1, 2])), replace=False))
            for _ in range(int(rng.integers(3, 6)))
        ]
        flat = [i + 1 for r in runs for i in r]
        options = {"correction.for.chance": correction, "threshold": 0.9}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = fe.stabm_value(
                fun, [len(r) for r in runs], flat, sim_mat=S, impute_na=0.3, options=options
            )
            scores = []
            for a, b in itertools.combinations(runs, 2):
                s = fe.stabm_value(
                    fun,
                    [len(a), len(b)],
                    [i + 1 for i in list(a) + list(b)],
                    sim_mat=S,
                    options=options,
                )
                scores.append(0.3 if math.isnan(s) else s)
        assert got == pytest.approx(float(np.mean(scores)), abs=1e-12), (runs, d)
        checked += 0.3 in scores
    if correction == "exact" or "Intersection" not in fun:  # (uncorrected: all defined)
        assert checked >= 3  # undefined pairs were exercised


def test_impute_na_of_zucknick_against_its_formula():
    """The case of stabm's issue: two empty runs among others; stabm gives 0.233 for
    list(integer(0), integer(0), 1:2), sim.mat = diag(3), impute.na = 0.7."""
    assert fe.stabm_value(
        "stabilityZucknick", [0, 0, 2], [1, 2], sim_mat=np.eye(3), impute_na=0.7
    ) == pytest.approx(0.7 / 3, abs=1e-15)
    rng = np.random.default_rng(11)
    d = 12
    S = np.eye(d)
    S[2, 3] = S[3, 2] = S[5, 9] = S[9, 5] = 0.93
    runs = [set(rng.choice(d, size=4, replace=False).tolist()) for _ in range(28)]
    runs += [set(), set()]
    flat = [i + 1 for r in runs for i in sorted(r)]
    want = np.mean(
        [
            0.0 if math.isnan(s) else s
            for s in (_zucknick_pair(a, b, S) for a, b in itertools.combinations(runs, 2))
        ]
    )
    got = fe.stabm_value(
        "stabilityZucknick", [len(r) for r in runs], flat, sim_mat=S, impute_na=0.0
    )
    assert got == pytest.approx(want, abs=1e-12)
    assert got > 0.1  # (the value, not impute.na: was 0 before)


def test_impute_na_replaces_an_undefined_global_value():
    assert fe.stabm_value("stabilityNogueira", [0, 0], [], p=3, impute_na=0.5) == 0.5
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(fe.stabm_value("stabilityNogueira", [0, 0], [], p=3))


# ---------------------------------------------------------------- inference


def test_two_sided_interval_is_the_estimates_own():
    Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    est = propstab.estimate(Z)
    for level in (0.5, 0.9, 0.95, 0.99):
        assert fe.interval(est.statistic, est.variance, level, bounds=est.range) == pytest.approx(
            tuple(est.confidence_interval(level, method="wald")), abs=1e-14
        )


def test_one_sided_intervals_follow_the_alternative():
    from scipy import stats

    low, high = fe.interval(0.5, 0.04, 0.9, "greater")
    assert (low, high) == (pytest.approx(0.5 - stats.norm.ppf(0.9) * 0.2), math.inf)
    low, high = fe.interval(0.5, 0.04, 0.9, "less")
    assert (low, high) == (-math.inf, pytest.approx(0.5 + stats.norm.ppf(0.9) * 0.2))
    with pytest.raises(ValueError, match="alternative"):
        fe.interval(0.5, 0.04, 0.9, "two-sided")  # R's spelling only


def test_two_sample_difference_is_x_minus_y():
    x = ([2] * 5, [1, 2] * 4 + [1, 3])
    y = ([2] * 5, [1, 2, 1, 3, 2, 3, 1, 2, 1, 4])
    res = fe.two_sample("nogueira", x, y, 4, alternative="greater")
    sx = fe.estimate_fields("nogueira", *x, 4)["statistic"]
    sy = fe.estimate_fields("nogueira", *y, 4)["statistic"]
    assert res["difference"] == pytest.approx(sx - sy) and sx > sy
    assert res["statistic"] > 0 and res["pvalue"] < 0.5
    assert [e["statistic"] for e in res["estimates"]] == [sx, sy]
    with pytest.raises(ValueError, match=r"^x, y: a paired comparison needs the same M"):
        fe.two_sample("nogueira", x, ([2] * 4, y[1][:8]), 4, paired=True)


@pytest.mark.parametrize("test", ["auto", "permutation", "wald"])
@pytest.mark.parametrize("paired", [False, True])
@pytest.mark.parametrize("alternative", ["two.sided", "greater", "less"])
def test_two_sample_agrees_with_python_in_sign_and_pvalue(alternative, paired, test):
    # the R package's stability_test(x, y) and Python's two_sample_test(x, y): one direction
    x = ([2] * 6, [1, 2, 1, 2, 1, 2, 1, 2, 1, 3, 1, 2])
    y = ([2] * 6, [1, 2, 1, 3, 2, 3, 1, 2, 1, 4, 3, 4])
    res = fe.two_sample("nogueira", x, y, 4, alternative=alternative, paired=paired, test=test)
    py = propstab.two_sample_test(
        fe.runs_selection(*x, 4),
        fe.runs_selection(*y, 4),
        alternative=alternative.replace(".", "-"),
        paired=paired,
        test=test,
    )
    assert res["statistic"] > 0 and res["difference"] > 0  # x is more stable
    assert (res["statistic"], res["pvalue"], res["difference"]) == (
        py.statistic,
        py.pvalue,
        py.difference,
    )
    assert res["test"] == py.test == ("wald" if test == "wald" else "permutation")


# ---------------------------------------------------------------- audit, tables, invoke


def test_audit_function_reports_a_failing_probe_and_audits_otherwise():
    def broken(Z):
        raise RuntimeError("no luck")

    with pytest.raises(
        ValueError,
        match=r"^fun: broken failed on the selection matrix "
        r"\[\[1, 1, 0\], \[1, 0, 1\]\]: no luck",
    ):
        fe.audit_function(broken, "broken")
    with pytest.raises(TypeError, match="must return one number"):
        fe.audit_function(lambda Z: "high", "words")
    out = fe.audit_function(
        lambda Z: float(Z.mean()),
        "coverage",
        claims="maximum",
        upper=1,
        max_examples=20,
        axioms="maximum",
    )
    assert [(r["axiom"], r["claimed"], r["status"]) for r in out["rows"]] == [
        ("maximum", True, "violated")
    ]
    assert "coverage" in out["text"]


def test_measures_table_has_one_row_per_measure():
    table = fe.measures_table()
    names = [m.name for m in list_measures()]
    assert table["name"] == names
    assert all(len(column) == len(names) for column in table.values())
    assert table["stabm"][names.index("kuncheva")] == ""


def test_differences_of_a_case():
    assert [d["key"] for d in fe.differences("stabilitySomol", [1, 2], [1, 1, 2], p=2)] == [
        "nan_not_na",
        "somol_equal_extremes",
    ]
    from propstab.r._interface import INTERFACE_DIFFERENCES

    assert len(fe.differences()) == (
        len(propstab.r.EXPECTED_DIFFERENCES) + len(INTERFACE_DIFFERENCES)
    )
    with pytest.raises(ValueError, match="fun: the stabm function is needed"):
        fe.differences(None, [1, 1], [1, 2])


def test_invoke_returns_errors_and_warnings_as_data():
    out = fe.invoke(
        "measure_value", {"measure": "nogueira", "sizes": [0, 0], "indices": [], "n_features": 3}
    )
    assert math.isnan(out["value"]) and out["error"] is None
    assert out["warnings"] == [
        {
            "class": "UndefinedMeasureWarning",
            "message": "nogueira is undefined here: the mean subset size "
            "is 0 or d; returning NA",
        }
    ]
    out = fe.invoke(
        "measure_value",
        {"measure": "nogueira", "sizes": [1, 1], "indices": [1, 2], "n_features": 0},
    )
    assert out["error"]["class"] == "ValueError"
    assert out["error"]["message"].startswith("p: ")  # n_features, in R's name
    assert "Traceback" in out["error"]["traceback"]
    out = fe.invoke("no_such_entry", {})
    assert out["error"]["message"].startswith("entry: 'no_such_entry' is not an entry point")


# ---------------------------------------------------------------- degenerate variances


def test_r_front_end_warns_for_a_degenerate_variance_and_gives_no_p_value():
    """stability_test on 2 runs of different sizes gave p = 4e-34 from Thm 6's
    variance (which depends on k1 - k2 only), with no warning; the 5/5 split of two sets
    gave SE 0. The warning reaches R through invoke, by its class name."""
    out = fe.invoke(
        "one_sample",
        {
            "measure": "nogueira",
            "sizes": [5, 3],
            "indices": [1, 2, 3, 5, 7, 3, 5, 7],
            "n_features": 7,
            "phi0": 0.0,
        },
    )
    assert out["error"] is None
    classes = [w["class"] for w in out["warnings"]]
    assert [c for c in classes if c != "SmallSampleWarning"] == ["DegenerateVarianceWarning"]
    degenerate = out["warnings"][classes.index("DegenerateVarianceWarning")]
    assert "2 runs" in degenerate["message"]
    value = out["value"]
    assert math.isnan(value["pvalue"]) and math.isnan(value["estimate"]["variance"])
    assert all(math.isnan(x) for x in value["conf_int"])
    out = fe.invoke(
        "estimate_fields",
        {
            "measure": "nogueira",
            "sizes": [3] * 10,
            "indices": [1, 2, 3, 1, 2, 4] * 5,
            "n_features": 6,
        },
    )
    assert [w["class"] for w in out["warnings"]] == ["DegenerateVarianceWarning"]
    fields = out["value"]
    assert fields["method"] == "bootstrap" and fields["variance"] > 0
    assert "although the runs differ" in fields["variance_note"]
    with pytest.warns(propstab.inference.DegenerateVarianceWarning):
        est = propstab.estimate([[1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0]] * 5)
    assert fields["variance"] == est.variance  # the one implementation
    assert fe.interval(
        fields["statistic"], fields["variance"], 0.95, bounds=fields["range"]
    ) == tuple(est.confidence_interval(method="wald"))


def test_r_interval_is_pythons_wald_interval():
    """The R front end's interval is propstab's own: NaN variance, NaN ends; zero
    variance, the point with propstab's ZeroVarianceWarning; clipped to the bounds."""
    from propstab.inference import ZeroVarianceWarning

    assert all(math.isnan(x) for x in fe.interval(0.5, float("nan")))
    with pytest.warns(ZeroVarianceWarning, match="the interval or test is degenerate"):
        assert fe.interval(0.5, 0.0) == (0.5, 0.5)
    assert fe.interval(0.9, 0.04, bounds=(-1.0, 1.0))[1] == 1.0


# ------------------------------------------- one interval for Python and R

NINE_ONE = [[1, 1, 0, 0, 0, 0]] * 9 + [[0, 0, 1, 1, 0, 0]]  # d = 6
NINE_ONE_R = ([2] * 10, [1, 2] * 9 + [3, 4])


@pytest.mark.parametrize("method", ["auto", "wald", "logit", "bootstrap", "bca"])
def test_r_confint_is_the_python_interval_for_every_method(method):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = tuple(propstab.estimate(NINE_ONE).confidence_interval(0.9, method=method))
        out = fe.estimate_interval(
            "nogueira", *NINE_ONE_R, 6, interval_method=method, confidence_level=0.9
        )
    assert tuple(out["conf_int"]) == expected
    assert -1.0 <= expected[0] <= expected[1] <= 1.0


def test_r_one_sample_interval_is_clipped_as_in_python():
    """9 runs selecting {0, 1} and one {2, 3}, d = 6, phi0 = 0.2: Python's
    one_sample_test gave (0.2537, 1.0), the old R front end (0.2537, 1.146)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for test in ("wald", "logit", "auto"):
            py = propstab.one_sample_test(NINE_ONE, 0.2, alternative="two-sided", test=test)
            r = fe.one_sample("nogueira", *NINE_ONE_R, 6, phi0=0.2, test=test)
            assert tuple(r["conf_int"]) == tuple(py.confidence_interval(0.95))
            assert r["statistic"] == py.statistic and r["test"] == py.test
        wald = fe.one_sample("nogueira", *NINE_ONE_R, 6, phi0=0.2, test="wald")
    assert [round(x, 4) for x in wald["conf_int"]] == [0.2537, 1.0]


def _rscript(code: str) -> str:
    import os
    import shutil

    if os.environ.get("PROPSTAB_SKIP_R") == "1" or shutil.which("Rscript") is None:
        pytest.skip("R not available (PROPSTAB_SKIP_R=1 or no Rscript)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = shared.run(
        [
            "Rscript",
            "-e",
            "suppressMessages(pkgload::load_all(" f"'{root}/rpackage', quiet = TRUE)); {code}",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_the_r_package_gives_pythons_intervals():
    """The R package itself (confint and stability_test's conf.int) against Python. The
    bootstrap intervals with the same seed on both sides (without one, R's draws its seed
    from R's random numbers, so that set.seed() reproduces it)."""
    out = _rscript(
        "f <- c(rep(list(c(1, 2)), 9), list(c(3, 4))); "
        "e <- stability_estimate(f, p = 6); "
        "for (m in c('auto', 'wald', 'logit', 'bootstrap', 'bca')) "
        "cat(m, sprintf('%.17g', suppressWarnings(confint(e, level = 0.9, method = m, "
        "seed = 0L))), "
        "'\\n'); "
        "t <- suppressWarnings(stability_test(f, phi0 = 0.2, p = 6, test = 'wald')); "
        "cat('test', sprintf('%.17g', t$conf.int), '\\n'); "
        "cat('labels', colnames(suppressWarnings(confint(e, level = 0.999))), '\\n')"
    )
    lines = {line.split()[0]: line.split()[1:] for line in out.strip().splitlines()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = propstab.estimate(NINE_ONE)
        for method in ("auto", "wald", "logit", "bootstrap", "bca"):
            expected = est.confidence_interval(0.9, method=method, random_state=0)
            assert [float(x) for x in lines[method]] == pytest.approx(
                list(expected), abs=1e-15
            ), method
        py = propstab.one_sample_test(NINE_ONE, 0.2, alternative="two-sided", test="wald")
    assert [float(x) for x in lines["test"]] == pytest.approx(
        list(py.confidence_interval(0.95)), abs=1e-15
    )
    assert float(lines["test"][1]) == 1.0  # was 1.146 before
    assert lines["labels"] == ["0.05", "%", "99.95", "%"]


def test_interface_differences_of_a_case():
    """impute.na and "estimate" are listed for the calls they concern only."""
    keys = lambda *a, **k: [d["key"] for d in fe.differences(*a, **k)]  # noqa: E731
    S = np.eye(3)
    # impute.na follows stabm (per pair) for every function: no difference to list
    assert keys("stabilityZucknick", [0, 0, 2], [1, 2], sim_mat=S, options={"impute.na": 0}) == []
    assert "estimate_by_simulation" in keys("stabilityYu", [1, 1], [1, 2], sim_mat=S)
    assert "estimate_by_simulation" not in keys(
        "stabilityYu", [1, 1], [1, 2], sim_mat=S, options={"correction.for.chance": "none"}
    )
    assert keys("listStabilityMeasures") == ["list_measures_rows"]
    assert "undefined_warns" in keys("stabilityJaccard")


def test_ranking_measures_from_r():
    """The ranking family on a rank matrix: propstab.stability's value, messages in R."""
    from propstab.r._rankings import ranking_value

    R = np.array([[1, 2, 3, 4], [2, 1, 3, 4], [1, 3, 2, 4]], dtype=float)
    for measure in ["spearman", "kendall"]:
        assert ranking_value(measure, R) == propstab.stability(R, measure)
    assert ranking_value("top_k", R, options={"k": 2.0}) == propstab.stability(R, "top_k", k=2)
    out = fe.invoke("ranking_value", {"measure": "nogueira", "ranks": R})
    assert out["error"]["message"].startswith("measure: 'nogueira' reads feature sets")


def test_the_r_front_end_imports_only_what_a_first_call_needs():
    """The first call of every R session imports propstab.r._frontend: it loads neither
    the R bridge's rpy2 side nor the cross-check's case generators (hypothesis) nor
    scipy.stats (0.4 s; imported by the functions that use it), and a simple measure
    computes without them."""
    import os
    import sys

    code = (
        "import sys, propstab.r._frontend as fe; "
        "v = fe.stabm_value('stabilityJaccard', [2, 2], [1, 2, 2, 3]); "
        "print(v, [m for m in ('scipy.stats', 'hypothesis', 'rpy2', 'pandas', "
        "'propstab.r._crosscheck', 'propstab.r._call') if m in sys.modules])"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(
                None,
                [
                    str(__import__("pathlib").Path(__file__).resolve().parent.parent),
                    os.environ.get("PYTHONPATH"),
                ],
            )
        ),
    }
    out = shared.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.3333333333333333", "[]"], out.stdout


def test_r_na_ranks_give_no_numpy_warning():
    """R's NA is a signalling NaN (payload 1954): the ranking measures read it as a
    missing rank without numpy's "invalid value encountered" RuntimeWarning."""
    r_na = np.array([0x7FF00000000007A2], dtype=np.uint64).view(np.float64)[0]
    R = np.array([[1, 2, 3, 4], [2, 1, 3, 4], [1, 3, 2, 0]], dtype=np.float64)
    R[2, 3] = r_na
    R = np.asfortranarray(R)  # as reticulate passes an R matrix
    for measure in ["spearman", "kendall", "canberra"]:
        out = fe.invoke("ranking_value", {"measure": measure, "ranks": R})
        assert out["error"] is None and out["warnings"] == [], (measure, out)
        assert math.isfinite(out["value"])
    assert np.isnan(R[2, 3])  # the caller's matrix is not changed
    assert R.view(np.uint64)[2, 3] == 0x7FF00000000007A2
