"""Python API for PrivacyLens runs: what ``privbench eval/grade/show privacylens`` call.

Each function checks its inputs before anything is sent, runs the inspect task through the
shared runtime (endpoint checks, Ctrl-C, ``--resume`` through inspect's ``eval_retry``),
then reads the run's figures from the log. A final-action run asks the judge; a probing run
asks none (the task has no ``grader`` role and no judge endpoint is checked).
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
from privbench.suites.privacylens.dataset import DATA_DIR, load_privacylens
from privbench.suites.privacylens.log import PrivacyLensLog, json_document, privacylens_log
from privbench.suites.privacylens.options import (
    ACTION_MAX_TOKENS,
    INSPECT_TASKS,
    PROBING,
    PROBING_MAX_TOKENS,
    PrivacyLensOptions,
)
from privbench.suites.privacylens.predictions import load_actions
from privbench.suites.privacylens.prompts import check_protocol
from privbench.suites.privacylens.record import PRIVACYLENS_SCORER
from privbench.suites.privacylens.tables import count_lines, run_tables
from privbench.suites.privacylens.task import (
    privacylens,
    privacylens_grade,
    privacylens_probing,
)


@dataclass(frozen=True)
class PrivacyLensRun(TabledRun[PrivacyLensLog]):
    """The outcome of an eval or grade run: the figures, the log, and what was written."""

    @property
    def judge_name(self) -> str:
        """The judge of final actions (the offline one named by its PrivacyLens rules, whose
        caveat and measured agreement the run's own lines give); ``none`` for probing."""
        if self.logged.detector:
            return f"{self.logged.judge} ({self.logged.detector})"
        return self.logged.judge or "none"

    @property
    def published_missing(self) -> str | None:
        """The reference repository releases no model outputs or judge verdicts: the
        paper's figures cannot be recomputed, and are quoted in the suite's README only."""
        return (
            "PrivacyLens releases no model outputs or judge verdicts; the paper's figures "
            "are quoted in docs/privacylens.md, not recomputed"
        )

    def tables(self) -> list[RenderableType]:
        return [*run_tables(self.model, self.logged), *count_lines(self.logged)]

    def document(self) -> dict[str, Any]:
        return json_document(self.logged, label=self.model, log=self.log, exports=self.exports)


def write_actions(log: EvalLog, out_dir: Path, model: str) -> Path:
    """The run's replies in privbench's predictions format (sample id → reply), so
    ``privbench grade privacylens`` can judge them again without the model."""
    answers = {  # whole samples: a summary's answer is shortened and its spacing collapsed
        str(sample.id): score.answer or ""
        for sample in read_eval_log_samples(str(log.location), all_samples_required=False)
        if (score := (sample.scores or {}).get(PRIVACYLENS_SCORER)) is not None
    }
    return write_answers_json(out_dir, model, "privacylens-actions.json", answers)


def finish_privacylens(
    log: EvalLog,
    model_name: str | None = None,
    out_dir: Path | None = None,
    *,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> PrivacyLensRun:
    """Figures (and, with ``out_dir``, exports) of a PrivacyLens log, complete or partial."""
    identity = RunIdentity.from_log(log)
    model = identity.label(model_name)
    graded = privacylens_log(log)
    exports: dict[str, str] = {}
    export_error = None
    if out_dir is not None:
        try:
            document = json_document(graded, label=model, log=log)
            path = out_dir / f"{file_part(model)}-privacylens.json"
            exports["figures"] = str(write_export(path, json.dumps(document, indent=2)))
            if identity.model != NO_MODEL and graded.part != PROBING:
                exports["actions"] = str(write_actions(log, out_dir, model))
        except ExportError as error:
            export_error = export_failure(error, str(log.location))
    return PrivacyLensRun(
        model,
        log,
        graded,
        exports=exports,
        export_error=export_error,
        prices=prices or Prices(),
        compare_published=compare_published,
    )


def _with_max_tokens(options: RunOptions, max_tokens: int) -> RunOptions:
    """The reference's output limit unless ``--max-tokens`` was given."""
    generation: Generation = options.generation
    if generation.max_tokens is not None:
        return options
    return replace(options, generation=replace(generation, max_tokens=max_tokens))


def eval_privacylens(
    data: str | Path | None,
    model: str,
    settings: PrivacyLensOptions | None = None,
    *,
    limit: int | None = None,
    out_dir: str | Path | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> PrivacyLensRun:
    """Ask ``model`` every case's final action (judged) or probing questions.

    ``limit``: only the first N samples (in the reference's order)."""
    settings = settings or PrivacyLensOptions()
    options = options or RunOptions()
    directory = Path(data) if data is not None else DATA_DIR
    load_privacylens(directory)  # a clear error before the model is called
    exports_dir = checked_out_dir(out_dir)
    given = str(directory) if data is not None else None
    if settings.part == PROBING:
        options = replace(options, judge=parse_judge(OFFLINE_JUDGE))  # nothing is judged
        options = _with_max_tokens(options, PROBING_MAX_TOKENS)
        task = privacylens_probing(
            data=given,
            levels=joined(settings.levels),
            shuffled=settings.shuffled,
            cache=options.generation.cache,
        )
    else:
        options = _with_max_tokens(options, ACTION_MAX_TOKENS)
        task = privacylens(
            data=given,
            prompt_types=joined(settings.prompt_types),
            judge=options.task_judge,
            protocol=check_protocol(options.protocol),
            cache=options.generation.cache,
        )
    label_task(task, label)
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return finish_privacylens(log, label or model, exports_dir, prices=prices)


def grade_privacylens(
    data: str | Path | None,
    predictions: str | Path,
    *,
    prompt_type: str = "naive",
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
    label: str | None = None,
    prices: Prices | None = None,
) -> PrivacyLensRun:
    """Judge final actions made elsewhere (the reference's CSV or privbench's JSON)."""
    options = options or RunOptions()
    directory = Path(data) if data is not None else DATA_DIR
    predictions_path = Path(predictions)
    load_actions(predictions_path, load_privacylens(directory), prompt_type)  # fail early
    exports_dir = checked_out_dir(out_dir)
    task = privacylens_grade(
        predictions=str(predictions_path),
        data=str(directory),
        prompt_type=prompt_type,
        judge=options.task_judge,
        protocol=check_protocol(options.protocol),
    )
    graded_model = model_name or answers_name(predictions_path.absolute())
    label_task(task, label, graded_model)
    log = run_task(
        task, NO_MODEL, options, options.judge.calls_a_model, 2 * options.judge_connections
    )
    return finish_privacylens(log, label, exports_dir, prices=prices)


def resume_privacylens(request: ResumeRequest) -> PrivacyLensRun:
    """Continue an interrupted or failed PrivacyLens run from its log."""
    out, final = resumed(request, INSPECT_TASKS)
    return finish_privacylens(final, request.model_name, out, prices=request.prices)


read_privacylens_log = log_reader(finish_privacylens)
"""Figures (and, with ``out_dir``, exports) of an existing PrivacyLens inspect log."""
