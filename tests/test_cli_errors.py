"""Every CLI failure is one line on stderr and a non-zero exit status, never a traceback.

Each rejection asserts the exit status (2: the command line or an input is wrong; 3:
the command cannot run here), that stderr is exactly one line
``propstab COMMAND: error: ...``, that stdout is empty, and that the line names the
argument or file, the rule and the offending value.
"""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import shared  # tests/shared.py
from propstab import cli
from propstab._utils.exceptions import RUnavailableError
from propstab.cli import main

NAMES = ["mean radius", "mean texture", "worst area"]
GOOD = pd.DataFrame([[1, 1, 0], [1, 0, 1], [0, 1, 1]], columns=NAMES)


def fails(capsys, argv, *needles, status=2):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == status, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith(f"propstab {argv[0]}: error: "), lines[0]
    for needle in needles:
        assert str(needle) in lines[0], (needle, lines[0])
    return lines[0]


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "good.csv"
    GOOD.to_csv(path)
    return path


# ---------------------------------------------------------------- selection files


def test_raw_data_instead_of_a_selection(tmp_path, capsys):
    data = pd.DataFrame(
        {
            "mean radius": [17.99, 20.57, 19.69],
            "mean texture": [10.38, 17.77, 21.25],
            "target": [0, 0, 1],
        }
    )
    path = tmp_path / "breast_cancer.csv"
    data.to_csv(path, index=False)
    fails(
        capsys,
        ["estimate", path],
        "breast_cancer.csv",
        "looks like raw data",
        "17.99",
        "'mean radius'",
        "0/1",
    )


def test_a_stray_value(tmp_path, capsys):
    path = tmp_path / "z.csv"
    GOOD.assign(**{"worst area": [0, 2, 1]}).to_csv(path, index=False)
    fails(
        capsys,
        ["estimate", path],
        "z.csv",
        "entries must be 0/1 or True/False",
        "got 2",
        "run 2 of 3",
        "'worst area'",
    )


def test_an_empty_cell(tmp_path, capsys):
    path = tmp_path / "z.csv"
    path.write_text("a,b,c\n1,0,1\n1,,0\n0,1,1\n")
    fails(
        capsys,
        ["estimate", path],
        "z.csv",
        "0/1 or True/False",
        "an empty cell",
        "run 2 of 3",
        "'b'",
    )


def test_ragged_rows(tmp_path, capsys):
    path = tmp_path / "ragged.csv"
    path.write_text("0,1\n0,1,1\n")
    fails(capsys, ["estimate", path], "ragged.csv", "different lengths", "line 2", "--n-features")


def test_a_header_without_runs(tmp_path, capsys):
    path = tmp_path / "header.csv"
    path.write_text("a,b,c\n")
    fails(capsys, ["estimate", path], "header.csv", "no runs")


