# The ranking family from R: a numeric matrix of ranks (runs in rows), against the
# measures' formulas written here in R (Spearman's rho and Kendall's tau of stats::cor,
# averaged over the pairs of runs) and Python's value.

skip_if_no_propstab()

# The mean over pairs of runs of stats::cor(method = ) between two runs' ranks.
mean_pairwise_cor <- function(R, method) {
  pairs <- utils::combn(nrow(R), 2L)
  mean(apply(pairs, 2L, function(ij) stats::cor(R[ij[1L], ], R[ij[2L], ], method = method)))
}

test_that("stability(R, measure = 'spearman' | 'kendall') is the mean pairwise correlation", {
  set.seed(5)
  R <- t(replicate(6, sample.int(8)))
  expect_equal(stability(R, measure = "spearman"), mean_pairwise_cor(R, "spearman"),
               tolerance = 1e-12)
  expect_equal(stability(R, measure = "kendall"), mean_pairwise_cor(R, "kendall"),
               tolerance = 1e-12)
  py <- reticulate::import("propstab")
  expect_identical(stability(R, measure = "top_k", k = 3),
                   py$stability(R, "top_k", k = 3L))
  expect_identical(stability(R, measure = "canberra", k = 3),
                   py$stability(R, "canberra", k = 3L))
})

test_that("rank matrices are checked in R with 1-based positions", {
  R <- rbind(c(1, 2, 3), c(1, 2, 4))
  expect_error(stability(R, measure = "spearman"),
               "features: ranks must be numbers in 1..d \\(d = 3\\); got 4 at run 2, feature 3",
               class = "propstab_error")
  expect_error(stability(list(1:2, 2:3), measure = "spearman"), "numeric matrix of ranks",
               class = "propstab_error")
  expect_error(stability(rbind(c(1, 2, 3), c(1, 2, 3)), p = 4, measure = "kendall"),
               "p: 4 does not match the 3 columns", class = "propstab_error")
})
