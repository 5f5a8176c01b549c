"""The property suites need Hypothesis (a test dependency installed by scripts/setup.sh).

The slow literal twins of the measures live in ONE place, tests/twins.py: put tests/ on
sys.path so that the property suites import them too (``import twins``) when run alone.
"""
import pathlib
import sys

_TESTS = str(pathlib.Path(__file__).resolve().parents[1] / "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
#: The audit shared with the site's build (test_axioms.py): docs/_ext/shared_audit.py.
_DOCS_EXT = str(pathlib.Path(__file__).resolve().parents[1] / "docs" / "_ext")
if _DOCS_EXT not in sys.path:
    sys.path.insert(0, _DOCS_EXT)
