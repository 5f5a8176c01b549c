"""
Stability versus likelihood of the L1 logistic regression
=========================================================

Thesis sec. 6.2.1, on Kamkar et al.'s synthetic data (100 features, the first 50
relevant, redundancy rho among them): for each penalty on a grid, M bootstraps are
fitted with L1-regularised logistic regression; the figures show Nogueira's stability
and the out-of-bag log-likelihood with their 95 % intervals, the Pareto front, and the
selection frequencies at the two chosen penalties (maximal likelihood, and the most
stable penalty within a tolerance of the best likelihood).

The script is ``examples/kamkar_l1_logistic.py``; here it runs in its ``--quick`` mode
(M = 10, fewer penalties). The full run and its discussion: :doc:`/from_data`.
"""
import tempfile

from _script import run_script

figures_dir = tempfile.mkdtemp()        # the gallery shows the PNG files saved here
run_script("examples/kamkar_l1_logistic.py", "--quick", "--figures", figures_dir)
