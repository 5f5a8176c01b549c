# broom-style tidy() and glance() of an estimate, through the generics broom re-exports.

skip_if_no_propstab()
skip_if_not_installed("generics")

test_that("tidy() and glance() of an estimate are one row of its fields", {
  feats <- list(c(1, 2), c(1, 2), c(1, 3), c(1, 2), c(2, 3))
  est <- stability_estimate(feats, p = 4)
  tidied <- generics::tidy(est)
  expect_identical(names(tidied), c("term", "estimate", "std.error"))
  expect_identical(tidied$term, "nogueira")
  expect_identical(tidied$estimate, est$estimate)
  expect_identical(tidied$std.error, est$std.error)
  ci <- suppress_propstab_warnings(confint(est, level = 0.9, method = "wald"), classes = "propstab_SmallSampleWarning")
  tidied <- suppress_propstab_warnings(
    generics::tidy(est, conf.int = TRUE, conf.level = 0.9, conf.method = "wald"), classes = "propstab_SmallSampleWarning")
  expect_identical(c(tidied$conf.low, tidied$conf.high), as.vector(ci))
  glanced <- generics::glance(est)
  expect_identical(nrow(glanced), 1L)
  expect_identical(glanced$n.runs, 5L)
  expect_identical(glanced$n.features, 4L)
  expect_identical(glanced$variance.method, est$method)
})
