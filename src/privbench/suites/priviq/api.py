"""Python API for Priv-IQ runs: what ``privbench eval/grade/show priviq`` call.

Each function validates its inputs and output directories, checks that the endpoints it
will pay for answer, runs the inspect task, then derives scores and the reference-format
exports from the log. Exports are written for whatever completed even when the run ends
in an error or is interrupted (marked partial), so nothing computed is lost; ``--resume``
continues such a run from its log, and a grade file can be passed back with
``grades=`` to reuse its runs for unchanged answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from inspect_ai.log import EvalLog, read_eval_log_sample
from rich.console import RenderableType

from privbench.exports import ExportError, export_failure, write_answers_json
from privbench.formatting import usage_lines
from privbench.published import PublishedTable
from privbench.runtime.cost.plan import Prices
from privbench.runtime.cost.usage import log_cost, log_cost_line
from privbench.runtime.errors import UsageError
from privbench.runtime.hooks import checked_out_dir, log_reader, resumed
from privbench.runtime.log_reading import token_totals
from privbench.runtime.output_dirs import ensure_writable_dir
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.task import expected_ids
from privbench.runtime.run_names import answers_name, label_task
from privbench.runtime.running import (
    NO_MODEL,
    RunOptions,
    RunOutcome,
    run_model_task,
    run_task,
)
from privbench.runtime.suite import ResumeRequest
from privbench.suites.priviq.aggregate import PrivIQScores, priviq_scores
from privbench.suites.priviq.dataset import load_priviq
from privbench.suites.priviq.exports import write_exports
from privbench.suites.priviq.log import PrivIQLog, json_document, priviq_log
from privbench.suites.priviq.predictions import load_grade_file, load_predictions
from privbench.suites.priviq.published import (
    NOTE,
    ReleaseEvidence,
    comparable_on_request,
    is_public_priviq_release,
    priviq_published,
    release_evidence,
    release_reason,
    whole_data_evidence,
)
from privbench.suites.priviq.scorer import runs_to_grade
from privbench.suites.priviq.tables import (
    combination_table,
    competency_table,
    completeness_lines,
    published_beside,
    refusal_line,
    reuse_line,
    rule_lines,
    summary_line,
    truncation_lines,
)
from privbench.suites.priviq.task import priviq, priviq_grade

INSPECT_TASKS = ("priviq", "priviq_grade")


@dataclass(frozen=True)
class PrivIQRun(RunOutcome):
    """The outcome of an eval or grade run: scores, the log, and what was written."""

    logged: PrivIQLog
    scores: PrivIQScores
    exports: dict[str, str] = field(default_factory=dict)
    extra_ids: dict[str, list[str]] = field(default_factory=dict)
    """Per input file (predictions, grade file), ids that match no item: reported, unused."""
    export_error: str | None = None
    """Why the exports could not be written (the scores and the log are intact)."""
    release: ReleaseEvidence | None = None
    """What the log and the data directory say about the run's data (None: not read)."""
    compare_published: bool = False
    """The user asked for the paper's rows (``--compare-published``): shown beside data of
    the release's shape even when it is not verified, under a note that says so."""
    prices: Prices = field(default_factory=Prices)
    """The prices the run's cost is given in (``--price``, ``--judge-price``, the table)."""
    part_of: int = 0
    """A ``--limit`` run over data of the release's shape: the data's item count (the run
    answered fewer). Its data are named like a full run's; no paper rows stand beside it,
    the paper's figures being over every item. 0: not such a run."""

    @property
    def item_errors(self) -> dict[str, str]:
        return self.logged.errors

    @property
    def published(self) -> list[PublishedTable]:
        """The paper's Tables 3 and 5 when the run's data is the public release (or, asked
        for, data of its shape that is not verified); else none."""
        release = self.release
        if release is None or self.part_of:
            return []
        if is_public_priviq_release(release):
            return priviq_published()
        if self.compare_published and comparable_on_request(release):
            return priviq_published()
        return []

    @property
    def release_note(self) -> str | None:
        """How the run's data relate to the public release, when they look like it: the
        release (verified), or "data from URL, not verified against the release"."""
        release = self.release
        if release is None or not comparable_on_request(release):
            return None
        return release.note

    @property
    def published_reason(self) -> str:
        """Why the paper's rows are not shown beside this run ("" when they are)."""
        if self.part_of:
            return (
                f"the run answered {len(self.logged.grades)} of its data's {self.part_of} "
                "items (--limit); the paper's figures are over all of them"
            )
        return "" if self.release is None else release_reason(self.release)

    @property
    def published_missing(self) -> str | None:
        """Why no paper rows stand beside the run, when there are none (else None)."""
        return None if self.published else self.published_reason

    @property
    def judge_name(self) -> str:
        return self.logged.judge.judge

    def terminal(self) -> list[RenderableType]:
        """Table 3 and Table 5, the judge's identity, what is incomplete, where files went."""
        judge = self.logged.judge
        reuse = reuse_line(self.logged)
        parts: list[RenderableType] = [
            *([reuse] if reuse else []),
            competency_table(self.model, self.scores),
            combination_table(self.model, self.scores),
            summary_line(self.scores, judge.judge, judge.protocol, judge.prompt_hash),
            refusal_line(self.scores),
            *completeness_lines(self.scores, self.logged),
        ]
        parts += usage_lines(
            token_totals(self.log),
            log_cost_line(self.log, self.prices),
            self.logged.versions.line(),
            self.logged.calls.line(),
        )
        parts += truncation_lines(self.logged)
        parts += rule_lines(self.scores, self.logged)
        if self.release_note not in (None, NOTE):  # data that look like the release, unverified
            parts.append(f"data: {self.release_note}")
        parts += published_beside(
            self.model, self.scores, self.published, self.release_note or NOTE
        )
        parts.append(f"log: {self.log_location}")
        parts += [f"{kind}: {path}" for kind, path in self.exports.items()]
        return parts

    def json(self) -> dict[str, Any]:  # tests and callers read nested values
        """The ``--json`` document; ``published``: the paper's rows (empty unless the run's
        data is the public release)."""
        document = json_document(
            self.scores,
            self.logged,
            label=self.model,
            log=self.log,
            exports=self.exports,
            extra_ids=self.extra_ids,
        )
        note = self.release_note or NOTE
        document["published"] = [row for t in self.published for row in t.documents(note)]
        document["release_note"] = self.release_note
        return {**document, **log_cost(self.log, self.prices)}


