"""Two-sample tests: scipy's and R's direction, and permutation tests whose
level holds at small M.

Expectations from outside the code under test: scipy's ``ttest_ind``/``ttest_rel`` on a
per-run proxy of stability (the direction), ``scipy.stats.permutation_test`` (exact
p-values), a slow literal twin enumerating the rearrangements with itertools and calling
the measure on each pair of matrices, and seeded runs compared with each other.
"""
from __future__ import annotations

import functools
import itertools
import json
import math
import os
import warnings

import numpy as np
import pytest
from scipy import stats

import propstab
from propstab import two_sample_test
from propstab.inference import PERMUTATION_BELOW, chosen_test

ALTERNATIVES = ("two-sided", "greater", "less")


def bernoulli_runs(seed, M, p):
    return np.random.default_rng(seed).random((M, len(p))) < np.asarray(p)


# a very stable procedure (5 features nearly always, the rest nearly never) and an
# unstable one (every feature at 0.3), d = 20
P_HIGH = [0.95] * 5 + [0.02] * 15
P_LOW = [0.3] * 20


def per_run_agreement(Z):
    """A proxy of stability computed without propstab: each run's mean Jaccard index
    with the other runs of its sample."""
    Z = np.asarray(Z, dtype=float)
    inter = Z @ Z.T
    union = Z.sum(1)[:, None] + Z.sum(1)[None, :] - inter
    J = np.where(union > 0, inter / np.where(union > 0, union, 1), 1.0)
    np.fill_diagonal(J, np.nan)
    return np.nanmean(J, axis=1)


# ---------------------------------------------------------------- direction (scenario 2)


@pytest.mark.parametrize("test", ["wald", "permutation"])
@pytest.mark.parametrize("paired", [False, True])
def test_greater_means_the_first_is_more_stable_as_in_scipy_and_r(paired, test):
    high, low = bernoulli_runs(1, 12, P_HIGH), bernoulli_runs(2, 12, P_LOW)
    # the sign scipy gives on a proxy of stability decides the expected sign
    proxy = (stats.ttest_rel if paired else stats.ttest_ind)(
        per_run_agreement(high), per_run_agreement(low)
    )
    assert proxy.statistic > 0
    res = two_sample_test(high, low, paired=paired, test=test)
    assert np.sign(res.statistic) == np.sign(proxy.statistic)
    assert np.sign(res.difference) == np.sign(proxy.statistic)
    assert (
        two_sample_test(high, low, paired=paired, test=test, alternative="greater").pvalue < 0.05
    )
    assert two_sample_test(low, high, paired=paired, test=test, alternative="greater").pvalue > 0.5
    assert two_sample_test(high, low, paired=paired, test=test, alternative="less").pvalue > 0.5


@pytest.mark.parametrize("test", ["wald", "permutation"])
@pytest.mark.parametrize("paired", [False, True])
def test_greater_with_the_arguments_swapped_is_less(paired, test):
    A, B = bernoulli_runs(3, 8, P_HIGH), bernoulli_runs(4, 8, [0.6] * 5 + [0.1] * 15)
    for measure in ("nogueira", "jaccard"):
        g = two_sample_test(A, B, paired=paired, test=test, alternative="greater", measure=measure)
        s = two_sample_test(B, A, paired=paired, test=test, alternative="less", measure=measure)
        assert g.pvalue == pytest.approx(s.pvalue, rel=1e-12)
        assert g.statistic == pytest.approx(-s.statistic, rel=1e-12)
        assert g.difference == pytest.approx(-s.difference, rel=1e-12)


def test_the_one_sided_interval_follows_the_alternative():
    high, low = bernoulli_runs(1, 120, P_HIGH), bernoulli_runs(2, 120, P_LOW)
    res = two_sample_test(high, low, alternative="greater")
    assert res.test == "wald"
    low_end, high_end = res.confidence_interval(0.95)
    z = stats.norm.ppf(0.95)
    assert high_end == 2.0  # [low, the range's top]
    assert low_end == pytest.approx(res.difference - z * math.sqrt(res.variance))
    assert low_end > 0  # excludes 0: p < 0.05
    low_end, high_end = two_sample_test(high, low, alternative="less").confidence_interval()
    assert low_end == -2.0 and high_end == pytest.approx(
        res.difference + z * math.sqrt(res.variance)
    )


