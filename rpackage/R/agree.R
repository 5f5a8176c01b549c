#' Expect an R implementation of a measure to agree with propstab's
#'
#' Draws cases from the measure's own domain (selection matrices with empty and full runs,
#' constant and varying sizes; rank matrices for a ranking measure), calls `fun` and
#' propstab on each and, on the first disagreement, fails with the case shrunk by
#' Hypothesis to a minimal one: both values, their difference and a line of R code that
#' reproduces it. `NA` agrees with propstab's undefined value only (NaN with an
#' `UndefinedMeasureWarning`); an error of `fun` is a disagreement on a valid input.
#'
#' @param fun Your implementation. With `input = "matrix"`: `fun(Z, ...)`, `Z` an integer
#'   0/1 matrix (runs in rows); with `input = "sets"`: `fun(features, p, ...)`, the runs as
#'   a list of integer vectors of feature indices counted from `base` (stabm's form); with
#'   `input = "frequencies"`: `fun(F, M, ...)`, how many of the `M` runs selected each
#'   feature. It returns one number, or `NA` where the measure is undefined.
#' @param measure The registered measure `fun` implements (see [list_measures()]).
#' @param ... The measure's options by propstab's (Python) names, passed to both sides.
#' @param input `"matrix"`, `"sets"` or `"frequencies"`.
#' @param base The first feature index of `input = "sets"` (1, R's, by default).
#' @param max.examples Generated cases.
#' @param seed The seed of the generation.
#' @param atol,rtol Two numbers agree when `|a - b| <= max(atol, rtol * max(|a|, |b|))`.
#' @param name The name of `fun` in the message and the reproducing code.
#' @return `fun`, invisibly (testthat's convention); the expectation succeeds or fails
#'   with testthat's reporter.
#' @references MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new
#'   approach to property-based testing. JOSS 4(43), 1891.
#' @seealso [expect_measure_properties()], [stability()].
#' @examples
#' if (requireNamespace("testthat", quietly = TRUE) && propstab_available()) {
#'   goh <- function(Z) mean(Z)
#'   expect_agrees(goh, "goh", max.examples = 20L)   # silent when it agrees
#'   # a planted bug: Nogueira's 0/0 (every run empty, or full) answered 0, not NA
#'   buggy <- function(Z) {
#'     k <- mean(rowSums(Z)) / ncol(Z)
#'     if (k == 0 || k == 1) return(0)
#'     1 - mean(apply(Z, 2, var)) / (k * (1 - k))
#'   }
#'   tryCatch(expect_agrees(buggy, "nogueira", max.examples = 50L),
#'            expectation_failure = function(e) cat(conditionMessage(e), sep = "\n"))
#' }
#' @export
expect_agrees <- function(fun, measure, ..., input = c("matrix", "sets", "frequencies"),
                          base = 1L, max.examples = 200L, seed = 0L, atol = 1e-9,
                          rtol = 1e-9, name = NULL) {
  .need_testthat()
  checkmate::assertFunction(fun)
  checkmate::assertString(measure)
  input <- match.arg(input)
  checkmate::assertChoice(base, c(0L, 1L))
  checkmate::assertInt(max.examples, lower = 1L)
  checkmate::assertInt(seed, lower = 0L)
  checkmate::assertNumber(atol, lower = 0, finite = TRUE)
  checkmate::assertNumber(rtol, lower = 0, finite = TRUE)
  if (is.null(name)) name <- paste(deparse(substitute(fun), width.cutoff = 60L)[1L])
  if (!grepl("^[.A-Za-z][._A-Za-z0-9]*$", name)) name <- "fun"
  wrapped <- function(...) {                 # NA (of any type) -> NaN: undefined
    value <- fun(...)
    if (length(value) == 1L && (is.numeric(value) || is.logical(value))) {
      value <- as.double(value)
      if (is.na(value)) value <- NaN
    }
    value
  }
  out <- .call_testing("expect_agrees", fun = wrapped, measure = measure, input = input,
                       base = as.integer(base), options = list(...),
                       max_examples = as.integer(max.examples), seed = as.integer(seed),
                       atol = atol, rtol = rtol, name = name)
  testthat::expect(isTRUE(out$passed), out$message)
  invisible(fun)
}
