"""From data to the stability of rankings: resample(output="ranking"), assess with a
RankingAssessment (ranking stability, top-k set stability at several k, the weights'
Pearson correlation), the selector adapters and the rank-distribution plot."""
import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import RandomForestRegressor
from sklearn.feature_selection import RFE, SelectKBest, f_regression
from sklearn.linear_model import Lasso, Ridge

import propstab
from propstab.plots import plot_rank_distributions
from propstab.selectors import fit_rank, mask_from_scores, ranking_of

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 10)), columns=[f"g{j}" for j in range(10)])
    y = X.to_numpy() @ np.linspace(1, 0, 10) + rng.normal(size=80)
    return X, y


@pytest.mark.parametrize(
    "selector, kind",
    [
        (Lasso(alpha=0.05), "scores"),
        (RFE(Ridge(), n_features_to_select=3), "ranks"),
        (SelectKBest(f_regression, k=3), "scores"),
        (RandomForestRegressor(n_estimators=10, random_state=0), "scores"),
    ],
)
def test_each_run_records_the_selectors_ranking(data, selector, kind):
    X, y = data
    res = propstab.resample(selector, X, y, n_runs=6, random_state=1, output="ranking")
    rk = res.rankings
    assert rk.shape == (6, 10) and rk.feature_names == tuple(X.columns)
    assert (res.importances is None) == (kind == "ranks")
    for i, run in enumerate(res.runs):  # each row is that run's ranking
        train = res.train_indices[i]
        mask, values, got, _ = fit_rank(selector, X.iloc[train], y[train], n_features=10)
        assert got == kind
        assert (
            rk.toarray()[i].tolist()
            == propstab.as_rankings(np.vstack([values, values]), kind=kind).toarray()[0].tolist()
        )
        assert res.Z[i].tolist() == mask.tolist()
    # the selection is the one output="selection" records (RF: nonzero importances)
    if not isinstance(selector, RandomForestRegressor):
        plain = propstab.resample(selector, X, y, n_runs=6, random_state=1)
        assert np.array_equal(plain.Z, res.Z)


def test_a_function_returns_scores_and_its_selection_follows_top_k(data):
    X, y = data

    def correlations(X, y):
        return np.abs(np.corrcoef(np.column_stack([X, y]).T)[-1, :-1])

    res = propstab.resample(
        correlations, X.to_numpy(), y, n_runs=8, random_state=0, output="ranking", top_k=3
    )
    assert (res.Z.sum(axis=1) == 3).all()
    assert np.array_equal(res.Z, res.rankings.top_k(3).toarray())
    assert res.stability("spearman") == propstab.stability(res.rankings, "spearman")
    assert res.stability() == propstab.stability(res.selection)
    with pytest.raises(ValueError, match=r"must be 10 scores \(one per feature\)"):
        propstab.resample(
            lambda X, y: [0, 1], X.to_numpy(), y, n_runs=3, output="ranking", random_state=0
        )


def test_rankings_must_be_recorded_and_output_is_checked(data):
    X, y = data
    res = propstab.resample(Lasso(alpha=0.05), X, y, n_runs=4, random_state=0)
    assert res.rankings is None
    with pytest.raises(ValueError, match="resample with output='ranking'"):
        res.stability("spearman")
    with pytest.raises(ValueError, match="output: must be one of 'selection', 'ranking'"):
        propstab.resample(Lasso(), X, y, n_runs=4, output="ranks")


def test_assess_ranking_output_reports_rankings_sets_and_weights(data):
    X, y = data
    a = propstab.assess(
        Lasso(alpha=0.05), X, y, output="ranking", n_runs=25, random_state=0, top_k_sizes=(2, 5)
    )
    assert isinstance(a, propstab.RankingAssessment) and a.measure == "spearman"
    rk = a.result.rankings
    assert a.stability == propstab.stability(rk, "spearman")
    assert a.estimate.method == "analytic"
    assert [k for k, _ in a.top_k] == [2, 5]
    for k, est in a.top_k:
        assert est.statistic == propstab.stability(rk.top_k(k), "nogueira")
    W = a.result.importances
    assert a.weights == pytest.approx(propstab.measures.pearson(W != 0, importances=W))
    text = str(a)
    for part in (
        "Stability of rankings",
        "spearman",
        "top-k sets",
        "k=2:",
        "k=5:",
        "weights",
        "best ranked",
    ):
        assert part in text
    frame = a.to_frame()
    assert list(frame.columns) == ["mean_rank", "median_rank", "sd_rank", "top_2", "top_5"]
    assert frame["mean_rank"].is_monotonic_increasing
    assert frame.loc["g0", "top_5"] == rk.top_k(5).column_counts[0] / 25
    assert a.mean_ranks["g0"] == pytest.approx(frame.loc["g0", "mean_rank"])


