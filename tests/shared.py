"""The data and selectors the tests share (one place: before, each test file kept its own
copy of the same Lasso, the same simulated regressions and the same scikit-learn data
loaders).

Plain functions, imported by the test files (``from shared import lasso``; tests/ is on
sys.path in pytest's rootdir-relative import mode); ``tests/conftest.py`` turns the real
data sets into fixtures. Every function returns fresh objects: a test may modify what it
gets.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np

__all__ = [
    "breast_cancer",
    "check_names",
    "classification",
    "diabetes",
    "failed_checks",
    "import_order",
    "imports_of",
    "interrupt_when_working",
    "l1_logistic_pipeline",
    "lasso",
    "load_script",
    "load_study",
    "regression",
    "three_signals",
]


def regression(n=120, d=8, seed=0, coef=(1.0, -1.0), noise=1.0):
    """X standard normal (n x d), y = sum_j coef[j] X[:, j] + noise * N(0, 1), from one
    generator seeded with ``seed`` (X drawn first)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = 0
    for j, c in enumerate(coef):
        y = y + c * X[:, j]
    return X, y + noise * rng.normal(size=n)


def classification(n=120, d=8, seed=0):
    """X standard normal (n x d), y = 1 where X[:, 0] + N(0, 0.5^2) > 0.3."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0.3).astype(int)
    return X, y


def lasso(alpha=0.1):
    """A Lasso (scikit-learn), alpha 0.1 unless given."""
    from sklearn.linear_model import Lasso

    return Lasso(alpha=alpha)


def l1_logistic_pipeline(C=1.0):
    """Standardisation, then an L1 logistic regression whose liblinear solver shuffles with
    its random_state (None here) and stops at tol=1e-2: two unseeded fits on the same rows
    can select differently."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(
        StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear", C=C, tol=1e-2)
    )


@functools.lru_cache(maxsize=None)
def _loaded(name, as_frame):
    from sklearn import datasets

    return getattr(datasets, f"load_{name}")(return_X_y=True, as_frame=as_frame)


def breast_cancer(as_frame=False):
    """scikit-learn's breast cancer data, ``(X, y)`` (a copy: read once per session)."""
    X, y = _loaded("breast_cancer", as_frame)
    return X.copy(), y.copy()


def diabetes(as_frame=False):
    """scikit-learn's diabetes data, ``(X, y)`` (a copy: read once per session)."""
    X, y = _loaded("diabetes", as_frame)
    return X.copy(), y.copy()


def three_signals(n=200, d=12, seed=0):
    """:func:`regression` with y = 2 X_0 - 2 X_1 + 1.5 X_2 + N(0, 1), 200 x 12 by default
    (stability selection's tests)."""
    return regression(n=n, d=d, seed=seed, coef=(2.0, -2.0, 1.5))


def load_script(path, name, *, reuse=False):
    """The Python file ``path`` (an example, a benchmark, a script of scripts/) imported as
    the module ``name`` and registered in ``sys.modules`` (dataclasses look their module
    up there); with ``reuse``, the module already registered under ``name`` is returned."""
    if reuse and name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


STUDIES = pathlib.Path(__file__).resolve().parents[1] / "studies"


def load_study(name):
    """The study script ``studies/<name>.py`` imported as the module ``name`` (the loader
    of the tests of the studies' quick modes, tests/test_*_study_quick.py)."""
    return load_script(STUDIES / f"{name}.py", name)


def failed_checks(out):
    """The checks of a study's output (``out["checks"]``) that did not pass, as
    ``(name, value, target)``: [] when every check passes."""
    return [(c["name"], c["value"], c["target"]) for c in out["checks"] if not c["passed"]]


def check_names(out):
    """The names of a study's checks as one string (a test looks for a check by name)."""
    return " ".join(c["name"] for c in out["checks"])


def import_order(graph):
    """The modules of ``graph`` (``{module: set of the modules it imports}``) in an order
    where each comes after those it imports; AssertionError naming the modules left when
    they import one another in a cycle.

    >>> import_order({"a": {"b"}, "b": set()})
    ['b', 'a']
    >>> import_order({"a": {"b"}, "b": {"a"}, "c": set()})
    Traceback (most recent call last):
    ...
    AssertionError: import cycle among ['a', 'b']
    """
    graph = {m: set(deps) for m, deps in graph.items()}
    order = []
    while graph:
        leaves = [m for m, deps in graph.items() if deps <= set(order)]
        assert leaves, f"import cycle among {sorted(graph)}"
        order += sorted(leaves)
        for m in leaves:
            del graph[m]
    return order


def live_package(name):
    """The R package ``name`` through rpy2's ``importr`` under r_compat's policy: skipped
    when PROPSTAB_SKIP_R=1, else a failure (never a skip) when it cannot be loaded (the
    fixtures of r_compat/test_stabs_live.py and r_compat/test_sharp_live.py)."""
    import pytest

    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip("PROPSTAB_SKIP_R=1: live R cross-checks skipped")
    try:
        from rpy2.robjects.packages import importr

        return importr(name)
    except Exception as exc:  # noqa: BLE001 - any failure to load R is a failure
        pytest.fail(
            f"R package {name} could not be loaded through rpy2 ({exc}); run "
            f"scripts/setup.sh (r_compat/install.R) or set PROPSTAB_SKIP_R=1"
        )


def imports_of(path, root):
    """(absolute module, imported names) of every propstab import of the file ``path``
    of the package at ``root`` (propstab/), at top level or inside functions (``import
    propstab.x`` gives no names)."""
    import ast

    path, root = pathlib.Path(path), pathlib.Path(root)
    package = list(path.relative_to(root.parent).with_suffix("").parts)[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] == "propstab":
                yield module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "propstab":
                    yield alias.name, []


def interrupt_when_working(argv, env, *, workers=2, settle=0.5, timeout=60):
    """Start ``argv`` in a process group of its own, wait until it runs ``workers`` child
    processes, let them work ``settle`` seconds, then SIGINT the whole group as Ctrl-C
    in a terminal does: (return code, stdout, stderr, the children's pids)."""
    child = subprocess.Popen(
        argv,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        found, deadline = [], time.monotonic() + 120
        while len(found) < workers and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
            found = subprocess.run(
                ["pgrep", "-P", str(child.pid)], capture_output=True, text=True
            ).stdout.split()
        assert len(found) == workers, f"{argv}: no {workers} child processes started"
        time.sleep(settle)
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=timeout)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    time.sleep(0.2)
    return child.returncode, out, err, [int(pid) for pid in found]