def test_summary_says_which_is_first_and_relates_the_thesis_sign():
    high, low = bernoulli_runs(1, 6, P_HIGH), bernoulli_runs(2, 6, P_LOW)
    text = str(two_sample_test(high, low, alternative="greater", test="wald"))
    assert "H1: Phi_1 > Phi_2" in text and "(Phi_1 - Phi_2, SE" in text
    res = two_sample_test(high, low, test="wald")
    assert f"thesis T_M = {-res.statistic:.4f}" in text
    # the permutation test divides by the jackknife SE: not the thesis's T_M
    assert "T_M" not in str(two_sample_test(high, low, alternative="greater"))


# ---------------------------------------------------------------- permutation tests


def literal_permutation_pvalue(Z1, Z2, measure, paired, alternative):
    """Slow twin: every rearrangement enumerated by itertools, the measure called on
    each pair of matrices and on each with one run deleted (the jackknife standard error
    of the difference, literally), the p-value of the studentized difference counted over
    the defined rearrangements (scipy's definition for an exact test: the observed
    arrangement among the rearrangements)."""
    Z1, Z2 = np.asarray(Z1), np.asarray(Z2)
    observed, values = _literal_null_law(
        Z1.tobytes(), Z2.tobytes(), Z1.shape, Z2.shape, str(Z1.dtype), measure, paired
    )
    tol = 1e-9
    values = [v for v in values if not math.isnan(v)]
    n = len(values)
    greater = sum(v >= observed - tol for v in values) / n
    less = sum(v <= observed + tol for v in values) / n
    return {"greater": greater, "less": less, "two-sided": min(1.0, 2 * min(greater, less))}[
        alternative
    ], n


def literal_jackknife(terms):
    """(m - 1) / m times the sum of squared deviations, 0 when the terms are equal."""
    m = len(terms)
    if any(math.isnan(t) for t in terms):
        return math.nan
    if all(t == terms[0] for t in terms):
        return 0.0
    mean = sum(terms) / m
    return (m - 1) / m * sum((t - mean) ** 2 for t in terms)


@functools.lru_cache(maxsize=None)
def _literal_null_law(b1, b2, shape1, shape2, dtype, measure, paired):
    """The observed studentized difference and its every rearrangement's (NaN where
    undefined), once per pair of samples: the three alternatives count the same law (as
    scipy does), and each sample of rows is scored once even where it is met again."""
    Z1 = np.frombuffer(b1, dtype=dtype).reshape(shape1)
    Z2 = np.frombuffer(b2, dtype=dtype).reshape(shape2)
    scored = {}

    def stability(rows):
        key = rows.tobytes() + bytes(str(rows.shape), "ascii")
        if key not in scored:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                scored[key] = propstab.stability(rows, measure)
        return scored[key]

    def studentized(A, B):
        d = stability(A) - stability(B)
        la = [stability(np.delete(A, i, axis=0)) for i in range(len(A))]
        lb = [stability(np.delete(B, i, axis=0)) for i in range(len(B))]
        v = (
            literal_jackknife([a - b for a, b in zip(la, lb)])
            if paired
            else literal_jackknife(la) + literal_jackknife(lb)
        )
        if math.isnan(v) or math.isnan(d):
            return math.nan
        if v == 0:
            return 0.0 if d == 0 else math.copysign(math.inf, d)
        return d / math.sqrt(v)

    observed = studentized(Z1, Z2)
    values = []
    if paired:
        for swaps in itertools.product((0, 1), repeat=len(Z1)):
            A = np.array([b if s else a for a, b, s in zip(Z1, Z2, swaps)])
            B = np.array([a if s else b for a, b, s in zip(Z1, Z2, swaps)])
            values.append(studentized(A, B))
    else:
        pooled = np.concatenate([Z1, Z2])
        for first in itertools.combinations(range(len(pooled)), len(Z1)):
            rest = [i for i in range(len(pooled)) if i not in first]
            values.append(studentized(pooled[list(first)], pooled[rest]))
    return observed, tuple(values)


