"""Judges other than the LLM judge of the paper's protocol: privbench's offline judge.

:mod:`privbench.judges.offline` grades without a model. Every table it produced must say
so, with its identity and measured agreement, so that nobody mistakes its numbers for an
LLM judge's: :func:`offline_notice` is that one line.
"""

from __future__ import annotations

OFFLINE = "offline"
"""The ``--judge`` name of the offline judge."""


def offline_notice(judge_name: str) -> str | None:
    """The one-line notice under every table the offline judge produced; None for others.

    It names the rules (version and hash, as logged with every score) and says that
    published numbers need an LLM judge. Its agreement with graded answers is the line
    every run prints from its judge card (the offline judge's card is shipped, built by
    ``privbench judge check --judge offline`` on the calibration set).
    """
    if judge_name != OFFLINE:
        return None
    from privbench.judges.offline import RULES_VERSION, rules_hash

    return (
        f"scores by privbench's offline judge (rules v{RULES_VERSION}, hash {rules_hash()}): "
        "an approximation of an LLM judge; use an LLM judge for published numbers"
    )
