"""``privbench demo``: a real evaluation that needs no API key and no network.

The local baseline (``privbench/ocr-pii``) answers every registered benchmark's shipped
suite, the offline judge grades the answers, and the report is built from the inspect
logs. Everything goes to one directory: ``logs/``, the reference-format exports of the
benchmarks that have them (``priviq/``), and ``report.html`` with its figures. Swap in
any model or judge inspect can reach with ``model=`` / ``judge=`` (``--model
openai/gpt-4o --judge openai/gpt-4o`` on the command line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from privbench import registry
from privbench.judges.choice import OFFLINE_JUDGE, parse_judge
from privbench.models.ocr_pii import MODEL_NAME
from privbench.report.html import ReportSettings, build_report
from privbench.runtime.cost.plan import Prices
from privbench.runtime.errors import PrivbenchError
from privbench.runtime.running import BenchmarkRun, RunOptions
from privbench.runtime.suite import EvalRequest
from privbench.validation import validate_directory

BASELINE = f"privbench/{MODEL_NAME}"


@dataclass
class DemoResult:
    """Each benchmark's run (by name, in the registry's order) and the report they produced."""

    runs: dict[str, BenchmarkRun]
    report: Path
    skipped: dict[str, str] = field(default_factory=dict)
    """Benchmarks whose data is not here (it cannot ship): the line saying why."""


def check_suites() -> list[str]:
    """The one-line validation summaries of the shipped suites (raises if one is broken)."""
    summaries = []
    for suite in registry.SUITES.values():
        copy = suite.default_copy()
        if copy.path is None:
            continue
        report = validate_directory(copy.path)
        if report.problems:
            raise PrivbenchError(f"the shipped suite is invalid: {report.problems[0]}")
        summaries.append(report.summary)
    return summaries


def run_demo(
    out: Path,
    *,
    model: str = BASELINE,
    judge: str = OFFLINE_JUDGE,
    display: str | None = None,
    limit: int | None = None,
    prices: Prices | None = None,
) -> DemoResult:
    """Evaluate ``model`` on every shipped suite with ``judge``; write logs and the report
    (``prices``: what the runs' costs are computed with)."""
    options = RunOptions(judge=parse_judge(judge), log_dir=str(out / "logs"), display=display)
    runs: dict[str, BenchmarkRun] = {}
    skipped: dict[str, str] = {}
    for suite in registry.SUITES.values():
        copy = suite.default_copy()
        if copy.path is None:
            skipped[suite.name] = copy.note
            continue
        exports = out / suite.name if suite.cross_run.demo_exports else None
        request = EvalRequest(
            copy.path,
            model,
            options,
            limit=limit,
            out=exports,
            prices=prices or Prices(),
            settings=suite.demo_settings,
        )
        runs[suite.name] = suite.eval(request)
    logs = [run.log_location for run in runs.values()]
    report = build_report(logs, out / "report.html", ReportSettings())
    return DemoResult(runs, report, skipped)
