"""One vocabulary: the table of docs/contributing.md ("Vocabulary") is what the code
takes. Each idea's chosen spelling is the one of every public signature and visible
command-line option; each former spelling in the table still works, warns naming the
former and the new spelling, and gives the identical result (the R package's former
spellings: rpackage/tests/testthat)."""
import argparse
import contextlib
import importlib
import inspect
import io
import pkgutil
import re
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

import propstab
from propstab._utils import params
from propstab.cli import build_parser, command_names, main
from propstab.commands._common import RenamedOption

CONTRIBUTING = Path(__file__).resolve().parents[1] / "docs" / "contributing.md"


def vocabulary_table():
    """The rows of the table under "## Vocabulary": ``{idea: {column: text}}``."""
    text = CONTRIBUTING.read_text()
    section = text.split("\n## Vocabulary\n", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = dict(zip(header, cells))
    return rows


def ticked(cell: str):
    return re.findall(r"`([^`]+)`", cell)


TABLE = vocabulary_table()

#: the table's former Python argument names and values, read from its last column
FORMER = "former spellings (still accepted, with a warning)"
FORMER_ARGUMENTS = {
    old.rstrip("="): ticked(row["Python"])[0].rstrip("=")
    for row in TABLE.values()
    for old in ticked(row[FORMER])
    if re.fullmatch(r"[a-z_]+=", old)
}


def former_values():
    """``{argument: {former value: chosen value}}``: a former ``test="asymptotic"`` is
    followed in its cell by the chosen value (`"wald"`)."""
    out = {}
    for row in TABLE.values():
        items = ticked(row[FORMER])
        for i, old in enumerate(items):
            m = re.fullmatch(r'([a-z_]+)="(\w+)"', old)
            if m:
                out.setdefault(m.group(1), {})[m.group(2)] = items[i + 1].strip('"')
    return out


FORMER_VALUES = former_values()
FORMER_OPTIONS = {
    old: ticked(row["command line"])[0]
    for row in TABLE.values()
    for old in ticked(row[FORMER])
    if old.startswith("--") and " " not in old and old != ticked(row["command line"])[0]
}


def test_the_table_is_the_code():
    assert FORMER_ARGUMENTS == {"confidence": "confidence_level", "seed": "random_state"}
    assert FORMER_VALUES == {"test": {"asymptotic": "wald"}}
    merged = {**params.RENAMED_CONFIDENCE, **params.RENAMED_SEED}
    assert FORMER_ARGUMENTS == merged
    assert FORMER_VALUES == params.RENAMED_TESTS
    assert FORMER_OPTIONS == {"--confidence": "--confidence-level", "--seed": "--random-state"}
    chosen = {ticked(row["Python"])[0] for row in TABLE.values()}
    assert {
        "confidence_level=",
        "alternative=",
        "test=",
        "n_resamples=",
        "random_state=",
    } <= chosen


def public_functions():
    """Every public callable of propstab's public modules (classes: their constructor and
    public methods), once."""
    seen, out = set(), []
    for info in pkgutil.walk_packages(propstab.__path__, "propstab."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        if info.name in ("propstab.__main__", "propstab.pytest_plugin"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra's module
            continue
        names = getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")])
        for name in names:
            obj = getattr(module, name, None)
            members = [(name, obj)]
            if inspect.isclass(obj):
                members += [
                    (f"{name}.{k}", getattr(v, "__func__", v))
                    for k, v in vars(obj).items()
                    if not k.startswith("_")
                    and (inspect.isfunction(v) or isinstance(v, (classmethod, staticmethod)))
                ]
            for label, f in members:
                if not callable(f):
                    continue
                key = (getattr(f, "__module__", None), getattr(f, "__qualname__", label))
                if key in seen:
                    continue
                seen.add(key)
                try:
                    signature = inspect.signature(f)
                except (TypeError, ValueError):
                    continue
                out.append((f"{info.name}.{label}", f, signature))
    return out


#: records whose field is the seed that made them (stored in their files), not an option
RECORDS = {"Baseline", "Baseline.from_result", "CrosscheckReport"}

#: other spellings of the table's ideas that no public signature may use
SYNONYMS = {"confidence", "conf_level", "seed", "n_permutations", "n_boot", "n_bootstrap"}


def test_no_public_signature_uses_a_former_spelling():
    offenders = [
        f"{label}({name}=)"
        for label, f, signature in public_functions()
        for name in signature.parameters
        if name in SYNONYMS | set(FORMER_ARGUMENTS)
        and label.split(".", 2)[-1].split(".", 1)[-1] not in RECORDS
        and not any(label.endswith("." + r) for r in RECORDS)
    ]
    assert offenders == []
    # and every function that renamed an argument declares it through the one helper
    renamed = [f for _, f, _ in public_functions() if hasattr(f, "renamed_spellings")]
    assert len(renamed) >= 12
    for f in renamed:
        declared = f.renamed_spellings
        assert set(declared["arguments"].items()) <= set(FORMER_ARGUMENTS.items())
        for argument, values in declared["values"].items():
            assert values == FORMER_VALUES[argument]


def test_the_values_of_the_test_are_one_list():
    from propstab import inference

    assert "wald" in inference.TEST_METHODS and "asymptotic" not in inference.TEST_METHODS
    assert "wald" in inference.ONE_SAMPLE_TESTS and "wald" in inference.CI_METHODS


def subparsers():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: sub.choices[name] for name in command_names()}


def test_every_option_has_the_chosen_spelling_and_its_former_one_is_a_hidden_alias():
    aliases = {}
    for command, p in subparsers().items():
        for action in p._actions:
            if isinstance(action, RenamedOption):
                assert action.help == argparse.SUPPRESS
                (old,) = action.option_strings
                assert FORMER_OPTIONS[old] == action.new
                aliases.setdefault(old, set()).add(command)
                visible = {
                    s for a in p._actions if a.help != argparse.SUPPRESS for s in a.option_strings
                }
                assert action.new in visible
            else:
                assert not set(action.option_strings) & set(FORMER_OPTIONS), (command, action)
            if "--test" in action.option_strings:
                assert "asymptotic" not in action.choices and "wald" in action.choices
        help_text = p.format_help()
        assert "--seed" not in help_text and not re.search(r"--confidence\b(?!-)", help_text)
    assert aliases == {
        "--confidence": {"estimate", "check", "compare"},
        "--seed": {"agree", "audit", "crosscheck", "compare"},
    }


# ----------------------------------------------------- each former spelling, table-driven


def runs(seed, m=12, d=8, p=0.5):
    return np.random.default_rng(seed).random((m, d)) < p


#: three features almost always selected, five almost never: Phi about 0.8
STABLE = np.array([0.97] * 3 + [0.03] * 5)


def _two_sample(test):
    res = propstab.two_sample_test(runs(1), runs(2, p=0.3), test=test)
    return res.statistic, res.pvalue, res.test, str(res)


def _pairwise(test):
    table = propstab.pairwise_tests(
        {"a": runs(1), "b": runs(2, p=0.3), "c": runs(3)}, test=test, correction="holm"
    )
    return table.rows


def _assert_stable(**level):
    from propstab.testing import assert_stable

    res = assert_stable(runs(4, m=40, p=STABLE), 0.2, **level)
    return res.statistic, res.pvalue, str(res)


def _assert_not_less_stable(**level):
    from propstab.testing import assert_not_less_stable

    res = assert_not_less_stable(runs(4, m=40), runs(5, m=40), margin=0.5, **level)
    return res.statistic, res.pvalue, res.interval, res.confidence_level


def _audit(**seed):
    return str(propstab.audit("goh", max_examples=5, axioms=["bounds"], progress=False, **seed))


def _check_bounds(**seed):
    from propstab.auditing import check_bounds

    return str(check_bounds("jaccard", max_examples=5, **seed))


def _parametrize(**seed):
    from propstab.testing import parametrize_with_checks

    mark = parametrize_with_checks(["jaccard"], max_examples=5, **seed)
    return [(p.id, p.values[1].keywords) for p in mark.args[1]]


def _seeded(**seed):
    from sklearn.linear_model import LogisticRegression

    from propstab.selectors import seeded

    return seeded(LogisticRegression(), **seed).random_state


def _search(**seed):
    from hypothesis import strategies as st

    from propstab.search import Found, search

    def probe(xs):
        return Found(xs, (sum(xs),), "") if sum(xs) > 30 else None

    return search(st.lists(st.integers(0, 9)), probe, max_examples=30, **seed).example


def _baseline(tmp_path, **seed):
    from propstab.pytest_plugin import stability_baseline

    name = "_".join(seed)
    request = types.SimpleNamespace(
        config=types.SimpleNamespace(getoption=lambda option: False),
        node=types.SimpleNamespace(fspath=str(tmp_path / "test_x.py"), name=name),
    )
    get = stability_baseline.__pytest_wrapped__.obj(request)
    base = get(lambda s: runs(s), **seed)
    return base.selection.tolist(), base.seed


#: (what, call, new spelling, former spelling, the warning's words)
PYTHON_CASES = [
    (
        "two_sample_test",
        _two_sample,
        ("wald",),
        ("asymptotic",),
        "test='asymptotic' is renamed test='wald'",
    ),
    (
        "pairwise_tests",
        _pairwise,
        ("wald",),
        ("asymptotic",),
        "test='asymptotic' is renamed test='wald'",
    ),
    (
        "assert_stable",
        _assert_stable,
        {"confidence_level": 0.9},
        {"confidence": 0.9},
        "confidence= is renamed confidence_level=",
    ),
    (
        "assert_not_less_stable",
        _assert_not_less_stable,
        {"confidence_level": 0.8},
        {"confidence": 0.8},
        "confidence= is renamed confidence_level=",
    ),
    ("audit", _audit, {"random_state": 3}, {"seed": 3}, "seed= is renamed random_state="),
    (
        "check_bounds",
        _check_bounds,
        {"random_state": 3},
        {"seed": 3},
        "seed= is renamed random_state=",
    ),
    (
        "parametrize_with_checks",
        _parametrize,
        {"random_state": 3},
        {"seed": 3},
        "seed= is renamed random_state=",
    ),
    ("seeded", _seeded, {"random_state": 3}, {"seed": 3}, "seed= is renamed random_state="),
    ("search", _search, {"random_state": 3}, {"seed": 3}, "seed= is renamed random_state="),
]


def _call(f, spelling):
    return f(*spelling) if isinstance(spelling, tuple) else f(**spelling)


@pytest.mark.parametrize(
    "what, f, new, old, words", PYTHON_CASES, ids=[c[0] for c in PYTHON_CASES]
)
def test_a_former_spelling_warns_and_gives_the_identical_result(what, f, new, old, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the chosen spelling: no warning
        warnings.simplefilter("ignore", propstab.PropstabWarning)
        expected = _call(f, new)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", propstab.PropstabWarning)
        with pytest.warns(DeprecationWarning, match=re.escape(words)) as caught:
            got = _call(f, old)
    assert got == expected
    # the warning points at the caller's line, not at propstab's wrapper
    assert all(
        Path(w.filename).name == Path(__file__).name
        for w in caught
        if issubclass(w.category, DeprecationWarning)
    )


def test_the_stability_baseline_fixture_takes_random_state(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        expected = _baseline(tmp_path, random_state=3)
    with pytest.warns(
        DeprecationWarning, match="stability_baseline: seed= is renamed random_state="
    ):
        assert _baseline(tmp_path, seed=3) == expected
    assert expected[1] == 3


def test_both_spellings_at_once_are_refused_naming_both():
    with pytest.raises(propstab.InvalidParameterError, match="give random_state= only.*seed="):
        propstab.audit("goh", max_examples=2, seed=1, random_state=1)


# ------------------------------------------------------------- the command line, table-driven


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vocabulary")
    out = {}
    for name, seed, p in (("a", 1, 0.6), ("b", 2, 0.4)):
        path = folder / f"{name}.csv"
        np.savetxt(path, runs(seed, m=20, d=8, p=p).astype(int), fmt="%d", delimiter=",")
        out[name] = str(path)
    return out


WRONG_GOH = [
    sys.executable,
    "-c",
    "import sys\nfor line in sys.stdin:\n    print('0.5', flush=True)\n",
]

#: (command line with {new}, new spelling, former spelling); {a} and {b} are the files
CLI_CASES = [
    (["estimate", "{a}", "{new}", "0.9"], "--confidence-level", "--confidence"),
    (["check", "{a}", "--at-least", "0.0", "{new}", "0.9"], "--confidence-level", "--confidence"),
    (
        ["compare", "{a}", "{b}", "--noninferiority", "0.2", "{new}", "0.8"],
        "--confidence-level",
        "--confidence",
    ),
    (
        ["compare", "{a}", "{b}", "--test", "permutation", "--n-resamples", "999", "{new}", "3"],
        "--random-state",
        "--seed",
    ),
    (["compare", "{a}", "{b}", "--test", "{new}"], "wald", "asymptotic"),
    (
        ["audit", "--measure", "goh", "--max-examples", "5", "{new}", "3"],
        "--random-state",
        "--seed",
    ),
    (
        ["agree", "--measure", "goh", "--max-examples", "20", "{new}", "3", "--", *WRONG_GOH],
        "--random-state",
        "--seed",
    ),
]


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "line, new, old", CLI_CASES, ids=lambda v: v if isinstance(v, str) else None
)
def test_a_former_option_warns_and_gives_the_identical_output(line, new, old, files):
    def argv(spelling):
        return [a.format(new=spelling, **files) if a.startswith("{") else a for a in line]

    status, out, err = run_cli(argv(new))
    assert "DeprecationWarning" not in err
    old_status, old_out, old_err = run_cli(argv(old))
    assert (old_status, old_out) == (status, out)
    command = line[0]
    words = (
        f"{old} is renamed {new}"
        if old.startswith("--")
        else f"--test {old} is renamed --test {new}"
    )
    assert f"propstab {command}: warning: DeprecationWarning: {words}" in old_err
