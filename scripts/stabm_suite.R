# stabm's own testthat suite run with propstab's functions swapped in.
#
# The tests of stabm's source package (not installed with stabm) are taken from the
# tarball in the environment variable STABM_SOURCE, else downloaded from CRAN (the
# installed version's tarball by its URL, else utils::download.packages("stabm",
# type = "source")) into a temporary directory. Each of
# stabm's test files runs in an environment whose parent is propstab's namespace, so that
# `stabilityJaccard(...)`, `get("stabilityJaccard")`, `listStabilityMeasures()` and
# `plotFeatures()` are propstab's. Prints the counts of expectations that pass, fail and
# are skipped, then each failing test with the stabm_differences() key that explains it;
# exits 1 when a test fails that no documented difference explains.
#
# Usage: Rscript scripts/stabm_suite.R [PACKAGE_SOURCE_DIR]
#   PACKAGE_SOURCE_DIR: propstab's R package source to load with pkgload (default: the
#   installed package propstab).

args <- commandArgs(trailingOnly = TRUE)
if (length(args)) {
  pkgload::load_all(args[1L], quiet = TRUE)
} else {
  suppressPackageStartupMessages(library(propstab))
}
if (!isTRUE(propstab::propstab_available())) {
  cat("stabm_suite: SKIP: propstab's Python side is not available\n")
  quit(status = 0L)
}

tarball <- Sys.getenv("STABM_SOURCE", "")
work <- tempfile("stabm_suite")
dir.create(work)
if (!nzchar(tarball) && requireNamespace("stabm", quietly = TRUE)) {
  # the source of the installed stabm version, fetched by its URL on the CRAN mirror
  # (current, else archived): download.packages() below first reads and parses the
  # mirror's whole package index, 2.5 s of CPU
  file <- sprintf("stabm_%s.tar.gz", utils::packageVersion("stabm"))
  repos <- getOption("repos")
  # (only with a configured mirror: no registry address is written here; without one,
  # download.packages() below asks R's own choice)
  repo <- if ("CRAN" %in% names(repos)) sub("/$", "", repos[["CRAN"]]) else "@CRAN@"
  urls <- if (identical(repo, "@CRAN@")) character(0) else
    sprintf(c("%s/src/contrib/%s", "%s/src/contrib/Archive/stabm/%s"), repo, file)
  for (url in urls) {
    dest <- file.path(work, file)
    status <- tryCatch(suppressWarnings(utils::download.file(url, dest, quiet = TRUE,
                                                             mode = "wb")),
                       error = function(e) 1L)
    if (identical(as.integer(status), 0L) && file.exists(dest) && file.size(dest) > 0) {
      tarball <- dest
      break
    }
    unlink(dest)
  }
}
if (!nzchar(tarball)) {
  # a mirror's index may warn (e.g. no PACKAGES.rds, then PACKAGES.gz is read) and still
  # deliver the tarball: only an error, or no tarball, means it could not be downloaded
  got <- tryCatch(suppressWarnings(utils::download.packages("stabm", destdir = work,
                                                            type = "source", quiet = TRUE)),
                  error = function(e) NULL)
  if (is.null(got) || !nrow(got)) {
    cat("stabm_suite: SKIP: no STABM_SOURCE and stabm's source could not be downloaded\n")
    quit(status = 0L)
  }
  tarball <- got[1L, 2L]
}
utils::untar(tarball, exdir = work)
tests <- file.path(work, "stabm", "tests", "testthat")
version <- read.dcf(file.path(work, "stabm", "DESCRIPTION"), "Version")[1L]

# stabm's tests whose failure a documented difference explains: test -> key of
# stabm_differences(). A failing test not listed here fails the script.
explained <- c(
  "set 6: only one feature in dataset" = "argument_checks")  # list(3, 3) with p = 1

env <- new.env(parent = asNamespace("propstab"))
results <- suppressWarnings(testthat::test_dir(
  tests, env = env, reporter = testthat::SilentReporter$new(), stop_on_failure = FALSE,
  stop_on_warning = FALSE, load_helpers = TRUE))
table <- as.data.frame(results)
cat(sprintf("stabm_suite: stabm %s's testthat suite with propstab's functions: %d tests (%d with a failure or error), %d expectations: %d passed, %d failed, %d skipped, %d warnings\n",
            version, nrow(table), sum(table$failed > 0 | table$error), sum(table$nb),
            sum(table$passed), sum(table$failed), sum(table$skipped), sum(table$warning)))
bad <- table[table$failed > 0 | table$error, c("file", "test", "failed", "error")]
if (nzchar(Sys.getenv("STABM_SUITE_VERBOSE"))) {
  for (r in results) for (e in r$results) {
    if (inherits(e, c("expectation_failure", "expectation_error"))) {
      cat("---", r$test, ":", conditionMessage(e), "\n")
    }
  }
}
keys <- propstab::stabm_differences()$key
unexplained <- 0L
for (i in seq_len(nrow(bad))) {
  key <- if (bad$test[i] %in% names(explained)) explained[[bad$test[i]]] else NA_character_
  ok <- !is.na(key) && key %in% keys
  if (!ok) unexplained <- unexplained + 1L
  cat(sprintf("  %s: %s / %s (%d failed%s)\n", if (ok) paste("documented", key) else "UNEXPLAINED",
              bad$file[i], bad$test[i], bad$failed[i], if (bad$error[i]) ", error" else ""))
}
cat(sprintf("stabm_suite: %d failing tests, %d explained by stabm_differences(), %d unexplained\n",
            nrow(bad), nrow(bad) - unexplained, unexplained))
quit(status = if (unexplained) 1L else 0L)
