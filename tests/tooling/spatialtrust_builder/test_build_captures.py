"""Sources → kept frames → normalized captures: counts, normalization, metadata, errors.

The videos and images are made here from generated scenes, with duplicates, black and
blurred frames put in on purpose; the expected counts follow from how they were made.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageCms

from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.tooling.spatialtrust_builder.captures import (
    BLUR_LAPLACIAN_VARIANCE,
    DARK_LUMINANCE,
    LOCAL_CHANGE,
    NEAR_DUPLICATE_DISTANCE,
    FrameCounts,
    centre_crop_box,
    collect_captures,
    hamming,
    is_near_duplicate,
    laplacian_variance,
    local_change,
    mean_luminance,
    measure,
    perceptual_hash,
    video_frames_by_reading,
    video_frames_by_seeking,
)
from privbench.tooling.spatialtrust_builder.faces import (
    Pixels,
    blur_faces_but_primary,
    grown,
    primary_face,
    require_detector,
)
from privbench.tooling.spatialtrust_scenes.plan import plan_suite
from privbench.tooling.spatialtrust_scenes.render import render_scene

FPS = 10
"""Test videos run at 10 fps and are sampled every second: one segment, one sample."""
VIDEO_SIZE = (720, 480)


@pytest.fixture(scope="module")
def scenes() -> list[Pixels]:
    """Five generated scenes at 720 × 480 (rendered once for the module)."""
    return [
        np.asarray(render_scene(plan).resize(VIDEO_SIZE, Image.Resampling.BOX), dtype=np.uint8)
        for plan in plan_suite(5, 11)
    ]


def _black() -> Pixels:
    noise = np.random.default_rng(0).normal(0, 3, (VIDEO_SIZE[1], VIDEO_SIZE[0], 3))
    return np.clip(noise, 0, 255).astype(np.uint8)


def _blurred(scene: Pixels) -> Pixels:
    return np.asarray(cv2.GaussianBlur(scene, (0, 0), 4), dtype=np.uint8)


def _jittered(scene: Pixels, dx: int, dy: int) -> Pixels:
    """The scene moved by a few pixels (a camera's jitter), edges repeated."""
    return np.asarray(np.roll(scene, (dy, dx), axis=(0, 1)), dtype=np.uint8)


def _write_video(path: Path, segments: list[Pixels], fourcc: str) -> None:
    """One second (``FPS`` frames) per segment, with a pixel of jitter between frames."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), FPS, VIDEO_SIZE)
    assert writer.isOpened(), f"this OpenCV cannot write {fourcc}"
    for segment in segments:
        for i in range(FPS):
            writer.write(cv2.cvtColor(_jittered(segment, i % 2, 0), cv2.COLOR_RGB2BGR))
    writer.release()


def _save(pixels: Pixels, path: Path, **options: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels).save(path, **options)  # type: ignore[arg-type]
    return path


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


# --- pure measures ------------------------------------------------------------------------


def test_centre_crop_box_on_hand_computed_cases() -> None:
    assert centre_crop_box(1920, 1080, (3, 2)) == (150, 0, 1770, 1080)
    assert centre_crop_box(1200, 900, (1440, 960)) == (0, 50, 1200, 850)
    assert centre_crop_box(1440, 960, (1440, 960)) == (0, 0, 1440, 960)
    assert centre_crop_box(400, 600, (3, 2)) == (0, 166, 400, 433)  # 267 tall, 333 cut


def test_hamming_and_flat_measures() -> None:
    assert hamming(0b1011, 0b0001) == 2
    assert hamming(2**64 - 1, 0) == 64
    flat = np.full((32, 48), 77, dtype=np.uint8)
    assert mean_luminance(flat) == 77.0
    assert laplacian_variance(flat) == 0.0
    checker = (np.indices((32, 48)).sum(axis=0) % 2 * 255).astype(np.uint8)
    assert laplacian_variance(checker) > 10_000


def test_thresholds_separate_sharp_blurred_dark_and_duplicates(scenes: list[Pixels]) -> None:
    aspect = (3, 2)
    sharp = [measure(s, aspect) for s in scenes]
    assert all(m.luminance > 2 * DARK_LUMINANCE for m in sharp)
    assert all(m.sharpness > BLUR_LAPLACIAN_VARIANCE for m in sharp)
    assert measure(_black(), aspect).luminance < DARK_LUMINANCE
    assert all(measure(_blurred(s), aspect).sharpness < BLUR_LAPLACIAN_VARIANCE for s in scenes)
    for scene, original in zip(scenes, sharp, strict=True):
        copy = io.BytesIO()
        Image.fromarray(_jittered(scene, 6, 3)).save(copy, format="JPEG", quality=60)
        recoded = np.asarray(Image.open(copy).convert("RGB"), dtype=np.uint8)
        assert hamming(measure(recoded, aspect).phash, original.phash) <= NEAR_DUPLICATE_DISTANCE
    for i, a in enumerate(sharp):
        for b in sharp[i + 1 :]:
            assert hamming(a.phash, b.phash) > NEAR_DUPLICATE_DISTANCE


def _with_note(scene: Pixels) -> Pixels:
    """The scene with a small yellow sticky note put on its background (top left)."""
    noted = scene.copy()
    height, width = noted.shape[:2]
    x, y = width // 8, height // 8
    noted[y : y + height // 16, x : x + width // 18] = (250, 230, 80)
    return noted


def _recoded(pixels: Pixels) -> Pixels:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="JPEG", quality=60)
    return np.asarray(Image.open(buffer).convert("RGB"), dtype=np.uint8)


def test_a_small_object_added_makes_a_new_capture(scenes: list[Pixels]) -> None:
    """pHash alone calls the room with a sticky note added a duplicate; the local change
    after alignment does not, while a shifted, re-encoded copy stays a duplicate."""
    aspect = (3, 2)
    for scene in scenes:
        original = measure(scene, aspect)
        noted = measure(_with_note(scene), aspect)
        shifted = measure(_recoded(_jittered(scene, 6, 3)), aspect)
        assert hamming(noted.phash, original.phash) <= NEAR_DUPLICATE_DISTANCE
        assert local_change(noted.thumbnail, original.thumbnail) >= LOCAL_CHANGE
        assert not is_near_duplicate(noted, original)
        assert local_change(shifted.thumbnail, original.thumbnail) < LOCAL_CHANGE
        assert is_near_duplicate(shifted, original)


def test_a_folder_keeps_both_versions_of_a_room(tmp_path: Path, scenes: list[Pixels]) -> None:
    folder = tmp_path / "room"
    folder.mkdir()
    Image.fromarray(scenes[0]).save(folder / "a_before.png")
    Image.fromarray(_with_note(scenes[0])).save(folder / "b_with_note.png")
    Image.fromarray(_jittered(scenes[0], 4, 2)).save(folder / "c_again.png")
    _, captures, counts = collect_captures([folder], tmp_path / "out")
    assert [Path(c.source).name for c in captures] == ["a_before.png", "b_with_note.png"]
    assert counts.near_duplicate == 1


def test_perceptual_hash_is_64_bits_and_stable(scenes: list[Pixels]) -> None:
    grey = np.asarray(cv2.cvtColor(scenes[0], cv2.COLOR_RGB2GRAY), np.uint8)
    assert perceptual_hash(grey) == perceptual_hash(grey.copy())
    assert 0 <= perceptual_hash(grey) < 2**64


# --- sampling and fates -------------------------------------------------------------------


def _expected(fates: list[str]) -> FrameCounts:
    tally = Counter(fates)
    return FrameCounts(
        sampled=len(fates),
        kept=tally["kept"],
        near_duplicate=tally["near_duplicate"],
        dark=tally["dark"],
        blurred=tally["blurred"],
        over_max=tally["over_max"],
    )


@pytest.fixture
def mixed_sources(tmp_path: Path, scenes: list[Pixels]) -> tuple[list[Path], list[str]]:
    """A video and a folder; returns the sources and each sample's intended fate."""
    a, b, c, d, e = scenes
    video = [a, b, _black(), _blurred(c), _jittered(a, 5, 2), c]
    video_fates = ["kept", "kept", "dark", "blurred", "near_duplicate", "kept"]
    _write_video(tmp_path / "walk.mp4", video, "mp4v")
    folder = tmp_path / "photos"
    # sorted order: b.jpg (the video's second scene again), d.png, more/e.jpg
    _save(_jittered(b, 0, 4), folder / "b.jpg", quality=80)
    _save(d, folder / "d.png")
    _save(e, folder / "more" / "e.jpg", quality=90)
    (folder / "notes.txt").write_text("not an image")
    _save(a, folder / ".hidden" / "a.jpg")
    folder_fates = ["near_duplicate", "kept", "kept"]
    return [tmp_path / "walk.mp4", folder], video_fates + folder_fates


def test_counts_follow_from_the_construction(
    tmp_path: Path, mixed_sources: tuple[list[Path], list[str]]
) -> None:
    sources, fates = mixed_sources
    out = tmp_path / "out"
    seen: list[int] = []
    files, captures, counts = collect_captures(sources, out, every=1.0, progress=seen.append)
    assert counts == _expected(fates)
    assert seen == list(range(1, len(fates) + 1))
    assert [c.id for c in captures] == [f"cap_{i:04d}" for i in range(1, fates.count("kept") + 1)]
    assert [c.frame_time for c in captures] == [0.0, 1.0, 5.0, None, None]
    assert [Path(c.source).name for c in captures] == ["walk.mp4"] * 3 + ["d.png", "e.jpg"]
    assert sorted(p.name for p in (out / "images").iterdir()) == [f"{c.id}.jpg" for c in captures]
    assert all(
        c.image == f"images/{c.id}.jpg" and (c.width, c.height) == (1440, 960) for c in captures
    )
    assert [(Path(f.path).name, f.kind, f.frames_read) for f in files] == [
        ("walk.mp4", "video", 6),
        ("b.jpg", "image", 1),
        ("d.png", "image", 1),
        ("e.jpg", "image", 1),
    ]
    assert all(len(f.sha256) == 64 for f in files)
    for capture in captures:
        with Image.open(out / capture.image) as image:
            assert image.size == (1440, 960) and image.mode == "RGB"


def test_max_captures_counts_the_rest_as_over_max(
    tmp_path: Path, mixed_sources: tuple[list[Path], list[str]]
) -> None:
    sources, fates = mixed_sources
    limit = 2
    kept_so_far = 0
    limited: list[str] = []
    for fate in fates:
        if kept_so_far >= limit:
            limited.append("over_max")
        else:
            limited.append(fate)
            kept_so_far += fate == "kept"
    files, captures, counts = collect_captures(
        sources, tmp_path / "out", every=1.0, max_captures=limit
    )
    assert counts == _expected(limited)
    assert len(captures) == limit
    assert len(files) == 4  # every source is still read (a corrupt one would be reported)


def test_mjpg_avi_is_sampled_by_timestamp(tmp_path: Path, scenes: list[Pixels]) -> None:
    a, b, c = scenes[:3]
    _write_video(tmp_path / "clip.avi", [a, a, b, c], "MJPG")
    _, captures, counts = collect_captures([tmp_path / "clip.avi"], tmp_path / "out", every=2.0)
    # samples at 0 s (a) and 2 s (b); c (3–4 s) falls between samples
    assert counts == FrameCounts(sampled=2, kept=2, near_duplicate=0, dark=0, blurred=0, over_max=0)
    assert [c.frame_time for c in captures] == [0.0, 2.0]
    # below a second apart the video is read frame by frame: 8 samples at 0, 0.5, … 3.5 s
    _, captures, counts = collect_captures([tmp_path / "clip.avi"], tmp_path / "out2", every=0.5)
    assert counts == FrameCounts(sampled=8, kept=3, near_duplicate=5, dark=0, blurred=0, over_max=0)
    assert [c.frame_time for c in captures] == [0.0, 2.0, 3.0]


@pytest.mark.parametrize("name, fourcc", [("v.mp4", "mp4v"), ("v.avi", "MJPG")])
def test_seeking_and_reading_sample_the_same_frames(
    tmp_path: Path, scenes: list[Pixels], name: str, fourcc: str
) -> None:
    _write_video(tmp_path / name, scenes[:3], fourcc)
    sought = list(video_frames_by_seeking(tmp_path / name, 1.0))
    read = list(video_frames_by_reading(tmp_path / name, 1.0))
    assert [t for t, _ in sought] == [t for t, _ in read] == [0.0, 1.0, 2.0]
    for (_, a), (_, b), scene in zip(sought, read, scenes[:3], strict=True):
        assert np.array_equal(a, b)
        assert np.abs(a.astype(np.int16) - scene).mean() < 8  # the segment's own scene


# --- normalization and metadata -----------------------------------------------------------


def _jpeg_markers(data: bytes) -> list[int]:
    """The markers of a JPEG's header segments, from SOI up to SOS."""
    assert data[:2] == b"\xff\xd8"
    markers, at = [], 2
    while at < len(data):
        assert data[at] == 0xFF
        marker = data[at + 1]
        markers.append(marker)
        if marker == 0xDA:  # start of scan: the entropy-coded data follows
            return markers
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    raise AssertionError("no start of scan")


def test_exif_orientation_applied_and_all_metadata_dropped(
    tmp_path: Path, scenes: list[Pixels]
) -> None:
    # stored 320 × 480 (portrait); orientation 6 shows it rotated 90° clockwise as
    # 480 × 320, so the stored top-left corner is displayed at the top right.
    stored = np.ascontiguousarray(
        np.rot90(np.asarray(Image.fromarray(scenes[0]).resize((480, 320))), 1)
    )
    stored[:40, :40] = (255, 0, 0)
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "TestCam"
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2] = "N", (51.0, 30.0, 0.0)
    source = _save(
        stored,
        tmp_path / "phone.jpg",
        exif=exif,
        icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes(),
        comment=b"taken at home",
        xmp=b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://ns.adobe.com/xap/1.0/"/></x:xmpmeta>',
        quality=95,
    )
    with Image.open(source) as check:  # the input really carries it all
        assert check.getexif()[0x0112] == 6 and "icc_profile" in check.info
    _, captures, _ = collect_captures([source], tmp_path / "out")
    path = tmp_path / "out" / captures[0].image
    data = path.read_bytes()
    for needle in (
        b"Exif",
        b"http://ns.adobe.com/xap",
        b"ICC_PROFILE",
        b"TestCam",
        b"taken at home",
    ):
        assert needle not in data
    markers = _jpeg_markers(data)
    assert 0xFE not in markers  # COM
    assert [m for m in markers if 0xE0 <= m <= 0xEF] == [0xE0]  # only JFIF's APP0
    with Image.open(path) as image:
        assert image.size == (1440, 960)
        assert not image.getexif() and "icc_profile" not in image.info
        pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    marker = 40 * 3  # 40 px at 480 wide is 120 px at 1440
    top_right = pixels[10 : marker - 10, -marker + 10 : -10].reshape(-1, 3).mean(axis=0)
    top_left = pixels[10 : marker - 10, 10 : marker - 10].reshape(-1, 3).mean(axis=0)
    assert top_right[0] > 200 and top_right[1] < 60 and top_right[2] < 60
    assert not (top_left[0] > 200 and top_left[1] < 60)


