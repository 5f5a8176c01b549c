#!/usr/bin/env Rscript
# Regenerates r_compat/reference_values.json: the values of the R reference
# implementations (stabm, irr::kappam.fleiss, also with exact = TRUE) on fixed inputs, so that
# r_compat/test_reference_values.py checks propstab against R without R.
#
#   Rscript r_compat/generate_reference.R [output.json]
#
# Inputs: the papers' worked examples (Somol & Novovicova 2010 Figs 2-4; Nogueira's
# thesis App. B and Fig. 4.1), edge cases (empty and full runs, one feature, M = 2),
# seeded random selections, similarity cases for stabm's adjusted measures, and the
# minimal examples of the stabm defects in propstab.r.EXPECTED_DIFFERENCES (tagged
# with their key). Values are written as strings with 17 significant digits ("NA",
# "NaN", or "error" with R's message). Deterministic: the same R and package
# versions give the same file.
suppressPackageStartupMessages({
  library(stabm)
  library(irr)
  library(Matrix)
  library(jsonlite)
})

args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", args[grep("^--file=", args)])
here <- if (length(script)) dirname(normalizePath(script)) else "r_compat"
trailing <- commandArgs(trailingOnly = TRUE)
out_path <- if (length(trailing)) trailing[1] else file.path(here, "reference_values.json")

fmt <- function(x) {
  if (is.na(x) && !is.nan(x)) return("NA")
  if (is.nan(x)) return("NaN")
  sprintf("%.17g", x)
}

# -------------------------------------------------------------------- inputs
rep_list <- function(x, n) rep(list(x), n)
inputs <- list(
  # Somol & Novovicova (2010), Fig. 2(a) minimal and (b) maximal systems (N = 23, n = 7, |Y| = 6)
  somol_fig2a = list(p = 6, features = list(1:4, c(5, 6, 1, 2), 3:5, c(6, 1, 2), 3:5, c(6, 1, 2), 3:5)),
  somol_fig2b = list(p = 6, features = c(rep_list(1:4, 2), rep_list(1:3, 5))),
  # Fig. 3: {1} x 5, {1,2}, {1} x 6, {3}, {1} x 2
  somol_fig3 = list(p = 3, features = c(rep_list(1, 5), list(1:2), rep_list(1, 6), list(3), rep_list(1, 2))),
  # Fig. 4: systems S2 and S3 (|Y| = 7)
  somol_fig4_S2 = list(p = 7, features = lapply(7:1, seq_len)),
  somol_fig4_S3 = list(p = 7, features = c(rep_list(1:4, 4), list(c(1, 2, 3, 5), c(1, 2, 6, 5), c(1, 7, 6, 5)))),
  # Nogueira's thesis, App. B.2 (Krizek, Guzman), B.3 (Wald, M = 4, d = 5), B.4 (CW_rel), Fig. 4.1
  thesis_B2_krizek_Z1 = list(p = 4, features = list(1:2, 1:2, 3:4, 3:4)),
  thesis_B2_krizek_Z2 = list(p = 4, features = list(c(1, 3), c(1, 3), 3:4, 3:4)),
  thesis_B2_guzman_Z1 = list(p = 5, features = list(c(1, 4), c(2, 4), c(4, 5), c(3, 4))),
  thesis_B2_guzman_Z2 = list(p = 5, features = list(c(1, 4), c(2, 4), c(1, 3), c(2, 4))),
  thesis_B3_wald = list(p = 5, features = c(rep_list(1:4, 2), rep_list(5, 2))),
  thesis_B4_cwrel = list(p = 4, features = c(rep_list(1:2, 2), rep_list(1:3, 2))),
  thesis_fig4_1a = list(p = 10, features = c(rep_list(1:5, 50), rep_list(1:4, 50))),
  thesis_fig4_1b = list(p = 10, features = rep_list(1:3, 100)),
  # edge cases
  edge_M2 = list(p = 5, features = list(1:2, 2:4)),
  edge_identical = list(p = 5, features = rep_list(c(2, 5), 3)),
  edge_empty_and_full = list(p = 4, features = list(integer(0), 1:4, c(1, 3), 2)),
  edge_one_empty = list(p = 5, features = list(integer(0), 1:2, 2:3)),
  edge_one_full = list(p = 4, features = list(1:4, 1:2, 2:3)),
  edge_all_empty = list(p = 3, features = rep_list(integer(0), 3)),
  edge_all_full = list(p = 3, features = rep_list(1:3, 3)),
  edge_one_feature = list(p = 1, features = list(1, integer(0), 1)),
  edge_disjoint = list(p = 4, features = list(1, 2, 3, 4))
)
set.seed(20240507)
for (i in 1:6) {
  M <- sample(3:9, 1)
  p <- sample(5:12, 1)
  sizes <- sample(0:p, M, replace = TRUE)
  inputs[[sprintf("random_%d", i)]] <- list(p = p, features = lapply(sizes, function(k) sort(sample(p, k))))
}

