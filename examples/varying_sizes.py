"""How much varying subset sizes bias Nogueira's estimator, on real data.

L1-regularised logistic regression on two data sets bundled with scikit-learn (no
download): breast cancer (569 x 30) and the digits 3 vs 8 (357 x 64, pixels), both
standardised. Bootstrap resamples (M runs) and three ways of running the selector:

- **fixed C**: one regularisation strength C of a grid of 8 (one matrix per C; three of
  them shown): the size varies only with the resample;
- **C by CV**: ``LogisticRegressionCV`` (5 folds, the same grid) picks C on every
  resample, the usual practice: the size follows the chosen C;
- **random C**: every resample uses a C drawn from the grid, as randomised selection
  procedures do: the sizes spread over the whole path.

For each matrix the script prints the sizes, Nogueira's estimator, Conger's kappa (the
same numerator over the exact null expectation, docs/varying_sizes.md), their
difference, Nogueira's null expectation for the observed sizes
(``propstab.chance.nogueira_expectation``) and the 95 % intervals of both.

    /usr/bin/python3 examples/varying_sizes.py            # full: M = 10, 20 and 100 (30 s)
    /usr/bin/python3 examples/varying_sizes.py --quick    # M = 10, two values of C
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

GRID = np.logspace(-2.5, 0, 8)  # C = 1 / (n lambda): sparse to dense


def load(name: str):
    """A standardised data set of scikit-learn: ``"breast_cancer"`` or ``"digits_3_8"``."""
    from sklearn import datasets

    if name == "breast_cancer":
        X, y = datasets.load_breast_cancer(return_X_y=True)
    elif name == "digits_3_8":
        X, y = datasets.load_digits(return_X_y=True)
        keep = (y == 3) | (y == 8)
        X, y = X[keep], (y[keep] == 8).astype(int)
    else:
        raise ValueError(f"name: one of 'breast_cancer', 'digits_3_8'; got {name!r}")
    sd = X.std(axis=0)
    X = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    return X, y


def l1_logistic(C):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(penalty="l1", solver="liblinear", C=C, max_iter=2000, random_state=0)


def l1_cv(X, y):
    """L1 logistic regression with C chosen by 5-fold CV on the grid, refitted."""
    from sklearn.linear_model import LogisticRegressionCV

    model = LogisticRegressionCV(
        Cs=GRID, cv=5, penalty="l1", solver="liblinear", max_iter=2000, random_state=0
    ).fit(X, y)
    return np.flatnonzero(model.coef_.ravel())


def l1_random_c(X, y):
    """L1 logistic regression at a C drawn from the grid (a function of the resample,
    so that the run is reproducible)."""
    rng = np.random.default_rng(int(1e6 * abs(float(X.sum()) + float(y @ X[:, -1]))) % 2**32)
    coef = l1_logistic(GRID[rng.integers(GRID.size)]).fit(X, y).coef_.ravel()
    return np.flatnonzero(coef)


def row(data: str, selector: str, Z) -> dict:
    import propstab
    from propstab.chance import nogueira_expectation

    sel = propstab.as_selection(Z)
    k = sel.row_sizes
    with warnings.catch_warnings():
        # a C so small that a run selects nothing leaves a measure undefined on the first
        # M runs: that row's value is NaN in the table, which says it
        warnings.simplefilter("ignore", propstab.UndefinedMeasureWarning)
        noge, cong = propstab.estimate(sel), propstab.estimate(sel, "conger")
    return dict(
        data=data,
        selector=selector,
        M=sel.n_runs,
        d=sel.n_features,
        k_min=int(k.min()),
        k_max=int(k.max()),
        k_mean=float(k.mean()),
        k_sd=float(k.std()),
        nogueira=noge.statistic,
        conger=cong.statistic,
        null=nogueira_expectation(k, sel.n_features),
        ci_nogueira=tuple(noge.confidence_interval()),
        ci_conger=tuple(cong.confidence_interval()),
    )


def run(runs, grid, random_state: int = 0):
    """One row per (data, selector, M); a smaller M takes the first M runs of the
    largest (the same resamples)."""
    import propstab

    rows = []
    for data in ("breast_cancer", "digits_3_8"):
        X, y = load(data)
        jobs = [(f"fixed C = {C:.3g}", l1_logistic(C)) for C in grid]
        jobs += [("C by CV", l1_cv), ("random C", l1_random_c)]
        for name, selector in jobs:
            with warnings.catch_warnings():
                # liblinear's convergence notes at small C (scikit-learn's, not propstab's:
                # propstab's own warnings still show)
                warnings.simplefilter("ignore", ConvergenceWarning)
                res = propstab.resample(
                    selector, X, y, n_runs=max(runs), random_state=random_state
                )
            for M in runs:
                rows.append(row(data, name, res.Z[:M]))
    return rows


def table(rows) -> str:
    lines = [
        "| data | selector | M | sizes (mean, sd) | nogueira | conger | "
        "conger - nogueira | E[nogueira \\| H0] | 95 % CI nogueira | 95 % CI conger |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['data']} | {r['selector']} | {r['M']} | {r['k_min']}-{r['k_max']} "
            f"({r['k_mean']:.1f}, "
            f"{r['k_sd']:.1f}) | {r['nogueira']:.4f} | {r['conger']:.4f} | "
            f"{r['conger'] - r['nogueira']:+.4f} | {r['null']:+.4f} | "
            f"[{r['ci_nogueira'][0]:.3f}, {r['ci_nogueira'][1]:.3f}] | "
            f"[{r['ci_conger'][0]:.3f}, {r['ci_conger'][1]:.3f}] |"
        )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="M = 10, two values of C")
    args = parser.parse_args(argv)
    runs = (10,) if args.quick else (10, 20, 100)
    grid = GRID[[2, 5]] if args.quick else GRID[[1, 4, 7]]
    rows = run(runs, grid)
    print(f"L1 logistic regression, M = {' and '.join(map(str, runs))} bootstrap resamples\n")
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
