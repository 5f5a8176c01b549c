# expect_agrees: three planted bugs (0/0 as 0, 1-based sets read as 0-based, + for - in
# the chance correction) fail with a shrunk case written as R code; the correct ones pass.
skip_if_no_propstab()

nogueira_with <- function(Z, undefined) {
  k <- mean(rowSums(Z)) / ncol(Z)
  if (k == 0 || k == 1) return(undefined)
  1 - mean(apply(Z, 2, var)) / (k * (1 - k))
}
nogueira <- function(Z) nogueira_with(Z, NA)
nogueira_zero <- function(Z) nogueira_with(Z, 0)
nogueira_sets <- function(sets, p) {
  Z <- matrix(0, length(sets), p)
  for (i in seq_along(sets)) Z[i, sets[[i]]] <- 1
  nogueira(Z)
}
nogueira_sets_shifted <- function(sets, p) {
  Z <- matrix(0, length(sets), p)
  for (i in seq_along(sets)) Z[i, sets[[i]] - 1L] <- 1
  nogueira(Z)
}
kuncheva_with <- function(Z, sign) {
  d <- ncol(Z); k <- sum(Z[1, ])
  if (k == 0 || k == d) return(NA)
  r <- tcrossprod(Z)
  mean((r[upper.tri(r)] + sign * k^2 / d) / (k - k^2 / d))
}
kuncheva <- function(Z) kuncheva_with(Z, -1)
kuncheva_sign <- function(Z) kuncheva_with(Z, +1)

# the number of runs and features of the shrunk case in a failure's message
shrunk_shape <- function(message) {
  m <- regmatches(message, regexec("shrunk counterexample: ([0-9]+) runs, ([0-9]+) feature",
                                   message))[[1L]]
  as.integer(m[2:3])
}

test_that("the 0/0 bug fails with the two empty runs as R code, the fix passes", {
  failure <- expect_failure(expect_agrees(nogueira_zero, "nogueira"),
                            "nogueira_zero\\(rbind\\(c\\(0L\\), c\\(0L\\)\\)\\)")
  expect_agrees(nogueira, "nogueira")
})

test_that("each planted bug is caught and shrunk to at most 3 runs and 4 features", {
  cases <- list(list(nogueira_zero, "nogueira", "matrix"),
                list(nogueira_sets_shifted, "nogueira", "sets"),
                list(kuncheva_sign, "kuncheva", "matrix"))
  for (case in cases) {
    message <- tryCatch({
      expect_agrees(case[[1L]], case[[2L]], input = case[[3L]], name = "buggy")
      ""
    }, expectation_failure = function(e) conditionMessage(e))
    expect_match(message, "reproduce \\(R\\):\n  buggy\\(")
    shape <- shrunk_shape(message)
    expect_true(shape[1L] <= 3L && shape[2L] <= 4L)
  }
  expect_agrees(nogueira_sets, "nogueira", input = "sets")
  expect_agrees(kuncheva, "kuncheva")
})

test_that("an error of fun is a disagreement; bad arguments are R errors", {
  expect_failure(expect_agrees(function(Z) stop("no"), "nogueira", max.examples = 5L),
                 "error: ")
  expect_error(expect_agrees(nogueira, "nogueira", input = "list"), "should be one of")
  expect_error(expect_agrees(nogueira, "nogeuira"), "nogeuira")
})
