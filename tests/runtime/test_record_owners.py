"""Each record lives with its owner, and what the logs hold is written as before.

Why: the runtime holds only what every benchmark shares (the task record, the run's
identity, call counts, judge cards); a benchmark's score records belong in its own
folder, so that adding a benchmark never edits the runtime. Moving a record must not
change one byte of what a log stores, or older logs would read differently: the
serialised shapes below are the ones earlier privbench versions wrote.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from helpers.paths import REPO
from inspect_ai.scorer import Score

from privbench.runtime.records.task import DraftAnnotations, TaskRecord
from privbench.suites.priviq.record import PrivIQScoreRecord
from privbench.suites.spatialtrust.record import SpatialScoreRecord
from privbench.tooling.spatialtrust_builder.record import DraftScoreRecord

SRC = REPO / "src" / "privbench"


def _classes(folder: Path) -> dict[str, str]:
    """Class name → file, for every class defined under ``folder``."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = str(path.relative_to(SRC))
    return found


def test_the_runtime_defines_no_benchmark_s_score_record() -> None:
    owned = ("PrivIQ", "Spatial", "DraftScore", "DraftElement", "StrategyRecord", "JudgeDetail")
    in_runtime = {
        name: path for name, path in _classes(SRC / "runtime").items() if name.startswith(owned)
    }
    assert in_runtime == {}


def test_each_suite_holds_its_score_records() -> None:
    assert _classes(SRC / "suites" / "priviq")["PrivIQScoreRecord"] == "suites/priviq/record.py"
    spatial = _classes(SRC / "suites" / "spatialtrust")
    assert spatial["SpatialScoreRecord"] == "suites/spatialtrust/record.py"
    builder = _classes(SRC / "tooling" / "spatialtrust_builder")
    assert builder["DraftScoreRecord"] == "tooling/spatialtrust_builder/record.py"


def test_priviq_score_metadata_is_written_as_before() -> None:
    metadata = {
        "call_retries": {"judge": 1},
        "protocol": "reference",
        "judge": "offline",
        "runs": [0.5, None],
        "replies": [["a"], ["b", "c"]],
        "judge_reported_model": ["x", "y"],
        "reused_runs": 1,
    }
    record = PrivIQScoreRecord.from_score(Score(value={"score": 0.5}, metadata=metadata))
    assert json.dumps(record.metadata()) == json.dumps(metadata)
    assert [run.unreadable_replies for run in record.judge_runs()] == [0, 2]


def test_spatial_score_metadata_is_written_as_before() -> None:
    metadata = {
        "replaced_characters": {"model": 2},
        "prediction": {"q1": "a"},
        "parse_failures": {"q2": "no answer"},
        "invalid_boxes": [{"reason": "outside"}],
        "judge": "offline",
        "judge_details": {"q4": {"replies": ["r"], "verdict": None, "reported_model": ""}},
        "strategy": {"strategy": "staged", "verifier_unparsed": 2},
    }
    record = SpatialScoreRecord.from_score(Score(value={"q1": 1.0}, metadata=metadata))
    written = record.metadata()
    assert list(written) == list(metadata)
    assert written["strategy"] == {"strategy": "staged", "verifier_unparsed": 2}
    assert record.strategy is not None and record.strategy.unreadable_verifier_replies == 2


def test_task_and_draft_records_are_written_as_before() -> None:
    task = TaskRecord(
        benchmark="spatialtrust",
        data="data/st",
        draft_annotations=DraftAnnotations(unreviewed=1, images=2),
        label="2024",
    )
    assert json.dumps(task.metadata()) == (
        '{"benchmark": "spatialtrust", "data": "data/st", '
        '"draft_annotations": {"unreviewed": 1, "images": 2}, "label": "2024"}'
    )
    draft = DraftScoreRecord(unreadable="no list")
    assert list(draft.metadata()) == [
        "call_retries",
        "replaced_characters",
        "elements",
        "unreadable",
        "skipped",
        "reported_model",
    ]
