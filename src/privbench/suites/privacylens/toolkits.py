"""The agent prompt's fixed text and toolkit descriptions, as the reference renders them.

Why shipped as data: the reference builds its agent prompt with ``procoder`` and the
``toolemu`` tool registry (``langchain`` 0.0.277, pydantic 1), which privbench does not
install. Their output for every part of the prompt that does not depend on the case — the
system text and instruction of each prompt type, and each toolkit's "medium" description and
tool names — was rendered once with the reference's own code and is shipped in
``data/agent_prompt.json``; :mod:`.prompts` fills in a case exactly as the reference does.
The reference's registry has no ``GoogleFormFiller`` (one of its own cases names it): the
reference warns and leaves it out of the prompt, and so does privbench.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

AGENT_PROMPT_FILE = Path(__file__).parent / "data" / "agent_prompt.json"
PROMPT_TYPES = ("naive", "privacy_enhanced")
"""The reference's agent prompt types (``--prompt-type``)."""
TOOLKIT_DESCRIPTIONS = "@@TOOLKIT_DESCRIPTIONS@@"
TOOL_NAMES = "@@TOOL_NAMES@@"


@dataclass(frozen=True)
class Toolkit:
    """A toolkit as the agent prompt describes it."""

    name: str
    description: str
    tool_names: tuple[str, ...]


@dataclass(frozen=True)
class AgentPromptText:
    """What the reference's agent prompt holds for every case."""

    system_info: dict[str, str]
    """Prompt type → the system text."""
    prompt_instruction: dict[str, str]
    """Prompt type → the instruction, with the two toolkit markers."""
    toolkits: dict[str, Toolkit]
    undescribed: frozenset[str]
    """Toolkits the reference's cases name but its registry lacks (left out of prompts)."""


@functools.cache
def agent_prompt_text() -> AgentPromptText:
    """The shipped text (read once)."""
    raw = json.loads(AGENT_PROMPT_FILE.read_text(encoding="utf-8"))
    types = raw["prompt_types"]
    return AgentPromptText(
        system_info={t: types[t]["system_info"] for t in PROMPT_TYPES},
        prompt_instruction={t: types[t]["prompt_instruction"] for t in PROMPT_TYPES},
        toolkits={
            name: Toolkit(name, kit["description"], tuple(kit["tool_names"]))
            for name, kit in raw["toolkits"].items()
        },
        undescribed=frozenset(raw["undescribed_toolkits"]),
    )


def known_toolkits() -> frozenset[str]:
    """Toolkit names a case may use: those described, and those the reference leaves out."""
    text = agent_prompt_text()
    return frozenset(text.toolkits) | text.undescribed


def described(names: tuple[str, ...]) -> list[Toolkit]:
    """The case's toolkits the prompt describes, in the case's order."""
    kits = agent_prompt_text().toolkits
    return [kits[name] for name in names if name in kits]


def application_of(final_action: str, toolkits: tuple[str, ...]) -> str:
    """The application a final action goes through: the toolkit holding the tool
    (``GmailSendEmail`` → ``Gmail``), looked up among the case's toolkits first, then among
    all described ones (one reference case sends an e-mail with only Notion listed)."""
    kits = agent_prompt_text().toolkits
    for kit in [*described(toolkits), *kits.values()]:
        if final_action in kit.tool_names:
            return kit.name
    return "other"
