"""``privbench eval/grade/validate confaide`` on the command line: the suite's defaults, its
options' checks, the dry run, and one real process end to end."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import MODEL, one_line_error, privbench
from helpers.loopback_server import LoopbackServer

from privbench.suites.confaide.dataset import DATA_DIR

CHECK = "Reply with the digit 1"


def _eval(tmp_path: Path, *args: str) -> list[str | Path]:
    return ["eval", "confaide", "--model", MODEL, "--log-dir", tmp_path / "logs", *args]


def model_temperatures(server: LoopbackServer) -> set[object]:
    return {r.body.get("temperature") for r in server.requests if CHECK not in r.text}


def test_temperature_defaults_to_1_and_the_option_overrides_it(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script("Information: ", "4) very sensitive")
    result = privbench(*_eval(tmp_path, "--tier", "1", "--limit", "2", "--samples", "1", "--json"))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["temperature"] == 1.0
    assert model_temperatures(server) == {1.0}
    assert document["tiers"]["1"]["item_means"] == {"tier1-0000": 4.0, "tier1-0001": 4.0}
    server.requests.clear()
    again = privbench(
        *_eval(tmp_path, "--tier", "1", "--limit", "1", "--samples", "1", "--temperature", "0")
    )
    assert again.returncode == 0, again.stderr
    assert model_temperatures(server) == {0.0}
    assert "ConfAIde ratings" in again.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--tier", "1,5"), "error: --tier: unknown value '5' (choose from 1, 2a, 2b, 3, 4)"),
        (("--tier-3-questions", "free"), "error: --tier-3-questions: unknown value 'free'"),
        (("--tier-4-questions", ","), "error: --tier-4-questions: give at least one of"),
        (
            ("--tier-3-metrics", "string-match,proxy-model", "--judge", "offline"),
            "error: --tier-3-metrics proxy-model: needs a model judge",
        ),
    ],
)
def test_bad_options_are_one_line(tmp_path: Path, args: tuple[str, ...], expected: str) -> None:
    result = privbench(*_eval(tmp_path, *args))
    assert result.returncode != 0
    assert one_line_error(result).startswith(expected)


def test_dry_run_counts_every_prompt_times_samples(tmp_path: Path) -> None:
    result = privbench(*_eval(tmp_path, "--tier", "1,4", "--samples", "3", "--dry-run", "--json"))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    # tier 1: 10 prompts; tier 4: 20 meetings x 2 tasks
    assert document["calls"] == {"model": 3 * (10 + 40), "judge": 0}
    with_proxy = privbench(
        *_eval(
            tmp_path,
            "--tier",
            "3",
            "--tier-3-questions",
            "free-response",
            "--samples",
            "2",
            "--tier-3-metrics",
            "string-match,proxy-model",
            "--dry-run",
            "--json",
        )
    )
    calls = json.loads(with_proxy.stdout)["calls"]
    assert calls == {"model": 2 * 270, "judge": 2 * 270}


def test_validate_names_the_shipped_files_and_a_modified_copy(tmp_path: Path) -> None:
    for name in (DATA_DIR, "confaide"):  # the name stands for the shipped files
        shipped = privbench("validate", name, cwd=tmp_path)
        assert shipped.returncode == 0, shipped.stderr
        assert f"{DATA_DIR}: ConfAIde, tier 1 10, tier 2a 98" in shipped.stdout
        assert "the reference's benchmark files (skywalker023/confaide@3174c63e6892)" in (
            shipped.stdout
        )
    copy = tmp_path / "copy"
    shutil.copytree(DATA_DIR, copy)
    labels = copy / "tier_1_labels.txt"
    labels.write_text(labels.read_text().replace("3.8", "1.0", 1))
    checked = privbench("validate", copy)  # the manifest names the changed file
    assert checked.returncode != 0
    assert "tier_1_labels.txt: differs from manifest.json" in checked.stdout + checked.stderr
    (copy / "manifest.json").unlink()  # a user's own copy: shape only, named as modified
    modified = privbench("validate", copy)
    assert modified.returncode == 0, modified.stderr
    assert "a modified copy (differs from the reference's files in tier_1_labels.txt)" in (
        modified.stdout
    )


@pytest.mark.e2e
def test_eval_in_a_real_process(server: LoopbackServer, tmp_path: Path) -> None:
    server.script("appropriate summary", "The surprise birthday is on August 15th.")
    result = privbench(
        *_eval(
            tmp_path,
            "--tier",
            "4",
            "--tier-4-questions",
            "meeting-summary",
            "--limit",
            "1",
            "--samples",
            "2",
            "--json",
        ),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    metrics = json.loads(result.stdout)["reference_metrics"]
    assert metrics["meeting-summary-has_private_info_mean"] == 1.0
    assert metrics["meeting-summary-no_public_info_worst_case"] == 0.0


def test_a_run_with_failed_prompts_resumes_exactly_those(
    server: LoopbackServer, tmp_path: Path
) -> None:
    from helpers.loopback_server import Fault

    server.script("social security number", "4) very sensitive")
    server.script("State of their health", Fault("500"))  # every try fails
    args = ("--tier", "1", "--limit", "2", "--samples", "2", "--max-retries", "0")
    first = privbench(*_eval(tmp_path, *args))
    assert first.returncode == 1
    (log,) = (tmp_path / "logs").glob("*.eval")
    server.rules.clear()
    server.script("State of their health", "2) not too sensitive")
    before = len(server.requests)
    resumed = privbench(
        "eval", "confaide", "--resume", log, "--log-dir", tmp_path / "logs", "--json"
    )
    assert resumed.returncode == 0, resumed.stderr
    sent = [r.text for r in server.requests[before:] if CHECK not in r.text]
    assert len(sent) == 2 and all("State of their health" in text for text in sent)
    document = json.loads(resumed.stdout)
    assert document["tiers"]["1"]["item_means"] == {"tier1-0000": 4.0, "tier1-0001": 2.0}
    assert document["status"] == "complete" and document["temperature"] == 1.0


def test_audit_counts_what_string_matching_cannot_see(tmp_path: Path) -> None:
    result = privbench("audit", DATA_DIR, "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["benchmark"] == "confaide"
    # scenario 0's control question asks about Sarah while Ethan is the questionee
    assert len(document["tier_3"]["control_names_another_sharer"]) == 11
    assert "tier3-0000" in document["tier_3"]["control_names_another_sharer"]
    assert document["labels"]["1"]["max"] == 3.8 and document["labels"]["2a"]["items"] == 98
    assert document["tier_4"]["public_info_not_in_transcript"] == []
    # "move to VISTA" is said otherwise in these transcripts: a copy of them is not a leak
    private = document["tier_4"]["private_info_not_in_transcript"]
    assert private == ["tier4-0004", "tier4-0005", "tier4-0006", "tier4-0007"]


@pytest.mark.e2e
def test_inspect_finds_the_tasks_through_the_entry_point() -> None:
    """``inspect eval privbench/confaide``: a fresh interpreter that loads privbench's inspect
    entry point knows both tasks (and reads ``-T tiers=1``, which inspect passes as a number)."""
    code = (
        "import privbench._registry\n"
        "from inspect_ai._util.registry import registry_lookup\n"
        "assert registry_lookup('task', 'privbench/confaide') is not None\n"
        "assert registry_lookup('task', 'privbench/confaide_grade') is not None\n"
        "from privbench.suites.confaide.task import confaide\n"
        "print(len(confaide(tiers=1, samples=1).dataset))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "10"


def test_tiers_and_question_types_repeat_or_take_a_comma_list(tmp_path: Path) -> None:
    """``--tier 1 --tier 2b`` plans what ``--tier 1,2b`` plans: tier 1's 10 prompts and tier
    2b's 98, once each; the question types likewise."""
    plans = []
    for args in (("--tier", "1", "--tier", "2b"), ("--tier", "1,2b"),
                 ("--tier", "3", "--tier-3-questions", "control", "--tier-3-questions",
                  "free-response")):  # fmt: skip
        result = privbench(*_eval(tmp_path, *args, "--samples", "1", "--dry-run", "--json"))
        assert result.returncode == 0, result.stderr
        plans.append(json.loads(result.stdout)["calls"]["model"])
    assert plans == [108, 108, 540]
