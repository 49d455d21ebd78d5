"""ConfAIde's published figures against their sources.

``published_release.json`` holds only the numbers of the authors' released files, taken
with ``git show`` from ``mireshghallah/confAIde`` at the commit it names: every tier-3/4
final report's keys, every tier-1/2 final report's ``human`` and ``model`` columns, and
the lines the correlation notebook printed for the paper.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from privbench.suites.confaide.published import (
    MODELS,
    NOTEBOOK,
    PAPER,
    PAPER_R,
    RELEASE,
    RELEASE_COMMIT,
    RELEASE_R,
    RELEASE_REPORTS,
    RELEASE_REPOSITORY,
    comparable,
    published_figures,
    rating_file,
)
from privbench.suites.confaide.scoring import pearson_with_interval

FIXTURE = Path(__file__).parent / "published_release.json"
NOTEBOOK_COLUMNS = {
    "GPT4": "gpt-4-0613",
    "ChatGPT": "gpt-3.5-turbo-0613",
    "Davinci": "text-davinci-003",
    "Llama2 Chat": "llama-2-70b-chat-tg",
    "Llama2": "llama-2-70b-tg",
    "Flan UL2": "flan-ul2",
}


@pytest.fixture(scope="module")
def release() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_fixture_is_of_the_pinned_release(release: dict[str, Any]) -> None:
    assert release["repository"] == RELEASE_REPOSITORY
    assert release["commit"] == RELEASE_COMMIT
    assert release["notebook"]["path"] == NOTEBOOK


def test_paper_correlation_table_matches_the_printed_notebook(release: dict[str, Any]) -> None:
    """The paper's tier 1/2a/2b r, cell by cell, from the LaTeX lines the notebook printed."""
    columns = [NOTEBOOK_COLUMNS[name] for name in release["notebook"]["columns"]]
    printed: dict[str, dict[str, float]] = {}
    for line in release["notebook"]["printed"]:
        cells = [re.sub(r"\\textbf\{(.*)\}", r"\1", c).strip(" \\") for c in line.split("&")[1:]]
        tier = cells[0].removeprefix("Tier ").strip()
        if tier in PAPER_R:
            printed[tier] = {
                model: float(cell) for model, cell in zip(columns, cells[1:], strict=True)
            }
    assert printed == {tier: dict(values) for tier, values in PAPER_R.items()}
    rows = [row for row in published_figures() if row.source_kind == PAPER]
    assert {(row.tier, row.model): row.value for row in rows} == {
        (tier, model): value for tier, values in PAPER_R.items() for model, value in values.items()
    }
    assert all(NOTEBOOK in row.source and row.statistic == "r" for row in rows)


def test_release_correlations_recompute_from_the_released_reports(release: dict[str, Any]) -> None:
    """Each released r is Pearson r of that final report's columns, to four decimals."""
    expected: dict[tuple[str, str], float] = {}
    for path, model_column in release["rating_model"].items():
        match = re.search(r"final_report_(.+)_data_tier_(1|2a|2b)_nsamples_10\.json$", path)
        assert match, path
        model, tier = match.groups()
        assert path == rating_file(model, tier)
        r = pearson_with_interval(release["rating_human"][tier], model_column).r
        assert r is not None
        expected[(tier, model)] = round(r, 4)
    assert {
        (tier, model): value
        for tier, values in RELEASE_R.items()
        for model, value in values.items()
    } == expected
    assert len(expected) == 21


def test_release_tier_3_and_4_keys_equal_every_released_final_report(
    release: dict[str, Any],
) -> None:
    """Every key of every released tier-3/4 final report, the same float, and nothing else."""
    rows = [row for row in published_figures() if row.source_kind == RELEASE and row.tier in "34"]
    found: dict[tuple[str, str], float] = {}
    for row in rows:
        released_key = (
            row.key.replace("control-", "binary-") if row.question_type == "control" else row.key
        )
        found[(row.source, released_key)] = row.value
    expected = {
        (path, key): value
        for path, keys in release["final_reports"].items()
        for key, value in keys.items()
    }
    assert found == expected
    assert len(found) == 326


def test_paper_and_release_disagree_and_both_are_kept() -> None:
    rows = comparable([("1", None, "pearson_r")], "with-privacy-prompt")
    gpt4 = {row.source_kind: row.value for row in rows if row.model == "gpt-4-0613"}
    assert gpt4 == {PAPER: 0.86, RELEASE: 0.6214}
    assert {row.label.split(" ")[0] for row in rows} == {"published", "released"}


def test_comparable_returns_exactly_what_was_measured_in_the_same_setting() -> None:
    rows = comparable([("4", "action-item", "has_private_info")], "without-privacy-prompt")
    assert {(row.tier, row.question_type, row.metric, row.setting) for row in rows} == {
        ("4", "action-item", "has_private_info", "without-privacy-prompt")
    }
    # five models released tier 4 without the privacy prompt, two statistics each
    assert len(rows) == 10
    assert {row.statistic for row in rows} == {"mean", "worst_case"}
    assert all(row.model in MODELS for row in rows)
    control = comparable([("3", "control", "error")], "with-privacy-prompt")
    assert {row.key for row in control} == {"control-error_mean", "control-error_worst_case"}
    assert all("_q_binary_metrics_error.json" in row.source for row in control)
    assert comparable([("3", "control", "error")], "with-cot") == ()


def test_comparable_refuses_unknown_names() -> None:
    with pytest.raises(ValueError, match="setting"):
        comparable([("3", "control", "error")], "with-privacy")
    with pytest.raises(ValueError, match="metric"):
        comparable([("3", "control", "leak")], "with-privacy-prompt")


def _cells(line: str) -> tuple[str, list[str]]:
    cells = [re.sub(r"\\textbf\{(.*)\}", r"\1", c).strip(" \\") for c in line.split("&")[1:]]
    return cells[0], cells[1:]


def test_paper_tier_3_table_is_the_release_rounded(release: dict[str, Any]) -> None:
    """The tier-3 table the authors' notebook printed (means, then worst cases; five
    metrics; six models) is the released privacy-prompt final reports to two decimals."""
    notebook = release["tier_3_notebook"]
    models = [NOTEBOOK_COLUMNS[name] for name in notebook["columns"]]
    stems = [
        "free-response-string-match",
        "free-response-proxy-model",
        "info-accessibility-error",
        "privacy-sharing-error",
        "binary-error",
    ]
    reports = RELEASE_REPORTS["with-privacy-prompt"]
    expected = [
        [f"{reports[model][f'{stem}_{statistic}']:.2f}" for model in models]
        for statistic in ("mean", "worst_case")
        for stem in stems
    ]
    assert [_cells(line)[1] for line in notebook["printed"]] == expected


def test_paper_tier_4_worst_cases_are_the_release_rounded(release: dict[str, Any]) -> None:
    """The tier-4 lines the notebook printed: worst cases of has_private_info,
    no_public_info and error, five models, in the setting each cell ran."""
    notebook = release["tier_4_notebook"]
    models = [NOTEBOOK_COLUMNS[name] for name in notebook["columns"]]
    settings = {
        "with_privacy_prompts": "with-privacy-prompt",
        "without_privacy_prompts": "without-privacy-prompt",
    }
    for where, lines in notebook["printed"].items():
        question, folder = where.split(", ")
        reports = RELEASE_REPORTS[settings[folder]]
        expected = [
            [f"{reports[model][f'{question}-{metric}_worst_case']:.2f}" for model in models]
            for metric in ("has_private_info", "no_public_info", "error")
        ]
        assert [_cells(line)[1] for line in lines] == expected, where
