"""Arguments shared by the commands that read files: how to read a selection file, and
the measure's options (``--similarity``, ``--threshold``, ``--option KEY=VALUE``).

Files are read by :mod:`propstab._data.readers`; option values are typed from the measure's
:class:`~propstab.Parameter` declarations and validated by
:func:`propstab.registry._option_checks.check_options`.
"""
from __future__ import annotations

import argparse
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .._data.readers import (
    SELECTION_SUFFIXES,
    SIMILARITY_SUFFIXES,
    SelectionFile,
    SimilarityFile,
    read_feature_names,
    read_rankings,
    read_selection,
    read_similarity,
)
from ..registry._registry import MeasureInfo, list_measures
from ..registry._option_checks import check_options
from .._utils.checks import fail
from .._utils.exceptions import InvalidParameterError

READ_HELP = (
    f"a selection file ({', '.join(SELECTION_SUFFIXES)}): a 0/1 table with one row per run "
    "and one column per feature (0/1 or True/False, optional header of feature names, an "
    "index column as pandas or R write it is detected), a .npy 0/1 array, a .json list of "
    "runs each listing its selected features by index or name, or, with --n-features or "
    "--zero-based/--one-based, a text file listing one run of indices per line"
)

#: Options given as matrices: the command line takes the similarity as a file only.
MATRIX_OPTIONS = {
    "similarity": "give the similarity matrix with --similarity FILE",
    "importances": "importances are an M x d matrix, not available on the command line; "
    "use propstab.stability(Z, measure, importances=W) from Python",
}
IDENTITY = "identity"


#: The options of :func:`add_reading_arguments` (their destinations).
READING = ("n_features", "base", "feature_names", "scores", "index_col")


def given(args, dest: str) -> bool:
    """Whether the command line gave ``dest`` (:func:`propstab.cli.given_options`; without
    that record, whether its value is set: not None, False or empty)."""
    explicit = getattr(args, "given_options", None)
    if explicit is not None:
        return dest in explicit
    return getattr(args, dest, None) not in (None, False, [], ())


def flag(args, dest: str) -> str:
    """The option's text on the command line (``--n-resamples``, ``--one-based``)."""
    if dest == "base":
        return f"--{getattr(args, dest, None) or 'zero'}-based"
    return "--" + dest.replace("_", "-")


class RenamedOption(argparse.Action):
    """The old spelling of an option (one vocabulary across propstab: docs/contributing.md,
    "Vocabulary"): it sets the new option's destination with a DeprecationWarning naming
    both spellings, and ``--help`` shows only the new one (:func:`add_renamed_option`)."""

    def __init__(self, option_strings, dest, *, new: str, **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        warnings.warn(
            f"{option_string} is renamed {self.new} (one vocabulary across propstab); "
            f"{option_string} will be removed",
            DeprecationWarning,
        )
        setattr(namespace, self.dest, values)


def add_renamed_option(p, new, old: str) -> None:
    """Add ``old``, a deprecated alias of the option ``new`` (the action that
    ``p.add_argument`` returned): the same destination and type, hidden from ``--help``."""
    p.add_argument(
        old,
        dest=new.dest,
        type=new.type,
        metavar=new.metavar,
        default=argparse.SUPPRESS,
        help=argparse.SUPPRESS,
        action=RenamedOption,
        new=max(new.option_strings, key=len),
    )


def add_random_state(p, of: str) -> None:
    """``--random-state SEED`` (an int, default 0; help: "seed of ``of``"), with its
    former spelling ``--seed``: the one seed option of every command that draws."""
    seed = p.add_argument(
        "--random-state",
        type=int,
        default=0,
        metavar="SEED",
        help=f"seed of {of} (default 0)",
    )
    add_renamed_option(p, seed, "--seed")


def add_confidence_level(p, level: str) -> None:
    """``--confidence-level LEVEL`` (a float, default 0.95; help: ``level``), with its
    former spelling ``--confidence``: the one level option of every command."""
    option = p.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help=f"{level} (default 0.95)",
    )
    add_renamed_option(p, option, "--confidence")


def renamed_value(renames: Dict[str, str], option: str):
    """An argparse ``type`` that takes the old spellings in ``renames`` (``{old: new}``)
    for the new ones, with a DeprecationWarning naming both (the option's ``choices``
    then check the new value)."""

    def convert(text: str) -> str:
        if text in renames:
            warnings.warn(
                f"{option} {text} is renamed {option} {renames[text]} (one vocabulary "
                f"across propstab); {text} will be removed",
                DeprecationWarning,
            )
            return renames[text]
        return text

    convert.__name__ = option.lstrip("-")
    return convert


def refuse_unused(args, dests: Sequence[str], why: str) -> None:
    """Refuse, naming it, the first of ``dests`` that the command line gave: an option
    that does not apply where it was given would otherwise be silently ignored."""
    for dest in dests:
        if given(args, dest):
            name, value = flag(args, dest), getattr(args, dest, None)
            if isinstance(value, list):
                value = value[0] if value else None
            shown = name if value in (None, True) or dest == "base" else f"{name} {value}"
            fail(f"{name}: {why}; got {shown}", argument=name)


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {value}")
    return value


