# The rest of stabm's exported interface: listStabilityMeasures() and plotFeatures(), with
# stabm's signatures.

# stabm-style functions propstab adds (R function -> registered measure).
.more_functions <- c(stabilityKuncheva = "kuncheva", stabilityPOG = "pog",
                     stabilityNPOG = "npog", stabilityMSI = "msi")

# The functions whose formula corrects for chance by its definition (stabm's column
# `Corrected`, which is not propstab's axiom of an exact correction: see the column
# `correction`).
.corrected_by_definition <- c(
  "stabilityIntersectionCount", "stabilityIntersectionGreedy", "stabilityIntersectionMBM",
  "stabilityIntersectionMean", "stabilityKappa", "stabilityLustgarten", "stabilityNogueira",
  "stabilityPhi", "stabilitySomol", "stabilityUnadjusted", "stabilityWald", "stabilityYu",
  "stabilityKuncheva", "stabilityNPOG")

#' List all available stability measures, as stabm does
#'
#' stabm's table of its measures, one row per `stability*()` function: the 20 functions
#' of stabm and the stabm-style functions propstab adds ([more_measures]), with stabm's
#' five columns; `extra = TRUE` adds propstab's columns.
#'
#' Two functions list the measures, under the two naming styles of the package:
#' `listStabilityMeasures()` is stabm's function under stabm's camelCase name (one row
#' per stabm-style function, stabm's columns), `list_measures()` is propstab's own, in
#' snake_case like every function the package adds (one row per registered measure,
#' including those reachable only through [stability()], with the declared properties).
#' `listStabilityMeasures(extra = TRUE)$measure` names each function's row of
#' `list_measures()`.
#'
#' @param extra `FALSE` (the default, stabm's five columns) or `TRUE` (also propstab's
#'   columns `measure`, `correction`, `stabm` and `differences`).
#' @return A data frame sorted by `Name`, with stabm's columns `Name` (the function),
#'   `Corrected` (its formula corrects for chance by definition; the other measures can
#'   be corrected with `correction.for.chance`), `Adjusted` (it adjusts for similar
#'   features, `sim.mat`), `Minimum` (character: a number, `"1-p"`, or `NA` where it
#'   depends on the data) and `Maximum`, read from propstab's registry; with
#'   `extra = TRUE` then propstab's columns `measure` (the registered name, for
#'   [stability()]), `correction` (propstab claims the exact correction for chance,
#'   thesis ch. 4, checked by its audit), `stabm` (`TRUE` for stabm's functions) and
#'   `differences` (the keys of [stabm_differences()] for the function, `""` where none).
#' @section Differences from stabm:
#' The rows of the four functions propstab adds; stabm's five columns keep stabm's
#' values (tested), and stabm's own test of this function passes
#' (`stabm_differences("listStabilityMeasures")`).
#' @seealso [list_measures()] for every registered measure.
#' @examplesIf propstab_available()
#' listStabilityMeasures()
#' m <- listStabilityMeasures(extra = TRUE)
#' m[m$differences != "", c("Name", "differences")]
#' @export
listStabilityMeasures <- function(extra = FALSE) {
  checkmate::assertFlag(extra)
  registry <- list_measures()
  stabm <- registry[!is.na(registry$stabm), ]
  functions <- c(stabm$stabm, names(.more_functions))
  measures <- c(stabm$name, unname(.more_functions))
  rows <- registry[match(measures, registry$name), ]
  bound <- function(text) {
    text <- gsub(" ", "", sub("d", "p", text, fixed = TRUE))
    value <- suppressWarnings(as.numeric(text))
    ifelse(!is.na(value) & !is.finite(value), NA_character_, text)
  }
  upper <- suppressWarnings(as.numeric(rows$upper))
  differences <- stabm_differences()
  keys <- vapply(functions, function(f) {
    hit <- vapply(strsplit(differences$r_functions, ", ", fixed = TRUE),
                  function(fs) f %in% sub(".*::", "", fs) ||
                    "all stability* functions" %in% fs, logical(1L))
    paste(differences$key[hit], collapse = ", ")
  }, character(1L))
  table <- data.frame(
    Name = functions,
    Corrected = functions %in% .corrected_by_definition,
    Adjusted = grepl("\\bsimilarity\\b", rows$options),
    Minimum = bound(rows$lower),
    Maximum = ifelse(is.finite(upper), upper, NA_real_),
    measure = measures, correction = rows$correction,
    stabm = functions %in% stabm$stabm, differences = unname(keys),
    stringsAsFactors = FALSE)
  table <- table[order(table$Name), if (extra) names(table) else .stabm_columns]
  rownames(table) <- NULL
  table
}

# stabm's columns of listStabilityMeasures().
.stabm_columns <- c("Name", "Corrected", "Adjusted", "Minimum", "Maximum")

