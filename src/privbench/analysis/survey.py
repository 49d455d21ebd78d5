"""Blind rating forms for judge–human agreement studies (``privbench survey export``).

Draws graded Priv-IQ samples (seeded), spreading the draw over every run so each model
is represented, and over judge-score strata (:mod:`.strata`) and competencies so that
the ratings span the scale (see :func:`draw_samples`); shuffles them (seeded, per survey) and names each by an opaque
id drawn from the same seed. Why opaque ids and a separate key: a rater who sees the
judge's score or the model's name is no longer an independent rater. The output folder:

* ``for_raters/survey.html`` — the form a rater opens offline (one answer at a time,
  ratings kept in the browser, a button that downloads the rater's rating file);
* ``for_raters/survey.csv`` — the same items as a blind sheet (a blank row per rater and
  item, no judge rows, no model; the ``image`` column names the item's image file, which
  the sheet cannot show) for raters who prefer a spreadsheet;
* ``survey_key.json`` — the researcher's key: opaque id → run, item, judge score and
  stratum, and the strata of the draw (graded and drawn per stratum). It is
  never sent to raters; ``privbench agreement`` reads it beside the ratings.

The file formats are in :mod:`privbench.analysis.rating_files`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape
from PIL import Image

from privbench.analysis.rating_files import (
    KEY_FILE,
    RATERS_FOLDER,
    KeyItem,
    SurveyKey,
    key_document,
)
from privbench.analysis.runs import load_results
from privbench.analysis.strata import spread_draw, strata_counts, stratum_of
from privbench.json_files import dump_json
from privbench.runtime.errors import UsageError

COLUMNS = [
    "item_id", "rater", "score", "survey", "image", "question", "reference", "answer",
]  # fmt: skip
FORM_FILE = "survey.html"
SHEET_FILE = "survey.csv"
IMAGE_SIDE = 1024
"""Longest side (px) of an embedded image: legible on a laptop, a form stays mailable."""
DATA_ID = "rating-data"
_DATA_OPEN = f'<script type="application/json" id="{DATA_ID}">'


def _competencies(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list | tuple) else ()


def draw_samples(priviq: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """``n`` graded (run, item) pairs, spread over runs, judge-score strata and competencies.

    Why strata: a weak model's answers are mostly 0.0; a plain random draw of 10 then holds
    eight zeros, and ICC and ρ over so little spread say nothing about agreement. The draw
    is :func:`~privbench.analysis.strata.spread_draw` (every run first, then the judge-score
    stratum least drawn so far); the result has a ``stratum`` column.
    """
    graded = priviq.groupby(["run", "item"], sort=False).agg(
        score=("score", "mean"),
        question=("question", "first"),
        reference=("reference", "first"),
        answer=("answer", "first"),
        image=("image", "first"),
        competencies=("competencies", "first"),
    )
    graded = graded[graded["score"].notna()].reset_index()
    if graded.empty:
        raise UsageError("no sample of the logs has a judge score (all unscored)")
    graded["stratum"] = [stratum_of(float(score)) for score in graded["score"]]
    runs = list(dict.fromkeys(graded["run"]))
    if n < len(runs):
        raise UsageError(f"--n {n} is smaller than the {len(runs)} models to represent")
    chosen = spread_draw(
        list(graded["stratum"]),
        [_competencies(value) for value in graded["competencies"]],
        n,
        seed,
        groups=[str(run) for run in graded["run"]],
    )
    return graded.loc[chosen].reset_index(drop=True)


def strata_of(priviq: pd.DataFrame, drawn: pd.DataFrame) -> list[dict[str, object]]:
    """What the key says of the draw: each stratum's band, graded items and items drawn."""
    graded = priviq.groupby(["run", "item"], sort=False)["score"].mean().dropna()
    return strata_counts([stratum_of(float(s)) for s in graded], list(drawn["stratum"]))


def survey_rng(seed: int, survey: str) -> np.random.Generator:
    """The generator of a survey's order and ids: the seed and the survey's name.

    Why the name too: two surveys drawn with one seed must not share ids or order.
    """
    name = int.from_bytes(hashlib.sha256(survey.encode("utf-8")).digest()[:8], "big")
    return np.random.default_rng([seed & 0xFFFF_FFFF_FFFF_FFFF, name])


def _tokens(rng: np.random.Generator, prefix: str, count: int) -> list[str]:
    """``count`` distinct random tokens: they carry no information about what they name."""
    tokens: list[str] = []
    while len(tokens) < count:
        token = prefix + rng.bytes(6).hex()
        if token not in tokens:
            tokens.append(token)
    return tokens


@dataclass(frozen=True)
class BlindSurvey:
    """A drawn survey in the order raters see it; ``items`` align with ``ids``."""

    survey: str
    name: str
    ids: list[str]
    items: pd.DataFrame


