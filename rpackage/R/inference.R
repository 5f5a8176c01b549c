# Inference for stability: an estimate with its variance (an S3 object with print,
# summary, confint, coef and vcov methods) and the one- and two-sample tests (htest).

#' Estimate the stability with its variance and a confidence interval
#'
#' The stability of the feature sets with the estimated variance of the estimate: the
#' analytic variance of Nogueira et al. (2018, thesis Thm 6) for Nogueira's estimator
#' and Kuncheva's index, its delta-method counterpart for Conger's kappa (`"conger"`),
#' the delete-one-run jackknife for any other measure.
#'
#' @inheritParams stability
#' @param method `"auto"` (analytic where it applies, else the jackknife), `"analytic"`
#'   or `"jackknife"`.
#' @return An object of class `propstab_estimate`: a list with `estimate`, `variance`,
#'   `std.error` (the square root of `variance`), `interval.std.error` and
#'   `interval.std.error.label` (the standard error the default interval of `confint()` is
#'   built from, and what it is: below 100 runs the delete-one-run jackknife's, with the
#'   estimate's own beside it where that differs; the pair propstab's Python summary
#'   prints, which `print()` and `summary()` show), `n.runs`, `n.features`, `measure`,
#'   `method` (the variance that ran:
#'   `"analytic"`, `"jackknife"` or `"bootstrap"`), `variance.source`, `variance.note`
#'   (why a degenerate variance was replaced, or `NULL`), `range` (the measure's range),
#'   `interpretation` (the
#'   estimate's label on the thesis's Table 6.1 scale, `NA` for measures not on a
#'   kappa-like scale), `estimand` (what the estimate and its interval are about, the
#'   line the printout and the summary show, the same text as propstab's Python and
#'   command-line summaries) and `call`. Methods: `print()`, `summary()`, `confint()`,
#'   `coef()`, `vcov()`.
#' @section Notes:
#' The Wald interval `estimate -/+ qnorm((1 + level)/2) * std.error` (thesis Cor. 1) is
#' asymptotic in the number of runs M; its coverage was measured by simulation
#' (<https://propstab.readthedocs.io/en/latest/inference_validation.html#small-m>, in the
#' Validation section of propstab's site). Below 100 runs no interval held 95 % there, and
#' `confint()` defaults to the closest, the logit interval with the jackknife variance
#' (see [confint.propstab_estimate()]; the printout says which interval ran).
#'
#' A variance that is 0 (or rounding noise) although the runs differ is never kept:
#' propstab replaces it by the bootstrap variance, else `NA` (always
#' `NA` from 2 differing runs), and warns with a `propstab_DegenerateVarianceWarning`;
#' `variance.note` and the printout say which variance ran and why. Identical runs keep
#' their variance of 0.
#' @seealso [stability_test()], [confint.propstab_estimate()].
#' @references Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature
#'   selection algorithms. Journal of Machine Learning Research 18(174), 1-54.
#'   Nogueira, S. (2018). PhD thesis, University of Manchester, sec. 5.2.
#' @examplesIf propstab_available()
#' feats <- list(c(1, 2), c(1, 2), c(1, 3), c(1, 2))
#' est <- stability_estimate(feats, p = 4)
#' est
#' confint(est, level = 0.9)
#' summary(stability_estimate(feats, p = 4, measure = "jaccard"))
#' @export
stability_estimate <- function(features, p = NULL, measure = "nogueira",
                               method = c("auto", "analytic", "jackknife"), sim.mat = NULL,
                               ...) {
  checkmate::assertString(measure)
  method <- match.arg(method)
  sim <- .similarity(sim.mat, required = FALSE)
  runs <- .runs(features, p = p, sim.mat = sim)
  options <- list(...)
  seed <- .option_seed(options)      # a simulated correction's seed, from R's RNG
  fields <- .call("estimate_fields", measure = measure, sizes = runs$sizes,
                  indices = runs$indices, n_features = .need_p(runs$p), method = method,
                  similarity = sim, options = options, seed = seed, call = sys.call())
  est <- .as_estimate(fields, match.call())
  # what confint() needs to ask propstab for any of its intervals (the same estimate:
  # the same seed)
  attr(est, "runs") <- list(measure = measure, sizes = runs$sizes, indices = runs$indices,
                            n_features = .need_p(runs$p), method = method, similarity = sim,
                            options = options, seed = seed)
  est
}

