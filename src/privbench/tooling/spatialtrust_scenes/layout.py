"""Where things go: a pinhole camera, a box-shaped room and placement rules — no pixels.

Why a camera model: drawing defects such as a coat taller than a person, people lower
in the frame drawn smaller or doors reaching into the floor all come from placing 2-D
rectangles by hand. Here every element has a position in metres and the image box is
its projection, so scale and height in the frame follow from depth (farther is smaller
and higher), doors stand on the floor line and wall items lie on their wall.

World coordinates: X to the right, Y up from the floor, Z away from the laptop camera.
The back wall is the plane Z = ``depth``, the side walls X = ``left`` and X = ``right``.
The camera looks along +Z (1-point perspective; the vanishing point is ``(cx, horizon)``).

Placement rules ("nothing overlaps that could not in a room"):

* floor items have disjoint footprints and stay inside the walls;
* wall items on the same wall do not overlap and stay on their wall; floor items that
  stand against a wall never cover a wall item (only a wall item above them is allowed);
* where two image boxes overlap, the nearer element hides the farther one; that is only
  allowed if the farther one is benign clutter, or for a *designed* occlusion (a person
  behind a shelf or seated behind a table), whose evidence box is then the visible part;
* factors and near-misses never touch the user, the primary subject in the foreground.

Everything here is computed from the plan's random stream, so a suite's records (boxes
included) are known without drawing a pixel.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from privbench.tooling.drawing.colors import Color
from privbench.tooling.drawing.perspective import Point
from privbench.tooling.spatialtrust_scenes.vocabulary import (
    HIGH_CEILING,
    KINDS,
    ROOM_STYLES,
    ElementKind,
    RoomKind,
    Wall,
)

WIDTH, HEIGHT = 1440, 960
PixelBox = tuple[int, int, int, int]
"""An image box in whole pixels (x1, y1, x2, y2), rounded outwards from the projection."""
Surface = Literal["floor", "back", "left", "right"]

MARGIN = 6
"""Minimum gap (px) between an element that must stay clean and anything else."""


@dataclass(frozen=True)
class Camera:
    """The laptop camera: focal length (px), vanishing point and height above the floor (m)."""

    focal: float
    cx: float
    horizon: float
    height: float

    def project(self, x: float, y: float, z: float) -> Point:
        """Image position of the world point (x, y, z)."""
        return self.cx + self.focal * x / z, self.horizon - self.focal * (y - self.height) / z

    def floor_z(self, v: float) -> float:
        """Depth of the floor point seen at image row ``v`` (below the horizon)."""
        return self.focal * self.height / (v - self.horizon)


@dataclass(frozen=True)
class Room:
    """The room the capture is taken in."""

    kind: RoomKind
    depth: float
    left: float
    right: float
    ceiling: float
    wall: Color
    floor: str
    night: bool


@dataclass(frozen=True)
class UserPose:
    """The primary subject in the foreground (image coordinates)."""

    x: float
    head: float
    scale: float

    @property
    def regions(self) -> tuple[PixelBox, PixelBox]:
        """Head-and-neck and shoulders-and-torso rectangles nothing else may touch."""
        s = self.scale
        head = (
            int(self.x - 175 * s),
            int(self.head - 30 * s),
            int(self.x + 175 * s),
            int(self.head + 340 * s),
        )
        torso = (int(self.x - 360 * s), int(self.head + 250 * s), int(self.x + 360 * s), HEIGHT)
        return head, torso


@dataclass(frozen=True)
class Placed:
    """An element with its world position, image box and (for flat wall items) image quad.

    ``box`` is the projection of the whole element; ``visible`` is the evidence box — the
    same unless an ``occluder`` (index into the scene's elements) hides one side of it.
    """

    key: str
    surface: Surface
    x: float
    y: float
    z: float
    width: float
    height: float
    box: PixelBox
    quad: tuple[Point, Point, Point, Point]
    visible: PixelBox
    occluder: int | None = None
    attrs: Mapping[str, str] = field(default_factory=dict)
    footprint: float = 0.4

    @property
    def kind(self) -> ElementKind:
        return KINDS[self.key]

    @property
    def distance(self) -> float:
        """Sort key for drawing far to near: wall items are behind everything in the room."""
        if self.surface == "floor":
            return self.z
        return 1000.0 + self.z


def _outward(x1: float, y1: float, x2: float, y2: float) -> PixelBox:
    return (math.floor(x1), math.floor(y1), math.ceil(x2), math.ceil(y2))


def intersects(a: PixelBox, b: PixelBox, gap: int = 0) -> bool:
    """Whether two boxes overlap (or come closer than ``gap`` px)."""
    return not (
        a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]
    )


def inside_image(box: PixelBox, margin: int = 2) -> bool:
    return (
        box[0] >= margin
        and box[1] >= margin
        and box[2] <= WIDTH - margin
        and box[3] <= HEIGHT - margin
    )


def make_camera(rng: random.Random) -> Camera:
    """A laptop camera: wide lens, slightly off-centre, horizon a little above the middle."""
    return Camera(
        focal=rng.uniform(900.0, 1150.0),
        cx=WIDTH / 2 + rng.uniform(-90.0, 90.0),
        horizon=rng.uniform(380.0, 480.0),
        height=rng.uniform(1.05, 1.25),
    )


def make_room(kind: RoomKind, rng: random.Random, night: bool, high: bool) -> Room:
    style = ROOM_STYLES[kind]
    width = rng.uniform(*style.width)
    left = -width * rng.uniform(0.38, 0.62)
    ceiling = rng.uniform(*HIGH_CEILING) if high else rng.uniform(*style.ceiling)
    return Room(
        kind=kind,
        depth=rng.uniform(*style.depth),
        left=left,
        right=width + left,
        ceiling=ceiling,
        wall=rng.choice(style.walls),
        floor=rng.choice(style.floors),
        night=night,
    )


def make_user(rng: random.Random) -> UserPose:
    return UserPose(
        x=WIDTH / 2 + rng.uniform(-80.0, 80.0),
        head=rng.uniform(290.0, 340.0),
        scale=rng.uniform(0.92, 1.06),
    )


def wall_quad(
    camera: Camera, room: Room, wall: Wall, along: float, y: float, width: float, height: float
) -> tuple[Point, Point, Point, Point]:
    """Image corners (top-left, top-right, bottom-right, bottom-left as seen) of a flat
    rectangle on ``wall`` centred at ``along`` (X on the back wall, Z on a side wall)."""
    if wall == "back":
        z = room.depth
        corners = [
            (along - width / 2, y + height, z),
            (along + width / 2, y + height, z),
            (along + width / 2, y, z),
            (along - width / 2, y, z),
        ]
    else:
        x = room.left if wall == "left" else room.right
        near, far = along - width / 2, along + width / 2
        # seen from inside the room: on the left wall the near edge is on the left of the image
        first, second = (near, far) if wall == "left" else (far, near)
        corners = [(x, y + height, first), (x, y + height, second), (x, y, second), (x, y, first)]
    projected = [camera.project(cx_, cy_, cz_) for cx_, cy_, cz_ in corners]
    return projected[0], projected[1], projected[2], projected[3]


def quad_box(quad: Sequence[Point]) -> PixelBox:
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    return _outward(min(xs), min(ys), max(xs), max(ys))


# --- solid extents used for designed occlusion ------------------------------------------------

OCCLUDER_SOLID: dict[str, tuple[float, float]] = {
    "bookshelf": (0.0, 2.0),
    "partition": (0.06, 1.95),
}
"""Vertical extent (m) over which an occluder is opaque across its full width."""

TABLE_TOP = 0.75
TABLE_DEPTH = 0.7
DEEP: dict[str, float] = {"table": TABLE_DEPTH, "sofa": 0.85, "counter": 0.6}
"""Depth (m) of furniture drawn with its top visible."""
BALCONY_REACH = 1.3
"""How far (m) a gallery balcony reaches out from the back wall."""


@dataclass
class Layout:
    """The scene being laid out: camera, room, user and the elements placed so far."""

    camera: Camera
    room: Room
    user: UserPose
    elements: list[Placed] = field(default_factory=list)

    # --- geometry helpers -----------------------------------------------------------------

    def floor_box(self, x: float, z: float, width: float, height: float) -> PixelBox:
        """Image box of an upright element (a billboard at depth z) standing on the floor."""
        u1, v1 = self.camera.project(x - width / 2, height, z)
        u2, v2 = self.camera.project(x + width / 2, 0.0, z)
        return _outward(u1, v1, u2, v2)

    def deep_box(self, x: float, z: float, width: float, height: float, depth: float) -> PixelBox:
        """Image box of a piece of furniture ``depth`` deep whose top the camera sees."""
        points = [
            self.camera.project(px, py, pz)
            for px in (x - width / 2, x + width / 2)
            for py in (0.0, height)
            for pz in (z, z + depth)
        ]
        return _outward(
            min(p[0] for p in points),
            min(p[1] for p in points),
            max(p[0] for p in points),
            max(p[1] for p in points),
        )

    def table_box(self, x: float, z: float, width: float) -> tuple[PixelBox, float]:
        """Image box of a table whose front edge is at depth ``z``; and the image row of
        its top's back edge (what a person seated behind it is hidden below)."""
        _, v_back_top = self.camera.project(x, TABLE_TOP, z + TABLE_DEPTH)
        return self.deep_box(x, z, width, TABLE_TOP, TABLE_DEPTH), v_back_top

    # --- the rules ------------------------------------------------------------------------

    def _clean(self, key: str) -> bool:
        """Elements that must stay unoccluded: factors and near-misses."""
        return KINDS[key].role != "benign"

    def fits(self, new: Placed, designed: tuple[int, ...] = ()) -> bool:
        """Whether ``new`` can join the scene under the module's placement rules.

        ``designed`` lists elements ``new`` is allowed to hide part of (its occlusion
        partner), or that are allowed to hide part of it.
        """
        room = self.room
        if not inside_image(new.box):
            return False
        clean = self._clean(new.key)
        for region in self.user.regions:
            if intersects(new.box, region, MARGIN) and clean:
                return False
        if new.surface == "floor":
            half = new.width / 2
            if new.x - half < room.left + 0.15 or new.x + half > room.right - 0.15:
                return False
            if new.z + new.footprint > room.depth - 0.05:
                return False
        for index, other in enumerate(self.elements):
            if index in designed:
                continue
            if not self._compatible(new, other):
                return False
        return True

    def _compatible(self, a: Placed, b: Placed) -> bool:
        if (
            a.surface == "floor"
            and b.surface == "floor"
            and not (
                a.x + a.width / 2 + 0.2 <= b.x - b.width / 2
                or b.x + b.width / 2 + 0.2 <= a.x - a.width / 2
                or a.z + a.footprint + 0.2 <= b.z
                or b.z + b.footprint + 0.2 <= a.z
            )
        ):
            return False  # footprints collide
        if a.surface != "floor" and a.surface == b.surface:
            along_a = a.x if a.surface == "back" else a.z
            along_b = b.x if b.surface == "back" else b.z
            if not (
                along_a + a.width / 2 + 0.12 <= along_b - b.width / 2
                or along_b + b.width / 2 + 0.12 <= along_a - a.width / 2
                or a.y + a.height + 0.08 <= b.y
                or b.y + b.height + 0.08 <= a.y
            ):
                return False  # two things hung on the same spot of a wall
        for wall_item, floor_item in ((a, b), (b, a)):
            if wall_item.surface != "floor" and floor_item.surface == "floor":
                against = self._against(floor_item)
                if against == wall_item.surface and intersects(wall_item.box, floor_item.box):
                    above = wall_item.y >= floor_item.height + 0.05
                    if not above:
                        return False  # furniture pushed in front of a door, window, poster
        if not intersects(a.box, b.box, MARGIN):
            return True
        back = b if a.distance < b.distance else a
        # the nearer one hides the farther: only clutter may be partly hidden
        return not self._clean(back.key)

    def _against(self, item: Placed) -> Surface | None:
        room = self.room
        if item.z + item.footprint > room.depth - 0.45:
            return "back"
        if item.x - item.width / 2 < room.left + 0.45:
            return "left"
        if item.x + item.width / 2 > room.right - 0.45:
            return "right"
        return None

    # --- proposals ------------------------------------------------------------------------

    def propose(
        self, key: str, rng: random.Random, attrs: Mapping[str, str], scale: float
    ) -> Placed | None:
        """A random position for one element of kind ``key`` (not yet checked)."""
        kind = KINDS[key]
        width, height = kind.size[0] * scale, kind.size[1] * scale
        if kind.mount == "floor":
            return self._propose_floor(kind, rng, attrs, width, height)
        return self._propose_wall(kind, rng, attrs, width, height)

    def _propose_floor(
        self,
        kind: ElementKind,
        rng: random.Random,
        attrs: Mapping[str, str],
        width: float,
        height: float,
    ) -> Placed | None:
        room, camera = self.room, self.camera
        lo, hi = kind.depth
        z_min = max(room.depth * lo, kind.metres[0], camera.floor_z(HEIGHT - 8) + 0.05)
        z_max = min(room.depth * hi - 0.45, kind.metres[1])
        if z_max <= z_min:
            return None
        z = rng.uniform(z_min, z_max)
        if kind.person and attrs.get("pose") == "seated":
            height = height * 0.78
        # choose the image column first (left or right of the user), then the world X
        left_side = rng.random() < 0.5
        if kind.role == "benign":
            u = rng.uniform(0.0, WIDTH)
        elif left_side:
            u = rng.uniform(0.0, self.user.x - 250)
        else:
            u = rng.uniform(self.user.x + 250, WIDTH)
        x = (u - camera.cx) * z / camera.focal
        x = min(max(x, room.left + width / 2 + 0.2), room.right - width / 2 - 0.2)
        box = self.floor_box(x, z, width, height)
        if kind.person and attrs.get("pose") == "seated":
            # a seated person: their body starts at seat height
            u1, v1 = camera.project(x - width / 2, height + 0.02, z)
            u2, v2 = camera.project(x + width / 2, 0.45, z)
            box = _outward(u1, v1, u2, v2)
        if kind.key in ("table", "sofa", "counter"):
            box = self._deep_box(kind.key, x, z, width, height)
        footprint = DEEP.get(kind.key, 0.35 if kind.key == "bookshelf" else 0.4)
        return Placed(
            kind.key, "floor", x, 0.0, z, width, height, box, _box_quad(box), box,
            attrs=dict(attrs), footprint=footprint,
        )  # fmt: skip

    def _deep_box(self, key: str, x: float, z: float, width: float, height: float) -> PixelBox:
        """PixelBox of a piece of furniture whose top is seen from above (camera above it)."""
        return self.deep_box(x, z, width, height, DEEP[key])

    def _propose_wall(
        self,
        kind: ElementKind,
        rng: random.Random,
        attrs: Mapping[str, str],
        width: float,
        height: float,
    ) -> Placed | None:
        room, camera = self.room, self.camera
        walls = [
            w
            for w in kind.walls
            if (w == "back" and room.depth <= kind.metres[1])
            or (w != "back" and self._side_visible(w))
        ]
        if not walls:
            return None
        wall: Wall = rng.choice(walls)
        lo, hi = kind.elevation
        y = rng.uniform(lo, hi) if hi > lo else lo
        if kind.key == "balcony":
            y = room.ceiling - height - 0.55
        if y + height > room.ceiling - 0.05:
            return None
        if wall == "back":
            along = rng.uniform(room.left + width / 2 + 0.1, room.right - width / 2 - 0.1)
            z = room.depth
            x = along
        else:
            z_lo = self._side_min_z(wall) + width / 2 + 0.1
            z_hi = min(room.depth, kind.metres[1]) - width / 2 - 0.1
            if z_hi <= z_lo:
                return None
            along = rng.uniform(z_lo, z_hi)
            z = along
            x = room.left if wall == "left" else room.right
        if kind.key == "balcony":
            front = z - BALCONY_REACH
            u1, v1 = camera.project(x - width / 2, y + height, front)
            u2, _ = camera.project(x + width / 2, y + height, front)
            u3, v3 = camera.project(x - width / 2, y, z)
            u4, _ = camera.project(x + width / 2, y, z)
            box = _outward(min(u1, u3), v1, max(u2, u4), v3)
            quad = _box_quad(box)
        elif kind.mount == "fixture":
            # a small object sticking out of the wall: drawn upright, facing the room
            anchor_x = x if wall == "back" else (x + 0.2 if wall == "left" else x - 0.2)
            u1, v1 = camera.project(anchor_x - width / 2, y + height, z)
            u2, v2 = camera.project(anchor_x + width / 2, y, z)
            box = _outward(u1, v1, u2, v2)
            quad = _box_quad(box)
        else:
            quad = wall_quad(camera, room, wall, along, y, width, height)
            box = quad_box(quad)
        merged = dict(attrs)
        merged["wall"] = wall
        return Placed(kind.key, wall, x, y, z, width, height, box, quad, box, attrs=merged)

    def _side_min_z(self, wall: Wall) -> float:
        """The nearest depth at which a side wall is inside the frame."""
        x = self.room.left if wall == "left" else self.room.right
        edge = 0.0 if wall == "left" else float(WIDTH)
        return self.camera.focal * x / (edge - self.camera.cx)

    def _side_visible(self, wall: Wall) -> bool:
        return self._side_min_z(wall) < self.room.depth - 1.6

    # --- designed occlusion ---------------------------------------------------------------

    def occlude_side(
        self, target: Placed, occluder_key: str, rng: random.Random, scale: float
    ) -> tuple[Placed, Placed] | None:
        """A tall occluder (shelf, divider) in front of ``target`` hiding 16–30 % of its
        width from one side (never the face); returns the target with its visible box and the occluder."""
        kind = KINDS[occluder_key]
        width, height = kind.size[0] * scale, kind.size[1] * scale
        z = target.z - rng.uniform(0.5, 1.1)
        if z < self.camera.floor_z(HEIGHT - 8) + 0.05:
            return None
        box_t = target.box
        cover = rng.uniform(0.16, 0.3) * (box_t[2] - box_t[0])
        from_left = (target.x < 0) == (rng.random() < 0.75)  # mostly from the room's middle
        if from_left:
            edge_u = box_t[0] + cover
            x_right = (edge_u - self.camera.cx) * z / self.camera.focal
            x = x_right - width / 2
        else:
            edge_u = box_t[2] - cover
            x_left = (edge_u - self.camera.cx) * z / self.camera.focal
            x = x_left + width / 2
        solid_lo, solid_hi = OCCLUDER_SOLID[occluder_key]
        top = self.camera.project(x, solid_hi * scale, z)[1]
        bottom = self.camera.project(x, solid_lo, z)[1]
        if top > box_t[1] - 2 or bottom < box_t[3] + 2:
            return None  # it would not hide the whole height of that side
        occ_box = self.floor_box(x, z, width, height)
        occluder = Placed(
            occluder_key, "floor", x, 0.0, z, width, height, occ_box,
            _box_quad(occ_box),
            occ_box, attrs={}, footprint=0.35,
        )  # fmt: skip
        if from_left:
            visible = (occ_box[2], box_t[1], box_t[2], box_t[3])
        else:
            visible = (box_t[0], box_t[1], occ_box[0], box_t[3])
        if visible[2] - visible[0] < 0.55 * (box_t[2] - box_t[0]):
            return None
        return replace(target, visible=visible), occluder

    def seat_behind_table(
        self, target: Placed, rng: random.Random, scale: float
    ) -> tuple[Placed, Placed] | None:
        """A table in front of a seated person: hides them below the table top."""
        kind = KINDS["table"]
        width = kind.size[0] * scale
        z = target.z - TABLE_DEPTH - rng.uniform(0.08, 0.2)
        if z < self.camera.floor_z(HEIGHT - 8) + 0.05:
            return None
        x = target.x + rng.uniform(-0.15, 0.15)
        box, v_back = self.table_box(x, z, width)
        # the top must span the person's width along its whole depth (front and back edge)
        left = max(
            self.camera.project(x - width / 2, TABLE_TOP, d)[0] for d in (z, z + TABLE_DEPTH)
        )
        right = min(
            self.camera.project(x + width / 2, TABLE_TOP, d)[0] for d in (z, z + TABLE_DEPTH)
        )
        box_t = target.box
        if left > box_t[0] - 2 or right < box_t[2] + 2:
            return None
        if v_back >= box_t[3] - 4 or v_back <= box_t[1] + 0.45 * (box_t[3] - box_t[1]):
            return None
        table = Placed(
            "table", "floor", x, 0.0, z, width, TABLE_TOP, box,
            _box_quad(box), box, attrs={"cloth": "yes"}, footprint=TABLE_DEPTH,
        )  # fmt: skip
        visible = (box_t[0], box_t[1], box_t[2], math.floor(v_back))
        return replace(target, visible=visible), table


def _box_quad(box: PixelBox) -> tuple[Point, Point, Point, Point]:
    """The corners of an upright box, clockwise from its top left: the quad of an element
    drawn facing the camera."""
    return _f(((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])))


def _f(corners: Sequence[tuple[float, float]]) -> tuple[Point, Point, Point, Point]:
    points = [(float(a), float(b)) for a, b in corners]
    return points[0], points[1], points[2], points[3]
