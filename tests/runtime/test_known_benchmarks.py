"""A benchmark's name in records, its old logs and its agreement wording come from its
declaration: the runtime keeps no list of benchmarks.

Why: a benchmark added to the registry must be read back (a log naming it, an older log
that names it only through its scorer or task, the sentence under its tables) without an
edit to the runtime's records.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalResults, EvalScore, EvalSpec
from pydantic import ValidationError

from privbench import registry
from privbench.runtime.records.benchmark import OldLogs, agreement_wording
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.judge_agreement import (
    AgreementWording,
    JudgeAgreement,
    agreement_line,
)
from privbench.runtime.records.task import TaskRecord

CARD = JudgeAgreement(reference_set="toy-set", set_hash="abc", n=3, spearman=0.5, mae=0.1)


def _log(task: str, scorer: str | None = None, benchmark: str | None = None) -> EvalLog:
    metadata = {"benchmark": benchmark} if benchmark else None
    spec = EvalSpec(
        created="2025-01-01T00:00:00",
        task=task,
        dataset=EvalDataset(),
        model="m",
        config=EvalConfig(),
        metadata=metadata,
    )
    scores = [EvalScore(name=scorer, scorer=scorer)] if scorer else []
    return EvalLog(eval=spec, results=EvalResults(scores=scores))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A benchmark ``toy`` registered beside the others, with its own old-log names and
    a verdict wording."""
    base = registry.get("spatialtrust")
    toy = replace(
        base,
        name="toy",
        old_logs=OldLogs("toy_scorer", ("toy", "toy_grade")),
        cross_run=replace(base.cross_run, agreement=AgreementWording("toy verdicts", "tv")),
    )
    monkeypatch.setattr(registry, "SUITES", {**registry.SUITES, "toy": toy})


@pytest.mark.usefixtures("toy")
def test_an_older_log_is_recognised_by_what_its_benchmark_declares() -> None:
    assert RunIdentity.from_log(_log("other", scorer="toy_scorer")).benchmark == "toy"
    assert RunIdentity.from_log(_log("privbench/toy_grade")).benchmark == "toy"
    assert RunIdentity.from_log(_log("privbench/spatialtrust_grade")).benchmark == "spatialtrust"
    assert RunIdentity.from_log(_log("other", scorer="priviq_judge")).benchmark == "priviq"
    assert RunIdentity.from_log(_log("someone_else")).benchmark is None


@pytest.mark.usefixtures("toy")
def test_a_run_of_a_new_benchmark_words_its_judge_agreement_as_declared() -> None:
    assert RunIdentity.from_log(_log("privbench/toy", benchmark="toy")).benchmark == "toy"
    toy = agreement_wording("toy")
    assert (CARD.line(toy), CARD.short(toy)) == (
        "judge not checked on toy verdicts",
        "tv not checked",
    )
    for graded in ("priviq", None, "unknown"):
        line = agreement_line(CARD, "", agreement_wording(graded))
        assert line.startswith("judge agreement with reference grades (toy-set, n = 3)"), line
    spatial = agreement_line(CARD, "", agreement_wording("spatialtrust"))
    assert spatial == "judge not checked on SpatialTrust q4/q5 verdicts"


def test_a_benchmark_name_in_a_record_is_a_plain_name() -> None:
    assert TaskRecord(benchmark="confaide").benchmark == "confaide"
    with pytest.raises(ValidationError):
        TaskRecord(benchmark="Not a name!")
