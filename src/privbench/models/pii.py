"""Finding personal data and named entities in OCR text (pure functions).

What the baseline can see in a line of text: card numbers (Luhn-valid, python-stdnum),
IBANs, US SSNs, e-mail addresses, phone numbers (phonenumbers, several regions), dates,
labelled fields ("Name: …", "Patient …", "Телефон: …", "姓名：…") and capitalised
names, organisations, locations and events. Multilingual labels cover the generated
suites' languages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

REGIONS = ("US", "GB", "DE", "FR", "ES", "RU", "CN", "JP", "SA", "CA")

LABELS: dict[str, tuple[str, ...]] = {
    "name": ("name", "patient", "passenger", "cardholder", "member", "customer", "kundin", "kunde", "nom", "nombre", "имя", "姓名", "氏名", "الاسم", "loyalty member"),
    "phone": ("phone", "telephone", "tel", "telefon", "téléphone", "teléfono", "телефон", "电话", "電話", "الهاتف", "member phone"),
    "address": ("address", "adresse", "dirección", "адрес", "地址", "住所", "العنوان"),
    "birth date": ("date of birth", "birth date", "dob", "born"),
    "ID number": ("id number", "ssn", "passport", "id"),
    "e-mail address": ("e-mail", "email", "to", "from"),
    "medication": ("medication", "drug", "rx"),
    "booking reference": ("booking ref", "booking reference", "pnr"),
}  # fmt: skip
ORG_MARKERS = (
    "inc",
    "corp",
    "llc",
    "ltd",
    "gmbh",
    "kg",
    "sarl",
    "s.a",
    "s.l",
    "ag",
    "labs",
    "bank",
    "health",
    "group",
    "pharmacy",
    "ооо",
    "有限公司",
    "会社",
    "للتجارة",
)
EVENT_MARKERS = ("summit", "week", "forum", "expo", "fair", "conference")
LOCATION_PREPOSITIONS = ("in", "at", "à", "en", "в", "in der", "aus", "from")

_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+\.[\w.\-]+")
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{2,4}\b|\b\d{1,2}\s+(January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}\b"
)
_DIGIT_RUN = re.compile(r"(?:\d[ \-]?){12,22}\d")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_CAPITALISED = re.compile(r"\b([A-Z][a-zà-ÿ'\-]+(?:\s+(?:[A-Z][a-zà-ÿ'\-]+|[A-Z]\.))+)")


@dataclass
class Findings:
    """Personal data found in a text, by kind, in the order found."""

    found: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, value: str) -> None:
        values = self.found.setdefault(kind, [])
        if value not in values:
            values.append(value)

    @property
    def kinds(self) -> list[str]:
        return list(self.found)


def _labelled(line: str) -> tuple[str, str] | None:
    """``(kind, value)`` of a ``Label: value`` line whose label names a personal field."""
    match = re.match(r"^\s*([^:：]{1,30})[:：]\s*(.+)$", line)
    if not match:
        return None
    label, value = match.group(1).strip().lower(), match.group(2).strip()
    for kind, names in LABELS.items():
        if label in names:
            return kind, value
    return None


def find_pii(lines: list[str]) -> Findings:
    """Personal data in OCR lines: validated numbers, e-mails, phones, dates, fields."""
    # imported here: this module loads with privbench's inspect entry point (every run)
    import phonenumbers
    from stdnum import iban, luhn
    from stdnum.us import ssn

    findings = Findings()
    text = "\n".join(lines)
    for line in lines:
        labelled = _labelled(line)
        if labelled:
            findings.add(*labelled)
    for run in _DIGIT_RUN.findall(text):
        digits = re.sub(r"\D", "", run)
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits):
            findings.add("card number", run.strip())
    for candidate in _IBAN.findall(text):
        if iban.is_valid(candidate):
            findings.add("IBAN", candidate)
    for candidate in _SSN.findall(text):
        if ssn.is_valid(candidate):
            findings.add("ID number", candidate)
    for email in _EMAIL.findall(text):
        findings.add("e-mail address", email)
    for region in REGIONS:
        for match in phonenumbers.PhoneNumberMatcher(text, region):
            if "card number" not in findings.found or match.raw_string not in " ".join(
                findings.found["card number"]
            ):
                findings.add("phone number", match.raw_string)
    for date in _DATE.finditer(text):
        findings.add("date", date.group(0))
    medication = re.search(r"[A-Z][a-z]+\s+\d+\s?(?:mg|mcg|ml)\b", text)
    if medication:
        findings.add("medication", medication.group(0))
    return findings


@dataclass(frozen=True)
class Entity:
    text: str
    type: str


def entity_type(name: str, context: str) -> str:
    """person, organization, location or event, from markers and the preceding word."""
    lowered = name.lower()
    if any(
        lowered.endswith(m) or f" {m}" in lowered or m in lowered for m in ORG_MARKERS if len(m) > 3
    ) or any(lowered.split()[-1] == m for m in ORG_MARKERS):
        return "organization"
    if any(m in lowered for m in EVENT_MARKERS):
        return "event"
    before = context[: context.find(name)].strip().split()
    if before and before[-1].lower() in LOCATION_PREPOSITIONS:
        return "location"
    return "person"


def find_entities(text: str) -> list[Entity]:
    """Capitalised multi-word names (or single capitalised words after a preposition)."""
    entities: list[Entity] = []
    seen: set[str] = set()
    for match in _CAPITALISED.finditer(text):
        name = match.group(1).strip()
        words = name.split()
        # leading sentence words like "The" or "Volunteers" are not part of a name
        while words and words[0].lower() in ("the", "volunteers", "today", "finally", "dear"):
            words = words[1:]
        name = " ".join(words)
        if len(words) >= 1 and name not in seen:
            seen.add(name)
            entities.append(Entity(name, entity_type(name, text)))
    for match in re.finditer(r"\b(?:in|at|à|en)\s+([A-Z][a-zà-ÿ\-]+)", text):
        name = match.group(1)
        if name not in seen:
            seen.add(name)
            entities.append(Entity(name, "location"))
    return entities
