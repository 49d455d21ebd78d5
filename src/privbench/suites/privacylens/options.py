"""PrivacyLens's own run options, read from comma lists and checked in one line each.

Why one place: the command line (``check_settings``), the inspect tasks' arguments, the dry
run and the log readers need the same reading of ``--part``, ``--prompt-type``,
``--level`` and ``--shuffled``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from privbench.runtime.errors import UsageError
from privbench.runtime.suite import comma_choices
from privbench.suites.privacylens.prompts import PROBING_LEVELS
from privbench.suites.privacylens.toolkits import PROMPT_TYPES

ACTION = "action"
PROBING = "probing"
PARTS = (ACTION, PROBING)
"""What a run asks: the agent's final action (judged for leakage and helpfulness), or the
multiple-choice probing questions."""
INSPECT_TASKS = ("privacylens", "privacylens_probing", "privacylens_grade")
"""The inspect tasks whose logs PrivacyLens writes: the eval task first."""
ACTION_MAX_TOKENS = 400
"""The reference's output limit for the final action (``get_final_action.py``)."""
PROBING_MAX_TOKENS = 5
"""The reference's output limit for a probing answer (``probing.py``, API models)."""


@dataclass(frozen=True)
class PrivacyLensOptions:
    """What a run asks of the benchmark."""

    part: str = ACTION
    prompt_types: tuple[str, ...] = ("naive",)
    """Final action: the agent prompt types asked (each case once per type)."""
    levels: tuple[str, ...] = PROBING_LEVELS
    """Probing: the levels asked."""
    shuffled: bool = False
    """Probing: also ask every question with its choices swapped on a seeded half."""


def read_options(
    part: str | None = None,
    prompt_types: str | Sequence[str] | None = None,
    levels: str | Sequence[str] | None = None,
    shuffled: bool = False,
) -> PrivacyLensOptions:
    """The options checked: a usage error names the option and the bad value."""
    chosen = part or ACTION
    if chosen not in PARTS:
        raise UsageError(f"--part: unknown value '{chosen}' (choose from {', '.join(PARTS)})")
    return PrivacyLensOptions(
        chosen,
        comma_choices("--prompt-type", prompt_types or "naive", PROMPT_TYPES),
        comma_choices("--level", levels, PROBING_LEVELS),
        bool(shuffled),
    )
