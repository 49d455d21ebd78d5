"""Colours shared by every generated drawing: the type, the text inks and the skin tones.

Why one module: both suites' drawings (Priv-IQ documents, objects and photographs;
SpatialTrust captures) describe colours the same way, and the inks and skin tones that
several drawings use must be the same values wherever they are drawn.
"""

from __future__ import annotations

Color = tuple[int, int, int]
"""An RGB colour, each channel 0–255."""

INK: Color = (28, 30, 38)
"""Body text on light paper and screens."""
MUTED: Color = (100, 104, 116)
"""Secondary text: dates, addresses, labels and footers."""

SKINS: list[Color] = [(224, 180, 150), (190, 140, 105), (141, 96, 66), (240, 204, 178)]
"""Skin tones of the hands in the Priv-IQ photographs (the street scenes' people take one
of the first three)."""
