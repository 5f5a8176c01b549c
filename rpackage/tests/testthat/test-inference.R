# stability_estimate() and stability_test() against the thesis's formulas written here in
# R (Nogueira 2018, Thm 6 and 7, Cor. 1) and the jackknife over stabm's values.

skip_if_no_propstab()

# Nogueira's estimator and its Thm 6 variance, literally.
nogueira_thm6 <- function(features, p) {
  M <- length(features)
  Z <- t(vapply(features, function(f) as.numeric(seq_len(p) %in% f), numeric(p)))
  k <- rowSums(Z)
  kbar <- mean(k)
  phat <- colMeans(Z)
  s2 <- M / (M - 1) * phat * (1 - phat)
  phi <- 1 - mean(s2) / (kbar / p * (1 - kbar / p))
  phi_i <- (1 / (kbar / p * (1 - kbar / p))) *
    (as.vector(Z %*% phat) / p - k * kbar / p^2 +
       phi / 2 * (2 * kbar * k / p^2 - k / p - kbar / p + 1))
  list(phi = phi, variance = 4 / M^2 * sum((phi_i - mean(phi_i))^2))
}

set.seed(5)
samples <- lapply(1:6, function(i) {
  p <- sample(6:20, 1L)
  M <- sample(4:15, 1L)
  list(features = random_features(sample(1:(p - 1L), M, replace = TRUE), p), p = p)
})

test_that("stability_estimate() is thesis Thm 6 with the Wald interval of Cor. 1", {
  for (x in samples) {
    twin <- nogueira_thm6(x$features, x$p)
    est <- stability_estimate(x$features, p = x$p)
    expect_s3_class(est, "propstab_estimate")
    expect_equal(est$estimate, twin$phi, tolerance = 1e-10)
    expect_equal(est$variance, twin$variance, tolerance = 1e-10)
    expect_identical(est$method, "analytic")
    ci <- suppress_propstab_warnings(confint(est, level = 0.9, method = "wald"),
                                     classes = "propstab_SmallSampleWarning")
    wald <- twin$phi + c(-1, 1) * qnorm(0.95) * sqrt(twin$variance)
    expect_equal(as.vector(ci), pmin(pmax(wald, -1), 1), tolerance = 1e-10)
    expect_identical(dimnames(ci), list("nogueira", c("5 %", "95 %")))
    expect_equal(coef(est), c(nogueira = twin$phi), tolerance = 1e-10)
    expect_equal(as.vector(vcov(est)), twin$variance, tolerance = 1e-10)
    if (all(abs(wald) < 1)) {
      expect_equal(as.vector(suppress_propstab_warnings(confint(est, method = "wald"), classes = "propstab_SmallSampleWarning")),
                   as.vector(stats::confint.default(est)), tolerance = 1e-10)
    }
  }
})

test_that("the jackknife variance is over the leave-one-out values (stabm's Jaccard)", {
  skip_if_not_installed("stabm")
  for (x in samples[1:3]) {
    M <- length(x$features)
    loo <- vapply(seq_len(M), function(i) stabm::stabilityJaccard(x$features[-i]), 0)
    est <- stability_estimate(x$features, p = x$p, measure = "jaccard")
    expect_identical(est$method, "jackknife")
    expect_equal(est$variance, (M - 1) / M * sum((loo - mean(loo))^2), tolerance = 1e-10)
  }
})

test_that("estimates print small and summarise as a table", {
  est <- stability_estimate(list(c(1, 2), c(1, 2), c(1, 3), c(1, 2)), p = 4)
  out <- capture.output(print(est))
  expect_length(out, 5L)
  expect_match(out[1L], "nogueira.*M = 4 runs, d = 4 features")
  expect_match(out[2L], "^  estimand: ")
  expect_match(out[5L], "intermediate to good")
  # M = 4 runs: the interval's small-sample warning
  expect_warning(s <- summary(est, conf.level = 0.9), class = "propstab_SmallSampleWarning")
  expect_s3_class(s, "summary.propstab_estimate")
  expect_identical(colnames(s$table), c("Estimate", "Std. Error", "5 %", "95 %"))
  expect_match(paste(capture.output(s), collapse = "\n"), "Std. Error")
})

