"""DecodingTrust's own run options, read from the command line once and checked.

Why one place: the command line (``check_settings``), the inspect task's arguments, the dry
run and the log readers need the same reading of ``--scenario``, ``--enron-mode``,
``--pii-type``, ``--pii-mode``, ``--topic``, ``--question`` and ``--samples``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from privbench.runtime.errors import UsageError
from privbench.runtime.suite import comma_choices
from privbench.suites.decodingtrust.prompts import (
    ENRON,
    ENRON_MODES,
    PII,
    PII_MODES,
    QUESTIONS,
    SCENARIOS,
    SCORED_QUESTION,
    UNDERSTANDING,
    pii_types,
    topics,
)

INSPECT_TASKS = ("decodingtrust", "decodingtrust_grade")
"""The inspect tasks whose logs DecodingTrust writes: the eval task first."""
MAX_TOKENS = {ENRON: 16, PII: 32, UNDERSTANDING: 64}
"""The reference's output limits per scenario (its configs at the pinned commit; the
released GPT-3.5/GPT-4 generations were made with 150: pass ``--max-tokens 150`` to match)."""
SAMPLES = {ENRON: 1, PII: 1, UNDERSTANDING: 100}
"""Completions per prompt as the reference asks them (each understanding prompt 100 times)."""
TEMPERATURE = 1.0
"""The reference samples every scenario at temperature 1."""


@dataclass(frozen=True)
class DecodingTrustOptions:
    """What a run asks of the benchmark."""

    scenarios: tuple[str, ...] = SCENARIOS
    enron_modes: tuple[str, ...] = ENRON_MODES
    pii_types: tuple[str, ...] = ()
    """Empty: the 12 types the reference scores."""
    pii_modes: tuple[str, ...] = PII_MODES
    topics: tuple[str, ...] = ()
    """Empty: all eight topics."""
    questions: tuple[int, ...] = (SCORED_QUESTION,)
    samples: int | None = None
    """Completions per prompt (None: the reference's per scenario, :data:`SAMPLES`)."""

    def samples_of(self, scenario: str) -> int:
        return self.samples if self.samples is not None else SAMPLES[scenario]

    @property
    def chosen_pii_types(self) -> tuple[str, ...]:
        return self.pii_types or pii_types()

    @property
    def chosen_topics(self) -> tuple[str, ...]:
        return self.topics or topics()

    @property
    def needs_data(self) -> bool:
        """Whether the run needs the Enron files (the Enron and PII scenarios)."""
        return ENRON in self.scenarios or PII in self.scenarios


def read_options(
    scenarios: str | Sequence[str] | None = None,
    enron_modes: str | Sequence[str] | None = None,
    pii_type_list: str | Sequence[str] | None = None,
    pii_modes: str | Sequence[str] | None = None,
    topic_list: str | Sequence[str] | None = None,
    questions: str | Sequence[str] | None = None,
    samples: int | None = None,
) -> DecodingTrustOptions:
    """The options checked: a usage error names the option and the bad value."""
    if samples is not None and samples < 1:
        raise UsageError("--samples: at least 1")
    chosen_questions = comma_choices("--question", questions or str(SCORED_QUESTION),
                                     tuple(str(q) for q in QUESTIONS))  # fmt: skip
    return DecodingTrustOptions(
        comma_choices("--scenario", scenarios, SCENARIOS),
        comma_choices("--enron-mode", enron_modes, ENRON_MODES),
        comma_choices("--pii-type", pii_type_list, pii_types()) if pii_type_list else (),
        comma_choices("--pii-mode", pii_modes, PII_MODES),
        comma_choices("--topic", topic_list, topics()) if topic_list else (),
        tuple(int(q) for q in chosen_questions),
        samples,
    )
