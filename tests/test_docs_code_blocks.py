"""Every code block of every hand-written page of the site runs as printed.

- Python blocks with ``>>>`` prompts are doctests: tests/test_docs_site.py runs them (or
  the test named in its DOCTESTED_ELSEWHERE); this file checks that each such page is run
  there.
- Python blocks without prompts (scripts) run here, a page's blocks in order in one
  process, after the page's SETUP (the names its prose introduces, such as ``X, y``) and
  with the page's SMALLER substitutions (fewer runs, one measure: the same calls, made
  cheap).
- Lines of shell blocks that call the command line (``propstab ...``) run here as
  ``python -m propstab ...`` in a folder holding the files they name.
- R blocks run here with Rscript against the installed R package.

Blocks that cannot run anywhere are listed in NOT_RUNNABLE with the reason; pages left
open are in KNOWN_OPEN (expected failures, not silent passes).
"""
import os
import pathlib
import re
import shlex
import shutil
import sys
import textwrap

import numpy as np
import pytest

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GENERATED = ("_build", "api", "catalogue", "auto_gallery")
#: Pages written for contributors: their blocks are fragments of the package's source.
FOR_CONTRIBUTORS = {"contributing.md", "README.md"}

PAGES = sorted(
    str(p.relative_to(DOCS))
    for p in DOCS.rglob("*.md")
    if p.relative_to(DOCS).parts[0] not in GENERATED and p.name not in FOR_CONTRIBUTORS
)

_FENCE = re.compile(r"^```([\w{}-]*)[^\n]*\n(.*?)^```\s*$", re.S | re.M)


