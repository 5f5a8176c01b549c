# Skips the rest of a test file when propstab's Python side (the interpreter or the Python
# package) is not available, as on a machine without it (CRAN's).
skip_if_no_propstab <- function() {
  ok <- propstab_available()
  testthat::skip_if_not(ok, paste("propstab's Python side is not available:",
                                  attr(ok, "reason")))
}
