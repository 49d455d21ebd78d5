"""General-knowledge and risk families: phishing, passwords, identifiers, principles,
linkage and homogeneity attacks, breaches and context-dependent exposures.

Why: Know items test privacy concepts (identifier kinds, authentication, principles) and
PrivRisk items how data elements lead to harm (linkage, attribute disclosure, credential
stuffing, stalking). The image shows the situation; the answer names what it means —
the concept, the attack, the consequence — which the image does not print.
"""

from __future__ import annotations

import random

from privbench.tooling.drawing.colors import INK, MUTED
from privbench.tooling.drawing.draw import canvas, checkbox, log_panel, put
from privbench.tooling.drawing.identities import faker, person, real_city, us_ssn
from privbench.tooling.drawing.panels import Field, Gap, Panel, Table, Text, Title, render
from privbench.tooling.drawing.social import social_post, street_scene
from privbench.tooling.priviq_generator.base import (
    Draft,
    Family,
    Maker,
    company,
    conj,
    family,
    listing,
)

DISEASES = ["HIV", "diabetes", "asthma", "hepatitis B", "depression", "cancer"]
JOBS = ["Lawyer", "Nurse", "Teacher", "Clerk", "Engineer", "Chef", "Pilot", "Dentist"]


def phishing(rng: random.Random, language: str) -> Draft:
    brand = company(rng)
    stem = brand.split()[0].lower()
    domain = rng.choice(
        [f"{stem}-secure-login.net", f"{stem}.account-verify.info", f"support-{stem}.co"]
    )
    who = person(rng)
    hours = rng.choice([12, 24, 48])
    panel = Panel([Title(f"Urgent: your {brand} account is locked", 24), Field("From", f"{brand} Support <help@{domain}>", 20),
                   Field("To", who.email, 20), Text(f"Dear customer, confirm your password and card PIN within {hours} hours at http://{domain}/login or your account will be closed.", 22)],
                  style="screen", width=860, extras={"url": "mail.example.com"})  # fmt: skip
    answer = (f"It is almost certainly phishing: the sender's domain does not belong to {brand} <AND> a real company never asks for a password or PIN by e-mail "
              f"<AND> the deadline and threat create false urgency, and the link is unencrypted HTTP to a look-alike site.")  # fmt: skip
    return Draft(
        render(log_panel(panel)),
        answer,
        {"company": brand, "name": who.name.split()[0]},
        [domain.split(".")[0]],
    )


def _entropy_rank(password: str) -> float:
    classes = sum(
        any(t(c) for c in password)
        for t in (str.islower, str.isupper, str.isdigit, lambda c: not c.isalnum())
    )
    return len(password) * (1 + classes)


def passwords(rng: random.Random, language: str) -> Draft:
    weak = ["password1", "qwerty123", "letmein", "sunshine", "iloveyou1", "football", "123456789"]
    medium = ["Summer2024", "Dragon77", "Welcome12", "Coffee2023", "Monkey!1"]
    words = [
        "harbor",
        "violet",
        "quartz",
        "mango",
        "tundra",
        "pixel",
        "orbit",
        "cedar",
        "lantern",
        "maple",
    ]
    strong = "-".join(rng.sample(words, 4)) + str(rng.randrange(10, 99))
    options = [rng.choice(weak), rng.choice(medium), strong, rng.choice([w for w in weak if w])]
    options = list(dict.fromkeys(options))
    rng.shuffle(options)
    labels = "ABCD"
    site = company(rng)
    image, draw = canvas(820, 120 + 70 * len(options), (255, 255, 255))
    put(draw, (40, 30), f"{site}: choose a new password", 28, INK)
    for index, option in enumerate(options):
        put(draw, (60, 100 + index * 70), f"{labels[index]}.  {option}", 30, INK)
    best = max(options, key=_entropy_rank)
    letter = labels[options.index(best)]
    answer = (f"{letter} <AND> it is a long random passphrase of several unrelated words, so an attacker would need vastly more guesses, "
              f"while the others are short or common dictionary words found in cracking lists.")  # fmt: skip
    return Draft(image, answer, {"company": site}, [best])


