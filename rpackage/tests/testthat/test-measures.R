# Every registered measure is reachable from R; the measures stabm lacks against their
# formulas written here in R.

skip_if_no_propstab()

test_that("list_measures() is the registry, with stabm's functions", {
  m <- list_measures()
  expect_s3_class(m, "data.frame")
  expect_true(all(c("nogueira", "kuncheva", "pog", "npog", "msi", "jaccard") %in% m$name))
  expect_type(m$correction, "logical")
  skip_if_not_installed("stabm")
  expect_setequal(stats::na.omit(m$stabm), as.character(stabm::listStabilityMeasures()$Name))
})

test_that("every registered measure is reachable through stability()", {
  m <- list_measures()
  feats <- list(c(1, 2), c(1, 2), c(1, 3), c(2, 4))
  S <- diag(5); S[3, 4] <- S[4, 3] <- 0.95
  for (i in seq_len(nrow(m))) {
    if (m$family[i] == "ranking") {     # rank matrices (test-rankings.R)
      expect_identical(m$input[i], "ranking")
      expect_error(stability(feats, p = 5, measure = m$name[i]), "matrix of ranks",
                   class = "propstab_error")
      next
    }
    value <- if (grepl("similarity", m$options[i])) {
      suppress_propstab_warnings(stability(feats, measure = m$name[i], sim.mat = S))
    } else {
      suppress_propstab_warnings(stability(feats, p = 5, measure = m$name[i]))
    }
    expect_true(is.numeric(value) && length(value) == 1L && !is.na(value), label = m$name[i])
  }
})

# The formulas, literally, over ordered pairs of runs (thesis Table 3.1).
pair_mean <- function(features, phi) {
  M <- length(features)
  vals <- c()
  for (i in seq_len(M)) for (j in seq_len(M)) if (i != j) {
    vals <- c(vals, phi(features[[i]], features[[j]]))
  }
  mean(vals)
}

test_that("Kuncheva, POG and nPOG equal their formulas", {
  set.seed(11)
  for (trial in 1:10) {
    p <- sample(5:15, 1L)
    k <- sample.int(p - 1L, 1L)
    sizes <- sample.int(p - 1L, 4L, replace = TRUE)
    same <- random_features(rep(k, 4L), p)
    varying <- random_features(sizes, p)
    kuncheva <- pair_mean(same, function(a, b) {
      (length(intersect(a, b)) * p - k^2) / (k * p - k^2)
    })
    expect_equal(stabilityKuncheva(same, p = p), kuncheva, tolerance = 1e-12)
    pog <- pair_mean(varying, function(a, b) length(intersect(a, b)) / length(a))
    expect_equal(stabilityPOG(varying, p = p), pog, tolerance = 1e-12)
    npog <- pair_mean(varying, function(a, b) {
      E <- length(a) * length(b) / p
      (length(intersect(a, b)) - E) / (length(a) - E)
    })
    expect_equal(stabilityNPOG(varying, p = p), npog, tolerance = 1e-12)
  }
  expect_warning(value <- stabilityKuncheva(list(1:2, 1:3), p = 5),
                 class = "propstab_UndefinedMeasureWarning")
  expect_identical(value, NA_real_)
})

test_that("a 0/1 or logical matrix is the same as its list of features", {
  Z <- rbind(c(1, 1, 0, 0, 1), c(1, 0, 1, 0, 0), c(0, 1, 1, 0, 0))
  feats <- lapply(seq_len(nrow(Z)), function(i) which(Z[i, ] == 1))
  expect_identical(stability(Z), stability(feats, p = 5))
  expect_identical(stability(Z == 1, measure = "jaccard"), stabilityJaccard(feats))
  expect_identical(stabilityNogueira(Z, p = 5), stabilityNogueira(feats, p = 5))
})

test_that("MSI with the identity similarity and equal importances is mean |F_i cap F_j| / k-bar", {
  # Hamer and Dupont, eq. 8 with C = I and equal importances: |F_i cap F_j| / k-bar
  feats <- list(c(1, 2), c(1, 3), c(2, 3))
  expect_equal(stabilityMSI(feats, sim.mat = diag(4)), 1 / 2, tolerance = 1e-12)
})

test_that("stabm_differences() lists stabm's documented defects and finds a case's", {
  d <- stabm_differences()
  expect_true(all(c("corrected_global_score", "somol_equal_extremes") %in% d$key))
  davis <- stabm_differences("stabilityDavis")
  expect_identical(davis$key[davis$measures != "(interface)"],
                   c("corrected_global_score", "davis_penalty_maximum"))
  expect_identical(davis$key[davis$measures == "(interface)"],
                   c("estimate_computed_exactly", "undefined_warns", "argument_checks"))
  # the interface's differences: "estimate" where a call concerns it; impute.na is
  # stabm's (per pair) everywhere, so no difference applies to it
  S <- diag(3)
  expect_identical(stabm_differences("stabilityZucknick", list(integer(0), integer(0), 1:2),
                                     sim.mat = S, impute.na = 0)$key,
                   character(0))
  S[1, 2] <- S[2, 1] <- 0.95
  expect_identical(stabm_differences("stabilityYu", list(1:2, 2:3), sim.mat = S)$key,
                   "estimate_by_simulation")
  expect_identical(stabm_differences("listStabilityMeasures")$key, "list_measures_rows")
  expect_true(all(c("estimate_by_simulation", "plot_features_dendrograms") %in% d$key))
  expect_false("impute_na_of_the_value" %in% d$key)
  expect_identical(stabm_differences("stabilityDavis", list(1:2, 2:3, c(1, 3)), p = 4)$key,
                   character(0))
  expect_identical(stabm_differences("stabilitySomol", list(1, 1:2), p = 2)$key,  # R: NaN
                   c("nan_not_na", "somol_equal_extremes"))
})