test_that("the one-sample test is V_M = (estimate - phi0) / se, as an htest", {
  x <- samples[[1L]]
  twin <- nogueira_thm6(x$features, x$p)
  z <- (twin$phi - 0.2) / sqrt(twin$variance)
  for (alt in c("two.sided", "less", "greater")) {
    # below 100 runs the Wald one-sample test warns with the small-M study's level
    # (where it missed its level there by more than 3 SE)
    expect_lt(length(x$features), 100L)
    expect_warning(res <- stability_test(x$features, phi0 = 0.2, p = x$p, alternative = alt,
                                         test = "wald"),
                   "in the small-M study")
    expect_s3_class(res, "htest")
    expect_named(res, c("statistic", "p.value", "conf.int", "estimate", "null.value",
                        "stderr", "alternative", "method", "data.name", "estimand",
                        "std.errors", "std.error.labels"),
                 ignore.order = TRUE)
    expect_equal(unname(res$statistic), z, tolerance = 1e-10)
    p <- switch(alt, two.sided = 2 * pnorm(-abs(z)), less = pnorm(z), greater = pnorm(-z))
    expect_equal(res$p.value, p, tolerance = 1e-10)
    expect_identical(res$null.value, c(stability = 0.2))
    expect_identical(res$data.name, "x$features")
    half <- switch(alt, two.sided = qnorm(0.975), qnorm(0.95)) * sqrt(twin$variance)
    ci <- switch(alt, two.sided = twin$phi + c(-half, half),
                 less = c(-Inf, twin$phi + half), greater = c(twin$phi - half, Inf))
    expect_equal(as.vector(res$conf.int), pmin(pmax(ci, -1), 1), tolerance = 1e-10)
    expect_identical(attr(res$conf.int, "conf.level"), 0.95)
  }
})

test_that("the two-sample test is T_M of x minus y (thesis Thm 7), paired or not", {
  a <- list(c(1, 2), c(1, 3), c(2, 3), c(1, 2), c(1, 4))
  b <- list(c(1, 2), c(1, 2), c(1, 2), c(1, 2), c(1, 3))
  ta <- nogueira_thm6(a, 4)
  tb <- nogueira_thm6(b, 4)
  res <- stability_test(b, a, p = 4, alternative = "greater", test = "wald")
  z <- (tb$phi - ta$phi) / sqrt(ta$variance + tb$variance)
  expect_equal(unname(res$statistic), z, tolerance = 1e-10)
  expect_equal(res$p.value, pnorm(-z), tolerance = 1e-10)
  expect_equal(unname(res$estimate), c(tb$phi, ta$phi), tolerance = 1e-10)
  expect_identical(names(res$estimate), c("stability of x", "stability of y"))
  expect_identical(res$data.name, "b and a")
  swapped <- stability_test(a, b, p = 4, alternative = "less", test = "wald")
  expect_equal(unname(swapped$statistic), -z, tolerance = 1e-10)
  expect_equal(swapped$p.value, res$p.value, tolerance = 1e-10)
  paired <- stability_test(b, a, p = 4, paired = TRUE, test = "wald")
  expect_match(paired$method, "^Paired")
  expect_equal(unname(paired$estimate), tb$phi - ta$phi, tolerance = 1e-10)
  expect_error(stability_test(b, a[1:4], p = 4, paired = TRUE),
               "^x, y: a paired comparison needs the same M runs")
})

test_that("R's stability_test(x, y) and Python's two_sample_test(x, y) agree: x minus y", {
  # the direction of t.test(x, y): "greater" means x is more stable
  hi <- list(c(1, 2), c(1, 2), c(1, 2), c(1, 3), c(1, 2), c(1, 2))
  # not every feature in 3 of the 6 runs: an analytic variance that is not 0
  lo <- list(c(1, 2), c(3, 4), c(2, 4), c(1, 3), c(2, 4), c(1, 4))
  inference <- reticulate::import("propstab.inference")
  as01 <- function(f) t(vapply(f, function(s) as.integer(seq_len(4) %in% s), integer(4)))
  for (paired in c(FALSE, TRUE)) {
    for (test in c("auto", "permutation", "wald")) {
      for (alt in c("two.sided", "greater", "less")) {
        r <- stability_test(hi, lo, p = 4, paired = paired, test = test, alternative = alt)
        twin <- py_warning_classes(
          inference$two_sample_test(as01(hi), as01(lo), paired = paired, test = test,
                                    alternative = sub(".", "-", alt, fixed = TRUE)))
        expect_identical(twin$classes, character(0))
        py <- twin$value
        expect_equal(unname(r$statistic), py$statistic, tolerance = 1e-12)
        expect_equal(r$p.value, py$pvalue, tolerance = 1e-12)
        expect_true(unname(r$statistic) > 0)
      }
      expect_lt(stability_test(hi, lo, p = 4, paired = paired, test = test,
                               alternative = "greater")$p.value,
                stability_test(lo, hi, p = 4, paired = paired, test = test,
                               alternative = "greater")$p.value)
    }
  }
  expect_match(stability_test(hi, lo, p = 4)$method, "permutation")
  expect_match(stability_test(hi, lo, p = 4, test = "wald")$method, "Wald")
})

