# What a stabm user expects of the R interface: p from a matrix's columns, messages with
# R's argument names, no numpy warnings, seeds from R's random number generator, and
# as.data.frame() and format() methods for the results.

skip_if_no_propstab()

test_that("p defaults to ncol(features) for a matrix of runs, in every function", {
  Z <- rbind(c(TRUE, TRUE, FALSE, FALSE), c(TRUE, FALSE, TRUE, FALSE),
             c(TRUE, TRUE, FALSE, FALSE))
  feats <- lapply(seq_len(nrow(Z)), function(i) which(Z[i, ]))
  for (fun in c("stabilityNogueira", "stabilityHamming", "stabilityKappa",
                "stabilityLustgarten", "stabilityPhi", "stabilityUnadjusted", "stabilityWald",
                "stabilityDavis", "stabilitySomol", "stabilityKuncheva", "stabilityPOG",
                "stabilityNPOG")) {
    f <- getExportedValue("propstab", fun)
    expect_identical(suppress_propstab_warnings(f(Z)),
                     suppress_propstab_warnings(f(feats, p = 4)), label = fun)
    expect_identical(suppress_propstab_warnings(f(Z + 0)),
                     suppress_propstab_warnings(f(feats, p = 4)), label = fun)
  }
  expect_identical(stabilityNogueira(Z), stability(Z))
  expect_error(stabilityNogueira(feats), "p: the total number of features is required")
  expect_error(stabilityNogueira(Z, p = 5), "p: 5 does not match the 4 columns")
})

test_that("messages name R's arguments, not Python's", {
  feats <- list(1:2, 2:3, c(1, 3))
  expect_error(stability(feats, p = 4, measure = "kuncheva",
                         correction.for.chance = "estimate"),
               "unexpected option(s) 'correction.for.chance'", fixed = TRUE)
  expect_error(stability(feats, p = 4, measure = "jaccard", correction.for.chance = "bogus"),
               "^correction.for.chance: must be one of")
  expect_error(stability(feats, p = 4, measure = "yu", correction.for.chance = "estimate",
                         N = 0), "^N: must be")
  # (not feats: every feature in 2 of its 3 runs, a degenerate analytic variance)
  est <- stability_estimate(list(1:2, 2:3, c(1, 4)), p = 4)
  for (e in list(tryCatch(confint(est, level = 0), error = identity),
                 tryCatch(stability_test(feats, p = 4, conf.level = 1), error = identity),
                 tryCatch(stability(feats, p = 4, measure = "yu", N = 2.5,
                                    correction.for.chance = "estimate"), error = identity))) {
    expect_s3_class(e, "error")
    expect_no_match(conditionMessage(e),
                    "correction_for_chance|n_simulations|confidence_level|n_resamples")
  }
  # from Python's own checks (R's checks are bypassed by calling the front end)
  out <- tryCatch(propstab:::.call("estimate_interval", measure = "nogueira",
                                   sizes = c(2L, 2L, 2L), indices = c(1L, 2L, 2L, 3L, 1L, 3L),
                                   n_features = 4L, confidence_level = 1.5, call = NULL),
                  error = conditionMessage)
  expect_match(out, "^level: must be in \\(0, 1\\)")
  out <- tryCatch(propstab:::.call("one_sample", measure = "nogueira",
                                   sizes = c(2L, 2L, 2L), indices = c(1L, 2L, 2L, 3L, 1L, 3L),
                                   n_features = 4L, phi0 = 0, confidence_level = 1.5,
                                   call = NULL), error = conditionMessage)
  expect_match(out, "^conf.level: must be in \\(0, 1\\)")
})

test_that("an NA rank gives propstab's warnings only, never numpy's", {
  R <- rbind(c(1, 2, 3, 4), c(2, 1, 3, 4), c(1, 3, 2, NA))
  for (measure in c("spearman", "kendall", "canberra")) {
    expect_no_warning(value <- stability(R, measure = measure))
    expect_true(is.finite(value))
  }
  expect_no_warning(stability(R, measure = "top_k", k = 2))
  R <- rbind(c(1, NA, NA, NA), c(NA, 1, NA, NA), c(1, 2, 3, 4))
  got <- character(0)
  withCallingHandlers(stability(R, measure = "spearman"),
                      warning = function(w) {
                        got <<- c(got, class(w)[1L])
                        invokeRestart("muffleWarning")
                      })
  expect_true(all(startsWith(got, "propstab_")), label = paste(got, collapse = ", "))
})

