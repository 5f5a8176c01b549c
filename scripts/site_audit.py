"""Check every page of the built documentation site as a reader meets it.

Usage::

    /usr/bin/python3 scripts/site_audit.py                  # docs/_build/html, every page
    /usr/bin/python3 scripts/site_audit.py --no-browser     # links and text only (seconds)

Four checks over all the HTML files of the site:

- **links**: every internal ``href``/``src`` resolves to a file of the site, and its
  ``#anchor`` to an ``id`` (or ``name``) on the target page (the ``[docs]`` links of the
  highlighted sources in ``_modules/`` included);
- **formulas**: the prose of a page (its main column, code, literals and typeset math
  left out) has no raw TeX (``\\frac``, ``$...$`` left untypeset) and no formula written
  as plain text (``sum_f``, ``p_f^2``, ``E[Phi``, ``qbar``, ``k-bar``, ...);
- **words for the project, not the reader**: "the main job", a work item's number, private names
  (``propstab._x``, ``_registry.``), test files and bare repository paths such as
  ``docs/x.md`` in prose, and imports of private modules in the examples' code;
- **the reader's path**: pages for readers (all but the Validation section's and the
  contributor guide) hold at most :data:`MAX_WORDS` words and name no file of the source
  tree even in inline code
  (``tests/test_x.py``, ``studies/x.py``, ``r_compat/x.json``), and a page that speaks of
  "the thesis" names it (Nogueira) where it first does;
- **width and formulas** (headless Chromium, one session; each page in a frame of the
  window's size, 1,400 x 1,000 px, and again at a phone's 390 px): no page is wider than
  its frame (``document.scrollingElement.scrollWidth``), and every formula of the page
  was typeset by MathJax (measured once MathJax has finished);
- **figures legible as shown** (at 1,400 px): a figure's PNG records its smallest text in
  pixels at its natural size (key :data:`TEXT_KEY`, written by the gallery's scraper and
  the studies' figure functions); scaled by the width the page shows it at over its
  natural width, that text is at least :data:`MIN_FIGURE_TEXT` px. A figure of the site
  (``_images/``) without the record is reported too.

Prints one line per problem and a count; exits with status 1 when any is found.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import functools
import html.parser
import pathlib
import posixpath
import re
import sys
import time
import urllib.parse
from typing import Dict, Iterable, List, Optional, Sequence

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "docs" / "_build" / "html"

#: Folders of the build that are not pages a reader opens as prose.
NOT_PAGES = ("_static", "_images", "_downloads", "_sources", "mathjax")
#: Pages whose text is a list of names (checked for links and width only).
NAME_LISTS = ("genindex.html", "py-modindex.html", "search.html")

#: Plain-text or raw-TeX formulas in prose (outside code, literals and typeset math).
FORMULA_PATTERNS = {
    "raw TeX": re.compile(
        r"\\(?:frac|sum|hat|bar|mathbb|mathrm|operatorname|sqrt|cdot|"
        r"leq?|geq?|phi|Phi|bigl?|bigr?|tfrac|dfrac|overline)\b"
    ),
    "untypeset $...$": re.compile(r"(?<![\w$])\$[^$\s][^$]{0,80}?\$(?![\w$])"),
    "plain-text sum": re.compile(r"\b(?:sum|prod|max|min|mean)_\{?[A-Za-z]"),
    "plain-text power": re.compile(r"[A-Za-z)\]]_?[A-Za-z0-9]*\^[\d({A-Za-z]"),
    "plain-text subscript": re.compile(r"(?<![\w.])[A-Za-z]_\{?[A-Za-z0-9]{1,2}\}?(?![\w(])"),
    "plain-text expectation": re.compile(r"\b[EPV]\[\s*[A-Za-z]"),
    "plain-text bar or hat": re.compile(
        r"\b(?:[a-zA-Z]-(?:bar|hat)|(?:phi|Phi)-?(?:bar|hat)|" r"[kpqsxKPQSX]bar|[pkPK]hat)\b"
    ),
    "plain-text H0": re.compile(r"\|\s*H0\b"),
    "plain-text sqrt": re.compile(r"(?<![\w.])sqrt\("),
    "plain-text bound": re.compile(r"\bE\(V\)\s*<="),
    "plain-text FDP": re.compile(r"\bFDP\+\("),
}
#: Words written for the project's developers, in prose.
INTERNAL_PATTERNS = {
    "the main job": re.compile(r"\bthe main job\b", re.I),
    "an issue number": re.compile(r"\bissues? \d+\b", re.I),
    "a private name": re.compile(r"\bpropstab(?:\.\w+)*\._[a-z]\w*|(?<![\w.])_registry\."),
    "a test file": re.compile(r"\btests?/test_\w*"),
    "a name without its accent": re.compile(r"\bBuhlmann\b"),
    "a bare repository path": re.compile(
        r"(?<![\w/.:-])(?:docs|propstab|scripts|studies|tests|rpackage|benchmarks|r_compat|"
        r"examples)/[\w./-]*\w\.(?:md|py|R|Rd|txt|json|csv|rst)\b"
    ),
}
#: Pages that document how propstab was validated (the Validation section, its gallery
#: examples) and the contributor guide: they may name the studies, tests and files of the
#: source tree; every other page is a reader's and names none.
VALIDATION_PAGES = (
    "findings/index.html",
    "table41.html",
    "paper_values.html",
    "inference_validation.html",
    "r_crosscheck.html",
    "performance.html",
    "calibration_study.html",
    "kamkar_experiment.html",
    "ci_error_rates.html",
    "stability_selection_stabs.html",
    "contributing.html",
    "auto_gallery/evidence/",
)
#: A file or folder of the source tree, in inline code too (reader pages).
REPOSITORY_PATH = re.compile(
    r"(?<![\w/.:-])(?:tests|studies|scripts|benchmarks|r_compat|properties|examples|docs|"
    r"rpackage/(?:R|tests|man|inst))/[\w./*:-]*"
)
#: "the thesis" first written without the name of its author nearby ("PhD thesis" in a
#: reference is another's); checked on the hand-written and catalogue pages (the API
#: pages' docstrings and the R reference cite the thesis in their References).
THESIS = re.compile(r"(?<!PhD )\bthesis\b", re.I)
THESIS_UNCHECKED = ("api/", "r/", "_modules/")
#: The PNG text key under which a figure records its smallest text (pixels at its natural
#: size), and the smallest text a figure may show (pixels, as displayed at 1,400 px).
TEXT_KEY = "Smallest text px"
MIN_FIGURE_TEXT = 9.0


def smallest_text_px(fig, dpi) -> float:
    """The smallest font of a matplotlib figure's visible texts, in pixels at ``dpi`` (the
    figure is drawn first: tick labels get their text then)."""
    import matplotlib.text

    fig.draw_without_rendering()
    sizes = [
        t.get_fontsize()
        for t in fig.findobj(matplotlib.text.Text)
        if t.get_visible() and t.get_text().strip()
    ]
    return min(sizes, default=0.0) * dpi / 72


def save_figure(fig, path, dpi: float = 100, **options) -> float:
    """``fig.savefig(path, dpi=dpi)`` with the figure's smallest text recorded in the PNG
    (:data:`TEXT_KEY`); returns that size in pixels at its natural size."""
    px = smallest_text_px(fig, dpi)
    metadata = {**(options.pop("metadata", None) or {}), TEXT_KEY: f"{px:.1f}"}
    fig.savefig(path, dpi=dpi, metadata=metadata, **options)
    return px


#: The most words a reader's page holds (its main column: prose, code and formulas); a
#: longer one is split (the API reference has a page per module).
MAX_WORDS = 3000
#: The widths every page is read at: a desktop's and a phone's.
WIDTHS = (1400, 390)

#: In what the gallery's examples printed: warnings with the build's file paths, and
#: the reprs of matplotlib calls (``Text(0.5, 1.0, 'title')``).
OUTPUT_PATTERNS = {
    "a warning with a path in the output": re.compile(r"(?:/[\w.+-]+)+\.py:\d+: \w*Warning"),
    "a stray repr in the output": re.compile(r"(?m)^\s*(?:Text|Line2D|Legend|<matplotlib)\b[(.]"),
}
#: In code too (examples a reader copies): imports of private modules and helpers.
CODE_PATTERNS = {
    "a private import": re.compile(r"(?:from|import)\s+(?:propstab(?:\.\w+)*\._\w+|_\w+)"),
}

_SKIP_TAGS = {"pre", "code", "script", "style", "kbd", "tt", "samp", "svg", "math"}
_SKIP_CLASSES = {
    "math",
    "highlight",
    "MathJax",
    "MathJax_SVG",
    "MathJax_Preview",
    "sphx-glr-script-out",
    "headerlink",
    "viewcode-link",
    "viewcode-back",
    "sig",
    "descname",
    "descclassname",
    "sig-param",
    "literal",
}
_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Page(html.parser.HTMLParser):
    """One page's ids, links, prose (main column, code and math left out) and code."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set = set()
        self.links: List[str] = []
        self.prose: List[str] = []
        self.code: List[str] = []  # code blocks and inline literals
        self.inline: List[str] = []  # inline literals only
        self.output: List[str] = []  # what gallery examples printed
        self.words = 0  # in the main column, prose, code and formulas alike
        self._stack: List[tuple] = []  # (tag, skip, in_main, is_code, in_pre, in_out)

    def _state(self):
        return self._stack[-1][1:] if self._stack else (False, False, False, False, False)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "link", "img", "script", "iframe", "source"):
                self.links.append(attrs[key])
        if tag in _VOID:
            return
        skip, in_main, is_code, in_pre, in_out = self._state()
        classes = set((attrs.get("class") or "").split())
        in_out = in_out or "sphx-glr-script-out" in classes
        in_main = in_main or tag in ("main", "article")
        in_pre = in_pre or tag == "pre" or "highlight" in classes
        is_code = is_code or in_pre or tag in ("code", "tt", "kbd") or "literal" in classes
        skip = skip or tag in _SKIP_TAGS or bool(classes & _SKIP_CLASSES)
        self._stack.append((tag, skip, in_main, is_code, in_pre, in_out))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self._stack and self._stack[-1][0] == tag:
            self._stack.pop()

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                return

    def handle_data(self, data):
        skip, in_main, is_code, in_pre, in_out = self._state()
        if not in_main:
            return
        self.words += len(data.split())
        if in_out:
            self.output.append(data)
        if is_code:
            self.code.append(data)
            if not in_pre:
                self.inline.append(data)
        if not skip:
            self.prose.append(data)


