"""From a team's own videos and image folders to normalized captures on disk.

Every source is read in the order given (a folder's files in sorted path order, searched
recursively, hidden files and folders skipped); a video is sampled every ``every``
seconds of its timestamps. Each sampled frame meets one fate, counted in
:class:`FrameCounts`: skipped as too dark, as blurred, as a near-duplicate of a capture
already kept (from any source), as past ``max_captures`` — or kept, when it is centre-
cropped to the target aspect, resized, optionally has bystanders' faces blurred
(:mod:`.faces`) and is written as ``images/cap_NNNN.jpg`` without any metadata.

Why the checks run on a small grey copy of the *cropped* frame: the measures then see
what the capture will show, and their thresholds do not depend on the input's size; the
full-size resize (the slow step) is only done for frames that are kept.

Why bad input stops the build with one line instead of being skipped: a file that does
not exist, is not a video or an image, or is corrupt is a mistake the user should fix,
and a silently smaller dataset hides it. Nothing is half-written for the caller, which
builds into a temporary folder. Every source is read to its end even once
``max_captures`` are kept, so a corrupt file is reported whatever the limit, and the
summary can say how many sampled frames the limit left out (``over_max``).

OpenCV is imported by the functions that use it: this module loads whenever inspect loads
privbench's entry point (every run, a grade too), and only building a suite needs OpenCV.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image, ImageOps

from privbench.images import image_problem
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.tooling.spatialtrust_builder.faces import (
    Detector,
    Pixels,
    blur_faces_but_primary,
    require_detector,
)

VIDEO_SUFFIXES = frozenset({".mp4", ".mov", ".webm", ".avi"})
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png"})

CAPTURE_SIZE = (1440, 960)
"""The paper's capture size (width, height): a laptop camera's 3:2 frame."""

JPEG_QUALITY = 92
"""High enough that small text in the background (what the questions ask about) survives
recompression; the generated suite's captures range lower, as real cameras do."""

MEASURE_WIDTH = 480
"""Width of the grey copy every check runs on (its height follows the target aspect):
small enough to measure a frame in about a millisecond, large enough that the
Laplacian still sees a sharp edge as one."""

DARK_LUMINANCE = 20.0
"""Frames whose mean luma (BT.601, 0–255) is below this are skipped as too dark.

Measured on 12 generated scenes: lit scenes have mean luma 97–162 (the darkest is a
night room); a covered camera (black plus sensor noise σ = 4) measures 1.4, and the
scenes at 12 % exposure 11–19. 20 keeps every lit scene with a margin of almost five
times and drops frames where nothing in the background can be made out.
"""

BLUR_LAPLACIAN_VARIANCE = 60.0
"""Frames whose variance of the Laplacian (on the 480-px grey copy) is below this are
skipped as blurred (out of focus, or the camera moving).

Measured on 12 generated scenes: sharp 148–439; the same scenes under a Gaussian blur
of σ = 3 px (at 1440 × 960) 14–35, of σ = 5 px 4–9, and of a mild σ = 2 px 33–91; a
black frame's noise 7. 60 is about 1.7 times the sharpest σ = 3 frame and 2.5 times
below the softest sharp one. The generated scenes already soften their background (the
camera focuses on the user), so real captures with a sharp background measure higher.
"""

NEAR_DUPLICATE_DISTANCE = 10
"""First test of a near-duplicate: the frame's perceptual hash (:func:`perceptual_hash`)
is within this Hamming distance (of 64 bits) of a kept capture's.

Measured on generated scenes: the same scene shifted by 6 or 12 px and re-encoded as
JPEG at quality 90 or 60 is 0–6 bits away (shifted by 24 px: 4–10); the 780 pairs of 40
different scenes are 14–40 bits apart (median 28), but among 240 different scenes 12 of
28,680 pairs come within 10 (every scene is a room with a user in front). pHash keeps
only the coarsest frequencies, so it cannot see a small object: the same scene with an
80 × 60 px sticky note added is 0–10 bits away. Hence the second test,
:data:`LOCAL_CHANGE`.
"""

