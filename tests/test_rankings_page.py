"""docs/rankings.md's breast-cancer table is what its script prints in full mode (M = 100):
the page cannot go stale when the library's numbers move (they did: the L1 logistic row
and the filter's out-of-bag accuracy, once the filter was scored by the default
downstream model)."""
import contextlib
import io
import pathlib
import re
import warnings

import shared  # tests/shared.py (tests/ is on sys.path)

import propstab

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _page_table():
    text = (ROOT / "docs" / "rankings.md").read_text()
    section = text[text.index("### Example: four rankers on the breast cancer data") :]
    return [line for line in section.split("\n\n")[2].splitlines() if line.startswith("|")]


def test_the_rankings_page_table_is_the_scripts_full_output(tmp_path):
    mod = shared.load_script(
        ROOT / "examples" / "ranking_stability_breast_cancer.py", "ranking_page_full"
    )
    printed = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed):
        warnings.simplefilter("always")
        rows, comparison = mod.main(["--figures", str(tmp_path)])  # full: M = 100
    # M = 100 runs: none of propstab's warnings (a small-sample one would mean fewer runs)
    assert not [w for w in caught if issubclass(w.category, propstab.PropstabWarning)]
    table = [line for line in printed.getvalue().splitlines() if line.startswith("|")]
    assert len(table) == 6  # header, rule, four rankers
    assert _page_table() == table
    # the sentence under the table: the two filters do not differ, every other pair does
    text = (ROOT / "docs" / "rankings.md").read_text()
    said = re.search(r"\(difference (-?[\d.]+), p = ([\d.]+)\); every other pair", text)
    first = comparison.tests.rows[0]
    assert (first["first"], first["second"]) == ("mutual information", "random forest")
    assert said.groups() == (f"{first['difference']:.4f}", f"{first['pvalue']:.2f}")
    assert max(r["pvalue_holm"] for r in comparison.tests.rows[1:]) < 1e-12
