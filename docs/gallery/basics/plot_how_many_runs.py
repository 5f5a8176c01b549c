"""
How many runs are enough?
=========================

The confidence interval of a stability estimate narrows like 1/sqrt(M) as runs are
added: its variance is about c / M. From the runs made so far, c is estimated as M times
the variance, which predicts the half-width for any number of runs
(:func:`propstab.inference.halfwidth_curve`) and the runs a target half-width needs
(:func:`propstab.inference.runs_needed`). Here 40 simulated runs of a selector on 12
features, whose first four features are usually selected.
"""
import numpy as np

import propstab
from propstab.inference import halfwidth_curve, runs_needed
from propstab.plots import plot_halfwidth

rng = np.random.default_rng(0)
probabilities = np.r_[0.95, 0.9, 0.85, 0.7, np.full(8, 0.1)]
Z = (rng.random((40, 12)) < probabilities).astype(int)

est = propstab.estimate(Z)
low, high = est.confidence_interval()
print(
    f"M = 40: stability {est.statistic:.3f}, 95% CI [{low:.3f}, {high:.3f}], "
    f"half-width {(high - low) / 2:.3f}"
)
for m in (100, 400):
    print(f"predicted half-width at M = {m}: {halfwidth_curve(est, m)[0]:.3f}")
print(f"runs for a half-width of 0.05: {runs_needed(est, 0.05)}")

# %%
# The estimate on the first m runs with its band (m = 3..40), and dashed the band the 40
# runs predict up to 400 runs; the dotted line is where the half-width reaches 0.05.
plot_halfwidth(Z, n_runs_max=400, target_halfwidth=0.05)

# %%
# Near the top of the range
# -------------------------
# Every interval is clipped to the measure's range. When 29 runs agree and one differs,
# the Wald interval reaches past 1 and is cut there; the logit (Fisher z) and bootstrap
# intervals are other answers, whose coverage near the top is in
# :doc:`/inference_validation`.
near_top = [[1, 1, 0, 0, 0, 0]] * 29 + [[0, 0, 1, 1, 0, 0]]
est = propstab.estimate(near_top)
for method in ("wald", "logit", "bootstrap", "bca"):
    low, high = est.confidence_interval(method=method)
    print(f"{method:9s} [{low:.3f}, {high:.3f}]")
