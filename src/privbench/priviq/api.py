"""Python API for Priv-IQ runs: what ``privbench eval/grade priviq`` call.

Each function validates its inputs, checks the judge answers, runs the inspect task,
then derives scores and the reference-format exports from the log. Exports are written
for whatever completed even when the run ends in an error, so nothing computed is lost;
the grade file can then be passed back with ``grades=`` to resume.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from privbench.priviq.dataset import load_priviq
from privbench.priviq.exports import write_exports
from privbench.priviq.predictions import load_grade_file, load_predictions
from privbench.priviq.results import GradedLog, graded_log, json_document
from privbench.priviq.scores import PrivIQScores, priviq_scores
from privbench.priviq.task import priviq, priviq_grade
from privbench.running import RunOptions, RunOutcome, run_model_task, run_task


@dataclass
class PrivIQRun(RunOutcome):
    """The outcome of an eval or grade run: scores, the log, and what was written."""

    graded: GradedLog
    scores: PrivIQScores
    exports: dict[str, str] = field(default_factory=dict)

    @property
    def item_errors(self) -> dict[str, str]:
        return self.graded.errors

    def json(self) -> dict[str, Any]:
        """The SPEC §5 document."""
        return json_document(
            self.scores,
            self.graded,
            model=self.model,
            log_location=self.log_location,
            exports=self.exports,
        )


def _finish(model: str, log: EvalLog, out_dir: Path | None) -> PrivIQRun:
    graded = graded_log(log)
    scores = priviq_scores(graded.grades)
    run = PrivIQRun(model, log, graded, scores)
    if out_dir is not None and graded.grades:
        run.exports = write_exports(scores, graded, model=model, out_dir=out_dir)
    return run


def grade_priviq(
    data: str | Path,
    predictions: str | Path,
    *,
    grades: str | Path | None = None,
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
) -> PrivIQRun:
    """Grade a ``results.json`` against a Priv-IQ directory (the reference evaluator's job).

    Runs already in ``grades`` (a grade file) are reused, not sent to the judge again.
    Exports go to ``out_dir`` (default: beside the predictions, as the reference does).
    """
    options = options or RunOptions()
    predictions_path = Path(predictions)
    items = load_priviq(data)
    load_predictions(predictions_path, [item.id for item in items])  # fail before any call
    prior = load_grade_file(Path(grades)) if grades else {}
    needs_judge = any(
        sum(1 for r in prior.get(item.id, [])[: options.epochs] if r.score is not None)
        < options.epochs
        for item in items
    )
    task = priviq_grade(
        predictions=str(predictions_path),
        data=str(data),
        grades=str(grades) if grades else None,
        judge=options.task_judge,
        epochs=options.epochs,
        protocol=options.protocol,
    )
    # samples beyond the judge's connections wait at its connection limit, so a freed
    # connection is reused at once instead of after the next sample's setup
    log = run_task(task, "none/none", options, needs_judge, 2 * options.judge_connections)
    label = model_name or predictions_path.stem
    return _finish(label, log, Path(out_dir) if out_dir else predictions_path.parent)


def eval_priviq(
    data: str | Path | None,
    model: str,
    *,
    limit: int | None = None,
    out_dir: str | Path | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
) -> PrivIQRun:
    """Generate answers with ``model`` and grade them, in one inspect run."""
    options = options or RunOptions()
    if data is not None:
        load_priviq(data)  # a clear error before the model is called
    task = priviq(
        data=str(data) if data else None,
        judge=options.task_judge,
        epochs=options.epochs,
        protocol=options.protocol,
    )
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return _finish(model, log, Path(out_dir) if out_dir else None)


def read_priviq_log(
    log: str | Path, *, model: str | None = None, out_dir: str | Path | None = None
) -> PrivIQRun:
    """Scores (and, with ``out_dir``, exports) of an existing Priv-IQ inspect log.

    For logs written by ``inspect eval privbench/priviq`` or ``eval_set``.
    """
    header = read_eval_log(str(log), header_only=True)
    predictions = header.eval.task_args.get("predictions")
    label = model or (Path(predictions).stem if predictions else header.eval.model)
    return _finish(label, header, Path(out_dir) if out_dir else None)
