"""Drawing documents, cards, screens and tables for the generated Priv-IQ items.

A panel is a list of blocks (title, text, label–value fields, tables, spacing) laid out
top to bottom inside a frame whose style suggests the object: a paper document, a payment
or ID card, a receipt, a pill-bottle label, an app screen or a social post. Text in
Arabic is shaped and laid out right to left; CJK uses the CJK font. Everything is drawn
with Pillow from fonts shipped in PyPI packages, so the same inputs give the same pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from privbench.tooling.drawing.colors import INK, Color
from privbench.tooling.drawing.fonts import font, script_of

Style = Literal["document", "card", "receipt", "label", "screen", "post", "notice"]

_CAPTION: Color = (90, 96, 110)
"""A table's caption and a screen's address bar: grey, so they read as secondary."""


@dataclass(frozen=True)
class Title:
    text: str
    size: int = 30


@dataclass(frozen=True)
class Text:
    text: str
    size: int = 22
    color: Color = INK


@dataclass(frozen=True)
class Field:
    label: str
    value: str
    size: int = 22


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]]
    caption: str = ""
    size: int = 20


@dataclass(frozen=True)
class Gap:
    height: int = 12


Block = Title | Text | Field | Table | Gap


@dataclass
class Panel:
    """What to draw and in which frame."""

    blocks: list[Block]
    style: Style = "document"
    width: int = 880
    background: Color = (250, 248, 242)
    accent: Color = (40, 70, 140)
    extras: dict[str, str] = field(default_factory=dict)


def _font_for(text: str, size: int) -> ImageFont.FreeTypeFont:
    return font(script_of(text), size)


def _direction(text: str) -> str:
    return "rtl" if script_of(text) == "arabic" else "ltr"


def _text_width(text: str, size: int) -> float:
    return _font_for(text, size).getlength(text, direction=_direction(text))


def wrap(text: str, size: int, width: int) -> list[str]:
    """Lines of ``text`` that fit ``width`` px (word wrap; CJK wraps per character)."""
    if script_of(text) == "cjk":
        units: list[str] = list(text)
        joiner = ""
    else:
        units = text.split(" ")
        joiner = " "
    lines: list[str] = []
    current = ""
    for unit in units:
        candidate = unit if not current else current + joiner + unit
        if current and _text_width(candidate, size) > width:
            lines.append(current)
            current = unit
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines or [""]


def _line_height(size: int) -> int:
    return int(size * 1.45)


def _draw_line(
    draw: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, size: int, color: Color
) -> None:
    direction = _direction(text)
    used = _font_for(text, size)
    if direction == "rtl":
        x = int(x + width - used.getlength(text, direction="rtl"))
    draw.text((x, y), text, font=used, fill=color, direction=direction)


def _table_height(table: Table, width: int) -> int:
    height = _line_height(table.size) * (1 + len(table.rows)) + 10
    return height + (_line_height(table.size) if table.caption else 0)


def _draw_table(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, table: Table) -> int:
    row_height = _line_height(table.size)
    columns = len(table.header)
    col_width = width // max(columns, 1)
    if table.caption:
        _draw_line(draw, x, y, width, table.caption, table.size, _CAPTION)
        y += row_height
    total = col_width * columns
    draw.rectangle((x, y, x + total, y + row_height), fill=(228, 232, 240))
    for r in range(len(table.rows)):
        if r % 2:
            top = y + row_height * (r + 1)
            draw.rectangle((x, top, x + total, top + row_height), fill=(243, 245, 249))
    draw.rectangle(
        (x, y, x + total, y + row_height * (len(table.rows) + 1)), outline=(160, 166, 180)
    )
    for r, row in enumerate([table.header, *table.rows]):
        for c, cell in enumerate(row):
            _draw_line(
                draw,
                x + c * col_width + 8,
                y + r * row_height + 2,
                col_width - 12,
                cell,
                table.size,
                INK,
            )
    y += row_height * (len(table.rows) + 1)
    return y + 10


def _content_height(blocks: list[Block], width: int) -> int:
    height = 0
    for block in blocks:
        if isinstance(block, Title):
            height += _line_height(block.size) * len(wrap(block.text, block.size, width)) + 6
        elif isinstance(block, Text):
            height += _line_height(block.size) * len(wrap(block.text, block.size, width))
        elif isinstance(block, Field):
            height += _line_height(block.size) * len(
                wrap(f"{block.label}: {block.value}", block.size, width)
            )
        elif isinstance(block, Table):
            height += _table_height(block, width)
        else:
            height += block.height
    return height


_PADDING: dict[Style, tuple[int, int]] = {
    "document": (48, 44),
    "card": (44, 40),
    "receipt": (34, 36),
    "label": (40, 40),
    "screen": (36, 76),
    "post": (100, 40),
    "notice": (44, 40),
}


def render(panel: Panel) -> Image.Image:
    """Draw a panel; the image height follows its content."""
    pad_x, pad_top = _PADDING[panel.style]
    inner = panel.width - 2 * pad_x
    height = _content_height(panel.blocks, inner) + pad_top + 44
    if panel.style == "card":
        height = max(height, int(panel.width * 0.6))
    image = Image.new("RGB", (panel.width + 40, height + 40), (214, 210, 202))
    draw = ImageDraw.Draw(image)
    _frame(draw, panel, height)
    y = 20 + pad_top
    x = 20 + pad_x
    for block in panel.blocks:
        if isinstance(block, Title):
            for line in wrap(block.text, block.size, inner):
                _draw_line(
                    draw,
                    x,
                    y,
                    inner,
                    line,
                    block.size,
                    panel.accent if panel.style != "card" else (250, 250, 250),
                )
                y += _line_height(block.size)
            y += 6
        elif isinstance(block, Text | Field):
            text = block.text if isinstance(block, Text) else f"{block.label}: {block.value}"
            color = block.color if isinstance(block, Text) else INK
            if panel.style == "card":
                color = (245, 245, 245)
            for line in wrap(text, block.size, inner):
                _draw_line(draw, x, y, inner, line, block.size, color)
                y += _line_height(block.size)
        elif isinstance(block, Table):
            y = _draw_table(draw, x, y, inner, block)
        else:
            y += block.height
    return image


_WHITE_CARDS: dict[str, tuple[int, Color | None, int]] = {
    "label": (18, None, 6),
    "screen": (14, (60, 64, 74), 4),
    "post": (16, (200, 204, 214), 2),
}
"""Styles framed as a white rounded card: corner radius, outline (None: the panel's
accent) and outline width; the screen and the post then add their own details."""


def _frame(draw: ImageDraw.ImageDraw, panel: Panel, height: int) -> None:
    left, top, right, bottom = 20, 20, 20 + panel.width, 20 + height
    if panel.style == "card":
        draw.rounded_rectangle((left, top, right, bottom), radius=28, fill=panel.accent)
        draw.rounded_rectangle(
            (left + 40, top + height // 2 - 30, left + 110, top + height // 2 + 20),
            radius=8,
            fill=(214, 180, 90),
        )
    elif panel.style == "receipt":
        draw.rectangle((left, top, right, bottom), fill=(255, 255, 252))
        for x in range(left, right, 16):
            draw.polygon([(x, bottom), (x + 8, bottom - 8), (x + 16, bottom)], fill=(214, 210, 202))
    elif panel.style == "notice":
        draw.rectangle(
            (left, top, right, bottom), fill=(255, 252, 236), outline=(180, 140, 40), width=5
        )
    elif panel.style in _WHITE_CARDS:
        radius, outline, width = _WHITE_CARDS[panel.style]
        draw.rounded_rectangle(
            (left, top, right, bottom),
            radius=radius,
            fill=(255, 255, 255),
            outline=outline or panel.accent,
            width=width,
        )
        if panel.style == "screen":
            draw.rectangle((left + 4, top + 4, right - 4, top + 46), fill=(226, 230, 238))
            for i, color in enumerate(((236, 95, 90), (240, 190, 70), (90, 190, 100))):
                draw.ellipse(
                    (left + 18 + 24 * i, top + 17, left + 32 + 24 * i, top + 31), fill=color
                )
            if panel.extras.get("url"):
                draw.text(
                    (left + 110, top + 14),
                    panel.extras["url"],
                    font=font("latin", 18),
                    fill=_CAPTION,
                )
        elif panel.style == "post":
            draw.ellipse((left + 24, top + 28, left + 80, top + 84), fill=panel.accent)
    else:
        draw.rectangle(
            (left, top, right, bottom), fill=panel.background, outline=(140, 140, 150), width=2
        )