def add_reading_arguments(p) -> None:
    """--n-features, --zero-based/--one-based, --feature-names, --index-col."""
    g = p.add_argument_group("reading the files")
    g.add_argument(
        "--n-features",
        type=positive_int,
        metavar="D",
        help="d, the number of features, for runs given as feature indices (JSON "
        "lists, or a text file with one run of indices per line)",
    )
    base = g.add_mutually_exclusive_group()
    base.add_argument(
        "--zero-based",
        dest="base",
        action="store_const",
        const="zero",
        help="feature indices start at 0 (Python, numpy)",
    )
    base.add_argument(
        "--one-based",
        dest="base",
        action="store_const",
        const="one",
        help="feature indices start at 1 (R, stabm). Without either flag an "
        "index 0 means 0-based and an index d 1-based; files where both "
        "readings are valid are refused",
    )
    g.add_argument(
        "--feature-names",
        metavar="FILE",
        help="the d feature names in order (one per line, or a .json list): "
        "needed when runs list features by name, checked against a header",
    )
    g.add_argument(
        "--scores",
        action="store_true",
        help="for a measure of the ranking family (spearman, kendall, ...): the "
        "table holds scores or importances (the largest the most important) "
        "instead of ranks (1 the most important)",
    )
    g.add_argument(
        "--index-col",
        default="auto",
        metavar="COLUMN",
        help="the column of run labels in a table: 'auto' (default: detected when "
        "the header's first cell is empty, as DataFrame.to_csv and "
        "write.csv write it, or when the first column holds distinct "
        "non-0/1 labels), 'none', or a column name or 0-based position",
    )


def add_measure_arguments(p, *, default: Optional[str] = "nogueira", many: bool = False) -> None:
    """--measure, --similarity, --threshold, --option."""
    if many:
        p.add_argument(
            "--measure", action="append", metavar="NAME", help="only this measure (repeatable)"
        )
    else:
        p.add_argument(
            "--measure",
            default=default,
            help=f"registered measure (default {default}; see propstab measures)",
        )
    g = p.add_argument_group("the measure's options")
    g.add_argument(
        "--similarity",
        metavar="FILE",
        help="d x d feature-similarity matrix ("
        + ", ".join(SIMILARITY_SUFFIXES)
        + "; a header and index of feature names are read) for the measures "
        "that take one (sechidis, msi, yu, ...); they refuse to run without "
        "it. 'identity' uses the identity matrix (no two features similar)",
    )
    g.add_argument(
        "--threshold",
        type=float,
        metavar="X",
        help="the measure's threshold option (similarities below X count as 0)",
    )
    g.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other option of the measure, e.g. correction_for_chance=exact "
        "(repeatable; propstab measures --json lists each measure's options)",
    )


def read_inputs(
    args, paths: Sequence[str], kind: str = "selection"
) -> Tuple[List[SelectionFile], Optional[SimilarityFile]]:
    """The selection files (and the similarity file) named by the command line.

    Feature names come from --feature-names, else from the similarity file's header;
    d for index lists from --n-features, else from those names or the similarity's size.
    For a measure of the ranking family (``kind="ranking"``) the files are rank tables
    (:func:`propstab._data.readers.read_rankings`, ``--scores`` for scores).
    """
    if kind == "ranking":
        refuse_unused(
            args,
            ("n_features", "base"),
            "not used by a measure of the ranking "
            "family (its files are rank tables: runs as rows, features as columns)",
        )
    else:
        refuse_unused(
            args,
            ("scores",),
            "only for a measure of the ranking family (spearman, "
            "kendall, ...), whose files may hold scores instead of ranks",
        )
    index_lines = kind != "ranking" and (args.n_features is not None or args.base is not None)
    if not any(_is_table(path, index_lines) for path in paths):
        refuse_unused(
            args,
            ("index_col",),
            "only for a table file (.csv, .tsv, .txt) read as " "a table, and none is",
        )
    given = read_feature_names(args.feature_names) if args.feature_names else None
    if kind == "ranking":
        return [
            read_rankings(
                path,
                kind="scores" if args.scores else "ranks",
                feature_names=given,
                index_col=args.index_col,
            )
            for path in paths
        ], None
    sim = None
    if args.similarity and args.similarity != IDENTITY:
        try:
            sim = read_similarity(args.similarity, index_col="auto")
        except InvalidParameterError as error:  # the file's error, under its option
            fail(f"--similarity {error}", error, argument="--similarity")
        if (
            given is not None
            and sim.feature_names is not None
            and tuple(sim.feature_names) != tuple(given)
        ):
            fail(
                f"--similarity {args.similarity}: its feature names differ from "
                f"--feature-names {args.feature_names}",
                argument="--similarity",
            )
    names = given if given is not None else (sim.feature_names if sim is not None else None)
    index_lines = args.n_features is not None or args.base is not None
    d = args.n_features
    if d is None and names is None and sim is not None:
        d = sim.n_features
    files = []
    for path in paths:
        ext = path.lower().rsplit(".", 1)[-1]
        if ext == "json" or (index_lines and ext != "npy"):
            kw = dict(n_features=d, feature_names=names)
        elif ext == "npy":
            kw = dict(n_features=args.n_features, feature_names=names)
        else:  # a table: its header is checked against --feature-names only
            kw = dict(feature_names=given)
        files.append(
            read_selection(
                path, base=args.base, index_col=args.index_col, index_lines=index_lines, **kw
            )
        )
    if sim is not None:
        for f in files:
            if f.selection.n_features != sim.n_features:
                fail(
                    f"--similarity {sim.path}: a {sim.n_features} x "
                    f"{sim.n_features} matrix, but {f.path} has "
                    f"{f.selection.n_features} features",
                    argument="--similarity",
                )
            if (
                sim.feature_names is not None
                and f.selection.feature_names is not None
                and tuple(map(str, f.selection.feature_names)) != sim.feature_names
            ):
                fail(
                    f"--similarity {sim.path}: its feature names differ from "
                    f"those of {f.path}",
                    argument="--similarity",
                )
    return files, sim


