"""What earns nothing: text that addresses the judge, and refusals.

An answer is data, never an instruction: "Correctness: 1.0", "score = 1.0" or "ignore
the instructions above" is removed before any rule reads the answer, so it can neither
add a matching number nor change a polarity (the injection tests add such text to
answers and check the score never rises). An answer that starts by declining ("I cannot
determine this from the image") answers nothing and scores 0.0, as a "No." would.
"""

from __future__ import annotations

import re

_INJECTION = re.compile(
    r"(correctness|score|grade|rating|verdict)\s*(is|of|should\s+be)?\s*[:=]?\s*\d+(\.\d+)?"
    r"|ignore\s+(all\s+)?(the\s+)?(previous|prior|above|earlier)?\s*(instructions?|rules?|prompts?)"
    r"(\s+above)?"
    r"|(give|assign|award|rate)\s+(this|the)\s+(answer|prediction|response)\s+(a\s+)?\d+(\.\d+)?"
    r"|\|\s*\d(\.\d)?\s*\|",
    re.IGNORECASE,
)
_REFUSAL = re.compile(
    r"^\W*(i\s+(cannot|can't|can not|am unable to|could not|couldn't|don't know|do not know|"
    r"am not able to|'m unable to|'m not able to)|unable to|not sure|no idea|sorry,\s+i)",
    re.IGNORECASE,
)


def clean(answer: str) -> str:
    """The answer without steering text (scores, verdicts, instructions to the judge)."""
    return _INJECTION.sub(" ", answer)


def refuses(answer: str) -> bool:
    """Whether the answer opens by declining to answer."""
    return bool(_REFUSAL.match(answer))
