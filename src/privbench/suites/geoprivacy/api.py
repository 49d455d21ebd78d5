"""Python API for VLM-GeoPrivacy runs: what ``privbench eval/grade/show geoprivacy`` call.

Each function checks its inputs before anything is sent (the annotations, the photos
present, the predictions file), runs the inspect task through the shared runtime (endpoint
checks, Ctrl-C, ``--resume`` through inspect's ``eval_retry``), then reads the run's
figures from the log. Multiple-choice runs ask no judge (the task has no ``grader`` role
and no judge endpoint is checked); free-form runs ask the granularity judge.
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
from privbench.runtime.errors import UsageError
from privbench.runtime.hooks import checked_out_dir, log_reader, resumed
from privbench.runtime.judge_names import OFFLINE_JUDGE
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.run_names import answers_name, file_part, label_task
from privbench.runtime.running import (
    NO_MODEL,
    Generation,
    RunOptions,
    run_model_task,
    run_task,
)
from privbench.runtime.suite import ResumeRequest, joined
from privbench.suite_runs import TabledRun
from privbench.suites.geoprivacy.counts import count_lines
from privbench.suites.geoprivacy.dataset import load_geoprivacy, present_items
from privbench.suites.geoprivacy.layout import ITEMS
from privbench.suites.geoprivacy.log import GeoPrivacyLog, geoprivacy_log, json_document
from privbench.suites.geoprivacy.options import (
    INSPECT_TASKS,
    MAX_TOKENS,
    GeoPrivacyOptions,
)
from privbench.suites.geoprivacy.predictions import load_answers
from privbench.suites.geoprivacy.prompts import FREE_FORM
from privbench.suites.geoprivacy.record import GEOPRIVACY_SCORER
from privbench.suites.geoprivacy.tables import run_tables
from privbench.suites.geoprivacy.task import geoprivacy, geoprivacy_grade


@dataclass(frozen=True)
class GeoPrivacyRun(TabledRun[GeoPrivacyLog]):
    """The outcome of an eval or grade run: the figures, the log, and what was written."""

    @property
    def judge_name(self) -> str:
        """The granularity judge (the offline one named by its rules); ``none`` for
        multiple choice."""
        if self.logged.detector:
            return f"{self.logged.judge} ({self.logged.detector})"
        return self.logged.judge or "none"

    @property
    def published_missing(self) -> str | None:
        """The released runs stand beside a run in ``privbench report`` (recomputed over the
        photos its runs answered), not in the terminal."""
        return (
            "the authors' released runs, recomputed over the photos your runs answered, stand "
            "beside them in privbench report (they need privbench download geoprivacy)"
        )

    def tables(self) -> list[RenderableType]:
        return [*run_tables(self.model, self.logged), *count_lines(self.logged)]

    def document(self) -> dict[str, Any]:
        return json_document(self.logged, label=self.model, log=self.log, exports=self.exports)


def write_answers(log: EvalLog, out_dir: Path, model: str) -> Path:
    """The run's replies in privbench's predictions format (sample id → reply), so
    ``privbench grade geoprivacy`` can grade them again without the model."""
    answers = {
        str(sample.id): score.answer or ""
        for sample in read_eval_log_samples(str(log.location), all_samples_required=False)
        if (score := (sample.scores or {}).get(GEOPRIVACY_SCORER)) is not None
    }
    return write_answers_json(out_dir, model, "geoprivacy-answers.json", answers)


def finish_geoprivacy(
    log: EvalLog,
    model_name: str | None = None,
    out_dir: Path | None = None,
    *,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> GeoPrivacyRun:
    """Figures (and, with ``out_dir``, exports) of a VLM-GeoPrivacy log, complete or partial."""
    identity = RunIdentity.from_log(log)
    model = identity.label(model_name)
    graded = geoprivacy_log(log)
    exports: dict[str, str] = {}
    export_error = None
    if out_dir is not None:
        try:
            document = json_document(graded, label=model, log=log)
            path = out_dir / f"{file_part(model)}-geoprivacy.json"
            exports["figures"] = str(write_export(path, json.dumps(document, indent=2)))
            if identity.model != NO_MODEL:
                exports["answers"] = str(write_answers(log, out_dir, model))
        except ExportError as error:
            export_error = export_failure(error, str(log.location))
    return GeoPrivacyRun(
        model,
        log,
        graded,
        exports=exports,
        export_error=export_error,
        prices=prices or Prices(),
        compare_published=compare_published,
    )


def _with_max_tokens(options: RunOptions) -> RunOptions:
    """The reference's output limit unless ``--max-tokens`` was given."""
    generation: Generation = options.generation
    if generation.max_tokens is not None:
        return options
    return replace(options, generation=replace(generation, max_tokens=MAX_TOKENS))


