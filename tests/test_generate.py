"""Generated suites: determinism, Table 1 counts, validity, OCR read-back, scripts, boxes."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageChops, ImageDraw

from privbench.generate.fonts import font, missing_glyphs, script_of
from privbench.priviq.competencies import combination_of
from privbench.priviq.dataset import load_priviq
from privbench.priviq.generate.families import _POST_TEMPLATES, FAMILIES, MULTILINGUAL
from privbench.priviq.generate.plan import PAPER_SIZE, TABLE_1, allocate
from privbench.priviq.generate.suite import generate_priviq
from privbench.shipped import PRIVIQ_SUITE, SPATIALTRUST_SUITE
from privbench.spatialtrust.dataset import load_spatialtrust
from privbench.spatialtrust.generate.scene import CATALOGUE, HEIGHT, WIDTH, Placed, draw_element
from privbench.spatialtrust.generate.suite import PAPER_SHARES, categories, generate_spatialtrust


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_priviq_generation_is_byte_identical(tmp_path: Path) -> None:
    generate_priviq(20, 5, tmp_path / "a")
    generate_priviq(20, 5, tmp_path / "b")
    generate_priviq(20, 6, tmp_path / "c")
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    assert _digest(tmp_path / "a") != _digest(tmp_path / "c")


def test_spatialtrust_generation_is_byte_identical(tmp_path: Path) -> None:
    generate_spatialtrust(6, 3, tmp_path / "a")
    generate_spatialtrust(6, 3, tmp_path / "b")
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    assert len(load_spatialtrust(tmp_path / "a")) == 6


def test_generate_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    from test_cli import one_line_error, privbench

    out = tmp_path / "suite"
    assert privbench("generate", "priviq", "--n", "18", "--out", out).returncode == 0
    again = privbench("generate", "priviq", "--n", "18", "--out", out)
    assert again.returncode == 2 and "--force" in one_line_error(again)
    forced = privbench("generate", "priviq", "--n", "18", "--seed", "2", "--out", out, "--force")
    assert forced.returncode == 0 and "18 items, 18 combinations" in forced.stdout


def test_table_1_counts_exactly_at_146() -> None:
    assert allocate(146) == TABLE_1
    assert PAPER_SIZE == 146


@pytest.mark.parametrize("n", [73, 292, 500])
def test_other_sizes_keep_proportions(n: int) -> None:
    counts = allocate(n)
    assert sum(counts.values()) == n
    assert set(counts) == set(TABLE_1)
    for combination, count in counts.items():
        assert abs(count - TABLE_1[combination] * n / PAPER_SIZE) <= 1.0


@pytest.mark.parametrize("n", [18, 25, 40])
def test_small_sizes_keep_every_combination(n: int) -> None:
    counts = allocate(n)
    assert sum(counts.values()) == n
    assert set(counts) == set(TABLE_1)  # every combination at least once when n ≥ 18
    largest = max(TABLE_1, key=lambda c: TABLE_1[c])
    assert counts[largest] == max(counts.values())
    assert len(allocate(5)) == 5  # below 18 the most frequent combinations come first


def test_shipped_priviq_suite_has_table_1_and_validates() -> None:
    items = load_priviq(PRIVIQ_SUITE)
    counts = Counter(item.combination for item in items)
    assert dict(counts) == TABLE_1
    manifest = json.loads((PRIVIQ_SUITE / "suite.json").read_text())
    assert manifest["n"] == 146 and len(manifest["languages"]) >= 6  # English + ≥ 5 others
    answers = [item.answer for item in items]
    assert sum("<AND>" in a for a in answers) > 30 and sum("<OR>" in a for a in answers) > 20
    assert any(a.startswith("No,") for a in answers)  # benign look-alikes exist


def test_shipped_spatialtrust_suite_follows_the_paper_shares() -> None:
    images = load_spatialtrust(SPATIALTRUST_SUITE)
    assert len(images) == 100
    kinds = Counter((bool(i.q4.factors), bool(i.q5.factors)) for i in images)
    total = sum(PAPER_SHARES.values())
    expected = {
        (True, False): "direct only",
        (False, True): "indirect only",
        (True, True): "both",
        (False, False): "neither",
    }
    for key, name in expected.items():
        assert abs(kinds[key] - 100 * PAPER_SHARES[name] / total) <= 2, (name, kinds[key])
    multiple = sum(q.type == "multiple" for i in images for q in (i.q2, i.q3))
    assert 0.04 <= multiple / 200 <= 0.2  # paper: 119 of 1,154 ≈ 10 %
    assert all((i.width, i.height) == (1440, 960) for i in images)
    for image in images:
        for question in (image.q2, image.q3):
            none = question.none_option
            assert none == "E" and (question.answer == ("E",)) == (not question.evidence)


def test_category_allocation() -> None:
    order = categories(577, random.Random(0))
    assert Counter(order) == Counter(PAPER_SHARES)


def _ocr_text(path: Path) -> str:
    from rapidocr_onnxruntime import RapidOCR

    engine = _ocr_text.__dict__.setdefault("engine", RapidOCR())
    result, _ = engine(np.asarray(Image.open(path).convert("RGB")))
    return "".join(text for _, text, _ in (result or []))


def _norm(text: str) -> str:
    return re.sub(r"\W", "", text).lower()


def test_rendered_answers_read_back_with_ocr(tmp_path: Path) -> None:
    """Spot checks: the strings each answer is built from are in the rendered image."""
    checked = Counter[str]()
    for combination, builder in FAMILIES.items():
        rng = random.Random(f"ocr:{combination}")
        language = "zh" if "MultLing" in combination else "en"
        item = builder(rng, language)
        path = tmp_path / f"{item.family}.png"
        item.image.save(path)
        text = _norm(_ocr_text(path))
        for fact in item.facts:
            assert _norm(fact) in text, (item.family, fact, text[:300])
            checked[item.family] += 1
    assert len(checked) >= 15


@pytest.mark.parametrize("language", MULTILINGUAL)
def test_every_script_is_covered_by_its_font(language: str) -> None:
    text = _POST_TEMPLATES[language].format(name="X", org="Y", city="Z")
    script = script_of(text)
    assert missing_glyphs(script, text) == []
    assert script == {"ru": "cyrillic", "zh": "cjk", "ja": "cjk", "ar": "arabic"}.get(
        language, "latin"
    )


def test_arabic_is_shaped_right_to_left() -> None:
    arabic = font("arabic", 40)
    word = "العربية"
    shaped = arabic.getbbox(word, direction="rtl")
    isolated = sum(arabic.getlength(c) for c in word)
    assert shaped[2] - shaped[0] < isolated  # joined letters are narrower than isolated ones
    canvas = Image.new("L", (400, 80), 255)
    ImageDraw.Draw(canvas).text((390, 10), word, font=arabic, fill=0, anchor="ra", direction="rtl")
    assert canvas.getbbox() is not None


def test_cjk_reads_back_with_ocr(tmp_path: Path) -> None:
    text = "患者姓名王小明电话一三八"
    image = Image.new("RGB", (700, 90), "white")
    ImageDraw.Draw(image).text((20, 20), text, font=font("cjk", 40), fill="black")
    image.save(tmp_path / "cjk.png")
    assert _norm(text) in _norm(_ocr_text(tmp_path / "cjk.png"))


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_each_element_is_drawn_exactly_inside_its_box(key: str) -> None:
    element = CATALOGUE[key]
    box = (300, 200, 300 + element.size[0], 200 + element.size[1])
    background = (123, 124, 125)
    blank = Image.new("RGB", (WIDTH, HEIGHT), background)
    drawn = blank.copy()
    draw_element(ImageDraw.Draw(drawn), Placed(element, box), random.Random(key))
    bounds = ImageChops.difference(drawn, blank).getbbox()
    assert bounds is not None
    left, top, right, bottom = bounds
    # nothing outside the evidence box, and the drawing reaches (nearly) every side of it
    assert box[0] - 1 <= left and top >= box[1] - 1 and right <= box[2] + 1 and bottom <= box[3] + 1
    assert left - box[0] <= 0.25 * element.size[0] and box[2] - right <= 0.25 * element.size[0]
    assert top - box[1] <= 0.25 * element.size[1] and box[3] - bottom <= 0.25 * element.size[1]


def test_boxes_of_a_generated_suite_lie_on_drawn_elements(tmp_path: Path) -> None:
    generate_spatialtrust(8, 11, tmp_path / "st")
    for image in load_spatialtrust(tmp_path / "st"):
        pixels = np.asarray(Image.open(image.image).convert("RGB")).astype(int)
        for factor in (*image.q4.factors, *image.q5.factors):
            x1, y1, x2, y2 = map(int, factor.box)
            assert 0 <= x1 < x2 <= image.width and 0 <= y1 < y2 <= image.height
            region = pixels[y1:y2, x1:x2].reshape(-1, 3)
            assert len(np.unique(region, axis=0)) > 3  # an element, not bare wall
        for question in (image.q2, image.q3):
            boxes = [b for bs in question.evidence.values() for b in bs]
            factors = image.q4.factors if question.qid == "q2" else image.q5.factors
            assert sorted(boxes) == sorted(f.box for f in factors)


def test_multilingual_items_cover_five_languages_beyond_english(tmp_path: Path) -> None:
    manifest = json.loads((PRIVIQ_SUITE / "suite.json").read_text())
    others = set(manifest["languages"]) - {"English"}
    assert {"Russian", "Chinese", "Arabic"} <= others and len(others) >= 5
    combo = combination_of(("NER", "MultLing"))
    assert FAMILIES[combo].__name__ == "ner_multilingual"