def blocks(page: str):
    """The page's fenced blocks: (language, text, line number)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return [
        (m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in _FENCE.finditer(text)
    ]


def python_scripts(page):
    return [
        (body, line)
        for lang, body, line in blocks(page)
        if lang in ("python", "py", "{code-block}") and ">>>" not in body
    ]


def r_blocks(page):
    return [(body, line) for lang, body, line in blocks(page) if lang in ("r", "R")]


#: the command line's subcommands: a line "propstab <one of them> ..." is a command (a
#: line of output that starts with "propstab (nogueira):" is not)
SUBCOMMANDS = set(__import__("propstab.cli", fromlist=["command_names"]).command_names())


def cli_lines(page):
    out = []
    for lang, body, line in blocks(page):
        if lang in ("python", "py", "r", "R", "bibtex") or lang.startswith("{"):
            continue
        prompted = any(t.startswith("$ ") for t in body.splitlines())
        for i, text in enumerate(body.splitlines()):
            if prompted and not text.startswith("$ "):
                continue  # with "$ " prompts, the other lines are the commands' output
            command = re.sub(r"^\$\s+", "", text.strip())
            words = command.split()
            if words[:1] == ["propstab"] and (
                words[1:2] in ([], ["--help"]) or words[1] in SUBCOMMANDS
            ):
                out.append((command.split("  #")[0].strip(), line + 1 + i))
    return out


# ---------------------------------------------------------------- what the pages assume

_REGRESSION = textwrap.dedent(
    """\
    import numpy as np
    import propstab
    from sklearn.datasets import make_regression
    from sklearn.linear_model import Lasso
    from propstab import StabilitySelection
    X, y = make_regression(n_samples=80, n_features=12, n_informative=3, noise=5.0,
                           random_state=0)
    selector = est = Lasso(alpha=1.0)
    """
)
_CLASSIFICATION = textwrap.dedent(
    """\
    import numpy as np
    import propstab
    from sklearn.datasets import make_classification
    X, y = make_classification(n_samples=120, n_features=15, n_informative=4,
                               random_state=0)
    """
)
#: page -> code defining the names its scripts take from the prose around them.
SETUP = {
    "from_data.md": _REGRESSION,
    "rankings.md": _CLASSIFICATION,
    "scaling.md": _REGRESSION,
}
#: page -> (text, replacement) applied to its scripts in this test: the same calls on less
#: (fewer runs, a one-process local cluster instead of a remote scheduler, one measure).
SMALLER = {
    "from_data.md": [
        ("n_runs=1000", "n_runs=20"),
        (
            'LocalCluster(n_workers=2, host="127.0.0.1")',
            "LocalCluster(n_workers=1, threads_per_worker=2, processes=False)",
        ),
    ],
    "rankings.md": [("n_runs=100", "n_runs=10")],
    "scaling.md": [
        (
            'Client("tcp://scheduler:8786")',
            "Client(LocalCluster(n_workers=1, threads_per_worker=2, processes=False))",
        ),
        (
            "from dask.distributed import Client",
            "from dask.distributed import Client, LocalCluster",
        ),
        ("n_runs=1000", "n_runs=10"),
        (
            "propstab.audit(backend=client)",
            'propstab.audit("jaccard", backend=client, max_examples=3)',
        ),
    ],
}
#: (page, first line of the block) -> why it does not run as a test.
NOT_RUNNABLE = {
    ("install.md", 68): "names a virtual environment of the reader's machine "
    "(the Get started article of the R site runs the same calls)",
}
#: (page, line) of a command line -> why it does not run as a test.
CLI_NOT_RUNNABLE = {
    ("agree.md", 130): "Julia is not installed here (the R and Perl adapters run)",
    ("agree.md", 131): "a compiled program of the reader's",
}
#: (page, line) of a command line whose page shows it failing: (the exit status it shows,
#: the file its text makes: name -> (source in PAGE_FILES, replacement the text states)).
CLI_SHOWN_FAILING = {
    ("agree.md", 186): (1, {"buggy.R": ("nogueira.R", ("return(NA)", "return(0)"))}),
}
#: The files the pages include (literalinclude) and their commands read by name.
PAGE_FILES = ROOT / "docs" / "adapters"
#: Pages whose blocks do not run yet, with the reason (expected failures).
KNOWN_OPEN = {}
#: (page, kind) whose blocks another test runs as the page prints them, with that test.
RUN_ELSEWHERE = {
    ("ci.md", "python"): "its files are one project: tests/test_ci_page.py writes them as "
    "printed into a fresh folder and runs a plain pytest there",
    ("ci.md", "cli"): "its commands read that project's baseline: tests/test_ci_page.py",
}

#: Options that make a command of the pages cheap: (command, option, value).
CLI_SMALLER = [("audit", "--max-examples", "3"), ("crosscheck", "--max-examples", "3")]
CLI_ONE_MEASURE = {"audit": "jaccard", "crosscheck": "nogueira"}


def _env():
    return {
        **os.environ,
        "MPLBACKEND": "Agg",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }


def _mark(page):
    return [pytest.mark.xfail(reason=KNOWN_OPEN[page], strict=False)] if page in KNOWN_OPEN else []


def _params(kind):
    out = []
    for page in PAGES:
        if (page, kind) in RUN_ELSEWHERE:
            continue
        found = {"python": python_scripts, "r": r_blocks, "cli": cli_lines}[kind](page)
        if [b for b in found if (page, b[1]) not in NOT_RUNNABLE]:
            out.append(pytest.param(page, id=page, marks=_mark(page)))
    return out


# ---------------------------------------------------------------- the tests


def test_every_page_with_doctests_is_doctested():
    import test_docs_site  # tests/ is on sys.path

    doctested = {p.name for p in test_docs_site.WITH_EXAMPLES}
    for page in PAGES:
        if any(">>>" in body for lang, body, _ in blocks(page) if lang == "python"):
            assert pathlib.Path(page).name in doctested, page


def test_blocks_are_found():
    """The extraction finds the kinds of blocks the pages have (it can fail)."""
    assert python_scripts("scaling.md") and r_blocks("r.md")
    assert [c for c, _ in cli_lines("table41.md")][0] == "propstab audit"
    for page, line in NOT_RUNNABLE:
        assert any(b[1] == line for b in r_blocks(page) + python_scripts(page)), (page, line)


@pytest.mark.parametrize("page", _params("python"))
def test_python_scripts_run(page, tmp_path):
    code = [SETUP.get(page, "")]
    used = set()
    for body, line in python_scripts(page):
        if (page, line) in NOT_RUNNABLE:
            continue
        for old, new in SMALLER.get(page, []):
            used.update([old] if old in body else [])
            body = body.replace(old, new)
        code.append(f"# --- {page}, line {line}\n{body}")
    # a page edited so that a replacement no longer matches would run at full size
    assert used == {old for old, _ in SMALLER.get(page, [])}, f"{page}: unused replacements"
    _page_files(tmp_path)
    script = tmp_path / "page.py"
    script.write_text("\n".join(code), encoding="utf-8")
    run = shared.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"{page}:\n{run.stderr[-3000:]}"


def _page_files(folder: pathlib.Path):
    """The files the pages show by inclusion (the adapters of "Check your implementation"),
    where the pages' code reads them: the working directory."""
    for path in PAGE_FILES.iterdir():
        shutil.copy(path, folder / path.name)


