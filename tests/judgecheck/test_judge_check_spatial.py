"""``privbench judge check`` for SpatialTrust q4/q5: verdict sets, agreement, the real run."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers import JUDGE_MARK, run_options
from helpers.loopback_server import LoopbackServer, message_text

from privbench.judges.offline.spatial import graded_verdict_fields
from privbench.runtime.errors import DatasetError
from privbench.runtime.log_reading import log_samples
from privbench.suites.spatialtrust.judge import MAX_TRIES, judge_prompt, offline_verdict
from privbench.suites.spatialtrust.question_design import QUESTION_TEXTS
from privbench.suites.spatialtrust.scoring import ExplanationVerdict, FactorVerdict
from privbench.suites.spatialtrust.verdict_check import (
    PLACEHOLDER_BOX,
    SCORER_NAME,
    VERDICT_SETS,
    FieldAgreement,
    SpatialAgreement,
    VerdictDisagreement,
    VerdictItem,
    check_spatial_verdicts,
    read_verdict_set,
    read_verdict_sets,
    verdict_agreement,
    verdict_item,
)

FRESH = VERDICT_SETS / "fresh.jsonl"
INDEPENDENT = VERDICT_SETS / "independent.jsonl"
FIELDS = ("identified", "explanation_correct", "unsupported", "states_none")


def _row(
    item_id: str,
    question: str,
    identified: list[bool],
    explained: list[bool],
    *,
    unsupported: bool = False,
    states_none: bool = False,
) -> dict[str, Any]:
    """A verdict-set row with one listed answer factor per ground-truth factor."""
    n = len(identified)
    return {
        "id": item_id,
        "question": question,
        "factors": [{"name": f"factor {i}", "why": f"reason {i}"} for i in range(n)],
        "reference": "The reference answer.",
        "answer_text": f"The answer of {item_id}.",
        "answer_factors": [{"name": f"named {i}", "why": f"because {i}"} for i in range(n)],
        "verdict": {
            "identified": identified,
            "explained": explained,
            "match": [i if identified[i] else None for i in range(n)],
            "unsupported": unsupported,
            "states_none": states_none,
        },
    }


def _item(row: dict[str, Any]) -> VerdictItem:
    item, problems = verdict_item(row, "test")
    assert item is not None, problems
    return item


def _verdict(
    identified: Sequence[bool],
    explained: Sequence[bool],
    *,
    unsupported: bool = False,
    states_none: bool = False,
) -> ExplanationVerdict:
    factors = tuple(
        FactorVerdict(a, e, i if a else None)
        for i, (a, e) in enumerate(zip(identified, explained, strict=True))
    )
    return ExplanationVerdict(factors, unsupported, states_none)


def _kappa_by_hand(pairs: Sequence[tuple[bool, bool]]) -> float:
    """(p_o − p_e) / (1 − p_e): p_o the share agreeing, p_e the chance agreement of two
    raters with these yes rates."""
    n = len(pairs)
    p_o = sum(a == b for a, b in pairs) / n
    yes_a = sum(a for a, _ in pairs) / n
    yes_b = sum(b for _, b in pairs) / n
    p_e = yes_a * yes_b + (1 - yes_a) * (1 - yes_b)
    return (p_o - p_e) / (1 - p_e)


# --- the comparison (pure) -----------------------------------------------------------------

TINY = [
    _row("a", "q4", [True], [True]),
    _row("b", "q4", [False], [False]),
    _row("c", "q5", [True, True], [True, False]),
    _row("d", "q5", [], [], states_none=True),
    _row("e", "q4", [True], [True]),
]
TINY_JUDGED = {
    "a": _verdict([True], [False]),
    "b": _verdict([True], [False]),
    "c": _verdict([True, False], [True, False]),
    "d": _verdict([], [], unsupported=True, states_none=True),
    "e": None,  # no reply parsed
}


def test_verdict_agreement_on_a_tiny_set() -> None:
    agreement = verdict_agreement([_item(row) for row in TINY], TINY_JUDGED)
    assert agreement.items == 5
    assert agreement.unscored == ("e",)
    # identified, (reference, judged): a (T,T), b (F,T), c0 (T,T), c1 (T,F): 2 of 4 agree;
    # p_o = 1/2, yes rates 3/4 and 3/4, p_e = 9/16 + 1/16 = 5/8, κ = (1/2 − 5/8)/(3/8) = −1/3
    identified = agreement.fields["identified"]
    assert (identified.n, identified.agreeing, identified.accuracy) == (4, 2, 0.5)
    assert identified.kappa == pytest.approx(-1 / 3)
    pairs = [(True, True), (False, True), (True, True), (True, False)]
    assert identified.kappa == pytest.approx(_kappa_by_hand(pairs))
    # explanation_correct: a (T,F), b (F,F), c0 (T,T), c1 (F,F): 3 of 4; yes rates 1/2 and
    # 1/4, p_e = 1/8 + 3/8 = 1/2, κ = (3/4 − 1/2)/(1/2) = 1/2
    explained = agreement.fields["explanation_correct"]
    assert (explained.n, explained.agreeing, explained.accuracy) == (4, 3, 0.75)
    assert explained.kappa == pytest.approx(0.5)
    # unsupported: only d differs (F,T): 3 of 4; the reference says no throughout, so
    # p_e = 1 × 3/4 = p_o and κ = 0 — a finding (no better than chance), not undefined
    unsupported = agreement.fields["unsupported"]
    assert (unsupported.n, unsupported.accuracy) == (4, 0.75)
    assert unsupported.kappa == pytest.approx(0.0)
    assert unsupported.kappa_undefined is None
    # states_none: d (T,T), the rest (F,F): all agree; p_e = 1/16 + 9/16, κ = 1
    states_none = agreement.fields["states_none"]
    assert states_none.accuracy == 1.0
    assert states_none.kappa == pytest.approx(1.0)
    # per question: q4 is a and b (e unscored), q5 is c and d
    q4, q5 = agreement.by_question["q4"], agreement.by_question["q5"]
    assert (q4["identified"].n, q4["identified"].accuracy) == (2, 0.5)
    assert q4["identified"].kappa == pytest.approx(0.0)  # reference T,F; judged T,T
    assert q4["states_none"] == FieldAgreement(
        2, 2, None, "both raters gave every unit the same single label"
    )
    assert (q5["identified"].n, q5["identified"].accuracy) == (2, 0.5)
    assert (q5["unsupported"].n, q5["unsupported"].accuracy) == (2, 0.5)
    assert agreement.disagreements == (
        VerdictDisagreement("a", "q4", "explanation_correct", 0, True, False),
        VerdictDisagreement("b", "q4", "identified", 0, False, True),
        VerdictDisagreement("c", "q5", "identified", 1, True, False),
        VerdictDisagreement("d", "q5", "unsupported", None, False, True),
    )


def test_agreement_json_is_plain_and_undefined_is_null() -> None:
    agreement = verdict_agreement([_item(TINY[3])], {"d": TINY_JUDGED["d"]})
    document = json.loads(json.dumps(agreement.as_json(), allow_nan=False))
    assert document["fields"]["identified"] == {
        "n": 0,
        "agreeing": 0,
        "accuracy": None,
        "kappa": None,
        "kappa_undefined_because": "nothing to compare",
    }
    assert document["by_question"]["q4"]["unsupported"]["accuracy"] is None
    assert document["unscored"] == 0
    assert document["disagreements"] == [
        {
            "id": "d",
            "question": "q5",
            "field": "unsupported",
            "factor": None,
            "reference": False,
            "judged": True,
        }
    ]


def test_every_item_needs_an_entry() -> None:
    with pytest.raises(ValueError, match=r"no verdict entry for 4 item\(s\): b, c, d, e"):
        verdict_agreement([_item(row) for row in TINY], {"a": TINY_JUDGED["a"]})


# --- reading verdict sets ------------------------------------------------------------------


def test_a_row_becomes_the_question_and_answer_a_run_judges() -> None:
    item = read_verdict_set(FRESH)[0]
    assert item.id == "sf-001" and item.qid == "q4"
    assert item.question.text == QUESTION_TEXTS["q4"]
    assert item.question.answer.startswith("A coworker standing behind the user")
    assert [f.box for f in item.question.factors] == [PLACEHOLDER_BOX]
    assert [f.box for f in item.answer.factors] == [None]
    assert item.reference == ExplanationVerdict((FactorVerdict(True, True, 0),), False, False)
    assert item.source == f"{FRESH}:1"


def test_every_problem_names_file_line_id_and_field(tmp_path: Path) -> None:
    good = _row("ok", "q4", [True], [True])
    rows = [
        json.dumps(good),
        "{not json",
        json.dumps({**good, "id": "q6", "question": "q6"}),
        json.dumps({**good, "id": "short", "verdict": {**good["verdict"], "identified": []}}),
        json.dumps({**good, "id": "far", "verdict": {**good["verdict"], "match": [3]}}),
        json.dumps({**good, "id": "why", "factors": [{"name": "x"}]}),
        json.dumps(good),
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError) as raised:
        read_verdict_set(path)
    found = [(p.file, p.item, p.message) for p in raised.value.problems]
    assert found[0][0].startswith(f"{path}:2:") and "invalid JSON" in found[0][2]
    assert found[1:] == [
        (f"{path}:3", "q6", "'question' must be q4 or q5"),
        (
            f"{path}:4",
            "short",
            "'verdict.identified' must be a list of 1 true/false (one per factor)",
        ),
        (
            f"{path}:5",
            "far",
            "'verdict.match': factor 0 matched to predicted factor 3, which does not exist",
        ),
        (f"{path}:6", "why", "'factors[0].why' must be a non-empty string"),
        (f"{path}:7", "ok", "duplicate id (first on line 1)"),
    ]
    assert str(raised.value).startswith(f"{path}:2:")


def test_an_id_may_appear_in_one_set_only(tmp_path: Path) -> None:
    path = tmp_path / "again.jsonl"
    path.write_text(FRESH.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=f"{path}:1: item sf-001: id also in {FRESH}:1"):
        read_verdict_sets([FRESH, path])


# --- the offline judge through the real run ------------------------------------------------


@pytest.mark.parametrize("path", [FRESH, INDEPENDENT], ids=["fresh", "independent"])
def test_offline_check_is_offline_verdict_on_every_row(path: Path, tmp_path: Path) -> None:
    check, log = check_spatial_verdicts([path], run_options(tmp_path, judge="offline"))
    agreement = check.agreement
    assert log.status == "success"
    items = read_verdict_set(path)
    direct = {item.id: offline_verdict(item.question, item.answer) for item in items}
    assert agreement == verdict_agreement(items, direct)
    assert agreement.unscored == ()
    # the offline judge's own tally of the same fields (written apart from this module)
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    agree, total = graded_verdict_fields(rows)
    assert sum(f.agreeing for f in agreement.fields.values()) == agree
    assert sum(f.n for f in agreement.fields.values()) == total
    n_factors = sum(len(item.question.factors) for item in items)
    assert agreement.fields["identified"].n == n_factors
    assert agreement.fields["unsupported"].n == len(items)
    for qid in ("q4", "q5"):
        assert agreement.by_question[qid]["states_none"].n == sum(i.qid == qid for i in items)


# --- an LLM judge at a real OpenAI-compatible endpoint -------------------------------------


def _reply_json(verdict: ExplanationVerdict) -> str:
    """A verdict in the shape the judge prompt asks for."""
    return json.dumps(
        {
            "factors": [
                {
                    "gt": index,
                    "identified": factor.identified,
                    "explanation_correct": factor.explanation_correct,
                    "matched_prediction": factor.matched,
                }
                for index, factor in enumerate(verdict.factors)
            ],
            "unsupported": verdict.unsupported,
            "states_none": verdict.states_none,
        }
    )


def _by_prompt(items: Sequence[VerdictItem]) -> dict[str, tuple[VerdictItem, int]]:
    """Each judge prompt a run sends (first try and re-ask) → its item and the try."""
    prompts: dict[str, tuple[VerdictItem, int]] = {}
    for item in items:
        prompts[judge_prompt(item.question, item.answer)] = (item, 0)
        prompts[judge_prompt(item.question, item.answer, retry=True)] = (item, 1)
    return prompts


def _judge(
    items: Sequence[VerdictItem], reply: Callable[[VerdictItem, int], str]
) -> Callable[[dict[str, Any]], str]:
    """The server's judge: finds the item whose prompt it was sent (a prompt that is not
    exactly a run's prompt for a row fails the test) and answers ``reply(item, tries)``."""
    prompts = _by_prompt(items)
    tries: dict[str, int] = {}

    def answer(body: dict[str, Any]) -> str:
        item, _ = prompts[message_text(body)]
        tries[item.id] = tries.get(item.id, 0) + 1
        return reply(item, tries[item.id])

    return answer


