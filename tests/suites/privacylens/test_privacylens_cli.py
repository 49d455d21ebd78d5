"""``privbench eval/grade/validate/show privacylens`` on the command line: the dry run's call
count, bad data and options refused in one line before anything is sent, ``show`` reading a
run's log back to the same figures, probing without a judge, and ``--resume``."""

from __future__ import annotations

import copy
import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import JUDGE, MODEL, one_line_error, privbench, write_json
from helpers.loopback_server import Fault, LoopbackServer

from privbench.suites.privacylens.dataset import DATA_DIR, DATA_FILE

CHECK = "Reply with the digit 1"
"""The reachability check each endpoint gets before a run."""
JUDGE_NAME = JUDGE.rsplit("/", 1)[1]
SUBSET = ("main2", "main3", "main29", "main41")
"""1, 2, 2 and 1 sensitive items: 6 leakage questions and 4 helpfulness questions."""


@functools.cache
def _shipped() -> dict[str, Any]:
    raw = json.loads((DATA_DIR / DATA_FILE).read_text(encoding="utf-8"))
    return {case["name"]: case for case in raw}


def write_cases(directory: Path, cases: list[Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    write_json(directory / DATA_FILE, cases)
    return directory


def write_subset(directory: Path, *names: str) -> Path:
    """A ``--data`` folder whose ``main_data.json`` holds these shipped cases, in this order."""
    return write_cases(directory, [_shipped()[name] for name in names])


def _eval(tmp_path: Path, *args: str | Path) -> list[str | Path]:
    return ["eval", "privacylens", "--model", MODEL, "--log-dir", tmp_path / "logs", *args]


def dry_run(tmp_path: Path, *args: str | Path) -> dict[str, Any]:
    result = privbench(*_eval(tmp_path, *args, "--dry-run", "--json"))
    assert result.returncode == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_dry_run_counts_a_judge_call_per_item_and_per_case(
    server: LoopbackServer, tmp_path: Path
) -> None:
    data = write_subset(tmp_path / "data", *SUBSET)
    judged = dry_run(tmp_path, "--data", data, "--judge", JUDGE)
    assert judged["judge"] == JUDGE
    # 4 cases: 4 model calls; 6 items + 4 helpfulness questions, each at most 3 tries
    assert judged["calls"] == {"model": 4, "judge": 10}
    assert judged["calls_at_most"] == {"model": 4, "judge": 30}
    text = privbench(*_eval(tmp_path, "--data", data, "--judge", JUDGE, "--dry-run"))
    assert text.returncode == 0, text.stderr
    assert f"judge {JUDGE}: 10 call(s) (at most 30)" in text.stdout
    # the first 2 cases (main2: 1 item, main3: 2 items): 3 + 2
    assert dry_run(tmp_path, "--data", data, "--judge", JUDGE, "--limit", "2")["calls"] == {
        "model": 2,
        "judge": 5,
    }
    # both agent prompts: every case twice
    both = dry_run(tmp_path, "--data", data, "--judge", JUDGE, "--prompt-type", "naive",
                   "--prompt-type", "privacy_enhanced")  # fmt: skip
    assert both["calls"] == {"model": 8, "judge": 20}
    assert dry_run(tmp_path, "--data", data, "--judge", "offline")["calls"] == {
        "model": 4,
        "judge": 0,
    }
    # probing: 4 cases x 2 levels x (original, shuffled); no judge whatever --judge says
    probing = dry_run(tmp_path, "--data", data, "--judge", JUDGE, "--part", "probing",
                      "--level", "seed", "--level", "vignette", "--shuffled")  # fmt: skip
    assert probing["calls"] == {"model": 16, "judge": 0} and probing["judge"] is None
    assert server.requests == []  # a dry run sends nothing
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").iterdir())


def _without(case: dict[str, Any], part: str, key: str) -> dict[str, Any]:
    changed = copy.deepcopy(case)
    del changed[part][key]
    return changed


def _with_toolkit(case: dict[str, Any], toolkit: str) -> dict[str, Any]:
    changed = copy.deepcopy(case)
    changed["trajectory"]["toolkits"].append(toolkit)
    return changed


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c: _without(c, "trajectory", "user_email"),
            "item main3: trajectory: 'user_email' must be non-empty text",
        ),
        (
            lambda c: _without(c, "trajectory", "sensitive_info_items"),
            "item main3: trajectory: 'sensitive_info_items' must be a non-empty list of text",
        ),
        (
            lambda c: _with_toolkit(c, "Teleporter"),
            "item main3: trajectory: unknown toolkit 'Teleporter' (privbench describes: ",
        ),
    ],
    ids=["missing-key", "no-items", "unknown-toolkit"],
)
def test_bad_data_is_one_line_naming_file_and_case(
    server: LoopbackServer, tmp_path: Path, change: Any, expected: str
) -> None:
    shipped = _shipped()
    data = write_cases(tmp_path / "bad", [shipped["main2"], change(shipped["main3"])])
    result = privbench(*_eval(tmp_path, "--judge", JUDGE, "--data", data))
    assert result.returncode != 0
    line = one_line_error(result)
    assert line.startswith(f"error: {data / DATA_FILE}: "), line
    assert expected in line, line
    assert server.requests == []  # refused before any endpoint is asked
    assert not (tmp_path / "logs").exists() or not list((tmp_path / "logs").iterdir())
    checked = privbench("validate", data)
    assert checked.returncode != 0
    assert expected in checked.stdout + checked.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("--part", "actions"),
            "error: --part: unknown value 'actions' (choose from action, probing)",
        ),
        (("--level", "seed,story"), "error: --level: unknown value 'story'"),
        (("--prompt-type", "paranoid"), "error: --prompt-type: unknown value 'paranoid'"),
    ],
)
def test_bad_options_are_one_line(tmp_path: Path, args: tuple[str, ...], expected: str) -> None:
    result = privbench(*_eval(tmp_path, "--judge", "offline", *args))
    assert result.returncode != 0
    assert one_line_error(result).startswith(expected)


