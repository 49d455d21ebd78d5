"""``privbench generate priviq``: a Priv-IQ-format suite in the release layout.

Items are built by the families of their competency combination
(:mod:`~privbench.tooling.priviq_generator.families`), in counts from
:func:`~privbench.suites.priviq.allocation.allocate` (Table 1 exactly for 146). A combination
takes its families in turn (from a seed-dependent start), so one with three items or
more draws on at least three families. Each item has its own random stream derived from
the seed and its index, so the same ``n`` and ``seed`` give byte-identical files; an
item whose (question, answer) pair repeats an earlier one is redrawn from a further
stream. Multilingual items cycle through seven languages. Photographs are stored as
256-colour PNGs (their sensor noise makes full-colour PNGs several times larger).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path

from PIL import Image

from privbench.json_files import dump_json
from privbench.suites.priviq.allocation import allocate
from privbench.suites.priviq.competencies import Combination
from privbench.suites.priviq.dataset import DATASET_FILE, GENERATOR_MANIFEST
from privbench.tooling.drawing.identities import LANGUAGE_NAMES
from privbench.tooling.drawing.writing import prepare, save_png
from privbench.tooling.priviq_generator.base import GeneratedItem, build
from privbench.tooling.priviq_generator.families import FAMILIES, MULTILINGUAL

MANIFEST = GENERATOR_MANIFEST
REDRAWS = 8


def _key(item: GeneratedItem) -> tuple[str, str]:
    return " ".join(item.question.casefold().split()), " ".join(item.answer.casefold().split())


def plan_items(n: int, seed: int) -> list[tuple[Combination, int]]:
    """Each item's combination and its rank among that combination's items."""
    order = [combo for combo, count in allocate(n).items() for _ in range(count)]
    random.Random(f"priviq-order:{seed}").shuffle(order)
    seen: Counter[Combination] = Counter()
    ranked = []
    for combo in order:
        ranked.append((combo, seen[combo]))
        seen[combo] += 1
    return ranked


def generate_items(n: int, seed: int) -> list[tuple[Combination, GeneratedItem]]:
    """The ``n`` items of the suite for ``seed``, in order, without writing anything."""
    start = {combo: random.Random(f"priviq-start:{seed}:{combo}").randrange(len(fams))
             for combo, fams in FAMILIES.items()}  # fmt: skip
    items: list[tuple[Combination, GeneratedItem]] = []
    seen: set[tuple[str, str]] = set()
    multilingual = 0
    for index, (combination, rank) in enumerate(plan_items(n, seed)):
        families = FAMILIES[combination]
        fam = families[(start[combination] + rank) % len(families)]
        language = "en"
        if "MultLing" in combination:
            language = MULTILINGUAL[(seed + multilingual) % len(MULTILINGUAL)]
            multilingual += 1
        item = build(fam, random.Random(f"priviq:{seed}:{index}"), language)
        for attempt in range(REDRAWS):
            if _key(item) not in seen:
                break
            item = build(fam, random.Random(f"priviq:{seed}:{index}:{attempt}"), language)
        seen.add(_key(item))
        items.append((combination, item))
    return items


def save_image(item: GeneratedItem, path: Path) -> None:
    image = item.image
    if item.photo:
        image = image.quantize(256, dither=Image.Dither.NONE)
    save_png(image, path)


def generate_priviq(n: int, seed: int, out: Path, *, force: bool = False) -> Path:
    """Write ``n`` items generated from ``seed`` into ``out`` (``priv-IQ.json`` + images)."""
    images = prepare(out, DATASET_FILE, force)
    dataset: dict[str, dict[str, object]] = {}
    families: Counter[str] = Counter()
    languages: Counter[str] = Counter()
    by_combination: dict[str, set[str]] = defaultdict(set)
    for index, (combination, item) in enumerate(generate_items(n, seed)):
        item_id = f"v1_{index}"
        save_image(item, images / f"{item_id}.png")
        dataset[item_id] = {
            "imagename": f"{item_id}.png",
            "question": item.question,
            "answer": item.answer,
            "capability": list(combination),
        }
        families[item.family] += 1
        languages[LANGUAGE_NAMES[item.language]] += 1
        by_combination[" ".join(combination)].add(item.family)
    dump_json(dataset, out / DATASET_FILE)
    dump_json(
        {
            "generator": "privbench generate priviq",
            "n": n,
            "seed": seed,
            "families": dict(sorted(families.items())),
            "families_by_combination": {k: sorted(v) for k, v in sorted(by_combination.items())},
            "languages": dict(sorted(languages.items())),
        },
        out / MANIFEST,
    )
    return out
