# Install the R reference packages propstab cross-checks against, from CRAN by name,
# using the repositories configured on this machine. Idempotent.
needed <- c("stabm", "irr", "stabs")
missing <- needed[!vapply(needed, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing)) {
  message("install.R: installing from CRAN: ", paste(missing, collapse = ", "))
  lib <- .libPaths()[1]
  install.packages(missing, lib = lib, Ncpus = 2L, quiet = TRUE)
}
still <- needed[!vapply(needed, requireNamespace, logical(1), quietly = TRUE)]
if (length(still)) stop("could not install R packages: ", paste(still, collapse = ", "))
for (p in needed) message(sprintf("install.R: %s %s", p, as.character(packageVersion(p))))
