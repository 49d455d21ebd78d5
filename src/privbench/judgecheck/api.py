"""``privbench judge check`` as a Python API: grade reference answers, probe, write the card.

What one check does, in order (each step an inspect run through the run machinery of
``eval``/``grade``: reachability check, retries, connections, cache, log, Ctrl-C; each
step's progress lines name it, and ``--resume`` reuses a step's complete log and continues
an interrupted one):

1. The reference-graded answers of the benchmark whose judge grades against a reference
   (Priv-IQ) (``--against`` files, else the shipped
   calibration set; ``--limit N``: a sample of N spread over grade strata and
   competencies, :mod:`privbench.analysis.strata`) are graded by the judge under the run's
   protocol, ``judge_runs`` times each; agreement with the reference grades is measured
   overall and per competency, with bootstrap intervals (:mod:`.statistics`), and, with
   two runs or more, the judge's test–retest stability.
2. The sanity probe (:mod:`.sanity`): reference answers graded against themselves; a
   judge that does not give them the top grade is a warning on every output.
3. Bias probes (:mod:`.probes`) on the shipped suite or ``--data``: the same wrong answer
   padded, steered, as a refusal; the same right answer as a list and as prose — under
   each of that benchmark's protocols.
4. The verdicts of the benchmark whose judge gives structured verdicts (SpatialTrust
   q4/q5) against its shipped verdict sets.

Each benchmark's part comes through :mod:`privbench.registry`
(:class:`~privbench.runtime.cross_run.JudgeCheck`, :mod:`.benchmarks`).

The result is written as judge cards (one per benchmark) to privbench's cache directory,
where ``eval`` and ``grade`` find them by judge, protocol and prompt hash.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import sys
from collections.abc import Sequence
from contextlib import redirect_stdout
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspect_ai import Task
from inspect_ai.log import EvalLog, read_eval_log_sample_summaries
from rich.console import RenderableType
from rich.table import Table

from privbench.analysis.strata import spread_draw, stratum_of
from privbench.formatting import printable_id
from privbench.judgecheck.benchmarks import graded_benchmark, verdict_benchmark
from privbench.judgecheck.probes import ProbeCase, ProbeResult, probe_cases, summarise_probes
from privbench.judgecheck.references import (
    ReferenceSet,
    read_reference_grades,
    shipped_calibration_set,
)
from privbench.judgecheck.sanity import SanityResult, sanity_cases, summarise_sanity
from privbench.judgecheck.statistics import (
    AgreementFigures,
    Disagreement,
    Figure,
    Retest,
    agreement_figures,
    largest_disagreements,
    retest,
)
from privbench.judges.cards import (
    GradeFigures,
    JudgeCard,
    ProbeFigures,
    SanityFigures,
    VerdictFigures,
    card_file,
    card_path,
    write_card,
)
from privbench.runtime import progress
from privbench.runtime.cost.plan import CallPlan
from privbench.runtime.cross_run import (
    AnswerGrades,
    CheckCase,
    GradedAnswersCheck,
    VerdictOutcome,
    VerdictSetCheck,
)
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.judge_choice import JudgeChoice
from privbench.runtime.records.benchmark import Benchmark
from privbench.runtime.running import (
    NO_MODEL,
    RunOptions,
    read_log_header,
    run_task,
)
from privbench.runtime.suite import Suite

ALL = "all"
"""The key of the figures over every item in ``by_competency``-style tables."""


class CheckInterrupted(PrivbenchError):
    """Ctrl-C during a check: what completed is in the log; ``--resume`` sends only the rest."""

    exit_code = 130


@dataclass(frozen=True)
class CheckRequest:
    """What to check and how (the judge itself and its settings are in ``RunOptions``)."""

    against: Sequence[Path] = ()
    """Reference grade files; empty: the shipped calibration set."""
    verdicts: Sequence[Path] | None = None
    """SpatialTrust verdict sets; None: the shipped ones; empty: no verdict check."""
    probes: bool = True
    probe_data: Path | None = None
    """Priv-IQ data the probes are built from (default: the shipped suite)."""
    probe_items: int = 20
    limit: int | None = None
    """Grade a sample of this many reference answers, spread over grade strata and
    competencies (None: all of them)."""
    resume: bool = False
    """Reuse each step's complete log in the log folder and continue an interrupted one."""
    seed: int = 0
    """Seeds the bootstrap and the probes' choice of items."""
    card_dir: Path | None = None
    """Also write the cards into this folder (``--card-dir``), as ``priviq.json`` and
    ``spatialtrust.json``: how the offline judge's shipped cards are made."""


