"""Camera-like photographs of drawn objects, for the generated Priv-IQ VizPriv items.

Why: the paper's visual-privacy items are photos taken by blind users (VizWiz-Priv,
BIV-Priv): an object on a table or in a hand, tilted, rotated, partly out of frame,
blurred, with glare, in low light, noisy and JPEG-compressed. Here an object is drawn
flat (with :mod:`privbench.tooling.drawing.objects`), placed on a textured surface next to
distractors, and then "photographed": a random perspective, rotation and crop, defocus
or motion blur, a glare spot, an exposure and colour cast, sensor noise and a JPEG round
trip. Every step draws its parameters from the caller's seeded ``random.Random``, so the
same seed gives the same pixels. ``strength`` (0–1) scales the degradations; callers keep
text that an answer rests on legible (the tests read it back with the bundled OCR).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from privbench.tooling.drawing.colors import Color
from privbench.tooling.drawing.perspective import perspective_coefficients

SURFACES: dict[str, tuple[Color, Color]] = {
    "wooden table": ((150, 108, 70), (120, 84, 52)),
    "kitchen counter": ((206, 204, 198), (180, 178, 172)),
    "desk": ((96, 98, 104), (78, 80, 86)),
    "bed sheet": ((196, 206, 222), (170, 182, 204)),
    "carpet": ((120, 70, 64), (96, 56, 52)),
}


def surface(rng: random.Random, name: str, size: tuple[int, int]) -> Image.Image:
    """A textured surface (grain or weave) to lay objects on."""
    base, line = SURFACES[name]
    width, height = size
    image = Image.new("RGB", size, base)
    draw = ImageDraw.Draw(image)
    if name == "wooden table":
        for y in range(0, height, 3):
            if rng.random() < 0.35:
                shade = tuple(max(0, c - rng.randrange(0, 18)) for c in line)
                draw.line((0, y, width, y + rng.randrange(-6, 7)), fill=shade, width=2)
    elif name in ("bed sheet", "carpet"):
        for x in range(0, width, 6):
            draw.line((x, 0, x, height), fill=line, width=1)
        for y in range(0, height, 6):
            draw.line((0, y, width, y), fill=line, width=1)
    else:
        for _ in range(width * height // 900):
            x, y = rng.randrange(width), rng.randrange(height)
            draw.point((x, y), fill=line)
    return image.filter(ImageFilter.GaussianBlur(1.2))


@dataclass(frozen=True)
class PlacedObject:
    """An object (RGBA or RGB) and where its centre goes, as fractions of the frame."""

    image: Image.Image
    x: float
    y: float
    angle: float = 0.0
    scale: float = 1.0


def compose(rng: random.Random, surface_name: str, objects: list[PlacedObject]) -> Image.Image:
    """Lay objects (first = bottom) on a surface with a soft drop shadow each."""
    frame = surface(rng, surface_name, (1000, 760)).convert("RGBA")
    for placed in objects:
        obj = placed.image.convert("RGBA")
        if placed.scale != 1.0:
            obj = obj.resize(
                (int(obj.width * placed.scale), int(obj.height * placed.scale)),
                Image.Resampling.LANCZOS,
            )
        obj = obj.rotate(placed.angle, resample=Image.Resampling.BICUBIC, expand=True)
        shadow = Image.new("RGBA", obj.size, (0, 0, 0, 0))
        shadow.putalpha(obj.getchannel("A").point(lambda a: a * 90 // 255))
        shadow = shadow.filter(ImageFilter.GaussianBlur(8))
        left = int(placed.x * frame.width - obj.width / 2)
        top = int(placed.y * frame.height - obj.height / 2)
        _paste(frame, shadow, left + 8, top + 10)
        _paste(frame, obj, left, top)
    return frame.convert("RGB")


def _paste(frame: Image.Image, layer: Image.Image, left: int, top: int) -> None:
    box = (max(-left, 0), max(-top, 0), layer.width, layer.height)
    if box[0] >= layer.width or box[1] >= layer.height:
        return
    frame.alpha_composite(layer.crop(box), (max(left, 0), max(top, 0)))


def hand(size: tuple[int, int], skin: Color) -> Image.Image:
    """A hand entering from the lower-left corner: palm, a thumb reaching up-right (to rest
    on a card's edge) and the curled index finger, with shading at the creases."""
    width, height = size
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    shade = (*(max(0, c - 35) for c in skin), 255)
    fill = (*skin, 255)
    draw.ellipse((-width * 0.35, height * 0.45, width * 0.55, height * 1.35), fill=fill)  # palm
    thumb = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(thumb).rounded_rectangle(
        (width * 0.3, height * 0.42, width * 0.8, height * 0.6),
        radius=int(height * 0.1),
        fill=fill,
    )
    thumb = thumb.rotate(16, center=(width * 0.3, height * 0.55), resample=Image.Resampling.BICUBIC)
    layer.alpha_composite(thumb)
    draw.arc(
        (width * 0.05, height * 0.5, width * 0.5, height * 0.95), 250, 330, fill=shade, width=4
    )
    draw.rounded_rectangle(
        (width * 0.02, height * 0.72, width * 0.42, height * 0.86),
        radius=int(height * 0.07),
        fill=fill,
        outline=shade,
        width=3,
    )  # curled index finger
    return layer


def _motion_blur(image: Image.Image, length: int, horizontal: bool) -> Image.Image:
    pixels = np.asarray(image, dtype=np.float32)
    axis = 1 if horizontal else 0
    acc = np.zeros_like(pixels)
    for shift in range(length):
        acc += np.roll(pixels, shift - length // 2, axis=axis)
    return Image.fromarray((acc / length).clip(0, 255).astype(np.uint8))


def camera(
    rng: random.Random, image: Image.Image, strength: float = 0.5, size: int = 760
) -> Image.Image:
    """Photograph a composed frame the way a blind user's phone camera would."""
    width, height = image.size
    jitter = 0.09 * strength
    corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    target = [
        (x + rng.uniform(-jitter, jitter) * width, y + rng.uniform(-jitter, jitter) * height)
        for x, y in corners
    ]
    image = image.transform(
        image.size,
        Image.Transform.PERSPECTIVE,
        perspective_coefficients(corners, target),
        Image.Resampling.BICUBIC,
        fillcolor=(40, 40, 44),
    )
    image = image.rotate(
        rng.uniform(-9, 9) * strength, Image.Resampling.BICUBIC, fillcolor=(40, 40, 44)
    )
    # partial framing: crop a window that may cut an edge of the scene
    crop = 0.12 + 0.08 * strength
    left = rng.uniform(0.02, crop) * width
    top = rng.uniform(0.02, crop) * height
    right = width - rng.uniform(0.02, crop) * width
    bottom = height - rng.uniform(0.02, crop) * height
    image = image.crop((int(left), int(top), int(right), int(bottom)))
    image = image.resize((size, int(size * image.height / image.width)), Image.Resampling.LANCZOS)
    blur = rng.random()
    if blur < 0.45:
        image = image.filter(ImageFilter.GaussianBlur(0.6 + 1.1 * strength * rng.random()))
    elif blur < 0.8:
        image = _motion_blur(image, 2 + int(4 * strength * rng.random()), rng.random() < 0.6)
    pixels = np.asarray(image, dtype=np.float32)
    h, w = pixels.shape[:2]
    if rng.random() < 0.6:  # glare: a soft bright spot
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        radius = rng.uniform(0.12, 0.25) * w
        yy, xx = np.mgrid[0:h, 0:w]
        spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2)))
        pixels += (110 * strength * spot)[..., None]
    exposure = rng.uniform(0.55, 1.05) if rng.random() < 0.5 else rng.uniform(0.85, 1.1)
    cast = np.array([rng.uniform(0.92, 1.06), 1.0, rng.uniform(0.86, 1.04)], dtype=np.float32)
    pixels = pixels * exposure * cast
    grain = np.random.default_rng(rng.randrange(2**32)).normal(0, 3 + 6 * strength, pixels.shape)
    pixels = (pixels + grain).clip(0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="JPEG", quality=rng.randrange(35, 75))
    buffer.seek(0)
    with Image.open(buffer) as decoded:
        return decoded.convert("RGB")