test_that("set.seed() repeats the bootstrap, the permutation test and the simulation", {
  set.seed(10)
  Z <- matrix(runif(40 * 8) < 0.4, 40, 8)
  Y <- matrix(runif(40 * 8) < 0.4, 40, 8)
  Y[1:30, 1] <- TRUE
  est <- stability_estimate(Z)
  ci <- function(seed = NULL, given = NULL) {
    if (!is.null(seed)) set.seed(seed)
    suppress_propstab_warnings(confint(est, method = "bootstrap", n.resamples = 200L,
                                       seed = given), classes = "propstab_SmallSampleWarning")
  }
  expect_identical(ci(1), ci(1))
  expect_false(identical(ci(1), ci(2)))
  expect_identical(ci(1, given = 3L), ci(2, given = 3L))        # a given seed wins
  p_value <- function(seed) {
    set.seed(seed)
    stability_test(Z, Y, test = "permutation")$p.value
  }
  expect_identical(p_value(1), p_value(1))
  expect_false(identical(p_value(1), p_value(2)))
  S <- diag(6); S[1, 2] <- S[2, 1] <- 0.95
  feats <- list(c(1, 3), c(2, 3), c(1, 4), c(5, 6))
  yu <- function(seed) {
    set.seed(seed)
    suppress_propstab_warnings(stability(feats, sim.mat = S, measure = "yu",
                                         correction.for.chance = "estimate", N = 200))
  }
  expect_identical(yu(4), yu(4))
  expect_false(identical(yu(4), yu(5)))
  yu_estimate <- function(seed) {
    set.seed(seed)
    suppress_propstab_warnings(stability_estimate(
      feats, sim.mat = S, measure = "yu", correction.for.chance = "estimate",
      N = 200))$estimate
  }
  expect_identical(yu_estimate(4), yu(4))
  expect_false(identical(yu_estimate(4), yu_estimate(5)))
  # the default interval draws nothing: printing leaves R's random numbers alone
  set.seed(9); a <- runif(1); set.seed(9); capture.output(print(est)); b <- runif(1)
  expect_identical(a, b)
})

test_that("as.data.frame() and format() of an estimate, its summary and an audit", {
  feats <- list(c(1, 2), c(1, 2), c(1, 3), c(1, 2), c(2, 3))
  est <- suppress_propstab_warnings(stability_estimate(feats, p = 4))
  df <- suppress_propstab_warnings(as.data.frame(est))
  expect_s3_class(df, "data.frame")
  expect_identical(nrow(df), 1L)
  expect_identical(df$estimate, est$estimate)
  ci <- suppress_propstab_warnings(confint(est))
  expect_identical(c(df$conf.low, df$conf.high), unname(ci[1L, ]))
  expect_identical(df$interval, attr(ci, "interval"))
  df90 <- suppress_propstab_warnings(as.data.frame(est, conf.level = 0.9, method = "wald"))
  expect_identical(df90$conf.level, 0.9)
  expect_warning(old <- as.data.frame(est, level = 0.9, method = "wald"),
                 "as.data.frame: level = is renamed conf.level =", class = "deprecatedWarning")
  expect_identical(old, df90)
  expect_match(df90$interval, "Wald")
  lines <- suppress_propstab_warnings(format(est))
  expect_type(lines, "character")
  expect_identical(lines, suppress_propstab_warnings(capture.output(print(est))))
  s <- suppress_propstab_warnings(summary(est))
  expect_identical(suppress_propstab_warnings(format(s)),
                   suppress_propstab_warnings(capture.output(print(s))))
  sdf <- as.data.frame(s)
  expect_identical(names(sdf), c("measure", "estimate", "std.error", "conf.low", "conf.high",
                                 "conf.level", "interval"))
  audit <- audit_measure(function(Z) mean(Z), claims = "bounds", lower = 0, upper = 1,
                         max.examples = 20L)
  plain <- as.data.frame(audit)
  expect_identical(class(plain), "data.frame")
  expect_identical(plain$status, audit$status)
  expect_identical(format(audit), capture.output(print(audit)))
})
