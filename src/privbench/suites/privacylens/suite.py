"""PrivacyLens declared as a :class:`~privbench.runtime.suite.Suite`: what generic code runs.

Each hook turns a request into a call of :mod:`.api` or :mod:`.plan` with PrivacyLens's own
options (``--part``, ``--prompt-type``, ``--level``, ``--shuffled``) read from the
request's settings and checked once (:func:`check_settings`). The inspect tasks register
with this declaration; the runs, plans and readers load when a hook is called.
"""

from __future__ import annotations

from pathlib import Path

from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.errors import Problem, UsageError
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
    flag_setting,
    optional_text_setting,
)
from privbench.suites.privacylens import task as _tasks  # noqa: F401  (registers the tasks)
from privbench.suites.privacylens.cross_run import CROSS_RUN
from privbench.suites.privacylens.dataset import DATA_DIR, DATA_FILE, validate_privacylens
from privbench.suites.privacylens.options import (
    INSPECT_TASKS,
    PrivacyLensOptions,
    read_options,
)
from privbench.suites.privacylens.prompts import JUDGE_PROTOCOLS
from privbench.suites.privacylens.record import PRIVACYLENS_SCORER
from privbench.suites.privacylens.toolkits import PROMPT_TYPES
from privbench.suites.privacylens.validation import resolve_data

CITATION = (
    "Shao, Y.; Li, T.; Shi, W.; Liu, Y.; Yang, D. PrivacyLens: Evaluating Privacy Norm "
    "Awareness of Language Models in Action. NeurIPS 2024 Datasets and Benchmarks."
)


def options_of(settings: Settings) -> PrivacyLensOptions:
    """The run's PrivacyLens options from the command line's settings (checked)."""
    return read_options(
        optional_text_setting(settings, "part"),
        optional_text_setting(settings, "prompt_types"),
        optional_text_setting(settings, "levels"),
        flag_setting(settings, "shuffled"),
    )


DEMO_SETTINGS: Settings = {"part": "action"}
"""``privbench demo``: the final actions of the naive prompt, judged offline."""


def grade_prompt_type(settings: Settings) -> str:
    """The one agent prompt type a grade's actions answered (checked)."""
    chosen = options_of(settings).prompt_types
    if len(chosen) != 1:
        raise UsageError(
            f"--prompt-type: a grade takes one of {', '.join(PROMPT_TYPES)} (the prompt the "
            "file's actions answered)"
        )
    return chosen[0]


def check_settings(kind: RunKind, settings: Settings) -> None:
    """One line for a bad value of any PrivacyLens option, before anything is read."""
    options_of(settings)
    if kind == "grade":
        grade_prompt_type(settings)


def _eval(request: EvalRequest) -> BenchmarkRun:
    from privbench.suites.privacylens.api import eval_privacylens

    return eval_privacylens(
        request.data,
        request.model,
        options_of(request.settings),
        limit=request.limit,
        model_connections=request.model_connections,
        **run_args(request),
    )


def _grade(request: GradeRequest) -> BenchmarkRun:
    from privbench.suites.privacylens.api import grade_privacylens

    return grade_privacylens(
        request.data,
        request.predictions,
        prompt_type=grade_prompt_type(request.settings),
        model_name=request.model_name,
        **run_args(request),
    )


def _resume(request: ResumeRequest) -> BenchmarkRun:
    from privbench.suites.privacylens.api import resume_privacylens

    return resume_privacylens(request)


def _read_log(request: ReadRequest) -> BenchmarkRun:
    from privbench.suites.privacylens.api import read_privacylens_log

    return read_request(read_privacylens_log, request)


def _eval_plan(request: EvalRequest) -> CallPlan:
    from privbench.suites.privacylens import plan

    return plan.eval_plan(
        request.data, request.model, request.options, options_of(request.settings),
        limit=request.limit,
    )  # fmt: skip


def _grade_plan(request: GradeRequest) -> CallPlan:
    from privbench.suites.privacylens import plan

    prompt_type = grade_prompt_type(request.settings)
    return plan.grade_plan(request.data, request.predictions, request.options, prompt_type)


