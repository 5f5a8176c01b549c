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
OWN_UNIT = re.compile(
    r"^tests/test_docs_site\.py::test_every_page_fits_links_and_reads_for_users\["
)
#: Units sent after every other one: the browser audit's parts need the built site (the
#: first part to run would otherwise wait for the build, idle, on the other worker).
LAST = OWN_UNIT

#: Seconds of the longest units (their tests' sum in ``pytest -n 2 --junitxml`` on the idle
#: 2-core machine, 26 November 2026, after the suite's cuts of that day; only the order
#: matters, so rough numbers do). The browser audit's parts are units of their own, sent
#: LAST whatever their seconds.
SECONDS = {
    "tests/test_docs_site.py": 106,  # the site's build, then its checks
    "tests/test_rpackage_check.py": 90,  # R CMD check --as-cran, stabm's suite
    "r_compat/test_live_crosscheck.py": 54,
    "tests/test_fuzz_entry_points.py": 21,  # was 41; its tests 47.7 -> 23.2 s serial
    "tests/test_rankings_page.py": 35,  # the ranking example in full mode (M = 100)
    # the same checks as the site's catalogue and test_audit_correlated's table, each
    # computed once per run by whichever reaches it first (docs/_ext/shared_audit.py):
    # 40 s alone, next to nothing when the site's build has computed them
    "properties/test_axioms.py": 40,
    "r_compat/test_bridge_faults.py": 27,
    "tests/test_correlated.py": 20,
    "tests/test_chance.py": 12,  # was 18; 0/0 calls share the laws
    "tests/test_selection.py": 16,
    "tests/test_inference_study_quick.py": 15,
    "tests/test_audit_correlated.py": 14,
    "tests/test_intervals_study_quick.py": 7,  # was 13; row_weights by bincount
    "tests/test_ranking_inference_study_quick.py": 9,  # was 13; min_ranks vectorised
    "tests/test_examples_quick.py": 10,
    "tests/test_tuning.py": 6,  # was 8; the pareto search at 10 runs
    "tests/test_audit.py": 8,
    "tests/test_resampling.py": 8,
    "tests/test_bench_audit_quick.py": 7,
    "tests/test_results.py": 7,
    "tests/test_inference.py": 7,
    "tests/test_two_sample_tests.py": 4,  # was 7; the twin's null law once
    "tests/test_execution.py": 6,
    "tests/test_rpackage_docs.py": 6,
    "tests/test_bench_execution_quick.py": 6,
    "tests/test_small_m_study_quick.py": 6,
    "tests/test_fuzz_cli.py": 6,
    "tests/test_agree.py": 20,  # about 17 s of CPU, R and Perl included
    "tests/test_bench_memory_quick.py": 5,
}


class LongestFirstScheduling(LoadScopeScheduling):
    """``--dist loadscope`` with module units, a few split units, longest first."""

    def remove_node(self, node):
        """A worker gone: at the end of the run, or crashed (the suite's timeout ends a
        worker's process). xdist's loadscope puts the crashed worker's units back in the
        queue with the test that crashed it still pending, so a hanging test ran again on
        every replacement worker, up to xdist's restart limit (9 times 300 s); here that
        test is reported once, as xdist does, and its unit's other tests go to the next
        worker."""
        workload = self.assigned_work.pop(node)
        pending = [
            nodeid for unit in workload.values() for nodeid, done in unit.items() if not done
        ]
        if not pending:
            return None
        crashed = pending[0]
        for unit in workload.values():
            if crashed in unit:
                unit[crashed] = True  # reported, not sent again
        self.workqueue.update(
            (scope, unit) for scope, unit in workload.items() if not all(unit.values())
        )
        for other in self.assigned_work:
            self._reschedule(other)
        return crashed

    def _split_scope(self, nodeid):
        if OWN_UNIT.search(nodeid):
            return nodeid
        return nodeid.split("::", 1)[0]

    def schedule(self):
        if (
            self.collection is None
            and self.collection_is_completed
            and self._check_nodes_have_same_collection()
        ):
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
