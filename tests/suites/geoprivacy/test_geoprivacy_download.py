"""``privbench download geoprivacy`` against a loopback mirror of every source.

What is checked: the annotations are verified (a mismatch fails the command and keeps
nothing); the released responses are verified one by one; each source's photos arrive by
its own route (two landing pages, a direct zip, a url list, parquet shards) with the
reference's matching rules; dead links, web pages, oversized photos and changed bytes are
recorded per photo and never fail the set; a rerun fetches nothing that is there; Ctrl-C
keeps the record; ``--url`` fetches everything from a mirror; ``--data geoprivacy`` finds
the latest copy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mirror import EXPECTED, IMAGES, Fixture, Mirror, build, photo, slow_reply

from privbench.runtime.download import fetch as runtime_fetch
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.suite import DownloadRequest
from privbench.suites.geoprivacy import download as geo
from privbench.suites.geoprivacy import layout, sources
from privbench.suites.geoprivacy.census import image_census, read_image_record
from privbench.suites.geoprivacy.download import (
    download,
    download_geoprivacy,
    latest_download,
    resolve_data,
)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Fixture]:
    """The loopback benchmark, with the pinned annotation files and manifest its own."""
    with Mirror() as mirror:
        fixture = build(mirror, tmp_path)
        monkeypatch.setattr(layout, "ANNOTATIONS", fixture.annotations)
        monkeypatch.setattr(layout, "RAW_BASE", fixture.raw_base)
        monkeypatch.setattr(geo, "RELEASE_MANIFEST", fixture.manifest)
        yield fixture


def run(fixture: Fixture, root: Path, **options: Any) -> geo.DownloadResult:
    return download(
        root, endpoints=fixture.endpoints, limits=fixture.limits(), progress=False, **options
    )


def outcomes(record: dict[str, int]) -> dict[str, int]:
    """The non-zero photo outcomes of a source's counts (without total and kept)."""
    keys = ("present", "gone", "wrong_hash", "unreadable", "failed", "not_fetched")
    return {key: record[key] for key in keys if record[key]}


def statuses(root: Path) -> dict[str, str]:
    return {key: entry.status for key, entry in read_image_record(root).items()}