def pages(html_dir: pathlib.Path = HTML) -> List[str]:
    """The site's HTML pages, as paths relative to ``html_dir`` (sorted)."""
    return sorted(
        str(p.relative_to(html_dir))
        for p in html_dir.rglob("*.html")
        if p.relative_to(html_dir).parts[0] not in NOT_PAGES
    )


def _parse(path: pathlib.Path) -> _Page:
    """The parsed page, read again only when the file changed (its size or time): the
    parts of an audit in one process (the test suite's) each check links into most of the
    site (the navigation links every API page), and would parse those pages once per part."""
    stat = path.stat()
    return _parsed(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=None)
def _parsed(path: str, mtime_ns: int, size: int) -> _Page:
    page = _Page()
    page.feed(pathlib.Path(path).read_text(encoding="utf-8", errors="replace"))
    page.close()
    return page


def _sentence(text: str, start: int, end: int) -> str:
    left, right = max(0, start - 40), min(len(text), end + 40)
    return " ".join(text[left:right].split())


def scan(
    html_dir: pathlib.Path = HTML, only: Optional[Iterable[str]] = None
) -> Dict[str, List[str]]:
    """Links, formulas and internal words of every page (no browser): page -> problems."""
    html_dir = pathlib.Path(html_dir)
    names = pages(html_dir) if only is None else list(only)
    parsed: Dict[str, _Page] = {}

    def get(name):
        if name not in parsed:
            parsed[name] = _parse(html_dir / name)
        return parsed[name]

    problems: Dict[str, List[str]] = collections.defaultdict(list)
    for name in names:
        page = get(name)
        for link in page.links:
            url = urllib.parse.urlsplit(link)
            if url.scheme or link.startswith(("//", "mailto:", "javascript:", "data:")):
                continue
            target = (
                posixpath.normpath(
                    posixpath.join(posixpath.dirname(name), urllib.parse.unquote(url.path))
                )
                if url.path
                else name
            )
            if (html_dir / target).is_dir():
                target = posixpath.join(target, "index.html")
            if target.startswith("..") or not (html_dir / target).is_file():
                problems[name].append(f"broken link {link!r}: no file {target}")
                continue
            if url.fragment and target.endswith(".html"):
                if urllib.parse.unquote(url.fragment) not in get(target).ids:
                    problems[name].append(
                        f"broken anchor {link!r}: no id " f"{url.fragment!r} on {target}"
                    )
        source_view = name.startswith("_modules/")
        if name in NAME_LISTS:
            continue
        prose = " ".join(" ".join(page.prose).split())
        checks = dict(INTERNAL_PATTERNS)
        if not source_view:
            checks.update(FORMULA_PATTERNS)
        for label, pattern in checks.items():
            if source_view and label == "a private name":
                continue
            text = prose
            if label == "a private name":  # in prose and in inline literals
                text = prose + " " + " ".join(" ".join(page.inline).split())
            for m in pattern.finditer(text):
                problems[name].append(
                    f"{label}: {m.group(0)!r} in " f'"...{_sentence(text, m.start(), m.end())}..."'
                )
        if not name.startswith(VALIDATION_PAGES) and not source_view:
            if page.words > MAX_WORDS:
                problems[name].append(
                    f"too long for one page: {page.words} words (a reader's page holds at "
                    f"most {MAX_WORDS}: split it)"
                )
            inline = " ".join(" ".join(page.inline).split())
            for m in REPOSITORY_PATH.finditer(inline):
                problems[name].append(f"a repository path in code: {m.group(0)!r}")
            first = THESIS.search(prose) if not name.startswith(THESIS_UNCHECKED) else None
            if first and "Nogueira" not in prose[max(0, first.start() - 80) : first.end() + 80]:
                problems[name].append(
                    f'the thesis unnamed: "...{_sentence(prose, first.start(), first.end())}..."'
                )
        printed = "".join(page.output)
        for label, pattern in OUTPUT_PATTERNS.items():
            hits = pattern.findall(printed)
            if hits:
                problems[name].append(f"{label}: {len(hits)} times, e.g. {hits[0]!r}")
        if not source_view:
            code = "\n".join(page.code)
            for label, pattern in CODE_PATTERNS.items():
                for m in pattern.finditer(code):
                    problems[name].append(f"{label} in code: {m.group(0)!r}")
    return dict(problems)


