"""The shipped Priv-IQ suite: what ``generate`` writes on any day, Table 1, variety and
languages; a generated suite's variety at another seed."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
import time_machine

from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.allocation import TABLE_1
from privbench.suites.priviq.dataset import load_priviq
from privbench.tooling.priviq_generator.suite import generate_items, generate_priviq


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


@pytest.mark.slow
def test_shipped_priviq_suite_is_what_generate_writes_on_any_day(tmp_path: Path) -> None:
    with time_machine.travel(dt.datetime(2029, 7, 15, 8), tick=False):
        generate_priviq(146, 0, tmp_path / "suite")
    assert _digest(tmp_path / "suite") == _digest(PRIVIQ_SUITE)


def test_shipped_priviq_suite_has_table_1_and_validates() -> None:
    items = load_priviq(PRIVIQ_SUITE)
    counts = Counter(item.combination for item in items)
    assert dict(counts) == TABLE_1
    manifest = json.loads((PRIVIQ_SUITE / "suite.json").read_text())
    assert manifest["n"] == 146 and len(manifest["languages"]) >= 6  # English + ≥ 5 others
    answers = [item.answer for item in items]
    assert sum("<AND>" in a for a in answers) > 30 and sum("<OR>" in a for a in answers) > 20
    assert any(a.startswith("No,") for a in answers)  # negatives that look like positives
    size = sum(p.stat().st_size for p in PRIVIQ_SUITE.rglob("*") if p.is_file())
    assert size < 20e6


def test_shipped_suite_is_varied() -> None:
    """≥ 110 distinct questions, no repeated pair, ≥ 3 families per combination."""
    items = load_priviq(PRIVIQ_SUITE)
    assert len({" ".join(i.question.casefold().split()) for i in items}) >= 110
    pairs = Counter((i.question, i.answer) for i in items)
    assert max(pairs.values()) == 1
    manifest = json.loads((PRIVIQ_SUITE / "suite.json").read_text())
    by_combination = manifest["families_by_combination"]
    for combination, count in TABLE_1.items():
        if count >= 3:
            assert len(by_combination[" ".join(combination)]) >= 3, combination


@pytest.mark.slow
def test_generated_suite_is_varied_at_another_seed() -> None:
    items = [item for _, item in generate_items(60, 3)]
    assert len({item.question for item in items}) >= 45
    assert len({(item.question, item.answer) for item in items}) == 60


def test_multilingual_items_cover_five_languages_beyond_english() -> None:
    manifest = json.loads((PRIVIQ_SUITE / "suite.json").read_text())
    others = set(manifest["languages"]) - {"English"}
    assert {"Russian", "Chinese", "Arabic"} <= others and len(others) >= 5
