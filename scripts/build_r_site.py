"""Build the R package's reference site (pkgdown) into the documentation site's ``r/``.

Usage::

    /usr/bin/python3 scripts/build_r_site.py            # into docs/_build/r-site/r
    /usr/bin/python3 scripts/build_r_site.py --force    # even when nothing changed

pkgdown (Debian's r-cran-pkgdown, with pandoc) reads ``rpackage/``: its help pages (the
same Rd files ``R CMD check`` checks), ``_pkgdown.yml`` (the grouped reference index),
``vignettes/articles/propstab.Rmd`` ("Get started"), ``NEWS.md`` and ``inst/CITATION``.
It installs the package into a temporary library and runs every help page's examples and
the article's chunks in this checkout's Python (``PYTHONPATH`` is set to the checkout),
so the pages show their ``#>`` output. Nothing is fetched from the network: pkgdown's
check of CRAN is off, and the scripts and fonts its pages load from CDNs are replaced by
a small local file (the page's table of contents) and by the MathJax copy of the Sphinx
site (``../_static/mathjax``).

The Sphinx build (docs/conf.py) calls :func:`build` and copies the result into its
output (``html_extra_path``): ``docs/_build/html/r/``. The build is skipped when the
sources (``rpackage/`` and this script) have not changed since the last one (a hash in
``docs/_build/r-site.source-hash``); a fresh build takes about half a minute.
"""
from __future__ import annotations

import argparse
import hashlib
import html
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rpackage"
OUT = ROOT / "docs" / "_build" / "r-site"  # holds r/ (html_extra_path)
STAMP_NAME = "r-site.source-hash"  # beside OUT, not copied into the site
SITE = "r"  # the folder of the site in the output

#: Folders of rpackage/ that are not sources of the site.
_IGNORED = {".Rcheck", "docs", ".Rproj.user"}

# Scripts and styles that pkgdown's pages load from CDNs (font-awesome, bootstrap-toc,
# headroom, clipboard.js, fuse, autocomplete, mark.js, MathJax, respond), and the comment
# for old Internet Explorers.
_REMOTE = re.compile(
    r'<link[^>]*href="https?://[^"]*"[^>]*>'
    r'|<script[^>]*src="(?:https?|file)://[^"]*"[^>]*></script>'
    r"|<!--\[if lt IE 9\]>.*?<!\[endif\]-->",
    re.S,
)

#: Stand-ins for the CDN scripts pkgdown.js calls: the page's table of contents built from
#: its headings (bootstrap-toc's job), and no-ops for the navbar's hiding on scroll, the
#: copy buttons, the search's highlighting and its completion (the site has no search box).
OFFLINE_JS = """\
/* propstab: local stand-ins for the scripts pkgdown's pages load from CDNs. */
(function ($) {
  window.Toc = {init: function (options) {
    var nav = options.$nav;
    if (!nav || !nav.length) { return; }
    var list = $('<ul class="nav nav-pills flex-column"></ul>');
    options.$scope.filter("h2").each(function () {
      var id = this.id || $(this).closest("[id]").attr("id");
      if (!id) { return; }
      var text = $(this).clone().children(".anchor").remove().end().text();
      list.append($('<li class="nav-item"></li>').append(
        $('<a class="nav-link"></a>').attr("href", "#" + id).text(text)));
    });
    if (list.children().length) { nav.append(list); }
  }};
  $.fn.headroom = function () { return this; };
  $.fn.autocomplete = function () { return this; };
  window.ClipboardJS = {isSupported: function () { return false; }};
  window.Mark = function () { this.mark = function () {}; };
})(jQuery);
"""


def source_hash() -> str:
    """A hash of every file pkgdown reads (rpackage/) and of this script."""
    digest = hashlib.sha256(pathlib.Path(__file__).read_bytes())
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE)
        if path.is_file() and not (set(rel.parts) & _IGNORED) and rel.parts[0] != "tests":
            digest.update(str(rel).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


_MAIN = re.compile(r"(<main\b.*?</main>)", re.S)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<!>)\\\((.+?)\\\)", re.S)