@pytest.mark.parametrize(
    "measure", ["nogueira", "jaccard", "conger", "hamming", "kuncheva", "lustgarten"]
)
@pytest.mark.parametrize("paired", [False, True])
def test_exact_permutation_pvalues_equal_the_literal_twin(measure, paired):
    rng = np.random.default_rng(7)
    M = 6
    if measure == "kuncheva":  # a measure for a constant subset size
        Z1 = np.array([rng.permutation(8) < 3 for _ in range(M)])
        Z2 = np.array([np.arange(8) < 3 if i % 2 else rng.permutation(8) < 3 for i in range(M)])
    else:
        Z1 = rng.random((M, 8)) < [0.9, 0.8, 0.7, 0.2, 0.2, 0.1, 0.3, 0.5]
        Z2 = rng.random((M, 8)) < 0.45
        Z1[:, 0] = Z2[:, 0] = True  # no empty run
    for alternative in ALTERNATIVES:
        res = two_sample_test(
            Z1, Z2, paired=paired, alternative=alternative, measure=measure, test="permutation"
        )
        expected, n = literal_permutation_pvalue(Z1, Z2, measure, paired, alternative)
        assert res.exact and res.n_resamples == n
        assert res.pvalue == pytest.approx(expected, abs=1e-12), (alternative, res)


@pytest.mark.parametrize("paired", [False, True])
def test_exact_permutation_pvalues_equal_scipy_permutation_test(paired):
    Z1, Z2 = bernoulli_runs(11, 7, P_HIGH), bernoulli_runs(12, 7, P_LOW)
    pooled = np.concatenate([Z1, Z2])

    values = {}  # the three alternatives share one null law:

    def stability_of(rows):  # each sample's stability computed once
        key = tuple(rows.tolist())
        if key not in values:
            values[key] = propstab.stability(pooled[rows])
        return values[key]

    def studentized(a, b):  # a, b: the pooled runs of each sample
        la = [stability_of(np.delete(a, i)) for i in range(len(a))]
        lb = [stability_of(np.delete(b, i)) for i in range(len(b))]
        v = (
            literal_jackknife([x - y for x, y in zip(la, lb)])
            if paired
            else literal_jackknife(la) + literal_jackknife(lb)
        )
        return (stability_of(a) - stability_of(b)) / math.sqrt(v)

    for alternative in ALTERNATIVES:
        ref = stats.permutation_test(
            (np.arange(7), np.arange(7, 14)),
            studentized,
            vectorized=False,
            permutation_type="samples" if paired else "independent",
            n_resamples=np.inf,
            alternative=alternative,
        )
        res = two_sample_test(Z1, Z2, paired=paired, alternative=alternative, test="permutation")
        assert res.exact
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)


@pytest.mark.parametrize("paired", [False, True])
def test_plain_difference_permutation_still_equals_scipy(paired):
    """``studentized=False`` (kept for the small-M study) permutes D itself."""
    from propstab.inference._permutation import permutation_test
    from propstab.registry._registry import get_measure

    Z1, Z2 = bernoulli_runs(11, 7, P_HIGH), bernoulli_runs(12, 7, P_LOW)
    pooled = np.concatenate([Z1, Z2])
    info = get_measure("nogueira")
    ref = stats.permutation_test(
        (np.arange(7), np.arange(7, 14)),
        lambda a, b: propstab.stability(pooled[a]) - propstab.stability(pooled[b]),
        vectorized=False,
        permutation_type="samples" if paired else "independent",
        n_resamples=np.inf,
    )
    res = permutation_test(
        propstab.as_selection(Z1),
        propstab.as_selection(Z2),
        info,
        {},
        paired=paired,
        alternative="two-sided",
        n_resamples=9999,
        rng=None,
        studentized=False,
    )
    assert res.exact and res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_monte_carlo_permutation_pvalue_reproduces_from_one_seed():
    Z1, Z2 = bernoulli_runs(21, 30, P_HIGH), bernoulli_runs(22, 30, [0.8] * 5 + [0.05] * 15)
    for paired in (False, True):
        runs = [
            two_sample_test(Z1, Z2, paired=paired, random_state=seed, n_resamples=999)
            for seed in (5, 5, 6)
        ]
        assert runs[0].test == "permutation" and not runs[0].exact
        assert runs[0].n_resamples == 999
        assert runs[0].pvalue == runs[1].pvalue
        assert runs[0].pvalue != runs[2].pvalue
        # Monte Carlo p-values are (1 + count) / (1 + B): multiples of 1/1000, never 0
        assert runs[0].pvalue >= 1 / 1000
        assert (runs[0].pvalue * 1000) == pytest.approx(round(runs[0].pvalue * 1000))
    # the default seed (0) makes the default test reproducible
    assert two_sample_test(Z1, Z2).pvalue == two_sample_test(Z1, Z2).pvalue
    gen = two_sample_test(Z1, Z2, random_state=np.random.default_rng(5), n_resamples=999)
    assert gen.pvalue == two_sample_test(Z1, Z2, random_state=5, n_resamples=999).pvalue