test_that("one-sided intervals need a level above 0.5", {
  expect_error(stability_test(list(1:2, 2:3, 1:2), p = 4, alternative = "less",
                              conf.level = 0.4), "conf.level")
})

test_that("a zero variance from runs that differ is replaced, with a warning", {
  # two sets, each chosen by half of 10 runs: thesis Thm 6 (written above) gives 0
  halves <- rep(list(c(1, 2, 3), c(1, 2, 4)), 5)
  expect_equal(nogueira_thm6(halves, 6)$variance, 0, tolerance = 1e-15)
  expect_warning(est <- stability_estimate(halves, p = 6),
                 class = "propstab_DegenerateVarianceWarning")
  expect_identical(est$method, "bootstrap")
  expect_gt(est$std.error, 0.01)
  ci <- suppress_propstab_warnings(confint(est), classes = "propstab_SmallSampleWarning")
  expect_gt(ci[2] - ci[1], 0.1)
  expect_match(paste(capture.output(print(est)), collapse = "\n"),
               "bootstrap of the runs.*although the runs differ")
  # 2 runs of different sizes: Thm 6 depends on k1 - k2 only; was p = 4e-34, silently
  two <- list(c(1, 2, 3, 5, 7), c(3, 5, 7))
  expect_warning(res <- stability_test(two, phi0 = 0, p = 7),
                 class = "propstab_DegenerateVarianceWarning")
  expect_true(is.na(res$p.value) && is.na(res$stderr))
  expect_match(res$method, "variance undefined: .*2 runs")
  # identical runs keep the exact 0, and warn only for the interval
  same <- rep(list(c(1, 2)), 4)
  est <- expect_silent(stability_estimate(same, p = 5))
  expect_identical(est$variance, 0)
  expect_warning(suppress_propstab_warnings(confint(est), classes = "propstab_SmallSampleWarning"),
                 class = "propstab_ZeroVarianceWarning")
})

test_that("confint() of an estimate is clipped to the measure's range, as in Python", {
  near_top <- c(rep(list(c(1, 2)), 29), list(c(3, 4)))
  est <- stability_estimate(near_top, p = 6)
  twin <- nogueira_thm6(near_top, 6)
  expect_equal(as.vector(suppress_propstab_warnings(confint(est, method = "wald"), classes = "propstab_SmallSampleWarning")),
               c(twin$phi - qnorm(0.975) * sqrt(twin$variance), 1), tolerance = 1e-10)
})

test_that("confint() labels its columns as stats::confint does", {
  est <- stability_estimate(list(c(1, 2), c(1, 2), c(1, 3), c(1, 2)), p = 4)
  ci <- suppress_propstab_warnings(confint(est, level = 0.999), classes = "propstab_SmallSampleWarning")
  expect_identical(colnames(ci), c("0.05 %", "99.95 %"))
  fit <- stats::lm(dist ~ speed, data = datasets::cars)
  expect_identical(colnames(ci), colnames(stats::confint(fit, level = 0.999)))
  expect_identical(colnames(suppress_propstab_warnings(confint(est), classes = "propstab_SmallSampleWarning")),
                   c("2.5 %", "97.5 %"))
})

# The Python library's interval for the same runs, called directly through reticulate.
python_interval <- function(features, p, level = 0.95, method = "auto", measure = "nogueira") {
  Z <- t(vapply(features, function(f) as.integer(seq_len(p) %in% f), integer(p)))
  inference <- reticulate::import("propstab.inference")
  est <- inference$estimate(Z, measure)
  twin <- py_warning_classes(est$confidence_interval(level, method = method))
  expect_identical(twin$classes, "SmallSampleWarning")     # 10 runs, as R's (asserted there)
  c(twin$value$low, twin$value$high)
}

