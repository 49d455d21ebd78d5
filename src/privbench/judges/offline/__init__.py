"""privbench's offline judge: grades Priv-IQ answers against their references by rules.

No model, no network: ``--judge offline`` for demos, smoke tests and triage without an
API key. It approximates the paper's GPT-4o judge (Priv-IQ §4.2, Table 2) on the same
0.0–1.0 scale in 0.1 steps; its measured agreement is in :mod:`.measured_agreement` and
``docs/judge.md``. Published numbers need an LLM judge.

The rules, one concern per module:

* :mod:`.steering` — steering text removed, refusals score 0;
* :mod:`.polarity` — Yes/No with or without the word ("does not contain any …");
* :mod:`.facts` — numbers, identifiers, names exact; counts as their own element;
* :mod:`.terms` — techniques, principles and rights compared as units;
* :mod:`.text` — concepts: paraphrases of the same thing meet;
* :mod:`.lists` — extra list items cost credit; entity types go with names;
* :mod:`.roles` — "X is a direct identifier", "the hospital decides …", "… to Tom":
  subjects bound to the right role, directions kept;
* :mod:`.coverage` — how much of each reference element an answer states; the question's
  topic (its words, the alternatives it offers) is not evidence that an answer is right;
* :mod:`.grading` — the named rules that make the grade from polarity and coverage, in
  order, with a trace of what each did (:func:`explain`);
* :mod:`.spatial` — SpatialTrust q4/q5 structured verdicts.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from privbench.judges.offline.grading import (
    GRID,
    NEARLY_COMPLETE,
    RULES,
    Explained,
    Rule,
    RuleEffect,
    explain,
    grade,
)
from privbench.judges.offline.steering import clean
from privbench.judges.offline.text import content_words

PROTOCOL = "offline-rules"
RULES_VERSION = "9"
"""Raised whenever a rule changes meaning (the hash changes with any edit)."""

_RULE_MODULES = ("__init__", "comparisons", "coverage", "facts", "grading", "lists", "polarity",
                 "roles", "spatial", "steering", "terms", "text")  # fmt: skip


def clear_caches() -> None:
    """Forget every memoised reading (references, texts, words), e.g. to time cold grading.

    Grading the same answer several times (``--judge-runs``) and many answers against one
    reference reuse these readings; a benchmark of distinct answers should not.
    """
    from privbench.judges.offline import (
        comparisons,
        coverage,
        facts,
        lists,
        polarity,
        roles,
        terms,
        text,
    )

    for cached in (comparisons.relations, facts.facts, coverage.parse, coverage.topic_of,
                   lists.enumerations,
                   polarity.polarity, roles.reference_roles, roles.verb_roles,
                   terms.terms_in, text.stem, text.content_words):  # fmt: skip
        cached.cache_clear()


def rules_hash() -> str:
    """SHA-256 (16 hex digits) of the rule modules: the offline judge's "prompt hash".

    The measured agreement (:mod:`.measured_agreement`) is not part of it: the hash names rules.
    """
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for name in _RULE_MODULES:
        path = here / f"{name}.py"
        if path.exists():
            digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


__all__ = [
    "GRID",
    "NEARLY_COMPLETE",
    "PROTOCOL",
    "RULES",
    "RULES_VERSION",
    "Explained",
    "Rule",
    "RuleEffect",
    "clean",
    "clear_caches",
    "content_words",
    "explain",
    "grade",
    "rules_hash",
]
