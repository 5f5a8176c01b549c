"""``propstab crosscheck --input FILE``: the user's own selections against R, at R's defaults.

Uses the ``r_live`` fixture (r_compat/conftest.py): without R these tests FAIL unless
PROPSTAB_SKIP_R=1. Files here are written by R itself (write.csv, jsonlite) and by
pandas; expected values come from stabm called directly through the bridge.
"""
import json

import numpy as np
import pandas as pd
import pytest

import propstab
from propstab.cli import main
from propstab.r import (
    call_r,
    crosscheck,
    reference_value,
    robjects,
    to_r_features,
    to_r_similarity,
)

pytestmark = pytest.mark.usefixtures("r_live")

NAMES = ["g 1", "g 2", "g 3", "g 4", "g 5"]
Z = np.array(
    [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [0, 0, 1, 1, 0]],
    dtype=bool,
)
C = np.eye(5)
C[0, 1] = C[1, 0] = 0.95
C[2, 3] = C[3, 2] = 0.5  # dropped by stabm's default threshold 0.9


def stabm(function, **args):
    """stabm called directly on Z, with R's defaults for every argument not given."""
    features = to_r_features(propstab.as_selection(Z))
    return float(call_r("stabm", function, features=features, **args)[0])


def r_features():
    return [(np.flatnonzero(r) + 1).tolist() for r in Z]


@pytest.fixture
def files(tmp_path):
    z = tmp_path / "lasso runs.csv"
    pd.DataFrame(Z.astype(int), columns=NAMES).to_csv(z)
    sim = tmp_path / "similarity.csv"
    pd.DataFrame(C, index=NAMES, columns=NAMES).to_csv(sim)
    return z, sim


