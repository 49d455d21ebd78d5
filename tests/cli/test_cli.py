"""The command line as a user runs it: output, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    API_KEY,
    FOUR_ITEMS,
    JUDGE,
    JUDGE_PROMPT,
    MODEL,
    one_line_error,
    privbench,
    write_json,
    write_priviq,
)
from helpers.loopback_server import LoopbackServer

from privbench import registry
from privbench.shipped import PRIVIQ_SUITE, SPATIALTRUST_SUITE
from privbench.suites.priviq.task import default_data_dir


def grade_args(data: Path, predictions: Path, tmp_path: Path, *extra: str) -> list[str | Path]:
    return [
        "grade", "priviq", "--data", data, "--predictions", predictions, "--judge", JUDGE,
        "--log-dir", tmp_path / "logs", "--out", tmp_path / "out", *extra,
    ]  # fmt: skip


def test_grade_json_prints_one_document_only(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    server.script("answer-a", "0.9")
    result = privbench(
        *grade_args(priviq_dir, predictions, tmp_path, "--json", "--judge-runs", "2")
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)  # the whole of stdout is one JSON document
    assert document["benchmark"] == "priviq"
    assert document["items"]["a"] == pytest.approx(0.9)
    assert document["overall"] == pytest.approx(100 * (0.9 + 0.5 * 3) / 4)
    assert document["counts"] == {
        "items": 4,
        "runs": 2,
        "competencies": {
            "VizPriv": 1, "NER": 1, "PrivRisk": 1, "PET": 0, "Law": 1, "Know": 1,
            "CntxPriv": 2, "MultLing": 0,
        },
        "combinations": {
            "VizPriv + CntxPriv": 1, "NER": 1, "Law": 1, "PrivRisk + Know + CntxPriv": 1,
        },
    }  # fmt: skip
    assert document["std"]["overall"] == pytest.approx(0.0)
    assert set(document["exports"]) == {"grades", "cap_score", "cap_int_score"}
    assert all(Path(path).exists() for path in document["exports"].values())


def test_grade_tables_one_decimal(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    server.script("answer-b", "0.3")
    result = privbench(*grade_args(priviq_dir, predictions, tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Law" in result.stdout and "30.0" in result.stdout
    assert "45.0" in result.stdout  # total: (0.5 + 0.3 + 0.5 + 0.5) / 4
    assert "unscored judgments: 0" in result.stdout
    assert f"judge: {JUDGE} (paper protocol" in result.stdout


def test_missing_predictions_are_listed(
    server: LoopbackServer, priviq_dir: Path, tmp_path: Path
) -> None:
    answers = write_json(tmp_path / "results.json", {"a": "x"})
    result = privbench(*grade_args(priviq_dir, answers, tmp_path))
    assert result.returncode == 1
    assert one_line_error(result).endswith("no answer for 3 item(s): b, c, d")
    assert server.count() == 0


def test_bad_predictions_file_names_file_and_position(
    server: LoopbackServer, priviq_dir: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "results.json"
    bad.write_text('{"a": "x",\n "b": }')
    result = privbench(*grade_args(priviq_dir, bad, tmp_path))
    assert result.returncode == 1
    assert f"{bad}:2:7: invalid JSON" in one_line_error(result)
    missing = privbench(*grade_args(priviq_dir, tmp_path / "nope.json", tmp_path))
    assert "nope.json: file not found" in one_line_error(missing)


def test_broken_dataset_is_one_line(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    (priviq_dir / "images" / "c.png").unlink()
    result = privbench(*grade_args(priviq_dir, predictions, tmp_path))
    assert result.returncode == 1
    assert "item c: missing image: images/c.png" in one_line_error(result)


def test_unreachable_judge_is_one_line_without_the_key(
    priviq_dir: Path, predictions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOOPJUDGE_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LOOPJUDGE_API_KEY", API_KEY)
    result = privbench(*grade_args(priviq_dir, predictions, tmp_path, "--max-retries", "0"))
    assert result.returncode == 1
    line = one_line_error(result)
    assert f"judge {JUDGE} at http://127.0.0.1:9/v1 does not answer: cannot connect" in line
    assert API_KEY not in result.stdout + result.stderr


def test_unknown_protocol_is_a_usage_error(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    result = privbench(*grade_args(priviq_dir, predictions, tmp_path, "--judge-protocol", "nice"))
    assert result.returncode == 2
    assert "--judge-protocol" in one_line_error(result)


def test_demo_runs_offline_and_writes_the_report(tmp_path: Path) -> None:
    result = privbench("demo", "--out", tmp_path / "demo", "--limit", "3", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # both shipped suites were validated: their sizes, counted from their files here
    priviq_items = len(json.loads((PRIVIQ_SUITE / "priv-IQ.json").read_text(encoding="utf-8")))
    spatial_lines = (SPATIALTRUST_SUITE / "spatialtrust.jsonl").read_text(encoding="utf-8")
    spatial_images = len(spatial_lines.splitlines())
    assert (priviq_items, spatial_images) == (146, 100)
    assert "146 items" in result.stdout and "100 images" in result.stdout
    assert "3 items × 1 run(s)" in result.stdout and "judge: offline" in result.stdout
    assert "SpatialTrust scores" in result.stdout and "Direct identification" in result.stdout
    assert (tmp_path / "demo" / "report.html").exists()
    # one log per benchmark whose data is here: VLM-GeoPrivacy's photos cannot ship, and
    # nothing was downloaded, so it says in one line why it did not run
    shipped = [s for s in registry.SUITES.values() if s.default_copy().path is not None]
    assert [s.name for s in registry.SUITES.values() if s not in shipped] == ["geoprivacy"]
    assert len(list((tmp_path / "demo" / "logs").glob("*.eval"))) == len(shipped)
    assert "geoprivacy: not run (its photos and annotations cannot ship" in result.stdout
    assert "decodingtrust: only the privacy-understanding part ran" in result.stdout
    assert list((tmp_path / "demo" / "priviq").glob("*-grade-1runs.json"))


def _vlm_or_judge(body: dict[str, Any]) -> str:
    text = json.dumps(body["messages"])
    return "0.8" if "Correctness" in text else "Yes: I see a card and a name."


def test_eval_generates_then_grades(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with LoopbackServer(default_reply=_vlm_or_judge) as loop:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", loop.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        result = privbench(
            "eval", "priviq", "--model", MODEL, "--judge", JUDGE, "--limit", "3", "--json",
            "--log-dir", tmp_path / "logs",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        document = json.loads(result.stdout)
        assert document["model"] == MODEL
        assert len(document["items"]) == 3
        assert document["overall"] == pytest.approx(80.0)
        model_calls = [
            r for r in loop.requests if JUDGE_PROMPT not in r.text and "digit 1" not in r.text
        ]
        assert len(model_calls) == 3
        content = model_calls[0].body["messages"][0]["content"]
        assert content[0]["type"] == "image_url"
        assert content[0]["image_url"]["url"].startswith("data:image/png;base64,")
        judged = [r for r in loop.requests if JUDGE_PROMPT in r.text]
        assert all("Yes: I see a card and a name. | " in r.text for r in judged)


@pytest.mark.e2e
def test_inspect_runs_the_registered_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with LoopbackServer(default_reply=_vlm_or_judge) as loop:
        for name in ("LOOPJUDGE", "LOOPMODEL"):
            monkeypatch.setenv(f"{name}_BASE_URL", loop.base_url)
            monkeypatch.setenv(f"{name}_API_KEY", API_KEY)
        inspect = Path(sys.executable).parent / "inspect"
        result = subprocess.run(
            [
                str(inspect), "eval", "privbench/priviq", "-T", f"data={default_data_dir()}",
                "--model", MODEL, "--model-role", f"grader={JUDGE}", "--limit", "2",
                "--log-dir", str(tmp_path / "logs"), "--display", "none",
            ],
            capture_output=True, text=True, check=False, env=os.environ.copy(),
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
        assert len(list((tmp_path / "logs").glob("*.eval"))) == 1
        assert len([r for r in loop.requests if JUDGE_PROMPT in r.text]) == 2


def test_every_benchmark_has_its_eval_and_grade_command() -> None:
    """The eval and grade commands are declared for each benchmark the registry lists
    (and for nothing else): one dispatch, driven by the registry, runs them all."""
    from typer.core import TyperGroup
    from typer.main import get_command

    from privbench import registry
    from privbench.cli import app

    root = get_command(app)
    assert isinstance(root, TyperGroup)
    for kind in ("eval", "grade"):
        group = root.commands[kind]
        assert isinstance(group, TyperGroup)
        context = group.context_class(group, info_name=kind)
        assert group.list_commands(context) == list(registry.SUITES)
        for name in registry.SUITES:
            assert group.get_command(context, name) is not None, f"{kind} {name}"


def test_a_benchmark_added_to_the_registry_has_its_commands_without_a_cli_edit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A benchmark declares its eval and grade commands (help, options, order, its own
    options); the command line builds them from the registry, so a new one needs no edit
    there. The extra benchmark reuses Priv-IQ's hooks and records the eval it is given."""
    from dataclasses import replace

    from helpers.cli import run_cli

    from privbench import registry
    from privbench.runtime.cost.plan import CallPlan
    from privbench.runtime.suite import (
        EVAL_OPTIONS,
        CommandSpec,
        EvalRequest,
        SharedOption,
        SuiteCommands,
        SuiteOption,
    )

    priviq = registry.get("priviq")
    seen: list[EvalRequest] = []

    def plan(request: EvalRequest) -> CallPlan:
        seen.append(request)
        return priviq.eval_plan(request)

    colour = SuiteOption("colour", ("--colour", "--color"), str, "red", "The toy's colour.")
    commands = SuiteCommands(
        eval=CommandSpec(
            "Answer every toy item.",
            (SharedOption("model", "The toy's model."), colour, *EVAL_OPTIONS[1:]),
        )
    )
    toy = replace(priviq, name="toy", eval_plan=plan, commands=commands)
    monkeypatch.setattr(registry, "SUITES", {**registry.SUITES, "toy": toy})

    listed = run_cli("eval", "--help")
    assert listed.returncode == 0 and "toy" in listed.stdout, listed.stdout
    shown = run_cli("eval", "toy", "--help")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "Answer every toy item." in shown.stdout and "The toy's model." in shown.stdout
    assert "--colour" in shown.stdout and "[default: red]" in shown.stdout
    assert "--explain" not in shown.stdout  # Priv-IQ's own option is not the toy's
    graded = run_cli("grade", "toy", "--help")
    assert graded.returncode == 0 and "--predictions" in graded.stdout, graded.stdout

    ran = run_cli("eval", "toy", "--model", MODEL, "--color", "blue", "--limit", "2",
                  "--judge", "offline", "--dry-run", "--json")  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert json.loads(ran.stdout)["calls"] and len(seen) == 1
    assert (seen[0].model, seen[0].limit, dict(seen[0].settings)) == (MODEL, 2, {"colour": "blue"})