# Runs in a blank page of the site's origin: opens each page of arguments[0] in a frame
# of arguments[1] x arguments[2] px, all at once, waits for each to load and for MathJax
# 2 to finish in it, then reports each page's width. A frame of the window's size lays
# the page out as the window would (same viewport for its media queries). The frames sit
# outside the window, so nothing is painted; layout, MathJax and the measures are the
# same (checked on all 346 pages against a navigation per page), for ~45 % less CPU (one
# document is kept, no page is painted). Several frames at once overlap their waits
# (MathJax's own delays), ~15 % less wall on a busy machine.
_WIDTH = """
const done = arguments[arguments.length - 1];
const [urls, width, height] = arguments;
document.querySelectorAll("iframe.audited").forEach(f => f.remove());
const out = new Array(urls.length);
let left = urls.length;
urls.forEach(function (url, i) {
  const frame = document.createElement("iframe");
  frame.className = "audited";
  frame.style.cssText = `width: ${width}px; height: ${height}px; border: 0; display: block;
    position: absolute; top: ${i * (height + 10)}px; left: -${2 * width + 10000}px`;
  frame.onload = function () {
    const w = frame.contentWindow, d = frame.contentDocument;
    function report() {
      out[i] = {width: d.scrollingElement.scrollWidth, window: w.innerWidth,
                formulas: d.querySelectorAll("main span.math, main div.math").length,
                typeset: d.querySelectorAll(
                  "main .MathJax_SVG, main .MathJax_SVG_Display, main .MathJax_Error").length,
                images: Array.from(d.querySelectorAll("main img")).map(
                  im => [im.currentSrc || im.src, im.naturalWidth,
                         im.getBoundingClientRect().width])};
      if (--left === 0) { done(out); }
    }
    if (typeof w.MathJax !== "undefined" && w.MathJax.Hub) {
      w.MathJax.Hub.Register.StartupHook("End", function () { w.MathJax.Hub.Queue(report); });
    } else { report(); }
  };
  frame.src = url;
  document.body.appendChild(frame);
});
"""
#: Pages read at once (in as many frames) by :func:`widths`.
FRAMES = 4


