# mypy: ignore-errors
"""Render VLM-GeoPrivacyBench's prompts with the reference's own ``src/utils.py``.

Why this exists: privbench's geoprivacy prompt builder must produce the reference's prompts
byte for byte, and the only trustworthy source for those bytes is the reference's own
``utils.prepare_question_prompt`` (plus the judge / place-name / iterative-follow-up messages
that ``utils.extract_granularity``, ``utils.extract_location_name_llm`` and
``utils.call_api_iterative`` build inline). This script exports ``src/`` at the pinned
commit, imports ``utils`` with the same stub modules as ``geoprivacy_reference.py`` (no SDK,
no network), replaces ``utils.call_api`` with a recorder so the inline messages are captured
exactly as the reference would send them, and writes the fixture
``tests/data/geoprivacy/reference_prompts.json``::

    {"<case>": {"system": ..., "user": ..., "parts": [...], "call": ...}, "_source": {...}}

``user`` is the returned list joined with ``"\\n"``, as ``api_gen.py`` l.131 does. ``gen.py``
(open models, vLLM) joins the same list differently: ``"".join(usr_msgs)`` for the Llama-3.2,
Qwen2.5-VL, Gemma-3 and InternVL templates (gen.py l.69, 86, 102, 128) and one
``"<|User|>:" + part`` per part for deepseek-vl2 (l.54); it always calls
``prepare_question_prompt`` with ``enforce_format=True`` and never with ``q7_only`` (l.184-186).
The ``enforce_format=True`` case therefore also carries ``user_gen_py`` (the ``""`` join).

The prompt texts are CC BY 4.0 per the dataset card. ``utils.py`` imports numpy and pandas
at module level, so run it with a Python 3.11+ that has both (privbench's venv, or the
throwaway one described in ``geoprivacy_reference.py``)::

    python bench/reference/geoprivacy_render.py GIT_DIR tests/data/geoprivacy/reference_prompts.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from geoprivacy_reference import (
    COMMIT,
    REPO,
    export_tree,
    import_reference,
    install_stubs,
)

JUDGE_TEXT = "Los Angeles, CA, USA"

# (case, mode, is_free_form, include_heuristics, enforce_format, q7_only)
PROMPT_CASES: list[tuple[str, str, bool, bool, bool, bool]] = [
    ("mcq_heuristics", "zs", False, True, False, False),
    ("mcq_heuristics_enforce_format", "zs", False, True, True, False),
    ("mcq_no_heuristics", "zs", False, False, False, False),
    ("q7_only_heuristics", "zs", False, True, False, True),
    ("q7_only_no_heuristics", "zs", False, False, False, True),
    ("free_form_zs", "zs", True, False, False, False),
    ("free_form_iter_cot", "iter-cot", True, False, False, False),
    ("free_form_malicious", "malicious", True, False, False, False),
]


class CallRecorder:
    """Stands in for ``utils.call_api``: keeps (model, system, user) and returns a reply."""

    def __init__(self) -> None:
        self.calls: list[dict[str, str]] = []

    def __call__(
        self, client: Any, model_name: str, sys_msg: str, usr_msg: str, *args: Any, **kwargs: Any
    ) -> str:
        self.calls.append({"model": model_name, "system": sys_msg, "user": usr_msg})
        return "B"


def render(utils: types.ModuleType) -> dict[str, Any]:
    """Every case, rendered by the reference's own functions."""
    out: dict[str, Any] = {}
    for case, mode, free_form, heuristics, enforce, q7_only in PROMPT_CASES:
        system, parts = utils.prepare_question_prompt(mode, free_form, heuristics, enforce, q7_only)
        entry: dict[str, Any] = {
            "system": system,
            "user": "\n".join(parts),
            "parts": list(parts),
            "call": (
                f"utils.prepare_question_prompt({mode!r}, is_free_form={free_form}, "
                f"include_heuristics={heuristics}, enforce_format={enforce}, q7_only={q7_only})"
            ),
        }
        if enforce:
            entry["user_gen_py"] = "".join(parts)
        out[case] = entry

    recorder = CallRecorder()
    original_call_api = utils.call_api
    original_extract_granularity = utils.extract_granularity
    utils.call_api = recorder
    try:
        # utils.py l.488-494: the judge call extract_granularity makes for a non-refusal text.
        assert utils.extract_granularity(JUDGE_TEXT, client=object()) == "B"
        (judge,) = recorder.calls
        out["granularity_judge"] = {
            **judge,
            "call": f"utils.extract_granularity({JUDGE_TEXT!r}, client=...) -> utils.call_api",
        }
        # utils.py l.734-741: the place-name extraction request used before geocoding.
        recorder.calls.clear()
        utils.extract_location_name_llm(JUDGE_TEXT, client=object())
        (extraction,) = recorder.calls
        out["location_name_extraction"] = {
            **extraction,
            "call": f"utils.extract_location_name_llm({JUDGE_TEXT!r}, client=...) -> utils.call_api",
        }
        # utils.py l.444-458: the iterative follow-ups, driven by scripted judge labels
        # A, B, D (the last stands for any label other than A/B/C).
        recorder.calls.clear()
        labels = iter(["A", "B", "D", "C"])
        utils.extract_granularity = lambda *a, **k: next(labels)
        system, parts = utils.prepare_question_prompt("iter-cot", True, False, False, False)
        utils.call_api_iterative(object(), "MODEL", system, "\n".join(parts))
        first, *followups = recorder.calls
        assert first["user"] == out["free_form_iter_cot"]["user"] and len(followups) == 3
        for label, call in zip(["A", "B", "other"], followups, strict=True):
            out[f"iter_cot_followup_after_{label}"] = {
                "system": call["system"],
                "user": call["user"],
                "call": f"utils.call_api_iterative(...) after the judge answered {label}",
            }
    finally:
        utils.call_api = original_call_api
        utils.extract_granularity = original_extract_granularity
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", help="git directory of the fetched reference snapshot")
    parser.add_argument("out_file", help="the JSON fixture to write")
    args = parser.parse_args()
    git_dir = os.path.abspath(args.git_dir)
    target = Path(args.out_file).resolve()

    install_stubs()
    with tempfile.TemporaryDirectory(prefix="geoprivacy-render-") as tmp:
        root = Path(tmp)
        export_tree(git_dir, root, ["src"])
        utils = import_reference(root, "utils")
        cases = render(utils)

    fixture = {
        "_source": {
            "repo": REPO,
            "commit": COMMIT,
            "script": "bench/reference/geoprivacy_render.py",
            "functions": (
                "src/utils.py prepare_question_prompt, extract_granularity, "
                "extract_location_name_llm, call_api_iterative (call_api recorded, not called)"
            ),
            "user_join": (
                "'user' = parts joined with '\\n' (api_gen.py l.131). gen.py joins with '' "
                "(Llama-3.2/Qwen2.5-VL/Gemma-3/InternVL) or prefixes '<|User|>:' to each part "
                "(deepseek-vl2), always with enforce_format=True and without q7_only"
            ),
            "license": "prompt texts CC BY 4.0 per the VLM-GeoPrivacyBench dataset card",
        },
        **cases,
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target} ({len(cases)} cases)", file=sys.stderr)


if __name__ == "__main__":
    main()
