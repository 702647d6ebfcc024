"""Reference values from SciPy for the stats tests: reads cases from argv[1], writes argv[2].

Input: {"cases": [{"x": [...], "y": [...]}, ...]}. Output per case: Mann-Whitney U (method='auto'),
Hodges-Lehmann shift (median of all x_i - y_j) and scipy.stats.bootstrap's percentile interval of
median(x) at 95%.
"""
import json
import sys

import numpy as np
from scipy import stats


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)["cases"]
    out = []
    for case in cases:
        x = np.array(case["x"], dtype=float)
        y = np.array(case["y"], dtype=float)
        mwu = stats.mannwhitneyu(x, y, alternative="two-sided", method="auto")
        hl = float(np.median(np.subtract.outer(x, y)))
        boot = stats.bootstrap((x,), np.median, confidence_level=0.95, n_resamples=9999,
                               method="percentile", random_state=np.random.default_rng(0))
        out.append({"u": float(mwu.statistic), "p": float(mwu.pvalue), "hl": hl,
                    "median_lo": float(boot.confidence_interval.low),
                    "median_hi": float(boot.confidence_interval.high)})
    with open(sys.argv[2], "w") as f:
        json.dump({"results": out}, f)


if __name__ == "__main__":
    main()
