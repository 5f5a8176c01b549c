"""Registry integrity: every measure is fully declared, and everything that reads
the registry (docs, docstrings, the R references) agrees with it."""
import doctest
import importlib.util
import inspect
import math
import os
import pathlib
import re

import numpy as np
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)

import propstab
from propstab import Axiom, get_measure, list_measures
from propstab.registry import Bound, RReference

ROOT = pathlib.Path(__file__).resolve().parents[1]
MEASURES = list_measures()
NAMES = [m.name for m in MEASURES]

# stabm 1.2.2 NAMESPACE: its exported stability functions (facts of the brief; checked
# against the installed NAMESPACE below when R's library is present).
STABM_FUNCTIONS = {
    f"stability{x}"
    for x in (
        "Davis",
        "Dice",
        "Hamming",
        "IntersectionCount",
        "IntersectionGreedy",
        "IntersectionMBM",
        "IntersectionMean",
        "Jaccard",
        "Kappa",
        "Lustgarten",
        "Nogueira",
        "Novovicova",
        "Ochiai",
        "Phi",
        "Sechidis",
        "Somol",
        "Unadjusted",
        "Wald",
        "Yu",
        "Zucknick",
    )
}
# stabm's measures that take no similarity matrix: each needs a propstab twin.
STABM_WITHOUT_SIMILARITY = {
    f"stability{x}"
    for x in (
        "Davis",
        "Dice",
        "Hamming",
        "Jaccard",
        "Kappa",
        "Lustgarten",
        "Nogueira",
        "Novovicova",
        "Ochiai",
        "Phi",
        "Somol",
        "Unadjusted",
        "Wald",
    )
}


def load_gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_registry_is_not_empty_and_families_partition_it():
    assert len(MEASURES) >= 22
    by_family = [
        m.name
        for f in ("pairwise", "frequency", "correlated", "ranking")
        for m in list_measures(family=f)
    ]
    assert sorted(by_family) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_axiom_is_decided(name):
    info = get_measure(name)
    assert set(info.claims) == set(Axiom)
    assert all(isinstance(v, bool) for v in info.claims.values())
    assert set(info.claimed_axioms) | set(info.disclaimed_axioms) == set(Axiom)


def test_names_and_aliases_are_unique():
    keys = NAMES + [a for m in MEASURES for a in m.aliases]
    assert len(keys) == len(set(keys))
    for m in MEASURES:
        assert re.fullmatch(r"[a-z][a-z_]*", m.name)
        for alias in m.aliases:
            assert get_measure(alias) is m


def test_alias_resolution():
    assert get_measure("gk").name == "jaccard"
    assert get_measure("somol").name == "cwrel"
    Z = [[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 0]]
    assert propstab.stability(Z, "gk") == propstab.stability(Z, "jaccard")
    assert propstab.stability(Z, "somol") == propstab.stability(Z, "cwrel")


@pytest.mark.parametrize("name", NAMES)
def test_declaration_is_complete_and_consistent(name):
    info = get_measure(name)
    assert info.summary.strip() and "\n" not in info.summary
    assert info.references and all(r.strip() for r in info.references)
    lo, hi = info.bounds
    assert isinstance(lo, Bound) and isinstance(hi, Bound) and lo.text and hi.text
    if lo.is_constant and hi.is_constant:
        assert lo.value <= hi.value
    # BOUNDS is claimed exactly when both declared bounds are finite constants
    finite = all(b.is_constant and math.isfinite(b.value) for b in info.bounds)
    assert info.claims[Axiom.BOUNDS] == finite
    # a measure claiming correction for chance declares its null value
    if info.claims[Axiom.CORRECTION_FOR_CHANCE]:
        assert info.null_value is not None
    assert info.orientation in ("higher", "lower") and info.domain in ("any", "constant_size")
    # the public function: Z positional-only, every option keyword-only, as declared
    assert getattr(propstab.measures, name) is info.function
    params = inspect.signature(info.function).parameters
    first = "R" if info.input == "ranking" else "Z"  # a rank matrix, or Z
    assert info.input == ("ranking" if info.family == "ranking" else "selection")
    assert list(params)[0] == first and params[first].kind is inspect.Parameter.POSITIONAL_ONLY
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(params.values())[1:])
    assert set(info.parameter_names) == set(params) - {first, "n_features", "feature_names"}
    for p in info.parameters:
        assert params[p.name].default == p.default and p.description


