"""Open pages of the built documentation site in headless Chromium and check they render.

Usage::

    /usr/bin/python3 scripts/check_site.py                      # docs/_build/html, the default
    pages
    /usr/bin/python3 scripts/check_site.py --html DIR --screenshots DIR index.html ...

The pages are served over HTTP from 127.0.0.1 (as a web server would serve the site;
browsers restrict fonts and scripts opened from file:// URLs). For each page: the title
is present, the navigation bar links the site's sections, no
error box is shown (docutils system messages, sphinx-gallery tracebacks, MathJax
errors), every formula was typeset by MathJax, every image loaded, and the browser's
console has no error (a missing script or style sheet, a blocked network request). A
screenshot of each whole page (up to 6000 pixels high) is written to the
screenshot folder. Prints one line per page
and exits with status 1 when a check fails.

Uses Debian's chromium and chromium-driver through python3-selenium; Chromium runs as
root with the flags below, in a fresh profile, without network access.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import http.server
import os
import pathlib
import signal
import sys
import tempfile
import threading
import time
from typing import List, Sequence

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "docs" / "_build" / "html"
SCREENSHOTS = ROOT / "docs" / "_build" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
WIDTH, HEIGHT, MAX_HEIGHT = 1400, 1000, 6000  # window; screenshots show up to MAX_HEIGHT
#: Seconds a page may take to load, and any one command to chromedriver to answer (a
#: browser that stops answering fails the check instead of waiting for ever).
PAGE_SECONDS, COMMAND_SECONDS = 60, 180
#: A page the HTTP server of :func:`serve` answers itself, empty: a host on the site's
#: own origin for pages read in a frame (scripts/site_audit.py's widths).
BLANK = "_propstab_blank_.html"
_BLANK_PAGE = (
    b"<!DOCTYPE html><html><head><meta charset='utf-8'><title>blank</title>"
    b"</head><body style='margin: 0'></body></html>"
)
#: The pages checked by default: the landing page, a measure page (formulas), a gallery
#: example (figures produced at build time) and an API page.
DEFAULT_PAGES = (
    "index.html",
    "catalogue/nogueira.html",
    "auto_gallery/basics/plot_selection_matrix.html",
    "api/generated/propstab.estimate.html",
)
#: The site's sections, as the navigation bar names them.
SECTIONS = (
    "Getting started",
    "User guide",
    "Validation",
    "Measure catalogue",
    "API reference",
    "Gallery",
)
ERROR_BOXES = (
    ".system-message, .problematic, .highlight-pytb, .sphx-glr-script-out "
    ".traceback, .MathJax_Error, merror"
)

# Runs in the page: waits for MathJax 2 to finish, then reports what the checks read.
_INSPECT = """
const done = arguments[arguments.length - 1];
function report() {
  const images = Array.from(document.images);
  done({
    title: document.title,
    h1: (document.querySelector("h1") || {}).textContent || "",
    nav: Array.from(document.querySelectorAll("nav a, .navbar a")).map(a => a.textContent.trim()),
    errors: Array.from(document.querySelectorAll(arguments_errors)).map(e => e.outerHTML.slice(0,
    200)),
    images: images.length,
    broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
    math: document.querySelectorAll('script[type^="math/tex"]').length,
    typeset: document.querySelectorAll(".MathJax_SVG, .MathJax_SVG_Display .MathJax_SVG").length,
    mathjax: typeof MathJax !== "undefined",
    text: document.body.innerText.length,
  });
}
const arguments_errors = arguments[0];
if (typeof MathJax !== "undefined" && MathJax.Hub) {
  MathJax.Hub.Queue(report);
} else {
  report();
}
"""


@dataclasses.dataclass
class PageCheck:
    """What one page showed, and the problems found."""

    page: str
    screenshot: pathlib.Path
    title: str
    h1: str
    images: int
    formulas: int
    seconds: float
    problems: List[str]

    def __str__(self) -> str:
        status = "ok" if not self.problems else "FAILED: " + "; ".join(self.problems)
        return (
            f"{self.page}: title {self.title!r}, {self.images} images, "
            f"{self.formulas} formulas, {self.seconds:.1f} s -> {self.screenshot} [{status}]"
        )


@contextlib.contextmanager
def browser():
    """A headless Chromium driven by chromedriver; quits both on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='propstab-chromium-')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    from selenium.webdriver.remote.remote_connection import RemoteConnection

    RemoteConnection.set_timeout(COMMAND_SECONDS)
    # chromedriver leads a process group of its own, which Chromium's processes join: on
    # leaving, whatever of it is left (a browser that hung, or did not quit) is killed
    service = Service(CHROMEDRIVER, popen_kw={"start_new_session": True})
    try:
        driver = webdriver.Chrome(service=service, options=options)
        try:
            driver.set_window_size(WIDTH, HEIGHT)
            driver.set_page_load_timeout(PAGE_SECONDS)
            yield driver
        finally:
            driver.quit()
    finally:
        process = getattr(service, "process", None)
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)