test_that("R and Python give the same interval for the same runs, every method", {
  nine_one <- c(rep(list(c(1, 2)), 9), list(c(3, 4)))          # d = 6
  for (method in c("auto", "wald", "logit", "bootstrap", "bca")) {
    est <- stability_estimate(nine_one, p = 6)
    expect_warning(r <- confint(est, level = 0.9, method = method),
                   class = "propstab_SmallSampleWarning")
    expect_equal(as.vector(r), python_interval(nine_one, 6, 0.9, method), tolerance = 1e-12)
    expect_true(all(r >= -1 & r <= 1))
  }
  expect_warning(jac <- confint(stability_estimate(nine_one, p = 6, measure = "jaccard")),
                 class = "propstab_SmallSampleWarning")
  expect_equal(as.vector(jac), python_interval(nine_one, 6, measure = "jaccard"),
               tolerance = 1e-12)
})

test_that("the one-sample test's interval is Python's, clipped (9 runs {1,2}, one {3,4})", {
  nine_one <- c(rep(list(c(1, 2)), 9), list(c(3, 4)))
  Z <- t(vapply(nine_one, function(f) as.integer(seq_len(6) %in% f), integer(6)))
  py <- reticulate::import("propstab")
  for (test in c("wald", "logit", "auto")) {
    expect_warning(r <- stability_test(nine_one, phi0 = 0.2, p = 6, alternative = "two.sided",
                                       test = test),
                   class = "propstab_SmallSampleWarning")
    twin <- py_warning_classes({
      res <- py$one_sample_test(Z, 0.2, alternative = "two-sided", test = test)
      ci <- res$confidence_interval(0.95)
    })
    expect_identical(twin$classes, "SmallSampleWarning")
    expect_equal(as.vector(r$conf.int), c(ci$low, ci$high), tolerance = 1e-12)
    expect_equal(unname(r$statistic), res$statistic, tolerance = 1e-12)
    expect_lte(r$conf.int[2], 1)
  }
  expect_warning(wald <- stability_test(nine_one, phi0 = 0.2, p = 6,
                                        alternative = "two.sided", test = "wald"),
                 class = "propstab_SmallSampleWarning")
  # the old R front end gave (0.2537, 1.146), above nogueira's maximum
  expect_identical(round(as.vector(wald$conf.int), 4), c(0.2537, 1))
  expect_error(stability_test(nine_one, phi0 = 0.2, p = 6, test = "permutation"), "test")
})

test_that("the printouts name the estimand, in the words of propstab's Python summaries", {
  feats <- list(c(1, 2), c(1, 2), c(1, 3), c(1, 2), c(2, 3), c(1, 4))
  other <- list(c(1, 2), c(3, 4), c(2, 4), c(1, 3), c(2, 4), c(1, 4))
  estimand <- reticulate::import("propstab.inference._estimates")$ESTIMAND
  expect_match(estimand, "given that data set", fixed = TRUE)
  est <- stability_estimate(feats, p = 4)
  expect_identical(est$estimand, estimand)
  line <- paste0("estimand: ", estimand)
  expect_true(paste0("  ", line) %in% format(est))
  expect_true(paste0("  ", line) %in% utils::capture.output(print(est)))
  expect_warning(printed <- utils::capture.output(print(summary(est))),  # M = 6 runs
                 class = "propstab_SmallSampleWarning")
  expect_true(paste0("Estimand: ", estimand, ".") %in% printed)
  expect_warning(one <- stability_test(feats, phi0 = 0, p = 4),
                 class = "propstab_SmallSampleWarning")
  for (res in list(one,
                   stability_test(feats, other, p = 4, test = "wald"),
                   stability_test(feats, other, p = 4, paired = TRUE, seed = 1L))) {
    expect_s3_class(res, "htest")
    printed <- utils::capture.output(print(res))
    at <- match(line, printed)
    expect_false(is.na(at))
    expect_match(printed[at - 1L], "^data:")            # right after the data line
  }
})

test_that("the old spelling test = \"asymptotic\" warns and gives the Wald test's result", {
  a <- list(c(1, 2), c(1, 3), c(2, 3), c(1, 2), c(1, 4))
  b <- list(c(1, 2), c(1, 2), c(1, 2), c(1, 2), c(1, 3))
  new <- stability_test(b, a, p = 4, test = "wald")
  expect_warning(old <- stability_test(b, a, p = 4, test = "asymptotic"),
                 "test = \"asymptotic\" is renamed test = \"wald\"",
                 class = "deprecatedWarning")
  expect_identical(old[c("statistic", "p.value", "conf.int", "method")],
                   new[c("statistic", "p.value", "conf.int", "method")])
})

