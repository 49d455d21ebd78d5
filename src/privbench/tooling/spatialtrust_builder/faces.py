"""Blurring every face on a capture but the primary subject's.

Why keep one: a SpatialTrust capture is an authentication capture, so its user — the
person in front of the laptop — is meant to be seen; bystanders in the background are
not, and blurring them is what a team sharing its captures may need. The primary
subject is the largest face; faces within :data:`PRIMARY_TIE` of the largest count as
tied, and of those the one nearest the image centre is the user — provided it is large
enough to be the person at the laptop (:data:`PRIMARY_MIN_HEIGHT`), else every face is
blurred.

The detector is ``yuface`` (libfacedetection's CNN, BSD licence): its weights are
compiled into the wheel's 320 KB library, so nothing is downloaded at run time, and it
needs neither torch nor any other package. Its wheels exist for CPython 3.6–3.11 on
Linux x86-64 and Windows only, so it is an optional dependency there, and
``faces="blur"`` elsewhere stops with a one-line error saying so.

Measured on 40 generated scenes (drawn people, not photographs), end to end: the user's
face was found and kept on 38 of 40 (on the other 2 it was not detected, so not blurred
either), no bystander was ever taken for the user, 5 of the 6 bystanders facing the
camera were blurred, and 4 other regions (posters, patterned cloth) were blurred too;
about 60 ms a capture on one core. On a real photograph (scikit-image's astronaut
portrait) its face is found at confidence 0.93, and pasted 160 px tall beside a large
copy, as a bystander, at 0.85.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from privbench.runtime.errors import UsageError

Pixels = npt.NDArray[np.uint8]
"""An ``H × W × 3`` RGB image (or ``H × W`` grey)."""
FaceBox = tuple[int, int, int, int]
"""Pixel ``(x1, y1, x2, y2)`` of a face."""
Detector = Callable[[Pixels], list[FaceBox]]

DETECT_LONG_SIDE = 960
"""The detector's input is scaled to this long side: yuface warns that larger inputs
degrade its detection, and a 1440 × 960 capture's faces stay well above its smallest."""

DETECT_CONFIDENCE = 0.5
"""yuface's own default score threshold. On the 40 generated scenes: at 0.5 it finds 38
of 40 users and 5 of 6 bystanders, with 4 non-faces among 50 detections; at 0.3, 39/40
and 6/6 with 9 non-faces among 60 (each one blurs a piece of background the questions
may ask about); at 0.7, 33/40 and 5/6 with 2 of 41."""

PRIMARY_MIN_HEIGHT = 0.10
"""A face box shorter than this share of the image height is never the primary subject.

Why: when the detector misses the user, the largest face left is a bystander's, and it
must be blurred, not kept. The user in front of a laptop camera fills much of the
frame: on the 40 generated scenes the detector's boxes on the user are 233–300 px of
960 (24–31 %), on everything else 22–52 px (2–5 %); a real photograph's face scaled to a
close laptop framing (a 600 px tall portrait in the frame) gives a 133 px box (14 %).
"""

PRIMARY_TIE = 0.10
"""Faces whose area is within 10 % of the largest count as equally large (detector
boxes of one face size vary by about that much between frames)."""

FACE_MARGIN = 0.25
"""Each blurred box is grown by a quarter of its size on every side: detector boxes are
tight around eyes and mouth, and hair and ears identify a person too."""

MOSAIC_BLOCKS = 6
"""A blurred face becomes a mosaic this many blocks across, then smoothed: too coarse
to recognise, and unlike a Gaussian blur not invertible by deconvolution."""


def primary_face(faces: Sequence[FaceBox], width: int, height: int) -> int | None:
    """Index of the primary subject's face: the largest, ties → nearest the centre; None
    when no face is tall enough to be the user's (:data:`PRIMARY_MIN_HEIGHT`)."""
    areas = [
        max(0, x2 - x1) * max(0, y2 - y1) if y2 - y1 >= PRIMARY_MIN_HEIGHT * height else 0
        for x1, y1, x2, y2 in faces
    ]
    largest = max(areas, default=0)
    if largest == 0:
        return None
    tied = [i for i, area in enumerate(areas) if area >= largest * (1 - PRIMARY_TIE)]

    def off_centre(i: int) -> float:
        x1, y1, x2, y2 = faces[i]
        return float(((x1 + x2) / 2 - width / 2) ** 2 + ((y1 + y2) / 2 - height / 2) ** 2)

    return min(tied, key=off_centre)


def grown(face: FaceBox, width: int, height: int) -> FaceBox:
    """``face`` grown by :data:`FACE_MARGIN` on every side, clipped to the image."""
    x1, y1, x2, y2 = face
    dx, dy = round((x2 - x1) * FACE_MARGIN), round((y2 - y1) * FACE_MARGIN)
    return max(0, x1 - dx), max(0, y1 - dy), min(width, x2 + dx), min(height, y2 + dy)


def mosaic(region: Pixels) -> Pixels:
    """``region`` as a smoothed :data:`MOSAIC_BLOCKS`-wide mosaic of the same size."""
    import cv2  # here, not at the top: see captures.py

    height, width = region.shape[:2]
    blocks_w = max(1, min(MOSAIC_BLOCKS, width))
    blocks_h = max(1, min(height, round(MOSAIC_BLOCKS * height / max(1, width))))
    coarse = cv2.resize(region, (blocks_w, blocks_h), interpolation=cv2.INTER_AREA)
    blocky = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_NEAREST)
    sigma = max(1.0, width / MOSAIC_BLOCKS / 3)
    return np.asarray(cv2.GaussianBlur(blocky, (0, 0), sigma), dtype=np.uint8)


def blur_faces_but_primary(pixels: Pixels, faces: Sequence[FaceBox]) -> tuple[Pixels, int]:
    """A copy of ``pixels`` with every face but the primary one blurred, and how many."""
    height, width = pixels.shape[:2]
    keep = primary_face(faces, width, height)
    out = pixels.copy()
    blurred = 0
    for index, face in enumerate(faces):
        if index == keep:
            continue
        x1, y1, x2, y2 = grown(face, width, height)
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        out[y1:y2, x1:x2] = mosaic(out[y1:y2, x1:x2])
        blurred += 1
    return out, blurred


def require_detector() -> Detector:
    """The face detector, or a one-line error saying why ``faces="blur"`` cannot run."""
    try:
        yuface = importlib.import_module("yuface")
    except ImportError as error:
        raise UsageError(
            "blurring faces needs the face detector yuface, which is not installed "
            f"({error.msg}); it has wheels for CPython 3.11 and older on Linux x86-64 and "
            "Windows only: install it there with `pip install yuface`, or keep faces"
        ) from None
    detect: Callable[[Pixels, float], tuple[object, object, object]] = yuface.detect

    def detector(pixels: Pixels) -> list[FaceBox]:
        import cv2

        height, width = pixels.shape[:2]
        scale = min(1.0, DETECT_LONG_SIDE / max(width, height))
        small = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        bgr = np.ascontiguousarray(cv2.cvtColor(small, cv2.COLOR_RGB2BGR), dtype=np.uint8)
        _, boxes, _ = detect(bgr, DETECT_CONFIDENCE)
        return [
            (round(x / scale), round(y / scale), round((x + w) / scale), round((y + h) / scale))
            for x, y, w, h in np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        ]

    return detector
