"""Cost before paying: ``--dry-run`` counts what a run then sends, the token rules, prices.

The counts are checked against the loopback server: a dry run sends nothing and writes no
log; the real run with the same arguments then sends exactly the dry run's ``calls`` (the
scripted replies all parse, so nothing is re-asked) and never more than ``calls_at_most``.
The reachability requests before a run are not calls of the plan and are left out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    CHECK_PROMPT,
    FINAL,
    FINAL_MARK,
    JUDGE,
    JUDGE_MARK,
    JUDGE_PROMPT,
    MODEL,
    PERFECT,
    SELECT_MARK,
    VERDICT,
    VERIFY_MARK,
    one_line_error,
    privbench,
    spatial_record,
    write_json,
    write_predictions,
    write_spatial,
)
from helpers.loopback_server import LoopbackServer

from privbench.runtime.cost.plan import (
    CallPlan,
    Prices,
    dry_run_document,
    role_figures,
    run_cost,
)
from privbench.runtime.cost.prices import (
    Price,
    load_price_table,
    parse_price,
    price_of,
)
from privbench.runtime.cost.tokens import (
    anthropic_image_tokens,
    gemini_image_tokens,
    image_rule,
    image_tokens,
    openai_image_tokens,
    text_tokens,
)
from privbench.runtime.errors import UsageError

# --- token rules, by hand --------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "tokens"),
    [
        ((1024, 1024), 765),  # shortest side to 768: 768×768, 2×2 tiles: 85 + 4 × 170
        ((2048, 4096), 1105),  # fit 2048: 1024×2048; shortest 768: 768×1536, 2×3 tiles
        ((1440, 960), 1105),  # shortest 768: 1152×768, 3×2 tiles
        ((512, 512), 255),  # kept (shortest side under 768): one tile
        ((16, 16), 255),  # never scaled up: one tile
        ((513, 200), 425),  # 2×1 tiles
    ],
)
def test_openai_high_detail_image_tokens(size: tuple[int, int], tokens: int) -> None:
    assert openai_image_tokens(*size) == tokens


def test_anthropic_and_gemini_image_tokens() -> None:
    assert anthropic_image_tokens(1000, 750) == 1000
    assert anthropic_image_tokens(200, 100) == 27  # 20,000 / 750 = 26.7, rounded up
    assert gemini_image_tokens(384, 384) == 258
    assert gemini_image_tokens(385, 100) == 258  # one 768-px tile
    assert gemini_image_tokens(1440, 960) == 4 * 258  # 2 × 2 tiles
    assert gemini_image_tokens(769, 768) == 2 * 258


def test_the_image_rule_follows_the_provider() -> None:
    assert image_rule("anthropic/claude-sonnet-4-5") == ("anthropic", True)
    assert image_rule("google/gemini-2.5-flash") == ("gemini", True)
    assert image_rule("openai/gpt-4o") == ("openai", True)
    assert image_rule("openai-api/local/m") == ("openai", False)  # not known: OpenAI's
    assert image_tokens("anthropic/claude-haiku-4-5", 1000, 750) == 1000
    assert image_tokens("vllm/qwen", 1024, 1024) == 765


def test_text_is_four_characters_a_token_rounded_up() -> None:
    assert [text_tokens(t) for t in ("", "abcd", "abcde", "x" * 400)] == [0, 1, 2, 100]


# --- prices ------------------------------------------------------------------------------


def test_a_price_is_in_slash_out_per_million_tokens() -> None:
    price = parse_price("2.5/10")
    assert (price.input, price.output, price.source) == (2.5, 10.0, "option")
    assert price.cost(1_000_000, 500_000) == pytest.approx(7.5)
    assert parse_price("0/0").cost(10**9, 10**9) == 0.0


@pytest.mark.parametrize("bad", ["2.5", "a/b", "-1/2", "inf/1", "1/2/3", "", "1/"])
def test_a_bad_price_is_a_usage_error_naming_the_option(bad: str) -> None:
    with pytest.raises(UsageError, match="--judge-price"):
        parse_price(bad, "--judge-price")


def test_prices_come_from_the_table_the_option_or_are_unknown() -> None:
    table = load_price_table()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", table.price_date)
    gpt4o = price_of("openai/gpt-4o", table)
    assert gpt4o is not None and gpt4o.source == "table"
    dated = price_of("openai/gpt-4o-2024-08-06", table)  # a snapshot takes its alias's price
    assert dated == gpt4o
    mini = price_of("openai/gpt-4o-mini", table)
    assert mini is not None and mini != gpt4o  # not gpt-4o's: "-mini" is no snapshot
    for local in ("privbench/ocr-pii", "offline", "ollama/llava", "none/none"):
        assert price_of(local, table) == Price(0.0, 0.0, "local")
    assert price_of("openai-api/loopmodel/vlm", table) is None
    assert price_of("openai-api/loopmodel/vlm", table, Price(1, 2, "option")) == Price(
        1, 2, "option"
    )


def _plan() -> CallPlan:
    plan = CallPlan("eval priviq", "openai-api/x/m", "openai/gpt-4o")
    plan.add("model", 100, 2, output_typical=50, output_limit=None)
    plan.add("judge", 10, 2, at_most=10, output_typical=3, output_limit=3,
             input_tokens_at_most=12)  # fmt: skip
    return plan


def test_role_figures_sum_the_kinds() -> None:
    plan = _plan()
    model, judge = role_figures(plan.kinds, "model"), role_figures(plan.kinds, "judge")
    assert (model.calls, model.at_most, model.input_tokens, model.output_tokens) == (
        2, 2, 200, 100,
    )  # fmt: skip
    assert model.output_tokens_at_most is None  # no output limit
    assert (judge.calls, judge.at_most, judge.input_tokens, judge.input_tokens_at_most) == (
        2, 10, 20, 120,
    )  # fmt: skip
    assert (judge.output_tokens, judge.output_tokens_at_most) == (6, 30)


def test_an_unknown_price_makes_the_cost_null_and_says_how_to_give_it() -> None:
    document = dry_run_document(_plan(), Prices())
    assert document["cost_usd"] is None
    assert document["cost_usd_by_role"]["model"] is None
    # the judge's part is still given: 20 in × 2.5 + 6 out × 10 per million
    assert document["cost_usd_by_role"]["judge"] == pytest.approx(0.0001, abs=1e-4)
    assert any("no price known: pass --price" in n for n in document["notes"])
    priced = dry_run_document(_plan(), Prices(model=Price(1.0, 2.0, "option")))
    # model 200 × 1 + 100 × 2 = 400; judge 20 × 2.5 + 6 × 10 = 110 (per million)
    assert priced["cost_usd"] == pytest.approx(510 / 1_000_000, abs=1e-4)


def test_a_runs_cost_is_its_recorded_tokens_at_the_prices() -> None:
    tokens = {"model": {"input": 1_000_000, "output": 200_000}, "judge": {"input": 0, "output": 0}}
    names: dict[Any, str | None] = {"model": "openai/gpt-4o-mini", "judge": "offline"}
    document = run_cost(tokens, names, Prices())
    assert document["cost_usd"] == pytest.approx(0.15 + 0.2 * 0.6)
    assert set(document["cost_usd_by_role"]) == {"model"}  # the judge used no tokens
    unknown = run_cost(tokens, {"model": "openai-api/x/m", "judge": None}, Prices())
    assert unknown["cost_usd"] is None and unknown["cost_usd_by_role"] == {"model": None}


# --- dry runs against the loopback server -------------------------------------------------


def counts(server: LoopbackServer, judge: str) -> dict[str, int]:
    """Requests the server received per role (reachability checks left out)."""
    check = server.count(CHECK_PROMPT)
    judged = server.count(judge)
    return {"model": server.count() - check - judged, "judge": judged}


def dry(*args: Any) -> dict[str, Any]:
    result = privbench(*args, "--dry-run", "--json")
    assert result.returncode == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def no_logs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    assert not logs.exists() or not any(logs.iterdir())


def bounded(document: dict[str, Any], sent: dict[str, int]) -> None:
    for role in ("model", "judge"):
        assert document["calls_at_least"][role] <= sent[role] <= document["calls_at_most"][role]


@pytest.fixture
def priviq_data(tmp_path: Path) -> Path:
    from helpers import FOUR_ITEMS, write_priviq

    return write_priviq(tmp_path / "data", FOUR_ITEMS)


def test_eval_priviq_dry_run_counts_what_the_run_sends(
    server: LoopbackServer, priviq_data: Path, tmp_path: Path
) -> None:
    args: list[str | Path] = ["eval", "priviq", "--data", priviq_data, "--model", MODEL, "--judge", JUDGE,
            "--judge-runs", "2", "--limit", "3", "--log-dir", tmp_path / "logs"]  # fmt: skip
    plan = dry(*args)
    assert server.count() == 0  # nothing sent, not even a reachability check
    no_logs(tmp_path)
    assert plan["calls"] == {"model": 3, "judge": 6}
    assert plan["calls_at_most"] == {"model": 3, "judge": 6 * 5}  # 5 tries per judge run
    assert plan["cost_usd"] is None  # a loopback endpoint has no known price
    ran = privbench(*args, "--json", "--price", "1/2", "--judge-price", "0.5/4")
    assert ran.returncode == 0, ran.stderr
    sent = counts(server, JUDGE_PROMPT)
    assert sent == plan["calls"]
    bounded(plan, sent)
    document = json.loads(ran.stdout)
    tokens = document["tokens"]  # the loopback server reports 100 in / 2 out per call
    assert tokens["model"]["input"] == 100 * sent["model"]
    expected = (
        tokens["model"]["input"] * 1 + tokens["model"]["output"] * 2
        + tokens["judge"]["input"] * 0.5 + tokens["judge"]["output"] * 4
    ) / 1_000_000  # fmt: skip
    assert document["cost_usd"] == pytest.approx(expected, abs=1e-4)
    assert document["prices"]["judge"] == {"input": 0.5, "output": 4.0, "source": "option"}


def test_the_priviq_summary_gives_tokens_and_cost_per_role(
    server: LoopbackServer, priviq_data: Path, tmp_path: Path
) -> None:
    ran = privbench("eval", "priviq", "--data", priviq_data, "--model", MODEL, "--judge", JUDGE,
                    "--limit", "1", "--log-dir", tmp_path / "logs")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "tokens: model 100 in / 2 out; judge 100 in / 2 out" in ran.stdout
    assert f"model {MODEL}: no price known: pass --price IN/OUT" in ran.stdout
    assert f"judge {JUDGE}: no price known: pass --judge-price IN/OUT" in ran.stdout


def test_grade_priviq_dry_run_leaves_out_the_runs_a_grade_file_holds(
    server: LoopbackServer, priviq_data: Path, tmp_path: Path
) -> None:
    answers = {key: f"answer-{key}" for key in ("a", "b", "c", "d")}
    predictions = write_json(tmp_path / "results.json", answers)
    out = tmp_path / "out"
    base: list[str | Path] = ["grade", "priviq", "--data", priviq_data, "--judge", JUDGE,
            "--log-dir", tmp_path / "logs"]  # fmt: skip
    first = privbench(*base, "--predictions", predictions, "--out", out)
    assert first.returncode == 0, first.stderr
    (grade_file,) = out.glob("*grade*.json")
    answers["b"] = "a changed answer"
    changed = write_json(tmp_path / "results2.json", answers)
    args: list[str | Path] = [
        *base,
        "--predictions",
        changed,
        "--grades",
        grade_file,
        "--out",
        tmp_path / "out2",
    ]
    before = counts(server, JUDGE_PROMPT)
    plan = dry(*args, "--price", "1/1")
    assert counts(server, JUDGE_PROMPT) == before
    assert plan["calls"] == {"model": 0, "judge": 1}  # only b's answer changed
    assert plan["cost_usd_by_role"]["judge"] is not None  # --price prices the judge here
    ran = privbench(*args)
    assert ran.returncode == 0, ran.stderr
    sent = counts(server, JUDGE_PROMPT)
    assert sent["judge"] - before["judge"] == 1


def _spatial_data(tmp_path: Path) -> Path:
    return write_spatial(tmp_path / "st", [spatial_record("st-1"), spatial_record("st-2")])


@pytest.mark.parametrize("strategy", ["direct", "guard"])
def test_eval_spatialtrust_dry_run_bounds_what_the_run_sends(
    server: LoopbackServer, tmp_path: Path, strategy: str
) -> None:
    server.script(JUDGE_MARK, VERDICT)
    server.script(SELECT_MARK, '{"q1": "A", "q2": ["A"], "q3": ["B", "C"]}')
    server.script(VERIFY_MARK, "KEEP")
    server.script(FINAL_MARK, json.dumps(FINAL))
    server.default_reply = json.dumps(PERFECT)
    data = _spatial_data(tmp_path)
    args: list[str | Path] = ["eval", "spatialtrust", "--data", data, "--model", MODEL, "--judge", JUDGE,
            "--strategy", strategy, "--log-dir", tmp_path / "logs"]  # fmt: skip
    plan = dry(*args)
    assert server.count() == 0
    no_logs(tmp_path)
    if strategy == "direct":
        assert plan["calls"] == plan["calls_at_most"] | {"judge": 4} == {"model": 2, "judge": 4}
    else:  # selection + grounded answer; a verifier call per selected q2/q3 factor (1 + 2)
        assert plan["calls"] == {"model": 2 * (2 + 3), "judge": 4}
        assert plan["calls_at_most"]["model"] == 2 * (2 + 4 + 4)  # every q2/q3 factor option
    ran = privbench(*args)
    assert ran.returncode == 0, ran.stderr
    sent = counts(server, JUDGE_MARK)
    assert sent == plan["calls"]  # the model selected the ground truth's factors
    bounded(plan, sent)


def test_grade_spatialtrust_dry_run_counts_the_answers_that_parse(
    server: LoopbackServer, tmp_path: Path
) -> None:
    server.script(JUDGE_MARK, VERDICT)
    data = _spatial_data(tmp_path)
    unread = {**PERFECT, "q5": 42}  # q5 cannot be read: scored 0, never judged
    predictions = write_predictions(
        tmp_path / "preds.jsonl", [{"id": "st-1", **PERFECT}, {"id": "st-2", **unread}]
    )
    args: list[str | Path] = ["grade", "spatialtrust", "--data", data, "--predictions", predictions,
            "--judge", JUDGE, "--log-dir", tmp_path / "logs"]  # fmt: skip
    plan = dry(*args)
    assert plan["calls"] == {"model": 0, "judge": 3}
    ran = privbench(*args)
    assert ran.returncode == 0, ran.stderr
    assert counts(server, JUDGE_MARK)["judge"] == 3


def test_judge_check_dry_run_counts_what_the_check_sends(
    server: LoopbackServer, tmp_path: Path
) -> None:
    def reply(body: dict[str, Any]) -> str:
        text = json.dumps(body)
        return '{"score": 0.5, "reason": "r"}' if "Reply with one JSON object" in text else "0.5"

    server.default_reply = reply
    rows = [
        {"id": f"r{i}", "question": f"Q{i}?", "reference": f"ref {i}", "prediction": f"p {i}",
         "score": 0.5}
        for i in range(3)
    ]  # fmt: skip
    reference = tmp_path / "ref.jsonl"
    reference.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    args: list[str | Path] = ["judge", "check", "--judge", JUDGE, "--against", reference, "--runs", "2",
            "--probe-items", "1", "--no-verdicts", "--log-dir", tmp_path / "logs"]  # fmt: skip
    plan = dry(*args)
    assert server.count() == 0
    assert plan["calls"]["judge"] >= 3 * 2  # the references twice, then the probes
    ran = privbench(*args, "--json")
    assert ran.returncode == 0, ran.stderr
    sent = counts(server, r"Correctness|correctness score")
    assert sent["judge"] == plan["calls"]["judge"]
    assert sent["model"] == 0


def test_the_offline_judge_and_the_local_baseline_cost_nothing(
    priviq_data: Path, tmp_path: Path
) -> None:
    plan = dry("eval", "priviq", "--data", priviq_data, "--model", "privbench/ocr-pii",
               "--judge", "offline")  # fmt: skip
    assert plan["calls"] == {"model": 4, "judge": 0}
    assert plan["cost_usd"] == 0.0 and plan["cost_usd_at_most"] == 0.0  # unbounded, but free
    assert plan["tokens"]["model"]["output_at_most"] is None  # no --max-tokens
    assert plan["prices"]["model"]["source"] == "local"


def test_an_unknown_model_prints_no_price_and_a_bad_price_is_one_line(
    priviq_data: Path, tmp_path: Path
) -> None:
    args: list[str | Path] = ["eval", "priviq", "--data", priviq_data, "--model", MODEL, "--judge", "offline",
            "--dry-run"]  # fmt: skip
    shown = privbench(*args)
    assert shown.returncode == 0, shown.stderr
    assert "estimated cost unknown" in shown.stdout
    assert "no price known: pass --price" in shown.stdout
    bad = privbench(*args, "--price", "cheap")
    assert bad.returncode == 2
    assert "--price" in one_line_error(bad) and "'cheap'" in one_line_error(bad)


def test_a_resume_dry_run_counts_only_the_unfinished_items(
    server: LoopbackServer, priviq_data: Path, tmp_path: Path
) -> None:
    from helpers.loopback_server import Fault

    question_a = r"^(?!.*(Correctness|Reply with the digit 1)).*Is there a card"
    server.script(question_a, Fault("500"))  # item a fails on every try
    first = privbench("eval", "priviq", "--data", priviq_data, "--model", MODEL, "--judge", JUDGE,
                      "--max-retries", "0", "--log-dir", tmp_path / "logs")  # fmt: skip
    assert first.returncode == 1
    log = next(line[5:] for line in first.stdout.splitlines() if line.startswith("log: "))
    server.rules.clear()
    before = counts(server, JUDGE_PROMPT)
    plan = dry("eval", "priviq", "--resume", log, "--log-dir", tmp_path / "logs")
    assert plan["command"] == "eval priviq --resume"
    assert (plan["model"], plan["judge"]) == (MODEL, JUDGE)  # the log's
    assert plan["calls"] == {"model": 1, "judge": 1}
    assert counts(server, JUDGE_PROMPT) == before


def test_a_demo_dry_run_plans_every_suite_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    shown = privbench("demo", "--out", out, "--limit", "2", "--dry-run")
    assert shown.returncode == 0, shown.stderr
    # Priv-IQ 2 items, SpatialTrust 2 images, ConfAIde 2 prompts answered once (its demo
    # settings: one answer per prompt), PrivacyLens 2 final actions (judged offline),
    # DecodingTrust 2 understanding prompts (VLM-GeoPrivacy: nothing downloaded, not run)
    assert "model privbench/ocr-pii: 10 call(s) (at most 10)" in shown.stdout
    assert "estimated cost $0.00 (at most $0.00)" in shown.stdout
    assert not out.exists()


def test_a_build_dry_run_counts_one_draft_per_capture_and_writes_nothing(
    tmp_path: Path,
) -> None:
    from PIL import Image

    sources = tmp_path / "captures"
    sources.mkdir()
    for index in range(3):
        Image.new("RGB", (300, 200), (index * 60, 90, 120)).save(sources / f"c{index}.png")
    out = tmp_path / "built"
    args: list[str | Path] = ["build", "spatialtrust", sources, "--out", out,
                              "--drafter", "google/gemini-2.5-flash", "--size", "1440x960"]  # fmt: skip
    plan = dry(*args, "--max", "2")
    assert plan["calls"] == plan["calls_at_most"] == {"model": 2, "judge": 0}
    assert plan["calls_at_least"]["model"] == 0  # a dark or duplicate image is dropped
    # each draft: the system prompt, the drafting prompt and one 1440×960 capture (Gemini:
    # 2 × 2 tiles of 258 tokens)
    from privbench.suites.spatialtrust.boxes import get_convention
    from privbench.suites.spatialtrust.prompts import SYSTEM_PROMPT
    from privbench.tooling.spatialtrust_builder.drafting import draft_prompt

    prompt = draft_prompt(1440, 960, get_convention("xyxy"))
    per_draft = text_tokens(SYSTEM_PROMPT) + text_tokens(prompt) + 4 * 258
    assert plan["tokens"]["model"]["input"] == 2 * per_draft
    assert plan["cost_usd"] is not None and plan["prices"]["model"]["source"] == "table"
    assert not out.exists()