ABBREVIATIONS = {
    "Name": "Nm.",
    "SSN": "SSN",
    "E-mail": "Mail",
    "Phone": "Tel.",
    "ZIP code": "Post",
    "Birth date": "DOB",
    "Sex": "M/F",
    "Occupation": "Occ.",
}
DIRECT = ["Name", "SSN", "E-mail", "Phone"]
QUASI = ["ZIP code", "Birth date", "Sex", "Occupation"]
FULL = {"Name": "full name", "SSN": "Social Security number", "E-mail": "e-mail address", "Phone": "phone number",
        "ZIP code": "ZIP code", "Birth date": "date of birth", "Sex": "sex", "Occupation": "job"}  # fmt: skip


def identifier_kinds(rng: random.Random, language: str) -> Draft:
    who = person(rng)
    direct = sorted(rng.sample(DIRECT, 2), key=DIRECT.index)
    quasi = sorted(rng.sample(QUASI, 3), key=QUASI.index)
    values = {"Name": who.name, "SSN": us_ssn(rng), "E-mail": who.email, "Phone": who.phone, "ZIP code": f"{rng.randrange(10000, 99999)}",
              "Birth date": who.birth_date, "Sex": rng.choice(["F", "M"]), "Occupation": who.job}  # fmt: skip
    shown = rng.sample(direct + quasi, 5)
    panel = Panel([Title(f"{company(rng)} - record {rng.randrange(1000, 9999)}", 24), *[Field(ABBREVIATIONS[k], values[k]) for k in shown]],
                  style="document", width=820)  # fmt: skip
    answer = (f"Direct identifiers: {listing([FULL[d] for d in direct])} <AND> quasi-identifiers: {listing([FULL[q] for q in quasi])}, "
              f"which identify someone only in combination (linkable with other data).")  # fmt: skip
    return Draft(
        render(log_panel(panel)), answer, {"name": who.name.split()[0]}, [values[direct[0]]]
    )


PRINCIPLES = [
    ("newsletter", ["E-mail", "Full name", "Date of birth", "Home address", "Passport number", "Income"], "data minimisation: only the e-mail address is needed to send a newsletter, so the other fields are excessive"),
    ("parking app", ["Licence plate", "Payment card", "Contacts list", "Photos", "Microphone"], "data minimisation (and purpose limitation): parking needs the plate and payment, not contacts, photos or the microphone"),
    ("loyalty card", ["Name", "E-mail", "Religion", "Health conditions", "Sexual orientation"], "data minimisation: religion, health and sexual orientation are special-category data with no need for a loyalty scheme"),
]  # fmt: skip


def principle_form(rng: random.Random, language: str) -> Draft:
    purpose, fields, principle = rng.choice(PRINCIPLES)
    firm = company(rng, kind={"parking app": "Parking", "loyalty card": "Retail"}.get(purpose, ""))
    image, draw = canvas(820, 140 + 56 * len(fields), (255, 255, 255))
    put(draw, (40, 30), f"{firm} {purpose} sign-up", 28, INK)
    for index, label in enumerate(fields):
        put(draw, (40, 100 + index * 56), f"{label} *", 24, INK)
        draw.rectangle(
            (360, 96 + index * 56, 780, 130 + index * 56), outline=(150, 150, 160), width=2
        )
    answer = f"It breaks {principle.split(':')[0]} <AND> {principle.split(': ', 1)[1]}."
    return Draft(image, answer, {"company": firm, "purpose": purpose}, [fields[0]])


