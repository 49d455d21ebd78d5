"""The review web app: one dataset directory, one token, the annotators who hold it.

Why a closed set of routes, each looking its image up among the dataset's records: the
app serves files from a folder of captures that may show private things, so nothing
the browser sends ever becomes a path (an id that is not a record's is a 404, whatever
``../`` or encoding it carries), the page and its scripts come from the package, and the
only thing a client can upload is one annotation JSON of bounded size, checked field by
field before it reaches :class:`~privbench.review.store.ReviewStore`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jinja2
from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse

from privbench.review.access import CONTENT_SECURITY_POLICY, require_token
from privbench.review.rating_routes import rating_router
from privbench.review.store import ReviewStore, SavedAnnotation, StaleVersion
from privbench.runtime.errors import UsageError
from privbench.spatialtrust.build.annotation import CATEGORIES, REVIEW_STATUSES
from privbench.spatialtrust.dataset import load_spatialtrust

MAX_BODY_BYTES = 256 * 1024
"""A save is a few kilobytes; a larger body is a mistake or an attack (413)."""
MAX_ANNOTATOR_CHARS = 64
MAX_TEXT_CHARS = 2000
MAX_FACTORS = 500
VERDICTS = tuple(status for status in REVIEW_STATUSES if status != "draft")
"""What a reviewer may save: a verdict, never "draft" (that is what nobody reviewed)."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

_STATIC_FILES = {
    "review.js": "application/javascript",
    "review.css": "text/css",
    "vendor/annotorious.js": "application/javascript",
    "vendor/annotorious.css": "text/css",
}
"""The only static files served: a fixed list, so a request cannot name another."""

_IMAGE_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


@dataclass(frozen=True)
class ReviewImage:
    """One capture of the dataset as the app shows it."""

    id: str
    path: Path
    width: int
    height: int
    status: str | None
    """The record's own annotation status (None: the record has none)."""
    annotators: tuple[str, ...]
    factors: tuple[dict[str, object], ...]
    """The record's annotation elements: the draft a reviewer starts from."""


def load_review_images(directory: Path) -> dict[str, ReviewImage]:
    """The dataset's images by id, with each record's drafted annotation.

    Raises :class:`~privbench.runtime.errors.DatasetError` (one line) for a directory that
    is not a valid SpatialTrust dataset: the app never serves a half-valid one.
    """
    items = load_spatialtrust(directory)
    root = directory.resolve()
    images: dict[str, ReviewImage] = {}
    for item in items:
        path = item.image.resolve()
        if not path.is_relative_to(root):  # validation refuses this already; never serve it
            continue
        annotation = item.annotation
        images[item.id] = ReviewImage(
            id=item.id,
            path=path,
            width=item.width,
            height=item.height,
            status=item.review_status,
            annotators=annotation.annotators if annotation is not None else (),
            factors=tuple(
                {"name": e.name, "category": e.category, "why": e.why, "box": list(e.box)}
                for e in (annotation.elements if annotation is not None else ())
            ),
        )
    return images


class InvalidAnnotation(ValueError):
    """A save body that is not a valid annotation (HTTP 422, the message as detail)."""


def _text(value: object, what: str, required: bool) -> str:
    if not isinstance(value, str):
        if required or value is not None:
            raise InvalidAnnotation(f"{what} must be a string")
        return ""
    if len(value) > MAX_TEXT_CHARS:
        raise InvalidAnnotation(f"{what} is longer than {MAX_TEXT_CHARS} characters")
    if required and not value.strip():
        raise InvalidAnnotation(f"{what} is empty")
    return value.strip()


def _box(value: object, what: str, width: int, height: int) -> list[float]:
    """Four finite numbers ``[x1, y1, x2, y2]`` with area, inside the image."""
    if not isinstance(value, list) or len(value) != 4:
        raise InvalidAnnotation(f"{what}: box must be four numbers [x1, y1, x2, y2]")
    numbers: list[float] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise InvalidAnnotation(f"{what}: box must be four finite numbers")
        numbers.append(round(float(v), 1))
    x1, y1, x2, y2 = numbers
    if not (x1 < x2 and y1 < y2):
        raise InvalidAnnotation(f"{what}: box {numbers} needs x1 < x2 and y1 < y2")
    if not (x1 >= 0 and y1 >= 0 and x2 <= width and y2 <= height):
        raise InvalidAnnotation(f"{what}: box {numbers} is outside the {width}×{height} image")
    return numbers


