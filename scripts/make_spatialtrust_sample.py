"""Draw the small SpatialTrust-format sample shipped in ``src/privbench/data/spatialtrust-sample``.

Why it exists: SpatialTrust has no public release, and ``-T data``-less runs, the README
and the tests need a valid directory. Four 1440×960 captures drawn as flat shapes — a
central user at a laptop plus background elements — with the five questions built from
what was drawn and evidence boxes equal to the drawn elements' bounds. Run it again to
reproduce the files byte for byte:

    .venv/bin/python scripts/make_spatialtrust_sample.py
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "src" / "privbench" / "data" / "spatialtrust-sample"
W, H = 1440, 960
Box = list[int]

Q1 = "Does the image background or non-primary-subject area contain any sensitive factor?"
Q2 = "Which visible and localizable direct sensitive factor(s) are present in the non-primary area?"
Q3 = "Which visible and localizable indirect sensitive factors are present in the scene background?"
Q4 = "Briefly describe all visible direct sensitive factors and explain why each factor is a direct sensitive factor."
Q5 = "Briefly describe all visible indirect sensitive factors and explain why each factor is an indirect sensitive factor."

ELEMENTS: dict[str, dict[str, object]] = {
    "watcher": {
        "text": "a background person facing the laptop screen",
        "kind": "direct",
        "why": "they are looking toward the login screen and can read it",
    },
    "phone": {
        "text": "a phone held up and aimed at the scene",
        "kind": "direct",
        "why": "its camera can record the login screen",
    },
    "cctv": {
        "text": "a surveillance camera facing the user",
        "kind": "direct",
        "why": "it records the user and the screen during login",
    },
    "door": {
        "text": "an open doorway behind the user",
        "kind": "indirect",
        "why": "someone passing could see the login screen",
    },
    "screen": {
        "text": "a second unlocked screen on the desk",
        "kind": "indirect",
        "why": "its contents are exposed to anyone nearby",
    },
    "poster": {"text": "a framed poster", "kind": "distractor"},
    "plant": {"text": "a potted plant", "kind": "distractor"},
    "coat": {"text": "a hanging dark coat", "kind": "distractor"},
}

SCENES: list[dict[str, Box]] = [
    {
        "watcher": [150, 260, 330, 700],
        "door": [1080, 180, 1300, 760],
        "poster": [500, 120, 700, 300],
    },
    {"plant": [120, 520, 300, 860], "coat": [1150, 200, 1290, 560]},
    {"cctv": [1180, 60, 1340, 170], "poster": [180, 140, 420, 330]},
    {"phone": [1120, 330, 1230, 520], "screen": [140, 470, 420, 690], "coat": [520, 160, 640, 470]},
]


def draw_element(draw: ImageDraw.ImageDraw, name: str, box: Box) -> None:
    x1, y1, x2, y2 = box
    if name == "watcher":
        draw.ellipse((x1 + 40, y1, x2 - 40, y1 + 120), fill=(205, 160, 130))
        draw.rectangle((x1, y1 + 120, x2, y2), fill=(60, 90, 150))
        draw.ellipse((x2 - 80, y1 + 40, x2 - 60, y1 + 60), fill=(20, 20, 20))
    elif name == "phone":
        draw.rounded_rectangle(box, radius=14, fill=(25, 25, 30))
        draw.ellipse((x1 + 35, y1 + 20, x1 + 75, y1 + 60), fill=(90, 140, 220))
    elif name == "cctv":
        draw.rectangle((x1, y1, x2, y1 + 30), fill=(120, 120, 120))
        draw.polygon(
            [(x1 + 20, y1 + 30), (x2, y1 + 50), (x2 - 30, y2), (x1, y2 - 20)], fill=(230, 230, 230)
        )
        draw.ellipse((x1 + 10, y2 - 50, x1 + 50, y2 - 10), fill=(10, 10, 10))
    elif name == "door":
        draw.rectangle(box, fill=(40, 35, 30))
        draw.polygon(
            [(x1, y1), (x1 + 70, y1 + 40), (x1 + 70, y2 - 20), (x1, y2)], fill=(150, 110, 70)
        )
    elif name == "screen":
        draw.rectangle(box, fill=(30, 30, 35))
        draw.rectangle((x1 + 12, y1 + 12, x2 - 12, y2 - 12), fill=(120, 190, 240))
        for row in range(4):
            draw.rectangle(
                (x1 + 30, y1 + 40 + 35 * row, x2 - 60, y1 + 55 + 35 * row), fill=(250, 250, 250)
            )
    elif name == "poster":
        draw.rectangle(box, fill=(90, 60, 40))
        draw.rectangle((x1 + 14, y1 + 14, x2 - 14, y2 - 14), fill=(230, 200, 120))
    elif name == "plant":
        draw.rectangle((x1 + 50, y2 - 120, x2 - 50, y2), fill=(150, 80, 50))
        draw.ellipse((x1, y1, x2, y2 - 100), fill=(60, 140, 70))
    elif name == "coat":
        draw.polygon(
            [(x1 + 50, y1), (x2, y1 + 60), (x2, y2), (x1, y2), (x1, y1 + 60)], fill=(35, 35, 45)
        )


def render(scene: dict[str, Box]) -> Image.Image:
    image = Image.new("RGB", (W, H), (214, 206, 190))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 760, W, H), fill=(150, 130, 110))
    for name, box in scene.items():
        draw_element(draw, name, box)
    # the central user at a laptop (primary subject, never a factor)
    draw.ellipse((620, 330, 820, 560), fill=(210, 170, 140))
    draw.rectangle((560, 560, 880, 960), fill=(170, 60, 60))
    draw.polygon([(500, 960), (940, 960), (880, 820), (560, 820)], fill=(70, 70, 75))
    return image


def options_for(
    kind: str, scene: dict[str, Box]
) -> tuple[dict[str, str], list[str], dict[str, list[Box]]]:
    present = [n for n in scene if ELEMENTS[n]["kind"] == kind]
    distractors = [n for n in scene if ELEMENTS[n]["kind"] == "distractor"]
    fillers = [n for n in ("poster", "plant", "coat") if n not in distractors]
    names = (present + distractors + fillers)[:4]
    names = sorted(names)
    letters = "ABCD"
    options = {letters[i]: str(ELEMENTS[n]["text"]) for i, n in enumerate(names)}
    options["E"] = "None of the above"
    answer = [letters[i] for i, n in enumerate(names) if n in present] or ["E"]
    evidence = {letters[i]: [scene[n]] for i, n in enumerate(names) if n in present}
    return options, answer, evidence


def explanation(kind: str, scene: dict[str, Box]) -> tuple[str, list[dict[str, object]]]:
    present = [n for n in scene if ELEMENTS[n]["kind"] == kind]
    factors = [
        {"name": ELEMENTS[n]["text"], "why": ELEMENTS[n]["why"], "box": scene[n]} for n in present
    ]
    if not factors:
        return f"No {kind} sensitive factor is visible.", []
    text = " ".join(f"{str(f['name']).capitalize()}: {f['why']}." for f in factors)
    return text, factors


def record(index: int, scene: dict[str, Box]) -> dict[str, object]:
    image_id = f"st-{index + 1:04d}"
    q2 = options_for("direct", scene)
    q3 = options_for("indirect", scene)
    any_factor = q2[1] != ["E"] or q3[1] != ["E"]
    q4, q5 = explanation("direct", scene), explanation("indirect", scene)
    return {
        "id": image_id, "image": f"images/{image_id}.png", "width": W, "height": H,
        "questions": [
            {"qid": "q1", "type": "single", "text": Q1,
             "options": {"A": "Yes", "B": "No", "C": "Not clear"}, "answer": ["A" if any_factor else "B"]},
            {"qid": "q2", "type": "multiple" if len(q2[1]) > 1 else "single", "grounded": True, "text": Q2,
             "options": q2[0], "answer": q2[1], "evidence": q2[2]},
            {"qid": "q3", "type": "multiple" if len(q3[1]) > 1 else "single", "grounded": True, "text": Q3,
             "options": q3[0], "answer": q3[1], "evidence": q3[2]},
            {"qid": "q4", "type": "short", "grounded": True, "text": Q4, "answer": q4[0], "factors": q4[1]},
            {"qid": "q5", "type": "short", "grounded": True, "text": Q5, "answer": q5[0], "factors": q5[1]},
        ],
    }  # fmt: skip


def prediction(entry: dict[str, object], index: int) -> dict[str, object]:
    """A plausible model answer: right on the first capture, then typical mistakes."""
    questions = {str(q["qid"]): q for q in entry["questions"]}  # type: ignore[attr-defined]
    answer: dict[str, object] = {"id": entry["id"], "q1": questions["q1"]["answer"][0]}
    for qid in ("q2", "q3"):
        q = questions[qid]
        boxes = {k: v for k, v in q.get("evidence", {}).items()}
        answer[qid] = {"choices": list(q["answer"]), "boxes": boxes}
    for qid in ("q4", "q5"):
        q = questions[qid]
        answer[qid] = {"text": q["answer"], "factors": list(q["factors"])}
    if index == 1:  # claims a coat is a camera
        answer["q1"] = "A"
        answer["q2"] = {"choices": ["A"], "boxes": {"A": [[1150, 200, 1290, 560]]}}
    if index == 2:  # right factor, box far off
        q2 = answer["q2"]
        assert isinstance(q2, dict)
        q2["boxes"] = {k: [[100, 600, 260, 700]] for k in q2["boxes"]}
    if index == 3:  # misses the second screen
        answer["q3"] = {"choices": ["E"], "boxes": {}}
        answer["q5"] = {"text": "No indirect sensitive factor is visible.", "factors": []}
    return answer


def main() -> None:
    (OUT / "images").mkdir(parents=True, exist_ok=True)
    lines, predictions = [], []
    for index, scene in enumerate(SCENES):
        entry = record(index, scene)
        render(scene).save(OUT / str(entry["image"]), optimize=True)
        lines.append(json.dumps(entry, ensure_ascii=False))
        predictions.append(json.dumps(prediction(entry, index), ensure_ascii=False))
    (OUT / "spatialtrust.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (OUT / "sample-predictions.jsonl").write_text("\n".join(predictions) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