LOCAL_CHANGE = 10.0
"""Second test of a near-duplicate: after aligning the two frames (phase correlation,
which undoes a camera shift), no 30 × 30 px cell of the capture differs from the kept
one by this much in mean grey level (0–255, the median difference of all cells taken
off, so a change of exposure is not a change).

Why: two frames are the same capture only if nothing in them changed — a sticky note put
on the wall between two photos of one room makes a new capture, which is exactly the
variation a SpatialTrust dataset records. Measured on generated scenes: a copy shifted by
6–24 px and re-encoded at quality 60 changes by at most 2.4; the scene with an 80 × 60
px note added (on a hand-held copy) by 14.1 or more; the 12 pairs of different scenes
that pHash calls close by 81 or more. A hand-held video (a slight rotation or zoom
between frames, which the shift does not undo) changes by 22–49, so its frames are kept,
not merged: when in doubt a frame is kept for the reviewers, never dropped.
"""

ALIGN_SIZE = (240, 160)
"""The grey copy the second test aligns and compares (kept for every capture: 38 kB each)."""
CELLS = (48, 32)
"""Cells compared by the second test (30 × 30 px each on a 1440 × 960 capture)."""


Fate = Literal["kept", "near_duplicate", "dark", "blurred", "over_max"]


@dataclass(frozen=True)
class SourceFile:
    """One input file, as ``build.json`` lists it."""

    path: str
    """As given (a folder's files: the folder as given joined with their relative path)."""
    kind: Literal["video", "image"]
    sha256: str
    frames_read: int
    """Video: frames sampled from it; image: 1."""


@dataclass(frozen=True)
class CaptureFile:
    """One kept, normalized capture, already written to disk."""

    id: str
    """``cap_0001``, ``cap_0002``, … in keep order."""
    image: str
    """Relative to the output folder: ``images/cap_0001.jpg``."""
    source: str
    """The :attr:`SourceFile.path` it came from."""
    frame_time: float | None
    """Seconds into the video; None for an image."""
    width: int
    height: int
    faces_blurred: int
    """Faces blurred on it (0 with ``faces="keep"``)."""
    upscaled_from: tuple[int, int] | None = None
    """The cropped frame's width and height when it was smaller than the capture size and
    was enlarged to it (an enlarged photo shows no more detail than the original); None
    when it was reduced or kept its size."""


@dataclass
class FrameCounts:
    """Every frame considered, by its fate (``sampled`` is the sum of the others)."""

    sampled: int = 0
    kept: int = 0
    near_duplicate: int = 0
    dark: int = 0
    blurred: int = 0
    over_max: int = 0

    def add(self, fate: Fate) -> None:
        self.sampled += 1
        setattr(self, fate, getattr(self, fate) + 1)


# --- pure measures ------------------------------------------------------------------------


def centre_crop_box(width: int, height: int, aspect: tuple[int, int]) -> tuple[int, int, int, int]:
    """The largest centred ``(x1, y1, x2, y2)`` of a ``width × height`` image with the
    aspect ``aspect`` (W:H), e.g. ``(1620, 1080)`` of 1920 × 1080 for 3:2."""
    aw, ah = aspect
    if width * ah > height * aw:  # too wide: cut the sides
        crop_w, crop_h = max(1, round(height * aw / ah)), height
    else:  # too tall: cut top and bottom
        crop_w, crop_h = width, max(1, round(width * ah / aw))
    x1, y1 = (width - crop_w) // 2, (height - crop_h) // 2
    return x1, y1, x1 + crop_w, y1 + crop_h


def mean_luminance(grey: Pixels) -> float:
    """Mean of a grey image (0–255)."""
    return float(grey.mean())