def blind(samples: pd.DataFrame, seed: int, name: str) -> BlindSurvey:
    """Shuffle the drawn samples and name them (and the survey) by opaque tokens."""
    rng = survey_rng(seed, name)
    (survey,) = _tokens(rng, "s-", 1)
    order = rng.permutation(len(samples))
    return BlindSurvey(
        survey,
        name,
        _tokens(rng, "k-", len(samples)),
        samples.iloc[order].reset_index(drop=True),
    )


def image_uri(path: str) -> str | None:
    """The image as a JPEG data URI, its longest side at most :data:`IMAGE_SIDE` px.

    Why JPEG: every browser a rater may have shows it; None if the file is unreadable.
    """
    if not path:
        return None
    try:
        with Image.open(path) as opened:
            opened.draft("RGB", (IMAGE_SIDE, IMAGE_SIDE))
            image = opened.convert("RGB")
    except (OSError, ValueError):
        return None
    image.thumbnail((IMAGE_SIDE, IMAGE_SIDE), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def form_payload(survey: BlindSurvey, scale: int) -> dict[str, object]:
    """What the form embeds: opaque ids and the texts a rater needs, nothing else."""
    return {
        "survey": survey.survey,
        "title": survey.name,
        "scale": scale,
        "items": [
            {
                "id": opaque,
                "question": str(row["question"]),
                "reference": str(row["reference"]),
                "answer": str(row["answer"]),
                "image": image_uri(str(row["image"] or "")),
            }
            for opaque, row in zip(survey.ids, survey.items.to_dict("records"), strict=True)
        ],
    }


def form_script() -> str:
    """The form's JavaScript (one file, inlined offline, served by the review app)."""
    return (files("privbench.report") / "templates" / "rating_form.js").read_text("utf-8")


def render_form(payload: dict[str, object], *, script_src: str | None = None) -> str:
    """The rating form as one HTML page; every dataset and model text is escaped.

    Offline (``script_src`` None) the script is inline and allowed by its hash only; served,
    it is loaded from ``script_src`` because the app's policy forbids inline scripts.
    """
    environment = Environment(
        loader=PackageLoader("privbench.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    script = form_script()
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return environment.get_template("rating_form.html.j2").render(
        payload=payload,
        data_id=DATA_ID,
        script=None if script_src else script,
        script_src=script_src,
        script_hash=f"sha256-{digest}",
    )


def payload_of_form(html: str) -> dict[str, object]:
    """The payload embedded in a form :func:`render_form` wrote (``|tojson`` escapes every
    ``<`` in it, so the first ``</script>`` after the opening tag ends it)."""
    start = html.index(_DATA_OPEN) + len(_DATA_OPEN)
    data = json.loads(html[start : html.index("</script>", start)])
    if not isinstance(data, dict):
        raise ValueError("the form's data is not an object")
    return data


def _sheet(survey: BlindSurvey, raters: int) -> pd.DataFrame:
    """The blind CSV: one blank row per rater and item, in the raters' order."""
    rows = [
        {
            "item_id": opaque,
            "rater": f"rater{k}",
            "score": math.nan,
            "survey": survey.name,
            "image": Path(str(row["image"] or "")).name,
            "question": row["question"],
            "reference": row["reference"],
            "answer": row["answer"],
        }
        for opaque, row in zip(survey.ids, survey.items.to_dict("records"), strict=True)
        for k in range(1, raters + 1)
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


@dataclass(frozen=True)
class SurveyFiles:
    """What ``survey export`` wrote: the raters' folder (form and sheet) and the key."""

    form: Path
    sheet: Path
    key: Path
    survey: str


def export_survey(
    logs: Sequence[str | Path],
    out_dir: Path,
    *,
    n: int = 10,
    seed: int = 0,
    raters: int = 3,
    survey: str = "Survey 1",
    scale: int = 1,
) -> SurveyFiles:
    """Write the raters' form and blind sheet into ``out_dir/for_raters`` and the key
    into ``out_dir``."""
    if scale not in (1, 10):
        raise UsageError(f"--scale: 1 or 10 (the human rating range), not {scale:g}")
    results = load_results(logs)
    if results.priviq.empty:
        raise UsageError("the logs hold no graded Priv-IQ samples")
    samples = draw_samples(results.priviq, n, seed)
    drawn = blind(samples, seed, survey)
    for_raters = out_dir / RATERS_FOLDER
    for_raters.mkdir(parents=True, exist_ok=True)
    form = for_raters / FORM_FILE
    form.write_text(render_form(form_payload(drawn, scale)), encoding="utf-8")
    sheet = for_raters / SHEET_FILE
    _sheet(drawn, raters).to_csv(sheet, index=False)
    key = SurveyKey(
        drawn.survey,
        survey,
        scale,
        seed,
        {
            opaque: KeyItem(
                str(row["run"]),
                str(row["item"]),
                round(float(row["score"]), 4),
                str(row["stratum"]),
            )
            for opaque, row in zip(drawn.ids, drawn.items.to_dict("records"), strict=True)
        },
        strata=strata_of(results.priviq, samples),
    )
    key_path = out_dir / KEY_FILE
    dump_json(key_document(key), key_path)
    return SurveyFiles(form, sheet, key_path, drawn.survey)