@pytest.mark.parametrize("size", [(1200, 900), (1600, 900)], ids=["4:3", "16:9"])
def test_centre_crop_keeps_the_centre(
    tmp_path: Path, scenes: list[Pixels], size: tuple[int, int]
) -> None:
    width, height = size
    pixels = np.asarray(Image.fromarray(scenes[1]).resize(size), dtype=np.uint8).copy()
    pixels[height // 2 - 20 : height // 2 + 20, width // 2 - 20 : width // 2 + 20] = (255, 0, 255)
    _, captures, _ = collect_captures([_save(pixels, tmp_path / "in.png")], tmp_path / "out")
    with Image.open(tmp_path / "out" / captures[0].image) as image:
        out = np.asarray(image.convert("RGB"), dtype=np.int16)
    scale = 1440 / min(width, height * 3 / 2)
    half = int(20 * scale) - 6
    centre = out[480 - half : 480 + half, 720 - half : 720 + half].reshape(-1, 3).mean(axis=0)
    assert centre[0] > 200 and centre[1] < 60 and centre[2] > 200
    outside = out[480 - half : 480 + half, 720 + half + 12 : 720 + half + 40]
    assert not (outside[..., 1] < 60).all()


# --- bad input ----------------------------------------------------------------------------


def _corrupt_jpeg(scene: Pixels, path: Path) -> Path:
    _save(scene, path, quality=90)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])
    return path


