"""Errors of the R bridge a user can act on, and the conversions both ways.

The first tests need neither R nor rpy2 (they simulate their absence); the others
use the ``r_live`` fixture (they fail without R unless PROPSTAB_SKIP_R=1).
"""
import sys
import textwrap
import traceback

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

import shared  # tests/shared.py: processes under a timeout

import propstab
from propstab._utils.exceptions import RReferenceError, RUnavailableError
from propstab.r import _call

live = pytest.mark.usefixtures("r_live")


def _no_chain(exc):
    return exc.__cause__ is None and exc.__suppress_context__


def test_missing_rpy2_names_the_extra(monkeypatch):
    monkeypatch.setattr(_call, "_STATE", {})
    monkeypatch.setitem(sys.modules, "rpy2", None)  # import rpy2 -> ImportError
    with pytest.raises(ImportError, match=r"pip install propstab\[r\]") as info:
        propstab.r.call_reference("jaccard", [[1, 0], [0, 1]])
    assert _no_chain(info.value)


@pytest.mark.parametrize(
    "env", [{"R_HOME": "/nonexistent/R"}, {"PATH": "/nonexistent", "R_HOME": None}]
)
def test_missing_r_is_reported_before_r_aborts(env):
    # R itself aborts the process when its home is wrong; the bridge checks first
    import os

    environ = {k: v for k, v in os.environ.items() if k != "R_HOME"}
    environ.update({k: v for k, v in env.items() if v is not None})
    code = textwrap.dedent(
        """
        import propstab.r
        try:
            propstab.r.call_reference("jaccard", [[1, 0], [0, 1]])
        except propstab.r.RUnavailableError as exc:
            print("RUnavailableError:", exc, "| chained:", exc.__cause__ is not None)
    """
    )
    out = shared.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "RUnavailableError: R was not found" in out.stdout
    assert "| chained: False" in out.stdout


@live
def test_missing_r_package_names_the_install_command():
    with pytest.raises(RUnavailableError) as info:
        propstab.r.r_package("propstabNoSuchPackage")
    msg = str(info.value)
    assert "'propstabNoSuchPackage' is not installed" in msg
    assert "Rscript -e 'install.packages(\"propstabNoSuchPackage\")'" in msg
    assert info.value.package == "propstabNoSuchPackage"
    assert info.value.command == "Rscript -e 'install.packages(\"propstabNoSuchPackage\")'"
    assert isinstance(info.value, ImportError) and _no_chain(info.value)


@live
def test_r_error_carries_r_message_and_call_without_rpy2_traceback():
    feats = propstab.r.to_r_features([[1, 1, 0, 0], [1, 0, 0, 0]])
    with pytest.raises(RReferenceError) as info:
        propstab.r.call_r("stabm", "stabilityDavis", features=feats, p=4, penalty=-1)
    exc = info.value
    assert "Assertion on 'penalty' failed" in exc.r_message
    made = "stabm::stabilityDavis(features = <list of 2 IntVector>, p = 4, penalty = -1)"
    assert made in str(exc)
    assert exc.r_message in str(exc) and "the R call that failed:" in str(exc)
    assert _no_chain(exc)
    shown = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    assert "/rpy2/" not in shown and "RRuntimeError" not in shown  # no rpy2 frames


@live
def test_r_warnings_become_python_warnings():
    with pytest.warns(propstab.r.RWarning, match="base::warning: R warning: careful") as got:
        propstab.r.call_r("base", "warning", "careful")
    # a propstab warning (so one filter on PropstabWarning covers it) and still a
    # RuntimeWarning, as before it had a name of its own
    assert [type(w.message) for w in got] == [propstab.r.RWarning]
    assert issubclass(propstab.r.RWarning, propstab.PropstabWarning)
    assert issubclass(propstab.r.RWarning, RuntimeWarning)