def _samples(log: Any) -> dict[str, dict[str, Any]]:
    """Each sample's score metadata, read in full."""
    found = {}
    for sample in log_samples(log, lambda summary: False):
        score = (sample.scores or {})[SCORER_NAME]
        found[str(sample.id)] = dict(score.metadata or {})
    return found


def _all_agree(agreement: SpatialAgreement) -> None:
    tables = [agreement.fields, *agreement.by_question.values()]
    for table in tables:
        for name in FIELDS:
            figure = table[name]
            assert figure.accuracy == 1.0, name
            assert figure.kappa == pytest.approx(1.0) or (
                figure.kappa is None and figure.kappa_undefined
            ), name


def test_a_judge_replying_the_reference_agrees_fully(
    server: LoopbackServer, tmp_path: Path
) -> None:
    items = read_verdict_sets([FRESH, INDEPENDENT])
    server.script(JUDGE_MARK, _judge(items, lambda item, _: _reply_json(item.reference)))
    check, log = check_spatial_verdicts([FRESH, INDEPENDENT], run_options(tmp_path))
    agreement = check.agreement
    assert log.status == "success"
    assert (agreement.items, agreement.unscored, agreement.disagreements) == (98, (), ())
    _all_agree(agreement)
    assert server.count(JUDGE_MARK) == 98  # one try each: every reply parsed
    logged = _samples(log)
    assert logged["sf-001"]["verdict"] == {
        "factors": [{"identified": True, "explanation_correct": True, "matched_prediction": 0}],
        "unsupported": False,
        "states_none": False,
    }
    assert logged["sf-001"]["unscored"] is False
    assert logged["sf-001"]["replies"] == [_reply_json(items[0].reference)]