def photos_line(directory: Path) -> str:
    """How many of the benchmark's photos a copy holds (every run says it)."""
    items = load_geoprivacy(directory)
    present = len(present_items(directory, items))
    return f"photos: {present:,} of {ITEMS:,} present in {directory}"


def eval_geoprivacy(
    data: str | Path,
    model: str,
    settings: GeoPrivacyOptions | None = None,
    *,
    limit: int | None = None,
    out_dir: str | Path | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> GeoPrivacyRun:
    """Ask ``model`` about every photo present (``limit``: the first N samples)."""
    settings = settings or GeoPrivacyOptions()
    options = options or RunOptions()
    directory = Path(data)
    items = load_geoprivacy(directory)  # a clear error before the model is called
    if not present_items(directory, items):
        raise UsageError(f"{directory}: no photo of the benchmark is present (run privbench "
                         "download geoprivacy)")  # fmt: skip
    exports_dir = checked_out_dir(out_dir)
    free_form = settings.protocol == FREE_FORM
    if not free_form:
        options = replace(options, judge=parse_judge(OFFLINE_JUDGE))  # nothing is judged
    options = _with_max_tokens(options)
    task = geoprivacy(
        data=str(directory),
        protocol=settings.protocol,
        modes=joined(settings.modes),
        heuristics=settings.heuristics,
        strict=settings.strict,
        judge=options.task_judge if free_form else None,
        cache=options.generation.cache,
    )
    label_task(task, label)
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return finish_geoprivacy(log, label or model, exports_dir, prices=prices)


def grade_geoprivacy(
    data: str | Path,
    predictions: str | Path,
    *,
    mode: str | None = None,
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> GeoPrivacyRun:
    """Grade answers made elsewhere (a reference response file or privbench's JSON)."""
    options = options or RunOptions()
    directory = Path(data)
    predictions_path = Path(predictions)
    given = load_answers(predictions_path, load_geoprivacy(directory), mode)  # fail early
    exports_dir = checked_out_dir(out_dir)
    free_form = given.protocol == FREE_FORM
    if not free_form:
        options = replace(options, judge=parse_judge(OFFLINE_JUDGE))
    task = geoprivacy_grade(
        predictions=str(predictions_path),
        data=str(directory),
        mode=mode,
        judge=options.task_judge if free_form else None,
    )
    graded_model = model_name or answers_name(predictions_path.absolute())
    label_task(task, label, graded_model)
    calls = free_form and options.judge.calls_a_model
    log = run_task(task, NO_MODEL, options, calls, 2 * options.judge_connections)
    return finish_geoprivacy(log, label, exports_dir, prices=prices)


def resume_geoprivacy(request: ResumeRequest) -> GeoPrivacyRun:
    """Continue an interrupted or failed VLM-GeoPrivacy run from its log."""
    out, final = resumed(request, INSPECT_TASKS)
    return finish_geoprivacy(final, request.model_name, out, prices=request.prices)


read_geoprivacy_log = log_reader(finish_geoprivacy)
"""Figures (and, with ``out_dir``, exports) of an existing VLM-GeoPrivacy inspect log."""