def _cli_files(folder: pathlib.Path):
    """The files the pages' commands read: runs.csv (0/1, 20 runs x 30 features),
    runs.json (1-based indices), similarity.csv (30 x 30), and the pages' own files."""
    _page_files(folder)
    rng = np.random.default_rng(0)
    Z = rng.random((20, 30)) < 0.2
    Z[:, :3] = True
    np.savetxt(folder / "runs.csv", Z.astype(int), fmt="%d", delimiter=",")
    (folder / "runs.json").write_text(
        "["
        + ", ".join("[" + ", ".join(str(j + 1) for j in np.flatnonzero(row)) + "]" for row in Z)
        + "]"
    )
    S = np.eye(30)
    S[0, 1] = S[1, 0] = 0.9
    np.savetxt(folder / "similarity.csv", S, delimiter=",")


def _smaller(args):
    for command, option, value in CLI_SMALLER:
        if args[0] == command:
            if option in args:
                args[args.index(option) + 1] = value
            else:
                args += [option, value]
    if args[0] == "crosscheck" and "--input" in args and "--max-examples" in args:
        i = args.index("--max-examples")
        del args[i : i + 2]  # the user's files are the cases: no generated ones
    if args[0] in CLI_ONE_MEASURE and "--measure" not in args and "--input" not in args:
        args += ["--measure", CLI_ONE_MEASURE[args[0]]]
    return args


@pytest.mark.parametrize("page", _params("cli"))
def test_command_lines_run(page, tmp_path):
    _cli_files(tmp_path)
    commands = cli_lines(page)
    if any("--scheduler" in command for command, _ in commands):
        # a scheduler of this test's own (workers as threads) instead of the page's address
        # worker processes: the command line reaches the scheduler over tcp on the loopback
        with shared.local_cluster(n_workers=1, threads_per_worker=2) as client:
            _run_commands(page, commands, tmp_path, client)
    else:
        _run_commands(page, commands, tmp_path, None)


