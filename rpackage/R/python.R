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
# such folder in the working directory): see inst/python/propstab_import.py.
.frontend <- function() {
  if (is.null(.state$frontend)) {
    # Python runs in this session only if reticulate started it; loading reticulate's
    # namespace (with Matrix and Rcpp, about 1.4 s) is left to the first real use, so a
    # missing interpreter is reported without it
    running <- isNamespaceLoaded("reticulate") &&
      reticulate::py_available(initialize = FALSE)
    python <- NULL
    if (!running) {
      python <- .python_path()
      if (!file.exists(python)) {
        stop(sprintf(paste0(
          "propstab: the Python interpreter '%s' does not exist. %s, or choose an ",
          "existing interpreter with options(propstab.python = \"/path/to/python\") or ",
          "the environment variable PROPSTAB_PYTHON before the first call"), python,
          .install_hint(NULL)), call. = FALSE)
      }
      .state$started <- python          # Python is started by propstab, in `python`
      old <- Sys.getenv("RETICULATE_PYTHON", unset = NA)
      Sys.setenv(RETICULATE_PYTHON = python)
      on.exit(if (is.na(old)) Sys.unsetenv("RETICULATE_PYTHON")
              else Sys.setenv(RETICULATE_PYTHON = old), add = TRUE)
    }
    frontend <- tryCatch(
      .import_frontend(),
      error = function(e) {
        stop(.import_error(conditionMessage(e), running, python), call. = FALSE)
      })
    .state$invoke <- frontend$invoke
    .state$frontend <- frontend
  }
  .state$frontend
}

# How to install the Python package into `python` (NULL: the interpreter to be chosen).
.install_hint <- function(python) {
  pip <- if (is.null(python)) "python3 -m pip install propstab"
         else sprintf("%s -m pip install propstab", shQuote(python))
  paste0("Install the Python package propstab (Python >= 3.9 with numpy, scipy and ",
         "pandas) with `", pip, "` (or from a source checkout: `python3 -m pip install ",
         "/path/to/propstab`), or from R with `reticulate::py_install(\"propstab\")` into ",
         "reticulate's environment")
}

# The message when propstab.r._frontend cannot be imported: the interpreter reticulate
# runs, why, how to install the package there, and whether reticulate was already bound
# to that interpreter (by an earlier use of reticulate in this session, or by its own
# choice over the one propstab asked for): then only a new R session can change it.
.import_error <- function(reason, running, requested) {
  config <- tryCatch(reticulate::py_config(), error = function(e) NULL)
  used <- if (is.null(config)) "(unknown)" else config$python
  reason <- trimws(sub("\n.*", "", reason))
  same <- !is.null(requested) && !is.null(config) &&
    identical(normalizePath(requested, mustWork = FALSE),
              normalizePath(used, mustWork = FALSE))
  bound <- if (running && !is.null(.state$started)) {
    sprintf(paste0(" Python runs in %s since propstab's first call in this R session; ",
                   "to choose another interpreter, set options(propstab.python = ...) in a ",
                   "new R session."), used)
  } else if (running) {
    sprintf(paste0(" reticulate was already bound to %s in this R session (Python was ",
                   "started before propstab's first call) and cannot switch: install ",
                   "propstab there, or choose another interpreter with ",
                   "options(propstab.python = ...) in a new R session before any other ",
                   "use of reticulate."), used)
  } else if (!is.null(requested) && !same) {
    sprintf(paste0(" reticulate bound this R session to %s, not to the interpreter ",
                   "propstab asked for (%s); restart R to choose again."), used, requested)
  } else {
    paste0(" Or choose another interpreter with options(propstab.python = ",
           "\"/path/to/python\") or PROPSTAB_PYTHON in a new R session.")
  }
  sprintf("propstab: cannot import the Python package propstab (its module %s) in %s: %s. %s.%s",
          "propstab.r._frontend", used, reason, .install_hint(used), bound)
}

# Imports propstab.r._frontend by running inst/python/propstab_import.py (see there why
# not with reticulate::import() directly), then returns the module.
.import_frontend <- function() {
  script <- system.file("python", "propstab_import.py", package = "propstab")
  if (!nzchar(script)) stop("the R package's file inst/python/propstab_import.py is missing")
  reticulate::py_run_file(script, local = TRUE, convert = FALSE)
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
#' `propstab_warning`. `suppress_propstab_warnings(expr)` evaluates `expr` without them
#' (other warnings pass), for one call or a loop; `options(propstab.warn = FALSE)` quiets
#' them for the session (`TRUE` or unset: they are signalled).
#'
#' `suppressPropstabWarnings()` is the same function under the camelCase name of its
#' first release (an alias kept for scripts that use it): the package's own functions
#' are named in snake_case, stabm's keep stabm's camelCase names.
#'
#' @param expr The expression to evaluate.
#' @param classes The warning classes to muffle; by default all of propstab's.
#' @return The value of `expr`.
#' @examplesIf propstab_available()
#' feats <- list(integer(0), integer(0), 1L)
#' suppress_propstab_warnings(stabilityJaccard(feats[1:2]))      # NA, quietly
#' old <- options(propstab.warn = FALSE)
#' stabilityJaccard(feats[1:2])
#' options(old)
#' @export
suppress_propstab_warnings <- function(expr, classes = "propstab_warning") {
  withCallingHandlers(expr, warning = function(w) {
    if (inherits(w, classes)) invokeRestart("muffleWarning")
  })
}

#' @rdname suppress_propstab_warnings
#' @export
suppressPropstabWarnings <- suppress_propstab_warnings