test_that("each printout shows the SE its interval or test was built from, as Python's", {
  # 5 runs: thesis Thm 6's SE is 0.0588, the delete-one-run jackknife's 0.1100; below
  # 100 runs the default interval is the logit one with the jackknife variance
  feats <- list(c(1, 2, 3, 5), c(1, 3, 4, 6), c(2, 3, 4), c(4, 5, 6), c(1, 2, 5))
  other <- list(c(1, 2, 3), c(2, 3, 4), c(1, 3, 4, 5), c(2, 4, 6), c(1, 3, 6))
  quiet <- function(expr) {
    withCallingHandlers(expr, propstab_SmallSampleWarning = function(w) {
      invokeRestart("muffleWarning")
    })
  }
  M <- length(feats)
  loo <- vapply(seq_len(M), function(i) stability(feats[-i], p = 6), 0)
  jack <- sqrt((M - 1) / M * sum((loo - mean(loo))^2))        # the jackknife, written here
  est <- stability_estimate(feats, p = 6)
  expect_identical(est$method, "analytic")
  expect_gt(abs(jack - est$std.error), 0.05)                 # 0.1100 against 0.0588
  expect_equal(est$interval.std.error, jack, tolerance = 1e-10)
  label <- sprintf("delete-one-run jackknife, the interval's; analytic: thesis Thm 6: %.4f",
                   est$std.error)
  expect_identical(est$interval.std.error.label, label)
  printed <- format(est, digits = 4L)
  expect_true(sprintf("  estimate %s, std. error %s (%s)", format(est$estimate, digits = 4L),
                      format(jack, digits = 4L), label) %in% printed)
  expect_match(printed[4L], "logit, jackknife variance")     # the interval beside it
  # Python's summary shows the same SE with the same label
  Z <- t(vapply(feats, function(f) seq_len(6) %in% f, logical(6)))
  py <- reticulate::import("propstab")
  twin <- py_warning_classes(reticulate::py_str(py$estimate(Z)$summary()))
  expect_identical(twin$classes, character(0))
  text <- twin$value
  expect_true(grepl(sprintf("standard error   %.4f (%s)", jack, label), text, fixed = TRUE))
  s <- quiet(summary(est))
  expect_equal(unname(s$table[1L, "Std. Error"]), jack, tolerance = 1e-10)
  expect_true(paste0("Std. Error: ", label, ". Interval: logit, jackknife variance; M < 100, 95%.")
              %in% format(s))
  expect_equal(as.data.frame(s)$std.error, jack, tolerance = 1e-10)
  # the one- and two-sample tests (defaults: jackknife variances) show the same SE for
  # the same runs, labelled, as their Python summaries
  one <- quiet(stability_test(feats, phi0 = 0.1, p = 6))
  two <- stability_test(feats, other, p = 6, seed = 1L)
  paired <- stability_test(feats, other, p = 6, paired = TRUE, seed = 1L)
  se <- format(jack, digits = 5L)
  expect_true(sprintf("std. error: %s (delete-one-run jackknife)", se) %in%
                utils::capture.output(print(one)))
  for (res in list(two, paired)) {
    expect_match(utils::capture.output(print(res)),
                 sprintf("^std. errors: x %s \\(delete-one-run jackknife\\), y ", se),
                 all = FALSE)
  }
  expect_equal(one$std.errors[["stability"]], jack, tolerance = 1e-10)
  expect_equal(two$std.errors[["x"]], jack, tolerance = 1e-10)
  expect_equal(two$std.errors[["difference"]], two$stderr, tolerance = 1e-15)
  sep <- sprintf("%.4f", jack)
  twin <- py_warning_classes(reticulate::py_str(py$one_sample_test(Z, 0.1)$summary()))
  expect_identical(twin$classes, character(0))
  expect_match(twin$value, sprintf("(SE %s, nogueira, ", sep), fixed = TRUE)
  Y <- t(vapply(other, function(f) seq_len(6) %in% f, logical(6)))
  twin <- py_warning_classes(reticulate::py_str(py$two_sample_test(Z, Y)$summary()))
  expect_identical(twin$classes, character(0))
  expect_match(twin$value, sprintf("(SE %s), Phi_2", sep), fixed = TRUE)
})
