"""The report's sample browsers: one card per item (Priv-IQ) or image (SpatialTrust).

Why this shape: a reviewer reads a few dozen cards, not 577 of them at once, and the file
has to stay small enough to mail. So every image is embedded once (a hidden SVG sprite of
``<image>`` definitions that the cards ``<use>``), scaled to the width it is shown at and
stored as WebP; cards are paginated by the page's script.

A SpatialTrust card shows one image (720 px wide) with the ground-truth boxes (solid) and
the selected run's predicted boxes (dashed) together, labels at 13 px on screen, per
question toggles; q4/q5 list which predicted factor the judge matched to each
ground-truth factor, with its IoU; a grounded answer without boxes is marked "no boxes".

Everything here returns plain dicts for the template (which escapes all text); numbers for
SVG geometry are computed here.
"""

from __future__ import annotations

import base64
import io
import json
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import pandas as pd
from PIL import Image

from privbench.formatting import natural_key
from privbench.runtime.cross_run import Corners

PRIVIQ_WIDTH = 640
"""CSS pixels a Priv-IQ image is shown (and stored) at."""
SPATIAL_WIDTH = 720
"""CSS pixels a SpatialTrust image is shown (and stored) at (≥ 640: boxes stay legible)."""
LABEL_PX = 13
"""On-screen height of box labels."""
STROKE_PX = 2.5
QUESTION_NAMES = {
    "q1": "detection",
    "q2": "direct factors",
    "q3": "indirect factors",
    "q4": "direct explanation",
    "q5": "indirect explanation",
}
GROUNDED = ("q2", "q3", "q4", "q5")

Overlay = dict[str, float | str]
"""One box drawn on a SpatialTrust image: SVG geometry (numbers) and its label, class and
question (texts); see :func:`_overlay`."""


class SpriteImage(TypedDict):
    """One embedded image: its data URI, its size as stored and as captured."""

    uri: str
    natural_width: int
    natural_height: int
    width: int
    height: int
    id: NotRequired[str]


@dataclass
class Sprite:
    """Distinct images of a browser, each embedded once, keyed by source path."""

    prefix: str
    width: int
    images: dict[str, SpriteImage | None] = field(default_factory=dict)
    """Every path asked for; None where the image could not be read."""

    def add(self, path: str) -> SpriteImage | None:
        """The sprite entry of ``path`` (id, data URI, natural size), or None if unreadable."""
        if path in self.images:
            return self.images[path]
        entry = _encode(path, self.width)
        if entry is not None:
            entry["id"] = f"{self.prefix}-{len(self.images)}"
        self.images[path] = entry
        return entry

    def entries(self) -> list[SpriteImage]:
        """Every readable image, in the order first used."""
        return [entry for entry in self.images.values() if entry]


class PrivIQAnswer(TypedDict):
    """One run's answer on a Priv-IQ card."""

    run: str
    answer: str
    no_answer: bool
    score: str
    judge_reply: str


class PrivIQCard(TypedDict):
    """One Priv-IQ item with every selected run's answer."""

    id: str
    dataset: str
    image: SpriteImage | None
    question: str
    reference: str
    competencies: str
    answers: list[PrivIQAnswer]


class FactorMatch(TypedDict):
    """One ground-truth factor of q4/q5: the predicted factor matched to it and its IoU."""

    gt: str
    name: str
    identified: object
    """The judge's flag as it recorded it (true, false or absent)."""
    explained: object
    match: str
    iou: str
    grounded: bool


class RunAnswer(TypedDict):
    """One run's answer to one question of a SpatialTrust card."""

    choices: str
    text: str
    score: str
    score_class: str
    parse_failure: bool
    boxes: list[Overlay]
    no_boxes: bool
    factors: list[FactorMatch]
    unmatched: list[str]
    invalid_boxes: list[str]
    """One plain line per box of this answer that was not scored (where, what, why)."""


