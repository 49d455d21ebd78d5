"""docs/commands.md is the page generated from the command definitions, so it lists every
command and option the code has, and only those."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from privbench.cli import app
from privbench.command_docs import COMMAND_DOCS, commands, render

PAGE = Path(__file__).resolve().parents[1] / "docs" / "commands.md"


def test_the_committed_page_is_the_generated_one() -> None:
    committed = PAGE.read_text(encoding="utf-8")
    assert committed == render(), (
        f"docs/commands.md is out of date: regenerate it with `{COMMAND_DOCS}` (or `make docs`)"
    )


def _documented(page: str, path: str) -> list[str]:
    """The options in the table of one command's section, in order."""
    section = page.split(f"## `privbench {path}`\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `-")]
    cells = [row.split(" | ")[0] for row in rows]
    return [part.strip("| `").split()[0] for cell in cells for part in cell.split(", ")]


def test_every_command_and_visible_option_is_on_the_page_and_hidden_ones_are_not() -> None:
    page = render()
    found = commands()
    assert {"diff", "leaderboard", "report", "eval priviq", "review export"} <= set(found)
    for path, command in found.items():
        visible = [
            name
            for param in command.params
            if param.param_type_name == "option" and not param.hidden
            for name in param.opts
        ]
        assert _documented(page, path) == visible, path
    assert "--epochs" not in _documented(page, "eval priviq")
    assert _documented(page, "report") == ["-o", "--output", "--label", "--seed", "--bootstrap", "--browse", "--ratings", "--key", "--scale", "--compare-published", "--tables"]  # fmt: skip


def test_a_new_command_or_option_changes_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    before = render()
    monkeypatch.setattr(app, "registered_commands", list(app.registered_commands))

    @app.command("zz-new")
    def zz_new(
        width: int = typer.Option(3, "--width", min=1, help="A new option."),
        secret: bool = typer.Option(False, "--secret", hidden=True, help="Hidden."),
    ) -> None:
        """A command added after the page was made."""

    after = render()
    assert after != before
    assert (
        "## `privbench zz-new`" in after and "| `--width N` | `3` | A new option. (≥ 1) |" in after
    )
    assert "--secret" not in after