def test_monte_carlo_pvalue_is_close_to_the_exact_one():
    # C(16, 8) = 12870 splits: exact with n_resamples = 20000, Monte Carlo with 5000
    Z1, Z2 = bernoulli_runs(31, 8, P_HIGH), bernoulli_runs(32, 8, [0.7] * 5 + [0.1] * 15)
    exact = two_sample_test(Z1, Z2, test="permutation", n_resamples=20000)
    mc = two_sample_test(Z1, Z2, test="permutation", n_resamples=5000, random_state=1)
    assert exact.exact and exact.n_resamples == math.comb(16, 8) and not mc.exact
    se = math.sqrt(exact.pvalue * (1 - exact.pvalue) / 5000)
    assert abs(mc.pvalue - exact.pvalue) < 4 * se + 1 / 5000


def test_auto_picks_the_permutation_test_below_100_runs():
    assert PERMUTATION_BELOW == 100
    assert chosen_test("auto", 99, 100) == "permutation"
    assert chosen_test("auto", 100, 100) == "wald"
    assert chosen_test("wald", 10, 10) == "wald"
    small = two_sample_test(bernoulli_runs(1, 10, P_HIGH), bernoulli_runs(2, 10, P_LOW))
    large = two_sample_test(bernoulli_runs(1, 100, P_HIGH), bernoulli_runs(2, 100, P_LOW))
    assert small.test == "permutation" and large.test == "wald"
    assert "exact, all 184756 splits" not in str(small)
    assert "studentized permutation (Monte Carlo, 9999 random splits)" in str(small)
    assert "Wald: N(0, 1) (thesis Thm 7)" in str(large)
    paired = two_sample_test(
        bernoulli_runs(1, 10, P_HIGH), bernoulli_runs(2, 10, P_LOW), paired=True
    )
    assert "exact, all 1024 swap patterns" in str(paired)


def test_permutation_test_validation():
    Z1, Z2 = bernoulli_runs(1, 5, P_HIGH), bernoulli_runs(2, 5, P_LOW)
    with pytest.raises(ValueError, match="test: must be one of"):
        two_sample_test(Z1, Z2, test="exact")
    with pytest.raises(ValueError, match="n_resamples"):
        two_sample_test(Z1, Z2, n_resamples=10)
    with pytest.raises(TypeError, match="random_state"):
        two_sample_test(Z1, Z2, random_state="seed")
    with pytest.raises(ValueError, match="test: must be one of"):
        propstab.pairwise_tests([Z1, Z2], test="bootstrap")