@pytest.fixture
def bad_inputs(
    tmp_path: Path, scenes: list[Pixels]
) -> Iterator[dict[str, tuple[Path, type[Exception]]]]:
    empty_folder = tmp_path / "empty"
    empty_folder.mkdir()
    (empty_folder / "readme.md").write_text("nothing here")
    (tmp_path / "fake.mp4").write_bytes(b"not a video at all" * 100)
    writer = cv2.VideoWriter(
        str(tmp_path / "zero.avi"), cv2.VideoWriter.fourcc(*"MJPG"), FPS, VIDEO_SIZE
    )
    writer.release()
    (tmp_path / "slides.pdf").write_bytes(b"%PDF-1.4")
    good = tmp_path / "good"
    _save(scenes[0], good / "a.jpg")
    _corrupt_jpeg(scenes[1], good / "b.jpg")
    _save(scenes[2], good / "c.jpg")
    yield {
        "missing": (tmp_path / "nowhere.mp4", UsageError),
        "unsupported": (tmp_path / "slides.pdf", UsageError),
        "empty folder": (empty_folder, UsageError),
        "not a video": (tmp_path / "fake.mp4", PrivbenchError),
        "zero frames": (tmp_path / "zero.avi", PrivbenchError),
        "corrupt image": (_corrupt_jpeg(scenes[3], tmp_path / "broken.jpg"), PrivbenchError),
        "corrupt image in a folder": (good, PrivbenchError),
    }


