# The one conversion of R input: stabm's `features` (a list of integer or character
# vectors) or a 0/1 (logical) matrix becomes run sizes and concatenated 1-based feature
# indices, the form the Python side (propstab.r._frontend.runs_selection) reads; a
# similarity matrix becomes a dense matrix or a general sparse Matrix. Validation
# follows stabm's rules and messages (checkmate).

# features -> list(sizes, indices, p); p is NULL when neither given nor implied.
.runs <- function(features, p = NULL, sim.mat = NULL, arg = "features") {
  checkmate::assertInt(p, lower = 1L, null.ok = TRUE, .var.name = "p")
  if (!is.null(p)) p <- as.integer(p)
  if (!is.null(sim.mat)) {
    if (!is.null(p) && p != ncol(sim.mat)) {
      .fail("p: %d does not match the %d columns of sim.mat", p, ncol(sim.mat))
    }
    p <- ncol(sim.mat)
  }
  if (is.data.frame(features)) features <- as.matrix(features)
  if (is.matrix(features)) return(.matrix_runs(features, p, arg))
  checkmate::assertList(features, any.missing = FALSE, min.len = 2L,
                        types = c("integerish", "character"), .var.name = arg)
  is.char <- vapply(features, is.character, logical(1L))
  if (any(is.char) && !all(is.char)) {
    .fail("%s: all runs must be numeric or all must be character", arg)
  }
  missing.run <- which(vapply(features, anyNA, logical(1L)))
  if (length(missing.run)) {
    .fail("%s: run %d contains a missing value", arg, missing.run[1L])
  }
  repeated <- which(vapply(features, anyDuplicated, integer(1L)) > 0L)
  if (length(repeated)) {
    .fail("%s: run %d lists a feature more than once", arg, repeated[1L])
  }
  sizes <- lengths(features, use.names = FALSE)
  flat <- unlist(features, use.names = FALSE)
  if (is.null(flat)) flat <- integer(0L)
  run.of <- function(i) findInterval(i - 1L, cumsum(sizes)) + 1L
  if (all(is.char) && length(features)) {
    universe <- if (is.null(sim.mat)) unique(flat) else colnames(sim.mat)
    if (!is.null(sim.mat) && is.null(universe)) {
      .fail("sim.mat: needs column names when %s lists feature names", arg)
    }
    indices <- match(flat, universe)
    if (anyNA(indices)) {
      i <- which(is.na(indices))[1L]
      .fail("%s: run %d lists '%s', which is not a column name of sim.mat", arg, run.of(i),
            flat[i])
    }
    if (!is.null(p) && length(universe) > p) {
      .fail("%s: the runs name %d different features, more than p = %d", arg,
            length(universe), p)
    }
  } else {
    indices <- flat
    upper <- if (is.null(p)) Inf else p
    outside <- which(indices < 1 | indices > upper)
    if (length(outside)) {
      i <- outside[1L]
      .fail("%s: run %d contains the feature index %s; features are 1-based indices %s",
            arg, run.of(i), format(indices[i]),
            if (is.null(p)) ">= 1" else sprintf("in 1..%d (p = %d)", p, p))
    }
  }
  list(sizes = .ints(sizes), indices = .ints(indices), p = p)
}

# A 0/1 or logical M x d matrix -> runs.
.matrix_runs <- function(Z, p, arg) {
  checkmate::assertMatrix(Z, any.missing = FALSE, min.rows = 2L, min.cols = 1L,
                          .var.name = arg)
  if (is.logical(Z)) {
    Z <- Z + 0L
  } else if (!is.numeric(Z) || any(Z != 0 & Z != 1)) {
    .fail("%s: a selection matrix holds 0/1 or TRUE/FALSE (runs in rows, features in columns)",
          arg)
  }
  if (!is.null(p) && p != ncol(Z)) {
    .fail("p: %d does not match the %d columns of %s", p, ncol(Z), arg)
  }
  where <- which(t(Z) != 0, arr.ind = TRUE)       # run-major: runs are columns of t(Z)
  list(sizes = .ints(rowSums(Z != 0)), indices = .ints(where[, 1L]), p = ncol(Z))
}

# An error in the R input, with stabm-like wording and propstab's condition classes.
.fail <- function(format, ...) {
  stop(structure(class = c("propstab_input_error", "propstab_error", "error", "condition"),
                 list(message = sprintf(format, ...), call = NULL)))
}

# The old spelling of an argument or value still works, with a warning of class
# "deprecatedWarning" (as base R's .Deprecated()) naming the old and the new spelling: one
# vocabulary across propstab (Python, R and the command line; propstab's contributing
# guide, "Vocabulary").
.renamed <- function(fun, old, new) {
  warning(structure(class = c("propstab_deprecated", "deprecatedWarning", "warning",
                              "condition"),
                    list(message = sprintf(paste0("%s: %s is renamed %s (one vocabulary ",
                                                  "across propstab); %s will be removed"),
                                           fun, old, new, old),
                         call = NULL)))
}

# An integer vector for the Python side, which reads any length (a scalar, a list or a
# NumPy array) with numpy.asarray(...).ravel(): small vectors stay R vectors (reticulate
# passes them as lists, the cheapest for a small call), long ones become one NumPy array.
.ints <- function(x) {
  x <- as.integer(x)
  if (length(x) <= 1000L) return(x)
  .frontend()
  reticulate::np_array(x, dtype = "int64")
}

