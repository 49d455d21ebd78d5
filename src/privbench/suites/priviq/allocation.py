"""How many items of each competency combination a generated Priv-IQ suite has.

With ``n = 146`` the counts are exactly the paper's Table 1; other sizes keep its
proportions (largest-remainder rounding) and, from 18 items up, every combination
appears at least once.
"""

from __future__ import annotations

from privbench.apportion import largest_remainder, quotas
from privbench.suites.priviq.competencies import Combination, combination_of

TABLE_1: dict[Combination, int] = {
    combination_of(codes): count
    for codes, count in (
        (("Law",), 29),
        (("Know",), 19),
        (("CntxPriv", "VizPriv"), 17),
        (("CntxPriv", "PET"), 14),
        (("VizPriv",), 12),
        (("PET",), 10),
        (("CntxPriv", "Know"), 8),
        (("CntxPriv", "NER"), 6),
        (("Know", "PrivRisk"), 6),
        (("CntxPriv", "MultLing", "NER"), 5),
        (("NER",), 3),
        (("PrivRisk",), 3),
        (("Know", "PET"), 3),
        (("CntxPriv", "PrivRisk"), 3),
        (("MultLing", "VizPriv"), 2),
        (("MultLing", "NER"), 2),
        (("CntxPriv", "Law"), 2),
        (("Know", "Law"), 2),
    )
}
"""Items per competency combination in the paper, listed largest first: when two
combinations' rounding remainders are equal, the larger one gets the extra item."""
PAPER_SIZE = sum(TABLE_1.values())  # 146


def allocate(n: int) -> dict[Combination, int]:
    """Items per combination for a suite of ``n`` items (Table 1 exactly when n = 146)."""
    if n < 1:
        raise ValueError("a suite needs at least one item")
    exact = quotas(n, TABLE_1)
    counts = largest_remainder(n, TABLE_1)
    if n >= len(TABLE_1):
        for combo in TABLE_1:
            if counts[combo] == 0:
                # take the item from the combination furthest above its exact share
                donor = max(
                    (c for c in counts if counts[c] > 1), key=lambda c: counts[c] - exact[c]
                )
                counts[donor] -= 1
                counts[combo] = 1
    return {combo: count for combo, count in counts.items() if count}