def _blank(png: pathlib.Path) -> bool:
    """True when the screenshot is one flat colour (nothing rendered)."""
    import matplotlib.image

    pixels = matplotlib.image.imread(str(png))
    return float(pixels[..., :3].std()) < 1e-3


@contextlib.contextmanager
def serve(folder: pathlib.Path):
    """An HTTP server for ``folder`` on 127.0.0.1 (a free port) in a thread; yields its
    base URL. It also answers :data:`BLANK`, an empty page (not a file of ``folder``)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path != "/" + BLANK:
                return super().do_GET()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(_BLANK_PAGE)))
            self.end_headers()
            self.wfile.write(_BLANK_PAGE)
            return None

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def session(folder: pathlib.Path = HTML):
    """``folder`` served over HTTP and a headless Chromium to read it: yields ``(base URL,
    driver)``. One session serves several checks (each Chromium start costs seconds)."""
    with serve(pathlib.Path(folder)) as base, browser() as driver:
        driver.set_script_timeout(60)
        yield base, driver


@contextlib.contextmanager
def opened_or_new(html: pathlib.Path, opened):
    """``opened`` (an open :func:`session` on ``html``) as it is, else a new session."""
    if opened is not None:
        yield opened
    else:
        with session(html) as fresh:
            yield fresh


def check_pages(
    html: pathlib.Path = HTML,
    pages: Sequence[str] = DEFAULT_PAGES,
    screenshots: pathlib.Path = SCREENSHOTS,
    opened=None,
) -> List[PageCheck]:
    """Open each page (a path relative to ``html``) and check it; see the module docstring.
    ``opened``: a :func:`session` on ``html`` to use instead of starting one."""
    screenshots.mkdir(parents=True, exist_ok=True)
    results = []
    with opened_or_new(html, opened) as (base, driver):
        driver.get_log("browser")  # what earlier pages logged is not ours
        driver.set_window_size(WIDTH, HEIGHT)
        for page in pages:
            path = (html / page).resolve()
            shot = screenshots / (page.replace("/", "_").replace(".html", "") + ".png")
            start = time.perf_counter()
            problems = []
            if not path.exists():
                results.append(
                    PageCheck(page, shot, "", "", 0, 0, 0.0, [f"{path} does not exist"])
                )
                continue
            driver.get(base + page)
            seen = driver.execute_async_script(_INSPECT, ERROR_BOXES)
            seconds = time.perf_counter() - start
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(WIDTH, min(max(int(height), HEIGHT), MAX_HEIGHT))
            driver.save_screenshot(str(shot))  # the whole page, up to a limit
            driver.set_window_size(WIDTH, HEIGHT)
            if "propstab" not in seen["title"] or not seen["h1"].strip():
                problems.append(f"no title (title {seen['title']!r}, h1 {seen['h1']!r})")
            missing = [s for s in SECTIONS if s not in seen["nav"]]
            if missing:
                problems.append(f"navigation lacks {missing}")
            if seen["errors"]:
                problems.append(f"error boxes: {seen['errors']}")
            if seen["broken"]:
                problems.append(f"images not loaded: {seen['broken']}")
            if seen["math"] and (not seen["mathjax"] or seen["typeset"] < seen["math"]):
                problems.append(
                    f"{seen['math']} formulas but {seen['typeset']} typeset "
                    f"(MathJax loaded: {seen['mathjax']})"
                )
            if seen["text"] < 200:
                problems.append(f"almost no text ({seen['text']} characters)")
            console = [
                e["message"]
                for e in driver.get_log("browser")
                if e["level"] in ("SEVERE", "WARNING")
            ]
            if console:
                problems.append(f"browser console: {console}")
            if _blank(shot):
                problems.append("the screenshot is blank")
            results.append(
                PageCheck(
                    page,
                    shot,
                    seen["title"],
                    seen["h1"].strip(),
                    seen["images"],
                    seen["typeset"],
                    seconds,
                    problems,
                )
            )
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "pages",
        nargs="*",
        default=list(DEFAULT_PAGES),
        help="pages relative to --html (default: %(default)s)",
    )
    parser.add_argument("--html", type=pathlib.Path, default=HTML)
    parser.add_argument("--screenshots", type=pathlib.Path, default=SCREENSHOTS)
    args = parser.parse_args(argv)
    results = check_pages(args.html, args.pages, args.screenshots)
    for r in results:
        print(r)
    return 1 if any(r.problems for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
