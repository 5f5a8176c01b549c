"""Known defects of the R reference (stabm 1.2.2) that propstab does not copy.

Each entry is data: the measures and R functions it concerns, why stabm differs,
a minimal example in R with both values, and ``applies(measure, sel, options)`` telling
the cross-check harness whether a case falls under it (``None`` when the bridge
can never produce such a case: the defect is pinned by an R-level test only).
A case under an entry whose values differ is reported as an *expected
difference*; any other difference fails the cross-check. Every entry is pinned
by a test in ``r_compat/`` (live) and by the committed reference values.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Mapping, Optional, Tuple

import numpy as np

from ..measures.frequency import _cw_parts

__all__ = ["EXPECTED_DIFFERENCES", "ExpectedDifference", "expected_differences_for",
           "markdown_table"]

ADJUSTED_INTERSECTIONS = ("yu", "intersection_count", "intersection_greedy",
                          "intersection_mbm", "intersection_mean")
THRESHOLDED = ADJUSTED_INTERSECTIONS + ("zucknick",)


@dataclasses.dataclass(frozen=True)
class ExpectedDifference:
    """A documented difference between propstab and its R reference.

    Attributes
    ----------
    key : str
        Short identifier, used in reports and tests.
    measures : tuple of str
        propstab measure names concerned (some may not be registered yet).
    r_functions : tuple of str
        The R functions, ``package::function``.
    summary : str
        One line.
    reason : str
        Why the values differ, and which side follows the definition.
    example : str
        A minimal example, as R code.
    r_result, propstab_result : str
        What R and propstab give on the example.
    applies : callable or None
        ``applies(measure, sel, options) -> bool`` for a case (the measure's name, a
        validated Selection and the measure's full options); None when the bridge
        never produces such a case.
    """

    key: str
    measures: Tuple[str, ...]
    r_functions: Tuple[str, ...]
    summary: str
    reason: str
    example: str
    r_result: str
    propstab_result: str
    applies: Optional[Callable[..., bool]] = None

    def as_dict(self) -> "dict":
        d = dataclasses.asdict(self)
        d.pop("applies")
        return d


def _off_diagonal(similarity):
    """The stored off-diagonal similarities, and whether some off-diagonal entry is an
    unstored zero (sparse input)."""
    from scipy import sparse
    if sparse.issparse(similarity):
        C = sparse.csr_matrix(similarity)
        C.sum_duplicates()
        C = C.tocoo()
        off = C.row != C.col
        d = C.shape[0]
        return C.data[off], int(off.sum()) < d * d - d
    C = np.asarray(similarity, dtype=np.float64)
    return C[~np.eye(C.shape[0], dtype=bool)], False


def _no_similar_pair(measure, sel, options: Mapping) -> bool:
    C = options.get("similarity")
    if C is None:
        return False
    t = options.get("threshold")
    values, unstored_zero = _off_diagonal(C)
    return not (np.any(values >= t) or (unstored_zero and t <= 0))


def _threshold_zero(measure, sel, options: Mapping) -> bool:
    from scipy import sparse
    C = options.get("similarity")
    if C is None or sparse.issparse(C) or options.get("threshold") != 0:
        return False
    values, _ = _off_diagonal(C)
    return bool(np.any(values == 0))


def _global_score_many_runs(measure, sel, options: Mapping) -> bool:
    return options.get("correction_for_chance") == "exact" and sel.n_runs > 2


def _davis_penalty(measure, sel, options: Mapping) -> bool:
    return options.get("correction_for_chance") == "exact" and options.get("penalty", 0) > 0


def _cw_extremes_equal(measure, sel, options: Mapping) -> bool:
    N = sel.total
    if N == 0:
        return False
    _, _, num_min, num_max = _cw_parts(N, sel.n_runs, sel.n_features)
    return num_min == sel.n_features * num_max      # CW_min == CW_max (eqs 11, 14)


def _single_subject(measure, sel, options: Mapping) -> bool:
    return sel.n_features == 1


def _nan_not_na(measure, sel, options: Mapping) -> bool:
    if measure == "wald":     # a pair (full run, non-empty run): 0/0 in stabm
        k = sel.row_sizes
        return bool(np.all(k > 0) and np.any(k == sel.n_features))
    return _cw_extremes_equal(measure, sel, options)


EXPECTED_DIFFERENCES: Tuple[ExpectedDifference, ...] = (
    ExpectedDifference(
        key="adjusted_no_similar_pair",
        measures=ADJUSTED_INTERSECTIONS,
        r_functions=("stabm::stabilityYu", "stabm::stabilityIntersectionCount",
                     "stabm::stabilityIntersectionGreedy", "stabm::stabilityIntersectionMBM",
                     "stabm::stabilityIntersectionMean"),
        summary="with no similar pair of features, stabm silently switches to "
                "intersection.common (stabilityUnadjusted's formula)",
        reason="stabm's stability() looks for an off-diagonal entry of sim.mat >= threshold; "
               "when there is none it replaces the measure by 'intersection.common' and the "
               "correction by the 'unadjusted' expectation k_i k_j / p, i.e. it returns "
               "mean (r - k_i k_j/p) / (sqrt(k_i k_j) - k_i k_j/p). Yu's maximum is "
               "(k_i + k_j)/2, not sqrt(k_i k_j), so Yu's value changes as soon as two runs "
               "differ in size (Yu's own definition then equals stabm's kappa). Without "
               "correction the raw scores coincide except for two empty runs, where Yu is "
               "undefined (NA in stabm's own yu) and intersection.common gives 0. For the "
               "intersection.* measures score, maximum and exact expectation are unchanged by "
               "the switch (only correction 'estimate' silently becomes exact). propstab "
               "evaluates each measure's own definition.",
        example='stabilityYu(list(1, 1:2), sim.mat = diag(3), threshold = 0.9, '
                'correction.for.chance = "exact")',
        r_result="0.4459029 = stabilityUnadjusted(list(1, 1:2), p = 3)",
        propstab_result="Yu's definition: (1 - 2/3) / (3/2 - 2/3) = 0.4 "
                        "= stabilityKappa(list(1, 1:2), p = 3)",
        applies=_no_similar_pair),
    ExpectedDifference(
        key="corrected_global_score",
        measures=("davis", "novovicova"),
        r_functions=("stabm::stabilityDavis", "stabm::stabilityNovovicova"),
        summary="corrected Davis and Novovicova subtract pairwise expectations from a "
                "global score",
        reason="with correction.for.chance, stabm computes the global score S of all M runs, "
               "then for every pair of runs the expectation E_ij of the score of two random "
               "runs of sizes k_i, k_j, and returns mean_ij (S - E_ij) / (max - E_ij). The "
               "expectation of S itself depends on all M sizes, so for M > 2 the result is "
               "not corrected for chance (its null expectation is not 0). propstab subtracts "
               "the exact expectation of S under the null model (union-size law for Davis, "
               "Poisson-binomial column counts for Novovicova). For M = 2 both coincide "
               "(with Davis's penalty 0, see davis_penalty_maximum).",
        example='stabilityDavis(list(1:2, 2:3, c(1, 3)), p = 4, correction.for.chance = '
                '"exact"); stabilityNovovicova(list(1:2, 2:3, c(1, 3)), p = 4, '
                'correction.for.chance = "exact")',
        r_result="-0.0909090909 (Davis); 0.2618595071 (Novovicova)",
        propstab_result="0.1910112360 (Davis); 0.1506549719 (Novovicova); for M = 2, "
                        "list(1:2, 2:3): both give -0.0909090909 (Davis) and 0 (Novovicova)",
        applies=_global_score_many_runs),
    ExpectedDifference(
        key="davis_penalty_maximum",
        measures=("davis",),
        r_functions=("stabm::stabilityDavis",),
        summary="corrected Davis with a penalty: stabm normalises by "
                "max(1 - penalty/p, floor((M-1)/2)/M), propstab by 1",
        reason="stabm's maximum for Davis is max(1 - penalty/p, floor((M - 1)/2)/M), whatever "
               "the sizes; propstab's correction (Phi - E) / (1 - E) uses the measure's "
               "declared maximum 1. Neither is the maximum over matrices with the observed "
               "sizes (1 - penalty * median(k)/d for identical rows), so the two differ by the "
               "normalising constant even for M = 2; where stabm's maximum equals the "
               "expectation (e.g. both 0 when penalty >= p) stabm gives NA, propstab 0.",
        example='stabilityDavis(list(1:2, 2:3), p = 4, correction.for.chance = "exact", '
                'penalty = 1)',
        r_result="-0.05",
        propstab_result="-0.0344827586 (= -1/29)",
        applies=_davis_penalty),
    ExpectedDifference(
        key="sparse_similarity_dimensions",
        measures=THRESHOLDED,
        r_functions=("stabm::stabilityYu", "stabm::stabilityZucknick",
                     "stabm::stabilityIntersectionCount", "stabm::stabilityIntersectionGreedy",
                     "stabm::stabilityIntersectionMBM", "stabm::stabilityIntersectionMean"),
        summary="a sparse similarity matrix loses trailing dimensions when thresholding",
        reason="for a symmetric Matrix similarity with an entry below threshold, stabm rebuilds "
               "it with sparseMatrix(i, j, x, symmetric = TRUE) without dims, so its size is "
               "the largest stored index: when the last features have no stored entry "
               "(e.g. the diagonal is not stored) the matrix shrinks and stabm rejects valid "
               "feature indices (or computes on a smaller feature space). The dense path "
               "passes dims. propstab's bridge always stores the diagonal, so the harness "
               "never meets this; an R-level test pins it.",
        example='S <- Matrix::sparseMatrix(i = c(1, 3), j = c(2, 4), x = c(0.95, 0.5), '
                'dims = c(4, 4), symmetric = TRUE); stabilityZucknick(list(c(1, 3), c(2, 4), '
                'c(1, 4)), sim.mat = S, threshold = 0.9)',
        r_result="error: Assertion on 'f' failed: Must be a subset of {'1','2'}",
        propstab_result="propstab requires the unit diagonal; sent with its diagonal stored "
                        "(as the bridge does) or dense, stabm gives 0.4069444",
        applies=None),
    ExpectedDifference(
        key="threshold_zero_dense_sparse",
        measures=THRESHOLDED,
        r_functions=("stabm::stabilityYu", "stabm::stabilityIntersectionCount",
                     "stabm::stabilityIntersectionGreedy", "stabm::stabilityIntersectionMean",
                     "stabm::stabilityIntersectionMBM", "stabm::stabilityZucknick"),
        summary="at threshold 0, dense and sparse similarity matrices give different values",
        reason="stabm converts a dense sim.mat to sparse form keeping every entry >= threshold; "
               "at threshold 0 that stores the zero similarities explicitly, and the measures "
               "count stored entries as similar pairs. A sparse sim.mat never stores its zeros, "
               "so the same matrix gives another value. propstab gives one value for both "
               "forms and never counts a zero similarity as similar (similar means >= threshold "
               "and > 0): it equals stabm's sparse result and differs from its dense one.",
        example='S <- diag(4); S[1, 2] <- S[2, 1] <- 0.5; f <- list(c(1, 3), c(2, 4), 3); '
                'stabilityYu(f, sim.mat = S, threshold = 0, correction.for.chance = "none") vs '
                'the same with sim.mat = as(as(S, "CsparseMatrix"), "symmetricMatrix")',
        r_result="1.5 (dense) vs 0.6666667 (sparse)",
        propstab_result="0.6666667 for the dense and the sparse form",
        applies=_threshold_zero),
    ExpectedDifference(
        key="nan_not_na",
        measures=("wald", "cwrel"),
        r_functions=("stabm::stabilityWald", "stabm::stabilitySomol"),
        summary="stabm returns NaN (not NA) where the measure is undefined",
        reason="stabm marks undefined values with NA, but Wald's similarity of a run selecting "
               "all p features with a non-empty run is computed as 0/0 = NaN, and Somol's "
               "measure where CW_max = CW_min as (CW - CW_min)/0 = NaN. propstab returns NaN "
               "with an UndefinedMeasureWarning for Wald (the value is 0/0), and CW for "
               "CW_rel (see somol_equal_extremes). The cross-check counts NA and NaN alike; "
               "this entry records that R's value is NaN.",
        example="stabilityWald(list(1:2, 1), p = 2); stabilitySomol(list(1, 1:2), p = 2)",
        r_result="NaN (is.nan TRUE) for both",
        propstab_result="nan with UndefinedMeasureWarning (wald); 2/3 (cwrel)",
        applies=_nan_not_na),
    ExpectedDifference(
        key="somol_equal_extremes",
        measures=("cwrel",),
        r_functions=("stabm::stabilitySomol",),
        summary="stabm's Somol is NaN/NA where CW_max = CW_min; Somol and Novovicova define "
                "CW_rel = CW there",
        reason="Somol and Novovicova (2010) eq. 6 set CW_rel = CW when CW_max = CW_min; stabm "
               "divides by zero (NaN) and returns NA explicitly when every run selects all p "
               "features. propstab follows the paper.",
        example="stabilitySomol(list(1, 1:2), p = 2); stabilitySomol(list(1:2, 1:2), p = 2)",
        r_result="NaN; NA",
        propstab_result="CW = 2/3; CW = 1",
        applies=_cw_extremes_equal),
    ExpectedDifference(
        key="irr_single_subject",
        measures=("nogueira",),
        r_functions=("irr::kappam.fleiss",),
        summary="irr::kappam.fleiss fails for a single subject (d = 1)",
        reason="kappam.fleiss first removes rows with NA by ratings[keep, ], which drops a "
               "one-row matrix to a vector, so ncol() is NULL and the loop 1:nr fails. Fleiss' "
               "kappa of one subject is defined when the raters disagree; propstab's nogueira "
               "(equal to it, thesis Thm 5) gives -1/(M - 1) for Z = [[1], [0]].",
        example="irr::kappam.fleiss(matrix(c(1L, 0L), nrow = 1))",
        r_result="error: argument of length 0 (in 1:nr)",
        propstab_result="nogueira([[1], [0]]) = -1.0",
        applies=_single_subject),
)


def expected_differences_for(measure: str) -> "tuple[ExpectedDifference, ...]":
    """The entries concerning ``measure``.

    >>> from propstab.r._defects import expected_differences_for
    >>> [e.key for e in expected_differences_for("davis")]
    ['corrected_global_score', 'davis_penalty_maximum']
    """
    return tuple(e for e in EXPECTED_DIFFERENCES if measure in e.measures)


def markdown_table() -> str:
    """The expected differences as a Markdown table (embedded in docs/r_crosscheck.md)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| key | measures (R functions) | what differs and why | minimal example (R) "
             "| R gives | propstab gives |",
             "|---|---|---|---|---|---|"]
    for e in EXPECTED_DIFFERENCES:
        funcs = ", ".join(f"`{f}`" for f in e.r_functions)
        lines.append(f"| `{e.key}` | {', '.join(e.measures)} ({funcs}) | "
                     f"**{cell(e.summary)}.** {cell(e.reason)} | `{cell(e.example)}` | "
                     f"{cell(e.r_result)} | {cell(e.propstab_result)} |")
    return "\n".join(lines)
