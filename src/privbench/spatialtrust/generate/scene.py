"""Procedural 1440×960 authentication captures for the SpatialTrust-format suite.

A scene is a room seen by a laptop camera: a back wall and floor, background elements
placed on the wall or the floor, and the central user at the laptop in the foreground
(the primary subject, never a factor). Elements come from a catalogue:

* direct factors — a background person facing the screen, a phone or camera aimed at the
  scene, a surveillance camera facing the user, a mirror showing the screen;
* indirect factors — an open doorway, a window onto a corridor, a person nearby who is
  not looking, a second unlocked screen;
* distractors — a poster, a coat, a plant, a shelf, a photo collage.

Sizes vary (scale 0.7–1.25), distractors may partly cover factors (occlusion), and every
element's evidence box is exactly the rectangle it was drawn in.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 1440, 960
FLOOR_Y = 700
Kind = Literal["direct", "indirect", "distractor"]
Box = tuple[int, int, int, int]
Color = tuple[int, int, int]


@dataclass(frozen=True)
class ElementType:
    """One catalogue entry: how it is named, why it matters, where and how big it is drawn."""

    key: str
    kind: Kind
    option: str
    why: str
    size: tuple[int, int]
    zone: Literal["wall", "floor", "high"]


CATALOGUE: dict[str, ElementType] = {
    e.key: e
    for e in (
        ElementType("watcher", "direct", "a background person looking toward the laptop screen", "they face the login screen and can read what is typed on it", (190, 430), "floor"),
        ElementType("phone", "direct", "a person holding up a phone aimed at the scene", "the phone's camera points at the user and the screen and can record the login", (200, 330), "floor"),
        ElementType("tripod", "direct", "a camera on a tripod aimed at the scene", "it is pointed at the user and can capture the screen during login", (170, 360), "floor"),
        ElementType("cctv", "direct", "a surveillance camera facing the user", "it records the user and the screen during the login", (170, 120), "high"),
        ElementType("mirror", "direct", "a mirror reflecting the laptop screen", "the screen's contents are visible in its reflection", (200, 260), "wall"),
        ElementType("door", "indirect", "an open doorway behind the user", "someone passing through it could see the login screen", (230, 480), "floor"),
        ElementType("window", "indirect", "a window onto a corridor", "people in the corridor could look in at the screen", (300, 230), "wall"),
        ElementType("bystander", "indirect", "a person nearby who is not looking at the screen", "they could turn and see the screen at any moment", (190, 410), "floor"),
        ElementType("screen2", "indirect", "a second unlocked screen on a side desk", "its open contents are exposed to anyone in the room", (300, 250), "floor"),
        ElementType("poster", "distractor", "a framed poster", "", (210, 270), "wall"),
        ElementType("coat", "distractor", "a coat hanging on a hook", "", (140, 320), "wall"),
        ElementType("plant", "distractor", "a potted plant", "", (170, 300), "floor"),
        ElementType("shelf", "distractor", "a bookshelf", "", (260, 360), "floor"),
        ElementType("collage", "distractor", "a wall photo collage", "", (260, 200), "wall"),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Placed:
    """An element in a scene and its evidence box (absolute pixels, xyxy)."""

    element: ElementType
    box: Box


# --- drawing --------------------------------------------------------------------------------


def _skin(rng: random.Random) -> Color:
    return rng.choice(
        [(236, 200, 170), (214, 170, 135), (176, 128, 96), (120, 84, 60), (250, 214, 186)]
    )


def _shirt(rng: random.Random) -> Color:
    return rng.choice(
        [(60, 90, 150), (150, 60, 60), (70, 120, 80), (110, 100, 140), (200, 150, 60), (80, 80, 80)]
    )


def _person(
    draw: ImageDraw.ImageDraw, box: Box, rng: random.Random, facing: bool, holding: str = ""
) -> None:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) // 2
    head = int(w * 0.42)
    skin, hair = _skin(rng), rng.choice([(30, 22, 18), (90, 60, 30), (160, 130, 80), (60, 60, 60)])
    # torso and legs
    draw.rounded_rectangle(
        (x1 + int(w * 0.12), y1 + head + 6, x2 - int(w * 0.12), y1 + int(h * 0.68)),
        radius=18,
        fill=_shirt(rng),
    )
    draw.rectangle((cx - int(w * 0.3), y1 + int(h * 0.66), cx - 4, y2), fill=(50, 52, 70))
    draw.rectangle((cx + 4, y1 + int(h * 0.66), cx + int(w * 0.3), y2), fill=(50, 52, 70))
    hx1, hx2 = cx - head // 2, cx + head // 2
    if facing:
        draw.ellipse((hx1, y1, hx2, y1 + head), fill=skin)
        draw.chord((hx1, y1, hx2, y1 + head), 180, 360, fill=hair)
        eye_y = y1 + int(head * 0.58)
        for ex in (
            cx - head // 5,
            cx + head // 5,
        ):  # both eyes toward the viewer: looking at the screen
            draw.ellipse((ex - 6, eye_y - 6, ex + 6, eye_y + 6), fill=(255, 255, 255))
            draw.ellipse((ex - 3, eye_y - 3, ex + 3, eye_y + 3), fill=(20, 20, 20))
        draw.line(
            (cx - 10, y1 + int(head * 0.82), cx + 10, y1 + int(head * 0.82)),
            fill=(120, 60, 50),
            width=3,
        )
    else:  # seen from the back / turned away: hair covers the head, no face
        draw.ellipse((hx1, y1, hx2, y1 + head), fill=hair)
        draw.ellipse(
            (hx2 - 10, y1 + head // 2 - 8, hx2 + 4, y1 + head // 2 + 10), fill=skin
        )  # an ear
    if holding == "phone":  # an arm raised, the phone's back and lens toward the camera
        px, py = x2 - int(w * 0.15), y1 + int(h * 0.28)
        draw.line((x2 - int(w * 0.2), y1 + int(h * 0.45), px, py + 30), fill=_skin(rng), width=16)
        draw.rounded_rectangle((px - 30, py - 40, px + 30, py + 60), radius=8, fill=(25, 25, 30))
        draw.ellipse((px - 18, py - 30, px + 2, py - 10), fill=(70, 110, 200))
    if holding == "book":
        draw.rectangle(
            (x1, y1 + int(h * 0.35), x1 + int(w * 0.45), y1 + int(h * 0.5)), fill=(160, 40, 40)
        )


def _tripod(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    cx = (x1 + x2) // 2
    body_bottom = y1 + (y2 - y1) // 3
    for foot in (x1 + 10, cx, x2 - 10):
        draw.line((cx, body_bottom, foot, y2 - 5), fill=(40, 40, 45), width=8)
    draw.rounded_rectangle((x1 + 10, y1 + 20, x2 - 10, body_bottom), radius=10, fill=(30, 30, 34))
    draw.ellipse((cx - 38, y1 + 28, cx + 38, y1 + 104), fill=(60, 60, 70))
    draw.ellipse((cx - 24, y1 + 42, cx + 24, y1 + 90), fill=(40, 80, 160))
    draw.rectangle((cx + 20, y1, cx + 50, y1 + 20), fill=(30, 30, 34))


def _cctv(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random, on_left: bool) -> None:
    x1, y1, x2, y2 = box
    mount = x1 + 10 if on_left else x2 - 30
    draw.rectangle((mount, y1, mount + 20, y1 + 50), fill=(150, 150, 150))
    body = [(x1 + 20, y1 + 30), (x2 - 10, y1 + 40), (x2 - 20, y2 - 20), (x1 + 10, y2 - 40)]
    draw.polygon(body, fill=(232, 232, 232), outline=(120, 120, 120))
    lens_x = x1 + 30 if not on_left else x2 - 50
    draw.ellipse((lens_x - 18, y2 - 58, lens_x + 18, y2 - 22), fill=(20, 20, 20))
    draw.ellipse((lens_x - 6, y2 - 46, lens_x + 6, y2 - 34), fill=(200, 40, 40))  # recording light


def _mirror(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    draw.rounded_rectangle(box, radius=30, fill=(140, 110, 70))
    draw.rounded_rectangle((x1 + 14, y1 + 14, x2 - 14, y2 - 14), radius=22, fill=(200, 214, 224))
    # the reflected laptop screen: a bright panel with lines of text
    sx1, sy1 = x1 + (x2 - x1) // 4, y1 + (y2 - y1) // 3
    draw.rectangle((sx1, sy1, x2 - (x2 - x1) // 4, sy1 + (y2 - y1) // 3), fill=(60, 140, 230))
    for row in range(3):
        draw.rectangle(
            (sx1 + 10, sy1 + 12 + 18 * row, x2 - (x2 - x1) // 4 - 14, sy1 + 20 + 18 * row),
            fill=(240, 248, 255),
        )


def _door(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    draw.rectangle(box, fill=(96, 70, 48))
    draw.rectangle((x1 + 12, y1 + 12, x2 - 12, y2), fill=(38, 34, 32))  # the dark opening
    draw.polygon(
        [
            (x1 + 12, y1 + 12),
            (x1 + 12 + (x2 - x1) // 3, y1 + 40),
            (x1 + 12 + (x2 - x1) // 3, y2 - 20),
            (x1 + 12, y2),
        ],
        fill=(160, 120, 80),
    )
    draw.ellipse(
        (x1 + (x2 - x1) // 3, (y1 + y2) // 2, x1 + (x2 - x1) // 3 + 12, (y1 + y2) // 2 + 12),
        fill=(220, 200, 120),
    )


def _window(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    draw.rectangle(box, fill=(235, 235, 230))
    inner = (x1 + 12, y1 + 12, x2 - 12, y2 - 12)
    draw.rectangle(inner, fill=(205, 220, 230))
    # the corridor behind: a floor in perspective and doors along it
    ix1, iy1, ix2, iy2 = inner
    draw.polygon(
        [
            (ix1, iy2),
            (ix2, iy2),
            ((ix1 + ix2) // 2 + 20, (iy1 + iy2) // 2),
            ((ix1 + ix2) // 2 - 20, (iy1 + iy2) // 2),
        ],
        fill=(180, 170, 150),
    )
    draw.rectangle((ix1 + 20, iy1 + 30, ix1 + 50, iy2 - 40), fill=(140, 110, 80))
    draw.rectangle((ix2 - 50, iy1 + 30, ix2 - 20, iy2 - 40), fill=(140, 110, 80))
    draw.line(((x1 + x2) // 2, y1 + 12, (x1 + x2) // 2, y2 - 12), fill=(235, 235, 230), width=8)


def _screen2(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    desk_top = y2 - 50
    draw.rectangle((x1, desk_top, x2, desk_top + 22), fill=(130, 95, 60))
    draw.rectangle((x1 + 20, desk_top + 22, x1 + 40, y2), fill=(110, 80, 50))
    draw.rectangle((x2 - 40, desk_top + 22, x2 - 20, y2), fill=(110, 80, 50))
    draw.rectangle(
        ((x1 + x2) // 2 - 12, desk_top - 40, (x1 + x2) // 2 + 12, desk_top), fill=(40, 40, 44)
    )
    draw.rectangle((x1 + 10, y1, x2 - 10, desk_top - 40), fill=(30, 30, 34))
    sx1, sy1, sx2, sy2 = x1 + 22, y1 + 12, x2 - 22, desk_top - 52
    draw.rectangle((sx1, sy1, sx2, sy2), fill=rng.choice([(240, 244, 250), (60, 130, 220)]))
    for row in range(5):
        draw.rectangle(
            (sx1 + 14, sy1 + 16 + 22 * row, sx2 - 14 - 20 * (row % 3), sy1 + 28 + 22 * row),
            fill=(90, 100, 120),
        )


def _poster(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    draw.rectangle(box, fill=(70, 50, 36))
    draw.rectangle((x1 + 12, y1 + 12, x2 - 12, y2 - 12), fill=(246, 222, 160))
    draw.polygon(
        [(x1 + 20, y2 - 24), ((x1 + x2) // 2, y1 + 60), (x2 - 20, y2 - 24)], fill=(100, 150, 110)
    )
    draw.ellipse((x2 - 70, y1 + 30, x2 - 36, y1 + 64), fill=(240, 160, 60))


def _coat(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    cx = (x1 + x2) // 2
    draw.ellipse((cx - 8, y1, cx + 8, y1 + 16), fill=(150, 150, 150))
    color = rng.choice([(35, 35, 45), (110, 80, 50), (60, 70, 100)])
    draw.polygon(
        [(cx, y1 + 14), (x2, y1 + 70), (x2 - 10, y2), (x1 + 10, y2), (x1, y1 + 70)], fill=color
    )


def _plant(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    pot_top = y2 - (y2 - y1) // 3
    draw.polygon(
        [(x1 + 30, pot_top), (x2 - 30, pot_top), (x2 - 45, y2), (x1 + 45, y2)], fill=(170, 90, 55)
    )
    for _ in range(9):
        lx, ly = rng.randrange(x1, x2 - 40), rng.randrange(y1, pot_top - 40)
        draw.ellipse(
            (lx, ly, lx + 40, ly + 60),
            fill=rng.choice([(50, 130, 60), (70, 150, 70), (40, 110, 50)]),
        )


def _shelf(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    draw.rectangle(box, fill=(120, 85, 55))
    for level in range(4):
        top = y1 + 12 + level * (y2 - y1 - 24) // 4
        draw.rectangle((x1 + 10, top, x2 - 10, top + (y2 - y1 - 24) // 4 - 10), fill=(90, 62, 40))
        bx = x1 + 14
        while bx < x2 - 30:
            width = rng.randrange(12, 26)
            draw.rectangle(
                (bx, top + rng.randrange(4, 20), bx + width, top + (y2 - y1 - 24) // 4 - 12),
                fill=rng.choice([(180, 50, 50), (50, 90, 160), (200, 170, 60), (60, 130, 90)]),
            )
            bx += width + 3


def _collage(draw: ImageDraw.ImageDraw, box: Box, rng: random.Random) -> None:
    x1, y1, x2, y2 = box
    cols, rows = 3, 2
    cw, ch = (x2 - x1) // cols, (y2 - y1) // rows
    for c in range(cols):
        for r in range(rows):
            fx, fy = x1 + c * cw, y1 + r * ch
            draw.rectangle((fx + 4, fy + 4, fx + cw - 4, fy + ch - 4), fill=(250, 250, 250))
            draw.rectangle(
                (fx + 12, fy + 12, fx + cw - 12, fy + ch - 12),
                fill=tuple(rng.randrange(60, 220) for _ in range(3)),
            )


def draw_element(draw: ImageDraw.ImageDraw, placed: Placed, rng: random.Random) -> None:
    """Draw one placed element inside its box."""
    key, box = placed.element.key, placed.box
    painters: dict[str, Callable[[], None]] = {
        "watcher": lambda: _person(draw, box, rng, facing=True),
        "bystander": lambda: _person(
            draw, box, rng, facing=False, holding=rng.choice(["", "book"])
        ),
        "phone": lambda: _person(draw, box, rng, facing=False, holding="phone"),
        "tripod": lambda: _tripod(draw, box, rng),
        "cctv": lambda: _cctv(draw, box, rng, on_left=box[0] < WIDTH // 2),
        "mirror": lambda: _mirror(draw, box, rng),
        "door": lambda: _door(draw, box, rng),
        "window": lambda: _window(draw, box, rng),
        "screen2": lambda: _screen2(draw, box, rng),
        "poster": lambda: _poster(draw, box, rng),
        "coat": lambda: _coat(draw, box, rng),
        "plant": lambda: _plant(draw, box, rng),
        "shelf": lambda: _shelf(draw, box, rng),
        "collage": lambda: _collage(draw, box, rng),
    }
    painters[key]()


def draw_user(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """The primary subject: the user at the laptop, centre foreground."""
    cx = WIDTH // 2 + rng.randrange(-40, 41)
    skin = _skin(rng)
    draw.rounded_rectangle((cx - 190, 600, cx + 190, HEIGHT + 40), radius=60, fill=_shirt(rng))
    draw.ellipse((cx - 110, 330, cx + 110, 590), fill=skin)
    draw.chord(
        (cx - 112, 326, cx + 112, 560),
        180,
        360,
        fill=rng.choice([(30, 22, 18), (90, 60, 30), (160, 130, 80)]),
    )
    for ex in (cx - 45, cx + 45):
        draw.ellipse((ex - 12, 465, ex + 12, 485), fill=(255, 255, 255))
        draw.ellipse((ex - 5, 469, ex + 5, 481), fill=(25, 25, 25))
    draw.polygon(
        [(cx - 330, HEIGHT), (cx + 330, HEIGHT), (cx + 260, 860), (cx - 260, 860)],
        fill=(70, 72, 80),
    )


def overlaps(a: Box, b: Box) -> float:
    """Share of the smaller box covered by the other."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / smaller


