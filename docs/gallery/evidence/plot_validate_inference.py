"""
Validation of the confidence intervals and tests by simulation
==============================================================

Thesis sec. 6.1: consistency of Nogueira's estimator as M grows, coverage of the
confidence intervals (thesis Tables 6.2 and 6.3), the distribution of the test
statistic under the null hypothesis (thesis Fig. 6.4), coverage of the jackknife
intervals of other measures, and the level and power of the paired two-sample test.
Each study ends with a pass/fail check; a failed check fails this site's build.

The script is ``studies/validate_inference.py``, run here in its ``--quick`` mode
(hundreds of repeats instead of thousands). The full run: :doc:`/inference_validation`.
"""
import tempfile

from _script import run_script

figures_dir = tempfile.mkdtemp()        # the gallery shows the PNG files saved here
run_script("studies/validate_inference.py", "--quick", "--figures", figures_dir)
