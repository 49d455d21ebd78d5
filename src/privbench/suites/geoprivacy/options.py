"""VLM-GeoPrivacy's own run options, read from the command line once and checked.

Why one place: the command line (``check_settings``), the inspect tasks' arguments, the dry
run and the log readers need the same reading of ``--protocol``, ``--mode``,
``--no-heuristics`` and ``--strict-format``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from privbench.runtime.errors import UsageError
from privbench.runtime.suite import comma_choices
from privbench.suites.geoprivacy.prompts import FREE_FORM, MCQ, MODES, PROTOCOLS, ZERO_SHOT

INSPECT_TASKS = ("geoprivacy", "geoprivacy_grade")
"""The inspect tasks whose logs VLM-GeoPrivacy writes: the eval task first."""
MAX_TOKENS = 1200
"""The reference's output limit for API models (``max_tokens`` / ``max_completion_tokens``)."""
TEMPERATURE = 0.7
TOP_P = 0.95
"""The reference's sampling settings for the model under test (its ``call_api`` defaults)."""


@dataclass(frozen=True)
class GeoPrivacyOptions:
    """What a run asks of the benchmark."""

    protocol: str = MCQ
    modes: tuple[str, ...] = (ZERO_SHOT,)
    """Free form: the prompting modes asked (each photo once per mode)."""
    heuristics: bool = True
    """Multiple choice: each question's heuristics paragraph is in the prompt (the released
    runs' setting)."""
    strict: bool = False
    """Multiple choice: the strict ``Q1: <label>`` instruction the reference gives open
    models, instead of the API models' one label per line."""

    @property
    def variants(self) -> tuple[str, ...]:
        """What each photo is asked, one sample each: the protocol, or each free-form mode."""
        return self.modes if self.protocol == FREE_FORM else (self.protocol,)


def read_options(
    protocol: str | None = None,
    modes: str | Sequence[str] | None = None,
    heuristics: bool = True,
    strict: bool = False,
) -> GeoPrivacyOptions:
    """The options checked: a usage error names the option and the bad value."""
    chosen = protocol or MCQ
    if chosen not in PROTOCOLS:
        raise UsageError(
            f"--protocol: unknown value '{chosen}' (choose from {', '.join(PROTOCOLS)})"
        )
    if modes and chosen != FREE_FORM:
        raise UsageError("--mode: only with --protocol free-form")
    if strict and chosen == FREE_FORM:
        raise UsageError("--strict-format: only with a multiple-choice protocol (mcq, q7)")
    if not heuristics and chosen == FREE_FORM:
        raise UsageError("--no-heuristics: only with a multiple-choice protocol (mcq, q7)")
    return GeoPrivacyOptions(
        chosen, comma_choices("--mode", modes or ZERO_SHOT, MODES), bool(heuristics), bool(strict)
    )
