"""Evidence boxes: the four coordinate conventions models use, converted to pixels.

SpatialTrust scores boxes in absolute pixel ``xyxy`` of the original image (SPEC §3.2).
Models emit boxes in their own conventions; ``box_format`` names the one a model uses, the
prompt asks for it, and :func:`to_pixels` converts every predicted box before scoring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

Box = tuple[float, float, float, float]
"""Absolute pixel ``(x1, y1, x2, y2)``."""

BoxFormat = Literal["xyxy", "xyxy1000", "yxyx1000", "xyxy1"]


@dataclass(frozen=True)
class BoxConvention:
    """How a model writes a box, and how to read it back as pixels."""

    name: BoxFormat
    description: str
    convert: Callable[[Sequence[float], int, int], Box]


def _xyxy(v: Sequence[float], width: int, height: int) -> Box:
    return (v[0], v[1], v[2], v[3])


def _xyxy1000(v: Sequence[float], width: int, height: int) -> Box:
    return (v[0] * width / 1000, v[1] * height / 1000, v[2] * width / 1000, v[3] * height / 1000)


def _yxyx1000(v: Sequence[float], width: int, height: int) -> Box:
    return (v[1] * width / 1000, v[0] * height / 1000, v[3] * width / 1000, v[2] * height / 1000)


def _xyxy1(v: Sequence[float], width: int, height: int) -> Box:
    return (v[0] * width, v[1] * height, v[2] * width, v[3] * height)


BOX_CONVENTIONS: dict[str, BoxConvention] = {
    c.name: c
    for c in (
        BoxConvention(
            "xyxy",
            "[x1, y1, x2, y2] in absolute pixels of the {width}×{height} image",
            _xyxy,
        ),
        BoxConvention(
            "xyxy1000",
            "[x1, y1, x2, y2] normalised to 0–1000 (x across the width, y down the height)",
            _xyxy1000,
        ),
        BoxConvention("yxyx1000", "[ymin, xmin, ymax, xmax] normalised to 0–1000", _yxyx1000),
        BoxConvention("xyxy1", "[x1, y1, x2, y2] as fractions 0–1 of the width and height", _xyxy1),
    )
}
BOX_FORMATS: tuple[str, ...] = tuple(BOX_CONVENTIONS)


def get_convention(name: str) -> BoxConvention:
    """The convention called ``name``; ValueError naming the choices otherwise."""
    try:
        return BOX_CONVENTIONS[name]
    except KeyError:
        raise ValueError(
            f"unknown box format '{name}' (choose from {', '.join(BOX_FORMATS)})"
        ) from None


def read_box(value: object) -> tuple[float, float, float, float] | None:
    """Four finite numbers from a model's box value, or None if it is not one."""
    if not isinstance(value, list | tuple) or len(value) != 4:
        return None
    numbers: list[float] = []
    for part in value:
        if isinstance(part, bool) or not isinstance(part, int | float | str):
            return None
        try:
            number = float(part)
        except ValueError:
            return None
        if not math.isfinite(number):
            return None
        numbers.append(number)
    return (numbers[0], numbers[1], numbers[2], numbers[3])


def is_proper(box: Box) -> bool:
    """A box with positive width and height (``x1 < x2`` and ``y1 < y2``)."""
    return box[0] < box[2] and box[1] < box[3]


def to_pixels(value: object, convention: BoxConvention, width: int, height: int) -> Box | None:
    """A model's box as absolute pixels, or None if it is malformed or has no area."""
    raw = read_box(value)
    if raw is None:
        return None
    box = convention.convert(raw, width, height)
    return box if is_proper(box) else None


def inside(box: Box, width: int, height: int) -> bool:
    """Whether a box lies within a ``width``×``height`` image."""
    return box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height
