"""Python API for DecodingTrust privacy runs: what ``privbench eval/grade/show decodingtrust``
call.

Each function checks its inputs before anything is sent (the options; the Enron files when
the Enron or PII scenario is asked; the generation files of a grade), runs the inspect task
through the shared runtime (endpoint checks, Ctrl-C, ``--resume``), then reads the run's
figures from the log. No judge is ever asked: the scoring is rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog
from rich.console import RenderableType

from privbench.exports import ExportError, export_failure, write_export
from privbench.judges.choice import parse_judge
from privbench.runtime.cost.plan import Prices
from privbench.runtime.hooks import checked_out_dir, log_reader, resumed
from privbench.runtime.judge_names import OFFLINE_JUDGE
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.run_names import file_part, label_task
from privbench.runtime.running import (
    NO_MODEL,
    RunOptions,
    run_model_task,
    run_task,
)
from privbench.runtime.suite import ResumeRequest, joined
from privbench.suite_runs import TabledRun
from privbench.suites.decodingtrust.dataset import load_enron_data
from privbench.suites.decodingtrust.exports import write_generations
from privbench.suites.decodingtrust.log import DecodingTrustLog, decodingtrust_log, json_document
from privbench.suites.decodingtrust.options import INSPECT_TASKS, DecodingTrustOptions
from privbench.suites.decodingtrust.predictions import load_generations
from privbench.suites.decodingtrust.tables import count_lines, run_tables
from privbench.suites.decodingtrust.task import decodingtrust, decodingtrust_grade


@dataclass(frozen=True)
class DecodingTrustRun(TabledRun[DecodingTrustLog]):
    """The outcome of an eval or grade run: the figures, the log, and what was written."""

    @property
    def judge_name(self) -> str:
        return "none (rules)"

    @property
    def published_missing(self) -> str | None:
        return (
            "DecodingTrust releases generations, not a figure table: grade decodingtrust on "
            "them recomputes their figures (docs/decodingtrust.md)"
        )

    def tables(self) -> list[RenderableType]:
        return [*run_tables(self.model, self.logged), *count_lines(self.logged)]

    def document(self) -> dict[str, Any]:
        return json_document(self.logged, label=self.model, log=self.log, exports=self.exports)


def finish_decodingtrust(
    log: EvalLog,
    model_name: str | None = None,
    out_dir: Path | None = None,
    *,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> DecodingTrustRun:
    """Figures (and, with ``out_dir``, exports) of a DecodingTrust log, complete or partial."""
    identity = RunIdentity.from_log(log)
    model = identity.label(model_name)
    graded = decodingtrust_log(log)
    exports: dict[str, str] = {}
    export_error = None
    if out_dir is not None:
        try:
            document = json_document(graded, label=model, log=log)
            path = out_dir / f"{file_part(model)}-decodingtrust.json"
            exports["figures"] = str(write_export(path, json.dumps(document, indent=2)))
            if identity.model != NO_MODEL:
                exports["generations"] = str(write_generations(log, out_dir, file_part(model)))
        except ExportError as error:
            export_error = export_failure(error, str(log.location))
    return DecodingTrustRun(model, log, graded, exports=exports, export_error=export_error,
                            prices=prices or Prices(), compare_published=compare_published)  # fmt: skip


def eval_decodingtrust(
    data: str | Path | None,
    model: str,
    settings: DecodingTrustOptions | None = None,
    *,
    limit: int | None = None,
    out_dir: str | Path | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> DecodingTrustRun:
    """Ask ``model`` the chosen scenarios' prompts (``limit``: the first N samples)."""
    settings = settings or DecodingTrustOptions()
    options = replace(options or RunOptions(), judge=parse_judge(OFFLINE_JUDGE))  # no judge
    if settings.needs_data:
        if data is None:
            from privbench.runtime.errors import UsageError

            raise UsageError(
                "the Enron and PII scenarios need the Enron files: run privbench download "
                "decodingtrust (real people's data, never shipped), or --scenario understanding"
            )
        load_enron_data(data)  # a clear error before the model is called
    exports_dir = checked_out_dir(out_dir)
    task = decodingtrust(
        data=str(data) if data is not None and settings.needs_data else None,
        scenarios=joined(settings.scenarios),
        enron_modes=joined(settings.enron_modes),
        pii_types=joined(settings.pii_types) if settings.pii_types else None,
        pii_modes=joined(settings.pii_modes),
        topics=joined(settings.topics) if settings.topics else None,
        questions=joined([str(q) for q in settings.questions]),
        samples=settings.samples,
        max_tokens=options.generation.max_tokens,
        cache=options.generation.cache,
    )
    label_task(task, label)
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return finish_decodingtrust(log, label or model, exports_dir, prices=prices)


def grade_decodingtrust(
    predictions: str | Path,
    *,
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> DecodingTrustRun:
    """Read the reference's generation files of one model and score them."""
    options = replace(options or RunOptions(), judge=parse_judge(OFFLINE_JUDGE))
    given = load_generations(predictions, model_name)  # fail early, name the model
    exports_dir = checked_out_dir(out_dir)
    task = decodingtrust_grade(predictions=str(predictions), model=given.model)
    label_task(task, label, given.model)
    log = run_task(task, NO_MODEL, options, False, options.judge_connections)
    return finish_decodingtrust(log, label, exports_dir, prices=prices)


def resume_decodingtrust(request: ResumeRequest) -> DecodingTrustRun:
    """Continue an interrupted or failed DecodingTrust run from its log."""
    out, final = resumed(request, INSPECT_TASKS)
    return finish_decodingtrust(final, request.model_name, out, prices=request.prices)


read_decodingtrust_log = log_reader(finish_decodingtrust)
"""Figures (and, with ``out_dir``, exports) of an existing DecodingTrust inspect log."""
