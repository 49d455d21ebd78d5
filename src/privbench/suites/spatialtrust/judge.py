"""The structured q4/q5 judge (docs/spatialtrust.md, Scoring): prompt and verdict validation, pure functions.

The judge reads the ground-truth factors and the model's answer and returns, per
ground-truth factor, whether it is identified (``a_i``), whether its explanation is
correct (``e_i``) and which of the answer's listed factors it matches (at most one, each
listed factor used at most once), plus ``unsupported`` (the answer claims a factor absent
from the ground truth) and ``states_none`` (the answer clearly says there is none). It
never sees boxes: IoU is computed by privbench. A verdict that is not valid JSON of that
shape, or whose indices are out of range or reused, is asked again; still invalid → the
question is unscored.
"""

from __future__ import annotations

import hashlib
import json

from privbench.judges.asking import fenced
from privbench.judges.choice import JudgeChoice, ProtocolHash
from privbench.judges.offline import spatial as offline_spatial
from privbench.suites.spatialtrust.answer_text import first_json_object
from privbench.suites.spatialtrust.dataset import ExplanationQuestion, Factor
from privbench.suites.spatialtrust.reading import ExplanationAnswer
from privbench.suites.spatialtrust.scoring import ExplanationVerdict, FactorVerdict, verdict_problem

MAX_TRIES = 3
MAX_TOKENS = 600

VERDICT_SHAPE = (
    '{"factors": [{"gt": 0, "identified": true, "explanation_correct": true, '
    '"matched_prediction": 0}], "unsupported": false, "states_none": false}'
)
RETRY_SUFFIX = (
    "\n\nYour previous reply was not a valid verdict. Reply with exactly one JSON object of "
    "the shape above: one entry per ground-truth factor (gt = 0, 1, ...), "
    "matched_prediction an index of the answer's listed factors or null, each listed factor "
    "matched at most once."
)


def offline_verdict(question: ExplanationQuestion, answer: ExplanationAnswer) -> ExplanationVerdict:
    """The offline judge's verdict (``--judge offline``: text similarity, no model; see
    :func:`privbench.judges.offline.spatial.offline_verdict`)."""
    return offline_spatial.offline_verdict(
        question.qid == "q4",
        [offline_spatial.FactorText(f.name, f.why) for f in question.factors],
        answer.text,
        [offline_spatial.FactorText(f.name, f.why) for f in answer.factors],
    )


def _kind(qid: str) -> str:
    return "direct" if qid == "q4" else "indirect"


def _answer_listing(answer: ExplanationAnswer) -> str:
    listed = [{"index": i, "name": f.name, "why": f.why} for i, f in enumerate(answer.factors)]
    return f"Answer text: {answer.text}\nListed factors: {json.dumps(listed, ensure_ascii=False)}"


def judge_prompt(
    question: ExplanationQuestion, answer: ExplanationAnswer, *, retry: bool = False
) -> str:
    """The judge's user message for one q4/q5 answer."""
    kind = _kind(question.qid)
    if question.factors:
        truth = "\n".join(
            f"{i}. name: {f.name} | why: {f.why}" for i, f in enumerate(question.factors)
        )
    else:
        truth = f"(none: no {kind} sensitive factor is visible)"
    fence, notice = fenced("ANSWER", _answer_listing(answer))
    prompt = (
        "You grade one answer of a vision-language model to a question about sensitive "
        "factors in a laptop-camera authentication capture, against the ground truth.\n\n"
        f"Question ({question.qid}, {kind} sensitive factors): {question.text}\n\n"
        f"Ground-truth {kind} factors:\n{truth}\n"
        f"Reference answer: {question.answer}\n\n"
        f"The model's answer follows. {notice}\n{fence}\n\n"
        "For each ground-truth factor decide: identified — does the answer name this factor "
        "(the same object or condition; wording may differ)? explanation_correct — does it "
        f"correctly say why the factor is a {kind} sensitive factor? matched_prediction — the "
        "index of the answer's listed factor that describes it, or null; use each listed "
        f"factor at most once. Also decide: unsupported — does the answer claim a {kind} "
        "sensitive factor that is not in the ground truth? states_none — does the answer "
        f"clearly state that no {kind} sensitive factor is visible? Do not judge locations; "
        "boxes are checked separately.\n\n"
        f"Reply with one JSON object and nothing else, in this shape:\n{VERDICT_SHAPE}"
    )
    return prompt + RETRY_SUFFIX if retry else prompt


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def parse_verdict(reply: str, n_gt: int, n_predicted: int) -> ExplanationVerdict | None:
    """A valid verdict for ``n_gt`` ground-truth and ``n_predicted`` listed factors, or None."""
    data = first_json_object(reply)
    if data is None:
        return None
    unsupported, states_none = _flag(data.get("unsupported")), _flag(data.get("states_none"))
    entries = data.get("factors")
    if unsupported is None or states_none is None or not isinstance(entries, list):
        return None
    by_index: dict[int, FactorVerdict] = {}
    for entry in entries:
        factor = _factor(entry)
        if factor is None or factor[0] in by_index:
            return None
        by_index[factor[0]] = factor[1]
    if sorted(by_index) != list(range(n_gt)):
        return None
    verdict = ExplanationVerdict(tuple(by_index[i] for i in range(n_gt)), unsupported, states_none)
    return None if verdict_problem(verdict, n_gt, n_predicted) else verdict


