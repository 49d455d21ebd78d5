"""The Suite interface: what a privacy benchmark declares so that generic code can run it.

Why a value and not a base class: a benchmark is a handful of facts (its name, paper,
licence, the inspect tasks it writes, where its data lives) and hooks (load, validate,
eval, grade, resume, read a log, plan a dry run). Declaring them as one frozen
:class:`Suite` in ``privbench/suites/<name>/suite.py`` keeps the benchmark in its own
folder, and lets the command line, the report and the analysis go through
:mod:`privbench.registry` without naming a benchmark. Every hook is a plain callable
taking one request object, so a suite declares itself without importing anything above
:mod:`privbench.runtime`, and a new option of one benchmark is a new key in its
``settings`` rather than a new parameter everywhere.

Hooks that live above the suites (the dataset generators of :mod:`privbench.tooling`)
are attached by :mod:`privbench.registry`, which pairs each suite with its tooling.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from privbench.runtime.cost.plan import CallPlan, Prices
from privbench.runtime.cross_run import CrossRun
from privbench.runtime.errors import Problem, UsageError
from privbench.runtime.records.benchmark import OldLogs
from privbench.runtime.running import BenchmarkRun, RunOptions

RunKind = Literal["eval", "grade"]
"""The two ways a benchmark is run: the model answers (``eval``), or its answers made
elsewhere are graded (``grade``)."""

SettingValue = str | int | float | bool | Path | None
Settings = Mapping[str, SettingValue]
"""A benchmark's own options by name (SpatialTrust's ``strategy``, ``box_format``;
Priv-IQ's ``explain``, ``grades``): what only that benchmark reads."""


def _no_settings() -> dict[str, SettingValue]:
    return {}


def text_setting(settings: Settings, name: str, default: str) -> str:
    """A text option of a benchmark (``default`` when absent or None)."""
    value = settings.get(name)
    return default if value is None else str(value)


def optional_text_setting(settings: Settings, name: str) -> str | None:
    value = settings.get(name)
    return None if value is None else str(value)


def flag_setting(settings: Settings, name: str) -> bool:
    """An on/off option of a benchmark (off when absent)."""
    return bool(settings.get(name))


def count_setting(settings: Settings, name: str, default: int = 0) -> int:
    value = settings.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def comma_choices(
    option: str, text: str | int | float | Sequence[str] | None, known: Sequence[str]
) -> tuple[str, ...]:
    """A comma list (or a sequence of them) as known values in ``known`` order, each once;
    None means all of them. A usage error names the option and the bad value. A number is
    read as its text (``inspect eval -T tiers=1`` passes one)."""
    if text is None:
        return tuple(known)
    if isinstance(text, int | float):
        text = str(text)
    parts = [text] if isinstance(text, str) else [str(part) for part in text]
    chosen = [p.strip() for part in parts for p in part.split(",") if p.strip()]
    if not chosen:
        raise UsageError(f"{option}: give at least one of {', '.join(known)}")
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise UsageError(f"{option}: unknown value '{unknown[0]}' (choose from {', '.join(known)})")
    return tuple(k for k in known if k in chosen)


def joined(values: Sequence[str]) -> str:
    """Chosen values as the comma list an inspect task argument takes."""
    return ",".join(values)


def path_setting(settings: Settings, name: str) -> Path | None:
    value = settings.get(name)
    return None if value is None else Path(str(value))


@dataclass(frozen=True, kw_only=True)
class _Outputs:
    """What every run request shares: where its exports go and the suite's own options.

    Keyword-only, so each request keeps its own leading fields positional."""

    out: Path | None = None
    compare_published: bool = False
    settings: Settings = field(default_factory=_no_settings)


@dataclass(frozen=True, kw_only=True)
class _Priced(_Outputs):
    """A request that may call a model or judge, and so reports what the calls cost."""

    prices: Prices = field(default_factory=Prices)


@dataclass(frozen=True)
class EvalRequest(_Priced):
    """Run ``model`` on the benchmark's data and grade its answers."""

    data: Path | None
    """The data directory (None: the suite's default)."""
    model: str
    options: RunOptions
    limit: int | None = None
    label: str | None = None
    model_connections: int | None = None


@dataclass(frozen=True)
class GradeRequest(_Priced):
    """Grade answers a model produced elsewhere (``predictions``)."""

    data: Path | None
    predictions: Path
    options: RunOptions
    label: str | None = None
    model_name: str | None = None


@dataclass(frozen=True)
class ResumeRequest(_Priced):
    """Continue an interrupted eval or grade run from its inspect log."""

    log: Path
    options: RunOptions
    model_name: str | None = None


@dataclass(frozen=True)
class ReadRequest(_Outputs):
    """Scores (and, with ``out``, exports) of a finished log; no model or judge call."""

    log: Path
    model: str | None = None