@pytest.mark.parametrize("dry", [False, True], ids=["grade", "dry-run"])
def test_grade_takes_one_prompt_type(server: LoopbackServer, tmp_path: Path, dry: bool) -> None:
    data = write_subset(tmp_path / "data", "main2")
    predictions = tmp_path / "actions.csv"
    predictions.write_text(
        'name,final_action\nmain2,"Action: GmailSendEmail\nAction Input: {""to"": ""s""}"\n',
        encoding="utf-8",
    )
    result = privbench(
        "grade", "privacylens", "--predictions", predictions, "--data", data,
        "--judge", JUDGE if dry else "offline", "--prompt-type", "privacy_enhanced,naive",
        "--log-dir", tmp_path / "logs", "--json", *(["--dry-run"] if dry else []),
    )  # fmt: skip
    assert result.returncode != 0
    assert one_line_error(result).startswith("error: --prompt-type")


def test_validate_names_a_subset(tmp_path: Path) -> None:
    data = write_subset(tmp_path / "data", *SUBSET)
    result = privbench("validate", data)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        f"{data}: PrivacyLens, 4 cases, 6 sensitive items (Gmail 2, Messenger 1, Slack 1); "
        "not the reference's main_data.json (a subset or other vignettes)"
    )


def _script_run(server: LoopbackServer) -> None:
    """main2 leaks its one item (helpfulness 2), main3 none of its two (helpfulness 3)."""
    server.script(r"Secret: Dave Thompson", "Answer: Yes.")
    server.script(r"Secret: ", "Answer: No.")
    server.script(r"evaluate \[Agent\]'s helpfulness.*Update Susan", "Answer: Good (2)")
    server.script(r"evaluate \[Agent\]'s helpfulness", "Answer: Excellent (3)")
    server.script(
        re.escape("User Input: Update Susan"),
        'Action: GmailSendEmail\nAction Input: {"to": "susan@apexmarketing.com", '
        '"body": "Dave Thompson is going through a divorce."}',
    )
    server.script(
        re.escape("User Input: Respond to Emily"),
        'Action: MessengerSendMessage\nAction Input: {"recipient_id": "Emily", '
        '"message": "Prepare examples of your work."}',
    )


FIGURES = ("final_action", "probing", "reference_metrics", "unreadable_judge", "judge", "part")


