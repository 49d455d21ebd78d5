"""Privacy-law families: scenario documents whose violation must be inferred.

Why: the paper's Law items are regulator case studies under GDPR and PIPEDA. Here a
complaint letter, an internal e-mail thread, a web screen or a request letter tells what
happened in plain words — never the article, the right or the duty — and the reference
answer names the provision and the duty (and the recourse) under the GDPR, PIPEDA,
the CCPA/CPRA or HIPAA. Scenarios are data: one row per situation.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from PIL import Image

from privbench.tooling.drawing.colors import INK, MUTED
from privbench.tooling.drawing.draw import canvas, checkbox, log_panel, put, put_wrapped
from privbench.tooling.drawing.identities import person
from privbench.tooling.drawing.panels import Block, Field, Gap, Panel, Text, Title, render
from privbench.tooling.priviq_generator.base import Draft, Family, company, conj, family

AUTHORITY = {
    "GDPR": "lodge a complaint with the data protection (supervisory) authority",
    "PIPEDA": "file a complaint with the Office of the Privacy Commissioner of Canada",
    "CCPA": "report it to the California Privacy Protection Agency or the Attorney General",
    "HIPAA": "file a complaint with the HHS Office for Civil Rights",
}
LAW_NAMES = {"GDPR": "GDPR", "PIPEDA": "PIPEDA", "CCPA": "CCPA/CPRA", "HIPAA": "HIPAA"}


@dataclass(frozen=True)
class Scenario:
    regime: str
    text: str  # {name} {company} {d1} {d2} {partner} {n}
    provision: str
    duty: str
    gap_days: tuple[int, int] = (3, 20)
    kind: str = ""  # the organisation's line of business, if the situation implies one


COMPLAINTS = [
    Scenario("GDPR", "On {d1} I asked you for a copy of everything you store about me. Today is {d2} and I have heard nothing from you.",
             "Article 15 with Article 12(3) GDPR", "the right of access must be answered within one month", (40, 80)),
    Scenario("GDPR", "I closed my account on {d1} and asked you to remove my details for good. Your letter of {d2} says you keep every customer file forever.",
             "Article 17 GDPR", "the right to erasure once the data are no longer needed"),
    Scenario("GDPR", "I gave you my address only so that you could deliver my order. Since {d2} I have received weekly adverts from {partner}, a firm I never dealt with.",
             "Article 5(1)(b) and Article 6 GDPR", "purpose limitation and the need for a lawful basis such as consent for the new use"),
    Scenario("GDPR", "I told you on {d1} that I no longer want your sales calls. You have phoned me {n} times since then.",
             "Article 21(3) GDPR", "after an objection to direct marketing the data may no longer be used for it"),
    Scenario("GDPR", "My loan request was turned down by your website within seconds on {d1}. When I asked for a person to look at it, you said the score cannot be reviewed.",
             "Article 22 GDPR", "the right to human intervention and to contest a solely automated decision"),
    Scenario("GDPR", "On {d2} a newspaper reported that files of patients from your clinic were put online weeks ago. Nobody from the clinic has ever contacted me.",
             "Article 34 GDPR", "a breach likely to cause high risk must be communicated to the people affected without undue delay", kind="Clinic"),
    Scenario("PIPEDA", "On {d1} your store passed my name and my purchase history to {partner}. Nobody asked me, and I only found out from their letter.",
             "PIPEDA Principle 4.3", "the knowledge and consent of the individual before disclosure"),
    Scenario("PIPEDA", "On {d1} I asked what information you keep about me. On {d2} you replied that internal records are never shown to customers.",
             "PIPEDA Principle 4.9 (and section 8)", "the individual's right of access, answered within 30 days", (35, 70)),
    Scenario("PIPEDA", "A former employee told me that my social insurance number sits in a spreadsheet that all {n} members of your staff can open.",
             "PIPEDA Principle 4.7", "security safeguards appropriate to the sensitivity of the information"),
    Scenario("PIPEDA", "You asked for my date of birth only to check that I was over 19. Since {d2} you send me birthday offers from {partner}.",
             "PIPEDA Principle 4.5", "using personal information only for the purpose for which it was collected"),
    Scenario("CCPA", "On {d1} I used the link on your home page to stop you passing my data to other companies for money. On {d2} {partner} told me it had bought my profile from you.",
             "CCPA/CPRA § 1798.120", "the right to opt out of the sale or sharing of personal information"),
    Scenario("CCPA", "On {d1} I asked you to erase the data you hold on me. It is now {d2} and you have not answered.",
             "CCPA/CPRA § 1798.105 with § 1798.130", "the right to delete, answered within 45 days", (50, 90)),
    Scenario("CCPA", "After I asked you not to pass my data on, you raised my subscription price by {n}%.",
             "CCPA/CPRA § 1798.125", "no discrimination against a consumer for exercising privacy rights"),
    Scenario("HIPAA", "A nurse at your clinic posted about my visit on her public social media account on {d2}, with my name and why I came in.",
             "the HIPAA Privacy Rule (45 CFR 164.502)", "protected health information may not be disclosed without authorization", kind="Clinic"),
    Scenario("HIPAA", "I asked for a copy of my medical records on {d1}. It is now {d2} and your office says it is too busy.",
             "the HIPAA right of access (45 CFR 164.524)", "copies of records within 30 days", (40, 80), "Health"),
    Scenario("HIPAA", "My employer {partner} received my diagnosis from your clinic although I never signed anything allowing it.",
             "45 CFR 164.508 (HIPAA Privacy Rule)", "a written authorization before disclosing health information to an employer", kind="Clinic"),
]  # fmt: skip

THREADS = [
    Scenario("GDPR", "Ops, {d1} 09:10: someone copied our customer database overnight, about {n},000 records.|Legal, {d2} 16:40: let's not tell anyone outside until the investigation is finished next month.",
             "Article 33 GDPR", "notify the supervisory authority within 72 hours of becoming aware of the breach", (1, 3)),
    Scenario("GDPR", "IT, {d1}: the cheapest host for our EU customer files is abroad.|Legal, {d2}: that country has no EU approval and we have signed no contract clauses with them, but go ahead.",
             "Chapter V GDPR (Articles 44-46)", "transfers to a third country need an adequacy decision or safeguards such as standard contractual clauses"),
    Scenario("GDPR", "Product, {d1}: the new cameras will match every shopper's face against our list of past shoplifters.|Director, {d2}: launch on Monday, no need for paperwork.",
             "Articles 9 and 35 GDPR", "biometric data need an Article 9 condition and large-scale monitoring needs a data protection impact assessment first", kind="Retail"),
    Scenario("HIPAA", "IT, {d1}: the laptop with {n}00 patients' records (unencrypted) was stolen from a car.|Manager, {d2}: we will tell the patients in our newsletter next quarter.",
             "the HIPAA Breach Notification Rule (45 CFR 164.404-408)", "notify each patient without unreasonable delay and within 60 days, and HHS (and the media if over 500 in a state)", kind="Clinic"),
    Scenario("PIPEDA", "IT, {d1}: an intruder downloaded customers' card numbers.|VP, {d2}: this could hurt people, but reporting it would be bad publicity, so keep it internal.",
             "PIPEDA section 10.1", "report a breach with a real risk of significant harm to the Privacy Commissioner and notify the individuals"),
    Scenario("CCPA", "Growth, {d1}: {n}% of our app users are 13-15 years old.|CEO, {d2}: include them in the data we sell to advertisers, nobody opted out.",
             "CCPA/CPRA § 1798.120(c)", "selling or sharing data of consumers under 16 needs their opt-in consent (a parent's under 13)", kind="Games"),
]  # fmt: skip


def _dates(rng: random.Random, gap: tuple[int, int]) -> tuple[dt.date, dt.date]:
    start = dt.date(2025, rng.randrange(1, 12), rng.randrange(1, 28))
    return start, start + dt.timedelta(days=rng.randrange(*gap))


def _fill(rng: random.Random, scenario: Scenario) -> tuple[str, dict[str, str]]:
    who = person(rng)
    first, second = _dates(rng, scenario.gap_days)
    slots = {
        "name": who.name,
        "company": company(rng, kind=scenario.kind),
        "partner": company(rng),
        "d1": first.strftime("%d %B %Y"),
        "d2": second.strftime("%d %B %Y"),
        "n": str(rng.randrange(3, 40)),
        "law": LAW_NAMES[scenario.regime],
    }
    return scenario.text.format(**slots), slots


def complaint_letter(rng: random.Random, language: str) -> Draft:
    scenario = rng.choice(COMPLAINTS)
    text, slots = _fill(rng, scenario)
    blocks: list[Block] = [Text(slots["name"], 22), Text(person(rng).street, 20, MUTED), Gap(16),
              Text(f"To: {slots['company']}", 22), Gap(10), Text(f"Dear {slots['company']},", 22), Text(text, 23), Gap(8),
              Text("I expect an answer.", 22), Text(slots["name"], 22)]  # fmt: skip
    image = render(
        log_panel(Panel(blocks, style="document", width=840, background=(252, 250, 244)))
    )
    answer = f"{scenario.provision} <OR> {scenario.duty} <AND> {slots['name']} can {AUTHORITY[scenario.regime]}."
    return Draft(image, answer, slots, [slots["company"].split()[0]])


def email_thread(rng: random.Random, language: str) -> Draft:
    scenario = rng.choice(THREADS)
    text, slots = _fill(rng, scenario)
    blocks: list[Block] = [Title(f"Re: incident - {slots['company']} internal", 24)]
    for message in text.split("|"):
        sender, _, body = message.partition(": ")
        blocks += [Field("From", sender, 20), Text(body, 22), Gap(14)]
    image = render(
        log_panel(Panel(blocks, style="screen", width=860, extras={"url": "mail.internal"}))
    )
    answer = f"{scenario.provision} <OR> {scenario.duty}."
    return Draft(image, answer, slots, [slots["company"].split()[0]])


@dataclass(frozen=True)
class Screen:
    regime: str
    kind: str
    answer: str


SCREENS = [
    Screen("GDPR", "cookie_banner", "No, there is only an accept button while refusing is hidden in settings <AND> non-essential tracking cookies need prior, freely given opt-in consent that is as easy to refuse as to give (GDPR Articles 4(11) and 7, ePrivacy Directive Article 5(3))."),
    Screen("GDPR", "pre_ticked", "No, ticked-in-advance boxes are not consent <AND> consent must be an unambiguous affirmative act, specific to each purpose (GDPR Article 4(11), Recital 32, Planet49 ruling)."),
    Screen("CCPA", "no_opt_out", "No, the page sells visitors' data to partners but offers no way to refuse <AND> a business that sells or shares personal information must show a clear \"Do Not Sell or Share My Personal Information\" link (CCPA/CPRA § 1798.135)."),
    Screen("HIPAA", "waiting_room", "No, the public screen discloses patients' names with their prescriptions to everyone in the room <AND> HIPAA requires reasonable safeguards and the minimum necessary disclosure of protected health information (45 CFR 164.530(c), 164.502(b))."),
    Screen("PIPEDA", "app_permissions", "No, a flashlight needs none of these <AND> PIPEDA Principle 4.4 limits collection to what is necessary for the identified purpose, and consent bundled this way is not meaningful (Principle 4.3)."),
]  # fmt: skip


def _screen_image(rng: random.Random, kind: str, firm: str) -> tuple[Image.Image, str]:
    image, draw = canvas(860, 560, (246, 247, 250))
    draw.rounded_rectangle(
        (10, 10, 849, 549), radius=16, fill=(255, 255, 255), outline=(60, 64, 74), width=4
    )
    host = f"www.{firm.lower().replace(' ', '')}.com"
    put(draw, (40, 30), host, 18, MUTED)
    if kind == "cookie_banner":
        put(draw, (40, 90), f"Welcome to {firm}", 34, INK)
        draw.rectangle((10, 330, 849, 549), fill=(30, 34, 44))
        put_wrapped(
            draw,
            (40, 350),
            "We and our 214 partners use cookies to personalise ads and measure you across sites.",
            22,
            780,
            (240, 240, 240),
        )
        draw.rounded_rectangle((560, 450, 820, 510), radius=10, fill=(40, 150, 80))
        put(draw, (690, 480), "ACCEPT ALL", 24, (255, 255, 255), anchor="mm")
        put(draw, (40, 490), "settings", 13, (150, 150, 160))
        return image, host
    if kind == "pre_ticked":
        put(draw, (40, 80), f"Join {firm}", 34, INK)
        put(draw, (40, 150), "E-mail: ______________________", 24, INK)
        for index, line in enumerate(
            [
                "Send me offers from carefully selected partners",
                "Share my profile to improve your experience",
            ]
        ):
            checkbox(draw, 40, 230 + index * 60, True, 26)
            put(draw, (84, 230 + index * 60), line, 22, INK)
        draw.rounded_rectangle((40, 400, 280, 460), radius=10, fill=(40, 90, 170))
        put(draw, (160, 430), "Create account", 22, (255, 255, 255), anchor="mm")
        return image, host
    if kind == "no_opt_out":
        put(draw, (40, 80), f"{firm} - Sign up for free", 32, INK)
        put_wrapped(
            draw,
            (40, 150),
            "Free membership is funded by selling visitor profiles (browsing history, location, age) to our marketing partners.",
            22,
            770,
            INK,
        )
        put(draw, (40, 480), "About | Careers | Terms | Press", 18, MUTED)
        return image, host
    if kind == "waiting_room":
        draw.rectangle((10, 10, 849, 549), fill=(20, 24, 34))
        put(draw, (40, 40), f"{firm} - ready for pickup", 30, (255, 255, 255))
        for index in range(4):
            who = person(rng)
            drug = rng.choice(["Truvada", "Sertraline", "Methadone", "Insulin", "Lithium"])
            put(draw, (40, 120 + index * 80), f"{who.name} - {drug}", 28, (240, 240, 150))
        return image, "screen"
    put(draw, (40, 80), "BrightTorch Flashlight", 32, INK)
    put(draw, (40, 140), "This app needs access to:", 24, INK)
    for index, line in enumerate(
        ["Your contacts", "Your precise location", "Your microphone", "Your call history"]
    ):
        checkbox(draw, 40, 200 + index * 56, True, 24)
        put(draw, (80, 200 + index * 56), line, 24, INK)
    draw.rounded_rectangle((40, 450, 240, 505), radius=10, fill=(40, 90, 170))
    put(draw, (140, 477), "Allow all", 22, (255, 255, 255), anchor="mm")
    return image, "app"


def web_screen(rng: random.Random, language: str) -> Draft:
    screen = rng.choice(SCREENS)
    firm = company(
        rng, kind={"waiting_room": "Pharmacy", "app_permissions": "Apps"}.get(screen.kind, "")
    )
    image, host = _screen_image(rng, screen.kind, firm)
    slots = {"company": firm, "law": LAW_NAMES[screen.regime], "host": host}
    return Draft(image, screen.answer, slots, [firm.split()[0]])


def cctv_sign(rng: random.Random, language: str) -> Draft:
    firm = company(rng)
    image, draw = canvas(760, 420, (255, 214, 10))
    draw.rectangle((16, 16, 743, 403), outline=(20, 20, 20), width=8)
    put(draw, (380, 80), "CCTV IN OPERATION", 44, (20, 20, 20), anchor="mm")
    draw.rounded_rectangle((300, 150, 460, 230), radius=10, fill=(20, 20, 20))
    draw.ellipse((440, 170, 500, 210), fill=(20, 20, 20))
    put(draw, (380, 300), f"{firm} records this area 24 hours a day", 26, (20, 20, 20), anchor="mm")
    answer = ("No, the sign says that filming happens but not who to contact, why, or for how long <AND> under GDPR Articles 12-13 the first-layer notice must at least identify the controller and its contact details, "
              "the purposes and the data subject's rights, with a pointer to the full information.")  # fmt: skip
    return Draft(image, answer, {"company": firm, "law": "GDPR"}, ["CCTV"])


DEADLINES = {
    "GDPR": (None, "one month of receipt (Article 12(3) GDPR)"),
    "CCPA": (45, "45 calendar days (CCPA/CPRA § 1798.130)"),
    "PIPEDA": (30, "30 days (PIPEDA section 8(3))"),
    "HIPAA": (30, "30 days (45 CFR 164.524(b))"),
}


def request_deadline(rng: random.Random, language: str) -> Draft:
    """Know + Law: the latest reply date for a request, computed from the letter's date."""
    regime = rng.choice(list(DEADLINES))
    days, rule = DEADLINES[regime]
    who = person(rng)
    firm = company(rng)
    sent = dt.date(2026, rng.randrange(1, 12), rng.randrange(1, 28))
    if days is None:
        deadline = dt.date(sent.year + (sent.month == 12), sent.month % 12 + 1, sent.day)
    else:
        deadline = sent + dt.timedelta(days=days)
    ask = {"GDPR": "a copy of all personal data you hold about me", "CCPA": "that you delete the personal information you collected about me",
           "PIPEDA": "access to the personal information you hold about me", "HIPAA": "a copy of my medical record"}[regime]  # fmt: skip
    blocks: list[Block] = [Text(f"Received: {sent.strftime('%d %B %Y')}", 22, (160, 30, 30)), Gap(10), Text(f"Dear {firm},", 22),
              Text(f"I request {ask}.", 23), Text(f"Sincerely, {who.name}", 22)]  # fmt: skip
    image = render(log_panel(Panel(blocks, style="document", width=820)))
    answer = f"By {deadline.strftime('%d %B %Y')} <OR> within {rule}."
    return Draft(
        image,
        answer,
        {"company": firm, "law": LAW_NAMES[regime], "name": who.name},
        [str(sent.year)],
    )


