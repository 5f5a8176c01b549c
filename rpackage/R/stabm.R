# stabm's functions: the same names, arguments, defaults and values as the R package
# stabm (1.2.2), computed by propstab. Each function only names itself; the translation
# of its arguments comes from propstab's registry (the r_reference of each measure,
# read by propstab.r._frontend.stabm_value).

# stabm's functions that take sim.mat.
.similarity_functions <- c("stabilityYu", "stabilityZucknick", "stabilitySechidis",
                           "stabilityIntersectionCount", "stabilityIntersectionGreedy",
                           "stabilityIntersectionMBM", "stabilityIntersectionMean")

# Validates stabm's common arguments, converts features and calls the Python side.
.stabm <- function(fun, features, p = NULL, sim.mat = NULL, impute.na = NULL,
                   ..., call = sys.call(-1L)) {
  options <- list(...)
  if (!is.null(options$correction.for.chance)) {
    checkmate::assertChoice(options$correction.for.chance, c("none", "exact", "estimate"),
                            .var.name = "correction.for.chance")
    if (options$correction.for.chance == "estimate") {
      checkmate::assertInt(options$N, lower = 1L, .var.name = "N")
    }
  }
  checkmate::assertNumber(impute.na, upper = 1, finite = TRUE, null.ok = TRUE,
                          .var.name = "impute.na")
  if ("penalty" %in% names(options)) {      # NULL refused, as stabm does
    checkmate::assertNumber(options$penalty, lower = 0, .var.name = "penalty")
  }
  if (!is.null(options$threshold)) {
    checkmate::assertNumber(options$threshold, lower = 0, upper = 1, .var.name = "threshold")
  }
  sim <- if (fun %in% .similarity_functions) .similarity(sim.mat) else NULL
  runs <- .runs(features, p = p, sim.mat = sim)
  seed <- NULL
  if (identical(options$correction.for.chance, "estimate")) {
    seed <- sample.int(.Machine$integer.max, 1L)     # from R's RNG, as stabm simulates
  }
  .na(.call("stabm_value", fun = fun, sizes = runs$sizes, indices = runs$indices, p = runs$p,
             sim_mat = sim, impute_na = impute.na, random_state = seed, options = options,
             call = call))
}

#' stabm's measures of the similarity of pairs of feature sets
#'
#' The stability of a feature selector as the mean similarity of its feature sets over
#' all pairs of runs. Each function has the name, the arguments and (apart from the
#' differences below) the value of the function of the same name in the R package
#' stabm: replacing `stabm::` by `propstab::` changes nothing else in a script.
#'
#' @param features The feature sets: a list with one vector per run of the selected
#'   features, as 1-based integer indices or as names (character). propstab also
#'   takes a 0/1 or logical matrix (runs in rows, features in columns).
#' @param p The total number of features (integer). `stabilityJaccard()`,
#'   `stabilityDice()` and `stabilityOchiai()` need it only to correct for chance; for a
#'   matrix of runs it defaults to `ncol(features)`.
#' @param correction.for.chance `"none"` (default), `"exact"` or `"estimate"`: replace
#'   each pair's score by (score - E) / (1 - E), E its expectation for two random sets of
#'   the same sizes. propstab computes E exactly (hypergeometric law) for `"exact"`
#'   **and** for `"estimate"` (stabm's simulation of the same E); `N` is then unused.
#' @param N The number of simulations for `correction.for.chance = "estimate"` in
#'   stabm; accepted and validated for compatibility.
#' @param impute.na `NULL` or a number at most 1: the value of every pair of runs whose
#'   similarity is undefined (e.g. two empty sets for Jaccard's), before the mean, as in
#'   stabm.
#' @return The stability, a number; `NA` (with a warning saying why) where the measure is
#'   undefined and `impute.na` is `NULL`.
#' @section Differences from stabm:
#' Undefined values are `NA` with a warning of class `propstab_UndefinedMeasureWarning`;
#' stabm returns `NA` silently, and `NaN` for Wald's measure when a set holds all `p`
#' features (`stabm_differences("stabilityWald")`). Everything else is stabm's value;
#' the agreement is tested on generated feature sets at a relative tolerance of 1e-10.
#' @seealso [stability()] for every measure propstab knows, [stabm_differences()].
#' @references Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature
#'   Selection. Journal of Open Source Software 6(59), 3010.
#'   \doi{10.21105/joss.03010}. Nogueira, S. (2018). Quantifying the Stability of Feature
#'   Selection. PhD thesis, University of Manchester, Table 3.1.
#' @examplesIf propstab_available()
#' feats <- list(1:3, 1:4, c(1:3, 5:6))
#' stabilityJaccard(feats)
#' stabilityJaccard(feats, p = 10, correction.for.chance = "exact")
#' stabilityKappa(feats, p = 10)
#' stabilityJaccard(list(integer(0), integer(0), 1L), impute.na = 0)
#' @name stabm_pairs
NULL

