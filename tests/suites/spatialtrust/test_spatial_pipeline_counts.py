"""What each SpatialTrust stage did reaches the run's summary: selection failures, runs
without a lock, unreadable verifier replies, lock disagreements apart from unparsed
answers, re-asks with the score without them, and the box-convention check."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from helpers import (
    FINAL,
    FINAL_MARK,
    JUDGE_MARK,
    MODEL,
    SELECT_MARK,
    VERDICT,
    VERIFY_MARK,
    run_options,
    spatial_record,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer

from privbench.suites.spatialtrust.api import (
    SpatialTrustRun,
    eval_spatialtrust,
    read_spatialtrust_log,
)
from privbench.suites.spatialtrust.log import PipelineCounts
from privbench.suites.spatialtrust.tables import run_notes

REASK_MARK = "could not be read for"


def run(tmp_path: Path, strategy: str, n_images: int = 1, **kwargs: Any) -> SpatialTrustRun:
    records = [spatial_record(f"st-{i}") for i in range(1, n_images + 1)]
    data = write_spatial(tmp_path / "st", records)
    options = run_options(tmp_path, judge="offline")
    return eval_spatialtrust(data, MODEL, strategy=strategy, options=options, **kwargs)


def test_a_prose_selection_locks_and_an_unreadable_one_is_counted(
    server: LoopbackServer, tmp_path: Path
) -> None:
    # st-1's selection in prose lines (read), st-2's unreadable: it runs without locks
    server.script(SELECT_MARK, "q1: A\nq2: A\nq3: B, C", "I am not sure what to choose here.")
    server.script(FINAL_MARK, json.dumps({**FINAL, "q1": "A"}))
    result = run(tmp_path, "staged", n_images=2, model_connections=1)
    pipeline = result.json()["pipeline"]
    assert pipeline["selection_failures"] == {"q1": 1, "q2": 1, "q3": 1}
    assert pipeline["images_without_lock"] == 1 and pipeline["images"] == 2
    notes = run_notes(result.scores, result.logged, result.json())
    assert any("1 of 2 images without a lock" in line for line in notes)
    assert "warning: 1 of 2 images ran without a lock" in "\n".join(notes)  # 50 % > 10 %


def test_unreadable_verifier_replies_are_counted_and_keep_the_option(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(SELECT_MARK, '{"q1": "A", "q2": ["A"], "q3": ["B"]}')
    server.script(VERIFY_MARK, "It is hard to say from this angle.")
    server.script(FINAL_MARK, "Sorry, I cannot comply with that format.")
    result = run(tmp_path, "guard")
    pipeline = result.json()["pipeline"]
    assert (pipeline["verifier_calls"], pipeline["verifier_unreadable"]) == (2, 2)
    assert pipeline["audit_deletions"] == 0
    # the final answer did not parse: three locked questions unparsed, none "disagreeing"
    assert (pipeline["final_unparsed"], pipeline["lock_disagreements"]) == (3, 0)
    assert result.scores.items["st-1"]["q2"] == 0.0  # the lock holds A, but no box for it


def test_pipeline_warnings_only_above_ten_percent() -> None:
    counts = PipelineCounts(images=20, verifier_calls=30, verifier_unreadable=2)
    assert counts.warnings() == []
    counts.verifier_unreadable = 3
    assert counts.warnings() == [
        "warning: 3 of 20 verifier replies were unreadable (the option was kept)"
    ]


def test_reask_repeats_only_unreadable_answers_and_reports_the_one_pass_score(
    server: LoopbackServer, tmp_path: Path
) -> None:
    good = json.dumps(
        {**FINAL, "q1": "A", "q2": {"choices": ["A"], "boxes": {"A": [[10, 10, 50, 50]]}}}
    )
    server.script(REASK_MARK, good)
    server.default_reply = "q1: A\nI will explain the rest another time."
    result = run(tmp_path, "direct", reask_unparsed=2)
    model_calls = [
        r for r in server.requests if JUDGE_MARK not in r.text and "digit 1" not in r.text
    ]
    assert len(model_calls) == 2  # the first answer and one re-ask: the second was readable
    reask_text = model_calls[1].text
    assert "q2: missing" in reask_text and "Answer with one JSON object" in reask_text
    document = result.json()
    assert document["reask"]["reasks"] == 1 and document["reask"]["images"] == 1
    assert document["reask"]["first_parse_failures"] == {"q2": 1, "q3": 1, "q4": 1, "q5": 1}
    assert result.scores.items["st-1"]["q2"] == 1.0
    without = document["reask"]["without_reask"]
    assert without["direct_identification"] == 0.0  # one pass: q2 was unreadable
    assert without["detection"] == 100.0  # q1 was read in the first answer
    assert any(
        "without re-asks (one pass)" in line
        for line in run_notes(result.scores, result.logged, document)
    )


def test_no_reask_by_default(server: LoopbackServer, tmp_path: Path) -> None:
    server.default_reply = "q1 is A."
    result = run(tmp_path, "direct")
    assert not [r for r in server.requests if REASK_MARK in r.text]
    assert result.json()["reask"] == {
        "reasks": 0,
        "images": 0,
        "first_parse_failures": {},
        "without_reask": None,
    }


def test_a_wrong_box_convention_is_named_and_can_be_regraded_from_the_log(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, VERDICT)
    # boxes on 0–1000 (Qwen3-VL style) of the 200×100 capture, sent to a pixel run
    q2 = {"choices": ["A"], "boxes": {"A": [[50, 100, 250, 500]]}}
    q3 = {"choices": ["B"], "boxes": {"B": [[500, 100, 750, 600]]}}
    q4 = {
        "text": "A person.",
        "factors": [{"name": "person", "why": "watches", "box": [50, 100, 250, 500]}],
    }
    q5 = {
        "text": "A doorway.",
        "factors": [{"name": "door", "why": "passers-by", "box": [500, 100, 750, 600]}],
    }
    server.default_reply = json.dumps({"q1": "A", "q2": q2, "q3": q3, "q4": q4, "q5": q5})
    result = run(tmp_path, "direct")
    check = result.json()["box_convention_check"]
    assert check["given"] == "xyxy" and check["likely"] == "xyxy1000"
    assert check["overall"]["xyxy1000"] > check["overall"]["xyxy"]
    assert "privbench show LOG --box-format xyxy1000" in result.json()["warnings"][0]
    before = len(server.requests)
    regraded = read_spatialtrust_log(result.log_location, box_format="xyxy1000")
    assert len(server.requests) == before  # no model and no judge call
    assert regraded.scores.items["st-1"]["q2"] == 1.0 and regraded.logged.invalid_boxes == []
    assert regraded.json()["regraded_from"] == "xyxy" and regraded.box_format == "xyxy1000"
    assert math.isclose(regraded.scores.overall or 0.0, check["overall"]["xyxy1000"])


def test_a_non_finite_box_is_invalid_not_a_crash(server: LoopbackServer, tmp_path: Path) -> None:
    q2 = '{"choices": ["A"], "boxes": {"A": [[NaN, 10, 300, Infinity]]}}'
    server.default_reply = '{"q1": "A", "q2": ' + q2 + ', "q3": ["B"], "q4": "x", "q5": "y"}'
    result = run(tmp_path, "direct")
    document = json.loads(json.dumps(result.json(), allow_nan=False))
    (invalid,) = document["invalid_box_items"]
    assert invalid["reason"] == "not finite (NaN or infinity)"
    assert invalid["box"] == ["nan", 10, 300, "inf"]
    shown = read_spatialtrust_log(result.log_location).json()
    assert json.dumps(shown, allow_nan=False)
