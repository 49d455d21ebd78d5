"""inspect_ai entry point: importing this module registers privbench's tasks and models.

inspect loads it through ``[project.entry-points.inspect_ai]``, which is what makes
``inspect eval privbench/priviq`` work.
"""

from privbench.models.ocr_pii import privbench_models
from privbench.priviq.task import priviq, priviq_grade
from privbench.spatialtrust.build.drafting import spatialtrust_draft
from privbench.spatialtrust.task import spatialtrust, spatialtrust_grade

__all__ = [
    "privbench_models",
    "priviq",
    "priviq_grade",
    "spatialtrust",
    "spatialtrust_draft",
    "spatialtrust_grade",
]
