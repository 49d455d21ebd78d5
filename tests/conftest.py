"""Shared fixtures: a loopback judge/model server and small Priv-IQ directories."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from loopback_server import LoopbackServer
from PIL import Image

from privbench.priviq.api import RunOptions

API_KEY = "sk-canary-DO-NOT-LOG-0123456789"
JUDGE = "openai-api/loopjudge/judge"
MODEL = "openai-api/loopmodel/vlm"
JUDGE_PROMPT = r"Correctness"
"""Matches the judge prompts of both protocols (not the judge check's ping)."""


@pytest.fixture(autouse=True)
def _quiet_inspect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_DISPLAY", "none")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("PRIVBENCH_JUDGE", raising=False)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopbackServer]:
    """A started loopback server serving both the judge and the model under test."""
    with LoopbackServer(default_reply="0.5") as loopback:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", loopback.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        yield loopback


def item(question: str, answer: str, capability: list[str], image: str = "") -> dict[str, Any]:
    return {"imagename": image, "question": question, "answer": answer, "capability": capability}


def write_priviq(directory: Path, items: dict[str, dict[str, Any]]) -> Path:
    """A Priv-IQ directory: each item's image is a small PNG named after its id."""
    (directory / "images").mkdir(parents=True, exist_ok=True)
    data = {}
    for index, (item_id, entry) in enumerate(items.items()):
        name = entry.get("imagename") or f"{item_id}.png"
        Image.new("RGB", (16, 16), (index * 30 % 255, 80, 120)).save(directory / "images" / name)
        data[item_id] = {**entry, "imagename": name}
    (directory / "priv-IQ.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return directory


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


FOUR_ITEMS = {
    "a": item("Is there a card?", "Yes, a bank card <AND> a name", ["VizPriv", "CntxPriv"]),
    "b": item("Which law applies?", "GDPR Article 33", ["Law"]),
    "c": item("List the entities.", "Maria (person) <OR> Acme (organization)", ["NER"]),
    "d": item("Linkage risk?", "Yes, Doug is re-identified", ["PrivRisk", "Know", "CntxPriv"]),
}


@pytest.fixture
def priviq_dir(tmp_path: Path) -> Path:
    return write_priviq(tmp_path / "data", FOUR_ITEMS)


@pytest.fixture
def predictions(tmp_path: Path) -> Path:
    return write_json(tmp_path / "results.json", {key: f"answer-{key}" for key in FOUR_ITEMS})


def run_options(tmp_path: Path, **settings: Any) -> RunOptions:
    defaults: dict[str, Any] = {
        "judge": JUDGE,
        "log_dir": str(tmp_path / "logs"),
        "display": "none",
    }
    return RunOptions(**(defaults | settings))