USER_ZONE: Box = (470, 320, 970, HEIGHT)


def place(
    element: ElementType, rng: random.Random, taken: list[Placed], occluder: bool
) -> Placed | None:
    """A box for ``element`` away from the user and (unless it may occlude) other elements."""
    for _ in range(200):
        scale = rng.uniform(0.7, 1.25)
        w, h = int(element.size[0] * scale), int(element.size[1] * scale)
        left = rng.random() < 0.5
        x1 = (
            rng.randrange(30, 470 - w)
            if left and 470 - w > 30
            else rng.randrange(970, max(971, WIDTH - 30 - w))
        )
        if element.zone == "high":
            y1 = rng.randrange(30, 140)
        elif element.zone == "wall":
            y1 = rng.randrange(80, max(81, FLOOR_Y - h - 40))
        else:
            y1 = min(HEIGHT - 30 - h, FLOOR_Y + rng.randrange(-40, 120) - h)
        box = (x1, max(20, y1), x1 + w, max(20, y1) + h)
        if box[2] > WIDTH - 10 or box[3] > HEIGHT - 10 or overlaps(box, USER_ZONE) > 0.05:
            continue
        limit = 0.35 if occluder else 0.0
        if all(overlaps(box, other.box) <= limit for other in taken):
            return Placed(element, box)
    return None


