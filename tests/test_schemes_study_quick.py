"""The quick mode of studies/validate_schemes.py: what the interval of ``assess`` covers
(the resampling schemes against the stability across independent data sets)."""
from __future__ import annotations

import math

import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("validate_schemes")


def test_quick_run_fills_every_cell(study):
    out = study.run("quick")
    assert not shared.failed_checks(out)
    names = [r["scheme"] for r in out["rows"]]
    assert names == [
        "bootstrap",
        "subsample 0.5",
        "subsample 0.8",
        "complementary pairs",
        "disjoint halves (pairs of complementary pairs)",
    ]
    for r in out["rows"]:
        assert math.isfinite(r["mean"]) and 0 <= r["cover_half"] <= 100
    # the truth: less stable from half the rows
    assert out["truth_half"]["phi"] < out["truth_n"]["phi"]
    text = study.report(out)
    assert "| bootstrap |" in text and "Across independent data sets" in text
