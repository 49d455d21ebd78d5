"""The inter-annotator agreement ``privbench review export`` prints: a table, then notes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import RenderableType
from rich.table import Table

from privbench.tooling.spatialtrust_builder.review_agreement import (
    AnnotatorAgreement,
    PairAgreement,
)


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


def agreement_parts(figures: AnnotatorAgreement) -> list[RenderableType]:
    """The table (pairs and, with more than one pair, the pooled figures), the κ that are
    undefined and why, and the images annotators disagreed on most."""
    if figures.pooled is None:
        return ["agreement: no image was accepted by two annotators"]
    rows = [*figures.pairs, figures.pooled] if len(figures.pairs) > 1 else list(figures.pairs)
    parts: list[RenderableType] = [agreement_table(figures.images, rows)]
    for row in rows:
        for what, kappa in (("presence", row.presence_kappa), ("category", row.category_kappa)):
            if kappa.value is None:
                parts.append(f"{row.annotators}: {what} κ undefined: {kappa.reason}")
    if figures.most_disagreeing:
        parts.append(
            "most disagreeing (score = 2 × presence differs + unmatched boxes + "
            "category changes, over annotator pairs):"
        )
    parts += [
        f"  {d.image}: {d.score} (presence differs {d.presence_differs}, "
        f"unmatched boxes {d.unmatched_boxes}, category changes {d.category_changes})"
        for d in figures.most_disagreeing
    ]
    return parts