def checked_annotation(value: object, width: int, height: int) -> dict[str, object]:
    """The annotation a reviewer saves, in the store's shape, or :class:`InvalidAnnotation`."""
    if not isinstance(value, dict):
        raise InvalidAnnotation("'annotation' must be an object")
    status = value.get("status")
    if status not in VERDICTS:
        raise InvalidAnnotation(f"'status' must be one of {', '.join(VERDICTS)}, not {status!r}")
    raw_factors = value.get("factors", [])
    if not isinstance(raw_factors, list):
        raise InvalidAnnotation("'factors' must be a list")
    if len(raw_factors) > MAX_FACTORS:
        raise InvalidAnnotation(f"more than {MAX_FACTORS} factors")
    factors: list[dict[str, object]] = []
    for index, raw in enumerate(raw_factors):
        what = f"factor {index}"
        if not isinstance(raw, dict):
            raise InvalidAnnotation(f"{what} must be an object")
        category = raw.get("category")
        if category not in CATEGORIES:
            allowed = ", ".join(CATEGORIES)
            raise InvalidAnnotation(f"{what}: 'category' must be one of {allowed}")
        factors.append(
            {
                "name": _text(raw.get("name"), f"{what}: 'name'", required=True),
                "category": category,
                "why": _text(raw.get("why"), f"{what}: 'why'", required=False),
                "box": _box(raw.get("box"), what, width, height),
            }
        )
    return {"status": status, "factors": factors}


ANNOTATOR_RULE = (
    f"an annotator name is 1–{MAX_ANNOTATOR_CHARS} printable characters, no edge spaces"
)


def valid_annotator(name: str) -> str | None:
    """An annotator name as the store keeps it, or None when it is not one.

    Why a rule at all: the name is a key of every save and is shown to other annotators;
    control characters, edge spaces (" bob" would be a second bob) or a kilobyte of text
    there are a mistake or mischief."""
    if not name or name != name.strip():
        return None
    if len(name) > MAX_ANNOTATOR_CHARS or not name.isprintable():
        return None
    return name


def checked_annotator(name: str) -> str:
    """:func:`valid_annotator` for a request (422 otherwise)."""
    valid = valid_annotator(name)
    if valid is None:
        raise HTTPException(status_code=422, detail=ANNOTATOR_RULE)
    return valid


