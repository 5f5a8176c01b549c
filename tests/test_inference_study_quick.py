"""The quick mode of studies/validate_inference.py: every check of the validation study.

Coverage of the Thm 6 intervals (thesis Tables 6.2, 6.3), consistency (Fig 6.2), T_M
under H0 and H1 (Fig 6.4), jackknife coverage, the paired test's level and power, and
the coverage and bias of Conger's kappa with varying subset sizes, with hundreds of repeats and
tolerances of 4 binomial standard errors (fixed seed).
"""
from __future__ import annotations

import os
import pathlib

import matplotlib  # noqa: F401 - the study draws figures: fail, never skip, without it
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("validate_inference")


@pytest.fixture(scope="module")
def quick(study, tmp_path_factory):
    figures = tmp_path_factory.mktemp("figures")
    return study.run("quick", figures=str(figures)), figures


def test_quick_study_checks_pass(quick):
    out, _ = quick
    assert not shared.failed_checks(out)
    names = shared.check_names(out)
    for part in (
        "consistency",
        "coverage d=100",
        "coverage d=10000",
        "T_M under H0",
        "T_M under H1",
        "jackknife jaccard",
        "jackknife lustgarten",
        "jackknife cwrel",
        "paired test level",
        "paired test more powerful",
        "paired test level (conger)",
        "conger jackknife 95 % binomial sizes",
        "conger jackknife 95 % L1-like path",
        "conger delta method 95 %",
        "conger unbiased under pure noise",
        "nogueira biased below 0 under pure noise",
    ):
        assert part in names


def test_quick_study_figures_and_report(study, quick):
    out, figures = quick
    assert sorted(os.listdir(figures)) == ["inference_consistency.png", "inference_tm_qq.png"]
    site_audit = shared.load_script(
        pathlib.Path(__file__).resolve().parents[1] / "scripts" / "site_audit.py", "site_audit"
    )
    for name in os.listdir(figures):  # legible in the site's column (740 px at 1,400)
        png = pathlib.Path(figures) / name
        assert int.from_bytes(png.read_bytes()[16:20], "big") <= 740, name
        assert float(site_audit.png_text(png)[site_audit.TEXT_KEY]) >= 9, name
    text = study.report(out)
    assert "| 100 | 0.8 |" in text and "thesis" in text
    assert "| L1-like path | 30 |" in text and "conger, jackknife" in text


def test_population_cases_have_the_thesis_stabilities(study):
    for d in (100, 10000):
        for phi in study.CASES:
            thresholds, p, Phi = study.population(phi, d)
            assert abs(Phi - phi) < 1e-4 and p.min() >= 0 and p.max() <= 1
            assert (p[:-1] >= p[1:]).all()  # decreasing, as in thesis Fig 6.1


def test_random_u16_reads_the_bytes_of_generator_bytes(study):
    """random_u16 draws the uint32 words of Generator.bytes and views them: the same
    numbers as the bytes read as uint16, and the generator left in the same state."""
    import numpy as np

    for shape in [(0,), (1,), (3,), (2, 3), (5, 7), (4, 10, 11)]:
        one, two = np.random.default_rng(9), np.random.default_rng(9)
        n = int(np.prod(shape))
        expected = np.frombuffer(one.bytes(2 * n), dtype=np.uint16).reshape(shape)
        got = study.random_u16(two, shape)
        assert got.dtype == np.uint16 and np.array_equal(got, expected), shape
        assert one.random() == two.random(), shape
