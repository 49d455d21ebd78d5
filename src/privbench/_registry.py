"""inspect_ai entry point: importing this module registers privbench's tasks and models.

inspect loads it through ``[project.entry-points.inspect_ai]``, which is what makes
``inspect eval privbench/priviq`` work.
"""

from privbench.models.ocr_pii import privbench_models
from privbench.suites.priviq.task import priviq, priviq_grade
from privbench.suites.spatialtrust.task import spatialtrust, spatialtrust_grade
from privbench.tooling.spatialtrust_builder.drafting import spatialtrust_draft

__all__ = [
    "privbench_models",
    "priviq",
    "priviq_grade",
    "spatialtrust",
    "spatialtrust_draft",
    "spatialtrust_grade",
]
