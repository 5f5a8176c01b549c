# Every measure propstab registers: the generic stability(), the registry as a table,
# stabm-style names for the measures stabm lacks, and stabm's documented defects.

#' The stability of feature selection under any registered measure
#'
#' `stability()` computes any of propstab's measures (see [list_measures()]): the
#' measures of stabm and those stabm lacks (Kuncheva's index, POG, nPOG, Goh's, Krizek's,
#' Guzman's, Lausser's, the consistency indices, MSI, POGR, nPOGR, Yu's matching measure,
#' Pearson's correlation, ...).
#'
#' @param features The feature sets: a list with one vector per run of selected features
#'   (1-based integer indices, or names), or a 0/1 or logical matrix with runs in rows
#'   and features in columns. For the ranking family (`"spearman"`, `"kendall"`,
#'   `"canberra"`, `"top_k"`): a numeric M x d matrix of ranks, row i run i's rank of
#'   each feature (1 the most important; ties allowed; `NA` where a run does not rank a
#'   feature).
#' @param p The total number of features; not needed for a matrix or with `sim.mat`.
#' @param measure A registered name or alias (`list_measures()$name`), e.g.
#'   `"nogueira"` (the default), `"kuncheva"`, `"jaccard"`, `"msi"`.
#' @param sim.mat For the measures of similar features: the d x d feature similarity (a
#'   symmetric base or Matrix matrix with entries in \[0, 1\] and a unit diagonal).
#' @param ... The measure's options (see `list_measures()$options`), by propstab's name
#'   or in R style: `correction.for.chance = "exact"`, `penalty = 1`, `threshold = 0.8`,
#'   `importances = W` (an M x d matrix), `N = 1000`, `random_state = 1` (without it,
#'   `correction.for.chance = "estimate"` draws its seed from R's random number
#'   generator: `set.seed()` repeats the value).
#' @return The stability, a number; `NA` (with a warning of class
#'   `propstab_UndefinedMeasureWarning` saying why) where the measure is undefined.
#'   Invalid input is an error of class `propstab_error` (or a checkmate error) naming
#'   the argument.
#' @seealso [list_measures()], [stability_estimate()], the stabm-compatible functions
#'   ([stabm_pairs], [stabm_frequencies], [stabm_similar]).
#' @references Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD
#'   thesis, University of Manchester.
#' @examplesIf propstab_available()
#' feats <- list(c(1, 2), c(1, 2), c(1, 3))
#' stability(feats, p = 4)                      # Nogueira's estimator
#' stability(feats, p = 4, measure = "kuncheva")
#' stability(feats, p = 4, measure = "davis", penalty = 1)
#' Z <- rbind(c(1, 1, 0, 0), c(1, 1, 0, 0), c(1, 0, 1, 0))
#' stability(Z, measure = "jaccard")
#' R <- rbind(c(1, 2, 3, 4), c(2, 1, 3, 4), c(1, 3, 2, 4))   # ranks of 4 features
#' stability(R, measure = "spearman")
#' stability(R, measure = "top_k", k = 2)
#' @export
stability <- function(features, p = NULL, measure = "nogueira", sim.mat = NULL, ...) {
  checkmate::assertString(measure)
  if (.reads_ranks(measure)) {
    return(.na(.call("ranking_value", measure = measure, ranks = .ranks(features, p),
                     options = list(...), call = sys.call())))
  }
  sim <- .similarity(sim.mat, required = FALSE)
  runs <- .runs(features, p = p, sim.mat = sim)
  options <- list(...)
  if (!is.null(options$importances)) .check_importances(options$importances, runs)
  .na(.call("measure_value", measure = measure, sizes = runs$sizes, indices = runs$indices,
            n_features = .need_p(runs$p), similarity = sim, options = options,
            seed = .option_seed(options), call = sys.call()))
}

# The seed of a simulated correction for chance (correction.for.chance = "estimate")
# without random_state: drawn from R's random number generator, as stabm simulates with
# it, so that set.seed() repeats the value; NULL otherwise (nothing random, or seeded).
.option_seed <- function(options) {
  correction <- if (is.null(options$correction.for.chance)) options$correction_for_chance
                else options$correction.for.chance
  if (!identical(correction, "estimate") || !is.null(options$random_state)) return(NULL)
  .seed(NULL)
}

# Whether the measure reads rankings (the ranking family), from the registry read once
# per session (names and aliases).
.reads_ranks <- function(measure) {
  if (is.null(.state$ranking_measures)) {
    .state$ranking_measures <- unlist(.call("ranking_measures", call = NULL))
  }
  measure %in% .state$ranking_measures
}

# p is needed by the Python side unless implied by a matrix or sim.mat.
.need_p <- function(p) {
  if (is.null(p)) {
    .fail("p: the total number of features is required for a list of feature sets")
  }
  p
}

