"""What a privbench run records in its inspect log, as typed models every reader shares.

Why one module: the scorers write a score's metadata and the tasks write the run's
identity; the terminal tables, the exports, ``show``, the analysis tables and the report
all read them back. Decoding those dicts by hand in each reader let the readers drift
apart (one counted a judge's replies per run, another once per sample). Here each record
is a pydantic model: written with :meth:`~pydantic.BaseModel.model_dump`, read with
``from_score`` / ``from_log``, which also accept the shapes older privbench versions
logged, so old logs stay readable without a lookup outside this module.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, ClassVar, Literal

from inspect_ai import Task
from inspect_ai.log import EvalLog, EvalSample, EvalSampleSummary
from inspect_ai.scorer import Score, Value
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from privbench.runtime.card_figures import (
    Count,
    GradeFigures,
    Number,
    ProbeFigures,
    SanityFigures,
    StrictCard,
    VerdictFigures,
)
from privbench.runtime.judge_names import OFFLINE_JUDGE

Benchmark = Literal["priviq", "spatialtrust"]
PRIVIQ_SCORER = "priviq_judge"
"""The inspect scorer name of Priv-IQ (the key of its score in each sample)."""
SPATIAL_SCORER = "spatialtrust_scorer"
"""The inspect scorer name of SpatialTrust."""
SCORE_KEY = "score"
"""Key of the 0–1 item score in a Priv-IQ score value (``{"score": …, "unscored_runs": …}``)."""
UNSCORED_KEY = "unscored_runs"
"""Key of the count of runs no judge reply could score, in a Priv-IQ score value."""
DATASET_HASH_KEY = "dataset_hash"
"""Task-metadata key of the data directory's content hash (``log.eval.metadata``)."""

LoggedSample = EvalSample | EvalSampleSummary


THINNED = "Key removed from summary (> 1k)"
"""What inspect writes in a sample *summary* in place of a metadata value over 1 kB."""


class _Record(BaseModel):
    """Records ignore keys they do not know (a newer log read by an older reader)."""

    model_config = ConfigDict(extra="ignore")


class _ScoreRecord(_Record):
    """A score's metadata; read from a sample summary, thinned values are left out (a
    reader that needs one reads the sample in full: see ``summary_is_complete``)."""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ()
    """The fields the log readers need, which a usable summary must hold whole."""

    @model_validator(mode="before")
    @classmethod
    def _without_thinned(cls, data: object) -> object:
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value != THINNED}
        return data

    @classmethod
    def holds_whole(cls, metadata: Mapping[str, object]) -> bool:
        """Whether none of :attr:`SUMMARY_FIELDS` was thinned out of ``metadata``."""
        return all(metadata.get(name) != THINNED for name in cls.SUMMARY_FIELDS)


def _finite(value: object) -> float | None:
    """A number that is a real score: None for NaN, booleans and anything not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if math.isnan(value) else float(value)


def priviq_value_score(value: Value | None) -> float:
    """The 0–1 item score of a logged Priv-IQ value (this scorer's dict, or a bare float of
    logs written before the value held the unscored count); NaN when there is none."""
    if isinstance(value, dict):
        value = value.get(SCORE_KEY, math.nan)
    return float(value) if isinstance(value, int | float) else math.nan


class CallCountsRecord(_ScoreRecord):
    """Calls retried after a malformed or empty reply, and replies with replaced characters,
    per role (``model``, ``judge``), for one sample."""

    call_retries: dict[str, int] = Field(default_factory=dict)
    replaced_characters: dict[str, int] = Field(default_factory=dict)


@dataclass(frozen=True)
class JudgeRun:
    """One judge run of one Priv-IQ item: its grade, the judge's replies, who answered."""

    score: float | None
    """The run's grade (None: no reply could be scored)."""
    replies: tuple[str, ...]
    """Every reply of the run, the last one being the graded (or final unreadable) one."""
    reported_model: str
    reused: bool
    """Taken from an earlier grade file rather than sent to the judge."""

    @property
    def last_reply(self) -> str:
        return self.replies[-1] if self.replies else ""

    @property
    def unreadable_replies(self) -> int:
        """Replies of a fresh run that could not be scored (all of them if none could)."""
        if self.reused or not self.replies:
            return 0
        return len(self.replies) - (0 if self.score is None else 1)