def test_permutation_rearrangements_where_the_measure_is_undefined_are_left_out():
    # kuncheva needs a constant size: splits mixing sizes 2 and 3 are undefined
    Z1 = [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0], [1, 1, 0, 0, 0]]
    Z2 = [[1, 1, 1, 0, 0], [1, 1, 0, 1, 0], [0, 1, 1, 1, 0], [1, 0, 1, 1, 0]]
    with pytest.warns(propstab.UndefinedMeasureWarning, match="rearrangements"):
        res = two_sample_test(Z1, Z2, measure="kuncheva", test="permutation")
    # only the identity and the full swap keep one size per group: D and -D, so the
    # one-sided p-value in D's direction is 1/2 and the two-sided one 1
    assert res.exact and res.n_resamples == 70
    assert res.pvalue == 1.0
    with pytest.warns(propstab.UndefinedMeasureWarning, match="uses the other 2"):
        greater = two_sample_test(
            Z1,
            Z2,
            measure="kuncheva",
            test="permutation",
            alternative="greater" if res.difference > 0 else "less",
        )
    assert greater.pvalue == 0.5


def test_pairwise_tests_use_the_same_test_and_say_which():
    A, B, C = (bernoulli_runs(s, 7, p) for s, p in ((1, P_HIGH), (2, P_LOW), (3, P_LOW)))
    table = propstab.pairwise_tests({"A": A, "B": B, "C": C})
    assert {r["test"] for r in table.rows} == {"permutation"}
    for r, (X, Y) in zip(table.rows, ((A, B), (A, C), (B, C))):
        res = two_sample_test(X, Y)  # exact: no seed involved
        assert r["difference"] == pytest.approx(r["stability_first"] - r["stability_second"])
        assert r["pvalue"] == pytest.approx(res.pvalue)
    assert 'difference = Phi first - Phi second ("greater": the first' in str(table)
    again = propstab.pairwise_tests({"A": A, "B": B, "C": C}, n_resamples=999, random_state=3)
    assert [r["pvalue"] for r in again.rows] == [
        r["pvalue"]
        for r in propstab.pairwise_tests(
            {"A": A, "B": B, "C": C}, n_resamples=999, random_state=3
        ).rows
    ]


def test_permutation_level_holds_at_small_m_under_exchangeability():
    # 300 data sets from one population, M = 8 (exact splits): the rejection rate at
    # 5 % is at most 5 % + 3 binomial standard errors
    rng = np.random.default_rng(2024)
    p = np.array([0.9] * 5 + [0.1] * 45)
    rejections = 0
    R = 300
    for _ in range(R):
        Z1, Z2 = rng.random((8, 50)) < p, rng.random((8, 50)) < p
        rejections += two_sample_test(Z1, Z2, paired=True).pvalue <= 0.05
    assert rejections / R <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / R)


@pytest.mark.parametrize(
    "measure, options",
    [
        ("spearman", {}),
        ("kendall", {}),
        ("canberra", {}),
        ("canberra", {"k": 3}),
        ("top_k", {"k": 3}),
    ],
)
def test_ranking_replicates_from_the_kernels_equal_the_recomputation(measure, options):
    # the vectorised values of a ranking measure on subsets and on bootstrap resamples of
    # the runs against the measure recomputed on each (the slow twin), with a constant run
    # (spearman and kendall undefined with it)
    from propstab.inference import _intervals

    rng = np.random.default_rng(3)
    S = rng.normal(size=(12, 9)) + np.linspace(2, 0, 9)
    S[3] = 0
    rk = propstab.as_rankings(S, kind="scores")
    info = propstab.get_measure(measure)
    for idx in (
        np.array([rng.permutation(12)[:6] for _ in range(40)]),
        rng.integers(0, 12, size=(40, 12)),
    ):
        fast = _intervals.replicates(rk, info, options, idx)
        slow = _intervals.replicates(rk, info, options, idx, generic=True)
        np.testing.assert_allclose(fast, slow, rtol=1e-10, atol=1e-12)