def widths(
    html_dir: pathlib.Path = HTML,
    only: Optional[Sequence[str]] = None,
    width: int = 1400,
    screenshots: Optional[pathlib.Path] = None,
    shoot: Sequence[str] = (),
    opened=None,
    images: Optional[dict] = None,
) -> Dict[str, tuple]:
    """Read every page in one headless Chromium session, each in a frame ``width`` px
    wide (as high as the window; :data:`FRAMES` pages at once), and return page ->
    (page width, frame width, formulas, formulas typeset); pages in ``shoot`` are also
    opened in the window and photographed into ``screenshots``. ``opened``: a
    ``check_site.session`` on ``html_dir`` to use instead of starting one. ``images``:
    a dict to fill with page -> [(the image's path in the site, its natural width, the
    width shown)]."""
    import check_site  # scripts/ (same folder)

    html_dir = pathlib.Path(html_dir)
    names = pages(html_dir) if only is None else list(only)
    out = {}
    with check_site.opened_or_new(html_dir, opened) as (base, driver):
        driver.set_window_size(width, check_site.HEIGHT)
        driver.get(base + check_site.BLANK)
        for start in range(0, len(names), FRAMES):
            group = names[start : start + FRAMES]
            seen = driver.execute_async_script(
                _WIDTH, [base + name for name in group], width, check_site.HEIGHT
            )
            for name, s in zip(group, seen):
                out[name] = (
                    int(s["width"]),
                    int(s["window"]),
                    int(s["formulas"]),
                    int(s["typeset"]),
                )
                if images is not None:
                    images[name] = [
                        (_site_path(base, src), int(natural), float(shown))
                        for src, natural, shown in s["images"]
                    ]
        if screenshots is not None:
            for name in (n for n in names if n in shoot):
                screenshots.mkdir(parents=True, exist_ok=True)
                driver.get(base + name)
                height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.set_window_size(
                    width, min(max(int(height), check_site.HEIGHT), check_site.MAX_HEIGHT)
                )
                driver.save_screenshot(
                    str(screenshots / (name.replace("/", "_").replace(".html", "") + ".png"))
                )
                driver.set_window_size(width, check_site.HEIGHT)
    return out


