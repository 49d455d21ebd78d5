"""A small VLM-GeoPrivacy copy in the reference's ``data/`` layout, generated for tests.

Six photos, one or two per source collection, with hand-chosen gold letters (Q7: A, A, B,
C, C, A) and generated JPEG photos (no real photo, no real annotation is in the tests).
``missing`` leaves some photos out, as a copy whose downloads partly failed.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from PIL import Image

ROWS = (
    # label id, metadata id, source, coordinate, gold Q1..Q7
    ("1001", "yfcc-1001", "Flickr-yfcc_openai_train", (48.8584, 2.2945), "CBABAAA"),
    ("1002", "yfcc-1002", "Flickr-yfcc4k", (40.6892, -74.0445), "BBABABA"),
    ("1003", "yfcc-1003", "Flickr-yfcc26k", (51.5007, -0.1246), "AABBABB"),
    ("1004", "im2gps3k-1004", "Flickr-im2gps3k", (35.6586, 139.7454), "AABCCBC"),
    ("s1005", "gptgeochat-1005", "ShutterStock-GPTGeoChat", (-33.8568, 151.2153), "BAACCBC"),
    ("1006", "yfcc-1006", "Flickr-yfcc_openai_valid", (41.8902, 12.4922), "CBAABAA"),
)
Q7 = {row[0]: row[4][6] for row in ROWS}


def write_copy(root: Path, missing: Iterable[str] = ()) -> Path:
    """Write the annotations, the FigStep image and the photos (but ``missing`` label ids)."""
    root.mkdir(parents=True, exist_ok=True)
    with (root / "annotation_labels.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", *(f"Q{n}" for n in range(1, 8))])
        for label, _, _, _, gold in ROWS:
            writer.writerow([label, *gold])
    with (root / "images_metadata.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["image_id", "image_source", "true_coordinate", "sharing_intent"])
        for _, image_id, source, (lat, lon), _ in ROWS:
            writer.writerow([image_id, source, f"[{lat}, {lon}]", -1])
    Image.new("RGB", (64, 48), (250, 250, 250)).save(root / "figstep_jailbreak.png")
    images = root / "images"
    images.mkdir(exist_ok=True)
    skipped = set(missing)
    for n, (label, image_id, *_rest) in enumerate(ROWS):
        if label in skipped:
            continue
        Image.new("RGB", (96, 64), (40 * n, 120, 200 - 30 * n)).save(images / f"{image_id}.jpg")
    return root