def test_flipped_identified_lowers_its_accuracy_by_the_flips(
    server: LoopbackServer, tmp_path: Path
) -> None:
    items = read_verdict_set(FRESH)
    flipped = [item for item in items if item.question.factors][:3]
    flipped_ids = {item.id for item in flipped}

    def reply(item: VerdictItem, _: int) -> str:
        verdict = item.reference
        if item.id in flipped_ids:
            first = verdict.factors[0]
            changed = FactorVerdict(not first.identified, first.explanation_correct, first.matched)
            verdict = ExplanationVerdict(
                (changed, *verdict.factors[1:]), verdict.unsupported, verdict.states_none
            )
        return _reply_json(verdict)

    server.script(JUDGE_MARK, _judge(items, reply))
    check, _ = check_spatial_verdicts([FRESH], run_options(tmp_path))
    agreement = check.agreement
    n_factors = sum(len(item.question.factors) for item in items)
    identified = agreement.fields["identified"]
    assert (identified.n, identified.agreeing) == (n_factors, n_factors - 3)
    assert identified.accuracy == pytest.approx(1 - 3 / n_factors)
    pairs = [
        (f.identified, f.identified != (i == 0 and item.id in flipped_ids))
        for item in items
        for i, f in enumerate(item.reference.factors)
    ]
    assert identified.kappa == pytest.approx(_kappa_by_hand(pairs))
    assert identified.kappa is not None and identified.kappa < 1.0
    for name in FIELDS[1:]:
        assert agreement.fields[name].accuracy == 1.0
    assert agreement.disagreements == tuple(
        VerdictDisagreement(
            item.id,
            item.qid,
            "identified",
            0,
            item.reference.factors[0].identified,
            not item.reference.factors[0].identified,
        )
        for item in flipped
    )


