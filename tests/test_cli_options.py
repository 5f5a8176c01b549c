"""The measure's options on the command line, compare's labels, and R's defaults (issue 10,
parts 3 and 4c): one declaration in the registry, read by the docstring, ``propstab
measures`` (text and JSON) and the cross-check harness."""
import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

import propstab
from propstab import RDefault, get_measure
from propstab.cli import main
from propstab.r import _cases as cc

NAMES = ["g1", "g2", "g3", "g4", "g5"]
Z = np.array(
    [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [0, 0, 1, 1, 0]],
    dtype=bool,
)
# g1 ~ g2 at 0.95, g3 ~ g4 at 0.5: the threshold 0.9 keeps the first, drops the second
C = np.eye(5)
C[0, 1] = C[1, 0] = 0.95
C[2, 3] = C[3, 2] = 0.5


@pytest.fixture
def files(tmp_path):
    z = tmp_path / "runs.csv"
    pd.DataFrame(Z.astype(int), columns=NAMES).to_csv(z)
    sim = tmp_path / "similarity.csv"
    pd.DataFrame(C, index=NAMES, columns=NAMES).to_csv(sim)
    return z, sim


def estimate_output(capsys, *argv):
    assert main(["estimate", *map(str, argv)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return dict((line[:17].strip(), line[17:]) for line in out.splitlines())


def value(Z_, measure, **options):
    return f"{propstab.estimate(Z_, measure, **options).statistic:.4f}"


def test_similarity_file_reaches_the_measure(files, capsys):
    z, sim = files
    out = estimate_output(capsys, z, "--measure", "sechidis", "--similarity", sim)
    assert out["estimate"] == value(Z, "sechidis", similarity=C)
    assert value(Z, "sechidis", similarity=C) != value(Z, "sechidis")  # C matters here
    assert out["similarity"].startswith(f"{sim} (table, header of feature names")
    assert out["options"] == "threshold=None (default)"


@pytest.mark.parametrize("form", ["npy", "npz"])
def test_similarity_as_npy_and_sparse_npz(files, tmp_path, capsys, form):
    z, _ = files
    path = tmp_path / f"sim.{form}"
    if form == "npy":
        np.save(path, C)
    else:
        sparse.save_npz(path, sparse.csr_matrix(C))
    out = estimate_output(capsys, z, "--measure", "sechidis", "--similarity", path)
    assert out["estimate"] == value(Z, "sechidis", similarity=C)


def test_threshold_and_typed_options(files, capsys):
    z, sim = files
    out = estimate_output(
        capsys, z, "--measure", "sechidis", "--similarity", sim, "--threshold", "0.9"
    )
    assert out["estimate"] == value(Z, "sechidis", similarity=C, threshold=0.9)
    assert value(Z, "sechidis", similarity=C, threshold=0.9) != value(Z, "sechidis", similarity=C)
    assert out["options"] == "threshold=0.9"
    same = estimate_output(
        capsys, z, "--measure", "sechidis", "--similarity", sim, "--option", "threshold=none"
    )
    assert same["estimate"] == value(Z, "sechidis", similarity=C)
    assert (
        main(
            [
                "estimate",
                str(z),
                "--measure",
                "zucknick",
                "--similarity",
                str(sim),
                "--option",
                "correction_for_chance=estimate",
                "--option",
                "n_simulations=200",
                "--option",
                "random_state=3",
            ]
        )
        == 0
    )
    text, err = capsys.readouterr()
    (line,) = err.splitlines()  # 6 runs' warnings (jackknife), one line
    assert line.startswith("propstab estimate: warning: MonteCarloWarning: zucknick:")
    assert "warnings of this kind" in line
    out = dict((ln[:17].strip(), ln[17:]) for ln in text.splitlines())
    from propstab.measures.correlated import MonteCarloWarning

    with pytest.warns(MonteCarloWarning):
        expected = value(
            Z,
            "zucknick",
            similarity=C,
            correction_for_chance="estimate",
            n_simulations=200,
            random_state=3,
        )
    assert out["estimate"] == expected
    assert "n_simulations=200" in out["options"] and "threshold=0.9 (default)" in out["options"]


def test_choice_option(files, capsys):
    z, _ = files
    out = estimate_output(
        capsys, z, "--measure", "jaccard", "--option", "correction_for_chance=exact"
    )
    assert out["estimate"] == value(Z, "jaccard", correction_for_chance="exact")
    assert out["estimate"] != value(Z, "jaccard")
    assert out["options"] == "correction_for_chance='exact'"


def test_identity_is_explicit_and_reported(files, capsys):
    z, _ = files
    out = estimate_output(capsys, z, "--measure", "sechidis", "--similarity", "identity")
    assert out["estimate"] == value(Z, "nogueira")  # Phi_C with C = I is Nogueira's
    assert out["similarity"].startswith("identity")


def test_compare_labels_results_by_file_names(files, tmp_path, capsys):
    z, sim = files
    other = tmp_path / "lasso.csv"
    Z2 = Z.copy()
    Z2[:, 0] = True
    pd.DataFrame(Z2.astype(int), columns=NAMES).to_csv(other)
    assert (
        main(["compare", str(z), str(other), "--measure", "sechidis", "--similarity", str(sim)])
        == 0
    )
    out = capsys.readouterr().out
    lines = dict((line[:12].strip(), line[12:]) for line in out.splitlines())
    res = propstab.two_sample_test(Z, Z2, measure="sechidis", similarity=C)
    e1, e2 = res.estimates
    assert lines["runs.csv"].startswith(f"{e1.statistic:.4f} (se {e1.standard_error:.4f}")
    assert lines["lasso.csv"].startswith(f"{e2.statistic:.4f} (se {e2.standard_error:.4f}")
    assert lines["difference"] == f"{res.difference:.4f} (runs.csv - lasso.csv)"
    assert lines["test"] == res.test_description
    assert lines["p-value"] == f"{res.pvalue:.4g} (two-sided, H1: runs.csv != lasso.csv)"
    assert "FILE1" not in out and "similarity" in lines


def test_compare_same_file_names_in_two_folders(files, tmp_path, capsys):
    z, _ = files
    (tmp_path / "b").mkdir()
    other = tmp_path / "b" / "runs.csv"
    pd.DataFrame(Z.astype(int), columns=NAMES).to_csv(other)
    assert main(["compare", str(z), str(other)]) == 0
    out = capsys.readouterr().out
    assert f"0.0000 ({z} - {other})" in out  # the paths, as the names coincide
    assert any(line.startswith(f"{z}  ") for line in out.splitlines())


# ---------------------------------------------------------------- R's defaults (part 4c)


def test_declared_r_defaults_are_the_r_functions_formals():
    # stabm 1.2.2: stabilitySechidis(threshold = 0.9), stabilityYu(correction.for.chance =
    # "estimate"); the other defaults of the R references equal propstab's
    declared = {
        m.name: m.r_reference.default_differences(m.parameters)
        for m in propstab.list_measures()
        if m.r_reference is not None
    }
    differing = {
        name: [(d["option"], d["r_default"], d["propstab_default"]) for d in diffs]
        for name, diffs in declared.items()
        if diffs
    }
    assert differing == {
        "sechidis": [("threshold", 0.9, None)],
        "yu": [("correction_for_chance", "estimate", "exact")],
    }


def test_docstring_and_measures_command_read_the_declaration(capsys):
    for name in ("sechidis", "yu"):
        info = get_measure(name)
        (diff,) = info.r_reference.default_differences(info.parameters)
        text = (
            f"{diff['option']} = {diff['r_default']!r} in stabm, "
            f"{diff['propstab_default']!r} in propstab ({diff['reason']})"
        )
        assert text in " ".join(info.function.__doc__.split())
        assert main(["measures"]) == 0
        assert f"  {name}: {text}" in capsys.readouterr().out
        assert main(["measures", "--json"]) == 0
        row = next(r for r in json.loads(capsys.readouterr().out) if r["name"] == name)
        assert row["r_default_differences"] == [diff]
    assert "defaults differ" not in " ".join(get_measure("jaccard").function.__doc__.split())


def test_register_checks_the_declaration():
    ref = get_measure("davis").r_reference
    param = propstab.Parameter("penalty", 0.0, "alpha")
    cases = [
        ({"alpha": RDefault(1.0, "x")}, ValueError, "not an option"),
        ({"penalty": RDefault(0.0, "x")}, ValueError, "equals propstab's"),
        ({"penalty": RDefault(1.0, "")}, ValueError, "reason"),
        ({"penalty": 1.0}, TypeError, "RDefault"),
    ]
    for defaults, exc, match in cases:
        bad = dataclasses.replace(ref, defaults=defaults)
        with pytest.raises(exc, match=match):
            bad.check_defaults("test", [param])
    unmapped = dataclasses.replace(ref, arguments={}, defaults={"penalty": RDefault(1.0, "x")})
    with pytest.raises(ValueError, match="no R argument"):
        unmapped.check_defaults("test", [param])


def test_worked_examples_run_at_r_defaults():
    info = get_measure("davis")
    ref = dataclasses.replace(
        info.r_reference, defaults={"penalty": RDefault(1.0, "a test declaration")}
    )
    fake = dataclasses.replace(info, r_reference=ref)
    assert cc.r_default_options(fake) == {"penalty": 1.0, "correction_for_chance": "none"}
    cases = cc.worked_cases(fake)
    baseline = [c for c in cases if "(" not in c.name]
    assert baseline and all(c.options["penalty"] == 1.0 for c in baseline)
    assert cc.shown_options(fake, cc.r_default_options(fake)) == {"penalty": 1.0}


def test_generated_cases_draw_r_defaults():
    from hypothesis import find
    from propstab.search import REPRODUCIBLE

    info = get_measure("sechidis")
    threshold = next(p for p in info.parameters if p.name == "threshold")
    strategy = cc._option_strategy(info, threshold)
    assert find(strategy, lambda v: v == 0.9, settings=REPRODUCIBLE) == 0.9
    assert find(strategy, lambda v: v is None, settings=REPRODUCIBLE) is None


def test_simulated_defaults_are_replaced_and_said():
    yu = get_measure("yu")
    small = Z[:3, :4]
    opts, notes = cc.comparable_options(yu, cc.r_default_options(yu), small)
    assert opts["correction_for_chance"] == "exact"
    assert notes == (
        "yu: correction_for_chance = 'estimate' (the R default) is simulated, "
        "not comparable; compared at 'exact'",
    )
    large = np.zeros((6, 40), dtype=bool)
    large[:, :10] = True
    opts, notes = cc.comparable_options(yu, cc.r_default_options(yu), large)
    assert opts["correction_for_chance"] == "none" and "'none'" in notes[0]
    with pytest.raises(ValueError, match="'estimate' is simulated"):
        cc.comparable_options(
            yu, dict(cc.r_default_options(yu)), small, given=("correction_for_chance",)
        )
    exact = dict(cc.r_default_options(yu), correction_for_chance="exact")
    with pytest.raises(ValueError, match="enumerates every pair of subsets"):
        cc.comparable_options(yu, exact, large, given=("correction_for_chance",))


def test_crosscheck_input_arguments_are_checked_before_r():
    with pytest.raises(ValueError, match="only with inputs="):
        propstab.crosscheck("jaccard", options={"correction_for_chance": "exact"})
    with pytest.raises(TypeError, match="inputs: must be a non-empty mapping"):
        propstab.crosscheck("jaccard", inputs=[Z])
    with pytest.raises(ValueError, match=r"inputs\['mine'\]: entries must be 0/1"):
        propstab.crosscheck("jaccard", inputs={"mine": [[0, 2], [1, 1]]})
    with pytest.raises(ValueError, match="'penalty' not an option of jaccard"):
        propstab.crosscheck("jaccard", inputs={"mine": Z}, options={"penalty": 1.0})
    with pytest.raises(ValueError, match="sechidis needs a similarity matrix"):
        propstab.crosscheck("sechidis", inputs={"mine": Z})
