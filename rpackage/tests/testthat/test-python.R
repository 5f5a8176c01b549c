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
  # how to install the Python package, without the repository's scripts
  expect_match(out, "pip install propstab", fixed = TRUE)
  expect_match(out, "reticulate::py_install(\"propstab\")", fixed = TRUE)
  expect_no_match(out, "setup.sh", fixed = TRUE)
})

# A folder whose Python package `propstab` fails to import, to put first on PYTHONPATH:
# an interpreter without propstab, as far as the R package can tell.
no_propstab <- function() {
  dir <- tempfile("nopropstab")
  dir.create(file.path(dir, "propstab"), recursive = TRUE)
  writeLines("raise ImportError('propstab is not installed here')",
             file.path(dir, "propstab", "__init__.py"))
  dir
}

test_that("without the Python package, the error says how to install it", {
  skip_if_not(file.exists("/usr/bin/python3"), "no /usr/bin/python3")
  out <- rscript("library(propstab); stabilityNogueira(list(1:2, 2:3), p = 4)",
                 env = c(paste0("PYTHONPATH=", no_propstab()),
                         "PROPSTAB_PYTHON=/usr/bin/python3", "RETICULATE_PYTHON="))
  expect_match(out, "cannot import the Python package propstab", fixed = TRUE)
  expect_match(out, "propstab is not installed here", fixed = TRUE)
  expect_match(out, "-m pip install propstab", fixed = TRUE)
  expect_match(out, "reticulate::py_install(\"propstab\")", fixed = TRUE)
  expect_no_match(out, "already bound", fixed = TRUE)
  # reticulate bound to an interpreter before propstab's first call: only a new R
  # session can choose another, and the message says so
  out <- rscript(paste0("invisible(reticulate::py_config()); ",
                        "options(propstab.python = '/nonexistent/python3'); ",
                        "library(propstab); stabilityNogueira(list(1:2, 2:3), p = 4)"),
                 env = c(paste0("PYTHONPATH=", no_propstab()),
                         "RETICULATE_PYTHON=/usr/bin/python3", "PROPSTAB_PYTHON="))
  expect_match(out, "reticulate was already bound to", fixed = TRUE)
  expect_match(out, "in a new R session", fixed = TRUE)
  expect_no_match(out, "does not exist", fixed = TRUE)
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
  # every help page's examples run without error where Python is missing (CRAN's
  # machines): those that need it are under @examplesIf propstab_available()
  code <- paste0(load_code(), "; path <- getNamespaceInfo('propstab', 'path'); ",
                 "db <- if (dir.exists(file.path(path, 'man'))) ",
                 "lapply(stats::setNames(nm = list.files(file.path(path, 'man'), ",
                 "full.names = TRUE)), tools::parse_Rd) else tools::Rd_db('propstab'); ",
                 "for (name in names(db)) { f <- tempfile(fileext = '.R'); ",
                 "tools::Rd2ex(db[[name]], f); if (!file.exists(f)) next; ",
                 "r <- tryCatch({ source(f, echo = FALSE, local = new.env()); 'ok' }, ",
                 "error = function(e) conditionMessage(e)); ",
                 "cat('example', basename(name), r, '\\n') }")
  out <- rscript(code, env = "PROPSTAB_PYTHON=/nonexistent/python3")
  results <- regmatches(out, gregexpr("example [^ ]+ [^\n]*", out))[[1L]]
  expect_gt(length(results), 20L)
  expect_identical(grep(" ok *$", results, invert = TRUE, value = TRUE), character(0))
})
