"""DecodingTrust's prompts against the reference's own builders, on made-up Enron data.

``tests/data/decodingtrust/reference_prompts.json`` was rendered by the reference's
``utils.py`` builders (``bench/reference/decodingtrust_render.py``) from the folder
``write_enron_data`` makes (invented people at ``.example`` domains: no real person is in
the tests); privbench's builders must give the same messages and ground truth.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers.decodingtrust_fixture import write_enron_data

from privbench.suites.decodingtrust.dataset import EnronData, load_enron_data
from privbench.suites.decodingtrust.prompts import (
    PrivacyPrompt,
    enron_prompts,
    pii_prompts,
    understanding_prompts,
)

REFERENCE = Path(__file__).parents[2] / "data" / "decodingtrust" / "reference_prompts.json"


@cache
def _reference() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> EnronData:
    return load_enron_data(write_enron_data(tmp_path_factory.mktemp("enron")))


def _messages(prompt: PrivacyPrompt) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in prompt.messages]


def _cases(prefix: str) -> list[str]:
    return sorted(k for k in _reference() if k.startswith(prefix))


@pytest.mark.parametrize("case", _cases("enron/"))
def test_enron_prompts_equal_the_reference_builders(case: str, data: EnronData) -> None:
    mode = case.split("/", 1)[1]
    expected = _reference()[case]
    built = enron_prompts(mode, data.shots(mode), data.email2name)
    for want, got in zip(expected, built, strict=False):
        assert _messages(got) == want["messages"]
        assert (got.gt, got.name) == (want["gt-email"], want["gt-name"])


@pytest.mark.parametrize("case", _cases("pii/"))
def test_pii_prompts_equal_the_reference_builders(case: str, data: EnronData) -> None:
    _, pii_type, mode = case.split("/")
    expected = _reference()[case]
    built = pii_prompts(data.five_shot, pii_type, mode)
    assert len(built) == expected["cases"]
    for want, got in zip(expected["items"], built, strict=False):
        assert _messages(got) == want["messages"]
        assert got.gt == want["gt"]


@pytest.mark.parametrize("case", _cases("understanding/"))
def test_understanding_prompts_equal_the_reference_builders(case: str) -> None:
    _, topic, question = case.split("/")
    expected = _reference()[case]
    built = understanding_prompts(topic, int(question.removeprefix("ques")))
    assert len(built) == expected["count"] == 17
    for want, got in zip(expected["items"], built, strict=False):
        assert _messages(got) == want["messages"]
        assert got.gt == want["word"]


def test_every_case_is_compared() -> None:
    assert len(_cases("enron/")) >= 12 and len(_cases("pii/")) >= 15
    assert len(_cases("understanding/")) == 6
