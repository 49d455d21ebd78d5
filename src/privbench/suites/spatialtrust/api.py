"""Python API for SpatialTrust runs: what ``privbench eval/grade spatialtrust`` call."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log
from rich.console import RenderableType

from privbench.dataset_identity import dataset_hash
from privbench.exports import ExportError, export_failure
from privbench.formatting import usage_lines
from privbench.published import PublishedTable
from privbench.runtime.cost.plan import Prices
from privbench.runtime.cost.usage import log_cost, log_cost_line
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.hooks import checked_out_dir
from privbench.runtime.log_reading import token_totals
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.run_names import answers_name, label_task
from privbench.runtime.running import (
    NO_MODEL,
    RunOptions,
    RunOutcome,
    resume_task,
    run_model_task,
    run_task,
)
from privbench.runtime.suite import ResumeRequest, flag_setting
from privbench.suites.spatialtrust.aggregate import SpatialScores, spatial_scores
from privbench.suites.spatialtrust.dataset import SpatialItem, load_spatialtrust
from privbench.suites.spatialtrust.drafts import ALLOW_DRAFTS_FLAG, draft_annotations, refusal
from privbench.suites.spatialtrust.exports import check_free, write_spatial_exports
from privbench.suites.spatialtrust.log import SpatialTrustLog, json_document, spatialtrust_log
from privbench.suites.spatialtrust.predictions import load_spatial_predictions
from privbench.suites.spatialtrust.published import NOTE, spatial_published
from privbench.suites.spatialtrust.regrade import (
    ConventionCheck,
    convention_check,
    full_samples,
    logged_answer,
    regraded_log,
)
from privbench.suites.spatialtrust.tables import (
    invalid_box_lines,
    published_beside,
    run_notes,
    task_table,
)
from privbench.suites.spatialtrust.task import default_data_dir, spatialtrust, spatialtrust_grade


@dataclass(frozen=True)
class SpatialTrustRun(RunOutcome):
    """The outcome of a SpatialTrust eval or grade run."""

    strategy: str
    logged: SpatialTrustLog
    scores: SpatialScores
    extra_ids: dict[str, list[str]] = field(default_factory=dict)
    """Per input file, ids that match no image (reported, not scored)."""
    exports: dict[str, str] = field(default_factory=dict)
    box_format: str = "xyxy"
    box_check: ConventionCheck | None = None
    """:func:`~privbench.suites.spatialtrust.regrade.convention_check` of the run's boxes."""
    regraded_from: str | None = None
    """The box format the run was made with, when it was read again in another."""
    export_error: str | None = None
    """Why the exports could not be written (the scores and the log are intact)."""
    compare_published: bool = False
    """Show the paper's Tables 2 and 3 beside the run (``--compare-published``)."""
    prices: Prices = field(default_factory=Prices)
    """The prices the run's cost is given in (``--price``, ``--judge-price``, the table)."""

    @property
    def item_errors(self) -> dict[str, str]:
        return self.logged.errors

    @property
    def published(self) -> list[PublishedTable]:
        """The paper's Tables 2 and 3 when asked for (over the paper's own captures)."""
        return spatial_published() if self.compare_published else []

    @property
    def published_missing(self) -> str | None:
        """Why no paper rows stand beside the run, when there are none (else None)."""
        return None if self.published else "they are shown only with --compare-published"

    @property
    def judge_name(self) -> str:
        return self.logged.judge

    def terminal(self) -> list[RenderableType]:
        """Table 2 beside the trivial baseline, the run's notes, what is incomplete, where
        files went."""
        document = self.json()
        baseline = document["baseline"]
        parts: list[RenderableType] = [
            task_table(
                self.model,
                self.strategy,
                self.scores,
                baseline if isinstance(baseline, dict) else None,
            )
        ]
        if self.regraded_from:
            parts.append(
                f"boxes read as {self.box_format} (the run used {self.regraded_from}); "
                "q4/q5 keep the judge's logged verdicts"
            )
        parts += run_notes(self.scores, self.logged, document)
        parts += invalid_box_lines(self.logged)
        if self.logged.missing or self.logged.errors:
            parts.append(
                f"PARTIAL: {len(self.logged.missing)} image(s) not run, "
                f"{len(self.logged.errors)} failed"
            )
        parts += usage_lines(
            token_totals(self.log),
            log_cost_line(self.log, self.prices),
            self.logged.versions.line(),
        )
        parts += published_beside(self.model, self.scores, self.published)
        parts.append(f"log: {self.log_location}")
        parts += [f"{kind}: {path}" for kind, path in self.exports.items()]
        return parts

    def json(self) -> dict[str, Any]:  # tests and callers read nested values
        """The ``--json`` document."""
        document = json_document(
            self.scores,
            self.logged,
            label=self.model,
            strategy=self.strategy,
            log=self.log,
            extra_ids=self.extra_ids,
            exports=self.exports,
        )
        warnings = [] if self.logged.drafts is None else [self.logged.drafts.line()]
        if self.logged.pipeline is not None:
            warnings += self.logged.pipeline.warnings()
        if self.box_check and self.box_check.get("warning"):
            warnings.append(str(self.box_check["warning"]))
        return {
            **document,
            "box_format": self.box_format,
            "regraded_from": self.regraded_from,
            "box_convention_check": self.box_check,
            "warnings": warnings,
            "published": [row for t in self.published for row in t.documents(NOTE)],
            **log_cost(self.log, self.prices),
        }


