"""``privbench demo``: a real evaluation that needs no API key and no network.

The local baseline (``privbench/ocr-pii``) answers both shipped suites, the offline judge
grades the answers, and the report is built from the two inspect logs. Everything goes
to one directory: ``logs/``, the Priv-IQ reference-format exports in ``priviq/``, and
``report.html`` with its figures. Swap in any model or judge inspect can reach with
``model=`` / ``judge=`` (``--model openai/gpt-4o --judge openai/gpt-4o`` on the command line).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privbench.judges.choice import OFFLINE_JUDGE
from privbench.models.ocr_pii import MODEL_NAME
from privbench.report.html import ReportSettings, build_report
from privbench.runtime.errors import PrivbenchError
from privbench.runtime.running import RunOptions
from privbench.shipped import PRIVIQ_SUITE, SPATIALTRUST_SUITE
from privbench.suites.priviq.api import PrivIQRun, eval_priviq
from privbench.suites.spatialtrust.api import SpatialTrustRun, eval_spatialtrust
from privbench.validation import validate_directory

BASELINE = f"privbench/{MODEL_NAME}"


@dataclass
class DemoResult:
    """The two runs and the report they produced."""

    priviq: PrivIQRun
    spatialtrust: SpatialTrustRun
    report: Path


def check_suites() -> list[str]:
    """The one-line validation summaries of the shipped suites (raises if one is broken)."""
    summaries = []
    for data in (PRIVIQ_SUITE, SPATIALTRUST_SUITE):
        report = validate_directory(data)
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
) -> DemoResult:
    """Evaluate ``model`` on both shipped suites with ``judge``; write logs and the report."""
    options = RunOptions(judge=judge, log_dir=str(out / "logs"), display=display)
    priviq = eval_priviq(PRIVIQ_SUITE, model, limit=limit, out_dir=out / "priviq", options=options)
    spatial = eval_spatialtrust(SPATIALTRUST_SUITE, model, limit=limit, options=options)
    logs = [priviq.log_location, spatial.log_location]
    report = build_report(logs, out / "report.html", ReportSettings())
    return DemoResult(priviq, spatial, report)
