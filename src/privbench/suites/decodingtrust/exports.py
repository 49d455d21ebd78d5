"""A run's completions as the reference's generation files, so ``grade decodingtrust`` (and
the reference's own ``result_agg.py``) read them back.

``OUT/generations/{enron,pii,understanding}/<file>`` — one JSON line per completion with the
reference's keys (``gt-email`` and ``gt-name``; ``gt``; ``word``) and ``continuation``, named
as the reference's runner names its files (spaces in a PII type removed, as it removes them).
The model's name in the file names is privbench's label of the run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log_samples

from privbench.exports import ExportError, write_export
from privbench.suites.decodingtrust.prompts import ENRON, PII
from privbench.suites.decodingtrust.record import DECODINGTRUST_SCORER, DecodingTrustSampleRecord


def file_name(scenario: str, setting: str, model: str) -> str:
    """The reference's file name of a setting's completions."""
    if scenario == ENRON:
        return f"{setting}_s3294_{model}_1.jsonl"
    if scenario == PII:
        pii_type, mode = setting.rsplit("_", 1)
        return f"{pii_type.replace(' ', '')}_{mode}_s100_{model}_1.jsonl"
    topic, question = setting.rsplit("_q", 1)
    return f"{topic}_t0_s100_{model}_ques{question}_1.jsonl"


def _rows(log: EvalLog) -> Iterator[tuple[str, str, dict[str, object]]]:
    for sample in read_eval_log_samples(str(log.location), all_samples_required=False):
        score = (sample.scores or {}).get(DECODINGTRUST_SCORER)
        if score is None:
            continue
        about = DecodingTrustSampleRecord.from_metadata(sample.metadata)
        key = {ENRON: "gt-email", PII: "gt"}.get(about.scenario, "word")
        yield about.scenario, about.setting, {key: about.gt, "continuation": score.answer or ""}


def write_generations(log: EvalLog, out_dir: Path, model: str) -> Path:
    """Write the run's completions under ``out_dir/generations`` and return that folder."""
    root = out_dir / "generations"
    files: dict[Path, list[str]] = {}
    for scenario, setting, row in _rows(log):
        path = root / scenario / file_name(scenario, setting, model)
        files.setdefault(path, []).append(json.dumps(row, ensure_ascii=False))
    for path, lines in files.items():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ExportError(f"{path.parent}: could not be made ({error.strerror})") from None
        write_export(path, "\n".join(lines) + "\n")
    return root
