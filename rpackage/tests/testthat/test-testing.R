# The testthat expectations: pass and fail as propstab.testing decides (decisions
# computed here from the estimate and its variance with pnorm), R messages, bad input.

skip_if_no_propstab()

stable_runs <- function(M, flip = 0.05, seed = 1L) {
  set.seed(seed)
  Z <- matrix(FALSE, M, 10L)
  Z[, 1:3] <- TRUE
  Z <- xor(Z, matrix(runif(M * 10L) < flip, M, 10L))
  Z
}

random_runs <- function(M, seed = 2L) {
  set.seed(seed)
  matrix(runif(M * 10L) < 0.3, M, 10L)
}

test_that("expect_stable passes and fails as the one-sided Wald test (M >= 100)", {
  Z <- stable_runs(150L)
  est <- stability_estimate(Z, method = "analytic")
  bound <- est$estimate - qnorm(0.95) * est$std.error     # the decision boundary
  expect_success(expect_stable(Z, at.least = bound - 0.01))
  failure <- expect_failure(expect_stable(Z, at.least = bound + 0.01),
                            "stability not shown to exceed")
  expect_failure(expect_stable(Z, at.least = bound + 0.01),
                 sprintf("p = %s", format(signif(pnorm((est$estimate - bound - 0.01) /
                                                       est$std.error, lower.tail = FALSE),
                                                 4))))
  expect_failure(expect_stable(Z, at.least = bound + 0.01), "runs would decide it")
})

test_that("a random selector fails expect_stable with the reason", {
  expect_failure(expect_stable(random_runs(40L), at.least = 0.5),
                 "no number of runs would decide it")
})

test_that("expect_not_less_stable: non-inferiority and drop, as computed from Thm 7", {
  base <- stable_runs(120L, seed = 3L)
  cur <- stable_runs(120L, flip = 0.08, seed = 4L)
  eb <- stability_estimate(base, method = "analytic")
  ec <- stability_estimate(cur, method = "analytic")
  D <- ec$estimate - eb$estimate
  se <- sqrt(eb$variance + ec$variance)
  boundary <- -(D - qnorm(0.95) * se)
  expect_success(expect_not_less_stable(base, cur, margin = boundary + 0.01,
                                        test = "non-inferiority"))
  expect_failure(expect_not_less_stable(base, cur, margin = boundary - 0.01,
                                        test = "non-inferiority"),
                 sprintf("not shown non-inferior within margin .*difference current - baseline %.4f", D))
  expect_failure(expect_not_less_stable(base, random_runs(120L), margin = 0.05),
                 "stability dropped by more than 0.05: .*lies below -0.05")
  expect_success(expect_not_less_stable(base, base, margin = 0.05))
})

test_that("expect_measure_properties fails with the counterexample as R code", {
  coverage <- function(Z) mean(Z)
  expect_failure(expect_measure_properties(coverage, claims = c("bounds", "maximum"),
                                           lower = 0, upper = 1, max.examples = 30L),
                 "coverage claims maximum but it is violated: .*rbind\\(c\\(1, 0\\), c\\(1, 0\\)\\)")
  Z <- rbind(c(1, 0), c(1, 0))                  # the counterexample, pasted: not the maximum
  expect_lt(coverage(Z), 1)
  expect_success(expect_measure_properties(coverage, claims = "bounds", lower = 0,
                                           upper = 1, max.examples = 30L))
})

test_that("bad input is an R error naming the argument", {
  Z <- stable_runs(30L)
  expect_error(expect_stable(Z, at.least = 2), "^at.least: must lie in the range",
               class = "propstab_ValueError")
  expect_error(expect_stable(Z, at.least = 0.5, conf.level = 0.3), "^conf.level: ",
               class = "propstab_ValueError")
  expect_error(expect_not_less_stable(Z, Z, margin = -1), "^margin: must be >= 0",
               class = "propstab_ValueError")
  expect_error(expect_not_less_stable(Z, Z[, 1:8], margin = 0.1),
               "^baseline, current: must have the same number of features p; got 10 and 8")
  expect_error(expect_not_less_stable(Z, stable_runs(20L), margin = 0.1, paired = TRUE),
               "^current, baseline: a paired comparison needs the same M runs")
  expect_error(expect_stable(list(c(1, 5), c(1, 2)), at.least = 0.1, p = 4),
               "features: run 1 contains the feature index 5")
  expect_error(expect_stable(Z, at.least = 0.5, measure = "nope"), "nope")
})

test_that("identical runs do not pass by certainty (the finite-M bound, as in Python)", {
  # stability 0.897: {1, 2, 3} with probability 0.849, else {1, 2, 4}, of 18 features;
  # 10 runs are all identical in 19.5 % of tries, which passed at.least = 0.9 with p = 0
  set.seed(7)
  runs <- function(M) lapply(seq_len(M), function(i)
    if (runif(1) < 0.849) c(1, 2, 3) else c(1, 2, 4))
  passed <- vapply(1:150, function(i) {
    inherits(tryCatch(expect_stable(runs(10), at.least = 0.9, p = 18),
                      expectation_failure = function(e) e), "list")
  }, logical(1))
  expect_lte(mean(passed), 0.05 + 3 * sqrt(0.05 * 0.95 / 150))
  expect_failure(expect_stable(rep(list(c(1, 2, 3)), 10), at.least = 0.9, p = 18),
                 "all 10 runs selected the same 3 features")
})

test_that("the old name confidence = warns and decides as conf.level =", {
  Z <- stable_runs(30L)
  expect_success(expect_stable(Z, at.least = 0.5, conf.level = 0.9))
  expect_warning(expect_success(expect_stable(Z, at.least = 0.5, confidence = 0.9)),
                 "confidence = is renamed conf.level =", class = "deprecatedWarning")
  expect_failure(expect_stable(Z, at.least = 0.99, conf.level = 0.9))
  expect_warning(expect_failure(expect_stable(Z, at.least = 0.99, confidence = 0.9)),
                 "confidence = is renamed conf.level =", class = "deprecatedWarning")
  expect_warning(expect_success(expect_not_less_stable(Z, Z, margin = 0.1, paired = TRUE,
                                                       confidence = 0.9)),
                 "expect_not_less_stable: confidence = is renamed conf.level =",
                 class = "deprecatedWarning")
})
