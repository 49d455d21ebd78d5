"""Which judge grades: the one place a ``--judge`` string is read, and a grader is built.

Why one place: whether a run is graded by a model or by privbench's offline rules decides
the grader role of a task, the protocol and hash a grade records, the dry run's judge calls,
the notice under tables and whether a judge temperature means anything. Each of those asked
the string again (``judge == "offline"``); now :func:`parse_judge` reads it once into a
typed value (:mod:`privbench.runtime.judge_choice`) at the edge — the command line, an
inspect task's argument, a logged judge name — and code below asks the value. Inside a
running task, :func:`grader` turns the value into the one grader interface the scorers call
(:mod:`privbench.judges.grading`). ``tests/judges/test_judge_choice.py`` fails if another
module compares a judge string with ``"offline"`` or tests a value's class.

The value's ``name`` is the judge identity every log, card and ``--json`` document records,
spelled exactly as before (``offline`` or the model name as given).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from privbench.runtime.judge_choice import JudgeChoice, ModelJudge, OfflineJudge, ProtocolHash
from privbench.runtime.judge_names import DEFAULT_JUDGE, OFFLINE_JUDGE

if TYPE_CHECKING:  # reading a judge string loads no model machinery; grading does
    from privbench.judges.grading import Grader


def parse_judge(name: str | None) -> JudgeChoice:
    """The judge a ``--judge`` string (or a logged judge name) names.

    ``offline`` is the rule-based judge; any other name is an inspect model; none (or an
    empty name) leaves the ``grader`` role to the task's runner.
    """
    if name == OFFLINE_JUDGE:
        from privbench.judges import offline  # its rules load only when they grade

        return OfflineJudge(offline.PROTOCOL, offline.rules_hash(), offline.RULES_VERSION)
    return ModelJudge(name or None)


def grader(choice: JudgeChoice) -> Grader:
    """The judge inside a running task: the rules, or the task's ``grader`` model role."""
    from privbench.judges.grading import ModelGrader, RulesGrader

    if isinstance(choice, OfflineJudge):
        return RulesGrader()
    from inspect_ai.model import get_model

    return ModelGrader(get_model(role="grader", default=DEFAULT_JUDGE), choice.model)


__all__ = [
    "DEFAULT_JUDGE",
    "OFFLINE_JUDGE",
    "JudgeChoice",
    "ModelJudge",
    "OfflineJudge",
    "ProtocolHash",
    "grader",
    "parse_judge",
]