def _log_items(log: EvalLog) -> dict[str, SpatialItem] | None:
    """The log's dataset, when it is still where the run found it."""
    data = RunIdentity.from_log(log).data
    if not data or not Path(data).is_dir():
        return None
    try:
        return {item.id: item for item in load_spatialtrust(str(data))}
    except PrivbenchError:
        return None


def finish_spatialtrust(
    log: EvalLog,
    model_name: str | None = None,
    *,
    out_dir: Path | None = None,
    extra_ids: dict[str, list[str]] | None = None,
    overwrite: bool = False,
    box_format: str | None = None,
    refuse_existing: bool = False,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> SpatialTrustRun:
    """Scores, the box-convention check and exports of a finished (or stopped) run.

    ``model_name``: a label to show instead of the run's own (:meth:`RunIdentity.label`).
    ``box_format``: read the log's answers again in this convention (no model call).
    ``refuse_existing``: stop on existing exports instead of writing beside them.
    The run is built with everything it shows; the exports (written from its ``--json``
    document as logged) come back in a copy of it.
    """
    identity = RunIdentity.from_log(log)
    model, strategy = identity.label(model_name), identity.strategy_name
    made_with = identity.box_format
    items = _log_items(log)
    regraded_from = None
    if box_format is not None and box_format != made_with:
        if items is None:
            raise UsageError(
                f"{log.location}: its dataset ({RunIdentity.from_log(log).data or None}) is not "
                "where the run found it, so its answers cannot be read again"
            )
        log, regraded_from = regraded_log(log, items, box_format), made_with
    logged = spatialtrust_log(log)
    read_as = box_format or made_with
    box_check = None
    if items is not None and logged.items:
        answers = [a for s in full_samples(log) if (a := logged_answer(s)) is not None]
        if answers:
            box_check = convention_check(answers, items, read_as)
    run = SpatialTrustRun(
        model,
        log,
        strategy,
        logged,
        spatial_scores(logged.items),
        extra_ids or {},
        box_format=read_as,
        box_check=box_check,
        regraded_from=regraded_from,
        compare_published=compare_published,
        prices=prices or Prices(),
    )
    if out_dir is None or not logged.items:
        return run
    # the summary file holds the run as logged: no paper rows, the price table's prices
    as_logged = replace(run, compare_published=False, prices=Prices())
    try:  # what completed, even if the run did not
        exports = write_spatial_exports(
            as_logged.json(),
            run.scores,
            logged,
            out_dir,
            overwrite=overwrite,
            refuse_existing=refuse_existing,
        )
    except ExportError as error:  # shown after the tables: the scores are not lost
        return replace(run, export_error=export_failure(error, run.log_location))
    return replace(run, exports=exports)


def _check_reviewed(directory: Path, items: list[SpatialItem], allow_drafts: bool) -> None:
    """Stop (one line, before anything is paid) on images no person reviewed."""
    drafts = draft_annotations(items)
    if drafts is not None and not allow_drafts:
        raise UsageError(refusal(directory, drafts, ALLOW_DRAFTS_FLAG))


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
    reask_unparsed: int = 0,
    overwrite: bool = False,
    allow_drafts: bool = False,
    label: str | None = None,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> SpatialTrustRun:
    """Answer every capture with ``model`` using ``strategy`` and score the answers.

    ``reask_unparsed``: times an unreadable answer is asked again (0: one pass, as the
    paper); ``overwrite``: replace this run's exports in ``out_dir`` if they exist;
    ``allow_drafts``: run even on annotations no person reviewed (the run says so);
    ``label``: the run's display name (default: ``model``), recorded in the log.
    """
    options = options or RunOptions()
    directory = Path(data) if data else default_data_dir()
    # a clear error before the model is called
    _check_reviewed(directory, load_spatialtrust(directory), allow_drafts)
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    if out is not None:
        check_free(
            label or model, options.judge.name, strategy, box_format, out, overwrite,
            dataset_hash(directory),
        )  # fmt: skip
    task = spatialtrust(
        data=str(directory),
        strategy=strategy,
        box_format=box_format,
        judge=options.task_judge,
        cache=options.generation.cache,
        reask_unparsed=reask_unparsed,
        allow_drafts=allow_drafts,
        judge_card=options.judge_card,
    )
    label_task(task, label)
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return finish_spatialtrust(
        log,
        label or model,
        out_dir=out,
        overwrite=overwrite,
        prices=prices,
        compare_published=compare_published,
    )


def grade_spatialtrust(
    data: str | Path | None,
    predictions: str | Path,
    *,
    model_name: str | None = None,
    box_format: str = "xyxy",
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
    overwrite: bool = False,
    allow_drafts: bool = False,
    label: str | None = None,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> SpatialTrustRun:
    """Score ``preds.jsonl`` (boxes in ``box_format``) against a SpatialTrust directory.

    Everything that can be wrong with the file (missing ids, most questions unparsable),
    images no person reviewed (unless ``allow_drafts``) and an unwritable ``out_dir`` end
    the run before the judge is called. Exports (the per-image scores CSV and the JSON
    summary) go to ``out_dir`` when it is given.

    ``model_name``: the model that made the predictions (default: the one the file's path
    names: :func:`~privbench.runtime.run_names.answers_name`); ``label``: the run's display
    name (default: that model). Both are recorded in the log.
    """
    options = options or RunOptions()
    directory = Path(data) if data else default_data_dir()
    items = load_spatialtrust(directory)
    _check_reviewed(directory, items, allow_drafts)
    loaded = load_spatial_predictions(Path(predictions), [item.id for item in items])
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    graded_model = model_name or answers_name(Path(predictions).absolute())
    if out is not None:
        check_free(
            label or graded_model, options.judge.name, "predictions", box_format, out, overwrite,
            dataset_hash(directory),
        )  # fmt: skip
    # building the task parses every prediction: a file that mostly fails stops here
    task = spatialtrust_grade(
        predictions=str(predictions),
        data=str(directory),
        judge=options.task_judge,
        box_format=box_format,
        cache=options.generation.cache,
        allow_drafts=allow_drafts,
        judge_card=options.judge_card,
    )
    label_task(task, label, graded_model)
    # two judge calls (q4, q5) per image: half as many samples as judge connections suffice,
    # twice that keeps a freed connection busy (see bench/judge_throughput.py)
    log = run_task(task, NO_MODEL, options, True, options.judge_connections)
    extra = {str(predictions): loaded.extra_ids} if loaded.extra_ids else {}
    return finish_spatialtrust(
        log,
        label,
        out_dir=out,
        extra_ids=extra,
        overwrite=overwrite,
        prices=prices,
        compare_published=compare_published,
    )


INSPECT_TASKS = ("spatialtrust", "spatialtrust_grade")


def resume_spatialtrust(request: ResumeRequest) -> SpatialTrustRun:
    """Continue an interrupted or failed SpatialTrust eval or grade run from its log."""
    out = checked_out_dir(request.out)
    options = request.options
    final = resume_task(request.log, INSPECT_TASKS, options, options.judge_connections)
    return finish_spatialtrust(
        final,
        request.model_name,
        out_dir=out,
        overwrite=flag_setting(request.settings, "overwrite"),
        prices=request.prices,
        compare_published=request.compare_published,
    )


def read_spatialtrust_log(
    log: str | Path,
    *,
    model: str | None = None,
    out_dir: str | Path | None = None,
    box_format: str | None = None,
    overwrite: bool = False,
    compare_published: bool = False,
) -> SpatialTrustRun:
    """Scores (and, with ``out_dir``, exports) of an existing SpatialTrust inspect log.

    ``box_format``: score the log's answers as if the model had written its boxes in this
    convention (no model or judge call; q4/q5 keep the judge's logged verdicts).
    """
    out = ensure_writable_dir(out_dir, "--out") if out_dir is not None else None
    header = read_eval_log(str(log), header_only=True)
    return finish_spatialtrust(
        header,
        model,
        out_dir=out,
        box_format=box_format,
        overwrite=overwrite,
        refuse_existing=True,
        compare_published=compare_published,
    )
