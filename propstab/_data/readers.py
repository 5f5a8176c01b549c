"""Reading the files users have: selection matrices, similarity matrices, feature names.

One place turns a file into what the library validates: :func:`read_selection`
returns a validated :class:`~propstab.Selection` (through
:func:`propstab.as_selection`), :func:`read_similarity` a matrix checked by
:func:`propstab._data.convert_matrices.as_similarity`, :func:`read_feature_names` a tuple of
names. Tables are parsed by ``pandas.read_csv`` (quoting, names with spaces), runs of
indices by the ``csv`` module and lists by ``json``; this module only decides what
the parsed cells mean. Every error is a ValueError (or TypeError) whose message
starts with the file's path and states the rule and the offending value.

Selection files
---------------
- ``.csv``, ``.tsv``, ``.txt``: a 0/1 table, one row per run and one column per
  feature, entries 0/1 or True/False (any case; pandas and R write booleans so).
  An optional header row names the features. An index column, as
  ``DataFrame.to_csv`` and R's ``write.csv`` write by default, is detected: the
  header's first cell is empty, or the first column holds distinct labels that
  are not 0/1 while every other column is 0/1 (``index_col`` decides otherwise).
  Lines starting with ``#`` are comments (a ``#`` inside a name is kept). ``.txt`` is comma
  separated when its
  first line has a comma, else tab or whitespace separated.
- the same text files with ``index_lines=True``: one run per line listing the
  selected features, by index or by name (an empty line is an empty run).
- ``.json``: a list of runs (or an object whose values are the runs, as R's
  ``jsonlite::write_json`` writes a named list), each a list of feature indices or
  names.
- ``.npy``: a 2-D array of 0/1 or booleans.

Indices are 0-based (Python) or 1-based (R, stabm): ``base="zero"`` or ``"one"``.
Without it the file decides only when it can: an index 0 means 0-based, an index d
means 1-based; otherwise both readings are valid and the reader refuses. Names need
the list of the d features (``feature_names``) to fix d and the order.
"""
from __future__ import annotations

import csv
import dataclasses
import json
import os
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from .._utils.checks import fail
from .convert_selection import Selection, as_selection
from .convert_rankings import as_rankings
from .convert_matrices import as_similarity

__all__ = [
    "RankingFile",
    "SelectionFile",
    "SimilarityFile",
    "read_feature_names",
    "read_rankings",
    "read_selection",
    "read_similarity",
    "RANKING_SUFFIXES",
    "SELECTION_SUFFIXES",
    "SIMILARITY_SUFFIXES",
]

TABLE_SUFFIXES = (".csv", ".tsv", ".txt")
SELECTION_SUFFIXES = TABLE_SUFFIXES + (".json", ".npy")
SIMILARITY_SUFFIXES = TABLE_SUFFIXES + (".npy", ".npz")
RANKING_SUFFIXES = TABLE_SUFFIXES + (".npy",)
BASES = ("zero", "one")
_TRUE = ("1", "1.0", "true")
_FALSE = ("0", "0.0", "false")


@dataclasses.dataclass(frozen=True)
class SelectionFile:
    """A selection file as read: the validated selection and how the file was read."""

    path: str
    selection: Selection
    description: str


@dataclasses.dataclass(frozen=True)
class SimilarityFile:
    """A similarity file as read: the matrix (ndarray, sparse or labelled DataFrame),
    its size d, the feature names of its header (or None) and how it was read."""

    path: str
    matrix: Any
    n_features: int
    feature_names: Optional[Tuple[str, ...]]
    description: str


def _load_npy(path: str) -> np.ndarray:
    """A ``.npy`` array, read with ``allow_pickle=False`` from a file opened and closed
    here; a file that is not one (missing, truncated, a ``.npz`` archive under a ``.npy``
    name, pickled objects) is refused naming the file."""
    try:
        with open(path, "rb") as handle:
            arr = np.load(handle, allow_pickle=False)
            if isinstance(arr, np.ndarray):
                return arr
            arr.close()  # an archive (.npz) of several arrays
    except Exception as exc:  # noqa: BLE001 - any unreadable file, named
        _fail(path, f"could not be read as a .npy array: {type(exc).__name__}: {exc}")
    _fail(path, "could not be read: it is a .npz archive of arrays, not one .npy array")


def _fail(path: str, message: str, exc=ValueError):
    fail(f"{path}: {message}", exc, argument=path)


