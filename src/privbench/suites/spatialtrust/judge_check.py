"""SpatialTrust's part of ``privbench judge check``: its judge's q4/q5 verdicts against
reference verdict sets (:mod:`privbench.suites.spatialtrust.verdict_check`).

Why lazy wrappers: the registry imports every suite's declaration at start-up; the verdict
check (numpy, inspect's scorers) loads only when a check or its dry run asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import EvalLog

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cross_run import JudgeCheck, StepRunner, VerdictOutcome, VerdictSetCheck
from privbench.runtime.judge_choice import JudgeChoice
from privbench.runtime.running import RunOptions


def _shipped_sets() -> list[Path]:
    from privbench.suites.spatialtrust.verdict_check import shipped_verdict_sets

    return shipped_verdict_sets()


def _add_calls(plan: CallPlan, paths: Sequence[Path]) -> None:
    from privbench.suites.spatialtrust.plan import add_verdict_call
    from privbench.suites.spatialtrust.verdict_check import read_verdict_sets

    for item in read_verdict_sets(paths):
        add_verdict_call(plan, item.question, item.answer)


def _check(
    paths: Sequence[Path], options: RunOptions, run: StepRunner
) -> tuple[VerdictOutcome, EvalLog]:
    from privbench.suites.spatialtrust.verdict_check import check_spatial_verdicts

    return check_spatial_verdicts(paths, options, run=run)


def _identity(judge: JudgeChoice) -> tuple[str, str]:
    from privbench.suites.spatialtrust.judge import judge_identity

    return judge_identity(judge)


JUDGE_CHECK = JudgeCheck(
    verdicts=VerdictSetCheck(
        shipped_sets=_shipped_sets, add_calls=_add_calls, check=_check, identity=_identity
    )
)
