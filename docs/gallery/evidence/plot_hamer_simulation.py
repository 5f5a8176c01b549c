"""
Stability against the size of groups of correlated features
===========================================================

Hamer and Dupont (2021), sec. 6.1, at a small scale. Five groups of :math:`q` strongly
correlated features carry the signal. The lasso picks one feature of a group on one
bootstrap sample and another on the next: classical measures such as Nogueira's count
these swaps as instability, although the selected information hardly changes. The
measures for correlated feature spaces (:doc:`/correlated`) take the features'
similarity into account and should not fall as the groups grow.

Symbols: :doc:`/notation`. The full simulation (eight group sizes, 200 noise features,
30 bootstrap samples, three data sets per size) is the script
``studies/hamer_simulation.py`` of the source repository; its results are discussed on
the page :doc:`/correlated`.
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import Lasso

import propstab
from propstab.measures import msi, nogueira, pearson, pogr, sechidis

N_GROUPS = 5


def make_data(q, n_noise, mu_group, rho, rng, n_per_class=100):
    """Two classes centred at +mu and -mu; 5 groups of q features with correlation rho
    inside a group (mean shift mu_group), then n_noise features with a shift of 0.05."""
    n = 2 * n_per_class
    y = np.repeat([1.0, -1.0], n_per_class)
    shared = rng.normal(size=(n, N_GROUPS))
    groups = np.sqrt(rho) * np.repeat(shared, q, axis=1) + np.sqrt(1 - rho) * rng.normal(
        size=(n, N_GROUPS * q)
    )
    X = np.hstack([groups, rng.normal(size=(n, n_noise))])
    mu = np.r_[np.full(N_GROUPS * q, mu_group), np.full(n_noise, 0.05)]
    return X + y[:, None] * mu, y


def standardise(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


# %%
# The lasso on bootstrap samples
# ------------------------------
# Scenario 3 of Hamer and Dupont's Table 2: group mean shift 0.5, correlation 0.95 inside
# a group, here 40 noise features. The lasso's penalty is fixed so that it selects about
# 20 features at q = 1. For each group size q, 10 bootstrap samples give a selection
# matrix (one row per sample) and the absolute coefficients as importances.
# The similarity of two features is their absolute Spearman correlation on the data,
# with values below 0.2 (sampling noise at 200 samples) set to 0.
n_noise, n_runs, alpha = 40, 10, 0.06
sizes = [1, 2, 4, 8]
names = {
    "nogueira": "Nogueira (classical)",
    "sechidis": "Sechidis et al. (similarity)",
    "msi": "MSI (similarity and importances)",
    "pearson": "Pearson (importances)",
    "pogr": "POGR (similar features count)",
}
values = {m: [] for m in names}
for q in sizes:
    rng = np.random.default_rng(1000 + q)
    X, y = make_data(q, n_noise, mu_group=0.5, rho=0.95, rng=rng)
    S = propstab.similarity_from_data(X, method="spearman", sparse=True)
    S.data[S.data < 0.2] = 0
    S.eliminate_zeros()
    W = np.zeros((n_runs, X.shape[1]))
    for i in range(n_runs):  # one lasso fit per bootstrap sample
        rows = rng.integers(0, len(y), len(y))
        W[i] = np.abs(Lasso(alpha=alpha, max_iter=5000).fit(standardise(X[rows]), y[rows]).coef_)
    Z = W > 0
    values["nogueira"].append(nogueira(Z))
    values["sechidis"].append(sechidis(Z, similarity=S))
    values["msi"].append(msi(Z, similarity=S, importances=W))
    values["pearson"].append(pearson(Z, importances=W))
    values["pogr"].append(pogr(Z, similarity=S, threshold=0.5))
    print(
        f"q = {q}: {X.shape[1]} features, on average {Z.sum(axis=1).mean():.1f} selected; "
        + ", ".join(f"{m} {values[m][-1]:.3f}" for m in names)
    )

# %%
# The classical measure falls as the groups grow, because the lasso swaps between the
# features of a group; the measures that see the similarity fall less or not at all.
fig, ax = plt.subplots(figsize=(8, 4.5))
for m, label in names.items():
    ax.plot(sizes, values[m], marker="o", label=label)
ax.set_xlabel("q, number of features in each correlated group")
ax.set_ylabel("stability")
ax.set_title("The lasso on 10 bootstrap samples")
ax.axhline(0, color="grey", lw=0.5)
ax.grid(alpha=0.3)
ax.legend(loc="lower left")
fig.tight_layout()
