#!/usr/bin/env bash
# R CMD check --as-cran of the R package rpackage/: builds the source package in a
# temporary directory, checks it there and prints a summary (the status line, then each
# NOTE, WARNING and ERROR with its first lines). Exits 1 on any ERROR or WARNING, 0
# otherwise (NOTEs are explained in rpackage/cran-comments.md).
#
# Without network: _R_CHECK_CRAN_INCOMING_=false (no CRAN incoming checks: URLs, DOIs).
# _R_CHECK_FORCE_SUGGESTS_=false: a suggested package that is absent is skipped by the
# examples and tests, as on a machine without it. The Python side is the one R finds by
# default (/usr/bin/python3, or PROPSTAB_PYTHON / PYTHONPATH as set by the caller).
#
# --also-without-python: then checks the same tarball again as CRAN's machines see it,
# with the Python side hidden (PYTHONPATH holds a Python package `propstab` whose import
# fails, and PROPSTAB_PYTHON / RETICULATE_PYTHON are unset: the interpreter exists, the
# Python package does not), into nopython/propstab.Rcheck/ (R CMD check's output in
# check.nopython.log); its summary follows the first, prefixed "r_check (no Python):".
# Only the examples and the tests depend on Python: the second check reuses the package
# the first installed (--install=skip -l propstab.Rcheck) and leaves codoc (code against
# documentation) to the first (--no-codoc); about 20 s of CPU.
#
# Usage: scripts/r_check.sh [--also-without-python] [KEEP_DIR]   (KEEP_DIR: where to
# leave the tarball and the propstab.Rcheck/ folders; by default a temporary directory
# removed afterwards)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
without_python=0
if [ "${1:-}" = "--also-without-python" ]; then without_python=1; shift; fi
if [ "$#" -ge 1 ]; then
  work="$1"; mkdir -p "$work"
else
  work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fi
work="$(cd "$work" && pwd)"; cd "$work"
rm -rf propstab.Rcheck nopython propstab_*.tar.gz
if ! R CMD build --no-manual "$here/rpackage" > build.log 2>&1; then
  echo "r_check: ERROR: R CMD build failed:"; tail -20 build.log; exit 1
fi
tarball="$(ls propstab_*.tar.gz)"
# "checking package dependencies" looks for a cycle of strong dependencies through the
# package in the index of getOption("repos") (utils::available.packages()): by default
# CRAN's whole index, downloaded and parsed on every run (2.7 CPU-s and ~6 s of network;
# nothing offline). It reads instead a local repository whose index lists the installed
# packages (those the check loads) with their dependency fields: the same check, on this
# machine's packages, offline. The start-up profile that sets it reads the caller's own
# profile first (R_PROFILE_USER, else ~/.Rprofile).
mkdir -p repo/src/contrib
if ! Rscript --vanilla -e '
  fields <- c("Package", "Version", "Depends", "Imports", "LinkingTo", "Suggests",
              "Enhances", "License", "OS_type", "NeedsCompilation")
  db <- utils::installed.packages(fields = fields)
  db <- db[!duplicated(db[, "Package"]), intersect(fields, colnames(db)), drop = FALSE]
  write.dcf(db, file.path("repo", "src", "contrib", "PACKAGES"))' > repo.log 2>&1; then
  echo "r_check: ERROR: the local package index could not be written:"; cat repo.log; exit 1
fi
user_profile="${R_PROFILE_USER:-$HOME/.Rprofile}"
{
  echo "if (file.exists('$user_profile')) sys.source('$user_profile', envir = globalenv())"
  echo "options(repos = c(CRAN = 'file://$work/repo'))"
} > check.Rprofile
# check DIR LOG PREFIX [R CMD check options]: checks the tarball into DIR/propstab.Rcheck/
# (R CMD check's output in LOG) and prints the summary; returns 1 on any ERROR or WARNING
check() {
  local dir="$1" out="$2" prefix="$3"; shift 3
  local status=0
  mkdir -p "$dir"
  R_PROFILE_USER="$work/check.Rprofile" \
    _R_CHECK_CRAN_INCOMING_=false _R_CHECK_CRAN_INCOMING_REMOTE_=false \
    _R_CHECK_FORCE_SUGGESTS_=false \
    R CMD check --as-cran --no-manual "$@" -o "$dir" "$tarball" > "$out" 2>&1 || status=$?
  local log="$dir/propstab.Rcheck/00check.log"
  [ -f "$log" ] || log="$out"
  echo "$prefix: R CMD check --as-cran --no-manual $* $tarball (exit $status)"
  grep -E "^Status:" "$out" || echo "Status: (none; see $work/$out)"
  # each problem: its '* checking ...' line and the lines up to the next check
  awk '/^\* /{show = ($0 ~ /(NOTE|WARNING|ERROR)$/)} show' "$log" | head -80
  local errors warnings notes
  errors=$(grep -cE "^\* .*ERROR$" "$log" || true)
  warnings=$(grep -cE "^\* .*WARNING$" "$log" || true)
  notes=$(grep -cE "^\* .*NOTE$" "$log" || true)
  echo "$prefix: $errors ERROR, $warnings WARNING, $notes NOTE"
  if [ "$errors" -gt 0 ] || [ "$warnings" -gt 0 ] || [ "$status" -ne 0 ]; then return 1; fi
}
result=0
check "$work" check.log "r_check" || result=1
if [ "$without_python" -eq 1 ]; then
  # a Python package `propstab` that cannot be imported, first on sys.path: the
  # interpreter runs, propstab_available() is FALSE, examples and tests skip
  rm -rf nopython hidden
  mkdir -p hidden/propstab
  echo "raise ImportError('propstab is hidden for the check without Python')" \
    > hidden/propstab/__init__.py
  PYTHONPATH="$work/hidden" PROPSTAB_PYTHON="" RETICULATE_PYTHON="" \
    check "$work/nopython" check.nopython.log "r_check (no Python)" --no-codoc \
    --install=skip -l "$work/propstab.Rcheck" || result=1
fi
exit "$result"
