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
# restored afterwards. The import never picks up a folder named `propstab` without
# `__init__.py` (e.g. the installed R package in R CMD check's propstab.Rcheck/, or any
# such folder in the working directory): see .import_frontend().
.frontend <- function() {
  if (is.null(.state$frontend)) {
    # Python runs in this session only if reticulate started it; loading reticulate's
    # namespace (with Matrix and Rcpp, about 1.4 s) is left to the first real use, so a
    # missing interpreter is reported without it
    running <- isNamespaceLoaded("reticulate") &&
      reticulate::py_available(initialize = FALSE)
    if (!running) {
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
    frontend <- tryCatch(
      .import_frontend(),
      error = function(e) {
        config <- reticulate::py_config()
        stop(sprintf(paste0(
          "propstab: cannot import the Python package propstab (its module ",
          "propstab.r._frontend) in %s: %s. Install it into that interpreter ",
          "(scripts/setup.sh does), or choose another with options(propstab.python = ...) ",
          "in a new R session"), config$python,
          trimws(sub("\n.*", "", conditionMessage(e)))), call. = FALSE)
      })
    .state$invoke <- frontend$invoke
    .state$frontend <- frontend
  }
  .state$frontend
}

# Imports propstab.r._frontend with every sys.path entry that holds a folder `propstab`
# without `__init__.py` left out during the import (Python would otherwise make such a
# folder a namespace package `propstab` when the real package is found only by a
# meta-path finder, as an editable install's is, and the import fails with "cannot import
# name ... (unknown location)"). A namespace package `propstab` imported earlier in the
# session is forgotten first. sys.path is restored afterwards.
.import_frontend <- function() {
  reticulate::py_run_string(paste(
    "def _propstab_import():",
    "    import importlib, os, sys",
    "    def shadow(entry):",
    "        folder = os.path.join(entry or os.getcwd(), 'propstab')",
    "        return (os.path.isdir(folder)",
    "                and not os.path.isfile(os.path.join(folder, '__init__.py')))",
    "    old = sys.modules.get('propstab')",
    "    if old is not None and getattr(old, '__file__', None) is None:",
    "        for name in [n for n in sys.modules if n == 'propstab'",
    "                     or n.startswith('propstab.')]:",
    "            del sys.modules[name]",
    "    saved = list(sys.path)",
    "    sys.path[:] = [e for e in saved if not shadow(e)]",
    "    try:",
    "        importlib.invalidate_caches()",
    "        importlib.import_module('propstab.r._frontend')",
    "    finally:",
    "        sys.path[:] = saved",
    "_propstab_import()",
    sep = "\n"), local = TRUE, convert = FALSE)
  reticulate::import("propstab.r._frontend")       # now in sys.modules
}

#' Is propstab's Python side available?
#'
#' Whether the Python package propstab (with its R front end, a module of the
#' package) can be imported in the interpreter the R package uses (see
#' [propstab-package]). It starts Python on first use, as any call of the package does;
#' it never fails. The package's examples and tests run only where it is `TRUE`.
#'
#' @return `TRUE` or `FALSE`; when `FALSE`, the attribute `reason` says why.
#' @examples
#' propstab_available()
#' @export
propstab_available <- function() {
  ok <- tryCatch({ .frontend(); TRUE }, error = function(e) e)
  if (isTRUE(ok)) return(TRUE)
  structure(FALSE, reason = conditionMessage(ok))
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
  invoke <- .state$invoke
  if (is.null(invoke)) {
    .frontend()
    invoke <- .state$invoke
  }
  out <- invoke(entry, list(...))
  if (length(out$warnings) && !isFALSE(getOption("propstab.warn"))) {
    for (w in out$warnings) warning(.condition(w, "warning", call))
  }
  if (!is.null(out$error)) stop(.condition(out$error, "error", call))
  out$value
}

# A measure's value as R reports it: undefined (NaN) is NA.
.na <- function(value) {
  if (is.nan(value)) NA_real_ else value
}

#' Quiet propstab's warnings
#'
#' propstab warns where stabm is silent: an undefined value (`NA`, class
#' `propstab_UndefinedMeasureWarning`), too few runs for an interval's level
#' (`propstab_SmallSampleWarning`), a degenerate variance
#' (`propstab_DegenerateVarianceWarning`), ... Every such warning has the class
#' `propstab_warning`. `suppressPropstabWarnings(expr)` evaluates `expr` without them
#' (other warnings pass), for one call or a loop; `options(propstab.warn = FALSE)` quiets
#' them for the session (`TRUE` or unset: they are signalled).
#'
#' @param expr The expression to evaluate.
#' @param classes The warning classes to muffle; by default all of propstab's.
#' @return The value of `expr`.
#' @examplesIf propstab_available()
#' feats <- list(integer(0), integer(0), 1L)
#' suppressPropstabWarnings(stabilityJaccard(feats[1:2]))      # NA, quietly
#' old <- options(propstab.warn = FALSE)
#' stabilityJaccard(feats[1:2])
#' options(old)
#' @export
suppressPropstabWarnings <- function(expr, classes = "propstab_warning") {
  withCallingHandlers(expr, warning = function(w) {
    if (inherits(w, classes)) invokeRestart("muffleWarning")
  })
}
