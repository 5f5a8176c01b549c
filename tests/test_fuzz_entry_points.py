"""Every public entry point, tried as a hostile user would.

One table (:data:`ENTRIES`) lists each public function and method that takes an
argument, with a valid baseline call and, for each argument, its :class:`~contract.Kind`
(the oracle of which values are valid). For every entry point:

- the baseline call keeps the contract (tests/contract.py);
- every argument is given each value of :data:`contract.EXPLICIT`, then values drawn
  by Hypothesis from :data:`contract.HOSTILE` and the kind's own edge values; an invalid
  value must raise ValueError or TypeError naming the argument, a valid one may
  return or raise naming some argument (a clash with another one), and nothing may
  escape, come back NaN without the warning, or modify an argument;
- an unknown keyword raises TypeError naming it.

``test_every_public_entry_point_is_fuzzed`` checks that the table covers
``propstab.__all__`` (lazy names included) and the public functions of the submodules.
The R bridge's entry points are fuzzed in r_compat/test_fuzz_bridge.py, the command
line in tests/test_fuzz_cli.py, malformed selection matrices and misbehaving selectors
and schemes in tests/test_fuzz_inputs.py.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import json
import os
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

import contract
from contract import (
    EXPLICIT,
    Anything,
    Bool,
    Choice,
    Int,
    Kind,
    NJobs,
    Real,
    Seed,
    Text,
    check_call,
    kind_of,
)
import propstab
from propstab import auditing, chance, plots, selectors, strategies
from propstab._utils.params import invalid_values, parameter_constraints
from propstab.error_control import error_control
from propstab.resampling import pareto_front
from propstab.selection import StabilitySelection
from propstab import testing

#: this folder, for the paths the entry points read (the suite may run them elsewhere)
TESTS = os.path.dirname(os.path.abspath(__file__))

#: Hypothesis examples per entry point (the explicit values come on top)
EXAMPLES = int(os.environ.get("PROPSTAB_FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module", autouse=True)
def _in_a_temporary_directory(tmp_path_factory):
    """Drawn paths ("x", "auto" as a checkpoint=) are created here, not in the tree."""
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("fuzz-cwd"))
    yield
    os.chdir(here)


# ----------------------------------------------------------------------------------
# baselines: small valid inputs, built fresh for every call (the fitted selection and search
# and the result objects of _method are built once: the contract checks each call leaves
# them as built)


def Z():
    return [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1]]


def Z_other():
    return [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]


def X():
    return np.random.default_rng(0).normal(size=(12, 4))


def y():
    x = X()
    return x[:, 0] - x[:, 1] + 0.1 * np.random.default_rng(1).normal(size=12)


def first_two(X, y):
    return [0, 1]


def S():
    C = np.eye(4)
    C[0, 1] = C[1, 0] = 0.95
    return C


def lasso():
    from sklearn.linear_model import Lasso

    return Lasso(alpha=0.05)


def fitted_lasso():
    return lasso().fit(X(), y())


@functools.lru_cache(maxsize=None)
def fitted_selection():
    """One fitted StabilitySelection, built once (27 ms a fit, about 150 calls): the
    contract (check_call) compares every argument with its copy after each call, so a
    call that changed it would fail there, not pass a changed baseline on unnoticed."""
    # penalties, B and cutoff where the realised unimodal bound applies and is small
    # (E(V) <= 0.48 for the one feature selected): at [0.05, 0.2], B = 2, cutoff 0.75
    # it did not apply (q/p = 0.69) and the fit warned
    return StabilitySelection(
        lasso(),
        param_grid=[0.2, 0.5],
        n_subsamples=5,
        sampling="ss",
        cutoff=0.9,
        PFER=None,
        random_state=0,
    ).fit(X(), y())


@functools.lru_cache(maxsize=None)
def calibrated_selection():
    """One StabilitySelection fitted with calibration="fdp", built once (19 ms a fit, for
    each of about 120 calls of plot_calibration): as for fitted_selection, check_call
    compares it with its copy after each call, a call that changed it fails there."""
    return StabilitySelection(
        lasso(), param_grid=[0.05, 0.2], n_subsamples=2, random_state=0, calibration="fdp"
    ).fit(X(), y())


@functools.lru_cache(maxsize=None)
def fitted_search():
    """One fitted StabilityGridSearch, built once (plot and summary do not change it)."""
    return propstab.StabilityGridSearch(
        lasso(), {"alpha": [0.05, 0.2]}, n_runs=3, random_state=0
    ).fit(X(), y())


def _axes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    return ax


def _close_figures():
    import matplotlib.pyplot as plt

    plt.close("all")


MEASURE_NAMES = tuple(m.name for m in propstab.list_measures())
ALIASES = tuple(a for m in propstab.list_measures() for a in m.aliases)
MEASURE = Choice(*MEASURE_NAMES, *ALIASES)
CONFIDENCE = Real(0.0, 1.0, low_open=True, high_open=True)
Z_KIND = Anything(
    invalid=(
        None,
        "x",
        5,
        1.5,
        [[2, 0], [0, 1]],
        [[1, 0]],
        [1, 0, 1],
        [[1, 0], [1]],
        {"a": [1, 0]},
        [[np.nan, 1], [0, 1]],
        [["1", "0"], ["0", "1"]],
        np.array([[1 + 0j, 0], [0, 1]]),
        [[1 + 0j, 0], [0, 1]],
        np.zeros((0, 3)),
        np.zeros((3, 0)),
        np.zeros((2, 2, 2)),
        [{0: 1}, {1}],
        [[True, "0"], [0, 1]],
    )
)


# ----------------------------------------------------------------------------------
# the table


@dataclasses.dataclass(frozen=True)
class Arg:
    name: str
    kind: Kind
    aliases: Tuple[str, ...] = ()  # other names a message may use for it


@dataclasses.dataclass(frozen=True)
class Entry:
    """A public entry point: ``call(**kwargs)`` with ``base()`` as the valid baseline."""

    name: str
    call: Callable[..., Any]
    base: Callable[[], Dict[str, Any]]
    args: Tuple[Arg, ...]
    covers: Tuple[Any, ...] = ()  # the public objects this entry drives
    options: bool = False  # takes **options (keyword options)
    examples: Optional[int] = None  # Hypothesis examples (slow entry points)
    after: Optional[Callable[[], None]] = None
    nan_ok: bool = False  # returns its input (clone, take): NaN is data

    def __str__(self):
        return self.name


#: the st.data() of the Hypothesis test case in progress that _drawn's calls draw from
#: (see _in_one_test_case); empty: each call runs a find of its own
_DRAWING: list = []


def _drawn(strategy_function):
    """Build the strategy and draw one example: a strategy checks its arguments when
    first drawn from (Hypothesis's convention), raising InvalidArgument, a TypeError.

    Inside :func:`_drawing_from` (:func:`_in_one_test_case`, and the Hypothesis test's own
    data in test_hypothesis_hostile_values) the example is drawn from that test case's
    data (``data.draw``: the strategy built and drawn from, an invalid one raising
    InvalidArgument from the draw); outside it, by a find of its own (only the generate
    phase: the first example is the answer). In _in_one_test_case both give the first,
    minimal example of the strategy: a find's first test case and the one test case read
    the zero buffer (the same 2,149 outcomes, checked when this was written)."""

    def call(**kwargs):
        strategy = strategy_function(**kwargs)
        if _DRAWING:
            return _DRAWING[-1].draw(strategy)
        return find(
            strategy,
            lambda example: True,
            settings=settings(
                max_examples=1, database=None, print_blob=False, phases=[Phase.generate]
            ),
        )

    call.__name__ = strategy_function.__name__
    call.draws_examples = True
    return call


def _in_one_test_case(entry: "Entry", body: Callable[[], None]) -> None:
    """``body()``; for an entry whose calls draw examples (:func:`_drawn`), inside one
    Hypothesis test case whose data every call draws from: one engine run for all the
    entry's cases, about 200, instead of a find per case (8.5 ms each, the engine's set-up
    and the final example run twice: 1.7 CPU-s an entry). A case whose draw raises leaves
    the test case consistent (the draw's example is closed in a finally); the case's
    outcome is classified by check_call as before. A test case that ran out of its buffer
    is retried and, all overrunning, fails (Unsatisfiable): never passes unchecked."""
    if not getattr(entry.call, "draws_examples", False):
        body()
        return

    @settings(
        max_examples=1,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def run(data):
        with _drawing_from(data):
            body()

    run()


@contextlib.contextmanager
def _drawing_from(data):
    """_drawn's calls inside draw their examples from ``data`` (an st.data() object)."""
    _DRAWING.append(data)
    try:
        yield
    finally:
        _DRAWING.pop()


def _method(build: Callable[[], Any], method: str):
    """``build().method(**kwargs)``: a result object's method as an entry point.

    The object is built once and shared by the calls (an assessment or a comparison took
    17 to 28 ms to build, for each of about 70 calls) when a copy of it compares equal to
    it (contract.same); every call must then leave it as built, a method that changes its
    object fails here. Otherwise (a copy that cannot be compared) a new one per call."""
    built = []

    def call(**kwargs):
        if not built:
            obj = build()
            copy = contract.snapshot(obj)
            built.append((obj, copy) if contract.same(copy, obj) else None)
        if built[0] is None:
            return getattr(build(), method)(**kwargs)
        obj, copy = built[0]
        try:
            return getattr(obj, method)(**kwargs)
        finally:
            if not contract.same(copy, obj):
                raise contract.ContractViolation(f"{method} changed its {type(obj).__name__}")

    return call


def _decided(assertion):
    """An assertion as an entry point: its failure (an AssertionError) is a decision, a
    valid outcome, returned as None; argument errors still raise."""

    def call(*args, **kwargs):
        try:
            return assertion(*args, **kwargs)
        except AssertionError:
            return None

    call.__name__ = assertion.__name__
    return call


def R():
    """A rank matrix (the ranking family's input): 3 runs ranking 4 features, one tie."""
    return [[1, 2, 3, 4], [2, 1, 4, 3], [1.5, 1.5, 3, 4]]


R_KIND = Anything(
    invalid=(
        None,
        "x",
        5,
        [[1, 2], [1]],
        [[1, 2, 3]],
        [[0, 1], [1, 2]],
        [[1, 5], [2, 1]],
        [[np.inf, 1], [1, 2]],
        [["1", "2"], ["2", "1"]],
        np.zeros((2, 2, 2)),
        [[1], [1]],
    )
)


def declared(function, *, cheap: Optional[Dict[str, int]] = None) -> Tuple["Arg", ...]:
    """The arguments of an entry point with declared rules (propstab._utils.params), their
    kinds read from the declaration (``cheap``: the largest value worth trying)."""
    rules = parameter_constraints(function)
    assert rules, f"{function} declares no rules"
    return tuple(
        Arg(name, _serial(name, kind_of(rule, cheap=(cheap or {}).get(name))))
        for name, rule in rules.items()
        if isinstance(name, str)
    )


def _serial(name: str, kind: Kind) -> Kind:
    """Valid worker counts and backends other than None and 1 start worker processes
    (seconds each, and a new pool per value): like NJobs, they are only checked to raise
    when invalid, never run."""
    if name in ("n_jobs", "backend"):
        kind.expensive = lambda v, kind=kind: kind.valid(v) is not False and not (
            v is None or (type(v) is int and v == 1)
        )  # (v may be an array)
    return kind


def _measure_entry(info) -> Entry:
    first = "R" if info.input == "ranking" else "Z"
    args = [
        Arg(first, R_KIND if first == "R" else Z_KIND),
        Arg("n_features", Int(1, none=True)),
        Arg("feature_names", Anything(none=True)),
    ]
    for p in info.parameters:
        if p.choices is not None:
            kind = Choice(*p.choices, none=p.default is None)
        elif p.name in ("similarity", "importances"):
            kind = Anything(none=True, invalid=(np.ones((3, 3)), "x", [[2.0]] * 4, np.eye(5)))
        elif p.name == "threshold":
            kind = Real(0.0, 1.0, none=p.default is None)
        elif p.name == "n_simulations":
            kind = Int(1, cheap=200)
        elif p.name == "random_state":
            kind = Int(0)
        elif p.name == "penalty":
            kind = Real(0.0)
        else:
            kind = Anything(none=p.default is None)
        args.append(Arg(p.name, kind))
    cheap = {"n_simulations": 100} if "n_simulations" in info.parameter_names else {}
    base = R if first == "R" else Z
    return Entry(
        f"propstab.measures.{info.name}",
        lambda info=info, first=first, **kw: info.function(kw.pop(first), **kw),
        lambda cheap=cheap: {first: base(), **cheap},
        tuple(args),
        covers=(getattr(propstab.measures, info.name, None),),
        examples=8,
    )


def _estimate():
    return propstab.estimate(Z())


def _sampled_estimate():
    return propstab.estimate(Z(), "jaccard", pairs=100, random_state=0)


def _set_pair_memory_and_restore(**kwargs):
    """set_pair_memory, the budget restored after (the rest of the suite keeps its own)."""
    previous = propstab.settings.get_pair_memory()
    try:
        return propstab.settings.set_pair_memory(**kwargs)
    finally:
        propstab.settings.set_pair_memory(previous)


def _one_sample():
    return propstab.one_sample_test(Z(), 0.1)


def _two_sample():
    return propstab.two_sample_test(Z(), Z_other())


def _pairwise():
    return propstab.pairwise_tests({"a": Z(), "b": Z_other(), "c": Z()})


def _resampled():
    return propstab.resample(first_two, X(), n_runs=3, random_state=0)


def _assessed():
    return propstab.assess(first_two, X(), n_runs=3, random_state=0)


def _rank_assessed():
    return propstab.assess(lasso(), X(), y(), n_runs=3, random_state=0, output="ranking")


def _compared():
    return propstab.assess(
        {"a": first_two, "b": lambda X, y: [1, 2]}, X(), n_runs=4, random_state=0
    )


def _audit_table():
    return propstab.audit("goh", max_examples=1, axioms=["bounds"])


CI_ARGS = (Arg("confidence_level", CONFIDENCE),)
SEL_ARGS = (Arg("n_features", Int(1, none=True)), Arg("feature_names", Anything(none=True)))

ENTRIES: Tuple[Entry, ...] = (
    # ---- the root namespace
    Entry(
        "propstab.as_selection",
        lambda Z, **kw: propstab.as_selection(Z, **kw),
        lambda: {"Z": Z()},
        (Arg("Z", Z_KIND), *SEL_ARGS),
        covers=(propstab.as_selection,),
    ),
    Entry(
        "propstab.get_measure",
        propstab.get_measure,
        lambda: {"name": "jaccard"},
        (Arg("name", Choice(*MEASURE_NAMES, *ALIASES), aliases=("measure",)),),
        covers=(propstab.get_measure,),
    ),
    Entry(
        "propstab.list_measures",
        propstab.list_measures,
        lambda: {},
        declared(propstab.list_measures),
        covers=(propstab.list_measures,),
    ),
    Entry(
        "propstab.stability",
        lambda Z, **kw: propstab.stability(Z, **kw),
        lambda: {"Z": Z()},
        (
            Arg("Z", Z_KIND),
            *declared(propstab.stability),
            Arg("feature_names", Anything(none=True)),
        ),
        covers=(propstab.stability,),
        options=True,
    ),
    Entry(
        "propstab.estimate",
        lambda Z, **kw: propstab.estimate(Z, **kw),
        lambda: {"Z": Z()},
        (
            Arg("Z", Z_KIND),
            *declared(propstab.estimate),
            Arg("feature_names", Anything(none=True)),
        ),
        covers=(propstab.estimate,),
        options=True,
    ),
    # sampled pairs (pairs=) and the pair-memory budget
    Entry(
        "propstab.estimate(pairs)",
        lambda Z, **kw: propstab.estimate(Z, **{"measure": "jaccard", **kw}),
        lambda: {"Z": Z()},  # the other arguments: the entry above
        tuple(
            a for a in declared(propstab.estimate, cheap={"pairs": 10**4}) if a.name == "pairs"
        ),
        covers=(propstab.estimate,),
    ),
    Entry(
        "SampledPairsEstimate.confidence_interval",
        _method(_sampled_estimate, "confidence_interval"),
        lambda: {},
        (*CI_ARGS, Arg("target", Choice("population", "all pairs"))),
        covers=(propstab.SampledPairsEstimate.confidence_interval,),
    ),
    Entry(
        "SampledPairsEstimate.summary",
        _method(_sampled_estimate, "summary"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.SampledPairsEstimate.summary,),
    ),
    Entry(
        "propstab.settings.set_pair_memory",
        _set_pair_memory_and_restore,
        lambda: {"memory": "64MiB"},
        declared(propstab.settings.set_pair_memory),
        covers=(propstab.settings.set_pair_memory,),
    ),
    Entry(
        "propstab.one_sample_test",
        lambda Z, phi0, **kw: propstab.one_sample_test(Z, phi0, **kw),
        lambda: {"Z": Z(), "phi0": 0.1},
        (
            Arg("Z", Z_KIND),
            *declared(propstab.one_sample_test),
            Arg("feature_names", Anything(none=True)),
        ),
        covers=(propstab.one_sample_test,),
        options=True,
    ),
    Entry(
        "propstab.two_sample_test",
        lambda Z1, Z2, **kw: propstab.two_sample_test(Z1, Z2, **kw),
        lambda: {"Z1": Z(), "Z2": Z_other()},
        (
            Arg("Z1", Z_KIND),
            Arg("Z2", Z_KIND),
            *declared(propstab.two_sample_test, cheap={"n_resamples": 2000}),
            Arg("feature_names", Anything(none=True)),
        ),
        covers=(propstab.two_sample_test,),
        options=True,
    ),
    Entry(
        "propstab.testing.assert_stable",
        _decided(testing.assert_stable),
        lambda: {"Z_or_result": Z(), "at_least": 0.1},
        (
            Arg("Z_or_result", Z_KIND),
            Arg("at_least", Real()),
            Arg("confidence_level", Real(0.5, 1.0, low_open=True, high_open=True)),
            Arg("measure", MEASURE),
        ),
        covers=(testing.assert_stable,),
        options=True,
    ),
    Entry(
        "propstab.testing.assert_not_less_stable",
        _decided(testing.assert_not_less_stable),
        lambda: {"baseline": Z_other(), "current": Z(), "margin": 0.5},
        (
            Arg("baseline", Z_KIND),
            Arg("current", Z_KIND),
            Arg("margin", Real(0.0)),
            Arg("confidence_level", Real(0.5, 1.0, low_open=True, high_open=True)),
            Arg("strict", Bool()),
            Arg("paired", Bool(none=True)),
            Arg("measure", Choice(*MEASURE_NAMES, *ALIASES, none=True)),
            Arg("test", Choice("drop", "non-inferiority")),
        ),
        covers=(testing.assert_not_less_stable,),
        options=True,
    ),
    Entry(
        "propstab.pairwise_tests",
        lambda matrices, **kw: propstab.pairwise_tests(matrices, **kw),
        lambda: {"matrices": {"a": Z(), "b": Z_other()}},
        (
            Arg("matrices", Anything(invalid=(None, 5, "ab", {}, {"a": Z()}, [Z()]))),
            *declared(propstab.pairwise_tests, cheap={"n_resamples": 2000}),
            Arg("feature_names", Anything(none=True)),
        ),
        covers=(propstab.pairwise_tests,),
        options=True,
    ),
    Entry(
        "propstab.population_stability",
        propstab.population_stability,
        lambda: {"p": [0.9, 0.8, 0.2, 0.1]},
        (
            Arg(
                "p",
                Anything(
                    invalid=(None, [], [1.5, 0.2], [np.nan, 0.2], "ab", [[0.5]], [0.5 + 1j, 0.2])
                ),
            ),
        ),
        covers=(propstab.population_stability,),
    ),
    Entry(
        "propstab.resample",
        lambda selector, X, **kw: propstab.resample(selector, X, **kw),
        lambda: {"selector": first_two, "X": X(), "n_runs": 3, "random_state": 0},
        (
            Arg("selector", Anything(invalid=(None, 5, "lasso", [0, 1]))),
            Arg(
                "X",
                Anything(
                    invalid=(
                        None,
                        "X",
                        5,
                        np.zeros((0, 4)),
                        np.zeros(5),
                        np.zeros((3, 0)),
                        {"a": [1, 2]},
                    )
                ),
            ),
            Arg("y", Anything(none=True, invalid=(5, [1, 2], np.zeros(11)))),
            *(a for a in declared(propstab.resample, cheap={"n_runs": 6}) if a.name != "top_k"),
            Arg("scheme", Anything(invalid=("bagging", 5, None, "", ["bootstrap"]))),
            Arg("fraction", Real(0.0, 1.0, low_open=True, high_open=True, none=True)),
            Arg("stratify", Anything(none=True, invalid=(np.zeros(5), "y", 5))),
            Arg("top_k", Int(0, 4, none=True)),  # at most d (from X)
            Arg("scoring", Anything(none=True, invalid=(5, "no-such-scorer", ["r2"]))),
            Arg("downstream", Anything(none=True, invalid=(5, "ridge", True, [1], lasso))),
        ),
        covers=(propstab.resample,),
    ),
    Entry(
        "propstab.assess",
        lambda selector, X, **kw: propstab.assess(selector, X, **kw),
        lambda: {"selector": first_two, "X": X(), "n_runs": 3, "random_state": 0},
        (
            Arg("selector", Anything(invalid=(None, 5, {}, {"a": first_two}))),
            Arg("X", Anything(invalid=(None, "X", np.zeros((0, 4))))),
            *(
                a
                for a in declared(propstab.assess, cheap={"n_runs": 6, "max_runs": 40})
                if a.name not in ("measure_options", "top_k")
            ),
            Arg(
                "measure_options",
                Anything(none=True, invalid=([1, 2], "x", 5, {"foo": 1}, {1: 2})),
            ),
            Arg("downstream", Anything(none=True, invalid=(5, "ridge", True, [1], lasso))),
            Arg("scheme", Anything(invalid=("bagging", 5, None, "", ["bootstrap"]))),
            Arg("fraction", Real(0.0, 1.0, low_open=True, high_open=True, none=True)),
            Arg("stratify", Anything(none=True, invalid=(np.zeros(5), "y", 5))),
            Arg("scoring", Anything(none=True, invalid=(5, "no-such-scorer", ["r2"]))),
            Arg("top_k", Int(0, 4, none=True)),
        ),  # at most d (from X)
        covers=(propstab.assess,),
    ),
    Entry(
        "propstab.similarity_from_data",
        propstab.similarity_from_data,
        lambda: {"X": X()},
        (
            Arg(
                "X",
                Anything(
                    invalid=(
                        None,
                        "X",
                        np.zeros((1, 3)),
                        np.zeros(5),
                        [[1, np.nan], [2, 3]],
                        np.array([[1 + 1j, 2], [3, 4]]),
                    )
                ),
            ),
            *declared(propstab.similarity_from_data),
        ),
        covers=(propstab.similarity_from_data,),
    ),
    Entry(
        "propstab.similarity_from_groups",
        propstab.similarity_from_groups,
        lambda: {"groups": [[0, 1], [2, 3]], "n_features": 5},
        (
            Arg("groups", Anything(invalid=(None, 5, "ab", [[0, 9]], [[0.5]], [5]))),
            *declared(propstab.similarity_from_groups, cheap={"n_features": 10**4}),
            Arg("feature_names", Anything(none=True)),
        ),
        covers=(propstab.similarity_from_groups,),
    ),
    Entry(
        "propstab.StabilitySelection.fit",
        lambda X, y, **kw: StabilitySelection(**kw).fit(X, y),
        lambda: {
            "X": X(),
            "y": y(),
            "estimator": lasso(),
            "param_grid": [0.05, 0.2],
            "n_subsamples": 2,
            "PFER": None,
            "random_state": 0,
        },
        (
            Arg("estimator", Anything(invalid=(None, 5, "lasso", first_two))),
            Arg("param_name", Text(none=True)),
            Arg("param_grid", Anything(none=True, invalid=([], "x", [[0.1]], {"a": 1}))),
            *declared(StabilitySelection, cheap={"n_alphas": 50, "n_subsamples": 4}),
            Arg("pi_grid", Anything(none=True, invalid=([], "0.7", [[0.7]], [0.7, 1.5]))),
            Arg("X", Anything(invalid=(None, np.zeros((3, 4)), np.zeros(5)))),
            Arg("y", Anything(invalid=(None, np.zeros(3)))),
        ),
        covers=(StabilitySelection,),
        examples=10,
    ),
    Entry(
        "propstab.StabilitySelection.summary",
        _method(fitted_selection, "summary"),
        lambda: {},
        (),
        covers=(StabilitySelection.summary,),
    ),
    Entry(
        "propstab.StabilityGridSearch.fit",
        lambda X, y, **kw: propstab.StabilityGridSearch(**kw).fit(X, y),
        lambda: {
            "X": X(),
            "y": y(),
            "estimator": lasso(),
            "param_grid": {"alpha": [0.05, 0.2]},
            "n_runs": 3,
            "random_state": 0,
        },
        (
            *declared(propstab.StabilityGridSearch, cheap={"n_runs": 6}),
            Arg("measure", Anything(none=True, invalid=("no_such_measure", 5, "spearman"))),
            Arg("scheme", Anything(invalid=("no_such_scheme", 5, None))),
            Arg("top_k", Int(0, 4, none=True)),
            Arg("X", Anything(invalid=(None, np.zeros((3, 4)), np.zeros(5)))),
            Arg("y", Anything(invalid=(np.zeros(3),))),
        ),
        covers=(propstab.StabilityGridSearch,),
        examples=8,
    ),
    Entry(
        "propstab.StabilityGridSearch.plot",
        _method(fitted_search, "plot"),
        lambda: {},
        (Arg("ax", Anything(none=True, invalid=(5, "ax"))),),
        covers=(propstab.StabilityGridSearch.plot,),
        after=_close_figures,
    ),
    Entry(
        "propstab.StabilityGridSearch.summary",
        _method(fitted_search, "summary"),
        lambda: {},
        (),
        covers=(propstab.StabilityGridSearch.summary,),
    ),
    # the baseline audits FULLY DEFINED: a valid hostile ``measures`` (None: every
    # registered measure and variant) then runs the whole loop over the registry in 0.2 s,
    # where BOUNDS (its fixed evidence examples, whatever max_examples) took 6 to 10 s
    Entry(
        "propstab.audit",
        lambda **kw: propstab.audit(**kw),
        lambda: {"measures": "goh", "max_examples": 1, "axioms": ["fully_defined"]},
        (
            Arg("measures", Anything(none=True, invalid=(5, "no_such_measure", [5], {}))),
            *[
                a
                for a in declared(auditing.audit, cheap={"max_examples": 3})
                if a.name != "n_jobs"
            ],
            Arg("n_jobs", NJobs()),  # processes: None and 1 only (contract.NJobs)
            Arg("axioms", Anything(none=True, invalid=(5, ["x"], "x"))),
        ),
        covers=(propstab.audit, auditing.audit),
        examples=10,
    ),
    # ---- error control (its domain is fuzzed on its own in test_fuzz_inputs.py)
    Entry(
        "propstab.error_control.error_control",
        error_control,
        lambda: {"n_features": 100, "cutoff": 0.75, "q": 10},
        declared(error_control, cheap={"n_features": 10**7}),
        covers=(error_control, propstab.selection.error_control),
    ),
    # ---- calibrated stability selection (propstab.calibration)
    Entry(
        "propstab.stability_score",
        propstab.calibration.stability_score,
        lambda: {"frequencies": [0.9, 0.5, 0.0, 0.1], "n_runs": 20},
        declared(propstab.calibration.stability_score),
        covers=(propstab.calibration.stability_score,),
    ),
    Entry(
        "propstab.calibration.fdp_plus",
        propstab.calibration.fdp_plus,
        lambda: {"frequencies": [0.9, 0.5, 0.0], "artificial_frequencies": [0.4, 0.1]},
        declared(propstab.calibration.fdp_plus),
        covers=(propstab.calibration.fdp_plus,),
    ),
    # ---- inference results
    Entry(
        "StabilityEstimate.confidence_interval",
        _method(_estimate, "confidence_interval"),
        lambda: {"n_resamples": 100},
        (
            *CI_ARGS,
            Arg("method", Choice("auto", "wald", "logit", "bootstrap", "bca")),
            Arg("n_resamples", Int(100, 10**6, cheap=200)),
            Arg("random_state", Seed()),
        ),
        covers=(propstab.StabilityEstimate.confidence_interval,),
    ),
    Entry(
        "propstab.inference.halfwidth_curve",
        lambda Z, **kw: propstab.inference.halfwidth_curve(Z, **kw),
        lambda: {"Z": Z(), "n_runs": [10, 100]},
        (
            Arg("Z", Z_KIND),
            Arg("n_runs", Anything(invalid=(1, [1], [], "x", None, [2.5], -3))),
            *CI_ARGS,
            Arg("measure", MEASURE),
            Arg("method", Choice("auto", "jackknife")),
        ),
        covers=(propstab.inference.halfwidth_curve,),
    ),
    Entry(
        "propstab.inference.runs_needed",
        lambda Z, **kw: propstab.inference.runs_needed(Z, **kw),
        lambda: {"Z": Z(), "halfwidth": 0.1},
        (
            Arg("Z", Z_KIND),
            Arg("halfwidth", Real(0.0, low_open=True)),
            *CI_ARGS,
            Arg("measure", MEASURE),
            Arg("method", Choice("auto", "jackknife")),
        ),
        covers=(propstab.inference.runs_needed,),
    ),
    Entry(
        "StabilityEstimate.summary",
        _method(_estimate, "summary"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.StabilityEstimate.summary,),
    ),
    Entry(
        "OneSampleTestResult.confidence_interval",
        _method(_one_sample, "confidence_interval"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.inference.OneSampleTestResult.confidence_interval,),
    ),
    Entry(
        "OneSampleTestResult.summary",
        _method(_one_sample, "summary"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.inference.OneSampleTestResult.summary,),
    ),
    Entry(
        "TwoSampleTestResult.confidence_interval",
        _method(_two_sample, "confidence_interval"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.inference.TwoSampleTestResult.confidence_interval,),
    ),
    Entry(
        "TwoSampleTestResult.summary",
        _method(_two_sample, "summary"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.inference.TwoSampleTestResult.summary,),
    ),
    Entry(
        "PairwiseTestTable.summary",
        _method(_pairwise, "summary"),
        lambda: {},
        (),
        covers=(propstab.inference.PairwiseTestTable.summary,),
    ),
    # ---- resampling results
    Entry(
        "ResamplingResult.stability",
        _method(_resampled, "stability"),
        lambda: {},
        (Arg("measure", MEASURE),),
        options=True,
        covers=(propstab.resampling.ResamplingResult.stability,),
    ),
    Entry(
        "Assessment.confidence_interval",
        _method(_assessed, "confidence_interval"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.resampling.Assessment.confidence_interval,),
    ),
    Entry(
        "Assessment.summary",
        _method(_assessed, "summary"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.resampling.Assessment.summary,),
    ),
    Entry(
        "RankingAssessment.confidence_interval",
        _method(_rank_assessed, "confidence_interval"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.RankingAssessment.confidence_interval,),
    ),
    Entry(
        "RankingAssessment.summary",
        _method(_rank_assessed, "summary"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.RankingAssessment.summary,),
    ),
    Entry(
        "Comparison.summary",
        _method(_compared, "summary"),
        lambda: {},
        (*CI_ARGS, Arg("alpha", Real(0.0, 1.0, low_open=True, high_open=True))),
        covers=(propstab.resampling.Comparison.summary,),
        examples=10,
    ),
    Entry(
        "Comparison.to_frame",
        _method(_compared, "to_frame"),
        lambda: {},
        CI_ARGS,
        covers=(propstab.resampling.Comparison.to_frame,),
        examples=10,
    ),
    Entry(
        "propstab.resampling.pareto_front",
        lambda objectives: pareto_front(*objectives)
        if isinstance(objectives, tuple)
        else pareto_front(objectives),
        lambda: {"objectives": ([0.9, 0.8, 0.7], [0.5, 0.7, 0.6])},
        (Arg("objectives", Anything(invalid=((), ([1, 2], [1]), (["a", "b"],), ([[1, 2]],)))),),
        covers=(pareto_front,),
    ),
    Entry(
        "propstab.resampling.pareto_front(labels=)",
        lambda objectives, **kw: pareto_front(*objectives, **kw),
        lambda: {
            "objectives": ([0.9, float("nan"), 0.7], [0.5, 0.7, 0.6]),
            "labels": ["a", "b", "c"],
        },
        (Arg("labels", Anything(none=True, invalid=(["a"], "abc", 5))),),
    ),
    # ---- the audit's pieces
    Entry(
        "AuditTable.status",
        _method(_audit_table, "status"),
        lambda: {"measure": "goh", "axiom": "bounds"},
        (
            Arg("measure", Anything(invalid=("jaccard", 5, None))),
            Arg("axiom", Anything(invalid=("x", 5, None))),
        ),
        covers=(auditing.AuditTable.status,),
        examples=10,
    ),
    Entry(
        "AuditTable.result",
        _method(_audit_table, "result"),
        lambda: {"measure": "goh", "axiom": "bounds"},
        (
            Arg("measure", Anything(invalid=("jaccard", 5, None))),
            Arg("axiom", Anything(invalid=("x", 5, None))),
        ),
        covers=(auditing.AuditTable.result,),
        examples=10,
    ),
    Entry(
        "propstab.auditing.audited_subjects",
        auditing.audited_subjects,
        lambda: {"measures": "jaccard"},
        (Arg("measures", Anything(none=True, invalid=(5, "no_such", [5]))),),
        covers=(auditing.audited_subjects,),
    ),
    Entry(
        "propstab.auditing.subject",
        auditing.subject,
        lambda: {
            "measure": lambda Z: float(Z.mean()),
            "claims": ["bounds"],
            "lower": 0,
            "upper": 1,
        },
        (
            Arg("measure", Anything(invalid=(5, None, "no_such"))),
            Arg("claims", Anything(none=True, invalid=(["x"], 5, {"bounds": 1}))),
            Arg("lower", Anything(none=True, invalid=("x", [0]))),
            Arg("upper", Anything(none=True, invalid=("x", [1]))),
            Arg("orientation", Choice("higher", "lower", none=True)),
            Arg("domain", Choice("any", "constant_size", none=True)),
            Arg("null_value", Real(none=True)),
            Arg("pairwise", Bool(none=True)),
            Arg("symmetric", Bool(none=True)),
            Arg("options", Anything(none=True)),
        ),
        covers=(auditing.subject,),
    ),
    *(
        Entry(
            f"propstab.auditing.{check.__name__}",
            check,
            lambda: {"measure": "goh", "max_examples": 1},
            (
                Arg("measure", Anything(invalid=(5, None, "no_such"))),
                Arg("options", Anything(none=True, invalid=({"foo": 1}, 5))),
                Arg("claimed", Bool(none=True)),
                Arg("max_examples", Int(1, cheap=3)),
                Arg("random_state", Int(0)),
            ),
            covers=(check,),
            examples=6,
        )
        for check in (
            auditing.check_fully_defined,
            auditing.check_monotonicity,
            auditing.check_bounds,
            auditing.check_maximum,
            auditing.check_correction_for_chance,
        )
    ),
    Entry(
        "propstab.auditing.load_function",
        auditing.load_function,
        lambda: {"spec": f"{TESTS}/twins.py:twin_goh"},
        (
            Arg(
                "spec",
                Anything(
                    invalid=(
                        5,
                        None,
                        "",
                        "nofile.py:f",
                        "tests/twins.py",
                        "tests/twins.py:no_such",
                    )
                ),
                aliases=("target",),
            ),
        ),
        covers=(auditing.load_function,),
    ),
    # ---- strategies (Hypothesis's convention: arguments checked when the strategy is
    # first drawn from, InvalidArgument - a TypeError - naming the argument)
    *(
        Entry(
            f"propstab.strategies.{f.__name__}",
            _drawn(f),
            lambda: {},
            (
                Arg("min_runs", Int(1)),
                Arg("max_runs", Int(1, none=True)),
                Arg("min_features", Int(1)),
                Arg("max_features", Int(1, none=True)),
                Arg("subset_sizes", Anything()),
            ),
            covers=(f,),
        )
        for f in (
            strategies.null_configurations,
            strategies.selection_matrices,
            strategies.matrix_pairs,
            strategies.identical_rows,
            strategies.near_identical_rows,
        )
    ),
    Entry(
        "propstab.strategies.importance_weights",
        _drawn(strategies.importance_weights),
        lambda: {"n_runs": 3, "n_features": 4},
        (Arg("n_runs", Int(1)), Arg("n_features", Int(1)), Arg("equal", Bool())),
        covers=(strategies.importance_weights,),
    ),
    Entry(
        "propstab.strategies.similarity_matrices",
        _drawn(strategies.similarity_matrices),
        lambda: {"n_features": 4},
        (Arg("n_features", Int(1)), Arg("kinds", Anything(invalid=((), ("x",), 5, None)))),
        covers=(strategies.similarity_matrices,),
    ),
    Entry(
        "propstab.strategies.REPRODUCIBLE",
        strategies.REPRODUCIBLE,
        lambda: {"test": lambda: None},
        (Arg("test", Anything(invalid=(5, None, "x"))),),
        covers=(strategies.REPRODUCIBLE,),
    ),
    # ---- exact null expectations
    Entry(
        "propstab.chance.expected_pairwise",
        chance.expected_pairwise,
        lambda: {"score": lambda r, a, b, d: (2 * r, a + b), "row_sizes": [2, 2], "n_features": 4},
        (
            *declared(chance.expected_pairwise, cheap={"n_features": 10**4}),
            Arg("row_sizes", Anything(invalid=([], [5], [-1], [1.5], "ab", None, [[1]]))),
        ),
        covers=(chance.expected_pairwise,),
    ),
    Entry(
        "propstab.chance.degenerate_intersection",
        chance.degenerate_intersection,
        lambda: {"k_i": [0, 2, 4], "k_j": 2, "n_features": 4},
        (
            Arg("k_i", Anything(invalid=([5], [-1], [1.5], "ab", None, True))),
            Arg("k_j", Anything(invalid=(5, -1, 1.5, "ab", None, [2, 2]))),
            *declared(chance.degenerate_intersection, cheap={"n_features": 10**4}),
        ),
        covers=(chance.degenerate_intersection,),
    ),
    Entry(
        "propstab.strategies.matrix_from_rows",
        strategies.matrix_from_rows,
        lambda: {"rows": [[0, 1], [2]], "n_features": 4},
        (
            Arg("rows", Anything(invalid=(5, None, [[0, 9]], [[-1]], [[0.5]], "ab"))),
            Arg("n_features", Int(1, cheap=10**4)),
            Arg("base", Int(0)),
        ),
        covers=(strategies.matrix_from_rows,),
    ),
    Entry(
        "propstab.inference.varying_sizes_note",
        propstab.inference.varying_sizes_note,
        lambda: {"measure": "nogueira", "subset_sizes": [1, 9, 2, 8], "n_features": 10},
        (
            Arg("measure", Anything(invalid=(5, None, "no_such"))),
            Arg("subset_sizes", Anything(none=True, invalid=([5, 11], [-1, 2], [1.5, 2], "ab"))),
            Arg("n_features", Int(1, cheap=10**4)),
        ),
        covers=(propstab.inference.varying_sizes_note,),
    ),
    *(
        Entry(
            f"propstab.chance.{f.__name__}",
            f,
            lambda: {"row_sizes": [1, 2], "n_features": 4},
            (
                Arg("row_sizes", Anything(invalid=([], [5], [-1], [1.5], "ab", None, [[1]]))),
                *declared(f, cheap={"n_features": 10**4}),
            ),
            covers=(f,),
        )
        for f in (chance.column_count_pmf, chance.union_size_pmf, chance.nogueira_expectation)
    ),
    # ---- selector adapters
    Entry(
        "propstab.selectors.clone",
        selectors.clone,
        lambda: {"estimator": lasso()},
        (Arg("estimator", Anything()),),
        covers=(selectors.clone,),
        nan_ok=True,
    ),
    Entry(
        "propstab.selectors.is_estimator",
        selectors.is_estimator,
        lambda: {"selector": lasso()},
        (Arg("selector", Anything()),),
        covers=(selectors.is_estimator,),
    ),
    Entry(
        "propstab.selectors.importances_of",
        selectors.importances_of,
        lambda: {"estimator": lasso().fit(X(), y())},
        (Arg("estimator", Anything()),),
        covers=(selectors.importances_of,),
    ),
    Entry(
        "propstab.selectors.support_of",
        selectors.support_of,
        lambda: {"estimator": lasso().fit(X(), y()), "n_features": 4},
        (
            Arg("estimator", Anything(invalid=(5, None)), aliases=("selector",)),
            Arg("n_features", Int(1, cheap=10**6)),
            Arg("threshold", Real(none=True)),
            Arg("top_k", Int(0, none=True)),
        ),
        covers=(selectors.support_of,),
    ),
    Entry(
        "propstab.selectors.mask_from_output",
        selectors.mask_from_output,
        lambda: {"out": [0, 2], "n_features": 4},
        (
            Arg(
                "out",
                Anything(invalid=([5], [-1], [0.5], "ab", [[0]], [True], None, {0: 1})),
                aliases=("selector",),
            ),
            Arg("n_features", Int(1, cheap=10**6)),
        ),
        covers=(selectors.mask_from_output,),
    ),
    Entry(
        "propstab.selectors.fit_select",
        lambda selector, X, y, **kw: selectors.fit_select(selector, X, y, **kw),
        lambda: {"selector": lasso(), "X": X(), "y": y(), "n_features": 4},
        (
            Arg("selector", Anything(invalid=(5, None))),
            Arg("X", Anything()),
            Arg("y", Anything()),
            Arg("n_features", Int(1, cheap=10**6)),
            Arg("threshold", Real(none=True)),
            Arg("top_k", Int(0, none=True)),
        ),
        covers=(selectors.fit_select,),
    ),
    Entry(
        "propstab.selectors.fit_selector",
        selectors.fit_selector,
        lambda: {"selector": lasso(), "X": X(), "y": y()},
        (
            Arg("selector", Anything(invalid=(5, "lasso"))),
            Arg("X", Anything()),
            Arg("y", Anything(none=True)),
        ),
        covers=(selectors.fit_selector,),
    ),
    Entry(
        "propstab.selectors.read_selection",
        selectors.read_selection,
        lambda: {"selector": first_two, "fitted": [0, 1], "n_features": 4},
        (
            Arg("selector", Anything()),
            Arg("fitted", Anything(invalid=([5], [-1], [0.5], "ab", None)), aliases=("selector",)),
            *declared(selectors.read_selection, cheap={"n_features": 10**4}),
        ),
        covers=(selectors.read_selection,),
    ),
    Entry(
        "propstab.selectors.seeded",
        selectors.seeded,
        lambda: {"estimator": lasso(), "random_state": 3},
        (
            Arg("estimator", Anything(invalid=(None, 5, "lasso", first_two))),
            Arg("random_state", Int(0, 2**32 - 1)),
        ),
        covers=(selectors.seeded,),
    ),
    Entry(
        "propstab.selectors.run_seeds",
        selectors.run_seeds,
        lambda: {"root": np.random.SeedSequence(0), "start": 0, "stop": 3},
        (
            Arg("root", Anything(invalid=(None, 0, "x"))),
            Arg("start", Int(0, 3)),
            Arg("stop", Int(0, cheap=1000)),
        ),
        covers=(selectors.run_seeds,),
    ),
    Entry(
        "propstab.selectors.take",
        selectors.take,
        lambda: {"X": X(), "rows": [0, 2]},
        (Arg("X", Anything()), Arg("rows", Anything(invalid=([99], [0.5], "ab")))),
        covers=(selectors.take,),
    ),
    # ---- rankings
    Entry(
        "propstab.as_rankings",
        lambda R, **kw: propstab.as_rankings(R, **kw),
        lambda: {"R": R()},
        (
            Arg("R", R_KIND),
            Arg("kind", Choice("ranks", "scores")),
            Arg("top_k", Int(1, 4, none=True)),
            Arg("n_features", Int(1, none=True)),
            Arg("feature_names", Anything(none=True, invalid=(["a"], "abcd", 5))),
        ),
        covers=(propstab.as_rankings, propstab.Rankings),
        nan_ok=True,
    ),
    Entry(
        "propstab.selectors.mask_from_scores",
        selectors.mask_from_scores,
        lambda: {"scores": [0.5, 0.0, 2.0, 1.0], "n_features": 4},
        (
            Arg("scores", Anything(invalid=(None, "ab", [1.0], [[1.0] * 4], [np.inf] * 4))),
            Arg("n_features", Int(1, cheap=10**4)),
            Arg("threshold", Real(none=True)),
            Arg("top_k", Int(0, 4, none=True)),
        ),
        covers=(selectors.mask_from_scores,),
    ),
    Entry(
        "propstab.selectors.ranking_of",
        selectors.ranking_of,
        lambda: {"estimator": fitted_lasso()},
        (Arg("estimator", Anything(invalid=(None, 5, "lasso"))),),
        covers=(selectors.ranking_of,),
    ),
    Entry(
        "propstab.selectors.fit_rank",
        lambda selector, X, y, **kw: selectors.fit_rank(selector, X, y, **kw),
        lambda: {"selector": lasso(), "X": X(), "y": y(), "n_features": 4},
        (
            Arg("selector", Anything(invalid=(None, 5, "lasso"))),
            Arg("n_features", Int(1, cheap=10**4)),
            Arg("threshold", Real(none=True)),
            Arg("top_k", Int(0, 4, none=True)),
        ),
        covers=(selectors.fit_rank,),
    ),
    *(
        Entry(
            f"propstab.strategies.{f.__name__}",
            _drawn(f),
            lambda: {},
            (
                Arg("min_runs", Int(1)),
                Arg("max_runs", Int(1, none=True)),
                Arg("min_features", Int(2)),
                Arg("max_features", Int(2, none=True)),
                Arg("ties", Choice(*strategies.TIES)),
            ),
            covers=(f,),
        )
        for f in (
            strategies.rank_null_configurations,
            strategies.rank_matrices,
            strategies.rank_matrix_pairs,
            strategies.identical_rankings,
            strategies.near_identical_rankings,
        )
    ),
    Entry(
        "propstab.strategies.midranks_of_pattern",
        strategies.midranks_of_pattern,
        lambda: {"group_sizes": [1, 2, 1]},
        (Arg("group_sizes", Anything(invalid=(None, "ab", [0], [-1], [1.5], [], 5))),),
        covers=(strategies.midranks_of_pattern,),
    ),
    Entry(
        "propstab.plots.plot_rank_distributions",
        lambda R, **kw: plots.plot_rank_distributions(R, **kw),
        lambda: {"R": R()},
        (
            Arg("R", R_KIND),
            Arg("feature_names", Anything(none=True, invalid=(["a"], 5))),
            Arg("max_features", Int(1)),
            Arg("top_k", Int(1, 4, none=True)),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
        ),
        covers=(plots.plot_rank_distributions,),
        after=_close_figures,
    ),
    # ---- plots
    Entry(
        "propstab.plots.plot_stability_path",
        lambda selector, **kw: plots.plot_stability_path(selector, **kw),
        lambda: {"selector": fitted_selection()},
        (
            Arg("selector", Anything(invalid=(None, 5, StabilitySelection(lasso())))),
            Arg("feature_names", Anything(none=True, invalid=(["a"], "abcd", 5))),
            Arg("log_scale", Bool(none=True)),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
            Arg("max_labels", Int(0)),
        ),
        covers=(plots.plot_stability_path,),
        after=_close_figures,
        examples=10,
    ),
    Entry(
        "propstab.plots.plot_calibration",
        lambda selector, **kw: plots.plot_calibration(selector, **kw),
        lambda: {"selector": calibrated_selection()},
        (
            Arg(
                "selector",
                Anything(invalid=(None, 5, StabilitySelection(lasso()), fitted_selection())),
            ),
            Arg("log_scale", Bool(none=True)),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
        ),
        covers=(plots.plot_calibration,),
        after=_close_figures,
    ),
    Entry(
        "propstab.plots.plot_selection_frequencies",
        lambda frequencies, **kw: plots.plot_selection_frequencies(frequencies, **kw),
        lambda: {"frequencies": [0.1, 0.9, 0.5]},
        (
            Arg("frequencies", Anything(invalid=(None, [], [1.5], "ab", [[0.5]]))),
            Arg("feature_names", Anything(none=True, invalid=(["a"], "abc", 5))),
            Arg("cutoff", Real(0.0, 1.0, none=True)),
            Arg("sort", Bool()),
            Arg("max_features", Int(1)),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
        ),
        covers=(plots.plot_selection_frequencies,),
        after=_close_figures,
    ),
    Entry(
        "propstab.plots.plot_feature_stability_map",
        lambda Z, **kw: plots.plot_feature_stability_map(Z, **kw),
        lambda: {"Z": Z()},
        (
            Arg("Z", Z_KIND),
            *SEL_ARGS,
            Arg("similarity", Anything(none=True, invalid=(np.ones((3, 3)), "x"))),
            Arg("cluster", Bool()),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
        ),
        covers=(plots.plot_feature_stability_map,),
        after=_close_figures,
    ),
    Entry(
        "propstab.plots.plot_pareto_front",
        lambda score, stability, **kw: plots.plot_pareto_front(score, stability, **kw),
        lambda: {"score": [0.7, 0.8, 0.6], "stability": [0.9, 0.5, 0.4]},
        (
            Arg("score", Anything(invalid=(None, [1, 2], "abc", [[1, 2, 3]]))),
            Arg("stability", Anything(invalid=(None, [1, 2], "abc"))),
            Arg("labels", Anything(none=True, invalid=(["a"], 5))),
            Arg("stability_ci", Anything(none=True, invalid=([[0, 1]], "x", [[0, 1, 2]] * 3))),
            Arg("xlabel", Text()),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
        ),
        covers=(plots.plot_pareto_front,),
        after=_close_figures,
    ),
    Entry(
        "propstab.plots.plot_halfwidth",
        lambda Z, **kw: plots.plot_halfwidth(Z, **kw),
        lambda: {"Z": Z()},
        (
            Arg("Z", Z_KIND),
            Arg("measure", MEASURE),
            Arg("method", Choice("auto", "jackknife")),
            Arg("ci_method", Choice("auto", "wald", "logit", "bootstrap", "bca")),
            *CI_ARGS,
            Arg("start", Int(2, 4, none=True)),
            Arg("step", Int(1, cheap=5)),
            Arg("n_runs_max", Int(4, cheap=1000, none=True)),
            Arg("target_halfwidth", Real(0.0, low_open=True, none=True)),
            Arg("ax", Anything(none=True, invalid=(5, "ax"))),
        ),
        covers=(plots.plot_halfwidth,),
        after=_close_figures,
        examples=10,
    ),
    # ---- every registered measure, each with its own options
    *(_measure_entry(info) for info in propstab.list_measures()),
)


# ----------------------------------------------------------------------------------
# the tests


def _values(arg: Arg):
    """The explicit hostile values of an argument: contract.EXPLICIT and its kind's."""
    return list(EXPLICIT) + list(arg.kind.invalid)


def _names(entry: Entry):
    return [name for a in entry.args for name in (a.name, *a.aliases)]


def _try(entry: Entry, arg: Arg, value):
    """One case: the baseline with ``arg`` replaced by ``value``."""
    if arg.kind.expensive(value):
        return None
    kwargs = entry.base()
    kwargs[arg.name] = value
    invalid = any(value is v for v in arg.kind.invalid) or arg.kind.valid(value) is False
    try:
        return check_call(
            entry.call,
            kwargs,
            entry=entry.name,
            argument=arg.name,
            aliases=arg.aliases,
            argument_names=_names(entry),
            must_raise=invalid,
            nan_ok=entry.nan_ok,
        )
    finally:
        if entry.after:
            entry.after()


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_baseline_keeps_the_contract(entry):
    def baseline():
        outcome = check_call(entry.call, entry.base(), entry=entry.name)
        if entry.after:
            entry.after()
        assert not outcome.raised, f"{entry}: the baseline call raised {outcome.error!r}"

    _in_one_test_case(entry, baseline)


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_explicit_hostile_values(entry):
    def every_case():
        for arg in entry.args:
            for value in _values(arg):
                _try(entry, arg, value)

    _in_one_test_case(entry, every_case)


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_hypothesis_hostile_values(entry):
    if not entry.args:
        return

    @settings(max_examples=entry.examples or EXAMPLES, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        arg = data.draw(st.sampled_from(entry.args), label="argument")
        value = data.draw(arg.kind.strategy(), label=arg.name)
        with _drawing_from(data):  # a strategy's example: drawn from this data
            _try(entry, arg, value)

    run()


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_unknown_keyword_is_named(entry):
    for keyword in ("no_such_option", "nfeatures", "Measure"):
        kwargs = entry.base()
        kwargs[keyword] = 1
        outcome = check_call(
            entry.call, kwargs, entry=entry.name, argument=keyword, must_raise=True
        )
        assert isinstance(outcome.error, TypeError), outcome.error
        if entry.after:
            entry.after()


# ----------------------------------------------------------------------------------
# coverage of the public surface


SUBMODULES = (
    "measures",
    "inference",
    "auditing",
    "strategies",
    "chance",
    "resampling",
    "selection",
    "error_control",
    "selectors",
    "similarity",
    "plots",
    "calibration",
)
#: Public callables that take no argument a user could get wrong, or only build data
#: (dataclasses and warning classes), with the reason they are not in the table.
NOT_FUZZED = {
    "Axiom": "an Enum of the five axioms",
    "Bound": "a dataclass of a declared bound (register's input)",
    "MeasureInfo": "the registry's entry, built by register",
    "Parameter": "a dataclass of a measure's declared option (register's input)",
    "RDefault": "a dataclass of an R default (register's input)",
    "RReference": "a dataclass naming an R function (register's input)",
    "Selection": "built by as_selection, which is fuzzed",
    "PropstabWarning": "a warning class (the base of the others)",
    "UndefinedMeasureWarning": "a warning class",
    "CheckpointWarning": "a warning class",
    "InvalidParameterError": "the error class of invalid arguments",
    "measures": "the module; each measure is fuzzed",
    "AuditTable": "built by audit; its methods are fuzzed",
    "StabilityEstimate": "built by estimate; its methods are fuzzed",
    "crosscheck": "fuzzed with R in r_compat/test_fuzz_bridge.py",
    "ConfidenceInterval": "a NamedTuple",
    "OneSampleTestResult": "built by one_sample_test; its methods are fuzzed",
    "TwoSampleTestResult": "built by two_sample_test; its methods are fuzzed",
    "PairwiseTestTable": "built by pairwise_tests; its methods are fuzzed",
    "ZeroVarianceWarning": "a warning class",
    "DegenerateVarianceWarning": "a warning class",
    "SmallSampleWarning": "a warning class",
    "RankingAssessment": "built by assess(output='ranking'); its methods are fuzzed",
    "TIES": "data",
    "RankConfiguration": "a NamedTuple",
    "VaryingSizesWarning": "a warning class",
    "CheckResult": "a result dataclass",
    "Variant": "a dataclass of option values (VARIANTS)",
    "VARIANTS": "data",
    "NullConfiguration": "a NamedTuple",
    "Assessment": "built by assess; its methods are fuzzed",
    "Comparison": "built by assess; its methods are fuzzed",
    "FailedFitWarning": "a warning class",
    "UnscoredWarning": "a warning class",
    "ScoringFailedWarning": "a warning class",
    "HalfwidthNotReachedWarning": "a warning class",
    "ResamplingResult": "built by resample; its methods are fuzzed",
    "RunFailure": "a result dataclass",
    "ErrorControl": "built by error_control",
    "PFERExceededWarning": "a warning class",
    "LargePFERWarning": "a warning class",
    "PFERBoundWarning": "a warning class",
    "Calibration": "built by StabilitySelection(calibration=...)",
    "SHARP_PI_GRID": "data",
    "STABL_THRESHOLDS": "data",
    "cw_min": "fuzzed in tests/test_fuzz_inputs.py",
    "cw_max": "fuzzed in tests/test_fuzz_inputs.py",
    "SampledPairsEstimate": "built by estimate(pairs=...); its methods are fuzzed",
    "SampledPairsWarning": "a warning class",
    "ConstantFeatureWarning": "a warning class",
}


def _public():
    seen = {}
    for name in propstab.__all__:
        seen[name] = getattr(propstab, name)
    for module in SUBMODULES:
        mod = importlib.import_module(f"propstab.{module}")
        for name in getattr(mod, "__all__", ()):
            seen.setdefault(name, getattr(mod, name))
    return seen


def test_every_public_entry_point_is_fuzzed():
    covered = {id(obj) for e in ENTRIES for obj in e.covers if obj is not None}
    missing = [
        name
        for name, obj in _public().items()
        if name not in NOT_FUZZED and id(obj) not in covered and not (name in MEASURE_NAMES)
    ]
    assert not missing, f"public names not in the fuzz table: {missing}"
    assert set(NOT_FUZZED) <= set(_public()), set(NOT_FUZZED) - set(_public())
    assert {
        e.name.rsplit(".", 1)[-1] for e in ENTRIES if e.name.startswith("propstab.measures.")
    } == set(MEASURE_NAMES)


def teardown_module(module):
    path = os.environ.get("PROPSTAB_FUZZ_REPORT")
    if path:
        with open(path, "a") as f:
            for entry, count in sorted(contract.COUNTS.items()):
                f.write(json.dumps({"entry": entry, "cases": count}) + "\n")


# ----------------------------------------------------------------------------------
# declared rules (propstab._utils.params): the table reads them, and each one bites


def _declared_function(entry: Entry):
    return next((f for f in entry.covers if f is not None and parameter_constraints(f)), None)


DECLARED = tuple(e for e in ENTRIES if _declared_function(e) is not None)


def test_the_declared_entry_points_are_in_the_table():
    names = {_declared_function(e).__name__ for e in DECLARED}
    assert {
        "stability",
        "similarity_from_data",
        "similarity_from_groups",
        "error_control",
        "audit",
        "expected_pairwise",
        "degenerate_intersection",
        "column_count_pmf",
        "union_size_pmf",
        "nogueira_expectation",
        "estimate",
        "one_sample_test",
        "two_sample_test",
        "pairwise_tests",
        "resample",
        "assess",
        "StabilitySelection",
    } <= names


def _keeping_joint_rules(function, kwargs: dict, parameter: str) -> dict:
    """The baseline with ``parameter`` given (any value) and every rule between arguments
    that names it kept: another argument of the rule set to None where needed (PFER given
    for ``exactly two of cutoff, q and PFER``: q dropped)."""
    for key, rule in parameter_constraints(function).items():
        if not isinstance(key, tuple) or parameter not in key:
            continue
        given = {**kwargs, parameter: kwargs.get(parameter, 0.5) or 0.5}
        for candidate in [given] + [{**given, m: None} for m in key if m != parameter]:
            try:
                rule.check(key, candidate, "")
            except (ValueError, TypeError):
                continue
            kwargs = {k: v for k, v in candidate.items()}
            break
    return kwargs


@pytest.mark.parametrize("entry", DECLARED, ids=str)
def test_every_declared_rule_refuses_the_values_its_constraints_break(entry):
    """For every declared parameter, every constraint of its rule yields values that
    break the rule (from the constraint type itself); each raises InvalidParameterError
    naming the parameter and the function, before the function runs."""
    function = _declared_function(entry)
    for parameter, rule in parameter_constraints(function).items():
        if isinstance(parameter, tuple):  # a rule between arguments
            assert rule.invalid_values(), f"{entry}: {rule!r} gives no invalid combination"
            for combination in rule.invalid_values():
                kwargs = {**entry.base(), **combination}
                with pytest.raises(propstab.InvalidParameterError) as caught:
                    entry.call(**kwargs)
                assert caught.value.argument == ", ".join(parameter), str(caught.value)
                assert caught.value.function == function.__name__
            continue
        for constraint in (c for c in rule if c is not None):
            base = _keeping_joint_rules(function, entry.base(), parameter)
            values = [
                v
                for v in constraint.invalid_values(base)
                if v in invalid_values(rule, base)
                or any(v is w for w in invalid_values(rule, base))
            ]
            assert values, f"{entry}: {constraint!r} of {parameter} gives no invalid value"
            for value in values:
                kwargs = _keeping_joint_rules(function, entry.base(), parameter)
                kwargs[parameter] = value
                with pytest.raises(propstab.InvalidParameterError) as caught:
                    entry.call(**kwargs)
                error = caught.value
                assert error.argument == parameter, (entry, parameter, value, str(error))
                assert error.function == function.__name__, (entry, parameter, str(error))
                assert contract.names(str(error), parameter)
                assert str(error).endswith(f"(in {function.__name__})"), str(error)
                assert isinstance(error, ValueError) and isinstance(error, TypeError)
                assert error.kind in (ValueError, TypeError)
                if entry.after:
                    entry.after()