def _run_commands(page, commands, tmp_path, cluster):
    for command, line in commands:
        if (page, line) in CLI_NOT_RUNNABLE:
            continue
        status, made = CLI_SHOWN_FAILING.get((page, line), (0, {}))
        for name, (source, (old, new)) in made.items():
            (tmp_path / name).write_text((PAGE_FILES / source).read_text().replace(old, new))
        args = _smaller(shlex.split(command)[1:])
        if "--scheduler" in args:
            args[args.index("--scheduler") + 1] = cluster.cluster.scheduler_address
        run = shared.run(
            [sys.executable, "-m", "propstab", *args],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == status, (
            f"{page}, line {line}: {command} -> "
            f"{run.returncode}\n{(run.stdout + run.stderr)[-2000:]}"
        )
        if made:  # the output the page prints below the command, as printed
            shown = _shown_output(page, line)
            assert shown and shown == run.stdout.rstrip("\n").splitlines(), (page, line)


def _shown_output(page, line):
    """The lines a page prints below the command at ``line``, to the end of its block."""
    text = (DOCS / page).read_text(encoding="utf-8").splitlines()
    out = []
    for row in text[line:]:
        if row.startswith("```"):
            break
        out.append(row)
    return out


@pytest.mark.parametrize("page", _params("r"))
def test_r_blocks_run(page, tmp_path):
    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip("PROPSTAB_SKIP_R=1: R not used")
    if shutil.which("Rscript") is None:
        pytest.fail(
            "Rscript not found: run scripts/setup.sh or set PROPSTAB_SKIP_R=1", pytrace=False
        )
    code = [body for body, line in r_blocks(page) if (page, line) not in NOT_RUNNABLE]
    _page_files(tmp_path)
    script = tmp_path / "page.R"
    script.write_text("\n".join(code), encoding="utf-8")
    run = shared.run(
        ["Rscript", str(script)],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"{page}:\n{run.stderr[-3000:]}"


# ---------------------------------------------------------------- warnings shown, not silenced

#: A warnings filter that silences: ``simplefilter("ignore"[, category])``,
#: ``filterwarnings("ignore"[, ..., category=...])``, ``-W ignore``, ``PYTHONWARNINGS``,
#: R's ``suppressWarnings(``.
_IGNORE = re.compile(
    r"(?:simplefilter|filterwarnings)\(\s*(?:action\s*=\s*)?[\"']ignore[\"']"
    r"(?P<rest>[^)]*)\)|-W\s*ignore\b|PYTHONWARNINGS\s*=\s*[\"']?ignore|suppressWarnings\("
)
_CATEGORY = re.compile(r"(?:category\s*=\s*)?\b(?P<name>[A-Za-z_][\w.]*Warning)\b")
#: Categories so wide that silencing one silences every warning propstab raises.
_WHOLESALE = {"Warning", "UserWarning", "PropstabWarning"}
#: propstab's own warnings, by class name.
_PROPSTAB_WARNINGS = {
    name
    for name in dir(__import__("propstab"))
    + dir(__import__("propstab.resampling", fromlist=["x"]))
    + dir(__import__("propstab.inference", fromlist=["x"]))
    if name.endswith("Warning")
}
#: The validator's path (the Validation section's pages and gallery examples) may silence
#: a named propstab warning it explains; a reader's page or example shows them all.
VALIDATION_SOURCES = (
    "gallery/evidence/",
    "findings/",
    "table41.md",
    "paper_values.md",
    "inference_validation.md",
    "r_crosscheck.md",
    "performance.md",
    "calibration_study.md",
    "kamkar_experiment.md",
)


def silenced_warnings(text: str, reader: bool) -> list:
    """The filters of ``text`` that silence warnings wholesale (no category, or one as wide
    as every warning) or, on a reader's page, silence one of propstab's own."""
    found = []
    for m in _IGNORE.finditer(text):
        rest = m.group("rest")
        name = _CATEGORY.search(rest or "") if rest is not None else None
        category = name.group("name").rsplit(".", 1)[-1] if name else None
        if category is None or category in _WHOLESALE:
            found.append(f"wholesale: {m.group(0)!r}")
        elif reader and category in _PROPSTAB_WARNINGS:
            found.append(f"a propstab warning silenced on a reader's page: {m.group(0)!r}")
    return found


EXAMPLE_SOURCES = sorted(
    str(p.relative_to(DOCS))
    for p in [*DOCS.rglob("*.md"), *(DOCS / "gallery").rglob("*.py")]
    if p.relative_to(DOCS).parts[0] not in GENERATED
)


def test_no_example_silences_warnings():
    """Every page and gallery example shows or explains the warnings it provokes: none
    silences them wholesale, and no reader's page or example silences one of propstab's
    (the validation pages may silence a named one they explain)."""
    left = {}
    for page in EXAMPLE_SOURCES:
        found = silenced_warnings(
            (DOCS / page).read_text(encoding="utf-8"), not page.startswith(VALIDATION_SOURCES)
        )
        if found:
            left[page] = found
    assert not left, left
    assert len(EXAMPLE_SOURCES) > 40 and any(p.startswith("gallery/") for p in EXAMPLE_SOURCES)


def test_silencing_check_finds_each_kind():
    """The check can fail: the filters the examples used to have, and others."""
    assert _PROPSTAB_WARNINGS >= {"UndefinedMeasureWarning", "UnscoredWarning", "PropstabWarning"}
    for text in (
        'warnings.simplefilter("ignore")  # the varying-sizes note',
        "warnings.filterwarnings('ignore')",
        'warnings.filterwarnings(action="ignore", message="nogueira")',
        'warnings.simplefilter("ignore", UserWarning)',
        'warnings.simplefilter("ignore", propstab.PropstabWarning)',
        "python -W ignore script.py",
        "PYTHONWARNINGS=ignore python x.py",
        "x <- suppressWarnings(estimate(Z))",
    ):
        assert silenced_warnings(text, reader=False), text
    for text in (
        'warnings.simplefilter("ignore", propstab.UndefinedMeasureWarning)',
        'warnings.simplefilter("ignore", propstab.resampling.UnscoredWarning)',
        'warnings.filterwarnings("ignore", category=UndefinedMeasureWarning)',
    ):
        assert silenced_warnings(text, reader=True), text
        assert not silenced_warnings(text, reader=False), text
    for text in (
        'warnings.filterwarnings("ignore", category=ConvergenceWarning)',
        'warnings.simplefilter("always")',
        "with warnings.catch_warnings(record=True) as caught:",
    ):
        assert not silenced_warnings(text, reader=True), text
