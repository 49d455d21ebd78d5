"""``privbench generate priviq``: a Priv-IQ-format suite in the release layout.

Items are built by the family of their competency combination
(:mod:`~privbench.priviq.generate.families`), in counts from
:func:`~privbench.priviq.generate.plan.allocate` (Table 1 exactly for 146). Each item has
its own random stream derived from the seed and its index, so the same ``n`` and ``seed``
give byte-identical files; multilingual items cycle through seven languages.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from privbench.generate.identities import LANGUAGE_NAMES
from privbench.generate.writing import dump_json, prepare, save_png
from privbench.priviq.dataset import DATASET_FILE
from privbench.priviq.generate.families import FAMILIES, MULTILINGUAL
from privbench.priviq.generate.plan import allocate

MANIFEST = "suite.json"


def generate_priviq(n: int, seed: int, out: Path, *, force: bool = False) -> Path:
    """Write ``n`` items generated from ``seed`` into ``out`` (``priv-IQ.json`` + images)."""
    images = prepare(out, DATASET_FILE, force)
    order = [combo for combo, count in allocate(n).items() for _ in range(count)]
    random.Random(f"priviq-order:{seed}").shuffle(order)
    dataset: dict[str, dict[str, object]] = {}
    families: Counter[str] = Counter()
    languages: Counter[str] = Counter()
    multilingual = 0
    for index, combination in enumerate(order):
        rng = random.Random(f"priviq:{seed}:{index}")
        language = "en"
        if "MultLing" in combination:
            language = MULTILINGUAL[(seed + multilingual) % len(MULTILINGUAL)]
            multilingual += 1
        item = FAMILIES[combination](rng, language)
        item_id = f"v1_{index}"
        save_png(item.image, images / f"{item_id}.png")
        dataset[item_id] = {
            "imagename": f"{item_id}.png",
            "question": item.question,
            "answer": item.answer,
            "capability": list(combination),
        }
        families[item.family] += 1
        languages[LANGUAGE_NAMES[item.language]] += 1
    dump_json(dataset, out / DATASET_FILE)
    dump_json(
        {
            "generator": "privbench generate priviq",
            "n": n,
            "seed": seed,
            "families": dict(sorted(families.items())),
            "languages": dict(sorted(languages.items())),
        },
        out / MANIFEST,
    )
    return out
