"""Benchmark: report build time, HTML size and Chromium load time at the papers' scale.

Two scenarios (issues 6 and 12), each timed on its own:

* Priv-IQ: 7 models × 146 items (Table 1's combination counts), 1 judge run;
* SpatialTrust: 8 models × 577 images, five questions each.

The logs are real inspect logs: one small grading run per benchmark against the loopback
judge gives a template log, whose sample is cloned with new ids, competencies, scores and
boxes and written with ``inspect_ai.log.write_eval_log`` (grading 4,616 SpatialTrust
samples for real would take minutes and measure the judge, not the report). Every item has
its own image (146 of 920×300, 577 of 1440×960) with photo-like noise, so that the
embedded images weigh what real captures do (≈ 33 kB each as 720 px WebP), not what flat
test pictures do.

Targets: build under 60 s per report on the 2-core machine; HTML under 15 MB; loaded in
Debian's Chromium (headless, the flags the tests use) in under 5 s. The load time is from
navigation start to the page's own script having run (``document.body.dataset.ready``).

    .venv/bin/python bench/report.py [--bootstrap 1000] [--browse 200] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.scorer import Score
from PIL import Image, ImageDraw, ImageFilter

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from helpers import FOUR_ITEMS, spatial_record, write_json, write_priviq, write_spatial  # noqa: E402
from helpers.loopback_server import LoopbackServer  # noqa: E402

from privbench.report.browser import CHROMIUM_FLAGS, find_chromium  # noqa: E402
from privbench.report.html import ReportSettings, build_report  # noqa: E402
from privbench.runtime.judge_choice import ModelJudge  # noqa: E402
from privbench.runtime.running import RunOptions  # noqa: E402
from privbench.suites.priviq.api import grade_priviq  # noqa: E402
from privbench.suites.priviq.scoring import item_value  # noqa: E402
from privbench.suites.spatialtrust.api import grade_spatialtrust  # noqa: E402

TABLE_1 = {
    ("Law",): 29, ("Know",): 19, ("VizPriv", "CntxPriv"): 17, ("PET", "CntxPriv"): 14,
    ("VizPriv",): 12, ("PET",): 10, ("Know", "CntxPriv"): 8, ("NER", "CntxPriv"): 6,
    ("PrivRisk", "Know"): 6, ("NER", "CntxPriv", "MultLing"): 5, ("NER",): 3, ("PrivRisk",): 3,
    ("PET", "Know"): 3, ("PrivRisk", "CntxPriv"): 3, ("VizPriv", "MultLing"): 2,
    ("NER", "MultLing"): 2, ("Law", "CntxPriv"): 2, ("Law", "Know"): 2,
}  # fmt: skip
VERDICT = {"factors": [{"gt": 0, "identified": True, "explanation_correct": True, "matched_prediction": 0}], "unsupported": False, "states_none": False}  # fmt: skip


def _judge(body: dict[str, Any]) -> str:
    return json.dumps(VERDICT) if "You grade one answer" in json.dumps(body) else "0.7"


def template_logs(work: Path) -> tuple[EvalLog, EvalLog]:
    """One real Priv-IQ and one real SpatialTrust grading log to clone samples from."""
    with LoopbackServer(default_reply=_judge) as server:
        os.environ["BENCHREPORT_BASE_URL"] = server.base_url
        os.environ["BENCHREPORT_API_KEY"] = "bench"
        options = RunOptions(
            judge=ModelJudge("openai-api/benchreport/judge"),
            log_dir=str(work / "template"),
            display="none",
        )
        data = write_priviq(work / "priviq", FOUR_ITEMS)
        answers = write_json(work / "answers.json", {k: f"answer {k}" for k in FOUR_ITEMS})
        priviq = grade_priviq(data, answers, options=options).log_location
        spatial_dir = write_spatial(work / "spatial", [spatial_record("st-1")])
        record = {
            "id": "st-1",
            "q1": "A",
            "q2": {"choices": ["A"], "boxes": {"A": [[10, 10, 50, 50]]}},
            "q3": {"choices": ["B"], "boxes": {"B": [[100, 10, 150, 60]]}},
            "q4": {"text": "A person watches the screen.", "factors": [
                {"name": "background person", "why": "watches", "box": [10, 10, 50, 50]}]},
            "q5": {"text": "An open doorway.", "factors": []},
        }  # fmt: skip
        predictions = work / "preds.jsonl"
        predictions.write_text(json.dumps(record) + "\n")
        spatial = grade_spatialtrust(spatial_dir, predictions, options=options).log_location
    return read_eval_log(priviq), read_eval_log(spatial)


def photo(seed: int, size: tuple[int, int]) -> Image.Image:
    """A photo-like picture: smooth colour field, a few objects, sensor-like noise."""
    rng = np.random.default_rng(seed)
    width, height = size
    field = rng.uniform(0, 255, (12, 18, 3)).astype(np.uint8)
    image = Image.fromarray(field).resize(size, Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(image)
    for _ in range(10):
        x, y = int(rng.integers(0, width - 240)), int(rng.integers(0, height - 60))
        w, h = int(rng.integers(60, 300)), int(rng.integers(40, 300))
        draw.rectangle((x, y, x + w, y + h), fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    noisy = np.asarray(image).astype(np.int16) + rng.normal(0, 14, (height, width, 3)).astype(
        np.int16
    )
    return Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(0.5)
    )


def captures(work: Path, count: int, size: tuple[int, int], prefix: str) -> list[str]:
    """``count`` distinct photo-like images of ``size``."""
    paths = []
    for index in range(count):
        path = work / f"{prefix}-{index}.jpg"  # ~0.3 MB each; a noisy PNG would be 2.8 MB
        photo(index + (0 if prefix == "capture" else 10_000), size).save(path, quality=92)
        paths.append(str(path))
    return paths


def priviq_logs(template: EvalLog, work: Path, models: int, images: list[str]) -> Path:
    rng = random.Random(1)
    base = template.samples[0]  # type: ignore[index]
    combos = [combo for combo, count in TABLE_1.items() for _ in range(count)]
    out = work / "priviq-logs"
    for model in range(models):
        samples = []
        skill = rng.uniform(0.4, 0.85)
        for index, combo in enumerate(combos):
            value = min(1.0, max(0.0, round(rng.gauss(skill, 0.3), 1)))
            template_score = base.scores["priviq_judge"]  # type: ignore[index]
            score = template_score.model_copy(
                update={
                    "value": item_value([value]),
                    "metadata": {**(template_score.metadata or {}), "runs": [value]},
                }
            )
            metadata = {
                **base.metadata,
                "competencies": list(combo),
                "image": images[index % len(images)],
            }
            samples.append(
                base.model_copy(
                    update={
                        "id": f"v1_{index}",
                        "metadata": metadata,
                        "scores": {"priviq_judge": score},
                    }
                )
            )
        log = template.model_copy(deep=True)
        log.samples = samples
        log.eval.task_args = {**log.eval.task_args, "predictions": f"model-{model}.json"}
        write_eval_log(log, str(out / f"priviq-model-{model}.eval"))
    return out


def scaled(value: Any, sx: float, sy: float) -> Any:
    """Every ``[x1, y1, x2, y2]`` box inside ``value`` scaled by (sx, sy)."""
    if (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int | float) for v in value)
    ):
        return [value[0] * sx, value[1] * sy, value[2] * sx, value[3] * sy]
    if isinstance(value, list):
        return [scaled(v, sx, sy) for v in value]
    if isinstance(value, dict):
        return {k: scaled(v, sx, sy) for k, v in value.items()}
    return value


def spatial_logs(template: EvalLog, work: Path, models: int, images: list[str]) -> Path:
    rng = random.Random(2)
    base = template.samples[0]  # type: ignore[index]
    truth = scaled(base.metadata.get("ground_truth", {}), 1440 / 200, 960 / 100)
    out = work / "spatial-logs"
    for model in range(models):
        samples = []
        for index in range(577):
            values = {q: float(rng.random() < 0.5) for q in ("q1", "q2", "q3", "q4", "q5")}
            score = base.scores["spatialtrust_scorer"]  # type: ignore[index]
            metadata = dict(score.metadata or {})
            metadata["prediction"] = {
                "q1": "A",
                "q2": {"choices": ["A"], "boxes": {"A": [[rng.uniform(0, 600), 100, 900, 700]]}},
                "q3": {"choices": ["B", "C"], "boxes": {"B": [[100, 100, 400, 400]]}},
                "q4": {"text": "A person watches the screen.", "factors": [{"name": "person", "why": "looks", "box": [10, 10, 300, 300]}]},
                "q5": {"text": "An open door.", "factors": []},
            }  # fmt: skip
            new_score = Score(value=values, answer=score.answer, metadata=metadata)
            sample_metadata = {
                **base.metadata,
                "ground_truth": truth,
                "image": images[index % len(images)],
                "width": 1440,
                "height": 960,
            }
            samples.append(
                base.model_copy(
                    update={
                        "id": f"st-{index:04d}",
                        "metadata": sample_metadata,
                        "scores": {"spatialtrust_scorer": new_score},
                    }
                )
            )
        log = template.model_copy(deep=True)
        log.samples = samples
        log.eval.task_args = {**log.eval.task_args, "predictions": f"model-{model}.jsonl"}
        write_eval_log(log, str(out / f"spatial-model-{model}.eval"))
    return out


def chromium_load_seconds(report: Path) -> float | None:
    """Seconds from navigation start until the report's script ran, in Debian's Chromium."""
    chromium = find_chromium()
    if chromium is None:
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=CHROMIUM_FLAGS, headless=True
        )
        page = context.new_page()
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.goto(report.as_uri(), wait_until="load", timeout=120_000)
        page.wait_for_function("document.body.dataset.ready === '1'")
        seconds = page.evaluate(
            "(performance.getEntriesByType('navigation')[0].loadEventEnd) / 1000"
        )
        context.close()
    return float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--browse", type=int, default=200)
    parser.add_argument(
        "--keep", type=Path, help="Keep logs and reports here (reused by a later run)."
    )
    args = parser.parse_args()
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        settings = ReportSettings(n_boot=args.bootstrap, browse=args.browse)
        reuse = len(list(work.glob("*-logs/*.eval"))) == 7 + 8  # --keep of an earlier run
        if reuse:
            scenarios = {
                "Priv-IQ, 7 models × 146 items": work / "priviq-logs",
                "SpatialTrust, 8 models × 577 images": work / "spatial-logs",
            }
        else:
            priviq_template, spatial_template = template_logs(work)
            documents = captures(work, 146, (920, 300), "document")
            scenes = captures(work, 577, (1440, 960), "capture")
            scenarios = {
                "Priv-IQ, 7 models × 146 items": priviq_logs(priviq_template, work, 7, documents),
                "SpatialTrust, 8 models × 577 images": spatial_logs(
                    spatial_template, work, 8, scenes
                ),
            }
        for name, logs in scenarios.items():
            start = time.perf_counter()
            report = build_report([logs], work / f"{logs.name}.html", settings)
            seconds = time.perf_counter() - start
            size = report.stat().st_size / 1e6
            load = chromium_load_seconds(report)
            shown = "n/a (no chromium)" if load is None else f"{load:.2f} s (target < 5 s)"
            print(f"{name:38s} build {seconds:6.1f} s (target < 60 s; {args.bootstrap} resamples, "
                  f"{args.browse} browsed); HTML {size:.1f} MB (target < 15 MB); "
                  f"Chromium load {shown}")  # fmt: skip


if __name__ == "__main__":
    main()
