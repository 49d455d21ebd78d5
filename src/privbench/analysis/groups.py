"""Which runs may be put side by side, averaged or paired (honest comparisons).

Why: a number is comparable with another only when both were computed over the same data
and the same items. Two suites can share item ids (``v1_0`` …) and differ in every
question, so the report groups runs by the dataset's content hash (recorded in every log
by :mod:`privbench.dataset_identity`); within a dataset, runs over the same item set are
compared directly and runs over another set only over the items both answered
(:func:`comparable_sets` is the rule itself: benchmark, dataset hash, item set). A
reference row stands beside runs over :attr:`DatasetGroup.common_items`. A run whose log
has no hash (written before privbench recorded one) stands alone. A ``--limit`` run is
kept in its dataset's table, marked, and left out of the Average. Everything here is a
pure function of the runs' identity fields.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import SupportsInt, cast

from privbench.analysis.runs import SHORT_HASH


@dataclass(frozen=True)
class ComparedRun:
    """What decides comparability for one run."""

    label: str
    dataset_hash: str
    items: frozenset[str]
    limit: int | None = None
    data: str = ""
    benchmark: str = ""

    @classmethod
    def from_row(cls, row: Mapping[Hashable, object]) -> ComparedRun:
        """From a row of :attr:`Results.runs` (pandas' untyped record: ``items`` a list of
        ids, ``limit`` a number or NaN)."""
        limit = cast(SupportsInt | None, row.get("limit"))
        return cls(
            label=str(row["label"]),
            dataset_hash=str(row.get("dataset_hash") or ""),
            items=frozenset(cast(Iterable[str], row.get("items") or ())),
            limit=None if limit is None or limit != limit else int(limit),
            data=str(row.get("data") or ""),
            benchmark=str(row.get("benchmark") or ""),
        )

    @property
    def key(self) -> tuple[str, str, frozenset[str]]:
        """What two runs must share to be compared: benchmark, dataset hash, item set.

        A run whose log records no dataset hash shares its key with no other run."""
        return (self.benchmark, self.dataset_hash or f"unknown:{self.label}", self.items)


@dataclass(frozen=True)
class ComparableSet:
    """Runs that may stand side by side: one benchmark, one dataset, the same items."""

    benchmark: str
    dataset_hash: str
    items: frozenset[str]
    runs: tuple[str, ...]


def comparable_sets(runs: Sequence[ComparedRun]) -> list[ComparableSet]:
    """The one rule of every comparison: runs are compared only with runs of the same
    benchmark, dataset (content hash) and item set. Sets in the order their first run is
    given; a run of unknown dataset identity is a set of its own."""
    members: dict[tuple[str, str, frozenset[str]], list[str]] = {}
    for run in runs:
        members.setdefault(run.key, []).append(run.label)
    return [
        ComparableSet(benchmark, "" if data.startswith("unknown:") else data, items, tuple(labels))
        for (benchmark, data, items), labels in members.items()
    ]


def common_items(item_sets: Sequence[frozenset[str]]) -> frozenset[str]:
    """The items every run answered: what a reference row beside them is computed over."""
    return frozenset.intersection(*item_sets) if item_sets else frozenset()


def reference_note(what: str, group: DatasetGroup, items: frozenset[str]) -> str | None:
    """Why a reference row is over fewer items than some run beside it (None: it is not)."""
    larger = [run for run in group.runs if group.n_items[run] > len(items)]
    if not larger:
        return None
    return (
        f"{what} is computed over the {len(items)} {group.unit} every run here answered;"
        f" {', '.join(larger)} answered more, so compare their scores with it over those"
        f" {group.unit} (the comparisons below pair runs over the same {group.unit})."
    )


@dataclass
class DatasetGroup:
    """Runs over one dataset: shown in one table; averaged and paired only where allowed."""

    dataset_hash: str
    """Empty for a run whose log records no dataset identity (such a group has one run)."""
    data: str
    runs: list[str]
    partitions: list[list[str]]
    """Runs with identical item sets: the only pairs that are compared."""
    averaged: list[str]
    """Runs in the Average row (not ``--limit`` runs; the largest shared item set)."""
    limits: dict[str, int] = field(default_factory=dict)
    n_items: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unit: str = "items"
    items: dict[str, frozenset[str]] = field(default_factory=dict)
    """Each run's item ids."""

    @property
    def common_items(self) -> frozenset[str]:
        """The items every run of the group answered (a reference row's items)."""
        return common_items([self.items[run] for run in self.runs if run in self.items])

    @property
    def known(self) -> bool:
        """Whether the dataset identity is recorded."""
        return bool(self.dataset_hash)

    @property
    def title(self) -> str:
        """A reader's name for the dataset: folder name, short hash, item count."""
        name = Path(self.data).name if self.data else "dataset"
        if not self.known:
            return f"{name} (identity unknown: the log records no dataset hash)"
        counts = sorted(set(self.n_items.values()))
        items = f"{counts[-1]} {self.unit}" if counts else f"no {self.unit}"
        return f"{name} · sha256 {self.dataset_hash[:SHORT_HASH]} · {items}"