def laplacian_variance(grey: Pixels) -> float:
    """Variance of the Laplacian: high where there are sharp edges, low when blurred."""
    import cv2

    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def perceptual_hash(grey: Pixels) -> int:
    """pHash as a 64-bit integer: the signs of the 8 × 8 lowest frequencies of a 32 × 32
    DCT against their median (the same steps as ``imagehash.phash``).

    Why not the ``imagehash`` package: these few lines are all of it that would be used,
    and it would add PyWavelets. On 40 generated scenes the two hashes differ by 0–2 bits
    of 64 (mean 0.55): its 32 × 32 resize is Pillow's, this one OpenCV's area average.
    """
    import cv2

    small = cv2.resize(grey, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(small)[:8, :8]
    bits = (low > np.median(low)).flatten()
    return int("".join("1" if bit else "0" for bit in bits), 2)


def hamming(a: int, b: int) -> int:
    """Number of differing bits."""
    return (a ^ b).bit_count()


# --- sources --------------------------------------------------------------------------------


def _kind(path: Path) -> Literal["video", "image"] | None:
    suffix = path.suffix.lower()
    if suffix in VIDEO_SUFFIXES:
        return "video"
    if suffix in IMAGE_SUFFIXES:
        return "image"
    return None


def _supported() -> str:
    return " ".join(sorted(VIDEO_SUFFIXES | IMAGE_SUFFIXES))


def source_files(sources: Sequence[Path]) -> list[tuple[Path, Literal["video", "image"]]]:
    """Every input file of ``sources`` with its kind, checked before anything is read.

    A folder contributes its videos and images, recursively, in sorted path order (its
    other files — notes, sidecar files — are ignored); a file given directly must be of
    a supported type.
    """
    found: list[tuple[Path, Literal["video", "image"]]] = []
    for source in sources:
        if source.is_dir():
            inside = [
                (path, kind)
                for path in sorted(source.rglob("*"))
                if path.is_file()
                and not any(part.startswith(".") for part in path.relative_to(source).parts)
                and (kind := _kind(path)) is not None
            ]
            if not inside:
                raise UsageError(
                    f"{source}: no video or image files in this folder ({_supported()})"
                )
            found += inside
        elif source.is_file():
            kind = _kind(source)
            if kind is None:
                raise UsageError(
                    f"{source}: unsupported file type {source.suffix or '(none)'!r} ({_supported()})"
                )
            found.append((source, kind))
        elif source.exists():
            raise UsageError(f"{source}: not a file or folder")
        else:
            raise UsageError(f"{source}: no such file or folder")
    return found


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def read_image(path: Path) -> Pixels:
    """An image file as upright RGB pixels (its EXIF orientation applied)."""
    problem = image_problem(path)
    if problem is not None:
        raise PrivbenchError(f"{path}: {problem}")
    with Image.open(path) as opened:
        upright = ImageOps.exif_transpose(opened)
        if upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info:
            flat = Image.new("RGB", upright.size, (255, 255, 255))
            flat.paste(upright.convert("RGBA"), mask=upright.convert("RGBA").getchannel("A"))
            upright = flat
        return np.asarray(upright.convert("RGB"), dtype=np.uint8)


SEEK_FROM_EVERY = 1.0
"""Sample by seeking when samples are at least this many seconds apart, else by reading.

Why: a seek decodes from the keyframe before the sample time, reading decodes every
frame. ``bench/build_captures.py`` measures both on a 60 s 1080p mp4v video every 2 s:
seeking 17.6–27.8 sampled frames/s (35–56 video seconds per second), reading 7.9–9.0
(16–18), over two runs on a shared 2-core machine. Phone videos commonly put keyframes
1–2 s apart, so a seek decodes at most that much. Samples closer than a second would
decode the same stretch again for every seek.
"""


def video_samples_at_most(path: Path, every: float) -> int:
    """How many frames :func:`video_frames` samples from a video at most: one at 0 s and one
    per ``every`` seconds of its duration (from its header; nothing is decoded). Dark,
    blurry and near-duplicate frames are dropped later, so fewer may become captures."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise PrivbenchError(f"{path}: unreadable video (not a video, or corrupt)")
        fps = capture.get(cv2.CAP_PROP_FPS)
        frames = capture.get(cv2.CAP_PROP_FRAME_COUNT)
    finally:
        capture.release()
    if fps <= 0 or frames <= 0:
        return 1
    return math.floor(frames / fps / every) + 1


def video_frames(path: Path, every: float) -> Iterator[tuple[float, Pixels]]:
    """``(seconds, RGB frame)`` at 0, ``every``, 2 × ``every``, … of a video, by seeking
    or by reading (:data:`SEEK_FROM_EVERY`)."""
    if every >= SEEK_FROM_EVERY:
        return video_frames_by_seeking(path, every)
    return video_frames_by_reading(path, every)


def video_frames_by_reading(path: Path, every: float) -> Iterator[tuple[float, Pixels]]:
    """:func:`video_frames` by read-and-skip: every frame is grabbed (decoded), only the
    sampled ones are converted to pixels; a frame's time is its index over the frame rate."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise PrivbenchError(f"{path}: unreadable video (not a video, or corrupt)")
        fps = capture.get(cv2.CAP_PROP_FPS)
        half_frame = 0.5 / fps if fps > 0 else 0.0
        index = 0
        next_time = 0.0
        while capture.grab():
            seconds = index / fps if fps > 0 else capture.get(cv2.CAP_PROP_POS_MSEC) / 1000
            index += 1
            if seconds + half_frame < next_time:
                continue
            ok, frame = capture.retrieve()
            if not ok or frame is None:
                break
            yield round(seconds, 3), np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB), np.uint8)
            next_time = (math.floor((seconds + half_frame) / every) + 1) * every
        if index == 0:
            raise PrivbenchError(f"{path}: video has no frames (empty or corrupt)")
    finally:
        capture.release()


