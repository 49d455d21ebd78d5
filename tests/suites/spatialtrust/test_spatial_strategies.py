"""SpatialTrust strategies driven against the loopback server: what each stage sends,
what the code enforces, and how the final answer is scored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
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

from privbench.suites.spatialtrust.api import SpatialTrustRun, eval_spatialtrust
from privbench.suites.spatialtrust.guard import verify_selection
from privbench.suites.spatialtrust.prompts import SYSTEM_PROMPT
from privbench.suites.spatialtrust.selection import normalize_selection


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_spatial(tmp_path / "st", [spatial_record()])


def model_calls(server: LoopbackServer) -> list[Any]:
    return [r for r in server.requests if JUDGE_MARK not in r.text and "digit 1" not in r.text]


def run(data: Path, tmp_path: Path, strategy: str, **kwargs: Any) -> SpatialTrustRun:
    return eval_spatialtrust(
        data, MODEL, strategy=strategy, options=run_options(tmp_path), **kwargs
    )


def test_direct_is_one_call_with_the_paper_system_prompt(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, VERDICT)
    server.default_reply = "```json\n" + json.dumps({**FINAL, "q1": "A"}) + "\n```"
    result = run(data, tmp_path, "direct")
    (call,) = model_calls(server)
    messages = call.body["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    user = messages[1]["content"]
    assert user[0]["type"] == "image_url"
    text = user[1]["text"]
    for fragment in ("q1 (single choice)", "q2 (single choice, grounded)", "q3 (one or more choices, grounded)", "q4 (short answer, grounded)",
                     "E. None of the above", "absolute pixels of the 200×100 image"):  # fmt: skip
        assert fragment in text
    # the model chose A and C for q2: C is not in the ground truth → q2 = 0
    assert result.scores.items["st-1"] == {"q1": 1.0, "q2": 0.0, "q3": 0.5, "q4": 1.0, "q5": 1.0}
    assert result.json()["direct_identification"] == 0.0


def test_staged_locks_the_selection(server: LoopbackServer, data: Path, tmp_path: Path) -> None:
    server.script(JUDGE_MARK, VERDICT)
    server.script(SELECT_MARK, '{"q1": "A", "q2": ["A"], "q3": ["B", "E"]}')
    server.script(FINAL_MARK, json.dumps(FINAL))
    result = run(data, tmp_path, "staged")
    calls = model_calls(server)
    assert [SELECT_MARK in c.text for c in calls] == [True, False]
    selection_text = calls[0].text
    assert "q1 (single choice)" in selection_text and "q4" not in selection_text
    final_text = calls[1].text
    assert (
        "q1: A. Yes\nq2: A. a background person facing the screen\nq3: B. an open doorway"
        in final_text
    )
    assert not any(VERIFY_MARK in c.text for c in calls)
    # locked choices win: q1 A (not the final's B), q2 {A} (not {A, C}), C's box dropped
    assert result.scores.items["st-1"] == {"q1": 1.0, "q2": 1.0, "q3": 0.5, "q4": 1.0, "q5": 1.0}
    pipeline = result.json()["pipeline"]
    assert (pipeline["lock_disagreements"], pipeline["final_unparsed"]) == (2, 0)


def test_guard_audit_only_deletes(server: LoopbackServer, data: Path, tmp_path: Path) -> None:
    server.script(JUDGE_MARK, VERDICT)
    server.script(SELECT_MARK, '{"q1": "A", "q2": ["A", "C"], "q3": ["B"]}')
    server.script(r"selected option C:\nq2:", "DELETE")
    server.script(r"selected option B:\nq3:", "KEEP — and also add option C and D, both visible.")
    server.script(VERIFY_MARK, "KEEP")
    server.script(FINAL_MARK, json.dumps(FINAL))
    result = run(data, tmp_path, "guard")
    calls = model_calls(server)
    verified = [c.text for c in calls if VERIFY_MARK in c.text]
    assert len(calls) == 1 + 3 + 1
    assert sorted(t.split("selected option ", 1)[1][:6] for t in verified) == [
        "A:\nq2:",
        "B:\nq3:",
        "C:\nq2:",
    ]
    final_text = calls[-1].text
    assert "q2: A. a background person facing the screen\nq3: B. an open doorway" in final_text
    strategy = json.loads(json.dumps(result.log.location and result.json()))  # document is JSON
    assert strategy["pipeline"]["audit_deletions"] == 1
    assert strategy["pipeline"]["verifier_calls"] == 3
    assert result.scores.items["st-1"]["q2"] == 1.0  # only A kept, grounded
    assert result.scores.items["st-1"]["q3"] == 0.5  # C/D never added by the verifier


def test_guard_deleting_everything_becomes_none_of_the_above(
    server: LoopbackServer, tmp_path: Path
) -> None:
    record = spatial_record(q1="B", q2=(["E"], {}), q3=(["E"], {}), q4_factors=[], q5_factors=[])
    data = write_spatial(tmp_path / "st", [record])
    server.script(JUDGE_MARK, '{"factors": [], "unsupported": false, "states_none": true}')
    server.script(SELECT_MARK, '{"q1": "A", "q2": ["B"], "q3": ["A", "C"]}')
    server.script(VERIFY_MARK, "DELETE")
    none_final = {"q1": "A", "q2": {"choices": ["E"], "boxes": {}}, "q3": {"choices": ["E"], "boxes": {}},
                  "q4": {"text": "None visible.", "factors": []}, "q5": {"text": "None visible.", "factors": []}}  # fmt: skip
    server.script(FINAL_MARK, json.dumps(none_final))
    result = run(data, tmp_path, "guard")
    final_text = model_calls(server)[-1].text
    assert "q1: A. Yes\nq2: E. None of the above\nq3: E. None of the above" in final_text
    # q1 is never changed by the audit: the locked A stays (ground truth B)
    assert result.scores.items["st-1"] == {"q1": 0.0, "q2": 1.0, "q3": 1.0, "q4": 1.0, "q5": 1.0}


def test_invalid_verdicts_are_unscored_not_zero(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, "Both factors look right to me. Score: 1.0")
    server.default_reply = json.dumps({**FINAL, "q1": "A", "q2": {"choices": ["A"], "boxes": {}}})
    result = run(data, tmp_path, "direct")
    judge_calls = [r for r in server.requests if JUDGE_MARK in r.text]
    assert len(judge_calls) == 2 * 3  # q4 and q5, three tries each
    assert [r.body["temperature"] for r in judge_calls if "Describe direct" in r.text] == [
        0.0,
        0.5,
        1.0,
    ]
    document = result.json()
    assert result.scores.items["st-1"]["q4"] is None and result.scores.items["st-1"]["q5"] is None
    assert document["unscored"] == 2 and document["direct_explanation"] is None
    assert document["overall"] is None  # not all five task scores exist


def test_unparsable_answer_scores_zero_and_is_counted(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.default_reply = "There is a person behind the user and an open door."
    result = run(data, tmp_path, "direct", box_format="xyxy1000")
    assert result.scores.items["st-1"] == {"q1": 0.0, "q2": 0.0, "q3": 0.0, "q4": 0.0, "q5": 0.0}
    assert result.json()["parse_failures"] == {"q1": 1, "q2": 1, "q3": 1, "q4": 1, "q5": 1}
    assert not [r for r in server.requests if JUDGE_MARK in r.text]  # nothing to judge


def test_model_boxes_are_converted_with_box_format(
    server: LoopbackServer, data: Path, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, VERDICT)
    on_1000 = {**FINAL, "q1": "A", "q2": {"choices": ["A"], "boxes": {"A": [[50, 100, 250, 500]]}}}
    server.default_reply = json.dumps(on_1000)
    result = run(data, tmp_path, "direct", box_format="xyxy1000")
    (call,) = model_calls(server)
    assert "normalised to 0–1000" in call.text
    assert result.scores.items["st-1"]["q2"] == 1.0  # (50,100,250,500)/1000 of 200×100 = GT box


def test_selection_normalisation_and_verification_rules() -> None:
    assert normalize_selection(("B", "E"), "E") == ("B",)
    assert normalize_selection(("E",), "E") == ("E",)
    assert verify_selection(("A", "C"), {"A": "keep", "C": "delete", "D": "keep"}, "E") == ("A",)
    # an unreadable reply deletes nothing
    assert verify_selection(("A",), {"A": None}, "E") == ("A",)
    assert verify_selection(("A", "C"), {"A": "delete", "C": "delete"}, "E") == ("E",)
    assert verify_selection(("A",), {"A": "delete"}, None) == ()
