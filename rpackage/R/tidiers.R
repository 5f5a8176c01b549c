# broom-style tidiers: tidy() and glance() methods for a propstab_estimate, registered
# for the generics of the package generics (which broom re-exports) when it is loaded:
# at library(propstab) if it already is, else when it loads (no hard dependency, and
# loading propstab does not load generics). stability_test()'s htest objects have broom's
# own tidy.htest().

# tidy(): one row per estimate: term (the measure), estimate, std.error and, with
# conf.int = TRUE, conf.low and conf.high (propstab's interval: confint(method =)).
.tidy_estimate <- function(x, conf.int = FALSE, conf.level = 0.95, conf.method = "auto",
                           ...) {
  checkmate::assertFlag(conf.int)
  out <- data.frame(term = x$measure, estimate = x$estimate, std.error = x$std.error,
                    stringsAsFactors = FALSE)
  if (conf.int) {
    ci <- stats::confint(x, level = conf.level, method = conf.method)
    out$conf.low <- ci[1L, 1L]
    out$conf.high <- ci[1L, 2L]
  }
  out
}

# glance(): one row describing the estimate: the measure, runs, features, the variance
# that ran and the interpretation on the thesis's Table 6.1 scale.
.glance_estimate <- function(x, ...) {
  data.frame(measure = x$measure, n.runs = x$n.runs, n.features = x$n.features,
             variance.method = x$method,
             variance.source = .variance_source(x$method, x$variance.source,
                                                x$variance.note, x$variance),
             interpretation = x$interpretation, stringsAsFactors = FALSE)
}

.register_tidiers <- function(...) {
  ns <- asNamespace("generics")
  registerS3method("tidy", "propstab_estimate", .tidy_estimate, envir = ns)
  registerS3method("glance", "propstab_estimate", .glance_estimate, envir = ns)
}

.onLoad <- function(libname, pkgname) {
  if (isNamespaceLoaded("generics")) .register_tidiers()
  setHook(packageEvent("generics", "onLoad"), .register_tidiers)
  invisible()
}
