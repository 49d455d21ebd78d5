"""Which registered benchmarks ``privbench judge check`` checks, and how.

Why here: the check reads each benchmark's :class:`~privbench.runtime.cross_run.JudgeCheck`
through :mod:`privbench.registry` and never names one. The reference-graded answers (one
card) and the verdict sets (another) each come from the first registered benchmark that
has them: the command's options (``--against``, ``--verdicts``) and its ``--json``
document have one of each.
"""

from __future__ import annotations

from privbench.registry import SUITES
from privbench.runtime.cross_run import (
    CompetencyVocabulary,
    GradedAnswersCheck,
    VerdictSetCheck,
)
from privbench.runtime.errors import UsageError
from privbench.runtime.suite import Suite


def graded_benchmark() -> tuple[Suite, GradedAnswersCheck]:
    """The benchmark whose judge grades answers against a reference, with its hooks."""
    for suite in SUITES.values():
        hooks = suite.cross_run.judge_check
        if hooks is not None and hooks.graded is not None:
            return suite, hooks.graded
    raise UsageError("no registered benchmark has reference-graded answers to check a judge on")


def verdict_benchmark() -> tuple[Suite, VerdictSetCheck] | None:
    """The benchmark whose judge gives verdicts checked against verdict sets (None: none)."""
    for suite in SUITES.values():
        hooks = suite.cross_run.judge_check
        if hooks is not None and hooks.verdicts is not None:
            return suite, hooks.verdicts
    return None


def competency_vocabulary() -> CompetencyVocabulary:
    """The competencies reference files may name (the graded benchmark's)."""
    return graded_benchmark()[1].competencies
