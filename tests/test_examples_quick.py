"""The evidence scripts of examples/ run in their --quick modes (figures included)."""
import pathlib
import re
import warnings

import matplotlib  # noqa: F401 - the examples draw figures: fail, never skip, without it
import numpy as np
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def _load(name):
    return shared.load_script(EXAMPLES / f"{name}.py", name)


def _main_warns(mod, argv, expected):
    """``mod.main(argv)`` and the propstab warnings it raises, asserted knowingly: a
    quick mode runs few runs on purpose. ``expected`` maps each warning class that must
    be raised to a part of one of its messages; any other propstab warning or
    RuntimeWarning fails, and other warnings (a library's) are raised again."""
    import propstab

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = mod.main(argv)
    ours = [
        w for w in caught if issubclass(w.category, (propstab.PropstabWarning, RuntimeWarning))
    ]
    for w in caught:
        if w not in ours:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    assert {w.category for w in ours} == set(expected), [str(w.message) for w in ours]
    for category, part in expected.items():
        assert any(part in str(w.message) for w in ours if w.category is category), part
    return out


def test_kamkar_data_has_the_stated_structure():
    mod = _load("kamkar_l1_logistic")
    X, y = mod.kamkar_data(4000, 0.5, np.random.default_rng(0))
    assert X.shape == (4000, 100) and y.sum() == 2000
    centred = X - np.where(y[:, None] == 1, 1.0, -1.0) * (np.arange(100) < 50)
    C = np.corrcoef(centred.T)
    assert abs(C[0, 1] - 0.5) < 0.05 and abs(C[60, 61]) < 0.05 and abs(C[0, 60]) < 0.05
    assert abs(X[y == 1, 0].mean() - 1) < 0.05 and abs(X[y == 1, 60].mean()) < 0.05


def test_kamkar_quick(tmp_path, capsys):
    from propstab.inference import SmallSampleWarning

    mod = _load("kamkar_l1_logistic")
    results = _main_warns(  # M = 8 bootstraps
        mod, ["--quick", "--figures", str(tmp_path)], {SmallSampleWarning: "M < 10 runs"}
    )
    out = capsys.readouterr().out
    assert "optimising likelihood" in out
    assert {r["rho"] for r in results} == {0.0, 0.8}
    for res in results:
        lik = np.array([r["loglik"] for r in res["rows"]])
        stab = np.array([r["stability"] for r in res["rows"]])
        o_lik, o_stab = res["outcome"]["likelihood"], res["outcome"]["stability"]
        assert o_lik["index"] == int(np.argmax(lik))
        assert res["front"][o_stab["index"]] and res["front"][o_lik["index"]]
        assert lik[o_stab["index"]] >= lik[o_lik["index"]] - 0.01
        assert stab[o_stab["index"]] >= stab[o_lik["index"]]
        for r in res["rows"]:
            assert r["ci"][0] <= r["stability"] <= r["ci"][1]
            assert r["loglik_ci"][0] <= r["loglik"] <= r["loglik_ci"][1] <= 0
        for o in (o_lik, o_stab):
            assert 0 <= o["FP"] <= 50 and 0 <= o["FN"] <= 50
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "kamkar_frequencies.png",
        "kamkar_likelihood_stability.png",
        "kamkar_pareto.png",
    ]


def test_stability_selection_vs_lasso_quick(tmp_path, capsys):
    from propstab.error_control import LargePFERWarning
    from propstab.inference import SmallSampleWarning, ZeroVarianceWarning

    mod = _load("stability_selection_vs_lasso")
    # 8 bootstraps; q of 1.5 and 2 q_D on purpose; the pi = 0.6, q_D method is perfectly stable
    results = _main_warns(
        mod,
        ["--quick", "--figures", str(tmp_path)],
        {
            LargePFERWarning: "allows half or more",
            SmallSampleWarning: "M < 10 runs",
            ZeroVarianceWarning: "all 8 runs are the same",
        },
    )
    assert "lasso (1-SE)" in capsys.readouterr().out
    (res,) = results
    methods = res["methods"]
    assert len(methods) == 7
    for name, m in methods.items():
        assert m["ci"][0] <= m["stability"] <= m["ci"][1]
        if name != "lasso (1-SE)":
            assert 0 <= m["test"].pvalue <= 1 and m["test"].paired
            assert m["test"].difference == pytest.approx(
                m["stability"] - methods["lasso (1-SE)"]["stability"]
            )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "stability_path_and_map.png",
        "stability_selection_vs_lasso.png",
    ]


