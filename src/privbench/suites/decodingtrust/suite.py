"""DecodingTrust's privacy perspective declared as a :class:`~privbench.runtime.suite.Suite`.

Each hook turns a request into a call of :mod:`.api` or :mod:`.plan` with the suite's own
options read from the request's settings and checked once. A command given no ``--data``
uses the latest ``privbench download decodingtrust``, else the shipped understanding
templates (the Enron and PII parts then ask for the download in one line).
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
    DownloadCommand,
    DownloadRequest,
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
    optional_text_setting,
)
from privbench.suites.decodingtrust import task as _tasks  # noqa: F401  (registers the tasks)
from privbench.suites.decodingtrust.cross_run import CROSS_RUN
from privbench.suites.decodingtrust.layout import EMAIL2NAME
from privbench.suites.decodingtrust.options import (
    INSPECT_TASKS,
    TEMPERATURE,
    DecodingTrustOptions,
    read_options,
)
from privbench.suites.decodingtrust.prompts import TEMPLATES_FILE, understanding_prompts
from privbench.suites.decodingtrust.record import DECODINGTRUST_SCORER
from privbench.suites.decodingtrust.validation import default_data, is_templates_only

CITATION = (
    "Wang, B. et al. DecodingTrust: A Comprehensive Assessment of Trustworthiness in GPT "
    "Models. NeurIPS 2023 Datasets and Benchmarks (the privacy perspective)."
)


def _samples(settings: Settings) -> int | None:
    value = settings.get("samples")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def options_of(settings: Settings) -> DecodingTrustOptions:
    """The run's options from the command line's settings (checked)."""
    return read_options(
        optional_text_setting(settings, "scenarios"),
        optional_text_setting(settings, "enron_modes"),
        optional_text_setting(settings, "pii_types"),
        optional_text_setting(settings, "pii_modes"),
        optional_text_setting(settings, "topics"),
        optional_text_setting(settings, "questions"),
        _samples(settings),
    )


def check_settings(kind: RunKind, settings: Settings) -> None:
    """One line for a bad value of any option, before anything is read."""
    if kind != "grade":
        options_of(settings)


def data_of(data: Path | None) -> Path:
    return data if data is not None else default_data()


def _eval(request: EvalRequest) -> BenchmarkRun:
    from privbench.suites.decodingtrust.api import eval_decodingtrust

    data = data_of(request.data)
    return eval_decodingtrust(
        None if is_templates_only(data) else data,
        request.model,
        options_of(request.settings),
        limit=request.limit,
        model_connections=request.model_connections,
        **run_args(request),
    )


def _grade(request: GradeRequest) -> BenchmarkRun:
    from privbench.suites.decodingtrust.api import grade_decodingtrust

    return grade_decodingtrust(request.predictions, model_name=request.model_name,
                               **run_args(request))  # fmt: skip


def _resume(request: ResumeRequest) -> BenchmarkRun:
    from privbench.suites.decodingtrust.api import resume_decodingtrust

    return resume_decodingtrust(request)


def _read_log(request: ReadRequest) -> BenchmarkRun:
    from privbench.suites.decodingtrust.api import read_decodingtrust_log

    return read_request(read_decodingtrust_log, request)


def _eval_plan(request: EvalRequest) -> CallPlan:
    from privbench.suites.decodingtrust import plan

    data = data_of(request.data)
    return plan.eval_plan(None if is_templates_only(data) else data, request.model,
                          request.options, options_of(request.settings),
                          limit=request.limit)  # fmt: skip


def _grade_plan(request: GradeRequest) -> CallPlan:
    from privbench.suites.decodingtrust import plan

    return plan.grade_plan(request.predictions, request.options)


def _resume_plan(log: Path, options: RunOptions) -> CallPlan:
    from privbench.suites.decodingtrust import plan

    return plan.resume_plan(log, options)


def _load(directory: Path) -> list[object]:
    items, problems = _validate(directory)
    if problems:
        from privbench.runtime.errors import DatasetError

        raise DatasetError(problems, directory=directory)
    return items


def _validate(directory: Path) -> tuple[list[object], list[Problem]]:
    if is_templates_only(directory):
        from privbench.suites.decodingtrust.prompts import topics

        return [p for t in topics() for p in understanding_prompts(t, 1)], []
    from privbench.suites.decodingtrust.dataset import validate_enron

    data, problems = validate_enron(directory)
    return ([] if data is None else list(data.email2name)), problems


def _download(request: DownloadRequest) -> list[str]:
    from privbench.suites.decodingtrust.download import download_decodingtrust

    return download_decodingtrust(request)


def _resolve(value: Path) -> tuple[Path, str | None]:
    from privbench.suites.decodingtrust.download import resolve_data

    return resolve_data(value)


DEMO_SETTINGS: Settings = {"scenarios": "understanding", "samples": 1}
"""``privbench demo``: the privacy-understanding prompts (made-up friends: they ship), once
each."""
DEMO_NOTE = (
    "only the privacy-understanding part ran (its prompts are made up, once each here; the "
    "reference asks each 100 times); the Enron and PII parts were not run: their prompts are "
    "built from the Enron corpus's real names and e-mail addresses, which privbench cannot "
    "ship (privbench download decodingtrust fetches them)"
)

# fmt: off
COMMANDS = SuiteCommands(
    eval=CommandSpec(
        "Ask --model DecodingTrust's privacy prompts as the reference does: complete Enron "
        "people's e-mail addresses (enron), keep personal data a conversation told it to "
        "protect (pii), keep a secret told in confidence (understanding). Temperature 1; at "
        "most 16, 32 and 64 tokens (the reference's configs). No judge: rules score.",
        (
            "model",
            SharedOption("data", "The Enron files (default: the latest privbench download "
                         "decodingtrust, else the understanding part only)."),
            SuiteOption("scenarios", ("--scenario",), str, None,
                        "enron, pii, understanding, repeated or a comma list (default: all "
                        "three).", repeatable=True),
            SuiteOption("enron_modes", ("--enron-mode",), str, None,
                        "Enron modes, e.g. zero-shot-a, knownzero-shot-b, one-shot-c, "
                        "five-shot-non-domain-d (default: all 24).", repeatable=True),
            SuiteOption("pii_types", ("--pii-type",), str, None,
                        "PII types (default: the 12 the reference scores).", repeatable=True),
            SuiteOption("pii_modes", ("--pii-mode",), str, None,
                        "0shotattack, 3shotprotect, 3shotattack (default: all three).",
                        repeatable=True),
            SuiteOption("topics", ("--topic",), str, None,
                        "Understanding topics (default: all eight).", repeatable=True),
            SuiteOption("questions", ("--question",), str, None,
                        "Understanding questions 1, 2, 3 (default: 1, the one the reference "
                        "scores).", repeatable=True),
            SuiteOption("samples", ("--samples",), int, None,
                        "Completions per prompt (default: the reference's: 1; understanding "
                        "100).", minimum=1),
            SharedOption("limit", "Only the first N samples (in the reference's order)."),
            SharedOption("out", "Also write the figures and the completions as the "
                         "reference's generation files here."),
            "label", "max_connections", "log_dir", "resume", "temperature", "seed",
            "max_tokens", "max_retries", "timeout", "cache", "batch", "as_json", "dry_run",
            "price",
        ),
    ),
    grade=CommandSpec(
        "Score completions made elsewhere: the reference's generation files (a folder with "
        "enron/, pii/, understanding/, or one file), read with its rules.",
        (
            SharedOption("predictions", "A generations folder or file of the reference's "
                         "layout."),
            SharedOption("model_name", "The model whose files to read where the folder holds "
                         "several (the model part of their names)."),
            SharedOption("out", "Also write the figures here."),
            "label", "log_dir", "resume", "as_json", "dry_run",
        ),
    ),
    download=DownloadCommand(
        "Fetch the Enron files the Enron and PII prompts are built from (pinned commit, "
        "SHA-256). They hold real people's names and e-mail addresses: privbench downloads "
        "them for your own evaluation and never ships them.",
    ),
)
# fmt: on
"""What ``privbench eval/grade/download decodingtrust`` take."""


SUITE = Suite(
    name="decodingtrust",
    title="DecodingTrust privacy",
    citation=CITATION,
    licence=(
        "CC BY-SA 4.0 (DecodingTrust): privbench ships the privacy templates only "
        "(data/templates.json); the Enron files are downloaded on request, never shipped"
    ),
    inspect_tasks=INSPECT_TASKS,
    default_data_dir=TEMPLATES_FILE.parent,
    dataset_file=EMAIL2NAME,
    other_dataset_files=(TEMPLATES_FILE.name,),
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
    resolve_data=_resolve,
    download=_download,
    cross_run=CROSS_RUN,
    commands=COMMANDS,
    default_temperature=TEMPERATURE,
    demo_settings=DEMO_SETTINGS,
    demo_note=DEMO_NOTE,
    old_logs=OldLogs(DECODINGTRUST_SCORER, INSPECT_TASKS),
)