@dataclass(frozen=True)
class GradeCheck:
    """Agreement of the judge's grades with one reference set."""

    reference: ReferenceSet
    figures: AgreementFigures
    by_competency: dict[str, AgreementFigures]
    unscored: list[str]
    disagreements: list[Disagreement]
    retest: Retest | None
    reported_models: list[str]


@dataclass
class CheckResult:
    """Everything one check measured, and where its logs and cards are."""

    judge: str
    protocol: str
    prompt_hash: str
    judge_runs: int
    grades: GradeCheck
    judge_temperature: float | None = None
    """The judge's sampling temperature (None: the offline judge has none)."""
    sanity: SanityResult | None = None
    probes: list[ProbeResult] = field(default_factory=list)
    verdicts: VerdictOutcome | None = None
    logs: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """What makes the check's figures doubtful: shown on every output and the card."""
        warning = self.sanity.warning() if self.sanity is not None else None
        return [warning] if warning else []

    def json(self) -> dict[str, object]:
        """The one ``--json`` document: the figures over all items at the top level."""
        grades = self.grades
        figures = grades.figures.as_json()
        return {
            "warnings": self.warnings,
            "judge": self.judge,
            "protocol": self.protocol,
            "prompt_hash": self.prompt_hash,
            "judge_runs": self.judge_runs,
            "judge_temperature": self.judge_temperature,
            "reported_models": grades.reported_models,
            "reference_set": grades.reference.name,
            "set_hash": grades.reference.hash,
            "left_out": dict(grades.reference.left_out),
            **{
                key: figures[key]
                for key in ("n", "spearman", "icc", "mae", "within_0_1", "kappa_quadratic", "bias")
            },
            "limits_of_agreement": [figures["loa_low"], figures["loa_high"]],
            "ci": grades.figures.ci(),
            "unscored": len(grades.unscored),
            "unscored_items": grades.unscored,
            "by_competency": {
                code: {**f.as_json(), "ci": f.ci()} for code, f in grades.by_competency.items()
            },
            "disagreements": [d.as_json() for d in grades.disagreements],
            "retest": grades.retest.as_json() if grades.retest else None,
            "sanity": self.sanity.as_json() if self.sanity else None,
            "probes": [p.as_json() for p in self.probes],
            "verdicts": self.verdicts.as_json() if self.verdicts else None,
            "logs": self.logs,
            "cards": self.cards,
        }

    def terminal(self) -> list[RenderableType]:
        """Tables and lines for the terminal, in the order of the check."""
        grades = self.grades
        left = ", ".join(f"{part} ({n})" for part, n in grades.reference.left_out.items())
        reported = ", ".join(printable_id(m) for m in grades.reported_models) or "no reply"
        temperature = (
            "" if self.judge_temperature is None else f", temperature {self.judge_temperature:g}"
        )
        parts: list[RenderableType] = [f"WARNING: {warning}" for warning in self.warnings]
        parts += [
            f"judge {printable_id(self.judge)} ({reported}), protocol {self.protocol}, "
            f"prompt {self.prompt_hash}, {self.judge_runs} judge run(s){temperature}; "
            f"reference grades: {printable_id(grades.reference.name)} "
            f"(sha256 {grades.reference.hash}, n = {grades.figures.n})"
            + (f"; left out, the judge was tuned on them: {left}" if left else ""),
            _agreement_table(grades),
            _competency_table(grades),
        ]
        if grades.unscored:
            listed = ", ".join(printable_id(i) for i in grades.unscored[:10])
            parts.append(
                f"unscored: {len(grades.unscored)} item(s) whose judge replies never gave a "
                f"grade (left out of the figures): {listed}"
            )
        parts.append(_disagreement_table(grades.disagreements))
        if grades.retest is not None:
            parts.append(_retest_line(grades.retest))
        if self.sanity is not None:
            parts.append(_sanity_line(self.sanity))
        if self.probes:
            parts.append(_probe_table(self.probes))
        if self.verdicts is not None:
            parts.append(self.verdicts.table())
        parts.extend(f"judge card: {card}" for card in self.cards)
        parts += [f"WARNING: {warning}" for warning in self.warnings]
        return parts


