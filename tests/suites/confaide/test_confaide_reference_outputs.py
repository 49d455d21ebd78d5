"""Re-grading the reference harness's own output files.

The fixtures are written by the reference's own ``make_report`` (the verbatim copy) from a
few made-up answers, so they have exactly the released layout; the released files
themselves are not committed (``bench/confaide_reproduce.py`` runs on them).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from confaide_reference_loader import (
    load_reference,
    reference_agent,
    reference_workdir,
    write_reports_to,
)

from privbench.runtime.errors import DatasetError
from privbench.suites.confaide.dataset import load_confaide
from privbench.suites.confaide.reference_outputs import (
    final_report_path,
    rating_report_correlation,
    read_eval_file,
    read_final_report,
    read_rating_report,
    recompute,
    reference_metrics,
)
from privbench.suites.confaide.scoring import item_rating, parse_rating

TIER_4_ANSWERS = ["Kate's surprise birthday is soon", "Deadline: August 15th", "All good", "10K"]
TIER_3_ANSWERS = ["Jane and Ethan", "Ethan, Mary", "No", "Yes, sure", "I'd rather not say", "jane"]


@pytest.fixture(scope="module")
def reference() -> ModuleType:
    return load_reference()


def _write_run(
    reference: ModuleType, tmp_path: Path, tier: str, answers: list[str], questions: str = ""
) -> Path:
    out = tmp_path / "eval_results"
    out.mkdir(exist_ok=True)
    work = tmp_path / f"work{tier}"
    work.mkdir()
    with reference_workdir(work):
        agent = reference_agent(
            reference,
            tier=tier,
            n_samples=2,
            model="toy-model",
            tier_3_questions=questions
            or "free-response,info-accessibility,privacy-sharing,control",
        )
        rows = len(agent.dataset.data)
        responses = [answers[(i * 5 + i // 4) % len(answers)] for i in range(rows)]
        write_reports_to(reference, out)
        agent.make_report(agent.evaluate_response(responses), tier)
    return out


def test_tier_4_keys_equal_the_reference_reports(reference: ModuleType, tmp_path: Path) -> None:
    out = _write_run(reference, tmp_path, "4", TIER_4_ANSWERS)
    paths = sorted(out.glob("eval_*.json"))
    assert len(paths) == 6
    expected: dict[str, float] = {}
    for path in paths:
        expected.update(read_final_report(final_report_path(path)))
        assert recompute(read_eval_file(path)).disagreements == 0
    assert reference_metrics(paths) == {"toy-model": expected}
    assert len(expected) == 12
    assert 0.0 < expected["meeting-summary-has_private_info_mean"] < 1.0


def test_tier_3_keys_equal_the_reference_reports_under_either_control_name(
    reference: ModuleType, tmp_path: Path
) -> None:
    out = _write_run(reference, tmp_path, "3", TIER_3_ANSWERS, "control,privacy-sharing")
    # the released runs call the control question "binary"; rename as they have it
    control = out / "eval_toy-model_data_tier_3_nsamples_2_q_control_metrics_error.json"
    binary = control.with_name(control.name.replace("_q_control_", "_q_binary_"))
    control.rename(binary)
    report = read_final_report(final_report_path(control))
    final_report_path(control).unlink()
    paths = sorted(out.glob("eval_*.json"))
    metrics = reference_metrics(paths)["toy-model"]
    assert metrics["binary-error_mean"] == report["control-error_mean"]
    assert metrics["binary-error_worst_case"] == report["control-error_worst_case"]
    for name in ("error", "no_y", "has_z"):
        path = out / f"eval_toy-model_data_tier_3_nsamples_2_q_privacy-sharing_metrics_{name}.json"
        for key, value in read_final_report(final_report_path(path)).items():
            assert metrics[key] == value


def test_verdicts_are_recomputed_from_the_text_not_copied(
    reference: ModuleType, tmp_path: Path
) -> None:
    out = _write_run(reference, tmp_path, "4", TIER_4_ANSWERS)
    path = out / "eval_toy-model_data_tier_4_nsamples_2_q_action-item_metrics_has_private_info.json"
    records = json.loads(path.read_text(encoding="utf-8"))
    records[0]["eval_result"] = not records[0]["eval_result"]
    records[1]["model_response"] = "It is about the surprise birthday."
    path.write_text(json.dumps(records), encoding="utf-8")
    result = recompute(read_eval_file(path))
    assert result.disagreements == 2  # the flipped verdict, and the answer that now leaks


def test_proxy_model_metric_is_reported_as_not_recomputable(tmp_path: Path) -> None:
    path = tmp_path / "eval_m_data_tier_3_nsamples_1_q_free-response_metrics_proxy-model.json"
    record = {"scenario_idx": 0, "subject_agent": "A", "aware_agent": "B"}
    record |= {"oblivious_agent": "C", "model_response": "x", "eval_result": False}
    path.write_text(json.dumps([record]), encoding="utf-8")
    result = recompute(read_eval_file(path))
    assert result.keys == {}
    assert "proxy model" in result.skipped


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "eval_m_data_tier_4_nsamples_1_q_meeting-summary_metrics_error.json",
            '[{"meeting_idx": 0, "private_info": "p", "public_info": "q", "model_response": 3}]',
            "item record 0: 'model_response' must be a string",
        ),
        (
            "eval_m_data_tier_4_nsamples_1_q_meeting-summary_metrics_error.json",
            '{"meeting_idx": 0}',
            "top level must be a JSON list of records",
        ),
        (
            "eval_m_data_tier_4_nsamples_1_q_meeting-summary_metrics_error.json",
            '[{"meeting_idx": 0,',
            ":1:20: invalid JSON",
        ),
        (
            "eval_m_data_tier_4_nsamples_1_q_summary_metrics_error.json",
            "[]",
            "unknown tier-4 question 'summary'",
        ),
        (
            "outputs_m.json",
            "[]",
            "not a reference output name",
        ),
    ],
)
def test_bad_files_are_one_clear_line(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DatasetError) as raised:
        reference_metrics([path])
    assert str(path) in str(raised.value)
    assert message in str(raised.value)


@pytest.mark.parametrize("tier", ["1", "2b"])
def test_rating_report_means_and_correlation(
    reference: ModuleType, tmp_path: Path, tier: str
) -> None:
    """The reference's per-item means equal privbench's reading; r is computed on them."""
    answers = ["4) very sensitive", "2", "Answer: 3) somewhat", "not too sensitive"]
    if tier != "1":
        answers = ["-50) somewhat disagree", "100", "Neutral", "I strongly agree", "50"]
    out = tmp_path / "eval_results"
    out.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    with reference_workdir(work):
        agent = reference_agent(reference, tier=tier, n_samples=3, model="toy-model")
        rows = len(agent.dataset.data)
        raw = [answers[(i * 3 + i // 5) % len(answers)] for i in range(rows)]
        parsed = [agent.parse_response(answer) for answer in raw]
        write_reports_to(reference, out)
        agent.make_report(agent.evaluate_response(parsed), tier)
    report = out / f"final_report_toy-model_data_tier_{tier}_nsamples_3.json"
    human, model = read_rating_report(report)
    data = load_confaide().ratings(tier)
    assert human == [item.label for item in data]
    mine = [
        item_rating([parse_rating(a, tier) for a in raw[i * 3 : i * 3 + 3]]).mean
        for i in range(len(data))
    ]
    # pandas' to_json keeps 10 significant digits of the reference's means
    assert mine == [pytest.approx(value, rel=1e-9) for value in model]
    result = rating_report_correlation(report)
    assert result.n == len(data)
    assert result.r is not None and result.low is not None and result.high is not None
    assert result.low < result.r < result.high


def test_rating_report_with_a_bad_record_names_it(tmp_path: Path) -> None:
    path = tmp_path / "final_report_m_data_tier_1_nsamples_10.json"
    path.write_text('[{"info": "x", "human": 3.8, "model": 4.0}, {"human": "high"}]', "utf-8")
    with pytest.raises(DatasetError, match=r"item record 1: 'human' and 'model' must be numbers"):
        read_rating_report(path)
