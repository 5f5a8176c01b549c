"""``propstab check`` and ``propstab compare --noninferiority/--drop``: exit 0 pass, 1 fail,
2 bad input, one line saying why; decisions as the Python assertions'."""
import contextlib
import io
import os
import pathlib
import sys

import numpy as np
import pytest

import shared  # tests/shared.py: processes under a timeout

from propstab import cli
from propstab.testing import Baseline, assert_not_less_stable, assert_stable

CHECKOUT = pathlib.Path(__file__).resolve().parents[1]


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(0)
    stable = np.zeros((40, 10), dtype=int)
    stable[:, :3] = 1
    stable ^= rng.random(stable.shape) < 0.05
    noisy = (rng.random((40, 10)) < 0.3).astype(int)
    paths = {}
    for name, Z in (("stable", stable), ("noisy", noisy)):
        paths[name] = tmp_path / f"{name}.csv"
        np.savetxt(paths[name], Z, fmt="%d", delimiter=",")
        paths[name + "_Z"] = Z
    return paths


def one_line(out: str) -> str:
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return lines[0]


def test_check_passes_and_fails_as_assert_stable(files):
    code, out, err = run(["check", files["stable"], "--at-least", "0.5"])
    assert code == 0 and not err
    p = assert_stable(files["stable_Z"], 0.5).pvalue
    assert one_line(out).startswith("propstab check: PASS: nogueira = ")
    assert f"p = {p:.4g}" in out
    code, out, err = run(
        ["check", files["noisy"], "--at-least", "0.5", "--confidence-level", "0.9"]
    )
    assert code == 1 and not err
    with pytest.raises(AssertionError) as caught:
        assert_stable(files["noisy_Z"], 0.5, confidence_level=0.9)
    assert one_line(out) == "propstab check: FAIL: " + " ".join(str(caught.value).split())


def test_check_reads_a_baseline_and_other_measures(files, tmp_path):
    path = Baseline.from_result(files["stable_Z"], measure="jaccard").save(tmp_path / "b.npz")
    code, out, _ = run(["check", path, "--at-least", "0.3", "--measure", "jaccard"])
    assert code == 0 and "jaccard = " in out


@pytest.mark.parametrize(
    "argv, start",
    [
        (
            ["--at-least", "3"],
            "propstab check: error: --at-least: must lie in the range of " "nogueira",
        ),
        (
            ["--at-least", "0.5", "--confidence-level", "0.2"],
            "propstab check: error: --confidence-level: ",
        ),
        (["--at-least", "x"], "propstab check: error: argument --at-least: invalid float"),
        ([], "propstab check: error: the following arguments are required: --at-least"),
        (["--at-least", "0.5", "--measure", "nope"], "propstab check: error: "),
    ],
)
def test_check_bad_input_is_one_line_and_exit_2(files, argv, start):
    code, out, err = run(["check", files["stable"], *argv])
    assert code == 2 and not out
    assert one_line(err).startswith(start), err


def test_compare_noninferiority_and_drop(files):
    code, out, _ = run(["compare", files["stable"], files["stable"], "--noninferiority", "0.2"])
    res = assert_not_less_stable(
        files["stable_Z"], files["stable_Z"], margin=0.2, test="non-inferiority"
    )
    assert code == 0 and one_line(out) == (
        "propstab compare: PASS: shown non-inferior within "
        "margin 0.2: " + " ".join(res.message().split())
    )
    code, out, _ = run(["compare", files["stable"], files["noisy"], "--noninferiority", "0.05"])
    assert code == 1 and one_line(out).startswith(
        "propstab compare: FAIL: not shown " "non-inferior within margin 0.05: baseline"
    )
    code, out, _ = run(["compare", files["stable"], files["noisy"], "--drop", "0.05"])
    assert code == 1 and one_line(out).startswith(
        "propstab compare: FAIL: stability dropped " "by more than 0.05: baseline"
    )
    assert "lies below -0.05" in out and "test: drop test" in out
    code, out, _ = run(["compare", files["stable"], files["stable"], "--drop", "0.05"])
    assert code == 0 and "PASS" in out


def test_compare_refuses_a_baseline_of_another_measure(files, tmp_path):
    path = Baseline.from_result(files["stable_Z"], measure="jaccard").save(tmp_path / "b.npz")
    code, out, err = run(["compare", path, files["stable"], "--noninferiority", "0.1"])
    assert code == 2 and not out
    assert one_line(err).startswith(
        f"propstab compare: error: baseline {path}: measure: the "
        "baseline is compared under 'jaccard'; got 'nogueira'"
    )
    code, out, err = run(
        ["compare", path, files["stable"], "--noninferiority", "0.1", "--measure", "jaccard"]
    )
    assert code in (0, 1) and out.startswith("propstab compare: ")


@pytest.mark.parametrize(
    "argv, start",
    [
        (["--noninferiority", "-1"], "propstab compare: error: --noninferiority: must be >= 0"),
        (["--drop", "nan"], "propstab compare: error: --drop: "),
        (
            ["--noninferiority", "0.1", "--drop", "0.1"],
            "propstab compare: error: argument --drop: " "not allowed with argument",
        ),
        (
            ["--noninferiority", "0.1", "--confidence-level", "1"],
            "propstab compare: error: --confidence",
        ),
    ],
)
def test_compare_bad_input_is_one_line_and_exit_2(files, argv, start):
    code, out, err = run(["compare", files["stable"], files["noisy"], *argv])
    assert code == 2 and not out
    assert one_line(err).startswith(start), err


def test_exit_statuses_in_a_subprocess(files):
    env = dict(os.environ, PYTHONPATH=str(CHECKOUT))
    codes = [
        shared.run(
            [sys.executable, "-m", "propstab", *map(str, argv)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        ).returncode
        for argv in (
            ["check", files["stable"], "--at-least", "0.5"],
            ["check", files["noisy"], "--at-least", "0.5"],
            ["check", files["noisy"], "--at-least", "5"],
        )
    ]
    assert codes == [0, 1, 2]