def test_ranking_permutation_pvalue_equals_scipy():
    rng = np.random.default_rng(5)
    R1 = propstab.as_rankings(rng.normal(size=(7, 8)) + np.linspace(3, 0, 8), kind="scores")
    R2 = propstab.as_rankings(rng.normal(size=(7, 8)), kind="scores")
    pooled = np.concatenate([R1.toarray(), R2.toarray()])

    # the Spearman correlation of every pair of the 14 rank rows (the Pearson correlation
    # of the ranks, numpy, without propstab), computed once: scipy's 3,432 + 128
    # rearrangements then each average a block of it, not call propstab.stability twice
    C = np.corrcoef(pooled)

    def mean_spearman(rows):
        return C[np.ix_(rows, rows)][np.triu_indices(len(rows), 1)].mean()

    assert mean_spearman(np.arange(7)) == pytest.approx(
        propstab.stability(R1, "spearman"), rel=1e-12
    )
    assert mean_spearman(np.arange(7, 14)) == pytest.approx(
        propstab.stability(R2, "spearman"), rel=1e-12
    )

    def studentized(a, b):  # the difference over its jackknife SE
        la = [mean_spearman(np.delete(a, i)) for i in range(7)]
        lb = [mean_spearman(np.delete(b, i)) for i in range(7)]
        v = (
            literal_jackknife([x - y for x, y in zip(la, lb)])
            if paired
            else literal_jackknife(la) + literal_jackknife(lb)
        )
        return (mean_spearman(a) - mean_spearman(b)) / math.sqrt(v)

    for paired in (False, True):
        ref = stats.permutation_test(
            (np.arange(7), np.arange(7, 14)),
            studentized,
            vectorized=False,
            n_resamples=np.inf,
            permutation_type="samples" if paired else "independent",
        )
        res = two_sample_test(R1, R2, measure="spearman", paired=paired)
        assert res.test == "permutation" and res.exact
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_cli_compare_reports_file1_minus_file2_and_the_test(tmp_path, capsys):
    from propstab.cli import main

    high, low = bernoulli_runs(1, 12, P_HIGH), bernoulli_runs(2, 12, P_LOW)
    f1, f2 = tmp_path / "high.csv", tmp_path / "low.csv"
    np.savetxt(f1, high.astype(int), fmt="%d", delimiter=",")
    np.savetxt(f2, low.astype(int), fmt="%d", delimiter=",")
    for test in ("wald", "permutation"):
        resampling = (
            ["--n-resamples", "999", "--random-state", "4"] if test == "permutation" else []
        )
        argv = ["compare", str(f1), str(f2), "--alternative", "greater", "--test", test]
        assert main(argv + resampling) == 0  # the asymptotic test refuses resampling options
        out = dict((line[:12].strip(), line[12:]) for line in capsys.readouterr().out.splitlines())
        res = two_sample_test(
            high, low, alternative="greater", test=test, n_resamples=999, random_state=4
        )
        assert res.difference > 0 and res.pvalue < 0.05
        assert out["difference"] == f"{res.difference:.4f} (high.csv - low.csv)"
        assert out["p-value"] == f"{res.pvalue:.4g} (greater, H1: high.csv > low.csv)"
        assert out["test"] == res.test_description
        # the estimand, in the words of the Python summary (and of R's printouts)
        assert "estimand" in out and out["estimand"] in str(res)


# ---------------------------------------------------------------- small M: the warnings

RESULTS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "studies", "small_m_results.json"
)


def _study_rows():
    with open(RESULTS) as fh:
        return json.load(fh)["rows"]


def test_the_auto_rule_and_the_warning_table_follow_the_committed_study():
    from propstab.inference import SMALL_M_BELOW, SMALL_M_STUDY

    rows = _study_rows()
    # the default two-sample tests within 5 % + 3 binomial SE at every M of the study
    for row in rows:
        # the study's label of the N(0, 1) test is its former name, "asymptotic"
        default = {"wald": "asymptotic"}.get(*[chosen_test("auto", row["M"], row["M"])] * 2)
        se = 100 * math.sqrt(0.05 * 0.95 / row["repeats"])
        for design in ("independent", "paired"):
            assert row["rates"][f"{design} {default}"] <= 5 + 3 * se, row
    # below PERMUTATION_BELOW some asymptotic test misses its level, from it on none does
    below = [r for r in rows if r["M"] < PERMUTATION_BELOW]
    assert any(
        r["rates"][f"{d} asymptotic"] > 5 + 3 * 100 * math.sqrt(0.0475 / r["repeats"])
        for r in below
        for d in ("independent", "paired")
    )
    # the warning's numbers are the study's: lowest and highest Wald coverage per M
    for M, (low, high) in SMALL_M_STUDY.items():
        cover = [r["rates"]["cover wald"] for r in rows if r["M"] == M]
        assert (low, high) == (round(min(cover), 1), round(max(cover), 1))
        assert M < SMALL_M_BELOW
    at_limit = [r["rates"]["cover wald"] for r in rows if r["M"] == SMALL_M_BELOW]
    assert at_limit and min(at_limit) >= 95 - 3 * 100 * math.sqrt(0.0475 / rows[0]["repeats"])


