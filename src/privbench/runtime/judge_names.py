"""The two judge names every layer reads in logs: the default judge and the offline judge.

Why a module of its own, with no imports: records, cost tables and the run settings (all in
this bottom layer) read these names from logs and options, and must not load inspect's
model machinery to do so. What a ``--judge`` string *means* is decided only in
:mod:`privbench.judges.choice`.
"""

from __future__ import annotations

DEFAULT_JUDGE = "openai/gpt-4o"
"""The papers' judge; used when no ``grader`` role is given (never the model under test)."""

OFFLINE_JUDGE = "offline"
"""The name of the rule-based judge of :mod:`privbench.judges.offline` (no model), as
``--judge`` takes it and as every log records it. Only :mod:`privbench.judges.choice`
decides what a ``--judge`` string means; this is the spelling, kept below the judges layer
because logged records are read here."""
