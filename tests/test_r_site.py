"""The R package's reference site (pkgdown, scripts/build_r_site.py): a page per help topic
with its examples run (their ``#>`` output on the page, no raw Rd), a reference index
grouped as _pkgdown.yml says, "Get started" run, NEWS, the citation of inst/CITATION, and
nothing loaded from the network.

The site is built once (about half a minute) into docs/_build/r-site, where the Sphinx
build copies it from; it is not built again while rpackage/ is unchanged. Like the other R
tests, this fails without R unless PROPSTAB_SKIP_R=1.
"""
import html
import os
import pathlib
import re
import shutil

import pytest

import shared  # tests/shared.py (tests/ is on sys.path)

ROOT = pathlib.Path(__file__).resolve().parents[1]
RPACKAGE = ROOT / "rpackage"
build_r_site = shared.load_script(ROOT / "scripts" / "build_r_site.py", "build_r_site")


@pytest.fixture(scope="module")
def site():
    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip("PROPSTAB_SKIP_R=1: R not used")
    if shutil.which("Rscript") is None:
        pytest.fail(
            "Rscript not found: run scripts/setup.sh or set PROPSTAB_SKIP_R=1", pytrace=False
        )
    return build_r_site.build(quiet=True)


def _text(path: pathlib.Path) -> str:
    text = html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))
    return " ".join(text.replace("\u2019", "'").split())


def _topics():
    """Rd file name -> whether it has examples."""
    return {
        rd.stem: "\\examples{" in rd.read_text(encoding="utf-8")
        for rd in sorted((RPACKAGE / "man").glob("*.Rd"))
    }


def test_every_help_topic_is_a_page_with_its_examples_run(site):
    topics = _topics()
    assert len(topics) >= 40
    for name, has_examples in topics.items():
        page = site / "reference" / f"{name}.html"
        assert page.is_file(), name
        if not has_examples:
            continue
        source = page.read_text(encoding="utf-8")
        examples = source[source.index('id="ref-examples"') :]
        assert "#&gt;" in examples or "<img" in examples, f"{name}: no output"
    assert build_r_site.problems(site) == []  # no failed example, no raw Rd
    nogueira = (site / "reference" / "stabilityNogueira.html").read_text(encoding="utf-8")
    main = nogueira[nogueira.index("<main") : nogueira.index("</main>")]
    assert '<span class="math display">\\[\\hat\\Phi(Z)' in main and "$$" not in main
    assert "../../_static/mathjax/MathJax.js" in nogueira  # the Sphinx site's copy
    shown = _text(site / "reference" / "stability_estimate.html")
    assert re.search(r"95% confidence interval: \[-?0\.\d+, 0\.\d+\] \(logit", shown)


def test_reference_index_is_grouped_and_lists_every_topic(site):
    config = (RPACKAGE / "_pkgdown.yml").read_text(encoding="utf-8")
    titles = re.findall(r"^- title: (.+)$", config, re.M)
    assert "Stability measures corrected for chance" in titles and len(titles) >= 6
    index = _text(site / "reference" / "index.html")
    positions = [index.index(title) for title in titles]
    assert positions == sorted(positions)  # in the configured order
    source = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for name in _topics():
        internal = "\\keyword{internal}" in (RPACKAGE / "man" / f"{name}.Rd").read_text()
        assert internal or f'href="{name}.html"' in source, name  # internal: not indexed


def test_get_started_news_and_citation(site):
    article = site / "articles" / "propstab.html"
    assert article.read_text(encoding="utf-8").count("#&gt;") >= 20  # its chunks ran
    assert "Paired test of equal feature-selection stability" in _text(article)
    news = _text(site / "news" / "index.html")
    assert "propstab 0.1.0" in news
    citation = (RPACKAGE / "inst" / "CITATION").read_text(encoding="utf-8")
    title = re.search(r'title = "\{propstab\}: ([^"]+)"', citation).group(1)
    assert title in _text(site / "authors.html")
    config = _text(site / "index.html")
    assert "Get started" in config and "Reference" in config


def test_pages_load_nothing_from_the_network(site):
    for page in site.rglob("*.html"):
        source = page.read_text(encoding="utf-8")
        remote = re.findall(r'<(?:script|link)[^>]*(?:src|href)="(?:https?|file):[^"]*"', source)
        assert not remote, (page.relative_to(site), remote[:2])
    assert (site / "offline.js").is_file()


def test_problems_finds_a_failed_example_and_raw_rd(tmp_path):
    (tmp_path / "bad.html").write_text(
        '<pre><span class="r-pr">#&gt;</span> <span class="error">Error in f()</span></pre>'
        "<p>\\dontshow{if (TRUE) # examplesIf}</p>"
        "<pre>\\method{confint}{propstab_estimate}(x)</pre>"
    )
    (tmp_path / "good.html").write_text("<pre>#&gt; [1] 0.5</pre>")
    found = build_r_site.problems(tmp_path)
    assert len([p for p in found if "a failed example" in p]) == 1
    assert len([p for p in found if "raw Rd" in p]) >= 2
    assert not [p for p in found if p.startswith("good.html")]