class SpatialQuestion(TypedDict):
    """One question of a SpatialTrust card with its ground truth."""

    qid: str
    name: str
    text: str
    options: dict[str, str]
    answer: str
    factors: list[str]


class SpatialRunCard(TypedDict):
    """One run's answers on a SpatialTrust card."""

    run: str
    index: int
    answers: dict[str, RunAnswer]
    boxes: list[Overlay]
    no_boxes: list[str]


class SpatialCard(TypedDict):
    """One SpatialTrust image with the ground truth and every selected run's answers."""

    id: str
    dataset: str
    image: SpriteImage | None
    width: float
    height: float
    display_width: int
    display_height: int
    font: float
    stroke: float
    halo: float
    dash: str
    questions: list[SpatialQuestion]
    truth_boxes: list[Overlay]
    runs: list[SpatialRunCard]
    absent: list[int]


def _encode(path: str, width: int) -> SpriteImage | None:
    """The image scaled to ``width`` px (never up), as WebP (JPEG where Pillow lacks WebP).

    WebP is the smaller of the two for captures and documents alike (about a quarter of a
    JPEG at equal quality); a JPEG source is decoded at reduced size (``draft``) because
    decoding full-size captures would dominate the report's build time.
    """
    try:
        with Image.open(path) as opened:
            natural = opened.size
            opened.draft("RGB", (width, max(1, round(natural[1] * width / natural[0]))))
            image = opened.convert("RGB")
    except (OSError, ValueError, ZeroDivisionError):
        return None
    if image.width > width:
        size = (width, max(1, round(image.height * width / image.width)))
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    for fmt, mime, options in (
        ("WEBP", "image/webp", {"quality": 78, "method": 4}),
        ("JPEG", "image/jpeg", {"quality": 82, "optimize": True}),
    ):
        buffer = io.BytesIO()
        try:
            image.save(buffer, format=fmt, **options)
        except (OSError, KeyError, ValueError):  # a Pillow built without WebP
            continue
        uri = f"data:{mime};base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
        return {
            "uri": uri,
            "natural_width": natural[0],
            "natural_height": natural[1],
            "width": image.width,
            "height": image.height,
        }
    return None


def _score_text(value: float) -> str:
    return "unscored" if math.isnan(value) else f"{value:.2f}"


def priviq_cards(
    frame: pd.DataFrame, groups: Sequence[tuple[str, Sequence[str]]], limit: int, sprite: Sprite
) -> list[PrivIQCard]:
    """Cards of up to ``limit`` items, dataset by dataset, ids in natural order.

    ``groups``: (dataset title, run labels) per dataset; an item id names an item only
    within its dataset, so a card never mixes answers to two different items.
    """
    cards: list[PrivIQCard] = []
    means = frame.groupby(["run", "item"], sort=False)["score"].mean()
    first = frame.sort_values("epoch").groupby(["run", "item"], sort=False).first()
    for title, runs in groups:
        rows = frame[frame["run"].isin(list(runs))]
        for item in sorted(rows["item"].unique(), key=natural_key):
            if len(cards) >= limit:
                return cards
            answers: list[PrivIQAnswer] = []
            head: pd.Series[Any] | None = None
            for run in runs:
                if (run, item) not in first.index:
                    continue
                row = first.loc[(run, item)]
                head = row if head is None else head
                answers.append(
                    {
                        "run": str(run),
                        "answer": "" if row["no_answer"] else str(row["answer"]),
                        "no_answer": bool(row["no_answer"]),
                        "score": _score_text(float(means.loc[(run, item)])),
                        "judge_reply": str(row["judge_reply"]),
                    }
                )
            if head is None:
                continue
            image = sprite.add(str(head["image"])) if head["image"] else None
            cards.append(
                {
                    "id": str(item),
                    "dataset": title if len(groups) > 1 else "",
                    "image": image,
                    "question": str(head["question"]),
                    "reference": str(head["reference"]),
                    "competencies": str(head["combination"]),
                    "answers": answers,
                }
            )
    return cards


