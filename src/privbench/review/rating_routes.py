"""The blind rating form served in a lab, with every rating kept in ``review.sqlite``.

Why served as well as offline: in a lab, raters sit at shared machines and a lost
download loses a participant; here each rating is also saved on the server the moment it
is given (:meth:`ReviewStore.save_rating`), versioned like annotations. The form is the
very one ``survey export`` writes to ``for_raters/survey.html`` (its script, seeing an
http(s) page, also PUTs each rating); only its script is loaded from the app, because the
app's Content-Security-Policy forbids inline scripts.

Routes (mount without a prefix, behind the app's token check)::

    app.include_router(rating_router(survey_dir, store),
                       dependencies=[Depends(require_token(token))])

* ``GET /rate/{survey}`` — the form (``?token=`` as for every page of the app);
* ``GET /rate/{survey}/form.js`` — its script;
* ``GET /api/ratings/{survey}?rater=NAME`` — that rater's latest scores;
* ``PUT /api/ratings/{survey}/{item}?rater=NAME`` with ``{"score": 0.7}`` (``null``
  clears) — one rating, stored as the next version.

``survey_dir`` is a ``survey export --out`` folder or a folder of them; ``{survey}`` is the
survey's opaque id. :func:`write_lab_ratings` writes what was stored as rating files, one
per rater, which ``privbench agreement`` reads like downloaded ones.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from privbench.analysis.rating_files import (
    RATERS_FOLDER,
    rating_document,
)
from privbench.analysis.survey import FORM_FILE, form_script, payload_of_form, render_form
from privbench.json_files import dump_json
from privbench.review.access import presented_token
from privbench.review.bodies import parse_json, read_body, valid_name
from privbench.review_store import ReviewStore

RATER_LENGTH = 100


@dataclass(frozen=True)
class ServedSurvey:
    """One exported survey as the server knows it: its form's data and where it lies."""

    survey: str
    form: Path
    payload: dict[str, object]
    scale: int
    items: tuple[str, ...]


def _served(form: Path) -> ServedSurvey | None:
    """The survey of an exported form, or None for a file that is not one."""
    try:
        payload = payload_of_form(form.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    survey, scale, items = payload.get("survey"), payload.get("scale"), payload.get("items")
    if not isinstance(survey, str) or scale not in (1, 10) or not isinstance(items, list):
        return None
    ids = tuple(str(i["id"]) for i in items if isinstance(i, dict) and "id" in i)
    return ServedSurvey(survey, form, payload, int(str(scale)), ids)


def find_surveys(survey_dir: Path) -> dict[str, ServedSurvey]:
    """Every exported survey in ``survey_dir`` (an export folder, or a folder of them)."""
    forms = [
        survey_dir / RATERS_FOLDER / FORM_FILE,
        *survey_dir.glob(f"*/{RATERS_FOLDER}/{FORM_FILE}"),
    ]
    found = (_served(form) for form in forms if form.is_file())
    return {s.survey: s for s in found if s is not None}


MAX_RATING_BYTES = 16 * 1024
"""A rating body is ``{"score": 0.7}``; a larger one is a mistake or an attack (413)."""


def checked_score(document: object, scale: int) -> float | None:
    """A PUT's body ``{"score": x}``: a JSON number in ``0..scale`` or ``null`` (clears).

    Why strict types: ``true`` would be stored as 1.0 and ``"0.5"`` as a number, scores no
    rater gave (422 instead)."""
    if not isinstance(document, dict) or set(document) != {"score"}:
        raise HTTPException(422, 'body: {"score": a number, or null to clear}')
    score = document["score"]
    if score is None:
        return None
    if isinstance(score, bool) or not isinstance(score, int | float):
        raise HTTPException(422, f"score: a number in 0–{scale}, not {type(score).__name__}")
    if not (math.isfinite(score) and 0 <= score <= scale):
        raise HTTPException(422, f"score: a number in 0–{scale}")
    return float(score)


def _rater(rater: str) -> str:
    """The rater's name, trimmed (the form trims it too), or 422: 1–100 printable characters,
    no control or format characters (:func:`~privbench.review.bodies.valid_name`)."""
    name = valid_name(rater.strip(), RATER_LENGTH)
    if name is None:
        raise HTTPException(422, f"rater: a name of 1–{RATER_LENGTH} printable characters")
    return name


def rating_router(survey_dir: Path, store: ReviewStore) -> APIRouter:
    """The form and the ratings API of the surveys in ``survey_dir`` (see the module)."""
    router = APIRouter()

    def survey_of(survey: str) -> ServedSurvey:
        found = find_surveys(survey_dir).get(survey)
        if found is None:
            raise HTTPException(404, "no such survey")  # never the server's folder
        return found

    @router.get("/rate/{survey}", response_class=HTMLResponse)
    def form(survey: str, request: Request) -> HTMLResponse:
        served = survey_of(survey)
        token = presented_token(request)
        script = f"{quote(served.survey)}/form.js" + (f"?token={quote(token)}" if token else "")
        return HTMLResponse(render_form(served.payload, script_src=script))

    @router.get("/rate/{survey}/form.js")
    def script(survey: str) -> Response:
        survey_of(survey)
        return Response(form_script(), media_type="text/javascript; charset=utf-8")

    @router.get("/api/ratings/{survey}")
    def read(survey: str, rater: str = Query(...)) -> dict[str, object]:
        served, name = survey_of(survey), _rater(rater)
        scores = store.ratings(served.survey).get(name, {})
        return {
            "survey": served.survey,
            "rater": name,
            "scale": served.scale,
            "ratings": {k: v for k, v in scores.items() if v is not None},
        }

    @router.put("/api/ratings/{survey}/{item}")
    async def save(
        survey: str, item: str, request: Request, rater: str = Query(...)
    ) -> dict[str, object]:
        served, name = survey_of(survey), _rater(rater)
        if item not in served.items:
            raise HTTPException(404, "no such item in this survey")
        score = checked_score(parse_json(await read_body(request, MAX_RATING_BYTES)), served.scale)
        version = store.save_rating(served.survey, item, name, score)
        return {"survey": served.survey, "item": item, "rater": name, "version": version}

    return router


def _file_name(survey: str, rater: str, number: int) -> str:
    """``ratings-SURVEY-NN-RATER.json``: the number keeps raters whose names differ only in
    characters a file name cannot hold apart."""
    return f"ratings-{survey}-{number + 1:02d}-{re.sub(r'[^A-Za-z0-9_-]+', '_', rater)[:40]}.json"


def write_lab_ratings(survey_dir: Path, store: ReviewStore, out_dir: Path) -> list[Path]:
    """One rating file per survey and rater of what the store holds (latest scores).

    Why the downloaded format: ``privbench agreement`` then reads a lab's ratings and
    mailed-in ones alike, with the same key.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for served in find_surveys(survey_dir).values():
        for rater, scores in store.ratings(served.survey).items():
            kept: dict[str, float | None] = {
                i: s for i, s in scores.items() if i in served.items and s is not None
            }
            if not kept:
                continue
            path = out_dir / _file_name(served.survey, rater, len(written))
            dump_json(rating_document(served.survey, rater, served.scale, kept), path)
            written.append(path)
    return written