class PrivIQScoreRecord(CallCountsRecord):
    """The metadata of one Priv-IQ score: the judge's identity and every judge run."""

    protocol: str = ""
    prompt_hash: str = ""
    judge: str = ""
    answer_hash: str = ""
    no_answer: bool = False
    truncated: bool = False
    answer_chars: int = 0
    runs: list[float | None] | None = None
    """One grade per judge run (absent in logs from before judge runs existed)."""
    replies: list[list[str]] | list[str] = Field(default_factory=list)
    """Per run, the judge's replies (older logs: one flat list for the sample's one run)."""
    judge_reported_model: list[str] | str | None = None
    model_reported: str = ""
    """The model name the provider of the model under test reported for its answer (a
    dated version where the provider gives one; empty for answers made elsewhere)."""
    reused_runs: int = 0
    unverified_runs: int = 0
    """Of the reused runs, those taken without an answer check: from a grade file that
    records no answer hash (the reference evaluator's), with ``--reuse-unverified-grades``."""
    offline_rules: list[str] | None = None
    """With ``--explain`` and the offline judge: the rules that made the grade, one line
    each, in the order they applied."""
    value: Value | None = Field(default=None, exclude=True)
    """The score's value, kept for logs whose runs are only in it (not written)."""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("runs", "replies", "judge_reported_model")

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata`` (the fields it set)."""
        return self.model_dump(exclude={"value"}, exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> PrivIQScoreRecord:
        return cls.model_validate({**(score.metadata or {}), "value": score.value})

    def judge_runs(self) -> list[JudgeRun]:
        """Every judge run of the sample, in order (the reused ones first)."""
        if self.runs is not None:
            grades = [_finite(r) for r in self.runs]
        else:
            grades = [] if self.value is None else [_finite(priviq_value_score(self.value))]
        if self.replies and all(isinstance(r, list) for r in self.replies):
            per_run = [tuple(str(x) for x in r) for r in self.replies]
        else:  # one flat list: the attempts of the sample's one run
            per_run = [tuple(str(x) for x in self.replies)] * min(len(grades), 1)
        per_run += [() for _ in range(len(grades) - len(per_run))]
        return [
            JudgeRun(score, per_run[index], self._reported(index), index < self.reused_runs)
            for index, score in enumerate(grades)
        ]

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        judges = {run.reported_model for run in self.judge_runs() if run.reported_model}
        return {"model": {self.model_reported} - {""}, "judge": judges - {OFFLINE_JUDGE}}

    def _reported(self, index: int) -> str:
        reported = self.judge_reported_model
        if isinstance(reported, list):
            return str(reported[index]) if index < len(reported) else ""
        return str(reported or "")

    @classmethod
    def summary_is_complete(cls, summary: EvalSampleSummary) -> bool:
        """Whether a sample summary holds the judge's replies whole (inspect thins metadata
        values over 1 kB in summaries; such a sample is read in full)."""
        score = (summary.scores or {}).get(PRIVIQ_SCORER)
        metadata = (score.metadata if score is not None else None) or {}
        return cls.holds_whole(metadata) and "competencies" in summary.metadata


def unverified_line(runs: int) -> str:
    """What every reader says of judge runs reused without an answer check (empty if none):
    their grades stand for answers nobody compared with the ones graded now."""
    if not runs:
        return ""
    return f"{runs} grade(s) reused without an answer check (--reuse-unverified-grades)"


class PrivIQSampleRecord(_Record):
    """What a Priv-IQ sample carries as ``Sample.metadata``: its image and competencies."""

    image: str = ""
    competencies: list[str] = Field(default_factory=list)
    combination: str = ""

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> PrivIQSampleRecord:
        return cls.model_validate(metadata or {})


class SpatialSampleRecord(_Record):
    """What a SpatialTrust sample carries as ``Sample.metadata``: the capture and its
    ground truth per question (the report draws both)."""

    image: str = ""
    width: int | None = None
    height: int | None = None
    ground_truth: dict[str, dict[str, object]] = Field(default_factory=dict)
    direct_factors: int = 0
    indirect_factors: int = 0

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object] | None) -> SpatialSampleRecord:
        return cls.model_validate(metadata or {})


class StrategyRecord(_Record):
    """What a SpatialTrust strategy did for one image (``strategy`` in score metadata).

    Older logs named two counters differently (``verifier_unparsed``) or counted lock
    disagreements and unparsed locked answers as one ``lock_mismatches``.
    """

    strategy: str = ""
    selected: dict[str, list[str]] = Field(default_factory=dict)
    kept: dict[str, list[str]] = Field(default_factory=dict)
    deleted: dict[str, list[str]] = Field(default_factory=dict)
    selection_failures: dict[str, str] | list[str] = Field(default_factory=dict)
    verifier_calls: int = 0
    verifier_unreadable: list[str] | int | None = None
    verifier_unparsed: list[str] | int | None = None
    lock_disagreements: list[str] | None = None
    final_unparsed: list[str] = Field(default_factory=list)
    lock_mismatches: list[str] = Field(default_factory=list)
    reasks: int = 0

    @property
    def is_pipeline(self) -> bool:
        """A staged or guard run (direct runs and predictions have no stages)."""
        return self.strategy in ("staged", "guard")

    @property
    def unreadable_verifier_replies(self) -> int:
        value = self.verifier_unreadable
        if value is None:
            value = self.verifier_unparsed if self.verifier_unparsed is not None else 0
        return len(value) if isinstance(value, list) else int(value)

    @property
    def disagreements(self) -> int:
        if self.lock_disagreements is not None:
            return len(self.lock_disagreements)
        return len(self.lock_mismatches)

    @property
    def unparsed_locked(self) -> int:
        return len(self.final_unparsed) if self.lock_disagreements is not None else 0


class JudgeDetail(_Record):
    """What the q4/q5 judge said about one question: its replies and its verdict."""

    replies: list[str] = Field(default_factory=list)
    """Every reply of an LLM judge (none for the offline judge)."""
    verdict: dict[str, object] | None = None
    """The validated verdict (absent when no reply validated)."""
    reported_model: str = ""
    """The model name the judge's provider reported (none for the offline judge)."""

    @property
    def unreadable_replies(self) -> int:
        """Replies that gave no valid verdict (all of them when none did; none for the
        offline judge, which sends nothing)."""
        return len(self.replies) - (1 if self.verdict is not None and self.replies else 0)