@pytest.mark.parametrize(
    "case",
    [
        "missing",
        "unsupported",
        "empty folder",
        "not a video",
        "zero frames",
        "corrupt image",
        "corrupt image in a folder",
    ],
)
def test_bad_input_is_one_line_naming_the_file(
    tmp_path: Path, bad_inputs: dict[str, tuple[Path, type[Exception]]], case: str
) -> None:
    source, error_type = bad_inputs[case]
    before = _files(tmp_path)
    with pytest.raises(error_type) as raised:
        collect_captures([source], tmp_path / "out")
    message = str(raised.value)
    named = source / "b.jpg" if case == "corrupt image in a folder" else source
    assert str(named) in message
    assert "\n" not in message and "Traceback" not in message
    assert {p for p in _files(tmp_path) - before if tmp_path / "out" not in p.parents} == set()


def test_bad_arguments_are_usage_errors(tmp_path: Path, scenes: list[Pixels]) -> None:
    image = _save(scenes[0], tmp_path / "a.png")
    with pytest.raises(UsageError, match="every"):
        collect_captures([image], tmp_path / "out", every=0)
    with pytest.raises(UsageError, match="max captures"):
        collect_captures([image], tmp_path / "out", max_captures=0)


# --- faces ----------------------------------------------------------------------------------


