"""Python API for SpatialTrust runs: what ``privbench eval/grade spatialtrust`` call."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from privbench.runtime.log_reading import run_label
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.running import (
    NO_MODEL,
    RunOptions,
    RunOutcome,
    resume_task,
    run_model_task,
    run_task,
)
from privbench.spatialtrust.dataset import load_spatialtrust
from privbench.spatialtrust.exports import write_spatial_exports
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
    extra_ids: dict[str, list[str]] = field(default_factory=dict)
    """Per input file, ids that match no image (reported, not scored)."""
    exports: dict[str, str] = field(default_factory=dict)

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
            log=self.log,
            extra_ids=self.extra_ids,
            exports=self.exports,
        )


def _finish(
    model: str,
    strategy: str,
    log: EvalLog,
    *,
    out_dir: Path | None = None,
    extra_ids: dict[str, list[str]] | None = None,
) -> SpatialRun:
    logged = spatial_log(log)
    run = SpatialRun(model, log, strategy, logged, spatial_scores(logged.items), extra_ids or {})
    if out_dir is not None and logged.items:  # what completed, even if the run did not
        run.exports = write_spatial_exports(run.json(), run.scores, logged, out_dir)
    return run


def eval_spatialtrust(
    data: str | Path | None,
    model: str,
    *,
    strategy: str = "direct",
    box_format: str = "xyxy",
    limit: int | None = None,
    model_connections: int | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
) -> SpatialRun:
    """Answer every capture with ``model`` using ``strategy`` and score the answers."""
    options = options or RunOptions()
    directory = Path(data) if data else default_data_dir()
    load_spatialtrust(directory)  # a clear error before the model is called
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    task = spatialtrust(
        data=str(directory),
        strategy=strategy,
        box_format=box_format,
        judge=options.task_judge,
        cache=options.generation.cache,
    )
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return _finish(model, strategy, log, out_dir=out)


def grade_spatialtrust(
    data: str | Path | None,
    predictions: str | Path,
    *,
    model_name: str | None = None,
    box_format: str = "xyxy",
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
) -> SpatialRun:
    """Score ``preds.jsonl`` (boxes in ``box_format``) against a SpatialTrust directory.

    Everything that can be wrong with the file (missing ids, most questions unparsable)
    and an unwritable ``out_dir`` end the run before the judge is called. Exports (the
    per-image scores CSV and the JSON summary) go to ``out_dir`` when it is given.
    """
    options = options or RunOptions()
    directory = Path(data) if data else default_data_dir()
    items = load_spatialtrust(directory)
    loaded = load_spatial_predictions(Path(predictions), [item.id for item in items])
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    # building the task parses every prediction: a file that mostly fails stops here
    task = spatialtrust_grade(
        predictions=str(predictions),
        data=str(directory),
        judge=options.task_judge,
        box_format=box_format,
        cache=options.generation.cache,
    )
    # two judge calls (q4, q5) per image: half as many samples as judge connections suffice,
    # twice that keeps a freed connection busy (see bench/judge_throughput.py)
    log = run_task(task, NO_MODEL, options, True, options.judge_connections)
    extra = {str(predictions): loaded.extra_ids} if loaded.extra_ids else {}
    label = model_name or Path(predictions).stem
    return _finish(label, "predictions", log, out_dir=out, extra_ids=extra)


TASKS = ("spatialtrust", "spatialtrust_grade")


def _strategy(log: EvalLog) -> str:
    return str(log.eval.task_args.get("strategy") or "predictions")


def resume_spatialtrust(
    log: str | Path,
    *,
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
) -> SpatialRun:
    """Continue an interrupted or failed SpatialTrust eval or grade run from its log."""
    options = options or RunOptions()
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    final = resume_task(log, TASKS, options, options.judge_connections)
    return _finish(run_label(final, model_name), _strategy(final), final, out_dir=out)


def read_spatial_log(
    log: str | Path, *, model: str | None = None, out_dir: str | Path | None = None
) -> SpatialRun:
    """Scores (and, with ``out_dir``, exports) of an existing SpatialTrust inspect log."""
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    header = read_eval_log(str(log), header_only=True)
    return _finish(run_label(header, model), _strategy(header), header, out_dir=out)
