"""ConfAIde's own run options, read from comma lists and checked in one line each.

Why one place: the command line (``check_settings``), the inspect task's arguments, the dry
run and the log readers all need the same reading of ``--tier``, ``--tier-3-questions``,
``--tier-4-questions`` and ``--tier-3-metrics``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from privbench.runtime.errors import UsageError
from privbench.runtime.suite import comma_choices
from privbench.suites.confaide.dataset import TIERS
from privbench.suites.confaide.prompts import TIER_3_QUESTION_TYPES, TIER_4_QUESTION_TYPES

INSPECT_TASKS = ("confaide", "confaide_grade")
"""The inspect tasks whose logs ConfAIde writes: the eval task first."""
TIER_3_METRIC_CHOICES = ("string-match", "proxy-model")
DEFAULT_SAMPLES = 10
"""Answers per prompt: the reference's ``--n-samples`` default (every released run used 10)."""
DEFAULT_TEMPERATURE = 1.0
"""The paper's sampling temperature (the reference's chat-model calls use the API default 1)."""


@dataclass(frozen=True)
class ConfAIdeOptions:
    """What a run asks of the benchmark: tiers, question types, metrics, prompt, samples."""

    tiers: tuple[str, ...] = TIERS
    tier_3_questions: tuple[str, ...] = TIER_3_QUESTION_TYPES
    tier_4_questions: tuple[str, ...] = TIER_4_QUESTION_TYPES
    tier_3_metrics: tuple[str, ...] = ("string-match",)
    privacy_prompt: bool = True
    samples: int = DEFAULT_SAMPLES

    @property
    def proxy(self) -> bool:
        """Whether the proxy-model metric is asked (the only thing a judge is asked)."""
        return (
            "proxy-model" in self.tier_3_metrics
            and "3" in self.tiers
            and ("free-response" in self.tier_3_questions)
        )


def read_options(
    tiers: str | Sequence[str] | None = None,
    tier_3_questions: str | Sequence[str] | None = None,
    tier_4_questions: str | Sequence[str] | None = None,
    tier_3_metrics: str | Sequence[str] | None = "string-match",
    privacy_prompt: bool = True,
    samples: int = DEFAULT_SAMPLES,
) -> ConfAIdeOptions:
    """The options checked: a usage error names the option and the bad value."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise UsageError(f"--samples: must be a whole number of at least 1 (got {samples!r})")
    return ConfAIdeOptions(
        comma_choices("--tier", tiers, TIERS),
        comma_choices("--tier-3-questions", tier_3_questions, TIER_3_QUESTION_TYPES),
        comma_choices("--tier-4-questions", tier_4_questions, TIER_4_QUESTION_TYPES),
        comma_choices("--tier-3-metrics", tier_3_metrics, TIER_3_METRIC_CHOICES),
        privacy_prompt,
        samples,
    )