def test_a_reply_that_never_parses_is_unscored_not_wrong(
    server: LoopbackServer, tmp_path: Path
) -> None:
    items = read_verdict_set(FRESH)
    with_factors = [item for item in items if item.question.factors]
    never, once = with_factors[0], with_factors[1]

    def reply(item: VerdictItem, tries: int) -> str:
        if item.id == never.id or (item.id == once.id and tries == 1):
            return "I would rather not give a verdict."
        return _reply_json(item.reference)

    server.script(JUDGE_MARK, _judge(items, reply))
    check, log = check_spatial_verdicts([FRESH], run_options(tmp_path))
    agreement = check.agreement
    assert agreement.unscored == (never.id,)
    assert agreement.disagreements == ()
    _all_agree(agreement)
    n_factors = sum(len(item.question.factors) for item in items)
    assert agreement.fields["identified"].n == n_factors - len(never.question.factors)
    assert agreement.fields["unsupported"].n == len(items) - 1
    assert agreement.as_json()["unscored"] == 1
    logged = _samples(log)
    assert logged[never.id]["unscored"] is True
    assert logged[never.id]["verdict"] is None
    assert logged[never.id]["replies"] == ["I would rather not give a verdict."] * MAX_TRIES
    assert logged[once.id]["unscored"] is False  # the re-ask of a run: it parsed on try 2
    assert len(logged[once.id]["replies"]) == 2
