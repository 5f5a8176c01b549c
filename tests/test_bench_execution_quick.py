"""The execution benchmark runs in its quick mode: every backend (serial, loky, a dask
LocalCluster, a checkpoint and its resumption) gives the identical assessment."""
import os
import pathlib
import sys

import pytest

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_execution.py"


@pytest.mark.timeout(600)  # the benchmark: under its own 300 s limit
def test_bench_execution_quick_runs_and_every_backend_agrees():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = shared.run(
        [sys.executable, str(SCRIPT), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line for line in out.stdout.splitlines() if line.rstrip().endswith("True")]
    assert len(rows) == 6, out.stdout
    assert "checkpoint files: 16 (one per run)" in out.stdout
