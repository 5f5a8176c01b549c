"""Statistical inference for stability: variance, confidence intervals, hypothesis tests.

A stability value computed from M resamples is an estimate of a population
quantity. For Nogueira's estimator (and Kuncheva's index, equal to it where it is
defined) the thesis gives its asymptotic normal distribution (Nogueira 2018,
sec. 5.2, Thm 6) through its equality with Fleiss' kappa (Gwet 2008); every other
registered measure gets the delete-one-run jackknife variance. On top of these:
Wald confidence intervals (Cor. 1), the one-sample test :math:`V_M` (sec. 5.2.5), the
two-sample test :math:`T_M` (Thm 7), a paired version for two procedures run on the same
resamples, and all pairwise comparisons with a multiple-testing correction (Holm by
default).

>>> import propstab
>>> Z = [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0]]
>>> est = propstab.estimate(Z)
>>> round(est.statistic, 4), round(est.standard_error, 4), est.interpretation
(0.4167, 0.1461, 'intermediate to good')
"""
from __future__ import annotations

from ._warnings import (  # noqa: F401
    ALTERNATIVES,
    CI_METHODS,
    INTERVAL_LABELS,
    ONE_SAMPLE_TESTS,
    PERMUTATION_BELOW,
    SIZE_BIAS_LIMIT,
    SMALL_M_BELOW,
    SMALL_M_BEST,
    SMALL_M_COVERAGE,
    SMALL_M_GREATER,
    SMALL_M_STUDY,
    TEST_METHODS,
    THESIS,
    VARIANCE_METHODS,
    DegenerateVarianceWarning,
    SmallSampleWarning,
    VaryingSizesWarning,
    ZeroVarianceWarning,
    auto_interval,
    small_sample_note,
    varying_sizes_note,
)
from ._wald import ConfidenceInterval, wald_interval  # noqa: F401
from ._estimates import (
    StabilityEstimate,
    estimate,
    interpret,  # noqa: F401
    population_stability,
    quietly,
    variance_label,
)
from ._tests import (
    HYPOTHESES,
    OneSampleTestResult,
    TwoSampleTestResult,
    chosen_test,
    one_sample_test,
    two_sample_test,
)  # noqa: F401
from ._multiple import CORRECTIONS, PairwiseTestTable, pairwise_tests  # noqa: F401
from ._planning import as_estimate, halfwidth_curve, nested_prefixes, runs_needed  # noqa: F401
from ._sampled import SampledPairsEstimate  # noqa: F401  (issue 24: sampled pairs)

__all__ = [
    "ConfidenceInterval",
    "DegenerateVarianceWarning",
    "OneSampleTestResult",
    "PairwiseTestTable",
    "SmallSampleWarning",
    "StabilityEstimate",
    "TwoSampleTestResult",
    "VaryingSizesWarning",
    "ZeroVarianceWarning",
    "estimate",
    "halfwidth_curve",
    "runs_needed",
    "one_sample_test",
    "varying_sizes_note",
    "pairwise_tests",
    "population_stability",
    "two_sample_test",
]
__all__ += ["SampledPairsEstimate"]