def test_a_benchmark_with_a_downloader_or_a_generator_has_those_commands_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A benchmark that declares a download or a generate hook gets ``download NAME`` and
    ``generate NAME`` (its help, its --n, its own options) without a command-line edit;
    one without the hook gets no such command."""
    from dataclasses import replace

    from helpers.cli import run_cli

    from privbench import registry
    from privbench.runtime.suite import (
        DownloadCommand,
        DownloadRequest,
        GenerateCommand,
        GenerateRequest,
        SuiteCommands,
        SuiteOption,
    )

    downloads: list[DownloadRequest] = []
    generated: list[GenerateRequest] = []

    def download(request: DownloadRequest) -> list[str]:
        downloads.append(request)
        return ["toy release: fetched"]

    def generate(request: GenerateRequest) -> Path:
        generated.append(request)
        return write_priviq(request.out, FOUR_ITEMS)

    shape = SuiteOption("shape", ("--shape",), str, "cube", "The toy items' shape.")
    commands = SuiteCommands(
        generate=GenerateCommand("Toy items, generated.", size=7, options=(shape,)),
        download=DownloadCommand("The toy release."),
    )
    toy = replace(
        registry.get("priviq"), name="toy", download=download, generate=generate,
        commands=commands, resolve_data=None,
    )  # fmt: skip
    plain = replace(toy, name="plain", download=None, generate=None)
    monkeypatch.setattr(registry, "SUITES", {**registry.SUITES, "toy": toy, "plain": plain})

    for group in ("download", "generate"):
        listed = run_cli(group, "--help")
        assert listed.returncode == 0 and " toy " in listed.stdout, listed.stdout
        assert " plain " not in listed.stdout, listed.stdout
        assert run_cli(group, "plain").returncode != 0
    shown = run_cli("generate", "toy", "--help")
    assert "Toy items, generated." in shown.stdout and "--shape" in shown.stdout, shown.stdout
    assert "[default: 7]" in shown.stdout and "[default: cube]" in shown.stdout, shown.stdout
    assert "The toy release." in run_cli("download", "toy", "--help").stdout

    fetched = run_cli("download", "toy", "--dir", tmp_path / "cache", "--force")
    assert fetched.returncode == 0 and fetched.stdout == "toy release: fetched\n", fetched
    assert downloads == [DownloadRequest(tmp_path / "cache", None, force=True)]
    out = tmp_path / "toy"
    made = run_cli("generate", "toy", "--out", out, "--seed", "3", "--shape", "ball")
    assert made.returncode == 0 and "4" in made.stdout, made.stdout + made.stderr
    assert [(g.n, g.seed, g.out, dict(g.settings)) for g in generated] == [
        (7, 3, out, {"shape": "ball"})
    ]


def test_help_that_names_a_benchmark_is_read_from_the_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--ocr``, ``--verdicts``, ``--box-format``... say which benchmark they are for
    from the benchmarks' declarations: a renamed benchmark is named by its new title."""
    from dataclasses import replace

    from helpers.cli import run_cli

    from privbench import registry

    renamed = {name: replace(suite, title=f"Toy{n}") for n, (name, suite) in
               enumerate(registry.SUITES.items())}  # fmt: skip
    monkeypatch.setattr(registry, "SUITES", renamed)
    audit = run_cli("audit", "--help", env={"COLUMNS": "200"}).stdout
    assert "Toy0: how much of each answer is printed in the image." in audit, audit
    check = run_cli("judge", "check", "--help", env={"COLUMNS": "200"}).stdout
    assert "Toy1 q4/q5 reference verdicts" in check and "Skip the Toy1 verdict" in check, check
    assert "Toy0 data the probes use" in check, check
    show = run_cli("show", "--help", env={"COLUMNS": "200"}).stdout
    assert "Toy1: read the answers' boxes" in show, show
    survey = run_cli("survey", "export", "--help", env={"COLUMNS": "200"}).stdout
    assert "Graded Toy0 log(s)" in survey, survey


