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
# Usage: scripts/r_check.sh [KEEP_DIR]   (KEEP_DIR: where to leave the tarball and the
# propstab.Rcheck/ folder; by default a temporary directory removed afterwards)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$#" -ge 1 ]; then
  work="$1"; mkdir -p "$work"
else
  work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fi
work="$(cd "$work" && pwd)"; cd "$work"
rm -rf propstab.Rcheck propstab_*.tar.gz
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
status=0
R_PROFILE_USER="$work/check.Rprofile" \
  _R_CHECK_CRAN_INCOMING_=false _R_CHECK_CRAN_INCOMING_REMOTE_=false \
  _R_CHECK_FORCE_SUGGESTS_=false \
  R CMD check --as-cran --no-manual "$tarball" > check.log 2>&1 || status=$?
log=propstab.Rcheck/00check.log
[ -f "$log" ] || log=check.log
echo "r_check: R CMD check --as-cran --no-manual $tarball (exit $status)"
grep -E "^Status:" check.log || echo "Status: (none; see $work/check.log)"
# each problem: its '* checking ...' line and the lines up to the next check
awk '/^\* /{show = ($0 ~ /(NOTE|WARNING|ERROR)$/)} show' "$log" | head -80
errors=$(grep -cE "^\* .*ERROR$" "$log" || true)
warnings=$(grep -cE "^\* .*WARNING$" "$log" || true)
notes=$(grep -cE "^\* .*NOTE$" "$log" || true)
echo "r_check: $errors ERROR, $warnings WARNING, $notes NOTE"
if [ "$errors" -gt 0 ] || [ "$warnings" -gt 0 ] || [ "$status" -ne 0 ]; then exit 1; fi
