"""
Stability against the size of groups of correlated features
===========================================================

Hamer and Dupont (2021), sec. 6.1, at reduced scale: five groups of q correlated
features; a group-selecting selector and the lasso, each on bootstrap samples. Classical
measures (``nogueira``) see the lasso's swaps between correlated features as
instability; the measures for correlated spaces (``sechidis``, ``msi``, ``pearson``,
``pogr``) do not, or less.

The script is ``studies/hamer_simulation.py``, run here in its ``--quick`` mode
(q in 1, 4, 8; M = 8; one data set). The full run and its discussion:
:doc:`/correlated`.
"""
import tempfile

from _script import run_script

figures_dir = tempfile.mkdtemp()        # the gallery shows the PNG files saved here
run_script("studies/hamer_simulation.py", "--quick", "--out", figures_dir)
