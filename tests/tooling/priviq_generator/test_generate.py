"""Generated Priv-IQ suites: determinism, Table 1 counts, sizes, fonts of each script and
drawing details.

The shipped suite and wording are in ``test_generate_shipped.py``, what OCR reads back in
``test_generate_ocr.py`` and ``test_generate_printed.py``, the fonts' glyph coverage in
``test_generate_fonts.py`` (apart, so the slow ones run on different workers); the
SpatialTrust generator's tests are in ``test_spatial_generate.py``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from pathlib import Path

import numpy as np
import pytest
import time_machine
from PIL import Image, ImageDraw

from privbench.apportion import largest_remainder
from privbench.suites.priviq.allocation import PAPER_SIZE, TABLE_1, allocate
from privbench.suites.priviq.competencies import combination_of
from privbench.tooling.drawing.fonts import font, missing_glyphs, script_of
from privbench.tooling.drawing.identities import REFERENCE_DATE, person
from privbench.tooling.drawing.perspective import perspective_coefficients
from privbench.tooling.priviq_generator.families import (
    FAMILIES,
    MEETING,
    MULTILINGUAL,
)
from privbench.tooling.priviq_generator.suite import generate_priviq


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


@pytest.mark.parametrize(
    "today", [dt.datetime(2024, 2, 29, 23, 59), dt.datetime(2031, 1, 1, 0, 1)], ids=str
)
def test_priviq_generation_does_not_depend_on_the_day(tmp_path: Path, today: dt.datetime) -> None:
    """Dates of birth count from REFERENCE_DATE, not from today: n=10, seed=3 has a
    ``know_identifier_kinds`` record that shows one (with Faker's ``date_of_birth`` it
    differed from one day to the next)."""
    reference = dt.datetime.combine(REFERENCE_DATE, dt.time(12))
    with time_machine.travel(reference, tick=False):
        generate_priviq(10, 3, tmp_path / "reference-day")
    with time_machine.travel(today, tick=False):
        generate_priviq(10, 3, tmp_path / "other-day")
    manifest = json.loads((tmp_path / "other-day" / "suite.json").read_text())
    assert "know_identifier_kinds" in manifest["families"]  # the family that shows birth dates
    assert _digest(tmp_path / "reference-day") == _digest(tmp_path / "other-day")


def test_birth_dates_depend_only_on_the_seed() -> None:
    dates = []
    for today in (dt.datetime(2024, 2, 29, 23, 59), dt.datetime(2031, 1, 1, 0, 1)):
        with time_machine.travel(today, tick=False):
            dates.append([person(random.Random(seed)).birth_date for seed in range(20)])
    assert dates[0] == dates[1]
    for born in dates[0]:  # ages 19 to 80 on REFERENCE_DATE
        assert 19 <= (REFERENCE_DATE - dt.date.fromisoformat(born)).days / 365.25 <= 81.01


def test_generate_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    from helpers import one_line_error, privbench

    out = tmp_path / "suite"
    assert privbench("generate", "priviq", "--n", "18", "--out", out).returncode == 0
    again = privbench("generate", "priviq", "--n", "18", "--out", out)
    assert again.returncode == 2 and "--force" in one_line_error(again)
    forced = privbench("generate", "priviq", "--n", "18", "--seed", "2", "--out", out, "--force")
    assert forced.returncode == 0 and "18 items, 18 combinations" in forced.stdout


def test_table_1_counts_exactly_at_146() -> None:
    assert allocate(146) == TABLE_1
    assert PAPER_SIZE == 146


def test_equal_remainders_go_to_the_larger_combination() -> None:
    # at 73 items every exact share is half of Table 1's count: the eight odd counts
    # (29, 19, 17, 5, 3, 3, 3, 3) tie at remainder 0.5 once 69 whole items are handed out,
    # and the 4 left over go to the four largest of them
    counts = allocate(73)
    assert counts[combination_of(("Law",))] == 15
    assert counts[combination_of(("Know",))] == 10
    assert counts[combination_of(("CntxPriv", "VizPriv"))] == 9
    assert counts[combination_of(("CntxPriv", "MultLing", "NER"))] == 3
    assert counts[combination_of(("NER",))] == 1  # 3 in the paper: its tie lost
    assert counts[combination_of(("CntxPriv", "PET"))] == 7  # 14 in the paper: no remainder


def test_largest_remainder_rounding() -> None:
    assert largest_remainder(10, {"a": 1, "b": 1, "c": 1}) == {"a": 4, "b": 3, "c": 3}
    assert largest_remainder(5, {"x": 0.75, "y": 0.25}) == {"x": 4, "y": 1}  # 3.75, 1.25
    assert largest_remainder(7, {"p": 2, "q": 5}) == {"p": 2, "q": 5}
    assert largest_remainder(3, {"s": 1, "t": 2}) == {"s": 1, "t": 2}  # 1.0 and 2.0 exact


def test_perspective_coefficients_of_a_shift_and_a_scale() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    shifted = [(x + 3.0, y + 5.0) for x, y in square]
    # an output pixel (x, y) samples the input at (x - 3, y - 5)
    assert perspective_coefficients(square, shifted) == pytest.approx(
        [1, 0, -3, 0, 1, -5, 0, 0], abs=1e-9
    )
    doubled = [(2 * x, 2 * y) for x, y in square]
    assert perspective_coefficients(square, doubled) == pytest.approx(
        [0.5, 0, 0, 0, 0.5, 0, 0, 0], abs=1e-9
    )


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


def test_every_combination_has_families() -> None:
    assert set(FAMILIES) == set(TABLE_1)
    for combination, count in TABLE_1.items():
        assert len(FAMILIES[combination]) >= min(3, count), combination


@pytest.mark.parametrize("language", MULTILINGUAL)
def test_every_script_is_covered_by_its_font(language: str) -> None:
    text = MEETING[language].format(name="X", org="Y", city="Z")
    script = script_of(text)
    assert missing_glyphs(script, text) == []
    assert script == {"ru": "cyrillic", "zh": "cjk", "ja": "cjk", "ar": "arabic"}.get(
        language, "latin"
    )


def test_card_chip_leaves_the_digits_free() -> None:
    from privbench.tooling.drawing.objects import payment_card

    card = payment_card("BANK", "4556 7375 8689 9855", "09/28", "Jo Lee", (30, 60, 120))
    pixels = np.asarray(card.convert("RGB"))
    chip = np.all(np.abs(pixels.astype(int) - (214, 180, 90)) < 8, axis=-1)
    rows = np.where(chip.any(axis=1))[0]
    number_box = font("latin", 44).getbbox("4556 7375 8689 9855")
    assert rows.max() < 200 + number_box[1]  # the chip ends above the number's top


def test_arabic_is_shaped_right_to_left() -> None:
    arabic = font("arabic", 40)
    word = "العربية"
    shaped = arabic.getbbox(word, direction="rtl")
    isolated = sum(arabic.getlength(c) for c in word)
    assert shaped[2] - shaped[0] < isolated  # joined letters are narrower than isolated ones
    canvas = Image.new("L", (400, 80), 255)
    ImageDraw.Draw(canvas).text((390, 10), word, font=arabic, fill=0, anchor="ra", direction="rtl")
    assert canvas.getbbox() is not None