def _expected_combinations(log: EvalLog) -> list[tuple[str, ...]]:
    data = RunIdentity.from_log(log).data
    if not data or not Path(data).is_dir():
        return []
    wanted = set(expected_ids(log))
    return [item.combination for item in load_priviq(str(data)) if item.id in wanted]


class _Judging(TypedDict):
    """What a Priv-IQ task is told of the run's judge: the same for eval and grade."""

    judge: str
    judge_runs: int
    protocol: str
    cache: bool
    explain: bool
    judge_card: str | None


def _judging(options: RunOptions, explain: bool) -> _Judging:
    return {
        "judge": options.task_judge,
        "judge_runs": options.judge_runs,
        "protocol": options.protocol,
        "cache": options.generation.cache,
        "explain": explain,
        "judge_card": options.judge_card,
    }


def _check_explain(explain: bool, options: RunOptions) -> None:
    if explain and not options.judge.explains:
        raise UsageError(
            "--explain: only the offline judge grades by rules it can list (--judge offline)"
        )


def write_answers(log: EvalLog, graded: PrivIQLog, out_dir: Path, model: str) -> Path:
    """The model's answers as ``results.json`` (the reference inference scripts' format).

    Read from the full samples: inspect's sample summaries shorten long text. Another
    judge can then grade them with ``privbench grade priviq`` without running the model.
    """
    location = str(log.location)
    answers: dict[str, str] = {}
    for item_id in graded.records:
        sample = read_eval_log_sample(location, item_id, 1)
        output = sample.output
        answers[item_id] = output.completion if output and output.choices else ""
    return write_answers_json(out_dir, model, "results.json", answers)


def finish_priviq(
    log: EvalLog,
    model_name: str | None = None,
    out_dir: Path | None = None,
    *,
    extra_ids: dict[str, list[str]] | None = None,
    prices: Prices | None = None,
    compare_published: bool = False,
) -> PrivIQRun:
    """Scores and exports of a Priv-IQ log, complete, partial or interrupted.

    ``model_name``: a label to show instead of the run's own (:meth:`RunIdentity.label`).
    A run that asked the model also exports its answers (``results.json``). The run is
    built once, with everything it shows (``prices``: what its cost is given in).
    """
    identity = RunIdentity.from_log(log)
    model, with_answers = identity.label(model_name), identity.is_eval
    graded = priviq_log(log)
    scores = priviq_scores(graded.grades, _expected_combinations(log))
    release = release_evidence(
        {grade.id: grade.competencies for grade in graded.grades},
        identity.data,
        identity.dataset_hash,
    )
    part_of = 0
    if identity.limit is not None:  # a part of data that may look like the release
        release, part_of = whole_data_evidence(release, identity.data)
    exports: dict[str, str] = {}
    export_error = None
    if out_dir is not None and graded.grades:
        try:
            exports = write_exports(
                scores, graded, model=model, out_dir=out_dir, dataset_hash=identity.dataset_hash
            )
            if with_answers:
                exports["answers"] = str(write_answers(log, graded, out_dir, model))
        except ExportError as error:  # shown after the tables: the scores are not lost
            export_error = export_failure(error, str(log.location))
    return PrivIQRun(
        model,
        log,
        graded,
        scores,
        exports=exports,
        extra_ids=extra_ids or {},
        export_error=export_error,
        release=release,
        compare_published=compare_published,
        prices=prices or Prices(),
        part_of=part_of,
    )


