# propstab's stabm-compatible functions against stabm itself: the same functions with the
# same formals, and the same values on generated feature sets (constant and varying
# sizes, empty and full runs, names, dense and sparse similarity matrices), except where
# a documented stabm defect applies (stabm_differences()).

skip_if_no_propstab()

skip_if_not_installed("stabm")

stabm_names <- as.character(stabm::listStabilityMeasures()$Name)

test_that("every stabm measure has a propstab function with stabm's formals", {
  expect_length(stabm_names, 20L)
  for (fun in stabm_names) {
    expect_true(fun %in% getNamespaceExports("propstab"), label = fun)
    expect_identical(formals(getExportedValue("propstab", fun)),
                     formals(getExportedValue("stabm", fun)), label = fun)
  }
})

test_that("the Python side computes exactly stabm's functions, from the registry", {
  frontend <- reticulate::import("propstab.r._frontend")
  expect_setequal(names(frontend$stabm_functions()), stabm_names)
})

test_that("the issue's example prints stabm's value", {
  feats <- list(1:3, 2:4, c(1, 3, 5))
  expect_equal(stabilityNogueira(feats, p = 6), 1 / 9, tolerance = 1e-12)
  expect_identical(capture.output(stabilityNogueira(feats, p = 6)),
                   capture.output(stabm::stabilityNogueira(feats, p = 6)))
})

# Compares one call of `fun` in propstab and in stabm. A difference must fall under a
# documented stabm defect. Returns "agree" or "documented". The expectations here and in
# expect_compare() are testthat's plain expect(), one expectation each as expect_true()
# and expect_equal() were, failing on the same values: those two run waldo's comparison
# in a reproducible-output context on every call, passing or not (a third of this
# file's time over its 1,400 expectations).
compare <- function(fun, args) {
  ours <- suppress_propstab_warnings(do.call(getExportedValue("propstab", fun), args))
  # stabm's own warnings: the reference's, not the subject of the comparison
  theirs <- suppressWarnings(do.call(getExportedValue("stabm", fun), args))
  ok <- is.numeric(ours) && length(ours) == 1L
  expect(ok, if (ok) "" else sprintf("%s: propstab returned %s, not one number; call: %s",
                                     fun, paste(deparse(ours), collapse = " "),
                                     paste(deparse(args), collapse = " ")))
  if (agree(ours, theirs)) return("agree")
  keys <- do.call(stabm_differences, c(list(fun), args))$key
  expect(length(keys) > 0L,
         sprintf("%s: propstab %s, stabm %s outside every documented difference; call: %s",
                 fun, format(ours, digits = 15), format(theirs, digits = 15),
                 paste(deparse(args), collapse = " ")))
  "documented"
}

# compare() must give `status` ("agree", or "documented": a stabm defect that applies).
expect_compare <- function(fun, args, status = "agree", label = fun) {
  got <- compare(fun, args)
  ok <- identical(got, status)
  expect(ok, if (ok) "" else sprintf("%s: %s, not %s; call: %s(%s)", label, got, status,
                                     fun, paste(deparse(args), collapse = " ")))
  invisible(got)
}

# Feature-set cases: (M, p) grid, constant sizes and varying sizes with empty and full runs.
set.seed(20240611)
cases <- list()
for (M in c(2L, 3L, 6L, 12L)) {
  for (p in c(5L, 9L, 30L)) {
    k <- sample.int(p - 1L, 1L)
    cases[[length(cases) + 1L]] <- list(features = random_features(rep(k, M), p), p = p)
    sizes <- sample(0:p, M, replace = TRUE)
    cases[[length(cases) + 1L]] <- list(features = random_features(sizes, p), p = p)
  }
}
# small enough for stabm's exact correction (it enumerates every pair of subsets)
small <- Filter(function(x) x$p <= 5L && length(x$features) <= 3L, cases)
with_empty <- list(list(features = list(integer(0), integer(0), 1:2, 2:3), p = 4L),
                   list(features = list(integer(0), 1L, integer(0)), p = 3L),
                   list(features = list(1:3, 1:3, integer(0)), p = 3L))