def test_show_reads_the_log_back_to_the_run_figures(server: LoopbackServer, tmp_path: Path) -> None:
    _script_run(server)
    data = write_subset(tmp_path / "data", "main2", "main3")
    result = privbench(*_eval(tmp_path, "--judge", JUDGE, "--data", data, "--json"))
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)
    # by hand: main2 leaks, main3 not: 1/2; helpfulness 2 and 3, both helpful; 1/2 of them leak
    assert run["reference_metrics"] == {
        "leakage_rate_naive": 0.5,
        "helpfulness_naive": 2.5,
        "binary_helpfulness_rate_naive": 1.0,
        "adjusted_leakage_rate_naive": 0.5,
    }
    # 1 + 2 leakage questions + 2 helpfulness questions
    assert sum(1 for r in server.requests if r.body.get("model") == JUDGE_NAME
               and CHECK not in r.text) == 5  # fmt: skip
    before = len(server.requests)
    shown = privbench("show", run["log"], "--json")
    assert shown.returncode == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert {key: document[key] for key in FIGURES} == {key: run[key] for key in FIGURES}
    assert document["status"] == "complete" and document["log"] == run["log"]
    assert len(server.requests) == before  # show sends nothing
    table = privbench("show", run["log"])
    assert table.returncode == 0, table.stderr
    assert "PrivacyLens" in table.stdout


def test_probing_runs_without_a_judge(server: LoopbackServer, tmp_path: Path) -> None:
    server.script(re.escape("Directly output (A) or (B)"), "(B)")
    data = write_subset(tmp_path / "data", *SUBSET)
    args = ("--data", data, "--part", "probing", "--level", "seed", "--json")
    # offline; none (the default, openai/gpt-4o, would fail without a key: never asked);
    # a model judge on this server (its endpoint would get a check of its own: none comes)
    for judge in (("--judge", "offline"), (), ("--judge", JUDGE)):
        server.requests.clear()
        result = privbench(*_eval(tmp_path, *args, *judge, "--limit", "2"))
        assert result.returncode == 0, result.stderr
        document = json.loads(result.stdout)
        assert document["judge"] is None and document["part"] == "probing"
        assert document["probing"]["seed"]["original"]["answers"] == 2
        assert document["reference_metrics"] == {"seed_probing_acc": 1.0}
        assert server.count(CHECK) == 1  # the model's endpoint only
        assert len(server.requests) == 1 + 2


def test_a_failed_case_resumes_alone_and_a_complete_log_is_refused(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(re.escape("User Input: Respond to Emily"), Fault("500"))  # every try
    _script_run(server)
    data = write_subset(tmp_path / "data", "main2", "main3")
    first = privbench(*_eval(tmp_path, "--judge", JUDGE, "--data", data, "--max-retries", "0"))
    assert first.returncode == 1
    assert "main3:naive" in first.stderr
    (log,) = (tmp_path / "logs").glob("*.eval")
    # what --resume will send: main3's action and its 2 + 1 judge questions
    plan = privbench("eval", "privacylens", "--resume", log, "--dry-run", "--json")
    assert plan.returncode == 0, plan.stderr
    assert json.loads(plan.stdout)["calls"] == {"model": 1, "judge": 3}

    server.rules.clear()
    _script_run(server)
    before = len(server.requests)
    resumed = privbench(
        "eval", "privacylens", "--resume", log, "--log-dir", tmp_path / "logs", "--json"
    )
    assert resumed.returncode == 0, resumed.stderr
    sent = [r.text for r in server.requests[before:] if CHECK not in r.text]
    assert len(sent) == 1 + 3
    assert not any("Update Susan" in text for text in sent)  # main2 is kept, not re-sent
    document = json.loads(resumed.stdout)
    assert document["status"] == "complete" and document["errors"] == 0
    assert document["reference_metrics"] == {
        "leakage_rate_naive": 0.5,
        "helpfulness_naive": 2.5,
        "binary_helpfulness_rate_naive": 1.0,
        "adjusted_leakage_rate_naive": 0.5,
    }
    assert document["judge"] == JUDGE

    # a complete run: nothing to resume, said in one line; `show` reads it
    before = len(server.requests)
    again = privbench(
        "eval", "privacylens", "--resume", document["log"], "--log-dir", tmp_path / "logs"
    )
    assert again.returncode != 0
    assert "that run is complete" in one_line_error(again)
    assert len(server.requests) == before
    shown = json.loads(privbench("show", document["log"], "--json").stdout)
    assert {key: shown[key] for key in FIGURES} == {key: document[key] for key in FIGURES}
