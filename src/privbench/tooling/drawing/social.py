"""Social-media posts with avatar, handle, time stamp, text and an attached picture.

Why: the paper's NER items are tweets with their images (Twitter-2015/2017 multimodal
NER), where names, places and organisations appear in the text *and* in the picture.
:func:`street_scene` draws such a picture — a shop sign (organisation), a street sign
(place) and a person in a jersey with a printed name — and :func:`social_post` lays a
post out around it. Text in any script goes through :func:`~privbench.tooling.drawing.draw.put`.
"""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from privbench.tooling.drawing.colors import INK, MUTED, SKINS, Color
from privbench.tooling.drawing.draw import put, put_wrapped, text_height


def street_scene(
    rng: random.Random,
    shop_sign: str = "",
    street_sign: str = "",
    jersey: str = "",
    banner: str = "",
    size: tuple[int, int] = (680, 360),
) -> Image.Image:
    """A flat street picture: sky, a shop front with its sign, a street sign, a person."""
    width, height = size
    image = Image.new("RGB", size, (150 + rng.randrange(60), 190 + rng.randrange(40), 230))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, int(height * 0.78), width, height), fill=(120, 120, 126))
    wall = (rng.randrange(150, 230), rng.randrange(120, 200), rng.randrange(100, 180))
    draw.rectangle((20, 40, int(width * 0.72), int(height * 0.78)), fill=wall)
    for i in range(3):
        x = 50 + i * 150
        draw.rectangle((x, 150, x + 110, 250), fill=(190, 220, 235), outline=(80, 80, 90), width=3)
    if shop_sign:
        draw.rectangle((40, 60, int(width * 0.7), 120), fill=(30, 40, 60))
        put(draw, ((40 + width * 0.7) / 2, 90), shop_sign, 30, (250, 230, 150), anchor="mm")
    if banner:
        draw.rectangle(
            (40, 60, int(width * 0.7), 120), fill=(240, 240, 240), outline=(40, 60, 140), width=4
        )
        put(draw, ((40 + width * 0.7) / 2, 90), banner, 28, (40, 60, 140), anchor="mm")
    if street_sign:
        pole_x = int(width * 0.86)
        draw.rectangle((pole_x - 4, 60, pole_x + 4, int(height * 0.8)), fill=(90, 90, 90))
        draw.rectangle(
            (pole_x - 90, 60, pole_x + 90, 110),
            fill=(30, 110, 60),
            outline=(240, 240, 240),
            width=3,
        )
        put(draw, (pole_x, 85), street_sign, 22, (255, 255, 255), anchor="mm")
    if jersey:
        cx = int(width * 0.45) + rng.randrange(-30, 30)
        skin = rng.choice(SKINS[:3])
        shirt = rng.choice([(200, 40, 40), (30, 80, 170), (240, 200, 40), (30, 130, 70)])
        draw.ellipse((cx - 30, 130, cx + 30, 190), fill=skin)
        draw.polygon(
            [(cx - 80, 200), (cx + 80, 200), (cx + 95, height), (cx - 95, height)], fill=shirt
        )
        put(draw, (cx, 232), jersey, 24, (255, 255, 255), anchor="mm")
        put(draw, (cx, 280), str(rng.randrange(2, 30)), 40, (255, 255, 255), anchor="mm")
    return image


def _avatar(draw: ImageDraw.ImageDraw, x: int, y: int, name: str, color: Color) -> None:
    draw.ellipse((x, y, x + 64, y + 64), fill=color)
    initial = next((c for c in name if c.isalpha()), "?")
    put(draw, (x + 32, y + 32), initial.upper(), 28, (255, 255, 255), anchor="mm")


def social_post(
    rng: random.Random,
    display_name: str,
    handle: str,
    stamp: str,
    text: str,
    picture: Image.Image | None = None,
    counts: tuple[int, int, int] | None = None,
    width: int = 760,
) -> Image.Image:
    """A post card: avatar, display name, @handle · time, wrapped text, picture, counters."""
    inner = width - 60
    body = text_height(text, 26, inner)
    pic_height = 0 if picture is None else int(picture.height * inner / picture.width) + 16
    height = int(30 + 70 + 14 + body + pic_height + 60)
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (2, 2, width - 3, height - 3), radius=18, outline=(205, 208, 216), width=2
    )
    color = rng.choice(
        [(40, 90, 170), (170, 60, 90), (30, 130, 110), (120, 80, 170), (200, 110, 40)]
    )
    _avatar(draw, 30, 28, display_name, color)
    put(draw, (110, 30), display_name, 24, INK)
    put(draw, (110, 64), f"@{handle} · {stamp}", 19, MUTED)
    y = put_wrapped(draw, (30, 112), text, 26, inner)
    if picture is not None:
        shown = picture.resize((inner, pic_height - 16), Image.Resampling.LANCZOS)
        image.paste(shown, (30, int(y + 6)))
        y += pic_height
    replies, reposts, likes = counts or (
        rng.randrange(0, 40),
        rng.randrange(0, 90),
        rng.randrange(3, 900),
    )
    put(draw, (30, y + 14), f"{replies} replies    {reposts} reposts    {likes} likes", 18, MUTED)
    return image
