"""A made-up copy of DecodingTrust's ``data/privacy/enron_data/`` folder, generated for tests.

The real folder holds names and e-mail addresses of real people from the Enron corpus, so it
cannot be shipped or used in tests. This writes the same nine JSON files with the same shapes
and relations, but with invented people (``"Ada Quill"``) at ``.example`` domains:

- ``email2name.json``: address -> name, in a fixed shuffled order (the reference's order is not
  sorted either); ``name2email.json`` its inverse.
- ``email_freq.json``: target address -> int. The *targets* are the people whose domain is
  shared with somebody else; people alone on their domain are in ``email2name`` only (as the
  reference's 39 non-targets, all alone on their domain). Every shot file has the targets as
  keys in this order.
- ``one_shot`` / ``two_shot`` / ``five_shot.json``: target -> k ``[address, name]`` demos from
  the *same* domain (never the target). When the domain has fewer other people than k they
  are drawn with replacement, so ``five_shot`` repeats demo people as the reference's does
  (1,773 of its 3,294 entries): that exercises ``get_pii_messages_k_shot``'s skip of an entry
  whose k-th name already occurred.
- ``*_non_domain.json``: the same, demos from *other* domains.

Domain sizes cycle 6, 3, 2, 1 (12 people: 11 targets, one loner): a domain of 6 gives five
distinct demos, of 3 and 2 repeated ones. Everything comes from ``random.Random(seed)``, so
the folder is the same for the same arguments on every machine.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

FIRST_NAMES = (
    "Ada",
    "Bram",
    "Cleo",
    "Dace",
    "Edda",
    "Fenn",
    "Gilda",
    "Hollis",
    "Ines",
    "Jory",
    "Kestrel",
    "Lorne",
    "Mira",
    "Nyle",
    "Orla",
    "Pell",
)
LAST_NAMES = (
    "Quill",
    "Thistlewood",
    "Marrowby",
    "Fennick",
    "Ashgrove",
    "Bellweather",
    "Coppice",
    "Dunlin",
    "Everby",
    "Gorsedale",
    "Larkmoor",
    "Mossley",
    "Nettlefold",
    "Oakhurst",
    "Pennywhistle",
    "Rookley",
)
DOMAIN_WORDS = (
    "alderbrook",
    "birchfield",
    "cobaltworks",
    "dunmore",
    "elmstead",
    "fallowmere",
    "glenhaven",
    "hartwell",
)
DOMAIN_SIZES = (6, 3, 2, 1)
"""Domain sizes, cycled until every person has a domain (the last one may be smaller)."""
SHOTS = (("one", 1), ("two", 2), ("five", 5))


def _local_part(first: str, last: str, style: int) -> str:
    """A few address styles, as a real directory mixes them."""
    first, last = first.lower(), last.lower()
    return (f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}", f"{first}{last[0]}")[
        style % 4
    ]


def _domain(index: int) -> str:
    word = DOMAIN_WORDS[index % len(DOMAIN_WORDS)]
    suffix = "" if index < len(DOMAIN_WORDS) else str(index // len(DOMAIN_WORDS) + 1)
    return f"{word}{suffix}.example"


def _draw(rng: random.Random, pool: list[tuple[str, str]], k: int) -> list[list[str]]:
    """k demos from ``pool``: distinct when the pool allows, else with replacement."""
    picked = rng.sample(pool, k) if len(pool) >= k else rng.choices(pool, k=k)
    return [[address, name] for address, name in picked]


def write_enron_data(directory: Path, people: int = 12, seed: int = 0) -> Path:
    """Write the nine made-up ``enron_data`` JSON files into ``directory`` and return it."""
    if people < 2:
        raise ValueError("need at least two people for one shared domain")
    if people > len(FIRST_NAMES) * len(LAST_NAMES):
        raise ValueError(f"at most {len(FIRST_NAMES) * len(LAST_NAMES)} invented names")
    rng = random.Random(seed)
    names = rng.sample(list(itertools.product(FIRST_NAMES, LAST_NAMES)), people)
    domains: list[str] = []
    for index, size in enumerate(itertools.cycle(DOMAIN_SIZES)):
        if len(domains) >= people:
            break
        domains.extend([_domain(index)] * min(size, people - len(domains)))
    persons = [
        (f"{_local_part(first, last, n)}@{domain}", f"{first} {last}")
        for n, ((first, last), domain) in enumerate(zip(names, domains, strict=True))
    ]
    rng.shuffle(persons)
    email2name = dict(persons)
    name2email = {name: address for address, name in persons}

    def domain_of(address: str) -> str:
        return address.split("@")[1]

    sizes = {d: domains.count(d) for d in domains}
    targets = [address for address, _ in persons if sizes[domain_of(address)] > 1]
    email_freq = {address: rng.randint(1, 400) for address in targets}
    files: dict[str, object] = {
        "email2name": email2name,
        "name2email": name2email,
        "email_freq": email_freq,
    }
    for word, k in SHOTS:
        known: dict[str, list[list[str]]] = {}
        other: dict[str, list[list[str]]] = {}
        for target in targets:
            same = [p for p in persons if domain_of(p[0]) == domain_of(target) and p[0] != target]
            elsewhere = [p for p in persons if domain_of(p[0]) != domain_of(target)]
            known[target] = _draw(rng, same, k)
            other[target] = _draw(rng, elsewhere, k)
        files[f"{word}_shot"] = known
        files[f"{word}_shot_non_domain"] = other
    directory.mkdir(parents=True, exist_ok=True)
    for stem, content in files.items():
        # json.dumps defaults, one line: how the reference's files are written
        (directory / f"{stem}.json").write_text(json.dumps(content), encoding="ascii")
    return directory
