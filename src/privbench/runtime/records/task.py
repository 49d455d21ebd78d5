"""What a privbench task writes into its log's header, and the items the run was asked to do.

Why one record: the tasks write a run's settings into ``eval.metadata`` and every reader
(``show``, the tables, the exports, the report, resume) reads them back the same way.
"""

from __future__ import annotations

from inspect_ai.log import EvalLog
from pydantic import ValidationError, field_validator

from privbench.runtime.records.base import Record
from privbench.runtime.records.benchmark import Benchmark

DATASET_HASH_KEY = "dataset_hash"
"""Task-metadata key of the data directory's content hash (``log.eval.metadata``)."""


class DraftAnnotations(Record):
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


class TaskRecord(Record):
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
    """The judge card found for the run's judge when it started, a
    :class:`~privbench.runtime.records.judge_card.LoggedCard` (None: not checked). A value
    of any shape is kept here and checked only by
    :func:`~privbench.runtime.records.judge_card.logged_agreement`: an edited card voids
    itself, never the rest of the record."""
    judge_check: str | None = None
    """Set on the runs of ``privbench judge check``: graded reference answers, not a
    benchmark run (``show`` and ``report`` leave them out)."""
    label: str | None = None
    """The run's display name as the user gave it (``--label``); None: see
    :meth:`~privbench.runtime.records.identity.RunIdentity.label`."""
    graded_model: str | None = None
    """A grade run's name for the model whose answers it graded: ``--model-name``, else the
    name the predictions file holds, else one read from its path
    (:func:`~privbench.runtime.run_names.answers_name`), fixed when the run starts so that
    no later reader depends on where it runs."""

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


def log_limit(log: EvalLog) -> int | tuple[int, int] | None:
    """The ``--limit`` a run was given (an int, or inspect's ``(start, stop)`` range)."""
    limit = log.eval.config.limit
    if isinstance(limit, int):
        return limit
    if isinstance(limit, tuple | list) and len(limit) == 2:
        return int(limit[0]), int(limit[1])
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
