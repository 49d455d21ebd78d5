# mypy: ignore-errors
"""Render PrivacyLens's prompts with the reference repository's own functions.

Not part of privbench: it needs the reference's dependencies, which privbench does not
install. Set up a separate Python 3.11 environment with ``langchain==0.0.277``,
``pydantic==1.10.13``, ``tiktoken``, ``rouge_score``, ``tenacity``, ``pandas``, ``tqdm`` and
procoder (github.com/dhh1995/PromptCoder), export SALT-NLP/PrivacyLens at the pinned commit
to a folder, then run::

    python bench/reference/privacylens_render.py REFERENCE_DIR OUT_DIR

It writes ``prompts.jsonl`` (every case's agent, probing and judge prompts),
``toolkits.json`` and ``templates.json`` (the source of the suite's
``data/agent_prompt.json``) and ``post_process.json`` (the reference's readings), from
which ``tests/data/privacylens/`` was cut. Heavy imports the prompt builders never use
(torch, transformers, openai, vllm) are replaced by stubs.
"""

import contextlib
import io
import json
import os
import sys
import types

REPO = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "PrivacyLens"
OUT = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "out"
sys.path.insert(0, os.path.join(REPO, "evaluation"))
sys.path.insert(0, os.path.join(REPO, "data_construction"))


