"""Checkpoints (propstab/_utils/checkpoint.py), the one module behind ``checkpoint=`` of
resample, assess (one selector or a mapping), StabilitySelection and StabilityGridSearch:
the argument refused like any other (empty, a file, a directory that cannot be created or
written), a format whose reading runs no code, the one rule for a task file that cannot
be used (run again with a CheckpointWarning naming it, the result unchanged), and a run
killed with SIGKILL at 20 random instants resuming each time to the uninterrupted
result."""
import json
import os
import pathlib
import pickle
import signal
import time
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py
from propstab import (
    CheckpointWarning,
    InvalidParameterError,
    StabilityGridSearch,
    StabilitySelection,
    assess,
    resample,
)
from propstab._utils.checkpoint import FORMAT, VERSION, Checkpoint, check_checkpoint


def top2(X, y):
    """The two features most correlated with y (fast: the runs' cost is the files')."""
    return np.argsort(-np.abs(X.T @ (y - y.mean())))[:2]


def _data():
    return shared.regression(n=40, d=6, seed=4)


# ----------------------------------------------------------------------------------
# the argument


def _calls(X, y, where):
    """Every entry point that takes checkpoint=, called with ``where``."""
    from sklearn.linear_model import Lasso

    return {
        "resample": lambda: resample(top2, X, y, n_runs=4, random_state=0, checkpoint=where),
        "assess": lambda: assess(top2, X, y, n_runs=4, random_state=0, checkpoint=where),
        "assess(mapping)": lambda: assess(
            {"a": top2, "b": top2}, X, y, n_runs=4, random_state=0, checkpoint=where
        ),
        "StabilitySelection": lambda: StabilitySelection(
            Lasso(), n_subsamples=2, n_alphas=3, random_state=0, checkpoint=where
        ).fit(X, y),
        "StabilityGridSearch": lambda: StabilityGridSearch(
            Lasso(), {"alpha": [0.1, 0.2]}, n_runs=4, random_state=0, checkpoint=where
        ).fit(X, y),
    }


