"""Evidence boxes: the four coordinate conventions models use, converted to pixels.

SpatialTrust scores boxes in absolute pixel ``xyxy`` of the original image (the predictions format).
Models emit boxes in their own conventions; ``box_format`` names the one a model uses, the
prompt asks for it, and :func:`check_box` converts every predicted box before scoring.

Why a box can be *invalid* rather than merely wrong: a box that is negative, inverted,
far outside the image or evidently written in another convention says nothing about the
image; scoring it as IoU 0 would hide a pipeline bug (wrong ``--box-format``, swapped
axes) behind a low score. :func:`check_box` names what is wrong so it can be counted and
listed. The one convention that can be recognised from a single box is 0–1 fractions
(all four numbers within 0–1 is a box of at most one pixel, or one thousandth of the
image); a box within 0–1000 proves nothing, since on an image larger than 1000 pixels
that is an ordinary pixel box.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

Box = tuple[float, float, float, float]
"""Absolute pixel ``(x1, y1, x2, y2)``."""

BoxFormat = Literal["xyxy", "xyxy1000", "yxyx1000", "xyxy1", "qwen25"]

QWEN25_FACTOR = 28
QWEN25_MIN_PIXELS = 56 * 56
QWEN25_MAX_PIXELS = 12_845_056
"""Qwen2.5-VL's image processor (``preprocessor_config.json`` of the released models:
patch 14 merged 2×2 = 28, ``min_pixels`` 3136, ``max_pixels`` 12845056)."""


def qwen25_input_size(width: int, height: int) -> tuple[int, int]:
    """The (width, height) Qwen2.5-VL resizes an image to before it sees it.

    The processor's ``smart_resize``: each side rounded to a multiple of 28, then scaled
    down (floor) or up (ceil) to stay within the pixel limits, keeping the aspect ratio.
    Qwen2.5-VL writes boxes in absolute pixels *of that size*: a 1440×960 capture is
    seen as 1428×952.
    """
    factor = QWEN25_FACTOR
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > QWEN25_MAX_PIXELS:
        beta = math.sqrt(height * width / QWEN25_MAX_PIXELS)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < QWEN25_MIN_PIXELS:
        beta = math.sqrt(QWEN25_MIN_PIXELS / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return w_bar, h_bar


@dataclass(frozen=True)
class BoxConvention:
    """How a model writes a box, and how to read it back as pixels."""

    name: BoxFormat
    description: str
    """For the prompt; ``{width}``/``{height}`` are the image's, ``{input_width}``/
    ``{input_height}`` the size the model sees (Qwen2.5-VL's resize)."""
    convert: Callable[[Sequence[float], int, int], Box]

    def describe(self, width: int, height: int) -> str:
        """The description for an image of this size."""
        input_width, input_height = qwen25_input_size(width, height)
        return self.description.format(
            width=width, height=height, input_width=input_width, input_height=input_height
        )


def _xyxy(v: Sequence[float], width: int, height: int) -> Box:
    return (v[0], v[1], v[2], v[3])


def _xyxy1000(v: Sequence[float], width: int, height: int) -> Box:
    return (v[0] * width / 1000, v[1] * height / 1000, v[2] * width / 1000, v[3] * height / 1000)


def _yxyx1000(v: Sequence[float], width: int, height: int) -> Box:
    return (v[1] * width / 1000, v[0] * height / 1000, v[3] * width / 1000, v[2] * height / 1000)


def _xyxy1(v: Sequence[float], width: int, height: int) -> Box:
    return (v[0] * width, v[1] * height, v[2] * width, v[3] * height)


def _qwen25(v: Sequence[float], width: int, height: int) -> Box:
    seen_width, seen_height = qwen25_input_size(width, height)
    sx, sy = width / seen_width, height / seen_height
    return (v[0] * sx, v[1] * sy, v[2] * sx, v[3] * sy)


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
        BoxConvention(
            "qwen25",
            "[x1, y1, x2, y2] in absolute pixels of the image as you receive it, "
            "{input_width}×{input_height}",
            _qwen25,
        ),
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


_PLAIN = (int, float)


def read_box(value: object) -> tuple[float, float, float, float] | str:
    """Four finite numbers from a model's box value, or why it is not a box."""
    if type(value) is list and len(value) == 4 and all(type(v) in _PLAIN for v in value):
        a, b, c, d = (float(v) for v in value)  # the common case, checked fast
        if math.isfinite(a + b + c + d):
            return (a, b, c, d)
    if not isinstance(value, list | tuple) or len(value) != 4:
        return "not four numbers"
    numbers: list[float] = []
    for part in value:
        if isinstance(part, bool) or not isinstance(part, int | float | str):
            return "not four numbers"
        try:
            number = float(part)
        except (ValueError, OverflowError):
            return "not four numbers"
        if not math.isfinite(number):
            return "not finite (NaN or infinity)"
        numbers.append(number)
    return (numbers[0], numbers[1], numbers[2], numbers[3])


def is_proper(box: Box) -> bool:
    """A box with positive width and height (``x1 < x2`` and ``y1 < y2``)."""
    return box[0] < box[2] and box[1] < box[3]


EDGE_TOLERANCE = 0.02
"""How far a predicted box may cross the image's right or bottom edge, as a share of the
side (2 %: 29 px of a 1440 px width), before it is invalid. Rounding in a normalised
convention and generous boxes around an object at the edge overshoot by a few pixels;
such a box is clipped to the image. Negative coordinates get no tolerance: no convention
produces them."""


def _outside_hint(raw: Sequence[float], convention: BoxConvention, width: int, height: int) -> str:
    """A guess at the convention a box that overshoots the image was written in."""
    largest = max(raw)
    if convention.name == "xyxy1":
        return "; pixels or 0–1000 values? (--box-format xyxy or xyxy1000)"
    if convention.name in ("xyxy1000", "yxyx1000") and largest > 1000:
        return "; pixels? (--box-format xyxy)"
    if convention.name == "xyxy" and largest <= 1000 and max(width, height) < 1000:
        return "; 0–1000 normalised? (--box-format xyxy1000 or yxyx1000)"
    return ""


def check_box(value: object, convention: BoxConvention, width: int, height: int) -> Box | str:
    """A model's box as absolute pixels (clipped to the image), or why it is invalid.

    Invalid: not four finite numbers; any coordinate negative; all four within 0–1 when
    the convention is not ``xyxy1`` (fractions); no area after conversion (``x1 ≥ x2`` or
    ``y1 ≥ y2``, e.g. inverted); beyond the image by more than :data:`EDGE_TOLERANCE`.
    """
    raw = read_box(value)
    if isinstance(raw, str):
        return raw
    if min(raw) < 0:
        return "negative coordinate"
    if convention.name != "xyxy1" and max(raw) <= 1:
        return f"all coordinates within 0–1: fractions (xyxy1), not {convention.name}"
    box = convention.convert(raw, width, height)
    if not is_proper(box):
        return "inverted or empty (x1 ≥ x2 or y1 ≥ y2)"
    if box[2] > width * (1 + EDGE_TOLERANCE) or box[3] > height * (1 + EDGE_TOLERANCE):
        hint = _outside_hint(raw, convention, width, height)
        return f"outside the {width}×{height} image (as {convention.name}){hint}"
    clipped = (box[0], box[1], min(box[2], width), min(box[3], height))
    return clipped if is_proper(clipped) else f"outside the {width}×{height} image"


def to_pixels(value: object, convention: BoxConvention, width: int, height: int) -> Box | None:
    """A model's box as absolute pixels, or None if :func:`check_box` finds it invalid."""
    checked = check_box(value, convention, width, height)
    return None if isinstance(checked, str) else checked


def inside(box: Box, width: int, height: int) -> bool:
    """Whether a box lies within a ``width``×``height`` image."""
    return box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height
