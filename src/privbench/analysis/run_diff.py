"""Two runs over the same data, compared item by item (``privbench diff``).

Why item by item: two overall scores a few points apart say nothing about whether the
models differ; the same items answered by both do. So the difference B − A is the mean of
the per-item differences over the items both runs scored, with its bootstrap interval and
a sign-flip permutation p-value (the same functions the report's comparisons use), per
competency (Priv-IQ) or per question (SpatialTrust) too, and the items whose score moved
most are listed with both answers so a reader can see *why*.

Only runs over the same data are compared: the same benchmark and the same recorded
dataset hash. Item ids alone do not say that (two suites share ids ``v1_0`` …).

An item's score, in 0–1: Priv-IQ, the mean of its judge runs' grades (unscored when no run
was scored); SpatialTrust, the mean of the image's five question scores, unscored when any
of the five is (so that the mean of the image differences is the difference of the two
runs' overall scores on those images). Per question, every image scored on that question
in both runs counts.

Everything but :func:`read_run`, :func:`answers` and :func:`diff_logs` is pure.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspect_ai.log import read_eval_log, read_eval_log_sample
from rich.table import Table

from privbench import registry
from privbench.analysis.runs import SHORT_HASH
from privbench.formatting import signed
from privbench.runtime.cross_run import DiffItem, DiffReading
from privbench.runtime.errors import PrivbenchError, UsageError
from privbench.runtime.records.benchmark import Benchmark
from privbench.runtime.records.identity import RunIdentity
from privbench.uncertainty import N_BOOTSTRAP, compare_paired, holm

TOP = 10
"""Changed items listed by default."""
ANSWER_CHARS = 60
"""Characters of an answer shown in the terminal (``--json`` has them whole)."""
UNREADABLE = "(answer not readable in the log)"


def _reading(benchmark: str) -> DiffReading:
    reading = registry.get(benchmark).cross_run.diff
    if reading is None:
        raise UsageError(f"{registry.get(benchmark).title} runs are not compared item by item")
    return reading


def _title(benchmark: str) -> str:
    return registry.get(benchmark).title


def _has_strategies(benchmark: str) -> bool:
    return bool(registry.get(benchmark).cross_run.strategies)


def _unit(benchmark: str) -> str:
    table = registry.get(benchmark).cross_run.score_columns
    return "items" if table is None else table.unit


@dataclass(frozen=True)
class DiffSide:
    """One of the two runs: where its log is, what identifies it, its items in data order."""

    path: Path
    identity: RunIdentity
    items: dict[str, DiffItem]
    judge: str
    complete: bool
    sample_ids: dict[str, int | str] = field(default_factory=dict)
    """Item id as the readers spell it → the id as the log stores it (to read a sample)."""

    @property
    def benchmark(self) -> Benchmark:
        return self.identity.benchmark or "priviq"

    @property
    def status(self) -> str:
        """``complete`` or ``partial``, as ``show --json`` says it."""
        return "complete" if self.complete and self.identity.status == "success" else "partial"


@dataclass(frozen=True)
class PairedFigure:
    """B − A in percentage points over the items both runs scored, with its 95 % interval."""

    name: str
    n: int
    difference: float | None
    low: float | None
    high: float | None
    p: float | None
    p_holm: float | None = None
    """Per competency / question: ``p`` Holm-adjusted over the groups tested (the overall
    figure is one test and has none)."""

    def record(self) -> dict[str, float | int | None]:
        record: dict[str, float | int | None] = {
            "n": self.n,
            "difference": self.difference,
            "low": self.low,
            "high": self.high,
            "p": self.p,
        }
        if self.name != "overall":
            record["p_holm"] = self.p_holm
        return record


@dataclass(frozen=True)
class ChangedItem:
    """An item whose score moved: by how much (points, B − A) and both sides of it."""

    id: str
    difference: float
    a: DiffItem
    b: DiffItem


@dataclass(frozen=True)
class Pairing:
    """How the two runs' items line up."""

    paired: list[str]
    """In both and scored in both (A's order)."""
    only_a: list[str]
    only_b: list[str]
    unscored_a: list[str]
    """In both runs, not scored in A."""
    unscored_b: list[str]


