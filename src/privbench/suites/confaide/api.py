"""Python API for ConfAIde runs: what ``privbench eval/grade/show confaide`` call.

Each function checks its inputs before anything is sent, runs the inspect task through the
shared runtime (endpoint checks, Ctrl-C, ``--resume`` through inspect's ``eval_retry``), then
reads the run's figures from the log. No judge is involved unless the proxy-model metric is
asked for: the task then has no ``grader`` role and no judge endpoint is checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log_samples
from rich.console import RenderableType

from privbench.exports import ExportError, export_failure, write_answers_json, write_export
from privbench.judges.choice import parse_judge
from privbench.runtime.cost.plan import Prices
from privbench.runtime.cross_run import PublishedFigures
from privbench.runtime.errors import UsageError
from privbench.runtime.hooks import checked_out_dir, log_reader, resumed
from privbench.runtime.judge_names import OFFLINE_JUDGE
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.run_names import answers_name, file_part, label_task
from privbench.runtime.running import (
    NO_MODEL,
    RunOptions,
    run_model_task,
    run_task,
)
from privbench.runtime.suite import ResumeRequest, joined
from privbench.suite_runs import TabledRun
from privbench.suites.confaide.dataset import load_confaide
from privbench.suites.confaide.log import ConfAIdeLog, confaide_log, json_document
from privbench.suites.confaide.options import INSPECT_TASKS, ConfAIdeOptions
from privbench.suites.confaide.predictions import load_predictions
from privbench.suites.confaide.record import CONFAIDE_SCORER
from privbench.suites.confaide.tables import count_lines, metric_table, rating_table
from privbench.suites.confaide.task import confaide, confaide_grade, default_data_dir


@dataclass(frozen=True)
class ConfAIdeRun(TabledRun[ConfAIdeLog]):
    """The outcome of an eval or grade run: the figures, the log, and what was written."""

    @property
    def judge_name(self) -> str:
        """The proxy-model metric's judge; ``none`` when no judge was asked anything."""
        return self.logged.judge or "none"

    def _published(self) -> tuple[list[PublishedFigures], str]:
        from privbench.suites.confaide.report_section import published_beside_run

        return published_beside_run(self.log, self.logged)

    @property
    def published_missing(self) -> str | None:
        """Why no published figures stand beside the run (None: some do)."""
        found, reason = self._published()
        return None if found else reason or "none over the tiers and metrics of this run"

    def tables(self) -> list[RenderableType]:
        """A table per tier, and what the figures rest on."""
        parts: list[RenderableType] = []
        ratings = rating_table(self.model, self.logged)
        if ratings is not None:
            parts.append(ratings)
        for tier in ("3", "4"):
            table = metric_table(self.model, tier, self.logged.metrics)
            if table is not None:
                parts.append(table)
        parts.append(f"answers per prompt: {self.logged.samples}")
        return parts + count_lines(self.logged)

    def after_usage(self) -> list[RenderableType]:
        """The published figures beside the run's, on request."""
        if not self.compare_published:
            return []
        from privbench.suites.confaide.report_section import published_terminal

        return published_terminal(self._published()[0], self.model, self.logged)

    def document(self) -> dict[str, Any]:
        """``published``: the published figures over exactly the run's tiers and metrics,
        in its setting (empty when none apply, and why)."""
        from privbench.suites.confaide.report_section import published_document

        document = json_document(self.logged, label=self.model, log=self.log, exports=self.exports)
        found, reason = self._published()
        return {**document, "published": published_document(found), "published_note": reason}


def write_answers(log: EvalLog, out_dir: Path, model: str) -> Path:
    """The run's answers in privbench's predictions format (sample id → one per epoch), so
    ``privbench grade confaide`` can grade them again without the model."""
    answers: dict[str, list[str]] = {}
    # whole samples: a summary's answer is shortened (1,024 characters, spacing collapsed)
    given = [
        (sample.epoch, str(sample.id), score.answer or "")
        for sample in read_eval_log_samples(str(log.location), all_samples_required=False)
        if (score := (sample.scores or {}).get(CONFAIDE_SCORER)) is not None
    ]
    for _, sample_id, answer in sorted(given, key=lambda found: found[0]):
        answers.setdefault(sample_id, []).append(answer)
    return write_answers_json(out_dir, model, "confaide-answers.json", answers)


