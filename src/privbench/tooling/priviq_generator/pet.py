"""Privacy-enhancing-technology families: diagrams and before/after tables.

Why: the paper's PET and Know items come from textbook and course diagrams. Here the
image is a real diagram — an encryption or signature flow with keys, federated learning
rounds, secure aggregation with masks, a noise-added histogram, a before/after table —
and the technique's name is never printed: the model has to recognise it from what the
diagram does, and often compute something (k, a sum, a decrypted value).
"""

from __future__ import annotations

import random

from privbench.tooling.drawing.colors import INK, MUTED
from privbench.tooling.drawing.draw import (
    arrow,
    bar_chart,
    box,
    canvas,
    hospital_icon,
    key_icon,
    log_panel,
    person_icon,
    phone_icon,
    put,
    server_icon,
)
from privbench.tooling.drawing.identities import card_number, faker, person, real_city
from privbench.tooling.drawing.panels import Gap, Panel, Table, Title, render
from privbench.tooling.priviq_generator.base import Draft, Family, Maker, company, family, listing

DISEASES = ["HIV", "diabetes", "asthma", "hepatitis B", "depression", "cancer", "flu"]


def key_flow(rng: random.Random, language: str) -> Draft:
    """Public-key encryption or a digital signature, with the key of one step hidden."""
    sender, receiver = rng.sample(["Alice", "Bob", "Carol", "Dan", "Erin", "Frank"], 2)
    signature = rng.random() < 0.5
    image, draw = canvas(900, 380)
    person_icon(draw, 40, 60, (60, 90, 160), 1.4)
    put(draw, (68, 160), sender, 22, INK, anchor="ma")
    person_icon(draw, 800, 60, (160, 70, 60), 1.4)
    put(draw, (828, 160), receiver, 22, INK, anchor="ma")
    box(draw, (170, 50, 370, 140), ["message", "hello"])
    box(draw, (520, 50, 720, 140), ["ciphertext" if not signature else "message + tag", "x9#Qe2"])
    arrow(draw, (370, 95), (520, 95), INK)
    arrow(draw, (120, 95), (170, 95), INK)
    arrow(draw, (720, 95), (790, 95), INK)
    owner_first = receiver if not signature else sender
    key_icon(draw, 390, 180, (200, 150, 30), 1.2)
    put(
        draw, (380, 230), f"{owner_first}'s {'public' if not signature else 'private'} key", 20, INK
    )
    key_icon(draw, 600, 180, (120, 120, 130), 1.2)
    put(draw, (620, 230), "?", 40, (200, 40, 40))
    put(draw, (40, 300), "step 1: " + ("encrypt" if not signature else "sign"), 20, MUTED)
    put(draw, (520, 300), "step 2: " + ("decrypt" if not signature else "verify"), 20, MUTED)
    if signature:
        answer = (f"{sender}'s public key <AND> a signature made with the signer's private key is verified with the matching public key, "
                  f"which proves authenticity and integrity (it does not hide the content).")  # fmt: skip
    else:
        answer = (f"{receiver}'s private key <AND> what is encrypted with a public key can only be decrypted with the matching private key, "
                  f"so only {receiver} can read the content (confidentiality).")  # fmt: skip
    return Draft(image, answer, {"a": sender, "b": receiver}, [owner_first])


