# Install the R reference packages propstab cross-checks against, from CRAN by name,
# using the repositories configured on this machine. Idempotent.
# igraph: stabm's stabilityIntersectionMBM (cross-checked live); jsonlite: writes
# r_compat/reference_values.json (r_compat/generate_reference.R).
# sharp: the stability score (propstab.stability_score), cross-checked live
# (r_compat/test_sharp_live.py); its binary dependencies come from Debian (scripts/setup.sh).
needed <- c("stabm", "irr", "stabs", "igraph", "jsonlite")
needed <- c(needed, "sharp")
missing <- needed[!vapply(needed, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing)) {
  message("install.R: installing from CRAN: ", paste(missing, collapse = ", "))
  lib <- .libPaths()[1]
  install.packages(missing, lib = lib, Ncpus = 2L, quiet = TRUE)
}
still <- needed[!vapply(needed, requireNamespace, logical(1), quietly = TRUE)]
if (length(still)) stop("could not install R packages: ", paste(still, collapse = ", "))
for (p in needed) message(sprintf("install.R: %s %s", p, as.character(packageVersion(p))))
