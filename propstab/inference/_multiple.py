"""All pairwise two-sample tests with corrected p-values (PairwiseTestTable).

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple
import numpy as np
from ..registry._registry import get_measure, lookup
from .._utils.results import Result, frame_of
from .._utils.text import Summary, number, summary
from .._utils.params import RENAMED_TESTS, Checked, Options, renamed, validate_params
from .._data.convert_rankings import as_named_input
from .._utils.checks import check_choice, check_random_state, fail
from ._two_sample import COMPARISON_RULES, TwoSampleTestResult, compare


#: The corrections of :func:`pairwise_tests`: statsmodels' ``multipletests`` methods, with
#: the column heading and the phrase of their summary line.
CORRECTIONS = {
    "holm": ("Holm", "Holm's correction"),
    "bonferroni": ("Bonferroni", "Bonferroni's correction"),
    "sidak": ("Sidak", "Sidak's correction"),
    "holm-sidak": ("Holm-Sidak", "the Holm-Sidak correction"),
    "simes-hochberg": ("Hochberg", "Hochberg's (Simes-Hochberg) correction"),
    "hommel": ("Hommel", "Hommel's correction"),
    "fdr_bh": ("BH", "the Benjamini-Hochberg FDR correction"),
    "fdr_by": ("BY", "the Benjamini-Yekutieli FDR correction"),
    "fdr_tsbh": ("TSBH", "the two-stage Benjamini-Hochberg FDR correction"),
    "fdr_gbs": ("GBS", "the Gavrilov-Benjamini-Sarkar FDR correction"),
}


def _check_correction(name: str, correction, *, function=None) -> str:
    if isinstance(correction, str) and correction == "fdr_tsbky":
        fail(
            f"{name}: 'fdr_tsbky' is not supported: its adjusted p-values depend on the "
            f"level alpha, and a table of adjusted p-values is read at any level; use "
            f"'fdr_tsbh' or 'fdr_bh'",
            function=function,
        )
    return check_choice(name, correction, tuple(CORRECTIONS), function=function)


CORRECTION = Checked(
    _check_correction,
    f"one of {', '.join(map(repr, CORRECTIONS))}",
    invalid=("fdr_tsbky", "Holm", "no_such", 5, None, ["holm"]),
    like=Options(*CORRECTIONS),
)


def _adjusted_pvalues(pvalues, correction: str) -> np.ndarray:
    """The p-values adjusted by statsmodels' ``multipletests(method=correction)``.

    An undefined p-value (NaN) counts as one of the m tests and is never rejected: it
    enters as 1 and comes back NaN (for Holm, exactly the step-down formula with NaN
    sorted last).
    """
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:
        raise ImportError(
            "pairwise_tests needs statsmodels for the multiple-testing "
            "correction; install it with `pip install propstab[inference]`"
        ) from None
    p = np.asarray(pvalues, dtype=np.float64)
    undefined = np.isnan(p)
    if correction == "holm":
        adjusted = holm(np.where(undefined, 1.0, p))
        adjusted[undefined] = np.nan
        return adjusted
    with np.errstate(divide="ignore"):  # p = 1: log1p(-1) in Sidak, 1/(1 - p) in GBS
        adjusted = np.array(
            multipletests(np.where(undefined, 1.0, p), method=correction)[1], dtype=np.float64
        )
    adjusted[undefined] = np.nan
    return adjusted


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values, the same numbers as statsmodels'
    ``multipletests(p, method="holm")[1]``.

    With p_(1) <= ... <= p_(m) the sorted p-values (a stable sort), the adjusted value of
    p_(i) is min(1, max_{j <= i} (m - j + 1) p_(j)) (Holm 1979, *Scand. J. Statist.* 6,
    65-70). Written here because statsmodels' Holm branch calls ``gc.collect()`` on every
    call, which costs up to a second in a process holding many objects (a notebook, a
    test session) each time a comparison of selectors is printed.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="mergesort")
    stepped = np.maximum.accumulate(p[order] * np.arange(m, 0, -1))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


@dataclasses.dataclass(frozen=True, repr=False)
class PairwiseTestTable(Result):
    """All pairwise comparisons of :func:`pairwise_tests`, one row per pair.

    ``repr`` is one line; ``str`` (and ``print``) show :meth:`summary`, one line per
    pair; :meth:`to_frame` gives the rows as a DataFrame.

    Parameters
    ----------
    rows : tuple of dict
        One row per pair (see Attributes).
    paired : bool
        Whether the runs were paired.
    alternative : str
        ``"two-sided"``, ``"greater"`` or ``"less"``.
    measure : str or None, optional
        The measure compared.
    correction : str, default "holm"
        The multiple-testing correction.

    Attributes
    ----------
    rows : tuple of dict
        Keys: first, second, statistic, pvalue, difference (stability_first minus
        stability_second), stability_first, stability_second, test ("permutation" or
        "wald"), and the adjusted p-value under :attr:`adjusted_key`
        (``pvalue_holm`` for the default Holm correction, ``pvalue_fdr_bh`` for
        ``correction="fdr_bh"``, ``pvalue_holm_sidak`` for ``"holm-sidak"``).
    paired : bool
    alternative : str
    measure : str or None
        The measure compared (None when not recorded).
    correction : str
        The multiple-testing correction (a key of ``CORRECTIONS``), default "holm".

    See Also
    --------
    propstab.pairwise_tests : Returns it.
    propstab.inference.TwoSampleTestResult : One pair's test.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7 (each pair's test). Holm, S.
    (1979). A simple sequentially rejective multiple test procedure. Scand. J. Stat.
    6(2), 65-70.

    Examples
    --------
    >>> from propstab import pairwise_tests
    >>> A = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> B = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> table = pairwise_tests({"B": B, "C": [[1, 1, 0, 0]] * 4 + [[0, 1, 1, 0]], "A": A})
    >>> table
    PairwiseTestTable(n_pairs=3, paired=False, alternative='two-sided', measure='nogueira')
    >>> print(table)
    Pairwise tests of stability (thesis Thm 7), two-sided, Holm's correction over 3 pairs
    first  second  Phi first  Phi second  difference  statistic  test         p       p (Holm)
    -----  ------  ---------  ----------  ----------  ---------  -----------  ------  --------
    B      C       0.6000     0.6000      0.0000      0.0000     permutation  1       1
    B      A       0.6000     0.0000      0.6000      1.2027     permutation  0.2857  0.8571
    C      A       0.6000     0.0000      0.6000      1.2027     permutation  0.2857  0.8571
    difference = Phi first - Phi second ("greater": the first more stable); statistic = difference
    / SE
    """

    rows: Tuple[Dict[str, Any], ...]
    paired: bool
    alternative: str
    measure: Optional[str] = None
    correction: str = "holm"

    @property
    def adjusted_key(self) -> str:
        """The key of the adjusted p-value in :attr:`rows`: ``"pvalue_"`` and the correction."""
        return "pvalue_" + self.correction.replace("-", "_")

    @property
    def COLUMNS(self) -> Tuple[str, ...]:
        """The keys of a row, in the order of :meth:`to_frame`'s columns."""
        return (
            "first",
            "second",
            "stability_first",
            "stability_second",
            "difference",
            "statistic",
            "test",
            "pvalue",
            self.adjusted_key,
        )

    def to_frame(self):
        """The table as a pandas DataFrame, one row per pair (pandas is needed).

        Returns
        -------
        pandas.DataFrame
            The columns :attr:`COLUMNS`.
        """
        return frame_of(self._records(), self.COLUMNS, owner="PairwiseTestTable.to_frame")

    def _records(self) -> List[Mapping[str, Any]]:
        return list(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def _repr_values(self):
        extra = {} if self.correction == "holm" else {"correction": self.correction}
        return {
            "n_pairs": len(self.rows),
            "paired": self.paired,
            "alternative": self.alternative,
            "measure": self.measure,
            **extra,
        }

    def summary(self) -> Summary:
        """One line per pair: both stabilities, the difference (first minus second), the
        statistic (difference / SE, minus the thesis's :math:`T_M`), the test that ran, p and the
        adjusted p.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        kind = "paired, " if self.paired else ""
        heading, phrase = CORRECTIONS[self.correction]
        title = (
            f"Pairwise tests of stability (thesis Thm 7), {kind}{self.alternative}, "
            f"{phrase} over {len(self.rows)} pairs"
        )
        heads = [
            "first",
            "second",
            "Phi first",
            "Phi second",
            "difference",
            "statistic",
            "test",
            "p",
            f"p ({heading})",
        ]
        body = [
            [
                r["first"],
                r["second"],
                *(
                    number(r[k], fixed=True)
                    for k in ("stability_first", "stability_second", "difference", "statistic")
                ),
                r.get("test", "wald"),
                number(r["pvalue"]),
                number(r[self.adjusted_key]),
            ]
            for r in self.rows
        ]
        return summary(
            title,
            table=(heads, body),
            notes=[
                'difference = Phi first - Phi second ("greater": the first '
                "more stable); statistic = difference / SE"
            ],
        )


@renamed(values=RENAMED_TESTS)
@validate_params({**COMPARISON_RULES, "correction": CORRECTION})
def pairwise_tests(
    matrices,
    /,
    *,
    paired: bool = False,
    alternative: str = "two-sided",
    measure: str = "nogueira",
    method: str = "auto",
    correction: str = "holm",
    test: str = "auto",
    n_resamples: int = 9999,
    random_state=0,
    n_features=None,
    feature_names=None,
    **options,
) -> PairwiseTestTable:
    r"""Compare the stability of every pair of procedures, with a multiple-testing correction.

    Parameters
    ----------
    matrices : mapping of name -> selection matrix, or sequence of selection matrices
        At least two, all over the same d features (and the same M runs if paired).
    paired, alternative, measure, method
        As for :func:`two_sample_test`, applied to every pair (first, second) in the
        order of ``matrices``: the difference is first minus second and
        ``alternative="greater"`` means the first is more stable (``method`` is the
        variance method of the tests).
    correction : str, default "holm"
        The correction of the p-values over all m(m-1)/2 pairs, by statsmodels'
        ``multipletests``: ``"holm"`` (step-down, family-wise error rate),
        ``"bonferroni"``, ``"sidak"``, ``"holm-sidak"``, ``"simes-hochberg"``,
        ``"hommel"``, or a false discovery rate correction ``"fdr_bh"``
        (Benjamini-Hochberg), ``"fdr_by"``, ``"fdr_tsbh"``, ``"fdr_gbs"``.
        ``"fdr_tsbky"`` is refused: its adjusted p-values depend on the level.
    test, n_resamples
        As for :func:`two_sample_test` (``test``: permutation below 100 runs).
    random_state : None, int or numpy Generator, default 0
        The seed of the permutation tests' random rearrangements (one stream for all
        pairs, in order: the table is reproducible).
    n_features, feature_names, **options
        As for :func:`two_sample_test`.

    Returns
    -------
    PairwiseTestTable
        One row per pair with :math:`T_M`, its p-value and the adjusted p-value (key
        ``pvalue_holm`` by default, see :attr:`PairwiseTestTable.adjusted_key`).

    Raises
    ------
    ValueError, TypeError
        Invalid arguments, as for :func:`two_sample_test`; an unknown ``correction``
        (the message lists the corrections).
    ImportError
        statsmodels is not installed (the extra ``propstab[inference]``).

    See Also
    --------
    propstab.two_sample_test : The test of one pair.
    propstab.assess : Compares several selectors on the same resamples.

    Notes
    -----
    Holm's adjusted p-values (Holm 1979) are, for the sorted p-values
    :math:`p_{(1)} \le \dots \le p_{(m)}`,

    .. math:: \tilde p_{(j)} = \max_{l \le j} \min\{1, (m - l + 1)\, p_{(l)}\}.

    An undefined p-value (NaN, when a measure is undefined for a procedure) counts
    as one of the m tests, is never rejected and stays NaN.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand.
    J. Stat. 6(2), 65-70.

    Benjamini, Y., Hochberg, Y. (1995). Controlling the false discovery rate: a
    practical and powerful approach to multiple testing. JRSS B 57(1), 289-300.

    Examples
    --------
    >>> from propstab import pairwise_tests
    >>> A = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> B = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> C = [[1, 1, 0, 0]] * 4 + [[0, 1, 1, 0]]
    >>> table = pairwise_tests({"B": B, "C": C, "A": A})    # M = 5: permutation tests
    >>> [(r["first"], r["second"], round(r["difference"], 2), round(r["pvalue_holm"], 3))
    ...  for r in table.rows]
    [('B', 'C', 0.0, 1.0), ('B', 'A', 0.6, 0.857), ('C', 'A', 0.6, 0.857)]
    >>> fdr = pairwise_tests({"B": B, "C": C, "A": A}, correction="fdr_bh", test="wald")
    >>> [round(r["pvalue_fdr_bh"], 4) for r in fdr.rows]     # 1, then 3/2 x 0.02502 twice
    [1.0, 0.0375, 0.0375]
    """
    measure = lookup(measure, argument="measure", function="pairwise_tests").name
    random_state = check_random_state("random_state", random_state, function="pairwise_tests")
    correction = _check_correction("correction", correction, function="pairwise_tests")
    if isinstance(matrices, Mapping):
        names, items = list(matrices.keys()), list(matrices.values())
    elif isinstance(matrices, Sequence) and not isinstance(matrices, (str, bytes)):
        names, items = list(range(len(matrices))), list(matrices)
    else:
        fail(
            f"matrices: must be a mapping of names to selection matrices or a sequence of "
            f"selection matrices; got {type(matrices).__name__}",
            TypeError,
            function="pairwise_tests",
        )
    if len(items) < 2:
        fail(
            f"matrices: at least 2 selection matrices are needed; got {len(items)}",
            function="pairwise_tests",
        )
    kind = get_measure(measure).input
    sels = [
        as_named_input(
            kind,
            Z,
            f"matrices[{name!r}]",
            n_features=n_features,
            feature_names=feature_names,
            owner=measure,
        )
        for name, Z in zip(names, items)
    ]
    rng = np.random.default_rng(random_state)
    results: List[Tuple[Any, Any, TwoSampleTestResult]] = []
    for a in range(len(sels)):
        for b in range(a + 1, len(sels)):
            res = compare(
                sels[a],
                sels[b],
                paired=paired,
                alternative=alternative,
                measure=measure,
                method=method,
                options=options,
                names=(f"matrices[{names[a]!r}]", f"matrices[{names[b]!r}]"),
                test=test,
                n_resamples=n_resamples,
                rng=rng,
            )
            results.append((names[a], names[b], res))
    adjusted = _adjusted_pvalues([r.pvalue for _, _, r in results], correction)
    key = "pvalue_" + correction.replace("-", "_")
    rows = tuple(
        {
            "first": a,
            "second": b,
            "stability_first": r.estimates[0].statistic,
            "stability_second": r.estimates[1].statistic,
            "difference": r.difference,
            "statistic": r.statistic,
            "pvalue": r.pvalue,
            key: float(q),
            "test": r.test,
        }
        for (a, b, r), q in zip(results, adjusted)
    )
    return PairwiseTestTable(
        rows, bool(paired), alternative, results[0][2].estimates[0].measure, correction
    )
