"""Imports the Python module propstab.r._frontend for the R package propstab.

Run by the R package (R/python.R, .import_frontend()) with reticulate::py_run_file() in
a local namespace. Every sys.path entry that holds a folder ``propstab`` without
``__init__.py`` is left out during the import: Python would otherwise make such a folder
(the installed R package in R CMD check's propstab.Rcheck/, or any such folder in the
working directory) a namespace package ``propstab`` when the real package is found only
by a meta-path finder, as an editable install's is, and the import would fail with
"cannot import name ... (unknown location)". A namespace package ``propstab`` imported
earlier in the session is forgotten first. sys.path is restored afterwards.
"""


def _propstab_import():
    # (the imports are local: reticulate runs this file with separate global and local
    # namespaces, where module-level names are not visible inside functions)
    import importlib
    import os
    import sys

    def shadows(entry):
        folder = os.path.join(entry or os.getcwd(), "propstab")
        return os.path.isdir(folder) and not os.path.isfile(os.path.join(folder, "__init__.py"))

    old = sys.modules.get("propstab")
    if old is not None and getattr(old, "__file__", None) is None:
        for name in [n for n in sys.modules if n == "propstab" or n.startswith("propstab.")]:
            del sys.modules[name]
    saved = list(sys.path)
    sys.path[:] = [entry for entry in saved if not shadows(entry)]
    try:
        importlib.invalidate_caches()
        importlib.import_module("propstab.r._frontend")
    finally:
        sys.path[:] = saved


_propstab_import()
