"""``privbench build spatialtrust`` end to end, as a user runs it.

Sources are written here: a folder of captures from the shipped suite and a video made of
other captures with OpenCV (each scene held for two seconds, so sampling every second
meets each scene twice: the second frame is a near duplicate). The drafter is the loopback
server answering in the styles real models write; expected figures follow from how the
sources were made.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers import (
    API_KEY,
    command,
    error_line,
    no_traceback,
    one_line_error,
    privbench,
    wait_for,
)
from helpers.loopback_server import LoopbackServer
from PIL import Image

from privbench.shipped import SPATIALTRUST_SUITE
from privbench.suites.spatialtrust.dataset import load_spatialtrust

DRAFTER = "openai-api/loopdraft/vlm"
DRAFT_PROMPT = r"List every visible element"
SUITE_IMAGES = sorted((SPATIALTRUST_SUITE / "images").glob("*.jpg"))
FPS = 5
HOLD_S = 2


def _image_folder(directory: Path, images: list[Path]) -> Path:
    directory.mkdir(parents=True)
    for image in images:
        shutil.copy(image, directory / image.name)
    return directory


def _video(path: Path, scenes: list[Path]) -> Path:
    """An MJPG .avi at 5 fps: each scene held for two seconds."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), FPS, (1440, 960))
    assert writer.isOpened()
    for scene in scenes:
        frame = cv2.cvtColor(np.asarray(Image.open(scene).convert("RGB")), cv2.COLOR_RGB2BGR)
        for _ in range(FPS * HOLD_S):
            writer.write(frame)
    writer.release()
    return path


@pytest.fixture
def sources(tmp_path: Path) -> tuple[Path, Path]:
    folder = _image_folder(tmp_path / "photos", SUITE_IMAGES[:4])
    video = _video(tmp_path / "walk.avi", SUITE_IMAGES[4:7])
    return folder, video


@pytest.fixture
def drafter(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopbackServer]:
    with LoopbackServer(default_reply='{"elements": []}') as loopback:
        monkeypatch.setenv("LOOPDRAFT_BASE_URL", loopback.base_url)
        monkeypatch.setenv("LOOPDRAFT_API_KEY", API_KEY)
        yield loopback


