"""Drawing a planned capture: the room, its elements far to near, the user, the camera.

Order: the room's surfaces (walls, floor with its pattern, ceiling lights), then every
element from the farthest to the nearest (so the nearer one hides the farther), a lens
blur on that background (the camera focuses on the user), the user, then the camera's
own marks: uneven light and colour temperature, vignetting, sensor noise — and, when
saved, JPEG compression at the plan's quality. Each element is painted by
:func:`element_picture` on its own transparent canvas from its own random stream, which
is what lets the tests check every factor's pixels against its evidence box.
"""

from __future__ import annotations

import random

import numpy as np
from PIL import Image, ImageDraw

from privbench.tooling.drawing.perspective import perspective_coefficients
from privbench.tooling.spatialtrust_scenes.layout import HEIGHT, WIDTH, Camera, Placed, Room
from privbench.tooling.spatialtrust_scenes.paint import (
    FLAT,
    PAINTERS,
    Canvas,
    Scene,
    shade,
    soften,
    user,
)
from privbench.tooling.spatialtrust_scenes.plan import ScenePlan
from privbench.tooling.spatialtrust_scenes.vocabulary import GARMENTS, HAIRS


def scene_of(plan: ScenePlan) -> Scene:
    return Scene(
        camera=plan.camera,
        room=plan.room,
        brand=plan.site[1],
        user_hair=HAIRS[int(plan.user_attrs["hair"])],
        user_shirt=GARMENTS[int(plan.user_attrs["garment"])][1],
    )


def _corners(width: int, height: int) -> tuple[tuple[float, float], ...]:
    """A ``width`` × ``height`` picture's corners (top-left, top-right, bottom-right,
    bottom-left): the order of a wall item's image quad."""
    return ((0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height)))


def element_picture(plan: ScenePlan, index: int, scene: Scene | None = None) -> Image.Image:
    """Element ``index`` painted alone: a transparent image the size of its box."""
    placed = plan.elements[index]
    scene = scene or scene_of(plan)
    rng = random.Random(f"spatialtrust-paint:{plan.seed}:{plan.index}:{index}")
    painter = PAINTERS[placed.kind.painter]
    x1, y1, x2, y2 = placed.box
    size = (max(1, x2 - x1), max(1, y2 - y1))
    if placed.kind.painter in FLAT and placed.surface in ("left", "right"):
        ppm = plan.camera.focal / max(placed.z, 0.5) * 1.4
        face = (max(8, int(placed.width * ppm)), max(8, int(placed.height * ppm)))
        canvas = Canvas(Image.new("RGBA", face, (0, 0, 0, 0)), placed, scene, rng)
        painter(canvas)
        quad = tuple((qx - x1, qy - y1) for qx, qy in placed.quad)
        return canvas.image.transform(
            size,
            Image.Transform.PERSPECTIVE,
            perspective_coefficients(_corners(face[0], face[1]), quad),
            Image.Resampling.BICUBIC,
        )
    canvas = Canvas(Image.new("RGBA", size, (0, 0, 0, 0)), placed, scene, rng)
    painter(canvas)
    return canvas.image


def element_layer(plan: ScenePlan, index: int) -> Image.Image:
    """Element ``index`` alone on a transparent full-size layer (for checking boxes)."""
    layer = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    placed = plan.elements[index]
    layer.alpha_composite(element_picture(plan, index), (placed.box[0], placed.box[1]))
    return layer


def drawing_order(elements: tuple[Placed, ...]) -> list[int]:
    """Indices from the farthest element to the nearest."""
    return sorted(range(len(elements)), key=lambda i: (-elements[i].distance, i))


# --- the room -------------------------------------------------------------------------------