@dataclass
class RunDiff:
    """Everything ``privbench diff`` prints."""

    a: DiffSide
    b: DiffSide
    pairing: Pairing
    overall: PairedFigure
    groups: list[PairedFigure]
    top: list[ChangedItem]
    changed: int
    """Paired items whose score differs at all."""
    answers: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    """Top item id → (A's answer, B's answer), whole; None where the log's sample could
    not be read."""
    seed: int = 0
    n_boot: int = N_BOOTSTRAP

    @property
    def benchmark(self) -> Benchmark:
        return self.a.benchmark

    @property
    def group_kind(self) -> str:
        return _reading(self.benchmark).group_kind

    def notes(self) -> list[str]:
        """What a reader must know to read the difference: what differs between the runs."""
        a, b = self.a.identity, self.b.identity
        notes: list[str] = []
        if _has_strategies(self.benchmark) and a.strategy_name != b.strategy_name:
            notes.append(
                f"strategy ablation: A ran {a.strategy_name}, B ran {b.strategy_name}"
                + (" (same model)" if a.model == b.model else f" ({a.model} vs {b.model})")
            )
        if self.a.judge != self.b.judge:
            notes.append(
                f"different judges (A {self.a.judge or 'none'}, B {self.b.judge or 'none'}): the"
                " difference mixes the models' answers with the judges' grading"
            )
        if a.judge_protocol != b.judge_protocol:
            notes.append(f"different judge protocols (A {a.judge_protocol}, B {b.judge_protocol})")
        for name, side in (("A", self.a), ("B", self.b)):
            if side.status != "complete":
                notes.append(f"{name} is partial (items failed or missing): {side.path.name}")
        return notes


def paired_figure(
    name: str,
    a: Mapping[str, float | None],
    b: Mapping[str, float | None],
    seed: int,
    n_boot: int = N_BOOTSTRAP,
) -> PairedFigure:
    """B − A (points) over the items (id → 0–1 score) both scored: the report's function."""
    pair = compare_paired(a, b, seed, n_boot)
    return PairedFigure(name, pair.n, pair.difference, pair.low, pair.high, pair.p)


def pair_items(a: Mapping[str, DiffItem], b: Mapping[str, DiffItem]) -> Pairing:
    """Which items both runs scored, which only one has, which one left unscored."""
    both = [i for i in a if i in b]
    return Pairing(
        paired=[i for i in both if a[i].score is not None and b[i].score is not None],
        only_a=[i for i in a if i not in b],
        only_b=[i for i in b if i not in a],
        unscored_a=[i for i in both if a[i].score is None],
        unscored_b=[i for i in both if b[i].score is None],
    )


def group_names(benchmark: Benchmark) -> list[tuple[str, str]]:
    """(key in :attr:`DiffItem.parts`, display name) of the per-group differences."""
    return list(_reading(benchmark).groups)


def group_figures(
    benchmark: Benchmark,
    a: Mapping[str, DiffItem],
    b: Mapping[str, DiffItem],
    seed: int,
    n_boot: int = N_BOOTSTRAP,
) -> list[PairedFigure]:
    """One paired difference per competency / question, over the items scored on it in
    both, its p-value Holm-adjusted over the groups that could be tested."""
    figures = []
    for key, _name in group_names(benchmark):
        left = {i: item.parts.get(key) for i, item in a.items() if key in item.parts}
        right = {i: item.parts.get(key) for i, item in b.items() if key in item.parts}
        figures.append(paired_figure(key, left, right, seed, n_boot))
    tested = [index for index, figure in enumerate(figures) if figure.p is not None]
    adjusted = holm([p for f in figures if (p := f.p) is not None])
    for index, p_holm in zip(tested, adjusted, strict=True):
        figures[index] = replace(figures[index], p_holm=p_holm)
    return figures


def top_changed(
    a: Mapping[str, DiffItem], b: Mapping[str, DiffItem], paired: Sequence[str], top: int
) -> list[ChangedItem]:
    """The ``top`` paired items whose score changed most (|B − A|), ties in A's order;
    items whose score did not change are never listed."""
    changes = []
    for position, item_id in enumerate(paired):
        x, y = a[item_id].score, b[item_id].score
        if x is None or y is None or x == y:
            continue
        changes.append(
            (-abs(y - x), position, ChangedItem(item_id, 100 * (y - x), a[item_id], b[item_id]))
        )
    changes.sort(key=lambda change: (change[0], change[1]))
    return [change for _, _, change in changes[:top]]


def compare(
    a: DiffSide, b: DiffSide, *, top: int = TOP, seed: int = 0, n_boot: int = N_BOOTSTRAP
) -> RunDiff:
    """The paired comparison of two runs already known to share their data."""
    pairing = pair_items(a.items, b.items)
    left = [score for i in pairing.paired if (score := a.items[i].score) is not None]
    right = [score for i in pairing.paired if (score := b.items[i].score) is not None]
    overall = paired_figure(
        "overall",
        {i: a.items[i].score for i in pairing.paired},
        {i: b.items[i].score for i in pairing.paired},
        seed,
        n_boot,
    )
    groups = group_figures(a.benchmark, a.items, b.items, seed, n_boot)
    changed = sum(1 for x, y in zip(left, right, strict=True) if x != y)
    return RunDiff(
        a,
        b,
        pairing,
        overall,
        groups,
        top_changed(a.items, b.items, pairing.paired, top),
        changed,
        seed=seed,
        n_boot=n_boot,
    )


