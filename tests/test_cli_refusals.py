"""The command line refuses what it would ignore: every option of every subcommand, read
from the argparse parsers themselves (a new option without a row here fails
``test_every_option_of_every_subcommand_has_a_row``), is given where it does not apply
or with an invalid value, and each such line exits 2 with one line on stderr that names
the option. A row may instead say why the option always applies and has no invalid
value (a flag such as --json)."""
import argparse

import numpy as np
import pytest

from propstab.cli import build_parser, command_names, main
from propstab.testing import Baseline


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    rng = np.random.default_rng(0)
    out = {}
    for name in ("a", "b"):
        Z = (rng.random((30, 8)) < 0.4).astype(int)
        np.savetxt(folder / f"{name}.csv", Z, delimiter=",", fmt="%d")
        out[name] = str(folder / f"{name}.csv")
    ranks = np.argsort(rng.random((12, 6)), axis=1) + 1
    np.savetxt(folder / "r.csv", ranks, delimiter=",", fmt="%d")
    out["r"] = str(folder / "r.csv")
    np.save(folder / "a.npy", np.loadtxt(out["a"], delimiter=",").astype(int))
    out["npy"] = str(folder / "a.npy")
    (folder / "names.txt").write_text("\n".join(f"g{j}" for j in range(8)))
    out["names"] = str(folder / "names.txt")
    Z = np.loadtxt(out["a"], delimiter=",").astype(bool)
    out["base"] = Baseline.from_result(Z, measure="nogueira").save(folder / "base.npz")
    out["base2"] = Baseline.from_result(Z, measure="nogueira").save(folder / "base2.npz")
    (folder / "f.py").write_text("def f(Z):\n    return float(Z.mean())\n")
    out["func"] = str(folder / "f.py") + ":f"
    return out


#: Options that apply in every mode of their subcommand and take no invalid value.
ALWAYS = {
    ("measures", "json"): "a flag read in every mode",
    ("audit", "json"): "a flag read in every mode",
    ("crosscheck", "json"): "a flag read in every mode",
    ("compare", "paired"): "a flag read by both the two-sample test and the margin test",
}

