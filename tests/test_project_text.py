"""The project's files speak to their readers, not of the process that made them: no file
tracked by git (code, tests, docs, the Makefile, scripts, the R package) refers to a work
item by number (the word and a number); a reader has no tracker to look it up in. Data files (JSON
results of studies) are left out: they hold no prose."""
import pathlib
import re

import pytest

import shared  # tests/shared.py: processes under a timeout

REPO = pathlib.Path(__file__).resolve().parent.parent
WORK_ITEM = re.compile(r"\b[Ii]ssues? #?\d+")
DATA = {".json", ".jsonl", ".npz", ".npy", ".png", ".svg", ".pdf", ".rds", ".gz"}


def referring_lines(root):
    """``path:line`` of every line of a tracked text file that names a work item."""
    done = shared.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    out = []
    for name in done.stdout.split():
        path = root / name
        if path.suffix in DATA or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        out += [
            f"{name}:{i}" for i, line in enumerate(text.splitlines(), 1) if WORK_ITEM.search(line)
        ]
    return out


def test_no_file_refers_to_a_work_item_by_number():
    assert not referring_lines(REPO)


def test_the_check_sees_a_reference(tmp_path):
    shared.run(["git", "init", "-q"], cwd=tmp_path, check=True, timeout=60)
    item = "issue" + " 12"  # spelled in two parts, so that this file passes its own check
    (tmp_path / "a.py").write_text(f"x = 1  # fixed in {item}\n")
    (tmp_path / "b.json").write_text(f'{{"note": "{item}"}}\n')
    (tmp_path / "c.md").write_text("See the issues page.\n")
    shared.run(["git", "add", "."], cwd=tmp_path, check=True, timeout=60)
    assert referring_lines(tmp_path) == ["a.py:1"]
