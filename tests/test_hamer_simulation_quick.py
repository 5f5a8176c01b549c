"""The Hamer sec. 6.1 study script runs in its quick mode and writes its figure."""
import pathlib
import re
from types import SimpleNamespace

import matplotlib  # noqa: F401 - the simulation needs both: fail, never skip,
import sklearn  # noqa: F401     without them

import shared  # tests/shared.py (tests/ is on sys.path)

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "studies" / "hamer_simulation.py"


def test_hamer_simulation_quick(tmp_path, capsys):
    code = shared.load_script(SCRIPT, "hamer_simulation").main(
        ["--quick", "--out", str(tmp_path)]
    )  # in this process
    out = SimpleNamespace(returncode=code, stdout=capsys.readouterr().out)
    assert out.returncode == 0, out.stdout
    figure = tmp_path / "hamer_simulation.png"
    assert figure.stat().st_size > 10_000
    # legible in the site's column (740 px at 1,400): at most 740 px wide, text >= 9 px
    assert int.from_bytes(figure.read_bytes()[16:20], "big") <= 740
    text = shared.load_script(SCRIPT.parents[1] / "scripts" / "site_audit.py", "site_audit")
    assert float(text.png_text(figure)[text.TEXT_KEY]) >= text.MIN_FIGURE_TEXT
    rows = re.findall(r"q=\s*(\d+).*phi_msi=\s*(-?[\d.]+)", out.stdout)
    assert [int(q) for q, _ in rows] == [1, 4, 8, 1, 4, 8]
    assert all(0 <= float(v) <= 1 for _, v in rows)  # Property 5.1
    ranges = dict(re.findall(r"(\w+): phi=([\d.]+)", out.stdout))
    lasso = re.search(r"lasso: phi=([\d.]+)\s+phi_S=([\d.]+)\s+phi_msi=([\d.]+)", out.stdout)
    # Hamer Fig. 5(c): with the lasso, phi and phi_S move with q, phi_msi hardly
    assert float(lasso.group(3)) < float(lasso.group(1)) / 3
    assert set(ranges) == {"group", "lasso"}
