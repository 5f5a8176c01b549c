"""The Hamer sec. 6.1 study script runs in its quick mode and writes its figure."""
import pathlib
import re
import subprocess
import sys

import matplotlib  # noqa: F401 - the simulation needs both: fail, never skip,
import sklearn  # noqa: F401     without them (it runs in a subprocess)
import pytest

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "studies" / "hamer_simulation.py"


def test_hamer_simulation_quick(tmp_path):
    out = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "hamer_simulation.png").stat().st_size > 10_000
    rows = re.findall(r"q=\s*(\d+).*phi_msi=\s*(-?[\d.]+)", out.stdout)
    assert [int(q) for q, _ in rows] == [1, 4, 8, 1, 4, 8]
    assert all(0 <= float(v) <= 1 for _, v in rows)             # Property 5.1
    ranges = dict(re.findall(r"(\w+): phi=([\d.]+)", out.stdout))
    lasso = re.search(r"lasso: phi=([\d.]+)\s+phi_S=([\d.]+)\s+phi_msi=([\d.]+)", out.stdout)
    # Hamer Fig. 5(c): with the lasso, phi and phi_S move with q, phi_msi hardly
    assert float(lasso.group(3)) < float(lasso.group(1)) / 3
    assert set(ranges) == {"group", "lasso"}
