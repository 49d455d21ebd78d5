"""What the tests share besides fixtures: the ``privbench`` command (in a subprocess or in
this process) and checks of its output (:mod:`helpers.cli`), the names, prompts, small
benchmark directories and scripted replies the tests build on (:mod:`helpers.data`), the
loopback judge/model server (:mod:`helpers.loopback_server`) and the answer styles of the
SpatialTrust reader's corpus (:mod:`helpers.answer_styles`).

Fixtures stay in ``conftest.py``; everything else is imported from here, never from
``conftest`` or from another test module, so a test file can be run, moved or deleted on its
own.
"""

from helpers.cli import (
    all_leaks,
    command,
    error_line,
    leaks,
    no_traceback,
    one_line_error,
    privbench,
    run_validate,
    wait_for,
)
from helpers.data import (
    API_KEY,
    CHECK_PROMPT,
    FINAL,
    FINAL_MARK,
    FOUR_ITEMS,
    HARDENED_TEMPLATE_HASH,
    JUDGE,
    JUDGE_MARK,
    JUDGE_PROMPT,
    MODEL,
    PAPER_TEMPLATE_HASH,
    PERFECT,
    Q_OPTIONS,
    QUESTION_PROMPT,
    RETRY_LINE,
    SELECT_MARK,
    VERDICT,
    VERIFY_MARK,
    item,
    run_options,
    spatial_record,
    write_json,
    write_predictions,
    write_priviq,
    write_spatial,
)

__all__ = [
    "API_KEY",
    "CHECK_PROMPT",
    "FINAL",
    "FINAL_MARK",
    "FOUR_ITEMS",
    "HARDENED_TEMPLATE_HASH",
    "JUDGE",
    "JUDGE_MARK",
    "JUDGE_PROMPT",
    "MODEL",
    "PAPER_TEMPLATE_HASH",
    "PERFECT",
    "QUESTION_PROMPT",
    "Q_OPTIONS",
    "RETRY_LINE",
    "SELECT_MARK",
    "VERDICT",
    "VERIFY_MARK",
    "all_leaks",
    "command",
    "error_line",
    "item",
    "leaks",
    "no_traceback",
    "one_line_error",
    "privbench",
    "run_options",
    "run_validate",
    "spatial_record",
    "wait_for",
    "write_json",
    "write_predictions",
    "write_priviq",
    "write_spatial",
]
