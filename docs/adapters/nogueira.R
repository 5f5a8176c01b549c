# Rscript nogueira.R: Nogueira's estimator behind propstab's JSON-lines protocol
nogueira <- function(Z, options) {            # your implementation; Z: the M x d 0/1 matrix
  k <- mean(rowSums(Z)) / ncol(Z)
  if (k == 0 || k == 1) return(NA)            # undefined (0/0): answered as null
  1 - mean(apply(Z, 2, var)) / (k * (1 - k))
}
con <- file("stdin", "r")
while (length(line <- readLines(con, n = 1L)) > 0L) {   # one request per line
  req <- jsonlite::fromJSON(line)
  out <- tryCatch(nogueira(req$Z, req$options), error = function(e) list(error = conditionMessage(e)))
  cat(if (is.list(out)) jsonlite::toJSON(out, auto_unbox = TRUE) else if (is.na(out)) "null"
      else sprintf("%.17g", out), "\n", sep = "")
  flush(stdout())
}