def short_hash(identity: RunIdentity) -> str:
    return identity.dataset_hash[:SHORT_HASH] if identity.dataset_hash else "none recorded"


def check_same_data(a: DiffSide, b: DiffSide) -> None:
    """Refuse two runs that are not over the same data (benchmark and dataset hash)."""
    first, second = a.identity, b.identity
    same = (
        first.benchmark == second.benchmark
        and bool(first.dataset_hash)
        and first.dataset_hash == second.dataset_hash
    )
    if same:
        return
    what = "different benchmarks" if first.benchmark != second.benchmark else "different data"
    if first.benchmark == second.benchmark and not (first.dataset_hash and second.dataset_hash):
        what = "data that cannot be shown to be the same (a log records no dataset hash)"
    raise PrivbenchError(
        f"not comparable, {what}: {a.path} ({_title(a.benchmark)}, data "
        f"{short_hash(first)}) and {b.path} ({_title(b.benchmark)}, data "
        f"{short_hash(second)})"
    )


def read_run(path: Path) -> DiffSide:
    """One run's items from its log, through the benchmark's own log reader."""
    if not path.is_file():
        raise UsageError(f"{path}: no such log file")
    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception as error:  # inspect raises several types for what is not a log
        raise UsageError(f"{path}: not a readable inspect log ({type(error).__name__})") from None
    identity = RunIdentity.from_log(header)
    if identity.benchmark is None:
        titles = " or ".join(suite.title for suite in registry.SUITES.values())
        raise UsageError(f"{path}: a log of {header.eval.task}, not a {titles} run")
    items, judge, complete = _reading(identity.benchmark).items(header)
    ids = {str(i): i for i in header.eval.dataset.sample_ids or []}
    return DiffSide(path, identity, items, judge or identity.judge, complete, ids)


def answers(side: DiffSide, ids: Sequence[str]) -> dict[str, str | None]:
    """The model's whole answers to ``ids`` (read from the full samples: inspect's sample
    summaries shorten long text); None for an item whose sample cannot be read."""
    found: dict[str, str | None] = {}
    for item_id in ids:
        try:
            sample = read_eval_log_sample(str(side.path), side.sample_ids.get(item_id, item_id), 1)
        except Exception:  # inspect raises several types for a sample it cannot find
            found[item_id] = None
            continue
        output = sample.output
        found[item_id] = output.completion if output and output.choices else ""
    return found


def diff_logs(
    log_a: Path, log_b: Path, *, top: int = TOP, seed: int = 0, n_boot: int = N_BOOTSTRAP
) -> RunDiff:
    """Read two logs, refuse them unless they share their data, and compare them."""
    a, b = read_run(log_a), read_run(log_b)
    check_same_data(a, b)
    diff = compare(a, b, top=top, seed=seed, n_boot=n_boot)
    ids = [item.id for item in diff.top]
    left, right = answers(a, ids), answers(b, ids)
    diff.answers = {i: (left[i], right[i]) for i in ids}
    return diff


# --- presentation ------------------------------------------------------------------


def shorten(text: str | None, limit: int = ANSWER_CHARS) -> str:
    """One line of at most ``limit`` characters: whitespace collapsed, control characters
    (an answer is untrusted: escape sequences would drive the terminal) shown as ``?``."""
    if text is None:
        return UNREADABLE
    line = " ".join(text.split())
    line = "".join("?" if unicodedata.category(c).startswith("C") else c for c in line)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _interval(figure: PairedFigure) -> str:
    if figure.low is None or figure.high is None:
        return "–"
    return f"[{signed(figure.low)}, {signed(figure.high)}]"


def _p(figure: PairedFigure) -> str:
    return "–" if figure.p is None else f"{figure.p:.3g}"


def _p_holm(figure: PairedFigure) -> str:
    return "–" if figure.p_holm is None else f"{figure.p_holm:.3g}"


def _side_line(name: str, side: DiffSide) -> str:
    identity = side.identity
    strategy = f" · strategy {identity.strategy_name}" if _has_strategies(side.benchmark) else ""
    return (
        f"{name}: {identity.label()}{strategy} · judge {side.judge or 'none'} · {side.status}"
        f" · {side.path}"
    )


