# Install the R reference packages propstab cross-checks against, from CRAN by name,
# using the repositories configured on this machine. Idempotent.
# igraph: stabm's stabilityIntersectionMBM (cross-checked live); jsonlite: writes
# r_compat/reference_values.json (r_compat/generate_reference.R).
# sharp: the stability score (propstab.stability_score), cross-checked live
# (r_compat/test_sharp_live.py); its binary dependencies come from Debian (scripts/setup.sh).
needed <- c("stabm", "irr", "stabs", "igraph", "jsonlite")
needed <- c(needed, "sharp")
# Already installed (the usual case): found in a library, without loading the namespaces
# (loading sharp, igraph and stabm costs ~1.5 s of every `make test` and `make run`; a
# package found but broken fails the suite's R tests with its own error). Otherwise each
# is loaded, and a package that does not load is installed again.
found <- vapply(needed, function(p) nzchar(system.file(package = p)), logical(1))
missing <- if (all(found)) character(0) else
  needed[!vapply(needed, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing)) {
  message("install.R: installing from CRAN: ", paste(missing, collapse = ", "))
  lib <- .libPaths()[1]
  install.packages(missing, lib = lib, Ncpus = 2L, quiet = TRUE)
}
still <- if (!length(missing)) character(0) else
  needed[!vapply(needed, requireNamespace, logical(1), quietly = TRUE)]
if (length(still)) stop("could not install R packages: ", paste(still, collapse = ", "))
for (p in needed) message(sprintf("install.R: %s %s", p, as.character(packageVersion(p))))
