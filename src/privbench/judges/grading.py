"""One grader interface every scorer calls: ask a question, get a verdict and what was said.

Why: a scorer used to ask its judge choice for a model, and then branch: no model meant the
offline rules, a model meant :func:`~privbench.judges.asking.ask_until_parsed`. Each
benchmark wrote that branch again (and its judge check a third time). Now a scorer states
its question once — the prompt per try, how a reply is read, and what privbench's rules
answer — and the grader of the run's judge answers it: :class:`ModelGrader` by asking the
``grader`` model until a reply parses, :class:`RulesGrader` by applying the rules. Which of
the two a run gets is decided in :func:`privbench.judges.choice.grader`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Generic, Protocol, TypeVar

from inspect_ai.model import CachePolicy, Model

from privbench.judges.asking import JudgePrompt, JudgeReply, ask_until_parsed
from privbench.runtime.judge_names import OFFLINE_JUDGE

T = TypeVar("T")


def _no_reply(verdict: object) -> list[str]:
    """A rule grade recorded with no reply (nothing was sent to a model)."""
    return []


@dataclass(frozen=True)
class JudgeQuestion(Generic[T]):
    """What a scorer asks a judge about one answer.

    ``prompt(attempt)`` is the model judge's prompt for try ``attempt`` (0-based; re-asks
    may word it differently); ``parse`` reads a reply into a verdict (None: unreadable);
    ``parse_cut`` reads a reply the model stopped at its token limit (default ``parse``).
    ``rules`` is privbench's offline rules' verdict on the same answer, ``rules_reply``
    what a rule verdict is recorded as in place of a reply, and ``explain_rules`` the
    rules that made it (for ``--explain``).
    """

    prompt: Callable[[int], JudgePrompt]
    parse: Callable[[str], T | None]
    rules: Callable[[], T]
    max_tries: int
    max_tokens: int
    cache: bool = False
    parse_cut: Callable[[str], T | None] | None = None
    rules_reply: Callable[[T], list[str]] = _no_reply
    explain_rules: Callable[[], list[str]] | None = None


class Grader(Protocol):
    """The judge inside a running task."""

    @property
    def name(self) -> str:
        """The judge identity a grade records: ``offline``, or the judge model as chosen."""
        ...

    @property
    def served_name(self) -> str:
        """The name of the model the ``grader`` role serves (``offline`` for the rules)."""
        ...

    async def ask(self, question: JudgeQuestion[T]) -> JudgeReply[T]:
        """The verdict on ``question`` (None: no reply parsed) and every reply."""
        ...

    def explain(self, question: JudgeQuestion[T]) -> list[str] | None:
        """The rules that made the verdict on ``question``; None where a model judged."""
        ...


@dataclass(frozen=True)
class ModelGrader:
    """A judge model asked until its reply parses (re-asks per docs/judge.md)."""

    model: Model
    chosen: str | None
    """The judge model as ``--judge`` named it; None when the ``grader`` role came from
    whoever ran the task (``inspect eval --model-role grader=...``)."""

    @property
    def name(self) -> str:
        """The judge as chosen, else the ``grader`` role's model."""
        return self.chosen or str(self.model)

    @property
    def served_name(self) -> str:
        """The ``grader`` role's model name."""
        return str(self.model)

    async def ask(self, question: JudgeQuestion[T]) -> JudgeReply[T]:
        """Ask until a reply parses, at most ``question.max_tries`` times."""
        return await ask_until_parsed(
            self.model,
            question.prompt,
            question.parse,
            max_tries=question.max_tries,
            max_tokens=question.max_tokens,
            cache=CachePolicy(expiry=None) if question.cache else False,
            parse_cut=question.parse_cut,
        )

    def explain(self, question: JudgeQuestion[T]) -> list[str] | None:
        """A model has no rules to show."""
        return None


@dataclass(frozen=True)
class RulesGrader:
    """privbench's offline rules: no model, the same verdict every time."""

    name: ClassVar[str] = OFFLINE_JUDGE
    """The offline judge's name."""
    served_name: ClassVar[str] = OFFLINE_JUDGE
    """No model serves: the offline judge's name."""

    async def ask(self, question: JudgeQuestion[T]) -> JudgeReply[T]:
        """The rules' verdict, recorded as the question records a rule verdict."""
        verdict = question.rules()
        return JudgeReply(verdict, question.rules_reply(verdict), OFFLINE_JUDGE)

    def explain(self, question: JudgeQuestion[T]) -> list[str] | None:
        """The rules that made the verdict (None if the question cannot say)."""
        return question.explain_rules() if question.explain_rules is not None else None
