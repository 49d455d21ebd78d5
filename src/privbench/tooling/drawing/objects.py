"""Everyday objects drawn flat (RGBA), to be laid on a surface and photographed.

Each drawer takes the strings to print and returns the object with a transparent
background; :mod:`privbench.tooling.drawing.photo` composes and degrades them. Text sizes are
chosen so that the bundled OCR still reads the key strings after a moderate
degradation. The payment card keeps its chip above the number, never over a digit.
"""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from privbench.tooling.drawing.colors import INK, Color
from privbench.tooling.drawing.draw import put, put_wrapped


def _layer(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def payment_card(bank: str, number: str, expiry: str, holder: str, color: Color) -> Image.Image:
    """A payment card: bank name, chip (above the number), number, expiry, holder."""
    image, draw = _layer(640, 404)
    draw.rounded_rectangle((0, 0, 639, 403), radius=30, fill=(*color, 255))
    put(draw, (40, 34), bank, 30, (245, 245, 245))
    draw.rounded_rectangle((44, 110, 124, 170), radius=9, fill=(214, 180, 90, 255))
    draw.line((44, 140, 124, 140), fill=(170, 140, 60), width=2)
    draw.line((84, 110, 84, 170), fill=(170, 140, 60), width=2)
    put(draw, (40, 200), number, 44, (250, 250, 250))
    put(draw, (40, 272), f"VALID THRU {expiry}", 24, (235, 235, 235))
    put(draw, (40, 320), holder.upper(), 32, (250, 250, 250))
    return image


def gift_card(shop: str, amount: str, color: Color) -> Image.Image:
    """A store gift card with no personal data: same shape as a payment card."""
    image, draw = _layer(640, 404)
    draw.rounded_rectangle((0, 0, 639, 403), radius=30, fill=(*color, 255))
    put(draw, (40, 34), shop.upper(), 34, (250, 250, 250))
    put(draw, (40, 200), "GIFT CARD", 46, (250, 250, 250))
    put(draw, (40, 290), amount, 40, (250, 250, 250))
    return image


def pill_bottle(lines: list[tuple[str, int]], cap: Color = (236, 236, 236)) -> Image.Image:
    """An amber bottle with a white label carrying ``(text, size)`` lines."""
    image, draw = _layer(620, 520)
    draw.rounded_rectangle((70, 0, 550, 80), radius=14, fill=(*cap, 255))
    draw.rounded_rectangle((40, 70, 580, 519), radius=40, fill=(196, 112, 32, 255))
    draw.rectangle((52, 130, 568, 470), fill=(252, 252, 248, 255))
    y = 146
    for text, size in lines:
        put(draw, (70, y), text, size, INK)
        y += int(size * 1.35)
    return image


def envelope(sender: list[str], recipient: list[str], stamp: Color) -> Image.Image:
    """An addressed envelope: sender top-left, stamp top-right, recipient in the middle."""
    image, draw = _layer(820, 470)
    draw.rectangle((0, 0, 819, 469), fill=(246, 240, 224, 255), outline=(200, 190, 170), width=2)
    for index, line in enumerate(sender):
        put(draw, (30, 24 + index * 26), line, 20, (60, 60, 70))
    draw.rectangle((690, 24, 790, 134), fill=(*stamp, 255))
    draw.rectangle((700, 34, 780, 124), outline=(255, 255, 255), width=2)
    for index, line in enumerate(recipient):
        put(draw, (250, 230 + index * 44), line, 34, INK)
    return image


def letter(heading: str, lines: list[str], paper: Color = (252, 252, 248)) -> Image.Image:
    """A printed letter page with a heading and wrapped paragraphs."""
    image, draw = _layer(760, 900)
    draw.rectangle((0, 0, 759, 899), fill=(*paper, 255), outline=(210, 210, 210))
    put(draw, (50, 46), heading, 32, (30, 50, 110))
    y = 110.0
    for line in lines:
        y = put_wrapped(draw, (50, y), line, 25, 660) + 12
    return image


def test_kit(brand: str, lines: int, label: str = "") -> Image.Image:
    """A lateral-flow test (pregnancy or COVID-19): result window with C and T lines."""
    image, draw = _layer(560, 170)
    draw.rounded_rectangle(
        (0, 0, 559, 169), radius=60, fill=(250, 250, 252, 255), outline=(190, 190, 200), width=3
    )
    put(draw, (60, 20), brand, 28, (50, 80, 150))
    draw.rounded_rectangle(
        (260, 70, 420, 130), radius=12, fill=(236, 236, 230, 255), outline=(170, 170, 170)
    )
    put(draw, (280, 134), "C", 20, INK)
    put(draw, (380, 134), "T", 20, INK)
    draw.rectangle((285, 76, 293, 124), fill=(190, 40, 90))
    if lines >= 2:
        draw.rectangle((385, 76, 393, 124), fill=(200, 60, 110))
    draw.ellipse((460, 70, 520, 130), fill=(236, 236, 230), outline=(170, 170, 170))
    if label:
        put(draw, (60, 70), label, 22, INK)
    return image


def sticky_note(lines: list[str], color: Color = (252, 236, 120)) -> Image.Image:
    """A square sticky note with a few lines of text."""
    image, draw = _layer(460, 420)
    draw.rectangle((0, 0, 459, 419), fill=(*color, 255))
    draw.rectangle((0, 0, 459, 40), fill=(*tuple(max(0, c - 20) for c in color), 255))
    for index, line in enumerate(lines):
        put(draw, (28, 70 + index * 62), line, 36, (30, 40, 90))
    return image


def screen(content: Image.Image, bezel: Color = (26, 26, 30)) -> Image.Image:
    """A monitor or phone bezel around rendered screen content."""
    image, draw = _layer(content.width + 60, content.height + 90)
    draw.rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius=24, fill=(*bezel, 255))
    image.paste(content.convert("RGBA"), (30, 30))
    return image