#: (subcommand, option's destination) -> lines that must exit 2 naming the needle; the
#: files' keys in braces are replaced by their paths.
ROWS = {
    ("agree", "measure"): [(["agree", "--measure", "nosuch", "--", "cat"], "--measure")],
    ("agree", "command_line"): [
        (["agree", "--measure", "jaccard"], "--command"),
        (["agree", "--measure", "jaccard", "--command", "cat", "--", "cat"], "--command"),
    ],
    ("agree", "argv"): [
        (["agree", "--measure", "jaccard", "--command", "cat", "cat"], "--command")
    ],
    ("agree", "input"): [
        (["agree", "--measure", "jaccard", "--input", "nope", "--", "cat"], "--input"),
        (["agree", "--measure", "spearman", "--input", "sets", "--", "cat"], "--input"),
    ],
    ("agree", "base"): [
        (["agree", "--measure", "jaccard", "--one-based", "--", "cat"], "--one-based")
    ],
    ("agree", "option"): [
        (["agree", "--measure", "jaccard", "--option", "x", "--", "cat"], "--option")
    ],
    ("agree", "threshold"): [
        (["agree", "--measure", "jaccard", "--threshold", "0.5", "--", "cat"], "--threshold")
    ],
    ("agree", "expected"): [
        (["agree", "--measure", "jaccard", "--expected", "nosuch", "--", "cat"], "--expected")
    ],
    ("agree", "invalid_inputs"): [
        (
            ["agree", "--measure", "jaccard", "--invalid-inputs", "--input", "frequencies"]
            + ["--", "cat"],
            "--input",
        )
    ],
    ("agree", "max_examples"): [
        (["agree", "--measure", "jaccard", "--max-examples", "0", "--", "cat"], "--max-examples")
    ],
    ("agree", "random_state"): [
        (["agree", "--measure", "jaccard", "--random-state", "-1", "--", "cat"], "--random-state")
    ],
    ("agree", "atol"): [
        (["agree", "--measure", "jaccard", "--atol", "-1", "--", "cat"], "--atol")
    ],
    ("agree", "rtol"): [
        (["agree", "--measure", "jaccard", "--rtol", "-1", "--", "cat"], "--rtol")
    ],
    ("agree", "timeout"): [
        (["agree", "--measure", "jaccard", "--timeout", "0", "--", "cat"], "--timeout")
    ],
    ("audit", "command_line"): [
        (["audit", "--command", "cat"], "--measure"),
        (["audit", "--command", "cat", "{func}"], "--command"),
        (["audit", "--command", "cat", "--measure", "nosuch"], "--measure"),
        (["audit", "--command", "cat", "--measure", "nogueira", "--jobs", "2"], "--command"),
    ],
    ("audit", "timeout"): [
        (["audit", "--measure", "jaccard", "--timeout", "5"], "--timeout"),
        (["audit", "--command", "cat", "--measure", "nogueira", "--timeout", "0"], "--timeout"),
    ],
    ("measures", "family"): [(["measures", "--family", "nosuch"], "--family")],
    ("audit", "target"): [
        (["audit", "{func}", "--measure", "jaccard"], "FILE.py:FUNCTION"),
        (["audit", "nofile.py:f"], "nofile.py"),
    ],
    ("audit", "measure"): [(["audit", "--measure", "nosuch"], "--measure")],
    ("audit", "max_examples"): [
        (["audit", "--measure", "jaccard", "--max-examples", "0"], "--max-examples"),
        (["audit", "--measure", "jaccard", "--max-examples", "10000000"], "--max-examples"),
    ],
    ("audit", "random_state"): [
        (["audit", "--measure", "jaccard", "--random-state", "-1"], "--random-state"),
        (["audit", "--measure", "jaccard", "--random-state", "x"], "--random-state"),
    ],
    ("audit", "jobs"): [
        (["audit", "--measure", "jaccard", "--jobs", "0"], "--jobs"),
        (
            ["audit", "--measure", "jaccard", "--jobs", "2", "--scheduler", "tcp://nowhere:1"],
            "--jobs",
        ),
    ],
    ("audit", "scheduler"): [
        (
            ["audit", "--measure", "jaccard", "--jobs", "2", "--scheduler", "tcp://nowhere:1"],
            "--scheduler",
        )
    ],
    ("estimate", "file"): [(["estimate", "nofile.csv"], "nofile.csv")],
    ("estimate", "confidence_level"): [
        (["estimate", "{a}", "--confidence-level", "1.5"], "--confidence-level")
    ],
    ("estimate", "measure"): [(["estimate", "{a}", "--measure", "nosuch"], "--measure")],
    ("estimate", "similarity"): [
        (["estimate", "{a}", "--similarity", "identity"], "--similarity")
    ],
    ("estimate", "threshold"): [
        (["estimate", "{a}", "--threshold", "0.5"], "--threshold"),
        (
            [
                "estimate",
                "{a}",
                "--measure",
                "sechidis",
                "--similarity",
                "identity",
                "--threshold",
                "2",
            ],
            "--threshold",
        ),
    ],
    ("estimate", "option"): [(["estimate", "{a}", "--option", "nosuch=1"], "--option")],
    ("estimate", "n_features"): [
        (["estimate", "{r}", "--measure", "spearman", "--n-features", "6"], "--n-features")
    ],
    ("estimate", "base"): [
        (["estimate", "{r}", "--measure", "spearman", "--one-based"], "--one-based"),
        (["estimate", "{npy}", "--zero-based"], "--zero-based"),
    ],
    ("estimate", "feature_names"): [
        (["estimate", "{a}", "--feature-names", "nofile.txt"], "nofile.txt")
    ],
    ("estimate", "scores"): [(["estimate", "{a}", "--scores"], "--scores")],
    ("estimate", "index_col"): [
        (["estimate", "{npy}", "--index-col", "none"], "--index-col"),
        (["estimate", "{a}", "--n-features", "8", "--index-col", "auto"], "--index-col"),
    ],
    ("compare", "file1"): [(["compare", "nofile.csv", "{b}"], "nofile.csv")],
    ("compare", "file2"): [(["compare", "{a}", "nofile.csv"], "nofile.csv")],
    ("compare", "alternative"): [
        (
            ["compare", "{a}", "{b}", "--noninferiority", "0.1", "--alternative", "less"],
            "--alternative",
        ),
        (["compare", "{a}", "{b}", "--alternative", "bigger"], "--alternative"),
    ],
    ("compare", "test"): [
        (["compare", "{a}", "{b}", "--noninferiority", "0.1", "--test", "permutation"], "--test"),
        (["compare", "{a}", "{b}", "--drop", "0.1", "--test", "auto"], "--test"),
    ],
    ("compare", "n_resamples"): [
        (
            ["compare", "{a}", "{b}", "--noninferiority", "0.1", "--n-resamples", "5"],
            "--n-resamples",
        ),
        (
            ["compare", "{a}", "{b}", "--test", "wald", "--n-resamples", "999"],
            "--n-resamples",
        ),
        (
            ["compare", "{a}", "{b}", "--test", "permutation", "--n-resamples", "5"],
            "--n-resamples",
        ),
    ],
    ("compare", "random_state"): [
        (
            ["compare", "{a}", "{b}", "--noninferiority", "0.1", "--random-state", "-3"],
            "--random-state",
        ),
        (
            ["compare", "{a}", "{b}", "--noninferiority", "0.1", "--random-state", "0"],
            "--random-state",
        ),
        (["compare", "{a}", "{b}", "--test", "wald", "--random-state", "1"], "--random-state"),
        (["compare", "{a}", "{b}", "--random-state", "-3"], "--random-state"),
    ],
    ("compare", "noninferiority"): [
        (["compare", "{a}", "{b}", "--noninferiority", "nan"], "--noninferiority"),
        (
            ["compare", "{a}", "{b}", "--noninferiority", "0.1", "--drop", "0.1"],
            "--noninferiority",
        ),
    ],
    ("compare", "drop"): [(["compare", "{a}", "{b}", "--drop", "-1"], "--drop")],
    ("compare", "confidence_level"): [
        (["compare", "{a}", "{b}", "--confidence-level", "0.3"], "--confidence-level"),
        (["compare", "{a}", "{b}", "--confidence-level", "0.95"], "--confidence-level"),
        (
            ["compare", "{a}", "{b}", "--noninferiority", "0.1", "--confidence-level", "0.3"],
            "--confidence-level",
        ),
    ],
    ("compare", "measure"): [(["compare", "{a}", "{b}", "--measure", "nosuch"], "--measure")],
    ("compare", "similarity"): [
        (["compare", "{a}", "{b}", "--similarity", "identity"], "--similarity"),
        (
            ["compare", "{base}", "{base2}", "--noninferiority", "0.1", "--similarity", "{a}"],
            "--similarity",
        ),
    ],
    ("compare", "threshold"): [(["compare", "{a}", "{b}", "--threshold", "0.5"], "--threshold")],
    ("compare", "option"): [(["compare", "{a}", "{b}", "--option", "x"], "--option")],
    ("compare", "n_features"): [
        (
            ["compare", "{base}", "{base2}", "--noninferiority", "0.1", "--n-features", "8"],
            "--n-features",
        )
    ],
    ("compare", "base"): [
        (["compare", "{base}", "{base2}", "--drop", "0.1", "--one-based"], "--one-based")
    ],
    ("compare", "feature_names"): [
        (
            ["compare", "{base}", "{base2}", "--drop", "0.1", "--feature-names", "{names}"],
            "--feature-names",
        )
    ],
    ("compare", "scores"): [(["compare", "{a}", "{b}", "--scores"], "--scores")],
    ("compare", "index_col"): [
        (["compare", "{base}", "{base2}", "--drop", "0.1", "--index-col", "none"], "--index-col")
    ],
    ("crosscheck", "input"): [(["crosscheck", "--input", "nofile.csv"], "nofile.csv")],
    ("crosscheck", "max_examples"): [
        (["crosscheck", "--input", "{a}", "--max-examples", "3"], "--max-examples"),
        (["crosscheck", "--max-examples", "0"], "--max-examples"),
    ],
    ("crosscheck", "random_state"): [(["crosscheck", "--random-state", "-1"], "--random-state")],
    ("crosscheck", "measure"): [(["crosscheck", "--measure", "nosuch"], "--measure")],
    ("crosscheck", "similarity"): [(["crosscheck", "--similarity", "identity"], "--similarity")],
    ("crosscheck", "threshold"): [(["crosscheck", "--threshold", "0.5"], "--threshold")],
    ("crosscheck", "option"): [(["crosscheck", "--option", "a=1"], "--option")],
    ("crosscheck", "n_features"): [(["crosscheck", "--n-features", "3"], "--n-features")],
    ("crosscheck", "base"): [(["crosscheck", "--one-based"], "--one-based")],
    ("crosscheck", "feature_names"): [
        (["crosscheck", "--feature-names", "{names}"], "--feature-names")
    ],
    ("crosscheck", "scores"): [
        (["crosscheck", "--scores"], "--scores"),
        (["crosscheck", "--input", "{a}", "--scores"], "--scores"),
    ],
    ("crosscheck", "index_col"): [(["crosscheck", "--index-col", "none"], "--index-col")],
    ("check", "file"): [(["check", "nofile.csv", "--at-least", "0.1"], "nofile.csv")],
    ("check", "at_least"): [
        (["check", "{a}", "--at-least", "2"], "--at-least"),
        (["check", "{a}"], "--at-least"),
    ],
    ("check", "confidence_level"): [
        (["check", "{a}", "--at-least", "0.1", "--confidence-level", "0.3"], "--confidence-level")
    ],
    ("check", "measure"): [
        (["check", "{a}", "--at-least", "0.1", "--measure", "nosuch"], "--measure")
    ],
    ("check", "similarity"): [
        (["check", "{a}", "--at-least", "0.1", "--similarity", "identity"], "--similarity"),
        (["check", "{base}", "--at-least", "0.1", "--similarity", "{a}"], "--similarity"),
    ],
    ("check", "threshold"): [
        (["check", "{a}", "--at-least", "0.1", "--threshold", "0.5"], "--threshold")
    ],
    ("check", "option"): [(["check", "{a}", "--at-least", "0.1", "--option", "k=v"], "--option")],
    ("check", "n_features"): [
        (["check", "{base}", "--at-least", "0.1", "--n-features", "8"], "--n-features")
    ],
    ("check", "base"): [
        (["check", "{base}", "--at-least", "0.1", "--zero-based"], "--zero-based")
    ],
    ("check", "feature_names"): [
        (["check", "{base}", "--at-least", "0.1", "--feature-names", "{names}"], "--feature-names")
    ],
    ("check", "scores"): [(["check", "{a}", "--at-least", "0.1", "--scores"], "--scores")],
    ("check", "index_col"): [
        (["check", "{npy}", "--at-least", "0.1", "--index-col", "0"], "--index-col")
    ],
}


