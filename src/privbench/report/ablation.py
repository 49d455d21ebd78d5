"""SpatialTrust strategy variants of one model: their labels, their ablation table, the Average.

Why: a report often holds one model run three times on the same data — ``direct``,
``staged`` and ``guard`` — beside other models. Those runs answer two different questions:
*what does the strategy add for this model* (the SpatialTrust paper's Table 3: the one-pass
model, then + staged QA decomposition, then + conservative self-verification) and *how do
models compare* (its Table 2). So the report

* names every run with its strategy wherever a run is named, once more than one strategy
  is present (a bare ``gpt-4o`` beside ``gpt-4o [guard]`` does not say it is the direct run);
* lays each model's variants side by side (rows in the paper's order);
* averages over models, not runs: one run per model (its direct run, else its first), so a
  model run under three strategies is not counted three times and an inference method is
  not mixed into the models' mean. The best score per column is still marked among all
  full runs, as the paper's Table 2 marks SpatialTrustGuard beside the models.

Everything here is a pure function of the runs' identity fields (rows of
:attr:`privbench.analysis.runs.Results.runs`) and of the strategies the benchmarks declare
(:attr:`privbench.runtime.cross_run.CrossRun.strategies`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from privbench import registry
from privbench.runtime.running import NO_MODEL

BASE_STRATEGY = "direct"
"""The one-pass strategy every other one is compared with (the paper's baseline row)."""

Identity = tuple[str, str]
"""A run's ``(model, strategy)``: what puts a comparison in its family."""
RunFields = Mapping[Any, object]
"""One run's row of the runs frame (pandas gives its records untyped keys)."""


def run_identity(row: RunFields) -> Identity:
    """``(model, strategy)`` of one run row; a grade run (answers made elsewhere) is its own
    model, named by its label, with no strategy."""
    model = str(row.get("model") or "")
    if not model or model == NO_MODEL:
        model = str(row["label"])
    return model, str(row.get("strategy") or "")


def strategy_benchmarks() -> list[str]:
    """The benchmarks a model may be run on in several ways (:attr:`CrossRun.strategies`)."""
    return [name for name, suite in registry.SUITES.items() if suite.cross_run.strategies]


def strategy_labels(rows: Sequence[RunFields]) -> dict[str, str]:
    """New labels for runs of a benchmark with strategies that do not name their strategy,
    when that benchmark's runs hold more than one strategy (label → label with
    `` [strategy]``); other runs are unchanged.

    A label the user chose (``--label``) gets the suffix too unless it already names the
    strategy as a word (``gpt-4o guard``): in a report that mixes strategies every run must
    say which one it ran."""
    renamed: dict[str, str] = {}
    for name in strategy_benchmarks():
        mine = [r for r in rows if r.get("benchmark") == name]
        strategies = {str(r["strategy"]) for r in mine if r.get("strategy")}
        if len(strategies) < 2:
            continue
        for row in mine:
            label, strategy = str(row["label"]), str(row.get("strategy") or "")
            if strategy and not re.search(rf"(?<![\w-]){re.escape(strategy)}(?![\w-])", label):
                renamed[label] = f"{label} [{strategy}]"
    return renamed


def _strategies() -> tuple[str, ...]:
    """Every benchmark's strategies in its own order (:attr:`CrossRun.strategies`)."""
    return tuple(
        dict.fromkeys(s for suite in registry.SUITES.values() for s in suite.cross_run.strategies)
    )


def _strategy_order(strategy: str) -> int:
    strategies = _strategies()
    return strategies.index(strategy) if strategy in strategies else len(strategies)


def row_name(strategy: str) -> str:
    """A variant's row name as in the paper's Table 3: the base, then ``+ staged`` …"""
    return strategy if strategy == BASE_STRATEGY else f"+ {strategy}"


@dataclass(frozen=True)
class Ablation:
    """One model's strategy variants on one dataset, in the paper's row order."""

    model: str
    runs: list[tuple[str, str]]
    """``(row name, run label)`` per variant: ``direct``, ``+ staged``, ``+ guard``."""


def ablations(runs: Sequence[str], identities: Mapping[str, Identity]) -> list[Ablation]:
    """Models of ``runs`` (one dataset's) with runs under two strategies or more.

    A model with two runs under one strategy keeps both, the run's label beside the row
    name, so no run is hidden.
    """
    by_model: dict[str, list[str]] = {}
    for run in runs:
        by_model.setdefault(identities[run][0], []).append(run)
    found = []
    for model, members in by_model.items():
        strategies = [identities[r][1] for r in members]
        if len({s for s in strategies if s}) < 2:
            continue
        ordered = sorted(members, key=lambda r: _strategy_order(identities[r][1]))
        rows = []
        for run in ordered:
            strategy = identities[run][1] or "predictions"
            repeated = strategies.count(identities[run][1]) > 1
            name = row_name(strategy)
            rows.append((f"{name} ({run})" if repeated else name, run))
        found.append(Ablation(model, rows))
    return found


def one_run_per_model(runs: Sequence[str], identities: Mapping[str, Identity]) -> list[str]:
    """The runs an Average over models takes: per model its direct run, else its first
    (strategy variants of one model are left out), in the given order."""
    chosen: dict[str, str] = {}
    for run in runs:
        model, strategy = identities[run]
        if model not in chosen or (
            strategy == BASE_STRATEGY and identities[chosen[model]][1] != BASE_STRATEGY
        ):
            chosen[model] = run
    kept = set(chosen.values())
    return [run for run in runs if run in kept]
