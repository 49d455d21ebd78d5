"""Priv-IQ declared as a :class:`~privbench.runtime.suite.Suite`: what generic code runs.

Each hook turns a request into a call of :mod:`privbench.suites.priviq.api` or
:mod:`privbench.suites.priviq.plan` with Priv-IQ's own options (``explain``, ``grades``,
``reuse_unverified_grades``) read from the request's settings.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.errors import UsageError
from privbench.runtime.hooks import read_request, run_args
from privbench.runtime.records.benchmark import OldLogs
from privbench.runtime.running import BenchmarkRun
from privbench.runtime.suite import (
    CommandSpec,
    DownloadCommand,
    DownloadRequest,
    EvalRequest,
    GenerateCommand,
    GradeRequest,
    ReadRequest,
    SharedOption,
    Suite,
    SuiteCommands,
    SuiteOption,
    flag_setting,
    path_setting,
)
from privbench.suites.priviq import plan
from privbench.suites.priviq.api import (
    INSPECT_TASKS,
    PrivIQRun,
    eval_priviq,
    grade_priviq,
    read_priviq_log,
    resume_priviq,
)
from privbench.suites.priviq.cross_run import CROSS_RUN
from privbench.suites.priviq.dataset import DATASET_FILE, load_priviq, validate_priviq
from privbench.suites.priviq.judge import PROTOCOLS
from privbench.suites.priviq.record import PRIVIQ_SCORER
from privbench.suites.priviq.release import DEFAULT_URL, download_priviq, resolve_data
from privbench.suites.priviq.task import default_data_dir

CITATION = (
    "Shahriar, S.; Dara, R. Priv-IQ: A Benchmark and Comparative Evaluation of Large "
    "Multimodal Models on Privacy Competencies. 2025."
)


def _eval(request: EvalRequest) -> PrivIQRun:
    return eval_priviq(
        request.data,
        request.model,
        limit=request.limit,
        model_connections=request.model_connections,
        explain=flag_setting(request.settings, "explain"),
        **run_args(request),
    )


def _grade(request: GradeRequest) -> PrivIQRun:
    return grade_priviq(
        request.data or default_data_dir(),
        request.predictions,
        grades=path_setting(request.settings, "grades"),
        model_name=request.model_name,
        explain=flag_setting(request.settings, "explain"),
        reuse_unverified=flag_setting(request.settings, "reuse_unverified_grades"),
        **run_args(request),
    )


def _read_log(request: ReadRequest) -> BenchmarkRun:
    if request.settings.get("box_format") is not None:
        raise UsageError(f"--box-format: only for SpatialTrust logs ({request.log} is Priv-IQ)")
    return read_request(read_priviq_log, request)


def _eval_plan(request: EvalRequest) -> CallPlan:
    return plan.eval_plan(request.data, request.model, request.options, limit=request.limit)


def _grade_plan(request: GradeRequest) -> CallPlan:
    grades = path_setting(request.settings, "grades")
    return plan.grade_plan(request.data, request.predictions, request.options, grades=grades)


def _download(request: DownloadRequest) -> list[str]:
    release = download_priviq(request.directory, request.url or DEFAULT_URL, force=request.force)
    return release.lines()


def _load(directory: Path) -> list[object]:
    return list(load_priviq(directory))


# The eval and grade commands (privbench eval priviq, privbench grade priviq).

EXPLAIN = SuiteOption(
    "explain",
    ("--explain",),
    bool,
    False,
    "Offline judge: list per item the rules that made its grade (also in the grade file "
    "and --json).",
)

# fmt: off
COMMANDS = SuiteCommands(
    eval=CommandSpec(
        "Answer every Priv-IQ item once with --model and grade the answers with the judge.",
        (
            "model", "data", "judge", "judge_runs", "judge_temperature",
            SharedOption("limit", "Only the first N items."),
            SharedOption("out", "Also write results.json and the reference exports here."),
            "label", "judge_protocol", "judge_connections", "max_connections", "log_dir",
            "resume", "temperature", "seed", "max_tokens", "max_retries", "timeout", "cache",
            "batch", EXPLAIN, "judge_card", "as_json", "epochs", "dry_run", "price",
            "judge_price",
        ),
    ),
    grade=CommandSpec(
        "Grade a results.json with the Priv-IQ judge; write the grade file and score CSVs.",
        (
            SharedOption("predictions", "results.json: id → answer."),
            "data",
            SuiteOption(
                "grades",
                ("--grades",),
                Path,
                None,
                "Earlier grade file: runs of unchanged answers are reused.",
            ),
            SuiteOption(
                "reuse_unverified_grades",
                ("--reuse-unverified-grades",),
                bool,
                False,
                "Also reuse --grades runs that record no answer (the reference evaluator's "
                "files) where the judge is the same, without checking the answer.",
            ),
            "judge", "judge_runs", "judge_temperature",
            SharedOption("out", "Export directory (default: beside --predictions)."),
            "model_name", "label", "judge_protocol", "judge_connections", "log_dir",
            "resume", "seed", "max_retries", "timeout", "cache", "batch", EXPLAIN,
            "judge_card", "as_json", "epochs", "dry_run", "price", "judge_price",
        ),
    ),
    generate=GenerateCommand(
        "A Priv-IQ-format suite (Table 1's combination counts for --n 146).", size=146
    ),
    download=DownloadCommand(
        "The public Priv-IQ release: fetch (resumable), check, unpack; then --data priviq."
    ),
    compare_published=(
        "Priv-IQ's over data of the release's shape that is not verified as the release "
        "(runs over the verified release show them by themselves)"
    ),
)
# fmt: on
"""What ``privbench eval priviq``, ``grade priviq``, ``generate priviq`` and ``download
priviq`` take, in ``--help``'s order."""


SUITE = Suite(
    name="priviq",
    title="Priv-IQ",
    citation=CITATION,
    licence=(
        "MIT (the generated suite shipped with privbench); the public release keeps its "
        "authors' terms"
    ),
    inspect_tasks=INSPECT_TASKS,
    default_data_dir=default_data_dir(),
    dataset_file=DATASET_FILE,
    load=_load,
    validate=validate_priviq,
    eval=_eval,
    grade=_grade,
    resume=resume_priviq,
    read_log=_read_log,
    eval_plan=_eval_plan,
    grade_plan=_grade_plan,
    resume_plan=plan.resume_plan,
    judge_protocols=PROTOCOLS,
    resolve_data=resolve_data,
    download=_download,
    old_logs=OldLogs(PRIVIQ_SCORER, INSPECT_TASKS),
    cross_run=CROSS_RUN,
    commands=COMMANDS,
)
