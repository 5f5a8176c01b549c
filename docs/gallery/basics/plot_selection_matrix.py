"""
The stability of a selection matrix
===================================

A selector ran on 30 resamples of a data set with 12 features. Each run is a row of the
selection matrix Z (30 x 12), with a 1 for every feature the run selected. Here the
runs are simulated: features 0 to 3 are selected most of the time, the others now and
then.
"""
import numpy as np

import propstab
from propstab.plots import plot_feature_stability_map, plot_selection_frequencies

rng = np.random.default_rng(0)
probabilities = np.r_[0.95, 0.9, 0.85, 0.7, np.full(8, 0.1)]
Z = (rng.random((30, 12)) < probabilities).astype(int)
print(Z[:5])

# %%
# Stability, with a confidence interval
# -------------------------------------
# Nogueira's estimator is the default measure. With 30 runs it is an estimate: the
# confidence interval says how precise it is (thesis sec. 5.2).
est = propstab.estimate(Z)
low, high = est.confidence_interval(0.95)
print(f"stability {est.statistic:.3f}, 95% CI [{low:.3f}, {high:.3f}], " f"{est.interpretation}")

# %%
# Other measures give other numbers: they do not measure the same thing (see
# :doc:`/user_guide/choosing`). Dice's index reads much higher: it is not corrected for
# chance. Jaccard's exactly corrected version puts chance at 0, like Nogueira's
# estimator, but weighs the pairs of runs differently.
for name, options in [
    ("nogueira", {}),
    ("jaccard", {}),
    ("jaccard", {"correction_for_chance": "exact"}),
    ("dice", {}),
]:
    value = propstab.stability(Z, measure=name, **options)
    print(f"{name:10s} {str(options):38s} {value:.3f}")

# %%
# Which features are stable?
# --------------------------
# The selection frequency of each feature, and the runs x features map (rows and
# columns ordered by clustering, as R's ``stabm::plotFeatures``).
ax = plot_selection_frequencies(Z.mean(axis=0), cutoff=0.5)

# %%
ax = plot_feature_stability_map(Z)
