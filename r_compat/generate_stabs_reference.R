# Regenerate r_compat/stabs_reference.json: stabs::stabsel_parameters on a grid of
# (p, B, cutoff, q, PFER) for the Meinshausen-Buhlmann bound and Shah and Samworth's
# unimodal and r-concave bounds, given each pair of (cutoff, q, PFER).
#
#   Rscript r_compat/generate_stabs_reference.R            (from the repository root)
#
# Cases where stabs stops with an error are recorded with the error message: propstab
# must raise ValueError there. Numbers are written with 17 significant digits.
suppressPackageStartupMessages(library(stabs))

cases <- list()
add <- function(sampling, assumption, p, B, cutoff = NULL, q = NULL, PFER = NULL) {
  args <- list(p = p, B = B, sampling.type = sampling, assumption = assumption)
  if (!is.null(cutoff)) args$cutoff <- cutoff
  if (!is.null(q)) args$q <- q
  if (!is.null(PFER)) args$PFER <- PFER
  res <- tryCatch(do.call(stabsel_parameters, args), error = function(e) conditionMessage(e))
  case <- list(sampling = sampling, assumption = assumption, p = p, B = B,
               cutoff = cutoff, q = q, PFER = PFER)
  if (is.character(res)) {
    case$error <- res
  } else {
    case$result <- list(cutoff = res$cutoff, q = res$q, PFER = res$PFER,
                        specifiedPFER = res$specifiedPFER, assumption = res$assumption)
  }
  cases[[length(cases) + 1]] <<- case
}

grid3 <- function(sampling, assumption, ps, Bs, cutoffs, qs, PFERs) {
  for (p in ps) for (B in Bs) {
    for (cutoff in cutoffs) for (q in qs) add(sampling, assumption, p, B, cutoff = cutoff, q = q)
    for (cutoff in cutoffs) for (PFER in PFERs) add(sampling, assumption, p, B, cutoff = cutoff, PFER = PFER)
    for (q in qs) for (PFER in PFERs) add(sampling, assumption, p, B, q = q, PFER = PFER)
  }
}

grid3("MB", "none", c(10, 100, 1000), 100, c(0.5, 0.6, 0.75, 0.9, 1), c(1, 5, 10, 30),
      c(0.1, 0.5, 1, 2.5, 10))
grid3("SS", "none", c(100, 1000), 50, c(0.6, 0.75, 0.9), c(5, 10, 30), c(0.5, 1, 2.5))
grid3("SS", "unimodal", c(20, 100, 1000), c(10, 50, 100), c(0.55, 0.6, 0.7, 0.75, 0.8, 0.9, 1),
      c(1, 3, 10, 30), c(0.2, 0.5, 1, 2.5, 10))
grid3("SS", "r-concave", c(100, 200), c(25, 50), c(0.6, 0.75, 0.9), c(2, 5, 10, 20),
      c(0.5, 1, 2.5))

num <- function(x) {
  if (is.null(x)) return("null")
  if (is.character(x)) return(sprintf("\"%s\"", gsub("\"", "\\\\\"", gsub("\n", " ", x))))
  if (is.infinite(x)) return(if (x > 0) "\"Inf\"" else "\"-Inf\"")
  sprintf("%.17g", x)
}
obj <- function(l) {
  parts <- vapply(names(l), function(n) {
    v <- l[[n]]
    sprintf("\"%s\": %s", n, if (is.list(v)) obj(v) else num(v))
  }, character(1))
  paste0("{", paste(parts, collapse = ", "), "}")
}
body <- vapply(cases, obj, character(1))
header <- sprintf(paste0("{\"generator\": \"r_compat/generate_stabs_reference.R\", ",
                         "\"function\": \"stabs::stabsel_parameters\", \"stabs\": \"%s\", ",
                         "\"R\": \"%s\",\n \"cases\": [\n"),
                  as.character(packageVersion("stabs")), paste(R.version$major, R.version$minor, sep = "."))
out <- file.path("r_compat", "stabs_reference.json")
writeLines(paste0(header, paste0("  ", body, collapse = ",\n"), "\n]}"), out)
message(sprintf("wrote %d cases (%d errors) to %s", length(cases),
                sum(vapply(cases, function(x) !is.null(x$error), logical(1))), out))