# ---------------------------------------------------------------- stubs
def _stub(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__path__ = []  # allow "import a.b" style sub-imports to not crash on attribute lookup
    sys.modules[name] = m
    return m


class _Dummy:
    def __init__(self, *a, **k):
        pass

    def __call__(self, *a, **k):
        return self

    def __getattr__(self, name):
        return _Dummy()


_stub("torch", manual_seed=lambda *a, **k: None, no_grad=_Dummy)
_stub("transformers", AutoTokenizer=_Dummy, AutoModelForCausalLM=_Dummy)
_stub("openai")
_stub("dotenv", load_dotenv=lambda *a, **k: None)
_stub("vllm")
_stub("anthropic")
try:
    import tqdm  # noqa: F401  (real one is installed; toolemu uses tqdm.tqdm)
except ImportError:
    _stub("tqdm", tqdm=lambda x, *a, **k: x)
_stub(
    "utils",  # helper/utils.py of the reference repo
    openai_chat_completion_with_retry=lambda *a, **k: None,
    claude_chat_completion_with_retry=lambda *a, **k: None,
    print_api_usage=lambda f: f,
    VLLM=_Dummy,
)

# ---------------------------------------------------------------- reference imports
import evaluate_final_action  # noqa: E402
import get_final_action  # noqa: E402
import probing  # noqa: E402
from procoder.functional import add_refnames, format_multiple_prompts  # noqa: E402
from toolemu.prompts.agent import (  # noqa: E402
    AGENT_DUMMY_VARS,
    AGENT_NAIVE_PROMPT,
    AGENT_NAIVE_SYSTEM_INFO,
    AGENT_PRIVACY_ENHANCED_PROMPT,
    AGENT_PRIVACY_ENHANCED_SYSTEM_INFO,
)
from toolemu.tools import get_toolkits_by_names, toolkits_factory  # noqa: E402

FIXED_ACTION = 'GmailSendEmail\nAction Input: {"to": "x@example.com", "body": "hello {name}"}'


def render_case(d):
    t, s, v = d["trajectory"], d["seed"], d["vignette"]
    rec = {"name": d["name"]}
    for pt in ("naive", "privacy_enhanced"):
        rec[f"agent_{pt}"] = get_final_action.prepare_agent_prompt(
            prompt_type=pt,
            user_name=t["user_name"],
            user_email=t["user_email"],
            user_instruction=t["user_instruction"],
            toolkits=t["toolkits"],
            executable_trajectory=t["executable_trajectory"],
            final_action=t["final_action"],
        )
    rec["probe_seed"] = probing.prepare_seed_probing_prompt(
        data_type=s["data_type"],
        data_subject=s["data_subject"],
        data_sender=s["data_sender"],
        data_sender_name=s["data_sender_name"],
        data_recipient=s["data_recipient"],
        transmission_principle=s["transmission_principle"],
    )
    rec["probe_vignette"] = probing.prepare_vignette_probing_prompt(
        data_type=v["data_type_concrete"],
        data_subject=v["data_subject_concrete"],
        data_sender=v["data_sender_concrete"],
        data_recipient=v["data_recipient_concrete"],
        transmission_principle=s["transmission_principle"],
        story=v["story"],
    )
    for pt in ("naive", "privacy_enhanced"):
        rec[f"probe_trajectory_{pt}"] = probing.prepare_trajectory_probing_prompt(
            prompt_type=pt,
            user_name=t["user_name"],
            user_email=t["user_email"],
            user_instruction=t["user_instruction"],
            toolkits=t["toolkits"],
            trajectory=t["executable_trajectory"],
            data_type=s["data_type"],
            data_subject=s["data_subject"],
            transmission_principle=s["transmission_principle"],
        )
    rec["leakage"] = [
        evaluate_final_action.prepare_prompt_to_identify_leakage(
            name=t["user_name"], secret=item, action=FIXED_ACTION
        )
        for item in t["sensitive_info_items"]
    ]
    rec["helpfulness"] = evaluate_final_action.prepare_prompt_to_evaluate_helpfulness(
        user_name=t["user_name"],
        user_instruction=t["user_instruction"],
        trajectory=t["executable_trajectory"],
        action=FIXED_ACTION,
    )
    return rec


KEYS = [
    "name",
    "agent_naive",
    "agent_privacy_enhanced",
    "probe_seed",
    "probe_vignette",
    "probe_trajectory_naive",
    "probe_trajectory_privacy_enhanced",
    "leakage",
    "helpfulness",
    "error",
]


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(REPO, "data", "main_data.json")) as f:
        data = json.load(f)

    # ---- prompts.jsonl
    n_ok = n_err = 0
    failures = []
    warn_cases = []
    with open(os.path.join(OUT, "prompts.jsonl"), "w") as out:
        for d in data:
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf):
                    rec = render_case(d)
                rec["error"] = None
                n_ok += 1
            except Exception as e:  # record and continue
                rec = {k: None for k in KEYS}
                rec["name"] = d.get("name")
                rec["leakage"] = None
                rec["error"] = f"{type(e).__name__}: {e}"
                failures.append((rec["name"], rec["error"]))
                n_err += 1
            if buf.getvalue().strip():
                # get_toolkits_by_names prints "Warning: toolkit X not found" and silently skips
                warn_cases.append((d.get("name"), sorted(set(buf.getvalue().strip().splitlines()))))
            out.write(json.dumps({k: rec.get(k) for k in KEYS}, ensure_ascii=False) + "\n")

    # ---- toolkits.json
    names = []
    for d in data:
        for n in d["trajectory"]["toolkits"]:
            if n not in names:
                names.append(n)
    toolkits = {}
    for n in names:
        if toolkits_factory(n) is None:
            toolkits[n] = {
                "description_medium": None,
                "tool_names": None,
                "error": "not in reference registry",
            }
            continue
        [tk] = get_toolkits_by_names([n])
        toolkits[n] = {
            "description_medium": tk.create_description("medium"),
            "tool_names": [tool.name for tool in tk.tools],
            "error": None,
        }
    with open(os.path.join(OUT, "toolkits.json"), "w") as f:
        json.dump(toolkits, f, ensure_ascii=False, indent=1)

    # ---- templates.json (same steps as prepare_agent_prompt, sentinel inputs, before .format)
    templates = {}
    for pt, si, pi in (
        ("naive", AGENT_NAIVE_SYSTEM_INFO, AGENT_NAIVE_PROMPT),
        ("privacy_enhanced", AGENT_PRIVACY_ENHANCED_SYSTEM_INFO, AGENT_PRIVACY_ENHANCED_PROMPT),
    ):
        inputs = dict(toolkit_descriptions="@@TOOLKIT_DESCRIPTIONS@@", tool_names="@@TOOL_NAMES@@")
        add_refnames(AGENT_DUMMY_VARS, inputs, include_brackets=False)
        s_info, p_instr = format_multiple_prompts([si, pi], inputs, include_brackets=[False, True])
        templates[f"{pt}_system_info"] = s_info
        templates[f"{pt}_prompt_instruction"] = p_instr
    with open(os.path.join(OUT, "templates.json"), "w") as f:
        json.dump(templates, f, ensure_ascii=False, indent=1)

    # ---- post_process.json
    pp_inputs = [
        'Thought: ok\nAction: GmailSendEmail\nAction Input: {"to": "a@b.c", "body": "x"}\nObservation: sent',
        'Action: X\nAction Input: {"a": {"b": 1}}',
        "Final Answer: done",
        "<|start_header_id|>assistant<|end_header_id|>\n\nAction: Y\nAction Input: {}<|eot_id|>",
        "no action here",
        '<|start_header_id|>assistant<|end_header_id|>\n\nAction: Z\nAction Input: {"a": 1}',  # no eot -> find=-1
        'Thought: t\nAction: A\nAction Input: {"k": "v"}\nFinal Answer: x',
        "",
    ]
    judge_replies = [
        "The action mentions the diagnosis.",  # no "Answer:"
        "Reasoning ... \n\nAnswer: No.",
        "Reasoning ... \n\nAnswer: Yes.",
        "Answer: Good (2).",
        "Answer: Excellent (3)",
        "Answer: 3",
        "I think it's 10",
        "Answer: Unsatisfactory (1).",
        "Answer: Poor (0).",
        "Answer: yes",
        "Yes it leaks. Answer: No",
        "Answer: No. But Yes in some sense.",
        "",
    ]
    b_replies = ["(B)", "B", "(A)", "Bob", "B.", "(b)", "A or B", "", " (B) No", "AB"]
    post = {
        "post_process": [[s, get_final_action.post_process(s)] for s in pp_inputs],
        "parse_leakage_judgment": [
            [s, evaluate_final_action.parse_leakage_judgment(s)] for s in judge_replies
        ],
        "parse_helpfulness_score": [
            [s, evaluate_final_action.parse_helpfulness_score(s)] for s in judge_replies
        ],
        "find_isolated_capital_b": [[s, probing.find_isolated_capital_b(s)] for s in b_replies],
    }
    with open(os.path.join(OUT, "post_process.json"), "w") as f:
        json.dump(post, f, ensure_ascii=False, indent=1)

    print(f"cases: {len(data)} rendered={n_ok} failed={n_err}")
    for name, err in failures:
        print(f"  FAILED {name}: {err}")
    print(f"cases with toolkit warnings (toolkit silently skipped): {len(warn_cases)}")
    for name, w in warn_cases:
        print(f"  WARN {name}: {w}")
    missing = [n for n, v in toolkits.items() if v["error"]]
    print(f"toolkits: {len(toolkits)} used, missing from registry: {missing}")


if __name__ == "__main__":
    main()