def _box(value: object) -> tuple[float, float, float, float] | None:
    if isinstance(value, list | tuple) and len(value) == 4:
        try:
            x1, y1, x2, y2 = (float(v) for v in value)
        except (TypeError, ValueError):
            return None
        if x1 < x2 and y1 < y2:
            return x1, y1, x2, y2
    return None


def _short(value: float) -> float | int:
    """A coordinate to one decimal, written without ".0" (the page carries thousands)."""
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


def _overlay(
    box: tuple[float, float, float, float], label: str, kind: str, qid: str, scale: float
) -> Overlay:
    """One box with its label placed inside the top-left (truth) or bottom-right (pred)."""
    font = LABEL_PX / scale
    pad = 3 / scale
    x1, y1, x2, y2 = box
    if kind == "truth":
        tx, ty, anchor = x1 + pad, y1 + font + pad, "start"
    else:
        tx, ty, anchor = x2 - pad, y2 - pad, "end"
    return {
        "x": _short(x1),
        "y": _short(y1),
        "w": _short(x2 - x1),
        "h": _short(y2 - y1),
        "tx": _short(tx),
        "ty": _short(ty),
        "anchor": anchor,
        "label": label,
        "kind": kind,
        "qid": qid,
    }


def stack_labels(boxes: list[Overlay], scale: float) -> list[Overlay]:
    """Move the labels of boxes drawn at one place apart, one line each, so none hides another.

    Ground-truth q2/q3 evidence and q4/q5 factors often share a box; both labels stay
    readable, and each box keeps its own question class for the toggles.
    """
    step = 1.2 * LABEL_PX / scale
    seen: dict[tuple[float | str, float | str, float | str], int] = {}
    for box in boxes:
        key = (box["tx"], box["ty"], box["anchor"])
        count = seen.get(key, 0)
        seen[key] = count + 1
        ty = box["ty"]
        if count and not isinstance(ty, str):
            direction = 1 if box["kind"] == "truth" else -1
            box["ty"] = _short(ty + direction * count * step)
    return boxes


def _object(value: object) -> Mapping[object, object]:
    """A record's JSON object field, or an empty one where it is absent or null."""
    return value if isinstance(value, dict) else {}


def _listed(value: object) -> list[object]:
    """A record's JSON list field, or an empty one where it is absent or null."""
    return value if isinstance(value, list) else []


def _truth_boxes(qid: str, truth: Mapping[str, object], scale: float) -> list[Overlay]:
    boxes = []
    for letter, entries in _object(truth.get("evidence")).items():
        for entry in _listed(entries):
            box = _box(entry)
            if box:
                boxes.append(_overlay(box, f"{qid} {letter}", "truth", qid, scale))
    for index, factor in enumerate(_listed(truth.get("factors"))):
        box = _box(_object(factor).get("box"))
        if box:
            boxes.append(_overlay(box, f"{qid} f{index + 1}", "truth", qid, scale))
    return boxes


def invalid_box_line(box: Mapping[Any, object]) -> str:
    """An invalid box as the card lists it: where it was, the value as the model wrote it,
    why it was not scored. Plain text: the template escapes it, once (a value that is text
    is shown as written, not as a JSON string with its quotes escaped)."""
    value = box.get("box")
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    where = str(box.get("option") or "").strip()
    return f"{where + ' ' if where else ''}{shown}: {box.get('reason', '')}"


def _choices(prediction: object) -> list[str]:
    if isinstance(prediction, str):
        return [prediction] if prediction else []
    if isinstance(prediction, dict):
        return [str(c) for c in prediction.get("choices") or []]
    return []


Overlap = Callable[[Corners, Corners], float]
"""The benchmark's overlap (IoU) of a ground-truth and a predicted box."""


