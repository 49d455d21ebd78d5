"""Terminal tables never cut a number, at any width and in a pipe.

Each command's output at 60, 80 and 120 columns (``COLUMNS``, stdout a pipe) must hold
every number its output holds at 400 columns, each one whole, and no ellipsis. The logs
are graded by the offline judge: two Priv-IQ runs over four items and a SpatialTrust run
over two captures (its published tables are the widest privbench prints).
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    FOUR_ITEMS,
    PERFECT,
    privbench,
    run_options,
    spatial_record,
    write_json,
    write_predictions,
    write_priviq,
    write_spatial,
)
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from privbench import cli
from privbench.cli import output
from privbench.suites.priviq.api import grade_priviq
from privbench.suites.spatialtrust.api import grade_spatialtrust
from privbench.terminal_tables import fit, whole

NUMBER = re.compile(r"(?<![\w.])[-+−]?\d+(?:[.,]\d+)*%?(?![\w.])")
"""A number as a reader sees it: digits with their decimals, not inside a word."""
WIDTHS = (60, 80, 120)


def numbers(text: str) -> Counter[str]:
    return Counter(NUMBER.findall(text))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    root = tmp_path_factory.mktemp("terminal")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_DISPLAY", "none")
        patch.setenv("PRIVBENCH_CACHE_DIR", str(root / "cache"))
        options = run_options(root, judge="offline")
        data = write_priviq(root / "data", FOUR_ITEMS)
        runs = []
        for name, answer in (("Qwen2.5-VL-72B-Instruct-AWQ", "answer"), ("Qwen3-VL-8B", "No.")):
            answers = write_json(root / f"{name}.json", {k: f"{answer} {k}" for k in FOUR_ITEMS})
            runs.append(Path(grade_priviq(data, answers, options=options).log_location))
        captures = write_spatial(root / "st", [spatial_record("st-1"), spatial_record("st-2")])
        predictions = write_predictions(
            root / "preds.jsonl", [{"id": "st-1", **PERFECT}, {"id": "st-2", **PERFECT}]
        )
        spatial = grade_spatialtrust(captures, predictions, options=options)
    yield {"a": runs[0], "b": runs[1], "spatial": Path(spatial.log_location), "dir": root / "logs"}


def _at(width: int, *args: str | Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The command's stdout at ``width`` columns, run in this process (as fast as a test
    should be); the subprocess test below checks the same through ``COLUMNS`` and a pipe."""
    monkeypatch.setattr(output, "stdout", Console(width=width, color_system=None))
    result = CliRunner().invoke(cli.app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    "command",
    [
        ("show", "a"),
        ("show", "spatial"),
        ("show", "spatial", "--compare-published"),
        ("diff", "a", "b"),
        ("leaderboard", "dir"),
    ],
    ids=["show", "show-spatial", "compare-published", "diff", "leaderboard"],
)
def test_no_number_is_cut_at_any_width(
    logs: dict[str, Path], command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [logs.get(part, part) for part in command]
    wide = _at(400, *args, monkeypatch=monkeypatch)
    expected = numbers(wide)
    assert "…" not in wide and sum(expected.values()) > 10
    for width in WIDTHS:
        shown = _at(width, *args, monkeypatch=monkeypatch)
        assert "…" not in shown, (width, shown)
        missing = expected - numbers(shown)
        assert not missing, (width, sorted(missing), shown)


def test_published_tables_in_a_pipe_at_80_columns(logs: dict[str, Path]) -> None:
    result = privbench(
        "show", logs["spatial"], "--compare-published", env={**os.environ, "COLUMNS": "80"}
    )
    assert result.returncode == 0, result.stderr
    assert "…" not in result.stdout
    for number in ("67.42", "39.17", "28.65", "36.78", "25.94"):  # paper Tables 2 and 3
        assert number in numbers(result.stdout), number


def _render(table: Table, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(whole(table))
    return out.getvalue()


def test_a_wide_table_wraps_its_text_then_goes_long() -> None:
    table = Table(title="scores")
    table.add_column("Model")
    for name in ("Detection", "Direct identification", "Indirect identification", "Overall"):
        table.add_column(name, justify="right")
    table.add_row("Qwen3-VL-30B-A3B-Instruct (this run)", "67.42", "39.17", "28.65", "36.78")
    table.add_row("GPT-5.4", "68.80", "26.08", "5.83", "25.94")
    for width in (120, 80, 44):
        text = _render(table, width)
        assert "…" not in text and not numbers(_render(table, 400)) - numbers(text), text
        assert all(len(line) <= width for line in text.splitlines()), text
    assert fit(table, 120) is table  # fits as it is
    wrapped = fit(table, 80)  # the text columns wrap
    assert [c.header for c in wrapped.columns] == [c.header for c in table.columns]
    long = fit(table, 44)  # too narrow for six columns: one row per cell
    assert [c.header for c in long.columns] == ["Model", "Column", "Value"]
    assert long.row_count == 2 * 4
    assert table.columns[1].width is None  # the given table is left as it was