def test_downloads_every_source_with_its_outcomes(served: Fixture, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    slow_reply(served.mirror)
    outcome = run(served, root)

    # the slow photo (answered after a delay below the timeout) was asked once and arrived
    assert served.mirror.hits["/flickr/2602.jpg"] == 1
    for source, expected in EXPECTED.items():
        assert outcomes(outcome.record.sources[source]) == expected, source
    assert outcome.record.complete and outcome.record.source_errors == {}
    found = statuses(root)
    assert found["yfcc-2602"] == "present"  # the slow reply
    assert found["yfcc-4003"] == "gone"  # not in the zip
    assert found["yfcc-2603"] == "gone"  # 404
    assert found["yfcc-2604"] == "gone"  # a web page instead of a photo
    assert found["yfcc-2607"] == "gone"  # nobody listens
    assert found["yfcc-2608"] == "gone"  # not in the url list
    assert found["yfcc-2606"] == "unreadable"  # over the size bound
    assert found["yfcc-7003"] == "gone"  # in no parquet shard
    assert "more than the 4,096" in read_image_record(root)["yfcc-2606"].detail
    assert found["yfcc-2602"] == "present"  # the slow reply
    for image_id in ("yfcc-4001", "im2gps3k-3001", "gptgeochat-5002", "yfcc-7001", "yfcc-7002"):
        path = layout.image_path(root, image_id)
        assert path.read_bytes() == photo(int(image_id.split("-")[1])), image_id
    assert not layout.image_path(root, "yfcc-2604").exists()
    assert not any(p.name.startswith(".") for p in (root / layout.IMAGES_DIR).iterdir())
    for pinned in served.annotations:
        assert (root / pinned.name).stat().st_size == pinned.size
    released = root / layout.RELEASED_DIR / "evaluation/main/zs/responses"
    assert (released / "api_gen_zs_free-form_o3_combined.json").read_bytes() == b"[]"

    lines = outcome.lines
    assert lines[0] == "annotations: 3 files verified (commit 7653e00)"
    assert lines[1] == f"released responses: 2 of 2 files verified in {root / 'released'}"
    assert "Flickr-yfcc4k: 2 of 3 images (1 gone)" in lines
    assert "Flickr-yfcc26k: 3 of 8 images (4 gone, 1 unreadable)" in lines
    assert any(
        line.startswith("Flickr-yfcc_openai_train: 2 of 3 found after scanning 2 of 2 parquet")
        for line in lines
    )
    assert f"images: 12 of 19 present in {root / 'images'}" in lines
    assert lines[-2] == geo.LICENCE_LINE
    assert lines[-1] == "use it with --data geoprivacy"


def test_rerun_fetches_nothing_that_is_there(served: Fixture, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    run(served, root)
    hits = dict(served.mirror.hits)
    outcome = run(served, root)

    again = {path: n - hits.get(path, 0) for path, n in served.mirror.hits.items()}
    for kept in (
        "/flickr/2601.jpg",
        "/download1234/abc/yfcc4k.zip",
        "/mf/file/yfcc4k.zip",
        "/hub/train/0000.parquet",
        "/hub/train/0001.parquet",
        "/raw/data/images_metadata.csv",
    ):
        assert again.get(kept, 0) == 0, kept
    assert again["/flickr/2603.jpg"] == 1  # a gone photo is tried again
    assert outcome.record.sources[sources.YFCC4K]["kept"] == 2
    assert outcome.record.sources[sources.OPENAI_TRAIN]["kept"] == 2
    # yfcc-7003 stays gone: every shard was scanned, none is fetched again
    assert statuses(root)["yfcc-7003"] == "gone"
    assert "Flickr-yfcc4k: 2 of 3 images (1 gone, 2 already there)" in outcome.lines


def test_changed_bytes_are_refused_and_the_recorded_hash_kept(
    served: Fixture, tmp_path: Path
) -> None:
    root = tmp_path / "copy"
    run(served, root)
    first = read_image_record(root)["yfcc-2605"]
    assert first.status == "present" and first.sha256 is not None
    layout.image_path(root, "yfcc-2605").unlink()  # fetched again, with other bytes now

    outcome = run(served, root)

    entry = read_image_record(root)["yfcc-2605"]
    assert entry.status == "wrong_hash"
    assert (entry.sha256, entry.bytes) == (first.sha256, first.bytes)
    assert not layout.image_path(root, "yfcc-2605").exists()
    assert outcome.record.sources[sources.YFCC26K]["wrong_hash"] == 1
    assert (
        "Flickr-yfcc26k: 2 of 8 images (4 gone, 1 wrong hash, 1 unreadable, 2 already there)"
        in outcome.lines
    )
    census = image_census(root, served.metadata)
    assert census.counts["wrong_hash"] == 1


def test_force_fetches_everything_again(served: Fixture, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    run(served, root)
    hits = dict(served.mirror.hits)
    outcome = run(served, root, force=True)

    for path in (
        "/flickr/2601.jpg",
        "/download1234/abc/yfcc4k.zip",
        "/hub/train/0000.parquet",
        "/raw/data/annotation_labels.csv",
    ):
        assert served.mirror.hits[path] == hits[path] + 1, path
    assert outcome.record.sources[sources.YFCC4K]["kept"] == 0
    # the good copy of the changed photo stays; its new bytes are refused
    assert statuses(root)["yfcc-2605"] == "wrong_hash"
    assert layout.image_path(root, "yfcc-2605").is_file()


def test_annotation_mismatch_fails_and_keeps_nothing(
    served: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    labels = served.annotations[1]
    assert labels.name == layout.LABELS_FILE
    served.mirror.add(f"/raw/{labels.repo_path}", b"x" * labels.size)
    root = tmp_path / "copy"

    with pytest.raises(PrivbenchError) as raised:
        run(served, root)

    message = str(raised.value)
    assert message.startswith("annotations: ") and "pinned" in message and "\n" not in message
    assert not (root / layout.LABELS_FILE).exists()
    assert not any(p.name.startswith(".annotation") for p in root.iterdir())
    assert latest_download() is None


def test_unreachable_annotations_fail_in_one_line(served: Fixture, tmp_path: Path) -> None:
    with pytest.raises(PrivbenchError, match=r"^annotations: .*HTTP 404"):
        download(tmp_path / "copy", served.mirror.url("/nothing/"), progress=False)


def test_released_failure_is_a_line_not_a_failure(served: Fixture, tmp_path: Path) -> None:
    served.mirror.add(
        "/raw/evaluation/main/zs/responses/api_gen_zs_free-form_o3_combined.json", b"{}"
    )
    outcome = run(served, tmp_path / "copy")

    assert outcome.lines[1].startswith("released responses: 1 of 2 files verified")
    assert outcome.lines[2].startswith("released: evaluation/main/zs/responses/")
    assert "pinned" in outcome.lines[2]
    assert outcome.record.released == {"files": 2, "verified": 1, "failed": 1}


def test_a_source_that_fails_is_one_line(served: Fixture, tmp_path: Path) -> None:
    served.mirror.add(
        "/mf/file/yfcc4k.zip", b"<html><body>gone</body></html>", content_type="text/html"
    )
    served.mirror.add("/geo/yfcc25600_urls.csv", b"what,ever\n1,2\n")
    outcome = run(served, tmp_path / "copy")

    yfcc4k = [line for line in outcome.lines if line.startswith("Flickr-yfcc4k")]
    assert yfcc4k == [
        f"Flickr-yfcc4k: no images fetched: {served.endpoints.yfcc4k}: the page has no "
        "download link (the file may have been removed, or the page changed); nothing was "
        "fetched"
    ]
    assert any(
        line.startswith("Flickr-yfcc26k: no images fetched:") and "unexpected first row" in line
        for line in outcome.lines
    )
    assert set(outcome.record.source_errors) == {sources.YFCC4K, sources.YFCC26K}
    census = image_census(tmp_path / "copy", served.metadata)
    assert census.counts["missing"] == 3 + 8  # never downloaded, not gone
    assert outcome.record.sources[sources.IM2GPS3K]["present"] == 2


def test_a_zip_member_over_the_bound_is_unreadable(served: Fixture, tmp_path: Path) -> None:
    from mirror import _zip, big_photo

    served.mirror.add(
        "/mf/file/human.zip/file",
        _zip(
            {
                "human/test/images/5001.jpg": big_photo(),
                "human/val/images/5002.jpg": photo(5002),
                "../human/train/images/5003.jpg": photo(1),
            }
        ),
    )
    run(served, tmp_path / "copy")

    found = read_image_record(tmp_path / "copy")
    assert found["gptgeochat-5001"].status == "unreadable"
    assert "more than the 4,096" in found["gptgeochat-5001"].detail
    assert found["gptgeochat-5002"].status == "present"


def test_too_many_zip_members_refuse_the_archive(served: Fixture, tmp_path: Path) -> None:
    limits = served.limits()
    outcome = download(
        tmp_path / "copy",
        endpoints=served.endpoints,
        limits=sources.SourceLimits(
            image_bytes=limits.image_bytes, archive_members=2, timeout=limits.timeout
        ),
        progress=False,
    )
    assert "Flickr-yfcc4k" in outcome.record.source_errors
    assert "4 members, more than the 2" in outcome.record.source_errors[sources.YFCC4K]


def test_ctrl_c_keeps_what_was_written(
    served: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(*_: object) -> Iterator[tuple[str, bytes | None]]:
        raise KeyboardInterrupt
        yield  # pragma: no cover

    scan_shard = sources.scan_shard
    monkeypatch.setattr(sources, "scan_shard", interrupt)
    root = tmp_path / "copy"

    with pytest.raises(PrivbenchError) as raised:
        run(served, root)

    assert raised.value.exit_code == 130
    assert "interrupted: 9 of 19 images" in str(raised.value)
    found = statuses(root)
    assert found["yfcc-4001"] == "present" and found["yfcc-2601"] == "present"
    assert "yfcc-7001" not in found
    record = geo.read_record(root)
    assert record is not None and not record.complete
    assert latest_download() == root.resolve()

    # only the interruption is taken back (an undo of everything would also restore the
    # real cache directory, and the copy would be registered there)
    monkeypatch.setattr(sources, "scan_shard", scan_shard)
    resumed = run(served, root)
    assert resumed.record.complete
    assert resumed.record.sources[sources.OPENAI_TRAIN]["present"] == 2


def test_ctrl_c_inside_a_transfer_keeps_the_record(
    served: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = runtime_fetch

    def fetch(url: str, target: Path, **options: Any) -> Any:
        if "/hub/" in url:
            raise PrivbenchError(f"{url}: interrupted", exit_code=130)
        return real(url, target, **options)

    monkeypatch.setattr(sources, "fetch", fetch)
    monkeypatch.setattr(geo, "fetch", fetch)
    root = tmp_path / "copy"
    with pytest.raises(PrivbenchError) as raised:
        run(served, root)
    assert raised.value.exit_code == 130
    assert statuses(root)["gptgeochat-5001"] == "present"


def test_mirror_url_serves_everything(served: Fixture, tmp_path: Path) -> None:
    root = tmp_path / "copy"
    lines = download_geoprivacy(DownloadRequest(root, served.mirror_base))

    found = statuses(root)
    assert found["yfcc-2603"] == "gone" and found["yfcc-7003"] == "gone"
    assert found["yfcc-2606"] == "present"  # within the default 32 MiB bound
    assert sum(status == "present" for status in found.values()) == 17
    assert f"images: 17 of 19 present in {root / 'images'}" in lines
    assert served.mirror.hits["/raw/data/images_metadata.csv"] == 0
    assert served.mirror.hits["/mirror/data/images_metadata.csv"] == 1
    record = geo.read_record(root)
    assert record is not None and record.url == served.mirror_base + "/"


def test_data_keyword_finds_the_latest_copy(
    served: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="run privbench download geoprivacy first"):
        resolve_data(Path("geoprivacy"))
    first, second = tmp_path / "a", tmp_path / "b"
    run(served, first)
    run(served, second)

    assert resolve_data(Path("geoprivacy")) == (second.resolve(), None)
    assert resolve_data(Path("elsewhere")) == (Path("elsewhere"), None)
    (tmp_path / "geoprivacy").mkdir()
    path, note = resolve_data(Path("geoprivacy"))
    assert path == Path("geoprivacy") and note is not None and str(second.resolve()) in note


def test_someone_elses_annotation_file_is_not_replaced(served: Fixture, tmp_path: Path) -> None:
    root = tmp_path / "theirs"
    root.mkdir()
    (root / layout.LABELS_FILE).write_text("id,Q1\n", encoding="utf-8")
    with pytest.raises(UsageError, match="exists and is not the pinned file"):
        run(served, root)
    assert (root / layout.LABELS_FILE).read_text(encoding="utf-8") == "id,Q1\n"


def test_photos_of_the_reference_script_are_recorded_not_fetched(
    served: Fixture, tmp_path: Path
) -> None:
    root = tmp_path / "copy"
    (root / layout.IMAGES_DIR).mkdir(parents=True)
    layout.image_path(root, "yfcc-2601").write_bytes(photo(123))
    run(served, root)

    assert served.mirror.hits["/flickr/2601.jpg"] == 0
    entry = read_image_record(root)["yfcc-2601"]
    assert entry.status == "present" and entry.bytes == len(photo(123))


def test_landing_page_links_are_found() -> None:
    page = '<a class="x" href="https://download2390.mediafire.com/k/f/yfcc4k.zip?a=1&amp;b=2">'
    assert (
        sources.download_link(page) == "https://download2390.mediafire.com/k/f/yfcc4k.zip?a=1&b=2"
    )
    assert sources.download_link('<a id="downloadButton" href="/relative">') is None
    assert sources.download_link("<html>nothing</html>") is None


def test_url_list_rows_are_read_tolerantly(tmp_path: Path) -> None:
    listing = tmp_path / "urls.csv"
    listing.write_text("image_id,url\n00/4c/2283161368.jpg,https://x/1.jpg\nbad\n", "utf-8")
    assert sources.parse_url_list(listing, "l") == {"2283161368": "https://x/1.jpg"}
    listing.write_text("00_4c_2283161368,https://x/1.jpg\n", "utf-8")
    assert sources.parse_url_list(listing, "l") == {"2283161368": "https://x/1.jpg"}
    listing.write_text("a;b\n", "utf-8")
    with pytest.raises(PrivbenchError, match="unexpected first row 'a;b'"):
        sources.parse_url_list(listing, "l")


def test_member_names_follow_the_reference() -> None:
    assert sources.match_yfcc4k("yfcc4k/10003206806.jpg") == "10003206806"
    assert sources.match_yfcc4k("yfcc4k/readme.txt") is None
    assert sources.match_im2gps3k("x/31700873_d7c4159106_22_25159586@N00.jpg") == "31700873"
    assert sources.match_im2gps3k("x/31700873.jpg") is None
    assert sources.match_gptgeochat("human/val/images/2378186027.jpg") == "2378186027"
    assert sources.match_gptgeochat("human/val/masks/2378186027.jpg") is None


def test_release_manifest_pins_the_nine_models() -> None:
    manifest = geo.read_manifest()
    paths = [pinned.path for pinned in manifest]
    assert len(paths) == len(set(paths)) == 63
    document = json.loads(geo.RELEASE_MANIFEST.read_text(encoding="utf-8"))
    assert document["commit"] == layout.COMMIT
    for model in ("gpt-5", "Llama-4-Maverick-17B-128E-Instruct-FP8", "gemini-2.5-flash"):
        assert sum(path.endswith(f"_{model}_combined.json") for path in paths) == 4
        assert sum(path.endswith(f"_{model}_combined_coord.json") for path in paths) == 3
    assert all(len(pinned.sha256) == 64 and pinned.size > 0 for pinned in manifest)
    assert IMAGES  # the fixture is shared with the census tests
