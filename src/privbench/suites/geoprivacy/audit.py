"""``privbench audit`` of a VLM-GeoPrivacy copy: the data's shape and the floors of its scores.

Why these figures: a granularity accuracy means little without its floors. An answerer that
always abstains (A, the most common gold letter) never over-discloses and scores the share
of photos whose appropriate answer is to abstain; one that always names the exact location
(C) discloses everything; one that always answers each question's most common letter is the
majority floor of every question. These are computed on the photos the copy holds, as the
runs on it are, beside the same figures on all annotated photos.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import RenderableType

from privbench.suites.geoprivacy.dataset import QUESTIONS, GeoItem, load_geoprivacy, present_items
from privbench.suites.geoprivacy.scoring import granularity_figures
from privbench.terminal_tables import figure_table


def _floors(items: Sequence[GeoItem]) -> dict[str, object]:
    gold = [item.gold["Q7"] for item in items]
    always = {letter: granularity_figures(gold, [letter] * len(gold)) for letter in ("A", "B", "C")}
    majority = {
        q: Counter(item.gold[q] for item in items).most_common(1)[0] for q in QUESTIONS
    } if items else {}  # fmt: skip
    return {
        "photos": len(items),
        "q7_gold": dict(sorted(Counter(gold).items())),
        "always": {
            letter: {
                "accuracy": f.accuracy.value,
                "over_disclosure": f.over_disclosure.value,
                "abstention_violation": f.abstention_violation.value,
            }
            for letter, f in always.items()
        },
        "majority": {
            q: {"letter": letter, "accuracy": n / len(items)} for q, (letter, n) in majority.items()
        },
    }


def audit_geoprivacy(directory: str | Path) -> dict[str, object]:
    """The audit document of a copy (bad annotations raise one line)."""
    root = Path(directory)
    items = load_geoprivacy(root)
    present = present_items(root, items)
    return {
        "benchmark": "geoprivacy",
        "directory": str(root),
        "photos": len(items),
        "present": len(present),
        "sources": {
            source: {"annotated": n, "present": sum(i.source == source for i in present)}
            for source, n in Counter(item.source for item in items).most_common()
        },
        "floors_present": _floors(present),
        "floors_all": _floors(items),
    }


def _pct(value: object) -> str:
    return "–" if not isinstance(value, int | float) else f"{100 * value:.1f}"


def audit_tables(document: Mapping[str, object]) -> list[RenderableType]:
    """The audit's tables: photos per source, and the floors on the photos present."""
    sources = document["sources"]
    assert isinstance(sources, dict)
    spread = figure_table("VLM-GeoPrivacy photos", "Source", "Annotated", "Present")
    for name, counts in sources.items():
        spread.add_row(str(name), str(counts["annotated"]), str(counts["present"]))
    tables: list[RenderableType] = [spread]
    for key, where in (("floors_present", "photos present"), ("floors_all", "all photos")):
        floors = document[key]
        assert isinstance(floors, dict)
        if not floors["photos"]:
            continue
        table = figure_table(
            f"Floors on the {floors['photos']:,} {where} (%)",
            "Answerer", "Q7 acc.", "Over", "Viol.", text=1,
        )  # fmt: skip
        names = {"A": "always abstains (A)", "B": "always country/city (B)",
                 "C": "always exact (C)"}  # fmt: skip
        for letter, figures in floors["always"].items():
            table.add_row(names[letter], _pct(figures["accuracy"]),
                          _pct(figures["over_disclosure"]),
                          _pct(figures["abstention_violation"]))  # fmt: skip
        tables.append(table)
    return tables


def summary_lines(document: Mapping[str, object]) -> list[str]:
    """One line: photos present, and each question's majority floor on them."""
    floors = document["floors_present"]
    assert isinstance(floors, dict)
    majority = floors.get("majority") or {}
    cells = ", ".join(f"{q} {m['letter']} {_pct(m['accuracy'])} %" for q, m in majority.items())
    lines = [f"photos present: {document['present']:,} of {document['photos']:,}"]
    if cells:
        lines.append(f"majority-letter floor per question (photos present): {cells}")
    return lines