TWIN_FAMILIES = ("pairwise", "frequency")
NULL_DECLARED = [
    m.name for f in TWIN_FAMILIES for m in list_measures(family=f) if m.null_value is not None
]


def test_null_value_declared_exactly_when_correction_is_claimed():
    for info in MEASURES:
        claimed = info.claims[Axiom.CORRECTION_FOR_CHANCE]
        assert (info.null_value is not None) == claimed, info.name


@pytest.mark.parametrize("name", NULL_DECLARED)
def test_declared_null_value_matches_enumeration(name):
    """The declared null value is E[value | H0] (enumerated by the twins) for a
    constant subset size, and for varying sizes too where correction is claimed."""
    import twins  # tests/ is on sys.path (rootdir-relative import mode)

    info = get_measure(name)
    cases = [([k] * M, d) for M, d in ((2, 2), (2, 3), (3, 4)) for k in range(1, d)]
    if info.claims[Axiom.CORRECTION_FOR_CHANCE] and info.domain == "any":
        cases += [([1, 2], 3), ([1, 3], 4), ([2, 1, 3], 4)]
    for sizes, d in cases:
        E = twins.expected_measure(lambda Z: twins.twin(name, Z), sizes, d)
        assert E is not None and float(E) == pytest.approx(info.null_value, abs=1e-13), (sizes, d)


def test_non_constant_bounds_evaluate():
    for info in MEASURES:
        for b in info.bounds:
            if not b.is_constant:
                assert math.isfinite(b.evaluate(5, 10, np.full(5, 3)))
    assert get_measure("wald").bounds[0].evaluate(4, 10, np.full(4, 3)) == -9
    assert get_measure("krizek").bounds[1].evaluate(4, 10, np.full(4, 3)) == 2.0


