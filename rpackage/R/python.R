# The Python side: which interpreter, the front-end module, and calls whose Python
# errors and warnings become R conditions carrying propstab's message.

.state <- new.env(parent = emptyenv())

# The interpreter to use when Python is not running yet in this R session.
.python_path <- function() {
  option <- getOption("propstab.python")
  if (!is.null(option)) return(option)
  for (variable in c("PROPSTAB_PYTHON", "RETICULATE_PYTHON")) {
    value <- Sys.getenv(variable, "")
    if (nzchar(value)) return(value)
  }
  "/usr/bin/python3"
}

# The Python module propstab.r._frontend, imported on first use. Python starts in the
# chosen interpreter: RETICULATE_PYTHON is set while reticulate starts it (it outranks
# reticulate's own discovery, e.g. of a pyproject.toml in the working directory) and
# restored afterwards.
.frontend <- function() {
  if (is.null(.state$frontend)) {
    if (!reticulate::py_available(initialize = FALSE)) {
      python <- .python_path()
      if (!file.exists(python)) {
        stop(sprintf(paste0(
          "propstab: the Python interpreter '%s' does not exist; install propstab's Python ",
          "side (scripts/setup.sh) or choose an interpreter with ",
          "options(propstab.python = \"/path/to/python\") or the environment variable ",
          "PROPSTAB_PYTHON before the first call"), python), call. = FALSE)
      }
      old <- Sys.getenv("RETICULATE_PYTHON", unset = NA)
      Sys.setenv(RETICULATE_PYTHON = python)
      on.exit(if (is.na(old)) Sys.unsetenv("RETICULATE_PYTHON")
              else Sys.setenv(RETICULATE_PYTHON = old), add = TRUE)
    }
    .state$frontend <- tryCatch(
      reticulate::import("propstab.r._frontend"),
      error = function(e) {
        config <- reticulate::py_config()
        stop(sprintf(paste0(
          "propstab: cannot import the Python package propstab (its module ",
          "propstab.r._frontend) in %s: %s. Install it into that interpreter ",
          "(scripts/setup.sh does), or choose another with options(propstab.python = ...) ",
          "in a new R session"), config$python,
          trimws(sub("\n.*", "", conditionMessage(e)))), call. = FALSE)
      })
  }
  .state$frontend
}

# A Python error or warning record as an R condition, classes most specific first:
# propstab_<PythonClass>, propstab_error (or propstab_warning), error (warning), condition.
.condition <- function(record, type, call) {
  structure(
    class = c(paste0("propstab_", record$class), paste0("propstab_", type), type, "condition"),
    list(message = record$message, call = call, python_class = record$class,
         python_traceback = record$traceback))
}

# Calls the front end's entry point with named arguments; Python's warnings become R
# warnings and its error an R error, each with propstab's message (the Python traceback
# stays in the condition's python_traceback field, not in the message).
.call <- function(entry, ..., call = sys.call(-1L)) {
  out <- .frontend()$invoke(entry, list(...))
  for (w in out$warnings) warning(.condition(w, "warning", call))
  if (!is.null(out$error)) stop(.condition(out$error, "error", call))
  out$value
}

# A measure's value as R reports it: undefined (NaN) is NA.
.na <- function(value) {
  if (is.nan(value)) NA_real_ else value
}
