# Skips the rest of a test file when propstab's Python side (the interpreter or the Python
# package) is not available, as on a machine without it (CRAN's).
skip_if_no_propstab <- function() {
  ok <- propstab_available()
  testthat::skip_if_not(ok, paste("propstab's Python side is not available:",
                                  attr(ok, "reason")))
}

# Evaluates `expr` (calls of propstab's Python side through reticulate, the tests' twins
# of an R function) recording the Python warnings they raise, which would otherwise be
# printed by Python ("sys:1: SmallSampleWarning: ...") beside the test's output: the
# value and the classes of the warnings, for the test to assert.
py_warning_classes <- function(expr) {
  w <- reticulate::import("warnings", convert = FALSE)
  recorder <- w$catch_warnings(record = TRUE)
  caught <- recorder$`__enter__`()
  w$simplefilter("always")
  value <- tryCatch(expr, finally = recorder$`__exit__`(NULL, NULL, NULL))
  classes <- vapply(seq_len(reticulate::py_len(caught)) - 1L, function(i) {
    reticulate::py_to_r(reticulate::py_get_item(caught, i)$category$`__name__`)
  }, "")
  list(value = value, classes = sort(unique(classes)))
}