def video_frames_by_seeking(path: Path, every: float) -> Iterator[tuple[float, Pixels]]:
    """:func:`video_frames` by seeking to each sample time (OpenCV decodes forward from
    the keyframe before it to the frame at that time); it ends where a seek finds no
    frame, past the end."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise PrivbenchError(f"{path}: unreadable video (not a video, or corrupt)")
        step = 0
        while True:
            capture.set(cv2.CAP_PROP_POS_MSEC, step * every * 1000)
            ok, frame = capture.read()
            if not ok or frame is None:
                break
            yield (
                round(step * every, 3),
                np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB), np.uint8),
            )
            step += 1
        if step == 0:
            raise PrivbenchError(f"{path}: video has no frames (empty or corrupt)")
    finally:
        capture.release()


# --- one frame --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measures:
    """What the checks see on one frame's small grey copy."""

    luminance: float
    sharpness: float
    phash: int
    thumbnail: Pixels
    """The :data:`ALIGN_SIZE` grey copy :func:`local_change` compares."""


def measure(cropped: Pixels, aspect: tuple[int, int]) -> Measures:
    """Luminance, Laplacian variance and pHash of an already cropped RGB frame."""
    import cv2

    size = (MEASURE_WIDTH, max(1, round(MEASURE_WIDTH * aspect[1] / aspect[0])))
    small = cv2.resize(cropped, size, interpolation=cv2.INTER_AREA)
    grey = np.asarray(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), np.uint8)
    thumbnail = np.asarray(cv2.resize(grey, ALIGN_SIZE, interpolation=cv2.INTER_AREA), np.uint8)
    return Measures(
        mean_luminance(grey), laplacian_variance(grey), perceptual_hash(grey), thumbnail
    )


def local_change(a: Pixels, b: Pixels) -> float:
    """The largest change of one cell between two :data:`ALIGN_SIZE` grey copies, after
    undoing the camera's shift and taking off the median change (exposure)."""
    import cv2

    first, second = a.astype(np.float32), b.astype(np.float32)
    (dx, dy), _ = cv2.phaseCorrelate(first, second)
    shift = np.array([[1, 0, -dx], [0, 1, -dy]], dtype=np.float32)
    aligned = cv2.warpAffine(second, shift, ALIGN_SIZE, borderMode=cv2.BORDER_REPLICATE)
    cells = np.asarray(cv2.resize(first, CELLS, interpolation=cv2.INTER_AREA), np.float32) - (
        np.asarray(cv2.resize(aligned, CELLS, interpolation=cv2.INTER_AREA), np.float32)
    )
    inner = cells[2:-2, 2:-2]  # the border cells hold what the shift brought in
    return float(np.abs(inner - np.median(inner)).max())


def is_near_duplicate(measures: Measures, kept: Measures) -> bool:
    """Both tests: close perceptual hashes, and no cell that changed (see the constants)."""
    return (
        hamming(measures.phash, kept.phash) <= NEAR_DUPLICATE_DISTANCE
        and local_change(measures.thumbnail, kept.thumbnail) < LOCAL_CHANGE
    )


def fate_of(measures: Measures, kept: Sequence[Measures]) -> Fate:
    """Why a frame is skipped, or ``kept``: dark first, then blurred, then a duplicate
    (a black frame is dark, not a duplicate of another black frame)."""
    if measures.luminance < DARK_LUMINANCE:
        return "dark"
    if measures.sharpness < BLUR_LAPLACIAN_VARIANCE:
        return "blurred"
    if any(is_near_duplicate(measures, earlier) for earlier in kept):
        return "near_duplicate"
    return "kept"


def normalized(cropped: Pixels, size: tuple[int, int]) -> Pixels:
    """The cropped frame resized to ``size`` (Lanczos), as RGB pixels."""
    image = Image.fromarray(np.ascontiguousarray(cropped), "RGB")
    return np.asarray(image.resize(size, Image.Resampling.LANCZOS), dtype=np.uint8)


