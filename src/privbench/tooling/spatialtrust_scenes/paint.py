"""Painters: how each kind of element looks, drawn inside its own box.

Why each painter gets a canvas the size of the element's box (and nothing larger): a
painter cannot draw outside its evidence box even by mistake — whatever falls outside
the canvas is cut off when the canvas is pasted into the scene. Flat wall items are
painted face-on and then warped onto their wall (perspective); everything else is drawn
upright at the projected size. All shapes are built from Pillow primitives and the Noto
fonts of :mod:`privbench.tooling.drawing.fonts`, so the same plan gives the same pixels.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from privbench.tooling.drawing.colors import Color
from privbench.tooling.drawing.fonts import font
from privbench.tooling.spatialtrust_scenes.layout import (
    BALCONY_REACH,
    TABLE_DEPTH,
    Camera,
    Placed,
    Room,
)
from privbench.tooling.spatialtrust_scenes.vocabulary import GARMENTS, HAIRS, SKINS, TROUSERS

RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class Scene:
    """What painters may need to know about the whole capture."""

    camera: Camera
    room: Room
    brand: str
    user_hair: Color
    user_shirt: Color


@dataclass
class Canvas:
    """A transparent canvas covering exactly one element's box (or its face-on picture)."""

    image: Image.Image
    placed: Placed
    scene: Scene
    rng: random.Random

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)

    @property
    def w(self) -> int:
        return self.image.width

    @property
    def h(self) -> int:
        return self.image.height

    def at(self, fx: float, fy: float) -> tuple[float, float]:
        """A point given as fractions of the canvas."""
        return fx * self.w, fy * self.h

    def rect(
        self, fx1: float, fy1: float, fx2: float, fy2: float
    ) -> tuple[float, float, float, float]:
        return fx1 * self.w, fy1 * self.h, fx2 * self.w, fy2 * self.h

    def local(self, point: tuple[float, float]) -> tuple[float, float]:
        """An image point in canvas coordinates."""
        return point[0] - self.placed.box[0], point[1] - self.placed.box[1]


Painter = Callable[[Canvas], None]


def shade(color: Sequence[int], factor: float) -> Color:
    """``color`` darkened (factor < 1) or lightened (> 1)."""
    if factor <= 1:
        return (int(color[0] * factor), int(color[1] * factor), int(color[2] * factor))
    return (
        int(color[0] + (255 - color[0]) * (factor - 1)),
        int(color[1] + (255 - color[1]) * (factor - 1)),
        int(color[2] + (255 - color[2]) * (factor - 1)),
    )


def mix(a: Sequence[int], b: Sequence[int], t: float) -> Color:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


def _font(size: float) -> ImageFont.FreeTypeFont:
    return font("latin", max(6, int(size)))


