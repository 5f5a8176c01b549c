"""The command line reads the files users have, each written by the tool that writes it.

Every accepted format is read back to the exact 0/1 matrix (and feature names) it was
written from, and ``propstab estimate`` prints the library's value on that matrix. Z is
chosen so that a misreading (an index column taken as a feature, indices shifted by
one, the header taken as a run) either fails or changes the value.
"""
import json

import numpy as np
import pandas as pd

import propstab
from propstab._data.readers import read_feature_names, read_selection, read_similarity
from propstab.cli import main

NAMES = ["mean radius", "mean texture", "worst area", "worst symmetry", "fractal dimension"]
Z = np.array(
    [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 0, 1], [0, 1, 1, 0, 0], [1, 1, 0, 1, 0]],
    dtype=bool,
)
FRAME = pd.DataFrame(Z.astype(int), columns=NAMES)
ZERO_BASED = [np.flatnonzero(r).tolist() for r in Z]  # [[0, 1], [0, 2], ...]
ONE_BASED = [[j + 1 for j in run] for run in ZERO_BASED]
BY_NAME = [[NAMES[j] for j in run] for run in ZERO_BASED]


def estimate_line(Z_, measure="nogueira"):
    return f"estimate         {propstab.estimate(Z_, measure).statistic:.4f}"


def read_ok(capsys, path, *flags, names=NAMES):
    """The reader gives Z (and the names); the CLI prints the library's estimate."""
    assert main(["estimate", str(path), *flags]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert estimate_line(Z) in out.out.splitlines()
    assert f"file             {path}: " in out.out
    return out.out


def reader_args(flags):
    kw = {}
    if "--n-features" in flags:
        kw["n_features"] = int(flags[flags.index("--n-features") + 1])
    if "--one-based" in flags:
        kw["base"] = "one"
    if "--zero-based" in flags:
        kw["base"] = "zero"
    return kw


def check_reader(path, names, **kw):
    read = read_selection(str(path), **kw)
    assert read.selection.toarray().astype(bool).tolist() == Z.tolist()
    assert read.selection.feature_names == (None if names is None else tuple(names))
    return read


def test_pandas_to_csv_with_its_default_index(tmp_path, capsys):
    path = tmp_path / "selected.csv"
    FRAME.to_csv(path)  # header ",mean radius,...", index 0..4
    assert path.read_text().splitlines()[0] == "," + ",".join(NAMES)
    read = check_reader(path, NAMES)
    assert "run labels in column 1" in read.description
    out = read_ok(capsys, path)
    assert "header of feature names" in out


def test_pandas_to_csv_without_index(tmp_path, capsys):
    path = tmp_path / "selected.csv"
    FRAME.to_csv(path, index=False)
    read = check_reader(path, NAMES)
    assert "run labels" not in read.description
    read_ok(capsys, path)


def test_pandas_named_index_of_run_labels(tmp_path, capsys):
    frame = FRAME.copy()
    frame.index = [f"resample {i}" for i in range(len(frame))]
    frame.index.name = "run"
    path = tmp_path / "selected.csv"
    frame.to_csv(path)  # header "run,mean radius,..."
    read = check_reader(path, NAMES)
    assert "run labels in column 1 'run'" in read.description
    read_ok(capsys, path)


def test_pandas_default_integer_labels(tmp_path, capsys):
    path = tmp_path / "z.csv"
    pd.DataFrame(Z.astype(int)).to_csv(path)  # header ",0,1,2,3,4"
    check_reader(path, ["0", "1", "2", "3", "4"])
    read_ok(capsys, path)
    plain = tmp_path / "plain.csv"
    pd.DataFrame(Z.astype(int)).to_csv(plain, index=False)  # header "0,1,2,3,4"
    check_reader(plain, ["0", "1", "2", "3", "4"])


def test_excel_csv_with_byte_order_mark_and_hash_in_names(tmp_path, capsys):
    frame = FRAME.rename(columns={"mean radius": "gene#1"})
    path = tmp_path / "from_excel.csv"
    path.write_text("# exported\n" + frame.to_csv(index=False), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    check_reader(path, ["gene#1", *NAMES[1:]])
    assert main(["estimate", str(path)]) == 0
    assert estimate_line(Z) in capsys.readouterr().out.splitlines()


def test_tsv(tmp_path, capsys):
    path = tmp_path / "selected.tsv"
    FRAME.to_csv(path, sep="\t")
    check_reader(path, NAMES)
    read_ok(capsys, path)


def test_booleans_true_false(tmp_path, capsys):
    path = tmp_path / "selected.csv"
    FRAME.astype(bool).to_csv(path)
    assert "True" in path.read_text() and "False" in path.read_text()
    check_reader(path, NAMES)
    read_ok(capsys, path)


def test_headerless_whitespace_text_from_numpy(tmp_path, capsys):
    path = tmp_path / "z.txt"
    np.savetxt(path, Z.astype(int), fmt="%d")  # "1 1 0 0 0"
    check_reader(path, None)
    read_ok(capsys, path)


def test_npy(tmp_path, capsys):
    path = tmp_path / "z.npy"
    np.save(path, Z)
    check_reader(path, None)
    read_ok(capsys, path)


def test_index_col_none_and_explicit(tmp_path):
    path = tmp_path / "selected.csv"
    frame = FRAME.copy()
    frame.insert(0, "fold", [1, 0, 1, 0, 1])  # a 0/1 label column: not detectable
    frame.to_csv(path, index=False)
    assert read_selection(str(path)).selection.n_features == 6
    check_reader(path, NAMES, index_col="fold")
    check_reader(path, NAMES, index_col="0")
    assert read_selection(str(path), index_col="none").selection.n_features == 6


def test_json_zero_based(tmp_path, capsys):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(ZERO_BASED))  # contains 0: 0-based
    read = check_reader(path, None, n_features=5)
    assert "0-based since the index 0 occurs" in read.description
    read_ok(capsys, path, "--n-features", "5")
    assert (
        read_selection(str(path), n_features=5, base="zero")
        .selection.toarray()
        .astype(bool)
        .tolist()
        == Z.tolist()
    )


def test_json_one_based(tmp_path, capsys):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(ONE_BASED))  # contains 5 = d: 1-based
    read = check_reader(path, None, n_features=5)
    assert "1-based since the index d = 5 occurs" in read.description
    read_ok(capsys, path, "--n-features", "5")
    read_ok(capsys, path, "--n-features", "5", "--one-based")


