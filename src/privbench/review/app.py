"""The review web app: one dataset directory, one token, the annotators who hold it.

Why a closed set of routes, each looking its image up among the dataset's records: the
app serves files from a folder of captures that may show private things, so nothing
the browser sends ever becomes a path (an id that is not a record's is a 404, whatever
``../`` or encoding it carries), the page and its scripts come from the package, and the
only thing a client can upload is one annotation JSON of bounded size, checked field by
field before it reaches :class:`~privbench.review_store.ReviewStore`.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Awaitable, Callable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlencode

import jinja2
from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse, StreamingResponse

from privbench import registry
from privbench.review.access import CONTENT_SECURITY_POLICY, OneTimeCode, require_token
from privbench.review.bodies import parse_json, read_body, valid_name
from privbench.review.rating_routes import rating_router
from privbench.review.shortcuts import SHORTCUTS
from privbench.review_store import ReviewStore, SavedAnnotation, StaleVersion
from privbench.runtime.cross_run import AnnotationReview, ReviewImage
from privbench.runtime.errors import UsageError
from privbench.runtime.suite import Suite

MAX_BODY_BYTES = 256 * 1024
"""A save is a few kilobytes; a larger body is a mistake or an attack (413)."""
MAX_ANNOTATOR_CHARS = 64
MAX_TEXT_CHARS = 2000
MAX_FACTORS = 500
UNREADABLE = "unreadable"
"""The status of a stored row that is not an annotation (counted, never a 500)."""


def verdicts(review: AnnotationReview) -> tuple[str, ...]:
    """What a reviewer may save: a verdict, never "draft" (that is what nobody reviewed)."""
    return tuple(status for status in review.statuses if status != "draft")


def verdict_counts(review: AnnotationReview) -> tuple[str, ...]:
    """What an annotator's saves are counted as."""
    return (*verdicts(review), UNREADABLE)


def all_statuses(review: AnnotationReview) -> tuple[str, ...]:
    """Every status :func:`effective_status` gives."""
    return (*review.statuses, UNREADABLE)


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


def reviewed_suite(directory: Path) -> tuple[Suite, AnnotationReview]:
    """The benchmark whose annotations ``directory`` holds (by its dataset file) among those
    people annotate; the first of them when it holds none (its loader then says why)."""
    annotated = [
        (suite, review)
        for suite in registry.SUITES.values()
        if (review := suite.cross_run.annotation_review) is not None
    ]
    if not annotated:
        raise UsageError("no benchmark of this privbench has annotations to review")
    for suite, review in annotated:
        if (directory / suite.dataset_file).is_file():
            return suite, review
    return annotated[0]


def load_review_images(directory: Path, review: AnnotationReview) -> dict[str, ReviewImage]:
    """The dataset's images by id, with each record's drafted annotation.

    Raises :class:`~privbench.runtime.errors.DatasetError` (one line) for a directory that
    is not a valid dataset: the app never serves a half-valid one. A capture outside the
    dataset's folder is never served (validation refuses it already).
    """
    root = directory.resolve()
    return {
        image.id: image for image in review.images(directory) if image.path.is_relative_to(root)
    }


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


def checked_annotation(
    value: object, width: int, height: int, review: AnnotationReview
) -> dict[str, object]:
    """The annotation a reviewer saves, in the store's shape, or :class:`InvalidAnnotation`.

    A box's category may be ``null`` (drawn, not categorised yet) on a ``needs_work`` or
    ``discarded`` save, never on an ``accepted`` one. Why no default category: whatever
    category were filled in for the annotator would reach q2–q5 of the export as their
    answer, shifting every score measured on the dataset towards it."""
    if not isinstance(value, dict):
        raise InvalidAnnotation("'annotation' must be an object")
    status = value.get("status")
    allowed_statuses = verdicts(review)
    if status not in allowed_statuses:
        raise InvalidAnnotation(
            f"'status' must be one of {', '.join(allowed_statuses)}, not {status!r}"
        )
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
        if category is None and status != "accepted":
            pass  # drawn, not yet categorised: kept as such on a needs-work or discarded save
        elif category is None:
            raise InvalidAnnotation(f"{what} has no category yet: choose one before accepting")
        elif category not in review.categories:
            allowed = ", ".join(review.categories)
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
    """An annotator name as the store keeps it, or None when it is not one
    (:func:`~privbench.review.bodies.valid_name`)."""
    return valid_name(name, MAX_ANNOTATOR_CHARS)


