"""
Validation of the confidence intervals and tests by simulation
==============================================================

Do the intervals of :func:`propstab.estimate` cover the population stability as often
as they claim, and does the two-sample test keep its level? This example checks both on
simulated selections whose population stability is known exactly (thesis sec. 6.1 at a
small scale): a run selects feature :math:`f` with probability :math:`p_f`,
independently of the other features and runs, so that the population stability
:math:`\\Phi` follows from the :math:`p_f` (:func:`propstab.population_stability`).

Symbols: :doc:`/notation`. The full study (thousands of repeats, the thesis's Tables
6.2 and 6.3 and Fig. 6.4, and the other measures' jackknife intervals) is the script
``studies/validate_inference.py`` of the source repository; its results are on the page
:doc:`/inference_validation`.
"""
import warnings

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

import propstab
from propstab.inference import SmallSampleWarning

rng = np.random.default_rng(20180917)

# %%
# A population of selections
# --------------------------
# 50 features; the selection probability falls from near 1 to near 0 around the 15th
# feature, so a run selects about 15 features. A second population selects the same
# features less consistently (its probabilities are pulled towards their mean), for the
# power of the test.
d = 50
p1 = 1 / (1 + np.exp((np.arange(d) - 15) / 2.0))
p2 = p1.mean() + 0.98 * (p1 - p1.mean())
Phi1, Phi2 = propstab.population_stability(p1), propstab.population_stability(p2)
print(f"population stability: first {Phi1:.4f}, second {Phi2:.4f}")


def draw(p, n_runs):
    """``n_runs`` independent runs: feature f selected with probability p[f]."""
    return rng.random((n_runs, p.size)) < p


# %%
# The estimate approaches the population value
# --------------------------------------------
# 100 repeats at each number of runs M: the estimates' mean and the range of their middle
# 95 %, against the population stability (the dashed line).
runs = np.array([10, 20, 50, 100, 200, 500])
estimates = np.array(
    [[propstab.estimate(draw(p1, M)).statistic for _ in range(100)] for M in runs]
)
low, mid, high = np.percentile(estimates, [2.5, 50, 97.5], axis=1)

fig, ax = plt.subplots(figsize=(8, 4.5))
ax.fill_between(runs, low, high, alpha=0.3, label="middle 95 % of the estimates")
ax.plot(runs, estimates.mean(axis=1), "o-", label="mean of the estimates")
ax.axhline(Phi1, color="k", ls="--", label=f"population stability {Phi1:.3f}")
ax.set_xscale("log")
ax.set_xlabel("number of runs M")
ax.set_ylabel("estimated stability (Nogueira)")
ax.set_title("The estimate converges to the population stability")
ax.legend()
fig.tight_layout()

# %%
# Coverage of the 95 % intervals
# ------------------------------
# 400 repeats at each M; an interval covers when the population stability lies in it.
# With 400 repeats, even a true coverage of exactly 95 % is observed anywhere in the
# binomial 95 % range printed below the table. Below 100 runs, :func:`propstab.estimate`
# uses the logit interval with a jackknife variance (``method="auto"``); from 100 runs
# on, the Wald interval of the thesis's Corollary 1.
#
# Below 100 runs, :func:`propstab.estimate` also warns (``SmallSampleWarning``) that the
# asymptotic intervals may miss their level and reports the coverage the full study
# measured. Measuring that coverage is what this section does, so the warning is
# silenced here, for these calls only.
repeats = 400
print(f"{'M':>5} {'coverage':>9} {'mean width':>11}")
for M in (10, 30, 100, 300):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        intervals = np.array(
            [propstab.estimate(draw(p1, M)).confidence_interval(0.95) for _ in range(repeats)]
        )
    covered = (intervals[:, 0] <= Phi1) & (Phi1 <= intervals[:, 1])
    print(
        f"{M:>5} {100 * covered.mean():8.1f}% "
        f"{np.mean(intervals[:, 1] - intervals[:, 0]):11.3f}"
    )
band = stats.binom.ppf([0.025, 0.975], repeats, 0.95) / repeats
print(
    f"a true 95 % coverage is observed in [{100 * band[0]:.1f}%, {100 * band[1]:.1f}%] "
    f"with {repeats} repeats"
)

# %%
# The two-sample test: level and power
# ------------------------------------
# Two independent experiments of M = 100 runs each, compared with
# :func:`propstab.two_sample_test`. When both come from the same population (the null
# hypothesis holds) the statistic should follow the standard normal law, and a test at
# level 5 % should reject in about 5 % of the repeats; when the second comes from the
# less stable population, the statistic is shifted and the test rejects more often (its
# power).
M = 100
same = [propstab.two_sample_test(draw(p1, M), draw(p1, M)) for _ in range(repeats)]
other = [propstab.two_sample_test(draw(p1, M), draw(p2, M)) for _ in range(repeats)]
t_same = np.array([r.statistic for r in same])
t_other = np.array([r.statistic for r in other])
print(
    f"same population:      rejected at 5 % in {np.mean([r.pvalue < 0.05 for r in same]):.1%}"
    f" of {repeats} repeats (the level)"
)
print(
    f"different population: rejected at 5 % in "
    f"{np.mean([r.pvalue < 0.05 for r in other]):.1%} of {repeats} repeats (the power)"
)
print(
    f"Kolmogorov-Smirnov test of the statistic against N(0, 1) under the null hypothesis: "
    f"p = {stats.kstest(t_same, 'norm').pvalue:.2f}"
)

fig, ax = plt.subplots(figsize=(8, 4.5))
grid = np.linspace(-4, 8, 300)
ax.hist(t_same, bins=30, density=True, alpha=0.5, label="same population")
ax.hist(t_other, bins=30, density=True, alpha=0.5, label="second population less stable")
ax.plot(grid, stats.norm.pdf(grid), "k-", label="standard normal density")
ax.set_xlabel("test statistic (difference of the estimates / its standard error)")
ax.set_ylabel("density")
ax.set_title(f"Two-sample test statistic, M = {M} runs per experiment, {repeats} repeats")
ax.legend()
fig.tight_layout()
