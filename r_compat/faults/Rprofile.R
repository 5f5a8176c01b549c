# Fault injection for r_compat/test_bridge_faults.py: used as R_PROFILE_USER in a child
# process (R, and rpy2's embedded R, read it at start-up). Nothing is uninstalled:
#
# PROPSTAB_TEST_R_LIBRARY=DIR   R's library paths become DIR and R's own library only
#                               (DIR holds links to every other package but the ones a
#                               test hides), so a hidden package is missing.
# PROPSTAB_TEST_R_FAIL_AFTER=N  stabm::stabilityJaccard raises an R error from its
#                               (N + 1)-th call on: R failing in the middle of a run.
local({
  lib <- Sys.getenv("PROPSTAB_TEST_R_LIBRARY")
  if (nzchar(lib)) {
    base <- baseenv()
    if (bindingIsLocked(".Library.site", base)) unlockBinding(".Library.site", base)
    assign(".Library.site", character(0), envir = base)
    .libPaths(lib)
  }
  after <- as.integer(Sys.getenv("PROPSTAB_TEST_R_FAIL_AFTER", "0"))
  if (after > 0) setHook(packageEvent("stabm", "onLoad"), function(...) {
    ns <- asNamespace("stabm")
    calls <- 0L
    tick <- function() {
      calls <<- calls + 1L
      calls > after
    }
    original <- get("stabilityJaccard", envir = ns)
    failing <- original                       # the same arguments, one more statement
    body(failing) <- substitute({
      if (TICK()) stop("simulated R failure after ", AFTER, " calls")
      BODY
    }, list(TICK = tick, AFTER = after, BODY = body(original)))
    unlockBinding("stabilityJaccard", ns)
    assign("stabilityJaccard", failing, envir = ns)
    lockBinding("stabilityJaccard", ns)
  })
})
