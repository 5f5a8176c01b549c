# Shared by the tests: agreement as propstab's cross-check defines it, and seeded
# generators of feature sets and similarity matrices.

# |a - b| / max(|a|, |b|, 1) <= 1e-10; NA (or NaN) only against NA (or NaN).
agree <- function(a, b, tolerance = 1e-10) {
  if (is.na(a) || is.na(b)) return(is.na(a) && is.na(b))
  abs(a - b) / max(abs(a), abs(b), 1) <= tolerance
}

# One run per size: distinct features of 1..p, in random order.
random_features <- function(sizes, p) {
  lapply(sizes, function(k) sample.int(p, k))
}

# A symmetric similarity with unit diagonal, entries drawn from stabm-like levels.
random_similarity <- function(p, sparse = FALSE) {
  levels <- c(0, 0, 0.3, 0.5, 0.9, 0.95, 1)
  S <- matrix(0, p, p)
  S[upper.tri(S)] <- sample(levels, p * (p - 1) / 2, replace = TRUE)
  S <- S + t(S)
  diag(S) <- 1
  if (sparse) S <- Matrix::Matrix(S, sparse = TRUE)     # a dsCMatrix
  S
}