def _math_spans(main: str) -> str:
    """The help pages' formulas (pkgdown writes ``\\deqn`` as ``$$...$$`` and ``\\eqn``
    as ``\\(...\\)`` in the text) in math spans, as the Sphinx site's are: MathJax
    typesets them, and the site's audit reads them as formulas, not as prose."""
    main = _DISPLAY.sub(lambda m: f'<span class="math display">\\[{m.group(1)}\\]</span>', main)
    return _INLINE.sub(lambda m: f'<span class="math inline">\\({m.group(1)}\\)</span>', main)


def _offline(site: pathlib.Path) -> None:
    """Every page without its CDN scripts and styles: the local stand-ins instead, and
    MathJax from the Sphinx site's copy where the page has formulas."""
    (site / "offline.js").write_text(OFFLINE_JS, encoding="utf-8")
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        up = "../" * (len(page.relative_to(site).parts) - 1)
        text = _REMOTE.sub("", text)
        text = _MAIN.sub(lambda m: _math_spans(m.group(1)), text, count=1)
        local = f'<script src="{up}offline.js"></script>'
        if 'class="math' in text:
            local += (
                f'<script src="{up}../_static/mathjax/MathJax.js?config=TeX-AMS_SVG">' "</script>"
            )
        text = text.replace(
            f'<script src="{up}pkgdown.js"></script>',
            f'{local}<script src="{up}pkgdown.js"></script>',
            1,
        )
        page.write_text(text, encoding="utf-8")


def problems(site: pathlib.Path) -> list:
    """What must not be on a page of the built site: an example that failed, raw Rd."""
    found = []
    for page in sorted(site.rglob("*.html")):
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))
        for label, pattern in (
            ("a failed example", r"#> Error\b"),
            ("raw Rd", r"\\(?:dontshow|method|code|link|eqn)\{" r"|# examplesIf"),
        ):
            for m in re.finditer(pattern, text):
                found.append(
                    f"{page.relative_to(site)}: {label}: "
                    f"{text[max(0, m.start() - 60):m.end() + 60]!r}"
                )
    return found


def build(out: pathlib.Path = OUT, force: bool = False, quiet: bool = False) -> pathlib.Path:
    """Build the site into ``out/r`` (unless its sources have not changed) and return that
    folder. Raises RuntimeError when pkgdown fails or an example failed."""
    out = pathlib.Path(out)
    stamp = out.parent / STAMP_NAME
    current = source_hash()
    site = out / SITE
    if not force and stamp.is_file() and stamp.read_text() == current and site.is_dir():
        return site
    if shutil.which("Rscript") is None:
        raise RuntimeError("Rscript not found: install R and r-cran-pkgdown " "(scripts/setup.sh)")
    out.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="r-site-") as tmp:
        target = pathlib.Path(tmp) / SITE
        code = (
            "options(pkgdown.internet = FALSE); "
            f"pkgdown::build_site({str(PACKAGE)!r}, override = list(destination = "
            f"{str(target)!r}), install = TRUE, new_process = FALSE, preview = FALSE)"
        )
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "MPLBACKEND": "Agg",
        }
        run = subprocess.run(
            ["Rscript", "-e", code], cwd=tmp, env=env, capture_output=True, text=True, timeout=1800
        )
        if run.returncode != 0:
            raise RuntimeError("pkgdown failed:\n" + (run.stdout + run.stderr)[-4000:])
        _offline(target)
        found = problems(target)
        if found:
            raise RuntimeError("the R reference site has problems:\n" + "\n".join(found[:20]))
        shutil.rmtree(site, ignore_errors=True)
        shutil.copytree(target, site)
    stamp.write_text(current)
    if not quiet:
        print(f"r-site: built {len(list(site.rglob('*.html')))} pages into {site}")
    return site


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    try:
        build(args.out, force=args.force)
    except RuntimeError as error:
        print(f"r-site: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