class SpatialScoreRecord(CallCountsRecord):
    """The metadata of one SpatialTrust score: the reading of the answer and the verdicts."""

    prediction: dict[str, object] = Field(default_factory=dict)
    parse_failures: dict[str, str] = Field(default_factory=dict)
    """Question id → why its answer did not parse."""
    invalid_boxes: list[dict[str, object]] | int = Field(default_factory=list)
    """Boxes not scored, each with its reason (very old logs: a count)."""
    unscored: list[str] = Field(default_factory=list)
    judge: str = ""
    judge_details: dict[str, JudgeDetail] = Field(default_factory=dict)
    strategy: StrategyRecord | None = None
    without_reask: dict[str, float | None] | None = Field(default=None)
    first_parse_failures: dict[str, str] | None = Field(default=None)
    regraded_box_format: str | None = None
    """Set on a copy of the log regraded in another box convention (``show --box-format``)."""
    model_reported: str = ""
    """The model name the provider of the model under test reported (its last answer)."""
    value: Value | None = Field(default=None, exclude=True)

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = (
        "parse_failures",
        "invalid_boxes",
        "strategy",
        "without_reask",
        "first_parse_failures",
        "judge",
    )

    def metadata(self) -> dict[str, object]:
        """What the scorer stores as ``Score.metadata``: the fields it set (the re-ask
        fields only for an image that was asked again; a strategy's own keys only)."""
        return self.model_dump(exclude={"value"}, exclude_unset=True)

    @classmethod
    def from_score(cls, score: Score) -> SpatialScoreRecord:
        return cls.model_validate({**(score.metadata or {}), "value": score.value})

    def reported_versions(self) -> dict[str, set[str]]:
        """The model names the providers reported, per role (``model``, ``judge``)."""
        judges = {d.reported_model for d in self.judge_details.values() if d.reported_model}
        return {"model": {self.model_reported} - {""}, "judge": judges}

    def question_scores(self, questions: Sequence[str]) -> dict[str, float | None]:
        """The image's score per question (None where unscored or missing)."""
        numbers = self.value if isinstance(self.value, dict) else {}
        return {qid: _finite(numbers.get(qid)) for qid in questions}

    def listed_invalid_boxes(self, image_id: str) -> list[dict[str, object]]:
        """This image's invalid boxes, each with the image id."""
        if isinstance(self.invalid_boxes, int):
            return [
                {"id": image_id, "reason": "not listed by this log's privbench"}
            ] * self.invalid_boxes
        return [{"id": image_id, **box} for box in self.invalid_boxes]

    @classmethod
    def summary_is_complete(cls, summary: EvalSampleSummary) -> bool:
        """Whether a sample summary holds this record whole (inspect thins metadata values
        over 1 kB in summaries; such a sample is read in full)."""
        score = (summary.scores or {}).get(SPATIAL_SCORER)
        metadata = (score.metadata if score is not None else None) or {}
        return "parse_failures" in metadata and cls.holds_whole(metadata)


