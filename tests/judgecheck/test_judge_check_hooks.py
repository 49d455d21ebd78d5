"""``privbench judge check`` reads each benchmark's part through the registry.

Why: the check must work for whatever benchmarks are registered, so the competencies a
reference file may name, the shipped calibration set, the card's benchmark and the
verdict sets all come from a benchmark's :class:`~privbench.runtime.cross_run.JudgeCheck`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from privbench import registry
from privbench.judgecheck import api
from privbench.judgecheck.benchmarks import graded_benchmark, verdict_benchmark
from privbench.judgecheck.references import parse_reference_line, read_reference_grades
from privbench.runtime.cross_run import CompetencyVocabulary
from privbench.runtime.errors import DatasetError, PrivbenchError

LINE = {"question": "Which article?", "reference": "Article 33.", "prediction": "Art. 33"}
CODES = ("Alpha", "Beta")


def _combine(codes: Iterable[str]) -> tuple[str, ...]:
    wanted = set(codes)
    return tuple(code for code in CODES if code in wanted)


VOCABULARY = CompetencyVocabulary(
    CODES, lambda name: {"alpha": "Alpha", "beta": "Beta"}.get(name.lower()), _combine
)


def test_each_part_comes_from_a_registered_benchmark() -> None:
    graded, hooks = graded_benchmark()
    verdicts = verdict_benchmark()
    assert verdicts is not None
    assert (graded.name, verdicts[0].name) == ("priviq", "spatialtrust")
    assert graded.cross_run.judge_check is not None
    assert hooks is graded.cross_run.judge_check.graded
    assert "PET" in hooks.competencies.codes


def test_a_reference_line_names_the_competencies_it_is_given() -> None:
    item, problems = parse_reference_line(
        {**LINE, "score": 1, "competency": "beta+ALPHA"}, "f:1", "line-1", None, VOCABULARY
    )
    assert problems == [] and item is not None and item.competencies == ("Alpha", "Beta")
    _, problems = parse_reference_line(
        {**LINE, "score": 1, "competency": "Law"}, "f:1", "line-1", None, VOCABULARY
    )
    assert [p.message for p in problems] == [
        "field 'competency' unknown competency 'Law' (known: Alpha, Beta)"
    ]


def test_without_a_graded_benchmark_a_reference_file_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registry without reference-graded answers: one line, not a crash."""
    priviq = registry.SUITES["priviq"]
    bare = replace(priviq, cross_run=replace(priviq.cross_run, judge_check=None))
    monkeypatch.setattr("privbench.judgecheck.benchmarks.SUITES", {"priviq": bare})
    path = tmp_path / "grades.jsonl"
    path.write_text('{"question": "q", "reference": "r", "prediction": "p", "score": 1}\n')
    with pytest.raises(PrivbenchError, match="no registered benchmark has reference-graded"):
        read_reference_grades([path])
    assert verdict_benchmark() is None
    with pytest.raises(PrivbenchError, match="--verdicts: no registered benchmark"):
        api._verdict_sets(api.CheckRequest(verdicts=[path]))
    assert api._verdict_sets(api.CheckRequest()) == []


def test_a_bad_reference_file_still_names_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "grades.jsonl"
    path.write_text('{"question": "q", "reference": "r", "prediction": "p", "score": 1, '
                    '"competency": "Nope"}\n')  # fmt: skip
    with pytest.raises(DatasetError, match="unknown competency 'Nope'"):
        read_reference_grades([path])
