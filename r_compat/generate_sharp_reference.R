# Regenerate r_compat/sharp_reference.json: sharp::StabilityScore on generated cases
# (selection proportions k/K of N features, K runs, a grid of pi, n_cat = 3 and 2).
#
#   Rscript r_compat/generate_sharp_reference.R            (from the repository root)
#
# The cases are drawn here with R's own generator (set.seed(20261126)) and written with
# the scores, 17 significant digits, NA as null. tests/test_calibration.py reads them
# without R; r_compat/test_sharp_live.py checks that the installed sharp still computes
# them.
suppressPackageStartupMessages(library(sharp))

set.seed(20261126)
num <- function(x) ifelse(is.na(x), "null", sprintf("%.17g", x))
vec <- function(x) paste0("[", paste(num(x), collapse = ", "), "]")
cases <- character(0)
add <- function(selprop, K, pi_list, n_cat) {
  score <- StabilityScore(selprop, pi_list = pi_list, K = K, n_cat = n_cat)
  cases[[length(cases) + 1]] <<- sprintf(
    "  {\"K\": %d, \"n_cat\": %d, \"selprop\": %s, \"pi\": %s, \"score\": %s}",
    K, n_cat, vec(selprop), vec(pi_list), vec(score))
}
for (i in 1:60) {
  K <- sample(c(10, 20, 50, 100, 101, 200), 1)
  N <- sample(c(5, 12, 30, 100, 300), 1)
  sparsity <- runif(1, 0.3, 0.95)        # many stably excluded features, as in practice
  counts <- ifelse(runif(N) < sparsity, rbinom(N, K, 0.02), sample(0:K, N, replace = TRUE))
  selprop <- counts / K
  pi_list <- if (i %% 3 == 0) seq(0.6, 0.9, by = 0.01) else sort(round(runif(7, 0.51, 0.99), 2))
  add(selprop, K, pi_list, 3)
  if (i %% 2 == 0) add(selprop, K, pi_list, 2)
}
# fixed cases: sharp's documented example, q = 0, q = N, pi <= 0.5, a tie q = x.5
set.seed(1)
selprop <- round(runif(n = 20), digits = 2)
add(selprop, 100, c(0.6, 0.7, 0.8), 3)
add(rep(0, 10), 50, c(0.6, 0.8), 3)
add(rep(1, 10), 50, c(0.6, 0.8), 3)
add(c(1, 0.9, 0.2, 0, 0), 20, c(0.3, 0.5, 0.51, 0.6), 3)
add(c(1, 0.5, 0, 0, 0, 0), 20, c(0.6, 0.75), 3)
add(c(1, 0.5, 0.5, 0.5, 0, 0), 20, c(0.6, 0.75), 3)
body <- paste(cases, collapse = ",\n")
header <- sprintf(paste0("{\"generator\": \"r_compat/generate_sharp_reference.R\", ",
                         "\"function\": \"sharp::StabilityScore\", \"sharp\": \"%s\", ",
                         "\"R\": \"%s\",\n \"cases\": [\n"),
                  as.character(packageVersion("sharp")),
                  paste(R.version$major, R.version$minor, sep = "."))
writeLines(paste0(header, body, "\n]}"), "r_compat/sharp_reference.json")
message(sprintf("wrote %d cases to r_compat/sharp_reference.json", length(cases)))

# Extended cases (r_compat/sharp_reference_extended.json): K in {200, 500, 1000}, N up to
# 10^4, pi up to 0.99, where the binomial tails go far below the smallest double (the
# classes of a few always-selected features among many). Written as selection counts
# (selprop = counts / K) to keep the file small.
set.seed(20261207)
ext <- character(0)
add_ext <- function(counts, K, pi_list, n_cat) {
  score <- StabilityScore(counts / K, pi_list = pi_list, K = K, n_cat = n_cat)
  ext[[length(ext) + 1]] <<- sprintf(
    "  {\"K\": %d, \"n_cat\": %d, \"counts\": [%s], \"pi\": %s, \"score\": %s}",
    K, n_cat, paste(counts, collapse = ","), vec(pi_list), vec(score))
}
for (i in 1:24) {
  K <- c(200, 500, 1000)[(i - 1) %% 3 + 1]
  N <- c(10, 100, 1000, 10000)[(i - 1) %/% 3 %% 4 + 1]
  n_true <- sample(0:5, 1)
  sparsity <- runif(1, 0.5, 0.999)
  counts <- ifelse(runif(N) < sparsity, rbinom(N, K, 0.01), sample(0:K, N, replace = TRUE))
  counts[seq_len(min(n_true, N))] <- K
  pi_list <- sort(unique(c(round(runif(6, 0.51, 0.99), 2), 0.9, 0.99)))
  add_ext(counts, K, pi_list, 3)
  add_ext(counts, K, pi_list, 2)
}
# the issue's cases: one or three always-selected features among 1000, K = 200
add_ext(c(200, rep(0, 999)), 200, c(0.6, 0.9), 3)
add_ext(c(rep(200, 3), rep(0, 997)), 200, seq(0.6, 0.99, by = 0.01), 3)
header <- sprintf(paste0("{\"generator\": \"r_compat/generate_sharp_reference.R\", ",
                         "\"function\": \"sharp::StabilityScore\", \"sharp\": \"%s\", ",
                         "\"R\": \"%s\",\n \"cases\": [\n"),
                  as.character(packageVersion("sharp")),
                  paste(R.version$major, R.version$minor, sep = "."))
writeLines(paste0(header, paste(ext, collapse = ",\n"), "\n]}"),
           "r_compat/sharp_reference_extended.json")
message(sprintf("wrote %d cases to r_compat/sharp_reference_extended.json", length(ext)))