def checked_annotator(name: str) -> str:
    """:func:`valid_annotator` for a request (422 otherwise)."""
    valid = valid_annotator(name)
    if valid is None:
        raise HTTPException(status_code=422, detail=ANNOTATOR_RULE)
    return valid


def _static(name: str) -> bytes:
    return (resources.files("privbench.review") / "static" / name).read_bytes()


def _page(token: str) -> str:
    """The page, its asset URLs carrying the token (escaped, though it is URL-safe)."""
    source = (resources.files("privbench.review") / "templates" / "index.html").read_text("utf-8")
    template = jinja2.Environment(autoescape=True).from_string(source)
    return template.render(token=token, shortcuts=SHORTCUTS)


def readable(saved: SavedAnnotation | None, review: AnnotationReview) -> dict[str, object] | None:
    """A stored annotation the page can start from, or None (none saved, or unreadable)."""
    if saved is None or saved.problem is not None:
        return None
    annotation = saved.annotation
    if annotation.get("status") not in verdicts(review) or not isinstance(
        annotation.get("factors"), list
    ):
        return None
    return annotation


def effective_status(
    image: ReviewImage, saved: SavedAnnotation | None, review: AnnotationReview
) -> str:
    """What an annotator sees as an image's status: their latest verdict, else the record's;
    ``unreadable`` for a stored row that is not an annotation (counted, never a 500)."""
    if saved is not None:
        annotation = readable(saved, review)
        return UNREADABLE if annotation is None else str(annotation["status"])
    return image.status or "draft"


def progress(statuses: Mapping[str, int], review: AnnotationReview) -> dict[str, int]:
    """``reviewed``: images with any verdict (accepted, needs work, discarded); ``accepted``
    apart. Why every verdict: a discarded image or one sent back is reviewed too; counting
    only accepted ones told annotators work was left that they had done."""
    return {
        "reviewed": sum(statuses.get(status, 0) for status in verdicts(review)),
        "accepted": statuses.get("accepted", 0),
    }


