"""inspect_ai entry point: importing this module registers privbench's tasks and models.

inspect loads it through ``[project.entry-points.inspect_ai]``, which is what makes
``inspect eval privbench/priviq`` work. Every benchmark's tasks register as the
benchmark loads (:mod:`privbench.registry` loads each on first use, so all are loaded
here); the model provider and the builder's drafting task are registered directly.
"""

from privbench.models.ocr_pii import privbench_models
from privbench.registry import SUITES
from privbench.tooling.spatialtrust_builder.drafting import spatialtrust_draft

BENCHMARKS = tuple(SUITES.values())
"""Every benchmark, loaded (which registers its inspect tasks)."""

__all__ = ["BENCHMARKS", "privbench_models", "spatialtrust_draft"]
