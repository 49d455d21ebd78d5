"""The image census: each photo's status from its file and ``images.json``, and the lines
``privbench validate`` prints about the absent ones."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from mirror import photo

from privbench.runtime.errors import PrivbenchError
from privbench.suites.geoprivacy import layout
from privbench.suites.geoprivacy.census import (
    ImageEntry,
    image_census,
    metadata_pairs,
    read_image_record,
    write_image_record,
)

METADATA = [
    ("yfcc-1", "Flickr-yfcc4k"),  # present, hash recorded
    ("yfcc-2", "Flickr-yfcc4k"),  # present, no record (the reference's own script)
    ("yfcc-3", "Flickr-yfcc26k"),  # never downloaded
    ("yfcc-4", "Flickr-yfcc26k"),  # gone at its source
    ("yfcc-5", "Flickr-yfcc26k"),  # file changed after download
    ("yfcc-6", "Flickr-yfcc26k"),  # last download refused: other bytes
    ("yfcc-7", "Flickr-yfcc_openai_train"),  # unreadable
    ("yfcc-8", "Flickr-yfcc_openai_train"),  # downloaded, deleted since
]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / layout.IMAGES_DIR).mkdir()
    for image_id, seed in (("yfcc-1", 1), ("yfcc-2", 2), ("yfcc-5", 50)):
        layout.image_path(tmp_path, image_id).write_bytes(photo(seed))
    record = {
        "yfcc-1": ImageEntry(
            source="Flickr-yfcc4k", sha256=_sha(photo(1)), bytes=9, status="present"
        ),
        "yfcc-4": ImageEntry(source="Flickr-yfcc26k", status="gone", detail="HTTP 404"),
        "yfcc-5": ImageEntry(
            source="Flickr-yfcc26k", sha256=_sha(photo(5)), bytes=9, status="present"
        ),
        "yfcc-6": ImageEntry(
            source="Flickr-yfcc26k",
            sha256=_sha(photo(6)),
            bytes=9,
            status="wrong_hash",
            detail="downloaded bytes differ",
        ),
        "yfcc-7": ImageEntry(
            source="Flickr-yfcc_openai_train", status="unreadable", detail="corrupt image"
        ),
        "yfcc-8": ImageEntry(
            source="Flickr-yfcc_openai_train", sha256=_sha(photo(8)), bytes=9, status="present"
        ),
    }
    write_image_record(tmp_path, record)
    return tmp_path


def test_each_status_from_file_and_record(root: Path) -> None:
    census = image_census(root, METADATA)

    found = {image.image_id: image.status for image in census.images}
    assert found == {
        "yfcc-1": "present",
        "yfcc-2": "present",
        "yfcc-3": "missing",
        "yfcc-4": "gone",
        "yfcc-5": "wrong_hash",
        "yfcc-6": "wrong_hash",
        "yfcc-7": "unreadable",
        "yfcc-8": "missing",
    }
    assert census.present == {"yfcc-1", "yfcc-2"}
    assert dict(census.counts) == {
        "present": 2,
        "missing": 2,
        "gone": 1,
        "wrong_hash": 2,
        "unreadable": 1,
    }
    by_source = census.by_source()
    assert list(by_source) == ["Flickr-yfcc4k", "Flickr-yfcc26k", "Flickr-yfcc_openai_train"]
    assert by_source["Flickr-yfcc26k"] == {"missing": 1, "gone": 1, "wrong_hash": 2}
    details = {image.image_id: image.detail for image in census.images}
    assert details["yfcc-8"] == "deleted since it was downloaded"
    assert details["yfcc-5"].startswith(f"SHA-256 {_sha(photo(50))}, recorded")


def test_lines_name_each_cause(root: Path) -> None:
    lines = image_census(root, METADATA).lines()

    assert lines[0] == (
        "images: 2 of 8 present; 2 never downloaded; 1 gone at their source (dead links); "
        "2 differ from the recorded SHA-256; 1 unreadable"
    )
    assert lines[1] == (
        "images: 2 never downloaded (privbench download geoprivacy fetches them): yfcc-3, yfcc-8"
    )
    assert lines[2].startswith("images: 1 gone at their source (dead links) (nobody can")
    assert len(lines) == 5


def test_everything_present_is_one_line(tmp_path: Path) -> None:
    (tmp_path / layout.IMAGES_DIR).mkdir()
    layout.image_path(tmp_path, "yfcc-1").write_bytes(photo(1))
    census = image_census(tmp_path, [("yfcc-1", "Flickr-yfcc4k")])
    assert census.lines() == ["images: 1 of 1 present"]


def test_many_examples_are_counted_not_listed(tmp_path: Path) -> None:
    metadata = [(f"yfcc-{n}", "Flickr-yfcc26k") for n in range(1, 1201)]
    lines = image_census(tmp_path, metadata).lines()
    assert lines[0] == "images: 0 of 1,200 present; 1,200 never downloaded"
    assert lines[1].endswith("yfcc-1, yfcc-2, yfcc-3, yfcc-4, yfcc-5, and 1,195 more")


def test_a_file_changed_in_place_is_noticed(root: Path) -> None:
    path = layout.image_path(root, "yfcc-1")
    assert image_census(root, METADATA).images[0].status == "present"
    changed = bytearray(path.read_bytes())
    changed[-3] ^= 0xFF  # same size, other bytes
    path.write_bytes(bytes(changed))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert image_census(root, METADATA).images[0].status == "wrong_hash"


def test_a_record_privbench_did_not_write_is_one_line(tmp_path: Path) -> None:
    (tmp_path / layout.IMAGES_RECORD).write_text('{"yfcc-1": {"status": "lost"}}', "utf-8")
    with pytest.raises(PrivbenchError, match=r"images\.json: not a record privbench wrote"):
        image_census(tmp_path, METADATA)
    assert read_image_record(tmp_path / "elsewhere") == {}


def test_metadata_pairs_read_the_csv(tmp_path: Path) -> None:
    (tmp_path / layout.METADATA_FILE).write_text(
        "image_id,image_source,true_coordinate,sharing_intent\n"
        'yfcc-1,Flickr-yfcc4k,"[1, 2]",0\ngptgeochat-5,ShutterStock-GPTGeoChat,"[3, 4]",1\n',
        encoding="utf-8",
    )
    assert metadata_pairs(tmp_path) == [
        ("yfcc-1", "Flickr-yfcc4k"),
        ("gptgeochat-5", "ShutterStock-GPTGeoChat"),
    ]
    (tmp_path / layout.METADATA_FILE).write_text("id,source\n", encoding="utf-8")
    with pytest.raises(PrivbenchError, match="no image_id and image_source columns"):
        metadata_pairs(tmp_path)
