"""``privbench build spatialtrust``: a SpatialTrust dataset from a team's own captures.

Frames are sampled from videos and image folders (:mod:`.captures`), normalized to the
paper's 1440 × 960 without metadata, optionally with bystanders' faces blurred; a drafter
model proposes each capture's elements (:mod:`.drafting`); questions q1–q5 are built from
the annotations (:mod:`.questions`). Every image starts as a draft until a person reviews
it. ``docs/build.md`` describes the workflow.
"""
