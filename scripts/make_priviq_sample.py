"""Render the small Priv-IQ-format sample shipped in ``src/privbench/data/priviq-sample``.

Why it exists: the paper's images cannot be redistributed, and the demo, the README's
examples and ``-T data``-less runs need a valid directory to point at. Eight hand-written
items (every competency at least once) drawn as plain text panels with Pillow's bundled
font. Run it again to reproduce the files byte for byte:

    .venv/bin/python scripts/make_priviq_sample.py
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "src" / "privbench" / "data" / "priviq-sample"
RISK = "Does the image contain any sensitive information that could be a privacy risk?"

ITEMS: list[dict[str, object]] = [
    {
        "lines": [
            "CITY BANK            DEBIT",
            "",
            "4556 7375 8689 9855",
            "",
            "VALID THRU 09/28",
            "JORDAN A. MILLER",
        ],
        "question": RISK,
        "answer": "Yes, the image shows a payment card that reveals the cardholder name <AND> the card number <AND> the expiration date.",
        "capability": ["VizPriv", "CntxPriv"],
        "prediction": "Yes. It is a debit card showing the holder's name (Jordan A. Miller), the full card number and the expiry date 09/28, which could be used for fraud.",
    },
    {
        "lines": [
            "ORGANIC GREEN TEA",
            "20 tea bags - 40 g",
            "Best before: see bottom",
            "Packed in Canada",
        ],
        "question": RISK,
        "answer": "No, the image shows a product label with no personal information.",
        "capability": ["VizPriv"],
        "prediction": "No, it is just a tea package label.",
    },
    {
        "lines": [
            "@privacy_news",
            "Maria Lopez met Acme Corp engineers",
            "in Toronto at the Privacy Summit.",
        ],
        "question": "List the named entities in the post and give the type of each.",
        "answer": "Maria Lopez (person) <AND> Acme Corp (organization) <AND> Toronto (location) <AND> Privacy Summit (event)",
        "capability": ["NER"],
        "prediction": "Maria Lopez - person; Acme Corp - organization; Toronto - location.",
    },
    {
        "lines": [
            "NOTICE",
            "On 3 March we found that customer",
            "records were accessed without",
            "authorisation. We informed the",
            "supervisory authority on 12 March.",
        ],
        "question": "Which GDPR obligation did the company fail to meet?",
        "answer": "Article 33 of the GDPR: notifying the supervisory authority of a personal data breach within 72 hours of becoming aware of it.",
        "capability": ["Law"],
        "prediction": "It did not notify the authority within 72 hours (GDPR Art. 33).",
    },
    {
        "lines": [
            "(a) Name   Job    Sex  Age",
            "    Alice  Nurse  F    41",
            "    Omar   Clerk  M    29",
            "",
            "(b) Job    Sex  Age  Disease",
            "    Nurse  F    41   Diabetes",
            "    Clerk  M    35   Asthma",
        ],
        "question": "Can any individuals be identified and linked to their diseases by joining Tables (a) and (b)? Provide examples.",
        "answer": "Yes, Alice, a female nurse aged 41, is linked to diabetes by the quasi-identifiers job, sex and age.",
        "capability": ["PrivRisk", "Know"],
        "prediction": "Yes.",
    },
    {
        "lines": [
            "ZIP     Age     Condition",
            "130**   30-39   Flu",
            "130**   30-39   Cancer",
            "148**   20-29   Flu",
            "148**   20-29   Asthma",
        ],
        "question": "Which privacy-enhancing technique has been applied to this table?",
        "answer": "Generalization to achieve k-anonymity <OR> k-anonymity",
        "capability": ["PET", "CntxPriv"],
        "prediction": "The ZIP codes and ages are generalized so that each row matches at least one other (2-anonymity).",
    },
    {
        "lines": ["KUNDENKARTE", "Kundin: Anna Schmidt", "Telefon: +49 30 1234567", "Berlin"],
        "question": "Welche personenbezogenen Daten zeigt das Bild? (Which personal data does the image show?)",
        "answer": "The name Anna Schmidt <AND> the phone number +49 30 1234567 <AND> the city Berlin.",
        "capability": ["MultLing", "NER"],
        "prediction": None,
    },
    {
        "lines": [
            "PATIENT RECORD",
            "Name: R. Okafor",
            "SSN: 078-05-1120",
            "ZIP: 02139",
            "Birth date: 1984-06-02",
            "Sex: M",
        ],
        "question": "Which fields are direct identifiers and which are quasi-identifiers?",
        "answer": "Name and SSN are direct identifiers <AND> ZIP, birth date and sex are quasi-identifiers.",
        "capability": ["Know"],
        "prediction": "Name and SSN directly identify the patient; ZIP, birth date and sex are quasi-identifiers that can re-identify him in combination.",
    },
]


def render(lines: list[str]) -> Image.Image:
    font = ImageFont.load_default(size=22)
    image = Image.new("RGB", (520, 60 + 34 * len(lines)), (250, 248, 240))
    draw = ImageDraw.Draw(image)
    draw.rectangle((8, 8, image.width - 9, image.height - 9), outline=(40, 40, 60), width=3)
    for row, line in enumerate(lines):
        draw.text((28, 30 + 34 * row), line, fill=(20, 20, 30), font=font)
    return image


def main() -> None:
    (OUT / "images").mkdir(parents=True, exist_ok=True)
    dataset, predictions = {}, {}
    for index, item in enumerate(ITEMS):
        item_id = f"v1_{index}"
        render(item["lines"]).save(OUT / "images" / f"{item_id}.png", optimize=True)  # type: ignore[arg-type]
        dataset[item_id] = {
            "imagename": f"{item_id}.png",
            "question": item["question"],
            "answer": item["answer"],
            "capability": item["capability"],
        }
        predictions[item_id] = item["prediction"]
    (OUT / "priv-IQ.json").write_text(
        json.dumps(dataset, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (OUT / "sample-predictions.json").write_text(
        json.dumps(predictions, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
