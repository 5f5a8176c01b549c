# testthat expectations for stability: the R face of propstab.testing (Python), called
# through propstab.r._testing_frontend. Each expectation is a hypothesis test with a
# stated error rate, not a comparison of values (selections from random resamples
# differ from run to run).

#' testthat expectations for the stability of feature selection
#'
#' Stability as a regression test in a package's own test suite, with a stated error
#' rate (propstab's `propstab.testing`, the same tests and messages as in Python):
#'
#' * `expect_stable()` passes when the one-sided test of H0: Phi <= `at.least` against
#'   H1: Phi > `at.least` (Nogueira 2018, thesis sec. 5.2.5; below 100 runs on the logit
#'   scale with the jackknife variance) rejects at level `1 - conf.level`: a selector no
#'   more stable than `at.least` passes at most at that rate. On failure the message gives
#'   the estimate, the one-sided interval, the p-value and the number of runs that would
#'   decide it.
#' * `expect_not_less_stable()` compares new runs with a baseline's. `test = "drop"`
#'   (the default) fails only when H0: Phi_current >= Phi_baseline - `margin` is
#'   rejected (when nothing changed it fails at most at rate `1 - conf.level`);
#'   `test = "non-inferiority"` passes when H0: Phi_current <= Phi_baseline - `margin`
#'   is rejected (a drop of `margin` or more passes at most at that rate). Identical
#'   runs (variance 0) never pass by certainty: an exact finite-M bound decides. The
#'   message shows both estimates and the one-sided interval of the difference against
#'   `-margin`. The variance of the difference is the two-sample one of thesis Thm 7,
#'   or, with `paired = TRUE` (both ran on the same resamples, run i on resample i), the
#'   paired one.
#' * `expect_measure_properties()` runs [audit_measure()] and fails with the shrunk
#'   counterexample of the first violated claim, written as R code (`rbind(...)`, runs in
#'   rows: positions are R's, 1-based).
#'
#' @param features,baseline,current Feature sets as stabm takes them (a list of 1-based
#'   index or name vectors, one per run) or a 0/1 or logical matrix (runs in rows).
#' @param at.least The stability the runs must be shown to exceed.
#' @param margin The tolerated drop of stability (>= 0).
#' @param p The number of features (required for lists of indices).
#' @param measure A registered measure (see [list_measures()]).
#' @param conf.level The one-sided confidence level, in (0.5, 1).
#' @param confidence The deprecated name of `conf.level` (a warning; one vocabulary across
#'   propstab: `conf.level` as in [stats::t.test()]).
#' @param paired `TRUE` when the baseline and the current runs come from the same
#'   resamples.
#' @param test `"drop"` (the default) or `"non-inferiority"` (see Details).
#' @param fun,claims,lower,upper,... For `expect_measure_properties()`: as for
#'   [audit_measure()] (`...` its other arguments); for the others, the measure's options
#'   by propstab's (Python) names.
#' @param max.examples,seed,name As for [audit_measure()].
#' @return The first argument, invisibly (testthat's convention); the expectation
#'   succeeds or fails with testthat's reporter.
#' @references Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD
#'   thesis, University of Manchester, sec. 5.2.5 and Thm 7. Wellek, S. (2010). Testing
#'   Statistical Hypotheses of Equivalence and Noninferiority, 2nd ed., ch. 2.
#' @seealso [stability_test()], [audit_measure()].
#' @examplesIf propstab_available() && requireNamespace("testthat", quietly = TRUE)
#' runs <- c(rep(list(c(1, 2)), 28), list(c(1, 3), c(2, 4)))
#' expect_stable(runs, at.least = 0.5, p = 4)  # silent: 30 runs shown stabler than 0.5
#' # a failing expectation says what was expected and what was found
#' tryCatch(expect_stable(runs, at.least = 0.95, p = 4),
#'          expectation_failure = function(e) cat(conditionMessage(e), sep = "\n"))
#' expect_not_less_stable(runs, runs, margin = 0.1, p = 4, paired = TRUE)
#' expect_measure_properties(function(Z) mean(Z), claims = "bounds", lower = 0,
#'                           upper = 1, max.examples = 30L)
#' @name stability_expectations
NULL

