"""The msi benchmark runs in its quick mode and its fast and dense values agree."""
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "bench_msi.py"


def test_bench_msi_quick_runs_and_agrees():
    out = subprocess.run([sys.executable, str(SCRIPT), "--quick"], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line for line in out.stdout.splitlines() if line.rstrip().endswith("yes")]
    assert len(rows) == 3, out.stdout
    assert "values differ" not in out.stdout
