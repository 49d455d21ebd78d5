"""Roboflow ``supervision``'s VLM parsers against privbench's reader, on the answer corpus.

Why: where a kept library reads model output, privbench should use it rather than its own
code. ``supervision`` (``sv.Detections.from_vlm``) parses the grounding output of
Qwen2.5-VL, Qwen3-VL, Gemini, DeepSeek-VL2 and others. This bench renders the intended
answer of each of the 100 shipped captures in the styles of those families
(``tests/helpers/answer_styles.py``) and counts the intended boxes each reader recovers:

* privbench: ``parse_answer`` on the whole reply (valid boxes, any question);
* supervision, whole reply: ``from_vlm`` on the reply as the model wrote it;
* supervision, best case: ``from_vlm`` on each question's grounding value alone, cut out
  of the reply and re-serialised as the detection list its parser expects.

``supervision`` is not a dependency of privbench; install it to run this bench
(``.venv/bin/pip install supervision``). Run: ``.venv/bin/python bench/supervision_reading.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers.answer_styles import STYLES, intended_answers  # noqa: E402

from privbench.suites.spatialtrust.answer_text import final_answer_record  # noqa: E402
from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS, qwen25_input_size  # noqa: E402
from privbench.suites.spatialtrust.dataset import SpatialItem, load_spatialtrust  # noqa: E402
from privbench.suites.spatialtrust.reading import parse_answer  # noqa: E402
from privbench.suites.spatialtrust.task import default_data_dir  # noqa: E402

FAMILIES = {"qwen25_vl": "qwen_2_5_vl", "qwen3_vl": "qwen_3_vl", "gemini": "gemini_2_5"}
"""Corpus style → supervision's VLM of that family (DeepSeek-VL2's parser needs the
``<|ref|>``/``<|det|>`` pairs of a whole reply and raises on anything else)."""


def intended_boxes(record: dict[str, Any]) -> int:
    count = 0
    for qid in ("q2", "q3"):
        count += sum(len(v) for v in (record[qid].get("boxes") or {}).values())
    for qid in ("q4", "q5"):
        count += sum(1 for f in record[qid].get("factors", []) if f.get("box") is not None)
    return count


def privbench_boxes(reply: str, item: SpatialItem, box_format: str) -> int:
    answer = parse_answer(reply, item, BOX_CONVENTIONS[box_format])
    count = 0
    for choice in (answer.q2, answer.q3):
        count += sum(len(v) for v in (choice.boxes if choice else {}).values())
    for explanation in (answer.q4, answer.q5):
        count += sum(1 for f in (explanation.factors if explanation else ()) if f.box is not None)
    return count


def supervision_boxes(sv: Any, vlm: str, text: str, item: SpatialItem) -> int:
    kwargs: dict[str, Any] = {"resolution_wh": (item.width, item.height)}
    if vlm == "qwen_2_5_vl":
        kwargs["input_wh"] = qwen25_input_size(item.width, item.height)
    try:
        return len(sv.Detections.from_vlm(vlm=vlm, result=text, **kwargs))
    except Exception:
        return 0


def grounding_values(reply: str) -> list[str]:
    """Each question's grounding, as the JSON detection list supervision expects."""
    record, _ = final_answer_record(reply)
    values: list[str] = []
    for qid in ("q2", "q3", "q4", "q5"):
        value = record.get(qid)
        if isinstance(value, dict):
            value = next((value[k] for k in ("factors", "boxes") if k in value), value)
        if isinstance(value, list):
            values.append("```json\n" + json.dumps(value) + "\n```")
    return values


def main() -> None:
    try:
        import supervision as sv
    except ImportError:
        print("supervision is not installed: .venv/bin/pip install supervision")
        return
    items = load_spatialtrust(default_data_dir())
    intended = intended_answers(items)
    print(f"supervision {sv.__version__}; {len(items)} captures per style")
    print(f"{'style':<12} {'intended':>9} {'privbench':>10} {'sv whole':>9} {'sv best case':>13}")
    for name, vlm in FAMILIES.items():
        style = STYLES[name]
        totals = [0, 0, 0, 0]
        for item in items:
            reply = style.render(intended[item.id], item)
            totals[0] += intended_boxes(intended[item.id])
            totals[1] += privbench_boxes(reply, item, style.box_format)
            totals[2] += supervision_boxes(sv, vlm, reply, item)
            totals[3] += sum(supervision_boxes(sv, vlm, v, item) for v in grounding_values(reply))
        share = [f"{100 * t / totals[0]:.1f} %" for t in totals[1:]]
        print(f"{name:<12} {totals[0]:>9} {share[0]:>10} {share[1]:>9} {share[2]:>13}")


if __name__ == "__main__":
    main()
