"""Render DecodingTrust privacy prompts with the reference's own builders, on made-up data.

Why this exists: privbench's ``decodingtrust`` prompt builders must produce the reference's
prompts byte for byte, and the only trustworthy source for those bytes is the reference's own
``src/dt/perspectives/privacy/utils.py`` (``load_enron_email_prompts``,
``get_pii_messages_k_shot``, ``get_privacy_understanding_messages``) plus
``privacy_evaluation.py``'s ``MessageConstructor`` and the system-prompt template each config
selects. The real inputs name real people, so the builders are pointed at the made-up folder
of ``tests/helpers/decodingtrust_fixture.py`` (``write_enron_data(people=12, seed=0)``) and
every value in the output comes from it.

The modules are exported and imported as in ``decodingtrust_reference.py`` (``datasets`` and
``dt.chat`` stubbed). Settings are read from the pinned ``src/dt/configs/privacy/*.yaml`` (the
``template`` index picks the system prompt) and recorded in ``_source.configs``. Written
cases::

    "enron/<mode>":                 [{"prompt", "gt-email", "gt-name", "messages"}] x 3
    "pii/<type>/<k>shot<mode>":     {"system", "cases", "items": [{"prompt", "messages", "gt"}] x 2}
    "understanding/<topic>/ques<q>": {"count", "items": [{"prompt", "word", "messages"}] x 3}

``prompt`` is what the runner stores in its output line, ``messages`` what it sends
(``MessageConstructor.get_message``). PII values come from ``random.seed(0)`` before each
(type, k, mode), as the release-era one-process-per-file runs had them (see
``pii_regeneration`` in ``decodingtrust_expected.json``); ``cases`` is how many of the
fixture's five-shot entries survive the builder's repeated-name skip. Needs numpy (imported
by ``result_agg`` through ``privacy_evaluation``)::

    python bench/reference/decodingtrust_render.py GIT_DIR tests/data/decodingtrust/reference_prompts.json
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from decodingtrust_reference import (  # noqa: E402
    COMMIT,
    REPO,
    export_reference,
    git,
    import_reference,
    install_stubs,
)

FIXTURE_MODULE = HERE.parents[1] / "tests" / "helpers" / "decodingtrust_fixture.py"


def load_fixture_writer() -> Any:
    """``write_enron_data`` from the fixture file, loaded by path.

    Importing it as ``helpers.decodingtrust_fixture`` would run ``tests/helpers/__init__.py``,
    which pulls in privbench's test stack; the fixture itself needs only the standard library.
    """
    spec = importlib.util.spec_from_file_location("decodingtrust_fixture", FIXTURE_MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write_enron_data


FIXTURE = {"people": 12, "seed": 0}
ENRON_MODES = (
    *(f"zero-shot-{x}" for x in "abcd"),
    *(f"knownzero-shot-{x}" for x in "abcd"),
    "one-shot-a",
    "five-shot-b",
    "one-shot-non-domain-c",
    "five-shot-non-domain-d",
)
PII_TYPES = ("phone number", "ssn", "canary code", "address", "email address")
PII_SETTINGS = ((0, "attack"), (3, "protect"), (3, "attack"))
TOPICS = ("divorce", "vote")
QUESTIONS = (1, 2, 3)
CONFIG_DIR = "src/dt/configs/privacy"


def read_configs(git_dir: str) -> dict[str, dict[str, Any]]:
    """The scalar settings (and list keys) of every privacy config at the pinned commit."""
    names = git(git_dir, "ls-tree", "--name-only", COMMIT, CONFIG_DIR + "/").decode().split()
    out: dict[str, dict[str, Any]] = {}
    for path in names:
        text = git(git_dir, "show", f"{COMMIT}:{path}").decode()
        text = re.sub(r"#[^\n]*", "", text)  # comments
        settings: dict[str, Any] = {}
        for key, value in re.findall(r"(?m)^(\w+):\s*(.*?)\s*(?=^\w+:|\Z)", text, re.S):
            value = " ".join(value.split())
            try:
                settings[key] = ast.literal_eval(value) if value else None
            except (ValueError, SyntaxError):
                settings[key] = None if value == "null" else value
        settings.pop("personal_infos", None)  # the 23 type strings, in sys_prompts.PII_INFO
        out[Path(path).stem] = settings
    return out


def render(
    privacy: Any,
    utils: Any,
    sys_prompts: Any,
    data: Path,
    configs: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """Build every case with the reference's functions on the fixture folder ``data``."""
    templates = sys_prompts.PROMPT_TEMPLATE
    enron_t = templates[configs["email_extraction_known_zeroshot_a"]["template"]]
    pii_t = templates[configs["pii_zeroshot"]["template"]]
    und_t = templates[configs["understanding_q1"]["template"]]
    out: dict[str, Any] = {}
    enron = privacy.MessageConstructor(
        enron_t["sys_prompt"], enron_t["task_desc"], is_raw_input=True
    )
    for mode in ENRON_MODES:
        prompts, names, emails = utils.load_enron_email_prompts(str(data), mode)
        out[f"enron/{mode}"] = [
            {"prompt": p, "gt-email": e, "gt-name": n, "messages": enron.get_message(p)}
            for p, n, e in list(zip(prompts, names, emails, strict=True))[:3]
        ]
    for pii in PII_TYPES:
        system = pii_t["sys_prompt"].format(pii)
        constructor = privacy.MessageConstructor(system, pii_t["task_desc"])
        for k, mode in PII_SETTINGS:
            random.seed(0)
            with contextlib.redirect_stdout(io.StringIO()):
                dataset, gts = utils.get_pii_messages_k_shot(
                    filename=str(data / "five_shot.json"),
                    k=k,
                    pp=pii,
                    fewshot_type=mode,
                    num_cases=configs["pii_zeroshot"]["dataset_size"],
                )
            out[f"pii/{pii}/{k}shot{mode}"] = {
                "system": system,
                "cases": len(dataset),
                "items": [
                    {"prompt": d, "messages": constructor.get_message(d), "gt": g}
                    for d, g in list(zip(dataset, gts, strict=True))[:2]
                ],
            }
    understanding = privacy.MessageConstructor(und_t["sys_prompt"], und_t["task_desc"])
    for topic in TOPICS:
        for q in QUESTIONS:
            messages, words = utils.get_privacy_understanding_messages(topic, q)
            out[f"understanding/{topic}/ques{q}"] = {
                "count": len(messages),
                "items": [
                    {"prompt": m, "word": w, "messages": understanding.get_message(m)}
                    for m, w in list(zip(messages, words, strict=True))[:3]
                ],
            }
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the fixture folder and the export to a temp dir, render, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("git_dir", help="git directory of an AI-secure/DecodingTrust snapshot")
    parser.add_argument("out_json", type=Path)
    args = parser.parse_args(argv)
    configs = read_configs(args.git_dir)
    with tempfile.TemporaryDirectory(prefix="dt-render-") as tmp:
        root = export_reference(args.git_dir, Path(tmp) / "export")
        data = load_fixture_writer()(Path(tmp) / "enron_data", **FIXTURE)
        install_stubs()
        privacy = import_reference(root, "privacy_evaluation")
        utils = import_reference(root, "utils")
        sys_prompts = import_reference(root, "sys_prompts")
        cases = render(privacy, utils, sys_prompts, data, configs)
    out = {
        "_source": {
            "repo": REPO,
            "commit": COMMIT,
            "script": "bench/reference/decodingtrust_render.py",
            "license": "CC BY-SA 4.0 (DecodingTrust: templates and prompt code)",
            "builders": "src/dt/perspectives/privacy/utils.py, privacy_evaluation.MessageConstructor",
            "data": (
                "made up: tests/helpers/decodingtrust_fixture.py "
                f"write_enron_data(people={FIXTURE['people']}, seed={FIXTURE['seed']})"
            ),
            "pii_seed": "random.seed(0) before each (type, k, mode)",
            "configs": configs,
        },
        **cases,
    }
    args.out_json.parent.mkdir(parents=True, exist_ok=True)
    args.out_json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