.as_estimate <- function(fields, call) {
  structure(list(estimate = .na(fields$statistic), variance = .na(fields$variance),
                 std.error = .na(fields$standard_error),
                 interval.std.error = .na(fields$interval_standard_error),
                 interval.std.error.label = fields$interval_standard_error_label,
                 n.runs = fields$n_runs,
                 n.features = fields$n_features, measure = fields$measure,
                 method = fields$method, variance.source = fields$variance_source,
                 variance.note = fields$variance_note,
                 range = unlist(fields$range),
                 interpretation = if (is.null(fields$interpretation)) NA_character_
                                  else fields$interpretation,
                 estimand = fields$estimand,
                 call = call),
            class = "propstab_estimate")
}

# The variance that ran, and why when a degenerate variance was replaced (the note of
# propstab's DegenerateVarianceWarning; NA variance: "undefined: <why>").
.variance_source <- function(method, source = NULL, note = NULL, variance = 0) {
  label <- if (method == "jackknife") {
    "delete-one-run jackknife variance"
  } else if (method != "analytic") {
    paste0("variance from the ", source)
  } else if (is.null(source) || identical(source, "thesis Thm 6")) {
    "analytic variance, Nogueira et al. 2018 Thm 6"
  } else {
    paste0("analytic variance, ", source)
  }
  if (is.null(note)) return(label)
  if (is.na(variance)) paste0("variance undefined: ", note) else paste0(label, ", as ", note)
}

#' @export
print.propstab_estimate <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(format(x, digits = digits), sep = "\n")
  invisible(x)
}

#' @rdname estimate_methods
#' @export
format.propstab_estimate <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  ci <- suppressWarnings(stats::confint(x))
  lines <- c(
    sprintf("Stability of feature selection (%s), M = %d runs, d = %d features", x$measure,
            x$n.runs, x$n.features),
    if (!is.null(x$estimand)) sprintf("  estimand: %s", x$estimand),
    sprintf("  estimate %s, std. error %s (%s)", format(x$estimate, digits = digits),
            format(x$interval.std.error, digits = digits), x$interval.std.error.label),
    sprintf("  95%% confidence interval: [%s, %s] (%s)", format(ci[1L], digits = digits),
            format(ci[2L], digits = digits), attr(ci, "interval")))
  if (!is.na(x$interpretation)) {
    lines <- c(lines, sprintf("  interpretation (thesis Table 6.1): %s", x$interpretation))
  }
  lines
}

#' @rdname estimate_methods
#' @param row.names,optional As for [base::as.data.frame()] (`row.names`: `NULL` or one
#'   name).
#' @export
as.data.frame.propstab_estimate <- function(x, row.names = NULL, optional = FALSE,
                                            conf.level = 0.95, ..., level = NULL) {
  if (!is.null(level)) {
    .renamed("as.data.frame", "level =", "conf.level =")
    conf.level <- level
  }
  ci <- suppressWarnings(stats::confint(x, level = conf.level, ...))
  data.frame(measure = x$measure, estimate = x$estimate, std.error = x$std.error,
             variance = x$variance, conf.low = ci[1L, 1L], conf.high = ci[1L, 2L],
             conf.level = conf.level, interval = attr(ci, "interval"), n.runs = x$n.runs,
             n.features = x$n.features, method = x$method,
             variance.source = .variance_source(x$method, x$variance.source,
                                                x$variance.note, x$variance),
             interpretation = x$interpretation, row.names = row.names,
             stringsAsFactors = FALSE)
}

