"""The model versions the providers reported over a run, per role."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class ReportsVersions(Protocol):
    """A score record that knows the model names the providers reported for its sample."""

    def reported_versions(self) -> dict[str, set[str]]: ...


@dataclass
class ReportedVersions:
    """The model names providers reported over a run, per role: the pinned versions.

    Why kept: an alias such as ``openai/gpt-4o`` names different models over time; the
    name the provider returned with each reply (``gpt-4o-2024-08-06``) says which one
    answered and graded. Every export, ``--json`` and the report carry it.
    """

    model: set[str] = field(default_factory=set)
    judge: set[str] = field(default_factory=set)

    def add(self, record: ReportsVersions) -> None:
        found = record.reported_versions()
        self.model |= found["model"]
        self.judge |= found["judge"]

    def record(self) -> dict[str, list[str]]:
        """``{"model": [...], "judge": [...]}``, sorted."""
        return {"model": sorted(self.model), "judge": sorted(self.judge)}

    def line(self) -> str:
        """ "versions reported by the providers: model …; judge …" (empty if none)."""
        parts = [f"{role} {', '.join(sorted(names))}" for role, names in
                 (("model", self.model), ("judge", self.judge)) if names]  # fmt: skip
        return f"versions reported by the providers: {'; '.join(parts)}" if parts else ""
