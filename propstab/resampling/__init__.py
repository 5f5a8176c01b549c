"""From data to stability: the resampling protocol for any feature selector.

:func:`resample` runs a selector on M resamples of a data set and returns the
selection matrix Z with the per-run out-of-sample scores, the resample indices and
any failed fits (Sechidis et al. 2019, Algorithm 1; thesis sec. 5.2.2 for the
bootstrap). :func:`assess` goes on to the stability estimate with its confidence
interval, the per-feature selection frequencies and the mean score, and for several
selectors at once to the accuracy-versus-stability Pareto front (Sechidis et al.
sec. 4.1) and pairwise tests on paired resamples.

Failed fits: a run whose fit (or the reading of its selection) raises is recorded in
``ResamplingResult.failures`` with the exception's type and message and the failing
stage, excluded from Z and the scores, and a :class:`FailedFitWarning` says how many
runs failed. A run whose *scoring* alone fails keeps its selection in Z, with a NaN
score, and is recorded in ``ResamplingResult.score_failures``
(:class:`ScoringFailedWarning`). If
every run fails, or fewer than 2 succeed, :func:`resample` raises ``ValueError``
naming ``selector`` and quoting the first failure (the selector does not work on
these data: a programming error in a selector function, or a model that fails to
fit, is met in every run).

The package's private modules, by concern: ``_schemes`` (the resampling schemes,
complementary pairs shared with :class:`propstab.StabilitySelection`, splitter
objects), ``_scoring`` (the task of y, scorers, downstream models), ``_runner``
(planning and executing the runs: seeds, joblib; :func:`resample`), ``_results``
(:class:`ResamplingResult`, :class:`RunFailure` and the protocol's warnings),
``_assessments`` (:class:`Assessment`, :class:`RankingAssessment`,
:class:`Comparison`) and ``_assess`` (:func:`assess`, :func:`pareto_front`).
"""
from ._assess import assess, pareto_front
from ._assessments import Assessment, Comparison, RankingAssessment
from ._results import (
    FailedFitWarning,
    HalfwidthNotReachedWarning,
    ResamplingResult,
    RunFailure,
    ScoringFailedWarning,
    UnscoredWarning,
)
from ._runner import OUTPUTS, resample  # noqa: F401 - OUTPUTS, SCHEMES: as before
from ._schemes import SCHEMES  # noqa: F401

# the public path is the classes' home for pickles and help(): a pickled result names
# propstab.resampling.ResamplingResult, whichever private module defines it
for _cls in (
    Assessment,
    Comparison,
    FailedFitWarning,
    HalfwidthNotReachedWarning,
    RankingAssessment,
    ResamplingResult,
    RunFailure,
    ScoringFailedWarning,
    UnscoredWarning,
):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "Assessment",
    "Comparison",
    "FailedFitWarning",
    "HalfwidthNotReachedWarning",
    "RankingAssessment",
    "ResamplingResult",
    "RunFailure",
    "ScoringFailedWarning",
    "UnscoredWarning",
    "assess",
    "pareto_front",
    "resample",
]
