# Errors and warnings: Python's arrive as R conditions with propstab's message and no
# traceback; R input is validated in R first, with stabm's wording (checkmate).

skip_if_no_propstab()

test_that("a Python error is an R error with propstab's message and classes", {
  err <- tryCatch(stability(list(1:2, 2:3), p = 4, measure = "jacard"), error = identity)
  expect_s3_class(err, c("propstab_ValueError", "propstab_error", "error", "condition"),
                  exact = TRUE)
  expect_match(conditionMessage(err),
               "^measure: 'jacard' is not a registered measure\\. Did you mean 'jaccard'\\?")
  expect_false(grepl("Traceback|File \"", conditionMessage(err)))
  expect_match(err$python_traceback, "Traceback")           # kept for developers
  expect_identical(conditionCall(err),
                   quote(stability(list(1:2, 2:3), p = 4, measure = "jacard")))
  err <- tryCatch(stability(list(1:2, 2:3), p = 4, measure = "davis", penalty = -1),
                  error = identity)
  expect_match(conditionMessage(err), "^penalty: must be a finite number >= 0")
  err <- tryCatch(stability(list(1:2, 2:3), p = 4, measure = "davis", pennalty = 1),
                  error = identity)
  expect_s3_class(err, "propstab_TypeError")
  expect_match(conditionMessage(err), "unexpected option\\(s\\) 'pennalty'")
})

test_that("Python's argument names become the R package's in messages", {
  S <- diag(3); S[1, 1] <- 0.5                            # not a unit diagonal
  err <- tryCatch(stabilityZucknick(list(1, 2), sim.mat = S), error = identity)
  expect_match(conditionMessage(err), "^sim\\.mat: ")
  err <- tryCatch(stabilityIntersectionCount(list(1, 2), sim.mat = diag(3),
                                             correction.for.chance = "approximate"),
                  error = identity)
  expect_match(conditionMessage(err), "correction\\.for\\.chance.*'none','exact','estimate'")
  # the exact correction of the intersection measures is stabm's
  S <- diag(4); S[1, 2] <- S[2, 1] <- 0.95
  feats <- list(c(1, 3), c(2, 3, 4), 1)
  if (requireNamespace("stabm", quietly = TRUE)) {
    expect_equal(stabilityIntersectionCount(feats, sim.mat = S,
                                            correction.for.chance = "exact"),
                 stabm::stabilityIntersectionCount(feats, sim.mat = S,
                                                   correction.for.chance = "exact"),
                 tolerance = 1e-10)
  }
  err <- tryCatch(stabilityJaccard(list(1, 2), correction.for.chance = "exact"),
                  error = identity)
  expect_match(conditionMessage(err), "^p: the number of features is needed")
})

test_that("R input is validated in R with messages naming the argument", {
  expect_error(stabilityNogueira(list(1:3, 2:4), p = 2),
               "features: run 1 contains the feature index 3; features are 1-based indices in 1..2",
               class = "propstab_input_error")
  expect_error(stabilityNogueira(list(1:3, 2:4)), "^p: the total number of features is required")
  expect_error(stabilityNogueira(list(1:3), p = 5), "Must have length >= 2")   # checkmate
  expect_error(stabilityNogueira(list(c(1, 1), 2), p = 5), "run 1 lists a feature more than once")
  expect_error(stabilityNogueira(list(c(1, NA), 2), p = 5), "features")
  expect_error(stabilityNogueira(list(1, "a"), p = 5), "all runs must be numeric or all")
  expect_error(stabilityNogueira(list(1.5, 2), p = 5), "features")
  expect_error(stabilityDavis(list(1, 2), p = 3, penalty = -1), "penalty")
  expect_error(stabilityJaccard(list(1, 2), correction.for.chance = "exakt"),
               "correction.for.chance")
  expect_error(stabilityZucknick(list(1, 2), sim.mat = matrix(c(1, 0.2, 0.3, 1), 2)),
               "sim.mat: must be symmetric")
  expect_error(stabilityZucknick(list(1, 2), sim.mat = diag(2), threshold = 2), "threshold")
  expect_error(stabilityZucknick(list("a", "b"), sim.mat = diag(2)), "column names")
  expect_error(stability(rbind(c(1, 2), c(0, 1))), "0/1 or TRUE/FALSE")
  expect_error(stability(list(1, 2)), "^p: the total number of features is required")
  expect_error(stability(list(1, 2), p = 3, sim.mat = diag(2)), "p: 3 does not match")
})

test_that("an undefined value is NA with a warning saying why", {
  expect_warning(value <- stabilityNogueira(list(integer(0), integer(0)), p = 3),
                 "nogueira is undefined here: the mean subset size is 0 or d; returning NA",
                 class = "propstab_UndefinedMeasureWarning")
  expect_identical(value, NA_real_)
  expect_warning(value <- stabilityWald(list(1:2, 1), p = 2),
                 class = "propstab_UndefinedMeasureWarning")
  expect_identical(value, NA_real_)                      # stabm: NaN
  expect_identical(stabilityNogueira(list(integer(0), integer(0)), p = 3, impute.na = 0), 0)
})

test_that("messages count positions from 1, as R does", {
  S <- diag(3); S[1, 1] <- 0.5
  expect_error(stabilityZucknick(list(1:2, 2:3), sim.mat = S),
               "got sim.mat[1, 1] = 0.5", fixed = TRUE)
  S <- Matrix::Matrix(diag(3), sparse = TRUE); S[2, 2] <- 0
  expect_error(stabilityZucknick(list(1:2, 2:3), sim.mat = S),
               "got sim.mat[2, 2] = 0", fixed = TRUE)
  W <- matrix(1, 2, 5)
  expect_error(stabilityMSI(list(1:2, 2:3), sim.mat = diag(5), importances = W),
               "importances: run 1 gives feature 3 importance 1 but does not select it",
               fixed = TRUE)
  W <- rbind(c(1, 0, 0), c(0, 1, 1))
  expect_error(stabilityMSI(list(1:2, 2:3), sim.mat = diag(3), importances = W),
               "importances: run 1 selects feature 2 but gives it importance 0", fixed = TRUE)
  W <- rbind(c(1, 1, 0), c(0, 1, 1))
  expect_equal(stabilityMSI(list(1:2, 2:3), sim.mat = diag(3), importances = W),
               stabilityMSI(list(1:2, 2:3), sim.mat = diag(3)), tolerance = 1e-12)
})

test_that("penalty = NULL is refused, as stabm refuses it", {
  expect_error(stabilityDavis(list(1:2, 2:3), p = 5, penalty = NULL), "penalty")
  if (requireNamespace("stabm", quietly = TRUE)) {
    expect_error(stabm::stabilityDavis(list(1:2, 2:3), p = 5, penalty = NULL), "penalty")
  }
})

test_that("propstab's warnings can be quieted per call and per session", {
  feats <- list(integer(0), integer(0))
  expect_warning(stabilityJaccard(feats), class = "propstab_UndefinedMeasureWarning")
  expect_no_warning(value <- suppress_propstab_warnings(stabilityJaccard(feats)))
  expect_true(is.na(value))
  old <- options(propstab.warn = FALSE)
  on.exit(options(old))
  expect_no_warning(stabilityJaccard(feats))
  options(propstab.warn = TRUE)
  expect_warning(stabilityJaccard(feats), class = "propstab_warning")
  # other warnings pass
  expect_warning(suppressPropstabWarnings(warning("other")), "other")
})
