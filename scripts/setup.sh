#!/usr/bin/env bash
# Install everything propstab needs on a fresh Debian machine of this project:
#   Debian's python3-* packages (run on /usr/bin/python3), Debian's R with an optimised BLAS,
#   the R reference packages (stabm, irr, stabs) from CRAN by name, propstab itself (editable,
#   into /usr/bin/python3) and its R package (rpackage/, `library(propstab)` in R).
# Idempotent: when everything is present it only checks and returns in a few seconds.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"     # root runs apt-get without sudo

DEBIAN_PACKAGES=(
  python3-numpy python3-scipy python3-pandas python3-hypothesis python3-statsmodels
  python3-rpy2 python3-pytest python3-pytest-xdist python3-sklearn python3-matplotlib
  python3-tqdm python3-joblib python3-dask python3-distributed python3-setuptools python3-pip
  # formatting and lint (make lint, run by the test suite)
  black flake8
  # every test under a timeout (pyproject.toml); psutil lists the listening sockets of a test
  python3-pytest-timeout python3-psutil
  libopenblas0-pthread
  # the documentation site (make docs) and its browser check
  python3-sphinx python3-numpydoc python3-myst-parser python3-sphinx-gallery
  python3-pydata-sphinx-theme libjs-mathjax chromium chromium-driver python3-selenium
  python3-sphinx-copybutton
  # the local inventories of the site's links to Python's, scipy's, scikit-learn's and
  # pandas's documentation (intersphinx without network; numpy has no Debian doc package)
  python3-doc python-scipy-doc python-sklearn-doc python-pandas-doc
  # the R package's reference site (pkgdown, built into the site's r/)
  r-cran-pkgdown pandoc
  r-base-core r-base-dev
  # binary builds of the R packages' own dependencies (avoids compiling them from source)
  r-cran-checkmate r-cran-data.table r-cran-igraph r-cran-lpsolve r-cran-matrix r-cran-jsonlite
  # sharp's dependencies (r_compat/install.R installs sharp itself from CRAN)
  r-cran-abind r-cran-future r-cran-glmnet r-cran-mclust r-cran-nloptr r-cran-plotrix
  r-cran-rdpack r-cran-withr
  # the R package rpackage/: reticulate calls the Python library; testthat runs its tests;
  # roxygen2 regenerates its Rd files and NAMESPACE (make rdoc)
  r-cran-reticulate r-cran-testthat r-cran-roxygen2
  # suggested by the R package: plotFeatures() draws with ggplot2 (base graphics without);
  # tidy()/glance() methods for the generics of generics/broom
  r-cran-ggplot2 r-cran-generics
)

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# An optimised BLAS for numpy and R. Both link libblas.so.3 / liblapack.so.3, which
# Debian's alternatives may leave on the reference BLAS (a dense 1000 x 20000 float32
# product then takes ~10 s instead of ~0.1 s). Select OpenBLAS (pthread) when it is not.
for target in /usr/lib/*/openblas-pthread/libblas.so.3 /usr/lib/*/openblas-pthread/liblapack.so.3; do
  [ -e "$target" ] || continue
  name="$(basename "$target")-$(basename "$(dirname "$(dirname "$target")")")"
  current="$(update-alternatives --query "$name" 2>/dev/null | sed -n 's/^Value: //p')"
  if [ "$current" != "$target" ]; then
    echo "setup: selecting OpenBLAS for $name (was: ${current:-none})"
    $SUDO update-alternatives --set "$name" "$target"
  fi
done
/usr/bin/python3 - <<'PY'
import time
import numpy as np
A = (np.random.default_rng(0).random((1000, 20000)) < 0.005).astype(np.float32)
start = time.perf_counter()
A @ A.T
seconds = time.perf_counter() - start
if seconds > 2.0:
    print(f"setup: WARNING: a 1000 x 20000 float32 product took {seconds:.1f} s; numpy is not "
          "using an optimised BLAS (check: update-alternatives --display "
          "libblas.so.3-x86_64-linux-gnu)")
PY

# R reference packages from CRAN, with the repositories this machine is configured with.
Rscript "$here/r_compat/install.R"

# The package itself, as an editable install of this checkout into /usr/bin/python3
# (no network: no dependencies and no build isolation; Debian's packages provide them).
# The check runs from / in isolated mode (-I): run from the checkout, `import propstab`
# would find the source folder in the working directory and hide a missing install.
installed_here() {
  (cd / && /usr/bin/python3 -I - "$here" <<'PY'
import pathlib, sys
try:
    import propstab
except ImportError:
    sys.exit(1)
root = pathlib.Path(sys.argv[1]).resolve()
if pathlib.Path(propstab.__file__).resolve().parent.parent != root:
    sys.exit(1)
# entry points are written at install time: reinstall when one of pyproject.toml's is missing
from importlib.metadata import entry_points
sys.exit(0 if any(e.value == "propstab.pytest_plugin"
                  for e in entry_points(group="pytest11")) else 1)
PY
  ) && command -v propstab >/dev/null 2>&1
}
if ! installed_here; then
  echo "setup: installing propstab (editable) from $here"
  /usr/bin/python3 -m pip install --quiet --no-deps --no-build-isolation \
    --break-system-packages --root-user-action=ignore -e "$here"
  hash -r
  if ! installed_here; then
    echo "setup: ERROR: after installing, 'import propstab' outside $here does not resolve to" \
      "this checkout or the 'propstab' command is not on PATH ($PATH)" >&2
    exit 1
  fi
fi
# Byte-compile the library once (quiet, only what changed): where PYTHONDONTWRITEBYTECODE
# is set (as on this project's machines), every Python process of a run (pytest's
# workers, the audit's, R's through reticulate, the site's build) would compile it again.
/usr/bin/python3 -m compileall -q "$here/propstab"

# The R package (rpackage/): installed into R's first library with R CMD INSTALL, again
# whenever its source changes. A hash of rpackage/ is installed with it (inst/SOURCE_HASH
# of a copy) and compared on every run.
r_source_hash() {
  (cd "$here" && find rpackage -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum \
    | sha256sum | cut -d' ' -f1)
}
r_installed_hash() {
  Rscript -e 'f <- system.file("SOURCE_HASH", package = "propstab"); if (nzchar(f)) cat(readLines(f, warn = FALSE))' 2>/dev/null || true
}
install_r_package() {
  local tmp
  tmp="$(mktemp -d)"
  cp -r "$here/rpackage" "$tmp/propstab"
  mkdir -p "$tmp/propstab/inst"
  echo "$1" > "$tmp/propstab/inst/SOURCE_HASH"
  if ! R CMD INSTALL "$tmp/propstab" > "$tmp/install.log" 2>&1; then
    cat "$tmp/install.log" >&2
    rm -rf "$tmp"
    echo "setup: ERROR: R CMD INSTALL of $here/rpackage failed" >&2
    exit 1
  fi
  rm -rf "$tmp"
}
r_hash="$(r_source_hash)"
if [ "$(r_installed_hash)" != "$r_hash" ]; then
  echo "setup: installing the R package propstab from $here/rpackage"
  install_r_package "$r_hash"
  if [ "$(r_installed_hash)" != "$r_hash" ]; then
    echo "setup: ERROR: after R CMD INSTALL, R does not find the R package propstab of $here" >&2
    exit 1
  fi
fi
echo "setup: done"
