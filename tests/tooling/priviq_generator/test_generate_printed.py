"""Reasoning over reading: the shipped Priv-IQ images do not print their answers (by OCR)."""

from __future__ import annotations

import pytest

from privbench.shipped import PRIVIQ_SUITE
from privbench.suites.priviq.audit import image_words, printed_share
from privbench.suites.priviq.dataset import load_priviq

REASONING = {"PET", "Law", "Know", "PrivRisk", "CntxPriv"}


@pytest.mark.slow
def test_shipped_answers_are_not_printed_in_the_images() -> None:
    """For reasoning competencies, the share of the reference answer's content
    words (not in the question) that the bundled OCR finds in the image — the measurement
    of ``privbench audit --ocr`` — is ≤ 15 % on average and ≤ 50 % for every item. OCR of
    the whole suite takes minutes on a small CPU, so the test reads every third reasoning
    item (the full figures are in docs/datasets.md)."""
    items = [i for i in load_priviq(PRIVIQ_SUITE) if REASONING & set(i.competencies)][::3]
    shares = {}
    for item in items:
        share = printed_share(item.answer, item.question, image_words(item.image))
        if share is not None:
            shares[item.id] = share
    assert len(shares) >= 35
    mean = sum(shares.values()) / len(shares)
    above = {i: round(s) for i, s in shares.items() if s > 50}
    assert mean <= 15.0 and not above, (mean, above)