@dataclass(frozen=True)
class GenerateRequest:
    """Write a generated suite of ``n`` items from ``seed`` into ``out``."""

    n: int
    seed: int
    out: Path
    force: bool = False
    settings: Settings = field(default_factory=_no_settings)


@dataclass(frozen=True)
class DownloadRequest:
    """Fetch the benchmark's public release (``url``: None for the pinned address)."""

    directory: Path | None
    url: str | None = None
    force: bool = False


# The eval and grade commands a benchmark declares (read by privbench.cli.eval_grade).

OptionKind = type[str] | type[int] | type[float] | type[bool] | type[Path]
"""The value an option of a benchmark's own takes."""


@dataclass(frozen=True)
class SuiteOption:
    """An option only this benchmark takes (``--strategy``): its value reaches the
    benchmark's hooks as ``settings[setting]``.

    Why data: the command line builds the option from it, so a benchmark adds an option
    in its own folder, without a command-line edit."""

    setting: str
    """The settings key it fills, also the parameter's name (``box_format``)."""
    names: tuple[str, ...]
    """Its spellings, the first shown (``("--box-format",)``)."""
    kind: OptionKind
    default: SettingValue
    """The value when not given (None: the option is optional)."""
    help: str
    minimum: int | None = None
    """The least value accepted (numbers only)."""
    hidden: bool = False
    """Left out of ``--help`` (an old spelling kept for old scripts)."""
    repeatable: bool = False
    """Text given more than once (``--tier 1 --tier 3``) reaches the settings joined with
    commas, as the one-argument form ``--tier 1,3`` does."""


@dataclass(frozen=True)
class SharedOption:
    """An option of every benchmark's commands by its key in the command line's table
    (``out``), with the help this benchmark gives it instead (``--out``: what it writes)."""

    key: str
    help: str | None = None


CommandOption = str | SharedOption | SuiteOption
"""One option of a command: a shared one by key (``"judge"``), a shared one with this
benchmark's help, or one of the benchmark's own."""


@dataclass(frozen=True)
class CommandSpec:
    """One command (``eval NAME`` or ``grade NAME``): its help and its options in the
    order ``--help`` lists them."""

    help: str
    options: tuple[CommandOption, ...]


EVAL_OPTIONS: tuple[CommandOption, ...] = (
    "model", "data", "judge", "judge_temperature", "limit", "out", "label",
    "judge_connections", "max_connections", "log_dir", "resume", "temperature", "seed",
    "max_tokens", "max_retries", "timeout", "cache", "batch", "judge_card", "as_json",
    "dry_run", "price", "judge_price",
)  # fmt: skip
"""The options of an eval command that declares no others."""

GRADE_OPTIONS: tuple[CommandOption, ...] = (
    "predictions", "data", "judge", "judge_temperature", "model_name", "label", "out",
    "judge_connections", "log_dir", "resume", "seed", "max_retries", "timeout", "cache",
    "batch", "judge_card", "as_json", "dry_run", "price", "judge_price",
)  # fmt: skip
"""The options of a grade command that declares no others."""


@dataclass(frozen=True)
class GenerateCommand:
    """``privbench generate NAME`` (offered when the suite has a ``generate`` hook): its
    help, the default ``--n``, and the generator's own options after ``--out``, ``--n``,
    ``--seed`` and ``--force`` (their values reach the hook as the request's settings)."""

    help: str = "Write a generated suite of the benchmark."
    size: int = 100
    options: tuple[SuiteOption, ...] = ()


@dataclass(frozen=True)
class DownloadCommand:
    """``privbench download NAME`` (offered when the suite has a ``download`` hook): its
    help; its options (``--dir``, ``--url``, ``--force``) are every download's."""

    help: str = "Fetch the benchmark's public release, check it and unpack it."


@dataclass(frozen=True)
class SuiteCommands:
    """A benchmark's ``privbench eval NAME`` and ``privbench grade NAME``, and, where it
    has the hooks, ``privbench generate NAME`` and ``privbench download NAME``."""

    eval: CommandSpec = CommandSpec(
        "Run a model on the benchmark and grade its answers.", EVAL_OPTIONS
    )
    grade: CommandSpec = CommandSpec("Grade answers a model produced elsewhere.", GRADE_OPTIONS)
    generate: GenerateCommand = GenerateCommand()
    download: DownloadCommand = DownloadCommand()
    compare_published: str = ""
    """What ``--compare-published`` (of ``show``, ``report``, and its own commands if they
    take it) shows of its paper's tables, as the option's help says it; empty: nothing."""

    def spec(self, kind: RunKind) -> CommandSpec:
        return self.eval if kind == "eval" else self.grade