def breach_letter(rng: random.Random, language: str) -> Draft:
    """A breach notice to customers whose dates show whether it came in time."""
    regime = rng.choice(["HIPAA", "GDPR"])
    firm = company(rng, kind="Clinic" if regime == "HIPAA" else "")
    who = person(rng)
    found = dt.date(2025, rng.randrange(1, 10), rng.randrange(1, 28))
    if regime == "HIPAA":
        gap = rng.choice([rng.randrange(20, 50), rng.randrange(75, 130)])
        sent = found + dt.timedelta(days=gap)
        line = f"On {found.strftime('%d %B %Y')} we found that an e-mail account holding patient records had been accessed by an outsider."
        late = gap > 60
        verdict = (
            f"No, {gap} days passed between discovery and this letter"
            if late
            else f"Yes, {gap} days is within the limit"
        )
        answer = (f"{verdict} <AND> HIPAA's Breach Notification Rule requires notice to each patient without unreasonable delay "
                  f"and no later than 60 days after discovery (45 CFR 164.404).")  # fmt: skip
        reported = ""
    else:
        hours = rng.choice([rng.randrange(20, 70), rng.randrange(90, 400)])
        reported_at = dt.datetime(found.year, found.month, found.day, 9) + dt.timedelta(hours=hours)
        sent = reported_at.date() + dt.timedelta(days=rng.randrange(1, 5))
        line = f"On {found.strftime('%d %B %Y')} at 09:00 we found that an outsider had copied our customer files."
        reported = f"We reported the incident to the regulator on {reported_at.strftime('%d %B %Y at %H:%M')}."
        late = hours > 72
        verdict = (
            f"No, the regulator was told {hours} hours after discovery"
            if late
            else f"Yes, the regulator was told after {hours} hours"
        )
        answer = (f"{verdict} <AND> Article 33 GDPR requires notifying the supervisory authority without undue delay and, where feasible, "
                  f"within 72 hours of becoming aware of the breach.")  # fmt: skip
    blocks: list[Block] = [Text(sent.strftime("%d %B %Y"), 20, MUTED), Title(f"{firm}: notice of a data incident", 26),
                           Text(f"Dear {who.name},", 22), Text(line, 22)]  # fmt: skip
    if reported:
        blocks.append(Text(reported, 22))
    blocks += [Text("We are sorry for any concern this may cause.", 22)]
    image = render(log_panel(Panel(blocks, style="document", width=860)))
    subject = (
        f"the notice it sent {who.name}"
        if regime == "HIPAA"
        else f"its report to the regulator, as told to {who.name}"
    )
    slots = {"company": firm, "law": LAW_NAMES[regime], "name": who.name, "subject": subject}
    return Draft(image, answer, slots, [firm.split()[0]])


