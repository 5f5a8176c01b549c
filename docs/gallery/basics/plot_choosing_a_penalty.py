"""
Choosing the lasso's penalty for accuracy and stability
=======================================================

From data to stability: ``propstab.assess`` runs each candidate selector on the same
40 bootstrap samples, builds its selection matrix and estimates its stability; the
out-of-bag R² measures its accuracy. The selectors on the Pareto front are those that
no other beats on both (Sechidis et al. 2019, sec. 4.1). See :doc:`/from_data`.
"""
import numpy as np
from sklearn.linear_model import Lasso

import propstab
from propstab.plots import plot_pareto_front

rng = np.random.default_rng(1)
X = rng.normal(size=(200, 20))
y = X[:, :4] @ [1.5, -1.0, 1.0, 0.5] + rng.normal(size=200)  # 4 relevant features

alphas = [0.01, 0.03, 0.1, 0.2, 0.3]
comparison = propstab.assess(
    {f"alpha={a}": Lasso(alpha=a) for a in alphas}, X, y, n_runs=40, random_state=0
)
for label, a in comparison.assessments.items():
    low, high = a.confidence_interval(0.95)
    print(
        f"{label:11s} R2 {a.mean_score:.3f}  stability {a.stability:.3f} "
        f"[{low:.3f}, {high:.3f}]"
    )
print("Pareto optimal:", ", ".join(comparison.pareto_optimal))

# %%
# A small penalty selects many noise features, differently on every bootstrap: the
# most accurate lasso is also very unstable. A slightly larger penalty loses little
# accuracy and gains a lot of stability.
assessments = list(comparison.assessments.values())
ax = plot_pareto_front(
    [a.mean_score for a in assessments],
    [a.stability for a in assessments],
    labels=list(comparison.assessments),
    stability_ci=[a.confidence_interval(0.95) for a in assessments],
    xlabel="mean out-of-bag R²",
)
