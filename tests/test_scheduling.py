"""tests/scheduling.py, the scheduler of ``pytest -n 2``: driven here with two simulated
workers, it runs every test exactly once, keeps a module's tests on one worker, sends the
longest known units first and the site audit's parts last."""
import types

import pytest

pytest.importorskip("xdist")
import scheduling  # tests/scheduling.py (tests/ is on sys.path)


class Worker:
    def __init__(self, name):
        self.name, self.shutting_down, self.sent = name, False, []
        self.gateway = types.SimpleNamespace(id=name)

    def send_runtest_some(self, indexes):
        self.sent.extend(indexes)

    def shutdown(self):
        self.shutting_down = True


COLLECTION = [
    "tests/test_a.py::test_1",
    "tests/test_a.py::test_2",
    "tests/test_a.py::test_3",
    "tests/test_docs_site.py::test_page_examples_run[x.md]",
    "tests/test_docs_site.py::test_every_page_fits_links_and_reads_for_users[0]",
    "tests/test_docs_site.py::test_every_page_fits_links_and_reads_for_users[1]",
    "tests/test_docs_site.py::test_site_renders_in_chromium",
    "tests/test_b.py::test_1",
    "properties/test_axioms.py::test_axiom[jaccard-bounds]",
    "properties/test_axioms.py::test_axiom[dice-bounds]",
    "tests/test_rpackage_check.py::test_r_cmd_check_as_cran_has_no_error_or_warning",
    "propstab/measures/_x.py::propstab.measures._x.f",
]


def _run():
    config = types.SimpleNamespace(getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    sched = scheduling.LongestFirstScheduling(config, None)
    workers = [Worker("gw0"), Worker("gw1")]
    for w in workers:
        sched.add_node(w)
        sched.add_node_collection(w, list(COLLECTION))
    sched.schedule()
    order = list(sched.workqueue)  # the units not yet sent, in order
    done = {w.name: [] for w in workers}
    while any(len(done[w.name]) < len(w.sent) for w in workers):
        for w in workers:  # each worker finishes one test
            if len(done[w.name]) < len(w.sent):
                index = w.sent[len(done[w.name])]
                done[w.name].append(COLLECTION[index])
                sched.mark_test_complete(w, index)
    return order, done


def test_every_test_runs_once_and_a_module_stays_on_one_worker():
    _, done = _run()
    ran = done["gw0"] + done["gw1"]
    assert sorted(ran) == sorted(COLLECTION)
    for module in ("tests/test_a.py", "properties/test_axioms.py"):
        on = {name for name, tests in done.items() if any(t.startswith(module) for t in tests)}
        assert len(on) == 1, (module, done)
    # the longest units start first, one on each worker
    assert {done["gw0"][0], done["gw1"][0]} == {
        "tests/test_rpackage_check.py::test_r_cmd_check_as_cran_has_no_error_or_warning",
        "tests/test_docs_site.py::test_page_examples_run[x.md]",
    }


def test_a_test_that_crashes_its_worker_is_reported_once_and_not_run_again():
    """The suite's timeout ends a hanging test's worker: that test is the crash item,
    its module's other tests go to a replacement worker, and it is not sent again (xdist's
    loadscope sent it to every replacement, each stopped again at the timeout)."""
    config = types.SimpleNamespace(getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    sched = scheduling.LongestFirstScheduling(config, None)
    workers = [Worker("gw0"), Worker("gw1")]
    for w in workers:
        sched.add_node(w)
        sched.add_node_collection(w, list(COLLECTION))
    sched.schedule()
    hung = next(
        w for w in workers if any(COLLECTION[i].startswith("tests/test_rpackage") for i in w.sent)
    )
    [first] = [i for i in hung.sent if COLLECTION[i].startswith("tests/test_rpackage")]
    crashed = sched.remove_node(hung)  # the worker's process ended mid-test
    assert crashed == COLLECTION[first]
    replacement = Worker("gw2")
    sched.add_node(replacement)
    sched.add_node_collection(replacement, list(COLLECTION))
    others = [w for w in workers if w is not hung] + [replacement]
    ran = []  # it hung on its first test
    while any(w.sent for w in others):
        for w in others:
            if w.sent:
                index = w.sent.pop(0)
                ran.append(COLLECTION[index])
                sched.mark_test_complete(w, index)
    assert crashed not in ran  # not run again
    assert sorted(ran + [crashed]) == sorted(COLLECTION)


def test_units_go_longest_first_and_the_audit_parts_last():
    config = types.SimpleNamespace(getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    sched = scheduling.LongestFirstScheduling(config, None)
    units = [sched._split_scope(n) for n in COLLECTION]
    assert units.count("tests/test_docs_site.py") == 2  # the parts are units
    assert len(set(units)) == 8
    order, _ = _run()
    # four units went out at the start, two per worker (a worker with two tests or fewer
    # left gets one more): R CMD check and the axioms, the docs module and test_a (the
    # first unlisted); then the other unlisted in collection order, the audit's parts last
    assert order == [
        "tests/test_b.py",
        "propstab/measures/_x.py",
        "tests/test_docs_site.py::test_every_page_fits_links_and_reads_for_users[0]",
        "tests/test_docs_site.py::test_every_page_fits_links_and_reads_for_users[1]",
    ]


def test_an_xdist_worker_uses_its_share_of_the_cores_for_blas():
    """The root conftest.py: under ``pytest -n N`` a worker's BLAS pool has cores // N
    threads (at least 1; or the caller's OPENBLAS_NUM_THREADS), and the processes it
    starts are told the same."""
    import os

    from threadpoolctl import threadpool_info

    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if not workers:
        pytest.skip("not a pytest-xdist worker (make test runs pytest -n 2)")
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas, threadpool_info()
    # the processes the worker starts are told (the caller's own setting, else the share)
    assert os.environ.get("OPENBLAS_NUM_THREADS") and os.environ.get("OMP_NUM_THREADS")
    expected = int(os.environ["OPENBLAS_NUM_THREADS"])
    assert [pool["num_threads"] for pool in blas] == [expected] * len(blas), blas
