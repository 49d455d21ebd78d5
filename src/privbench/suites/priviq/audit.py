"""What a Priv-IQ directory looks like and what it gives away without reasoning.

Why: a per-competency score is only as good as the items behind it. This audit shows
how the items spread over the competencies and their combinations (against the paper's
Table 1), how often the same question or the same question *and* answer repeat (a suite
of few distinct questions measures few things, however many items it has), how long the
reference answers are, and — with OCR — how much of each reference answer is simply
printed in the image, where reading replaces understanding.

The OCR share of an item: the reference answer's content words (casefolded word tokens,
minus stop words, the ``<AND>``/``<OR>`` connectives and any word already in the
question) that also occur among the words the bundled PP-OCR reads in the image, as a
share of those content words. Items whose answer has no such word are left out.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal, NotRequired, TypedDict, TypeGuard

from privbench.distribution import describe, percent
from privbench.suites.priviq.allocation import TABLE_1
from privbench.suites.priviq.competencies import COMPETENCIES, combination_label
from privbench.suites.priviq.dataset import (
    PrivIQItem,
    combination_counts,
    competency_counts,
    load_priviq,
)

OCR_MAJORITY = 50.0
"""An item whose answer words are more than this share (%) printed in the image is listed."""
DUPLICATE_GROUPS_SHOWN = 10

_STOP_TEXT = """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just let me more most my myself no nor not now of off on
    once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with
    would yes you your yours yourself yourselves
    image picture shows show reveals reveal contains contain violates violate
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
"""English function words, the yes/no polarity and the framing verbs of reference answers
("the image shows …", "it violates …"): words that carry no answer content."""

_CONNECTIVE = re.compile(r"<\s*(AND|OR)\s*>", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")


class CountAndPaper(TypedDict):
    """Items of one competency or combination here and in the paper's Table 1."""

    n: int
    paper: int


class Table1Comparison(TypedDict):
    competencies: dict[str, CountAndPaper]
    combinations: dict[str, CountAndPaper]
    matches_table1: bool


class DuplicateGroup(TypedDict):
    """Items sharing one text; the first item's question (and answer) shows it."""

    n: int
    ids: list[str]
    question: NotRequired[str]
    answer: NotRequired[str]


class Duplicates(TypedDict):
    distinct: int
    duplicates: int
    groups: int
    largest: list[DuplicateGroup]


class DuplicateFigures(TypedDict):
    questions: Duplicates
    question_answer_pairs: Duplicates


class AnswerLengths(TypedDict):
    words: dict[str, float | int | None]
    characters: dict[str, float | int | None]
    words_by_competency: dict[str, float | None]


class CompetencyOcr(TypedDict):
    n: int
    mean_percent: float | None
    above_half_percent: float | None


class OcrFigures(TypedDict):
    items: int
    mean_percent: float | None
    above_half: int
    above_half_percent: float | None
    above_half_items: list[str]
    by_competency: dict[str, CompetencyOcr]
    item_percent: dict[str, float | None]


class PrivIQItemsAudit(TypedDict):
    """The audit of a list of Priv-IQ items."""

    benchmark: Literal["priviq"]
    items: int
    table1: Table1Comparison
    duplicates: DuplicateFigures
    answer_lengths: AnswerLengths
    ocr: OcrFigures | None


class PrivIQAudit(PrivIQItemsAudit):
    """The ``privbench audit --json`` document of a Priv-IQ directory."""

    directory: str


def is_priviq_audit(document: Mapping[str, object]) -> TypeGuard[PrivIQAudit]:
    """Whether an audit document is a Priv-IQ one (as :func:`audit_priviq` writes it)."""
    return document.get("benchmark") == "priviq"


def normalized(text: str) -> str:
    """A question or answer compared with others: case and spacing ignored."""
    return " ".join(text.casefold().split())


def words(text: str) -> set[str]:
    """Casefolded word tokens (letters or digits in any script) of a text."""
    return set(_WORD.findall(_CONNECTIVE.sub(" ", text).casefold()))


def content_words(answer: str, question: str) -> set[str]:
    """The answer's words a reader could not take from the question or from grammar."""
    kept = {w for w in words(answer) if len(w) > 1 or w.isdigit()}
    return kept - STOP_WORDS - words(question)


def printed_share(answer: str, question: str, image_words: set[str]) -> float | None:
    """Share (%) of the answer's content words that the image prints; None if it has none."""
    wanted = content_words(answer, question)
    return percent(len(wanted & image_words), len(wanted)) if wanted else None


def table1_comparison(items: Sequence[PrivIQItem]) -> Table1Comparison:
    """Items per competency and per combination next to the paper's Table 1 counts."""
    paper_competencies = Counter(
        code for combo, n in TABLE_1.items() for code in combo for _ in range(n)
    )
    counts = competency_counts(list(items))
    combos = combination_counts(list(items))
    combinations: dict[str, CountAndPaper] = {
        combination_label(combo): {"n": combos.get(combo, 0), "paper": TABLE_1.get(combo, 0)}
        for combo in [*TABLE_1, *sorted(set(combos) - set(TABLE_1))]
    }
    return {
        "competencies": {
            code: {"n": counts[code], "paper": paper_competencies[code]} for code in COMPETENCIES
        },
        "combinations": combinations,
        "matches_table1": all(c["n"] == c["paper"] for c in combinations.values()),
    }


def _duplicates(
    items: Sequence[PrivIQItem], key: Callable[[PrivIQItem], tuple[str, ...]]
) -> Duplicates:
    """Items that repeat an earlier item under ``key``, and the largest groups."""
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item.id)
    repeated = sorted((g for g in groups.values() if len(g) > 1), key=lambda g: -len(g))
    return {
        "distinct": len(groups),
        "duplicates": len(items) - len(groups),
        "groups": len(repeated),
        "largest": [{"n": len(g), "ids": g} for g in repeated[:DUPLICATE_GROUPS_SHOWN]],
    }


