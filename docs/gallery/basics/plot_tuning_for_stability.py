"""
Tuning for stability: the penalty of an L1-logistic model and of the lasso
==========================================================================

``propstab.StabilityGridSearch`` runs every candidate penalty on the same 25 bootstrap
samples and records its stability (Nogueira's estimator with its 95% interval) and its
mean out-of-bag score with a standard error. The one-standard-error rule chooses the
most stable candidate whose score is within one standard error of the best; the
``"pareto"`` rule the knee of the accuracy-stability front. See :doc:`/tuning`.
"""
import warnings

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import propstab

# notes the tables already show: varying subset sizes, and the undefined stability of
# a candidate that selects nothing (left out of the front)
warnings.simplefilter("ignore", propstab.inference.VaryingSizesWarning)
warnings.simplefilter("ignore", propstab.UndefinedMeasureWarning)
warnings.simplefilter("ignore", propstab.resampling.UnscoredWarning)

# %%
# Breast cancer: the C of an L1-penalised logistic regression
# -----------------------------------------------------------
# The features are standardised inside the pipeline (fitted on each bootstrap's
# training rows); the search's parameter names the pipeline's step.
X, y = load_breast_cancer(return_X_y=True, as_frame=True)
model = make_pipeline(StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear"))
cancer = propstab.StabilityGridSearch(
    model, {"logisticregression__C": [0.01, 0.03, 0.1, 0.3, 1.0]}, n_runs=25, random_state=0
).fit(X, y)
print(cancer.summary())
print("selected:", ", ".join(cancer.get_feature_names_out()))

# %%
# Accuracy barely moves from C = 0.1 upwards while the stability falls: the most
# accurate models are not the most stable. The star marks the candidate the rule
# chose.
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
cancer.plot(ax=axes[0])
axes[0].set_title("breast cancer, L1-logistic C (rule 1se)")

# %%
# Diabetes: the lasso's alpha
# ---------------------------
# The largest alpha selects no feature: its stability is undefined, and it cannot be
# chosen or drawn. The knee of the front ("pareto") weighs stability more than the
# one-standard-error rule.
X, y = load_diabetes(return_X_y=True, as_frame=True)
grid = {"alpha": [0.01, 0.1, 0.3, 1.0, 3.0]}
diabetes = propstab.StabilityGridSearch(Lasso(), grid, n_runs=25, random_state=0).fit(X, y)
knee = propstab.StabilityGridSearch(Lasso(), grid, n_runs=25, random_state=0, rule="pareto").fit(
    X, y
)
print(diabetes.summary())
print("1se chooses", diabetes.best_params_, "; pareto chooses", knee.best_params_)
knee.plot(ax=axes[1])
axes[1].set_title("diabetes, lasso alpha (rule pareto)")
fig.tight_layout()
