"""
How stable is my selector?
==========================

A tutorial from data to an answer. Four feature selectors, written as scikit-learn
users write them, run on the same 30 bootstrap samples of scikit-learn's breast-cancer
data (569 tumours, 30 features). For each: the stability of its selections with a
confidence interval, its accuracy on the out-of-bag rows, then a paired comparison,
the accuracy-stability Pareto front, the features each selects, and how many runs the
answer needs. Every number below is computed when the documentation is built.

See :doc:`/from_data` for the resampling protocol, :doc:`/inference` for the intervals
and tests, and :doc:`/user_guide/choosing` for the choice of measure (here Nogueira's
estimator, the default: corrected for chance, with an analytic variance).
"""
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import RFE, SelectFromModel, SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import propstab
from propstab.plots import plot_halfwidth, plot_pareto_front, plot_selection_frequencies

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
print(X.shape, "features such as", ", ".join(X.columns[:3]))

# %%
# The selectors
# -------------
# A pipeline with an L1-penalised logistic regression as the selection step, a
# univariate filter (the 10 best F-scores), recursive feature elimination down to 10
# features, and a random forest's 10 most important features. The filter and the
# forest's SelectFromModel cannot predict: propstab scores them with a downstream
# model (a logistic regression on the selected columns, the default for a class
# label) so that every selector gets an accuracy.
selectors = {
    "L1 logistic": make_pipeline(
        StandardScaler(),
        SelectFromModel(LogisticRegression(penalty="l1", solver="liblinear", C=0.1)),
        LogisticRegression(max_iter=1000),
    ),
    "F-test, k=10": make_pipeline(StandardScaler(), SelectKBest(f_classif, k=10)),
    "RFE, k=10": make_pipeline(
        StandardScaler(), RFE(LogisticRegression(max_iter=1000), n_features_to_select=10, step=2)
    ),
    "forest, top 10": SelectFromModel(
        RandomForestClassifier(n_estimators=50, random_state=0), max_features=10, threshold=-np.inf
    ),
}

comparison = propstab.assess(selectors, X, y, n_runs=30, scoring="accuracy", random_state=0)
print(comparison.summary())

# %%
# Each selector's stability with its interval
# --------------------------------------------
# The Wald interval uses the analytic variance (Nogueira's thesis, Thm 6), clipped to
# the measure's range. Near the top of the range a bootstrap over runs (BCa) is the
# safer second opinion (see :doc:`/inference_validation`).
for name, a in comparison.assessments.items():
    wald = a.estimate.confidence_interval(0.95)
    bca = a.estimate.confidence_interval(0.95, method="bca", random_state=0)
    print(
        f"{name:15s} stability {a.stability:.3f}  Wald [{wald[0]:.3f}, {wald[1]:.3f}]  "
        f"BCa [{bca[0]:.3f}, {bca[1]:.3f}]  accuracy {a.mean_score:.3f}"
    )

# %%
# Is one selector more stable than another?
# -----------------------------------------
# The selectors ran on the same resamples, so the differences are tested paired
# (thesis sec. 5.3), with Holm's correction over the six pairs.
print(comparison.tests.summary())

# %%
# Accuracy against stability
# --------------------------
# The Pareto front holds the selectors that no other beats on both accuracy and
# stability (Sechidis et al. 2019, sec. 4.1). Every selector is drawn; one without a
# score would be listed in the legend with the reason.
ax = plot_pareto_front(comparison, xlabel="mean out-of-bag accuracy")
print("Pareto optimal:", ", ".join(comparison.pareto_optimal))

# %%
# Which features, how often
# -------------------------
# The selection frequencies of the most stable selector: a stable selector picks the
# same few features on almost every resample.
best = max(comparison.assessments, key=lambda n: comparison.assessments[n].stability)
a = comparison.assessments[best]
ax = plot_selection_frequencies(a.frequencies, max_features=15)
ax.set_title(f"{best}: selection frequencies over {a.estimate.n_runs} runs")

# %%
# How many runs are enough?
# -------------------------
# The interval narrows like 1/sqrt(M). From the 30 runs, the variance gives the number
# of runs that would bring the half-width of the 95% interval down to 0.02, and the
# plot shows the estimate and its band on the first m runs, m = 5..30, with the
# predicted band beyond.
least = min(comparison.assessments, key=lambda n: comparison.assessments[n].stability)
Z = comparison.assessments[least].result.Z
print(f"{least}: {propstab.inference.runs_needed(Z, 0.02)} runs for a half-width of 0.02")
ax = plot_halfwidth(Z, start=5, target_halfwidth=0.02)
ax.set_title(f"{least}: the estimate and its 95% band against the number of runs")