def _room(camera: Camera, room: Room, rng: random.Random) -> Image.Image:
    image = Image.new("RGBA", (WIDTH, HEIGHT), (*room.wall, 255))
    draw = ImageDraw.Draw(image)
    p = camera.project
    near = 0.25
    d = room.depth
    floor_color = {
        "wood": rng.choice([(168, 128, 88), (140, 100, 66), (196, 160, 118)]),
        "carpet": rng.choice([(120, 120, 126), (140, 110, 100), (96, 110, 120)]),
        "tiles": rng.choice([(210, 206, 198), (180, 176, 170), (150, 160, 166)]),
    }[room.floor]
    ceiling_color = shade(room.wall, 1.25)
    # ceiling, side walls, floor, back wall
    draw.polygon(
        [
            p(room.left, room.ceiling, near),
            p(room.right, room.ceiling, near),
            p(room.right, room.ceiling, d),
            p(room.left, room.ceiling, d),
        ],
        fill=ceiling_color,
    )
    for x, factor in ((room.left, 0.9), (room.right, 0.94)):
        draw.polygon(
            [p(x, room.ceiling, near), p(x, room.ceiling, d), p(x, 0, d), p(x, 0, near)],
            fill=shade(room.wall, factor),
        )
    draw.polygon(
        [p(room.left, 0, near), p(room.right, 0, near), p(room.right, 0, d), p(room.left, 0, d)],
        fill=floor_color,
    )
    draw.rectangle((*p(room.left, room.ceiling, d), *p(room.right, 0, d)), fill=room.wall)
    if room.floor == "wood":
        x = room.left
        while x < room.right:
            width = rng.uniform(0.14, 0.2)
            tone = shade(floor_color, rng.uniform(0.9, 1.06))
            draw.polygon(
                [p(x, 0, near), p(x + width, 0, near), p(x + width, 0, d), p(x, 0, d)], fill=tone
            )
            draw.line((p(x, 0, near), p(x, 0, d)), fill=shade(floor_color, 0.78), width=1)
            x += width
    elif room.floor == "tiles":
        size = rng.uniform(0.5, 0.7)
        x = room.left
        while x < room.right:
            draw.line((p(x, 0, near), p(x, 0, d)), fill=shade(floor_color, 0.85), width=1)
            x += size
        z = d
        while z > near:
            draw.line(
                (p(room.left, 0, z), p(room.right, 0, z)), fill=shade(floor_color, 0.85), width=1
            )
            z -= size
    # skirting boards
    for x in (room.left, room.right):
        draw.polygon(
            [p(x, 0.1, near), p(x, 0.1, d), p(x, 0, d), p(x, 0, near)], fill=shade(room.wall, 0.7)
        )
    draw.rectangle((*p(room.left, 0.1, d), *p(room.right, 0, d)), fill=shade(room.wall, 0.7))
    # corner edges
    for x in (room.left, room.right):
        draw.line((p(x, room.ceiling, d), p(x, 0, d)), fill=shade(room.wall, 0.8), width=2)
    draw.line(
        (p(room.left, room.ceiling, d), p(room.right, room.ceiling, d)),
        fill=shade(room.wall, 0.85),
        width=2,
    )
    # flush ceiling lights
    lit = (255, 250, 232) if room.night else (246, 246, 240)
    z = 1.5
    while z < d - 0.6:
        for x in (room.left * 0.45, room.right * 0.45):
            corners = [
                p(x - 0.3, room.ceiling, z + 0.6),
                p(x + 0.3, room.ceiling, z + 0.6),
                p(x + 0.3, room.ceiling, z),
                p(x - 0.3, room.ceiling, z),
            ]
            draw.polygon(corners, fill=lit)
        z += rng.uniform(2.0, 2.6)
    return image  # fmt: skip


# --- the camera -----------------------------------------------------------------------------


def _camera_marks(image: Image.Image, plan: ScenePlan) -> Image.Image:
    """Uneven light, colour temperature, vignetting and sensor noise.

    The light map is smooth, so it is computed on a coarse grid and enlarged; the colour
    part of the noise is coarser than the luminance part, as in a real sensor after
    demosaicing. Both keep rendering fast (about 0.1 s a capture).
    """
    look = plan.look
    coarse_w, coarse_h = WIDTH // 16, HEIGHT // 16
    ys, xs = np.mgrid[0:coarse_h, 0:coarse_w].astype(np.float32)
    nx, ny = (xs + 0.5) / coarse_w, (ys + 0.5) / coarse_h
    light = look.brightness * (1.0 + 0.16 * (0.5 - np.abs(nx - look.light_x)))
    light = light * (1.0 - look.vignette * ((nx - 0.5) ** 2 + (ny - 0.5) ** 2) / 0.5)
    tint = np.array([1.0 + 0.07 * look.warmth, 1.0, 1.0 - 0.09 * look.warmth], dtype=np.float32)
    gains = np.clip(light[..., None] * tint * 100.0, 0, 255).astype(np.uint8)
    gain = np.asarray(
        Image.fromarray(gains, "RGB").resize((WIDTH, HEIGHT), Image.Resampling.BILINEAR),
        dtype=np.float32,
    )
    pixels = np.asarray(image.convert("RGB"), dtype=np.float32) * (gain / 100.0)
    noise_rng = np.random.default_rng([plan.seed, plan.index, 7])
    grain = noise_rng.standard_normal((HEIGHT, WIDTH, 1), dtype=np.float32) * look.noise
    chroma = noise_rng.standard_normal((HEIGHT // 2, WIDTH // 2, 3), dtype=np.float32)
    chroma = np.repeat(np.repeat(chroma, 2, axis=0), 2, axis=1) * (look.noise * 0.4)
    pixels += grain
    pixels += chroma
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def render_scene(plan: ScenePlan) -> Image.Image:
    """The capture as the laptop camera took it (before JPEG compression)."""
    rng = random.Random(f"spatialtrust-room:{plan.seed}:{plan.index}")
    scene = scene_of(plan)
    image = _room(plan.camera, plan.room, rng)
    for index in drawing_order(plan.elements):
        placed = plan.elements[index]
        image.alpha_composite(element_picture(plan, index, scene), (placed.box[0], placed.box[1]))
    background = soften(image.convert("RGB"), plan.look.blur)
    user(background, plan.user.x, plan.user.head, plan.user.scale, dict(plan.user_attrs))
    return _camera_marks(background, plan)


def save_jpeg(image: Image.Image, path: str, quality: int) -> None:
    """Baseline JPEG without metadata (so the same pixels give the same bytes)."""
    image.save(path, format="JPEG", quality=quality, optimize=True)