def test_assess_ranking_with_another_measure_and_a_comparison(data):
    X, y = data
    a = propstab.assess(
        Ridge(), X, y, output="ranking", measure="kendall", n_runs=10, random_state=0
    )
    assert a.measure == "kendall" and a.stability == propstab.stability(a.rankings, "kendall")
    c = propstab.assess(
        {"ridge": Ridge(), "lasso": Lasso(alpha=0.05)},
        X,
        y,
        output="ranking",
        n_runs=10,
        random_state=0,
    )
    assert set(c.assessments) == {"ridge", "lasso"}
    assert c.tests.rows[0]["first"] == "ridge"
    with pytest.raises(ValueError, match="'spearman' reads rankings"):
        propstab.assess(Ridge(), X, y, measure="spearman", n_runs=4, random_state=0)
    with pytest.raises(ValueError, match="'jaccard' reads selections"):
        propstab.assess(
            Ridge(), X, y, measure="jaccard", output="ranking", n_runs=4, random_state=0
        )


def test_ranking_of_and_mask_from_scores():
    from types import SimpleNamespace

    assert ranking_of(SimpleNamespace(scores_=np.array([3.0, np.nan])))[1] == "scores"
    assert ranking_of(SimpleNamespace())[0] is None
    assert mask_from_scores([np.nan, 1.0, 0.0], 3).tolist() == [False, True, False]
    assert mask_from_scores([1.0, 2.0, 2.0], 3, threshold=1.5).tolist() == [False, True, True]
    with pytest.raises(ValueError, match="scores: must be finite"):
        mask_from_scores([1.0, np.inf], 2)


def test_plot_rank_distributions_orders_features_by_mean_rank(data):
    X, y = data
    a = propstab.assess(Lasso(alpha=0.05), X, y, output="ranking", n_runs=10, random_state=0)
    ax = plot_rank_distributions(a, max_features=4, top_k=3)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == list(a.to_frame().index[:4])
    assert ax.get_ylim() == (10.5, 0.5)
    with pytest.raises(ValueError, match="feature_names: must have one name per feature"):
        plot_rank_distributions([[1, 2], [2, 1]], feature_names=["a"])


# ----------------------------------------------------------------------------------
# issue 20: a NaN top-k interval comes with its reason; no "mean size" for a ranker


def test_an_undefined_top_k_stability_says_why(data):
    """A strong Lasso leaves most weights 0: the tie of zeros from within the top 5 to the
    last rank puts every feature in every run's top-5 set (Rankings.top_k), where the
    set stability is undefined; the assessment warns and the summary says so."""
    X, y = data
    with pytest.warns(
        propstab.UndefinedMeasureWarning,
        match=r"top-k sets is undefined \(NaN\) at k=5: every run's top-5 set "
        r"holds all 10 features",
    ):
        a = propstab.assess(
            Lasso(alpha=0.8), X, y, output="ranking", n_runs=8, random_state=0, top_k_sizes=(5,)
        )
    rk = a.rankings
    assert (rk.top_k(5).row_sizes == 10).all()  # the reason, independently
    assert np.isnan(a.top_k[0][1].statistic)
    assert [k for k, _ in a.top_k_undefined] == [5]
    assert "k=5: undefined (every run's top-5 set holds all 10 features" in str(a)
    defined = propstab.assess(
        Lasso(alpha=0.3), X, y, output="ranking", n_runs=8, random_state=0, top_k_sizes=(5,)
    )  # no tie reaches k
    assert defined.top_k_undefined == () and "undefined" not in str(defined)


def test_a_ranking_comparison_shows_top_k_stability_not_a_mean_size(data):
    """A ranker with nonzero weights 'selects' all 10 features: in ranking mode the table
    gives the top-k set stability (first reported k) and the frame the number of
    features ranked and the top-k columns, never a mean subset size."""
    X, y = data
    c = propstab.assess(
        {"ridge": Ridge(), "kbest": SelectKBest(f_regression, k=3)},
        X,
        y,
        output="ranking",
        n_runs=10,
        random_state=0,
        top_k_sizes=(3, 5),
    )
    text = str(c)
    assert "mean size" not in text and "top-3" in text
    frame = c.to_frame()
    assert "mean_size" not in frame.columns
    assert (frame["n_ranked"] == 10).all()
    for name, a in c.assessments.items():
        for k in (3, 5):
            assert frame.loc[name, f"top_{k}"] == propstab.stability(
                a.rankings.top_k(k), "nogueira"
            )
        assert f"{frame.loc[name, 'top_3']:.4f}" in text