#' Confidence interval, summary, coefficient and variance of a stability estimate
#'
#' @param object,x A `propstab_estimate` from [stability_estimate()].
#' @param parm Ignored (there is one parameter, the stability).
#' @param level The confidence level of `confint()` (the name of the generic's
#'   argument); in `as.data.frame()` the deprecated name of `conf.level` (a warning).
#' @param method The interval, any of propstab's (`StabilityEstimate.confidence_interval`):
#'   `"auto"` (the default: below 100 runs the logit interval with the delete-one-run
#'   jackknife variance, the closest to the nominal coverage in propstab's small-M study;
#'   from 100 runs on the Wald interval), `"wald"` (thesis Cor. 1), `"logit"` (the Wald
#'   interval on the logit of the position in the measure's range, Fisher's z for
#'   \[-1, 1\]), `"bootstrap"` (percentile, over `n.resamples` resamples of the runs) or
#'   `"bca"` (bias-corrected and accelerated).
#' @param n.resamples,seed The bootstrap resamples and their seed (`"bootstrap"` and
#'   `"bca"` only); `seed = NULL` (the default) draws the seed from R's random number
#'   generator, so `set.seed()` repeats an interval.
#' @param conf.level The confidence level of the interval in the summary and in the
#'   data frame.
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @return `format()`: the lines `print()` writes (a character vector).
#'   `as.data.frame()`: one row with the estimate, its standard error, variance and
#'   interval (`conf.low`, `conf.high`, at `conf.level`, the interval `confint()` computes
#'   by default, or the one named by `method =` in `...`), the runs, features and the
#'   variance that ran; for a summary, its table.
#'   `confint()`: a 1 x 2 matrix, the interval `method` computed by propstab's
#'   Python library from the estimate's runs (its one implementation, the same numbers as
#'   `propstab.estimate(...).confidence_interval(level, method=...)`), within the
#'   measure's range, with the attribute `interval` saying which interval and variance
#'   ran (a zero variance, which only identical runs keep, gives the single point with a
#'   warning; an undefined variance gives `NaN` ends; below 100 runs a
#'   `propstab_SmallSampleWarning` gives the coverage propstab's study measured for it). `summary()`: an object of class
#'   `summary.propstab_estimate` with the table printed (its `Std. Error` is the standard
#'   error the default interval is built from, `interval.std.error`, labelled under the
#'   table as propstab's Python summary labels it). `coef()`: the named estimate.
#'   `vcov()`: the 1 x 1 variance matrix.
#' @examplesIf propstab_available()
#' est <- stability_estimate(list(c(1, 2), c(1, 2), c(1, 3), c(1, 2)), p = 4)
#' format(est)
#' as.data.frame(est)
#' confint(est)
#' confint(est, level = 0.9, method = "wald")
#' summary(est, conf.level = 0.9)
#' @name estimate_methods
#' @export
confint.propstab_estimate <- function(object, parm, level = 0.95,
                                      method = c("auto", "wald", "logit", "bootstrap", "bca"),
                                      n.resamples = 2000L, seed = NULL, ...) {
  checkmate::assertNumber(level, lower = 0, upper = 1)
  method <- match.arg(method)
  checkmate::assertInt(seed, lower = 0L, null.ok = TRUE)
  seed <- .seed(seed, method %in% c("bootstrap", "bca"))
  runs <- attr(object, "runs")
  if (is.null(runs)) {
    .fail("object: this estimate does not hold its runs; build it with stability_estimate()")
  }
  out <- .call("estimate_interval", measure = runs$measure, sizes = runs$sizes,
               indices = runs$indices, n_features = runs$n_features, method = runs$method,
               interval_method = method, confidence_level = level,
               n_resamples = as.integer(n.resamples), random_state = seed,
               similarity = runs$similarity, options = runs$options, seed = runs$seed,
               call = sys.call())
  ci <- .ci_matrix(unlist(out$conf_int), level, object$measure)
  attr(ci, "interval") <- out$interval
  ci
}

# A randomised method's seed: the one given, else (where the method draws random
# numbers) one drawn from R's random number generator, so that set.seed() repeats it.
.seed <- function(seed, random = TRUE) {
  if (!is.null(seed)) return(as.integer(seed))
  if (!random) return(0L)
  sample.int(.Machine$integer.max, 1L)
}

# The column labels of stats::confint ("2.5 %", "0.05 %"), as its .format_perc.
.ci_matrix <- function(ci, level, name) {
  probs <- c((1 - level) / 2, (1 + level) / 2)
  matrix(ci, nrow = 1L,
         dimnames = list(name, paste(format(100 * probs, trim = TRUE, scientific = FALSE,
                                            digits = 3L), "%")))
}