def _site_path(base: str, src: str) -> Optional[str]:
    """The path in the site of an image's URL (None: not one of the site's)."""
    if not src.startswith(base):
        return None
    return urllib.parse.unquote(urllib.parse.urlsplit(src[len(base) :]).path)


def png_text(path: pathlib.Path) -> Dict[str, str]:
    """The text chunks (``tEXt``) of a PNG file: key -> value (empty for another file)."""
    data = path.read_bytes() if path.is_file() else b""
    out: Dict[str, str] = {}
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return out
    at = 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind = data[at + 4 : at + 8]
        if kind == b"tEXt":
            key, _, value = data[at + 8 : at + 8 + length].partition(b"\0")
            out[key.decode("latin-1")] = value.decode("latin-1")
        if kind in (b"IDAT", b"IEND"):  # matplotlib writes its text chunks before the image
            break
        at += 12 + length
    return out


def figure_problems(html_dir: pathlib.Path, images: Sequence[tuple]) -> List[str]:
    """The figures of one page whose smallest text is below :data:`MIN_FIGURE_TEXT` px as
    shown (or that do not record it): ``images`` as :func:`widths` collects them."""
    problems = []
    for path, natural, shown in images:
        if not path or not path.startswith("_images/") or not path.endswith(".png"):
            continue
        if "_thumb" in path or natural <= 0 or shown <= 0:
            continue  # a gallery's thumbnail, or an image not shown
        recorded = png_text(html_dir / path).get(TEXT_KEY)
        if recorded is None:
            problems.append(f"figure without its text size: {path} (key {TEXT_KEY!r})")
            continue
        text = float(recorded) * shown / natural
        if text < MIN_FIGURE_TEXT:
            problems.append(
                f"figure text too small: {path}: {text:.1f} px as shown ({recorded} px at "
                f"its {natural} px, shown at {shown:.0f} px; at least {MIN_FIGURE_TEXT:g})"
            )
    return problems


