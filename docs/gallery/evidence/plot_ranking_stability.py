"""
Stability of four feature rankers on the breast cancer data
===========================================================

The ranking family on real data (:doc:`/rankings`): mutual information, random-forest
importances, an L1 logistic regression and recursive feature elimination, each run on
the same bootstraps of scikit-learn's breast cancer data (d = 30). The table gives the
mean pairwise Spearman and Kendall correlations with their 95 % intervals, Jurman's
Canberra indicator, the stability of the top-5 and top-10 sets and the weights'
correlation; the paired tests compare the rankers; the figure shows each feature's rank
distribution under the most and the least stable ranker.

The script is ``examples/ranking_stability_breast_cancer.py``; here it runs in its
``--quick`` mode (M = 10 bootstraps).
"""
import tempfile

from _script import run_script

figures_dir = tempfile.mkdtemp()        # the gallery shows the PNG files saved here
run_script("examples/ranking_stability_breast_cancer.py", "--quick", "--figures",
           figures_dir)