#' @rdname estimate_methods
#' @export
summary.propstab_estimate <- function(object, conf.level = 0.95, ...) {
  ci <- stats::confint(object, level = conf.level)
  # the standard error of the interval shown (method "auto"), as the Python summary
  table <- cbind(Estimate = object$estimate, `Std. Error` = object$interval.std.error, ci)
  rownames(table) <- object$measure
  structure(list(table = table, estimate = object, conf.level = conf.level,
                 interval = attr(ci, "interval")),
            class = "summary.propstab_estimate")
}

#' @rdname estimate_methods
#' @export
print.summary.propstab_estimate <- function(x, digits = max(3L, getOption("digits") - 3L),
                                            ...) {
  cat(format(x, digits = digits), sep = "\n")
  invisible(x)
}

#' @rdname estimate_methods
#' @export
format.summary.propstab_estimate <- function(x, digits = max(3L, getOption("digits") - 3L),
                                             ...) {
  e <- x$estimate
  table <- utils::capture.output(print(signif(x$table, digits)))
  lines <- c(sprintf("Stability of feature selection: M = %d runs, d = %d features", e$n.runs,
                     e$n.features),
             if (!is.null(e$estimand)) sprintf("Estimand: %s.", e$estimand), "", table, "",
             sprintf("Std. Error: %s. Interval: %s, %g%%.", e$interval.std.error.label,
                     x$interval, 100 * x$conf.level))
  if (!is.na(e$interpretation)) {
    lines <- c(lines, sprintf("Interpretation (thesis Table 6.1): %s.", e$interpretation))
  }
  lines
}

#' @rdname estimate_methods
#' @export
as.data.frame.summary.propstab_estimate <- function(x, row.names = NULL, optional = FALSE,
                                                    ...) {
  table <- as.data.frame(x$table, stringsAsFactors = FALSE)
  names(table) <- c("estimate", "std.error", "conf.low", "conf.high")
  table <- cbind(measure = rownames(x$table), table, conf.level = x$conf.level,
                 interval = x$interval, stringsAsFactors = FALSE)
  rownames(table) <- row.names
  table
}

#' @rdname estimate_methods
#' @export
coef.propstab_estimate <- function(object, ...) {
  stats::setNames(object$estimate, object$measure)
}

#' @rdname estimate_methods
#' @export
vcov.propstab_estimate <- function(object, ...) {
  matrix(object$variance, 1L, 1L, dimnames = list(object$measure, object$measure))
}