def _sanity_line(result: SanityResult) -> str:
    mean = _number(result.mean)
    verdict = "passed" if result.passed else "FAILED"
    unscored = f", {result.unscored} unscored" if result.unscored else ""
    return (
        f"sanity probe ({verdict}): reference answers graded against themselves under "
        f"protocol {result.protocol}: mean {mean} (n = {result.n}, lowest "
        f"{_number(result.lowest)}{unscored}; 1.00 is right)"
    )


def _number(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _interval(figure: Figure, digits: int = 2, scale: float = 1.0) -> str:
    """ "low–high" of a figure's interval (n/a where undefined)."""
    if math.isnan(figure.low) or math.isnan(figure.high):
        return "n/a"
    low, high = f"{scale * figure.low:.{digits}f}", f"{scale * figure.high:.{digits}f}"
    return f"{low} to {high}" if figure.low < 0 else f"{low}–{high}"


_STATISTICS: tuple[tuple[str, str, int, float], ...] = (
    ("spearman", "Spearman ρ", 2, 1.0),
    ("icc", "ICC(2,1), absolute agreement", 2, 1.0),
    ("mae", "MAE", 3, 1.0),
    ("within_0_1", "within ±0.1 (%)", 1, 100.0),
    ("kappa_quadratic", "κ, quadratic weights, 11 levels", 2, 1.0),
    ("bias", "bias, judge − reference", 3, 1.0),
    ("loa_low", "95 % limits of agreement, low", 2, 1.0),
    ("loa_high", "95 % limits of agreement, high", 2, 1.0),
)
"""The figures of a check, as the tables name them: key, label, digits, scale."""


def _figure(figures: AgreementFigures, key: str) -> Figure:
    figure = getattr(figures, key)
    assert isinstance(figure, Figure)
    return figure


def _agreement_table(grades: GradeCheck) -> Table:
    """All items: each figure with its 95 % bootstrap interval."""
    table = Table(title=f"Judge vs reference grades, all items (n = {grades.figures.n})")
    table.add_column("figure")
    table.add_column("estimate", justify="right")
    table.add_column("95 % bootstrap interval", justify="right")
    for key, label, digits, scale in _STATISTICS:
        figure = _figure(grades.figures, key)
        table.add_row(label, _number(scale * figure.estimate, digits),
                      _interval(figure, digits, scale))  # fmt: skip
    return table


def _competency_table(grades: GradeCheck) -> Table:
    """Per competency: each figure over its 95 % interval (an item counts toward every
    competency it requires)."""
    table = Table(title="Per competency: estimate, and its 95 % interval below")
    table.add_column("competency", overflow="fold")
    table.add_column("n", justify="right")
    for key, label, _, _ in _STATISTICS[:6]:
        short = {"icc": "ICC", "kappa_quadratic": "κ quad.", "within_0_1": "±0.1 %",
                 "bias": "bias"}.get(key, label)  # fmt: skip
        table.add_column(short, justify="right", overflow="fold")
    for code, figures in grades.by_competency.items():
        cells = []
        for key, _, digits, scale in _STATISTICS[:6]:
            figure = _figure(figures, key)
            cells.append(f"{_number(scale * figure.estimate, digits)}\n"
                         f"{_interval(figure, digits, scale)}")  # fmt: skip
        table.add_row(code, str(figures.n), *cells)
    return table


def _disagreement_table(disagreements: Sequence[Disagreement]) -> Table:
    table = Table(title="Largest disagreements")
    for column in ("question id", "reference grade", "judge grade", "judge − reference"):
        table.add_column(column, justify="left" if column == "question id" else "right")
    for d in disagreements:
        table.add_row(
            printable_id(d.id), f"{d.reference:.2f}", f"{d.judged:.2f}", f"{d.difference:+.2f}"
        )
    return table


def _retest_line(result: Retest) -> str:
    icc = "n/a" if math.isnan(result.icc) else f"{result.icc:.3f}"
    return (
        f"test–retest over {result.runs} judge runs: {100 * result.changed_share:.1f} % of "
        f"{result.items} items changed grade, mean |Δ| {result.mean_abs_change:.3f}, "
        f"ICC across runs {icc}"
        + (f" ({result.left_out} items with an unscored run left out)" if result.left_out else "")
    )


def _probe_table(results: Sequence[ProbeResult]) -> Table:
    table = Table(title="Bias probes: mean grade of base and variant answers, and the change")
    for column in ("probe", "protocol", "n", "base", "variant", "change", "95 % interval",
                   "unscored"):  # fmt: skip
        left = column in ("probe", "protocol")
        table.add_column(column, justify="left" if left else "right", overflow="fold")
    for p in results:
        name = (
            p.probe
            if p.variant in (p.probe, "padded", "list", "refusal")
            else (f"{p.probe}: {p.variant}")
        )
        table.add_row(
            name,
            p.protocol,
            str(p.n),
            _number(p.mean_base),
            _number(p.mean_variant),
            f"{p.mean_change:+.2f}" if not math.isnan(p.mean_change) else "n/a",
            "n/a" if math.isnan(p.change_low) else f"{p.change_low:+.2f} to {p.change_high:+.2f}",
            str(p.unscored),
        )
    return table


def _cases(reference: ReferenceSet) -> list[CheckCase]:
    return [
        CheckCase(item.id, item.question, item.reference, item.prediction, item.competencies)
        for item in reference.items
    ]


def _check_case(probe: ProbeCase) -> CheckCase:
    """A probe answer as the judge grades it (no competencies: a probe's figures are not
    split by them)."""
    return CheckCase(probe.id, probe.question, probe.reference, probe.prediction)


def _verdict_hooks() -> tuple[Suite, VerdictSetCheck]:
    """The benchmark whose verdicts are checked (only asked once verdict sets were found)."""
    verdicts = verdict_benchmark()
    if verdicts is None:
        raise UsageError("no registered benchmark has judge verdicts to check")
    return verdicts


def phase_tag(task: Task, options: RunOptions) -> str:
    """The tag a step's log carries: a hash of everything that decides its grades (the
    answers, the judge, protocol, runs and temperature), so ``--resume`` finds exactly the
    log of the same step, and a changed setting is a step not yet run."""
    samples = [
        [str(s.id), str(s.input), str(s.target), json.dumps(s.metadata, sort_keys=True,
                                                            default=str)]
        for s in task.dataset
    ]  # fmt: skip
    identity = [task.name, options.judge.name, options.protocol, options.judge_runs,
                options.generation.judge_temperature, samples]  # fmt: skip
    digest = hashlib.sha256(json.dumps(identity, default=str).encode("utf-8")).hexdigest()
    return f"judge-check-{digest[:20]}"


def _tagged_logs(log_dir: str, tag: str) -> list[EvalLog]:
    """The headers of the logs in ``log_dir`` tagged ``tag``, oldest first."""
    folder = Path(log_dir)
    if not folder.is_dir():
        return []
    paths = [*folder.glob("*.eval"), *folder.glob("*.json")]
    found: list[EvalLog] = []
    for path in sorted(paths, key=lambda p: p.stat().st_mtime):
        try:
            header, _ = read_log_header(path)
        except (UsageError, OSError):
            continue
        if tag in (header.eval.tags or []):
            found.append(header)
    return found


def _complete(header: EvalLog) -> bool:
    """Whether a log ran to the end with every sample graded without error."""
    if header.status != "success":
        return False
    try:
        summaries = read_eval_log_sample_summaries(str(header.location))
    except Exception:  # a log inspect cannot read in full is not reused
        return False
    return not any(s.error is not None and not s.scores for s in summaries)


def run_step(task: Task, label: str, options: RunOptions, *, resume: bool,
             needs_judge: bool = True, tag: str | None = None) -> EvalLog:  # fmt: skip
    """Run one step of the check, its progress lines labelled and its log tagged (``tag``,
    default :func:`phase_tag`); with ``resume``, a complete log of the step is reused and
    nothing is sent. Ctrl-C or a failed run stops the check with one line."""
    tag = tag or phase_tag(task, options)
    if resume:
        complete = [log for log in _tagged_logs(options.log_dir, tag) if _complete(log)]
        if complete:
            print(f"resume: {label}: complete in {complete[-1].location}, nothing sent",
                  file=sys.stderr)  # fmt: skip
            return complete[-1]
    tagged = replace(options, eval_args={**options.eval_args, "tags": [tag]})
    with progress.labelled(f"judge check: {label}"):
        log = run_task(task, NO_MODEL, tagged, needs_judge, 2 * options.judge_connections,
                       )  # fmt: skip
    if log.status == "cancelled":
        raise CheckInterrupted(
            f"interrupted: partial log {log.location} ({label}); rerun the same command with "
            "--resume to send only what is missing"
        )
    if log.status != "success":
        message = log.error.message.strip().splitlines()[-1] if log.error else log.status
        raise PrivbenchError(
            f"judge check stopped ({label}, {log.status}): {message[:300]}; log {log.location}"
            " (--resume sends what is missing)"
        )
    return log


def _graded_before(hooks: GradedAnswersCheck, log_dir: str, tag: str, judge_runs: int,
                   ) -> tuple[dict[str, AnswerGrades], list[str], list[str]]:  # fmt: skip
    """What earlier logs of a step hold: every answer graded all ``judge_runs`` times (a
    newer log's grade wins), the models the judge reported, and the logs."""
    kept: dict[str, AnswerGrades] = {}
    reported: list[str] = []
    logs: list[str] = []
    for header in _tagged_logs(log_dir, tag):
        try:
            grades, models = hooks.read_grades(header)
        except Exception:  # a log too damaged to read: its answers are sent again
            continue
        logs.append(str(header.location))
        reported += models
        kept.update({g.id: g for g in grades if len(g.runs) == judge_runs})
    return kept, reported, logs


def _run(cases: Sequence[CheckCase], name: str, label: str, protocol: str,
         options: RunOptions, judge_runs: int, resume: bool,
         ) -> tuple[list[str], list[AnswerGrades], list[str]]:  # fmt: skip
    """Grade ``cases`` in one inspect run: the logs, the grades (in case order) and the
    models the judge reported. With ``resume``, answers graded in earlier logs of this step
    (the same answers, judge and settings) are kept and only the others are sent."""
    settings = replace(options, protocol=protocol, judge_runs=judge_runs)
    hooks = graded_benchmark()[1]

    def task_of(chosen: Sequence[CheckCase]) -> Task:
        with redirect_stdout(sys.stderr):  # inspect's hook banner, printed as a model is made
            return hooks.task(
                chosen,
                name=name,
                judge=options.task_judge,
                protocol=protocol,
                judge_runs=judge_runs,
                cache=options.generation.cache,
            )

    tag = phase_tag(task_of(cases), settings)
    kept: dict[str, AnswerGrades] = {}
    reported: list[str] = []
    logs: list[str] = []
    if resume:
        kept, reported, logs = _graded_before(hooks, options.log_dir, tag, judge_runs)
    remaining = [case for case in cases if case.id not in kept]
    if remaining:
        if kept:
            print(f"resume: {label}: {len(kept)} answer(s) graded in earlier logs are kept; "
                  f"{len(remaining)} will be sent", file=sys.stderr)  # fmt: skip
        log = run_step(task_of(remaining), label, settings, resume=False, tag=tag)
        grades, models = hooks.read_grades(log)
        kept.update({g.id: g for g in grades})
        reported += models
        logs.append(str(log.location))
    else:
        print(f"resume: {label}: every answer is graded in earlier logs, nothing sent",
              file=sys.stderr)  # fmt: skip
    grades = [kept[case.id] for case in cases if case.id in kept]
    return logs, grades, list(dict.fromkeys(reported))


def _grade_check(
    reference: ReferenceSet, grades: Sequence[AnswerGrades], reported: list[str], seed: int
) -> GradeCheck:
    by_id = {item.id: item for item in reference.items}
    scored = [(item, mean) for g in grades
              if (mean := g.mean) is not None and (item := by_id.get(g.id)) is not None]  # fmt: skip
    unscored = [g.id for g in grades if g.mean is None]
    ref, judged = [item.score for item, _ in scored], [mean for _, mean in scored]
    by_competency = {}
    for code in graded_benchmark()[1].competencies.codes:
        pairs = [(item.score, mean) for item, mean in scored if code in item.competencies]
        if pairs:
            by_competency[code] = agreement_figures(
                [p[0] for p in pairs], [p[1] for p in pairs], seed=seed
            )
    return GradeCheck(
        reference=reference,
        figures=agreement_figures(ref, judged, seed=seed),
        by_competency=by_competency,
        unscored=unscored,
        disagreements=largest_disagreements([item.id for item, _ in scored], ref, judged),
        retest=retest([g.runs for g in grades]),
        reported_models=reported,
    )


def _probe_protocols(judge: JudgeChoice, protocol: str) -> tuple[str, ...]:
    """The offline judge has one protocol (its rules); an LLM judge is probed under each."""
    return judge.protocols(protocol, graded_benchmark()[0].judge_protocols)


def _probe_cases(request: CheckRequest) -> list[ProbeCase]:
    items = graded_benchmark()[1].probe_items(request.probe_data)
    return probe_cases(
        [(item.id, item.question, item.answer) for item in items],
        n_items=request.probe_items,
        seed=request.seed,
        competencies={item.id: item.competencies for item in items},
    )


def _probes(request: CheckRequest, options: RunOptions) -> tuple[list[ProbeResult], list[str]]:
    cases = _probe_cases(request)
    check_cases = [_check_case(c) for c in cases]
    results: list[ProbeResult] = []
    logs: list[str] = []
    for protocol in _probe_protocols(options.judge, options.protocol):
        step_logs, grades, _ = _run(check_cases, "judge_check_probes",
                                    f"bias probes, {protocol}", protocol, options, 1,
                                    request.resume)  # fmt: skip
        logs += step_logs
        by_case = {g.id: g.mean for g in grades}
        name, _ = graded_benchmark()[1].identity(protocol, options.judge)
        results += summarise_probes(cases, by_case, name, seed=request.seed)
    return results, logs


def _reference(request: CheckRequest, judge: JudgeChoice) -> ReferenceSet:
    """The reference answers to grade: the files or the shipped set, cut to ``--limit``."""
    reference = (
        read_reference_grades(list(request.against))
        if request.against
        else shipped_calibration_set(leave_out_tuned_on=judge.name)
    )
    if request.limit is None or request.limit >= len(reference.items):
        return reference
    return sample_reference(reference, request.limit, request.seed)


def sample_reference(reference: ReferenceSet, n: int, seed: int) -> ReferenceSet:
    """``n`` of the reference answers, spread over grade strata and competencies.

    Why spread: agreement figures need grades that vary; a plain random sample of a set
    rich in one grade measures little. The set keeps its hash (of all its items) and its
    name says the sample, so a card of a sample is never taken for one of the whole set.
    """
    if n < 1:
        raise UsageError(f"--limit {n}: at least 1")
    items = reference.items
    chosen = spread_draw(
        [stratum_of(item.score) for item in items], [item.competencies for item in items],
        n, seed,
    )  # fmt: skip
    return replace(
        reference,
        name=f"{reference.name}, sample of {n} of {len(items)} (seed {seed})",
        items=tuple(sorted((items[i] for i in chosen), key=lambda item: item.id)),
    )


def check_plan(request: CheckRequest, options: RunOptions) -> CallPlan:
    """The judge calls :func:`check_judge` would make with these settings (nothing is sent):
    the reference answers × runs, the sanity probe, each probe answer once per probed
    protocol, each verdict set answer once, every call re-asked up to its protocol's limit.
    Each answer is counted as the judge is shown it (cut to the judge's limit)."""
    judge = options.judge
    plan = CallPlan("judge check", None, judge.model)
    if plan.judge is None:
        plan.notes.append("offline judge: no judge call")
        return plan
    add_calls = graded_benchmark()[1].add_calls
    reference = _reference(request, judge)
    steps: list[str] = []
    probe_calls = 0

    def counted(label: str, before: int) -> None:
        steps.append(f"{label} {_calls(plan) - before:,}")

    before = _calls(plan)
    for case in _cases(reference):
        add_calls(plan, options.protocol, case, options.judge_runs)
    counted(f"reference answers ({len(reference.items)} × {options.judge_runs} run(s))", before)
    before = _calls(plan)
    for case in sanity_cases(reference.items, request.seed):
        add_calls(plan, options.protocol, case, 1)
    counted("sanity probe", before)
    if request.probes:
        before = _calls(plan)
        probes = _probe_cases(request)
        protocols = _probe_protocols(judge, options.protocol)
        for protocol in protocols:
            for probe in probes:
                add_calls(plan, protocol, _check_case(probe), 1)
        counted(f"bias probes ({len(probes)} answers × {len(protocols)} protocol(s))", before)
        probe_calls = _calls(plan) - before
    verdicts = verdict_benchmark()
    verdict_sets = _verdict_sets(request)
    before = _calls(plan)
    if verdicts is not None and verdict_sets:
        verdicts[1].add_calls(plan, verdict_sets)
        counted(f"{verdicts[0].title} verdicts", before)
    plan.notes.append("expected judge calls per step: " + "; ".join(steps))
    if probe_calls > len(reference.items) * options.judge_runs:
        cheaper = max(1, request.probe_items // 4)
        plan.notes.append(
            f"the bias probes are the largest step: --probe-items {cheaper} or --no-probes "
            "makes them cheaper"
        )
    if request.limit is None:
        plan.notes.append("--limit N grades a sample of N reference answers instead of all")
    return plan


def _calls(plan: CallPlan) -> int:
    return sum(kind.calls for kind in plan.kinds)


def _today() -> str:
    """The card's day (UTC): a card says when the judge was checked."""
    return dt.datetime.now(dt.UTC).date().isoformat()


def _verdict_sets(request: CheckRequest) -> list[Path]:
    """The verdict sets to check (``--verdicts``, else the shipped ones; none: no check)."""
    verdicts = verdict_benchmark()
    if request.verdicts is None:
        return verdicts[1].shipped_sets() if verdicts is not None else []
    if request.verdicts and verdicts is None:
        raise UsageError("--verdicts: no registered benchmark has judge verdicts to check")
    return list(request.verdicts)


def _card_benchmark(suite: Suite) -> Benchmark:
    """The benchmark a card names: the registered benchmark whose judge was checked."""
    return suite.name


def _grade_card(result: CheckResult, checked: str) -> JudgeCard:
    grades = result.grades
    figures = grades.figures.as_json()
    return JudgeCard(
        benchmark=_card_benchmark(graded_benchmark()[0]),
        judge=result.judge,
        reported_models=grades.reported_models,
        protocol=result.protocol,
        prompt_hash=result.prompt_hash,
        reference_set=grades.reference.name,
        set_hash=grades.reference.hash,
        left_out=dict(grades.reference.left_out),
        checked=checked,
        judge_runs=result.judge_runs,
        judge_temperature=result.judge_temperature,
        grades=GradeFigures.model_validate(
            {**figures, "ci": grades.figures.ci(), "unscored": len(grades.unscored)}
        ),
        sanity=SanityFigures.model_validate(result.sanity.as_json()) if result.sanity else None,
        probes=[ProbeFigures.model_validate(p.as_json()) for p in result.probes],
        warnings=result.warnings,
    )


def _verdict_card(
    judge: JudgeChoice, verdicts: VerdictOutcome, checked: str, temperature: float | None
) -> JudgeCard:
    suite, hooks = _verdict_hooks()
    protocol, prompt_hash = hooks.identity(judge)
    return JudgeCard(
        judge_temperature=temperature,
        benchmark=_card_benchmark(suite),
        judge=judge.name,
        reported_models=list(verdicts.reported_models),
        protocol=protocol,
        prompt_hash=prompt_hash,
        reference_set=verdicts.reference_set,
        set_hash=verdicts.set_hash,
        checked=checked,
        verdicts=VerdictFigures.model_validate(verdicts.card_figures()),
    )


def check_judge(request: CheckRequest, options: RunOptions) -> CheckResult:
    """Check ``options.judge`` as ``options`` would run it; write its cards."""
    judge = options.judge
    reference = _reference(request, judge)  # read (and validated) before any call
    verdict_sets = _verdict_sets(request)
    hooks = graded_benchmark()[1]
    if request.probe_data is not None:
        hooks.probe_items(request.probe_data)
    protocol, prompt_hash = hooks.identity(options.protocol, judge)
    logs, grades, reported = _run(
        _cases(reference), "judge_check", "reference answers", options.protocol, options,
        options.judge_runs, request.resume,
    )  # fmt: skip
    temperature = judge.temperature(options.generation.judge_temperature)
    result = CheckResult(
        judge.name, protocol, prompt_hash, options.judge_runs,
        _grade_check(reference, grades, reported, request.seed), judge_temperature=temperature,
        logs=logs,
    )  # fmt: skip
    sanity = sanity_cases(reference.items, request.seed)
    if sanity:
        sanity_logs, sanity_grades, _ = _run(
            sanity, "judge_check_sanity", "sanity probe", options.protocol, options, 1,
            request.resume,
        )  # fmt: skip
        result.logs += sanity_logs
        result.sanity = summarise_sanity(sanity, {g.id: g.mean for g in sanity_grades}, protocol)
    if request.probes:
        result.probes, probe_logs = _probes(request, options)
        result.logs += probe_logs
    if verdict_sets:
        suite, verdict_hooks = _verdict_hooks()

        def verdict_step(task: Task, needs_judge: bool) -> EvalLog:
            return run_step(task, f"{suite.title} verdicts", options, resume=request.resume,
                            needs_judge=needs_judge)  # fmt: skip

        with redirect_stdout(sys.stderr):  # inspect's hook banner, as the judge is made
            result.verdicts, verdict_log = verdict_hooks.check(verdict_sets, options, verdict_step)
        result.logs.append(str(verdict_log.location))
    checked = _today()
    cards = [_grade_card(result, checked)]
    if result.verdicts is not None:
        cards.append(_verdict_card(judge, result.verdicts, checked, temperature))
    for card in cards:
        paths = [card_path(card.benchmark, judge.name, card.protocol, card.prompt_hash)]
        if request.card_dir is not None:
            paths.append(request.card_dir / card_file(card.benchmark))
        result.cards += [str(write_card(card, path)) for path in paths]
    return result
