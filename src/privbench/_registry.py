"""inspect_ai entry point: importing this module registers privbench's tasks and models.

inspect loads it through ``[project.entry-points.inspect_ai]``, which is what makes
``inspect eval privbench/priviq`` work. Every benchmark's tasks register as
:mod:`privbench.registry` loads the benchmarks; the model provider and the builder's
drafting task are registered here.
"""

from privbench.models.ocr_pii import privbench_models
from privbench.registry import SUITES
from privbench.tooling.spatialtrust_builder.drafting import spatialtrust_draft

__all__ = ["SUITES", "privbench_models", "spatialtrust_draft"]