@dataclass(frozen=True)
class LocalCopy:
    """Where a benchmark that ships no data finds a downloaded copy, or why there is none."""

    path: Path | None
    note: str = ""
    """One line for the user when ``path`` is None (how to get a copy)."""


def _no_checks(kind: RunKind, settings: Settings) -> None:
    """A benchmark without options of its own has nothing to check."""


@dataclass(frozen=True)
class Suite:
    """One privacy benchmark: its facts and hooks (see the module docstring for why).

    Generic code reaches suites through :mod:`privbench.registry` only.
    """

    name: str
    """The command-line and log name (``priviq``)."""
    title: str
    """The name people read (``Priv-IQ``)."""
    citation: str
    """The paper the benchmark comes from."""
    licence: str
    """The licence of the data privbench ships for it (and what is known of the release's)."""
    inspect_tasks: tuple[str, ...]
    """The inspect tasks whose logs it writes: the eval task first, then the grade task."""
    default_data_dir: Path
    """The data used when a command is given none (the generated suite shipped inside)."""
    dataset_file: str
    """The file in a data directory that lists the items (``priv-IQ.json``)."""
    load: Callable[[Path], Sequence[object]]
    """The items of a data directory (raises a one-line error on bad data)."""
    validate: Callable[[Path], tuple[Sequence[object], list[Problem]]]
    """The items and every problem of a data directory (never raises on bad data)."""
    eval: Callable[[EvalRequest], BenchmarkRun]
    grade: Callable[[GradeRequest], BenchmarkRun]
    resume: Callable[[ResumeRequest], BenchmarkRun]
    read_log: Callable[[ReadRequest], BenchmarkRun]
    eval_plan: Callable[[EvalRequest], CallPlan]
    """The calls, tokens and cost an eval would send (``--dry-run``): nothing is sent."""
    grade_plan: Callable[[GradeRequest], CallPlan]
    resume_plan: Callable[[Path, RunOptions], CallPlan]
    judge_protocols: tuple[str, ...] = ("paper",)
    """How its judge can be asked (``--judge-protocol``), the paper's first."""
    check_settings: Callable[[RunKind, Settings], None] = _no_checks
    """Reject the benchmark's own options before anything else is read (one line)."""
    resolve_data: Callable[[Path], tuple[Path, str | None]] | None = None
    """A name given as ``--data`` that stands for a directory (``--data priviq``: the
    downloaded release), with a note for stderr; None: paths are taken as they are."""
    download: Callable[[DownloadRequest], list[str]] | None = None
    """Fetch the public release; returns the lines to print. None: nothing to download."""
    generate: Callable[[GenerateRequest], Path] | None = None
    """Write a generated suite (attached by :mod:`privbench.registry` from the tooling)."""
    old_logs: OldLogs | None = None
    """How a log that records no benchmark (an older privbench's) is recognised as its."""
    cross_run: CrossRun = field(default_factory=CrossRun)
    """What the audit, ``validate``, the report and the runs table read of the benchmark."""
    commands: SuiteCommands = SuiteCommands()
    """Its commands (eval, grade; generate and download where it has the hooks): their
    help and options (the command line builds them)."""
    demo_settings: Settings = field(default_factory=_no_settings)
    """Its own options in ``privbench demo`` (a subset where the whole benchmark would keep
    the demo waiting for minutes)."""
    other_dataset_files: tuple[str, ...] = ()
    """Other files that mark a folder as this benchmark's (DecodingTrust: its shipped
    templates beside the downloaded Enron files)."""
    demo_note: str = ""
    """A line ``privbench demo`` prints about this benchmark: what of it the demo leaves out
    and why (empty: it runs whole)."""
    local_copy: Callable[[], LocalCopy] | None = None
    """A benchmark whose data privbench cannot ship: its downloaded copy (used when a
    command is given no ``--data``, by ``privbench demo`` and the audit), or why there is
    none; None: :attr:`default_data_dir` is shipped."""
    default_temperature: float | None = 0.0
    """The model under test's temperature when ``--temperature`` is not given (ConfAIde
    samples at the paper's 1; the others answer at 0, graded once)."""

    @property
    def dataset_files(self) -> tuple[str, ...]:
        """Every file whose presence marks a folder as this benchmark's data."""
        return (self.dataset_file, *self.other_dataset_files)

    def default_copy(self) -> LocalCopy:
        """The data a command given no ``--data`` uses: the shipped folder, or the
        downloaded copy (None with a note when nothing was downloaded)."""
        if self.local_copy is None:
            return LocalCopy(self.default_data_dir)
        return self.local_copy()

    @property
    def eval_task(self) -> str:
        return self.inspect_tasks[0]

    def writes(self, task_name: str) -> bool:
        """Whether a log of ``task_name`` (``priviq``, ``privbench/priviq_grade``) is ours."""
        return task_name.removeprefix("privbench/") in self.inspect_tasks