def _records(out: Path) -> list[dict[str, object]]:
    lines = (out / "spatialtrust.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_build_without_drafter(tmp_path: Path, sources: tuple[Path, Path]) -> None:
    folder, video = sources
    out = tmp_path / "built"
    result = privbench(
        "build", "spatialtrust", folder, video, "--out", out, "--every", "1", "--json"
    )
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    # 4 photos + 3 scenes of the video; each scene is met twice at 1 s steps over 2 s
    assert document["captures"] == 7
    assert document["frames"]["near_duplicate"] == 3
    assert document["frames"]["kept"] == 7
    items = load_spatialtrust(out)
    assert len(items) == 7
    manifest = json.loads((out / "build.json").read_text(encoding="utf-8"))
    hashes = {Path(s["path"]).name: s["sha256"] for s in manifest["sources"]}
    assert hashes["walk.avi"] == hashlib.sha256(video.read_bytes()).hexdigest()
    assert manifest["drafter"] is None and manifest["stage"] == "complete"
    times = sorted(c["frame_time"] for c in manifest["captures"] if c["frame_time"] is not None)
    assert times == [0.0, 2.0, 4.0]
    for record in _records(out):
        annotation = record["annotation"]
        assert isinstance(annotation, dict)
        assert annotation["status"] == "draft" and annotation["elements"] == []
    validated = privbench("validate", out)
    assert validated.returncode == 0, validated.stderr
    assert "0 of 7 images reviewed by a person" in validated.stdout
    assert not (tmp_path / ".built.partial").exists()


STYLES = [
    '{"elements": [{"name": "sticky note with a password", "category": "direct", '
    '"box": [100, 200, 180, 260], "why": "The password is readable."}]}',
    '```json\n[{"bbox_2d": [900, 100, 1100, 700], "label": "open door", '
    '"category": "indirect factor", "reason": "Someone could walk in."}]\n```',
    '<think>The wall shows a screen; it is off.</think>{"elements": [{"name": "switched-off '
    'TV", "category": "near-miss", "box": [500, 50, 800, 300], "why": "It shows nothing."}]}',
    "I can see a poster on the wall.",
]
"""One reply per capture, in turn: as asked, Qwen's grounding list, a reasoning block, prose."""


def test_build_with_drafter_counts_every_reply(
    tmp_path: Path, sources: tuple[Path, Path], drafter: LoopbackServer
) -> None:
    folder, _ = sources
    drafter.script(DRAFT_PROMPT, *STYLES)
    out = tmp_path / "built"
    result = privbench(
        "build", "spatialtrust", folder, "--out", out, "--drafter", DRAFTER,
        "--log-dir", tmp_path / "logs", "--max-tokens", "700", "--json",
    )  # fmt: skip
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["settings"]["max_tokens"] == 700
    drafts = [r for r in drafter.requests if DRAFT_PROMPT in r.text]
    assert len(drafts) == 4 and {r.body.get("max_tokens") for r in drafts} == {700}
    counts = json.loads(result.stdout)["drafter"]["counts"]
    assert counts["drafted"] == 4 and counts["unreadable"] == 1 and counts["elements"] == 3
    assert drafter.count(DRAFT_PROMPT) == 4
    records = _records(out)
    names = {
        element["name"]: element["category"]
        for record in records
        for element in record["annotation"]["elements"]  # type: ignore[index]
    }
    assert names == {
        "sticky note with a password": "direct",
        "open door": "indirect",
        "switched-off TV": "near_miss",
    }
    # a drafted direct factor is an option of q2 with its box as evidence, and the answer
    for record in records:
        elements = record["annotation"]["elements"]  # type: ignore[index]
        if any(e["category"] == "direct" for e in elements):
            q2 = next(q for q in record["questions"] if q["qid"] == "q2")  # type: ignore[attr-defined]
            (letter,) = q2["answer"]
            assert q2["options"][letter] == "sticky note with a password"
            assert q2["evidence"][letter] == [[100, 200, 180, 260]]
    manifest = json.loads((out / "build.json").read_text(encoding="utf-8"))
    assert manifest["drafter"]["model"] == DRAFTER
    assert manifest["drafter"]["reported_models"] == ["vlm"]


@pytest.mark.e2e
def test_interrupted_drafting_resumes_without_asking_again(
    tmp_path: Path, sources: tuple[Path, Path]
) -> None:
    folder, video = sources
    out, logs = tmp_path / "built", tmp_path / "logs"
    with LoopbackServer(default_reply=STYLES[0], latency=0.4) as loopback:
        env = {
            **os.environ,
            "LOOPDRAFT_BASE_URL": loopback.base_url,
            "LOOPDRAFT_API_KEY": API_KEY,
        }
        run = subprocess.Popen(
            command("build", "spatialtrust", folder, video, "--out", out, "--every", "1",
                    "--drafter", DRAFTER, "--max-connections", "1", "--log-dir", logs),
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        wait_for(loopback, DRAFT_PROMPT, 2)
        run.send_signal(signal.SIGINT)
        _, stderr = run.communicate(timeout=60)
        assert run.returncode == 130, stderr
        assert "Traceback" not in stderr
        assert "--resume" in stderr
        assert not out.exists() and (tmp_path / ".built.partial").is_dir()
        asked_before = loopback.count(DRAFT_PROMPT)
        (log,) = logs.glob("*.eval")
        resumed = subprocess.run(
            command("build", "spatialtrust", "--resume", log, "--log-dir", logs, "--json"),
            env=env, capture_output=True, text=True, check=False, timeout=120,
        )  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr
        asked_after = loopback.count(DRAFT_PROMPT)
    document = json.loads(resumed.stdout)
    assert document["complete"] and document["drafter"]["counts"]["drafted"] == 7
    # every capture asked once, except the call in flight when the signal came
    assert asked_after - 7 <= 1, (asked_before, asked_after)
    assert len(load_spatialtrust(out)) == 7
    assert not (tmp_path / ".built.partial").exists()


def test_output_that_is_not_a_build_is_refused(tmp_path: Path, sources: tuple[Path, Path]) -> None:
    folder, _ = sources
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    result = privbench("build", "spatialtrust", folder, "--out", out)
    line = one_line_error(result)
    assert str(out) in line and "not a privbench build" in line
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_earlier_build_needs_overwrite(tmp_path: Path, sources: tuple[Path, Path]) -> None:
    folder, _ = sources
    out = tmp_path / "built"
    assert privbench("build", "spatialtrust", folder, "--out", out).returncode == 0
    again = privbench("build", "spatialtrust", folder, "--out", out)
    assert "--overwrite" in one_line_error(again)
    replaced = privbench("build", "spatialtrust", folder, "--out", out, "--overwrite")
    assert replaced.returncode == 0, replaced.stderr


@pytest.mark.parametrize("case", ["missing", "not_a_video", "empty_folder"])
def test_bad_source_is_one_line_and_leaves_nothing(tmp_path: Path, case: str) -> None:
    if case == "missing":
        source = tmp_path / "nowhere.mp4"
    elif case == "not_a_video":
        source = tmp_path / "clip.mp4"
        source.write_bytes(b"this is not a video" * 100)
    else:
        source = tmp_path / "empty"
        source.mkdir()
    out = tmp_path / "built"
    result = privbench("build", "spatialtrust", source, "--out", out)
    assert result.returncode != 0
    assert source.name in error_line(result)
    assert not out.exists() and not (tmp_path / ".built.partial").exists()


def test_eval_refuses_the_drafts_it_built(tmp_path: Path, sources: tuple[Path, Path]) -> None:
    folder, _ = sources
    out = tmp_path / "built"
    assert privbench("build", "spatialtrust", folder, "--out", out).returncode == 0
    result = privbench(
        "eval", "spatialtrust", "--data", out, "--model", "openai-api/nowhere/m",
        "--judge", "offline", "--log-dir", tmp_path / "logs",
    )  # fmt: skip
    line = one_line_error(result)
    assert "4 of 4 images" in line and "--allow-drafts" in line
    assert not list((tmp_path / "logs").glob("*.eval"))


@pytest.mark.parametrize("target", ["empty", "earlier_build"])
def test_symlinked_out_receives_the_finished_build(
    tmp_path: Path, sources: tuple[Path, Path], drafter: LoopbackServer, target: str
) -> None:
    folder, _ = sources
    real = tmp_path / "datasets" / "real"
    real.mkdir(parents=True)
    if target == "earlier_build":
        assert privbench("build", "spatialtrust", folder, "--out", real).returncode == 0
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    drafter.script(DRAFT_PROMPT, STYLES[0])
    result = privbench(
        "build", "spatialtrust", folder, "--out", link, "--drafter", DRAFTER, "--overwrite",
        "--log-dir", tmp_path / "logs", "--json",
    )  # fmt: skip
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["complete"]
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert len(load_spatialtrust(link)) == 4 and (real / "build.json").is_file()
    manifest = json.loads((real / "build.json").read_text(encoding="utf-8"))
    assert manifest["drafter"]["model"] == DRAFTER
    hidden = [p.name for p in tmp_path.rglob(".*.partial")]
    assert hidden == []
    # the finished build is not "resumable": its staging folder is gone
    (log,) = (tmp_path / "logs").glob("*.eval")
    again = privbench("build", "spatialtrust", "--resume", log, "--log-dir", tmp_path / "logs")
    assert "nothing to resume" in one_line_error(again)


def test_resume_moves_a_finished_build_left_in_staging(
    tmp_path: Path, sources: tuple[Path, Path], drafter: LoopbackServer
) -> None:
    """A finished, paid build whose last move failed: --resume puts it in place, without
    asking the drafter again, rather than calling it complete while --out is empty."""
    folder, _ = sources
    out, logs = tmp_path / "built", tmp_path / "logs"
    drafter.script(DRAFT_PROMPT, STYLES[0])
    built = privbench(
        "build", "spatialtrust", folder, "--out", out, "--drafter", DRAFTER, "--log-dir", logs
    )
    assert built.returncode == 0, built.stderr
    staging = tmp_path / ".built.partial"
    out.rename(staging)  # as a failed final move leaves it
    asked = drafter.count(DRAFT_PROMPT)
    (log,) = logs.glob("*.eval")
    resumed = privbench("build", "spatialtrust", "--resume", log, "--log-dir", logs, "--json")
    no_traceback(resumed)
    assert resumed.returncode == 0, resumed.stderr
    document = json.loads(resumed.stdout)
    assert document["complete"] and document["out"] == str(out.resolve())
    assert document["drafter"]["counts"]["drafted"] == 4
    assert len(load_spatialtrust(out)) == 4 and not staging.exists()
    assert drafter.count(DRAFT_PROMPT) == asked


def test_build_dry_run_takes_the_output_limit_it_suggests(
    tmp_path: Path, sources: tuple[Path, Path]
) -> None:
    folder, _ = sources
    args = ("build", "spatialtrust", folder, "--out", tmp_path / "built", "--drafter", DRAFTER,
            "--price", "1/2", "--dry-run", "--json")  # fmt: skip
    unlimited = privbench(*args)
    assert unlimited.returncode == 0, unlimited.stderr
    note = next(n for n in json.loads(unlimited.stdout)["notes"] if "output at most" in n)
    assert "--max-tokens" in note
    limited = privbench(*args, "--max-tokens", "500")
    assert limited.returncode == 0, limited.stderr
    plan = json.loads(limited.stdout)
    assert plan["tokens"]["model"]["output_at_most"] == 4 * 500
    assert not any("output at most" in n for n in plan["notes"])
    assert not (tmp_path / "built").exists()


def test_small_photos_are_said_to_be_upscaled(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    with Image.open(SUITE_IMAGES[0]) as scene:
        scene.convert("RGB").resize((720, 480)).save(photos / "a_small.jpg", quality=95)
    shutil.copy(SUITE_IMAGES[1], photos / "b_full.jpg")
    out = tmp_path / "built"
    result = privbench("build", "spatialtrust", photos, "--out", out)
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    assert (
        "upscaled to 1440×960 (source smaller than --size, no added detail): 1 capture — "
        "cap_0001 from 720×480"
    ) in result.stdout
    assert "sources: 2 images" in result.stdout
    manifest = json.loads((out / "build.json").read_text(encoding="utf-8"))
    assert [c["upscaled_from"] for c in manifest["captures"]] == [[720, 480], None]
    assert manifest["counts"]["upscaled"] == 1
    one = privbench("build", "spatialtrust", photos / "b_full.jpg", "--out", tmp_path / "one")
    assert one.returncode == 0, one.stderr
    assert "upscaled" not in one.stdout
    assert "sources: 1 image\n" in one.stdout and "SpatialTrust, 1 image;" in one.stdout
    assert "0 of 1 image reviewed" in one.stdout


def test_review_export_keeps_the_build_provenance_and_question_types(
    tmp_path: Path, sources: tuple[Path, Path]
) -> None:
    from privbench.review_store import ReviewStore
    from privbench.tooling.spatialtrust_builder.review_export import export_reviewed

    folder, _ = sources
    out = tmp_path / "built"
    built = privbench("build", "spatialtrust", folder, "--out", out, "--question-types", "neutral")
    assert built.returncode == 0, built.stderr
    types = {q.type for item in load_spatialtrust(out) for q in (item.q2, item.q3)}
    assert types == {"multiple"}  # the type does not say how many options are right
    store = ReviewStore.of(out)
    element = {"name": "note", "category": "direct", "why": "readable", "box": [10, 10, 90, 90]}
    store.save("cap_0001", "ann", store.versions("cap_0001", "ann"),
               {"status": "accepted", "factors": [element]})  # fmt: skip
    exported = export_reviewed(out, tmp_path / "reviewed", annotator="ann")
    assert exported.validation.endswith("1 of 1 image reviewed by a person")
    document = json.loads((tmp_path / "reviewed" / "review.json").read_text(encoding="utf-8"))
    assert document["build"] == json.loads((out / "build.json").read_text(encoding="utf-8"))
    assert document["build"]["sources"][0]["sha256"]
    assert document["build"]["settings"]["question_types"] == "neutral"
    (exported_item,) = load_spatialtrust(tmp_path / "reviewed")
    assert (exported_item.q2.type, exported_item.q3.type) == ("multiple", "multiple")
