#' propstab: the stability of feature selection, from R
#'
#' The R interface to the Python library propstab, through reticulate.
#'
#' \itemize{
#' \item **stabm's functions**, same names, arguments and values: [stabm_pairs],
#'   [stabm_frequencies], [stabm_similar]; where propstab deliberately differs from
#'   stabm (stabm's documented defects), the help pages say so and
#'   [stabm_differences()] lists each case with an example.
#' \item **Every registered measure**: [stability()] and [list_measures()];
#'   stabm-style names for some that stabm lacks: [more_measures].
#' \item **Inference**: [stability_estimate()] (variance, confidence interval) and
#'   [stability_test()] (one- and two-sample tests as `htest` objects).
#' \item **The axiom audit** of a measure written in R: [audit_measure()].
#' }
#'
#' @section Python:
#' The package calls propstab's Python side (its R front end, a module of the Python package) in the
#' interpreter chosen, on first use, as the first of: the option `propstab.python`, the
#' environment variables `PROPSTAB_PYTHON` and `RETICULATE_PYTHON`, and
#' `/usr/bin/python3`. Install the Python package into that interpreter with
#' `python3 -m pip install propstab` (or from R: `reticulate::py_install("propstab")`,
#' into reticulate's environment, then point `propstab.python` at it). When reticulate
#' already runs another Python in the session, that one is used: reticulate cannot
#' switch interpreters within an R session, and the error says so. Python's
#' errors arrive as R errors with propstab's message and classes `propstab_<class>`
#' (e.g. `propstab_ValueError`), `propstab_error`, `error`; its warnings as R warnings
#' of classes `propstab_<class>` (e.g. `propstab_UndefinedMeasureWarning`),
#' `propstab_warning`, `warning`. The Python traceback is kept in the condition's
#' `python_traceback` field.
#' @keywords internal
"_PACKAGE"
