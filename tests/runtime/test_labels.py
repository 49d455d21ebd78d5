"""A run's display name: ``--label``, the graded model's name, and what every reader shows.

The label is recorded in the log's task record, so the tables, ``--json``, the export file
names, ``show`` and the report all name the run the same way. A grade run is named after
the model that made its answers: ``--model-name``, else the ``model`` the results file
holds, else the model its file or folder name gives — never a bare "results".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import (
    FOUR_ITEMS,
    JUDGE,
    MODEL,
    PERFECT,
    one_line_error,
    privbench,
    run_options,
    spatial_record,
    write_json,
    write_predictions,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer

from privbench.dataset_identity import dataset_hash
from privbench.report.html import ReportSettings, build_report
from privbench.runtime.records.identity import RunIdentity
from privbench.runtime.records.task import TaskRecord
from privbench.runtime.run_names import NO_NAME, answers_name
from privbench.suites.priviq.api import eval_priviq, grade_priviq, read_priviq_log
from privbench.suites.priviq.predictions import load_predictions
from privbench.suites.spatialtrust.api import (
    eval_spatialtrust,
    grade_spatialtrust,
    read_spatialtrust_log,
)

LABEL = "baseline <A>"
"""With markup, to see that the report escapes it; ``baseline_A`` in file names."""


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("results/llava_llama2_13b_chat.json", "llava_llama2_13b_chat"),  # the reference's
        ("out/openai-api_local_m-results.json", "openai-api_local_m"),  # privbench's eval --out
        ("gpt-4o_results.json", "gpt-4o"),
        ("runs/Qwen2-VL.Predictions.jsonl", "Qwen2-VL"),
        ("runs/llava-13b/results.json", "llava-13b"),  # the folder, when the file says nothing
        ("results/results.json", NO_NAME),
        ("/tmp/preds.jsonl", NO_NAME),
        ("results.json", NO_NAME),
    ],
)
def test_the_name_a_predictions_path_gives(path: str, name: str) -> None:
    assert answers_name(path) == name


def test_a_label_inspect_passed_as_a_number_is_a_name() -> None:
    record = TaskRecord.model_validate({"label": 2024, "graded_model": 7, "judge": "j"})
    assert (record.label, record.graded_model, record.judge) == ("2024", "7", "j")


def test_a_results_file_may_name_its_model(tmp_path: Path) -> None:
    named = write_json(tmp_path / "r.json", {"model": "llava-13b", "a": "x", "zz": "y"})
    answers = load_predictions(named, ["a"])
    assert answers.model == "llava-13b" and answers.extra_ids == ["zz"]  # "model" is no id
    item_named_model = load_predictions(named, ["a", "model"])
    assert item_named_model.model == "" and item_named_model["model"] == "llava-13b"
    blank = load_predictions(write_json(tmp_path / "b.json", {"model": " ", "a": "x"}), ["a"])
    assert blank.model == "" and blank.extra_ids == ["model"]  # names nothing: reported


def test_eval_label_everywhere(server: LoopbackServer, priviq_dir: Path, tmp_path: Path) -> None:
    run = eval_priviq(priviq_dir, MODEL, out_dir=tmp_path / "out", options=run_options(tmp_path),
                      label=LABEL)  # fmt: skip
    document = run.json()
    assert document["label"] == LABEL and document["model"] == MODEL
    title = run.terminal()[0]
    assert LABEL in str(getattr(title, "title", ""))  # the table is titled with the label
    for kind in ("grades", "cap_score", "cap_int_score"):
        assert Path(run.exports[kind]).name.startswith("baseline_A_openai-api_loopjudge_judge-")
    assert Path(run.exports["answers"]).name == "baseline_A-results.json"

    identity = RunIdentity.from_log(run.log)
    assert identity.run_label == LABEL and identity.label() == LABEL
    shown = read_priviq_log(run.log_location)  # the log keeps it
    assert shown.model == LABEL and shown.json()["label"] == LABEL
    assert shown.json()["model"] == MODEL
    assert read_priviq_log(run.log_location, model="other").json()["label"] == "other"

    html = build_report(
        [Path(run.log_location)], tmp_path / "r.html", ReportSettings(n_boot=100)
    ).read_text(encoding="utf-8")
    assert "baseline &lt;A&gt;" in html and LABEL not in html


def test_without_a_label_an_eval_is_named_after_its_model(
    server: LoopbackServer, priviq_dir: Path, tmp_path: Path
) -> None:
    run = eval_priviq(priviq_dir, MODEL, out_dir=tmp_path / "out", options=run_options(tmp_path))
    assert run.json()["label"] == MODEL and run.model == MODEL
    assert Path(run.exports["grades"]).name.startswith("openai-api_loopmodel_vlm_openai-api")


def test_grade_is_named_after_the_model_the_file_holds(
    server: LoopbackServer, priviq_dir: Path, tmp_path: Path
) -> None:
    results = write_json(
        tmp_path / "results.json",
        {"model": "llava-13b", **{k: f"answer-{k}" for k in FOUR_ITEMS}},
    )
    run = grade_priviq(priviq_dir, results, options=run_options(tmp_path))
    document = run.json()
    assert document["model"] == document["label"] == "llava-13b"
    assert document["extra_ids"] == {}  # the name is no unknown item
    data = f"data-{dataset_hash(priviq_dir)[:8]}"
    assert (
        Path(run.exports["grades"]).name
        == f"llava-13b_openai-api_loopjudge_judge-{data}-grade-1runs.json"
    )
    assert read_priviq_log(run.log_location).json()["model"] == "llava-13b"

    named = write_json(tmp_path / "gpt-4o_results.json", {k: "x" for k in FOUR_ITEMS})
    assert grade_priviq(priviq_dir, named, options=run_options(tmp_path)).model == "gpt-4o"


def test_model_name_and_label_of_a_grade_run(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    """--model-name names the graded model, --label the run; the files take the label."""
    run = grade_priviq(priviq_dir, predictions, model_name="qwen-vl", label="qwen, prompt B",
                       out_dir=tmp_path / "out", options=run_options(tmp_path))  # fmt: skip
    document = run.json()
    assert document["model"] == "qwen-vl" and document["label"] == "qwen, prompt B"
    assert Path(run.exports["grades"]).name.startswith("qwen_prompt_B_openai-api")
    shown = read_priviq_log(run.log_location).json()
    assert (shown["model"], shown["label"]) == ("qwen-vl", "qwen, prompt B")
    only_name = grade_priviq(priviq_dir, predictions, model_name="qwen-vl",
                             options=run_options(tmp_path))  # fmt: skip
    assert only_name.json()["label"] == "qwen-vl"


def test_spatialtrust_label_and_graded_model(server: LoopbackServer, tmp_path: Path) -> None:
    data = write_spatial(tmp_path / "st", [spatial_record("st-1")])
    predictions = write_predictions(tmp_path / "model-x_preds.jsonl", [{"id": "st-1", **PERFECT}])
    offline = run_options(tmp_path, judge="offline")
    graded = grade_spatialtrust(data, predictions, options=offline, out_dir=tmp_path / "out")
    assert graded.json()["model"] == graded.model == "model-x"
    short = f"data-{dataset_hash(data)[:8]}"
    assert Path(graded.exports["scores"]).name.startswith(f"model-x_offline-{short}-spatialtrust")

    run = eval_spatialtrust(data, MODEL, options=offline, out_dir=tmp_path / "out", label=LABEL)
    assert run.json()["label"] == LABEL and run.json()["model"] == MODEL
    summary = Path(run.exports["summary"]).name
    assert summary.startswith(f"baseline_A_offline-{short}-spatialtrust-direct")
    assert json.loads(Path(run.exports["summary"]).read_text(encoding="utf-8"))["label"] == LABEL
    assert read_spatialtrust_log(run.log_location).json()["label"] == LABEL

    guard = eval_spatialtrust(data, MODEL, options=offline, strategy="guard", label="mine")
    html = build_report(
        [Path(run.log_location), Path(guard.log_location)],
        tmp_path / "r.html",
        ReportSettings(n_boot=100),
    ).read_text(encoding="utf-8")
    assert "baseline &lt;A&gt;" in html and "mine" in html
    # the report mixes strategies, so every run says its own, a chosen label too
    assert "mine [guard]" in html


def test_cli_label(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    base: list[str | Path] = ["grade", "priviq", "--data", priviq_dir, "--predictions", predictions,
            "--judge", JUDGE, "--log-dir", tmp_path / "logs", "--out", tmp_path / "out"]  # fmt: skip
    result = privbench(*base, "--label", "run one")
    assert result.returncode == 0, result.stderr
    assert "Priv-IQ scores — run one" in result.stdout
    (log,) = (tmp_path / "logs").glob("*.eval")
    shown = privbench("show", log)
    assert "Priv-IQ scores — run one" in shown.stdout
    assert json.loads(privbench("show", log, "--json").stdout)["label"] == "run one"

    blank = privbench(*base, "--label", " ")
    assert blank.returncode == 2 and "--label: give a name" in one_line_error(blank)
    resumed = privbench("grade", "priviq", "--resume", log, "--label", "x")
    assert resumed.returncode == 2
    assert "keeps the label it was started with" in one_line_error(resumed)
