"""Benchmark: SpatialTrust scoring throughput on synthetic image records.

Builds N (default 10,000) synthetic captures with all five questions — q2/q3 with one to
three ground-truth options and one to three evidence boxes each, q4/q5 with up to three
factors — and predictions with several boxes per option, then times

* q1–q3 scoring (eqs. 1–4: exact match, option sets, max-IoU grounding) per image, and
* q4/q5 scoring (eqs. 5–6) from ready verdicts, IoU included,

and the parsing of the raw JSON answers. Prints items/s for each. Target:
≥ 5,000 images/s for q1–q3 scoring on the 2-core development machine.

    .venv/bin/python bench/spatial_scoring.py [--images 10000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS, Box
from privbench.suites.spatialtrust.dataset import (
    ChoiceQuestion,
    ExplanationQuestion,
    Factor,
    SpatialItem,
)
from privbench.suites.spatialtrust.reading import SpatialAnswer, parse_answer
from privbench.suites.spatialtrust.scorer import rule_scores
from privbench.suites.spatialtrust.scoring import (
    ExplanationVerdict,
    FactorVerdict,
    score_explanation,
)

W, H = 1440, 960
LETTERS = "ABCD"


def random_box(rng: random.Random) -> Box:
    x1, y1 = rng.uniform(0, W - 200), rng.uniform(0, H - 200)
    return (x1, y1, x1 + rng.uniform(40, 200), y1 + rng.uniform(40, 200))


def jitter(box: Box, rng: random.Random) -> list[float]:
    return [v + rng.uniform(-25, 25) for v in box]


def choice_question(qid: str, rng: random.Random) -> ChoiceQuestion:
    options = {letter: f"factor {letter}" for letter in LETTERS} | {"E": "None of the above"}
    answer = tuple(sorted(rng.sample(LETTERS, rng.randint(1, 3))))
    evidence = {o: tuple(random_box(rng) for _ in range(rng.randint(1, 3))) for o in answer}
    return ChoiceQuestion(qid, "multiple", "which?", options, answer, evidence)


def explanation_question(qid: str, rng: random.Random) -> ExplanationQuestion:
    factors = tuple(Factor(f"f{i}", "why", random_box(rng)) for i in range(rng.randint(0, 3)))
    return ExplanationQuestion(qid, "describe", "reference", factors)


def synthetic_item(index: int, rng: random.Random) -> SpatialItem:
    q1 = ChoiceQuestion("q1", "single", "any?", {"A": "Yes", "B": "No", "C": "Not clear"}, ("A",))
    return SpatialItem(
        f"st-{index}",
        Path("unused.png"),
        W,
        H,
        q1,
        choice_question("q2", rng),
        choice_question("q3", rng),
        explanation_question("q4", rng),
        explanation_question("q5", rng),
    )


def predicted_json(item: SpatialItem, rng: random.Random) -> str:
    record: dict[str, object] = {"q1": rng.choice("ABC")}
    for question in (item.q2, item.q3):
        chosen = [o for o in question.answer if rng.random() < 0.8] or ["E"]
        boxes = {
            o: [jitter(b, rng) for b in question.evidence.get(o, ())]
            + [jitter(random_box(rng), rng)]
            for o in chosen
        }
        record[question.qid] = {"choices": chosen, "boxes": boxes}
    for explanation in (item.q4, item.q5):
        factors = [
            {"name": f.name, "why": f.why, "box": jitter(f.box, rng)} for f in explanation.factors
        ]
        record[explanation.qid] = {"text": "...", "factors": factors}
    return "```json\n" + json.dumps(record) + "\n```"


def verdict_for(question: ExplanationQuestion, rng: random.Random) -> ExplanationVerdict:
    factors = tuple(
        FactorVerdict(rng.random() < 0.8, rng.random() < 0.8, i)
        for i in range(len(question.factors))
    )
    return ExplanationVerdict(factors, False, not question.factors)


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f} images/s ({1e6 * seconds / count:.1f} µs per image)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    items = [synthetic_item(i, rng) for i in range(args.images)]
    raw = [predicted_json(item, rng) for item in items]
    verdicts = [(verdict_for(item.q4, rng), verdict_for(item.q5, rng)) for item in items]
    xyxy = BOX_CONVENTIONS["xyxy"]

    start = time.perf_counter()
    answers: list[SpatialAnswer] = [
        parse_answer(text, item, xyxy) for text, item in zip(raw, items, strict=True)
    ]
    parsing = time.perf_counter() - start

    start = time.perf_counter()
    total = 0.0
    for item, answer in zip(items, answers, strict=True):
        scores = rule_scores(item, answer)
        total += scores["q1"] + scores["q2"] + scores["q3"]
    rules = time.perf_counter() - start

    start = time.perf_counter()
    for item, answer, (v4, v5) in zip(items, answers, verdicts, strict=True):
        for question, given, verdict in ((item.q4, answer.q4, v4), (item.q5, answer.q5, v5)):
            assert given is not None
            boxes = [f.box for f in given.factors]
            total += score_explanation(verdict, [f.box for f in question.factors], boxes)
    explanations = time.perf_counter() - start

    print(f"images                  {args.images:,} (seed {args.seed}), checksum {total:.3f}")
    print(f"parse raw answers       {rate(args.images, parsing)}")
    print(f"score q1–q3             {rate(args.images, rules)}  (target ≥ 5,000 images/s)")
    print(f"score q4–q5 (verdicts)  {rate(args.images, explanations)}")


if __name__ == "__main__":
    main()
