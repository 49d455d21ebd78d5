"""SpatialTrust's section of the HTML report: its published Tables 2 and 3 (always over
the paper's own captures), the task columns by question, and the IoU shown in a card.

Why lazy wrappers: the registry imports every suite's declaration at start-up; the
scoring module loads only when a report draws sample cards.
"""

from __future__ import annotations

from privbench.runtime.cross_run import Corners, ReportSection
from privbench.suites.spatialtrust.aggregate import TASK_LABELS, TASKS
from privbench.suites.spatialtrust.published import NOTE, column_name


def _iou(truth: Corners, predicted: Corners) -> float:
    from privbench.suites.spatialtrust.scoring import iou

    return iou(truth, predicted)


REPORT_SECTION = ReportSection(
    layout="spatial",
    published_column=column_name,
    published_note=NOTE,
    questions=TASKS,
    column_labels=TASK_LABELS,
    box_overlap=_iou,
)
