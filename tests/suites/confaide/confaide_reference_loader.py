"""Import the verbatim copy of the ConfAIde reference harness without its heavy dependencies.

Why stubs: the reference's eval.py imports torch, colorful and its model agents at module
level, none of which its prompt building or scoring uses. Tiny stand-ins are placed in
``sys.modules`` for the duration of the import only, so the copy runs unchanged.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

REFERENCE_FILE = Path(__file__).parent / "reference" / "eval_reference.py"
DATA_DIR = Path(__file__).parents[3] / "src" / "privbench" / "suites" / "confaide" / "data"


class _Dataset:
    """Stand-in for ``torch.utils.data.Dataset`` (the reference only subclasses it)."""


def _stub_modules() -> dict[str, ModuleType]:
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch.utils")
    data = types.ModuleType("torch.utils.data")
    data.Dataset = _Dataset  # type: ignore[attr-defined]
    data.DataLoader = object  # type: ignore[attr-defined]
    utils.data = data  # type: ignore[attr-defined]
    torch.utils = utils  # type: ignore[attr-defined]
    colorful = types.ModuleType("colorful")
    colorful.use_true_colors = lambda: None  # type: ignore[attr-defined]
    colorful.use_style = lambda _style: None  # type: ignore[attr-defined]
    agents = types.ModuleType("agents")
    gpt = types.ModuleType("agents.gpt")
    gpt.GPT3BaseAgent = object  # type: ignore[attr-defined]
    gpt.ConversationalGPTBaseAgent = object  # type: ignore[attr-defined]
    huggingface = types.ModuleType("agents.huggingface")
    agents.gpt = gpt  # type: ignore[attr-defined]
    agents.huggingface = huggingface  # type: ignore[attr-defined]
    return {
        "torch": torch,
        "torch.utils": utils,
        "torch.utils.data": data,
        "colorful": colorful,
        "agents": agents,
        "agents.gpt": gpt,
        "agents.huggingface": huggingface,
    }


def load_reference() -> ModuleType:
    """The reference module, imported with stubs that are removed again afterwards."""
    stubs = _stub_modules()
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    try:
        spec = importlib.util.spec_from_file_location("confaide_eval_reference", REFERENCE_FILE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
    return module


@contextmanager
def reference_workdir(tmp: Path) -> Iterator[Path]:
    """Run inside ``tmp`` with ``benchmark/`` pointing at privbench's shipped copy.

    Why: the reference opens ``benchmark/tier_*.txt`` relative to the working directory.
    """
    (tmp / "benchmark").symlink_to(DATA_DIR, target_is_directory=True)
    previous = Path.cwd()
    os.chdir(tmp)
    try:
        yield tmp
    finally:
        os.chdir(previous)


def reference_agent(
    module: ModuleType,
    *,
    tier: str,
    n_samples: int = 1,
    tier_3_questions: str = "free-response,info-accessibility,privacy-sharing,control",
    tier_4_questions: str = "meeting-summary,action-item",
    add_privacy_prompt: bool = True,
    tier_3_metrics: str = "string-match",
    model: str = "m",
) -> Any:
    """An ``EvalAgent`` without a model (``load_model`` is never called) and its dataset."""
    args = SimpleNamespace(
        model=model,
        n_samples=n_samples,
        tier_3_questions=tier_3_questions,
        tier_4_questions=tier_4_questions,
        add_privacy_prompt=add_privacy_prompt,
        tier_3_metrics=tier_3_metrics,
        prompt_header="",
        data_tier=tier,
    )
    module.args = args  # type: ignore[attr-defined]  # upstream sets it in __main__
    agent = module.EvalAgent.__new__(module.EvalAgent)
    agent.args = args
    agent.prompt_header = ""
    agent.data_tier = tier
    agent.dataset = agent.load_dataset(tier)
    return agent


def write_reports_to(module: ModuleType, directory: Path) -> None:
    """Where the reference's ``make_report`` writes (upstream: ``./eval_results``)."""
    module.EVAL_DIR_PATH = str(directory)  # type: ignore[attr-defined]
