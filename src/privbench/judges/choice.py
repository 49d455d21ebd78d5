"""Which judge grades: the one place a ``--judge`` string is read.

Why one place: whether a run is graded by a model or by privbench's offline rules decides
the grader role of a task, the protocol and hash a grade records, the dry run's judge calls,
the notice under tables and whether a judge temperature means anything. Each of those asked
the string again (``judge == "offline"``); now :func:`parse_judge` reads it once into a
typed value, and code below asks the value. ``tests/judges/test_judge_choice.py`` fails if another
module compares a judge string with ``"offline"`` again.

The value's ``name`` is the judge identity every log, card and ``--json`` document records,
spelled exactly as before (``offline`` or the model name as given).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from privbench.runtime.judge_names import DEFAULT_JUDGE, OFFLINE_JUDGE

if TYPE_CHECKING:  # choosing a judge loads no model machinery; building one does
    from inspect_ai.model import Model

ProtocolHash = tuple[str, str]
"""A grade's protocol name and prompt hash (what a reuse of the grade must match)."""


@dataclass(frozen=True)
class OfflineJudge:
    """privbench's rule-based judge (:mod:`privbench.judges.offline`): no model, no network."""

    @property
    def name(self) -> str:
        """The judge identity logged with every grade."""
        return OFFLINE_JUDGE

    @property
    def model(self) -> None:
        """The judge model a run calls: none."""
        return None

    def grader_role(self) -> None:
        """A task's ``grader`` model role: none, nothing is called."""
        return None

    def grader(self) -> None:
        """The judge model inside a running task: none (the rules grade)."""
        return None

    def identity(self, model_identity: Callable[[], ProtocolHash]) -> ProtocolHash:
        """The offline rules' protocol and hash (``model_identity`` is a model judge's)."""
        from privbench.judges import offline

        return offline.PROTOCOL, offline.rules_hash()

    def temperature(self, configured: float) -> float | None:
        """The judge's first-try temperature as a check records it: none (rules are fixed)."""
        return None

    def protocols(self, chosen: str, available: Sequence[str]) -> tuple[str, ...]:
        """The protocols a probe grades under: the rules are one protocol."""
        return (chosen,)

    def notice(self) -> str | None:
        """The one-line notice under every table the offline judge produced.

        It names the rules (version and hash, as logged with every score) and says that
        published numbers need an LLM judge.
        """
        from privbench.judges.offline import RULES_VERSION, rules_hash

        return (
            f"scores by privbench's offline judge (rules v{RULES_VERSION}, hash {rules_hash()}): "
            "an approximation of an LLM judge; use an LLM judge for published numbers"
        )


@dataclass(frozen=True)
class ModelJudge:
    """A judge model called through inspect's ``grader`` role.

    ``model`` is the inspect model name as given (``openai/gpt-4o``); None leaves the
    task's ``grader`` role to whoever runs it (default :data:`DEFAULT_JUDGE`).
    """

    model: str | None = None

    @property
    def name(self) -> str:
        """The judge identity logged with every grade (the default judge if none is named)."""
        return self.model or DEFAULT_JUDGE

    def grader_role(self) -> dict[str, Model] | None:
        """A task's ``grader`` role; built here so that a missing key or an unknown
        provider is one clear line, not inspect's multi-line prerequisite message."""
        from privbench.runtime.endpoints import make_model

        if self.model is None:
            return None
        return {"grader": make_model(self.model, role="judge")}

    def grader(self) -> Model:
        """The judge model inside a running task: the task's ``grader`` role."""
        from inspect_ai.model import get_model

        return get_model(role="grader", default=DEFAULT_JUDGE)

    def identity(self, model_identity: Callable[[], ProtocolHash]) -> ProtocolHash:
        """The protocol and prompt hash of the model judge's prompt."""
        return model_identity()

    def temperature(self, configured: float) -> float | None:
        """The judge's first-try temperature (``--judge-temperature``)."""
        return configured

    def protocols(self, chosen: str, available: Sequence[str]) -> tuple[str, ...]:
        """The protocols a probe grades under: every one a model judge can be asked in."""
        return tuple(available)

    def notice(self) -> str | None:
        """No notice: a model judge's tables need none."""
        return None


JudgeChoice = OfflineJudge | ModelJudge
"""The judge a run grades with, read once from its ``--judge`` string."""


def parse_judge(name: str | None) -> JudgeChoice:
    """The judge a ``--judge`` string (or a logged judge name) names.

    ``offline`` is the rule-based judge; any other name is an inspect model; none (or an
    empty name) leaves the ``grader`` role to the task's runner.
    """
    if name == OFFLINE_JUDGE:
        return OfflineJudge()
    return ModelJudge(name or None)


__all__ = [
    "DEFAULT_JUDGE",
    "OFFLINE_JUDGE",
    "JudgeChoice",
    "ModelJudge",
    "OfflineJudge",
    "ProtocolHash",
    "parse_judge",
]
