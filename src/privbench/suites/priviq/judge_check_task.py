"""The inspect task that has a judge grade given answers, exactly as a Priv-IQ run grades.

Why a task and the run's own scorer: a check is only worth something if the judge is asked
the way a run asks it — the same prompt, protocol, re-asks, judge runs, retries, cache and
connection limits. So the answers to check become samples of an inspect task whose solver
puts the given answer in place of a generation and whose scorer is Priv-IQ's
:func:`~privbench.suites.priviq.scorer.priviq_judge`; inspect then does the running, the log and
the viewer, and :func:`~privbench.suites.priviq.log.priviq_log` reads the grades back.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from privbench.judges.choice import parse_judge
from privbench.runtime.cross_run import CheckCase
from privbench.runtime.records.task import TaskRecord
from privbench.suites.priviq.judge import MAX_TRIES
from privbench.suites.priviq.record import PrivIQSampleRecord
from privbench.suites.priviq.scorer import priviq_judge

PREDICTION_KEY = "prediction"
"""Sample-metadata key of the answer the judge grades."""
GIVEN = "given answer"
"""The "model" of a check's outputs: no model under test is asked."""


@solver
def given_answer() -> Solver:
    """Put the case's answer in place of a generation (nothing is asked of a model)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = str((state.metadata or {}).get(PREDICTION_KEY, ""))
        state.output = ModelOutput.from_content(model=GIVEN, content=answer)
        return state

    return solve


def _sample(case: CheckCase) -> Sample:
    metadata = PrivIQSampleRecord(competencies=list(case.competencies)).model_dump()
    return Sample(
        id=case.id,
        input=case.question,
        target=case.reference,
        metadata={**metadata, PREDICTION_KEY: case.prediction},
    )


def judge_check_task(
    cases: Sequence[CheckCase],
    *,
    name: str,
    judge: str | None,
    protocol: str,
    judge_runs: int = 1,
    cache: bool = False,
    max_tries: int = MAX_TRIES,
) -> Task:
    """A task grading ``cases`` with ``judge`` under ``protocol``, ``judge_runs`` times each."""
    return Task(
        name=name,
        dataset=MemoryDataset([_sample(case) for case in cases], name=name),
        solver=given_answer(),
        scorer=priviq_judge(
            protocol=protocol,
            max_tries=max_tries,
            judge=judge,
            judge_runs=judge_runs,
            cache=cache,
        ),
        model_roles=parse_judge(judge).grader_role(),
        metadata=TaskRecord(judge_check=name, judge=judge, judge_runs=judge_runs).metadata(),
    )
