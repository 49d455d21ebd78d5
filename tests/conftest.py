"""Fixtures and hooks only: each test's quiet, private inspect settings, the loopback
judge/model server and small benchmark directories. What tests share besides fixtures is in
the ``helpers`` package (``from helpers import ...``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import helpers.cli
import pytest
from helpers import API_KEY, FOUR_ITEMS, write_json, write_priviq
from helpers.loopback_server import LoopbackServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files with the most ``slow`` tests first, then the files with the most tests.

    Parallel workers take whole files in this order (``--dist loadfile`` with
    ``--no-loadscope-reorder``): a file that takes minutes starts at once instead of last,
    and the short files even out the workers' ends. A file's tests keep their order.
    """
    slow = Counter(item.path for item in items if item.get_closest_marker("slow"))
    size = Counter(item.path for item in items)
    items.sort(key=lambda item: (-slow[item.path], -size[item.path], str(item.path)))


@pytest.fixture(autouse=True)
def _end_to_end(request: pytest.FixtureRequest) -> Iterator[None]:
    """``privbench(...)`` starts a real process only in a test marked ``e2e``."""
    helpers.cli.END_TO_END = request.node.get_closest_marker("e2e") is not None
    yield
    helpers.cli.END_TO_END = True


@pytest.fixture(autouse=True)
def _quiet_inspect(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    monkeypatch.setenv("INSPECT_DISPLAY", "none")
    # judge cards written by one test are never found by another, nor by the user's runs
    monkeypatch.setenv("PRIVBENCH_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    # inspect's model cache too: a reply cached by one test (or one parallel worker) is
    # never served to another, so every test sees the requests it makes
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.mktemp("inspect-cache")))
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


@pytest.fixture
def priviq_dir(tmp_path: Path) -> Path:
    return write_priviq(tmp_path / "data", FOUR_ITEMS)


@pytest.fixture
def predictions(tmp_path: Path) -> Path:
    return write_json(tmp_path / "results.json", {key: f"answer-{key}" for key in FOUR_ITEMS})