def parser_options():
    """Every (subcommand, destination) of the parsers (help left out)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = set()
    for command in command_names():
        for action in sub.choices[command]._actions:
            if action.dest not in ("help", argparse.SUPPRESS):
                out.add((command, action.dest))
    return out


def test_every_option_of_every_subcommand_has_a_row():
    options = parser_options()
    assert options - set(ROWS) - set(ALWAYS) == set(), "options without a row"
    assert set(ROWS) - options == set() and set(ALWAYS) - options == set()
    assert not set(ROWS) & set(ALWAYS)


CASES = [(key, i) for key, cases in ROWS.items() for i in range(len(cases))]


@pytest.mark.parametrize(
    "key, i", CASES, ids=lambda v: "-".join(v) if isinstance(v, tuple) else str(v)
)
def test_an_option_that_does_not_apply_or_is_invalid_exits_2_naming_it(key, i, files, capsys):
    argv, needle = ROWS[key][i]
    argv = [a.format(**files) for a in argv]
    code = main(argv)
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2, (argv, code, err, out[:200])
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith(f"propstab {argv[0]}: error: "), lines[0]
    assert "Traceback" not in err
    assert needle.format(**files) in lines[0], (needle, lines[0])


@pytest.mark.parametrize(
    "argv",
    [
        [
            "compare",
            "{a}",
            "{b}",
            "--noninferiority",
            "0.1",
            "--paired",
            "--confidence-level",
            "0.9",
        ],
        [
            "compare",
            "{a}",
            "{b}",
            "--test",
            "permutation",
            "--n-resamples",
            "199",
            "--random-state",
            "3",
            "--alternative",
            "greater",
            "--paired",
        ],
        ["compare", "{base}", "{base2}", "--drop", "0.2"],
        ["estimate", "{r}", "--measure", "spearman", "--index-col", "none"],
        ["estimate", "{a}", "--n-features", "8", "--zero-based"]
        and ["estimate", "{npy}", "--feature-names", "{names}"],
        ["check", "{base}", "--at-least", "0.0", "--confidence-level", "0.9"],
    ],
    ids=["margin", "permutation", "baselines", "ranking", "npy", "baseline"],
)
def test_options_where_they_apply_are_accepted(argv, files, capsys):
    code = main([a.format(**files) for a in argv])
    _, err = capsys.readouterr()
    assert code in (0, 1), err
    assert "error" not in err