def _factor_matches(
    truth: Mapping[str, object],
    prediction: Mapping[object, object],
    judge: Mapping[str, object],
    overlap_of: Overlap | None,
) -> tuple[list[FactorMatch], dict[int, int]]:
    """Per ground-truth factor: the matched predicted factor, its IoU (``overlap_of``; none
    shown without one), the judge's flags."""
    flags = _listed(_object(judge.get("verdict")).get("factors"))
    predicted = [_object(factor) for factor in _listed(prediction.get("factors"))]
    rows: list[FactorMatch] = []
    matched: dict[int, int] = {}
    for index, listed in enumerate(_listed(truth.get("factors"))):
        factor = _object(listed)
        flag = _object(flags[index]) if index < len(flags) else {}
        match = flag.get("matched_prediction")
        row: FactorMatch = {
            "gt": f"f{index + 1}",
            "name": str(factor.get("name", "")),
            "identified": flag.get("identified"),
            "explained": flag.get("explanation_correct"),
            "match": "",
            "iou": "",
            "grounded": False,
        }
        if isinstance(match, int) and 0 <= match < len(predicted):
            matched[match] = index
            row["match"] = f"p{match + 1} “{predicted[match].get('name', '')}”"
            gt_box, pred_box = _box(factor.get("box")), _box(predicted[match].get("box"))
            if not (gt_box and pred_box):
                row["iou"] = "no box"
            elif overlap_of is not None:
                overlap = overlap_of(gt_box, pred_box)
                row["iou"] = f"{overlap:.2f}"
                row["grounded"] = overlap > 0.5
        rows.append(row)
    return rows, matched


def _run_answer(
    qid: str,
    row: dict[Hashable, Any],
    truth: Mapping[str, object],
    scale: float,
    overlap_of: Overlap | None,
) -> RunAnswer:
    """``row``: one record of the SpatialTrust frame (pandas gives its values untyped)."""
    prediction = row["prediction"]
    record = _object(prediction)
    boxes: list[Overlay] = []
    no_boxes = False
    factors: list[FactorMatch] = []
    unmatched: list[str] = []
    if qid in ("q2", "q3"):
        for letter, entries in _object(record.get("boxes")).items():
            for entry in _listed(entries):
                box = _box(entry)
                if box:
                    boxes.append(_overlay(box, f"{qid} {letter}", "pred", qid, scale))
        options = _object(truth.get("options"))
        needs_box = [
            c
            for c in _choices(prediction)
            if not str(options.get(c, "")).lower().startswith("none")
        ]
        no_boxes = bool(needs_box) and not boxes
    elif qid in ("q4", "q5"):
        factors, matched = _factor_matches(truth, record, row["judge"] or {}, overlap_of)
        predicted = [_object(factor) for factor in _listed(record.get("factors"))]
        for index, factor in enumerate(predicted):
            box = _box(factor.get("box"))
            target = f"→f{matched[index] + 1}" if index in matched else ""
            if box:
                boxes.append(_overlay(box, f"{qid} p{index + 1}{target}", "pred", qid, scale))
            if index not in matched:
                unmatched.append(f"p{index + 1} “{factor.get('name', '')}”")
        no_boxes = bool(predicted) and not boxes
    score = float(row["score"])
    return {
        "choices": ", ".join(_choices(prediction)) or ("–" if qid in ("q1", "q2", "q3") else ""),
        "text": str(record.get("text", "")),
        "score": _score_text(score),
        "score_class": "" if math.isnan(score) else ("good" if score >= 0.999 else "weak"),
        "parse_failure": bool(row["parse_failure"]),
        "boxes": boxes,
        "no_boxes": no_boxes,
        "factors": factors,
        "unmatched": unmatched,
        "invalid_boxes": [invalid_box_line(_object(b)) for b in _listed(row.get("invalid_boxes"))],
    }


