"""Python API for SpatialTrust runs: what ``privbench eval/grade spatialtrust`` call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from privbench.running import RunOptions, RunOutcome, run_model_task, run_task
from privbench.spatialtrust.dataset import load_spatialtrust
from privbench.spatialtrust.predictions import load_spatial_predictions
from privbench.spatialtrust.results import (
    SpatialLog,
    SpatialScores,
    json_document,
    spatial_log,
    spatial_scores,
)
from privbench.spatialtrust.task import default_data_dir, spatialtrust, spatialtrust_grade


@dataclass
class SpatialRun(RunOutcome):
    """The outcome of a SpatialTrust eval or grade run."""

    strategy: str
    logged: SpatialLog
    scores: SpatialScores

    @property
    def item_errors(self) -> dict[str, str]:
        return self.logged.errors

    def json(self) -> dict[str, Any]:
        """The SPEC §5 document."""
        return json_document(
            self.scores,
            self.logged,
            model=self.model,
            strategy=self.strategy,
            log_location=self.log_location,
        )


def _finish(model: str, strategy: str, log: EvalLog) -> SpatialRun:
    logged = spatial_log(log)
    return SpatialRun(model, log, strategy, logged, spatial_scores(logged.items))


def eval_spatialtrust(
    data: str | Path | None,
    model: str,
    *,
    strategy: str = "direct",
    box_format: str = "xyxy",
    limit: int | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
) -> SpatialRun:
    """Answer every capture with ``model`` using ``strategy`` and score the answers."""
    options = options or RunOptions()
    directory = Path(data) if data else default_data_dir()
    load_spatialtrust(directory)  # a clear error before the model is called
    task = spatialtrust(
        data=str(directory), strategy=strategy, box_format=box_format, judge=options.task_judge
    )
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return _finish(model, strategy, log)


def grade_spatialtrust(
    data: str | Path | None,
    predictions: str | Path,
    *,
    model_name: str | None = None,
    options: RunOptions | None = None,
) -> SpatialRun:
    """Score ``preds.jsonl`` (pixel boxes) against a SpatialTrust directory."""
    options = options or RunOptions()
    directory = Path(data) if data else default_data_dir()
    items = load_spatialtrust(directory)
    load_spatial_predictions(Path(predictions), [item.id for item in items])
    task = spatialtrust_grade(
        predictions=str(predictions), data=str(directory), judge=options.task_judge
    )
    # two judge calls (q4, q5) per image: half as many samples as judge connections suffice,
    # twice that keeps a freed connection busy (see bench/judge_throughput.py)
    log = run_task(task, "none/none", options, True, options.judge_connections)
    return _finish(model_name or Path(predictions).stem, "predictions", log)
