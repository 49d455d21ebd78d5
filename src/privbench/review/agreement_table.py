"""The inter-annotator agreement table ``privbench review export`` prints."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.table import Table

from privbench.review.agreement import PairAgreement


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def agreement_table(images: int, rows: Sequence[PairAgreement]) -> Table:
    """One column per annotator pair (and the pooled figures), one row per figure."""
    table = Table(
        title=f"Agreement ({images} images accepted by 2+ annotators)",
        title_justify="left",
    )
    table.add_column("Figure")
    for row in rows:
        table.add_column(row.annotators, justify="right")
    figures: list[tuple[str, Callable[[PairAgreement], str]]] = [
        ("Images accepted by both", lambda r: str(r.images)),
        ("Presence (q1) agreement", lambda r: _number(r.presence_agreement)),
        ("Presence Cohen's κ", lambda r: _number(r.presence_kappa.value)),
        ("Boxes (both annotators)", lambda r: str(r.boxes)),
        ("Boxes matched (IoU ≥ 0.5)", lambda r: _number(r.matched_share)),
        ("Mean IoU of matched pairs", lambda r: _number(r.mean_iou)),
        ("Category agreement, matched", lambda r: _number(r.category_agreement)),
        ("Category Cohen's κ, matched", lambda r: _number(r.category_kappa.value)),
    ]
    for title, value in figures:
        table.add_row(title, *(value(r) for r in rows))
    return table
