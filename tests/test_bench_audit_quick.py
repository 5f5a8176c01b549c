"""The audit benchmark runs in its quick mode: the audit without reuse across searches
(the baseline), with it, on 2 processes loky starts and on 2 forked ones give the same
rows; the table of times is well formed. No timing is asserted."""
import os
import pathlib
import re
import sys

import pytest

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_audit.py"
NUMBER = r"[0-9]+\.[0-9]+"


@pytest.mark.timeout(900)  # the benchmark: under its own 600 s limit
def test_bench_audit_quick_runs_and_every_run_gives_the_same_rows():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = shared.run(
        [sys.executable, str(SCRIPT), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    # run, then wall s, cpu s, wall/base, cpu/base, load
    row = re.compile(
        r"^(baseline|serial|parallel,? ?\w*) \(.*\)\s+" + r"\s+".join([NUMBER] * 5) + "$"
    )
    rows = [line for line in out.stdout.splitlines() if row.match(line)]
    assert [r.split(" (")[0] for r in rows] == [
        "baseline",
        "serial",
        "parallel, loky",
        "parallel",
    ], out.stdout
    assert "every run gives the same rows (verdicts, counterexamples, values): yes" in out.stdout
    assert "rows: 20 checks" in out.stdout, out.stdout
