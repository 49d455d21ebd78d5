"""How many reference grades give what interval width: the 95 % bootstrap intervals of a
judge check on random subsets of the shipped calibration set.

The offline judge grades all 2,053 answers of the calibration set (no model, seconds);
for each n, ``--draws`` random subsets of n items are drawn (seeded) and the check's
figures computed on each, with their 1,000-draw bootstrap intervals. Printed: the median
interval width of each figure per n. The widths depend on n and on how the grades are
spread, much less on which judge graded, so they answer "how many reference grades do I
need" for any judge of similar quality.

    .venv/bin/python bench/judge_check_widths.py [--draws 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from privbench.judgecheck.references import shipped_calibration_set
from privbench.judgecheck.statistics import agreement_figures
from privbench.judges import offline

SIZES = (50, 100, 200, 400, 800, 1600)
FIGURES = ("spearman", "icc", "mae", "within_0_1", "kappa_quadratic", "bias")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--draws", type=int, default=20)
    args = parser.parse_args()
    items = shipped_calibration_set().items
    started = time.perf_counter()
    judged = np.array([offline.grade(i.reference, i.prediction, i.question) for i in items])
    reference = np.array([item.score for item in items])
    print(f"graded {len(items)} answers offline in {time.perf_counter() - started:.1f} s")
    rng = np.random.default_rng(0)
    print(f"{'n':>6}  " + "  ".join(f"{name:>15}" for name in FIGURES))
    for n in SIZES:
        widths: dict[str, list[float]] = {name: [] for name in FIGURES}
        for draw in range(args.draws):
            chosen = rng.choice(len(items), size=n, replace=False)
            figures = agreement_figures(
                reference[chosen].tolist(), judged[chosen].tolist(), seed=draw
            )
            for name in FIGURES:
                figure = getattr(figures, name)
                widths[name].append(figure.high - figure.low)
        cells = "  ".join(f"{statistics.median(widths[name]):>15.3f}" for name in FIGURES)
        print(f"{n:>6}  {cells}")
    print("(median width of the 95 % interval; within_0_1 as a share, ×100 for points)")


if __name__ == "__main__":
    main()
