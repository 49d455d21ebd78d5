"""SpatialTrust declared as a :class:`~privbench.runtime.suite.Suite`.

Each hook turns a request into a call of :mod:`privbench.suites.spatialtrust.api` or
:mod:`privbench.suites.spatialtrust.plan` with SpatialTrust's own options (``strategy``,
``box_format``, ``reask_unparsed``, ``overwrite``, ``allow_drafts``) read from the
request's settings.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.errors import UsageError
from privbench.runtime.hooks import run_args
from privbench.runtime.records.benchmark import OldLogs
from privbench.runtime.suite import (
    CommandSpec,
    EvalRequest,
    GenerateCommand,
    GradeRequest,
    ReadRequest,
    RunKind,
    Settings,
    SharedOption,
    Suite,
    SuiteCommands,
    SuiteOption,
    count_setting,
    flag_setting,
    optional_text_setting,
    text_setting,
)
from privbench.suites.spatialtrust import plan
from privbench.suites.spatialtrust.api import (
    INSPECT_TASKS,
    SpatialTrustRun,
    eval_spatialtrust,
    grade_spatialtrust,
    read_spatialtrust_log,
    resume_spatialtrust,
)
from privbench.suites.spatialtrust.boxes import get_convention
from privbench.suites.spatialtrust.cross_run import CROSS_RUN
from privbench.suites.spatialtrust.dataset import (
    DATASET_FILE,
    load_spatialtrust,
    validate_spatialtrust,
)
from privbench.suites.spatialtrust.question_design import QUESTION_TYPES, QuestionTypes
from privbench.suites.spatialtrust.record import SPATIAL_SCORER
from privbench.suites.spatialtrust.solvers import STRATEGIES, parse_strategy
from privbench.suites.spatialtrust.task import default_data_dir

CITATION = (
    "Lu, J.; Huang, H.-W.; Wadhwa, S.; Hsu, Y. T.; Hwang, J.-N. SpatialTrust: A Benchmark "
    "for Environmental Risk Recognition in Secure Authentication. arXiv:2608.29489, 2026."
)


def check_options(strategy: str, box_format: str) -> None:
    """``--strategy`` and ``--box-format`` checked (one line naming the choices)."""
    try:
        parse_strategy(strategy)
    except ValueError:
        raise UsageError(
            f"--strategy: choose from {', '.join(STRATEGIES)}, not '{strategy}'"
        ) from None
    try:
        get_convention(box_format)
    except ValueError as error:
        raise UsageError(f"--box-format: {error}") from None


def question_types(text: str) -> QuestionTypes:
    """``--question-types`` checked (one line naming the choices)."""
    for types in QUESTION_TYPES:
        if text == types:
            return types
    raise UsageError(f"--question-types: {' or '.join(QUESTION_TYPES)}, not '{text}'")


def _check_settings(kind: RunKind, settings: Settings) -> None:
    strategy = text_setting(settings, "strategy", "direct") if kind == "eval" else "direct"
    check_options(strategy, text_setting(settings, "box_format", "xyxy"))


def _eval(request: EvalRequest) -> SpatialTrustRun:
    settings = request.settings
    return eval_spatialtrust(
        request.data,
        request.model,
        strategy=text_setting(settings, "strategy", "direct"),
        box_format=text_setting(settings, "box_format", "xyxy"),
        limit=request.limit,
        model_connections=request.model_connections,
        reask_unparsed=count_setting(settings, "reask_unparsed"),
        overwrite=flag_setting(settings, "overwrite"),
        allow_drafts=flag_setting(settings, "allow_drafts"),
        compare_published=request.compare_published,
        **run_args(request),
    )


def _grade(request: GradeRequest) -> SpatialTrustRun:
    settings = request.settings
    return grade_spatialtrust(
        request.data,
        request.predictions,
        model_name=request.model_name,
        box_format=text_setting(settings, "box_format", "xyxy"),
        overwrite=flag_setting(settings, "overwrite"),
        allow_drafts=flag_setting(settings, "allow_drafts"),
        compare_published=request.compare_published,
        **run_args(request),
    )


def _read_log(request: ReadRequest) -> SpatialTrustRun:
    box_format = optional_text_setting(request.settings, "box_format")
    if box_format is not None:
        check_options("direct", box_format)
    return read_spatialtrust_log(
        request.log,
        model=request.model,
        out_dir=request.out,
        box_format=box_format,
        overwrite=flag_setting(request.settings, "overwrite"),
        compare_published=request.compare_published,
    )


def _eval_plan(request: EvalRequest) -> CallPlan:
    settings = request.settings
    return plan.eval_plan(
        request.data,
        request.model,
        request.options,
        strategy=text_setting(settings, "strategy", "direct"),
        box_format=text_setting(settings, "box_format", "xyxy"),
        reask_unparsed=count_setting(settings, "reask_unparsed"),
        limit=request.limit,
    )


def _grade_plan(request: GradeRequest) -> CallPlan:
    box_format = text_setting(request.settings, "box_format", "xyxy")
    return plan.grade_plan(
        request.data, request.predictions, request.options, box_format=box_format
    )


def _load(directory: Path) -> list[object]:
    return list(load_spatialtrust(directory))


# The eval and grade commands (privbench eval spatialtrust, privbench grade spatialtrust).

ALLOW_DRAFTS = SuiteOption(
    "allow_drafts",
    ("--allow-drafts",),
    bool,
    False,
    "Run even if some images' annotations are drafts no person reviewed (privbench build); "
    "every output then says how many.",
)

OUT = SharedOption("out", "Write the per-image scores CSV and the JSON summary here.")

BOX_FORMAT = SuiteOption(
    "box_format",
    ("--box-format",),
    str,
    "xyxy",
    "The boxes' convention: xyxy (pixels), xyxy1000 (0–1000: Qwen2-VL, Qwen3-VL, InternVL), "
    "yxyx1000 (Gemini), xyxy1 (0–1), qwen25 (Qwen2.5-VL: pixels of its resized input). See "
    "docs/spatialtrust.md.",
)
"""Also read by ``privbench build`` (its drafter's boxes) and ``privbench show``."""

QUESTION_TYPES_OPTION = SuiteOption(
    "question_types",
    ("--question-types",),
    str,
    "paper",
    "q2/q3 types: paper (multiple exactly when 2+ options are right, as the paper) or "
    "neutral (always multiple: the type does not tell how many to pick).",
)
"""Also read by ``privbench build``."""

# fmt: off
COMMANDS = SuiteCommands(
    eval=CommandSpec(
        "Answer every SpatialTrust capture with --model and score the five questions.",
        (
            "model", "data", "judge", "judge_temperature",
            SuiteOption(
                "strategy",
                ("--strategy",),
                str,
                "direct",
                "direct (one call), staged, or guard (SpatialTrustGuard).",
            ),
            BOX_FORMAT,
            SuiteOption(
                "reask_unparsed",
                ("--reask-unparsed",),
                int,
                0,
                "Ask again, with the format restated, up to N times when an answer cannot be "
                "read (default 0: the paper's one pass; the score without re-asks is shown "
                "beside).",
                minimum=0,
            ),
            SharedOption("limit", "Only the first N images."),
            OUT, "label", "overwrite", "judge_connections", "max_connections", "log_dir",
            "resume", "temperature", "seed", "max_tokens", "max_retries", "timeout", "cache",
            "batch", ALLOW_DRAFTS, "judge_card", "compare_published", "as_json", "dry_run",
            "price", "judge_price",
        ),
    ),
    grade=CommandSpec(
        "Score SpatialTrust predictions made elsewhere (format: docs/spatialtrust.md).",
        (
            SharedOption("predictions", "preds.jsonl: one prediction per image."),
            "data", "judge", "judge_temperature", "model_name", "label", BOX_FORMAT, OUT,
            "overwrite", "judge_connections", "log_dir", "resume", "seed", "max_retries",
            "timeout", "cache", "batch", ALLOW_DRAFTS, "judge_card", "compare_published",
            "as_json", "dry_run", "price", "judge_price",
        ),
    ),
    generate=GenerateCommand(
        "A SpatialTrust-format suite of 1440×960 captures with the five questions.",
        size=100,
        options=(QUESTION_TYPES_OPTION,),
    ),
    compare_published="SpatialTrust's Tables 2 and 3 (over its own captures)",
)
# fmt: on
"""What ``privbench eval spatialtrust``, ``grade spatialtrust`` and ``generate
spatialtrust`` take, in ``--help``'s order."""


SUITE = Suite(
    name="spatialtrust",
    title="SpatialTrust",
    citation=CITATION,
    licence="MIT (the generated suite shipped with privbench)",
    inspect_tasks=INSPECT_TASKS,
    default_data_dir=default_data_dir(),
    dataset_file=DATASET_FILE,
    load=_load,
    validate=validate_spatialtrust,
    eval=_eval,
    grade=_grade,
    resume=resume_spatialtrust,
    read_log=_read_log,
    eval_plan=_eval_plan,
    grade_plan=_grade_plan,
    resume_plan=plan.resume_plan,
    check_settings=_check_settings,
    old_logs=OldLogs(SPATIAL_SCORER, INSPECT_TASKS),
    cross_run=CROSS_RUN,
    commands=COMMANDS,
)