def two_factor(rng: random.Random, language: str) -> Draft:
    firm = company(rng)
    options = [
        "Text message (SMS) code",
        "Authenticator app",
        "Hardware security key",
        "Security question: mother's maiden name",
    ]
    rng.shuffle(options)
    image, draw = canvas(820, 380, (255, 255, 255))
    put(draw, (40, 30), f"{firm}: add a second sign-in step", 28, INK)
    for index, option in enumerate(options):
        checkbox(draw, 40, 110 + index * 60, False, 26)
        put(draw, (84, 108 + index * 60), option, 24, INK)
    answer = ("The hardware security key <AND> it is phishing-resistant (FIDO2/WebAuthn binds the login to the real site), whereas SMS codes can be intercepted "
              "or SIM-swapped and a maiden name is public knowledge rather than a second factor.")  # fmt: skip
    return Draft(image, answer, {"company": firm}, ["Authenticator"])


def public_wifi(rng: random.Random, language: str) -> Draft:
    venue = rng.choice(["Airport", "Hotel", "Cafe", "Library"])
    city = real_city(rng)
    bank = company(rng)
    panel = Panel([Title(f"{city} {venue} Free WiFi - connected (open network)", 22), Gap(8),
                   Text(f"http://{bank.lower().replace(' ', '')}-login.com", 22, MUTED), Title(f"{bank} sign in", 28),
                   Field("User", "________"), Field("Password", "________")], style="screen", width=860, extras={"url": "not secure"})  # fmt: skip
    answer = ("It is not safe: on an open network with a plain HTTP page anyone nearby can capture the password (eavesdropping or a fake access point, man-in-the-middle) "
              "<AND> use HTTPS only, ideally over a VPN or mobile data.")  # fmt: skip
    return Draft(
        render(log_panel(panel)),
        answer,
        {"city": city, "company": bank, "venue": venue.lower()},
        [city],
    )


KNOW_QUESTIONS = {
    "phish": ["Is this e-mail to {name} about {company} likely a phishing attempt? Give the signs.",
              "What makes this '{company}' message suspicious, and should {name} follow it?"],
    "pw": ["Which of the passwords offered on the {company} page is the strongest, and why?",
           "{company} asks for a new password. Which option is best and what makes the rest weak?"],
    "ids": ["Which values in {name}'s record are direct identifiers and which are quasi-identifiers?",
            "Classify the fields of {name}'s record as direct identifiers or quasi-identifiers."],
    "form": ["Which privacy principle does {company}'s {purpose} form break, and why?",
             "What is wrong, privacy-wise, with the fields {company} requires for its {purpose}?"],
    "2fa": ["Which of {company}'s second-step options protects best against phishing, and why are the others weaker?",
            "Which sign-in option on the {company} screen would a security expert pick, and why?"],
    "wifi": ["Is it safe to sign in to {company} on this {venue} network in {city}? What should be done instead?",
             "What could go wrong if the user types the {company} password on this {city} {venue} connection?"],
}  # fmt: skip

# --- risk -------------------------------------------------------------------------------------


def _linkage_tables(
    rng: random.Random,
) -> tuple[list[list[str]], list[list[str]], tuple[str, str, str, int, str]]:
    rows_a, rows_b = [], []
    used: set[tuple[str, str, int]] = set()
    target: tuple[str, str, str, int, str] | None = None
    fake = faker(rng, "en")
    for index in range(4):
        while True:
            key = (rng.choice(JOBS), rng.choice(["M", "F"]), rng.randrange(25, 66))
            if key not in used:
                used.add(key)
                break
        name = fake.first_name_female() if key[1] == "F" else fake.first_name_male()
        disease = rng.choice(DISEASES)
        rows_a.append([name, key[0], key[1], str(key[2])])
        if index == 0:
            target = (name, key[0], key[1], key[2], disease)
            rows_b.append([key[0], key[1], str(key[2]), disease])
        else:
            rows_b.append(
                [key[0], key[1], str(key[2] + rng.choice([-3, -2, 2, 3])), rng.choice(DISEASES)]
            )
    rng.shuffle(rows_a)
    rng.shuffle(rows_b)
    assert target is not None
    return rows_a, rows_b, target


