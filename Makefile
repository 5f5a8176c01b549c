# The two commands of the README. Both run the idempotent set-up first.
PYTHON := /usr/bin/python3

.PHONY: setup run test bench docs rdoc
setup:
	bash scripts/setup.sh

# The main job: the axiom audit of every registered measure (the checked Table 4.1).
run: setup
	propstab audit

# The whole test suite (unit, paper values, doctests, properties, live R cross-checks),
# then the R package's testthat suite against the installed R package.
test: setup
	$(PYTHON) -m pytest -n 2
	@if [ "$$PROPSTAB_SKIP_R" = "1" ]; then echo "PROPSTAB_SKIP_R=1: the R package's tests skipped"; \
	else Rscript -e 'testthat::test_dir("rpackage/tests/testthat", package = "propstab", load_package = "installed", reporter = "summary", stop_on_failure = TRUE)'; fi

# Speed against floors, R and peers (prints ratios; minutes).
bench: setup
	$(PYTHON) benchmarks/bench_measures.py
	$(PYTHON) benchmarks/bench_msi.py
	$(PYTHON) benchmarks/bench_resampling.py

# Regenerate docs/measures.md from the registry.
docs: setup
	$(PYTHON) scripts/gen_docs.py

# Regenerate the R package's Rd files and NAMESPACE from its roxygen comments.
rdoc: setup
	Rscript -e 'roxygen2::roxygenise("rpackage")'