test_that("the measures of pairs of sets agree with stabm", {
  for (fun in c("stabilityJaccard", "stabilityDice", "stabilityOchiai", "stabilityHamming",
                "stabilityKappa", "stabilityLustgarten", "stabilityPhi",
                "stabilityUnadjusted", "stabilityWald", "stabilityNogueira",
                "stabilitySomol", "stabilityNovovicova", "stabilityDavis")) {
    status <- vapply(cases, function(x) compare(fun, x), character(1L))
    expect_gt(sum(status == "agree"), length(cases) / 2)
    if (fun %in% c("stabilityJaccard", "stabilityNogueira", "stabilityKappa")) {
      expect_true(all(status == "agree"), label = fun)       # no documented defect
    }
  }
})

test_that("p may be omitted where stabm's value does not depend on it", {
  for (fun in c("stabilityJaccard", "stabilityDice", "stabilityOchiai",
                "stabilityNovovicova")) {
    for (x in cases[1:8]) expect_compare(fun, list(features = x$features))
  }
})

test_that("options agree with stabm: exact correction, Davis's penalty, impute.na", {
  for (x in small) {
    for (fun in c("stabilityJaccard", "stabilityDice", "stabilityOchiai",
                  "stabilityHamming")) {
      expect_compare(fun, c(x, correction.for.chance = "exact"))
    }
    compare("stabilityNovovicova", c(x, correction.for.chance = "exact"))
    compare("stabilityDavis", c(x, correction.for.chance = "exact", penalty = 1))
  }
  for (x in cases) expect_compare("stabilityDavis", c(x, penalty = 1.5))
  # corrected Davis and Novovicova for M > 2: documented (a global score minus pairwise
  # expectations), never silently different
  x <- list(features = list(1:2, 2:3, c(1, 3)), p = 4)
  expect_compare("stabilityDavis", c(x, correction.for.chance = "exact"),
                 status = "documented")
  for (x in with_empty) {
    for (fun in c("stabilityJaccard", "stabilityDice", "stabilityOchiai", "stabilityKappa",
                  "stabilityUnadjusted", "stabilityWald", "stabilityPhi",
                  "stabilityLustgarten", "stabilityNogueira")) {
      expect_compare(fun, c(x, impute.na = 0.25), label = fun)
    }
    expect_compare("stabilityJaccard", c(x, correction.for.chance = "exact", impute.na = -0.5))
  }
})

test_that("the exact correction's 0/0 is NA where stabm's is, at every p", {
  # runs that are all-selected or empty: each pair's value is determined under H0, so
  # E equals the score; stabm gives NA where that score is the maximum 1 (a sum of
  # rounded probabilities made propstab's 1 - E nonzero at p = 10, 13, 17, ...)
  for (p in c(9L, 10L, 13L, 17L, 18L, 23L, 50L, 200L)) {
    full <- seq_len(p)
    for (runs in list(list(full, full), list(full, full, integer(0)),
                      list(integer(0), integer(0), full), list(full, integer(0)),
                      list(full, full, integer(0), integer(0)))) {
      x <- list(features = runs, p = p)
      for (fun in c("stabilityJaccard", "stabilityDice", "stabilityOchiai",
                    "stabilityHamming")) {
        expect_compare(fun, c(x, correction.for.chance = "exact"), label = paste(fun, p))
        expect_compare(fun, c(x, correction.for.chance = "exact", impute.na = -0.5),
                       label = paste(fun, p, "impute.na"))
      }
      if (length(runs) == 2L) {
        expect_compare("stabilityDavis", c(x, correction.for.chance = "exact"),
                       label = paste("davis", p))
      }
    }
  }
  # the issue's case: the pair of full runs is NA (imputed -0.5), the pairs of a full and
  # an empty run are 0 (value = E = 0 < 1): (-0.5 + 0 + 0) / 3 = -1/6, stabm's value
  feats <- list(1:10, 1:10, integer(0))
  expect_warning(
    pair <- stabilityHamming(feats[1:2], p = 10, correction.for.chance = "exact"),
    class = "propstab_UndefinedMeasureWarning")
  expect_true(is.na(pair))
  expect_equal(stabilityHamming(feats, p = 10, correction.for.chance = "exact",
                                impute.na = -0.5), -1 / 6, tolerance = 1e-12)
  expect_equal(stabm::stabilityHamming(feats, p = 10, correction.for.chance = "exact",
                                       impute.na = -0.5), -1 / 6, tolerance = 1e-12)
})

