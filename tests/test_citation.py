"""One citation of propstab: the title, authors, year and version of CITATION.cff, of the R
package's inst/CITATION (as R's ``citation("propstab")`` reads it) and DESCRIPTION, of the
site's Cite page and of pyproject.toml are the same."""
import os
import pathlib
import re
import shutil
import subprocess
import tomllib

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _python_side():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return cff, project


def test_cff_pyproject_and_description_agree():
    cff, project = _python_side()
    description = (ROOT / "rpackage" / "DESCRIPTION").read_text(encoding="utf-8")
    fields = dict(re.findall(r"^(\w[\w@]*): (.*(?:\n .*)*)", description, re.M))
    title = cff["title"]
    assert title == f"propstab: {fields['Title']}"
    assert [a["name"] for a in cff["authors"]] == [a["name"] for a in project["authors"]]
    assert f'person("{cff["authors"][0]["name"]}"' in fields["Authors@R"]
    assert str(cff["version"]) == project["version"] == fields["Version"]


def test_site_cites_as_cff_does():
    cff, _ = _python_side()
    page = (ROOT / "docs" / "citing.md").read_text(encoding="utf-8")
    text = " ".join(re.sub(r"^> ?", "", page, flags=re.M).split())
    author = cff["authors"][0]["name"]
    assert f"{author} (2026). *{cff['title']}.* Version {cff['version']}." in text
    bibtex = re.search(r"```bibtex\n(.*?)```", page, re.S).group(1)
    entry = dict(re.findall(r"(\w+)\s*=\s*\{(.*)\},?\n", bibtex))
    assert entry["title"].replace("{propstab}", "propstab") == cff["title"]
    assert entry["author"] == "{" + author + "}"
    assert entry["year"] == "2026" and f"Version {cff['version']}" in entry["note"]
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    assert f'author = "{author}"' in conf


def test_r_citation_is_the_same():
    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip("PROPSTAB_SKIP_R=1: R not used")
    if shutil.which("Rscript") is None:
        pytest.fail(
            "Rscript not found: run scripts/setup.sh or set PROPSTAB_SKIP_R=1", pytrace=False
        )
    cff, project = _python_side()
    code = (
        "x <- utils::readCitationFile(file.path('rpackage', 'inst', 'CITATION'), "
        "meta = list(Version = read.dcf(file.path('rpackage', 'DESCRIPTION'))[, "
        "'Version'], Encoding = 'UTF-8'))[[1]]; "
        "cat(gsub('[{}]', '', x$title), format(x$author), x$year, x$note, sep = '\\n')"
    )
    run = subprocess.run(
        ["Rscript", "-e", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    title, author, year, note = run.stdout.splitlines()
    assert title == cff["title"]
    assert author == cff["authors"][0]["name"]
    assert year == "2026"
    assert f"Version {project['version']}" in note
