"""Calls retried and replies repaired in one sample, as every score's metadata records them.

Why shared: every benchmark's scorer (and the build's drafting) writes these counts, and
every summary shows them (a retried call may have been paid); see
:mod:`privbench.runtime.calls` for how they are counted.
"""

from __future__ import annotations

from pydantic import Field

from privbench.runtime.records.base import ScoreRecord


class CallCountsRecord(ScoreRecord):
    """Calls retried after a malformed or empty reply, and replies with replaced characters,
    per role (``model``, ``judge``), for one sample."""

    call_retries: dict[str, int] = Field(default_factory=dict)
    replaced_characters: dict[str, int] = Field(default_factory=dict)
