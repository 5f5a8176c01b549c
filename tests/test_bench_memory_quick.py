"""benchmarks/bench_memory.py --quick: the blocked and whole-matrix paths print the same
value, the blocked path's peak is not above the whole path's, and the sampled-pairs rows
are printed. No timing is asserted."""
from __future__ import annotations

import json
import pathlib
import re
import sys

import pytest

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.timeout(600)  # the benchmark: under its own 300 s limit
def test_quick_memory_benchmark_prints_equal_values_and_peaks(tmp_path):
    out = tmp_path / "rows.json"
    run = shared.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_memory.py"),
            "--quick",
            "--growth",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.findall(r"same value: (\w+)", run.stdout) == ["True", "True"]
    rows = json.loads(out.read_text())
    by = {(r["M"], r["path"]): r for r in rows if not r.get("growth")}
    for M in (500, 1000):
        blocked, whole = by[(M, "blocked")], by[(M, "whole")]
        assert blocked["value"] == whole["value"]
        assert blocked["increase_bytes"] <= whole["increase_bytes"]
    sampled = [r for r in rows if r["path"] == "sampled"]
    assert len(sampled) == 2 and all(r["standard_error"] > 0 for r in sampled)
    exact = float(by[(1000, "blocked")]["value"])
    assert abs(float(sampled[0]["value"]) - exact) < 5 * sampled[0]["standard_error"]
    assert len([r for r in rows if r.get("growth")]) == 9
