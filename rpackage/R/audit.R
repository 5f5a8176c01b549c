# The axiom audit of a stability measure written in R: propstab's Python audit calls the
# R function back through reticulate.

#' Audit a stability measure written in R
#'
#' Checks the five properties (axioms) of a stability measure (Nogueira 2018, thesis
#' ch. 4) for a function written in R, with propstab's audit: each **claimed** property is
#' searched for a counterexample (`"holds"` when none is found, `"violated"` when one is),
#' each disclaimed property for a refutation (`"refuted"`, or `"unrefuted"` when none is
#' found, never "holds"). The searches are property-based (Hypothesis, seeded, over
#' matrices of up to 5 runs and 7 features) and exact where it matters (the correction for
#' chance compares exact null expectations); a counterexample is shrunk to a minimal one.
#'
#' @param fun The measure: `function(Z)` taking a logical selection matrix (runs in rows,
#'   features in columns) or, with `input = "features"`, `function(features, p)` taking
#'   stabm's list of selected 1-based indices and the number of features (e.g. a stabm
#'   function). It returns one number (`NA` or `NaN` where undefined); an error counts as
#'   undefined during the search, but an error on the first probe
#'   (`rbind(c(TRUE, TRUE, FALSE), c(TRUE, FALSE, TRUE))`) stops the audit.
#' @param claims The properties `fun` claims, any of `"fully defined"`,
#'   `"monotonicity"`, `"bounds"`, `"maximum"`, `"correction"` (or the Python names,
#'   e.g. `"CORRECTION_FOR_CHANCE"`); the others are disclaimed.
#' @param lower,upper The declared bounds (numbers), for `"bounds"` and `"maximum"`.
#' @param orientation `"higher"` when a higher value means more stable, else `"lower"`.
#' @param domain `"any"`, or `"constant_size"` when `fun` is defined only for runs of
#'   one size.
#' @param null.value The declared expectation under the null model (random sets of the
#'   observed sizes), for `"correction"` (0 when `NULL`).
#' @param pairwise `TRUE` when `fun` is the mean of a score over pairs of runs (exact null
#'   expectations are then available for any size).
#' @param symmetric `TRUE` when `fun` is invariant under permutations of the features and
#'   of the runs (it lets exact enumeration fix one run).
#' @param input `"matrix"` or `"features"` (see `fun`).
#' @param max.examples Examples per property searched.
#' @param seed The seed: the audit is reproducible.
#' @param axioms `NULL` (all five) or the properties to check.
#' @param name The measure's name in the report.
#' @return A data frame of class `propstab_audit`, one row per property: `axiom`,
#'   `claimed`, `status` (`"holds"`, `"violated"`, `"refuted"`, `"unrefuted"` or
#'   `"skipped"`), `reason` and `counterexample` (the minimal refuting matrix, as text).
#'   It prints as propstab's audit table; `format()` gives that table's lines, and
#'   `as.data.frame()` the rows as a plain data frame.
#' @references Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature
#'   selection algorithms. Journal of Machine Learning Research 18(174), 1-54.
#' @examplesIf propstab_available()
#' coverage <- function(Z) mean(Z)
#' audit <- audit_measure(coverage, claims = "bounds", lower = 0, upper = 1,
#'                        max.examples = 50)
#' audit
#' as.data.frame(audit)[, c("axiom", "status")]
#' if (requireNamespace("stabm", quietly = TRUE)) {
#'   audit_measure(stabm::stabilityJaccard, claims = c("bounds", "maximum"), lower = 0,
#'                 upper = 1, input = "features", pairwise = TRUE, max.examples = 50)
#' }
#' @export
audit_measure <- function(fun, claims = character(), lower = NULL, upper = NULL,
                          orientation = c("higher", "lower"),
                          domain = c("any", "constant_size"), null.value = NULL,
                          pairwise = FALSE, symmetric = FALSE,
                          input = c("matrix", "features"), max.examples = 200L, seed = 0L,
                          axioms = NULL, name = NULL) {
  checkmate::assertFunction(fun)
  checkmate::assertCharacter(claims, any.missing = FALSE)
  checkmate::assertNumber(lower, null.ok = TRUE)
  checkmate::assertNumber(upper, null.ok = TRUE)
  orientation <- match.arg(orientation)
  domain <- match.arg(domain)
  checkmate::assertNumber(null.value, finite = TRUE, null.ok = TRUE)
  checkmate::assertFlag(pairwise)
  checkmate::assertFlag(symmetric)
  input <- match.arg(input)
  checkmate::assertInt(max.examples, lower = 1L)
  checkmate::assertInt(seed, lower = 0L)
  checkmate::assertCharacter(axioms, any.missing = FALSE, min.len = 1L, null.ok = TRUE)
  if (is.null(name)) name <- paste(deparse(substitute(fun), width.cutoff = 60L)[1L])
  checkmate::assertString(name)
  measure <- function(Z) {
    value <- if (input == "features") fun(.matrix_features(Z), ncol(Z)) else fun(Z)
    if (length(value) != 1L || !(is.numeric(value) || (is.logical(value) && is.na(value)))) {
      stop(sprintf("%s must return one number; got %s of length %d", name,
                   class(value)[1L], length(value)), call. = FALSE)
    }
    as.double(value)
  }
  out <- .call("audit_function", fun = measure, name = name,
               max_examples = as.integer(max.examples), seed = as.integer(seed),
               axioms = if (is.null(axioms)) NULL else as.list(axioms),
               claims = as.list(claims), lower = lower, upper = upper,
               orientation = orientation, domain = domain, null_value = null.value,
               pairwise = pairwise, symmetric = symmetric, call = sys.call())
  rows <- out$rows
  table <- data.frame(
    axiom = vapply(rows, `[[`, character(1L), "axiom"),
    claimed = vapply(rows, `[[`, logical(1L), "claimed"),
    status = vapply(rows, `[[`, character(1L), "status"),
    reason = vapply(rows, `[[`, character(1L), "reason"),
    counterexample = vapply(rows, `[[`, character(1L), "counterexample"),
    stringsAsFactors = FALSE)
  structure(table, class = c("propstab_audit", "data.frame"), text = out$text,
            measure = name)
}

# A logical selection matrix -> stabm's features (1-based indices of each run).
.matrix_features <- function(Z) {
  lapply(seq_len(nrow(Z)), function(i) which(Z[i, ]))
}

#' @export
print.propstab_audit <- function(x, ...) {
  cat(format(x), sep = "\n")
  invisible(x)
}

#' @rdname audit_measure
#' @param x An audit (`propstab_audit`) from `audit_measure()`.
#' @export
format.propstab_audit <- function(x, ...) {
  strsplit(attr(x, "text"), "\n", fixed = TRUE)[[1L]]
}

#' @rdname audit_measure
#' @param row.names,optional As for [base::as.data.frame()].
#' @param ... Unused (the generics' arguments).
#' @export
as.data.frame.propstab_audit <- function(x, row.names = NULL, optional = FALSE, ...) {
  table <- x
  attr(table, "text") <- NULL
  attr(table, "measure") <- NULL
  class(table) <- "data.frame"
  if (!is.null(row.names)) rownames(table) <- row.names
  table
}
