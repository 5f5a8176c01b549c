# The two commands of the README. Both run the idempotent set-up first.
PYTHON := /usr/bin/python3

.PHONY: setup run test bench docs
setup:
	bash scripts/setup.sh

# The main job: the axiom audit of every registered measure (the checked Table 4.1).
run: setup
	propstab audit

# The whole test suite (unit, paper values, doctests, properties, live R cross-checks).
test: setup
	$(PYTHON) -m pytest

# Speed against floors, R and peers (prints ratios; minutes).
bench: setup
	$(PYTHON) benchmarks/bench_measures.py
	$(PYTHON) benchmarks/bench_msi.py
	$(PYTHON) benchmarks/bench_resampling.py

# Regenerate docs/measures.md from the registry.
docs: setup
	$(PYTHON) scripts/gen_docs.py