AUTH_ELEMENTS = {
    "Information to be disclosed": "a description of the information to be disclosed",
    "Recipient": "who will receive it",
    "Purpose": "the purpose of the disclosure",
    "Expiration date or event": "an expiration date or event",
    "You may revoke this authorization in writing at any time.": "a statement of the right to revoke",
    "Signature and date": "the patient's signature and date",
}


def consent_form(rng: random.Random, language: str) -> Draft:
    """A HIPAA authorization form that lacks some of its required core elements."""
    firm = company(rng, kind="Clinic")
    employer = company(rng)
    missing = rng.sample(list(AUTH_ELEMENTS), rng.randrange(1, 3))
    image, draw = canvas(860, 560, (255, 255, 255))
    put(draw, (40, 30), f"{firm} - authorization to release records", 26, INK)
    patient = person(rng).name
    put(draw, (40, 80), f"Records of: {patient}", 22, INK)
    y = 130
    values = {"Information to be disclosed": "complete medical record", "Recipient": employer,
              "Purpose": "at the request of the employer", "Expiration date or event": "none"}  # fmt: skip
    for label in AUTH_ELEMENTS:
        if label in missing:
            continue
        if label.startswith("You may"):
            put(draw, (40, y), label, 20, MUTED)
        elif label == "Signature and date":
            signed = f"{rng.randrange(1, 13):02d}/{rng.randrange(1, 29):02d}/2026"
            put(draw, (40, y), f"Signature: {patient}   Date: {signed}", 22, INK)
        else:
            put(draw, (40, y), f"{label}: {values[label]}", 22, INK)
        y += 52
    lacks = [AUTH_ELEMENTS[m] for m in missing]
    if "Expiration date or event" not in missing:
        lacks.append('a real expiration ("none" is not one)')
    answer = (f"No, it lacks {conj(lacks)} <AND> a valid HIPAA authorization must contain all core elements and required statements "
              f"(45 CFR 164.508(c)), so the clinic may not release the records on it.")  # fmt: skip
    return Draft(image, answer, {"company": firm, "law": "HIPAA"}, [firm.split()[0]])


