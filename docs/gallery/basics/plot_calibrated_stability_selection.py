"""
Calibrating stability selection: stabs, sharp and Stabl
=======================================================

Stability selection needs a threshold on the selection proportions.
``StabilitySelection(calibration=...)`` chooses it three ways: stabs's fixed cutoff
with a bound on the expected number of false selections (``"pfer"``, the default),
sharp's stability score maximised over penalty x threshold (``"stability_score"``),
and Stabl's false discovery estimate from permuted copies of the features
(``"fdp"``). Here on scikit-learn's diabetes (Lasso) and breast cancer
(L1-logistic) data; :doc:`/calibration` explains when to use which.
"""
import tempfile
import warnings

import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.preprocessing import StandardScaler

from propstab import StabilitySelection
from propstab.plots import plot_calibration

# The solvers do not always converge on half the data at the smallest penalties (a
# ConvergenceWarning per fit); those fits are kept as they are. Only that warning is
# silenced: any other would print below.
warnings.filterwarnings("ignore", category=ConvergenceWarning)

data = {
    "diabetes": (load_diabetes(as_frame=True), Lasso()),
    "breast cancer": (
        load_breast_cancer(as_frame=True),
        LogisticRegression(penalty="l1", solver="liblinear"),
    ),
}
# "pfer" and "stability_score" choose from the same subsample fits (the same path,
# subsamples and seeds): the first writes them to a ``checkpoint`` directory and the
# second reads them there instead of fitting again (a checkpoint is keyed by what the
# fits depend on, not by the calibration). "fdp" fits on the data with permuted copies
# of the features appended, so it fits afresh.
fitted = {}
for name, (bunch, model) in data.items():
    X = StandardScaler().set_output(transform="pandas").fit_transform(bunch.data)
    with tempfile.TemporaryDirectory() as fits:
        for calibration in ("pfer", "stability_score", "fdp"):
            ss = StabilitySelection(
                model,
                n_alphas=15,
                n_subsamples=15,
                random_state=0,
                calibration=calibration,
                PFER=None if calibration == "stability_score" else 1.0,
                checkpoint=None if calibration == "fdp" else fits,
            )
            fitted[name, calibration] = ss.fit(X, bunch.target)
            chosen = ", ".join(ss.get_feature_names_out())
            print(f"{name:13s} {calibration:15s} {ss.calibration_!r}\n{'':30s}{chosen}")

# %%
# sharp's calibration plot: the stability score over the path (rows) and pi
# (columns); the circle marks the maximum. White: undefined (no unstable class, or
# every feature selected by every fit).
fig, axes = plt.subplots(2, 1, figsize=(7, 8), layout="constrained")
for ax, name in zip(axes, data):
    plot_calibration(fitted[name, "stability_score"], ax=ax)
    ax.set_title(f"{name}: stability score")

# %%
# Stabl's FDP+ curve: (1 + number of permuted features above t) / (number of real
# features above t); the chosen t is the first minimum.
fig, axes = plt.subplots(2, 1, figsize=(7, 8), layout="constrained")
for ax, name in zip(axes, data):
    plot_calibration(fitted[name, "fdp"], ax=ax)
    ax.set_title(f"{name}: FDP+")

# %%
# The summary says what was chosen and why:
print(fitted["breast cancer", "stability_score"].summary())
