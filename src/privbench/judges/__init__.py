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

    It names the rules (version and hash, as logged with every score) and their measured
    agreement with graded answers the rules were not tuned on, and says that published
    numbers need an LLM judge.
    """
    if judge_name != OFFLINE:
        return None
    from privbench.judges.offline import RULES_VERSION, rules_hash
    from privbench.judges.offline.measured_agreement import MEASURED, UNSEEN

    figures = " and ".join(
        f"ρ {m.rho:.2f}, MAE {m.mae:.2f}, {100 * m.within:.0f} % within ±0.1"
        for m in (MEASURED[part] for part in UNSEEN)
    )
    return (
        f"scores by privbench's offline judge (rules v{RULES_VERSION}, hash {rules_hash()}): "
        f"an approximation of an LLM judge — agreement on two sets of held-out answers it "
        f"was never tuned on: {figures}; use an LLM judge for published numbers"
    )