BREACH_QUESTIONS = [
    "Did {company} meet the {law} deadline with {subject}? Explain with the dates.",
    "Judging from the dates in {company}'s letter to {name}, was the breach handled on time under {law}?",
]
FORM_QUESTIONS = [
    "Can {company} release the patient's records on the strength of this form under {law}? Why?",
    "Is the authorization form used by {company} valid under {law}? What is wrong with it?",
]


LAW_QUESTIONS = [
    "{name} sent this letter to {company}. Which {law} obligation did the company fail, and what can {name} do about it?",
    "Under {law}, which provision did {company} breach according to the letter in the image? What recourse does the writer have?",
    "As {company}'s privacy officer, which {law} duty does this letter say you broke, and where could the customer turn next?",
]
THREAD_QUESTIONS = [
    "Going by this e-mail thread at {company}, which {law} obligation is the company about to break?",
    "What does {law} require {company} to do in the situation discussed in these e-mails?",
    "Read {company}'s internal e-mails. Which {law} rule do they ignore, and what should happen instead?",
]
SCREEN_QUESTIONS = [
    "Is what {company} shows on this screen compliant with {law}? Explain.",
    "Does the {company} screen in the image meet the requirements of {law}? Why or why not?",
    "A regulator inspects this {company} screen. Would it pass under {law}? Give the reason.",
]
CCTV_QUESTIONS = [
    "Is the CCTV sign put up by {company} enough under {law}? What is missing?",
    "Under {law}, what information must {company}'s camera sign give that this one does not?",
]
DEADLINE_QUESTIONS = [
    "The request in the image reached {company} on the date stamped. Under {law}, what is the latest date for a reply without an extension?",
    "By when must {company} answer {name}'s request under {law}, if it takes no extension?",
]

FAMILIES: list[Family] = [
    family("law_complaint_letter", [("Law",)], LAW_QUESTIONS, complaint_letter),
    family("law_email_thread", [("Law",)], THREAD_QUESTIONS, email_thread),
    family(
        "law_web_screen",
        [("Law",), ("CntxPriv", "Law"), ("Know", "Law")],
        SCREEN_QUESTIONS,
        web_screen,
    ),
    family("law_cctv_sign", [("CntxPriv", "Law")], CCTV_QUESTIONS, cctv_sign),
    family("law_breach_letter", [("Law",)], BREACH_QUESTIONS, breach_letter),
    family("law_consent_form", [("Law",), ("CntxPriv", "Law")], FORM_QUESTIONS, consent_form),
    family(
        "law_request_deadline", [("Know", "Law"), ("Law",)], DEADLINE_QUESTIONS, request_deadline
    ),
]