def text_image(lines: Sequence[str], size: float, ink: RGBA, mirrored: bool = False) -> Image.Image:
    """Lines of text on a transparent image (mirrored as seen in a reflection)."""
    used = _font(size)
    width = int(max(used.getlength(line) for line in lines) + 4)
    height = int(len(lines) * size * 1.3 + 4)
    image = Image.new("RGBA", (max(width, 1), max(height, 1)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((2, 2 + row * size * 1.3), line, font=used, fill=ink)
    return image.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if mirrored else image


def paste_fit(canvas: Canvas, picture: Image.Image, box: tuple[float, float, float, float]) -> None:
    """Paste ``picture`` scaled to fit ``box`` (keeping its aspect ratio), centred."""
    x1, y1, x2, y2 = box
    if x2 - x1 < 2 or y2 - y1 < 2:
        return
    ratio = min((x2 - x1) / picture.width, (y2 - y1) / picture.height)
    size = (max(1, int(picture.width * ratio)), max(1, int(picture.height * ratio)))
    scaled = picture.resize(size, Image.Resampling.LANCZOS)
    left = int(x1 + (x2 - x1 - size[0]) / 2)
    top = int(y1 + (y2 - y1 - size[1]) / 2)
    canvas.image.alpha_composite(scaled, (max(0, left), max(0, top)))


# --- login screens and reflections ----------------------------------------------------------


def login_page(brand: str, width: int, height: int, rng: random.Random) -> Image.Image:
    """The login page on the user's laptop, as shown on a display (not mirrored)."""
    accent = rng.choice([(36, 92, 170), (20, 120, 100), (150, 40, 60), (90, 60, 150), (30, 30, 30)])
    page = Image.new("RGBA", (width, height), (246, 248, 252, 255))
    draw = ImageDraw.Draw(page)
    draw.rectangle((0, 0, width, int(height * 0.16)), fill=(*accent, 255))
    title = _font(height * 0.09)
    draw.text((width * 0.05, height * 0.03), brand, font=title, fill=(255, 255, 255, 255))
    label = _font(height * 0.065)
    fx1, fx2 = width * 0.22, width * 0.78
    draw.text((fx1, height * 0.22), "Sign in", font=_font(height * 0.085), fill=(30, 30, 40, 255))
    for row, (name, value) in enumerate((("User name", "j.morgan"), ("Password", "••••••••"))):
        top = height * (0.38 + row * 0.22)
        draw.text((fx1, top), name, font=label, fill=(80, 86, 100, 255))
        draw.rectangle(
            (fx1, top + height * 0.075, fx2, top + height * 0.17),
            outline=(150, 156, 170, 255),
            width=max(1, height // 120),
            fill=(255, 255, 255, 255),
        )
        draw.text(
            (fx1 + width * 0.02, top + height * 0.085), value, font=label, fill=(20, 20, 30, 255)
        )
    draw.rounded_rectangle(
        (fx1, height * 0.84, fx2, height * 0.94), radius=max(1, height // 40), fill=(*accent, 255)
    )
    return page


def reflection_of_screen(
    scene: Scene, width: int, height: int, rng: random.Random, dim: float
) -> Image.Image:
    """What a mirror or a dark pane behind the user shows: the back of the user's head and
    beside it the lit laptop screen, mirrored, at ``dim`` brightness (1 = a clear mirror)."""
    layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    page = login_page(scene.brand, 300, 200, rng).transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    sw = int(width * 0.46)
    sh = int(sw * 0.66)
    page = page.resize((max(1, sw), max(1, sh)), Image.Resampling.LANCZOS)
    alpha = int(255 * min(1.0, dim))
    page.putalpha(alpha)
    left = int(width * (0.5 + rng.uniform(-0.1, 0.06)))
    top = int(height * 0.5)
    draw = ImageDraw.Draw(layer)
    head_w = int(width * 0.3)
    hx = left - int(head_w * 0.7)
    draw.ellipse(
        (hx, top - int(head_w * 0.35), hx + head_w, top + int(head_w * 0.9)),
        fill=(*scene.user_hair, alpha),
    )
    draw.rounded_rectangle(
        (hx - head_w // 2, top + int(head_w * 0.8), hx + int(head_w * 1.5), height + head_w),
        radius=head_w // 3,
        fill=(*shade(scene.user_shirt, 0.8), alpha),
    )
    frame = (left - 4, top - 4, left + sw + 4, top + sh + 4)
    draw.rectangle(frame, fill=(30, 30, 34, alpha))
    layer.alpha_composite(page, (left, top))
    return layer


# --- people ---------------------------------------------------------------------------------


def person(canvas: Canvas) -> None:
    """A person standing, walking or seated; facing the camera, turned sideways or away."""
    attrs = canvas.placed.attrs
    rng = canvas.rng
    w, h = canvas.w, canvas.h
    seated = attrs.get("pose") == "seated"
    facing = attrs.get("facing", "front")
    hold = attrs.get("hold", "")
    turn = attrs.get("turn", "left")
    garment = GARMENTS[int(attrs.get("garment", "0"))][1]
    skin = SKINS[int(attrs.get("skin", "0"))]
    hair = HAIRS[int(attrs.get("hair", "0"))]
    trousers = TROUSERS[int(attrs.get("trousers", "0"))]
    draw = canvas.draw
    # metres → pixels: the box spans the person's height, or head to seat when seated
    # (layout: a seated person's head is at 0.78 of their height, the seat at 0.45 m)
    unit = h / (1.72 * 0.78 + 0.02 - 0.45 if seated else 1.72)
    cx = w / 2
    head_h, head_w = 0.235 * unit, 0.18 * unit
    top = 0.0
    head_box = (cx - head_w / 2, top, cx + head_w / 2, top + head_h)
    shoulder_y = top + head_h + 0.05 * unit
    profile = facing == "side"
    half = (0.15 if profile else 0.22) * unit
    hip_y = shoulder_y + 0.58 * unit
    # legs (standing or walking); a seated person ends at the seat, the table hides the rest
    if not seated:
        foot_y = h - 1
        if attrs.get("pose") == "walking":
            stride = 0.22 * unit
            for sign in (-1, 1):
                draw.polygon(
                    [
                        (cx - 0.07 * unit, hip_y),
                        (cx + 0.07 * unit, hip_y),
                        (cx + sign * stride + 0.05 * unit, foot_y - 0.05 * unit),
                        (cx + sign * stride - 0.06 * unit, foot_y - 0.05 * unit),
                    ],
                    fill=shade(trousers, 1.0 if sign > 0 else 0.85),
                )
                draw.ellipse(
                    (
                        cx + sign * stride - 0.08 * unit,
                        foot_y - 0.07 * unit,
                        cx + sign * stride + 0.08 * unit,
                        foot_y,
                    ),
                    fill=(30, 28, 28),
                )
        else:
            gap = 0.02 * unit
            leg = 0.085 * unit if not profile else 0.09 * unit
            spans = (
                [(cx - leg, cx + leg)]
                if profile
                else [(cx - gap - 2 * leg, cx - gap), (cx + gap, cx + gap + 2 * leg)]
            )
            for left, right in spans:
                draw.rectangle(
                    (left, hip_y - 0.02 * unit, right, foot_y - 0.06 * unit), fill=trousers
                )
                draw.rounded_rectangle(
                    (left - 0.02 * unit, foot_y - 0.08 * unit, right + 0.03 * unit, foot_y),
                    radius=0.03 * unit,
                    fill=(32, 30, 30),
                )
    # torso
    bottom = h if seated else hip_y + 0.08 * unit
    draw.rounded_rectangle(
        (cx - half, shoulder_y, cx + half, bottom), radius=0.07 * unit, fill=garment
    )
    if GARMENTS[int(attrs.get("garment", "0"))][0] == "a striped shirt":
        y = shoulder_y + 0.06 * unit
        while y < bottom - 0.03 * unit:
            draw.line(
                (cx - half + 2, y, cx + half - 2, y),
                fill=(236, 236, 236),
                width=max(1, int(0.018 * unit)),
            )
            y += 0.07 * unit
    draw.rectangle(
        (cx - 0.05 * unit, top + head_h - 0.02 * unit, cx + 0.05 * unit, shoulder_y + 0.02 * unit),
        fill=shade(skin, 0.9),
    )
    # arms
    sleeve = shade(garment, 0.85)
    arm_w = 0.075 * unit
    if hold == "phone-up":
        # filming: both forearms raised, the phone held up in front of the face with its
        # back and lens toward the camera; only the eyes show above it
        _head(canvas, head_box, skin, hair, "front", attrs)
        px = cx + (0.03 if turn == "right" else -0.03) * unit
        pw, ph = 0.1 * unit, 0.17 * unit
        phone = (px - pw / 2, top + head_h * 0.62, px + pw / 2, top + head_h * 0.62 + ph)
        for sign in (-1, 1):
            x_out = cx + sign * (half + arm_w / 2)
            elbow = (x_out, shoulder_y + 0.34 * unit)
            hand = (px + sign * pw * 0.45, phone[1] + ph * 0.7)
            draw.line((x_out, shoulder_y + 0.04 * unit, *elbow), fill=sleeve, width=int(arm_w))
            draw.line((*elbow, *hand), fill=sleeve, width=int(arm_w))
            draw.ellipse(
                (
                    hand[0] - arm_w * 0.6,
                    hand[1] - arm_w * 0.6,
                    hand[0] + arm_w * 0.6,
                    hand[1] + arm_w * 0.6,
                ),
                fill=skin,
            )
        draw.rounded_rectangle(
            phone,
            radius=pw * 0.16,
            fill=(24, 24, 28),
            outline=(90, 90, 98),
            width=max(1, int(unit * 0.006)),
        )
        lens = pw * 0.26
        for dy in (0.0, lens * 1.2):
            draw.ellipse(
                (
                    phone[0] + pw * 0.14,
                    phone[1] + pw * 0.14 + dy,
                    phone[0] + pw * 0.14 + lens,
                    phone[1] + pw * 0.14 + lens + dy,
                ),
                fill=(60, 80, 130),
                outline=(170, 170, 180),
            )
        return
    if profile:
        draw.rounded_rectangle(
            (cx - arm_w / 2, shoulder_y + 0.03 * unit, cx + arm_w / 2, shoulder_y + 0.6 * unit),
            radius=arm_w / 2,
            fill=sleeve,
        )
        if attrs.get("pose") == "walking":
            draw.line(
                (
                    cx,
                    shoulder_y + 0.05 * unit,
                    cx + (0.16 if turn == "right" else -0.16) * unit,
                    shoulder_y + 0.55 * unit,
                ),
                fill=sleeve,
                width=int(arm_w),
            )
    else:
        for sign in (-1, 1):
            x_out = cx + sign * half
            draw.rounded_rectangle(
                (
                    min(x_out, x_out + sign * arm_w * 0.2) - (arm_w if sign < 0 else 0),
                    shoulder_y + 0.03 * unit,
                    max(x_out, x_out) + (arm_w if sign > 0 else 0),
                    shoulder_y + (0.5 if seated else 0.62) * unit,
                ),
                radius=arm_w / 2,
                fill=sleeve,
            )
    if hold == "book":
        direction = 1 if turn == "right" else -1
        bx = cx + direction * 0.12 * unit
        by = shoulder_y + 0.1 * unit
        book = (bx - 0.1 * unit, by, bx + 0.1 * unit, by + 0.14 * unit)
        draw.polygon(
            [
                (book[0], book[1] + 0.02 * unit),
                ((book[0] + book[2]) / 2, book[1]),
                (book[2], book[1] + 0.02 * unit),
                (book[2], book[3]),
                ((book[0] + book[2]) / 2, book[3] - 0.02 * unit),
                (book[0], book[3]),
            ],
            fill=(244, 240, 228),
            outline=(120, 60, 50),
        )
        draw.line(
            ((book[0] + book[2]) / 2, book[1], (book[0] + book[2]) / 2, book[3] - 0.02 * unit),
            fill=(150, 140, 130),
            width=1,
        )
    _head(canvas, head_box, skin, hair, facing, attrs)
    del rng


def _head(
    canvas: Canvas,
    box: tuple[float, float, float, float],
    skin: Color,
    hair: Color,
    facing: str,
    attrs: Mapping[str, str],
) -> None:
    """A head: face toward the camera (eyes on the screen), in profile, or from behind."""
    draw = canvas.draw
    get = attrs.get
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    style = get("style", "short")
    turn = get("turn", "left")
    look = get("look", "screen")
    if style == "long" and facing != "side":
        draw.rounded_rectangle(
            (x1 - w * 0.08, y1 + h * 0.1, x2 + w * 0.08, y2 + h * 0.45),
            radius=w * 0.3,
            fill=shade(hair, 0.9),
        )
    if facing == "back":
        draw.ellipse(box, fill=hair)
        if style == "bun":
            draw.ellipse(
                (x1 + w * 0.3, y1 - h * 0.12, x2 - w * 0.3, y1 + h * 0.25), fill=shade(hair, 0.85)
            )
        if style == "cap":
            draw.chord((x1 - 1, y1 - 1, x2 + 1, y1 + h * 0.8), 180, 360, fill=(40, 60, 120))
        return
    draw.ellipse(box, fill=skin)
    if facing == "side":
        sign = -1 if turn == "left" else 1
        nose_x = (x1 if sign < 0 else x2) + sign * w * 0.06
        draw.polygon(
            [
                (x1 + w / 2 + sign * w * 0.42, y1 + h * 0.42),
                (nose_x, y1 + h * 0.6),
                (x1 + w / 2 + sign * w * 0.4, y1 + h * 0.64),
            ],
            fill=skin,
        )
        back = (
            (x1 - w * 0.04, y1 - h * 0.04, x1 + w * 0.62, y2 - h * 0.25)
            if sign > 0
            else (x2 - w * 0.62, y1 - h * 0.04, x2 + w * 0.04, y2 - h * 0.25)
        )
        draw.chord(
            (x1 - w * 0.02, y1 - h * 0.05, x2 + w * 0.02, y1 + h * 0.75), 180, 360, fill=hair
        )
        draw.ellipse(back, fill=hair)
        ex = x1 + w / 2 + sign * w * 0.25
        ey = y1 + h * (0.5 if look != "down" else 0.53)
        r = max(1.0, w * 0.045)
        if look == "down":
            draw.line((ex - r, ey, ex + r, ey), fill=(40, 30, 30), width=max(1, int(r / 1.5)))
        else:
            draw.ellipse((ex - r, ey - r, ex + r, ey + r), fill=(35, 30, 30))
        return
    # facing the camera: hair behind, the face over it, so the hairline follows the head
    draw.ellipse((x1 - w * 0.04, y1 - h * 0.02, x2 + w * 0.04, y1 + h * 0.75), fill=hair)
    draw.ellipse((x1 + w * 0.03, y1 + h * 0.16, x2 - w * 0.03, y2), fill=skin)
    if style == "bun":
        draw.ellipse((x1 + w * 0.32, y1 - h * 0.14, x2 - w * 0.32, y1 + h * 0.14), fill=hair)
    if style == "cap":
        draw.chord((x1 - 1, y1 - h * 0.06, x2 + 1, y1 + h * 0.7), 180, 360, fill=(40, 60, 120))
        draw.rectangle((x1 + w * 0.1, y1 + h * 0.3, x2 - w * 0.1, y1 + h * 0.36), fill=(30, 46, 96))
    ey = y1 + h * 0.52
    r = max(1.2, w * 0.075)
    for ex in (x1 + w * 0.32, x1 + w * 0.68):
        draw.ellipse((ex - r, ey - r * 0.75, ex + r, ey + r * 0.75), fill=(250, 250, 250))
        pr = r * 0.55
        drop = r * 0.15 if look == "screen" else 0.0
        draw.ellipse((ex - pr, ey - pr + drop, ex + pr, ey + pr + drop), fill=(30, 26, 24))
        draw.line(
            (ex - r, ey - r * 1.5, ex + r, ey - r * 1.6),
            fill=shade(hair, 0.8),
            width=max(1, int(r * 0.4)),
        )
    draw.line(
        (x1 + w * 0.5, ey + r * 0.5, x1 + w * 0.46, y1 + h * 0.7),
        fill=shade(skin, 0.8),
        width=max(1, int(r * 0.35)),
    )
    draw.line(
        (x1 + w * 0.38, y1 + h * 0.8, x1 + w * 0.62, y1 + h * 0.8),
        fill=(150, 70, 66),
        width=max(1, int(r * 0.45)),
    )


def user(image: Image.Image, x: float, head: float, scale: float, attrs: dict[str, str]) -> None:
    """The primary subject: the user at the laptop, seen from the laptop's camera."""
    draw = ImageDraw.Draw(image)
    skin = SKINS[int(attrs.get("skin", "0"))]
    hair = HAIRS[int(attrs.get("hair", "0"))]
    shirt = GARMENTS[int(attrs.get("garment", "0"))][1]
    s = scale
    head_w, head_h = 250 * s, 320 * s
    hx1, hy1 = x - head_w / 2, head
    neck_top = hy1 + head_h * 0.8
    draw.rounded_rectangle(
        (x - 360 * s, head + 300 * s, x + 360 * s, 1100), radius=int(130 * s), fill=shirt
    )
    # upper arms along the sides (reaching for the keyboard below the frame) and the
    # shirt's folds, so the torso reads as a body rather than a block
    for sign in (-1, 1):
        draw.rounded_rectangle(
            (x + sign * 360 * s - (0 if sign < 0 else 120 * s), head + 330 * s,
             x + sign * 360 * s + (120 * s if sign < 0 else 0), 1100),
            radius=int(60 * s),
            fill=shade(shirt, 0.86),
        )  # fmt: skip
        draw.line(
            (x + sign * 240 * s, head + 420 * s, x + sign * 200 * s, 1000),
            fill=shade(shirt, 0.8),
            width=max(2, int(6 * s)),
        )
    draw.polygon(
        [(x - 70 * s, head + 300 * s), (x + 70 * s, head + 300 * s), (x, head + 380 * s)],
        fill=shade(skin, 0.85),
    )
    draw.rectangle((x - 58 * s, neck_top, x + 58 * s, head + 310 * s), fill=shade(skin, 0.88))
    style = attrs.get("style", "short")
    if style == "long":
        draw.rounded_rectangle(
            (hx1 - 26 * s, hy1 + 30 * s, hx1 + head_w + 26 * s, hy1 + head_h + 80 * s),
            radius=int(90 * s),
            fill=shade(hair, 0.9),
        )
    # hair first, the face over it, a fringe last: the hairline follows the head
    draw.ellipse(
        (hx1 - 10 * s, hy1 - 16 * s, hx1 + head_w + 10 * s, hy1 + head_h * 0.78), fill=hair
    )
    if style == "bun":
        draw.ellipse((x - 50 * s, hy1 - 60 * s, x + 50 * s, hy1 + 20 * s), fill=hair)
    draw.ellipse(
        (hx1 - 14 * s, hy1 + head_h * 0.42, hx1 + 16 * s, hy1 + head_h * 0.62),
        fill=shade(skin, 0.92),
    )
    draw.ellipse(
        (hx1 + head_w - 16 * s, hy1 + head_h * 0.42, hx1 + head_w + 14 * s, hy1 + head_h * 0.62),
        fill=shade(skin, 0.92),
    )
    draw.ellipse((hx1 + 6 * s, hy1 + head_h * 0.16, hx1 + head_w - 6 * s, hy1 + head_h), fill=skin)
    part = -1 if attrs.get("turn") == "left" else 1
    draw.polygon(
        [
            (hx1 + 4 * s, hy1 + head_h * 0.3),
            (x + part * 60 * s, hy1 + head_h * 0.12),
            (hx1 + head_w - 4 * s, hy1 + head_h * 0.3),
            (hx1 + head_w - 2 * s, hy1 + head_h * 0.16),
            (x, hy1 - 4 * s),
            (hx1 + 2 * s, hy1 + head_h * 0.16),
        ],
        fill=hair,
    )
    if style == "cap":
        draw.chord(
            (hx1 - 12 * s, hy1 - 22 * s, hx1 + head_w + 12 * s, hy1 + head_h * 0.55),
            180,
            360,
            fill=(40, 60, 120),
        )
        draw.rectangle(
            (hx1 - 12 * s, hy1 + head_h * 0.24, hx1 + head_w + 12 * s, hy1 + head_h * 0.3),
            fill=(30, 46, 96),
        )
    ey = hy1 + head_h * 0.5
    for ex in (x - 52 * s, x + 52 * s):
        draw.ellipse((ex - 20 * s, ey - 11 * s, ex + 20 * s, ey + 11 * s), fill=(250, 250, 250))
        draw.ellipse((ex - 9 * s, ey - 7 * s, ex + 9 * s, ey + 11 * s), fill=(40, 32, 28))
        draw.line(
            (ex - 24 * s, ey - 28 * s, ex + 22 * s, ey - 31 * s),
            fill=shade(hair, 0.8),
            width=max(2, int(7 * s)),
        )
    draw.polygon(
        [(x, ey + 8 * s), (x - 16 * s, ey + 70 * s), (x + 10 * s, ey + 72 * s)],
        fill=shade(skin, 0.86),
    )
    draw.arc(
        (x - 42 * s, ey + 84 * s, x + 42 * s, ey + 120 * s),
        20,
        160,
        fill=(150, 70, 66),
        width=max(2, int(6 * s)),
    )
    if attrs.get("glasses") == "yes":
        for ex in (x - 52 * s, x + 52 * s):
            draw.rounded_rectangle(
                (ex - 34 * s, ey - 24 * s, ex + 34 * s, ey + 22 * s),
                radius=int(10 * s),
                outline=(40, 40, 44),
                width=max(2, int(5 * s)),
            )
        draw.line(
            (x - 18 * s, ey - 6 * s, x + 18 * s, ey - 6 * s),
            fill=(40, 40, 44),
            width=max(2, int(5 * s)),
        )


# --- cameras and devices --------------------------------------------------------------------


def tripod(canvas: Canvas) -> None:
    """A camera on a tripod: lens toward the camera (aimed at the user) or in profile."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    cx = w / 2
    head_y = h * 0.2
    leg = (44, 44, 48)
    lw = max(2, int(w * 0.035))
    for foot in (w * 0.04, cx, w * 0.96):
        draw.line((cx, head_y + h * 0.08, foot, h - 2), fill=leg, width=lw)
    draw.line((cx, head_y, cx, h * 0.62), fill=leg, width=lw + 1)
    body = (cx - w * 0.36, h * 0.02, cx + w * 0.36, head_y + h * 0.04)
    if canvas.placed.attrs.get("aim") == "user":
        draw.rounded_rectangle(body, radius=w * 0.05, fill=(28, 28, 32))
        r = w * 0.2
        cy = (body[1] + body[3]) / 2
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=(60, 60, 68),
            outline=(120, 120, 128),
            width=max(1, int(w * 0.02)),
        )
        draw.ellipse((cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), fill=(30, 50, 90))
        draw.ellipse(
            (cx - r * 0.25, cy - r * 0.35, cx - r * 0.02, cy - r * 0.12), fill=(180, 200, 240)
        )
        draw.ellipse(
            (body[2] - w * 0.1, body[1] + w * 0.03, body[2] - w * 0.04, body[1] + w * 0.09),
            fill=(220, 40, 40),
        )
    else:  # turned sideways: the lens barrel points along the wall
        draw.rounded_rectangle(
            (cx - w * 0.2, body[1], cx + w * 0.12, body[3]), radius=w * 0.04, fill=(28, 28, 32)
        )
        direction = 1 if canvas.placed.attrs.get("variant", "0") < "5" else -1
        x_end = cx + direction * w * 0.44
        draw.rectangle(
            (min(cx, x_end), body[1] + h * 0.03, max(cx, x_end), body[3] - h * 0.03),
            fill=(50, 50, 56),
        )


def cctv(canvas: Canvas) -> None:
    """A bullet security camera on a bracket: facing the user or pointed elsewhere."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    toward = canvas.placed.attrs.get("aim") == "user"
    wall = canvas.placed.attrs.get("wall", "back")
    mount_x = w * (0.5 if wall == "back" else (0.1 if wall == "left" else 0.9))
    draw.rectangle((mount_x - w * 0.08, 0, mount_x + w * 0.08, h * 0.16), fill=(200, 200, 204))
    draw.rectangle(
        (mount_x - w * 0.03, h * 0.1, mount_x + w * 0.03, h * 0.45), fill=(170, 170, 176)
    )
    housing = (236, 236, 238)
    if toward:  # seen from the front: the round lens and a red light
        draw.rounded_rectangle(
            (w * 0.06, h * 0.35, w * 0.94, h * 0.98),
            radius=w * 0.12,
            fill=housing,
            outline=(150, 150, 156),
        )
        draw.ellipse((w * 0.3, h * 0.45, w * 0.7, h * 0.95), fill=(25, 25, 30))
        draw.ellipse((w * 0.41, h * 0.58, w * 0.59, h * 0.82), fill=(50, 70, 110))
        draw.ellipse((w * 0.76, h * 0.42, w * 0.86, h * 0.55), fill=(230, 30, 30))
    else:  # seen from the side: a long housing pointing along the wall, no lens in view
        direction = (
            -1
            if wall == "right" or (wall == "back" and canvas.placed.attrs.get("variant", "0") < "5")
            else 1
        )
        x_far = w * 0.5 + direction * w * 0.48
        x_near = w * 0.5 - direction * w * 0.46
        draw.polygon(
            [(x_near, h * 0.42), (x_far, h * 0.55), (x_far, h * 0.88), (x_near, h * 0.96)],
            fill=housing,
            outline=(150, 150, 156),
        )
        draw.rectangle(
            (
                min(x_far, x_far - direction * w * 0.05),
                h * 0.55,
                max(x_far, x_far - direction * w * 0.05),
                h * 0.88,
            ),
            fill=(60, 60, 66),
        )


def smallcam(canvas: Canvas) -> None:
    """A small indoor security camera with its recording light on."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.rectangle((w * 0.4, h * 0.7, w * 0.6, h), fill=(210, 210, 214))
    draw.rounded_rectangle(
        (0, 0, w - 1, h * 0.78), radius=w * 0.3, fill=(248, 248, 250), outline=(160, 160, 166)
    )
    draw.ellipse((w * 0.25, h * 0.14, w * 0.75, h * 0.62), fill=(20, 20, 24))
    draw.ellipse((w * 0.4, h * 0.27, w * 0.6, h * 0.49), fill=(60, 80, 130))
    draw.ellipse((w * 0.7, h * 0.05, w * 0.88, h * 0.2), fill=(40, 140, 255))


def smoke(canvas: Canvas) -> None:
    """A smoke alarm: a white disc, vents, a tiny status light — no lens."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.ellipse((0, 0, w - 1, h - 1), fill=(244, 244, 240), outline=(170, 170, 166))
    draw.ellipse(
        (w * 0.2, h * 0.2, w * 0.8, h * 0.8), outline=(200, 200, 196), width=max(1, int(w * 0.04))
    )
    for i in range(6):
        a = i * math.pi / 3
        x, y = w / 2 + math.cos(a) * w * 0.18, h / 2 + math.sin(a) * h * 0.18
        draw.ellipse((x - w * 0.03, y - h * 0.03, x + w * 0.03, y + h * 0.03), fill=(190, 190, 186))
    draw.ellipse((w * 0.46, h * 0.46, w * 0.54, h * 0.54), fill=(60, 200, 80))


def clock(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.ellipse((0, 0, w - 1, h - 1), fill=(40, 40, 44))
    draw.ellipse((w * 0.07, h * 0.07, w * 0.93, h * 0.93), fill=(248, 246, 238))
    for i in range(12):
        a = i * math.pi / 6
        draw.line(
            (
                w / 2 + math.cos(a) * w * 0.36,
                h / 2 + math.sin(a) * h * 0.36,
                w / 2 + math.cos(a) * w * 0.42,
                h / 2 + math.sin(a) * h * 0.42,
            ),
            fill=(40, 40, 44),
            width=max(1, int(w * 0.025)),
        )
    hour = int(canvas.placed.attrs.get("variant", "0")) % 12
    for length, angle, width in (
        (0.24, hour * math.pi / 6 - math.pi / 2, 0.05),
        (0.36, (hour * 5 % 60) * math.pi / 30 + 0.9, 0.03),
    ):
        draw.line(
            (
                w / 2,
                h / 2,
                w / 2 + math.cos(angle) * w * length,
                h / 2 + math.sin(angle) * h * length,
            ),
            fill=(30, 30, 30),
            width=max(1, int(w * width)),
        )


def convex(canvas: Canvas) -> None:
    """A convex security mirror: a dome showing a distorted, wide view of the room."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    room = canvas.scene.room
    draw.ellipse((0, 0, w - 1, h - 1), fill=(30, 30, 30))
    inner = (w * 0.06, h * 0.06, w * 0.94, h * 0.94)
    draw.ellipse(inner, fill=shade(room.wall, 0.9))
    draw.chord(inner, 20, 160, fill=shade(room.wall, 0.62))
    for i in range(5):
        x = w * (0.22 + 0.14 * i)
        draw.line((w / 2, h * 0.5, x, h * 0.92), fill=shade(room.wall, 0.5), width=1)
    draw.ellipse((w * 0.4, h * 0.5, w * 0.6, h * 0.66), fill=shade(canvas.scene.user_hair, 1.0))
    draw.rectangle((w * 0.58, h * 0.52, w * 0.7, h * 0.6), fill=(220, 232, 255))
    draw.arc(
        (w * 0.14, h * 0.1, w * 0.6, h * 0.5),
        190,
        260,
        fill=(255, 255, 255),
        width=max(1, int(w * 0.04)),
    )


# --- wall pictures: painted face-on, then warped onto the wall ------------------------------


def frame(canvas: Canvas, color: Color, border: float) -> tuple[float, float, float, float]:
    """A frame around the canvas; returns the inner rectangle."""
    canvas.draw.rectangle((0, 0, canvas.w - 1, canvas.h - 1), fill=color)
    b = max(2.0, border * min(canvas.w, canvas.h))
    return b, b, canvas.w - 1 - b, canvas.h - 1 - b


def mirror(canvas: Canvas) -> None:
    rng = canvas.rng
    inner = frame(
        canvas, rng.choice([(150, 112, 70), (40, 40, 44), (200, 180, 120), (230, 230, 232)]), 0.06
    )
    glass = mix(canvas.scene.room.wall, (210, 225, 235), 0.45)
    canvas.draw.rectangle(inner, fill=glass)
    iw, ih = int(inner[2] - inner[0]), int(inner[3] - inner[1])
    if canvas.placed.attrs.get("shows") == "screen":
        canvas.image.alpha_composite(
            reflection_of_screen(canvas.scene, iw, ih, rng, 0.95), (int(inner[0]), int(inner[1]))
        )
    else:  # the wall opposite and a lamp: nothing readable
        canvas.draw.rectangle(
            (inner[0], inner[1] + ih * 0.72, inner[2], inner[3]), fill=shade(glass, 0.85)
        )
        canvas.draw.rectangle(
            (inner[0] + iw * 0.15, inner[1] + ih * 0.2, inner[0] + iw * 0.35, inner[1] + ih * 0.72),
            fill=shade(glass, 0.9),
        )
    canvas.draw.line(
        (inner[0] + iw * 0.7, inner[1], inner[0] + iw * 0.95, inner[1] + ih * 0.3),
        fill=(250, 252, 255),
        width=max(1, iw // 25),
    )


def window(canvas: Canvas) -> None:
    """A window: onto a corridor, onto the street, dark at night (with or without the
    laptop screen reflected in it), or with its blinds closed."""
    view = canvas.placed.attrs.get("view", "street")
    rng = canvas.rng
    draw = canvas.draw
    inner = frame(canvas, (236, 236, 232) if view != "corridor" else (120, 124, 130), 0.05)
    x1, y1, x2, y2 = inner
    iw, ih = x2 - x1, y2 - y1
    if view == "corridor":
        draw.rectangle(inner, fill=(214, 214, 206))
        vx, vy = x1 + iw * rng.uniform(0.4, 0.6), y1 + ih * 0.45
        draw.polygon(
            [(x1, y2), (x2, y2), (vx + iw * 0.08, vy + ih * 0.1), (vx - iw * 0.08, vy + ih * 0.1)],
            fill=(170, 160, 140),
        )
        draw.polygon(
            [
                (x1, y1),
                (x2, y1),
                (vx + iw * 0.08, vy - ih * 0.12),
                (vx - iw * 0.08, vy - ih * 0.12),
            ],
            fill=(236, 236, 232),
        )
        draw.rectangle(
            (vx - iw * 0.08, vy - ih * 0.12, vx + iw * 0.08, vy + ih * 0.1), fill=(190, 196, 200)
        )
        for t in (0.25, 0.6):
            dx = x1 + (vx - x1) * t
            draw.polygon(
                [
                    (dx, y1 + (vy - y1) * t + ih * 0.05),
                    (dx + iw * 0.06, y1 + (vy - y1) * (t + 0.1) + ih * 0.05),
                    (dx + iw * 0.06, y2 - (y2 - vy) * (t + 0.12)),
                    (dx, y2 - (y2 - vy) * t),
                ],
                fill=(140, 106, 74),
            )
        for t in (0.2, 0.5):
            lx = vx + (x2 - vx) * (1 - t) * 0.6
            draw.rectangle(
                (
                    lx - iw * 0.04,
                    y1 + ih * 0.04 + (vy - y1) * t * 0.4,
                    lx + iw * 0.04,
                    y1 + ih * 0.07 + (vy - y1) * t * 0.4,
                ),
                fill=(255, 255, 240),
            )
    elif view == "street":
        sky = rng.choice([(170, 205, 235), (200, 214, 226), (150, 190, 230)])
        draw.rectangle(inner, fill=sky)
        ground = y1 + ih * 0.72
        bx = x1
        while bx < x2:
            bw = iw * rng.uniform(0.16, 0.3)
            top = y1 + ih * rng.uniform(0.1, 0.45)
            col = rng.choice([(170, 150, 130), (150, 150, 160), (190, 170, 150), (120, 110, 110)])
            draw.rectangle((bx, top, min(x2, bx + bw), ground), fill=col)
            for wy in range(int(top + ih * 0.05), int(ground - ih * 0.08), max(3, int(ih * 0.09))):
                for wx in range(
                    int(bx + bw * 0.15), int(min(x2, bx + bw) - bw * 0.15), max(3, int(bw * 0.3))
                ):
                    draw.rectangle((wx, wy, wx + bw * 0.12, wy + ih * 0.04), fill=(90, 110, 130))
            bx += bw
        draw.rectangle((x1, ground, x2, y2), fill=(120, 120, 118))
        draw.rectangle((x1, ground, x2, ground + ih * 0.05), fill=(160, 156, 150))
        for _ in range(rng.randrange(1, 4)):  # pedestrians on the pavement, small
            px = x1 + iw * rng.uniform(0.08, 0.92)
            ph = ih * rng.uniform(0.16, 0.22)
            col = rng.choice([(60, 60, 90), (140, 50, 50), (50, 90, 60), (40, 40, 40)])
            draw.rectangle(
                (px - ph * 0.12, ground + ih * 0.04 - ph * 0.8, px + ph * 0.12, ground + ih * 0.04),
                fill=col,
            )
            draw.ellipse(
                (
                    px - ph * 0.1,
                    ground + ih * 0.04 - ph,
                    px + ph * 0.1,
                    ground + ih * 0.04 - ph * 0.8,
                ),
                fill=(200, 160, 130),
            )
    elif view in ("night", "night-reflection"):
        draw.rectangle(inner, fill=(14, 20, 36))
        for _ in range(rng.randrange(3, 9)):
            lx, ly = x1 + iw * rng.uniform(0.05, 0.95), y1 + ih * rng.uniform(0.3, 0.7)
            r = max(1.0, iw * 0.008)
            draw.ellipse((lx - r, ly - r, lx + r, ly + r), fill=(250, 220, 140))
        if view == "night-reflection":
            layer = reflection_of_screen(canvas.scene, int(iw), int(ih), rng, 0.55)
            canvas.image.alpha_composite(layer, (int(x1), int(y1)))
        draw.line(
            (x1 + iw * 0.1, y1 + ih * 0.05, x1 + iw * 0.3, y1 + ih * 0.25),
            fill=(60, 70, 90),
            width=max(1, int(iw * 0.01)),
        )
    else:  # closed blinds
        draw.rectangle(inner, fill=(226, 222, 210))
        slat = max(3.0, ih / 18)
        y = y1
        while y < y2:
            draw.rectangle((x1, y, x2, y + slat * 0.75), fill=(238, 234, 222))
            draw.line((x1, y + slat * 0.75, x2, y + slat * 0.75), fill=(190, 186, 176), width=1)
            y += slat
        draw.line((x1 + iw * 0.9, y1, x1 + iw * 0.9, y2 * 0.8), fill=(160, 160, 160), width=1)
    if view != "blinds":  # mullion
        draw.rectangle(
            (x1 + iw / 2 - max(1.5, iw * 0.012), y1, x1 + iw / 2 + max(1.5, iw * 0.012), y2),
            fill=(236, 236, 232) if view != "corridor" else (120, 124, 130),
        )


def _band(
    box: tuple[float, float, float, float], side: float, top: float, bottom: float
) -> tuple[float, float, float, float]:
    """The part of ``box`` inset by the share ``side`` of its width on the left and the
    right, from ``top`` to ``bottom`` (shares of its height below its top edge)."""
    x1, y1, x2, y2 = box
    width, height = x2 - x1, y2 - y1
    return (x1 + width * side, y1 + height * top, x2 - width * side, y1 + height * bottom)


def door(canvas: Canvas) -> None:
    """A door in its frame, standing open onto a lit space, ajar, or shut."""
    state = canvas.placed.attrs.get("state", "closed")
    rng = canvas.rng
    draw, w, h = canvas.draw, canvas.w, canvas.h
    leaf = rng.choice(
        [(150, 110, 72), (232, 230, 222), (110, 80, 56), (180, 150, 110), (90, 100, 110)]
    )
    fw = max(2.0, w * 0.07)
    draw.rectangle((0, 0, w - 1, h - 1), fill=shade(leaf, 0.7))
    opening = (fw, fw, w - 1 - fw, h - 1)
    x1, y1, x2, y2 = opening
    if state == "open":
        beyond = rng.choice([(120, 116, 108), (150, 140, 120), (96, 104, 116)])
        draw.rectangle(opening, fill=beyond)
        draw.polygon(
            [
                (x1, y2),
                (x2, y2),
                (x2 - (x2 - x1) * 0.25, y1 + (y2 - y1) * 0.72),
                (x1 + (x2 - x1) * 0.25, y1 + (y2 - y1) * 0.72),
            ],
            fill=shade(beyond, 0.75),
        )
        draw.rectangle(_band(opening, 0.25, 0.12, 0.72), fill=shade(beyond, 1.25))
        draw.rectangle(_band(opening, 0.4, 0.02, 0.05), fill=(255, 252, 230))
        hinge_left = rng.random() < 0.5
        sw = (x2 - x1) * 0.22
        # the open leaf, seen edge-on against its hinge side of the frame
        edge, inner = (x1, x1 + sw) if hinge_left else (x2, x2 - sw)
        draw.polygon(
            [
                (edge, y1),
                (inner, y1 + (y2 - y1) * 0.05),
                (inner, y2 - (y2 - y1) * 0.02),
                (edge, y2),
            ],
            fill=shade(leaf, 0.9),
        )
        return
    draw.rectangle(opening, fill=leaf)
    for top, bottom in ((0.08, 0.45), (0.52, 0.92)):
        draw.rectangle(
            _band(opening, 0.15, top, bottom),
            outline=shade(leaf, 0.8),
            width=max(1, int(w * 0.02)),
        )
    handle_x = x2 - (x2 - x1) * 0.14
    draw.ellipse(
        (handle_x - w * 0.04, y1 + (y2 - y1) * 0.5, handle_x + w * 0.03, y1 + (y2 - y1) * 0.54),
        fill=(200, 190, 150),
    )
    if state == "ajar":  # a dark gap with a sliver of light along the latch side
        gap = max(2.0, (x2 - x1) * 0.1)
        draw.rectangle((x2 - gap, y1, x2, y2), fill=(30, 28, 26))
        draw.rectangle(
            (x2 - gap * 0.55, y1 + (y2 - y1) * 0.1, x2 - gap * 0.3, y2), fill=(236, 220, 170)
        )


def tv(canvas: Canvas) -> None:
    """A wall TV: off (matte black), off with the laptop screen reflected in its glossy
    panel, mirroring the login page, or showing a programme."""
    shows = canvas.placed.attrs.get("shows", "off")
    rng = canvas.rng
    inner = frame(canvas, (18, 18, 20), 0.035)
    x1, y1, x2, y2 = inner
    iw, ih = int(x2 - x1), int(y2 - y1)
    draw = canvas.draw
    if shows == "login":
        page = login_page(canvas.scene.brand, max(8, iw), max(8, ih), rng)
        canvas.image.alpha_composite(page, (int(x1), int(y1)))
    elif shows == "programme":
        sky = rng.choice([(90, 150, 210), (250, 180, 90), (60, 60, 120)])
        draw.rectangle(inner, fill=sky)
        draw.polygon(
            [(x1, y2), (x1 + iw * 0.3, y1 + ih * 0.45), (x1 + iw * 0.6, y2)], fill=(60, 110, 70)
        )
        draw.polygon(
            [(x1 + iw * 0.4, y2), (x1 + iw * 0.75, y1 + ih * 0.35), (x2, y1 + ih * 0.7), (x2, y2)],
            fill=(80, 130, 80),
        )
        draw.rectangle((x1, y1 + ih * 0.84, x2, y2), fill=(180, 30, 40))
        draw.ellipse(
            (x1 + iw * 0.75, y1 + ih * 0.1, x1 + iw * 0.88, y1 + ih * 0.3), fill=(255, 240, 180)
        )
    else:
        draw.rectangle(inner, fill=(24, 25, 28))
        if shows == "reflection":
            layer = reflection_of_screen(canvas.scene, iw, ih, rng, 0.45)
            canvas.image.alpha_composite(layer, (int(x1), int(y1)))
        draw.polygon(
            [
                (x1 + iw * 0.55, y1),
                (x1 + iw * 0.75, y1),
                (x1 + iw * 0.45, y2),
                (x1 + iw * 0.25, y2),
            ],
            fill=(34, 35, 40) if shows == "off" else (40, 42, 48),
        )
    draw.rectangle(
        (canvas.w * 0.47, canvas.h - max(2.0, canvas.h * 0.035), canvas.w * 0.53, canvas.h - 1),
        fill=(60, 60, 64),
    )


def whiteboard(canvas: Canvas) -> None:
    """A whiteboard: login details in marker, a sketch, or nothing."""
    text = canvas.placed.attrs.get("text", "diagram")
    inner = frame(canvas, (190, 194, 200), 0.03)
    x1, y1, x2, y2 = inner
    draw = canvas.draw
    draw.rectangle(inner, fill=(250, 252, 252))
    iw, ih = x2 - x1, y2 - y1
    draw.rectangle((x1 + iw * 0.1, y2 - ih * 0.04, x2 - iw * 0.1, y2), fill=(170, 174, 180))
    marker = canvas.rng.choice([(30, 60, 160), (20, 20, 24), (170, 30, 40)])
    if text == "credentials":
        secret = canvas.placed.attrs.get("secret", "admin / pass")
        picture = text_image(["LOGIN", *secret.split("  ")], ih * 0.16, (*marker, 255))
        paste_fit(canvas, picture, (x1 + iw * 0.06, y1 + ih * 0.08, x2 - iw * 0.06, y2 - ih * 0.12))
    elif text == "diagram":
        for i in range(3):
            bx = x1 + iw * (0.08 + 0.3 * i)
            draw.rectangle(
                (bx, y1 + ih * 0.3, bx + iw * 0.2, y1 + ih * 0.55),
                outline=marker,
                width=max(1, int(ih * 0.02)),
            )
            if i < 2:
                draw.line(
                    (bx + iw * 0.2, y1 + ih * 0.42, bx + iw * 0.3, y1 + ih * 0.42),
                    fill=marker,
                    width=max(1, int(ih * 0.015)),
                )
        draw.line(
            (x1 + iw * 0.1, y1 + ih * 0.75, x1 + iw * 0.6, y1 + ih * 0.72),
            fill=marker,
            width=max(1, int(ih * 0.015)),
        )


def note(canvas: Canvas) -> None:
    """A sheet pinned to the wall: a written password, or a to-do list."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    paper = canvas.rng.choice([(252, 240, 140), (250, 250, 244), (190, 230, 250)])
    draw.rectangle((0, 0, w - 1, h - 1), fill=paper, outline=shade(paper, 0.85))
    draw.ellipse((w * 0.46, h * 0.02, w * 0.54, h * 0.1), fill=(200, 40, 40))
    if canvas.placed.attrs.get("text") == "password":
        lines = ["password:", canvas.placed.attrs.get("secret", "pass1234")]
    else:
        lines = canvas.rng.choice(
            [["To do:", "milk, bread"], ["Call Sam", "at 3 pm"], ["Lunch:", "Fri 12:30"]]
        )
    picture = text_image(lines, h * 0.3, (30, 30, 60, 255))
    paste_fit(canvas, picture, (w * 0.06, h * 0.14, w * 0.94, h * 0.94))


def _picture(
    canvas: Canvas, frames: list[Color], border: float
) -> tuple[tuple[float, float, float, float], float, float]:
    """A picture hung on the wall: its frame in one of ``frames`` (drawn from the canvas's
    random stream); the area inside the frame, and that area's width and height."""
    inner = frame(canvas, canvas.rng.choice(frames), border)
    x1, y1, x2, y2 = inner
    return inner, x2 - x1, y2 - y1


def portrait(canvas: Canvas) -> None:
    """A framed photograph of a person: a face looking out of the picture."""
    rng, draw = canvas.rng, canvas.draw
    inner, iw, ih = _picture(canvas, [(40, 30, 24), (200, 170, 100), (240, 240, 236)], 0.08)
    x1, y1, x2, y2 = inner
    draw.rectangle(inner, fill=rng.choice([(170, 190, 210), (200, 190, 170), (120, 130, 140)]))
    skin = rng.choice(SKINS)
    hair = rng.choice(HAIRS)
    draw.rounded_rectangle(
        (x1 + iw * 0.12, y1 + ih * 0.62, x2 - iw * 0.12, y2 + ih * 0.2),
        radius=iw * 0.2,
        fill=rng.choice([c for _, c in GARMENTS]),
    )
    head = (x1 + iw * 0.3, y1 + ih * 0.14, x2 - iw * 0.3, y1 + ih * 0.66)
    canvas.draw.ellipse(head, fill=skin)
    hw, hh = head[2] - head[0], head[3] - head[1]
    draw.chord(
        (head[0] - 1, head[1] - hh * 0.05, head[2] + 1, head[1] + hh * 0.7), 180, 360, fill=hair
    )
    for ex in (head[0] + hw * 0.32, head[0] + hw * 0.68):
        r = max(1.0, hw * 0.07)
        draw.ellipse(
            (ex - r, head[1] + hh * 0.52 - r * 0.7, ex + r, head[1] + hh * 0.52 + r * 0.7),
            fill=(250, 250, 250),
        )
        draw.ellipse(
            (
                ex - r * 0.5,
                head[1] + hh * 0.52 - r * 0.5,
                ex + r * 0.5,
                head[1] + hh * 0.52 + r * 0.5,
            ),
            fill=(30, 26, 24),
        )
    draw.arc(
        (head[0] + hw * 0.3, head[1] + hh * 0.62, head[2] - hw * 0.3, head[1] + hh * 0.85),
        20,
        160,
        fill=(150, 70, 66),
        width=max(1, int(hw * 0.04)),
    )


def poster(canvas: Canvas) -> None:
    rng, draw = canvas.rng, canvas.draw
    inner, iw, ih = _picture(canvas, [(70, 50, 36), (30, 30, 30), (220, 220, 216)], 0.05)
    x1, y1, x2, y2 = inner
    theme = rng.randrange(3)
    if theme == 0:  # mountains
        draw.rectangle(inner, fill=(246, 222, 170))
        draw.polygon(
            [(x1, y2), (x1 + iw * 0.4, y1 + ih * 0.3), (x1 + iw * 0.8, y2)], fill=(100, 150, 120)
        )
        draw.polygon(
            [(x1 + iw * 0.35, y2), (x1 + iw * 0.7, y1 + ih * 0.45), (x2, y2)], fill=(70, 120, 100)
        )
        draw.ellipse(
            (x2 - iw * 0.3, y1 + ih * 0.08, x2 - iw * 0.12, y1 + ih * 0.22), fill=(240, 150, 60)
        )
    elif theme == 1:  # abstract blocks
        draw.rectangle(inner, fill=(240, 236, 226))
        for _ in range(5):
            bx, by = x1 + iw * rng.uniform(0, 0.7), y1 + ih * rng.uniform(0, 0.7)
            draw.rectangle(
                (bx, by, bx + iw * rng.uniform(0.15, 0.3), by + ih * rng.uniform(0.1, 0.3)),
                fill=rng.choice([(220, 60, 50), (40, 80, 170), (240, 200, 40), (30, 30, 30)]),
            )
    else:  # sea
        draw.rectangle((x1, y1, x2, y1 + ih * 0.55), fill=(150, 200, 230))
        draw.rectangle((x1, y1 + ih * 0.55, x2, y2), fill=(40, 100, 160))
        draw.polygon(
            [
                (x1 + iw * 0.4, y1 + ih * 0.55),
                (x1 + iw * 0.55, y1 + ih * 0.2),
                (x1 + iw * 0.56, y1 + ih * 0.55),
            ],
            fill=(250, 250, 250),
        )


def collage(canvas: Canvas) -> None:
    rng = canvas.rng
    draw, w, h = canvas.draw, canvas.w, canvas.h
    cols, rows = 3, 2
    cw, ch = w / cols, h / rows
    for c in range(cols):
        for r in range(rows):
            fx, fy = c * cw, r * ch
            draw.rectangle(
                (fx + cw * 0.05, fy + ch * 0.05, fx + cw * 0.95, fy + ch * 0.95),
                fill=(250, 250, 248),
            )
            sky = rng.choice([(150, 190, 230), (240, 200, 150), (200, 210, 220)])
            draw.rectangle(
                (fx + cw * 0.12, fy + ch * 0.12, fx + cw * 0.88, fy + ch * 0.88), fill=sky
            )
            draw.polygon(
                [
                    (fx + cw * 0.12, fy + ch * 0.88),
                    (fx + cw * 0.5, fy + ch * rng.uniform(0.35, 0.6)),
                    (fx + cw * 0.88, fy + ch * 0.88),
                ],
                fill=rng.choice([(80, 130, 90), (120, 100, 80), (60, 110, 150)]),
            )


def glasswall(canvas: Canvas) -> None:
    """A glazed wall into another room: clear (people and a table visible) or frosted."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    rng = canvas.rng
    frosted = canvas.placed.attrs.get("glass") == "frosted"
    draw.rectangle((0, 0, w - 1, h - 1), fill=(150, 156, 164))
    inner = (w * 0.03, h * 0.02, w * 0.97, h - 1)
    back = mix(canvas.scene.room.wall, (200, 214, 224), 0.5)
    draw.rectangle(inner, fill=back)
    if not frosted:
        floor_y = h * 0.72
        draw.rectangle((inner[0], floor_y, inner[2], h - 1), fill=(150, 140, 130))
        draw.rectangle(
            (w * 0.25, floor_y - h * 0.1, w * 0.75, floor_y - h * 0.06), fill=(130, 100, 70)
        )
        for i in range(rng.randrange(2, 4)):
            px = w * (0.22 + 0.26 * i) + w * rng.uniform(-0.03, 0.03)
            ph = h * 0.32
            col = rng.choice([c for _, c in GARMENTS])
            top = floor_y - h * 0.1 - ph * 0.6
            draw.rounded_rectangle(
                (px - w * 0.06, top + ph * 0.22, px + w * 0.06, floor_y - h * 0.08),
                radius=w * 0.02,
                fill=col,
            )
            draw.ellipse(
                (px - w * 0.035, top, px + w * 0.035, top + ph * 0.22), fill=rng.choice(SKINS)
            )
            draw.chord(
                (px - w * 0.036, top - 1, px + w * 0.036, top + ph * 0.15),
                180,
                360,
                fill=rng.choice(HAIRS),
            )
    else:
        draw.rectangle((inner[0], h * 0.3, inner[2], h * 0.75), fill=shade(back, 1.35))
        for y in range(int(h * 0.3), int(h * 0.75), max(2, int(h * 0.03))):
            draw.line((inner[0], y, inner[2], y), fill=shade(back, 1.45), width=1)
    for fx in (0.03, 0.5, 0.97):
        draw.rectangle((w * fx - w * 0.012, 0, w * fx + w * 0.012, h - 1), fill=(150, 156, 164))
    draw.line((inner[0], h * 0.25, w * 0.25, 0), fill=(236, 244, 250), width=max(1, int(w * 0.01)))


def balcony(canvas: Canvas) -> None:
    """A gallery balcony reaching out from the back wall: its underside, the slab edge,
    the railing, and shelves on the upper level seen between the balusters."""
    draw = canvas.draw
    p, cam = canvas.placed, canvas.scene.camera
    wall = canvas.scene.room.wall
    x1, x2 = p.x - p.width / 2, p.x + p.width / 2
    front, back = p.z - BALCONY_REACH, p.z
    slab, top = p.y + 0.22, p.y + p.height

    def at(x: float, y: float, z: float) -> tuple[float, float]:
        return canvas.local(cam.project(x, y, z))

    # the upper level's wall, seen through the railing
    draw.polygon(
        [at(x1, top, front), at(x2, top, front), at(x2, slab, front), at(x1, slab, front)],
        fill=shade(wall, 0.8),
    )
    upper = [at(x1 + 0.2, top - 0.05, front), at(x2 - 0.2, slab + 0.05, front)]
    ux1, uy1 = upper[0]
    ux2, uy2 = upper[1]
    bx = ux1
    while bx < ux2 - 4:
        bw = (ux2 - ux1) * 0.08
        draw.rectangle((bx, uy1, min(ux2, bx + bw), uy2), fill=(120, 86, 56))
        for j in range(3):
            draw.rectangle(
                (
                    bx + bw * (0.1 + 0.28 * j),
                    uy1 + (uy2 - uy1) * 0.1,
                    bx + bw * (0.3 + 0.28 * j),
                    uy2,
                ),
                fill=canvas.rng.choice(
                    [(170, 50, 50), (40, 80, 150), (200, 170, 60), (60, 120, 80)]
                ),
            )
        bx += bw * 1.6
    # underside (seen from below), slab edge, railing
    draw.polygon(
        [at(x1, p.y, front), at(x2, p.y, front), at(x2, p.y, back), at(x1, p.y, back)],
        fill=shade(wall, 0.62),
    )
    draw.polygon(
        [at(x1, slab, front), at(x2, slab, front), at(x2, p.y, front), at(x1, p.y, front)],
        fill=shade(wall, 1.15),
    )
    rail = (64, 58, 54)
    left_top, right_top = at(x1, top, front), at(x2, top, front)
    draw.line((left_top, right_top), fill=rail, width=max(2, int(canvas.h * 0.035)))
    steps = max(6, int(p.width / 0.14))
    for i in range(steps + 1):
        x = x1 + p.width * i / steps
        draw.line(
            (at(x, top, front), at(x, slab, front)),
            fill=rail,
            width=max(1, int(canvas.w / steps * 0.22)),
        )


def radiator(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.rectangle((0, 0, w - 1, h - 1), fill=(236, 236, 232))
    fin = max(3.0, w / 16)
    x = fin * 0.4
    while x < w - fin * 0.4:
        draw.line((x, h * 0.06, x, h * 0.94), fill=(200, 200, 196), width=max(1, int(fin * 0.3)))
        x += fin


# --- furniture ------------------------------------------------------------------------------


def plant(canvas: Canvas) -> None:
    """A pot with a plant whose leaves grow from its stems (nothing floats)."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    rng = canvas.rng
    pot_top = h * 0.66
    pot = rng.choice([(170, 90, 55), (220, 220, 214), (60, 64, 70), (150, 120, 90)])
    draw.polygon(
        [(w * 0.22, pot_top), (w * 0.78, pot_top), (w * 0.68, h - 1), (w * 0.32, h - 1)], fill=pot
    )
    draw.rectangle((w * 0.2, pot_top, w * 0.8, pot_top + h * 0.04), fill=shade(pot, 0.85))
    greens = [(50, 120, 60), (70, 145, 70), (40, 100, 50), (90, 150, 80)]
    base = (w * 0.5, pot_top + h * 0.01)
    for _ in range(9):
        angle = rng.uniform(-1.15, 1.15)
        length = h * rng.uniform(0.35, 0.62)
        tip = (base[0] + math.sin(angle) * length * 0.55, base[1] - math.cos(angle) * length)
        draw.line((base, tip), fill=(60, 100, 50), width=max(1, int(w * 0.02)))
        lw = w * rng.uniform(0.1, 0.16)
        lh = h * rng.uniform(0.09, 0.14)
        cx = min(max(tip[0], lw), w - lw)
        cy = min(max(tip[1], lh), pot_top - lh * 0.3)
        draw.ellipse((cx - lw, cy - lh, cx + lw, cy + lh), fill=rng.choice(greens))
        mid = ((base[0] + cx) / 2, (base[1] + cy) / 2)
        draw.ellipse(
            (mid[0] - lw * 0.7, mid[1] - lh * 0.6, mid[0] + lw * 0.7, mid[1] + lh * 0.6),
            fill=rng.choice(greens),
        )


def bookshelf(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    rng = canvas.rng
    wood = rng.choice([(120, 85, 55), (160, 120, 80), (90, 64, 44), (220, 214, 200)])
    draw.rectangle((0, 0, w - 1, h - 1), fill=wood)
    levels = 5
    inner = w * 0.06
    for level in range(levels):
        top = h * 0.03 + level * (h * 0.94 / levels)
        bottom = top + h * 0.94 / levels - h * 0.025
        draw.rectangle((inner, top, w - inner, bottom), fill=shade(wood, 0.6))
        bx = inner + 1
        while bx < w - inner - 3:
            bw = max(2.0, w * rng.uniform(0.04, 0.08))
            if bx + bw > w - inner:
                break
            bt = top + (bottom - top) * rng.uniform(0.05, 0.3)
            draw.rectangle(
                (bx, bt, bx + bw, bottom),
                fill=rng.choice(
                    [
                        (170, 50, 50),
                        (50, 90, 160),
                        (200, 170, 60),
                        (60, 130, 90),
                        (230, 225, 210),
                        (90, 60, 110),
                    ]
                ),
            )
            bx += bw + 1


def partition(canvas: Canvas) -> None:
    """A folding screen: three hinged panels, alternately lit and in shadow."""
    draw, w, h = canvas.draw, canvas.w, canvas.h
    fabric = canvas.rng.choice([(176, 150, 110), (140, 160, 150), (190, 176, 160), (150, 120, 130)])
    wood = (96, 70, 50)
    foot = h * 0.04
    panel = w / 3
    for i in range(3):
        x1, x2 = i * panel, (i + 1) * panel
        lift = h * (0.0 if i % 2 == 0 else 0.02)
        draw.rectangle((x1, lift, x2 - 1, h - foot), fill=wood)
        tone = shade(fabric, 1.0 if i % 2 == 0 else 0.78)
        draw.rectangle(
            (x1 + panel * 0.08, lift + h * 0.02, x2 - 1 - panel * 0.08, h - foot - h * 0.02),
            fill=tone,
        )
        draw.line(
            (x1 + panel * 0.08, h * 0.5, x2 - 1 - panel * 0.08, h * 0.5),
            fill=wood,
            width=max(1, int(h * 0.01)),
        )
        draw.rectangle((x1 + panel * 0.1, h - foot, x1 + panel * 0.25, h - 1), fill=wood)
        draw.rectangle((x2 - panel * 0.25, h - foot, x2 - panel * 0.1, h - 1), fill=wood)


def coatrack(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    rng = canvas.rng
    pole = (70, 56, 44)
    draw.rectangle((w * 0.47, h * 0.02, w * 0.53, h * 0.97), fill=pole)
    draw.ellipse((w * 0.2, h * 0.95, w * 0.8, h - 1), fill=pole)
    draw.line((w * 0.3, h * 0.08, w * 0.7, h * 0.02), fill=pole, width=max(1, int(w * 0.04)))
    coat = rng.choice([(35, 35, 45), (110, 80, 50), (60, 70, 100), (130, 40, 40)])
    top = h * 0.06
    draw.polygon(
        [
            (w * 0.5, top),
            (w * 0.86, top + h * 0.1),
            (w * 0.8, top + h * 0.58),
            (w * 0.2, top + h * 0.58),
            (w * 0.14, top + h * 0.1),
        ],
        fill=coat,
    )
    draw.line(
        (w * 0.5, top + h * 0.04, w * 0.5, top + h * 0.56),
        fill=shade(coat, 0.7),
        width=max(1, int(w * 0.02)),
    )


def lamp(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.ellipse((w * 0.2, h * 0.96, w * 0.8, h - 1), fill=(50, 50, 54))
    draw.rectangle((w * 0.48, h * 0.18, w * 0.52, h * 0.97), fill=(60, 60, 64))
    lit = canvas.scene.room.night
    shade_col = (252, 236, 190) if lit else (230, 220, 200)
    draw.polygon(
        [(w * 0.22, 0), (w * 0.78, 0), (w * 0.98, h * 0.2), (w * 0.02, h * 0.2)], fill=shade_col
    )


def cabinet(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    metal = canvas.rng.choice([(170, 174, 180), (120, 126, 134), (210, 206, 196)])
    draw.rectangle((0, 0, w - 1, h - 1), fill=metal)
    for i in range(3):
        top = h * (0.03 + 0.32 * i)
        draw.rectangle(
            (w * 0.06, top, w * 0.94, top + h * 0.29),
            fill=shade(metal, 1.08),
            outline=shade(metal, 0.8),
        )
        draw.rectangle((w * 0.38, top + h * 0.08, w * 0.62, top + h * 0.12), fill=shade(metal, 0.6))


def cooler(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.rectangle((w * 0.05, h * 0.3, w * 0.95, h - 1), fill=(236, 236, 236))
    draw.rectangle((w * 0.3, h * 0.45, w * 0.7, h * 0.5), fill=(60, 120, 200))
    draw.rounded_rectangle((w * 0.12, 0, w * 0.88, h * 0.32), radius=w * 0.2, fill=(150, 200, 240))


def coffee(canvas: Canvas) -> None:
    draw, w, h = canvas.draw, canvas.w, canvas.h
    draw.rectangle((0, h * 0.35, w - 1, h - 1), fill=(90, 70, 56))
    draw.rectangle((w * 0.12, 0, w * 0.88, h * 0.36), fill=(60, 62, 66))
    draw.rectangle((w * 0.2, h * 0.05, w * 0.8, h * 0.14), fill=(150, 160, 170))
    draw.rectangle((w * 0.35, h * 0.2, w * 0.65, h * 0.34), fill=(30, 30, 30))
    draw.rectangle((w * 0.43, h * 0.27, w * 0.57, h * 0.34), fill=(240, 240, 236))


Face = list[tuple[float, float]]


def _deep(canvas: Canvas, depth: float) -> tuple[Face, Face, Face]:
    """Top face, front face and the side face turned toward the camera of a piece of
    furniture ``depth`` deep, in canvas coordinates."""
    p, cam = canvas.placed, canvas.scene.camera
    x1, x2 = p.x - p.width / 2, p.x + p.width / 2
    near, far = p.z, p.z + depth
    xs = x1 if p.x > 0 else x2  # the side facing the middle of the room is the one seen
    faces = (
        ((x1, p.height, far), (x2, p.height, far), (x2, p.height, near), (x1, p.height, near)),
        ((x1, p.height, near), (x2, p.height, near), (x2, 0.0, near), (x1, 0.0, near)),
        ((xs, p.height, far), (xs, p.height, near), (xs, 0.0, near), (xs, 0.0, far)),
    )
    top, front, side = ([canvas.local(cam.project(*corner)) for corner in face] for face in faces)
    return top, front, side


def table(canvas: Canvas) -> None:
    """A table: its top seen from above and either a cloth to the floor or four legs."""
    p, cam = canvas.placed, canvas.scene.camera
    top, front, side = _deep(canvas, TABLE_DEPTH)
    wood = canvas.rng.choice([(150, 110, 72), (200, 170, 130), (110, 80, 56), (236, 234, 228)])
    draw = canvas.draw
    if canvas.placed.attrs.get("cloth") == "yes":
        cloth = canvas.rng.choice([(236, 232, 220), (180, 60, 60), (70, 100, 140), (200, 200, 200)])
        draw.polygon(side, fill=shade(cloth, 0.72))
        draw.polygon(top, fill=shade(cloth, 1.05))
        draw.polygon(front, fill=shade(cloth, 0.85))
        return
    leg = max(2, int(canvas.w * 0.025))
    inset = 0.05
    for z in (p.z + TABLE_DEPTH - inset, p.z + inset):  # back legs first
        for x in (p.x - p.width / 2 + inset, p.x + p.width / 2 - inset):
            a = canvas.local(cam.project(x, p.height, z))
            b = canvas.local(cam.project(x, 0.0, z))
            draw.line((a, b), fill=shade(wood, 0.65), width=leg)
    draw.polygon(top, fill=wood)
    edge = [
        front[0],
        front[1],
        (front[1][0], front[1][1] + max(2.0, canvas.h * 0.05)),
        (front[0][0], front[0][1] + max(2.0, canvas.h * 0.05)),
    ]
    draw.polygon(edge, fill=shade(wood, 0.8))


def sofa(canvas: Canvas) -> None:
    top, front, side = _deep(canvas, 0.85)
    color = canvas.rng.choice([(90, 110, 140), (140, 90, 70), (110, 120, 90), (170, 160, 150)])
    draw = canvas.draw
    draw.polygon(side, fill=shade(color, 0.7))
    draw.polygon(top, fill=shade(color, 0.9))
    draw.polygon(front, fill=color)
    x1, y1 = front[0]
    x2, y2 = front[2]
    draw.rectangle((x1, y1, x1 + (x2 - x1) * 0.1, y2), fill=shade(color, 0.8))
    draw.rectangle((x2 - (x2 - x1) * 0.1, y1, x2, y2), fill=shade(color, 0.8))
    draw.line(
        ((x1 + x2) / 2, y1, (x1 + x2) / 2, y1 + (y2 - y1) * 0.5), fill=shade(color, 0.75), width=2
    )


def counter(canvas: Canvas) -> None:
    top, front, side = _deep(canvas, 0.6)
    draw = canvas.draw
    wood = canvas.rng.choice([(120, 84, 56), (60, 60, 66), (200, 190, 170)])
    draw.polygon(side, fill=shade(wood, 0.7))
    draw.polygon(top, fill=(220, 216, 206))
    draw.polygon(front, fill=wood)
    x1, y1 = front[0]
    x2, y2 = front[2]
    for i in range(1, 6):
        x = x1 + (x2 - x1) * i / 6
        draw.line((x, y1 + 2, x, y2), fill=shade(wood, 0.85), width=max(1, int((x2 - x1) / 120)))


PAINTERS: dict[str, Painter] = {
    "person": person,
    "tripod": tripod,
    "cctv": cctv,
    "smallcam": smallcam,
    "smoke": smoke,
    "clock": clock,
    "convex": convex,
    "mirror": mirror,
    "window": window,
    "door": door,
    "tv": tv,
    "whiteboard": whiteboard,
    "note": note,
    "portrait": portrait,
    "poster": poster,
    "collage": collage,
    "glasswall": glasswall,
    "balcony": balcony,
    "radiator": radiator,
    "plant": plant,
    "bookshelf": bookshelf,
    "partition": partition,
    "coatrack": coatrack,
    "lamp": lamp,
    "cabinet": cabinet,
    "cooler": cooler,
    "coffee": coffee,
    "table": table,
    "sofa": sofa,
    "counter": counter,
}
"""Painter of each ``ElementKind.painter`` name."""

FLAT = frozenset(
    {
        "mirror",
        "window",
        "door",
        "tv",
        "whiteboard",
        "note",
        "portrait",
        "poster",
        "collage",
        "glasswall",
        "radiator",
    }
)
"""Painters of flat wall items: painted face-on and warped onto their wall."""


def soften(image: Image.Image, radius: float) -> Image.Image:
    return image.filter(ImageFilter.GaussianBlur(radius)) if radius > 0 else image