#' Tests for the stability of feature selection
#'
#' The one-sample test of H0: stability = `phi0` and the two-sample test of equal
#' stability of two feature selectors (Nogueira et al. 2018, thesis sec. 5.2.5 and Thm 7),
#' independent or paired (the two selectors run on the same M resamples), returned as
#' `htest` objects like [stats::t.test()]. The statistic is the difference over its
#' standard error, asymptotically N(0, 1) under H0. The two-sample null is equal
#' stability, H0: Phi_x = Phi_y, not equal distributions: two selectors with the same
#' stability that select different features satisfy it. The printout adds the estimand,
#' the line of propstab's Python and command-line summaries.
#'
#' @param x The feature sets of the (first) selector: a list of vectors of selected
#'   features or a 0/1 matrix, as for [stability()]; for `print()`, the test's result.
#' @param y `NULL` for the one-sample test, or the feature sets of the second selector
#'   (the same features; the same number of runs if `paired`).
#' @param phi0 The stability under H0 in the one-sample test.
#' @param alternative `"two.sided"`, `"less"` or `"greater"`: H1 is that the stability
#'   of x differs from, is less than or is greater than `phi0` (one sample) or the
#'   stability of y (two samples; the difference is x minus y, as in `t.test()` and in
#'   propstab's Python `two_sample_test(x, y)`; the thesis's \eqn{T_M}{T_M} is y minus x, the
#'   statistic's opposite).
#' @param paired Whether row i of `x` and of `y` come from the same resample i.
#' @param test One sample: `"auto"` (the test that inverts the default interval of
#'   [confint.propstab_estimate()]: below 100 runs the logit test with the jackknife
#'   variance, else the Wald test), `"wald"` (thesis sec. 5.2.5) or `"logit"`; the
#'   `conf.int` is propstab's interval for that test, within the measure's range.
#'   Two samples: `"wald"` (the difference over its standard error against N(0, 1),
#'   thesis Thm 7: a test of equal stability, valid as the runs grow),
#'   `"permutation"` (the studentized permutation test of Chung and Romano (2013): the
#'   difference over its delete-one-run jackknife standard error, against its values
#'   with the runs permuted between x and y; if `paired`, the studentized sign-flip,
#'   the two runs of each pair swapped. It is exact when the runs of x and y are
#'   exchangeable, one distribution, and asymptotically valid for equal stability when
#'   they are not, the same stability with different features; exact enumeration up to
#'   9999 rearrangements, else 9999 random ones seeded by `seed`) or `"auto"` (the
#'   default: when x or y has fewer than 100 runs, reject only where both the
#'   studentized permutation test and the N(0, 1) test of the same statistic reject,
#'   the larger p-value, the one choice within its level in every design of propstab's
#'   small-M study; from 100 runs on the Wald test). `"asymptotic"` is the deprecated
#'   name of `"wald"` (a warning). `method` names the test that ran.
#' @param seed The seed of the permutation test's random rearrangements; `NULL` (the
#'   default) draws it from R's random number generator, so `set.seed()` repeats a
#'   p-value.
#' @param measure,method As for [stability_estimate()].
#' @param p The total number of features.
#' @param conf.level The level of the confidence interval (one-sided for a one-sided
#'   alternative, as in `t.test()`; it must then exceed 0.5).
#' @param sim.mat,... As for [stability()].
#' @return An object of class `c("propstab_htest", "htest")`: `statistic` (`z`),
#'   `p.value`, `conf.int` (for the stability, or for the difference), `estimate` (the
#'   stability of x, and of y; the difference when `paired`), `null.value`, `stderr`,
#'   `alternative`, `method`, `data.name`, `estimand` (printed after the data line), and
#'   `std.errors` with `std.error.labels` (printed next: the standard error the test and
#'   its interval use, labelled as propstab's Python summary labels it; two samples: that
#'   of x, of y and of the difference).
#' @seealso [stability_estimate()].
#' @references Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature
#'   selection algorithms. Journal of Machine Learning Research 18(174), 1-54.
#'   Chung, E., Romano, J. P. (2013). Exact and asymptotically robust permutation tests.
#'   The Annals of Statistics 41(2), 484-507.
#' @examplesIf propstab_available()
#' a <- list(c(1, 2), c(1, 3), c(2, 3), c(1, 2), c(1, 4))
#' b <- list(c(1, 2), c(1, 2), c(1, 2), c(1, 2), c(1, 3))
#' stability_test(a, phi0 = 0, p = 4, alternative = "greater")
#' stability_test(b, a, p = 4)
#' stability_test(b, a, p = 4, paired = TRUE)$p.value
#' @export
stability_test <- function(x, y = NULL, phi0 = 0,
                           alternative = c("two.sided", "less", "greater"), paired = FALSE,
                           measure = "nogueira", method = c("auto", "analytic", "jackknife"),
                           p = NULL, conf.level = 0.95, sim.mat = NULL,
                           test = c("auto", "permutation", "wald", "logit", "asymptotic"),
                           seed = NULL, ...) {
  alternative <- match.arg(alternative)
  method <- match.arg(method)
  test <- match.arg(test)
  if (test == "asymptotic") {
    .renamed("stability_test", "test = \"asymptotic\"", "test = \"wald\"")
    test <- "wald"
  }
  one <- c("auto", "wald", "logit")
  two <- c("auto", "permutation", "wald")
  if (!(test %in% (if (is.null(y)) one else two))) {
    .fail("test: %s for %s; got \"%s\"", paste0("\"", if (is.null(y)) one else two, "\"",
                                                 collapse = ", "),
          if (is.null(y)) "one sample" else "two samples", test)
  }
  checkmate::assertString(measure)
  checkmate::assertNumber(phi0, finite = TRUE)
  checkmate::assertFlag(paired)
  checkmate::assertNumber(conf.level, lower = 0, upper = 1)
  checkmate::assertInt(seed, lower = 0L, null.ok = TRUE)
  if (alternative != "two.sided" && conf.level <= 0.5) {
    .fail("conf.level: a one-sided interval needs a level above 0.5")
  }
  sim <- .similarity(sim.mat, required = FALSE)
  rx <- .runs(x, p = p, sim.mat = sim, arg = "x")
  if (is.null(y)) {
    out <- .call("one_sample", measure = measure, sizes = rx$sizes, indices = rx$indices,
                 n_features = .need_p(rx$p), phi0 = phi0, alternative = alternative,
                 method = method, test = test, confidence_level = conf.level,
                 similarity = sim, options = list(...), seed = .option_seed(list(...)),
                 call = sys.call())
    e <- out$estimate
    result <- list(
      statistic = c(z = out$statistic), p.value = out$pvalue,
      conf.int = structure(unlist(out$conf_int), conf.level = conf.level),
      estimate = stats::setNames(.na(e$statistic), sprintf("stability (%s)", e$measure)),
      null.value = c(stability = phi0), stderr = .na(e$standard_error),
      std.errors = c(stability = .na(e$standard_error)),
      std.error.labels = c(stability = e$standard_error_label),
      alternative = alternative,
      method = sprintf("One-sample test of feature-selection stability (%s, %s; %s)",
                       e$measure,
                       .variance_source(e$method, e$variance_source, e$variance_note,
                                        .na(e$variance)),
                       if (out$test == "logit") "logit scale of the range" else "Wald"),
      data.name = deparse1(substitute(x)), estimand = e$estimand)
  } else {
    ry <- .runs(y, p = if (is.null(p)) rx$p else p, sim.mat = sim, arg = "y")
    out <- .call("two_sample", measure = measure, x = list(rx$sizes, rx$indices),
                 y = list(ry$sizes, ry$indices), n_features = .need_p(rx$p), paired = paired,
                 alternative = alternative, method = method, test = test,
                 confidence_level = conf.level,
                 random_state = .seed(seed, test %in% c("auto", "permutation")),
                 similarity = sim, options = list(...), seed = .option_seed(list(...)),
                 call = sys.call())
    ex <- out$estimates[[1L]]
    ey <- out$estimates[[2L]]
    estimate <- if (paired) c(`difference in stability` = out$difference)
                else stats::setNames(c(ex$statistic, ey$statistic),
                                     c("stability of x", "stability of y"))
    result <- list(
      statistic = c(z = out$statistic), p.value = out$pvalue,
      conf.int = structure(unlist(out$conf_int), conf.level = conf.level),
      estimate = estimate, null.value = c(`difference in stability` = 0),
      stderr = sqrt(out$variance),
      std.errors = c(x = .na(ex$standard_error), y = .na(ey$standard_error),
                     difference = sqrt(out$variance)),
      std.error.labels = c(x = ex$standard_error_label, y = ey$standard_error_label),
      alternative = alternative,
      method = sprintf("%s test of equal feature-selection stability (%s, %s; %s)",
                       if (paired) "Paired" else "Two-sample", ex$measure,
                       .variance_source(ex$method, ex$variance_source, ex$variance_note,
                                        .na(ex$variance)),
                       out$test_description),
      data.name = paste(deparse1(substitute(x)), "and", deparse1(substitute(y))),
      estimand = ex$estimand)
  }
  class(result) <- c("propstab_htest", "htest")
  result
}