def _factor(entry: object) -> tuple[int, FactorVerdict] | None:
    if not isinstance(entry, dict):
        return None
    index, matched = entry.get("gt"), entry.get("matched_prediction")
    identified, correct = _flag(entry.get("identified")), _flag(entry.get("explanation_correct"))
    if (
        isinstance(index, bool)
        or not isinstance(index, int)
        or identified is None
        or correct is None
    ):
        return None
    if matched is not None and (isinstance(matched, bool) or not isinstance(matched, int)):
        return None
    return index, FactorVerdict(identified, correct, matched)


def verdict_record(verdict: ExplanationVerdict) -> dict[str, object]:
    """The verdict as logged in score metadata."""
    return {
        "factors": [
            {
                "identified": f.identified,
                "explanation_correct": f.explanation_correct,
                "matched_prediction": f.matched,
            }
            for f in verdict.factors
        ],
        "unsupported": verdict.unsupported,
        "states_none": verdict.states_none,
    }


def verdict_from_record(record: object) -> ExplanationVerdict | None:
    """A verdict as :func:`verdict_record` logged it (None if it is not one)."""
    if not isinstance(record, dict) or not isinstance(record.get("factors"), list):
        return None
    factors = []
    for entry in record["factors"]:
        if not isinstance(entry, dict):
            return None
        matched = entry.get("matched_prediction")
        factors.append(
            FactorVerdict(
                bool(entry.get("identified")),
                bool(entry.get("explanation_correct")),
                matched if isinstance(matched, int) and not isinstance(matched, bool) else None,
            )
        )
    return ExplanationVerdict(
        tuple(factors), bool(record.get("unsupported")), bool(record.get("states_none"))
    )


PROTOCOL = "structured-verdict"
"""The name SpatialTrust runs and judge cards give the q4/q5 judge's protocol."""


def prompt_hash() -> str:
    """SHA-256 (16 hex digits) of the q4/q5 judge prompt, built for a fixed placeholder item.

    Why a placeholder item: the prompt is assembled in code, not from one template string;
    building it for one fixed question and answer captures every word and the layout, so
    any change to the prompt changes the hash (and a judge card of the old prompt no longer
    matches).
    """
    factor = Factor(name="{name}", why="{why}", box=(0.0, 0.0, 1.0, 1.0))
    texts = []
    for qid, factors in (("q4", ()), ("q5", (factor,))):
        question = ExplanationQuestion(qid=qid, text="{question}", answer="{reference}",
                                       factors=factors)  # fmt: skip
        answer = ExplanationAnswer(text="{answer}", factors=())
        texts += [judge_prompt(question, answer), judge_prompt(question, answer, retry=True)]
    return hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()[:16]


def judge_identity(judge: JudgeChoice) -> ProtocolHash:
    """The protocol and prompt hash of the q4/q5 judge (the offline rules' for ``offline``)."""
    return judge.identity(lambda: (PROTOCOL, prompt_hash()))
