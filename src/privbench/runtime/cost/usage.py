"""The cost of a finished run, from the token usage inspect recorded in its log."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from privbench.runtime.calls import Role
from privbench.runtime.cost.plan import Prices, RunCost, cost_line, run_cost
from privbench.runtime.log_reading import token_totals
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.running import NO_MODEL


def run_roles(log: EvalLog) -> dict[Role, str | None]:
    """Which model each role was in the run (None: not called — a grade run's model)."""
    identity = RunIdentity.from_log(log)
    return {
        "model": None if identity.model == NO_MODEL else identity.model,
        "judge": identity.judge or None,
    }


def log_cost(log: EvalLog, prices: Prices) -> RunCost:
    """``cost_usd``, ``cost_usd_by_role``, ``prices`` and ``price_date`` of a run."""
    return run_cost(token_totals(log), run_roles(log), prices)


def log_cost_line(log: EvalLog, prices: Prices) -> str:
    """The summary line of :func:`log_cost`."""
    return cost_line(log_cost(log, prices), run_roles(log))