@pytest.mark.parametrize("name", NAMES)
def test_docstring_examples_run_and_properties_table_is_generated(name):
    info = get_measure(name)
    doc = info.function.__doc__
    assert "Examples\n    --------" in doc and ">>>" in doc
    test = doctest.DocTestParser().get_doctest(doc, {}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted >= 1
    assert "Declared properties (generated from the registry)" in doc
    for axiom in Axiom:
        declared = "claimed" if info.claims[axiom] else "not claimed"
        assert re.search(rf"^\s*{re.escape(axiom.label)}\s+{declared}$", doc, re.M), axiom


#: R references outside stabm: irr's exact kappa (Conger 1980) on the ratings matrix.
IRR_REFERENCES = {"conger": ("irr", "kappam.fleiss", "ratings", {"exact": True})}


def test_r_references_name_existing_stabm_functions():
    refs = {
        m.name: m.r_reference
        for m in MEASURES
        if m.r_reference is not None and m.input == "selection"
    }
    assert refs
    for name, ref in list(refs.items()):
        assert isinstance(ref, RReference)
        assert set(ref.arguments) <= set(get_measure(name).parameter_names), name
        if name in IRR_REFERENCES:
            assert (ref.package, ref.function, ref.input, dict(ref.fixed)) == IRR_REFERENCES[name]
            del refs[name]
            continue
        assert ref.package == "stabm" and ref.function in STABM_FUNCTIONS, name
        assert ref.input == "stabm" and not ref.fixed, name
    # every stabm measure without a similarity matrix has exactly one propstab twin
    functions = [ref.function for ref in refs.values()]
    assert sorted(functions) == sorted(set(functions))
    assert STABM_WITHOUT_SIMILARITY <= set(functions)


def test_ranking_r_references_are_base_r_code():
    """The ranking family's R references are base R (stats::cor, stats::dist) on the rank
    matrix: an R function of R in ``r_code``, taking the R arguments the options map to."""
    ranking = list_measures("ranking")
    with_r = [m for m in ranking if m.r_reference is not None]
    assert {m.name for m in with_r} == {"spearman", "kendall", "canberra"}
    for m in with_r:
        ref = m.r_reference
        assert ref.input == "ranks" and ref.package == "stats", m.name
        assert ref.function in ("cor", "dist") and f"stats::{ref.function}(" in ref.r_code
        assert ref.r_code.startswith("function(R")
        assert set(ref.arguments) <= set(m.parameter_names), m.name
    assert all(
        m.r_reference is None or m.r_reference.input in ("stabm", "ratings")
        for m in MEASURES
        if m.input == "selection"
    )


def test_stabm_function_list_matches_the_installed_namespace():
    candidates = [
        pathlib.Path(p) / "stabm" / "NAMESPACE"
        for p in ("/usr/local/lib/R/site-library", "/usr/lib/R/site-library", "/usr/lib/R/library")
    ]
    found = [p for p in candidates if p.exists()]
    if not found:
        # as the live R suite (r_compat/conftest.py): fail unless R is opted out explicitly
        if os.environ.get("PROPSTAB_SKIP_R") == "1":
            pytest.skip("PROPSTAB_SKIP_R=1: R package stabm not checked")
        pytest.fail(
            "R package stabm is not installed (r_compat/install.R installs it); "
            "set PROPSTAB_SKIP_R=1 to skip",
            pytrace=False,
        )
    exported = set(re.findall(r"export\((stability\w+)\)", found[0].read_text()))
    assert exported == STABM_FUNCTIONS


def test_every_measure_is_in_the_generated_docs_table():
    """docs/measures.md is generated from the registry when the site is built
    (docs/conf.py, ``make docs``), never kept by hand: every measure has its row."""
    page = load_gen_docs().render_measures_markdown()
    for info in MEASURES:
        row = next(line for line in page.splitlines() if line.startswith(f"| `{info.name}` |"))
        from propstab.commands.measures import NO, YES

        cells = [c.strip() for c in row.strip("| ").split(" | ")]
        assert cells[2] == info.family, info.name
        assert cells[4:9] == [YES if info.claims[a] else NO for a in Axiom], info.name
    assert "docs/measures.md" in (ROOT / ".gitignore").read_text(encoding="utf-8")


def test_every_pairwise_and_frequency_measure_has_a_kernel():
    """The value and the jackknife's leave-one-out values come from one formula."""
    from propstab.measures.kernels import CountKernel, PairKernel
    from propstab.measures.rank_kernels import RankKernel

    sel = propstab.as_selection([[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0]])
    for family, kind in (("pairwise", PairKernel), ("frequency", CountKernel)):
        for info in list_measures(family):
            assert isinstance(info.kernel, kind), info.name
            assert info.kernel.leave_one_out(sel).shape == (3,), info.name
    rk = propstab.as_rankings([[1, 2, 3, 4], [2, 1, 4, 3], [1, 3, 2, 4]])
    for info in list_measures("ranking"):
        assert isinstance(info.kernel, RankKernel), info.name
        assert info.kernel.leave_one_out(rk).shape == (3,), info.name


def test_analytic_variance_and_scale_are_declared_by_their_rule():
    """Thm 6 applies to Nogueira's estimator and to Kuncheva's index, equal to it on its
    domain (thesis Thm 4); Conger's kappa has its own delta-method variance; the
    U-statistic variance applies to the ranking measures that are the mean of a pairwise
    correlation (Spearman, Kendall). Table 6.1 is a scale for kappa-like values of sets:
    those, and the set measures corrected for chance with null value 0 and maximum 1,
    higher more stable (not for correlations of rankings)."""
    from propstab.measures._variance import conger_delta, thm6
    from propstab.measures.references import TABLE_6_1

    analytic = {m.name for m in MEASURES if m.analytic_variance is not None}
    thesis = {"nogueira", "kuncheva"}
    assert analytic == thesis | {"conger", "spearman", "kendall"}
    assert all(get_measure(name).analytic_variance is thm6 for name in thesis)
    assert get_measure("conger").analytic_variance is conger_delta
    for name in ("spearman", "kendall"):
        assert get_measure(name).analytic_variance.source == "U-statistic, Hoeffding 1948"
    for info in MEASURES:
        hi = info.bounds[1]
        kappa_like = info.name in thesis or (
            info.input == "selection"
            and info.orientation == "higher"
            and info.null_value == 0.0
            and hi.is_constant
            and hi.value == 1.0
        )
        assert (info.scale == TABLE_6_1) == kappa_like, info.name
        assert info.scale in (None, TABLE_6_1), info.name


# ---------------------------------------------------------------- the contributor's API


def test_claims_decides_each_axiom_by_keyword():
    """propstab.registry.claims: five keywords, all required, booleans only; positional
    booleans (easy to misorder) are refused with the keyword they would have been."""
    from propstab.registry import claims

    c = claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=True,
    )
    assert c == {
        Axiom.FULLY_DEFINED: True,
        Axiom.MONOTONICITY: False,
        Axiom.BOUNDS: True,
        Axiom.MAXIMUM: False,
        Axiom.CORRECTION_FOR_CHANCE: True,
    }
    with pytest.raises(TypeError, match=r"^fully_defined: .*by keyword.*5 positional"):
        claims(True, True, True, True, False)
    with pytest.raises(TypeError, match=r"^maximum: .*missing maximum, correction_for_chance"):
        claims(fully_defined=True, monotonicity=True, bounds=True)
    with pytest.raises(TypeError, match=r"^bounds: must be True or False; got int 1"):
        claims(
            fully_defined=True,
            monotonicity=True,
            bounds=1,
            maximum=True,
            correction_for_chance=False,
        )
    with pytest.raises(TypeError, match=r"^monotonic: not an axiom"):
        claims(
            fully_defined=True,
            monotonic=True,
            bounds=True,
            maximum=True,
            correction_for_chance=False,
        )
    params = inspect.signature(claims).parameters
    assert list(params) == [a.name.lower() for a in Axiom]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())