def _suffix(path: str, allowed: Sequence[str]) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in allowed:
        _fail(path, f"the file name must end in {', '.join(allowed)}; got {ext or 'no suffix'!r}")
    if not os.path.isfile(path):
        _fail(path, "no such file")
    return ext


def _text(path: str) -> str:
    """The file's text (UTF-8, a byte-order mark as Excel writes it dropped)."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            return fh.read()
    except UnicodeDecodeError as exc:
        _fail(path, f"not UTF-8 text: {exc}")


def _validated(path: str, fn, *args, **kwargs):
    """Call a library validator; its ValueError/TypeError gets the path in front."""
    try:
        return fn(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        fail(f"{path}: {exc}", exc, argument=path)


# ---------------------------------------------------------------------- tables


def _separator(path: str, ext: str):
    if ext == ".csv":
        return ","
    if ext == ".tsv":
        return "\t"
    for line in _text(path).splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return "," if "," in line else ("\t" if "\t" in line else r"\s+")
    return ","


def _read_table(path: str, ext: str):
    """``(first row, header or None, body)``: the first row as stripped strings, and the
    rows below the header (all rows without one) as a DataFrame with pandas's own
    column types (bool, int, float, or object for anything else); empty cells are NaN."""
    import io
    import pandas as pd

    sep = _separator(path, ext)
    text = "\n".join(
        ln for ln in _text(path).splitlines() if ln.strip() and not ln.lstrip().startswith("#")
    )
    if not text:
        _fail(path, "the file holds no table (it is empty or only comments)")
    line = text.split("\n", 1)[0]
    if sep == r"\s+":
        first = [c for c in next(csv.reader([line], delimiter=" ", skipinitialspace=True)) if c]
    else:
        first = next(csv.reader([line], delimiter=sep, skipinitialspace=True))
    first = [c.strip() for c in first]
    header = first if _has_header(first) else None
    kw = dict(
        sep=sep, header=None, skipinitialspace=True, engine="python" if sep == r"\s+" else "c"
    )
    if sep != r"\s+":
        kw["low_memory"] = False  # one pass over wide tables (20000 columns)
    try:
        try:
            body = pd.read_csv(
                io.StringIO(text),
                skiprows=1 if header else 0,
                keep_default_na=False,
                na_values=[""],
                **kw,
            )
        except pd.errors.EmptyDataError:
            _fail(path, "the table has a header but no runs (rows)")
    except (pd.errors.ParserError, ValueError) as exc:
        message = " ".join(str(exc).split())
        if message.startswith(path):
            raise
        if "Expected" in message and "fields" in message:
            _fail(
                path,
                f"the rows have different lengths ({message.split('error: ')[-1]}); "
                f"a 0/1 table has one column per feature. For one run of feature "
                f"indices per line pass --n-features D",
            )
        _fail(path, f"could not be read as a table: {message}")
    if header is not None and len(header) != body.shape[1]:
        _fail(path, f"the header has {len(header)} fields but the rows have {body.shape[1]}")
    return first, header, body


def _is_value(cell: str) -> bool:
    """A number, a boolean or an empty cell (never a name)."""
    if cell == "" or cell.lower() in ("true", "false"):
        return True
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _has_header(first: Sequence[str]) -> bool:
    """The first row names the columns: it starts with the empty cell written above an
    index column, holds a cell that is no value, or is pandas's default column
    labels 0..n-1 (n >= 3, so it cannot be a 0/1 row)."""
    if first[0] == "" and len(first) > 1:
        return True
    if any(not _is_value(c) for c in first):
        return True
    return len(first) >= 3 and list(first) == [str(j) for j in range(len(first))]


def _zero_one(frame) -> Tuple[np.ndarray, np.ndarray]:
    """(value, bad): the 0/1 reading of a parsed table, and where a cell is not 0/1.

    Numeric and boolean columns are compared as arrays; only the other columns (text,
    e.g. "TRUE" beside "1") are read as strings: 1/true and 0/false, any case.
    """
    import pandas as pd

    values = np.zeros(frame.shape, dtype=bool)
    bad = np.zeros(frame.shape, dtype=bool)
    kinds = np.array([dt.kind for dt in frame.dtypes])
    numeric = np.flatnonzero(np.isin(kinds, list("biuf")))
    if numeric.size:
        arr = frame.iloc[:, numeric].to_numpy(dtype=np.float64)
        values[:, numeric] = arr == 1
        bad[:, numeric] = ~((arr == 0) | (arr == 1))
    other = np.flatnonzero(~np.isin(kinds, list("biuf")))
    if other.size:
        cells = np.char.lower(
            np.char.strip(frame.iloc[:, other].fillna("").astype(str).to_numpy(dtype=str))
        )
        ones = np.isin(cells, _TRUE)
        wrong = ~(ones | np.isin(cells, _FALSE))
        if wrong.any():
            as_numbers = pd.to_numeric(pd.Series(cells[wrong]), errors="coerce").to_numpy()
            ones[wrong] = as_numbers == 1
            wrong[wrong] = ~((as_numbers == 0) | (as_numbers == 1))
        values[:, other] = ones
        bad[:, other] = wrong
    return values, bad


def _index_column(path, index_col, header, first, body, bad) -> Optional[int]:
    """The position of the index column, or None (``bad``: where body is not 0/1)."""
    if index_col in (None, "none"):
        return None
    if index_col != "auto":
        if header is not None and index_col in header:
            return header.index(index_col)
        if str(index_col).isdigit() and int(index_col) < body.shape[1]:
            return int(index_col)
        columns = (
            ", ".join(map(repr, header))
            if header is not None
            else f"positions 0..{body.shape[1] - 1} (no header)"
        )
        _fail(path, f"--index-col: no column {index_col!r}; columns: {columns}")
    if header is not None and first[0] == "":
        return 0
    if body.shape[1] < 2:
        return None
    labels = body.iloc[:, 0]
    if bad[:, 0].any() and not bad[:, 1:].any() and not labels.isna().any() and labels.is_unique:
        return 0
    return None


def _table(path: str, ext: str, feature_names, index_col) -> SelectionFile:
    first, header, body = _read_table(path, ext)
    Z, bad = _zero_one(body)
    idx = _index_column(path, index_col, header, first, body, bad)
    keep = [j for j in range(body.shape[1]) if j != idx]
    if idx is not None:
        body, Z, bad = body.iloc[:, keep], Z[:, keep], bad[:, keep]
    names = None if header is None else [header[j] for j in keep]
    if names is not None:
        empty = [j for j, n in enumerate(names) if n == ""]
        if empty:
            _fail(
                path,
                f"the header names no feature in column {keep[empty[0]] + 1}; every "
                f"column but an index needs a name",
            )
    if feature_names is not None:
        given = [str(n) for n in feature_names]
        if names is None:
            names = given
        elif names != given:
            j = next(
                (j for j, (a, b) in enumerate(zip(names, given)) if a != b),
                min(len(names), len(given)),
            )
            _fail(
                path,
                f"the header's {len(names)} feature names differ from the "
                f"{len(given)} given feature names (first difference at feature {j}: "
                f"{names[j] if j < len(names) else None!r} vs "
                f"{given[j] if j < len(given) else None!r})",
            )
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        _not_zero_one(path, body.iat[i, j], (i, j), bad, names)
    sel = _validated(path, as_selection, Z, feature_names=names)
    parts = [
        f"0/1 table, {sel.n_runs} runs x {sel.n_features} features",
        "header of feature names" if header is not None else "no header",
    ]
    if idx is not None:
        parts.append(
            f"run labels in column {idx + 1}"
            + (f" {header[idx]!r}" if header and header[idx] else "")
        )
    return SelectionFile(path, sel, ", ".join(parts))


def _not_zero_one(path, value, at, bad: np.ndarray, names, *, array: bool = False) -> None:
    """Refuse a table with entries other than 0/1: raw data, or one stray ``value`` at
    ``at`` = (run, column). ``array``: the values come from a .npy array, which has no
    empty cells (a NaN there is a NaN)."""
    M, d = bad.shape
    i, j = at
    column = f"column {names[j]!r}" if names is not None else f"column {j + 1}"
    nan = isinstance(value, float) and np.isnan(value)
    if array:
        got = "NaN" if nan else repr(value)
    else:
        empty = value is None or nan or str(value).strip() == ""
        text = str(value).strip()
        got = "an empty cell" if empty else (text if _is_value(text) else repr(text))
    columns = int(bad.any(axis=0).sum())
    if columns > d / 2:
        _fail(
            path,
            f"this looks like raw data, not a selection matrix: {columns} of {d} "
            f"columns hold values other than 0/1 (e.g. {got} in run {i + 1}, "
            f"{column}); a selection file has one row per run and one column per "
            f"feature, 1 (or True) where the run selected the feature",
        )
    _fail(path, f"entries must be 0/1 or True/False; got {got} in run {i + 1} of {M}, {column}")


# ---------------------------------------------------------------------- index lists


def _index_lines(path: str, ext: str) -> List[List[str]]:
    """One list of tokens per non-comment line (trailing empty lines dropped)."""
    sep = _separator(path, ext)
    lines = [ln for ln in _text(path).splitlines() if not ln.lstrip().startswith("#")]
    while lines and not lines[-1].strip():
        lines.pop()
    if sep == r"\s+":
        reader = csv.reader(lines, delimiter=" ", skipinitialspace=True)
    else:
        reader = csv.reader(lines, delimiter=sep, skipinitialspace=True)
    return [[t.strip() for t in row if t.strip()] for row in reader]


def _json_runs(path: str) -> list:
    try:
        data = json.loads(_text(path))
    except json.JSONDecodeError as exc:
        _fail(path, f"not valid JSON: {exc}")
    if isinstance(data, dict):
        data = list(data.values())
    if not isinstance(data, list):
        _fail(
            path,
            f"must hold a JSON list of runs (each a list of feature indices or "
            f"names); got a JSON {type(data).__name__}",
            TypeError,
        )
    runs = []
    for i, run in enumerate(data):
        if isinstance(run, (int, float, str)) and not isinstance(run, bool):
            run = [run]  # jsonlite's auto_unbox writes a one-feature run unboxed
        if not isinstance(run, list):
            _fail(
                path,
                f"run {i + 1} must be a list of feature indices or names; got "
                f"{json.dumps(run)[:60]}",
                TypeError,
            )
        for item in run:
            if isinstance(item, bool) or not isinstance(item, (int, float, str)):
                _fail(
                    path,
                    f"run {i + 1} contains {json.dumps(item)[:60]}; feature "
                    f"indices must be integers and names strings",
                    TypeError,
                )
            if isinstance(item, float) and not item.is_integer():
                _fail(
                    path,
                    f"run {i + 1} contains {item!r}; feature indices must be whole " f"numbers",
                )
        runs.append([int(x) if isinstance(x, float) else x for x in run])
    if (
        runs
        and all(len(r) == len(runs[0]) > 2 for r in runs)
        and {x for r in runs for x in r} <= {0, 1}
        and any(len(set(r)) < len(r) for r in runs)
    ):
        _fail(
            path,
            "this looks like a 0/1 matrix, but JSON files are read as lists of "
            "selected feature indices (or names) per run; save the matrix as .csv "
            "or .npy",
        )
    return runs


def _as_int(token: str):
    try:
        return int(token)
    except ValueError:
        return None


def _runs(path, runs, kind: str, n_features, feature_names, base) -> SelectionFile:
    """Runs of indices or names -> a validated selection; ``kind`` describes the file."""
    if base is not None and base not in BASES:
        fail(f"base: must be one of {BASES!r}; got {base!r}")
    if kind == "index lines":
        ints = [[_as_int(t) for t in run] for run in runs]
        if all(x is not None for run in ints for x in run):
            runs = ints
    flat = [x for run in runs for x in run]
    names_given = any(isinstance(x, str) for x in flat)
    if names_given and not all(isinstance(x, str) for x in flat):
        _fail(path, "mixes feature indices and names; list either indices or names")
    if len(runs) < 2:
        _fail(path, f"a selection needs at least 2 runs; got {len(runs)}")
    if names_given:
        if base is not None:
            _fail(
                path,
                f"lists feature names, not indices; --{base}-based applies to " f"indices only",
            )
        if feature_names is None:
            why = (
                " (read as one run per line because --n-features, --zero-based or "
                "--one-based was given)"
                if kind == "index lines"
                else ""
            )
            _fail(
                path,
                f"lists feature names{why}; pass the list of all d features in "
                f"order (--feature-names FILE, one name per line, or a --similarity "
                f"file with a header)",
            )
        if n_features is not None and n_features != len(feature_names):
            _fail(
                path,
                f"--n-features {n_features} differs from the {len(feature_names)} "
                f"feature names",
            )
        known = set(feature_names)
        for i, run in enumerate(runs):
            unknown = [x for x in run if x not in known]
            if unknown:
                _fail(
                    path,
                    f"run {i + 1} names the feature {unknown[0]!r}, which is not "
                    f"among the {len(known)} feature names",
                )
            _no_repeats(path, i, run)
        sel = _validated(path, as_selection, runs, feature_names=list(feature_names))
        return SelectionFile(
            path,
            sel,
            f"{kind} of feature names, {sel.n_runs} runs x " f"{sel.n_features} features",
        )
    d = (
        n_features
        if n_features is not None
        else (len(feature_names) if feature_names is not None else None)
    )
    if d is None:
        _fail(
            path,
            "lists feature indices, so the number of features d is needed: pass "
            "--n-features D (or --feature-names FILE)",
        )
    offset, why = _base(path, flat, d, base)
    low, high = offset, d - 1 + offset
    for i, run in enumerate(runs):
        outside = [x for x in run if not low <= x <= high]
        if outside:
            _fail(
                path,
                f"run {i + 1} contains the feature index {outside[0]}, outside "
                f"{low}..{high} ({'1' if offset else '0'}-based indices, d = {d})",
            )
        _no_repeats(path, i, run)
    zero_based = [[x - offset for x in run] for run in runs]
    names = None if feature_names is None else list(feature_names)
    sel = _validated(path, as_selection, zero_based, n_features=d, feature_names=names)
    return SelectionFile(path, sel, f"{kind}, {why}, {sel.n_runs} runs x {d} features")


def _no_repeats(path, i, run) -> None:
    seen = set()
    for x in run:
        if x in seen:
            _fail(
                path,
                f"run {i + 1} lists feature {x!r} more than once; a run is a set of " f"features",
            )
        seen.add(x)


def _base(path, flat, d, base) -> Tuple[int, str]:
    """The index offset (0 or 1) and how it was decided."""
    if base == "zero":
        return 0, "0-based as --zero-based says"
    if base == "one":
        return 1, "1-based as --one-based says"
    if not flat:
        return 0, "no feature selected"
    low, high = min(flat), max(flat)
    if low == 0 and high == d:
        _fail(
            path,
            f"contains both 0 and {d} = d: out of range 0-based (0..{d - 1}) and "
            f"1-based (1..{d}); check --n-features",
        )
    if low == 0:
        return 0, "0-based since the index 0 occurs"
    if high == d:
        return 1, f"1-based since the index d = {d} occurs"
    _fail(
        path,
        f"the feature indices lie in {low}..{high}, valid both 0-based (0..{d - 1}) "
        f"and 1-based (1..{d}); pass --zero-based (Python, numpy) or --one-based "
        f"(R, stabm)",
    )


# ---------------------------------------------------------------------- public readers


def read_selection(
    path: str,
    *,
    n_features: Optional[int] = None,
    feature_names=None,
    base: Optional[str] = None,
    index_col: str = "auto",
    index_lines: bool = False,
) -> SelectionFile:
    """Read a selection file (see the module docstring for the formats).

    Parameters
    ----------
    path : str
    n_features : int, optional
        d, needed for runs given as indices (unless ``feature_names`` fixes it).
    feature_names : sequence of str, optional
        The d features in order: needed for runs given as names; a table's header
        must equal it.
    base : {"zero", "one"}, optional
        Whether indices are 0-based or 1-based (None: decided by the file, or refused).
    index_col : str, default "auto"
        For tables: ``"auto"`` (detect), ``"none"``, or a column name or 0-based
        position holding run labels.
    index_lines : bool, default False
        Read a ``.csv``/``.tsv``/``.txt`` file as one run of indices or names per line.

    Returns
    -------
    SelectionFile
        ``.selection`` (validated), ``.description`` (how the file was read).

    Raises
    ------
    ValueError, TypeError
        The message starts with the path and names the rule and the value.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from propstab._data.readers import read_selection
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "runs.json"
    ...     _ = path.write_text("[[1, 2], [2, 3], [1, 3]]")
    ...     read = read_selection(str(path), n_features=3)
    >>> read.selection.toarray().astype(int).tolist()
    [[1, 1, 0], [0, 1, 1], [1, 0, 1]]
    >>> read.description
    'JSON index lists, 1-based since the index d = 3 occurs, 3 runs x 3 features'
    """
    path = str(path)
    ext = _suffix(path, SELECTION_SUFFIXES)
    if ext == ".npy":
        if base is not None:
            _fail(path, f"--{base}-based applies to index lists, not to a .npy 0/1 array")
        arr = _load_npy(path)
        if arr.ndim == 2 and arr.dtype.kind in "iuf":
            bad = ~np.isin(arr, (0, 1))
            if bad.any():
                i, j = (int(x) for x in np.argwhere(bad)[0])
                _not_zero_one(path, arr[i, j].item(), (i, j), bad, None, array=True)
        names = None if feature_names is None else list(feature_names)
        sel = _validated(path, as_selection, arr, n_features=n_features, feature_names=names)
        return SelectionFile(
            path, sel, f".npy array, {sel.n_runs} runs x {sel.n_features} " f"features"
        )
    if ext == ".json":
        return _runs(path, _json_runs(path), "JSON index lists", n_features, feature_names, base)
    if index_lines:
        return _runs(path, _index_lines(path, ext), "index lines", n_features, feature_names, base)
    if base is not None:
        _fail(
            path,
            f"--{base}-based applies to index lists; this file is read as a 0/1 "
            f"table (pass --n-features to read one run of indices per line)",
        )
    return _table(path, ext, feature_names, index_col)


@dataclasses.dataclass(frozen=True)
class RankingFile:
    """A rank file as read: the validated rankings and how the file was read
    (``selection`` is the same object: what a measure of the ranking family reads)."""

    path: str
    rankings: Any
    description: str

    @property
    def selection(self):
        return self.rankings


def read_rankings(
    path: str, *, kind: str = "ranks", feature_names=None, index_col: str = "auto"
) -> RankingFile:
    """Read a rank matrix (runs as rows, features as columns) for the ranking family.

    ``.npy`` (a 2-D numeric array) or a table (``.csv``, ``.tsv``, ``.txt``) with an
    optional header of feature names and an optional column of run labels (detected
    when the header's first cell is empty or the first column is not numeric); an empty
    cell is a feature the run does not rank. Validated by
    :func:`propstab.as_rankings` (ranks in 1..d; or scores with ``kind="scores"``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from propstab._data.readers import read_rankings
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "ranks.csv"
    ...     _ = path.write_text(",a,b,c\\nrun1,1,2,3\\nrun2,2,1,3\\n")
    ...     read = read_rankings(str(path))
    >>> read.rankings.feature_names, read.description
    (('a', 'b', 'c'), 'table of ranks with a header and run labels, 2 runs x 3 features')
    """
    path = str(path)
    ext = _suffix(path, RANKING_SUFFIXES)
    what = "scores" if kind == "scores" else "ranks"
    if ext == ".npy":
        arr = _load_npy(path)
        rk = _validated(path, as_rankings, arr, kind=kind, feature_names=feature_names)
        return RankingFile(
            path, rk, f".npy array of {what}, {rk.n_runs} runs x " f"{rk.n_features} features"
        )
    first, header, body = _read_table(path, ext)
    numeric = np.array([dt.kind in "biuf" for dt in body.dtypes])
    if index_col != "auto":
        idx = _index_column(path, index_col, header, first, body, np.zeros(body.shape, dtype=bool))
    elif (header is not None and first[0] == "") or (body.shape[1] > 2 and not numeric[0]):
        idx = 0
    else:
        idx = None
    keep = [j for j in range(body.shape[1]) if j != idx]
    names = None if header is None else [header[j] for j in keep]
    if feature_names is not None:
        if names is not None and list(map(str, feature_names)) != names:
            _fail(path, "the header's feature names differ from --feature-names")
        names = list(feature_names)
    rk = _validated(
        path, as_rankings, body.iloc[:, keep].to_numpy(), kind=kind, feature_names=names
    )
    parts = [f"table of {what}"] + [
        p for p, on in (("a header", header is not None), ("run labels", idx is not None)) if on
    ]
    how = parts[0] + (" with " + " and ".join(parts[1:]) if len(parts) > 1 else "")
    return RankingFile(path, rk, f"{how}, {rk.n_runs} runs x {rk.n_features} features")


def read_similarity(path: str, *, index_col: str = "auto") -> SimilarityFile:
    """Read a d x d feature-similarity matrix and validate it (symmetric, entries in
    [0, 1], unit diagonal) with :func:`propstab._data.convert_matrices.as_similarity`.

    ``.npy`` (dense), ``.npz`` (``scipy.sparse.save_npz``) or a table (``.csv``,
    ``.tsv``, ``.txt``) with an optional header of feature names and an optional
    index column (``DataFrame.to_csv`` of ``df.corr().abs()`` writes both).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import pandas as pd
    >>> from propstab._data.readers import read_similarity
    >>> C = pd.DataFrame([[1, .9], [.9, 1]], index=["a b", "c"], columns=["a b", "c"])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "sim.csv"
    ...     C.to_csv(path)
    ...     read = read_similarity(str(path))
    >>> read.n_features, read.feature_names
    (2, ('a b', 'c'))
    """
    import pandas as pd
    from scipy import sparse

    path = str(path)
    ext = _suffix(path, SIMILARITY_SUFFIXES)
    names = None
    if ext == ".npy":
        matrix = _load_npy(path)
        how = ".npy array"
    elif ext == ".npz":
        try:  # the file opened and closed here (scipy leaves an unreadable archive open)
            with open(path, "rb") as handle:
                matrix = sparse.load_npz(handle)
        except Exception as exc:  # noqa: BLE001 - any unreadable file (BadZipFile too)
            _fail(
                path,
                f"could not be read as a scipy.sparse .npz matrix: {type(exc).__name__}: {exc}",
            )
        how = "sparse .npz matrix"
    else:
        first, header, body = _read_table(path, ext)
        numeric_kinds = np.array([dt.kind in "biuf" for dt in body.dtypes])
        if index_col != "auto":
            idx = _index_column(
                path, index_col, header, first, body, np.zeros(body.shape, dtype=bool)
            )
        elif (header is not None and first[0] == "") or (
            body.shape[1] > 1 and not numeric_kinds[0]
        ):
            idx = 0  # an empty corner cell, or names down column 1
        else:
            idx = None
        labels = None if idx is None else [str(x) for x in body.iloc[:, idx].tolist()]
        keep = [j for j in range(body.shape[1]) if j != idx]
        body = body.iloc[:, keep]
        if all(dt.kind in "biuf" for dt in body.dtypes):
            numeric = body.to_numpy(dtype=np.float64)
        else:
            numeric = body.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)
        bad = np.isnan(numeric) & ~body.isna().to_numpy()
        missing = body.isna().to_numpy()
        if bad.any() or missing.any():
            i, j = (int(x) for x in np.argwhere(bad | missing)[0])
            got = "an empty cell" if missing[i, j] else repr(str(body.iat[i, j]).strip())
            _fail(path, f"entries must be numbers; got {got} in row {i + 1}, column {j + 1}")
        names = None if header is None else tuple(header[j] for j in keep)
        matrix = numeric
        if names is not None or labels is not None:
            rows = labels if labels is not None else list(names)
            cols = list(names) if names is not None else labels
            names = tuple(cols)
            matrix = pd.DataFrame(numeric, index=rows, columns=cols)
        how = (
            "table"
            + (", header of feature names" if header is not None else "")
            + (", index column of feature names" if idx is not None else "")
        )
    shape = getattr(matrix, "shape", ())
    if len(shape) != 2 or shape[0] != shape[1]:
        _fail(
            path,
            f"a similarity matrix must be square (d x d); got shape "
            f"{' x '.join(map(str, shape)) or 'scalar'}",
        )
    _validated(path, as_similarity, matrix, shape[0])
    return SimilarityFile(path, matrix, int(shape[0]), names, f"{how}, {shape[0]} x {shape[1]}")


def read_feature_names(path: str) -> Tuple[str, ...]:
    """The feature names of a ``.json`` list of strings or of a text file with one
    name per line (blank lines skipped); names must be unique.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from propstab._data.readers import read_feature_names
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "names.txt"
    ...     _ = path.write_text("mean radius\\nmean texture\\n")
    ...     read_feature_names(str(path))
    ('mean radius', 'mean texture')
    """
    path = str(path)
    if not os.path.isfile(path):
        _fail(path, "no such file")
    if path.lower().endswith(".json"):
        try:
            names = json.loads(_text(path))
        except json.JSONDecodeError as exc:
            _fail(path, f"not valid JSON: {exc}")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            _fail(path, "must hold a JSON list of feature names (strings)", TypeError)
    else:
        names = [ln.strip() for ln in _text(path).splitlines() if ln.strip()]
    if not names:
        _fail(path, "lists no feature names")
    seen = set()
    for n in names:
        if n in seen:
            _fail(path, f"feature names must be unique; {n!r} appears more than once")
        seen.add(n)
    return tuple(names)
