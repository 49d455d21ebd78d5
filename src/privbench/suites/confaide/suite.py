"""ConfAIde declared as a :class:`~privbench.runtime.suite.Suite`: what generic code runs.

Each hook turns a request into a call of :mod:`.api` or :mod:`.plan` with ConfAIde's own
options (tiers, question types, metrics, privacy prompt, samples) read from the request's
settings and checked once (:func:`check_settings`). The inspect tasks register with this
declaration (``inspect eval privbench/confaide`` finds them through the registry); the
runs, plans and readers load when a hook is called: the registry loads this declaration
for every command.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.errors import Problem
from privbench.runtime.hooks import read_request, run_args
from privbench.runtime.records.benchmark import OldLogs
from privbench.runtime.running import BenchmarkRun, RunOptions
from privbench.runtime.suite import (
    CommandSpec,
    EvalRequest,
    GradeRequest,
    ReadRequest,
    ResumeRequest,
    RunKind,
    Settings,
    SharedOption,
    Suite,
    SuiteCommands,
    SuiteOption,
    count_setting,
    flag_setting,
    optional_text_setting,
)
from privbench.suites.confaide import task as _tasks  # noqa: F401  (registers the inspect tasks)
from privbench.suites.confaide.cross_run import CROSS_RUN
from privbench.suites.confaide.dataset import (
    DATA_DIR,
    TIER_FILES,
    load_confaide,
    validate_confaide,
)
from privbench.suites.confaide.options import (
    DEFAULT_SAMPLES,
    DEFAULT_TEMPERATURE,
    INSPECT_TASKS,
    ConfAIdeOptions,
    read_options,
)
from privbench.suites.confaide.record import CONFAIDE_SCORER
from privbench.suites.confaide.validation import resolve_data

CITATION = (
    "Mireshghallah, N.; Kim, H.; Zhou, X.; Tsvetkov, Y.; Sap, M.; Shokri, R.; Choi, Y. Can "
    "LLMs Keep a Secret? Testing Privacy Implications of Language Models via Contextual "
    "Integrity Theory. ICLR 2024."
)


def options_of(settings: Settings) -> ConfAIdeOptions:
    """The run's ConfAIde options from the command line's settings (checked)."""
    return read_options(
        optional_text_setting(settings, "tiers"),
        optional_text_setting(settings, "tier_3_questions"),
        optional_text_setting(settings, "tier_4_questions"),
        optional_text_setting(settings, "tier_3_metrics") or "string-match",
        not flag_setting(settings, "no_privacy_prompt"),
        count_setting(settings, "samples", DEFAULT_SAMPLES),
    )


DEMO_SETTINGS: Settings = {"samples": 1, "tier_3_questions": "free-response"}
"""``privbench demo``: one answer per prompt, and tier 3's free-response question alone (the
reference harness's own default): 516 prompts, every tier, instead of 13,260 answers."""


def check_settings(kind: RunKind, settings: Settings) -> None:
    """One line for a bad value of any ConfAIde option, before anything is read."""
    options_of(settings)


def _eval(request: EvalRequest) -> BenchmarkRun:
    from privbench.suites.confaide.api import eval_confaide

    return eval_confaide(
        request.data,
        request.model,
        options_of(request.settings),
        limit=request.limit,
        model_connections=request.model_connections,
        **run_args(request),
    )


def _grade(request: GradeRequest) -> BenchmarkRun:
    from privbench.suites.confaide.api import grade_confaide

    return grade_confaide(
        request.data,
        request.predictions,
        tier_3_metrics=options_of(request.settings).tier_3_metrics,
        model_name=request.model_name,
        **run_args(request),
    )


def _resume(request: ResumeRequest) -> BenchmarkRun:
    from privbench.suites.confaide.api import resume_confaide

    return resume_confaide(request)


def _read_log(request: ReadRequest) -> BenchmarkRun:
    from privbench.suites.confaide.api import read_confaide_log

    return read_request(read_confaide_log, request)


def _eval_plan(request: EvalRequest) -> CallPlan:
    from privbench.suites.confaide import plan

    return plan.eval_plan(
        request.data,
        request.model,
        request.options,
        options_of(request.settings),
        limit=request.limit,
    )


def _grade_plan(request: GradeRequest) -> CallPlan:
    from privbench.suites.confaide import plan

    return plan.grade_plan(
        request.data, request.predictions, request.options, options_of(request.settings)
    )


def _resume_plan(log: Path, options: RunOptions) -> CallPlan:
    from privbench.suites.confaide import plan

    return plan.resume_plan(log, options)


def _load(directory: Path) -> list[object]:
    data = load_confaide(directory)
    return [*data.tier_1, *data.tier_2a, *data.tier_2b, *data.tier_3, *data.tier_4]


