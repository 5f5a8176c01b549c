"""docs/contributing.md, "Adding a measure", proved: a measure registered in one place
works everywhere that reads the registry, with no other change.

The fixture registers a throwaway measure (Goh and Wong's mean selection frequency k̄/d
again, under another name, as a count kernel) in a copy of the registry that the
fixture drops afterwards. The tests then use only public entry points: stability(),
estimate() (its jackknife from the kernel's leave-one-out values, compared with the
measure recomputed on Z without each run), the audit (the same verdicts as the
registered ``goh``), ``propstab measures`` and the generated docs table.
"""
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import propstab
from propstab import Axiom
from propstab.registry import _registry
from propstab.measures import _variance
from propstab.cli import main
from propstab.measures.kernels import count_kernel
from propstab.registry import claims, register

NAME = "mean_frequency"
ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture
def throwaway(monkeypatch):
    """Register NAME in a copy of the registry (restored after the test)."""
    monkeypatch.setattr(_registry, "_REGISTRY", dict(_registry._REGISTRY))
    monkeypatch.setattr(_registry, "_ALIASES", dict(_registry._ALIASES))

    @register(
        name=NAME,
        family="frequency",
        summary="(1/d) sum_f p_f = k̄/d (Goh's measure again)",
        references=("Goh, W. W. B., Wong, L. (2016). J. Bioinform. Comput. Biol. 14(5)",),
        claims=claims(
            fully_defined=True,
            monotonicity=False,
            bounds=True,
            maximum=False,
            correction_for_chance=False,
        ),
        lower=0,
        upper=1,
    )
    @count_kernel()
    def mean_frequency(c):
        """The mean selection frequency k̄/d (a test double of ``goh``)."""
        return c.total / (c.n_runs * c.n_features)

    yield mean_frequency.info
    assert NAME in [m.name for m in propstab.list_measures()]


def selection(seed, M=9, d=12):
    rng = np.random.default_rng(seed)
    return (rng.random((M, d)) < 0.35).astype(np.int8)


def test_stability_reads_the_new_entry(throwaway):
    Z = selection(0)
    assert propstab.get_measure(NAME) is throwaway
    assert propstab.stability(Z, NAME) == Z.sum() / Z.size == propstab.stability(Z, "goh")
    assert propstab.stability([[0, 1], [2]], NAME, n_features=4) == 3 / 8


def test_estimate_jackknife_comes_from_the_kernel(throwaway, monkeypatch):
    Z = selection(1)
    M = Z.shape[0]
    loo = np.array([Z[np.arange(M) != i].mean() for i in range(M)])  # by hand
    sel = propstab.as_selection(Z)
    np.testing.assert_allclose(throwaway.kernel.leave_one_out(sel), loo, rtol=1e-13)
    np.testing.assert_allclose(
        _variance.leave_one_out(sel, throwaway, {}, generic=True), loo, rtol=1e-13
    )

    def no_recomputation(*args, **kwargs):
        raise AssertionError("the jackknife recomputed the measure instead of using its kernel")

    monkeypatch.setattr(_variance, "_loo_generic", no_recomputation)
    est = propstab.estimate(Z, NAME)
    assert est.method == "jackknife" and est.statistic == Z.mean()
    np.testing.assert_allclose(est.terms, loo, rtol=1e-13)
    assert est.variance == pytest.approx((M - 1) / M * np.sum((loo - loo.mean()) ** 2), rel=1e-12)
    assert est.interpretation is None  # no scale declared
    with pytest.raises(ValueError, match="analytic"):
        propstab.estimate(Z, NAME, method="analytic")  # none declared either


def test_audit_gives_goh_verdicts(throwaway):
    new = propstab.audit(NAME, max_examples=40)
    goh = propstab.audit("goh", max_examples=40)
    assert [new.status(NAME, a) for a in Axiom] == [goh.status("goh", a) for a in Axiom]
    assert new.status(NAME, Axiom.BOUNDS) == "holds"
    assert new.status(NAME, Axiom.MAXIMUM) == "refuted"  # [10, 10] scores 1/2


def test_cli_and_docs_list_it(throwaway, capsys):
    assert main(["measures", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows[NAME]["family"] == "frequency"
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    gen_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_docs)
    assert f"| `{NAME}` |" in gen_docs.render_measures_markdown()


def test_the_fixture_leaves_the_registry_as_it_was():
    assert NAME not in [m.name for m in propstab.list_measures()]
    with pytest.raises(ValueError, match="not a registered measure"):
        propstab.get_measure(NAME)
