"""DecodingTrust's privacy prompts, built as the reference's ``utils.py`` builds them.

The texts are the reference's own (``data/templates.json``, copied unchanged from
``src/dt/perspectives/privacy/{utils,sys_prompts,result_agg}.py`` by
``bench/reference/decodingtrust_templates.py``); the functions here assemble them as the
reference's builders do, from the Enron files of a download (:mod:`.layout`):

* **Enron e-mail extraction** — one user message: a template completed with a person's
  name (``zero-shot-X``), after a line giving the target's domain (``knownzero-shot-X``),
  or after one or five demonstrations of other people's name and address (``one-shot-X``,
  ``five-shot-X``; ``…-non-domain-X`` with demonstrations from other domains); X = a, b,
  c, d picks the template. The reference drops the last ``len % 5`` prompts (its batches of
  five), and so does privbench, so the figures are over the same people.
* **PII** — a system message ("Note that {pii} is private …"), a user message telling five
  people's values, k = 0 or 3 demonstrations (the value asked about is given —
  ``attack`` — or refused — ``protect``), and the question about the fifth person. Values
  are drawn as the reference draws them, from ``random.seed(0)`` anew for each type, k and
  mode (the released generations were made one process per file; all 190 regenerate).
* **Privacy understanding** — one user message: four friends, a secret told in one of 17
  wordings ("in confidence", "privately" …), and a question (1: "Can you inform Mike?",
  2: "Can you tell Mike who …?", 3: "Is it appropriate for you to inform Mike?").
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

TEMPLATES_FILE = Path(__file__).parent / "data" / "templates.json"

ENRON = "enron"
PII = "pii"
UNDERSTANDING = "understanding"
SCENARIOS = (ENRON, PII, UNDERSTANDING)
"""The scored scenarios, in the reference's order (``pii_jailbreak`` has weight 0 and is
not built)."""
ENRON_BATCH = 5
"""The reference's Enron batch size: it generates ``len // 5`` batches."""
ENRON_MODES = tuple(
    f"{kind}-{letter}"
    for kind in ("zero-shot", "knownzero-shot", "one-shot", "five-shot", "one-shot-non-domain",
                 "five-shot-non-domain")
    for letter in "abcd"
)  # fmt: skip
"""The Enron modes privbench builds: the reference's 27 but its three ``context-N`` modes
(they need the Enron e-mails before each address and GPT-2's tokenizer)."""
CONTEXT_MODES = ("context-50", "context-100", "context-200")
PII_MODES = ("0shotattack", "3shotprotect", "3shotattack")
"""The PII settings the reference scores: zero-shot attack, three-shot protect and attack."""
PII_CASES = 100
"""Cases per PII type and mode (the reference's ``dataset_size``)."""
QUESTIONS = (1, 2, 3)
SCORED_QUESTION = 1
"""The understanding question the reference's score reads (``for question_id in [1]``)."""
FRIENDS = ("Serena", "Julia", "Tom", "Mike")


@cache
def templates() -> dict[str, Any]:  # a JSON document: str, lists and dicts
    """The reference's texts (read once)."""
    data: dict[str, Any] = json.loads(TEMPLATES_FILE.read_text(encoding="utf-8"))
    return data


def pii_types() -> tuple[str, ...]:
    """The 12 PII types the reference scores, in its order."""
    return tuple(templates()["pii_types_scored"])


def topics() -> tuple[str, ...]:
    """The eight understanding topics, in the reference's order."""
    return tuple(templates()["understanding_order"])


@dataclass(frozen=True)
class Message:
    """One chat message of a prompt, as the reference sends it."""

    role: str
    content: str


@dataclass(frozen=True)
class PrivacyPrompt:
    """One request and what it is scored against."""

    messages: tuple[Message, ...]
    gt: str
    """Enron: the target's address; PII: the value asked about; understanding: the
    wording of the secret (the reference's ``word``)."""
    name: str = ""
    """Enron: the target's name."""


# --- Enron --------------------------------------------------------------------------------


def _few_shot_file(mode: str) -> str:
    """``five-shot-non-domain-c`` → ``five_shot_non_domain.json`` (the reference's rule)."""
    return mode[:-2].replace("-", "_") + ".json"


def enron_file(mode: str) -> str:
    """The data file a mode's targets (and demonstrations) come from."""
    return "one_shot.json" if "zero-shot" in mode else _few_shot_file(mode)


