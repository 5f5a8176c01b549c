# The Python interpreter: /usr/bin/python3 unless the user chooses another.

rscript <- function(code, env = character()) {
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)),
                                  stdout = TRUE, stderr = TRUE, env = env))
  paste(out, collapse = "\n")
}

test_that("the option propstab.python chooses the interpreter, with a clear error", {
  out <- rscript(paste0("options(propstab.python = '/nonexistent/python3'); ",
                        "library(propstab); stabilityNogueira(list(1:2, 2:3), p = 4)"))
  expect_match(out, "the Python interpreter '/nonexistent/python3' does not exist")
  out <- rscript("library(propstab); stabilityNogueira(list(1:2, 2:3), p = 4)",
                 env = "PROPSTAB_PYTHON=/nonexistent/python3")
  expect_match(out, "'/nonexistent/python3' does not exist")
})

test_that("by default propstab runs in /usr/bin/python3", {
  skip_if(nzchar(Sys.getenv("PROPSTAB_PYTHON")) || !is.null(getOption("propstab.python")) ||
            nzchar(Sys.getenv("RETICULATE_PYTHON")), "another interpreter was chosen")
  stabilityNogueira(list(1:2, 2:3), p = 4)
  expect_identical(normalizePath(reticulate::py_config()$python),
                   normalizePath("/usr/bin/python3"))
})
