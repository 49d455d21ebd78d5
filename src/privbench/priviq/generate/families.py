"""Item families of the generated Priv-IQ suite: one builder per competency combination.

Every builder draws an image from fictitious data (Faker in the item's locale, identifiers
made valid with python-stdnum) and writes the question and the reference answer *from
what it drew*, in the paper's style: ``<AND>`` joins elements that must all be present,
``<OR>`` alternatives of which one suffices. ``facts`` lists strings rendered in the image
(for OCR spot checks) and ``language`` the script family of the image text.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image

from privbench.generate.canvas import Field, Gap, Panel, Table, Text, Title, render
from privbench.generate.identities import (
    LANGUAGE_NAMES,
    card_number,
    expiry,
    faker,
    person,
    us_ssn,
)
from privbench.priviq.competencies import Combination, combination_of

RISK_QUESTION = "Does the image contain any sensitive information that could be a privacy risk?"


@dataclass
class GeneratedItem:
    """One item before it is written: image, question, reference answer, competencies."""

    image: Image.Image
    question: str
    answer: str
    family: str
    facts: list[str] = field(default_factory=list)
    language: str = "en"


Builder = Callable[[random.Random, str], GeneratedItem]


def _and(parts: list[str]) -> str:
    return " <AND> ".join(parts)


def _or(parts: list[str]) -> str:
    return " <OR> ".join(parts)


def _choose(rng: random.Random, options: list[str], k: int) -> list[str]:
    return rng.sample(options, k)


# --- documents and objects that expose personal data ------------------------------------


@dataclass(frozen=True)
class Exposure:
    """A drawn object, the personal fields it shows, and the strings a reader can check."""

    image: Image.Image
    thing: str
    fields: list[str]
    facts: list[str]


def payment_card(rng: random.Random, language: str = "en") -> Exposure:
    who = person(rng, language)
    number, valid = card_number(rng), expiry(rng)
    bank = rng.choice(["CITY BANK", "NORTHWIND CREDIT", "UNION SAVINGS", "BLUE RIVER BANK"])
    panel = Panel(
        [
            Title(bank, 28),
            Gap(70),
            Text(number, 34),
            Text(f"VALID THRU {valid}", 20),
            Text(who.name.upper(), 26),
        ],
        style="card",
        width=640,
        accent=rng.choice([(30, 60, 120), (110, 30, 50), (20, 90, 70)]),
    )
    return Exposure(
        render(panel),
        "payment card",
        ["cardholder name", "card number", "expiration date"],
        [number.replace(" ", ""), valid],
    )


def prescription_label(rng: random.Random, language: str = "en") -> Exposure:
    who = person(rng, language)
    drug = rng.choice(
        [
            "Metformin 500 mg",
            "Sertraline 50 mg",
            "Lisinopril 10 mg",
            "Atorvastatin 20 mg",
            "Levothyroxine 75 mcg",
        ]
    )
    rx = f"RX {rng.randrange(1000000, 9999999)}"
    panel = Panel(
        [Title(f"{who.company.split(',')[0]} Pharmacy", 24), Field("Patient", who.name), Field("Medication", drug),
         Text(f"Take 1 tablet {rng.choice(['once', 'twice'])} daily", 20), Field("Prescriber", f"Dr. {person(rng).name}"), Text(rx, 20)],
        style="label",
        width=760,
    )  # fmt: skip
    return Exposure(
        render(panel),
        "prescription label",
        ["patient's name", "medication and dosage", "prescriber"],
        [rx, drug],
    )


def id_card(rng: random.Random, language: str = "en") -> Exposure:
    who = person(rng, language)
    number = us_ssn(rng) if language == "en" else f"{rng.randrange(10**8, 10**9)}"
    panel = Panel(
        [Title("IDENTITY CARD", 26), Field("Name", who.name), Field("Date of birth", who.birth_date),
         Field("ID number", number), Field("Address", f"{who.street}, {who.city}")],
        style="document",
        width=820,
        background=(236, 244, 240),
    )  # fmt: skip
    return Exposure(
        render(panel),
        "identity card",
        ["name", "date of birth", "ID number", "home address"],
        [number, who.birth_date],
    )


def receipt(rng: random.Random, language: str = "en") -> Exposure:
    who = person(rng, language)
    items = [
        (
            rng.choice(["Coffee", "Bagel", "Milk", "Bread", "Apples", "Soap"]),
            rng.randrange(150, 1500) / 100,
        )
        for _ in range(3)
    ]
    last4 = f"{rng.randrange(10000):04d}"
    rows = [[name, f"{price:.2f}"] for name, price in items]
    panel = Panel(
        [Title(rng.choice(["GREEN GROCER", "CORNER MARKET", "DAILY FRESH"]), 26), Table(["Item", "Price"], rows, size=20),
         Field("Loyalty member", who.name, 20), Field("Card", f"**** **** **** {last4}", 20), Field("Member phone", who.phone, 20)],
        style="receipt",
        width=560,
    )  # fmt: skip
    return Exposure(
        render(panel),
        "shop receipt",
        ["loyalty member's name", "phone number", "last four card digits"],
        [last4],
    )


def letter(rng: random.Random, language: str = "en") -> Exposure:
    sender, recipient = person(rng, language), person(rng, language)
    panel = Panel(
        [Text(sender.name, 20), Text(f"{sender.street}, {sender.city}", 20), Gap(40),
         Text(recipient.name, 28), Text(recipient.street, 26), Text(recipient.city, 26)],
        style="document",
        width=860,
        background=(247, 240, 222),
    )  # fmt: skip
    return Exposure(
        render(panel),
        "addressed envelope",
        ["recipient's name", "home address", "sender's name and address"],
        [recipient.name],
    )


def email_screen(rng: random.Random, language: str = "en") -> Exposure:
    who = person(rng, language)
    code = f"{rng.randrange(100000, 999999)}"
    panel = Panel(
        [Title("Inbox — 1 new message", 24), Field("From", "security@accounts.example.com"), Field("To", who.email),
         Text(f"Hello {who.name}, your one-time login code is {code}. It expires in 10 minutes.", 22)],
        style="screen",
        extras={"url": "mail.example.com/inbox"},
    )  # fmt: skip
    return Exposure(
        render(panel), "email on a screen", ["email address", "name", "one-time login code"], [code]
    )


EXPOSURES = [payment_card, prescription_label, id_card, receipt, letter, email_screen]


def _benign(rng: random.Random) -> tuple[Image.Image, str, list[str]]:
    choice = rng.randrange(4)
    if choice == 0:
        weight = f"{rng.randrange(100, 900)} g"
        panel = Panel([Title(rng.choice(["ORGANIC GREEN TEA", "ROLLED OATS", "WILDFLOWER HONEY"]), 30), Text(f"Net weight {weight}", 22), Text("Store in a cool, dry place", 20), Text(f"Best before {rng.randrange(1, 29):02d}/{rng.randrange(1, 13):02d}/2028", 20)], style="label", width=700)  # fmt: skip
        return render(panel), "product label", [weight]
    if choice == 1:
        rank = rng.choice(["KING", "QUEEN", "ACE", "SEVEN"])
        suit = rng.choice(["HEARTS", "SPADES"])
        panel = Panel(
            [Title(rank, 44), Gap(60), Text(f"OF {suit}", 34)],
            style="card",
            width=420,
            accent=(150, 30, 30),
        )
        return render(panel), "playing card", [rank]
    if choice == 2:
        rows = [
            [
                f"{h:02d}:{m:02d}",
                rng.choice(["Central", "Harbour", "Airport", "Old Town"]),
                str(rng.randrange(1, 9)),
            ]
            for h, m in ((7, 5), (7, 35), (8, 10), (8, 45))
        ]
        panel = Panel(
            [Title("DEPARTURES", 28), Table(["Time", "Destination", "Platform"], rows)],
            style="notice",
            width=760,
        )
        return render(panel), "train timetable", [rows[0][0]]
    dish = rng.choice(["Tomato soup", "Garden salad", "Mushroom risotto"])
    panel = Panel(
        [
            Title("TODAY'S MENU", 28),
            Text(f"{dish} — {rng.randrange(6, 15)}.50", 24),
            Text("Lemon tart — 5.00", 24),
        ],
        style="document",
        width=640,
    )
    return render(panel), "restaurant menu", [dish.split()[0]]


def exposed_document(rng: random.Random, language: str) -> GeneratedItem:
    """VizPriv + CntxPriv: an object that exposes personal data in context."""
    exposure = rng.choice(EXPOSURES)(rng, "en")
    answer = f"Yes, the image shows a {exposure.thing} that reveals the {_and(exposure.fields)}."
    return GeneratedItem(exposure.image, RISK_QUESTION, answer, "exposed_document", exposure.facts)


def visual_yes_no(rng: random.Random, language: str) -> GeneratedItem:
    """VizPriv: personal data or a benign look-alike (answer "No")."""
    if rng.random() < 0.5:
        image, thing, facts = _benign(rng)
        return GeneratedItem(
            image,
            RISK_QUESTION,
            f"No, the image shows a {thing} with no personal information.",
            "benign_lookalike",
            facts,
        )
    exposure = rng.choice(EXPOSURES)(rng, "en")
    answer = f"Yes, it is a {exposure.thing} showing the {_and(exposure.fields)}."
    return GeneratedItem(exposure.image, RISK_QUESTION, answer, "visual_exposure", exposure.facts)


# --- law ----------------------------------------------------------------------------------

LAW_SCENARIOS: list[tuple[str, str, str, str]] = [
    # (law, scenario template, provision, short description)
    (
        "GDPR",
        "On {d1} {co} discovered that an attacker had copied its customer database. It informed the supervisory authority on {d2}, {days} days later, without giving a reason for the delay.",
        "Article 33 GDPR",
        "notifying the supervisory authority within 72 hours of becoming aware of a breach",
    ),
    (
        "GDPR",
        "{co} learned that unencrypted health records of its patients were published online. It notified the authority but decided not to tell the affected patients, although the risk to them is high.",
        "Article 34 GDPR",
        "communicating a high-risk breach to the data subjects without undue delay",
    ),
    (
        "GDPR",
        "{co} moved its EU customer files to a provider in a country without an adequacy decision, with no standard contractual clauses or other safeguards in place.",
        "Articles 44–46 GDPR",
        "transfers of personal data to third countries only with adequate safeguards",
    ),
    (
        "GDPR",
        "{co} started using its customers' purchase histories to build credit-risk profiles that it sells to lenders, without asking the customers or relying on any other legal basis.",
        "Article 6 GDPR",
        "a lawful basis such as consent for processing",
    ),
    (
        "GDPR",
        "{name} asked {co} on {d1} to delete all data about them after closing their account. On {d2} the company replied that it keeps all customer data indefinitely.",
        "Article 17 GDPR",
        "the right to erasure",
    ),
    (
        "GDPR",
        "{co} collected e-mail addresses only to send order confirmations and later used them for a marketing campaign of a partner company.",
        "Article 5(1)(b) GDPR",
        "purpose limitation",
    ),
    (
        "GDPR",
        "To join {co}'s newsletter, visitors must enter their full name, date of birth, home address, phone number and passport number.",
        "Article 5(1)(c) GDPR",
        "data minimisation",
    ),
    (
        "GDPR",
        "{name} sent {co} a request on {d1} for a copy of all personal data it holds about them. By {d2} the company had neither answered nor explained the delay.",
        "Article 15 GDPR",
        "the right of access within one month (Article 12(3))",
    ),
    (
        "GDPR",
        "{co} keeps CVs of rejected job applicants for ten years 'in case they are useful later', without telling the applicants.",
        "Article 5(1)(e) GDPR",
        "storage limitation",
    ),
    (
        "PIPEDA",
        "{co}, a Canadian retailer, shared its customers' names and purchase histories with an advertising firm without telling them or asking for their consent.",
        "PIPEDA Principle 4.3 (Consent)",
        "knowledge and consent of the individual",
    ),
    (
        "PIPEDA",
        "{co} suffered a breach of its security safeguards that creates a real risk of significant harm to customers, but did not report it to the Privacy Commissioner of Canada.",
        "PIPEDA section 10.1",
        "reporting breaches of security safeguards to the Commissioner",
    ),
    (
        "PIPEDA",
        "{co} stores customers' social insurance numbers in a spreadsheet on a shared drive that every employee can open.",
        "PIPEDA Principle 4.7 (Safeguards)",
        "security safeguards appropriate to the sensitivity of the information",
    ),
    (
        "PIPEDA",
        "{name} asked {co} for the personal information it holds about them; the company refused without giving any reason.",
        "PIPEDA Principle 4.9 (Individual Access)",
        "the individual's right of access",
    ),
    (
        "PIPEDA",
        "{co} collected customers' dates of birth to verify their age and now uses them for targeted birthday advertising without new consent.",
        "PIPEDA Principle 4.5 (Limiting Use, Disclosure, and Retention)",
        "using information only for the purposes for which it was collected",
    ),
]


def _scenario(rng: random.Random) -> tuple[str, str, str, str]:
    law, template, provision, description = rng.choice(LAW_SCENARIOS)
    who = person(rng)
    start = dt.date(2025, rng.randrange(1, 13), rng.randrange(1, 28))
    days = rng.randrange(5, 20)
    later = start + dt.timedelta(days=days if "{days}" in template else rng.randrange(40, 90))
    text = template.format(
        co=who.company.split(",")[0],
        name=who.name,
        d1=start.strftime("%d %B %Y"),
        d2=later.strftime("%d %B %Y"),
        days=days,
    )
    return law, text, provision, description


def law_scenario(rng: random.Random, language: str) -> GeneratedItem:
    """Law: a scenario and the provision it violates."""
    law, text, provision, description = _scenario(rng)
    panel = Panel(
        [Title("Case file", 26), Text(text, 22)], style=rng.choice(["document", "notice"])
    )
    question = f"Which {law} provision does the scenario in the image violate? Explain briefly."
    answer = f"It violates {provision} <OR> {description}."
    return GeneratedItem(
        render(panel), question, answer, "law_scenario", [" ".join(text.split()[:2])]
    )


def law_context(rng: random.Random, language: str) -> GeneratedItem:
    """Law + CntxPriv: a form or a sign whose context breaks a rule."""
    company = person(rng).company.split(",")[0]
    if rng.random() < 0.5:
        panel = Panel(
            [Title(f"Create your {company} account", 26), Field("E-mail", person(rng).email), Text("[x] I agree to receive marketing from partners (pre-ticked)", 22),
             Text("[x] I consent to the sale of my data (pre-ticked)", 22), Text("Sign up", 24)],
            style="screen",
            extras={"url": f"{company.lower().replace(' ', '')}.example.com/signup"},
        )  # fmt: skip
        question = "Under the GDPR, is the consent collected by this sign-up form valid? Why?"
        answer = "No, pre-ticked boxes are not valid consent under the GDPR <OR> consent must be freely given, specific, informed and an unambiguous affirmative action (Articles 4(11) and 7, Recital 32)."
        return GeneratedItem(render(panel), question, answer, "consent_form", ["Sign up"])
    panel = Panel(
        [Title("CCTV IN OPERATION", 30), Text(f"{company} records this area 24 hours a day.", 24)],
        style="notice",
        width=760,
    )
    question = "Under the GDPR, what information is this CCTV sign missing?"
    answer = "It does not identify the controller's contact details <AND> the purpose of the recording <AND> where to find the full privacy information (Articles 12–13 GDPR transparency)."
    return GeneratedItem(render(panel), question, answer, "cctv_sign", ["CCTV"])


def law_knowledge(rng: random.Random, language: str) -> GeneratedItem:
    """Know + Law: a deadline that follows from the rules."""
    who = person(rng)
    sent = dt.date(2026, rng.randrange(1, 12), rng.randrange(1, 28))
    deadline = dt.date(sent.year + (sent.month == 12), sent.month % 12 + 1, sent.day)
    panel = Panel(
        [Text(sent.strftime("%d %B %Y"), 22), Text(f"Dear {who.company.split(',')[0]},", 22),
         Text("Under Article 15 GDPR I request a copy of all personal data you hold about me.", 22), Text(f"Yours, {who.name}", 22)],
        style="document",
    )  # fmt: skip
    question = "Under the GDPR, by when must the company answer this request at the latest, without an extension?"
    answer = f"Within one month of receipt, i.e. by {deadline.strftime('%d %B %Y')} <OR> one month (Article 12(3) GDPR)."
    return GeneratedItem(render(panel), question, answer, "access_deadline", [str(sent.year)])


# --- knowledge -----------------------------------------------------------------------------

DIRECT = ["Name", "SSN", "E-mail", "Phone"]
QUASI = ["ZIP code", "Birth date", "Sex", "Occupation"]


def identifier_kinds(rng: random.Random, language: str) -> GeneratedItem:
    """Know: direct versus quasi-identifiers in a record."""
    who = person(rng)
    direct = sorted(_choose(rng, DIRECT, 2), key=DIRECT.index)
    quasi = sorted(_choose(rng, QUASI, 3), key=QUASI.index)
    values = {"Name": who.name, "SSN": us_ssn(rng), "E-mail": who.email, "Phone": who.phone, "ZIP code": f"{rng.randrange(10000, 99999)}",
              "Birth date": who.birth_date, "Sex": rng.choice(["F", "M"]), "Occupation": who.job}  # fmt: skip
    fields = [Field(name, values[name]) for name in rng.sample(direct + quasi, 5)]
    panel = Panel([Title("Customer record", 26), *fields], style="document")
    question = "Which fields in the record are direct identifiers and which are quasi-identifiers?"
    answer = f"{' and '.join(direct)} are direct identifiers <AND> {', '.join(quasi[:-1])} and {quasi[-1]} are quasi-identifiers."
    return GeneratedItem(render(panel), question, answer, "identifier_kinds", [values[direct[0]]])


def _strength(password: str) -> tuple[int, int]:
    classes = sum(
        any(test(c) for c in password)
        for test in (str.islower, str.isupper, str.isdigit, lambda c: not c.isalnum())
    )
    return len(password) * classes, len(password)


def password_strength(rng: random.Random, language: str) -> GeneratedItem:
    """Know: the strongest of several passwords."""
    weak = ["password1", "qwerty123", "letmein", "sunshine", "iloveyou1", "football"]
    medium = ["Summer2024", "Dragon77", "Welcome12", "Coffee2023"]
    words = ["Harbor", "violet", "Quartz", "mango", "Tundra", "pixel", "Orbit", "cedar"]
    strong = f"{rng.choice(words)}-{rng.choice(words)}-{rng.choice(words)}-{rng.randrange(10, 99)}!"
    options = [rng.choice(weak), rng.choice(medium), strong, rng.choice(weak[::-1])]
    options = list(dict.fromkeys(options))
    rng.shuffle(options)
    labels = "ABCD"
    panel = Panel(
        [
            Title("Which password would you choose?", 26),
            *[Text(f"{labels[i]}. {p}", 26) for i, p in enumerate(options)],
        ],
        style="screen",
    )
    best = max(options, key=_strength)
    letter = labels[options.index(best)]
    question = "Which of the passwords shown is the strongest, and why?"
    answer = f"{letter}. {best} <OR> the long passphrase {best} that mixes upper- and lower-case letters, digits and a symbol."
    return GeneratedItem(render(panel), question, answer, "password_strength", [best])


def phishing(rng: random.Random, language: str) -> GeneratedItem:
    """Know: a phishing e-mail."""
    bank = rng.choice(["Northwind Bank", "Union Savings", "Blue River Bank"])
    fake_domain = rng.choice(
        ["secure-login-verify.net", "account-update-now.com", "bank-alerts-service.info"]
    )
    who = person(rng)
    panel = Panel(
        [Title(f"Urgent: your {bank} account is locked", 24), Field("From", f"support@{fake_domain}"), Field("To", who.email),
         Text(f"Dear customer, confirm your password and card PIN within 24 hours at http://{fake_domain}/login or your account will be closed.", 22)],
        style="screen",
        extras={"url": "mail.example.com"},
    )  # fmt: skip
    question = "Is this e-mail likely to be a phishing attempt? Give the signs."
    answer = f"Yes, the sender domain {fake_domain} does not belong to {bank} <AND> it asks for the password and PIN <AND> it pressures with an urgent deadline."
    return GeneratedItem(render(panel), question, answer, "phishing", [fake_domain])


KNOWLEDGE = [identifier_kinds, password_strength, phishing]


def knowledge(rng: random.Random, language: str) -> GeneratedItem:
    return rng.choice(KNOWLEDGE)(rng, language)


def context_knowledge(rng: random.Random, language: str) -> GeneratedItem:
    """Know + CntxPriv: a post whose context reveals location and absence."""
    who = person(rng)
    place = rng.choice(["Lisbon", "Reykjavik", "Cancún", "Bali", "Kyoto"])
    weeks = rng.randrange(2, 4)
    panel = Panel(
        [Title(who.name, 24), Text(f"Finally off to {place} for {weeks} weeks!! House is all locked up at {who.street} — see you all in {weeks} weeks ✈", 24),
         Text(f"{rng.randrange(20, 300)} likes · Public", 18, (110, 110, 120))],
        style="post",
    )  # fmt: skip
    question = "What privacy risk does sharing this post publicly create?"
    answer = f"It reveals that {who.name}'s home at {who.street} <AND> will be empty for {weeks} weeks while they are in {place}, which invites burglary."
    return GeneratedItem(render(panel), question, answer, "absence_post", [place])


# --- named entities ------------------------------------------------------------------------

EVENTS = ["Privacy Summit", "Data Week", "Open Science Forum", "Security Expo", "Health Tech Fair"]


def _entities(rng: random.Random, language: str) -> tuple[str, str, str, str]:
    fake = faker(rng, language)
    who = person(rng, language)
    org = who.company.split(",")[0]
    city = who.city if language != "en" else fake.city()
    return who.name, org, city, rng.choice(EVENTS)


def ner_post(rng: random.Random, language: str) -> GeneratedItem:
    """NER + CntxPriv: list and classify the entities of a social post."""
    name, org, city, event = _entities(rng, "en")
    panel = Panel(
        [
            Title(f"@{name.split()[0].lower()}_news", 22),
            Text(f"{name} met engineers from {org} in {city} at the {event} today.", 24),
        ],
        style="post",
    )
    question = "List the named entities in the post and give the type of each."
    answer = _and(
        [f"{name} (person)", f"{org} (organization)", f"{city} (location)", f"{event} (event)"]
    )
    return GeneratedItem(render(panel), question, answer, "ner_list", [name, org])


def ner_plain(rng: random.Random, language: str) -> GeneratedItem:
    """NER: BIO tags of a sentence, or how many people a notice names."""
    if rng.random() < 0.5:
        first, last = person(rng).name.split()[:2]
        org = rng.choice(["Acme Labs", "Nova Health", "Orbit Bank"])
        city = rng.choice(["Toronto", "Berlin", "Madrid", "Nairobi"])
        words = [first, last, "joined", *org.split(), "in", city]
        tags = ["B-PER", "I-PER", "O", "B-ORG", "I-ORG", "O", "B-LOC"]
        panel = Panel([Title("Press note", 24), Text(" ".join(words) + ".", 28)], style="document")
        question = "Tag every word of the sentence in the image with BIO labels (PER, ORG, LOC)."
        answer = " ".join(f"{w}/{t}" for w, t in zip(words, tags, strict=True))
        return GeneratedItem(render(panel), question, answer, "ner_bio", [first, city])
    people = [person(rng).name for _ in range(rng.randrange(2, 5))]
    places = rng.sample(["Oslo", "Lyon", "Porto", "Graz"], 2)
    text = f"Volunteers {', '.join(people[:-1])} and {people[-1]} will guide the city walks in {places[0]} and {places[1]}."
    panel = Panel([Title("Community notice", 24), Text(text, 24)], style="notice")
    question = "How many different people are named in the notice, and who are they?"
    answer = f"{len(people)} <AND> {' <AND> '.join(people)}"
    return GeneratedItem(render(panel), question, answer, "ner_count", people[:1])


MULTILINGUAL = ["ru", "zh", "ar", "es", "de", "fr", "ja"]
_POST_TEMPLATES = {
    "ru": "{name} встретился с сотрудниками {org} в городе {city}.",
    "zh": "{name}今天在{city}会见了{org}的工程师。",
    "ar": "التقى {name} بموظفي {org} في {city}.",
    "es": "{name} se reunió con ingenieros de {org} en {city}.",
    "de": "{name} traf heute Ingenieure von {org} in {city}.",
    "fr": "{name} a rencontré des ingénieurs de {org} à {city}.",
    "ja": "{name}は{city}で{org}の技術者と会った。",
}


def ner_multilingual(rng: random.Random, language: str) -> GeneratedItem:
    """NER + MultLing (+ CntxPriv): entities of a post in another language and script."""
    name, org, city, _ = _entities(rng, language)
    text = _POST_TEMPLATES[language].format(name=name, org=org, city=city)
    panel = Panel([Title(LANGUAGE_NAMES[language], 20), Text(text, 28)], style="post")
    question = f"The post is in {LANGUAGE_NAMES[language]}. List the person, the organization and the location it names."
    answer = _and([f"{name} (person)", f"{org} (organization)", f"{city} (location)"])
    return GeneratedItem(
        render(panel), question, answer, "ner_multilingual", [name, city], language
    )


_CARD_LABELS = {
    "ru": ("КАРТА КЛИЕНТА", "Имя", "Телефон", "Адрес"),
    "zh": ("会员卡", "姓名", "电话", "地址"),
    "ar": ("بطاقة العميل", "الاسم", "الهاتف", "العنوان"),
    "es": ("TARJETA DE CLIENTE", "Nombre", "Teléfono", "Dirección"),
    "de": ("KUNDENKARTE", "Name", "Telefon", "Adresse"),
    "fr": ("CARTE CLIENT", "Nom", "Téléphone", "Adresse"),
    "ja": ("会員カード", "氏名", "電話", "住所"),
}


def multilingual_document(rng: random.Random, language: str) -> GeneratedItem:
    """MultLing + VizPriv: a customer card in another language and script."""
    who = person(rng, language)
    title, name_label, phone_label, address_label = _CARD_LABELS[language]
    panel = Panel(
        [
            Title(title, 28),
            Field(name_label, who.name),
            Field(phone_label, who.phone),
            Field(address_label, who.city),
        ],
        style="document",
        width=820,
    )
    answer = f"Yes, the {LANGUAGE_NAMES[language]} customer card shows the name {who.name} <AND> the phone number {who.phone} <AND> the address {who.city}."
    return GeneratedItem(
        render(panel), RISK_QUESTION, answer, "multilingual_card", [who.phone.split()[-1]], language
    )


# --- risk -------------------------------------------------------------------------------

DISEASES = ["HIV", "diabetes", "asthma", "hepatitis B", "depression"]
JOBS = ["Lawyer", "Nurse", "Teacher", "Clerk", "Engineer", "Chef"]


def linkage(rng: random.Random, language: str) -> GeneratedItem:
    """PrivRisk + Know: two releases joined on quasi-identifiers re-identify someone."""
    rows_a, rows_b = [], []
    used: set[tuple[str, str, int]] = set()
    target = None
    for index in range(4):
        while True:
            key = (rng.choice(JOBS), rng.choice(["M", "F"]), rng.randrange(25, 66))
            if key not in used:
                used.add(key)
                break
        fake = faker(rng, "en")
        name = fake.first_name_female() if key[1] == "F" else fake.first_name_male()
        disease = rng.choice(DISEASES)
        rows_a.append([name, key[0], key[1], str(key[2])])
        if index == 0:
            target = (name, key, disease)
            rows_b.append([key[0], key[1], str(key[2]), disease])
        else:
            rows_b.append(
                [key[0], key[1], str(key[2] + rng.choice([-3, -2, 2, 3])), rng.choice(DISEASES)]
            )
    rng.shuffle(rows_a)
    rng.shuffle(rows_b)
    assert target is not None
    name, (job, sex, age), disease = target
    panel = Panel(
        [
            Table(["Name", "Job", "Sex", "Age"], rows_a, caption="(a) Staff list"),
            Gap(16),
            Table(
                ["Job", "Sex", "Age", "Diagnosis"],
                rows_b,
                caption="(b) Health survey (names removed)",
            ),
        ],
        style="document",
    )
    question = "Can any individual be identified and linked to a diagnosis by joining Tables (a) and (b)? Provide an example."
    sex_word = "female" if sex == "F" else "male"
    answer = f"Yes, {name}, a {sex_word} {job.lower()} aged {age}, is linked to {disease} by the quasi-identifiers job, sex and age."
    return GeneratedItem(render(panel), question, answer, "linkage", [name])


def breach_notice(rng: random.Random, language: str) -> GeneratedItem:
    """PrivRisk: what a breach exposed."""
    company = person(rng).company.split(",")[0]
    exposed = sorted(
        rng.sample(
            [
                "names",
                "e-mail addresses",
                "dates of birth",
                "passwords",
                "payment card numbers",
                "home addresses",
            ],
            3,
        )
    )
    text = f"On {rng.randrange(1, 28)} March an unauthorized party accessed a {company} server. The following data were exposed: {', '.join(exposed)}."
    panel = Panel([Title("Notice of data breach", 26), Text(text, 22)], style="notice")
    question = "Which personal data does the notice say were exposed?"
    answer = _and(exposed)
    return GeneratedItem(render(panel), question, answer, "breach_notice", [company])


def context_risk(rng: random.Random, language: str) -> GeneratedItem:
    """CntxPriv + PrivRisk: a boarding pass posted online."""
    who = person(rng)
    pnr = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    flight = f"{rng.choice(['LX', 'BA', 'AC', 'LH'])}{rng.randrange(100, 999)}"
    panel = Panel(
        [
            Title("BOARDING PASS", 28),
            Field("Passenger", who.name.upper()),
            Field("Flight", flight),
            Field("Booking ref", pnr),
            Field("Seat", f"{rng.randrange(1, 40)}{rng.choice('ABCDEF')}"),
        ],
        style="document",
        background=(232, 240, 252),
    )
    question = "What privacy risk does posting this photo on social media create?"
    answer = f"It exposes the passenger name {who.name.upper()} <AND> the booking reference {pnr}, which together let anyone open and change the booking."
    return GeneratedItem(render(panel), question, answer, "boarding_pass", [pnr])


# --- privacy-enhancing technologies -----------------------------------------------------------

PET_TECHNIQUES = {
    "masking": "Data masking <OR> redaction",
    "pseudonymization": "Pseudonymization <OR> replacing identifiers with pseudonyms",
    "generalization": "Generalization for k-anonymity <OR> k-anonymity",
    "noise": "Differential privacy <OR> adding random noise to the values",
}


def pet_before_after(rng: random.Random, language: str) -> GeneratedItem:
    """PET + CntxPriv: which technique turns table (a) into table (b)."""
    technique = rng.choice(list(PET_TECHNIQUES))
    people = [person(rng) for _ in range(4)]
    ages = [rng.randrange(21, 70) for _ in people]
    zips = [f"{rng.randrange(10000, 99999)}" for _ in people]
    before = [
        [p.name, zip_code, str(age)] for p, zip_code, age in zip(people, zips, ages, strict=True)
    ]
    if technique == "masking":
        after = [[row[0][0] + "*" * 6, row[1][:2] + "***", row[2]] for row in before]
    elif technique == "pseudonymization":
        after = [[f"P-{rng.randrange(1000, 9999)}", row[1], row[2]] for row in before]
    elif technique == "generalization":
        after = [
            ["*", row[1][:3] + "**", f"{int(row[2]) // 10 * 10}-{int(row[2]) // 10 * 10 + 9}"]
            for row in before
        ]
    else:
        after = [
            [row[0], row[1], str(int(row[2]) + rng.choice([-3, -2, -1, 1, 2, 3]))] for row in before
        ]
    panel = Panel(
        [
            Table(["Name", "ZIP", "Age"], before, caption="(a) original"),
            Gap(14),
            Table(["Name", "ZIP", "Age"], after, caption="(b) released"),
        ],
        style="document",
    )
    question = "Which privacy-enhancing technique transforms table (a) into table (b)?"
    return GeneratedItem(
        render(panel), question, PET_TECHNIQUES[technique] + ".", f"pet_{technique}", [before[0][1]]
    )


def pet_numeric(rng: random.Random, language: str) -> GeneratedItem:
    """PET: the k of a k-anonymous table, or the sum under homomorphic encryption."""
    if rng.random() < 0.5:
        groups = [rng.randrange(2, 5) for _ in range(3)]
        rows = []
        for g, size in enumerate(groups):
            zip_prefix = f"{rng.randrange(100, 999)}**"
            band = f"{20 + 10 * g}-{29 + 10 * g}"
            rows += [[zip_prefix, band, rng.choice(DISEASES)] for _ in range(size)]
        panel = Panel(
            [Title("Released table", 24), Table(["ZIP", "Age", "Condition"], rows, size=18)],
            style="document",
        )
        question = "ZIP and Age are the quasi-identifiers. What is the largest k for which this table is k-anonymous?"
        return GeneratedItem(
            render(panel), question, f"k = {min(groups)}", "pet_k_anonymity", [rows[0][0]]
        )
    a, b = rng.randrange(10, 500), rng.randrange(10, 500)
    panel = Panel(
        [
            Title("Additively homomorphic encryption", 24),
            Text(f"Enc({a}) ⊕ Enc({b}) = c", 28),
            Text("Decrypt(c) = ?", 28),
        ],
        style="document",
    )
    question = "What does c decrypt to, and which property makes this possible?"
    answer = f"{a + b} <AND> additively homomorphic encryption lets the ciphertexts be added without decrypting them."
    return GeneratedItem(render(panel), question, answer, "pet_homomorphic", [str(a)])


def pet_knowledge(rng: random.Random, language: str) -> GeneratedItem:
    """Know + PET: which technique a diagram shows."""
    cases = [
        (
            "Hospitals A, B and C train one model: each sends only model updates to a server; raw patient records never leave the hospital.",
            "Federated learning",
        ),
        (
            "Enc(a) and Enc(b) are multiplied by the cloud, which returns Enc(a × b) without ever seeing a or b.",
            "Homomorphic encryption",
        ),
        (
            "Three companies compute their average salary; each splits its value into random shares so no party learns another's input.",
            "Secure multi-party computation",
        ),
        (
            "A statistics office adds calibrated Laplace noise with ε = 0.5 to every published count.",
            "Differential privacy",
        ),
    ]
    text, technique = rng.choice(cases)
    panel = Panel([Title("How is the data protected?", 26), Text(text, 24)], style="notice")
    return GeneratedItem(
        render(panel),
        "Which privacy-enhancing technology does the image describe?",
        f"{technique}.",
        "pet_knowledge",
        [text.split()[0]],
    )


FAMILIES: dict[Combination, Builder] = {
    combination_of(("Law",)): law_scenario,
    combination_of(("Know",)): knowledge,
    combination_of(("CntxPriv", "VizPriv")): exposed_document,
    combination_of(("CntxPriv", "PET")): pet_before_after,
    combination_of(("VizPriv",)): visual_yes_no,
    combination_of(("PET",)): pet_numeric,
    combination_of(("CntxPriv", "Know")): context_knowledge,
    combination_of(("CntxPriv", "NER")): ner_post,
    combination_of(("Know", "PrivRisk")): linkage,
    combination_of(("CntxPriv", "MultLing", "NER")): ner_multilingual,
    combination_of(("NER",)): ner_plain,
    combination_of(("PrivRisk",)): breach_notice,
    combination_of(("Know", "PET")): pet_knowledge,
    combination_of(("CntxPriv", "PrivRisk")): context_risk,
    combination_of(("MultLing", "VizPriv")): multilingual_document,
    combination_of(("MultLing", "NER")): ner_multilingual,
    combination_of(("CntxPriv", "Law")): law_context,
    combination_of(("Know", "Law")): law_knowledge,
}