def test_the_command_list_loads_no_benchmark() -> None:
    """``privbench --help`` fills no benchmark's help, so it imports no benchmark."""
    script = (
        "import sys\nfrom typer.testing import CliRunner\nfrom privbench.cli import app\n"
        "result = CliRunner().invoke(app, ['--help'])\n"
        "print(result.exit_code, sorted(m for m in sys.modules if m.startswith(('privbench.suites', 'privbench.registry'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.stdout.strip() == "0 []", done.stdout + done.stderr


def test_an_unknown_benchmark_is_one_line_naming_the_known_ones() -> None:
    from privbench import registry
    from privbench.runtime.errors import UsageError

    with pytest.raises(UsageError, match=r"^nope: not a privbench benchmark \(known: priviq, "):
        registry.get("nope")


def test_a_log_task_names_its_benchmark() -> None:
    from privbench import registry

    assert registry.for_task("privbench/priviq_grade") is registry.get("priviq")
    assert registry.for_task("spatialtrust") is registry.get("spatialtrust")
    assert registry.for_task("other/priviq") is None


def test_a_run_is_not_changed_after_it_is_built(
    priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    """The prices a run's cost is given in are passed in, not set on the finished run."""
    from dataclasses import FrozenInstanceError

    from helpers import run_options

    from privbench.runtime.cost.plan import Prices
    from privbench.runtime.cost.prices import parse_price
    from privbench.suites.priviq.api import grade_priviq

    prices = Prices(judge=parse_price("1/2", "--judge-price"))
    options = run_options(tmp_path, judge="offline")
    run = grade_priviq(priviq_dir, predictions, options=options, prices=prices)
    assert run.prices == prices
    with pytest.raises(FrozenInstanceError):
        run.prices = Prices()  # type: ignore[misc]
