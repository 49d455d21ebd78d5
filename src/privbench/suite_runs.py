"""What the runs of the table-reporting suites share: their fields, the terminal's order and
the ``--json`` document's cost keys.

Why a base class: ConfAIde, PrivacyLens, VLM-GeoPrivacy and DecodingTrust each return a run
that holds its log's figures, its exports and its prices, prints its tables, the lines of
what they rest on, tokens and cost, the log and the files written — in that order — and
adds the cost keys to its ``--json`` document. Each suite now says only what is its own:
its tables, its lines and its document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from rich.console import RenderableType

from privbench.formatting import usage_lines
from privbench.runtime.calls import CallCounts
from privbench.runtime.cost.plan import Prices
from privbench.runtime.cost.usage import log_cost, log_cost_line
from privbench.runtime.log_reading import token_totals
from privbench.runtime.records.versions import ReportedVersions
from privbench.runtime.running import RunOutcome


class LoggedFigures(Protocol):
    """A suite's figures of one log: what the shared parts of its run read."""

    @property
    def errors(self) -> dict[str, str]: ...

    @property
    def versions(self) -> ReportedVersions: ...

    @property
    def calls(self) -> CallCounts: ...


Logged = TypeVar("Logged", bound=LoggedFigures)


@dataclass(frozen=True)
class TabledRun(RunOutcome, Generic[Logged]):
    """An eval or grade run of a suite: the figures, the log, and what was written."""

    logged: Logged
    exports: dict[str, str] = field(default_factory=dict)
    extra_ids: dict[str, list[str]] = field(default_factory=dict)
    export_error: str | None = None
    prices: Prices = field(default_factory=Prices)
    compare_published: bool = False
    """Show the published figures beside the run's (``show --compare-published``)."""

    @property
    def item_errors(self) -> dict[str, str]:
        return self.logged.errors

    def tables(self) -> list[RenderableType]:
        """The run's tables and the lines of what they rest on."""
        raise NotImplementedError

    def after_usage(self) -> list[RenderableType]:
        """What follows tokens and cost (ConfAIde: the published figures on request)."""
        return []

    def document(self) -> dict[str, Any]:
        """The suite's ``--json`` document (the cost keys are added to it)."""
        raise NotImplementedError

    def terminal(self) -> list[RenderableType]:
        """The run's tables, what they rest on, tokens and cost, where files went."""
        parts = self.tables()
        parts += usage_lines(
            token_totals(self.log),
            log_cost_line(self.log, self.prices),
            self.logged.versions.line(),
            self.logged.calls.line(),
        )
        parts += self.after_usage()
        parts.append(f"log: {self.log_location}")
        parts += [f"{kind}: {path}" for kind, path in self.exports.items()]
        return parts

    def json(self) -> dict[str, Any]:  # tests and callers read nested values
        """The ``--json`` document."""
        return {**self.document(), **log_cost(self.log, self.prices)}