def test_one_run_only(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("a,b,c\n1,0,1\n")
    fails(capsys, ["estimate", path], "one.csv", "at least 2 runs", "got 1")


def test_missing_file_and_unknown_suffix(tmp_path, capsys):
    fails(capsys, ["estimate", tmp_path / "missing.csv"], "missing.csv", "no such file")
    path = tmp_path / "z.xlsx"
    path.write_text("x")
    fails(capsys, ["estimate", path], "z.xlsx", "must end in", ".csv", "'.xlsx'")


@pytest.mark.parametrize("name", ["latin1.csv", "latin1.json"])
def test_a_file_that_is_not_utf8(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_bytes("gène_a,gène_b\n1,0\n0,1\n".encode("latin-1"))
    line = fails(capsys, ["estimate", path, "--n-features", "2"], name, "not UTF-8 text")
    assert line.count(name) == 1
    if name.endswith(".csv"):  # read as a table
        assert fails(capsys, ["estimate", path], name, "not UTF-8 text").count(name) == 1


def test_unknown_index_column(good, capsys):
    fails(
        capsys,
        ["estimate", good, "--index-col", "run"],
        "good.csv",
        "--index-col",
        "'run'",
        "'mean radius'",
    )


def test_base_flag_on_a_table(tmp_path, capsys):
    path = tmp_path / "z.npy"
    np.save(path, GOOD.to_numpy())
    fails(capsys, ["estimate", path, "--one-based"], "z.npy", "--one-based", "index lists")


def test_npy_of_raw_values(tmp_path, capsys):
    path = tmp_path / "x.npy"
    np.save(path, np.array([[0.5, 1.5], [2.5, 3.5]]))
    fails(capsys, ["estimate", path], "x.npy", "raw data", "0.5")


# ---------------------------------------------------------------- JSON index lists


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_json_ambiguous_base(tmp_path, capsys):
    path = write(tmp_path, "runs.json", [[1, 2], [2, 3]])
    fails(
        capsys,
        ["estimate", path, "--n-features", "4"],
        "runs.json",
        "1..3",
        "valid both 0-based (0..3) and 1-based (1..4)",
        "--zero-based",
        "--one-based",
    )


def test_json_index_out_of_range(tmp_path, capsys):
    path = write(tmp_path, "runs.json", [[0, 1], [1, 2]])
    fails(
        capsys,
        ["estimate", path, "--n-features", "3", "--one-based"],
        "runs.json",
        "run 1",
        "index 0",
        "outside 1..3",
        "1-based",
    )
    fails(
        capsys,
        ["estimate", path, "--n-features", "2", "--zero-based"],
        "runs.json",
        "run 2",
        "index 2",
        "outside 0..1",
        "0-based",
    )


def test_json_zero_and_d_together(tmp_path, capsys):
    path = write(tmp_path, "runs.json", [[0, 1], [1, 3]])
    fails(capsys, ["estimate", path, "--n-features", "3"], "runs.json", "both 0 and 3")


def test_json_needs_d(tmp_path, capsys):
    path = write(tmp_path, "runs.json", [[0, 1], [1, 2]])
    fails(capsys, ["estimate", path], "runs.json", "number of features", "--n-features")


def test_json_names_need_the_feature_list(tmp_path, capsys):
    path = write(tmp_path, "runs.json", [["a", "b"], ["b", "c"]])
    fails(capsys, ["estimate", path], "runs.json", "feature names", "--feature-names")
    names = write(tmp_path, "names.txt", "a\nb\n")
    fails(
        capsys,
        ["estimate", path, "--feature-names", names],
        "runs.json",
        "run 2",
        "'c'",
        "not among the 2 feature names",
    )
    fails(
        capsys,
        ["estimate", path, "--feature-names", names, "--zero-based"],
        "runs.json",
        "names, not indices",
        "--zero-based",
    )


def test_json_repeated_feature(tmp_path, capsys):
    path = write(tmp_path, "runs.json", [[0, 1, 1], [1, 2]])
    fails(
        capsys,
        ["estimate", path, "--n-features", "3"],
        "runs.json",
        "run 1",
        "feature 1 more than once",
    )


def test_json_not_a_list_of_runs(tmp_path, capsys):
    fails(
        capsys,
        ["estimate", write(tmp_path, "bad.json", "[[1, 2"), "--n-features", "3"],
        "bad.json",
        "not valid JSON",
    )
    fails(
        capsys,
        ["estimate", write(tmp_path, "num.json", "3"), "--n-features", "3"],
        "num.json",
        "JSON list of runs",
        "int",
    )
    fails(
        capsys,
        ["estimate", write(tmp_path, "bool.json", [[True], [1]]), "--n-features", "3"],
        "bool.json",
        "run 1",
        "true",
        "integers",
    )
    fails(
        capsys,
        ["estimate", write(tmp_path, "frac.json", [[1.5], [1]]), "--n-features", "3"],
        "frac.json",
        "run 1",
        "1.5",
        "whole numbers",
    )
    fails(
        capsys,
        ["estimate", write(tmp_path, "mixed.json", [[0, "a"], [1]]), "--n-features", "3"],
        "mixed.json",
        "mixes feature indices and names",
    )


def test_json_zero_one_matrix_is_recognised(tmp_path, capsys):
    path = write(tmp_path, "matrix.json", [[1, 0, 1], [0, 1, 1]])
    fails(
        capsys,
        ["estimate", path, "--n-features", "3"],
        "matrix.json",
        "looks like a 0/1 matrix",
        ".csv",
    )


def test_feature_names_file(tmp_path, capsys):
    names = write(tmp_path, "names.txt", "a\nb\na\n")
    runs = write(tmp_path, "runs.json", [["a"], ["b"]])
    fails(capsys, ["estimate", runs, "--feature-names", names], "names.txt", "unique", "'a'")
    fails(
        capsys,
        ["estimate", runs, "--feature-names", tmp_path / "nope.txt"],
        "nope.txt",
        "no such file",
    )


def test_header_differs_from_feature_names(good, tmp_path, capsys):
    names = write(tmp_path, "names.txt", "mean radius\nmean texture\nworst perimeter\n")
    fails(
        capsys,
        ["estimate", good, "--feature-names", names],
        "good.csv",
        "differ from the 3 given feature names",
        "feature 2",
        "'worst area'",
        "'worst perimeter'",
    )


# ---------------------------------------------------------------- the measure's options


def test_unknown_option_lists_the_known_ones(good, capsys):
    fails(
        capsys,
        ["estimate", good, "--measure", "jaccard", "--option", "penalty=1"],
        "--option penalty",
        "not an option of jaccard",
        "correction_for_chance",
    )
    fails(
        capsys,
        ["estimate", good, "--option", "penalty=1"],
        "--option penalty",
        "nogueira",
        "options: none",
    )


def test_malformed_option(good, capsys):
    fails(
        capsys,
        ["estimate", good, "--measure", "davis", "--option", "penalty"],
        "--option",
        "KEY=VALUE",
        "'penalty'",
    )
    fails(
        capsys,
        ["estimate", good, "--measure", "davis", "--option", "penalty=1", "--option", "penalty=2"],
        "--option penalty",
        "given twice",
    )


def test_option_values_are_typed_from_the_declaration(good, tmp_path, capsys):
    fails(
        capsys,
        ["estimate", good, "--measure", "davis", "--option", "penalty=much"],
        "--option penalty",
        "must be a number",
        "'much'",
    )
    fails(
        capsys,
        ["estimate", good, "--measure", "davis", "--option", "penalty=-1"],
        "penalty",
        ">= 0.0",
        "-1.0",
    )
    fails(
        capsys,
        ["estimate", good, "--measure", "jaccard", "--option", "correction_for_chance=estimate"],
        "--option correction_for_chance",
        "one of none, exact",
        "'estimate'",
    )
    sim = tmp_path / "sim.npy"
    np.save(sim, np.eye(3))
    fails(
        capsys,
        [
            "estimate",
            good,
            "--measure",
            "yu",
            "--similarity",
            sim,
            "--option",
            "n_simulations=many",
        ],
        "--option n_simulations",
        "integer",
        "'many'",
    )


def test_matrix_options_are_not_given_as_text(good, capsys):
    fails(
        capsys,
        ["estimate", good, "--measure", "sechidis", "--option", "similarity=eye"],
        "--option similarity",
        "--similarity FILE",
    )
    fails(
        capsys,
        ["estimate", good, "--measure", "msi", "--option", "importances=x"],
        "--option importances",
        "Python",
    )


def test_threshold_and_similarity_only_for_measures_taking_them(good, tmp_path, capsys):
    fails(
        capsys,
        ["estimate", good, "--threshold", "0.5"],
        "--threshold",
        "nogueira takes no threshold",
    )
    sim = tmp_path / "sim.npy"
    np.save(sim, np.eye(3))
    fails(
        capsys,
        ["estimate", good, "--similarity", sim],
        "--similarity",
        "nogueira takes no similarity",
        "sechidis",
    )
    fails(
        capsys,
        [
            "estimate",
            good,
            "--measure",
            "yu",
            "--similarity",
            sim,
            "--threshold",
            "0.5",
            "--option",
            "threshold=0.6",
        ],
        "--threshold",
        "given both",
    )


@pytest.mark.parametrize("measure", ["sechidis", "msi", "yu", "intersection_mbm", "pogr"])
def test_a_measure_needing_a_similarity_refuses_to_run_without(good, capsys, measure):
    fails(
        capsys,
        ["estimate", good, "--measure", measure],
        "--similarity",
        measure,
        "none was given",
        "--similarity identity",
    )


def test_bad_similarity_files(good, tmp_path, capsys):
    asym = tmp_path / "asym.csv"
    pd.DataFrame([[1, 0.5, 0], [0.4, 1, 0], [0, 0, 1]]).to_csv(asym, index=False, header=False)
    fails(
        capsys,
        ["estimate", good, "--measure", "sechidis", "--similarity", asym],
        "asym.csv",
        "symmetric",
        "0.5",
        "0.4",
    )
    small = tmp_path / "small.npy"
    np.save(small, np.eye(2))
    fails(
        capsys,
        ["estimate", good, "--measure", "sechidis", "--similarity", small],
        "--similarity",
        "small.npy",
        "2 x 2",
        "good.csv has 3 features",
    )
    other = tmp_path / "other.csv"
    pd.DataFrame(np.eye(3), index=list("xyz"), columns=list("xyz")).to_csv(other)
    fails(
        capsys,
        ["estimate", good, "--measure", "sechidis", "--similarity", other],
        "--similarity",
        "other.csv",
        "feature names differ",
        "good.csv",
    )
    text = tmp_path / "text.csv"
    text.write_text("1,0.5\n0.5,high\n")
    fails(
        capsys,
        ["estimate", good, "--measure", "sechidis", "--similarity", text],
        "text.csv",
        "numbers",
        "'high'",
        "row 2, column 2",
    )


def test_unknown_measure_and_confidence(good, capsys):
    fails(
        capsys,
        ["estimate", good, "--measure", "nogeuira"],
        "measure",
        "'nogeuira'",
        "Did you mean 'nogueira'",
    )
    fails(
        capsys,
        ["estimate", good, "--confidence-level", "1.5"],
        "--confidence-level",
        "(0, 1)",
        "1.5",
    )


def test_compare_files_with_different_names(good, tmp_path, capsys):
    other = tmp_path / "other.csv"
    GOOD.rename(columns={"worst area": "worst perimeter"}).to_csv(other)
    fails(
        capsys,
        ["compare", good, other],
        "good.csv",
        "other.csv",
        "feature names differ",
        "'worst area' vs 'worst perimeter'",
    )


# ---------------------------------------------------------------- usage, audit, crosscheck


def test_no_command(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "propstab: error: give a COMMAND (measures, audit, estimate, "
        "compare, crosscheck, agree, check); see propstab --help\n"
    )


def test_usage_errors_are_one_line(capsys):
    fails(capsys, ["estimate"], "required", "FILE", "propstab estimate --help")
    fails(
        capsys,
        ["compare", "a.csv", "b.csv", "--alternative", "bigger"],
        "--alternative",
        "'bigger'",
        "two-sided",
    )


@pytest.mark.parametrize("command", ["audit", "crosscheck"])
def test_max_examples_zero_is_refused(capsys, command):
    fails(capsys, [command, "--max-examples", "0"], "--max-examples", "positive integer", "got 0")


def test_audit_a_file_with_a_syntax_error(tmp_path, capsys):
    path = tmp_path / "broken.py"
    path.write_text("def f(Z:\n    return 1.0\n")
    fails(capsys, ["audit", f"{path}:f"], "broken.py", "syntax error", "line 1")


def test_audit_a_file_whose_import_fails(tmp_path, capsys):
    path = tmp_path / "needs.py"
    path.write_text("import a_module_nobody_installed\n\ndef f(Z):\n    return 1.0\n")
    fails(
        capsys,
        ["audit", f"{path}:f"],
        "needs.py",
        "importing",
        "ModuleNotFoundError",
        "a_module_nobody_installed",
    )
    raising = tmp_path / "raising.py"
    raising.write_text("raise RuntimeError('configure me first')\n")
    fails(capsys, ["audit", f"{raising}:f"], "raising.py", "RuntimeError", "configure me first")


def test_audit_a_missing_function_or_file(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("def g(Z):\n    return 1.0\n")
    fails(capsys, ["audit", f"{path}:f"], "mine.py", "defines no function", "'f'")
    fails(capsys, ["audit", f"{tmp_path / 'none.py'}:f"], "none.py", "no such file")
    fails(capsys, ["audit", f"{path}:g", "--measure", "jaccard"], "either", "not both")


def test_crosscheck_options_need_an_input(tmp_path, capsys):
    fails(capsys, ["crosscheck", "--threshold", "0.5"], "--threshold", "only with --input")
    fails(capsys, ["crosscheck", "--option", "threshold=0.5"], "--option", "--input")


def test_a_missing_r_is_an_environment_error(monkeypatch, good, capsys):
    import propstab.r

    def no_r(*args, **kwargs):
        raise RUnavailableError("R cannot be loaded: install R 4.x")

    monkeypatch.setattr(propstab.r, "crosscheck", no_r)
    fails(capsys, ["crosscheck", "--measure", "jaccard"], "R cannot be loaded", status=3)
    fails(
        capsys,
        ["crosscheck", "--input", good, "--measure", "jaccard"],
        "R cannot be loaded",
        status=3,
    )


def test_an_internal_error_is_one_line_and_debug_reraises(monkeypatch, good, capsys):
    import propstab.inference

    def broken(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(propstab.inference, "estimate", broken)
    fails(
        capsys,
        ["estimate", good],
        "internal error ZeroDivisionError",
        "float division by zero",
        "PROPSTAB_DEBUG=1",
        status=3,
    )
    monkeypatch.setenv("PROPSTAB_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["estimate", str(good)])


def test_keyboard_interrupt_stops_with_one_line_and_status_130(monkeypatch, good, capsys):
    """Ctrl-C is not an internal error (status 3) nor a traceback: one line, the status
    a shell gives a process stopped by SIGINT; PROPSTAB_DEBUG=1 lets it propagate."""
    import propstab.inference

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(propstab.inference, "estimate", interrupted)
    assert main(["estimate", str(good)]) == cli.INTERRUPTED == 130
    assert capsys.readouterr().err == "propstab estimate: interrupted\n"
    monkeypatch.setenv("PROPSTAB_DEBUG", "1")
    with pytest.raises(KeyboardInterrupt):
        main(["estimate", str(good)])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pgrep, /proc")
def test_ctrl_c_on_a_parallel_audit_is_one_line_and_status_130():
    """Ctrl-C in a terminal interrupts the whole process group: the command and its
    worker processes (forked on Linux). Once the workers run checks, SIGINT to the group
    ends the audit with one line, status 130, no worker's traceback, no worker left."""
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(__file__).resolve().parents[1]))
    env.pop("PROPSTAB_DEBUG", None)
    code, out, err, workers = shared.interrupt_when_working(
        [sys.executable, "-m", "propstab", "audit", "--jobs", "2"], env
    )
    assert (code, err, out) == (130, "propstab audit: interrupted\n", "")
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")]


def test_exit_status_classes():
    assert cli.exit_status(ValueError("x")) == cli.exit_status(TypeError("x")) == 2
    assert cli.exit_status(FileNotFoundError("x")) == 2
    assert cli.exit_status(RUnavailableError("x")) == cli.exit_status(ImportError("x")) == 3
    assert cli.exit_status(RuntimeError("x")) == 3


def test_warnings_print_as_one_line(tmp_path, capsys):
    path = tmp_path / "empty_runs.csv"
    path.write_text("a,b,c\n0,0,0\n0,0,0\n0,0,0\n")  # nogueira: k-bar = 0, undefined
    assert main(["estimate", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines() and all(
        line.startswith("propstab estimate: warning: ") for line in err.splitlines()
    )
    assert "UndefinedMeasureWarning" in err


@pytest.mark.parametrize("command", [["measures"], ["--help"]])
def test_a_closed_pipe_ends_the_command_quietly_with_status_141(command):
    """``propstab measures | head -1``: the reader closes the pipe before the command has
    written everything. The command ends at once, prints nothing on stderr (it printed
    "error: Broken pipe" before) and exits 141, as a command ended by SIGPIPE does."""
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(__file__).resolve().parents[1]))
    argv = [sys.executable, "-m", "propstab", *command]
    with shared.started(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        child.stdout.close()  # before the interpreter has even started: every write fails
        err = child.stderr.read().decode()
        code = child.wait(timeout=60)
    assert (code, err) == (cli.CLOSED_PIPE, "")
