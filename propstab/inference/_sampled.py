"""The estimate of a pairwise measure from sampled pairs of runs (``pairs=`` of
:func:`propstab.estimate`): :class:`SampledPairsEstimate`.

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import dataclasses
import math
from typing import List, Tuple

from .._utils.results import Result
from .._utils.text import Summary, interval, level_label, number, summary
from .._utils.checks import check_choice, check_confidence_level
from ..measures._sampled_pairs import pair_sample
from ._wald import ConfidenceInterval, wald_interval

__all__ = ["SAMPLED_TARGETS", "SampledPairsEstimate", "sampled_estimate"]

#: what an interval of a sampled-pairs estimate covers
SAMPLED_TARGETS = ("population", "all pairs")


@dataclasses.dataclass(frozen=True, repr=False)
class SampledPairsEstimate(Result):
    """A pairwise measure estimated from B randomly sampled pairs of runs (an incomplete
    U-statistic), with the variance of each of its two sources.

    ``repr`` is one line; ``str`` (and ``print``) show :meth:`summary`.

    Parameters
    ----------
    statistic : float
        :math:`U_B`, the mean of the measure's pair score over the B sampled ordered
        pairs.
    pairs_variance : float
        :math:`s^2 / B`, the variance of :math:`U_B` around the all-pairs value :math:`U`
        of these runs (:math:`s^2` the sample variance of the B scores).
    runs_variance : float
        Hoeffding's variance of U over samples of runs, estimated from the sampled pairs.
    n_pairs : int
        B.
    n_runs, n_features : int
        M and d.
    measure : str
        The registered name of the pairwise measure.

    Attributes
    ----------
    variance : float
        ``runs_variance + pairs_variance``:
        :math:`\\operatorname{Var}(U_B) = \\operatorname{Var}(U) + E[S_N^2]/B` (Blom 1976),
        the variance around the population stability.
    standard_error : float
        Its square root.
    sampled : bool
        Always True: the value is not the mean over every pair.

    See Also
    --------
    propstab.estimate : Returns one for ``pairs=`` an integer (or ``"auto"`` on many runs).
    propstab.StabilityEstimate : The estimate from every pair.

    Notes
    -----
    With B ordered pairs drawn uniformly with replacement, given the runs
    :math:`E[U_B] = U` and :math:`\\operatorname{Var}(U_B) = S_N^2/B`; over samples of runs
    :math:`\\operatorname{Var}(U_B) = \\operatorname{Var}(U) + E[S_N^2]/B
    = (1 - 1/B)\\operatorname{Var}(U) + \\sigma_h^2/B`, and
    :math:`\\operatorname{Var}(U) = (4(M-2)\\zeta_1 + 2\\zeta_2)/(M(M-1))` (Hoeffding), with
    :math:`\\zeta_1` estimated from sampled pairs sharing one run. Both intervals are Wald
    intervals on the normal approximation of the incomplete U-statistic (Janson 1984).
    The population interval needs many sampled pairs per run (coverage 94.6 % at
    B = 40 M, 91.6 % at B = 2 M in ``studies/sampled_pairs_coverage.py``): take
    B >= 10 M for it; the all-pairs interval holds 93-95 % from B = 1,000.

    References
    ----------
    Blom, G. (1976). Some properties of incomplete U-statistics. Biometrika 63(3), 573-580.
    Janson, S. (1984). The asymptotic distributions of incomplete U-statistics.
    Z. Wahrsch. Verw. Gebiete 66, 495-505. Lee, A. J. (1990). U-Statistics: Theory and
    Practice, ch. 4.3. Hoeffding, W. (1948). Ann. Math. Stat. 19(3), 293-325.

    Examples
    --------
    >>> from propstab import estimate
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0], [0, 1, 1, 0]]
    >>> est = estimate(Z, "jaccard", pairs=2000, random_state=1)
    >>> est.sampled, est.n_pairs, round(est.statistic, 3)
    (True, 2000, 0.525)
    >>> low, high = est.confidence_interval(target="all pairs")
    >>> bool(low < estimate(Z, "jaccard").statistic < high)
    True
    """

    statistic: float
    pairs_variance: float
    runs_variance: float
    n_pairs: int
    n_runs: int
    n_features: int
    measure: str
    sampled = True
    _repr_fields = ("measure", "statistic", "standard_error", "n_pairs", "n_runs", "n_features")

    @property
    def variance(self) -> float:
        """``runs_variance + pairs_variance`` (around the population stability)."""
        return self.runs_variance + self.pairs_variance

    @property
    def standard_error(self) -> float:
        """The square root of :attr:`variance`."""
        return math.sqrt(self.variance) if self.variance >= 0 else math.nan

    @property
    def note(self) -> str:
        """What the value is: the mean over B sampled pairs, not over every pair."""
        total = self.n_runs * (self.n_runs - 1)
        return (
            f"mean over {self.n_pairs} sampled ordered pairs of the {total} (incomplete "
            f"U-statistic); pairs standard error {number(math.sqrt(self.pairs_variance))}"
        )

    def confidence_interval(
        self, confidence_level: float = 0.95, *, target: str = "population"
    ) -> ConfidenceInterval:
        """The two-sided Wald interval for the population stability (``target=
        "population"``: variance :attr:`variance`) or for the exact all-pairs value of
        these runs (``target="all pairs"``: variance :attr:`pairs_variance`).

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95
        target : {"population", "all pairs"}

        Returns
        -------
        ConfidenceInterval
        """
        level = check_confidence_level(confidence_level)
        check_choice("target", target, SAMPLED_TARGETS)
        variance = self.variance if target == "population" else self.pairs_variance
        return wald_interval(
            self.statistic,
            variance,
            level,
            "two-sided",
            f"the sampled-pairs variance ({target}) of {self.measure}",
        )

    def summary(self, confidence_level: float = 0.95) -> Summary:
        """A few lines: the estimate, both standard errors and intervals, M, d, B.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        Summary
        """
        return summary("Stability estimate from sampled pairs", self._fields(confidence_level))

    def _fields(self, confidence_level: float) -> List[Tuple[str, str]]:
        label = level_label(check_confidence_level(confidence_level))
        population = self.confidence_interval(confidence_level)
        exact = self.confidence_interval(confidence_level, target="all pairs")
        return [
            ("measure", self.measure),
            ("estimate", number(self.statistic, fixed=True)),
            (
                "standard error",
                f"{number(self.standard_error, fixed=True)} (runs and "
                f"pairs; pairs alone {number(math.sqrt(self.pairs_variance))})",
            ),
            (label, f"{interval(*population)} (Wald, population)"),
            (f"{label} all pairs", f"{interval(*exact)} (Wald, these runs' exact value)"),
            ("runs x features", f"{self.n_runs} x {self.n_features}"),
            ("note", self.note),
        ]


def sampled_estimate(sel, info, n_pairs: int, random_state) -> SampledPairsEstimate:
    """:class:`SampledPairsEstimate` of the pairwise measure ``info`` on ``sel``."""
    sample = pair_sample(sel, info.kernel, n_pairs, random_state, measure=info.name)
    return SampledPairsEstimate(
        sample.statistic,
        sample.pairs_variance,
        sample.runs_variance,
        n_pairs,
        sel.n_runs,
        sel.n_features,
        info.name,
    )
