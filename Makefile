# The two commands of the README. Both run the idempotent set-up first.
PYTHON := /usr/bin/python3

.PHONY: setup run test lint bench docs docs-html rsite docstrings rdoc rcheck rbench
setup:
	bash scripts/setup.sh

# The main job: the axiom audit of every registered measure (the checked Table 4.1).
run: setup
	propstab audit

# The whole test suite (unit, paper values, doctests, properties, live R cross-checks).
# The R package's testthat suite runs inside it, once: R CMD check runs it
# (tests/test_rpackage_check.py, which also requires its FAIL 0 and its count of passed
# expectations), in parallel with the Python tests instead of after them.
test: setup
	$(PYTHON) -m pytest -n 2

# Formatting and lint: black (line length 99, pyproject.toml) and flake8 (setup.cfg) over
# every Python file of the project; tests/test_lint.py runs this inside `make test`.
LINT_PATHS := propstab tests properties scripts benchmarks studies examples r_compat \
	conftest.py docs/conf.py docs/_ext docs/gallery
lint:
	black --check $(LINT_PATHS) || { echo "lint: to format them: black $(LINT_PATHS)"; exit 1; }
	flake8 $(LINT_PATHS)

# Speed against floors, R and peers (prints ratios; minutes).
bench: setup
	$(PYTHON) benchmarks/bench_measures.py
	$(PYTHON) benchmarks/bench_msi.py
	$(PYTHON) benchmarks/bench_resampling.py
	$(PYTHON) benchmarks/bench_memory.py --growth
	$(PYTHON) benchmarks/bench_audit.py

# The documentation site, into docs/_build/html: docs/measures.md regenerated from the
# registry, then Sphinx with warnings as errors (broken references, numpydoc validation,
# failed gallery examples). A few minutes on 2 cores: the gallery runs its examples
# (small versions of the evidence scripts) and the measure catalogue audits every measure (both
# cached by content in docs/_build for the next build).
docs: setup
	$(PYTHON) scripts/gen_docs.py
	$(MAKE) --no-print-directory docs-html

# The Sphinx build alone, without the set-up (tests/test_docs_site.py runs this); the
# previous HTML goes first, so that no page of an older build survives.
docs-html:
	rm -rf docs/api/generated docs/_build/html
	$(PYTHON) -m sphinx -W --keep-going -E -b html -d docs/_build/doctrees docs docs/_build/html

# The R package's reference site alone (pkgdown: a page per help topic with its examples
# run, "Get started", NEWS, citation), into docs/_build/r-site/r; the Sphinx build runs
# this too and copies it into docs/_build/html/r/. Skipped while rpackage/ is unchanged.
rsite:
	$(PYTHON) scripts/build_r_site.py

# Public names whose docstrings lack a section of the standard (the
# test suite fails on any: tests/test_docs_site.py).
docstrings:
	$(PYTHON) scripts/check_docstrings.py

# Regenerate the R package's Rd files and NAMESPACE from its roxygen comments.
rdoc: setup
	Rscript -e 'roxygen2::roxygenise("rpackage")'


# R CMD check --as-cran of the R package, with a summary, then again with the Python side
# hidden, as on CRAN's machines (minutes; make test runs both as
# tests/test_rpackage_check.py, with stabm's own suite run against propstab's functions).
rcheck: setup
	bash scripts/r_check.sh --also-without-python

# The cost of a small call from R against stabm's (ratios; a minute).
rbench: setup
	Rscript benchmarks/bench_r_overhead.R rpackage