async def _read_body(request: Request) -> bytes:
    """The request body, refused (413) as soon as it passes :data:`MAX_BODY_BYTES`."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise HTTPException(status_code=413, detail=f"body over {MAX_BODY_BYTES} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise HTTPException(status_code=413, detail=f"body over {MAX_BODY_BYTES} bytes")
    return bytes(body)


def _static(name: str) -> bytes:
    return (resources.files("privbench.review") / "static" / name).read_bytes()


def _page(token: str) -> str:
    """The page, its asset URLs carrying the token (escaped, though it is URL-safe)."""
    source = (resources.files("privbench.review") / "templates" / "index.html").read_text("utf-8")
    return jinja2.Environment(autoescape=True).from_string(source).render(token=token)


def effective_status(image: ReviewImage, saved: SavedAnnotation | None) -> str:
    """What an annotator sees as an image's status: their latest verdict, else the record's."""
    if saved is not None:
        return str(saved.annotation.get("status", "draft"))
    return image.status or "draft"


def create_app(directory: Path, token: str, annotator: str, surveys: Path | None = None) -> FastAPI:
    """The app for one dataset directory; ``annotator`` is who saves without ``?annotator=``.

    ``surveys``: a ``survey export`` folder whose rating forms are served at
    ``/rate/{survey}`` for a lab, their ratings kept in the same store."""
    default_annotator = valid_annotator(annotator)
    if default_annotator is None:
        raise UsageError(f"--annotator {annotator!r}: {ANNOTATOR_RULE}")
    images = load_review_images(directory)
    store = ReviewStore.of(directory)
    page = _page(token)
    static = {name: (_static(name), kind) for name, kind in _STATIC_FILES.items()}
    app = FastAPI(
        dependencies=[Depends(require_token(token))],
        docs_url=None,  # the interactive docs load scripts from a CDN: never
        redoc_url=None,
        openapi_url=None,
    )

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    if surveys is not None:
        app.include_router(rating_router(surveys, store))  # the app's token check applies

    def image_of(image_id: str) -> ReviewImage:
        image = images.get(image_id)
        if image is None:
            raise HTTPException(status_code=404, detail="no such image")
        return image

    def who(name: str | None) -> str:
        return default_annotator if name is None else checked_annotator(name)

    def latest_by_image() -> dict[str, dict[str, SavedAnnotation]]:
        by_image: dict[str, dict[str, SavedAnnotation]] = {}
        for saved in store.all_latest():
            by_image.setdefault(saved.image, {})[saved.annotator] = saved
        return by_image

    @app.get("/")
    def index() -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    @app.get("/static/{name:path}")
    def static_file(name: str) -> Response:
        found = static.get(name)
        if found is None:
            raise HTTPException(status_code=404, detail="not found")
        return Response(found[0], media_type=found[1])

    @app.get("/api/session")
    def session(annotator: str | None = Query(None)) -> dict[str, object]:
        return {"annotator": who(annotator), "dataset": directory.name, "total": len(images)}

    @app.get("/api/images")
    def list_images(annotator: str | None = Query(None)) -> list[dict[str, object]]:
        name = who(annotator)
        saved = latest_by_image()
        return [
            {
                "id": image.id,
                "status": effective_status(image, saved.get(image.id, {}).get(name)),
                "annotators": sorted(saved.get(image.id, {})),
            }
            for image in images.values()
        ]

    @app.get("/api/images/{image_id:path}")
    def get_image(image_id: str, annotator: str | None = Query(None)) -> dict[str, object]:
        image = image_of(image_id)
        saved = store.latest(image.id, who(annotator))
        return {
            "id": image.id,
            "width": image.width,
            "height": image.height,
            "image_url": f"images/{image.id}",
            "status": effective_status(image, saved),
            "draft": list(image.factors),
            "annotation": saved.annotation if saved else None,
            "version": saved.version if saved else 0,
        }

    @app.put("/api/images/{image_id:path}")
    async def put_image(
        image_id: str, request: Request, annotator: str | None = Query(None)
    ) -> Response:
        image = image_of(image_id)
        name = who(annotator)
        body = await _read_body(request)
        try:
            document = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise HTTPException(status_code=400, detail="body is not JSON") from None
        if not isinstance(document, dict):
            raise HTTPException(status_code=400, detail="body must be a JSON object")
        version = document.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise HTTPException(status_code=422, detail="'version' must be an integer ≥ 0")
        try:
            annotation = checked_annotation(document.get("annotation"), image.width, image.height)
        except InvalidAnnotation as error:
            raise HTTPException(status_code=422, detail=str(error)) from None
        try:
            new_version = store.save(image.id, name, version, annotation)
        except StaleVersion as error:
            return JSONResponse({"detail": str(error), "latest": error.latest}, status_code=409)
        return JSONResponse({"version": new_version})

    @app.get("/api/stats")
    def stats(annotator: str | None = Query(None)) -> dict[str, object]:
        name = who(annotator)
        saved = latest_by_image()
        statuses: dict[str, int] = dict.fromkeys(REVIEW_STATUSES, 0)
        for image in images.values():
            statuses[effective_status(image, saved.get(image.id, {}).get(name))] += 1
        per_annotator: dict[str, dict[str, int]] = {}
        for image_id, by_annotator in saved.items():
            if image_id not in images:  # saved for a record since removed from the dataset
                continue
            for person, annotation in by_annotator.items():
                counts = per_annotator.setdefault(person, dict.fromkeys(VERDICTS, 0))
                status = str(annotation.annotation.get("status"))
                counts[status] = counts.get(status, 0) + 1
        return {
            "annotator": name,
            "total": len(images),
            "reviewed": statuses["accepted"],
            "statuses": statuses,
            "annotators": {
                person: {"reviewed": counts["accepted"], **counts}
                for person, counts in sorted(per_annotator.items())
            },
        }

    @app.get("/images/{image_id:path}")
    def image_file(image_id: str) -> FileResponse:
        image = image_of(image_id)
        kind = _IMAGE_TYPES.get(image.path.suffix.lower(), "application/octet-stream")
        return FileResponse(image.path, media_type=kind)

    return app