# Runs in the page: where the article starts, and how wide the page is.
_PHONE = """
const done = arguments[arguments.length - 1];
const main = document.querySelector("main") || document.body;
done({width: document.scrollingElement.scrollWidth, window: window.innerWidth,
      top: main.getBoundingClientRect().top + window.scrollY});
"""


def phone_layout(
    html_dir: pathlib.Path = HTML,
    only: Sequence[str] = ("index.html",),
    width: int = 390,
    height: int = 844,
    opened=None,
) -> Dict[str, dict]:
    """Open ``only`` in a phone-sized window (390 x 844 px): page -> its width, the
    window's, and the distance from the top of the page to the article (the site's
    navigation above it should take less than a screen). ``opened``: a
    ``check_site.session`` on ``html_dir`` to use instead of starting one."""
    import check_site  # scripts/ (same folder)

    out = {}
    with check_site.opened_or_new(pathlib.Path(html_dir), opened) as (base, driver):
        driver.set_window_size(width, height)
        for name in only:
            driver.get(base + name)
            seen = driver.execute_async_script(_PHONE)
            seen["screen"] = int(driver.execute_script("return window.innerHeight"))
            out[name] = seen
    return out


def audit(
    html_dir: pathlib.Path = HTML,
    browser: bool = True,
    width: int = 1400,
    screenshots: Optional[pathlib.Path] = None,
    shoot: Sequence[str] = (),
    only: Optional[Sequence[str]] = None,
    opened=None,
    phone: Optional[int] = WIDTHS[1],
) -> Dict[str, List[str]]:
    """Every check on every page (or on the pages ``only``): page -> problems (pages
    without problems left out). The widths are measured at ``width`` and again at
    ``phone`` px (None: not). ``opened``: a ``check_site.session`` on ``html_dir`` for
    the browser's checks, instead of starting one."""
    if not browser:
        return {k: v for k, v in scan(html_dir, only).items() if v}

    images: dict = {}

    def read():
        seen = {width: widths(html_dir, only, width, screenshots, shoot, opened, images)}
        if phone:
            seen[phone] = widths(html_dir, only, phone, None, (), opened)
        return seen

    # the browser reads the pages while this process scans them (the scan is Python, the
    # reading Chromium's: the two overlap instead of taking turns on the cores)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        seen = pool.submit(read)
        problems = collections.defaultdict(list, scan(html_dir, only))
        measured = seen.result()
    for name, shown in images.items():
        problems[name].extend(figure_problems(pathlib.Path(html_dir), shown))
    for at, pages_seen in measured.items():
        for name, (page_width, window, formulas, typeset) in pages_seen.items():
            if page_width > window:
                problems[name].append(
                    f"wider than the window at {at} px: {page_width} px > " f"{window} px"
                )
            if at == width and typeset < formulas:
                problems[name].append(
                    f"formulas not typeset: MathJax typeset {typeset} of " f"{formulas}"
                )
    return {k: v for k, v in problems.items() if v}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=pathlib.Path, default=HTML)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--width", type=int, default=WIDTHS[0])
    parser.add_argument(
        "--phone",
        type=int,
        default=WIDTHS[1],
        help="the second width, a phone's (0: not measured)",
    )
    parser.add_argument("--screenshots", type=pathlib.Path, default=None)
    parser.add_argument(
        "--shoot", nargs="*", default=[], help="pages to photograph into --screenshots"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    found = audit(
        args.html,
        not args.no_browser,
        args.width,
        args.screenshots,
        args.shoot,
        phone=args.phone or None,
    )
    for name, items in sorted(found.items()):
        for item in items:
            print(f"{name}: {item}")
    n = sum(len(v) for v in found.values())
    print(
        f"{n} problems on {len(found)} of {len(pages(args.html))} pages "
        f"({time.perf_counter() - start:.0f} s)"
    )
    return 1 if n else 0


if __name__ == "__main__":
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    sys.exit(main())
