"""A Priv-IQ answer as the judge grades it: the model's text, or *no answer*.

Why apart from the scorer: what counts as no answer (nothing, blank text, a refusal by
the provider's content filter) is a fact both the scorer and a grade run's reuse check
(:func:`privbench.suites.priviq.scorer.runs_to_grade`) must read the same way.
"""

from __future__ import annotations

from inspect_ai.model import ModelOutput


def blank_or_text(text: str | None) -> tuple[str, bool]:
    """An answer as graded, and whether it is *no answer*: None or blank becomes ""."""
    return (text, False) if text and text.strip() else ("", True)


def answer_text(output: ModelOutput | None) -> tuple[str, bool]:
    """The model's answer and whether it counts as *no answer* (empty, refused or None)."""
    if output is None or not output.choices:
        return "", True
    if output.stop_reason == "content_filter":
        return "", True
    return blank_or_text(output.completion)