def _bad_paths(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("not a directory")
    return {
        "empty": ("", "non-empty"),
        "blank": ("  ", "non-empty"),
        "a file": (str(afile), "which is a file"),
        "under a file": (str(afile / "sub"), "is a file"),
        "under /dev/null": (os.path.join(os.devnull, "x"), "is a file"),
        "in /proc": ("/proc/propstab-cannot-create", "cannot be created"),
        "a number": (5, "must be a directory path"),
        "bytes": (b"dir", "must be a directory path"),
        "NUL": ("a\0b", "NUL"),
    }


@pytest.mark.parametrize(
    "kind",
    [
        "empty",
        "blank",
        "a file",
        "under a file",
        "under /dev/null",
        "in /proc",
        "a number",
        "bytes",
        "NUL",
    ],
)
def test_a_bad_checkpoint_path_is_refused_by_every_entry_point(kind, tmp_path, monkeypatch):
    X, y = _data()
    monkeypatch.chdir(tmp_path)
    where, says = _bad_paths(tmp_path)[kind]
    before = sorted(os.listdir(tmp_path))
    for entry, call in _calls(X, y, where).items():
        with pytest.raises(InvalidParameterError, match=says) as caught:
            call()
        assert caught.value.argument == "checkpoint", (entry, str(caught.value))
        assert str(caught.value).startswith("checkpoint: "), (entry, str(caught.value))
        if isinstance(where, str) and where.strip() and "\0" not in where:
            assert repr(where) in str(caught.value), (entry, str(caught.value))
    assert sorted(os.listdir(tmp_path)) == before  # nothing written (no selector-0/)


def test_an_unwritable_directory_is_refused(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.access(locked, os.W_OK):  # root: simulate what a user meets
        real = os.access
        monkeypatch.setattr(
            os,
            "access",
            lambda p, mode, **kw: False
            if os.fspath(p).startswith(str(locked)) and mode & os.W_OK
            else real(p, mode, **kw),
        )
    X, y = _data()
    for call in _calls(X, y, str(locked)).values():
        with pytest.raises(
            InvalidParameterError,
            match=r"checkpoint: the directory .*locked.* " r"is not writable",
        ):
            call()
    for call in _calls(X, y, str(locked / "new")).values():
        with pytest.raises(
            InvalidParameterError, match=r"cannot be created: .*locked.* is not " r"writable"
        ):
            call()
    locked.chmod(0o700)


def test_the_rule_is_declared():
    from propstab._utils.params import parameter_constraints
    from propstab.tuning import CONSTRAINTS

    for rules in (
        parameter_constraints(resample),
        parameter_constraints(assess),
        StabilitySelection.parameter_constraints,
        CONSTRAINTS,
    ):
        assert "checkpoint" in rules
    assert check_checkpoint("checkpoint", os.curdir) == os.curdir


# ----------------------------------------------------------------------------------
# the format and the rule for files that cannot be used


def _task_files(folder):
    return sorted(p for p in os.listdir(folder) if p.startswith("task-"))


def _resample(folder, **kw):
    X, y = _data()
    return resample(
        top2, X, y, n_runs=6, random_state=3, checkpoint=folder, keep_importances=False, **kw
    )


def _same(a, b):
    np.testing.assert_array_equal(a.Z, b.Z)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.runs, b.runs)
    for u, v in zip(a.train_indices, b.train_indices):
        np.testing.assert_array_equal(u, v)


class _Marker:
    """A pickle whose loading creates a file: it must never be loaded."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _npz(path, head, **arrays):
    payload = (
        {}
        if head is None
        else {"header": np.frombuffer(json.dumps(head).encode(), dtype=np.uint8)}
    )
    payload.update(arrays)
    with open(path, "wb") as f:
        np.savez(f, **payload)


def _corruptions(tmp_path):
    """Ways to spoil task-2.npz of a finished checkpoint (folder -> None)."""
    marker = str(tmp_path / "code-ran")

    def rewrite_header(folder, **change):
        with np.load(os.path.join(folder, "task-2.npz"), allow_pickle=False) as z:
            header = json.loads(z["header"].tobytes())
            arrays = {k: z[k] for k in z.files if k != "header"}
        header.update(change)
        _npz(os.path.join(folder, "task-2.npz"), header, **arrays)

    def write(data):
        return lambda folder: pathlib.Path(folder, "task-2.npz").write_bytes(data)

    def truncate(folder):
        path = pathlib.Path(folder, "task-2.npz")
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])

    def from_another_call(folder):
        other = tmp_path / "other"
        X, y = _data()
        resample(top2, X, y, n_runs=6, random_state=4, checkpoint=other)
        os.replace(other / "task-2.npz", os.path.join(folder, "task-2.npz"))

    def another_task(folder):
        os.replace(os.path.join(folder, "task-3.npz"), os.path.join(folder, "task-2.npz"))

    return {
        "empty": (write(b""), "cannot be read"),
        "junk": (write(b"\x00junk" * 7), "cannot be read"),
        "a pickle that runs code": (write(pickle.dumps(_Marker(marker))), "cannot be read"),
        "truncated": (truncate, "cannot be read"),
        "a FIFO": (
            lambda folder: (
                os.remove(os.path.join(folder, "task-2.npz")),
                os.mkfifo(os.path.join(folder, "task-2.npz")),
            ),
            "not a regular file",
        ),
        "a dangling link": (
            lambda folder: (
                os.remove(os.path.join(folder, "task-2.npz")),
                os.symlink(os.path.join(folder, "nowhere"), os.path.join(folder, "task-2.npz")),
            ),
            "cannot be read",
        ),
        "a link to a system file": (
            lambda folder: (
                os.remove(os.path.join(folder, "task-2.npz")),
                os.symlink("/etc/hostname", os.path.join(folder, "task-2.npz")),
            ),
            "cannot be read",
        ),
        "an npz without header": (
            lambda folder: _npz(os.path.join(folder, "task-2.npz"), None, a0=np.arange(3)),
            "not a propstab checkpoint file",
        ),
        "an object array": (
            lambda folder: _npz(
                os.path.join(folder, "task-2.npz"),
                {"format": FORMAT, "version": VERSION, "key": 2, "value": {"array": 0}},
                a0=np.array([_Marker(marker)], dtype=object),
            ),
            "cannot be read|another call",
        ),
        "a header that is not JSON": (
            lambda folder: _npz(
                os.path.join(folder, "task-2.npz"),
                None,
                header=np.frombuffer(b"{not json", dtype=np.uint8),
            ),
            "cannot be read",
        ),
        "another format": (
            lambda folder: rewrite_header(folder, format="other"),
            "not a propstab checkpoint file",
        ),
        "another version": (
            lambda folder: rewrite_header(folder, version=VERSION + 1),
            "format version",
        ),
        "another call": (from_another_call, "written by another call"),
        "another task": (another_task, "holds the task 3, not 2"),
        "another resample": (
            lambda folder: rewrite_header(folder, task="0" * 64),
            "another resample or seed",
        ),
        "a broken value": (
            lambda folder: rewrite_header(folder, value={"array": 99}),
            "cannot be read",
        ),
        "an unknown entry": (
            lambda folder: rewrite_header(folder, value={"code": "x"}),
            "cannot be read",
        ),
    }, marker


CORRUPTIONS = [
    "empty",
    "junk",
    "a pickle that runs code",
    "truncated",
    "a FIFO",
    "a dangling link",
    "a link to a system file",
    "an npz without header",
    "an object array",
    "a header that is not JSON",
    "another format",
    "another version",
    "another call",
    "another task",
    "another resample",
    "a broken value",
    "an unknown entry",
]


@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_a_task_file_that_cannot_be_used_is_run_again_with_a_warning(kind, tmp_path):
    whole = _resample(tmp_path / "whole")
    folder = tmp_path / "cp"
    _resample(folder)
    spoilers, marker = _corruptions(tmp_path)
    spoil, says = spoilers[kind]
    spoil(str(folder))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = _resample(folder)
    _same(whole, again)
    assert not os.path.exists(marker)  # no code ran on load
    ours = [w for w in caught if issubclass(w.category, CheckpointWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    text = str(ours[0].message)
    assert text.startswith("checkpoint: the task file ")
    assert repr(str(folder / "task-2.npz")) in text
    assert __import__("re").search(says, text), text
    with warnings.catch_warnings():  # rewritten: read silently now
        warnings.simplefilter("error", CheckpointWarning)
        _same(whole, _resample(folder))


def test_a_directory_in_place_of_a_task_file_is_refused_naming_it(tmp_path):
    folder = tmp_path / "cp"
    _resample(folder)
    os.remove(folder / "task-2.npz")
    os.mkdir(folder / "task-2.npz")
    with pytest.raises(
        InvalidParameterError,
        match=r"checkpoint: '.*task-2.npz' is a " r"directory where a task file belongs",
    ):
        _resample(folder)


def test_a_manifest_that_cannot_be_read_is_refused_naming_the_file(tmp_path):
    folder = tmp_path / "cp"
    _resample(folder)
    for content in (b"", b"{", b"[1, 2]", b'{"a": 1}', pickle.dumps({"a": "b"})):
        (folder / "manifest.json").write_bytes(content)
        with pytest.raises(
            InvalidParameterError,
            match=r"checkpoint: '.*manifest.json' is not "
            r"the manifest of a propstab "
            r"checkpoint",
        ) as caught:
            _resample(folder)
        assert caught.value.argument == "checkpoint"


def test_leftover_temporary_files_and_old_pickles_are_never_read(tmp_path):
    whole = _resample(tmp_path / "whole")
    folder = tmp_path / "cp"
    _resample(folder)
    marker = tmp_path / "code-ran"
    (folder / ".tmp-abc").write_bytes(b"half a fi")
    (folder / "task-1.pkl").write_bytes(pickle.dumps(_Marker(str(marker))))
    os.remove(folder / "task-4.npz")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CheckpointWarning)
        _same(whole, _resample(folder))
    assert not marker.exists()


def test_a_task_file_is_arrays_and_a_json_header(tmp_path):
    _resample(tmp_path)
    with np.load(tmp_path / "task-0.npz", allow_pickle=False) as z:
        header = json.loads(z["header"].tobytes())
        assert all(z[k].dtype != object for k in z.files)
    assert header["format"] == FORMAT and header["version"] == VERSION
    assert header["key"] == 0 and len(header["task"]) == 64 and len(header["fingerprint"]) == 64
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["checkpoint format"] == f"{FORMAT} {VERSION}"
    cp = Checkpoint(tmp_path / "raw", {"a": "1"})
    value = (
        np.array([True, False]),
        (np.arange(3.0), "scores"),
        float("nan"),
        None,
        ("ValueError", "msg", "fit", True, None),
        [1, 2.5],
        {"k": np.int64(3)},
    )
    cp.save(7, value, "t")
    back = cp.load([7], ["t"])[7]
    assert repr(back) == repr(
        (
            np.array([True, False]),
            (np.arange(3.0), "scores"),
            float("nan"),
            None,
            ("ValueError", "msg", "fit", True, None),
            [1, 2.5],
            {"k": 3},
        )
    )
    with pytest.raises(RuntimeError, match="cannot store"):
        cp.save(8, object())


def test_stability_selection_and_a_mapping_use_the_same_rule(tmp_path):
    from sklearn.linear_model import Lasso

    X, y = _data()
    make = lambda **kw: StabilitySelection(
        Lasso(), n_subsamples=3, n_alphas=4, random_state=0, **kw  # noqa: E731
    )
    whole = make().fit(X, y)
    make(checkpoint=tmp_path / "ss").fit(X, y)
    (tmp_path / "ss" / "task-1.npz").write_bytes(b"")
    with pytest.warns(CheckpointWarning, match=r"task-1.npz' cannot be read"):
        again = make(checkpoint=tmp_path / "ss").fit(X, y)
    np.testing.assert_array_equal(whole.stability_scores_, again.stability_scores_)
    selectors = {"a": top2, "b": top2}
    first = assess(selectors, X, y, n_runs=5, random_state=0, checkpoint=tmp_path / "m")
    (tmp_path / "m" / "selector-1" / "task-3.npz").write_bytes(b"PK\x03\x04")
    with pytest.warns(CheckpointWarning, match=r"selector-1.task-3.npz' cannot be read"):
        second = assess(selectors, X, y, n_runs=5, random_state=0, checkpoint=tmp_path / "m")
    _same(first.assessments["b"].result, second.assessments["b"].result)


# ----------------------------------------------------------------------------------
# SIGKILL at random instants


def _killed_at(folder, after_tasks, delay):
    """Fork a child that runs the checkpointed call; SIGKILL it ``delay`` s after it has
    written ``after_tasks`` task files (or at once if it ends before that)."""
    pid = os.fork()
    if pid == 0:  # the child: run, then leave at once
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _resample_long(folder)
        finally:
            os._exit(0)
    # wait on the child's progress, not on the clock: how far a child gets in a given time
    # depends on the host's load, its number of files written does not
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0]:  # it finished before the kill
            return
        if folder.exists() and len(_task_files(folder)) >= after_tasks:
            break
        time.sleep(0.001)
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


N_LONG = 20


def _resample_long(folder):
    X, y = _data()
    return resample(top2, X, y, n_runs=N_LONG, random_state=11, checkpoint=folder)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_run_killed_at_20_random_instants_resumes_to_the_uninterrupted_result(tmp_path):
    whole = _resample_long(None)
    start = time.perf_counter()
    _resample_long(tmp_path / "timing")
    duration = time.perf_counter() - start  # a checkpointed run, in this process
    rng = np.random.default_rng(2026)
    done_at_kill = []
    for trial in range(20):
        folder = tmp_path / f"k{trial}"
        # after 0 to N_LONG - 1 tasks, at a random instant within the next task (its write
        # included): the kills fall before the first task, between and during writes
        after = int(rng.integers(0, N_LONG))
        _killed_at(folder, after, float(rng.uniform(0, 1.5 * duration / N_LONG)))
        done_at_kill.append(len(_task_files(folder)) if folder.exists() else 0)
        with warnings.catch_warnings():
            # atomic writes: a killed writer leaves no file that cannot be used
            warnings.simplefilter("error", CheckpointWarning)
            warnings.simplefilter("ignore", UserWarning)
            resumed = _resample_long(folder)
        _same(whole, resumed)
        assert len(_task_files(folder)) == N_LONG
    # the kills fell at different instants, most in the middle of the run
    assert len(set(done_at_kill)) >= 8, done_at_kill
    assert any(0 < k < N_LONG for k in done_at_kill), done_at_kill