def open_capture(image: ReviewImage) -> BinaryIO | None:
    """The capture opened for reading, or None when it is no longer the file the app
    started with. Why checked at every request: a capture swapped for a symbolic link after
    the start would otherwise be followed to wherever it points, outside the dataset; the
    record's path must still resolve to the same file, and the last step is opened without
    following a link (``O_NOFOLLOW``)."""
    try:
        if image.source.resolve(strict=True) != image.path:
            return None
        descriptor = os.open(image.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    file = os.fdopen(descriptor, "rb")  # closes the descriptor when it is closed or freed
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        file.close()
        return None
    return file


def _chunks(file: BinaryIO) -> Iterator[bytes]:
    with file:
        while chunk := file.read(CAPTURE_CHUNK_BYTES):
            yield chunk


CAPTURE_CHUNK_BYTES = 256 * 1024


def create_app(
    directory: Path,
    token: str,
    annotator: str,
    surveys: Path | None = None,
    opening: OneTimeCode | None = None,
) -> FastAPI:
    """The app for one dataset directory; ``annotator`` is who saves without ``?annotator=``.

    ``surveys``: a ``survey export`` folder whose rating forms are served at
    ``/rate/{survey}`` for a lab, their ratings kept in the same store. ``opening``: the
    one-time code the browser is opened with, redeemed at ``/open/{code}`` (no token)."""
    default_annotator = valid_annotator(annotator)
    if default_annotator is None:
        raise UsageError(f"--annotator {annotator!r}: {ANNOTATOR_RULE}")
    review = reviewed_suite(directory)[1]
    images = load_review_images(directory, review)
    store = ReviewStore.of(directory)
    page = _page(token)
    static = {name: (_static(name), kind) for name, kind in _STATIC_FILES.items()}
    app = FastAPI(
        docs_url=None,  # the interactive docs load scripts from a CDN: never
        redoc_url=None,
        openapi_url=None,
    )
    routes = APIRouter(dependencies=[Depends(require_token(token))])

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.get("/open/{code}")
    def open_once(code: str) -> Response:
        """The browser's way in: a spent, late or wrong code is 403, never the token."""
        if opening is None or not opening.redeem(code):
            return Response(
                "This link has been used already or is out of date: open the URL the "
                "review command printed (with its token).\n",
                status_code=403,
                media_type="text/plain; charset=utf-8",
            )
        target = "/?" + urlencode({"token": token, "annotator": default_annotator})
        return RedirectResponse(target, status_code=303)

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

    @routes.get("/")
    def index() -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    @routes.get("/static/{name:path}")
    def static_file(name: str) -> Response:
        found = static.get(name)
        if found is None:
            raise HTTPException(status_code=404, detail="not found")
        return Response(found[0], media_type=found[1])

    @routes.get("/api/session")
    def session(annotator: str | None = Query(None)) -> dict[str, object]:
        return {"annotator": who(annotator), "dataset": directory.name, "total": len(images)}

    @routes.get("/api/images")
    def list_images(annotator: str | None = Query(None)) -> list[dict[str, object]]:
        name = who(annotator)
        saved = latest_by_image()
        return [
            {
                "id": image.id,
                "status": effective_status(image, saved.get(image.id, {}).get(name), review),
                "annotators": sorted(saved.get(image.id, {})),
            }
            for image in images.values()
        ]

    @routes.get("/api/images/{image_id:path}")
    def get_image(image_id: str, annotator: str | None = Query(None)) -> dict[str, object]:
        image = image_of(image_id)
        saved = store.latest(image.id, who(annotator))
        return {
            "id": image.id,
            "width": image.width,
            "height": image.height,
            "image_url": f"images/{image.id}",
            "status": effective_status(image, saved, review),
            "draft": list(image.factors),
            "annotation": readable(saved, review),
            "version": saved.version if saved else 0,
        }

    @routes.put("/api/images/{image_id:path}")
    async def put_image(
        image_id: str, request: Request, annotator: str | None = Query(None)
    ) -> Response:
        image = image_of(image_id)
        name = who(annotator)
        document = parse_json(await read_body(request, MAX_BODY_BYTES))
        if not isinstance(document, dict):
            raise HTTPException(status_code=400, detail="body must be a JSON object")
        version = document.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise HTTPException(status_code=422, detail="'version' must be an integer ≥ 0")
        try:
            annotation = checked_annotation(
                document.get("annotation"), image.width, image.height, review
            )
        except InvalidAnnotation as error:
            raise HTTPException(status_code=422, detail=str(error)) from None
        try:
            new_version = store.save(image.id, name, version, annotation)
        except StaleVersion as error:
            return JSONResponse({"detail": str(error), "latest": error.latest}, status_code=409)
        return JSONResponse({"version": new_version})

    @routes.get("/api/stats")
    def stats(annotator: str | None = Query(None)) -> dict[str, object]:
        name = who(annotator)
        saved = latest_by_image()
        statuses: dict[str, int] = dict.fromkeys(all_statuses(review), 0)
        for image in images.values():
            statuses[effective_status(image, saved.get(image.id, {}).get(name), review)] += 1
        per_annotator: dict[str, dict[str, int]] = {}
        for image_id, by_annotator in saved.items():
            record = images.get(image_id)
            if record is None:  # saved for a record since removed from the dataset
                continue
            for person, annotation in by_annotator.items():
                counts = per_annotator.setdefault(person, dict.fromkeys(verdict_counts(review), 0))
                counts[effective_status(record, annotation, review)] += 1
        return {
            "annotator": name,
            "total": len(images),
            **progress(statuses, review),
            "statuses": statuses,
            "annotators": {
                person: {**progress(counts, review), **counts}
                for person, counts in sorted(per_annotator.items())
            },
        }

    @routes.get("/images/{image_id:path}")
    def image_file(image_id: str) -> Response:
        image = image_of(image_id)
        file = open_capture(image)
        if file is None:
            raise HTTPException(status_code=404, detail="no such image")
        kind = _IMAGE_TYPES.get(image.path.suffix.lower(), "application/octet-stream")
        size = str(os.fstat(file.fileno()).st_size)
        return StreamingResponse(_chunks(file), media_type=kind, headers={"Content-Length": size})

    app.include_router(routes)
    if surveys is not None:
        app.include_router(rating_router(surveys, store), dependencies=routes.dependencies)
    return app
