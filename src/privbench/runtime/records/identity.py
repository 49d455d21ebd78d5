"""What identifies a run, read once from its log's header by every reader."""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.log import EvalLog

from privbench.runtime.records.benchmark import Benchmark, agreement_wording, benchmark_by_name
from privbench.runtime.records.judge_agreement import (
    JudgeAgreement,
    agreement_line,
    agreement_short,
)
from privbench.runtime.records.judge_card import logged_agreement
from privbench.runtime.records.task import DraftAnnotations, TaskRecord, log_limit
from privbench.runtime.run_names import answers_name


@dataclass(frozen=True)
class RunIdentity:
    """What identifies a run: its benchmark, model, judge, protocol, data and settings.

    Read once from the log's header, the same way by every reader (``show``, the analysis
    tables, the report, the exports).
    """

    benchmark: Benchmark | None
    model: str
    task: str
    data: str
    dataset_hash: str
    judge: str
    judge_protocol: str
    prompt_hash: str
    strategy: str
    """SpatialTrust's strategy as the task was given it (``direct``, ``staged``, ``guard``;
    empty for a grade run and for Priv-IQ): see :attr:`strategy_name`."""
    box_format: str
    limit: int | tuple[int, int] | None
    judge_runs: int
    predictions: str
    status: str
    task_id: str
    created: str
    draft_annotations: DraftAnnotations | None = None
    """The run's unreviewed images (None: every image was reviewed, or none is annotated)."""
    judge_card: JudgeAgreement | None = None
    """The judge's agreement with reference grades when the run started (None: unchecked,
    or its recorded card failed the check: see :attr:`judge_card_problem`)."""
    judge_card_problem: str = ""
    """Why the card the log records was ignored: one line naming the log and the field
    (empty: no card, or a card that passed
    :func:`~privbench.runtime.records.judge_card.check_card`)."""
    run_label: str = ""
    """The label the run was given (``--label``; empty: none)."""
    graded_model: str = ""
    """A grade run's recorded name for the graded model (empty in older logs and evals)."""
    judge_temperature: float | None = None
    """The temperature of the judge's first try (re-asks add 0.5 each; docs/judge.md), as
    the ``grader`` role's settings in the log hold it; None when no model judged (the
    offline judge). A log of a judge whose settings set none was asked at 0."""

    @classmethod
    def from_log(cls, log: EvalLog) -> RunIdentity:
        record = TaskRecord.from_log(log)
        args = log.eval.task_args or {}
        task = log.eval.task.split("/")[-1]
        benchmark = None if record.judge_check else record.benchmark or benchmark_by_name(log)
        strategy = str(args.get("strategy", record.strategy or ""))
        card, problem = logged_agreement(
            record.judge_card,
            {
                "benchmark": record.benchmark,
                "judge": record.judge,
                "protocol": record.judge_protocol,
                "prompt_hash": record.prompt_hash,
            },
        )
        return cls(
            benchmark=benchmark,
            model=str(log.eval.model),
            task=task,
            data=str(record.data or args.get("data") or ""),
            dataset_hash=str(record.dataset_hash or ""),
            judge=str(record.judge or ""),
            judge_protocol=str(record.judge_protocol or ""),
            prompt_hash=str(record.prompt_hash or ""),
            strategy=strategy,
            box_format=str(args.get("box_format") or record.box_format or "xyxy"),
            limit=log_limit(log),
            judge_runs=int(record.judge_runs or args.get("judge_runs") or 1),
            predictions=str(args.get("predictions") or record.predictions or ""),
            status=str(log.status),
            task_id=str(log.eval.task_id),
            created=str(log.eval.created),
            draft_annotations=record.draft_annotations,
            judge_card=card,
            judge_card_problem=(
                f"{log.location or 'log'}: its judge card was ignored: {problem}" if problem else ""
            ),
            run_label=str(record.label or ""),
            graded_model=str(record.graded_model or ""),
            judge_temperature=_judge_temperature(log),
        )

    @property
    def judge_agreement_line(self) -> str:
        """The judge's agreement with reference grades when the run started, in one line
        (empty for a run no judge graded)."""
        if not self.judge:
            return ""
        return agreement_line(
            self.judge_card, self.judge_card_problem, agreement_wording(self.benchmark)
        )

    @property
    def judge_agreement_short(self) -> str:
        """:attr:`judge_agreement_line` in a few words, for a table cell."""
        if not self.judge:
            return ""
        return agreement_short(
            self.judge_card, self.judge_card_problem, agreement_wording(self.benchmark)
        )

    @property
    def limit_count(self) -> int | None:
        """``--limit`` as a number of items (a ``(start, stop)`` range counts as its length)."""
        if isinstance(self.limit, tuple):
            return self.limit[1] - self.limit[0]
        return self.limit

    @property
    def strategy_name(self) -> str:
        """The strategy a SpatialTrust run's exports and ``--json`` name (``predictions``
        for answers made elsewhere)."""
        return self.strategy or "predictions"

    @property
    def is_eval(self) -> bool:
        """A run that asked the model (not a grade run of answers made elsewhere): a
        benchmark's eval task, ``<name>`` or a variant ``<name>_<part>`` (PrivacyLens's
        ``privacylens_probing``); its grade task is named ``<name>_grade``."""
        if self.benchmark is None:
            return False
        variant = self.task.startswith(f"{self.benchmark}_") and not self.task.endswith("_grade")
        return self.task == self.benchmark or variant

    @property
    def answered_by(self) -> str:
        """The model whose answers were graded: the model under test; for a grade run the
        recorded graded model, else (older logs) the name its predictions path gives."""
        if self.graded_model:
            return self.graded_model
        return answers_name(self.predictions) if self.predictions else self.model

    def label(self, given: str | None = None) -> str:
        """The run's display name: the one given (a reader's override), else the run's own
        ``--label``, else :attr:`answered_by`."""
        return given or self.run_label or self.answered_by


def _judge_temperature(log: EvalLog) -> float | None:
    """The ``grader`` role's temperature in the log (None: no model judged)."""
    roles = log.eval.model_roles or {}
    grader = roles.get("grader")
    if isinstance(grader, list):
        grader = grader[0] if grader else None
    if grader is None:
        return None
    return float(grader.config.temperature or 0.0)