def finish_confaide(
    log: EvalLog,
    model_name: str | None = None,
    out_dir: Path | None = None,
    *,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> ConfAIdeRun:
    """Figures (and, with ``out_dir``, exports) of a ConfAIde log, complete or partial."""
    identity = RunIdentity.from_log(log)
    model = identity.label(model_name)
    graded = confaide_log(log)
    exports: dict[str, str] = {}
    export_error = None
    if out_dir is not None:
        try:
            document = json_document(graded, label=model, log=log)
            path = out_dir / f"{file_part(model)}-confaide.json"
            exports["figures"] = str(write_export(path, json.dumps(document, indent=2)))
            if identity.model != NO_MODEL:
                exports["answers"] = str(write_answers(log, out_dir, model))
        except ExportError as error:
            export_error = export_failure(error, str(log.location))
    return ConfAIdeRun(
        model,
        log,
        graded,
        exports=exports,
        export_error=export_error,
        prices=prices or Prices(),
        compare_published=compare_published,
    )


def run_judge(options: RunOptions, settings: ConfAIdeOptions) -> RunOptions:
    """The run settings the shared runtime gets: the judge only when the proxy metric is
    asked (refused with the offline judge, which has no rules for it); otherwise no judge,
    so the task gets no ``grader`` role and no judge endpoint is checked."""
    if settings.proxy:
        if not options.judge.calls_a_model:
            raise UsageError(
                "--tier-3-metrics proxy-model: needs a model judge (--judge MODEL); the "
                "offline judge has no rules for it"
            )
        return options
    return replace(options, judge=parse_judge(OFFLINE_JUDGE))  # no model: nothing is asked


def eval_confaide(
    data: str | Path | None,
    model: str,
    settings: ConfAIdeOptions | None = None,
    *,
    limit: int | None = None,
    out_dir: str | Path | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> ConfAIdeRun:
    """Answer every prompt ``settings.samples`` times with ``model``; read the verdicts.

    ``limit``: only the first N prompts (in the reference's order). The model's generation
    settings are ``options.generation`` (the command line's default temperature is 1)."""
    settings = settings or ConfAIdeOptions()
    options = run_judge(options or RunOptions(), settings)
    directory = Path(data) if data is not None else default_data_dir()
    load_confaide(directory)  # a clear error before the model is called
    exports_dir = checked_out_dir(out_dir)
    task = confaide(
        data=str(directory) if data is not None else None,
        tiers=joined(settings.tiers),
        tier_3_questions=joined(settings.tier_3_questions),
        tier_4_questions=joined(settings.tier_4_questions),
        tier_3_metrics=joined(settings.tier_3_metrics),
        privacy_prompt=settings.privacy_prompt,
        samples=settings.samples,
        judge=options.task_judge if settings.proxy else None,
        cache=options.generation.cache,
    )
    label_task(task, label)
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return finish_confaide(log, label or model, exports_dir, prices=prices)


def grade_confaide(
    data: str | Path | None,
    predictions: str | Path,
    *,
    tier_3_metrics: tuple[str, ...] = ("string-match",),
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> ConfAIdeRun:
    """Grade answers made elsewhere (privbench's predictions JSON, or the reference's
    ``eval_*.json`` files: one, or a directory of them); every verdict from the text."""
    settings = ConfAIdeOptions(tier_3_metrics=tier_3_metrics)
    options = run_judge(options or RunOptions(), settings)
    directory = Path(data) if data is not None else default_data_dir()
    predictions_path = Path(predictions)
    given = load_predictions(predictions_path, load_confaide(directory))  # fail before any call
    exports_dir = checked_out_dir(out_dir)
    task = confaide_grade(
        predictions=str(predictions_path),
        data=str(directory),
        tier_3_metrics=joined(tier_3_metrics),
        judge=options.task_judge if settings.proxy else None,
    )
    graded_model = model_name or given.model or answers_name(predictions_path.absolute())
    label_task(task, label, graded_model)
    log = run_task(task, NO_MODEL, options, settings.proxy, 2 * options.judge_connections)
    return finish_confaide(log, label, exports_dir, prices=prices)


def resume_confaide(request: ResumeRequest) -> ConfAIdeRun:
    """Continue an interrupted or failed ConfAIde eval or grade run from its log."""
    out, final = resumed(request, INSPECT_TASKS)
    return finish_confaide(final, request.model_name, out, prices=request.prices)


read_confaide_log = log_reader(finish_confaide)
"""Figures (and, with ``out_dir``, exports) of an existing ConfAIde inspect log."""