@dataclass
class ReportedVersions:
    """The model names providers reported over a run, per role: the pinned versions.

    Why kept: an alias such as ``openai/gpt-4o`` names different models over time; the
    name the provider returned with each reply (``gpt-4o-2024-08-06``) says which one
    answered and graded. Every export, ``--json`` and the report carry it.
    """

    model: set[str] = field(default_factory=set)
    judge: set[str] = field(default_factory=set)

    def add(self, record: PrivIQScoreRecord | SpatialScoreRecord) -> None:
        found = record.reported_versions()
        self.model |= found["model"]
        self.judge |= found["judge"]

    def record(self) -> dict[str, list[str]]:
        """``{"model": [...], "judge": [...]}``, sorted."""
        return {"model": sorted(self.model), "judge": sorted(self.judge)}

    def line(self) -> str:
        """ "versions reported by the providers: model …; judge …" (empty if none)."""
        parts = [f"{role} {', '.join(sorted(names))}" for role, names in
                 (("model", self.model), ("judge", self.judge)) if names]  # fmt: skip
        return f"versions reported by the providers: {'; '.join(parts)}" if parts else ""


class DraftAnnotations(_Record):
    """A SpatialTrust run on annotations no person accepted (``--allow-drafts``).

    Why in the task record: the figure is what the data held when the run was made, so the
    tables, ``--json``, ``show``, the exports and the report all say it from the log, even
    after the dataset has been reviewed (or moved) since.
    """

    unreviewed: int
    """Images whose annotation status is not ``accepted``."""
    images: int
    """Images of the dataset the task was built on (before ``--limit``)."""

    def line(self) -> str:
        """The sentence every reader shows beside the run's scores."""
        return (
            f"draft annotations: {self.unreviewed} of {self.images} images not reviewed by a person"
        )


