"""Text, arrows, icons and charts for generated images, with a log of every string drawn.

Why: a generated item must not show an empty box where a font lacks a glyph, and the
tests must be able to check *every* string an item draws. All text of the drawings below
goes through :func:`put`, which picks the script's font and records the string in the
active :class:`TextLog`; the tests check each recorded string with fontTools. Arrows,
check boxes and icons are drawn as shapes, never as symbol characters (Noto Sans has no
arrows, check marks or pictographs).
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image, ImageDraw

from privbench.tooling.drawing.colors import INK, MUTED, Color
from privbench.tooling.drawing.fonts import font, script_of
from privbench.tooling.drawing.panels import Block, Field, Panel, Table, Text, Title, wrap

_LOG: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("text_log", default=None)


@contextmanager
def text_log() -> Iterator[list[str]]:
    """Collect every string drawn by :func:`put` (and panels logged) inside the block."""
    log: list[str] = []
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def log_text(text: str) -> None:
    log = _LOG.get()
    if log is not None:
        log.append(text)


def log_panel(panel: Panel) -> Panel:
    """Record the strings a :class:`~privbench.tooling.drawing.panels.Panel` will draw."""
    blocks: list[Block] = panel.blocks
    for block in blocks:
        if isinstance(block, Title | Text):
            log_text(block.text)
        elif isinstance(block, Field):
            log_text(f"{block.label}: {block.value}")
        elif isinstance(block, Table):
            log_text(block.caption)
            for row in [block.header, *block.rows]:
                for cell in row:
                    log_text(cell)
    for value in panel.extras.values():
        log_text(value)
    return panel


def put(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color = INK,
    anchor: str = "la",
) -> float:
    """Draw one line of text in its script's font (Arabic right to left); returns its width."""
    log_text(text)
    script = script_of(text)
    used = font(script, size)
    direction = "rtl" if script == "arabic" else "ltr"
    draw.text(xy, text, font=used, fill=fill, anchor=anchor, direction=direction)
    return used.getlength(text, direction=direction)


def put_wrapped(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    width: int,
    fill: Color = INK,
    line_height: float = 1.4,
) -> float:
    """Draw wrapped text (right-aligned for Arabic); returns the y below the last line."""
    x, y = xy
    rtl = script_of(text) == "arabic"
    for line in wrap(text, size, width):
        put(draw, (x + width if rtl else x, y), line, size, fill, anchor="ra" if rtl else "la")
        y += size * line_height
    return y


def text_height(text: str, size: int, width: int, line_height: float = 1.4) -> float:
    return len(wrap(text, size, width)) * size * line_height


def arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    color: Color = INK,
    width: int = 4,
    label: str = "",
    label_size: int = 18,
) -> None:
    """A straight arrow with a filled head, and an optional label above its middle."""
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    head = 16
    base = (x1 - head * math.cos(angle), y1 - head * math.sin(angle))
    draw.line((x0, y0, *base), fill=color, width=width)
    left = (
        base[0] + head * 0.55 * math.cos(angle + math.pi / 2),
        base[1] + head * 0.55 * math.sin(angle + math.pi / 2),
    )
    right = (
        base[0] + head * 0.55 * math.cos(angle - math.pi / 2),
        base[1] + head * 0.55 * math.sin(angle - math.pi / 2),
    )
    draw.polygon([(x1, y1), left, right], fill=color)
    if label:
        put(draw, ((x0 + x1) / 2, (y0 + y1) / 2 - 8), label, label_size, color, anchor="md")


def box(
    draw: ImageDraw.ImageDraw,
    rect: tuple[float, float, float, float],
    lines: list[str],
    fill: Color = (236, 240, 248),
    outline: Color = (70, 80, 110),
    size: int = 20,
) -> None:
    """A rounded box with centred lines of text."""
    draw.rounded_rectangle(rect, radius=12, fill=fill, outline=outline, width=3)
    x0, y0, x1, y1 = rect
    top = (y0 + y1) / 2 - len(lines) * size * 0.7
    for index, line in enumerate(lines):
        put(draw, ((x0 + x1) / 2, top + index * size * 1.4), line, size, INK, anchor="ma")


