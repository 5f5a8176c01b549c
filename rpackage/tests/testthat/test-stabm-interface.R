# stabm's listStabilityMeasures() and plotFeatures(): stabm's columns with stabm's values,
# and the heatmap's ordering.

skip_if_no_propstab()

test_that("listStabilityMeasures() has stabm's five columns and stabm's values", {
  ours <- listStabilityMeasures()
  expect_identical(names(ours), c("Name", "Corrected", "Adjusted", "Minimum", "Maximum"))
  # stabm's own test of the function
  checkmate::expect_data_frame(ours, ncols = 5, min.rows = 17,
                               types = c("character", "numeric", "logical"), null.ok = FALSE,
                               col.names = "named")
  expect_true(all(c("stabilityKuncheva", "stabilityPOG", "stabilityNPOG", "stabilityMSI") %in%
                    ours$Name))
  for (f in ours$Name) expect_true(is.function(get(f)), label = f)
  full <- listStabilityMeasures(extra = TRUE)
  expect_identical(names(full), c("Name", "Corrected", "Adjusted", "Minimum", "Maximum",
                                  "measure", "correction", "stabm", "differences"))
  expect_identical(full[, 1:5], ours)
  expect_identical(full$measure[full$Name == "stabilityKuncheva"], "kuncheva")
  expect_error(listStabilityMeasures(extra = NA), "extra")
  expect_identical(full$differences[full$Name == "stabilityDavis"],
                   "corrected_global_score, davis_penalty_maximum, estimate_computed_exactly, undefined_warns, argument_checks")
  skip_if_not_installed("stabm")
  theirs <- stabm::listStabilityMeasures()
  mine <- ours[full$stabm, ]
  rownames(mine) <- NULL
  expect_identical(mine, theirs)
})

test_that("plotFeatures() orders runs and features by stabm's clustering", {
  feats <- list(c(2, 3, 5, 6, 7), 1:5, 2:7)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  plot <- plotFeatures(feats)
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    expect_s3_class(plot, c("gg", "ggplot"))
    data <- plot$data
    # stabm's order: hclust(average) of the Manhattan distances of the runs
    all.feats <- unique(unlist(feats))
    Z <- do.call(rbind, lapply(feats, function(f) all.feats %in% f))
    o <- stats::hclust(stats::dist(Z, method = "manhattan"), method = "average")$order
    expect_identical(levels(data$repl), paste0("S", o))
    expect_identical(sum(data$selected == "Yes"), sum(lengths(feats)))
  }
  expect_error(plotFeatures(list(character(0L), character(0L))),
               "No feature selected in any set!")
  S <- diag(7); S[1, 2] <- S[2, 1] <- 0.8
  expect_no_error(plotFeatures(feats, sim.mat = S))
  expect_no_error(plotFeatures(list("V1", "V1")))
})