class JudgeAgreement(_Record):
    """How far the run's judge agreed with reference grades, from the judge card found for it.

    Why in the task record: the card is looked up when the run starts (by judge, protocol
    and prompt hash), so every reader — the tables, ``--json``, ``show``, the exports and
    the report — says what was known of the judge when it graded, even if the card is
    later replaced or deleted.
    """

    reference_set: str
    """The reference grades' name (e.g. the shipped calibration set)."""
    set_hash: str
    n: int
    """Items with both a reference and a judge grade."""
    left_out: int = 0
    """Items of the reference set left out because the judge was tuned on them."""
    spearman: float | None = None
    mae: float | None = None
    within_0_1: float | None = None
    """Share (0–1) of judge grades within ±0.1 of the reference grade."""
    verdict_accuracy: dict[str, float | None] = Field(default_factory=dict)
    """SpatialTrust q4/q5: accuracy per verdict field (``identified``,
    ``explanation_correct``), where the card has a verdict check."""
    verdict_n: int = 0
    checked: str = ""
    """The day of the check (``YYYY-MM-DD``), as the card says."""
    card: str = ""
    """Where the card was found (a path, or ``shipped`` for the offline judge's)."""
    warnings: list[str] = Field(default_factory=list)
    """What the card says makes its figures doubtful (a failed sanity probe)."""

    @staticmethod
    def _figure(value: float | None, digits: int = 2) -> str:
        return "n/a" if value is None else f"{value:.{digits}f}"

    def line(self, benchmark: Benchmark | None = "priviq") -> str:
        """The sentence under every table and beside the judge in the report."""
        if benchmark == "spatialtrust":
            if not self.verdict_accuracy:
                return "judge not checked on SpatialTrust q4/q5 verdicts"
            fields = ", ".join(
                f"{name.replace('_', ' ')} {self._figure(None if v is None else 100 * v, 0)} %"
                for name, v in self.verdict_accuracy.items()
            )
            return (
                f"judge agreement with reference verdicts ({self.reference_set}, "
                f"n = {self.verdict_n} factors): accuracy {fields}"
            )
        within = None if self.within_0_1 is None else 100 * self.within_0_1
        tuned = f", {self.left_out} items it was tuned on left out" if self.left_out else ""
        warned = "".join(f"; WARNING: {warning}" for warning in self.warnings)
        return (
            f"judge agreement with reference grades ({self.reference_set}, n = {self.n}{tuned}): "
            f"ρ {self._figure(self.spearman)}, MAE {self._figure(self.mae)}, "
            f"within ±0.1 {self._figure(within, 0)} %{warned}"
        )

    def short(self, benchmark: Benchmark | None = "priviq") -> str:
        """The figures of :meth:`line` in a few words, for a table cell beside the judge
        (the report shows the full sentence on hover and in a footnote)."""
        if benchmark == "spatialtrust":
            values = [v for v in self.verdict_accuracy.values() if v is not None]
            if not values:
                return "q4/q5 not checked"
            return f"verdicts ≥ {self._figure(100 * min(values), 0)} % right"
        return f"ρ {self._figure(self.spearman)}, MAE {self._figure(self.mae)}"


NOT_CHECKED = "judge not checked (privbench judge check --judge JUDGE measures it)"
"""The line for a run whose judge had no card."""
NOT_CHECKED_SHORT = "not checked"
""":data:`NOT_CHECKED` in a table cell."""

CARD_FORMAT: Literal["privbench-judge-card"] = "privbench-judge-card"