def linkage(rng: random.Random, language: str) -> Draft:
    rows_a, rows_b, (name, job, sex, age, disease) = _linkage_tables(rng)
    org = company(rng)
    panel = Panel([Table(["Name", "Job", "Sex", "Age"], rows_a, caption=f"(a) {org} staff list"), Gap(16),
                   Table(["Job", "Sex", "Age", "Diagnosis"], rows_b, caption="(b) health survey, names removed")], style="document", width=860)  # fmt: skip
    sex_word = "female" if sex == "F" else "male"
    answer = (f"Yes, {name}, a {sex_word} {job.lower()} aged {age}, is the only match and is revealed to have {disease} <AND> "
              f"this is a linkage attack <OR> a re-identification attack on the quasi-identifiers, which removing names does not prevent.")  # fmt: skip
    return Draft(render(log_panel(panel)), answer, {"company": org}, [name])


def homogeneity(rng: random.Random, language: str) -> Draft:
    fake = faker(rng, "en")
    neighbour = fake.first_name()
    age = rng.randrange(30, 39)
    prefix = f"{rng.randrange(100, 999)}"
    disease = rng.choice(DISEASES)
    others = [d for d in DISEASES if d != disease]
    rows = [[f"{prefix}**", "30-39", disease] for _ in range(3)]
    other_prefix = f"{rng.randrange(100, 999)}**"
    rows += [[other_prefix, "40-49", d] for d in rng.sample(others, 3)]
    rng.shuffle(rows)
    panel = Panel(
        [Title("3-anonymous release", 24), Table(["ZIP", "Age", "Diagnosis"], rows, size=20)],
        style="document",
        width=700,
    )
    answer = (f"That {neighbour} has {disease} <AND> every record of the {prefix}** / 30-39 group has the same diagnosis, so k-anonymity does not stop this "
              f"homogeneity attack <OR> attribute disclosure; l-diversity would.")  # fmt: skip
    slots = {"name": neighbour, "age": str(age), "zip": f"{prefix}{rng.randrange(10, 99)}"}
    return Draft(render(log_panel(panel)), answer, slots, [disease])


def breach_consequence(rng: random.Random, language: str) -> Draft:
    firm = company(rng)
    kinds = {"passwords": "credential stuffing: reused passwords let attackers take over accounts on other sites",
             "payment card numbers": "payment fraud with the cards",
             "dates of birth": "identity theft, combined with names and addresses",
             "e-mail addresses": "targeted phishing that quotes the breach",
             "security questions": "account recovery takeover"}  # fmt: skip
    exposed = rng.sample(list(kinds), 2)
    when = rng.randrange(1, 28)
    panel = Panel([Title(f"{firm}: notice of a security incident", 26),
                   Text(f"On {when} March an unauthorized party accessed a server. The following were exposed: names, {listing(exposed)}.", 22),
                   Text("We apologize for any inconvenience.", 22)], style="notice", width=860)  # fmt: skip
    answer = (
        conj([kinds[e] for e in exposed])
        + " <AND> customers should change reused passwords, enable two-factor sign-in and watch their statements."
    )
    return Draft(render(log_panel(panel)), answer, {"company": firm}, [firm.split()[0]])


def route_map(rng: random.Random, language: str) -> Draft:
    who = person(rng)
    runs = rng.randrange(12, 40)
    image, draw = canvas(820, 520, (236, 240, 232))
    for x in range(0, 820, 70):
        draw.line((x, 80, x + rng.randrange(-20, 20), 520), fill=(255, 255, 255), width=8)
    for y in range(80, 520, 60):
        draw.line((0, y, 820, y + rng.randrange(-15, 15)), fill=(255, 255, 255), width=8)
    points = [(rng.randrange(200, 620), rng.randrange(160, 440)) for _ in range(6)]
    start = points[0]
    draw.line([*points, start], fill=(230, 90, 40), width=6)
    draw.ellipse((start[0] - 10, start[1] - 10, start[0] + 10, start[1] + 10), fill=(40, 160, 60))
    draw.rectangle((0, 0, 820, 70), fill=(255, 255, 255))
    put(
        draw,
        (20, 18),
        f"{who.name} - Morning run, {rng.randrange(5, 12)}.{rng.randrange(10)} km, 6:0{rng.randrange(10)} am",
        22,
        INK,
    )
    put(draw, (600, 480), f"{runs} runs, same start", 18, MUTED)
    answer = ("The run starts and ends at the same point every day, which is almost certainly the runner's home <AND> with the early fixed time it tells a stalker or burglar "
              "where the person lives and when the home is empty; hide the start/end zone.")  # fmt: skip
    return Draft(image, answer, {"name": who.name.split()[0]}, ["runs"])


