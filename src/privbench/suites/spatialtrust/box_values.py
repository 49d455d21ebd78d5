"""The boxes a model wrote, in whatever shape it wrote them, as lists of four numbers.

Why: a box is the same box whether a model writes ``[812, 140, 1010, 420]``, two corner
points ``[[812, 140], [1010, 420]]``, an object ``{"x1": 812, …}`` or
``{"bbox_2d": […]}``, Qwen-VL's ``<|box_start|>(812,140),(1010,420)<|box_end|>``
tokens, InternVL's ``<box>[[812, 140, 1010, 420]]</box>``, DeepSeek-VL2's
``<|det|>[[…]]<|/det|>`` or prose ``(812, 140, 1010, 420)``. Which *convention* the
numbers are in (pixels, 0–1000, y first …) is not decided here:
:func:`privbench.suites.spatialtrust.boxes.check_box` converts and checks each box. A value that
holds no box shape is returned as it is, so it is listed as invalid with its reason,
never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

BOX_KEYS = (
    "boxes",
    "evidence",
    "bbox_2d",
    "bbox",
    "box_2d",
    "box",
    "bboxes",
    "bounding_box",
    "bounding_boxes",
    "coordinates",
    "coords",
    "detections",
)
"""Keys under which models and tools put boxes: ``boxes`` (privbench's format),
``evidence`` (the dataset's own key), ``bbox_2d`` (Qwen2.5-VL, Qwen3-VL), ``box_2d``
(Gemini), ``bbox``/``box`` and the rest (other tools)."""

_CORNERS = (
    ("x1", "y1", "x2", "y2"),
    ("xmin", "ymin", "xmax", "ymax"),
    ("left", "top", "right", "bottom"),
)
_SIZES = (("x", "y", "width", "height"), ("x", "y", "w", "h"))

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
NUMBER = re.compile(_NUMBER)
_TOKEN_BOX = re.compile(
    r"<\|box_start\|>(.*?)<\|box_end\|>|<box>(.*?)</box>|<\|det\|>(.*?)<\|/det\|>"
    r"|<\|begin_of_box\|>([^A-Za-z]*?)<\|end_of_box\|>",
    re.DOTALL,
)
"""Grounding tokens: Qwen2-VL/Qwen-VL ``<|box_start|>``, InternVL ``<box>``, DeepSeek-VL2
``<|det|>``, GLM's ``<|begin_of_box|>`` around coordinates."""
_SEP = r"\s*,\s*"
_PLAIN_BOX = re.compile(
    rf"[\[(]\s*({_NUMBER}){_SEP}({_NUMBER}){_SEP}({_NUMBER}){_SEP}({_NUMBER})\s*[\])]"
    rf"|\(\s*({_NUMBER}){_SEP}({_NUMBER})\s*\){_SEP}\(\s*({_NUMBER}){_SEP}({_NUMBER})\s*\)"
    rf"|\[\s*\[\s*({_NUMBER}){_SEP}({_NUMBER})\s*\]{_SEP}\[\s*({_NUMBER}){_SEP}({_NUMBER})\s*\]\s*\]"
)
"""Four coordinates in prose: ``(x1, y1, x2, y2)``, ``[x1, y1, x2, y2]``,
``(x1, y1), (x2, y2)``, ``[[x1, y1], [x2, y2]]``, ``x1 = 180, y1 = 254, x2 = 370, y2 = 808``
or four bare integers ``1163,282,1309,727`` (Qwen2.5-VL's plain-text boxes)."""
_NAMED = r"\s*[=:]\s*"
_NAMED_BOX = re.compile(
    rf"\bx_?1{_NAMED}({_NUMBER})\s*,?\s*y_?1{_NAMED}({_NUMBER})\s*,?\s*"
    rf"x_?2{_NAMED}({_NUMBER})\s*,?\s*y_?2{_NAMED}({_NUMBER})",
    re.IGNORECASE,
)
_CORNER_WORDS = re.compile(
    rf"top[- ]?left\W*\(\s*({_NUMBER}){_SEP}({_NUMBER})\s*\)\W*(?:and\s+|to\s+)?"
    rf"bottom[- ]?right\W*\(\s*({_NUMBER}){_SEP}({_NUMBER})\s*\)",
    re.IGNORECASE,
)
_KEYED = r"[\"']?\s*[:=]\s*"
_KEYED_BOX = re.compile(
    rf"\{{\s*[\"']?(?:xmin|x1|left){_KEYED}({_NUMBER})\s*,\s*[\"']?(?:ymin|y1|top){_KEYED}({_NUMBER})"
    rf"\s*,\s*[\"']?(?:xmax|x2|right){_KEYED}({_NUMBER})\s*,\s*[\"']?(?:ymax|y2|bottom){_KEYED}({_NUMBER})\s*\}}",
    re.IGNORECASE,
)
_BARE_BOX = re.compile(r"(?<![\w.,\[(])(\d+),\s?(\d+),\s?(\d+),\s?(\d+)(?![\w.,\])])")


def is_scalar(value: object) -> bool:
    """Not a list, tuple or object: one coordinate of a box (or something that is none)."""
    return not isinstance(value, list | tuple | dict)


def _numbers(text: str) -> list[float | str]:
    return [float(n) if abs(float(n)) < 1e300 else n for n in NUMBER.findall(text)]


def boxes_in_string(text: str) -> list[object]:
    """The boxes written in a string (grounding tokens or a list of numbers).

    A string that is one box's numbers (``"812, 140, 1010, 420"``) is one box; numbers
    in a multiple of four inside grounding tokens are that many boxes; anything else is
    returned whole (invalid: not four numbers).
    """
    tokens = [next(g for g in m.groups() if g is not None) for m in _TOKEN_BOX.finditer(text)]
    boxes: list[object] = []
    for inner in tokens or [text]:
        numbers = _numbers(inner)
        if numbers and len(numbers) % 4 == 0 and (tokens or len(numbers) == 4):
            boxes += [numbers[i : i + 4] for i in range(0, len(numbers), 4)]
        else:
            boxes.append(inner if tokens else text)
    return boxes


def string_boxes(text: str) -> list[list[float | str]] | None:
    """The boxes a string holds when all of it reads as boxes (grounding tokens, one box's
    numbers in any bracket), else None (a lone number, words, a count that is not four)."""
    boxes = boxes_in_string(text)
    if boxes and all(isinstance(box, list) for box in boxes):
        return [box for box in boxes if isinstance(box, list)]
    return None


def keyed_box(value: Mapping[object, object]) -> object | None:
    """The box of an object that is one (``x1``…``y2``, ``x, y, width, height``) or holds
    one under a box key; None when it has neither."""
    for box_key in BOX_KEYS:  # the common case: a lower-case box key
        if box_key in value:
            found: object = value[box_key]
            return found
    lowered: dict[str, object] = {str(k).lower(): v for k, v in value.items()}
    for names in _CORNERS:
        if all(name in lowered for name in names):
            return [lowered[name] for name in names]
    for names in _SIZES:
        if all(name in lowered for name in names):
            x, y, w, h = (lowered[name] for name in names)
            if (
                isinstance(x, int | float)
                and isinstance(y, int | float)
                and isinstance(w, int | float)
                and isinstance(h, int | float)
            ):
                return [x, y, x + w, y + h]
            return [x, y, w, h]
    key = next((key for key in BOX_KEYS if key in lowered), None)
    return None if key is None else lowered[key]


def box_values(value: object) -> list[object]:
    """Every box a value holds, each as written (``None``: no box).

    A flat list of four scalars is one box; two points are one box; a list of boxes is
    each; a string is read by :func:`boxes_in_string`, and a list of strings that each
    read as boxes is those boxes; an object by :func:`keyed_box`.
    """
    if value is None:
        return []
    if type(value) is list and len(value) == 4 and all(type(v) in (int, float) for v in value):
        return [value]  # the common case: one box of four numbers
    if isinstance(value, str):
        return boxes_in_string(value)
    if isinstance(value, dict):
        inner = keyed_box(value)
        return [value] if inner is None else box_values(inner)
    if isinstance(value, list | tuple):
        if not value:
            return []
        if all(isinstance(v, str) for v in value):
            # boxes written as strings inside JSON (``["[812, 140, 1010, 420]"]``): each
            # string is read as a string box; four number strings stay one box as before
            read = [string_boxes(v) for v in value]
            if all(boxes is not None for boxes in read):
                return [box for boxes in read for box in boxes or ()]
        if len(value) == 4 and all(is_scalar(v) for v in value):
            return [list(value)]
        if (
            len(value) == 2
            and all(isinstance(p, list | tuple) and len(p) == 2 for p in value)
            and all(is_scalar(v) for p in value for v in p)
        ):
            return [[*value[0], *value[1]]]
        if all(is_scalar(v) for v in value):
            return [list(value)]  # a flat list that is not four numbers: one invalid box
        return [box for part in value for box in box_values(part)]
    return [value]


def plain_boxes(text: str) -> list[tuple[int, int, list[list[float | str]]]]:
    """Coordinates written in prose or tokens, in order: (start, end, boxes) per span —
    one grounding token may hold several boxes (``<box>[[…], […]]</box>``)."""
    found: list[tuple[int, int, list[list[float | str]]]] = []
    for match in _TOKEN_BOX.finditer(text):
        inner = next(g for g in match.groups() if g is not None)
        numbers = _numbers(inner)
        if numbers and len(numbers) % 4 == 0:
            boxes = [numbers[i : i + 4] for i in range(0, len(numbers), 4)]
            found.append((match.start(), match.end(), boxes))
    blanked = _TOKEN_BOX.sub(lambda m: " " * len(m.group()), text)
    for pattern in (_KEYED_BOX, _CORNER_WORDS, _PLAIN_BOX, _NAMED_BOX, _BARE_BOX):
        for match in pattern.finditer(blanked):
            plain: list[float | str] = [float(g) for g in match.groups() if g is not None]
            found.append((match.start(), match.end(), [plain]))
        blanked = pattern.sub(lambda m: " " * len(m.group()), blanked)
    return sorted(found, key=lambda entry: entry[0])