def _study_range(path, key, M):
    with open(os.path.join(os.path.dirname(RESULTS), path)) as fh:
        values = [r["rates"][key] for r in json.load(fh)["rows"] if r["M"] == M]
    return round(min(values), 1), round(max(values), 1)


def test_the_small_m_tables_are_the_committed_studys():
    """Every coverage and level the warnings quote, against the study's JSON files."""
    from propstab.inference import SMALL_M_BEST, SMALL_M_COVERAGE, SMALL_M_GREATER

    files = {
        "wald": ("small_m_results.json", "cover wald"),
        "wald (jackknife)": ("small_m_intervals.json", "cover wald (jackknife)"),
        "logit": ("small_m_intervals.json", "cover logit"),
        "logit (jackknife)": ("small_m_jackknife.json", "cover logit (jackknife)"),
        "bootstrap": ("small_m_intervals.json", "cover bootstrap"),
        "bca": ("small_m_intervals.json", "cover bca"),
    }
    assert (
        set(files) == set(SMALL_M_COVERAGE)
        and SMALL_M_COVERAGE["logit (jackknife)"] is SMALL_M_BEST
    )
    for method, (path, key) in files.items():
        for M, pair in SMALL_M_COVERAGE[method].items():
            assert pair == _study_range(path, key, M), (method, M)
    for M, pair in SMALL_M_GREATER["wald"].items():
        assert pair == _study_range("small_m_results.json", "one-sample greater", M)
    for M, pair in SMALL_M_GREATER["logit (jackknife)"].items():
        assert pair == _study_range(
            "small_m_jackknife.json", "one-sample greater (logit jackknife)", M
        )
    # the jackknife-only run drew the intervals-only run's data sets: the column they
    # share is the same number for number
    for M in (10, 20, 30, 50, 100):
        assert _study_range("small_m_jackknife.json", "cover wald (jackknife)", M) == _study_range(
            "small_m_intervals.json", "cover wald (jackknife)", M
        )


def test_the_default_is_the_studys_closest_method_at_every_small_m():
    """method="auto" takes, at each studied M below 100, the interval whose worst
    coverage over measures and populations is the highest (the logit interval with the
    jackknife variance), and its one-sided test is the one nearest 5 % at its worst."""
    from propstab.inference import SMALL_M_COVERAGE, SMALL_M_GREATER, auto_interval

    for M in (10, 20, 30, 50):
        best = max(SMALL_M_COVERAGE, key=lambda k: SMALL_M_COVERAGE[k][M][0])
        name, jackknife = auto_interval(M)
        assert best == "logit (jackknife)" == f"{name} (jackknife)" and jackknife
        worst = {k: max(abs(r - 5) for r in table[M]) for k, table in SMALL_M_GREATER.items()}
        assert min(worst, key=worst.get) == "logit (jackknife)"
    assert auto_interval(100) == ("wald", False)


