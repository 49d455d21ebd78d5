"""``privbench generate spatialtrust``: synthetic SpatialTrust-format captures.

* :mod:`.vocabulary` — element types (direct, indirect, near-miss, benign), rooms, words;
* :mod:`.layout` — camera, room and placement rules, in metres (no pixels);
* :mod:`.plan` — the suite plan: shares, answer-free options, boxes, records;
* :mod:`.paint` and :mod:`.render` — drawing a planned capture;
* :mod:`.suite` — writing a suite directory.
"""