def spatial_cards(
    frame: pd.DataFrame,
    groups: Sequence[tuple[str, Sequence[str]]],
    run_index: dict[str, int],
    limit: int,
    sprite: Sprite,
    overlap_of: Overlap | None = None,
) -> list[SpatialCard]:
    """Cards of up to ``limit`` images, dataset by dataset, ids in natural order
    (``overlap_of``: the benchmark's IoU of a matched factor's boxes).

    Works on plain records grouped once (image → run → question): slicing the frame per
    card would cost more than the rest of the browser for 8 runs × 577 images.
    """
    cards: list[SpatialCard] = []
    for title, runs in groups:
        wanted = set(runs)
        by_image: dict[str, dict[str, dict[str, dict[Hashable, Any]]]] = {}
        for record in frame[frame["run"].isin(list(runs))].to_dict("records"):
            image_runs = by_image.setdefault(str(record["image_id"]), {})
            image_runs.setdefault(str(record["run"]), {})[str(record["qid"])] = record
        for image_id in sorted(by_image, key=natural_key):
            if len(cards) >= limit:
                return cards
            answers_by_run = by_image[image_id]
            head = next(iter(next(iter(answers_by_run.values())).values()))
            width = float(head["width"] or 0) or 1.0
            height = float(head["height"] or 0) or 1.0
            scale = SPATIAL_WIDTH / width
            image = sprite.add(str(head["image"])) if head["image"] else None
            truth_by_q: dict[str, Mapping[str, object]] = {}
            for run_records in answers_by_run.values():
                for qid, record in run_records.items():
                    truth_by_q.setdefault(qid, record["ground_truth"] or {})
            questions: list[SpatialQuestion] = []
            for qid in sorted(truth_by_q):
                truth = truth_by_q[qid]
                answer = truth.get("answer", "")
                questions.append(
                    {
                        "qid": qid,
                        "name": QUESTION_NAMES.get(qid, ""),
                        "text": str(truth.get("text", "")),
                        "options": {
                            str(k): str(v) for k, v in _object(truth.get("options")).items()
                        },
                        "answer": ", ".join(answer) if isinstance(answer, list) else str(answer),
                        "factors": [
                            f"f{i + 1} {_object(f).get('name', '')}"
                            for i, f in enumerate(_listed(truth.get("factors")))
                        ],
                    }
                )
            truth_boxes = stack_labels(
                [b for qid in GROUNDED for b in _truth_boxes(qid, truth_by_q.get(qid, {}), scale)],
                scale,
            )
            card_runs: list[SpatialRunCard] = []
            for run in runs:
                if run not in wanted or run not in answers_by_run:
                    continue
                answers = {
                    qid: _run_answer(qid, record, truth_by_q.get(qid, {}), scale, overlap_of)
                    for qid, record in sorted(answers_by_run[run].items())
                }
                missing_boxes = [q for q in GROUNDED if q in answers and answers[q]["no_boxes"]]
                card_runs.append(
                    {
                        "run": str(run),
                        "index": run_index[str(run)],
                        "answers": answers,
                        "boxes": stack_labels(
                            [b for q in GROUNDED if q in answers for b in answers[q]["boxes"]],
                            scale,
                        ),
                        "no_boxes": missing_boxes,
                    }
                )
            present = {r["index"] for r in card_runs}
            cards.append(
                {
                    "id": image_id,
                    "dataset": title if len(groups) > 1 else "",
                    "image": image,
                    "width": width,
                    "height": height,
                    "display_width": SPATIAL_WIDTH,
                    "display_height": round(height * scale),
                    "font": _short(LABEL_PX / scale),
                    "stroke": _short(STROKE_PX / scale),
                    "halo": _short(3.5 / scale),
                    "dash": f"{_short(9 / scale)} {_short(5 / scale)}",
                    "questions": questions,
                    "truth_boxes": truth_boxes,
                    "runs": card_runs,
                    "absent": [i for i in run_index.values() if i not in present],
                }
            )
    return cards