def enron_prompts(
    mode: str, shots: Mapping[str, Sequence[Sequence[str]]], email2name: Mapping[str, str]
) -> list[PrivacyPrompt]:
    """The prompts of one Enron mode, in the data file's order, the last ``len % 5`` left
    out as the reference's batching leaves them out."""
    letter = mode[-1]
    template = str(templates()["enron_zero_shot"][letter])
    demo = str(templates()["enron_few_shot"][letter])
    known = str(templates()["enron_known_domain"])
    prompts: list[PrivacyPrompt] = []
    for email, supports in shots.items():
        name = email2name[email]
        if mode.startswith("knownzero"):
            text = known.format(email.split("@")[1]) + template.format(name)
        elif mode.startswith("zero"):
            text = template.format(name)
        else:
            text = "".join(demo.format(n, e) for e, n in supports) + template.format(name)
        prompts.append(PrivacyPrompt((Message("user", text),), email, name))
    return prompts[: len(prompts) - len(prompts) % ENRON_BATCH]


# --- PII ----------------------------------------------------------------------------------


def pii_setting(pii_type: str, mode: str) -> str:
    """A PII file's setting name (``phone number_3shotprotect``)."""
    return f"{pii_type}_{mode}"


def _value(rng: random.Random, pii_type: str, email: str) -> str:
    """One person's value, drawn as the reference's generators draw it."""

    def ids(size: int, chars: str) -> str:
        return "".join(rng.choice(chars) for _ in range(size))

    if pii_type == "phone number" or pii_type == "canary number":
        return ids(10, string.digits)
    if pii_type in templates()["pii_ssn_types"]:
        return ids(9, string.digits)
    if pii_type == "email address":
        return email
    if pii_type == "address":
        candidates: list[str] = templates()["addresses"]
        return candidates[rng.choice(list(range(len(candidates))))]
    if pii_type in ("password", "ssh private key", "secret key"):
        return ids(12, string.ascii_uppercase + string.ascii_lowercase + string.digits)
    if pii_type == "credit card number":
        return ids(16, string.digits)
    if pii_type == "passport number":
        return ids(10, string.ascii_uppercase + string.digits)
    if pii_type == "canary code":
        return ids(10, string.ascii_uppercase + string.ascii_uppercase)
    raise ValueError(f"unknown PII type {pii_type!r}")


def pii_prompts(
    five_shot: Mapping[str, Sequence[Sequence[str]]],
    pii_type: str,
    mode: str,
    cases: int = PII_CASES,
) -> list[PrivacyPrompt]:
    """The cases of one PII type and mode (``0shotattack``, ``3shotprotect`` …)."""
    k = int(mode[0])
    protect = mode.endswith("protect")
    rng = random.Random(0)  # the reference's ``random.seed(0)``, anew for each file
    system = str(templates()["pii_system"]).format(pii_type)
    context, question = str(templates()["pii_context"]), str(templates()["pii_question"])
    refusal = str(templates()["pii_protection_answer"]).format(pii_type)
    prompts: list[PrivacyPrompt] = []
    for supports in five_shot.values():
        if len(prompts) == cases:
            break
        names = [str(name) for _, name in supports]
        values = [_value(rng, pii_type, str(email)) for email, _ in supports]
        if names[k] in names[:k]:
            continue  # the reference skips a case whose person was already named
        messages = [
            Message("system", system),
            Message("user", "".join(context.format(n, pii_type, v) for n, v in zip(names, values, strict=True))),
        ]  # fmt: skip
        for i in range(k):
            messages.append(Message("user", question.format(names[i], pii_type)))
            messages.append(Message("assistant", refusal if protect else values[i]))
        messages.append(Message("user", question.format(names[k], pii_type)))
        prompts.append(PrivacyPrompt(tuple(messages), values[k], names[k]))
    return prompts


# --- understanding ------------------------------------------------------------------------


def understanding_setting(topic: str, question: int) -> str:
    """An understanding file's setting name (``divorce_q1``)."""
    return f"{topic}_q{question}"


def understanding_prompts(topic: str, question: int) -> list[PrivacyPrompt]:
    """The 17 wordings of one topic's secret with one question, in the reference's order."""
    secret_text, q2_text = templates()["understanding_topics"][topic]
    friend = FRIENDS[3]
    asked = str(templates()["understanding_questions"][str(question)])
    text = asked.format(friend, q2_text) if question == 2 else asked.format(friend)
    prompts = []
    for template, word in templates()["understanding_prompts"]:
        secret = str(template).format(*FRIENDS, FRIENDS[0], FRIENDS[1], FRIENDS[2], secret_text)
        prompts.append(PrivacyPrompt((Message("user", f"{secret}\n {text}"),), str(word)))
    return prompts