# The printout's line of standard errors, with the labels of propstab's Python summaries:
# one sample, the SE the test and its interval use; two samples, each estimate's and the
# difference's (the one the statistic and the interval use).
.std_error_line <- function(x, digits) {
  se <- format(x$std.errors, digits = max(1L, digits - 2L))
  labels <- x$std.error.labels
  if (length(se) == 1L) return(sprintf("std. error: %s (%s)", se, labels))
  sprintf("std. errors: x %s (%s), y %s (%s), difference %s", se[["x"]], labels[["x"]],
          se[["y"]], labels[["y"]], se[["difference"]])
}

#' @rdname stability_test
#' @param digits As for [stats::print.htest()].
#' @export
print.propstab_htest <- function(x, digits = getOption("digits"), ...) {
  plain <- x
  class(plain) <- "htest"
  lines <- utils::capture.output(print(plain, digits = digits, ...))
  at <- grep("^data:", lines)[1L]
  if (!is.null(x$estimand) && !is.na(at)) {
    lines <- append(lines, paste0("estimand: ", x$estimand), after = at)
    at <- at + 1L
  }
  if (!is.null(x$std.errors) && !is.na(at)) {
    lines <- append(lines, .std_error_line(x, digits), after = at)
  }
  cat(lines, sep = "\n")
  invisible(x)
}