def _ids(ids: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(ids[:limit])
    return f" ({shown}{', …' if len(ids) > limit else ''})" if ids else ""


def terminal(diff: RunDiff) -> list[str | Table]:
    """What ``privbench diff`` prints: lines and tables (answers shortened)."""
    overall = diff.overall
    pairing = diff.pairing
    unit = _unit(diff.benchmark)
    reading = _reading(diff.benchmark)
    parts: list[str | Table] = [
        f"{_title(diff.benchmark)} · data {short_hash(diff.a.identity)} · B − A in points",
        _side_line("A", diff.a),
        _side_line("B", diff.b),
        *[f"note: {note}" for note in diff.notes()],
        f"overall: {signed(overall.difference)} points, 95 % CI {_interval(overall)}, "
        f"p = {_p(overall)} (paired over {overall.n} {unit} both scored)",
        f"only in A: {len(pairing.only_a)}{_ids(pairing.only_a)}; only in B: "
        f"{len(pairing.only_b)}{_ids(pairing.only_b)}; unscored in A: "
        f"{len(pairing.unscored_a)}{_ids(pairing.unscored_a)}; unscored in B: "
        f"{len(pairing.unscored_b)}{_ids(pairing.unscored_b)}",
    ]
    tested = sum(1 for figure in diff.groups if figure.p is not None)
    groups = Table(
        title=f"By {diff.group_kind} (p Holm-adjusted over the {tested} tested)",
        title_justify="left",
    )
    for column in (diff.group_kind.capitalize(), "n", "B − A", "95 % CI", "p", "p (Holm)"):
        groups.add_column(
            column, justify="left" if column == diff.group_kind.capitalize() else "right"
        )
    names = dict(group_names(diff.benchmark))
    for figure in diff.groups:
        groups.add_row(
            names[figure.name],
            str(figure.n),
            signed(figure.difference),
            _interval(figure),
            _p(figure),
            _p_holm(figure),
        )
    parts.append(groups)
    if not diff.top:
        parts.append(f"{diff.changed} of {len(pairing.paired)} paired {unit} changed score")
        return parts
    parts.append(f"changed most ({len(diff.top)} of {diff.changed} {unit} that changed score):")
    for item in diff.top:
        answer_a, answer_b = diff.answers.get(item.id, (None, None))
        about = f" ({', '.join(item.a.parts)})" if reading.parts_key else ""
        parts += [
            f"  {shorten(item.id)}{about}: {signed(item.difference)}",
            f"    A {reading.grade_text(item.a)}: {shorten(answer_a)}",
            f"    B {reading.grade_text(item.b)}: {shorten(answer_b)}",
        ]
    return parts


def _side_record(side: DiffSide) -> dict[str, object]:
    identity = side.identity
    return {
        "log": str(side.path),
        "label": identity.label(),
        "model": identity.model,
        "strategy": identity.strategy_name if _has_strategies(side.benchmark) else None,
        "judge": side.judge,
        "judge_protocol": identity.judge_protocol,
        "status": side.status,
        "items": len(side.items),
    }


def _item_record(item: DiffItem, answer: str | None, benchmark: Benchmark) -> dict[str, object]:
    return {"answer": answer, "score": item.score, **_reading(benchmark).item_record(item)}


def json_document(diff: RunDiff) -> dict[str, object]:
    """The one ``--json`` document of ``privbench diff`` (full precision, answers whole)."""
    pairing = diff.pairing
    reading = _reading(diff.benchmark)
    groups_key = f"by_{reading.group_kind}"
    strategies = (diff.a.identity.strategy_name, diff.b.identity.strategy_name)
    top = []
    for item in diff.top:
        answer_a, answer_b = diff.answers.get(item.id, (None, None))
        entry: dict[str, object] = {"id": item.id, "difference": item.difference}
        if reading.parts_key:
            entry[reading.parts_key] = list(item.a.parts)
        entry["a"] = _item_record(item.a, answer_a, diff.benchmark)
        entry["b"] = _item_record(item.b, answer_b, diff.benchmark)
        top.append(entry)
    return {
        "benchmark": diff.benchmark,
        "dataset_hash": diff.a.identity.dataset_hash,
        "a": _side_record(diff.a),
        "b": _side_record(diff.b),
        "strategy_ablation": _has_strategies(diff.benchmark) and strategies[0] != strategies[1],
        "notes": diff.notes(),
        "overall": diff.overall.record(),
        groups_key: {figure.name: figure.record() for figure in diff.groups},
        "n_paired": len(pairing.paired),
        "changed": diff.changed,
        "only_a": pairing.only_a,
        "only_b": pairing.only_b,
        "unscored_a": pairing.unscored_a,
        "unscored_b": pairing.unscored_b,
        "top": top,
        "seed": diff.seed,
        "bootstrap": diff.n_boot,
    }
