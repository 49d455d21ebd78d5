"""Fonts and wording of generated Priv-IQ items: every drawn string has its glyphs, no
"a email", no language named in a multilingual item."""

from __future__ import annotations

import random
import re

import pytest

from privbench.tooling.drawing.fonts import missing_glyphs, script_of
from privbench.tooling.priviq_generator.base import build
from privbench.tooling.priviq_generator.families import (
    ALL_FAMILIES,
    MULTILINGUAL,
)
from privbench.tooling.priviq_generator.suite import generate_items


def _all_texts() -> list[tuple[str, str]]:
    texts = []
    for fam in ALL_FAMILIES:
        multilingual = any("MultLing" in c for c in fam.combinations)
        for language in MULTILINGUAL if multilingual else ["en"]:
            for seed in range(2):
                item = build(fam, random.Random(f"glyphs:{fam.name}:{seed}"), language)
                texts += [(fam.name, t) for t in item.texts]
    return texts


@pytest.mark.slow
def test_every_drawn_string_is_covered_by_its_font() -> None:
    """Symbols included: no empty boxes (the old ✈ in Noto Sans)."""
    texts = _all_texts()
    assert len(texts) > 500
    missing = {(name, t): missing_glyphs(script_of(t), t) for name, t in texts}
    assert not {k: v for k, v in missing.items() if v}


@pytest.mark.slow
def test_wording_of_questions_and_answers() -> None:
    items = [item for _, item in generate_items(146, 1)]
    for item in items:
        for text in (item.question, item.answer):
            assert not re.search(r"\ba [aeio]\w", text), text  # "a identity card", "a email"
            assert "Bourg" not in text and "Sainte " not in text
        if "differential privacy" in item.answer.lower() and item.answer.startswith("Diff"):
            assert "noise" in item.answer and "budget" in item.answer
    languages = [
        name.lower()
        for name in ("Russian", "Chinese", "Arabic", "Spanish", "German", "French", "Japanese")
    ]
    multilingual = [i for i in items if i.language != "en"]
    assert multilingual
    for item in multilingual:
        assert not any(name in item.question.lower() for name in languages), item.question
        assert not any(name.title() in t for t in item.texts for name in languages)