test_that("feature names agree with stabm", {
  for (x in cases[1:12]) {
    named <- lapply(x$features, function(f) sprintf("g%d", f))
    for (fun in c("stabilityNogueira", "stabilityJaccard", "stabilityKappa")) {
      expect_compare(fun, list(features = named, p = x$p), label = fun)
    }
  }
})

test_that("the measures of similar features agree with stabm (dense and sparse sim.mat)", {
  set.seed(7)
  sim_cases <- list()
  for (M in c(2L, 3L, 5L)) {
    for (p in c(4L, 6L, 12L)) {
      sizes <- if (M == 3L) sample(0:p, M, replace = TRUE) else rep(sample.int(p - 1L, 1L), M)
      sim_cases[[length(sim_cases) + 1L]] <- list(
        features = random_features(sizes, p),
        sim.mat = random_similarity(p, sparse = (M == 5L)),
        threshold = sample(c(0.5, 0.9, 0.95), 1L))
    }
  }
  total <- c()
  for (x in sim_cases) {
    total <- c(total,
               compare("stabilityZucknick", x),
               compare("stabilitySechidis", x),
               compare("stabilityYu", c(x, correction.for.chance = "none")))
    # stabm's MBM needs igraph (a suggested package of stabm's and of propstab's)
    mbm <- if (requireNamespace("igraph", quietly = TRUE)) "stabilityIntersectionMBM"
    for (fun in c("stabilityIntersectionCount", "stabilityIntersectionMean",
                  "stabilityIntersectionGreedy", mbm)) {
      total <- c(total, compare(fun, c(x, correction.for.chance = "none")))
    }
    if (ncol(x$sim.mat) <= 6L && length(x$features) <= 3L) {
      total <- c(total, compare("stabilityYu", c(x, correction.for.chance = "exact")),
                 compare("stabilityZucknick", c(x, correction.for.chance = "exact")))
    }
  }
  expect_gt(mean(total == "agree"), 0.8)
  # named features index the column names of sim.mat
  S <- random_similarity(5L)
  dimnames(S) <- list(letters[1:5], letters[1:5])
  expect_compare("stabilityZucknick",
                 list(features = list(c("a", "c"), c("b", "c"), "e"), sim.mat = S))
  # threshold 0 on a dense matrix with zeros: stabm counts the zeros (documented)
  S <- diag(4); S[1, 2] <- S[2, 1] <- 0.5
  x <- list(features = list(c(1, 3), c(2, 4), 3), sim.mat = S, threshold = 0,
            correction.for.chance = "none")
  expect_compare("stabilityYu", x, status = "documented")
})

test_that("without similar features, stabm's Yu is stabilityUnadjusted (documented recipe)", {
  S <- diag(6); S[1, 2] <- S[2, 1] <- 0.5                 # below the threshold 0.9
  feats <- list(c(1, 3), c(2, 3, 4), 5, c(1, 6))
  stabm_yu <- stabm::stabilityYu(feats, sim.mat = S, correction.for.chance = "exact")
  expect_equal(stabilityUnadjusted(feats, p = ncol(S)), stabm_yu, tolerance = 1e-12)
  expect_false(agree(stabilityYu(feats, sim.mat = S, correction.for.chance = "exact"),
                     stabm_yu))
  expect_identical(stabm_differences("stabilityYu", feats, sim.mat = S,
                                     correction.for.chance = "exact")$key,
                   "adjusted_no_similar_pair")
})