def test_primary_face_is_the_largest_ties_to_the_most_central() -> None:
    assert primary_face([], 1440, 960) is None
    assert primary_face([(0, 0, 100, 100), (600, 300, 900, 700)], 1440, 960) == 1
    # equal sizes (within the tie margin): the one nearer the centre wins
    assert primary_face([(0, 0, 200, 200), (620, 380, 815, 580)], 1440, 960) == 1
    assert primary_face([(1200, 700, 1400, 900), (100, 100, 300, 300)], 1440, 960) == 1
    # the user missed: the largest face left is a bystander's, too small to be the user
    assert primary_face([(100, 100, 160, 170), (900, 200, 940, 250)], 1440, 960) is None


def test_blur_changes_only_the_bystanders_boxes(scenes: list[Pixels]) -> None:
    pixels = np.asarray(Image.fromarray(scenes[0]).resize((1440, 960)), dtype=np.uint8)
    user, bystander = (500, 200, 900, 700), (1100, 100, 1180, 190)
    out, blurred = blur_faces_but_primary(pixels, [bystander, user])
    assert blurred == 1
    changed = np.any(out != pixels, axis=2)
    x1, y1, x2, y2 = grown(bystander, 1440, 960)
    assert changed[y1:y2, x1:x2].mean() > 0.5
    outside = changed.copy()
    outside[y1:y2, x1:x2] = False
    assert not outside.any()
    _, blurred = blur_faces_but_primary(pixels, [bystander, (300, 300, 360, 370)])
    assert blurred == 2  # no face is the user's: both are blurred


def test_without_the_detector_blur_is_a_one_line_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "yuface", None)
    with pytest.raises(UsageError, match="yuface") as raised:
        require_detector()
    assert "\n" not in str(raised.value)


@pytest.mark.skipif(importlib.util.find_spec("yuface") is None, reason="yuface not installed")
def test_blur_keeps_the_user_and_blurs_a_bystander(tmp_path: Path) -> None:
    plan = next(
        p
        for p in plan_suite(40, 7)
        if any(e.kind.person and e.attrs.get("facing", "front") == "front" for e in p.elements)
    )
    source = _save(np.asarray(render_scene(plan), dtype=np.uint8), tmp_path / "scene.png")
    _, captures, _ = collect_captures([source], tmp_path / "out", faces="blur")
    assert captures[0].faces_blurred >= 1
    with Image.open(tmp_path / "out" / captures[0].image) as image:
        out = np.asarray(image.convert("RGB"), dtype=np.int16)
    original = np.asarray(Image.open(source).convert("RGB"), dtype=np.int16)
    s, x, head = plan.user.scale, plan.user.x, plan.user.head
    face = original[int(head + 100 * s) : int(head + 300 * s), int(x - 90 * s) : int(x + 90 * s)]
    kept = out[int(head + 100 * s) : int(head + 300 * s), int(x - 90 * s) : int(x + 90 * s)]
    assert np.abs(face - kept).mean() < 6  # the user's face only went through JPEG
