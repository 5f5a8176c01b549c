# The axiom audit of measures written in R: propstab's Python audit calls them back.

skip_if_no_propstab()

test_that("a claimed property that fails is 'violated', with a minimal counterexample", {
  coverage <- function(Z) mean(Z)              # Goh's mean selection frequency
  table <- audit_measure(coverage, claims = c("bounds", "maximum"), lower = 0, upper = 1,
                         max.examples = 30L)
  expect_s3_class(table, "propstab_audit")
  expect_identical(table$axiom,
                   c("fully defined", "monotonicity", "bounds", "maximum", "correction"))
  status <- stats::setNames(table$status, table$axiom)
  expect_identical(status[["bounds"]], "holds")             # a mean of 0/1 is in [0, 1]
  expect_identical(status[["maximum"]], "violated")         # identical rows [1, 0] give 1/2
  expect_identical(status[["correction"]], "refuted")       # E = mean size / d varies
  expect_identical(table$claimed, c(FALSE, FALSE, TRUE, TRUE, FALSE))
  expect_match(table$counterexample[table$axiom == "maximum"], "\\[")
  expect_match(paste(capture.output(print(table)), collapse = "\n"), "coverage")
})

test_that("stabm's functions can be audited as written (input = 'features')", {
  skip_if_not_installed("stabm")
  table <- audit_measure(stabm::stabilityKappa, claims = c("bounds", "correction"),
                         lower = -1, upper = 1, input = "features", pairwise = TRUE,
                         max.examples = 20L, axioms = c("bounds", "correction"),
                         name = "stabm kappa")
  expect_identical(table$axiom, c("bounds", "correction"))
  expect_identical(table$status, c("holds", "holds"))
})

test_that("a function that fails or returns no single number is reported at once", {
  expect_error(audit_measure(function(Z) stop("not today"), claims = "bounds"),
               "fun: function\\(Z\\) stop\\(\"not today\"\\) failed .*: not today",
               class = "propstab_error")
  expect_error(audit_measure(function(Z) c(1, 2)), "must return one number")
  expect_error(audit_measure(function(Z) mean(Z), claims = "boundz"), "claims: 'boundz'")
})
