"""The judge a run grades with, as one typed value: a model judge or the offline rules.

Why a value, and why in the runtime: whether a run is graded by a model or by privbench's
offline rules decides the task's ``grader`` role, the protocol and hash a grade records, the
dry run's judge calls, the notice under tables and whether a judge temperature means
anything. The ``--judge`` string is read once at the edge
(:func:`privbench.judges.choice.parse_judge`) into one of the two classes here; the run
settings (:class:`privbench.runtime.running.RunOptions`) carry the value, and every layer
asks it rather than the string. The classes live in this bottom layer because the run
settings do; what only the offline judge's package knows (its protocol and rules hash) is
given to :class:`OfflineJudge` when the string is read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from privbench.runtime.judge_names import DEFAULT_JUDGE, OFFLINE_JUDGE

if TYPE_CHECKING:  # choosing a judge loads no model machinery; building one does
    from inspect_ai.model import Model

ProtocolHash = tuple[str, str]
"""A grade's protocol name and prompt hash (what a reuse of the grade must match)."""


@dataclass(frozen=True)
class OfflineJudge:
    """privbench's rule-based judge (:mod:`privbench.judges.offline`): no model, no network.

    ``protocol``, ``rules_hash`` and ``rules_version`` name the rules as every grade records
    them; :func:`privbench.judges.choice.parse_judge` fills them in.
    """

    protocol: str
    rules_hash: str
    rules_version: str
    name: ClassVar[str] = OFFLINE_JUDGE
    """The judge identity logged with every grade."""
    model: ClassVar[None] = None
    """The judge model a run calls: none."""
    calls_a_model: ClassVar[bool] = False
    """Grading calls no model: the rules grade."""
    card_ships: ClassVar[bool] = True
    """privbench ships the card of its own rules."""
    explains: ClassVar[bool] = True
    """The rules that made each grade can be listed (``--explain``)."""

    def grader_role(self) -> None:
        """A task's ``grader`` model role: none, nothing is called."""
        return None

    def identity(self, model_identity: Callable[[], ProtocolHash]) -> ProtocolHash:
        """The offline rules' protocol and hash (``model_identity`` is a model judge's)."""
        return self.protocol, self.rules_hash

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
        return (
            f"scores by privbench's offline judge (rules v{self.rules_version}, hash "
            f"{self.rules_hash}): an approximation of an LLM judge; use an LLM judge for "
            "published numbers"
        )


@dataclass(frozen=True)
class ModelJudge:
    """A judge model called through inspect's ``grader`` role.

    ``model`` is the inspect model name as given (``openai/gpt-4o``); None leaves the
    task's ``grader`` role to whoever runs it (default :data:`DEFAULT_JUDGE`).
    """

    model: str | None = None
    calls_a_model: ClassVar[bool] = True
    """Grading calls the ``grader`` role."""
    card_ships: ClassVar[bool] = False
    """A model judge's card is measured (``privbench judge check``), not shipped."""
    explains: ClassVar[bool] = False
    """A model has no rules to list."""

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