def _resume_plan(log: Path, options: RunOptions) -> CallPlan:
    from privbench.suites.privacylens import plan

    return plan.resume_plan(log, options)


def _load(directory: Path) -> list[object]:
    from privbench.suites.privacylens.dataset import load_privacylens

    return list(load_privacylens(directory))


def _validate(directory: Path) -> tuple[list[object], list[Problem]]:
    cases, problems = validate_privacylens(directory)
    return list(cases), problems


PROMPT_TYPE_HELP = (
    "Agent prompt: naive, privacy_enhanced (the reference's --prompt-type), repeated or a "
    "comma list (default: naive)."
)

PROTOCOL_OPTION = SharedOption(
    "judge_protocol",
    "paper (the reference's judge prompts) or hardened (the action fenced as untrusted data; "
    "the same Yes/No and 0–3 reading).",
)

# fmt: off
COMMANDS = SuiteCommands(
    eval=CommandSpec(
        "Ask --model for each case's final action as the reference's agent prompt does and "
        "judge it for leakage (per sensitive item) and helpfulness (--part action), or ask "
        "the probing questions (--part probing). Temperature 0, at most 400 tokens (5 for "
        "probing) unless given.",
        (
            "model", "data",
            SuiteOption("part", ("--part",), str, "action",
                        "What to ask: action (the final action, judged) or probing (the "
                        "multiple-choice questions; no judge)."),
            SuiteOption("prompt_types", ("--prompt-type",), str, None, PROMPT_TYPE_HELP,
                        repeatable=True),
            SuiteOption("levels", ("--level",), str, None,
                        "Probing levels: seed, vignette, trajectory, trajectory_enhancing, "
                        "repeated or a comma list (default: all four).", repeatable=True),
            SuiteOption("shuffled", ("--shuffled",), bool, False,
                        "Probing: also ask each question with its choices swapped on a "
                        "seeded half (the reference's gold answer is always (B)); both "
                        "variants are reported."),
            SharedOption("judge", "Judge of final actions: a model (the paper's is "
                         "Mistral-7B-Instruct-v0.2), or offline (word-overlap rules, an "
                         "approximation)."),
            "judge_temperature", PROTOCOL_OPTION,
            SharedOption("limit", "Only the first N samples (in the reference's order)."),
            SharedOption("out", "Also write the figures and the actions (grade format) here."),
            "label", "judge_connections", "max_connections", "log_dir", "resume",
            "temperature", "seed", "max_tokens", "max_retries", "timeout", "cache", "batch",
            "as_json", "dry_run", "price", "judge_price",
        ),
    ),
    grade=CommandSpec(
        "Judge final actions made elsewhere: the reference's name,final_action CSV "
        "(get_final_action.py's output) or privbench's actions JSON.",
        (
            SharedOption("predictions", "Final actions: a reference CSV or privbench's "
                         "actions JSON."),
            "data",
            SuiteOption("prompt_types", ("--prompt-type",), str, "naive",
                        "The agent prompt the actions answered, where the file does not say "
                        "(naive or privacy_enhanced)."),
            SharedOption("judge", "Judge: a model, or offline (an approximation)."),
            "judge_temperature", PROTOCOL_OPTION,
            SharedOption("out", "Also write the figures here."),
            "model_name", "label", "judge_connections", "log_dir", "resume", "seed",
            "max_retries", "timeout", "cache", "batch", "as_json", "dry_run", "price",
            "judge_price",
        ),
    ),
)
# fmt: on
"""What ``privbench eval privacylens`` and ``privbench grade privacylens`` take."""


SUITE = Suite(
    name="privacylens",
    title="PrivacyLens",
    citation=CITATION,
    licence="MIT (the reference repository's code and data, © 2024 Stanford SALT lab)",
    inspect_tasks=INSPECT_TASKS,
    default_data_dir=DATA_DIR,
    dataset_file=DATA_FILE,
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
    default_temperature=0.0,
    demo_settings=DEMO_SETTINGS,
    old_logs=OldLogs(PRIVACYLENS_SCORER, INSPECT_TASKS),
    judge_protocols=JUDGE_PROTOCOLS,
)