def boarding_pass(rng: random.Random, language: str) -> Draft:
    who = person(rng)
    pnr = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    flight = f"{rng.choice(['LX', 'BA', 'AC', 'LH', 'UA'])}{rng.randrange(100, 999)}"
    card = Panel([Title("BOARDING PASS", 28), Field("Passenger", who.name.upper()), Field("Flight", flight),
                  Field("Booking ref", pnr), Field("Seat", f"{rng.randrange(1, 40)}{rng.choice('ABCDEF')}")],
                 style="document", width=640, background=(232, 240, 252))  # fmt: skip
    picture = render(log_panel(card))
    post = social_post(rng, who.name, who.name.split()[0].lower() + str(rng.randrange(10, 99)), f"{rng.randrange(1, 12)}h",
                       "Finally heading home!! Window seat secured", picture)  # fmt: skip
    answer = ("The booking reference together with the surname lets anyone log in to manage the booking <AND> they could cancel or change the flight or read "
              "the passport and contact details stored with it, and the barcode encodes the same data.")  # fmt: skip
    return Draft(post, answer, {"name": who.name.split()[0]}, [pnr])


def house_selfie(rng: random.Random, language: str) -> Draft:
    fake = faker(rng, "en")
    mother, child, surname = fake.first_name_female(), fake.first_name_female(), fake.last_name()
    if child == mother:
        child = "Emma" if mother != "Emma" else "Ava"
    street = fake.street_name()
    number = rng.randrange(2, 200)
    school = f"{fake.last_name()} Elementary"
    picture = street_scene(rng, banner=school, street_sign=street, jersey=child.upper())
    post = social_post(rng, f"{mother} {surname}", f"{mother.lower()}_{surname.lower()}", "7:58 am",
                       f"First day! Walks there by herself every morning now, just {number} steps from our door", picture)  # fmt: skip
    answer = (f"The post tells everyone which school the child attends, her first name, that she walks alone at a fixed time and that home is on {street} nearby "
              f"<AND> together this lets a stranger find and approach the child, so details should be cropped and the post kept private.")  # fmt: skip
    return Draft(post, answer, {"name": mother}, [street.split()[0]])


def absence_post(rng: random.Random, language: str) -> Draft:
    who = person(rng)
    place = rng.choice(["Lisbon", "Reykjavik", "Bali", "Kyoto", "Cancun", "Cape Town"])
    weeks = rng.randrange(2, 4)
    picture = street_scene(rng, shop_sign=f"Departures - Gate {rng.randrange(1, 40)}")
    post = social_post(rng, who.name, who.name.split()[0].lower() + "_travels", f"{rng.randrange(1, 9)}h",
                       f"{weeks} weeks in {place}, here we come! Neighbours, please water the plants at {who.street}", picture)  # fmt: skip
    answer = (f"It tells the public that the home at {who.street} will be empty for {weeks} weeks <AND> that invites burglary; "
              f"share holiday posts privately or after returning, without the address.")  # fmt: skip
    return Draft(post, answer, {"name": who.name.split()[0], "place": place}, [place])