def test_one_se_rule_picks_a_larger_lambda_than_the_minimum():
    mod = _load("stability_selection_vs_lasso")
    X, y = mod.load("diabetes")
    from sklearn.linear_model import Lasso, LassoCV

    cv = LassoCV(cv=10, n_alphas=30, random_state=0).fit(X, y)
    n_min = np.count_nonzero(Lasso(alpha=cv.alpha_).fit(X, y).coef_)
    assert mod.lasso_one_se(X, y, 0).sum() <= n_min


def test_bench_resampling_quick(capsys):
    module = shared.load_script(
        EXAMPLES.parent / "benchmarks" / "bench_resampling.py", "bench_resampling"
    )
    overhead, ratio = module.main(["--quick"])
    out = capsys.readouterr().out
    # no timing target here (machine- and load-dependent): the printed numbers are the
    # returned ones, rounded as printed, and both are finite ratios of positive times
    assert np.isfinite(overhead) and np.isfinite(ratio) and overhead > -1 and ratio > 0
    printed_overhead = re.search(r"overhead ([-+][0-9.]+) %", out)
    printed_ratio = re.search(r"n_jobs=2 .* ratio ([0-9.]+) ", out)
    assert printed_overhead and printed_ratio, out
    assert float(printed_overhead.group(1)) == pytest.approx(100 * overhead, abs=0.051)
    assert float(printed_ratio.group(1)) == pytest.approx(ratio, abs=0.0051)


def test_varying_sizes_quick(capsys):
    """examples/varying_sizes.py: conger >= nogueira on every matrix, equal where the
    sizes do not vary, and nogueira's null expectation is the closed form for the sizes."""
    import propstab
    from propstab.chance import nogueira_expectation

    from propstab.inference import SmallSampleWarning

    mod = _load("varying_sizes")
    rows = _main_warns(mod, ["--quick"], {SmallSampleWarning: "M = 10-19 runs"})  # M = 10
    out = capsys.readouterr().out
    assert "| breast_cancer | C by CV | 10 |" in out and "| digits_3_8 | random C | 10 |" in out
    assert len(rows) == 8
    for r in rows:
        assert r["conger"] >= r["nogueira"] - 1e-12
        assert r["null"] <= 0
        assert (r["k_sd"] == 0) == (r["conger"] == r["nogueira"])
    spread = max(rows, key=lambda r: r["k_sd"])
    assert spread["null"] < -0.005 and spread["conger"] - spread["nogueira"] > 0.003
    X, y = mod.load("breast_cancer")
    assert X.shape == (569, 30) and abs(X.mean()) < 1e-12
    Z = propstab.resample(mod.l1_random_c, X, y, n_runs=10, random_state=0).Z
    sizes = Z.sum(axis=1)
    assert nogueira_expectation(sizes, 30) == pytest.approx(
        [r for r in rows if r["data"] == "breast_cancer" and r["selector"] == "random C"][0][
            "null"
        ],
        abs=1e-15,
    )


def test_ranking_stability_breast_cancer_quick(tmp_path, capsys):
    """The ranking family on real data (docs/rankings.md): four rankers on the same
    bootstraps, every reported number recomputed from the recorded rankings."""
    import propstab

    from propstab.inference import SmallSampleWarning

    mod = _load("ranking_stability_breast_cancer")
    rows, comparison = _main_warns(  # M = 10 bootstraps
        mod, ["--quick", "--figures", str(tmp_path)], {SmallSampleWarning: "M = 10-19 runs"}
    )
    out = capsys.readouterr().out
    assert "| ranker | Spearman" in out and "Pairwise tests of stability" in out
    assert [r["name"] for r in rows] == [
        "mutual information",
        "random forest",
        "L1 logistic",
        "RFE",
    ]
    for r in rows:
        rk = r["assessment"].rankings
        assert rk.shape == (10, 30) and rk.feature_names[0] == "mean radius"
        assert r["spearman"] == propstab.stability(rk, "spearman")
        assert r["kendall"] == propstab.stability(rk, "kendall")
        assert r["canberra"] == propstab.stability(rk, "canberra", k=10)
        assert r["top10"] == propstab.stability(rk.top_k(10), "nogueira")
        assert r["spearman_ci"][0] < r["spearman"] < r["spearman_ci"][1]
    assert rows[3]["weights"] is None  # RFE gives ranks, not weights
    assert len(comparison.tests.rows) == 6 and comparison.tests.paired
    assert [p.name for p in tmp_path.iterdir()] == ["ranking_rank_distributions.png"]
    png = tmp_path / "ranking_rank_distributions.png"  # legible in the site's 740 px column
    site_audit = shared.load_script(EXAMPLES.parent / "scripts" / "site_audit.py", "site_audit")
    assert int.from_bytes(png.read_bytes()[16:20], "big") <= 740
    assert float(site_audit.png_text(png)[site_audit.TEXT_KEY]) >= site_audit.MIN_FIGURE_TEXT
