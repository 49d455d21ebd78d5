"""Which judge grades is read from the ``--judge`` string once, in ``judges/choice.py``.

Why: the offline-or-model decision used to be made again wherever a judge string passed
(``is_offline(judge)``, ``judge == "offline"``), in a dozen places; one of them disagreeing
would grade, plan or label a run with the wrong judge. The guard reads the source with
:mod:`ast` (nothing is imported).
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
from helpers.loopback_server import LoopbackServer
from helpers.paths import REPO

from privbench.judges.choice import (
    DEFAULT_JUDGE,
    OFFLINE_JUDGE,
    JudgeChoice,
    ModelJudge,
    OfflineJudge,
    grader,
    parse_judge,
)
from privbench.judges.grading import JudgeQuestion, ModelGrader, RulesGrader
from privbench.judges.offline import PROTOCOL, rules_hash

SRC = REPO / "src" / "privbench"
CHOICE = SRC / "judges" / "choice.py"
NAMES = SRC / "runtime" / "judge_names.py"
OFFLINE_NAMES = frozenset({"OFFLINE", "OFFLINE_JUDGE"})
LOG_READERS = frozenset({SRC / "runtime" / "cost" / "prices.py"})
"""Below the judges layer, they read names a log records, not a judge to grade with: the
price of a *model* name of either role (the offline judge costs nothing)."""


def _is_offline_operand(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value == OFFLINE_JUDGE
    if isinstance(node, ast.Name):
        return node.id in OFFLINE_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in OFFLINE_NAMES
    if isinstance(node, ast.Set | ast.Tuple | ast.List):
        return any(_is_offline_operand(element) for element in node.elts)
    return False


def _string_decisions(path: Path) -> list[str]:
    """Every place ``path`` calls ``is_offline`` or compares something with the offline name."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "is_offline":
                found.append(f"{path.name}:{node.lineno}: is_offline()")
        elif isinstance(node, ast.FunctionDef) and node.name == "is_offline":
            found.append(f"{path.name}:{node.lineno}: def is_offline")
        elif isinstance(node, ast.Compare):
            if any(_is_offline_operand(o) for o in [node.left, *node.comparators]):
                found.append(f"{path.name}:{node.lineno}: compared with the offline name")
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Sub)
            and _is_offline_operand(node.right)
        ):
            found.append(f"{path.name}:{node.lineno}: set difference with the offline name")
    return found


def test_only_the_choice_module_reads_a_judge_string() -> None:
    found = [
        hit
        for path in sorted(SRC.rglob("*.py"))
        if path != CHOICE and path not in LOG_READERS
        for hit in _string_decisions(path)
    ]
    assert found == []


def test_the_guard_sees_each_way_of_deciding(tmp_path: Path) -> None:
    source = (
        "a = is_offline(j)\n"
        "b = j == 'offline'\n"
        "c = 'offline' != j\n"
        "d = j in {OFFLINE_JUDGE}\n"
        "e = names - {'offline'}\n"
        "f = j == judging.OFFLINE\n"
    )
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    assert len(_string_decisions(path)) == 6


def test_the_offline_name_is_spelled_in_one_module() -> None:
    spelled = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Constant)
                and node.value.value == OFFLINE_JUDGE
            ):
                spelled.append(path.relative_to(SRC).as_posix())
    assert spelled == ["runtime/judge_names.py"]


def test_offline_is_the_rule_judge() -> None:
    choice: JudgeChoice = parse_judge("offline")
    assert isinstance(parse_judge("offline"), OfflineJudge)
    assert (choice.name, choice.model) == ("offline", None)
    assert choice.grader_role() is None and isinstance(grader(choice), RulesGrader)
    assert choice.identity(lambda: ("paper", "x")) == (PROTOCOL, rules_hash())
    assert choice.temperature(0.7) is None
    assert choice.protocols("paper", ("paper", "hardened")) == ("paper",)
    notice = choice.notice()
    assert notice is not None and rules_hash() in notice