def duplicate_figures(items: Sequence[PrivIQItem]) -> DuplicateFigures:
    """Duplicate questions and duplicate (question, answer) pairs (case and spacing ignored).

    ``duplicates`` counts the items beyond the first of their group; ``distinct`` the
    different texts. The largest groups list item ids; the first id shows the text.
    """
    by_id = {item.id: item for item in items}
    questions = _duplicates(items, lambda i: (normalized(i.question),))
    for group in questions["largest"]:
        group["question"] = by_id[group["ids"][0]].question
    pairs = _duplicates(items, lambda i: (normalized(i.question), normalized(i.answer)))
    for group in pairs["largest"]:
        first = by_id[group["ids"][0]]
        group["question"], group["answer"] = first.question, first.answer
    return {"questions": questions, "question_answer_pairs": pairs}


def answer_lengths(items: Sequence[PrivIQItem]) -> AnswerLengths:
    """Reference answer length in words (whitespace-separated) and characters, overall and
    the mean number of words per competency."""
    lengths = {item.id: len(_CONNECTIVE.sub(" ", item.answer).split()) for item in items}
    return {
        "words": describe(list(lengths.values())),
        "characters": describe([len(item.answer) for item in items]),
        "words_by_competency": {
            code: _mean([lengths[i.id] for i in items if code in i.competencies])
            for code in COMPETENCIES
        },
    }


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def ocr_figures(items: Sequence[PrivIQItem], shares: dict[str, float | None]) -> OcrFigures:
    """Mean printed share per competency and overall, and the items above the majority line."""
    scored = {i: s for i, s in shares.items() if s is not None}
    by_competency: dict[str, CompetencyOcr] = {}
    for code in COMPETENCIES:
        values = [scored[i.id] for i in items if code in i.competencies and i.id in scored]
        by_competency[code] = {
            "n": len(values),
            "mean_percent": statistics.fmean(values) if values else None,
            "above_half_percent": percent(sum(v > OCR_MAJORITY for v in values), len(values)),
        }
    above = sorted((i for i, s in scored.items() if s > OCR_MAJORITY), key=lambda i: -scored[i])
    return {
        "items": len(scored),
        "mean_percent": statistics.fmean(scored.values()) if scored else None,
        "above_half": len(above),
        "above_half_percent": percent(len(above), len(scored)),
        "above_half_items": above,
        "by_competency": by_competency,
        "item_percent": shares,
    }


def image_words(path: Path) -> set[str]:
    """Words the bundled PP-OCR (the ``privbench/ocr-pii`` model's engine) reads in an image."""
    from PIL import Image

    from privbench.models.ocr_pii import read_text

    with Image.open(path) as image:
        return words(" ".join(read_text(image)))


def printed_shares(
    items: Iterable[PrivIQItem], reader: Callable[[Path], set[str]] = image_words
) -> dict[str, float | None]:
    """Each item's printed share of its answer's content words (``reader`` reads images)."""
    cache: dict[Path, set[str]] = {}
    shares: dict[str, float | None] = {}
    for item in items:
        if item.image not in cache:
            cache[item.image] = reader(item.image)
        shares[item.id] = printed_share(item.answer, item.question, cache[item.image])
    return shares


def audit_items(
    items: Sequence[PrivIQItem],
    *,
    ocr: bool = False,
    reader: Callable[[Path], set[str]] = image_words,
) -> PrivIQItemsAudit:
    """The ``privbench audit --json`` document of a list of Priv-IQ items.

    ``reader`` gives the words printed in an image (the bundled PP-OCR unless replaced).
    """
    return {
        "benchmark": "priviq",
        "items": len(items),
        "table1": table1_comparison(items),
        "duplicates": duplicate_figures(items),
        "answer_lengths": answer_lengths(items),
        "ocr": ocr_figures(items, printed_shares(items, reader)) if ocr else None,
    }


def audit_priviq(directory: str | Path, *, ocr: bool = False) -> dict[str, object]:
    """Audit a Priv-IQ directory (loaded and validated: bad input raises one line).

    The :class:`PrivIQAudit` document, as the plain JSON object that is printed.
    """
    document: PrivIQAudit = {
        "directory": str(directory),
        **audit_items(load_priviq(directory), ocr=ocr),
    }
    return dict(document)


def empty_answer_scores(
    directory: str | Path, ids: Collection[str] | None = None
) -> dict[str, object]:
    """What the offline judge gives an empty answer: overall and per competency (%).

    Why: the Priv-IQ counterpart of a trivial baseline, shown next to a model's scores.
    Computed with the offline judge's public grading function and the benchmark's own
    aggregation (eqs. 1–2), so it follows any change of either. ``ids``: only these
    items (those of the runs it stands beside); default all.
    """
    from privbench.judges.offline import grade
    from privbench.suites.priviq.aggregate import ItemGrades, priviq_scores

    items = [i for i in load_priviq(directory) if ids is None or i.id in ids]
    grades = [ItemGrades(i.id, i.competencies, (grade(i.answer, ""),)) for i in items]
    scores = priviq_scores(grades)
    return {
        "label": "empty answer",
        "overall": scores.overall.score,
        "competencies": {code: cell.score for code, cell in scores.competencies.items()},
        "items": len(items),
    }