def test_json_ambiguous_indices_read_with_the_flag(tmp_path, capsys):
    # no 0 and no d = 4: ambiguous (run 4 repeats run 1: three sets each chosen by one
    # of three runs would have Thm 6 variance 0, a DegenerateVarianceWarning)
    runs = [[1, 2], [1, 3], [2, 3], [1, 2]]
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(runs))
    zero = read_selection(str(path), n_features=4, base="zero").selection.toarray()
    one = read_selection(str(path), n_features=4, base="one").selection.toarray()
    assert zero.astype(int).tolist() == [[0, 1, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 0]]
    assert one.astype(int).tolist() == [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0]]
    assert main(["estimate", str(path), "--n-features", "4", "--one-based"]) == 0
    assert f"{propstab.estimate(one).statistic:.4f}" in capsys.readouterr().out


def test_json_names_with_feature_names_file(tmp_path, capsys):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(BY_NAME))
    names = tmp_path / "features.txt"
    names.write_text("\n".join(NAMES) + "\n")
    assert read_feature_names(str(names)) == tuple(NAMES)
    check_reader(path, NAMES, feature_names=NAMES)
    read_ok(capsys, path, "--feature-names", str(names))


def test_json_names_with_a_similarity_header(tmp_path, capsys):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(BY_NAME))
    C = pd.DataFrame(np.eye(5), index=NAMES, columns=NAMES)
    sim = tmp_path / "similarity.csv"
    C.to_csv(sim)
    assert read_similarity(str(sim)).feature_names == tuple(NAMES)
    assert main(["estimate", str(path), "--measure", "sechidis", "--similarity", str(sim)]) == 0
    assert estimate_line(Z, "sechidis") in capsys.readouterr().out.splitlines()


def test_json_object_of_named_runs(tmp_path, capsys):
    # R: jsonlite::write_json(list(run1 = c(1, 2), ...)) writes an object of arrays
    path = tmp_path / "runs.json"
    path.write_text(json.dumps({f"run{i + 1}": run for i, run in enumerate(ONE_BASED)}))
    check_reader(path, None, n_features=5, base="one")
    read_ok(capsys, path, "--n-features", "5", "--one-based")


def test_index_lines_text(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    path.write_text(
        "# one run per line\n" + "\n".join(",".join(map(str, r)) for r in ONE_BASED) + "\n"
    )
    check_reader(path, None, n_features=5, index_lines=True)
    read_ok(capsys, path, "--n-features", "5")
    named = tmp_path / "runs.tsv"
    named.write_text("\n".join("\t".join(r) for r in BY_NAME) + "\n")
    names = tmp_path / "features.json"
    names.write_text(json.dumps(NAMES))
    check_reader(named, NAMES, feature_names=NAMES, index_lines=True)
    read_ok(capsys, named, "--n-features", "5", "--feature-names", str(names))


def test_similarity_formats(tmp_path):
    C = np.array([[1, 0.5, 0], [0.5, 1, 0.95], [0, 0.95, 1]])
    labelled = pd.DataFrame(C, index=["a b", "c", "d"], columns=["a b", "c", "d"])
    labelled.to_csv(tmp_path / "sim.csv")
    pd.DataFrame(C).to_csv(tmp_path / "plain.csv", index=False, header=False)
    np.save(tmp_path / "sim.npy", C)
    from scipy import sparse

    sparse.save_npz(tmp_path / "sim.npz", sparse.csr_matrix(C))
    for name, names in (
        ("sim.csv", ("a b", "c", "d")),
        ("plain.csv", None),
        ("sim.npy", None),
        ("sim.npz", None),
    ):
        read = read_similarity(str(tmp_path / name))
        dense = read.matrix
        dense = dense.toarray() if hasattr(dense, "toarray") else np.asarray(dense, float)
        assert dense.tolist() == C.tolist() and read.feature_names == names, name


def test_mixed_spellings_in_one_column(tmp_path):
    # pandas types such a column as text: read as strings, 1/true and 0/false in any case
    path = tmp_path / "mixed.csv"
    path.write_text("a,b,c\nTRUE,1,0.0\n0,false,1.0\n1,True,0\n")
    read = read_selection(str(path))
    assert read.selection.toarray().astype(int).tolist() == [[1, 1, 0], [0, 0, 1], [1, 1, 0]]