class JudgeCard(StrictCard):
    """One check of one judge under one protocol and prompt, on one reference set."""

    format: Literal["privbench-judge-card"] = CARD_FORMAT
    version: Literal[1] = 1
    benchmark: Benchmark
    judge: str
    """The judge as the run names it (``--judge``)."""
    reported_models: list[str] = Field(default_factory=list)
    """The model names the provider reported in its replies (e.g. a dated version)."""
    protocol: str
    prompt_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{8,64}$")]
    reference_set: str
    set_hash: str
    left_out: dict[str, Count] = Field(default_factory=dict)
    """Parts of the reference set left out, with their sizes (e.g. parts the judge was
    tuned on)."""
    checked: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
    """The day of the check, ``YYYY-MM-DD`` (UTC)."""
    judge_runs: Annotated[StrictInt, Field(ge=1)] = 1
    judge_temperature: Annotated[Number, Field(ge=0.0, le=10.0)] | None = None
    """The judge's sampling temperature in the check (None: the offline judge has none)."""
    grades: GradeFigures | None = None
    verdicts: VerdictFigures | None = None
    sanity: SanityFigures | None = None
    """The sanity probe under the card's protocol (None: not run)."""
    probes: list[ProbeFigures] = Field(default_factory=list)
    """The bias probes, under each protocol probed (empty: not run)."""
    warnings: list[str] = Field(default_factory=list)
    """What makes the figures doubtful (a failed sanity probe): shown wherever the card is."""

    def agreement(self, location: str) -> JudgeAgreement:
        """The figures a run records and shows (``location``: where the card was found)."""
        grades, verdicts = self.grades, self.verdicts
        return JudgeAgreement(
            reference_set=self.reference_set,
            set_hash=self.set_hash,
            n=grades.n if grades else 0,
            left_out=sum(self.left_out.values()),
            spearman=grades.spearman if grades else None,
            mae=grades.mae if grades else None,
            within_0_1=grades.within_0_1 if grades else None,
            verdict_accuracy=dict(verdicts.accuracy) if verdicts else {},
            verdict_n=verdicts.n_factors if verdicts else 0,
            checked=self.checked,
            card=location,
            warnings=list(self.warnings),
        )


class CardRejected(ValueError):
    """A judge card that fails :func:`check_card`; ``str(error)`` names the field."""


def card_mismatch(card: JudgeCard, identity: Mapping[str, str | None]) -> str | None:
    """The first identity field in which ``card`` differs from the run's, as a phrase."""
    for name, ours in identity.items():
        theirs = getattr(card, name)
        if theirs != ours:
            return f"{name}: {theirs!r}, the run's is {ours!r}"
    return None


