"""Judges other than the LLM judge of the paper's protocol: privbench's offline judge.

:mod:`privbench.judges.offline` grades without a model. Every table it produced must say
so, with its identity and measured agreement, so that nobody mistakes its numbers for an
LLM judge's: :func:`offline_notice` is that one line. Which judge a run uses is read once,
in :mod:`privbench.judges.choice`.
"""

from __future__ import annotations


def offline_notice(judge_name: str) -> str | None:
    """The one-line notice under every table the offline judge produced; None for others.

    It names the rules (version and hash, as logged with every score) and says that
    published numbers need an LLM judge. Its agreement with graded answers is the line
    every run prints from its judge card (the offline judge's card is shipped, built by
    ``privbench judge check --judge offline`` on the calibration set).
    """
    from privbench.judges.choice import parse_judge  # inspect loads only when asked

    return parse_judge(judge_name).notice()
