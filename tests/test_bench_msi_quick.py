"""The msi benchmark runs in its quick mode and its fast and dense values agree (its
main called in this process: no interpreter start and imports of its own)."""
import pathlib
from types import SimpleNamespace

import shared  # tests/shared.py (tests/ is on sys.path)

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "bench_msi.py"


def test_bench_msi_quick_runs_and_agrees(capsys):
    code = shared.load_script(SCRIPT, "bench_msi").main(["--quick"])
    out = SimpleNamespace(returncode=code, stdout=capsys.readouterr().out)
    assert out.returncode == 0, out.stdout
    rows = [line for line in out.stdout.splitlines() if line.rstrip().endswith("yes")]
    assert len(rows) == 3, out.stdout
    assert "values differ" not in out.stdout
