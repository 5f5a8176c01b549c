"""The error-control benchmark runs in its quick mode: a well-formed row per call, and
the bisection gives the same q and cutoff as stabs's walk (tests/twins.py).

No timing is asserted (benchmarks/README.md has the full run's figures)."""
import pathlib
import re
from types import SimpleNamespace

import shared  # tests/shared.py (tests/ is on sys.path)

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "benchmarks" / "bench_error_control.py"
ROW = re.compile(
    r"^(r-concave|unimodal|none)\s+(\d+) (.{29}) +(\d+)\s+([0-9.e+-]+)\s+"
    r"([0-9.]+)\s+([0-9.e+]+)\s+([0-9.e+-]+)$"
)


def test_bench_error_control_quick_runs_and_the_bisection_equals_the_walk(capsys):
    code = shared.load_script(SCRIPT, "bench_error_control").main(["--quick"])  # in-process
    out = SimpleNamespace(returncode=code, stdout=capsys.readouterr().out)
    assert out.returncode == 0, out.stdout
    rows = [ROW.match(line) for line in out.stdout.splitlines()]
    rows = [m for m in rows if m]
    assert len(rows) == 12, out.stdout  # 6 calls x 2 values of p, B = 10
    assert {m.group(1) for m in rows} == {"r-concave", "unimodal", "none"}
    assert all(float(m.group(5)) > 0 for m in rows)
    walks = [line for line in out.stdout.splitlines() if "stabs walk (twin)" in line]
    assert len(walks) == 3 and all(line.endswith("same answer") for line in walks), walks
    assert "0 different answers" in out.stdout
    # the r-concave q derived at cutoff 1, PFER 1 (stabs's walk: thousands of bounds)
    q_at_cutoff_1 = [
        float(m.group(7))
        for m in rows
        if m.group(1) == "r-concave" and m.group(3).startswith("q from cutoff 1,")
    ]
    assert q_at_cutoff_1[1] > q_at_cutoff_1[0] >= 1