@live
def test_call_reference_rejects_what_it_cannot_translate():
    with pytest.raises(ValueError, match="'goh' has no R reference"):
        propstab.r.call_reference("goh", [[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="random_state: .* no counterpart"):
        propstab.r.call_reference("yu", [[1, 0], [0, 1]], similarity=np.eye(2), random_state=3)


@live
def test_call_reference_maps_na_and_nan_to_nan():
    assert np.isnan(propstab.r.call_reference("jaccard", [[0, 0], [0, 0]]))  # NA
    assert np.isnan(propstab.r.call_reference("wald", [[1, 1], [1, 0]]))  # NaN
    assert propstab.r.call_reference("dice", [[1, 1, 0], [1, 0, 1]]) == 0.5


@live
def test_selection_round_trip_keeps_feature_names():
    ro = propstab.r.robjects()
    Z = pd.DataFrame([[1, 0, 1], [0, 1, 1]], columns=["g1", "g2", "g3"])
    named = propstab.r.to_r_features(Z, use_names=True)
    assert [list(v) for v in named] == [["g1", "g3"], ["g2", "g3"]]
    back = propstab.r.from_r_selection(named, feature_names=["g1", "g2", "g3"])
    np.testing.assert_array_equal(back.toarray(), Z.to_numpy().astype(bool))
    m = propstab.r.to_r_matrix(Z)
    assert list(ro.r["colnames"](m)) == ["g1", "g2", "g3"]
    sel = propstab.r.from_r_selection(m)
    assert sel.feature_names == ("g1", "g2", "g3")
    np.testing.assert_array_equal(sel.toarray(), Z.to_numpy().astype(bool))
    idx = propstab.r.from_r_selection(
        ro.r("list(c(1, 3), 2L, integer(0))"), n_features=3, feature_names=["a", "b", "c"]
    )
    assert idx.feature_names == ("a", "b", "c")
    assert idx.toarray().astype(int).tolist() == [[1, 0, 1], [0, 1, 0], [0, 0, 0]]
    ratings = propstab.r.to_r_matrix(Z, transpose=True)
    assert list(ro.r["dim"](ratings)) == [3, 2]
    assert list(ro.r["rownames"](ratings)) == ["g1", "g2", "g3"]
    with pytest.raises(ValueError, match="use_names: True needs feature names"):
        propstab.r.to_r_features([[1, 0], [0, 1]], use_names=True)


@live
@pytest.mark.parametrize(
    "code,match",
    [
        ("list(c(0, 2), 1L)", "R feature indices are 1-based, in 1..3"),
        ("list(c(1.5, 2), 1L)", "must be whole numbers"),
        ("list(c(1, 4), 1L)", "feature index 4; R feature indices are 1-based"),
    ],
)
def test_from_r_selection_validates_indices(code, match):
    ro = propstab.r.robjects()
    with pytest.raises(ValueError, match=match):
        propstab.r.from_r_selection(ro.r(code), n_features=3)


@live
def test_from_r_selection_needs_p_or_names():
    ro = propstab.r.robjects()
    with pytest.raises(ValueError, match="n_features: required"):
        propstab.r.from_r_selection(ro.r("list(1L, 2L)"))
    with pytest.raises(ValueError, match="feature_names: required"):
        propstab.r.from_r_selection(ro.r("list('a', 'b')"))
    with pytest.raises(TypeError, match="must be an R list of feature vectors"):
        propstab.r.from_r_selection(ro.r("1:3"))


@live
def test_similarity_conversion_dense_and_sparse():
    ro = propstab.r.robjects()
    C = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.25], [0.0, 0.25, 1.0]])
    dense = propstab.r.to_r_similarity(C, feature_names=["a", "b", "c"])
    np.testing.assert_array_equal(np.asarray(dense), C)
    assert list(ro.r["colnames"](dense)) == ["a", "b", "c"]
    S = sparse.csr_matrix(np.triu(C, 1) + np.triu(C, 1).T)  # diagonal not stored
    R = propstab.r.to_r_similarity(S)
    assert list(R.rclass) == ["dsCMatrix"]
    np.testing.assert_array_equal(
        np.asarray(ro.r["as.matrix"](R)), np.triu(C, 1) + np.triu(C, 1).T
    )
    stored = ro.r("function(S) Matrix::diag(S)")(R)
    assert list(stored) == [0.0, 0.0, 0.0]  # stored explicitly, as given
    assert list(ro.r("function(S) length(S@x)")(R)) == [5]  # 2 off-diagonal + 3 diagonal
    frame = propstab.r.to_r_similarity(pd.DataFrame(C, columns=["x", "y", "z"]))
    assert list(ro.r["rownames"](frame)) == ["x", "y", "z"]
    with pytest.raises(ValueError, match="square"):
        propstab.r.to_r_similarity(np.ones((2, 3)))