def _is_table(path: str, index_lines: bool) -> bool:
    """Whether ``path`` is read as a table (the files ``--index-col`` applies to)."""
    ext = "." + str(path).lower().rsplit(".", 1)[-1]
    return ext not in (".json", ".npy", ".npz") and not index_lines


def _parse_value(info: MeasureInfo, p, text: str):
    """An option value typed from the parameter's choices or default."""
    where = f"--option {p.name}"
    if p.choices is not None:
        for choice in p.choices:
            if str(choice) == text:
                return choice
        fail(
            f"{where}: must be one of {', '.join(map(str, p.choices))} for "
            f"measure {info.name!r}; got {text!r}"
        )
    default = p.default
    if isinstance(default, bool):
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        fail(f"{where}: must be true or false; got {text!r}")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            fail(f"{where}: must be an integer; got {text!r}")
    if isinstance(default, float) or default is None:
        if default is None and text.lower() == "none":
            return None
        if default is None and text.strip().lstrip("+-").isdigit():
            return int(text)  # e.g. the k of a ranking measure (None: d)
        try:
            return float(text)
        except ValueError:
            allowed = "a number" + (" or none" if default is None else "")
            fail(f"{where}: must be {allowed}; got {text!r}")
    return text


def parse_options(args, infos: Sequence[MeasureInfo]) -> Dict[str, Any]:
    """``--option KEY=VALUE`` and ``--threshold`` as typed values, checked against the
    options the measures declare (unknown keys are refused with the known ones)."""
    declared = {}
    for info in infos:
        for p in info.parameters:
            declared.setdefault(p.name, (info, p))
    which = ", ".join(i.name for i in infos)
    options: Dict[str, Any] = {}
    for item in args.option:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            fail(f"--option: must be KEY=VALUE; got {item!r}")
        if key not in declared:
            known = [k for k in declared if k not in MATRIX_OPTIONS]
            fail(
                f"--option {key}: not an option of {which}; its options: "
                f"{', '.join(known) if known else 'none'}",
                argument="--option",
            )
        if key in MATRIX_OPTIONS:
            fail(f"--option {key}: {MATRIX_OPTIONS[key]}", argument="--option")
        if key in options:
            fail(f"--option {key}: given twice", argument="--option")
        options[key] = _parse_value(*declared[key], text.strip())
    if args.threshold is not None:
        if "threshold" not in declared:
            fail(f"--threshold: {which} takes no threshold option")
        if "threshold" in options:
            fail("--threshold: given both as --threshold and as --option threshold")
        options["threshold"] = args.threshold
    if args.similarity is not None and "similarity" not in declared:
        takes = [m.name for m in list_measures() if "similarity" in m.parameter_names]
        fail(
            f"--similarity: {which} takes no similarity matrix; the measures "
            f"that do: {', '.join(takes)}"
        )
    return options


def similarity_option(args, info: MeasureInfo, sim: Optional[SimilarityFile]):
    """The ``similarity`` value for ``info`` and how to print it, or refuse when the
    measure takes a similarity and none was given (the identity would be silent)."""
    if args.similarity is None:
        fail(
            f"--similarity: {info.name} relates features through a d x d "
            f"similarity matrix and none was given; pass --similarity FILE, or "
            f"--similarity identity to use the identity matrix (no two "
            f"features similar)"
        )
    if sim is None:
        return None, "identity (--similarity identity: no two features similar)"
    return sim.matrix, f"{sim.path} ({sim.description})"


def measure_options(
    args, info: MeasureInfo, sim: Optional[SimilarityFile]
) -> Tuple[Dict[str, Any], List[tuple]]:
    """The options to pass to ``info`` and the lines that say which were used."""
    options = parse_options(args, [info])
    lines = []
    if "similarity" in info.parameter_names:
        options["similarity"], text = similarity_option(args, info, sim)
        lines.append(("similarity", text))
    full = check_options(info, options)
    shown = [
        f"{k}={v!r}" + ("" if k in options else " (default)")
        for k, v in full.items()
        if k not in MATRIX_OPTIONS
    ]
    if shown:
        lines.append(("options", ", ".join(shown)))
    return options, lines
