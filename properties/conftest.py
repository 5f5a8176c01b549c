"""The property suites need Hypothesis (a test dependency installed by scripts/setup.sh)."""
