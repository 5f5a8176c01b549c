"""
Check your implementation of a measure
======================================

You wrote Nogueira's estimator yourself, in a few lines, and it gives the right numbers on
the matrices you tried. :func:`propstab.testing.assert_agrees` tries many more, drawn from
the measure's whole domain, and when your implementation and propstab's disagree it shrinks
the case to a minimal one. Here the implementation has the most common bug of stability
measures, a 0/0 of the normalisation returned as a number: it knows that the estimator is
undefined when no run selects anything, but guards the denominator with a small number
and so returns 1 where every run selects every feature (another 0/0). See :doc:`/agree`
for the other routes (R functions, any language through a command).
"""
import matplotlib.pyplot as plt
import numpy as np

import propstab
from propstab.testing import agreement, assert_agrees


def my_nogueira(Z):
    """Nogueira's estimator: 1 - mean_f s_f^2 / ((k/d)(1 - k/d))."""
    M, d = Z.shape
    k = Z.sum() / M / d  # mean subset size over d
    if k == 0:
        return None  # undefined: no run selects
    # the bug: k = 1 (every run selects every feature) is 0/0 too, returned as 1
    return 1 - Z.var(axis=0, ddof=1).mean() / max(k * (1 - k), 1e-12)


Z = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 1]])
print(my_nogueira(Z), propstab.stability(Z, "nogueira"))  # they agree here

# %%
# The check
# ---------
# In a test suite the assertion is the whole test. It fails with the shrunk case, both
# values, the reason and a line that reproduces it.
try:
    assert_agrees(my_nogueira, "nogueira")
except AssertionError as failure:
    print(failure)

# %%
# The shrunk case is the two-row matrix of two runs selecting their one feature: propstab
# declares the value undefined (NaN, with an ``UndefinedMeasureWarning``: the mean subset
# size is d), the implementation returns 1. Whatever larger matrix first showed the
# disagreement, the shrinker removed runs, features and selections while it remained.
#
# Outside pytest, :func:`propstab.testing.agreement` returns the same as a result: it
# unpacks, counts the examples and prints a summary. To see what was shrunk, record the
# matrices the implementation is called on and keep the first one where it disagrees.
seen = []


def recorded(Z):
    seen.append(Z.copy())
    return my_nogueira(Z)


agrees, counterexample = agreement(recorded, "nogueira")
first = next(Z for Z in seen if Z.all())
print(
    f"agrees: {agrees}; first failing case {first.shape[0]} x {first.shape[1]}, "
    f"shrunk to {counterexample.Z.shape[0]} x {counterexample.Z.shape[1]}:"
)
print(counterexample.Z.astype(int))

fig, axes = plt.subplots(
    1, 2, figsize=(7, 3), gridspec_kw={"width_ratios": [max(first.shape[1], 2), 2]}
)
for ax, matrix, title in [
    (axes[0], first, "first failing case"),
    (axes[1], counterexample.Z, "shrunk"),
]:
    ax.imshow(matrix.astype(int), cmap="Greys", vmin=0, vmax=1, aspect="equal")
    runs, features = matrix.shape
    ax.set_title(f"{title}\n{runs} runs x {features} feature{'s' * (features > 1)}")
    ax.set_xticks(range(matrix.shape[1]))
    ax.set_yticks(range(matrix.shape[0]))
    ax.set_xlabel("feature")
axes[0].set_ylabel("run")
fig.tight_layout()

# %%
# The fix
# -------
# Return NaN (or None) where the measure is undefined. The corrected implementation agrees
# on every case, the undefined ones included.


def my_nogueira_fixed(Z):
    M, d = Z.shape
    k = Z.sum() / M / d
    if k in (0, 1):
        return None
    return 1 - Z.var(axis=0, ddof=1).mean() / (k * (1 - k))


print(assert_agrees(my_nogueira_fixed, "nogueira", max_examples=500))
