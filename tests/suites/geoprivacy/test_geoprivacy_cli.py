"""``privbench eval/grade/validate/show geoprivacy`` on the command line, against a loopback
server and a generated copy (six photos, one absent): the dry run's call counts, the
reference's message layout as sent, the figures by hand, free-form judging and locating,
grading the reference's file formats, and bad input refused in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import JUDGE, MODEL, one_line_error, privbench, write_json
from helpers.geoprivacy_copy import write_copy
from helpers.loopback_server import LoopbackServer

from privbench.suites.geoprivacy.prompts import free_form_prompt, mcq_prompt

MCQ_REPLY = "C\nB\nA\nB\nA\nA\nC"
"""Every photo answered alike; Q7 = C (exact) against gold A, A, B, C, C of the five present."""
JUDGE_ASKS = r"Which geolocation granularity level"
EXTRACT_ASKS = r"extract the single best"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return write_copy(tmp_path / "copy", missing=["1006"])


def _eval(tmp_path: Path, data: Path, *args: str | Path) -> list[str | Path]:
    return ["eval", "geoprivacy", "--model", MODEL, "--data", data,
            "--log-dir", tmp_path / "logs", *args]  # fmt: skip


def _json(result: Any) -> dict[str, Any]:
    assert result.returncode == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_dry_run_counts_photos_and_judge_calls(
    server: LoopbackServer, tmp_path: Path, copy: Path
) -> None:
    mcq = _json(privbench(*_eval(tmp_path, copy, "--dry-run", "--json")))
    assert mcq["calls"] == {"model": 5, "judge": 0}
    free = _json(privbench(*_eval(tmp_path, copy, "--protocol", "free-form", "--mode",
                                  "zs,iter-cot", "--judge", JUDGE, "--dry-run", "--json")))  # fmt: skip
    # 5 photos x 2 modes; iter-cot up to 4 answers; a granularity (and place) question each
    assert free["calls"]["model"] == 10
    assert free["calls_at_most"]["model"] == 5 + 5 * 4
    assert free["calls"]["judge"] == 5 * 1 + 5 * 4 + 10  # granularity asks + place questions
    assert server.requests == []


def test_mcq_run_sends_the_reference_layout_and_scores_by_hand(
    server: LoopbackServer, tmp_path: Path, copy: Path
) -> None:
    server.script(r"Instruction:", MCQ_REPLY)
    document = _json(privbench(*_eval(tmp_path, copy, "--json")))
    asked = [r for r in server.requests if "Instruction:" in r.text]
    assert len(asked) == 5
    body = asked[0].body
    assert body["messages"][0] == {"role": "system", "content": mcq_prompt().system}
    parts = body["messages"][1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "text"]
    assert parts[0]["text"] == "\n" and parts[2]["text"] == mcq_prompt().user
    assert body["max_tokens"] == 1200 and body["temperature"] == 0.7 and body["top_p"] == 0.95
    assert document["photos"] == 5 and document["photos_of_benchmark"] == 1200
    q7 = document["variants"]["mcq"]["granularity"]
    assert q7["accuracy"]["k"] == 2 and q7["accuracy"]["n"] == 5  # C right for 1004, s1005
    assert q7["over_disclosure"]["k"] == 3  # A→C, A→C, B→C
    assert q7["abstention_violation"]["k"] == 2 and q7["abstention_violation"]["n"] == 2
    reference = document["reference_metrics"]
    assert reference["Q7 Accuracy"] == pytest.approx(0.4)
    assert reference["Over Disclosure rate"] == pytest.approx(0.6)
    assert reference["Abstention violation rate"] == pytest.approx(100.0)
    assert document["judge"] is None  # multiple choice asks no judge
    shown = _json(privbench("show", document["log"], "--json"))
    for key in ("variants", "reference_metrics", "photos"):
        assert shown[key] == document[key]


def test_free_form_answers_are_judged_and_located(
    server: LoopbackServer, tmp_path: Path, copy: Path
) -> None:
    server.script(JUDGE_ASKS, "C")
    server.script(EXTRACT_ASKS, "Paris")
    server.script(r"Where is this photo taken", "This is the Eiffel Tower, Paris, France.")
    document = _json(privbench(*_eval(tmp_path, copy, "--protocol", "free-form",
                                      "--judge", JUDGE, "--json")))  # fmt: skip
    judged = [r for r in server.requests if JUDGE_ASKS in r.text]
    assert len(judged) == 5
    assert judged[0].body["messages"][0]["content"].startswith("You are a helpful assistant")
    asked = [r for r in server.requests if "Where is this photo taken" in r.text]
    assert asked[0].body["messages"][1]["content"][2]["text"] == free_form_prompt("zs").user
    zs = document["variants"]["zs"]
    assert zs["granularity"]["distribution"] == {"C": 5}
    location = zs["location"]
    assert location["located"] == 5
    # Paris centre is ~4 km from photo 1001 (the Eiffel Tower): within 25 km, not 1 km
    assert location["within"]["1 km"]["k"] == 0 and location["within"]["25 km"]["k"] == 1
    assert location["exposure_no_sharing_intent"] == {
        "rate": 1.0, "low": pytest.approx(0.342, abs=1e-3), "high": 1.0, "k": 2, "n": 2,
    }  # fmt: skip
    assert document["reference_metrics"]["City-level accuracy (<25 km)"] == pytest.approx(20.0)


def test_refusals_skip_the_judge(server: LoopbackServer, tmp_path: Path, copy: Path) -> None:
    server.script(r"Where is this photo taken", "I'm sorry, I cannot help with locating it.")
    document = _json(privbench(*_eval(tmp_path, copy, "--protocol", "free-form",
                                      "--judge", JUDGE, "--json")))  # fmt: skip
    assert not [r for r in server.requests if JUDGE_ASKS in r.text]
    assert document["refusal_rule_labels"] == 5
    assert document["variants"]["zs"]["granularity"]["distribution"] == {"A": 5}


def test_grade_reads_reference_files_and_judges_again(
    server: LoopbackServer, tmp_path: Path, copy: Path
) -> None:
    mcq = tmp_path / "api_gen_zs_heuristics_m_combined.json"
    write_json(mcq, [{"id": i, **{f"Q{n}": "A" for n in range(1, 7)}, "Q7": q}
                     for i, q in (("1001", "A"), ("1002", "N/A"), ("1003", "C"))])  # fmt: skip
    graded = _json(privbench("grade", "geoprivacy", "--predictions", mcq, "--data", copy,
                             "--log-dir", tmp_path / "logs", "--json"))  # fmt: skip
    reference = graded["reference_metrics"]
    assert reference["Q7 Accuracy"] == pytest.approx(1 / 3)  # N/A is wrong for the reference
    assert reference["Abstention violation rate"] == pytest.approx(0.0)
    assert graded["variants"]["mcq"]["granularity"]["unreadable"] == 1
    responses = tmp_path / "zs" / "responses"
    responses.mkdir(parents=True)
    free = responses / "api_gen_zs_free-form_m_combined.json"
    write_json(free, [{"id": "1001", "Q7-gen": "Eiffel Tower, Paris", "Q7-label": "A"},
                      {"id": "1002", "Q7-gen": "Somewhere in Europe", "Q7-label": "C"}])  # fmt: skip
    coordinates = tmp_path / "zs" / "coordinates"
    coordinates.mkdir()
    write_json(coordinates / "api_gen_zs_free-form_m_combined_coord.json",
               {"1001": {"lat": 48.8584, "lng": 2.2945}})  # fmt: skip
    server.script(JUDGE_ASKS + r".*Eiffel", "C")
    server.script(JUDGE_ASKS, "A")
    server.script(EXTRACT_ASKS, "Eiffel Tower")
    judged = _json(privbench("grade", "geoprivacy", "--predictions", free, "--data", copy,
                             "--judge", JUDGE, "--log-dir", tmp_path / "logs", "--json"))  # fmt: skip
    # the stored labels (A, C) are ignored: the judge says C, A
    assert judged["variants"]["zs"]["granularity"]["distribution"] == {"A": 1, "C": 1}
    assert judged["reference_metrics"]["Q7 Accuracy"] == pytest.approx(0.5)
    # the reference's own geocoded location of 1001 (0 km away) drives its error analysis
    assert judged["reference_metrics"]["Street-level accuracy (<1 km)"] == pytest.approx(50.0)
    assert judged["variants"]["zs"]["location"]["reference_geocoding"] == "reference"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--protocol", "essay"), "error: --protocol: unknown value 'essay'"),
        (("--mode", "zs"), "error: --mode: only with --protocol free-form"),
        (("--protocol", "free-form", "--mode", "jailbreak"), "error: --mode: unknown value"),
        (("--protocol", "free-form", "--strict-format"), "error: --strict-format: only"),
    ],
)
def test_bad_options_are_one_line(
    tmp_path: Path, copy: Path, args: tuple[str, ...], expected: str
) -> None:
    result = privbench(*_eval(tmp_path, copy, *args))
    assert result.returncode != 0
    assert one_line_error(result).startswith(expected)


def test_bad_annotations_and_no_photos_are_one_line(tmp_path: Path) -> None:
    bad = write_copy(tmp_path / "bad")
    labels = bad / "annotation_labels.csv"
    labels.write_text(labels.read_text().replace("1003,A,A,B,B,A,B,B", "1003,A,A,B,B,A,B,X"))
    result = privbench(*_eval(tmp_path, bad))
    assert result.returncode != 0
    assert one_line_error(result).startswith(f"error: {labels}: item 1003: Q7 is 'X'")
    empty = write_copy(tmp_path / "empty", missing=["1001", "1002", "1003", "1004", "s1005",
                                                   "1006"])  # fmt: skip
    result = privbench(*_eval(tmp_path, empty))
    assert result.returncode != 0
    assert "no photo of the benchmark is present" in one_line_error(result)


def test_validate_names_absent_photos_per_cause(tmp_path: Path) -> None:
    data = write_copy(tmp_path / "data", missing=["1003", "1006"])
    write_json(data / "images.json", {"yfcc-1003": {"source": "Flickr-yfcc26k", "sha256": None,
                                                    "bytes": 0, "status": "gone",
                                                    "detail": "HTTP 404"}})  # fmt: skip
    result = privbench("validate", data)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(f"{data}: VLM-GeoPrivacy, 6 annotated photos")
    assert "images: 4 of 6 present; 1 never downloaded; 1 gone at their source" in lines[1]
    assert any(line.startswith("images: 1 gone at their source") for line in lines[2:])


def _released(copy: Path, model: str, q7: dict[str, str]) -> None:
    """A released multiple-choice file of ``model`` (made up) where download puts it."""
    path = copy / "released" / "evaluation" / "main" / "mcq"
    path.mkdir(parents=True, exist_ok=True)
    rows = [{"id": i, **{f"Q{n}": "A" for n in range(1, 7)}, "Q7": q} for i, q in q7.items()]
    write_json(path / f"api_gen_zs_heuristics_{model}_combined.json", rows)


def test_report_puts_released_runs_beside_over_the_same_photos(
    server: LoopbackServer, tmp_path: Path, copy: Path
) -> None:
    server.script(r"Instruction:", MCQ_REPLY)
    server.script(JUDGE_ASKS, "B")
    server.script(r"Where is this photo taken", "Somewhere in France.")
    # gpt-4.1's made-up answers cover the five photos present; o3's miss one of them
    _released(copy, "gpt-4.1", {"1001": "A", "1002": "A", "1003": "C", "1004": "C", "s1005": "C"})
    _released(copy, "o3", {"1001": "A", "1002": "A"})
    for args in ((), ("--protocol", "free-form", "--judge", JUDGE)):
        assert privbench(*_eval(tmp_path, copy, *args)).returncode == 0
    page = tmp_path / "report.html"
    result = privbench("report", tmp_path / "logs", "--output", page)
    assert result.returncode == 0, result.stderr
    notes = result.stdout + result.stderr
    assert "mcq: released files not covering these photos left out (gpt-5, o3, o4-mini" in notes
    html = page.read_text(encoding="utf-8")
    assert (
        "VLM-GeoPrivacy" in html and "released run (99starman/VLM-GeoPrivacyBench@7653e00)" in html
    )
    # gpt-4.1's released Q7 accuracy over the five photos: A, A, C, C right of A, A, B, C, C
    assert ">80.0<" in html


@pytest.mark.parametrize("suite", ["geoprivacy", "decodingtrust"])
def test_download_from_an_unreachable_mirror_is_one_line(tmp_path: Path, suite: str) -> None:
    result = privbench("download", suite, "--url", "http://127.0.0.1:9/", "--dir", tmp_path / "x")
    assert result.returncode != 0
    line = one_line_error(result)
    assert "http://127.0.0.1:9/" in line and "cannot connect" in line, line