# the R functions of propstab's registry entries (stabm's input: features, p) and their options
corrections <- list(list(correction.for.chance = "none"), list(correction.for.chance = "exact"))
plain <- list(
  stabilityHamming = corrections, stabilityJaccard = corrections, stabilityDice = corrections,
  stabilityOchiai = corrections, stabilityNovovicova = corrections,
  stabilityDavis = list(list(penalty = 0, correction.for.chance = "none"),
                        list(penalty = 1.5, correction.for.chance = "none"),
                        list(penalty = 0, correction.for.chance = "exact")),
  stabilityLustgarten = list(list()), stabilityWald = list(list()), stabilityKappa = list(list()),
  stabilityPhi = list(list()), stabilityUnadjusted = list(list()), stabilityNogueira = list(list()),
  stabilitySomol = list(list())
)

# -------------------------------------------------------------------- evaluation
evaluate <- function(fun, features, args) {
  tryCatch(list(value = fmt(do.call(fun, c(list(features = features), args))), error = NULL),
           error = function(e) list(value = "error", error = conditionMessage(e)))
}

ratings <- function(features, p) {
  # features as subjects (rows), runs as raters (columns): thesis Thm 5
  matrix(vapply(features, function(f) as.integer(seq_len(p) %in% f), integer(p)), nrow = p)
}

sim_json <- function(S) {
  if (inherits(S, "Matrix")) list(sparse = as.matrix(S)) else list(dense = S)
}

cases <- list()
used <- list()     # input name -> list(p, features), each written once
add <- function(name, package, fun, features, p, args, tag = character(0), value = NULL) {
  input <- list(p = p, features = lapply(features, function(f) I(as.integer(f))))
  if (!is.null(used[[name]]) && !identical(used[[name]], input)) stop("two inputs named ", name)
  used[[name]] <<- input
  r_args <- args
  if (!is.null(r_args$sim.mat)) r_args$sim.mat <- sim_json(r_args$sim.mat)
  res <- if (is.null(value)) {
    f <- get(fun, envir = asNamespace(package))
    evaluate(f, features, if ("p" %in% names(formals(f))) c(args, list(p = p)) else args)
  } else value
  cases[[length(cases) + 1]] <<- list(
    input = name, r_function = paste0(package, "::", fun),
    arguments = if (length(r_args)) r_args else structure(list(), names = character(0)),
    value = res$value, error = res$error, expected_difference = I(tag))
}

for (name in names(inputs)) {
  x <- inputs[[name]]
  for (fun in names(plain)) {
    for (a in plain[[fun]]) {
      exact <- identical(a$correction.for.chance, "exact")
      if (exact && (x$p > 7 || length(x$features) > 8)) next   # stabm enumerates subsets
      add(name, "stabm", fun, x$features, x$p, a)
    }
  }
  fleiss <- tryCatch(list(value = fmt(kappam.fleiss(ratings(x$features, x$p))$value), error = NULL),
                     error = function(e) list(value = "error", error = conditionMessage(e)))
  add(name, "irr", "kappam.fleiss", x$features, x$p, list(), value = fleiss,
      tag = if (x$p == 1) "irr_single_subject" else character(0))
  # Conger's (1980) exact kappa: propstab's conger
  conger <- tryCatch(list(value = fmt(kappam.fleiss(ratings(x$features, x$p), exact = TRUE)$value),
                          error = NULL),
                     error = function(e) list(value = "error", error = conditionMessage(e)))
  add(name, "irr", "kappam.fleiss", x$features, x$p, list(exact = TRUE), value = conger,
      tag = if (x$p == 1) "irr_single_subject" else character(0))
}

