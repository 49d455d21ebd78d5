"""Benchmark: sampling and normalizing captures from a 60-second 1080p video.

Writes a 60 s, 1920 × 1080, 30 fps video (mp4v) of four generated scenes in turn, each
frame moved by a pixel or two of camera jitter, then times

* sampling alone every 2 s, by read-and-skip and by seeking to each sample time (what
  ``collect_captures`` does from one sample a second);
* ``collect_captures(every=2)`` end to end: sampling, the dark / blur / duplicate
  checks, the crop and Lanczos resize to 1440 × 960 and the JPEG writes;

and prints sampled frames per second and video seconds per wall-clock second.

    PYTHONPATH=src python bench/build_captures.py
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from privbench.tooling.spatialtrust_builder.captures import (
    collect_captures,
    video_frames_by_reading,
    video_frames_by_seeking,
)
from privbench.tooling.spatialtrust_builder.faces import Pixels
from privbench.tooling.spatialtrust_scenes.plan import plan_suite
from privbench.tooling.spatialtrust_scenes.render import render_scene

SECONDS, FPS, SIZE, SCENES, EVERY = 60, 30, (1920, 1080), 4, 2.0


def write_video(path: Path) -> None:
    scenes = [
        cv2.cvtColor(
            np.asarray(render_scene(plan).resize(SIZE, Image.Resampling.BILINEAR)),
            cv2.COLOR_RGB2BGR,
        )
        for plan in plan_suite(SCENES, 3)
    ]
    rng = np.random.default_rng(0)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), FPS, SIZE)
    frames = SECONDS * FPS
    for index in range(frames):
        scene = scenes[index * SCENES // frames]
        dx, dy = (int(v) for v in rng.integers(-2, 3, size=2))
        writer.write(np.roll(scene, (dy, dx), axis=(0, 1)))
    writer.release()


def timed(label: str, run: Callable[[], int]) -> None:
    start = time.perf_counter()
    sampled = run()
    wall = time.perf_counter() - start
    print(
        f"{label:<34} {sampled:3d} frames in {wall:5.2f} s: {sampled / wall:6.1f} sampled frames/s, "
        f"{SECONDS / wall:6.1f} video s per s"
    )


def count(frames: Iterator[tuple[float, Pixels]]) -> int:
    return sum(1 for _ in frames)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        video = Path(folder) / "walk.mp4"
        start = time.perf_counter()
        write_video(video)
        print(
            f"wrote a {SECONDS} s {SIZE[0]}x{SIZE[1]} {FPS} fps video "
            f"({video.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - start:.1f} s"
        )
        timed("sampling, read-and-skip", lambda: count(video_frames_by_reading(video, EVERY)))
        timed("sampling, seek", lambda: count(video_frames_by_seeking(video, EVERY)))

        def pipeline() -> int:
            *_, counts = collect_captures([video], Path(folder) / "out", every=EVERY)
            print(
                f"  kept {counts.kept}, near-duplicates {counts.near_duplicate} of {counts.sampled}"
            )
            return counts.sampled

        timed("collect_captures (end to end)", pipeline)


if __name__ == "__main__":
    main()
