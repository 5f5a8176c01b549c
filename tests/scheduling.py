"""How ``pytest -n 2`` (``make test``) shares the suite between its workers.

pytest-xdist's default ``load`` scheduling sends each worker a quarter of the collection
at the start and then chunks in collection order: the long tests land wherever their
chunk does, often late and together on one worker, and a module-scoped fixture (a study's
quick run) is computed twice when its module's tests are split between the workers. The
scheduler here (chosen by the root ``conftest.py`` for ``--dist load``, the default of
``-n``) hands out *units* instead, one at a time, to whichever worker is nearly idle:

- a unit is a test module (its module-scoped fixtures are computed once), except for the
  tests named in :data:`OWN_UNIT`, each its own unit (parts of a long check that both
  workers should share);
- units go out longest first (their last measured seconds, :data:`SECONDS`; unlisted
  units are short and follow in collection order), so the long ones start early and the
  many short ones fill the gaps at the end; the units of :data:`LAST` go out last (they
  wait for something a long unit builds: the documentation site).

Nothing is left out or run twice: every collected test belongs to exactly one unit.
"""
from __future__ import annotations

import collections
import re

from xdist.scheduler.loadscope import LoadScopeScheduling

#: Tests that are units of their own (a pattern on the node id).
OWN_UNIT = re.compile(r"^tests/test_docs_site\.py::test_every_page_fits_links_and_reads_for_users\[")
#: Units sent after every other one: the browser audit's parts need the built site (the
#: first part to run would otherwise wait for the build, idle, on the other worker).
LAST = OWN_UNIT

#: Seconds of the longest units (their tests' sum in ``pytest -n 2 --durations=80`` on
#: the shared, loaded 2-core machine, November 2026: about three times the idle times;
#: only the order matters, so rough numbers do).
SECONDS = {
    "tests/test_rpackage_check.py": 400,             # R CMD check --as-cran, stabm's suite
    "tests/test_docs_site.py": 200,                  # the site's build (the pages' audit: LAST)
    # the same checks as the site's catalogue, each computed once by either of them
    # (docs/_ext/shared_audit.py): kept next to the site, so that the two share the work
    "properties/test_axioms.py": 190,
    "r_compat/test_live_crosscheck.py": 180,
    "tests/test_examples_quick.py": 95,
    "tests/test_ranking_inference_study_quick.py": 73,
    "tests/test_selection.py": 105,
    "tests/test_fuzz_entry_points.py": 70,           # w21p: CPU 86 s to 50-58 s loaded
    "r_compat/test_bridge_faults.py": 75,
    "tests/test_results.py": 30,                     # w21p: the comparison on 190 rows
    "tests/test_fuzz_cli.py": 46,
    "tests/test_correlated.py": 80,                  # w21p: idle 35 s, CPU 35 to 26 s
    "tests/test_chance.py": 50,                      # w21p: idle 17 s
    "tests/test_inference.py": 35,                   # w21p: idle 12.5 s
    "tests/test_execution.py": 41,
    "tests/test_inference_study_quick.py": 24,
    "tests/test_sampled_pairs.py": 16,
    "tests/test_rpackage_docs.py": 26,
    "tests/test_audit_correlated.py": 25,
    "tests/test_tuning.py": 23,
    "tests/test_small_m_study_quick.py": 17,
    "tests/test_two_sample_tests.py": 15,            # w21p: CPU 19 s to 9.5 s loaded
    "tests/test_bench_memory_quick.py": 7,
    "tests/test_resampling.py": 13,
    "tests/test_testing.py": 12,
    "tests/test_intervals_study_quick.py": 11,
    "r_compat/test_rankings_r.py": 10,
    "tests/test_bench_execution_quick.py": 8,
    "r_compat/test_bridge_errors.py": 7,
}


class LongestFirstScheduling(LoadScopeScheduling):
    """``--dist loadscope`` with module units, a few split units, longest first."""

    def _split_scope(self, nodeid):
        if OWN_UNIT.search(nodeid):
            return nodeid
        return nodeid.split("::", 1)[0]

    def schedule(self):
        if self.collection is None and self.collection_is_completed and \
                self._check_nodes_have_same_collection():
            collection = list(next(iter(self.registered_collections.values())))
            units = collections.OrderedDict()
            for nodeid in collection:
                units.setdefault(self._split_scope(nodeid), []).append(nodeid)
            position = {scope: i for i, scope in enumerate(units)}

            def key(scope):
                return (bool(LAST.search(scope)), -SECONDS.get(scope, 0), position[scope])

            # the parent builds its work queue in collection order: give it the units'
            # order by building the queue here, then let it assign the first units
            for scope in sorted(units, key=key):
                work_unit = self.workqueue.setdefault(scope, collections.OrderedDict())
                for nodeid in units[scope]:
                    work_unit[nodeid] = False
        return super().schedule()