# .ints()'s result as an R integer vector.
.r_ints <- function(x) {
  if (is.integer(x)) x else as.integer(reticulate::py_to_r(x))
}

# stabm's sim.mat: a symmetric matrix (base or Matrix) with entries in [0, 1]; sent to
# Python as a dense matrix or a general sparse dgCMatrix (a scipy.sparse matrix there).
.similarity <- function(sim.mat, required = TRUE, check.diagonal = TRUE) {
  if (is.null(sim.mat)) {
    if (required) .fail("sim.mat: the d x d feature similarity matrix is required; got NULL")
    return(NULL)
  }
  if (methods::is(sim.mat, "Matrix")) {
    if (!Matrix::isSymmetric(sim.mat)) .fail("sim.mat: must be symmetric")
    sim.mat <- methods::as(methods::as(methods::as(sim.mat, "CsparseMatrix"), "generalMatrix"),
                           "dMatrix")
    checkmate::assertNumeric(sim.mat@x, lower = 0, upper = 1, any.missing = FALSE,
                             .var.name = "sim.mat")
    if (check.diagonal) .check_diagonal(Matrix::diag(sim.mat))
    return(sim.mat)
  }
  checkmate::assertMatrix(sim.mat, mode = "numeric", any.missing = FALSE, min.rows = 1L,
                          min.cols = 1L, .var.name = "sim.mat")
  if (!isSymmetric(unname(sim.mat))) .fail("sim.mat: must be symmetric")
  checkmate::assertNumeric(sim.mat, lower = 0, upper = 1, .var.name = "sim.mat")
  if (check.diagonal) .check_diagonal(diag(sim.mat))
  storage.mode(sim.mat) <- "double"
  sim.mat
}

# propstab's unit diagonal (every feature fully similar to itself), the position counted
# from 1 as in R.
.check_diagonal <- function(diagonal) {
  off <- which(abs(diagonal - 1) > 1e-12)
  if (length(off)) {
    f <- off[1L]
    .fail("sim.mat: the diagonal must be 1 (every feature is fully similar to itself); got sim.mat[%d, %d] = %s",
          f, f, format(diagonal[f]))
  }
}

# A numeric M x d matrix of ranks for the ranking family (1 the most important; NA where
# a run does not rank a feature); positions in messages counted from 1.
.ranks <- function(R, p = NULL) {
  if (is.data.frame(R)) R <- as.matrix(R)
  if (!is.matrix(R) || !(is.numeric(R) || is.logical(R))) {
    .fail("features: the ranking measures read a numeric matrix of ranks (runs in rows, features in columns); got %s",
          class(R)[1L])
  }
  checkmate::assertMatrix(R, min.rows = 2L, min.cols = 2L, .var.name = "features")
  if (!is.null(p) && p != ncol(R)) {
    .fail("p: %d does not match the %d columns of features", as.integer(p), ncol(R))
  }
  storage.mode(R) <- "double"
  bad <- which(!is.na(R) & (!is.finite(R) | R < 1 | R > ncol(R)), arr.ind = TRUE)
  if (nrow(bad)) {
    .fail("features: ranks must be numbers in 1..d (d = %d); got %s at run %d, feature %d",
          ncol(R), format(R[bad[1L, , drop = FALSE]]), bad[1L, 1L], bad[1L, 2L])
  }
  unname(R)
}

# An M x d importance matrix (MSI): non-negative finite numbers, > 0 exactly where the run
# selects the feature; positions in messages counted from 1, as R's.
.check_importances <- function(W, runs) {
  if (methods::is(W, "Matrix")) W <- as.matrix(W)
  checkmate::assertMatrix(W, mode = "numeric", .var.name = "importances")
  sizes <- .r_ints(runs$sizes)
  indices <- .r_ints(runs$indices)
  M <- length(sizes)
  d <- runs$p
  if (nrow(W) != M || (!is.null(d) && ncol(W) != d)) {
    .fail("importances: must have the selection's shape M x d = %d x %s; got %d x %d", M,
          if (is.null(d)) "d" else as.character(d), nrow(W), ncol(W))
  }
  bad <- which(!is.finite(W) | W < 0, arr.ind = TRUE)
  if (nrow(bad)) {
    .fail("importances: entries must be finite and >= 0 (pass absolute coefficients); got %s at run %d, feature %d",
          format(W[bad[1L, , drop = FALSE]]), bad[1L, 1L], bad[1L, 2L])
  }
  Z <- matrix(FALSE, M, ncol(W))
  Z[cbind(rep.int(seq_len(M), sizes), indices)] <- TRUE
  extra <- which(W > 0 & !Z, arr.ind = TRUE)
  if (nrow(extra)) {
    i <- extra[order(extra[, 1L], extra[, 2L])[1L], ]
    .fail("importances: run %d gives feature %d importance %s but does not select it (zero means not selected)",
          i[1L], i[2L], format(W[i[1L], i[2L]]))
  }
  missing <- which(W == 0 & Z, arr.ind = TRUE)
  if (nrow(missing)) {
    i <- missing[order(missing[, 1L], missing[, 2L])[1L], ]
    .fail("importances: run %d selects feature %d but gives it importance 0 (zero means not selected)",
          i[1L], i[2L])
  }
  invisible(W)
}
