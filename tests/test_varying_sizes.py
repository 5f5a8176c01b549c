"""What users see when the subset sizes vary (docs/varying_sizes.md).

Nogueira's estimator has null expectation -var_pop(k/d)/((M-1) qbar (1 - qbar)) for
fixed sizes (propstab.chance.nogueira_expectation); where that is below -0.01 the
estimate's summary, ``propstab estimate`` and ``propstab.assess`` say so and suggest
``conger``; nothing is said for a constant size, for a small spread of sizes, or for
another measure.
"""
import warnings

import numpy as np
import pytest

import propstab
from propstab.chance import nogueira_expectation
from propstab.inference import SIZE_BIAS_LIMIT, VaryingSizesWarning, varying_sizes_note


def _nested(sizes, d):
    """Runs selecting the first k_i features (nested: a path of growing models)."""
    return np.array([[f < k for f in range(d)] for k in sizes])


def test_note_follows_the_null_expectation_threshold():
    d = 20
    for sizes, noted in (
        ([5] * 6, False),
        ([5, 6, 5, 6, 5, 6], False),
        ([2, 12, 4, 16, 3, 9], True),
    ):
        bias = nogueira_expectation(sizes, d)
        assert (bias < -SIZE_BIAS_LIMIT) == noted, (sizes, bias)
        note = varying_sizes_note("nogueira", sizes, d)
        assert (note is not None) == noted
        if noted:
            assert f"{bias:.4f}" in note and "measure='conger'" in note
        assert varying_sizes_note("conger", sizes, d) is None
        assert varying_sizes_note("jaccard", sizes, d) is None


def test_estimate_summary_carries_the_note():
    Z = _nested([2, 12, 4, 16, 3, 9], 20)
    est = propstab.estimate(Z)
    assert est.note is not None and "note" in str(est)
    assert propstab.estimate(Z, "conger").note is None
    assert "note" not in str(propstab.estimate(_nested([5] * 6, 20)))


def test_cli_estimate_prints_the_note(tmp_path, capsys):
    from propstab.cli import main

    path = tmp_path / "runs.npy"
    np.save(path, _nested([2, 12, 4, 16, 3, 9], 20).astype(int))
    assert main(["estimate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note" in out and "measure='conger'" in out
    assert main(["estimate", str(path), "--measure", "conger"]) == 0
    assert "note" not in capsys.readouterr().out


def test_assess_warns_and_suggests_conger():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 12))
    y = X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=60)

    def varying(X, y):
        """A threshold selector whose threshold (so its size) depends on the resample."""
        score = np.abs(X.T @ (y - y.mean())) / len(y)
        level = np.random.default_rng(int(1e6 * abs(y.sum())) % 2**32).uniform(0.1, 0.9)
        return np.flatnonzero(score > np.quantile(score, level))

    with pytest.warns(VaryingSizesWarning, match="measure='conger'"):
        a = propstab.assess(varying, X, y, n_runs=15, random_state=1)
    assert "note" in str(a)
    with warnings.catch_warnings():
        warnings.simplefilter("error", VaryingSizesWarning)
        b = propstab.assess(varying, X, y, n_runs=15, random_state=1, measure="conger")
    assert b.stability > a.stability


def test_docs_page_examples_run():
    import doctest
    import pathlib

    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "varying_sizes.md"
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted >= 5 and result.failed == 0
    text = page.read_text(encoding="utf-8")
    assert "conger   ✓              ✓             ✓       ✓        ✓" in text
