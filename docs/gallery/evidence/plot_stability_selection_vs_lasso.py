"""
How stable is stability selection, compared with the lasso?
===========================================================

Thesis sec. 6.2.2, on scikit-learn's diabetes and breast cancer data: on each of M
bootstraps, the lasso with its penalty chosen by cross-validation (one-standard-error
rule) and stability selection with several cutoffs and numbers of selected variables;
Nogueira's stability of each procedure with its 95 % interval, and the paired test of
equal stability (both procedures ran on the same bootstraps).

The script is ``examples/stability_selection_vs_lasso.py``, run here in its ``--quick``
mode. The full run and its discussion: :doc:`/stability_selection`.
"""
import tempfile

from _script import run_script

figures_dir = tempfile.mkdtemp()        # the gallery shows the PNG files saved here
run_script("examples/stability_selection_vs_lasso.py", "--quick", "--figures", figures_dir)