def compose(
    rng: random.Random, factors: list[str], distractors: list[str]
) -> tuple[Image.Image, list[Placed]]:
    """Draw a capture with the given factor and distractor keys; return it and the factors placed."""
    wall = rng.choice([(214, 206, 190), (200, 210, 214), (226, 218, 200), (190, 196, 180)])
    image = Image.new("RGB", (WIDTH, HEIGHT), wall)
    draw = ImageDraw.Draw(image)
    draw.rectangle(
        (0, FLOOR_Y, WIDTH, HEIGHT),
        fill=rng.choice([(150, 130, 110), (120, 110, 100), (170, 150, 120)]),
    )
    placed: list[Placed] = []
    for key in factors:
        spot = place(CATALOGUE[key], rng, placed, occluder=False)
        if spot is not None:
            placed.append(spot)
    extras: list[Placed] = []
    for key in distractors:
        spot = place(CATALOGUE[key], rng, placed + extras, occluder=True)
        if spot is not None:
            extras.append(spot)
    # walls behind people: draw wall items first, floor items after, high items last
    order = {"wall": 0, "floor": 1, "high": 2}
    for item in sorted(placed + extras, key=lambda p: (order[p.element.zone], p.box[3])):
        draw_element(draw, item, rng)
    draw_user(draw, rng)
    return image, placed