def check_card(data: object, identity: Mapping[str, str | None] | None = None) -> JudgeCard:
    """The card ``data`` holds, if every figure lies in its range and (with ``identity``:
    ``benchmark``, ``judge``, ``protocol``, ``prompt_hash``) it is the card of that run.

    The one check of a card, wherever it was read — the cache, ``--judge-card``, a run's
    log — so that a hand-edited card is refused the same way everywhere.
    Raises :class:`CardRejected` naming the first failing field.
    """
    try:
        card = JudgeCard.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "card"
        raise CardRejected(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None
    except RecursionError:
        raise CardRejected("card: nested too deeply") from None
    mismatch = card_mismatch(card, identity or {})
    if mismatch is not None:
        raise CardRejected(mismatch)
    return card


class LoggedCard(_Record):
    """The judge card as a run records it in its log: whole, with where it was found, so
    that every reading of the log checks it again (:func:`logged_agreement`)."""

    source: str
    """Where the card was found (a path, or ``shipped`` for the offline judge's)."""
    content: dict[str, object]
    """The card, as :meth:`JudgeCard.model_dump` writes it."""

    @classmethod
    def of(cls, card: JudgeCard, source: str) -> LoggedCard:
        return cls(source=source, content=card.model_dump(mode="json"))


def logged_agreement(
    logged: object, identity: Mapping[str, str | None]
) -> tuple[JudgeAgreement | None, str]:
    """The agreement a log's recorded card gives, or None and why it was ignored.

    ``logged``: the task record's ``judge_card`` as read (anything: a log is a file anyone
    can edit); ``identity``: the run's benchmark, judge, protocol and prompt hash. The card
    is checked by :func:`check_card`, as when the run found it; a log of an older privbench,
    which recorded only the figures, cannot be checked and counts as not checked.
    """
    if logged is None:
        return None, ""
    try:
        record = LoggedCard.model_validate(logged)
    except ValidationError:
        return None, "the card is not recorded whole (an older privbench, or edited)"
    try:
        card = check_card(record.content, identity)
    except CardRejected as error:
        return None, str(error)
    return card.agreement(record.source), ""


class TaskRecord(_Record):
    """What a privbench task writes into its log's ``eval.metadata``: the run's settings."""

    benchmark: Benchmark | None = None
    data: str = ""
    dataset_hash: str | None = None
    judge: str | None = None
    judge_runs: int | None = None
    judge_protocol: str | None = None
    prompt_hash: str | None = None
    strategy: str | None = None
    box_format: str | None = None
    reask_unparsed: str | None = None
    predictions: str | None = None
    draft_annotations: DraftAnnotations | None = None
    """Set only on a SpatialTrust run over images not reviewed by a person."""
    judge_card: object = None
    """The judge card found for the run's judge when it started, a :class:`LoggedCard`
    (None: not checked). Any value is kept here and checked only by
    :func:`logged_agreement`: an edited card voids itself, never the rest of the record."""
    judge_check: str | None = None
    """Set on the runs of ``privbench judge check``: graded reference answers, not a
    benchmark run (``show`` and ``report`` leave them out)."""
    label: str | None = None
    """The run's display name as the user gave it (``--label``); None: see
    :meth:`RunIdentity.label`."""
    graded_model: str | None = None
    """A grade run's name for the model whose answers it graded: ``--model-name``, else the
    name the predictions file holds, else one read from its path (:func:`answers_name`),
    fixed when the run starts so that no later reader depends on where it runs."""

    @field_validator("label", "graded_model", mode="before")
    @classmethod
    def _as_text(cls, value: object) -> object:
        """A name given through ``inspect eval --metadata label=2024`` may arrive as a
        number: it is still a name (and must not void the rest of the record)."""
        return value if value is None or isinstance(value, str) else str(value)

    def metadata(self) -> dict[str, object]:
        """The task's ``metadata`` (unset settings left out, as the tasks always wrote it)."""
        return self.model_dump(exclude_unset=True)

    @classmethod
    def from_log(cls, log: EvalLog) -> TaskRecord:
        try:
            return cls.model_validate(log.eval.metadata or {})
        except ValidationError:  # a log of another task that uses some of these keys
            return cls()


GENERIC_NAMES = frozenset(
    {"results", "result", "predictions", "prediction", "preds", "answers", "responses",
     "outputs", "output", "out", "data", "tmp", "temp"}
)  # fmt: skip
"""File and folder names that say nothing about the model: never a run's name."""
NO_NAME = "graded answers"
"""The name of answers whose file, folder and content name no model."""
_RESULTS_SUFFIX = re.compile(
    r"[-_.](results?|predictions?|preds|answers|responses|outputs?)$", re.IGNORECASE
)


def answers_name(path: str | Path) -> str:
    """The model a predictions file's path names, for a run told nothing else.

    The reference inference scripts write ``results/{model}.json`` and privbench writes
    ``{model}-results.json``, so the stem less a ``-results``/``_results`` suffix is the
    model (``gpt-4o_results.json`` → ``gpt-4o``). A stem that is only such a word
    (``results.json``, ``preds.jsonl``) names nothing: the folder's name stands in for it
    (``runs/llava-13b/results.json`` → ``llava-13b``) unless that is generic or empty too,
    and then the answers are called "graded answers".
    """
    file = Path(path)
    stem = _RESULTS_SUFFIX.sub("", file.stem)
    if stem and stem.lower() not in GENERIC_NAMES:
        return stem
    folder = file.parent.name
    return folder if folder and folder.lower() not in GENERIC_NAMES else NO_NAME


def label_task(task: Task, label: str | None, graded_model: str | None = None) -> Task:
    """Record the run's label (``--label``) and a grade run's graded model in ``task``'s
    :class:`TaskRecord`, so that every reader of the log names the run the same way (and
    a resumed run keeps both: inspect carries a log's metadata into its retry)."""
    names = {"label": label, "graded_model": graded_model}
    task.metadata = {
        **(task.metadata or {}),
        **{key: value for key, value in names.items() if value},
    }
    return task


def log_limit(log: EvalLog) -> int | tuple[int, int] | None:
    """The ``--limit`` a run was given (an int, or inspect's ``(start, stop)`` range)."""
    limit = log.eval.config.limit
    if isinstance(limit, int):
        return limit
    if isinstance(limit, tuple | list) and len(limit) == 2:
        return int(limit[0]), int(limit[1])
    return None


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
    (empty: no card, or a card that passed :func:`check_card`)."""
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
        benchmark = None if record.judge_check else record.benchmark or _benchmark_by_name(log)
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
        """The judge's agreement with reference grades when the run started, in one line."""
        if self.judge_card_problem:
            return f"{NOT_CHECKED}; {self.judge_card_problem}"
        return NOT_CHECKED if self.judge_card is None else self.judge_card.line(self.benchmark)

    @property
    def judge_agreement_short(self) -> str:
        """:attr:`judge_agreement_line` in a few words, for a table cell."""
        if self.judge_card_problem:
            return f"{NOT_CHECKED_SHORT} (its card was ignored)"
        if self.judge_card is None:
            return NOT_CHECKED_SHORT
        return self.judge_card.short(self.benchmark)

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
        """A run that asked the model (not a grade run of answers made elsewhere)."""
        return self.task in ("priviq", "spatialtrust")

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


def _benchmark_by_name(log: EvalLog) -> Benchmark | None:
    """The benchmark of a log whose task wrote no metadata (``inspect eval`` of an older
    privbench): by its scorer, else by its task name."""
    scorers = {s.name for s in (log.results.scores if log.results else [])}
    task = log.eval.task
    if PRIVIQ_SCORER in scorers or task.endswith(("priviq", "priviq_grade")):
        return "priviq"
    if SPATIAL_SCORER in scorers or task.endswith(("spatialtrust", "spatialtrust_grade")):
        return "spatialtrust"
    return None


def expected_ids(log: EvalLog) -> list[str]:
    """The items the run was asked to do: the dataset's ids, cut to ``--limit``."""
    ids = [str(i) for i in (log.eval.dataset.sample_ids or [])]
    limit = log_limit(log)
    if isinstance(limit, int):
        return ids[:limit]
    if isinstance(limit, tuple):
        return ids[limit[0] : limit[1]]
    return ids


DRAFT_SCORER = "draft_scorer"
"""The inspect scorer name of a build's drafting run."""


class DraftElementRecord(_Record):
    """One element a drafter proposed (pixel box on the normalized capture)."""

    name: str
    category: Literal["direct", "indirect", "near_miss"]
    why: str
    box: list[float]


class DraftScoreRecord(CallCountsRecord):
    """The metadata of one drafting score: the elements read and what could not be read."""

    elements: list[DraftElementRecord] = Field(default_factory=list)
    unreadable: str | None = None
    """Why the reply held no element list (the draft is empty)."""
    skipped: list[str] = Field(default_factory=list)
    """Per element left out of the draft, why."""
    reported_model: str | None = None
    """The model version the provider reported for the reply."""

    SUMMARY_FIELDS: ClassVar[tuple[str, ...]] = ("elements", "skipped")

    def metadata(self) -> dict[str, object]:
        return self.model_dump()

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, object]) -> DraftScoreRecord:
        return cls.model_validate(dict(metadata))
