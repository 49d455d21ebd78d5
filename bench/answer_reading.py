"""Benchmark: are answers read as the model meant them, whatever family wrote them?

Why: a SpatialTrust score is only about the model if reading its reply loses nothing.
For every style of ``tests/helpers/answer_styles.py`` (how Qwen2/2.5/3-VL, InternVL, Gemini,
DeepSeek-VL2, GLM, reasoning models and GPT-style chat write grounded answers), each of
the 100 shipped captures gets a deterministic intended answer, rendered in that style
with its boxes in the family's convention. Measured per style:

* read as intended: the share of replies whose all five questions read back as meant
  (the comparison of ``tests/suites/spatialtrust/test_answer_styles.py``: no failure, same options, boxes
  within 1.5 px, same factor count and names where the style keeps them);
* invalid boxes: the share of intended boxes the parser listed as invalid;
* the score gap: the real pipeline (``eval_spatialtrust``, strategy ``direct``, the
  style's ``--box-format``, the offline judge) answered by the loopback server with the
  rendered replies ("as written"), against ``grade_spatialtrust`` of the intended
  records as a ``preds.jsonl`` in pixels ("as meant").

Targets: ≥ 99 % read as intended, |gap| ≤ 1 point, ≤ 2 % invalid boxes. Also printed:
``parse_answer`` throughput per style (answers/s) and over all rendered replies.

    .venv/bin/python bench/answer_reading.py [--styles a,b] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.answer_styles import STYLES, Style, differences, intended_answers, meant  # noqa: E402
from helpers.loopback_server import LoopbackServer, message_text  # noqa: E402

from privbench.judges.choice import parse_judge  # noqa: E402
from privbench.runtime.running import RunOptions  # noqa: E402
from privbench.suites.spatialtrust.api import eval_spatialtrust, grade_spatialtrust  # noqa: E402
from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS  # noqa: E402
from privbench.suites.spatialtrust.dataset import SpatialItem, load_spatialtrust  # noqa: E402
from privbench.suites.spatialtrust.prompts import questions_block  # noqa: E402
from privbench.suites.spatialtrust.reading import parse_answer  # noqa: E402
from privbench.suites.spatialtrust.task import default_data_dir  # noqa: E402

MODEL = "openai-api/loopmodel/vlm"
READ_TARGET = 99.0
GAP_TARGET = 1.0
INVALID_TARGET = 2.0


def _box_count(record: dict[str, Any]) -> int:
    choice = sum(len(v) for qid in ("q2", "q3") for v in record[qid]["boxes"].values())
    return choice + sum(len(record[qid]["factors"]) for qid in ("q4", "q5"))


def reading(
    style: Style, items: list[SpatialItem], intended: dict[str, dict[str, Any]]
) -> tuple[float, float, list[str]]:
    """(% read as intended, % of intended boxes invalid, the first misreadings)."""
    exact, invalid = 0, 0
    examples: list[str] = []
    convention = BOX_CONVENTIONS[style.box_format]
    for item in items:
        record = intended[item.id]
        got = parse_answer(style.render(record, item), item, convention)
        diffs = differences(got, meant(record, item), style.keeps_names)
        exact += not diffs
        invalid += len(got.invalid_boxes)
        if diffs and len(examples) < 2:
            examples.append(f"{item.id}: {diffs[0][:150]}")
    boxes = sum(_box_count(intended[item.id]) for item in items)
    return 100 * exact / len(items), 100 * invalid / max(boxes, 1), examples


def as_written(
    style: Style, items: list[SpatialItem], intended: dict[str, dict[str, Any]], work: Path
) -> float | None:
    """The overall score of the real eval pipeline answered with the rendered replies."""
    by_block = {questions_block(item): item for item in items}

    def reply(body: dict[str, Any]) -> str:
        text = message_text(body)
        for block, item in by_block.items():
            if block in text:
                return style.render(intended[item.id], item)
        return "1"  # the reachability check

    with LoopbackServer(default_reply=reply) as server:
        os.environ["LOOPMODEL_BASE_URL"] = server.base_url
        os.environ["LOOPMODEL_API_KEY"] = "bench"
        options = RunOptions(
            judge=parse_judge("offline"), log_dir=str(work / style.name), display="none"
        )
        run = eval_spatialtrust(
            None, MODEL, strategy="direct", box_format=style.box_format, options=options
        )
    return run.scores.overall


def as_meant(items: list[SpatialItem], intended: dict[str, dict[str, Any]], work: Path) -> float:
    preds = work / "preds.jsonl"
    lines = [json.dumps({"id": item.id, **intended[item.id]}) for item in items]
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    options = RunOptions(
        judge=parse_judge("offline"), log_dir=str(work / "as-meant"), display="none"
    )
    run = grade_spatialtrust(None, preds, box_format="xyxy", options=options)
    assert run.scores.overall is not None
    return run.scores.overall


def parse_rate(styles: list[Style], items: list[SpatialItem],
               intended: dict[str, dict[str, Any]], repeats: int) -> tuple[int, float]:  # fmt: skip
    """(replies, best answers/s of ``parse_answer`` over ``repeats`` passes)."""
    cases = [
        (style.render(intended[item.id], item), item, BOX_CONVENTIONS[style.box_format])
        for style in styles
        for item in items
    ]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for text, item, convention in cases:
            parse_answer(text, item, convention)
        best = min(best, time.perf_counter() - start)
    return len(cases), len(cases) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--styles", default=",".join(STYLES), help="comma-separated styles")
    parser.add_argument("--repeats", type=int, default=5, help="passes for the parse speed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    styles = [STYLES[name] for name in args.styles.split(",")]
    items = load_spatialtrust(default_data_dir())
    intended = intended_answers(items, args.seed)
    with tempfile.TemporaryDirectory(prefix="answer-reading-") as tmp:
        work = Path(tmp)
        start = time.perf_counter()
        meant_score = as_meant(items, intended, work)
        print(f"as meant (grade_spatialtrust of the intended records, pixels): {meant_score:.2f}")
        header = (f"{'style':<22} {'box_format':<10} {'read %':>7} {'invalid %':>9} "
                  f"{'written':>8} {'meant':>7} {'gap':>7} {'parse/s':>8}  targets")  # fmt: skip
        print(header)
        print("-" * len(header))
        notes: list[str] = []
        passed = 0
        for style in styles:
            read, invalid, examples = reading(style, items, intended)
            written = as_written(style, items, intended, work)
            _, style_rate = parse_rate([style], items, intended, args.repeats)
            gap = None if written is None else written - meant_score
            ok = (read >= READ_TARGET, gap is not None and abs(gap) <= GAP_TARGET,
                  invalid <= INVALID_TARGET)  # fmt: skip
            passed += all(ok)
            verdict = " ".join(
                f"{n}:{'ok' if v else 'FAIL'}"
                for n, v in zip(("read", "gap", "invalid"), ok, strict=True)
            )
            shown = "—" if written is None else f"{written:.2f}"
            gap_text = "—" if gap is None else f"{gap:+.2f}"
            print(f"{style.name:<22} {style.box_format:<10} {read:>7.1f} {invalid:>9.2f} "
                  f"{shown:>8} {meant_score:>7.2f} {gap_text:>7} {style_rate:>8,.0f}  {verdict}", flush=True)  # fmt: skip
            notes += [f"  {style.name}: {e}" for e in examples]
        elapsed = time.perf_counter() - start
    print(f"\n{passed}/{len(styles)} styles meet all targets (≥ {READ_TARGET:g} % read, "
          f"|gap| ≤ {GAP_TARGET:g} point, ≤ {INVALID_TARGET:g} % invalid); {elapsed:.0f} s")  # fmt: skip
    if notes:
        print("first misreadings:")
        print("\n".join(notes))
    count, rate = parse_rate(styles, items, intended, args.repeats)
    print(f"\nparse_answer: {count} replies, {rate:,.0f} answers/s (best of {args.repeats})")


if __name__ == "__main__":
    main()