def _partitions(runs: Sequence[ComparedRun]) -> list[list[str]]:
    """Runs of one dataset split by :func:`comparable_sets` (the same item set)."""
    return [list(found.runs) for found in comparable_sets(runs)]


def main_partition(partitions: Sequence[list[str]], n_items: dict[str, int]) -> list[str]:
    """The runs compared with each other: the largest set over identical items; a tie goes
    to the set over more items (so a ``--limit`` run never displaces a full one), then to
    the first given."""
    return max(partitions, key=lambda runs: (len(runs), n_items[runs[0]]))


def dataset_groups(runs: Sequence[ComparedRun], unit: str = "items") -> list[DatasetGroup]:
    """Group runs of one benchmark by dataset, in the order the runs were given.

    ``unit`` names what the dataset's ids count (items, images) in titles and notes.
    """
    order: list[str] = []
    members: dict[str, list[ComparedRun]] = {}
    for run in runs:
        key = run.dataset_hash or f"unknown:{run.label}"
        if key not in members:
            order.append(key)
            members[key] = []
        members[key].append(run)
    groups = []
    for key in order:
        group_runs = members[key]
        known = not key.startswith("unknown:")
        full = [r for r in group_runs if r.limit is None]
        shared: list[ComparedRun] = []
        if full:
            biggest = main_partition(_partitions(full), {r.label: len(r.items) for r in full})
            shared = [r for r in full if r.label in biggest]
        group = DatasetGroup(
            dataset_hash=key if known else "",
            data=group_runs[0].data,
            runs=[r.label for r in group_runs],
            partitions=_partitions(group_runs) if known else [[r.label] for r in group_runs],
            averaged=[r.label for r in shared] if len(shared) >= 2 else [],
            limits={r.label: r.limit for r in group_runs if r.limit is not None},
            n_items={r.label: len(r.items) for r in group_runs},
            unit=unit,
            items={r.label: r.items for r in group_runs},
        )
        group.notes = _group_notes(group, group_runs)
        groups.append(group)
    return groups


def _group_notes(group: DatasetGroup, runs: Sequence[ComparedRun]) -> list[str]:
    notes: list[str] = []
    if not group.known:
        notes.append(
            f"{group.runs[0]}: its log records no dataset hash (written before privbench"
            " recorded dataset identity), so it is shown alone and never averaged or paired"
            " with another run, even where item ids coincide."
        )
        return notes
    for label, limit in group.limits.items():
        notes.append(
            f"{label} ran with --limit {limit} ({group.n_items[label]} {group.unit}): marked, kept"
            f" out of the Average, and compared with other runs only over the {group.unit}"
            " both answered."
        )
    full = [r for r in runs if r.limit is None]
    if len(full) >= 2 and len(group.averaged) < len(full):
        left_out = [r.label for r in full if r.label not in group.averaged]
        notes.append(
            "Left out of the Average (item set differs from the other runs): "
            + ", ".join(left_out)
            + "."
        )
    return notes


def comparison_gaps(group: DatasetGroup) -> list[str]:
    """Where this group's runs answered different items: one sentence per set of runs
    over other items than the main set's.

    The largest set of runs over identical items is the main one; every other set is
    named with its item count, and is compared with the main set only over the items both
    answered (a family of its own).
    """
    if not group.known or len(group.partitions) < 2:
        return []
    main = main_partition(group.partitions, group.n_items)
    main_items = group.n_items[main[0]]
    reasons = []
    for partition in group.partitions:
        if partition is main:
            continue
        items = group.n_items[partition[0]]
        who = ", ".join(partition)
        paired = " (paired among themselves)" if len(partition) > 1 else ""
        common = len(group.items[partition[0]] & group.items[main[0]]) if group.items else 0
        how = (
            f"compared with the runs over the {main_items} {group.unit} of {', '.join(main)}"
            f" only over the {common} {group.unit} both answered"
            if common
            else f"no {group.unit} in common with the runs of {', '.join(main)}: not compared"
        )
        reasons.append(f"{who} answered another set ({items} {group.unit}){paired}; {how}.")
    return reasons


def cross_dataset_note(groups: Sequence[DatasetGroup], benchmark: str) -> str | None:
    """One sentence when a benchmark's runs span several datasets (or unknown ones)."""
    if len(groups) < 2:
        return None
    known = sum(1 for g in groups if g.known)
    unknown = len(groups) - known
    parts = []
    if known:
        parts.append(f"{known} dataset(s) with different content hashes")
    if unknown:
        parts.append(f"{unknown} run(s) of unknown dataset identity")
    return (
        f"These {benchmark} runs span {' and '.join(parts)}: each dataset has its own tables and"
        " figures, and runs over different data are never averaged or paired, even where"
        " item ids coincide."
    )