def test_propstab_registry_is_the_home_of_the_declaration_api():
    """register, claims and the declaration types are public in propstab.registry; the
    old spellings (propstab.RReference, propstab.registry._registry.Bound) are the same objects."""
    import propstab.registry as registry
    from propstab.registry import _registry

    for name in registry.__all__:
        assert getattr(registry, name).__doc__, name
    for name in ("Bound", "MeasureInfo", "Parameter", "RDefault", "RReference"):
        assert getattr(propstab, name) is getattr(registry, name) is getattr(_registry, name)
    for name in (
        "Declaration",
        "Variant",
        "ExpectedDifference",
        "register",
        "get_measure",
        "list_measures",
        "module_doctests",
        "claims",
    ):
        assert getattr(_registry, name) is getattr(registry, name)
    assert registry.get_measure("nogueira").function is propstab.measures.nogueira


REGISTRY_MODULES = {
    "registry._declarations": "registry/_declarations.py",
    "registry._r_metadata": "registry/_r_metadata.py",
    "registry._measure_docs": "registry/_measure_docs.py",
    "registry._registry": "registry/_registry.py",
    "registry": "registry/__init__.py",
}


def _package_imports(path: str):
    """(imported propstab module without its ``propstab.``, imported names) of a
    propstab module's imports."""
    package = ROOT / "propstab"
    for source, names in shared.imports_of(package / path, package):
        yield source.partition("propstab.")[2], names


def test_the_registry_is_split_by_concern_without_cycles_or_private_imports():
    """Declarations, R metadata and docstring generation are modules of their own inside
    the registry package; they import one another in one direction only, and no name with
    a leading underscore crosses a module boundary."""
    graph = {}
    for module, path in REGISTRY_MODULES.items():
        imports = list(_package_imports(path))
        for source, names in imports:
            assert not [n for n in names if n.startswith("_")], (module, source, names)
        graph[module] = {
            source for source, _ in imports if source in REGISTRY_MODULES and source != module
        }
    graph["registry"] -= set(REGISTRY_MODULES)  # a package's front gathers its modules
    graph["registry"] |= {"registry._registry"}
    order = shared.import_order(graph)  # a topological order exists: no cycle
    assert (
        order.index("registry._declarations")
        < order.index("registry._registry")
        < order.index("registry")
    )
