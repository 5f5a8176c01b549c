# The cost of a small call from R: 1,000 calls of stabilityJaccard and of
# stabilityNogueira on small feature sets, propstab against stabm measured in the same
# run (interleaved rounds, the median round of each), and the cost of
# library(propstab) and of its first call in a fresh R process. Prints the ratios
# propstab / stabm; the target is <= 2.
#
# Usage: Rscript benchmarks/bench_r_overhead.R [PACKAGE_SOURCE_DIR] [CALLS]
#   PACKAGE_SOURCE_DIR: the R package's source, installed into a temporary library
#   (default: the installed propstab); CALLS: calls per measurement (default 1000).

args <- commandArgs(trailingOnly = TRUE)
source.dir <- if (length(args) >= 1L && nzchar(args[1L])) normalizePath(args[1L]) else ""
calls <- if (length(args) >= 2L) as.integer(args[2L]) else 1000L
lib <- ""
if (nzchar(source.dir)) {        # installed into a temporary library, as a user has it
  lib <- tempfile("rlib")
  dir.create(lib)
  status <- system2(file.path(R.home("bin"), "R"),
                    c("CMD", "INSTALL", "--no-test-load", paste0("--library=", lib),
                      shQuote(source.dir)), stdout = FALSE, stderr = FALSE)
  if (status != 0L) stop("R CMD INSTALL of ", source.dir, " failed")
}
load.code <- sprintf("suppressPackageStartupMessages(library(propstab%s))",
                     if (nzchar(lib)) sprintf(", lib.loc = '%s'", lib) else "")
eval(parse(text = load.code))
if (!requireNamespace("stabm", quietly = TRUE)) stop("the benchmark needs stabm")
if (!isTRUE(propstab_available())) stop("propstab's Python side is not available")

feats <- list(1:3, 2:4, c(1, 3, 5), c(2, 3, 6))
cases <- list(
  stabilityJaccard = list(propstab = function() stabilityJaccard(feats),
                          stabm = function() stabm::stabilityJaccard(feats)),
  stabilityNogueira = list(propstab = function() stabilityNogueira(feats, p = 8),
                           stabm = function() stabm::stabilityNogueira(feats, p = 8)))
rounds <- 5L
per.round <- max(1L, calls %/% rounds)
cat(sprintf("bench_r_overhead: %d calls each (%d rounds of %d, interleaved), R %s, stabm %s\n",
            per.round * rounds, rounds, per.round, getRversion(),
            utils::packageVersion("stabm")))
ratios <- c()
for (name in names(cases)) {
  f <- cases[[name]]
  stopifnot(abs(f$propstab() - f$stabm()) < 1e-12)        # the same value, warmed up
  times <- matrix(NA_real_, rounds, 2L, dimnames = list(NULL, c("propstab", "stabm")))
  for (r in seq_len(rounds)) {
    for (who in c("propstab", "stabm")) {
      g <- f[[who]]
      times[r, who] <- system.time(for (i in seq_len(per.round)) g())[["elapsed"]]
    }
  }
  med <- apply(times, 2L, stats::median) * rounds          # seconds per `calls` calls
  ratios[name] <- med[["propstab"]] / med[["stabm"]]
  cat(sprintf("  %-18s propstab %.3f s, stabm %.3f s per %d calls: ratio %.2f\n", name,
              med[["propstab"]], med[["stabm"]], per.round * rounds, ratios[name]))
}

# Loading and the first call, in fresh R processes (the median of 3 of each).
rscript <- file.path(R.home("bin"), "Rscript")
fresh <- function(code) {
  stats::median(vapply(1:3, function(i) system.time(system2(rscript, c("-e", shQuote(code)),
                                                           stdout = FALSE, stderr = FALSE))[["elapsed"]], 0))
}
base <- fresh("invisible(0)")
load.propstab <- fresh(load.code) - base
first.propstab <- fresh(paste0(load.code, "; invisible(stabilityJaccard(list(1:2, 2:3)))")) - base
first.stabm <- fresh("invisible(stabm::stabilityJaccard(list(1:2, 2:3)))") - base
cat(sprintf("  loading: library(propstab) %.2f s; with the first call (Python starts) %.2f s; stabm's first call %.2f s (R's own start-up, %.2f s, subtracted)\n",
            load.propstab, first.propstab, first.stabm, base))
cat(sprintf("bench_r_overhead: propstab/stabm per small call: %s (target <= 2)\n",
            paste(sprintf("%s %.2f", names(ratios), ratios), collapse = ", ")))