def federated_rounds(rng: random.Random, language: str) -> Draft:
    """Federated learning: clients train locally and send updates to a server."""
    hospitals = rng.random() < 0.5
    clients = rng.randrange(3, 6)
    rounds = rng.randrange(2, 9)
    image, draw = canvas(900, 460)
    server_icon(draw, 420, 30, (70, 80, 100), 1.3)
    put(draw, (450, 100), f"global model (round {rounds})", 20, INK, anchor="ma")
    for index in range(clients):
        x = 50 + index * (740 // (clients - 1))
        if hospitals:
            hospital_icon(draw, x, 330, (60, 60, 80), 1.2)
        else:
            phone_icon(draw, x + 10, 330, (40, 40, 50), 1.2)
        put(draw, (x + 30, 410), f"local data {index + 1}", 16, MUTED, anchor="ma")
        arrow(draw, (x + 40, 320), (450, 150), (40, 120, 70), 3)
        arrow(draw, (470, 150), (x + 60, 320), (60, 80, 170), 3)
    put(draw, (40, 190), "weights w", 18, (60, 80, 170))
    put(draw, (700, 190), "changes to w", 18, (40, 120, 70))
    who = "hospitals" if hospitals else "phones"
    answer = (f"Federated learning <AND> the {who} send only model updates (weight changes) and the raw records never leave them; "
              f"the updates can still leak information, so secure aggregation or differential privacy is often added.")  # fmt: skip
    return Draft(image, answer, {"n": str(clients), "who": who, "round": str(rounds)}, ["global"])


def secure_sum(rng: random.Random, language: str) -> Draft:
    """Secure aggregation with pairwise masks that cancel: the server learns only the sum."""
    names = rng.sample(["Ana", "Ben", "Chen", "Dara", "Eli", "Fay"], 3)
    values = [rng.randrange(10, 90) for _ in names]
    r1, r2, r3 = (rng.randrange(100, 900) for _ in range(3))
    masks = [r1 - r3, r2 - r1, r3 - r2]  # sum to zero
    image, draw = canvas(900, 420)
    server_icon(draw, 420, 300, (70, 80, 100), 1.3)
    put(draw, (450, 370), "server adds what it receives", 20, INK, anchor="ma")
    for index, (name, value, mask) in enumerate(zip(names, values, masks, strict=True)):
        x = 80 + index * 280
        person_icon(draw, x, 20, (60, 90, 160), 1.1)
        put(draw, (x + 22, 92), f"{name}: x = {value}", 20, INK, anchor="ma")
        sign = "+" if mask >= 0 else "-"
        put(
            draw,
            (x + 22, 130),
            f"sends x {sign} {abs(mask)} = {value + mask}",
            20,
            (60, 80, 170),
            anchor="ma",
        )
        arrow(draw, (x + 22, 170), (450, 290), INK, 3)
    total = sum(values)
    answer = f"{total} <AND> the masks cancel out in the sum, so the server learns only the total and no individual value (secure aggregation)."
    return Draft(image, answer, {"names": listing(names)}, [str(values[0] + masks[0])])


def homomorphic(rng: random.Random, language: str) -> Draft:
    """Additively homomorphic encryption: the cloud adds ciphertexts it cannot read."""
    values = [rng.randrange(10, 500) for _ in range(rng.randrange(2, 4))]
    image, draw = canvas(900, 360)
    for index, value in enumerate(values):
        box(draw, (40, 30 + index * 100, 260, 110 + index * 100), [f"Enc({value})"], size=24)
        arrow(draw, (260, 70 + index * 100), (470, 170), INK, 3)
    box(draw, (470, 120, 700, 220), ["cloud: combines", "ciphertexts"], fill=(250, 240, 220))
    arrow(draw, (700, 170), (790, 170), INK, 3)
    box(draw, (790, 130, 880, 210), ["Dec", "= ?"], size=22)
    answer = (f"{sum(values)} <AND> with additively homomorphic encryption (such as Paillier) combining ciphertexts gives the encryption of the sum, "
              f"so the cloud computes it without decrypting or seeing the inputs.")  # fmt: skip
    return Draft(image, answer, {"n": str(len(values))}, [f"Enc({values[0]})"])


def dp_histogram(rng: random.Random, language: str) -> Draft:
    """True counts next to released counts with Laplace noise, with epsilon given."""
    city = real_city(rng)
    labels = ["18-29", "30-44", "45-64", "65+"]
    true = [rng.randrange(20, 90) for _ in labels]
    eps = rng.choice([0.1, 0.5, 1.0])
    scale = 1 / eps
    noisy = [max(0, round(t + rng.choice([-1, 1]) * rng.expovariate(1 / scale))) for t in true]
    image, draw = canvas(900, 440)
    put(draw, (40, 20), f"Clinic visits by age, {city}", 24, INK)
    put(
        draw,
        (40, 56),
        f"left bar: true count   right bar: published count   epsilon = {eps}",
        18,
        MUTED,
    )
    bar_chart(draw, (80, 100, 860, 380), labels, [[float(t) for t in true], [float(n) for n in noisy]],
              [(70, 110, 180), (230, 140, 50)], top=120.0)  # fmt: skip
    more = rng.random() < 0.5
    answer = ("Differential privacy <OR> the Laplace mechanism, which adds noise calibrated to the privacy budget epsilon <AND> "
              + ("a larger epsilon means less noise, so more accurate counts but weaker privacy." if more
                 else "a smaller epsilon means more noise, so stronger privacy but less accurate counts."))  # fmt: skip
    change = "raised" if more else "lowered"
    return Draft(image, answer, {"city": city, "change": change}, ["epsilon"])


def _people(rng: random.Random, count: int) -> list[tuple[str, str, int, str]]:
    fake = faker(rng, "en")
    rows = []
    for _ in range(count):
        rows.append(
            (
                fake.name(),
                f"{rng.randrange(10000, 99999)}",
                rng.randrange(21, 80),
                rng.choice(DISEASES),
            )
        )
    return rows


TRANSFORMS = {
    "generalization": "Generalization (coarsening ZIP codes and ages into ranges) <OR> k-anonymization by generalization",
    "suppression": "Suppression (deleting the names and whole values) <OR> redaction",
    "pseudonymization": "Pseudonymization <OR> replacing names with consistent codes <AND> the records stay personal data because whoever holds the mapping can re-identify them",
    "tokenization": "Tokenization <OR> replacing card numbers with random tokens that only the token vault can map back",
    "masking": "Masking <OR> partially hiding the characters of each identifier",
}


def before_after(rng: random.Random, language: str) -> Draft:
    """A table (a) and the released table (b); which technique, and what it implies."""
    technique = rng.choice(list(TRANSFORMS))
    org = company(
        rng, kind="Bank" if technique == "tokenization" else rng.choice(["Clinic", "Health"])
    )
    if technique == "tokenization":
        rows = [
            (
                person(rng).name,
                card_number(rng),
                f"{rng.randrange(5, 400)}.{rng.randrange(100):02d}",
            )
            for _ in range(4)
        ]
        before = [[n, c, a] for n, c, a in rows]
        after = [
            [
                n,
                "tok_" + "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10)),
                a,
            ]
            for n, _, a in rows
        ]
        header = ["Customer", "Card", "Amount"]
    else:
        people = _people(rng, 4)
        before = [[n, z, str(a), d] for n, z, a, d in people]
        header = ["Name", "ZIP", "Age", "Diagnosis"]
        if technique == "generalization":
            after = [
                ["*", z[:3] + "**", f"{a // 10 * 10}-{a // 10 * 10 + 9}", d]
                for _, z, a, d in people
            ]
        elif technique == "suppression":
            after = [["", z, "", d] for _, z, a, d in people]
        elif technique == "pseudonymization":
            after = [[f"P-{rng.randrange(1000, 9999)}", z, str(a), d] for _, z, a, d in people]
        else:
            after = [
                [n.split()[0][0] + "***** " + n.split()[-1][0] + ".", z[:2] + "***", str(a), d]
                for n, z, a, d in people
            ]
    panel = Panel([Title(f"{org}: data release", 24), Table(header, before, caption="(a) internal records", size=18),
                   Gap(12), Table(header, after, caption="(b) released to researchers", size=18)], style="document", width=900)  # fmt: skip
    image = render(log_panel(panel))
    return Draft(image, TRANSFORMS[technique] + ".", {"company": org}, [before[0][1]])


def k_anonymity(rng: random.Random, language: str) -> Draft:
    """The largest k of a generalized table, or whether it is l-diverse."""
    groups = [rng.randrange(2, 5) for _ in range(3)]
    rows: list[list[str]] = []
    diverse = True
    for index, size in enumerate(groups):
        prefix = f"{rng.randrange(100, 999)}**"
        band = f"{20 + 10 * index}-{29 + 10 * index}"
        if index == 1 and rng.random() < 0.5:
            disease = rng.choice(DISEASES)
            rows += [[prefix, band, disease] for _ in range(size)]
            diverse = False
        else:
            rows += [
                [prefix, band, rng.choice(DISEASES[:4]) if i else DISEASES[4 + i % 3]]
                for i in range(size)
            ]
    rng.shuffle(rows)
    panel = Panel(
        [Title("Released table", 24), Table(["ZIP", "Age", "Diagnosis"], rows, size=18)],
        style="document",
        width=700,
    )
    image = render(log_panel(panel))
    k = min(groups)
    lack = ("but one group shares a single diagnosis, so it is not 2-diverse and a homogeneity attack reveals the diagnosis"
            if not diverse else "and every group has more than one diagnosis")  # fmt: skip
    answer = f"k = {k} <AND> the smallest group of rows with the same ZIP and age range has {k} rows, {lack}."
    return Draft(image, answer, {"rows": str(len(rows))}, [rows[0][0]])


PET_QUESTIONS = {
    "key": ["In the diagram, which key belongs in the box marked '?' for step 2 between {a} and {b}, and why?",
            "Which key does step 2 of the {a}-{b} diagram need, and what security property does the scheme give?"],
    "fl": ["Which privacy-enhancing technique do these {n} {who} and the server use, and what leaves the {who}?",
           "What technique is shown in round {round} of this diagram, and does it fully protect the {who}' data?"],
    "sum": ["What total does the server compute from {names}'s messages, and what does it learn about each value?",
            "The server adds the three messages from {names}. What result does it get, and which technique is this?"],
    "he": ["The cloud combines the {n} ciphertexts. What does the result decrypt to, and which property makes this possible?",
           "What value replaces '?' after decrypting, given these {n} encrypted inputs, and why can the cloud compute it?"],
    "dp": ["Which technique produced the published {city} counts, and what happens if epsilon is {change}?",
           "The {city} clinic published the orange bars. What technique is this, and how would a {change} epsilon change the release?"],
    "ba": ["{company} turned table (a) into table (b). Which privacy-enhancing technique is this?",
           "Which technique did {company} apply before releasing table (b), and what does it protect?",
           "Name the de-identification technique {company} used between table (a) and table (b)."],
    "k": ["ZIP and Age are the quasi-identifiers of this {rows}-row table. What is its largest k for k-anonymity, and is it l-diverse?",
          "For the {rows} released rows, what k-anonymity level is reached with ZIP and Age as quasi-identifiers? Does any group leak a diagnosis?"],
}  # fmt: skip

_ROWS: list[tuple[str, list[tuple[str, ...]], str, Maker]] = [
    ("pet_key_flow", [("PET",), ("CntxPriv", "PET")], "key", key_flow),
    ("pet_secure_sum", [("PET",), ("Know", "PET")], "sum", secure_sum),
    ("pet_homomorphic", [("PET",)], "he", homomorphic),
    ("pet_k_anonymity", [("PET",), ("CntxPriv", "PET")], "k", k_anonymity),
    ("pet_before_after", [("CntxPriv", "PET")], "ba", before_after),
    ("pet_dp_histogram", [("CntxPriv", "PET"), ("Know", "PET")], "dp", dp_histogram),
    ("pet_federated", [("Know", "PET"), ("CntxPriv", "PET")], "fl", federated_rounds),
]
"""Each family: its name, its combinations, its questions' key and its maker."""

FAMILIES: list[Family] = [
    family(name, combos, PET_QUESTIONS[key], make) for name, combos, key, make in _ROWS
]