def upscaled_from(cropped: Pixels, size: tuple[int, int]) -> tuple[int, int] | None:
    """``(width, height)`` of a cropped frame that :func:`normalized` enlarges (narrower or
    lower than ``size``), else None."""
    height, width = cropped.shape[:2]
    return (int(width), int(height)) if width < size[0] or height < size[1] else None


def write_jpeg(pixels: Pixels, path: Path) -> None:
    """A JPEG with nothing but pixels: no EXIF, GPS, XMP, ICC profile or comment.

    Why a new image from the raw bytes: a Pillow image opened from a file carries its
    ``info`` (ICC profile, EXIF, comments) into ``save``; one built from bytes has none.
    """
    height, width = pixels.shape[:2]
    clean = Image.frombytes("RGB", (width, height), np.ascontiguousarray(pixels).tobytes())
    clean.save(path, format="JPEG", quality=JPEG_QUALITY, optimize=True)


# --- the whole pass ---------------------------------------------------------------------------


def _frames(
    path: Path, kind: Literal["video", "image"], every: float
) -> Iterator[tuple[float | None, Pixels]]:
    if kind == "image":
        yield None, read_image(path)
    else:
        yield from video_frames(path, every)


def _write_capture(
    cropped: Pixels, size: tuple[int, int], detector: Detector | None, path: Path
) -> int:
    """Resize, blur bystanders' faces (with a detector) and write; how many were blurred."""
    pixels = normalized(cropped, size)
    blurred = 0
    if detector is not None:
        pixels, blurred = blur_faces_but_primary(pixels, detector(pixels))
    write_jpeg(pixels, path)
    return blurred


def collect_captures(
    sources: Sequence[Path],
    out_dir: Path,
    *,
    every: float = 2.0,
    max_captures: int | None = None,
    size: tuple[int, int] = CAPTURE_SIZE,
    faces: Literal["keep", "blur"] = "keep",
    progress: Callable[[int], None] | None = None,
) -> tuple[list[SourceFile], list[CaptureFile], FrameCounts]:
    """Sample, check and normalize every source; write the kept captures to
    ``out_dir/images/``. ``progress`` is called with the number of frames sampled so far.

    Raises :class:`~privbench.runtime.errors.UsageError` for a missing source, an
    unsupported file type or a folder with nothing usable (before anything is read), and
    :class:`~privbench.runtime.errors.PrivbenchError` for an unreadable or empty video or a
    corrupt image (when it is reached); each message names the file.
    """
    if not every > 0:
        raise UsageError(f"every must be a positive number of seconds, not {every}")
    if max_captures is not None and max_captures < 1:
        raise UsageError(f"max captures must be at least 1, not {max_captures}")
    if size[0] < 1 or size[1] < 1:
        raise UsageError(f"capture size must be positive, not {size[0]}x{size[1]}")
    detector = require_detector() if faces == "blur" else None
    files = source_files(sources)
    images = out_dir / "images"
    images.mkdir(parents=True, exist_ok=True)
    counts = FrameCounts()
    read: list[SourceFile] = []
    kept: list[CaptureFile] = []
    kept_measures: list[Measures] = []
    for path, kind in files:
        frames_read = 0
        for frame_time, frame in _frames(path, kind, every):
            frames_read += 1
            fate: Fate = "over_max"
            if max_captures is None or len(kept) < max_captures:
                x1, y1, x2, y2 = centre_crop_box(frame.shape[1], frame.shape[0], size)
                cropped = frame[y1:y2, x1:x2]
                measures = measure(cropped, size)
                fate = fate_of(measures, kept_measures)
                if fate == "kept":
                    capture_id = f"cap_{len(kept) + 1:04d}"
                    blurred = _write_capture(cropped, size, detector, images / f"{capture_id}.jpg")
                    kept_measures.append(measures)
                    kept.append(
                        CaptureFile(
                            id=capture_id,
                            image=f"images/{capture_id}.jpg",
                            source=str(path),
                            frame_time=frame_time,
                            width=size[0],
                            height=size[1],
                            faces_blurred=blurred,
                            upscaled_from=upscaled_from(cropped, size),
                        )
                    )
            counts.add(fate)
            if progress is not None:
                progress(counts.sampled)
        read.append(SourceFile(str(path), kind, file_sha256(path), frames_read))
    return read, kept, counts