#' @rdname stabilityJaccard
#' @export
stabilityJaccard <- function(features, p = NULL, correction.for.chance = "none", N = 1e4,
                             impute.na = NULL) {
  .stabm("stabilityJaccard", features, p = p, impute.na = impute.na,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityDice
#' @export
stabilityDice <- function(features, p = NULL, correction.for.chance = "none", N = 1e4,
                          impute.na = NULL) {
  .stabm("stabilityDice", features, p = p, impute.na = impute.na,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityOchiai
#' @export
stabilityOchiai <- function(features, p = NULL, correction.for.chance = "none", N = 1e4,
                            impute.na = NULL) {
  .stabm("stabilityOchiai", features, p = p, impute.na = impute.na,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityHamming
#' @export
stabilityHamming <- function(features, p, correction.for.chance = "none", N = 1e4,
                             impute.na = NULL) {
  .stabm("stabilityHamming", features, p = .p(p, features), impute.na = impute.na,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityKappa
#' @export
stabilityKappa <- function(features, p, impute.na = NULL) {
  .stabm("stabilityKappa", features, p = .p(p, features), impute.na = impute.na)
}

#' @rdname stabilityLustgarten
#' @export
stabilityLustgarten <- function(features, p, impute.na = NULL) {
  .stabm("stabilityLustgarten", features, p = .p(p, features), impute.na = impute.na)
}

#' @rdname stabilityPhi
#' @export
stabilityPhi <- function(features, p, impute.na = NULL) {
  .stabm("stabilityPhi", features, p = .p(p, features), impute.na = impute.na)
}

#' @rdname stabilityUnadjusted
#' @export
stabilityUnadjusted <- function(features, p, impute.na = NULL) {
  .stabm("stabilityUnadjusted", features, p = .p(p, features), impute.na = impute.na)
}

#' @rdname stabilityWald
#' @export
stabilityWald <- function(features, p, impute.na = NULL) {
  .stabm("stabilityWald", features, p = .p(p, features), impute.na = impute.na)
}

#' stabm's measures computed from the selection frequencies
#'
#' Nogueira's estimator, Davis's, Novovicova's and Somol's (CW_rel) measures, with the
#' names, arguments and values of the stabm functions of the same names (apart from the
#' differences below).
#'
#' @param p The total number of features (integer); `stabilityNovovicova()` needs it
#'   only to correct for chance; for a matrix of runs it defaults to `ncol(features)`.
#' @param correction.for.chance `"none"` (default), `"exact"` or `"estimate"`; propstab
#'   computes `"estimate"` exactly (see Differences).
#' @param impute.na `NULL` or a number at most 1: the value returned where the measure is
#'   undefined (e.g. every set empty).
#' @param penalty Davis's penalty for large sets (a number >= 0).
#' @return The stability, a number; `NA` (with a warning saying why) where undefined and
#'   `impute.na` is `NULL`.
#' @section Differences from stabm:
#' \itemize{
#' \item With `correction.for.chance`, stabm's Davis and Novovicova subtract from the
#'   score of all runs the expectations of the scores of pairs of runs, which is not a
#'   correction for chance for more than 2 runs; propstab subtracts the exact expectation
#'   of the score itself (`stabm_differences("stabilityNovovicova")`). stabm also
#'   normalises Davis's corrected score by `max(1 - penalty/p, floor((M-1)/2)/M)`,
#'   propstab by its maximum 1. `"estimate"` is computed exactly.
#' \item Somol and Novovicova (2010, eq. 6) define CW_rel as CW when its extremes
#'   coincide; stabm returns `NaN` or `NA` there, propstab follows the paper.
#' \item Undefined values are `NA` with a warning of class
#'   `propstab_UndefinedMeasureWarning`.
#' }
#' Elsewhere the values agree with stabm's to 1e-10 (tested).
#' @seealso [stabm_pairs], [stability_estimate()] for a confidence interval,
#'   [stabm_differences()].
#' @references Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature
#'   selection algorithms. Journal of Machine Learning Research 18(174), 1-54. Somol, P.,
#'   Novovicova, J. (2010). Evaluating stability and comparing output of feature
#'   selectors that optimize feature subset cardinality. IEEE TPAMI 32(11), 1921-1939.
#' @examplesIf propstab_available()
#' stabilityNogueira(list(1:3, 2:4, c(1, 3, 5)), p = 6)
#' stabilityDavis(list(1:3, 2:4, c(1, 3, 5)), p = 6, penalty = 1)
#' @name stabm_frequencies
NULL

#' @rdname stabilityNogueira
#' @export
stabilityNogueira <- function(features, p, impute.na = NULL) {
  .stabm("stabilityNogueira", features, p = .p(p, features), impute.na = impute.na)
}

#' @rdname stabilityDavis
#' @export
stabilityDavis <- function(features, p, correction.for.chance = "none", N = 1e4,
                           impute.na = NULL, penalty = 0) {
  .stabm("stabilityDavis", features, p = .p(p, features), impute.na = impute.na,
         correction.for.chance = correction.for.chance, N = N, penalty = penalty)
}

#' @rdname stabilityNovovicova
#' @export
stabilityNovovicova <- function(features, p = NULL, correction.for.chance = "none",
                                N = 1e4, impute.na = NULL) {
  .stabm("stabilityNovovicova", features, p = p, impute.na = impute.na,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilitySomol
#' @export
stabilitySomol <- function(features, p, impute.na = NULL) {
  .stabm("stabilitySomol", features, p = .p(p, features), impute.na = impute.na)
}

#' stabm's measures for similar (correlated) features
#'
#' Measures that count a feature as shared by two runs when a similar feature is
#' selected in the other: Yu et al.'s, Zucknick et al.'s, Sechidis et al.'s effective
#' stability and stabm's four intersection measures, with the names, arguments and
#' values of the stabm functions of the same names (apart from the differences below).
#'
#' @param features The feature sets: a list with one vector per run of 1-based indices
#'   of the columns of `sim.mat`, or of its column names. propstab also takes a 0/1 or
#'   logical matrix.
#' @param sim.mat The d x d feature similarity: a symmetric matrix (base or a Matrix,
#'   dense or sparse) with entries in \[0, 1\] and, in propstab, a unit diagonal (store the
#'   diagonal of a sparse matrix).
#' @param threshold Features `x != y` are similar when `sim.mat[x, y] >= threshold`
#'   (and, in propstab, `> 0`).
#' @param correction.for.chance `"estimate"`, `"exact"` or `"none"` (the default as in
#'   stabm): `"estimate"` simulates `N` random pairs of sets per distinct pair of sizes,
#'   seeded from R's random number generator (use `set.seed()` to repeat a value);
#'   `"exact"` is the exact expectation, for every function here that takes the argument
#'   (for the intersection measures over the connected components of the similarity
#'   graph: stabm's values, with an error naming the sizes where a component is too
#'   large for the exact enumeration).
#' @param N The number of simulations for `"estimate"`.
#' @param impute.na `NULL` or a number at most 1: as in stabm, the score of every pair of
#'   runs that is undefined (two empty sets, or a corrected score 0/0) before the mean
#'   over the pairs; for `stabilitySechidis()`, computed from all runs at once, the
#'   value where it is undefined.
#' @return The stability, a number; `NA` (with a warning saying why) where undefined and
#'   `impute.na` is `NULL`.
#' @section Differences from stabm:
#' \itemize{
#' \item Where no two features are similar (no entry of `sim.mat` off the diagonal reaches
#'   `threshold`), stabm's Yu measure silently switches to the formula of
#'   [stabilityUnadjusted()] (normalising by `sqrt(k_i k_j)`, not by Yu's
#'   `(k_i + k_j)/2`); propstab keeps Yu's definition. With a correction for chance,
#'   stabm's value is then `stabilityUnadjusted(features, p = ncol(sim.mat))` (tested).
#'   The intersection measures switch too, but their values do not change.
#' \item At `threshold = 0` stabm counts the stored zeros of a dense `sim.mat` as
#'   similarities (so dense and sparse forms of one matrix give different values);
#'   propstab never counts a zero similarity.
#' \item stabm loses trailing dimensions of a sparse `sim.mat` without stored diagonal;
#'   propstab requires the unit diagonal.
#' \item The exact correction of the intersection measures gives stabm's values, computed
#'   over the connected components of the similarity graph instead of stabm's enumeration
#'   of all pairs of subsets (an error naming the sizes where the components are too large).
#' \item `"estimate"` uses propstab's simulation, not stabm's: values differ by the
#'   simulation error (propstab warns when it exceeds 0.005).
#' }
#' `stabm_differences()` lists each with an example. Elsewhere the values agree with
#' stabm's to 1e-10 (tested on generated dense and sparse similarities).
#' @seealso [stability()] for `"msi"`, `"pogr"`, `"npogr"`, `"yu_matching"` and
#'   `"pearson"`; [stabm_differences()].
#' @references Bommert, A. (2020). Integration of feature selection stability in model
#'   fitting. PhD thesis, TU Dortmund. Sechidis, K., Papangelou, K., Nogueira, S.,
#'   Weatherall, J., Brown, G. (2020). On the stability of feature selection in the
#'   presence of feature correlations. ECML PKDD 2019, LNCS 11906, 327-342.
#' @examplesIf propstab_available()
#' S <- diag(5); S[1, 2] <- S[2, 1] <- 0.95
#' feats <- list(c(1, 3), c(2, 3), c(1, 4))
#' stabilityYu(feats, sim.mat = S, correction.for.chance = "exact")
#' stabilityZucknick(feats, sim.mat = S)
#' stabilitySechidis(feats, sim.mat = S)
#' @name stabm_similar
NULL

#' @rdname stabilityYu
#' @export
stabilityYu <- function(features, sim.mat, threshold = 0.9, correction.for.chance = "estimate",
                        N = 1e4, impute.na = NULL) {
  .stabm("stabilityYu", features, sim.mat = .sim(sim.mat), impute.na = impute.na,
         threshold = threshold, correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityZucknick
#' @export
stabilityZucknick <- function(features, sim.mat, threshold = 0.9,
                              correction.for.chance = "none", N = 1e4, impute.na = NULL) {
  .stabm("stabilityZucknick", features, sim.mat = .sim(sim.mat), impute.na = impute.na,
         threshold = threshold, correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilitySechidis
#' @export
stabilitySechidis <- function(features, sim.mat, threshold = 0.9, impute.na = NULL) {
  .stabm("stabilitySechidis", features, sim.mat = .sim(sim.mat), impute.na = impute.na,
         threshold = threshold)
}

#' @rdname stabilityIntersectionCount
#' @export
stabilityIntersectionCount <- function(features, sim.mat, threshold = 0.9,
                                       correction.for.chance = "estimate", N = 1e4,
                                       impute.na = NULL) {
  .stabm("stabilityIntersectionCount", features, sim.mat = .sim(sim.mat),
         impute.na = impute.na, threshold = threshold,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityIntersectionGreedy
#' @export
stabilityIntersectionGreedy <- function(features, sim.mat, threshold = 0.9,
                                        correction.for.chance = "estimate", N = 1e4,
                                        impute.na = NULL) {
  .stabm("stabilityIntersectionGreedy", features, sim.mat = .sim(sim.mat),
         impute.na = impute.na, threshold = threshold,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityIntersectionMBM
#' @export
stabilityIntersectionMBM <- function(features, sim.mat, threshold = 0.9,
                                     correction.for.chance = "estimate", N = 1e4,
                                     impute.na = NULL) {
  .stabm("stabilityIntersectionMBM", features, sim.mat = .sim(sim.mat),
         impute.na = impute.na, threshold = threshold,
         correction.for.chance = correction.for.chance, N = N)
}

#' @rdname stabilityIntersectionMean
#' @export
stabilityIntersectionMean <- function(features, sim.mat, threshold = 0.9,
                                      correction.for.chance = "estimate", N = 1e4,
                                      impute.na = NULL) {
  .stabm("stabilityIntersectionMean", features, sim.mat = .sim(sim.mat),
         impute.na = impute.na, threshold = threshold,
         correction.for.chance = correction.for.chance, N = N)
}

# stabm's required p, with a message naming it; for a 0/1 or logical matrix of runs
# (or a data frame) it defaults to the number of columns, as everywhere in the package.
.p <- function(p, features) {
  if (missing(p)) {
    if (is.matrix(features) || is.data.frame(features)) return(NULL)   # .runs(): ncol
    .fail("p: the total number of features is required for a list of feature sets")
  }
  p
}

.sim <- function(sim.mat) {
  if (missing(sim.mat)) {
    .fail("sim.mat: the d x d feature similarity matrix is required")
  }
  sim.mat
}
