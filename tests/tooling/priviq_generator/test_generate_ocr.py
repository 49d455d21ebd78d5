"""Legibility of generated Priv-IQ images: what an answer rests on reads back with OCR."""

from __future__ import annotations

import random
import re

import pytest
from PIL import Image, ImageDraw

from privbench.tooling.drawing.fonts import font
from privbench.tooling.priviq_generator.base import build
from privbench.tooling.priviq_generator.families import ALL_FAMILIES


def _norm(text: str) -> str:
    return re.sub(r"\W", "", text).lower()


def _ocr(image: Image.Image) -> str:
    from privbench.models.ocr_pii import read_text

    return _norm("".join(read_text(image)))


@pytest.mark.slow
@pytest.mark.timeout(900)  # OCR of every family's image: minutes on a loaded 2-core machine
def test_facts_read_back_with_ocr() -> None:
    """What an answer rests on stays readable after the camera degradations (≥ 90 %)."""
    read, missed = 0, []
    for fam in ALL_FAMILIES:
        combo = fam.combinations[0]
        language = "ru" if "MultLing" in combo else "en"
        for attempt in range(2 if fam.name.startswith("photo") else 1):
            item = build(fam, random.Random(f"ocr:{fam.name}:{attempt}"), language)
            text = _ocr(item.image)
            for fact in item.facts:
                if _norm(fact) in text:
                    read += 1
                else:
                    missed.append((fam.name, fact))
    assert read / (read + len(missed)) >= 0.9, missed


def test_cjk_reads_back_with_ocr() -> None:
    text = "患者姓名王小明电话一三八"
    image = Image.new("RGB", (700, 90), "white")
    ImageDraw.Draw(image).text((20, 20), text, font=font("cjk", 40), fill="black")
    assert _norm(text) in _ocr(image)
