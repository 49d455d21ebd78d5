"""Check that a change to the offline judge's code changes no grade and no q4/q5 verdict.

Why: the rules are tuned against graded answers; restructuring their code (naming rules,
adding a trace, moving types) must leave every grade exactly as it was. This script
collects every (reference, answer, question) the repository holds and a few variants of
each, and every q4/q5 (question, answer) pair it can build, and writes their grades and
verdicts (``--save``) or compares them with a saved file (``--compare``: exact float
equality, exit status 1 on any difference).

Priv-IQ rows: every graded set (:data:`GRADED_FILES`) as graded, without its question, and
against the next row's reference; the shipped suite's references against the baseline's
answers (OCR, slow: ``--no-baseline`` skips them) and against a few variants (the
reference itself, its first element, its first sentence, its polarity flipped, bare
"Yes."/"No.", a refusal, an empty answer, the question restated, the next item's reference).

q4/q5 rows: the calibration files' rows, the answer-style fixtures (as read and as meant),
the intended answers of every shipped capture for three seeds, the baseline's answers,
the ground truth itself, the other question's ground truth, and the reference text alone.

    .venv/bin/python bench/offline_rules_check.py --save /tmp/judge_before.json
    .venv/bin/python bench/offline_rules_check.py --compare /tmp/judge_before.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

from privbench.judges.offline import grade
from privbench.judges.offline.measured_agreement import GRADED_FILES, read_graded
from privbench.models.ocr_pii import answer_priviq, answer_spatialtrust, read_text
from privbench.shipped import JUDGE_CALIBRATION, PRIVIQ_SUITE, SPATIALTRUST_SUITE
from privbench.suites.priviq.dataset import load_priviq
from privbench.suites.spatialtrust import judge as st_judge
from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS
from privbench.suites.spatialtrust.dataset import (
    ExplanationQuestion,
    Factor,
    SpatialItem,
    load_spatialtrust,
)
from privbench.suites.spatialtrust.reading import (
    ExplanationAnswer,
    PredictedFactor,
    parse_answer,
    parse_record,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CALIBRATION_SPATIAL = JUDGE_CALIBRATION / "spatialtrust"
SPATIAL_FILES = {
    "judge_calibration_spatial_dev.jsonl": DATA / "judge_calibration_spatial_dev.jsonl",
    "calibration spatialtrust/independent.jsonl": CALIBRATION_SPATIAL / "independent.jsonl",
    "calibration spatialtrust/fresh.jsonl": CALIBRATION_SPATIAL / "fresh.jsonl",
}
STYLE_FILES = ("replies.jsonl", "heldout.jsonl", "heldout2.jsonl", "heldout3.jsonl")
SEEDS = (0, 1, 2)

Row = dict[str, Any]


def _flipped(reference: str) -> str:
    """The reference with its leading Yes/No turned round."""
    if re.match(r"\s*yes\b", reference, re.I):
        return re.sub(r"^\s*yes\b", "No", reference, count=1, flags=re.I)
    if re.match(r"\s*no\b", reference, re.I):
        return re.sub(r"^\s*no\b", "Yes", reference, count=1, flags=re.I)
    return "No. " + reference


def _variants(reference: str, question: str, other: str) -> dict[str, str]:
    first_element = re.split(r"\s*<(?:AND|OR)>\s*", reference)[0]
    first_sentence = re.split(r"(?<=[.!?])\s+", reference.replace("<AND>", "and"))[0]
    return {
        "itself": reference,
        "first element": first_element,
        "first sentence": first_sentence,
        "flipped": _flipped(reference),
        "yes": "Yes.",
        "no": "No.",
        "refusal": "I cannot answer this question from the image.",
        "empty": "",
        "question restated": question,
        "next reference": other,
    }


def priviq_rows(baseline: bool) -> list[Row]:
    rows: list[Row] = []
    for part, path in GRADED_FILES.items():
        graded = read_graded(path)
        for i, row in enumerate(graded):
            reference, answer = str(row["reference"]), str(row["prediction"])
            question = str(row.get("question", ""))
            following = str(graded[(i + 1) % len(graded)]["reference"])
            rows.append({"source": f"{part} as graded", "id": row.get("id"),
                         "reference": reference, "answer": answer, "question": question})  # fmt: skip
            rows.append({"source": f"{part} without question", "id": row.get("id"),
                         "reference": reference, "answer": answer, "question": ""})  # fmt: skip
            rows.append({"source": f"{part} next reference", "id": row.get("id"),
                         "reference": following, "answer": answer, "question": question})  # fmt: skip
    items = load_priviq(PRIVIQ_SUITE)
    for i, item in enumerate(items):
        other = items[(i + 1) % len(items)].answer
        for variant, answer in _variants(item.answer, item.question, other).items():
            rows.append({"source": f"suite {variant}", "id": item.id,
                         "reference": item.answer, "answer": answer, "question": item.question})  # fmt: skip
        if baseline:
            with Image.open(item.image) as image:
                answer = answer_priviq(item.question, read_text(image))
            rows.append({"source": "suite baseline", "id": item.id,
                         "reference": item.answer, "answer": answer, "question": item.question})  # fmt: skip
    return rows


def _plain_question(question: ExplanationQuestion) -> Row:
    return {
        "qid": question.qid,
        "text": question.text,
        "reference": question.answer,
        "factors": [[f.name, f.why] for f in question.factors],
    }


def _plain_answer(answer: ExplanationAnswer) -> Row:
    return {"text": answer.text, "factors": [[f.name, f.why] for f in answer.factors]}


def _spatial_row(source: str, ident: str, question: ExplanationQuestion, answer: Any) -> Row:
    return {
        "source": source,
        "id": ident,
        "question": _plain_question(question),
        "answer": _plain_answer(answer),
    }


def spatial_rows() -> list[Row]:
    rows: list[Row] = []
    for name, path in SPATIAL_FILES.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line:
                continue
            row = json.loads(line)
            rows.append({
                "source": name,
                "id": row["id"],
                "question": {"qid": row["question"], "text": "", "reference": row["reference"],
                             "factors": [[f["name"], f["why"]] for f in row["factors"]]},
                "answer": {"text": row["answer_text"],
                           "factors": [[p["name"], p["why"]] for p in row["answer_factors"]]},
            })  # fmt: skip
    items = {item.id: item for item in load_spatialtrust(SPATIALTRUST_SUITE)}
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers.answer_styles import intended_answers

    def add(source: str, item: SpatialItem, read: Any) -> None:
        for qid in ("q4", "q5"):
            given = read.explanation(qid)
            if given is not None:
                rows.append(_spatial_row(source, item.id, item.explanation(qid), given))

    for name in STYLE_FILES:
        for line in (DATA / "answer_styles" / name).read_text(encoding="utf-8").splitlines():
            style = json.loads(line)
            item = items[style["item_id"]]
            read = parse_answer(style["reply"], item, BOX_CONVENTIONS[style["box_format"]])
            add(f"style {name} read", item, read)
            add(f"style {name} meant", item, parse_record(style["intended"], item))
    for seed in SEEDS:
        for ident, record in intended_answers(list(items.values()), seed).items():
            add(f"intended seed {seed}", items[ident], parse_record(record, items[ident]))
    baseline = json.loads(answer_spatialtrust("q2 (\n  E. None of the above\nq3 (\n"))
    for item in items.values():
        add("baseline", item, parse_record(baseline, item))
        for qid, other in (("q4", "q5"), ("q5", "q4")):
            question = item.explanation(qid)
            for source, factors in (("ground truth", question.factors),
                                    ("other question", item.explanation(other).factors)):  # fmt: skip
                listed = tuple(PredictedFactor(f.name, f.why, f.box) for f in factors)
                answer = ExplanationAnswer(question.answer, listed)
                rows.append(_spatial_row(source, item.id, question, answer))
            rows.append(
                _spatial_row(
                    "reference text", item.id, question, ExplanationAnswer(question.answer)
                )
            )
    return rows


def verdict_of(row: Row) -> Any:
    plain_q, plain_a = row["question"], row["answer"]
    question = ExplanationQuestion(
        plain_q["qid"],
        plain_q["text"],
        plain_q["reference"],
        tuple(Factor(name, why, (0, 0, 1, 1)) for name, why in plain_q["factors"]),
    )
    answer = ExplanationAnswer(
        plain_a["text"], tuple(PredictedFactor(name, why, None) for name, why in plain_a["factors"])
    )
    return st_judge.verdict_record(st_judge.offline_verdict(question, answer))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, help="write the grades and verdicts to this file")
    mode.add_argument("--compare", type=Path, help="regrade the rows of this file and compare")
    parser.add_argument("--no-baseline", action="store_true", help="skip the OCR baseline")
    args = parser.parse_args()
    if args.save:
        started = time.perf_counter()
        priviq, spatial = priviq_rows(not args.no_baseline), spatial_rows()
        for row in priviq:
            row["grade"] = grade(row["reference"], row["answer"], row["question"])
        for row in spatial:
            row["verdict"] = verdict_of(row)
        args.save.write_text(
            json.dumps({"priviq": priviq, "spatial": spatial}, ensure_ascii=False),
            encoding="utf-8",
        )
        print(f"saved {len(priviq)} Priv-IQ grades and {len(spatial)} q4/q5 verdicts "
              f"to {args.save} in {time.perf_counter() - started:.0f} s")  # fmt: skip
        return
    saved = json.loads(args.compare.read_text(encoding="utf-8"))
    differ = 0
    for row in saved["priviq"]:
        got = grade(row["reference"], row["answer"], row["question"])
        if got != row["grade"]:
            differ += 1
            print(f"grade differs ({row['source']}, {row['id']}): {row['grade']} → {got}")
    for row in saved["spatial"]:
        got = verdict_of(row)
        if got != row["verdict"]:
            differ += 1
            print(f"verdict differs ({row['source']}, {row['id']}): {row['verdict']} → {got}")
    sources = {row["source"].split(" ")[0] for row in saved["priviq"]}
    print(f"compared {len(saved['priviq'])} Priv-IQ grades ({len(sources)} sources) and "
          f"{len(saved['spatial'])} q4/q5 verdicts: {differ} differ")  # fmt: skip
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