@pytest.mark.parametrize(
    ("given", "model", "name"),
    [
        ("openai/gpt-4o-2024-08-06", "openai/gpt-4o-2024-08-06", "openai/gpt-4o-2024-08-06"),
        ("Offline", "Offline", "Offline"),  # names are exact: only ``offline`` is the rules
        (None, None, DEFAULT_JUDGE),
        ("", None, DEFAULT_JUDGE),
    ],
)
def test_any_other_name_is_a_model_judge(given: str | None, model: str | None, name: str) -> None:
    choice = parse_judge(given)
    assert choice == ModelJudge(model)
    assert choice.name == name
    assert choice.identity(lambda: ("paper", "x")) == ("paper", "x")
    assert choice.temperature(0.7) == 0.7
    assert choice.protocols("paper", ("paper", "hardened")) == ("paper", "hardened")
    assert choice.notice() is None


JUDGE_CLASSES = frozenset({"OfflineJudge", "ModelJudge", "RulesGrader", "ModelGrader"})


def _class_tests(path: Path) -> list[str]:
    """Every place ``path`` asks which class a judge value or grader is."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in {"isinstance", "type"}
            and any(
                getattr(n, "id", None) in JUDGE_CLASSES or getattr(n, "attr", None) in JUDGE_CLASSES
                for arg in node.args
                for n in ast.walk(arg)
            )
        ):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_only_the_choice_module_asks_a_judge_value_its_class(tmp_path: Path) -> None:
    found = [hit for path in sorted(SRC.rglob("*.py")) if path != CHOICE
             for hit in _class_tests(path)]  # fmt: skip
    assert found == []
    probe = tmp_path / "probe.py"
    probe.write_text("a = isinstance(j, OfflineJudge)\nb = isinstance(g, (choice.ModelGrader,))\n")
    assert len(_class_tests(probe)) == 2  # the guard can fail


def _never_asked(attempt: int) -> str:
    raise AssertionError("the rules send no prompt")


def test_the_rules_grader_answers_with_the_rules_and_records_them_as_asked() -> None:
    question = JudgeQuestion(
        prompt=_never_asked,
        parse=float,
        rules=lambda: 0.5,
        rules_reply=lambda grade: [f"{grade:.1f}"],
        explain_rules=lambda: ["rule a", "rule b"],
        max_tries=3,
        max_tokens=10,
    )
    judge = grader(parse_judge("offline"))
    reply = asyncio.run(judge.ask(question))
    assert (reply.verdict, reply.replies, reply.reported_model) == (0.5, ["0.5"], "offline")
    assert judge.explain(question) == ["rule a", "rule b"]
    assert (judge.name, judge.served_name) == ("offline", "offline")
    plain = JudgeQuestion(prompt=_never_asked, parse=float, rules=lambda: 1.0, max_tries=1,
                          max_tokens=1)  # fmt: skip
    assert asyncio.run(judge.ask(plain)).replies == []  # a rule verdict has no reply by default
    assert judge.explain(plain) is None


def test_a_model_judge_is_asked_through_the_grader_role() -> None:
    from inspect_ai.model import get_model

    with LoopbackServer() as server:
        server.script("try 0", "no grade here")
        server.script("try 1", "0.75")
        model = get_model("openai-api/lb/judge", base_url=server.base_url, api_key="k")
        judge = ModelGrader(model, None)
        question = JudgeQuestion(
            prompt=lambda attempt: f"grade, try {attempt}",
            parse=lambda text: float(text) if text.replace(".", "").isdigit() else None,
            rules=lambda: 0.0,
            max_tries=3,
            max_tokens=10,
        )
        reply = asyncio.run(judge.ask(question))
    assert reply.verdict == 0.75 and reply.replies == ["no grade here", "0.75"]
    assert judge.explain(question) is None
    assert judge.name == judge.served_name == str(model)  # none chosen: the role's model
