"""All item families of the generated Priv-IQ suite, by competency combination.

A family (:class:`~privbench.tooling.priviq_generator.base.Family`) is data: question templates and
a generator that draws the image and writes the reference answer from what it drew. The
families live by kind of source:

* :mod:`~privbench.tooling.priviq_generator.visual` — photographed objects (VizPriv, with CntxPriv
  or MultLing);
* :mod:`~privbench.tooling.priviq_generator.ner` — social posts, headlines, notices (NER, with
  CntxPriv and MultLing);
* :mod:`~privbench.tooling.priviq_generator.pet` — diagrams and before/after tables (PET);
* :mod:`~privbench.tooling.priviq_generator.law` — scenario documents and screens (Law);
* :mod:`~privbench.tooling.priviq_generator.knowledge` — concepts and risks (Know, PrivRisk).

:data:`FAMILIES` maps each of Table 1's 18 combinations to the families that can build
its items; the suite takes them in turn, so a combination with three items or more is
drawn from at least three families.
"""

from __future__ import annotations

import random

from privbench.suites.priviq.competencies import Combination
from privbench.tooling.priviq_generator import knowledge, law, ner, pet, visual
from privbench.tooling.priviq_generator.base import Family, GeneratedItem, build
from privbench.tooling.priviq_generator.ner import MEETING, MULTILINGUAL

ALL_FAMILIES: list[Family] = [
    *visual.FAMILIES,
    *ner.FAMILIES,
    *pet.FAMILIES,
    *law.FAMILIES,
    *knowledge.FAMILIES,
]


def _by_combination() -> dict[Combination, list[Family]]:
    table: dict[Combination, list[Family]] = {}
    for fam in ALL_FAMILIES:
        for combination in fam.combinations:
            table.setdefault(combination, []).append(fam)
    return table


FAMILIES: dict[Combination, list[Family]] = _by_combination()


def _only_first_question(name: str) -> Family:
    fam = next(f for f in ALL_FAMILIES if f.name == name)
    return Family(fam.name, fam.combinations, fam.questions[-1:], fam.make)


def exposed_document(rng: random.Random, language: str = "en") -> GeneratedItem:
    """A photographed bank card that exposes its holder's data (used by the baseline tests)."""
    return build(visual.BANK_CARD, rng, "en")


def ner_post(rng: random.Random, language: str = "en") -> GeneratedItem:
    """An English post with a picture; the question asks for its named entities."""
    return build(_only_first_question("ner_entity_post"), rng, "en")


def ner_plain(rng: random.Random, language: str = "en") -> GeneratedItem:
    """A headline to tag with BIO labels."""
    return build(_only_first_question("ner_bio_headline"), rng, "en")


__all__ = [
    "ALL_FAMILIES",
    "FAMILIES",
    "MEETING",
    "MULTILINGUAL",
    "Family",
    "GeneratedItem",
    "build",
    "exposed_document",
    "ner_plain",
    "ner_post",
]