test_that("correction.for.chance = 'estimate' is exact where propstab has no simulation", {
  x <- list(features = list(1:2, c(1, 3), 2:4), p = 5)
  for (fun in c("stabilityJaccard", "stabilityHamming")) {
    estimate <- do.call(fun, c(x, correction.for.chance = "estimate", N = 10))
    exact <- do.call(getExportedValue("stabm", fun), c(x, correction.for.chance = "exact"))
    expect_equal(estimate, exact, tolerance = 1e-12)
  }
})

test_that("the simulated correction is close to stabm's exact value and repeatable", {
  S <- diag(6); S[1, 2] <- S[2, 1] <- S[3, 4] <- S[4, 3] <- 0.95
  feats <- list(c(1, 3), c(2, 4), c(1, 5), c(2, 3))
  exact <- stabm::stabilityYu(feats, sim.mat = S, correction.for.chance = "exact")
  set.seed(3)
  simulated <- suppress_propstab_warnings(stabilityYu(feats, sim.mat = S))
  expect_lt(abs(simulated - exact), 0.02)
  set.seed(3)
  expect_identical(suppress_propstab_warnings(stabilityYu(feats, sim.mat = S)), simulated)
})

test_that("impute.na of the measures of similar features is stabm's, pair by pair", {
  # stabm imputes each undefined pair score (two empty sets; a corrected 0/0) before the
  # mean: runs with empty sets among others, where the value itself is undefined
  set.seed(31)
  S <- diag(5); S[1, 2] <- S[2, 1] <- 0.95; S[3, 5] <- S[5, 3] <- 0.92
  mbm <- if (requireNamespace("igraph", quietly = TRUE)) "stabilityIntersectionMBM"
  checked <- 0L
  for (i in 1:6) {
    feats <- c(random_features(sample(1:2, 2L, replace = TRUE), 5L),
               list(integer(0), integer(0)))[sample.int(4L)]
    x <- list(features = feats, sim.mat = S, impute.na = 0.3)
    expect_compare("stabilityZucknick", x)
    expect_compare("stabilityYu", c(x, correction.for.chance = "none"))
    expect_compare("stabilityYu", c(x, correction.for.chance = "exact"))
    for (fun in c("stabilityIntersectionCount", "stabilityIntersectionMean",
                  "stabilityIntersectionGreedy", mbm)) {
      expect_compare(fun, c(x, correction.for.chance = "exact"), label = fun)
    }
    checked <- checked + 1L
  }
  expect_identical(checked, 6L)
  # the case of the report: stabm 0.2333, not impute.na itself
  expect_equal(stabilityZucknick(list(integer(0), integer(0), 1:2), sim.mat = diag(3),
                                 impute.na = 0.7), 0.7 / 3, tolerance = 1e-12)
  # 28 random runs and 2 empty ones, impute.na = 0: the value over the defined pairs
  set.seed(5)
  S <- random_similarity(10L)
  feats <- c(random_features(sample(1:5, 28L, replace = TRUE), 10L),
             list(integer(0), integer(0)))
  ours <- stabilityZucknick(feats, sim.mat = S, impute.na = 0)
  expect_gt(ours, 0.1)
  expect_equal(ours, stabm::stabilityZucknick(feats, sim.mat = S, impute.na = 0),
               tolerance = 1e-10)
})

test_that("without p, a large feature index costs what the runs cost (as in stabm)", {
  time <- system.time(value <- stabilityJaccard(list(c(1, 1e9), c(1, 2))))[["elapsed"]]
  expect_equal(value, stabm::stabilityJaccard(list(c(1, 1e9), c(1, 2))))
  expect_lt(time, 2)
  expect_equal(stabilityNovovicova(list(c(1, 2e9), c(2e9, 7), 7)),
               stabm::stabilityNovovicova(list(c(1, 2e9), c(2e9, 7), 7)), tolerance = 1e-12)
})
