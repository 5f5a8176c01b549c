"""Fixtures shared by the test files: the real data sets of tests/shared.py (plain
helpers, importable as ``from shared import ...``)."""
import pytest

import shared


@pytest.fixture
def breast_cancer():
    """scikit-learn's breast cancer data as a DataFrame and a Series."""
    return shared.breast_cancer(as_frame=True)


@pytest.fixture
def diabetes():
    """scikit-learn's diabetes data as a DataFrame and a Series."""
    return shared.diabetes(as_frame=True)