# stabm's adjusted (similarity-aware) measures, for propstab's "correlated" family
S6 <- diag(6)
S6[1, 2] <- S6[2, 1] <- 0.95
S6[3, 4] <- S6[4, 3] <- 0.5
S6[5, 6] <- S6[6, 5] <- 0.92
adj_inputs <- list(
  adjusted_swap = list(features = list(c(1, 3, 5), c(2, 3, 6), c(1, 4, 5)), p = 6),
  adjusted_sizes = list(features = list(c(1, 3), c(2, 3, 6), 5, c(1, 2, 4, 5)), p = 6)
)
# the simulated correction "estimate" is random (not comparable): every measure is pinned
# at "none" and at stabm's enumerated "exact"
exact_or_none <- list(list(correction.for.chance = "exact"), list(correction.for.chance = "none"))
adjusted <- list(
  stabilityYu = exact_or_none,
  stabilityZucknick = list(list(correction.for.chance = "none"), list(correction.for.chance = "exact")),
  stabilityIntersectionCount = exact_or_none,
  stabilityIntersectionMean = exact_or_none,
  stabilityIntersectionGreedy = exact_or_none,
  stabilityIntersectionMBM = exact_or_none,
  stabilitySechidis = list(list())
)
for (name in names(adj_inputs)) {
  x <- adj_inputs[[name]]
  for (fun in names(adjusted)) for (a in adjusted[[fun]]) for (threshold in c(0.9, 0.5)) {
    add(name, "stabm", fun, x$features, x$p, c(a, list(sim.mat = S6, threshold = threshold)))
  }
}
add("adjusted_swap", "stabm", "stabilitySechidis", adj_inputs$adjusted_swap$features, 6,
    list(sim.mat = S6, threshold = 0))

# -------------------------------------------------------------------- minimal examples of stabm's defects
add("defect_no_similar_pair", "stabm", "stabilityYu", list(1, 1:2), 3,
    list(sim.mat = diag(3), threshold = 0.9, correction.for.chance = "exact"), "adjusted_no_similar_pair")
add("defect_no_similar_pair_empty", "stabm", "stabilityYu", list(integer(0), integer(0)), 2,
    list(sim.mat = diag(2), threshold = 0.9, correction.for.chance = "none"), "adjusted_no_similar_pair")
add("defect_no_similar_pair", "stabm", "stabilityUnadjusted", list(1, 1:2), 3, list())
add("defect_no_similar_pair", "stabm", "stabilityKappa", list(1, 1:2), 3, list())
for (fun in c("stabilityDavis", "stabilityNovovicova")) {
  add("defect_global_score_M3", "stabm", fun, list(1:2, 2:3, c(1, 3)), 4,
      list(correction.for.chance = "exact"), "corrected_global_score")
  add("defect_global_score_M2", "stabm", fun, list(1:2, 2:3), 4, list(correction.for.chance = "exact"))
}
add("defect_davis_penalty", "stabm", "stabilityDavis", list(1:2, 2:3), 4,
    list(correction.for.chance = "exact", penalty = 1), "davis_penalty_maximum")
S4 <- diag(4)
S4[1, 2] <- S4[2, 1] <- 0.95
S4[3, 4] <- S4[4, 3] <- 0.5
no_diag <- sparseMatrix(i = c(1, 3), j = c(2, 4), x = c(0.95, 0.5), dims = c(4, 4), symmetric = TRUE)
add("defect_sparse_dimensions", "stabm", "stabilityZucknick", list(c(1, 3), c(2, 4), c(1, 4)), 4,
    list(sim.mat = no_diag, threshold = 0.9), "sparse_similarity_dimensions")
add("defect_sparse_dimensions", "stabm", "stabilityZucknick", list(c(1, 3), c(2, 4), c(1, 4)), 4,
    list(sim.mat = S4, threshold = 0.9))
S0 <- diag(4)
S0[1, 2] <- S0[2, 1] <- 0.5
for (form in c("dense", "sparse")) {
  sim <- if (form == "dense") S0 else as(as(S0, "CsparseMatrix"), "symmetricMatrix")
  # propstab never counts a zero similarity as similar: it differs from the dense result
  add(paste0("defect_threshold_zero_", form), "stabm", "stabilityYu", list(c(1, 3), c(2, 4), 3), 4,
      list(sim.mat = sim, threshold = 0, correction.for.chance = "none"),
      if (form == "dense") "threshold_zero_dense_sparse" else character(0))
}
add("defect_nan_wald", "stabm", "stabilityWald", list(1:2, 1), 2, list(), "nan_not_na")
add("defect_nan_somol", "stabm", "stabilitySomol", list(1, 1:2), 2, list(),
    c("nan_not_na", "somol_equal_extremes"))
add("defect_somol_all_full", "stabm", "stabilitySomol", list(1:2, 1:2), 2, list(), "somol_equal_extremes")

versions <- list(R = paste(R.version$major, R.version$minor, sep = "."))
for (p in c("stabm", "irr", "Matrix", "jsonlite")) versions[[p]] <- as.character(packageVersion(p))
out <- list(
  generated_by = "r_compat/generate_reference.R",
  note = "values: 17 significant digits, or NA / NaN / error; features are 1-based (stabm's input)",
  versions = versions,
  inputs = used,
  cases = cases
)
write_json(out, out_path, auto_unbox = TRUE, pretty = TRUE, digits = NA, null = "null")
message(sprintf("generate_reference.R: wrote %d cases to %s (stabm %s, irr %s)",
                length(cases), out_path, versions$stabm, versions$irr))
