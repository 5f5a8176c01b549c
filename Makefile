# The two commands of the README. Both run the idempotent set-up first.
PYTHON := /usr/bin/python3

.PHONY: setup run test bench
setup:
	bash scripts/setup.sh

# The main job: the table of every registered measure with its declared axioms.
run: setup
	propstab measures

# The whole test suite (unit, paper values, doctests, properties, live R cross-checks).
test: setup
	$(PYTHON) -m pytest

bench: setup
	$(PYTHON) benchmarks/bench_measures.py
