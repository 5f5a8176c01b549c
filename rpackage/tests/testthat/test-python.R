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
  skip_if_no_propstab()
  skip_if(nzchar(Sys.getenv("PROPSTAB_PYTHON")) || !is.null(getOption("propstab.python")) ||
            nzchar(Sys.getenv("RETICULATE_PYTHON")), "another interpreter was chosen")
  stabilityNogueira(list(1:2, 2:3), p = 4)
  expect_identical(normalizePath(reticulate::py_config()$python),
                   normalizePath("/usr/bin/python3"))
})

# The R package's source (under pkgload::load_all) or its installed copy, for a new R
# process to load the same package.
load_code <- function() {
  path <- getNamespaceInfo("propstab", "path")
  if (dir.exists(file.path(path, "R")) && file.exists(file.path(path, "DESCRIPTION")) &&
      !file.exists(file.path(path, "Meta", "package.rds"))) {
    sprintf("pkgload::load_all('%s', quiet = TRUE)", path)
  } else {
    sprintf("library(propstab, lib.loc = '%s')", dirname(path))
  }
}

test_that("a folder named propstab in the working directory does not shadow Python's", {
  skip_if_no_propstab()
  skip_if_not_installed("pkgload")
  # Python finds propstab only through a meta-path finder, as in an editable install
  # (scripts/setup.sh): a folder propstab/ without __init__.py on sys.path (the working
  # directory; R CMD check's propstab.Rcheck/ holds the installed R package propstab/)
  # would otherwise become a namespace package and the import fail
  package <- reticulate::py_eval("__import__('propstab').__path__[0]")
  finder <- tempfile("finder")
  work <- tempfile("work")
  dir.create(finder)
  dir.create(file.path(work, "propstab"), recursive = TRUE)
  writeLines(c(
    "import importlib.abc, importlib.util, os, sys",
    "class _Finder(importlib.abc.MetaPathFinder):",
    "    def find_spec(self, name, path=None, target=None):",
    "        if name != 'propstab':",
    "            return None",
    sprintf("        init = os.path.join(%s, '__init__.py')", deparse(package)),
    "        return importlib.util.spec_from_file_location(",
    "            name, init, submodule_search_locations=[os.path.dirname(init)])",
    "import importlib.machinery as _m",       # right after the search of sys.path
    "sys.meta_path.insert(sys.meta_path.index(_m.PathFinder) + 1, _Finder())"),
    file.path(finder, "sitecustomize.py"))
  old <- setwd(work)
  on.exit(setwd(old), add = TRUE)
  code <- paste0(load_code(), "; cat('value', stabilityJaccard(list(1:2, 2:3)), '\\n'); ",
                 "cat('from', reticulate::py_eval(\"__import__('propstab').__file__\"))")
  out <- rscript(code, env = c(paste0("PYTHONPATH=", finder), "PROPSTAB_PYTHON=",
                               "RETICULATE_PYTHON="))
  expect_match(out, "value 0.3333333", fixed = TRUE)
  expect_match(out, paste0("from ", file.path(package, "__init__.py")), fixed = TRUE)
})

test_that("without Python's side, propstab_available() is FALSE and examples skip", {
  skip_if_not_installed("pkgload")
  code <- paste0(load_code(), "; ok <- propstab_available(); cat('available', ok, '\\n'); ",
                 "cat('reason', attr(ok, 'reason'), '\\n'); ",
                 "path <- getNamespaceInfo('propstab', 'path'); ",
                 "rd <- if (dir.exists(file.path(path, 'man'))) ",
                 "tools::parse_Rd(file.path(path, 'man', 'stabilityJaccard.Rd')) else ",
                 "tools::Rd_db('propstab')[['stabilityJaccard.Rd']]; ",
                 "f <- tempfile(fileext = '.R'); tools::Rd2ex(rd, f); ",
                 "cat('guarded', any(grepl('propstab_available()', readLines(f), fixed = TRUE)), '\\n'); ",
                 "source(f, echo = FALSE); cat('examples done\\n')")
  out <- rscript(code, env = "PROPSTAB_PYTHON=/nonexistent/python3")
  expect_match(out, "available FALSE", fixed = TRUE)
  expect_match(out, "reason propstab: the Python interpreter '/nonexistent/python3'",
               fixed = TRUE)
  expect_match(out, "guarded TRUE", fixed = TRUE)
  expect_match(out, "examples done", fixed = TRUE)
  expect_false(grepl("Error", out))
})
