"""The perspective transform both generators warp pictures with (Pillow's coefficients).

Why solved here: Pillow's ``Image.Transform.PERSPECTIVE`` takes the eight coefficients
of the map from each *output* pixel to the *input* pixel it samples, not the corner
points; they are the solution of the 8 × 8 linear system the four corner pairs give.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Point = tuple[float, float]


def perspective_coefficients(source: Sequence[Point], target: Sequence[Point]) -> list[float]:
    """Coefficients for ``Image.transform(..., PERSPECTIVE, ...)`` that carry the four
    ``source`` corners of the input onto the four ``target`` points of the output."""
    rows: list[list[float]] = []
    values: list[float] = []
    for (x, y), (u, v) in zip(target, source, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        values.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values.append(v)
    solution = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(values, dtype=np.float64))
    return [float(c) for c in solution]