def key_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, color: Color, scale: float = 1.0
) -> None:
    """A key: ring, shaft and two teeth (top-left at x, y)."""
    r = 14 * scale
    draw.ellipse((x, y, x + 2 * r, y + 2 * r), outline=color, width=int(5 * scale))
    draw.rectangle((x + 2 * r, y + r - 3 * scale, x + 6 * r, y + r + 3 * scale), fill=color)
    for offset in (4.2, 5.3):
        draw.rectangle(
            (x + offset * r, y + r, x + offset * r + 5 * scale, y + r + 10 * scale), fill=color
        )


def lock_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, color: Color, scale: float = 1.0
) -> None:
    draw.arc(
        (x + 6 * scale, y, x + 30 * scale, y + 26 * scale),
        180,
        360,
        fill=color,
        width=int(5 * scale),
    )
    draw.rounded_rectangle(
        (x, y + 12 * scale, x + 36 * scale, y + 40 * scale), radius=4, fill=color
    )


def person_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, color: Color, scale: float = 1.0
) -> None:
    draw.ellipse((x + 10 * scale, y, x + 30 * scale, y + 20 * scale), fill=color)
    draw.pieslice((x, y + 22 * scale, x + 40 * scale, y + 62 * scale), 180, 360, fill=color)


def server_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, color: Color, scale: float = 1.0
) -> None:
    for i in range(3):
        top = y + i * 16 * scale
        draw.rounded_rectangle((x, top, x + 50 * scale, top + 13 * scale), radius=3, fill=color)
        draw.ellipse(
            (x + 40 * scale, top + 4 * scale, x + 45 * scale, top + 9 * scale), fill=(120, 230, 140)
        )


def phone_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, color: Color, scale: float = 1.0
) -> None:
    draw.rounded_rectangle((x, y, x + 30 * scale, y + 52 * scale), radius=6, fill=color)
    draw.rectangle(
        (x + 4 * scale, y + 7 * scale, x + 26 * scale, y + 42 * scale), fill=(210, 230, 250)
    )


def hospital_icon(
    draw: ImageDraw.ImageDraw, x: float, y: float, color: Color, scale: float = 1.0
) -> None:
    draw.rectangle(
        (x, y + 10 * scale, x + 50 * scale, y + 50 * scale),
        fill=(240, 240, 244),
        outline=color,
        width=3,
    )
    draw.rectangle(
        (x + 20 * scale, y + 18 * scale, x + 30 * scale, y + 42 * scale), fill=(210, 40, 50)
    )
    draw.rectangle(
        (x + 13 * scale, y + 25 * scale, x + 37 * scale, y + 35 * scale), fill=(210, 40, 50)
    )


def checkbox(draw: ImageDraw.ImageDraw, x: float, y: float, ticked: bool, size: int = 22) -> None:
    """A check box drawn with lines (ticked: a check mark)."""
    draw.rectangle((x, y, x + size, y + size), outline=INK, width=2, fill=(255, 255, 255))
    if ticked:
        draw.line(
            [(x + 4, y + size * 0.55), (x + size * 0.42, y + size - 4), (x + size - 3, y + 4)],
            fill=(20, 110, 60),
            width=3,
        )


def bar_chart(
    draw: ImageDraw.ImageDraw,
    rect: tuple[int, int, int, int],
    labels: list[str],
    series: list[list[float]],
    colors: list[Color],
    top: float,
    size: int = 16,
) -> None:
    """Grouped bars (one group per label, one bar per series) with a y axis to ``top``."""
    x0, y0, x1, y1 = rect
    draw.line((x0, y0, x0, y1, x1, y1), fill=INK, width=2)
    for tick in range(5):
        value = top * tick / 4
        y = y1 - (y1 - y0) * tick / 4
        draw.line((x0 - 5, y, x0, y), fill=INK, width=2)
        put(draw, (x0 - 8, y), f"{value:.0f}", size - 2, MUTED, anchor="rm")
    group = (x1 - x0) / max(len(labels), 1)
    bar = group * 0.7 / max(len(series), 1)
    for g, label in enumerate(labels):
        left = x0 + g * group + group * 0.15
        for s, values in enumerate(series):
            height = (y1 - y0) * max(values[g], 0) / top
            draw.rectangle(
                (left + s * bar, y1 - height, left + (s + 1) * bar - 3, y1), fill=colors[s]
            )
        put(draw, (x0 + g * group + group / 2, y1 + 6), label, size, INK, anchor="ma")


def canvas(
    width: int, height: int, color: Color = (252, 252, 250)
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), color)
    return image, ImageDraw.Draw(image)