#' @rdname stability_expectations
#' @export
expect_stable <- function(features, at.least, p = NULL, measure = "nogueira",
                          conf.level = 0.95, ..., confidence = NULL) {
  .need_testthat()
  if (!is.null(confidence)) {
    .renamed("expect_stable", "confidence =", "conf.level =")
    conf.level <- confidence
  }
  checkmate::assertString(measure)
  checkmate::assertNumber(at.least)
  checkmate::assertNumber(conf.level)
  runs <- .runs(features, p = p)
  out <- .call_testing("expect_stable", measure = measure, sizes = runs$sizes,
                       indices = runs$indices, n_features = .need_p(runs$p),
                       at_least = at.least, confidence = conf.level, options = list(...))
  testthat::expect(isTRUE(out$passed), out$message)
  invisible(features)
}

#' @rdname stability_expectations
#' @export
expect_not_less_stable <- function(baseline, current, margin, p = NULL,
                                   measure = "nogueira", conf.level = 0.95, paired = FALSE,
                                   test = c("drop", "non-inferiority"), ...,
                                   confidence = NULL) {
  .need_testthat()
  if (!is.null(confidence)) {
    .renamed("expect_not_less_stable", "confidence =", "conf.level =")
    conf.level <- confidence
  }
  checkmate::assertString(measure)
  checkmate::assertNumber(margin)
  checkmate::assertNumber(conf.level)
  checkmate::assertFlag(paired)
  test <- match.arg(test)
  base <- .runs(baseline, p = p, arg = "baseline")
  cur <- .runs(current, p = p, arg = "current")
  if (!is.null(base$p) && !is.null(cur$p) && base$p != cur$p) {
    .fail("baseline, current: must have the same number of features p; got %d and %d",
          base$p, cur$p)
  }
  d <- .need_p(if (is.null(base$p)) cur$p else base$p)
  out <- .call_testing("expect_not_less_stable", measure = measure,
                       baseline = list(base$sizes, base$indices),
                       current = list(cur$sizes, cur$indices), n_features = d,
                       margin = margin, confidence = conf.level, paired = paired, test = test,
                       options = list(...))
  testthat::expect(isTRUE(out$passed), out$message)
  invisible(current)
}

#' @rdname stability_expectations
#' @export
expect_measure_properties <- function(fun, claims = character(), lower = NULL, upper = NULL,
                                      ..., max.examples = 100L, seed = 0L, name = NULL) {
  .need_testthat()
  if (is.null(name)) name <- paste(deparse(substitute(fun), width.cutoff = 60L)[1L])
  table <- audit_measure(fun, claims = claims, lower = lower, upper = upper, ...,
                         max.examples = max.examples, seed = seed, name = name)
  violated <- which(table$status == "violated")
  message <- if (length(violated)) {
    row <- table[violated[1L], ]
    .call_testing("violation_message", name = name, axiom = row$axiom, reason = row$reason,
                  counterexample = row$counterexample)
  } else ""
  testthat::expect(length(violated) == 0L, message)
  invisible(table)
}

.need_testthat <- function() {
  if (!requireNamespace("testthat", quietly = TRUE)) {
    stop("propstab: the expectations need the R package testthat: install.packages(\"testthat\")",
         call. = FALSE)
  }
}

# The Python module propstab.r._testing_frontend (Python started as for .frontend()).
.testing_frontend <- function() {
  .frontend()
  if (is.null(.state$testing)) {
    .state$testing <- reticulate::import("propstab.r._testing_frontend")
  }
  .state$testing
}

# .call() for the expectations' entry points: Python's warnings as R warnings, its error
# as an R error, each with propstab's message.
.call_testing <- function(entry, ..., call = sys.call(-1L)) {
  out <- .testing_frontend()$invoke(entry, list(...))
  for (w in out$warnings) warning(.condition(w, "warning", call))
  if (!is.null(out$error)) stop(.condition(out$error, "error", call))
  out$value
}