#' Measures that stabm lacks, stabm-style
#'
#' Kuncheva's consistency index, the percentage of overlapping genes (POG) and its
#' normalised form nPOG, and Hamer and Dupont's maximal shared importance (MSI), with
#' stabm's conventions. Each is `stability(features, ..., measure = )` under a stabm-style
#' name; every other measure is reachable through [stability()].
#'
#' @param p The total number of features.
#' @param sim.mat The d x d feature similarity (see [stability()]).
#' @param importances `NULL` (every selected feature of a run equally important) or an
#'   M x d matrix of non-negative importances, zero where a feature is not selected.
#' @return The stability, a number; `NA` with a warning where undefined (Kuncheva's index
#'   needs every run to select the same number of features).
#' @references Kuncheva, L. I. (2007). A stability index for feature selection. AIAC,
#'   390-395. Zhang, M. et al. (2009). Bioinformatics 25(13), 1662-1668. Hamer, V.,
#'   Dupont, P. (2021). Robust selection stability estimation in correlated spaces. ECML
#'   PKDD, LNCS 12977, 446-461.
#' @examplesIf propstab_available()
#' feats <- list(c(1, 2), c(1, 2), c(1, 3))
#' stabilityKuncheva(feats, p = 4)
#' stabilityPOG(feats, p = 4)
#' stabilityNPOG(feats, p = 4)
#' S <- diag(4); S[2, 3] <- S[3, 2] <- 1
#' stabilityMSI(feats, sim.mat = S)
#' @name more_measures
NULL

#' @rdname stabilityKuncheva
#' @export
stabilityKuncheva <- function(features, p) {
  stability(features, p = .p(p, features), measure = "kuncheva")
}

#' @rdname stabilityPOG
#' @export
stabilityPOG <- function(features, p) {
  stability(features, p = .p(p, features), measure = "pog")
}

#' @rdname stabilityNPOG
#' @export
stabilityNPOG <- function(features, p) {
  stability(features, p = .p(p, features), measure = "npog")
}

#' @rdname stabilityMSI
#' @export
stabilityMSI <- function(features, sim.mat, importances = NULL) {
  stability(features, sim.mat = .sim(sim.mat), measure = "msi", importances = importances)
}

#' propstab's measures and their declared properties
#'
#' The registry as a data frame: one row per measure with its family, the five axioms it
#' claims (thesis ch. 4: fully defined, monotonicity, bounds, maximum, correction for
#' chance), its bounds, orientation, domain, options and the stabm function computing
#' it (`NA` where stabm has none).
#'
#' @return A data frame with columns `name`, `family`, `fully_defined`,
#'   `monotonicity`, `bounds`, `maximum`, `correction`, `lower`, `upper`,
#'   `orientation`, `domain`, `options`, `stabm`, `summary` and `input` (`"selection"`, or
#'   `"ranking"` for the measures of rank matrices).
#' @section Two names for two tables:
#' `list_measures()` is propstab's own function (snake_case, as every function the
#' package adds): one row per registered measure. [listStabilityMeasures()] is stabm's
#' (stabm's camelCase name and columns): one row per `stability*()` function; its
#' `extra = TRUE` column `measure` names the row of `list_measures()`.
#' @seealso [stability()]; the claims are checked by `propstab audit` (Python) and, for a
#'   measure written in R, by [audit_measure()]; [listStabilityMeasures()].
#' @examplesIf propstab_available()
#' m <- list_measures()
#' m[is.na(m$stabm), c("name", "family")]        # what stabm lacks
#' @export
list_measures <- function() {
  columns <- .call("measures_table", call = sys.call())
  table <- as.data.frame(lapply(columns, unlist), stringsAsFactors = FALSE)
  table$stabm[table$stabm == ""] <- NA_character_
  table
}

#' stabm's documented defects that propstab does not copy
#'
#' Where propstab's stabm-compatible functions return another value than stabm, the
#' reason is one of these entries: what differs, why, which side follows the definition,
#' and a minimal example with both values. The measures' value differences come first,
#' then the differences of the interface (`measures` is `"(interface)"`):
#' `correction.for.chance = "estimate"` (propstab's simulation, or the exact value),
#' warnings where stabm is silent, argument checks (including stabm's own invalid inputs
#' that propstab refuses), the rows [listStabilityMeasures()] adds and [plotFeatures()]'s
#' dendrograms. `impute.na` is stabm's everywhere (each undefined pair of runs imputed
#' before the mean). stabm's own testthat suite run with propstab's functions fails only
#' in tests these entries explain.
#'
#' @param fun `NULL` (all entries) or the name of a stabm function, e.g.
#'   `"stabilityDavis"` (or `"listStabilityMeasures"`, `"plotFeatures"`).
#' @param features,p,sim.mat,... Optionally a call of `fun`: then only the entries that
#'   apply to it (the arguments of `fun`, e.g. `correction.for.chance = "exact"`).
#' @return A data frame with columns `key`, `measures`, `r_functions`, `summary`,
#'   `reason`, `example`, `r_result` and `propstab_result`.
#' @examplesIf propstab_available()
#' stabm_differences("stabilityDavis")[, c("key", "summary")]
#' stabm_differences("stabilityDavis", list(1:2, 2:3, c(1, 3)), p = 4,
#'                   correction.for.chance = "exact")$key
#' @export
stabm_differences <- function(fun = NULL, features = NULL, p = NULL, sim.mat = NULL, ...) {
  checkmate::assertString(fun, null.ok = TRUE)
  runs <- list()
  sim <- NULL
  if (!is.null(features)) {
    if (is.null(fun)) .fail("fun: name the stabm function the call is of")
    sim <- .similarity(sim.mat, required = FALSE)
    runs <- .runs(features, p = p, sim.mat = sim)
  }
  options <- list(...)
  rows <- .call("differences", fun = fun, sizes = runs$sizes, indices = runs$indices,
                p = runs$p, sim_mat = sim, options = options, call = sys.call())
  columns <- c("key", "measures", "r_functions", "summary", "reason", "example", "r_result",
               "propstab_result")
  table <- as.data.frame(
    stats::setNames(lapply(columns, function(k) vapply(rows, `[[`, character(1L), k)),
                    columns),
    stringsAsFactors = FALSE)
  table
}
