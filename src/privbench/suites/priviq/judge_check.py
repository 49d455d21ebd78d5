"""Priv-IQ's part of ``privbench judge check``: its judge grades answers against a reference.

Why lazy wrappers: the registry imports every suite's declaration at start-up; the grading
task, the log reader and the dataset load only when a check or its dry run asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai import Task
from inspect_ai.log import EvalLog

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cross_run import (
    AnswerGrades,
    CheckCase,
    CompetencyVocabulary,
    GradedAnswersCheck,
    JudgeCheck,
    ReferenceAnswer,
)
from privbench.runtime.judge_choice import JudgeChoice
from privbench.suites.priviq.competencies import (
    COMPETENCIES,
    combination_of,
    normalize_competency,
)


def _identity(protocol: str, judge: JudgeChoice) -> tuple[str, str]:
    from privbench.suites.priviq.scorer import protocol_identity

    return protocol_identity(protocol, judge)


def _task(
    cases: Sequence[CheckCase],
    *,
    name: str,
    judge: str | None,
    protocol: str,
    judge_runs: int,
    cache: bool,
) -> Task:
    from privbench.suites.priviq.judge_check_task import judge_check_task

    return judge_check_task(
        cases, name=name, judge=judge, protocol=protocol, judge_runs=judge_runs, cache=cache
    )


def _read_grades(log: EvalLog) -> tuple[Sequence[AnswerGrades], list[str]]:
    from privbench.suites.priviq.log import priviq_log

    graded = priviq_log(log)
    return graded.grades, graded.versions.record()["judge"]


def _probe_items(directory: Path | None) -> list[ReferenceAnswer]:
    """The items of ``directory`` (None: the suite shipped inside the package)."""
    from privbench.shipped import PRIVIQ_SUITE
    from privbench.suites.priviq.dataset import load_priviq

    return [
        ReferenceAnswer(item.id, item.question, item.answer, tuple(item.competencies))
        for item in load_priviq(directory or PRIVIQ_SUITE)
    ]


def _add_calls(plan: CallPlan, protocol: str, case: CheckCase, runs: int) -> None:
    from privbench.suites.priviq.plan import add_judge_runs, shown_to_judge

    add_judge_runs(plan, protocol, case.question, case.reference,
                   shown_to_judge(case.prediction), runs)  # fmt: skip


JUDGE_CHECK = JudgeCheck(
    graded=GradedAnswersCheck(
        competencies=CompetencyVocabulary(COMPETENCIES, normalize_competency, combination_of),
        identity=_identity,
        task=_task,
        read_grades=_read_grades,
        probe_items=_probe_items,
        add_calls=_add_calls,
    )
)
