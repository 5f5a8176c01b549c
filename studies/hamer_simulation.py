"""Hamer and Dupont (2021), sec. 6.1 at reduced scale: stability against group size q.

Data (as sec. 6.1 / Table 2): N = 5 groups of q features with intra-group
correlation rho, plus l further features; n+ = n- = 100 samples from two unit-variance
normal distributions centred at +mu and -mu, mu_f = mu_g inside the groups and 0.05
outside. Two selectors, each run on M = 30 bootstrap samples:

- **group lasso stand-in** (Table 2 scenario 1: mu_g = 0.35, rho = 0.8): scikit-learn
  has no group lasso, so the lasso is fitted on the group means (one column per group,
  standardised) and the l other features; a selected group selects all its q features,
  each with importance |coef| / q. Like the group lasso it selects whole groups, and a
  group's cumulative importance does not depend on q.
- **lasso** (Table 2 scenario 3: mu_g = 0.5, rho = 0.95): scikit-learn's ``Lasso`` on
  the standardised features, importances |coef| (Hamer eq. 7).

The lasso penalty is chosen at q = 1 to select about 40 features on the full data
(sec. 6.1) and kept for every q. The similarity is S = |Spearman rho| on the full data
(sec. 6.1) with entries below 0.2 set to 0 (at n = 200 these are sampling noise; this
keeps the LPs small). Measures: phi (``nogueira``), phi_S (``sechidis``), phi_msi
(``msi`` with the importances), phi_pears (``pearson`` with the importances) and POGR
(``pogr``, similar = S >= 0.5). Reduced scale: l = 200 instead of 1000 and 3 data sets
per q instead of 10 (``--quick``: l = 40, M = 8, 1 data set, q in 1, 4, 8).

Run:  /usr/bin/python3 studies/hamer_simulation.py            (writes docs/figures/)
      /usr/bin/python3 studies/hamer_simulation.py --quick --out /tmp/x
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

import propstab
from propstab.measures import msi, nogueira, pearson, pogr, sechidis

N_GROUPS = 5
ROOT = pathlib.Path(__file__).resolve().parent.parent
MEASURES = ("phi", "phi_S", "phi_msi", "phi_pears", "POGR")
SETTINGS = {
    "group": dict(mu_g=0.35, rho=0.8, label="group lasso stand-in (scenario 1)"),
    "lasso": dict(mu_g=0.5, rho=0.95, label="lasso (scenario 3)"),
}


def _sklearn():
    try:
        from sklearn.linear_model import Lasso
    except ImportError:  # pragma: no cover
        raise ImportError(
            "the Hamer simulation needs scikit-learn: pip install " "propstab[sklearn]"
        ) from None
    return Lasso


def make_data(q, l, mu_g, rho, rng, n_per_class=100):
    n = 2 * n_per_class
    y = np.repeat([1.0, -1.0], n_per_class)
    shared = rng.normal(size=(n, N_GROUPS))
    groups = np.sqrt(rho) * np.repeat(shared, q, axis=1) + np.sqrt(1 - rho) * rng.normal(
        size=(n, N_GROUPS * q)
    )
    X = np.hstack([groups, rng.normal(size=(n, l))])
    mu = np.r_[np.full(N_GROUPS * q, mu_g), np.full(l, 0.05)]
    return X + y[:, None] * mu, y


def _design(X, q, kind):
    """The lasso's columns: the features, or the group means and the other features."""
    if kind == "lasso":
        D = X
    else:
        means = X[:, : N_GROUPS * q].reshape(len(X), N_GROUPS, q).mean(axis=2)
        D = np.hstack([means, X[:, N_GROUPS * q :]])
    return (D - D.mean(axis=0)) / D.std(axis=0)


def _importances(coef, q, kind):
    w = np.abs(coef)
    if kind == "lasso":
        return w
    return np.r_[np.repeat(w[:N_GROUPS] / q, q), w[N_GROUPS:]]