def _validate(directory: Path) -> tuple[list[object], list[Problem]]:
    found, problems = validate_confaide(directory)
    if not found:
        return [], problems
    data = found[0]
    return [*data.tier_1, *data.tier_2a, *data.tier_2b, *data.tier_3, *data.tier_4], problems


TIERS_OPTION = SuiteOption(
    "tiers",
    ("--tier",),
    str,
    None,
    "Tiers to run: 1, 2a, 2b, 3, 4, the option repeated or a comma list (default: all).",
    repeatable=True,
)
TIER_3_METRICS_OPTION = SuiteOption(
    "tier_3_metrics",
    ("--tier-3-metrics",),
    str,
    "string-match",
    "Tier-3 free-response metrics: string-match, optionally ,proxy-model (the reference's "
    "leak check by a second model: asks --judge, never the offline judge).",
)

# fmt: off
COMMANDS = SuiteCommands(
    eval=CommandSpec(
        "Answer every ConfAIde prompt --samples times with --model (temperature 1 unless "
        "--temperature) and score the answers as the reference harness does. No "
        "chain-of-thought switch: the reference has none.",
        (
            "model", "data", TIERS_OPTION,
            SuiteOption(
                "tier_3_questions", ("--tier-3-questions",), str, None,
                "Tier-3 question types: free-response, info-accessibility, privacy-sharing, "
                "control, repeated or a comma list (default: all four; the reference's "
                "default is free-response only).",
                repeatable=True,
            ),
            SuiteOption(
                "tier_4_questions", ("--tier-4-questions",), str, None,
                "Tier-4 tasks: meeting-summary, action-item, repeated or a comma list "
                "(default: both).",
                repeatable=True,
            ),
            SuiteOption(
                "no_privacy_prompt", ("--no-privacy-prompt",), bool, False,
                "Leave out the reference's privacy instruction before tier-3/4 prompts (on "
                "by default, as in the reference).",
            ),
            TIER_3_METRICS_OPTION,
            SuiteOption(
                "samples", ("--samples",), int, DEFAULT_SAMPLES,
                "Answers per prompt (inspect epochs; the reference's --n-samples, 10).",
                minimum=1,
            ),
            SharedOption("judge", "The proxy-model metric's judge (only with --tier-3-metrics "
                         "...,proxy-model; no judge is called otherwise)."),
            "judge_temperature",
            SharedOption("limit", "Only the first N prompts (in the reference's order)."),
            SharedOption("out", "Also write the figures and the answers (grade format) here."),
            "label", "judge_connections", "max_connections", "log_dir", "resume",
            SharedOption("temperature", "Model under test's temperature (default 1, the "
                         "paper's)."),
            "seed", "max_tokens", "max_retries", "timeout", "cache", "batch", "as_json",
            "dry_run", "price", "judge_price",
        ),
    ),
    grade=CommandSpec(
        "Grade ConfAIde answers made elsewhere: privbench's predictions JSON (sample id → "
        "list of answers) or the reference's eval_*.json files (a file or a directory).",
        (
            SharedOption("predictions", "Answers: predictions JSON, a reference eval_*.json, "
                         "or a directory of them."),
            "data", TIER_3_METRICS_OPTION,
            SharedOption("judge", "The proxy-model metric's judge (only with proxy-model)."),
            "judge_temperature",
            SharedOption("out", "Also write the figures here."),
            "model_name", "label", "judge_connections", "log_dir", "resume", "seed",
            "max_retries", "timeout", "cache", "batch", "as_json", "dry_run", "price",
            "judge_price",
        ),
    ),
    compare_published=(
        "ConfAIde's paper and released figures over exactly the run's tiers and metrics, in "
        "its setting"
    ),
)
# fmt: on
"""What ``privbench eval confaide`` and ``privbench grade confaide`` take, in ``--help``'s order."""


SUITE = Suite(
    name="confaide",
    title="ConfAIde",
    citation=CITATION,
    licence="MIT (the reference repository's benchmark files, © 2023 Hyunwoo Kim)",
    inspect_tasks=INSPECT_TASKS,
    default_data_dir=DATA_DIR,
    dataset_file=TIER_FILES["3"],
    load=_load,
    validate=_validate,
    eval=_eval,
    grade=_grade,
    resume=_resume,
    read_log=_read_log,
    eval_plan=_eval_plan,
    grade_plan=_grade_plan,
    resume_plan=_resume_plan,
    check_settings=check_settings,
    resolve_data=resolve_data,
    cross_run=CROSS_RUN,
    commands=COMMANDS,
    default_temperature=DEFAULT_TEMPERATURE,
    demo_settings=DEMO_SETTINGS,
    old_logs=OldLogs(CONFAIDE_SCORER, INSPECT_TASKS),
)
