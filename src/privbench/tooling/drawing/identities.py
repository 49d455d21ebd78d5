"""Fictitious people and valid-looking identifiers for generated items.

Names, addresses, companies and dates come from Faker in the item's locale; numbers that
have check digits are made valid with python-stdnum (Luhn card numbers, IBANs, US SSNs)
and phone numbers are checked with phonenumbers, so an OCR+PII detector — or a model —
that validates what it reads sees realistic data. Every value is derived from the
caller's seeded ``random.Random``, so generation is reproducible. Dates count from
:data:`REFERENCE_DATE`, never from today (Faker's ``date_of_birth`` would), so a suite is
the same on any day.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from dataclasses import dataclass

import phonenumbers
from faker import Faker
from faker.providers.date_time import change_year
from stdnum import iban, luhn
from stdnum.us import ssn

LOCALES: dict[str, str] = {
    "en": "en_US",
    "ru": "ru_RU",
    "zh": "zh_CN",
    "ar": "ar_SA",
    "es": "es_ES",
    "de": "de_DE",
    "fr": "fr_FR",
    "ja": "ja_JP",
}
LANGUAGE_NAMES = {
    "en": "English",
    "ru": "Russian",
    "zh": "Chinese",
    "ar": "Arabic",
    "es": "Spanish",
    "de": "German",
    "fr": "French",
    "ja": "Japanese",
}
_REGIONS = {
    "en": "US",
    "ru": "RU",
    "zh": "CN",
    "ar": "SA",
    "es": "ES",
    "de": "DE",
    "fr": "FR",
    "ja": "JP",
}
# Faker's ar_SA city and phone providers mix in English templates: curated cities instead
_ARABIC_CITIES = ("الرياض", "جدة", "مكة", "المدينة", "الدمام", "القاهرة", "دبي", "عمّان")


@functools.cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def faker(rng: random.Random, language: str) -> Faker:
    """The locale's Faker, reseeded from ``rng``."""
    fake = _faker(LOCALES[language])
    fake.seed_instance(rng.randrange(2**31))
    return fake


REFERENCE_DATE = dt.date(2026, 11, 30)
"""The day every generated date counts from, in place of today. Faker's relative date
providers (``date_of_birth``, ``past_date``, ``date_between("-30y")``, ...) count from the
clock, which made a suite generated with the same ``n`` and seed differ from one day to
the next. This is the day the shipped Priv-IQ suite was generated, so it stays byte-for-byte
what ``privbench generate priviq --seed 0`` writes. Changing it changes generated suites."""


def birth_date(fake: Faker, minimum_age: int, maximum_age: int) -> dt.date:
    """Faker's ``date_of_birth(minimum_age=, maximum_age=)``, counted from
    :data:`REFERENCE_DATE` instead of today: the same single draw from ``fake``'s stream
    over the same range, so the dates equal those Faker gave on that day."""
    start = change_year(REFERENCE_DATE, -(maximum_age + 1))
    end = change_year(REFERENCE_DATE, -minimum_age)
    born = fake.date_time_ad(start_datetime=start, end_datetime=end).date()
    return born if born != start else born + dt.timedelta(days=1)


@dataclass(frozen=True)
class Person:
    """A fictitious person as an item shows them."""

    name: str
    city: str
    street: str
    phone: str
    email: str
    birth_date: str
    job: str
    company: str


def _digits(rng: random.Random, count: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(count))


def phone_number(rng: random.Random, language: str) -> str:
    """A phone number that phonenumbers accepts as valid for the language's region."""
    region = _REGIONS[language]
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    assert example is not None
    national = str(example.national_number)
    for _ in range(200):
        candidate = national[:3] + _digits(rng, len(national) - 3)
        number = phonenumbers.parse(candidate, region)
        if phonenumbers.is_valid_number(number):
            return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    return phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


def person(rng: random.Random, language: str = "en") -> Person:
    """A fictitious person in the language's locale."""
    fake = faker(rng, language)
    if language == "ar":
        name = f"{fake.first_name()} {fake.last_name()}"
        city = rng.choice(_ARABIC_CITIES)
        street = f"{fake.last_name()} {rng.randrange(1, 200)}"
        company = f"{fake.last_name()} للتجارة"
    else:
        name = fake.name()
        city = fake.city()
        street = fake.street_address()
        company = fake.company()
    ascii_name = "".join(c for c in _faker("en_US").first_name().lower() if c.isalpha())
    return Person(
        name=name,
        city=city,
        street=street,
        phone=phone_number(rng, language),
        email=f"{ascii_name}.{rng.randrange(10, 99)}@{rng.choice(('mail.com', 'example.org', 'inbox.net'))}",
        birth_date=birth_date(fake, minimum_age=19, maximum_age=80).isoformat(),
        job=fake.job(),
        company=company,
    )


def card_number(rng: random.Random) -> str:
    """A Luhn-valid 16-digit payment card number in groups of four (Visa/Mastercard-like)."""
    body = rng.choice(("4", "51", "52", "53", "54", "55")) + ""
    body += _digits(rng, 15 - len(body))
    number = body + luhn.calc_check_digit(body)
    return " ".join(number[i : i + 4] for i in range(0, 16, 4))


def german_iban(rng: random.Random) -> str:
    """A valid German IBAN (check digits computed by python-stdnum), formatted."""
    bban = _digits(rng, 18)
    check = iban.calc_check_digits("DE00" + bban)
    return iban.format(f"DE{check}{bban}")


def us_ssn(rng: random.Random) -> str:
    """A US Social Security number that python-stdnum accepts."""
    while True:
        candidate = (
            f"{rng.randrange(1, 899):03d}-{rng.randrange(1, 99):02d}-{rng.randrange(1, 9999):04d}"
        )
        if ssn.is_valid(candidate):
            return candidate


def expiry(rng: random.Random) -> str:
    return f"{rng.randrange(1, 13):02d}/{rng.randrange(27, 33)}"


# Real cities per locale (Faker's city providers for some locales build names such as
# "Sainte DenisBourg" or "Lake Jennifer" from syllables).
REAL_CITIES: dict[str, tuple[str, ...]] = {
    "en": ("Chicago", "Denver", "Seattle", "Boston", "Austin", "Portland", "Atlanta", "Phoenix",
           "Toronto", "Vancouver", "Ottawa", "Manchester", "Leeds", "Dublin", "Melbourne"),
    "ru": ("Москва", "Казань", "Новосибирск", "Екатеринбург", "Самара", "Пермь", "Томск"),
    "zh": ("北京", "上海", "广州", "深圳", "成都", "杭州", "武汉", "南京"),
    "ar": _ARABIC_CITIES,
    "es": ("Madrid", "Sevilla", "Valencia", "Bilbao", "Zaragoza", "Málaga", "Granada"),
    "de": ("Berlin", "Hamburg", "München", "Köln", "Leipzig", "Dresden", "Bremen"),
    "fr": ("Lyon", "Marseille", "Toulouse", "Nantes", "Bordeaux", "Lille", "Strasbourg"),
    "ja": ("東京", "大阪", "京都", "札幌", "福岡", "名古屋", "神戸"),
}  # fmt: skip


def real_city(rng: random.Random, language: str = "en") -> str:
    """A real city of the language's region."""
    return rng.choice(REAL_CITIES[language])