def tune_alpha(X, y, target=40):
    """Bisection (on log alpha) for about ``target`` non-zero coefficients."""
    Lasso = _sklearn()
    lo, hi = 1e-4, 1.0
    for _ in range(40):
        mid = np.sqrt(lo * hi)
        k = np.count_nonzero(Lasso(alpha=mid, max_iter=5000).fit(X, y).coef_)
        lo, hi = (mid, hi) if k > target else (lo, mid)
    return np.sqrt(lo * hi)


def run_once(q, l, kind, alpha, M, rng):
    Lasso = _sklearn()
    s = SETTINGS[kind]
    X, y = make_data(q, l, s["mu_g"], s["rho"], rng)
    d = X.shape[1]
    S = propstab.similarity_from_data(X, method="spearman", sparse=True)
    S.data[S.data < 0.2] = 0
    S.eliminate_zeros()
    W = np.zeros((M, d))
    for i in range(M):  # one lasso fit per bootstrap run
        idx = rng.integers(0, len(y), len(y))
        D = _design(X[idx], q, kind)
        D = np.nan_to_num(D)
        W[i] = _importances(Lasso(alpha=alpha, max_iter=5000).fit(D, y[idx]).coef_, q, kind)
    Z = W > 0
    return {
        "phi": nogueira(Z),
        "phi_S": sechidis(Z, similarity=S),
        "phi_msi": msi(Z, similarity=S, importances=W),
        "phi_pears": pearson(Z, importances=W),
        "POGR": pogr(Z, similarity=S, threshold=0.5),
        "k": Z.sum(axis=1).mean(),
    }


def study(qs, l, M, seeds):
    results = {}
    for kind in SETTINGS:
        s = SETTINGS[kind]
        rng0 = np.random.default_rng(12345)
        X1, y1 = make_data(1, l, s["mu_g"], s["rho"], rng0)
        alpha = tune_alpha(_design(X1, 1, kind), y1)
        rows = []
        for q in qs:
            runs = [
                run_once(q, l, kind, alpha, M, np.random.default_rng(1000 * seed + q))
                for seed in range(seeds)
            ]
            rows.append({m: float(np.mean([r[m] for r in runs])) for m in (*MEASURES, "k")})
            print(
                f"{kind:>6} q={q:>2} k̄={rows[-1]['k']:6.1f}  "
                + "  ".join(f"{m}={rows[-1][m]:7.3f}" for m in MEASURES),
                flush=True,
            )
        results[kind] = rows
    return results


def plot(qs, results, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # one panel above the other, 700 px wide: shown at its natural size in the site's
    # column (its smallest text, 13.9 px, is recorded in the PNG for the site audit)
    fig, axes = plt.subplots(2, 1, figsize=(7, 7.6))
    for ax, kind in zip(axes, SETTINGS):
        for m in MEASURES:
            ax.plot(qs, [r[m] for r in results[kind]], marker="o", label=m)
        ax.set_title(SETTINGS[kind]["label"])
        ax.set_xlabel("q, size of the correlated groups")
        ax.set_ylabel("stability")
        ax.axhline(0, color="grey", lw=0.5)
        ax.grid(alpha=0.3)
    axes[0].legend()
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    path = out / "hamer_simulation.png"
    save_figure(fig, path, dpi=100)
    plt.close(fig)
    return path


def save_figure(fig, path, dpi):
    """scripts/site_audit.py's ``save_figure``: the PNG records its smallest text."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_audit", ROOT / "scripts" / "site_audit.py")
    site_audit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_audit)
    return site_audit.save_figure(fig, path, dpi)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes for the test suite")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args(argv)
    if args.quick:
        qs, l, M, seeds = [1, 4, 8], 40, 8, 1
    else:
        qs, l, M, seeds = [1, 2, 4, 6, 8, 10, 15, 20], 200, 30, 3
    results = study(qs, l, M, seeds)
    print("range over q (max - min):")
    for kind in SETTINGS:
        print(
            f"  {kind:>6}: "
            + "  ".join(f"{m}={np.ptp([r[m] for r in results[kind]]):.3f}" for m in MEASURES)
        )
    print("figure:", plot(qs, results, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