def run_json(capsys, *argv):
    code = main(["crosscheck", *map(str, argv), "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_sechidis_on_the_input_at_stabms_default_threshold(files, capsys):
    z, sim = files
    code, report, err = run_json(
        capsys, "--input", z, "--measure", "sechidis", "--similarity", sim
    )
    assert code == 0 and err == "" and report["ok"]
    (row,) = report["rows"]
    assert row["options"] == {"similarity": "<5 x 5 matrix>", "threshold": 0.9}
    (v,) = row["values"]
    r_default = stabm("stabilitySechidis", **{"sim.mat": to_r_similarity(C)})
    assert v["r"] == pytest.approx(r_default, abs=1e-12)  # stabm with its defaults
    assert v["propstab"] == pytest.approx(
        propstab.stability(Z, "sechidis", similarity=C, threshold=0.9), abs=1e-12
    )
    # like-for-like matters: propstab's own default (no threshold) gives another value
    assert abs(propstab.stability(Z, "sechidis", similarity=C) - r_default) > 1e-3


def test_table_of_values_and_options(files, capsys):
    z, sim = files
    assert (
        main(
            [
                "crosscheck",
                "--input",
                str(z),
                "--measure",
                "jaccard",
                "--measure",
                "yu",
                "--similarity",
                str(sim),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"input {z}: 0/1 table, 5 runs x 5 features" in out
    assert f"inputs {z} (5 x 5)" in out
    yu = reference_value("yu", Z, similarity=C, correction_for_chance="exact").value
    assert any(
        line.split()[-3:] == [f"{yu:.10g}", f"{yu:.10g}", "agree"] for line in out.splitlines()
    )
    assert (
        "note yu: correction_for_chance = 'estimate' (the R default) is simulated, not "
        "comparable; compared at 'exact'"
    ) in out


def test_every_measure_without_a_similarity(files, capsys):
    z, _ = files
    code, report, _ = run_json(capsys, "--input", z)
    with_r = [m.name for m in propstab.list_measures() if m.r_reference is not None]
    sim = [
        m.name
        for m in propstab.list_measures()
        if m.r_reference is not None and "similarity" in m.parameter_names
    ]
    ranking = [m.name for m in propstab.list_measures("ranking") if m.r_reference is not None]
    assert {r["measure"] for r in report["rows"]} == set(with_r) - set(sim) - set(ranking)
    assert report["notes"] == [
        f"not cross-checked without a similarity matrix: " f"{', '.join(sim)}",
        f"not cross-checked: the inputs are not rank matrices " f"({', '.join(ranking)})",
    ]
    for row in report["rows"]:
        assert row["status"] == "agree", row
    assert code == 0


def test_user_options_reach_both_sides(files, capsys):
    z, _ = files
    code, report, _ = run_json(
        capsys, "--input", z, "--measure", "davis", "--option", "penalty=0.5"
    )
    (row,) = report["rows"]
    assert row["options"] == {"penalty": 0.5}
    assert row["values"][0]["r"] == pytest.approx(
        stabm("stabilityDavis", p=5, penalty=0.5), abs=1e-12
    )
    assert code == 0


def test_files_written_by_r(tmp_path, capsys):
    ro = robjects()
    csv_path, json_path = tmp_path / "from_r.csv", tmp_path / "from_r.json"
    # write.csv: quoted header with spaces, row names in an unnamed first column, TRUE/FALSE
    ro.r(
        f"""local({{
        z <- matrix(c({", ".join("TRUE" if x else "FALSE" for x in Z.ravel(order="F"))}),
                    nrow = {Z.shape[0]})
        df <- as.data.frame(z); names(df) <- c({", ".join(f'"{n}"' for n in NAMES)})
        write.csv(df, "{csv_path}")
        jsonlite::write_json(list({", ".join(f"c({', '.join(map(str, f))})"
                                             for f in r_features())}), "{json_path}")
    }})"""
    )
    text = csv_path.read_text()
    assert text.splitlines()[0] == '"",' + ",".join(f'"{n}"' for n in NAMES)
    assert "TRUE" in text
    for path, extra in ((csv_path, []), (json_path, ["--n-features", "5", "--one-based"])):
        code, report, err = run_json(capsys, "--input", path, "--measure", "nogueira", *extra)
        assert code == 0 and err == ""
        (row, fleiss) = report["rows"]
        assert row["values"][0]["r"] == pytest.approx(stabm("stabilityNogueira", p=5), abs=1e-12)


def test_refusals_on_the_input(files, capsys):
    z, _ = files

    def fails(*argv, needles):
        assert main(["crosscheck", *map(str, argv)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1
        for n in needles:
            assert n in err, (n, err)

    fails(
        "--input",
        z,
        "--measure",
        "jaccard",
        "--option",
        "correction_for_chance=estimate",
        needles=["--option correction_for_chance", "one of none, exact", "'estimate'"],
    )
    fails(
        "--input",
        z,
        "--measure",
        "zucknick",
        "--similarity",
        "identity",
        "--option",
        "correction_for_chance=estimate",
        needles=["correction_for_chance", "simulated", "'none'"],
    )
    fails("--input", z, "--measure", "sechidis", needles=["sechidis needs a similarity"])
    fails("--input", z, "--input", z, needles=["--input", "given twice"])


def test_python_api_on_inputs(files):
    report = crosscheck(
        ["jaccard", "kappa"],
        inputs={"a": Z, "b": Z[:, ::-1]},
        options={"correction_for_chance": "exact"},
    )
    assert [r.measure for r in report.rows] == ["jaccard", "kappa"]
    assert report.rows[0].options == {"correction_for_chance": "exact"}
    assert report.rows[1].options == {}  # kappa has no such option
    assert [v["input"] for v in report.rows[0].values] == ["a", "b"]
    assert report.ok and report.inputs == ("a (5 x 5)", "b (5 x 5)")


def test_generated_rows_say_which_r_defaults_they_use():
    report = crosscheck(["sechidis", "yu", "jaccard"], max_examples=3)
    rows = {r.measure: r for r in report.rows}
    assert rows["sechidis"].options == {"threshold": 0.9} and rows["sechidis"].notes == ()
    assert rows["yu"].options == {}
    assert rows["yu"].notes == (
        "yu: correction_for_chance = 'estimate' (the R default) is "
        "simulated, not comparable; the cases use the other choices",
    )
    assert rows["jaccard"].options == {} and rows["jaccard"].notes == ()
    text = str(report)
    assert "threshold=0.9" in text and "note yu: correction_for_chance" in text
