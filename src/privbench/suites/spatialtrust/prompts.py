"""Every prompt SpatialTrust sends to the model under test (paper §3–§4).

The system prompt is the paper's (Fig. 1): visible evidence only, the direct / indirect
definitions, and the primary subject is not a factor. The user turn carries the image,
its size, the five questions with their options and the answer format: one JSON object
in the predictions format (docs/spatialtrust.md), boxes in the convention the run's ``box_format`` names.
SpatialTrustGuard's stage prompts (selection, verification, grounded answer) are here
too, so the wording of every stage lives in one place.
"""

from __future__ import annotations

import json

from privbench.suites.spatialtrust.boxes import BoxConvention
from privbench.suites.spatialtrust.dataset import QUESTION_IDS, ChoiceQuestion, SpatialItem
from privbench.suites.spatialtrust.reading import SpatialAnswer

SYSTEM_PROMPT = """You are an expert visual question-answering evaluator for privacy-sensitive visual benchmarks.

Answer questions using only visible evidence in the image. Do not infer hidden context, identity, intent, profession, ethnicity, age, or other unsupported attributes.

The task focuses on sensitive factors in the background or non-primary-subject area. The scenario is a user verification setting where a laptop camera captures an image of the user and surrounding scene. Identify visible background or non-primary-subject factors that could cause information leakage from the computer the user is logging into during this verification capture.

Definitions:
- Direct sensitive factor: a visible factor that directly causes sensitive information to be disclosed in the current image.
- Indirect sensitive factor: a visible factor that does not directly disclose sensitive information but creates a possibility or risk of sensitive information being disclosed.
Do not count the primary/central subject as a sensitive factor merely because their face or body is visible."""

_KIND = {"single": "single choice", "multiple": "one or more choices"}


def _choice_block(question: ChoiceQuestion) -> str:
    grounded = ", grounded" if question.qid != "q1" else ""
    lines = [
        f"{question.qid} ({_KIND.get(question.type, question.type)}{grounded}): {question.text}"
    ]
    lines += [f"  {letter}. {text}" for letter, text in question.options.items()]
    return "\n".join(lines)


def questions_block(
    item: SpatialItem, qids: tuple[str, ...] = ("q1", "q2", "q3", "q4", "q5")
) -> str:
    """The questions (and options) named by ``qids``, in order."""
    blocks = []
    for qid in qids:
        if qid in ("q1", "q2", "q3"):
            blocks.append(_choice_block(item.choice(qid)))
        else:
            question = item.explanation(qid)
            blocks.append(f"{qid} (short answer, grounded): {question.text}")
    return "\n\n".join(blocks)


def image_line(item: SpatialItem) -> str:
    return f"The image is {item.width}×{item.height} pixels."


def answer_format(item: SpatialItem, convention: BoxConvention) -> str:
    """The JSON answer shape (the predictions format) and the box convention the model must use."""
    example = {
        "q1": "A",
        "q2": {"choices": ["B"], "boxes": {"B": [["x1", "y1", "x2", "y2"]]}},
        "q3": {"choices": ["E"], "boxes": {}},
        "q4": {
            "text": "...",
            "factors": [{"name": "...", "why": "...", "box": ["x1", "y1", "x2", "y2"]}],
        },
        "q5": {"text": "...", "factors": []},
    }
    boxes = convention.describe(item.width, item.height)
    return (
        "Answer with one JSON object and nothing else, in this shape:\n"
        f"{json.dumps(example)}\n"
        "q1: one option letter. q2 and q3: the letters of every option that applies and, "
        "for each chosen factor, its evidence box(es). q4 and q5: a short answer naming each "
        "visible factor and why it is direct (q4) or indirect (q5), with one box per factor; "
        "if there is none, say so in the text and give no factors.\n"
        f"Boxes are {boxes}."
    )


def direct_prompt(item: SpatialItem, convention: BoxConvention) -> str:
    """One pass: all five questions at once."""
    return f"{image_line(item)}\n\n{questions_block(item)}\n\n{answer_format(item, convention)}"


SELECTION_FORMAT = (
    'Answer with one JSON object and nothing else: {"q1": "A", "q2": ["B"], "q3": ["E"]} — '
    "one letter for q1, the letters of every option that applies for q2 and q3. Do not "
    "explain and do not give boxes yet."
)


def selection_prompt(item: SpatialItem) -> str:
    """Stage 1 of staged/guard: choose the q1–q3 options only."""
    return (
        f"{image_line(item)}\n\n{questions_block(item, ('q1', 'q2', 'q3'))}\n\n{SELECTION_FORMAT}"
    )


def verification_prompt(item: SpatialItem, qid: str, letter: str) -> str:
    """Stage 2 of guard: re-examine one selected factor; the reply may only keep or delete."""
    question = item.choice(qid)
    kind = "direct" if qid == "q2" else "indirect"
    return (
        f"{image_line(item)}\n\nAn earlier answer to this question selected option {letter}:\n"
        f"{question.qid}: {question.text}\n  {letter}. {question.options[letter]}\n\n"
        f"Look at the image again. Keep option {letter} only if the complete described "
        f"condition is clearly visible in the background or non-primary-subject area and is a "
        f"{kind} sensitive factor, without inference beyond the visible evidence. Otherwise "
        "delete it. Reply with exactly one word: KEEP or DELETE."
    )


def locked_choices_text(item: SpatialItem, locked: dict[str, tuple[str, ...]]) -> str:
    """The locked choices, one line per locked question (a question whose selection did not
    parse is not locked and is answered freely)."""
    lines = []
    for qid in ("q1", "q2", "q3"):
        if qid not in locked:
            continue
        question = item.choice(qid)
        chosen = ", ".join(f"{letter}. {question.options[letter]}" for letter in locked[qid])
        lines.append(f"{qid}: {chosen or '(none)'}")
    return "\n".join(lines)


def grounded_prompt(
    item: SpatialItem, locked: dict[str, tuple[str, ...]], convention: BoxConvention
) -> str:
    """Stage 3 of staged/guard: answer all five with the q1–q3 choices locked."""
    return (
        f"{image_line(item)}\n\n{questions_block(item)}\n\n"
        "These choices are fixed and must be kept exactly:\n"
        f"{locked_choices_text(item, locked) or '(none: answer q1–q3 yourself)'}\n\n"
        "Give evidence boxes only for the chosen q2 and q3 factors. The q4 answer must "
        "describe only the chosen q2 (direct) factors and the q5 answer only the chosen q3 "
        "(indirect) factors; where no factor is chosen, state that no such factor is visible "
        "and give no box.\n\n"
        f"{answer_format(item, convention)}"
    )


def reask_prompt(answer: SpatialAnswer, item: SpatialItem, convention: BoxConvention) -> str:
    """The follow-up turn when an answer could not be read in full (``--reask-unparsed``):
    which questions and why, then the expected format again."""
    unread = "; ".join(
        f"{qid}: {answer.failures[qid]}" for qid in QUESTION_IDS if qid in answer.failures
    )
    return (
        f"Your answer could not be read for {unread}. Answer all five questions again.\n\n"
        f"{answer_format(item, convention)}"
    )