#' Plot selected features, as stabm does
#'
#' A heatmap of the features selected in at least one run: runs (sets) in rows ordered by
#' average-linkage hierarchical clustering of their Manhattan distances, features in
#' columns ordered by the same clustering of the features or, with `sim.mat`, of
#' `1 - sim.mat`, with stabm's signature and checks.
#'
#' @param features The feature sets: a list with one vector per run of the selected
#'   features (1-based indices, or names).
#' @param sim.mat `NULL` or the d x d feature similarity (base or Matrix), whose column
#'   names index named features.
#' @return With ggplot2 installed, a `ggplot` object (the heatmap; stabm adds the
#'   dendrograms with cowplot and ggdendro); without it, the plot is drawn with base
#'   graphics and the ordered 0/1 matrix is returned invisibly.
#' @section Differences from stabm:
#' Without the dendrograms, and with base graphics where ggplot2 is absent (stabm then
#' fails).
#' @examplesIf propstab_available()
#' feats <- list(1:3, 1:4, 1:5)
#' mat <- 0.92 ^ abs(outer(1:10, 1:10, "-"))
#' plotFeatures(features = feats)
#' plotFeatures(features = feats, sim.mat = mat)
#' @export
plotFeatures <- function(features, sim.mat = NULL) {
  checkmate::assertList(features, any.missing = FALSE, min.len = 2L,
                        types = c("integerish", "character"), .var.name = "features")
  is.char <- vapply(features, is.character, logical(1L))
  if (any(is.char) && !all(is.char)) {
    .fail("features: all runs must be numeric or all must be character")
  }
  sim <- NULL
  if (!is.null(sim.mat)) {
    sim <- as.matrix(.similarity(sim.mat, check.diagonal = FALSE))
    universe <- if (any(is.char)) colnames(sim.mat) else seq_len(ncol(sim))
    if (any(is.char)) {
      checkmate::assertNames(universe, .var.name = "colnames(sim.mat)")
      dimnames(sim) <- list(universe, universe)
    }
    for (f in features) {
      checkmate::assertVector(f, any.missing = FALSE, unique = TRUE,
                              max.len = length(universe), .var.name = "features")
      checkmate::assertSubset(f, universe, .var.name = "features")
    }
  } else {
    for (f in features) {
      checkmate::assertVector(f, any.missing = FALSE, unique = TRUE, .var.name = "features")
    }
  }
  all.feats <- unique(unlist(features, use.names = FALSE))
  if (length(all.feats) == 0L) .fail("No feature selected in any set!")
  mat <- do.call(rbind, lapply(features, function(f) all.feats %in% f))
  o.repls <- stats::hclust(stats::dist(mat, method = "manhattan"), method = "average")$order
  o.feats <- 1L
  if (length(all.feats) > 1L) {
    d.feats <- if (is.null(sim)) stats::dist(t(mat), method = "manhattan")
               else stats::as.dist(1 - sim[all.feats, all.feats])
    o.feats <- stats::hclust(d.feats, method = "average")$order
  }
  mat <- mat[o.repls, o.feats, drop = FALSE]
  dimnames(mat) <- list(paste0("S", o.repls), paste0("V", all.feats[o.feats]))
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    return(.features_ggplot(mat, o.repls, all.feats[o.feats]))
  }
  .features_image(mat, o.repls, all.feats[o.feats])
}

.features_ggplot <- function(mat, runs, feats) {
  data <- data.frame(
    repl = factor(rep(rownames(mat), ncol(mat)), levels = rownames(mat)),
    feature = factor(rep(colnames(mat), each = nrow(mat)), levels = colnames(mat)),
    selected = factor(ifelse(as.logical(mat), "Yes", "No"), levels = c("No", "Yes")))
  angle <- if (max(nchar(as.character(feats))) > 2L) 90 else 0
  ggplot2::ggplot(data, .aes(x = "feature", y = "repl")) +
    ggplot2::geom_tile(.aes(fill = "selected"), colour = "white") +
    ggplot2::scale_fill_grey(name = "Selected", start = 0.9, end = 0.2, drop = FALSE) +
    ggplot2::scale_y_discrete(expand = c(0, 0), labels = runs) +
    ggplot2::scale_x_discrete(expand = c(0, 0), labels = feats) +
    ggplot2::labs(x = "Features", y = "Sets") +
    ggplot2::theme_minimal() +
    ggplot2::theme(panel.grid = ggplot2::element_blank(),
                   axis.text.x = ggplot2::element_text(angle = angle, hjust = 1,
                                                       vjust = 0.5))
}

.features_image <- function(mat, runs, feats) {
  graphics::image(x = seq_len(ncol(mat)), y = seq_len(nrow(mat)), z = t(mat + 0),
                  col = grDevices::gray(c(0.9, 0.2)), zlim = c(0, 1), axes = FALSE,
                  xlab = "Features", ylab = "Sets")
  graphics::axis(1L, at = seq_len(ncol(mat)), labels = feats, las = 2L, tick = FALSE)
  graphics::axis(2L, at = seq_len(nrow(mat)), labels = runs, las = 1L, tick = FALSE)
  graphics::legend("topright", legend = c("No", "Yes"), title = "Selected",
                   fill = grDevices::gray(c(0.9, 0.2)), xpd = TRUE, inset = c(-0.02, -0.1),
                   bty = "n")
  invisible(mat)
}

# ggplot2::aes() of columns named by strings (no global variables, no rlang).
.aes <- function(...) {
  do.call(ggplot2::aes, lapply(list(...), as.name))
}