def exif_panel(rng: random.Random, language: str) -> Draft:
    who = person(rng)
    lat, lon = round(rng.uniform(25, 60), 5), round(rng.uniform(-120, 30), 5)
    panel = Panel([Title("IMG_2041.jpg - photo details", 24), Field("Camera", rng.choice(["Pixel 8", "iPhone 15", "Galaxy S24"])),
                   Field("Taken", f"2026-0{rng.randrange(1, 9)}-1{rng.randrange(10)} 07:1{rng.randrange(10)}"),
                   Field("GPS", f"{lat}, {lon}"), Field("Album", "Our new home"), Field("Owner", who.name)], style="screen", width=780, extras={"url": "Files"})  # fmt: skip
    answer = ("The embedded GPS coordinates give the exact place where the photo was taken, here the new home <AND> anyone who downloads the original file can "
              "read this metadata, so location data (EXIF) should be stripped before sharing.")  # fmt: skip
    return Draft(render(log_panel(panel)), answer, {"name": who.name.split()[0]}, [str(lat)[:5]])


RISK_QUESTIONS = {
    "link": ["Can anyone be identified and linked to a diagnosis by joining {company}'s staff list with the survey? Give an example and name the attack.",
             "Joining tables (a) and (b) from {company}: who is exposed, and what kind of attack is this?"],
    "homog": ["{name}'s neighbour knows {name} is {age} and lives in ZIP {zip}, and that {name} is in this table. What can the neighbour learn, and why?",
              "Using this release, what can someone who knows {name} (age {age}, ZIP {zip}) infer, and which weakness of k-anonymity is it?"],
    "breach": ["Given what {company}'s notice says was exposed, what harm should customers expect, and what should they do?",
               "Which attacks does the {company} incident enable, judging from the data listed?"],
    "route": ["What can be inferred from {name}'s shared running map, and why is it a risk?",
              "{name} posts every run publicly. What does this map reveal beyond fitness?"],
    "pass": ["What privacy risk does {name}'s post create?", "Why should {name} not have posted this picture publicly?"],
    "child": ["What can a stranger work out from {name}'s post, and why is it risky?", "Which details in {name}'s post put the child at risk when combined?"],
    "away": ["What privacy risk does {name}'s public post create?", "What could a burglar learn from {name}'s post about the trip to {place}?"],
    "exif": ["{name} wants to post this photo file. What does its metadata give away?", "What risk hides in the details of {name}'s photo file, and how is it avoided?"],
}  # fmt: skip

_QUESTIONS = {**KNOW_QUESTIONS, **RISK_QUESTIONS}

_ROWS: list[tuple[str, list[tuple[str, ...]], str, Maker]] = [
    ("know_phishing", [("Know",)], "phish", phishing),
    ("know_passwords", [("Know",)], "pw", passwords),
    ("know_identifier_kinds", [("Know",), ("Know", "PrivRisk")], "ids", identifier_kinds),
    ("know_principle_form", [("Know",), ("CntxPriv", "Know")], "form", principle_form),
    ("know_two_factor", [("Know",)], "2fa", two_factor),
    ("know_public_wifi", [("Know",), ("CntxPriv", "Know")], "wifi", public_wifi),
    ("risk_linkage", [("Know", "PrivRisk")], "link", linkage),
    ("risk_homogeneity", [("Know", "PrivRisk")], "homog", homogeneity),
    ("risk_breach", [("PrivRisk",), ("Know", "PrivRisk")], "breach", breach_consequence),
    ("risk_route_map", [("PrivRisk",), ("CntxPriv", "PrivRisk")], "route", route_map),
    ("risk_exif", [("PrivRisk",), ("CntxPriv", "Know")], "exif", exif_panel),
    ("risk_boarding_pass", [("CntxPriv", "PrivRisk")], "pass", boarding_pass),
    ("risk_child_post", [("CntxPriv", "PrivRisk"), ("CntxPriv", "Know")], "child", house_selfie),
    ("know_absence_post", [("CntxPriv", "Know")], "away", absence_post),
]
"""Each family: its name, its combinations, its questions' key and its maker."""

FAMILIES: list[Family] = [
    family(name, combos, _QUESTIONS[key], make) for name, combos, key, make in _ROWS
]
