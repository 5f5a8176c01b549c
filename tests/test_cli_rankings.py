"""The command line reads rank tables for the ranking family: ``propstab estimate`` and
``propstab compare`` with --measure spearman/kendall/canberra/top_k, --scores for
importances, the same one-line errors as for selections."""
import numpy as np
import pandas as pd
import pytest

import propstab
from propstab.cli import main

RANKS = pd.DataFrame(
    [[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3], [1, 3, 2, 4]],
    columns=["a", "b", "c", "d"],
    index=["r1", "r2", "r3", "r4"],
)
SCORES = pd.DataFrame(
    [[0.9, 0.5, 0.1, 0.0], [0.8, 0.9, 0.2, 0.1], [0.7, 0.6, 0.0, 0.3]],
    columns=["a", "b", "c", "d"],
)


def fields(out):
    return dict(line.split(None, 1) if " " in line else (line, "") for line in out.splitlines())


@pytest.fixture
def files(tmp_path):
    ranks, scores = tmp_path / "ranks.csv", tmp_path / "scores.csv"
    RANKS.to_csv(ranks)  # with the index column, as pandas writes it
    SCORES.to_csv(scores, index=False)
    np.save(tmp_path / "ranks.npy", RANKS.to_numpy())
    return ranks, scores, tmp_path / "ranks.npy"


@pytest.mark.parametrize("measure", ["spearman", "kendall", "canberra", "top_k"])
def test_estimate_reads_a_rank_table(capsys, files, measure):
    ranks, _, npy = files
    for path in (ranks, npy):
        assert main(["estimate", str(path), "--measure", measure]) == 0
        out = capsys.readouterr().out
        est = propstab.estimate(RANKS.to_numpy(), measure)
        assert f"estimate         {est.statistic:.4f}" in out
        assert f"standard error   {est.standard_error:.4f}" in out
    assert (
        "table of ranks with a header and run labels, 4 runs x 4 features" in out
        or ".npy array of ranks" in out
    )


def test_estimate_reads_scores_with_the_flag(capsys, files):
    _, scores, _ = files
    assert main(["estimate", str(scores), "--measure", "kendall", "--scores"]) == 0
    out = capsys.readouterr().out
    value = propstab.stability(propstab.as_rankings(SCORES, kind="scores"), "kendall")
    assert f"estimate         {value:.4f}" in out and "table of scores" in out
    assert "analytic: U-statistic, Hoeffding 1948" in out


def test_options_and_compare(capsys, files):
    ranks, scores, _ = files
    assert main(["estimate", str(ranks), "--measure", "canberra", "--option", "k=2"]) == 0
    out = capsys.readouterr().out
    assert f"{propstab.stability(RANKS.to_numpy(), 'canberra', k=2):.4f}" in out
    assert main(["compare", str(ranks), str(ranks), "--measure", "spearman", "--paired"]) == 0
    assert "T_M" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, needles",
    [
        (
            ["--measure", "spearman"],
            ["scores.csv", "ranks must be numbers in 1..d", "0.9", "--scores"],
        ),
        (
            ["--measure", "canberra", "--scores", "--option", "k=9"],
            ["k: must be >= 1 and <= 4 for canberra; got 9"],
        ),
    ],
)
def test_errors_are_one_line(capsys, files, argv, needles):
    _, scores, _ = files
    code = main(["estimate", str(scores), *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("propstab estimate: error: ")
    for needle in needles:
        assert needle in err, (needle, err)