def test_small_m_warns_only_where_the_method_that_ran_misses_its_level():
    from propstab.inference import SMALL_M_GREATER, SMALL_M_STUDY, SmallSampleWarning

    Z = bernoulli_runs(1, 10, [0.9] * 5 + [0.1] * 45)
    low, high = SMALL_M_STUDY[10]
    est = propstab.estimate(Z)
    # the warning gives the study's number for the method that ran, in one short line
    # that says what to do and points to no file
    with pytest.warns(
        SmallSampleWarning, match=rf"Wald interval covered {low:.1f}-" rf"{high:.1f} %"
    ) as caught:
        est.confidence_interval(method="wald")
    with pytest.warns(
        SmallSampleWarning,
        match=r"logit interval \(jackknife variance\) " r"covered 92\.0-95\.0 %.*use 20 or more",
    ):
        est.confidence_interval()
    with pytest.warns(SmallSampleWarning, match=r"rejected a true value 4\.5-19\.3 %"):
        propstab.one_sample_test(Z, 0.3, test="wald")
    with pytest.warns(SmallSampleWarning, match=r"M < 10 runs"):
        propstab.estimate(Z[:6]).confidence_interval()
    text = str(caught[0].message)
    assert len(text) < 200 and "docs/" not in text and ".md" not in text and "use" in text
    # the default one-sided test holds 5 % + tolerance at M = 10 (6.2 %): no warning
    assert SMALL_M_GREATER["logit (jackknife)"][10][1] == 6.2
    with warnings.catch_warnings():
        warnings.simplefilter("error", SmallSampleWarning)
        propstab.one_sample_test(Z, 0.3)
        str(est)  # printing does not warn
        # the default interval holds its level from 20 runs on (93.6 % at worst)
        at30 = propstab.estimate(bernoulli_runs(2, 30, [0.9] * 5 + [0.1] * 45))
        at30.confidence_interval()
        propstab.one_sample_test(at30.selection, 0.3, alternative="two-sided")
        big = propstab.estimate(bernoulli_runs(2, 100, [0.9] * 5 + [0.1] * 45))
        big.confidence_interval()
        propstab.one_sample_test(big.selection, 0.3)


def test_small_sample_warning_shows_once_per_call_site():
    """The text names the studied range of M, not M: Python's default filter shows it
    once per line, whatever M in that range."""
    from propstab.inference import SmallSampleWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for M in (10, 12, 15, 19, 10):
            propstab.estimate(bernoulli_runs(M, M, [0.9] * 5 + [0.1] * 45)).confidence_interval()
    assert [w.category for w in caught].count(SmallSampleWarning) == 1


def test_unequal_sizes_and_sparse_input_equal_the_literal_twin():
    from scipy import sparse

    rng = np.random.default_rng(9)
    Z1 = rng.random((4, 7)) < 0.6
    Z2 = rng.random((6, 7)) < 0.3
    Z1[:, 0] = Z2[:, 0] = True
    for alternative in ALTERNATIVES:
        expected, n = literal_permutation_pvalue(Z1, Z2, "jaccard", False, alternative)
        for A, B in ((Z1, Z2), (sparse.csr_matrix(Z1), sparse.csr_matrix(Z2))):
            res = two_sample_test(
                A, B, measure="jaccard", alternative=alternative, test="permutation"
            )
            assert res.test == "permutation" and res.exact and res.n_resamples == n == 210
            assert res.pvalue == pytest.approx(expected, abs=1e-12)


def test_auto_below_100_runs_takes_the_larger_of_the_two_pvalues():
    """Below COMBINED_BELOW (100) runs test="auto" rejects only where the studentized
    permutation test and the N(0, 1) test of the same statistic both reject."""
    from propstab.inference import COMBINED_BELOW

    assert COMBINED_BELOW == 100
    for M in (10, 30):
        for paired in (False, True):
            Z1, Z2 = bernoulli_runs(M, M, P_HIGH), bernoulli_runs(M + 1, M, P_LOW)
            auto = two_sample_test(Z1, Z2, paired=paired, n_resamples=999)
            perm = two_sample_test(Z1, Z2, paired=paired, test="permutation", n_resamples=999)
            normal = 2 * stats.norm.sf(abs(perm.statistic))
            assert auto.combined and not perm.combined
            assert auto.statistic == perm.statistic
            assert auto.pvalue == pytest.approx(max(perm.pvalue, normal), rel=1e-12)
            assert "N(0, 1), larger p" in str(auto)
    Z1, Z2 = bernoulli_runs(1, 100, P_HIGH), bernoulli_runs(2, 100, P_LOW)
    auto = two_sample_test(Z1, Z2)
    assert auto.test == "wald" and not auto.combined