def grade_priviq(
    data: str | Path,
    predictions: str | Path,
    *,
    grades: str | Path | None = None,
    model_name: str | None = None,
    out_dir: str | Path | None = None,
    options: RunOptions | None = None,
    explain: bool = False,
    label: str | None = None,
    reuse_unverified: bool = False,
    prices: Prices | None = None,
) -> PrivIQRun:
    """Grade a ``results.json`` against a Priv-IQ directory (the reference evaluator's job).

    Runs of ``grades`` (a grade file) are reused where the answer, the judge and the
    protocol are unchanged; with ``reuse_unverified``, also runs of a file that records no
    answers (the reference evaluator's) where the judge is the same. The rest is graded.
    Exports go to ``out_dir`` (default: beside the predictions, as the reference does).

    ``model_name``: the model that made the answers (default: the one the file names, else
    the one its path names: :func:`~privbench.runtime.run_names.answers_name`); ``label``:
    the run's display name (default: that model). Both are recorded in the log.
    """
    options = options or RunOptions()
    _check_explain(explain, options)
    if reuse_unverified and not grades:
        raise UsageError("--reuse-unverified-grades: only with --grades FILE")
    predictions_path = Path(predictions)
    items = load_priviq(data)
    ids = [item.id for item in items]
    answers = load_predictions(predictions_path, ids)  # fail before any call
    extra_ids = {str(predictions_path): answers.extra_ids} if answers.extra_ids else {}
    prior = load_grade_file(Path(grades)) if grades else {}
    if grades:
        if not set(prior) & set(ids):
            raise UsageError(f"--grades {grades}: no entry matches an item of {data}")
        if unmatched := [key for key in prior if key not in answers]:
            extra_ids[str(grades)] = unmatched
    to_send = runs_to_grade(
        prior,
        dict(answers),
        judge=options.judge,
        protocol=options.protocol,
        judge_runs=options.judge_runs,
        reuse_unverified=reuse_unverified,
    )
    exports_dir = ensure_writable_dir(
        Path(out_dir) if out_dir else predictions_path.parent, "--out"
    )
    task = priviq_grade(
        predictions=str(predictions_path),
        data=str(data),
        grades=str(grades) if grades else None,
        **_judging(options, explain),
        reuse_unverified_grades=reuse_unverified,
    )
    graded_model = model_name or answers.model or answers_name(predictions_path.absolute())
    label_task(task, label, graded_model)
    # samples beyond the judge's connections wait at its connection limit, so a freed
    # connection is reused at once instead of after the next sample's setup
    log = run_task(task, NO_MODEL, options, to_send > 0, 2 * options.judge_connections)
    return finish_priviq(log, label, exports_dir, extra_ids=extra_ids, prices=prices)


def eval_priviq(
    data: str | Path | None,
    model: str,
    *,
    limit: int | None = None,
    out_dir: str | Path | None = None,
    model_connections: int | None = None,
    options: RunOptions | None = None,
    explain: bool = False,
    label: str | None = None,
    prices: Prices | None = None,
) -> PrivIQRun:
    """Answer each item once with ``model`` and grade the answer ``judge_runs`` times.

    ``label``: the run's display name (default: ``model``), recorded in the log."""
    options = options or RunOptions()
    _check_explain(explain, options)
    if data is not None:
        load_priviq(data)  # a clear error before the model is called
    exports_dir = checked_out_dir(out_dir)
    task = priviq(data=str(data) if data else None, **_judging(options, explain))
    label_task(task, label)
    log = run_model_task(task, model, options, limit=limit, model_connections=model_connections)
    return finish_priviq(log, label or model, exports_dir, prices=prices)


def resume_priviq(request: ResumeRequest) -> PrivIQRun:
    """Continue an interrupted or failed Priv-IQ eval or grade run from its log."""
    exports_dir, final = resumed(request, INSPECT_TASKS)
    identity = RunIdentity.from_log(final)
    if exports_dir is None and not identity.is_eval:
        exports_dir = Path(identity.predictions or ".").parent
    return finish_priviq(final, request.model_name, exports_dir, prices=request.prices)


read_priviq_log = log_reader(finish_priviq)
"""Scores (and, with ``out_dir``, exports) of an existing Priv-IQ inspect log.

For logs written by privbench, ``inspect eval privbench/priviq``, ``eval_set`` or
``inspect eval-retry``.
"""
