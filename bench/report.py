"""Benchmark: report build time at the papers' scale, with 1,000 bootstrap resamples.

Two scenarios (issue 6), each timed on its own:

* Priv-IQ: 7 models × 146 items (Table 1's combination counts), 1 epoch;
* SpatialTrust: 8 models × 577 images, five questions each.

The logs are real inspect logs: one small grading run per benchmark against the loopback
judge gives a template log, whose sample is cloned with new ids, competencies, scores and
boxes and written with ``inspect_ai.log.write_eval_log`` (grading 4,616 SpatialTrust
samples for real would take minutes and measure the judge, not the report). Images: 64
distinct 1440×960 captures, cycled, for both benchmarks. Target: under 60 s per report on the 2-core machine.

    .venv/bin/python bench/report.py [--bootstrap 1000] [--browse 200]
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

from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.scorer import Score
from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from conftest import FOUR_ITEMS, spatial_record, write_json, write_priviq, write_spatial  # noqa: E402
from loopback_server import LoopbackServer  # noqa: E402

from privbench.priviq.api import grade_priviq  # noqa: E402
from privbench.report.html import ReportSettings, build_report  # noqa: E402
from privbench.running import RunOptions  # noqa: E402
from privbench.spatialtrust.api import grade_spatialtrust  # noqa: E402

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
            judge="openai-api/benchreport/judge", log_dir=str(work / "template"), display="none"
        )
        data = write_priviq(work / "priviq", FOUR_ITEMS)
        answers = write_json(work / "answers.json", {k: f"answer {k}" for k in FOUR_ITEMS})
        priviq = grade_priviq(data, answers, options=options).log_location
        spatial_dir = write_spatial(work / "spatial", [spatial_record("st-1")])
        record = {
            "id": "st-1",
            "q1": "A",
            "q2": {"choices": ["A"], "boxes": {"A": [[10, 10, 50, 50]]}},
        }
        predictions = work / "preds.jsonl"
        predictions.write_text(json.dumps(record) + "\n")
        spatial = grade_spatialtrust(spatial_dir, predictions, options=options).log_location
    return read_eval_log(priviq), read_eval_log(spatial)


def captures(work: Path, count: int) -> list[str]:
    rng = random.Random(0)
    paths = []
    for index in range(count):
        image = Image.new("RGB", (1440, 960), (rng.randrange(150, 230),) * 3)
        draw = ImageDraw.Draw(image)
        for _ in range(6):
            x, y = rng.randrange(0, 1200), rng.randrange(0, 700)
            draw.rectangle(
                (x, y, x + 200, y + 240), fill=tuple(rng.randrange(0, 255) for _ in range(3))
            )
        path = work / f"capture-{index}.png"
        image.save(path)
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
            score = base.scores["priviq_judge"].model_copy(update={"value": value})  # type: ignore[index]
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


def spatial_logs(template: EvalLog, work: Path, models: int, images: list[str]) -> Path:
    rng = random.Random(2)
    base = template.samples[0]  # type: ignore[index]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--browse", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("INSPECT_DISPLAY", "none")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        priviq_template, spatial_template = template_logs(work)
        images = captures(work, 64)
        settings = ReportSettings(n_boot=args.bootstrap, browse=args.browse)
        scenarios = {
            "Priv-IQ, 7 models × 146 items": priviq_logs(priviq_template, work, 7, images),
            "SpatialTrust, 8 models × 577 images": spatial_logs(spatial_template, work, 8, images),
        }
        for name, logs in scenarios.items():
            start = time.perf_counter()
            report = build_report([logs], work / f"{logs.name}.html", settings)
            seconds = time.perf_counter() - start
            size = report.stat().st_size / 1e6
            print(f"{name:38s} {seconds:6.1f} s  (target < 60 s; {args.bootstrap} resamples, "
                  f"{args.browse} browsed, report {size:.1f} MB)")  # fmt: skip


if __name__ == "__main__":
    main()