def product_box(name: str, lines: list[str], color: Color) -> Image.Image:
    """A product packaging front: a brand band and printed lines (no personal data)."""
    image, draw = _layer(600, 520)
    draw.rectangle((0, 0, 599, 519), fill=(250, 248, 240, 255))
    draw.rectangle((0, 0, 599, 120), fill=(*color, 255))
    put(draw, (36, 36), name, 40, (255, 255, 255))
    y = 160.0
    for line in lines:
        y = put_wrapped(draw, (36, y), line, 28, 530) + 10
    return image


def mug(color: Color) -> Image.Image:
    """A mug seen from above: a ring, coffee and a handle."""
    image, draw = _layer(260, 220)
    draw.rounded_rectangle((180, 80, 250, 140), radius=20, outline=(*color, 255), width=14)
    draw.ellipse((0, 0, 210, 210), fill=(*color, 255))
    draw.ellipse((22, 22, 188, 188), fill=(70, 44, 30, 255))
    return image


def braille_display() -> Image.Image:
    """A refreshable braille display: a dark bar with rows of pins."""
    image, draw = _layer(700, 150)
    draw.rounded_rectangle((0, 0, 699, 149), radius=18, fill=(52, 54, 60, 255))
    for cell in range(18):
        for row in range(3):
            for col in range(2):
                x, y = 40 + cell * 34 + col * 10, 50 + row * 12
                draw.ellipse((x, y, x + 6, y + 6), fill=(200, 200, 205))
    return image


def keys(rng: random.Random) -> Image.Image:
    image, draw = _layer(260, 160)
    draw.ellipse((10, 40, 90, 120), outline=(150, 150, 160, 255), width=8)
    for index in range(2):
        angle = rng.uniform(-15, 25) + index * 25
        y = 60 + index * 22
        draw.rectangle(
            (80, y, 240 - index * 30, y + 18),
            fill=(190, 160, 60, 255) if index else (170, 170, 180, 255),
        )
        del angle
    return image
