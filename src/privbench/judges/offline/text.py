"""Words: folding, tokens, stems, and the concept table that lets paraphrases meet.

Model answers rarely reuse a reference's words: "the teeth pattern can be read, so it can
be duplicated" says what "the bitting is visible, so someone could copy the key" says.
Exact content-word overlap would grade such paraphrases 0.3–0.6 where the paper's judge
gives 0.9–1.0. So every content word is stemmed and then mapped to a
*concept*: one canonical word for a group of words that privacy answers use
interchangeably. Groups are general privacy and everyday vocabulary, not taken from any
graded answer; a word belongs to at most one group (one fact, one place).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def word_set(words: str) -> frozenset[str]:
    """The words of a whitespace-separated list (tables of words stay readable)."""
    return frozenset(words.split())


STOP = word_set(
    """a an the and or of to in on at by for with from as is are was were be been being it
    its this that these those there here which who whom what when where why how can could
    would should may might will shall do does did done has have had not no yes image
    picture photo shows show shown showing reveals reveal revealed contains contain
    visible see seen appears appear information sensitive privacy risk data personal some
    any all each every into about their them they his her he she our your my me we you i
    also such than then so but if because since while i.e e.g etc table tables answer
    question violates violate provision s t just only very well one's someone's
    include includes including cannot let lets letting allow allows allowing enable enables
    enabling together make makes made making use used using get gets got take takes give
    gives put like way ways thing things must within become becomes becoming whether
    least each other many much more most too even already thus therefore clearly fully
    actually really full entire whole one"""
)
GERMAN_FUNCTION_WORDS = word_set(
    "der die das dem den des ein eine einer einem und oder ist sind sowie nicht mit von zu im "
    "auf für dass"
)
"""German articles, conjunctions and prepositions: stop words, and the mark of a German
sentence (whose nouns are all capitalised, see :mod:`.lists`)."""
STOP |= GERMAN_FUNCTION_WORDS | word_set(
    """el la los las un una unos unas de del al y o que en es son se lo su sus por para con
    como este esta esto le les des du et ou est sont ce cette ces au aux dans pour avec qui
    sur o os as um uma do da dos das e ou é são em no na nos nas com para il lo gli di che è
    и в во на с со по к о об от для что это как или не а но же ли из у за"""
)
"""The same for the languages of the paper's MultLing items (articles, conjunctions,
prepositions, forms of "to be")."""

_CONCEPT_GROUPS: tuple[str, ...] = (
    "person people individual someone somebody man woman human persons personne subject "
    "per anyone anybody everyone stranger passerby passersby coworker colleague visitor "
    "others outsider public attacker adversary bystander onlooker guy girl boy",
    "identify identification identifiable reidentify re-identify reidentification "
    "re-identification re-identified reidentified recognise recognize pinpoint deanonymize deanonymise unmask "
    "singled recognizable recognisable recognized recognised identified traceable",
    "link linked linkage linking join joined joining combine combined combining "
    "combination cross-reference cross-referenced merge merged correlate correlated match "
    "matched matching",
    "infer inference inferred deduce deduced determine tell learn guess",
    "noise perturb perturbation perturbed jitter randomness random randomised randomized",
    "add inject injected insert introduce adding",
    "record row entry dataset database datasets databases",
    "copy duplicate clone replicate reproduce copied duplicated",
    "access enter unlock login log-in intrude intrusion break-in unauthorised "
    "unauthorized hijack takeover",
    "home house residence apartment flat property dwelling live lives living resides reside",
    "bitting teeth tooth groove grooves cut cuts",
    "device phone laptop computer smartphone cellphone mobile client handset telephone "
    "tel telefon téléphone teléfono telefonnummer телефон",
    "local locally on-device decentralized decentralised decentralization",
    "update gradient parameter weight weights",
    "central centralized centralised centrally pool pooled centralize centralise",
    "share send transmit upload communicate sent shared post posting publish published "
    "publishing publicly",
    "necessary needed need required essential excessive necessity unnecessary relevant adequate",
    "purpose aim goal",
    "result output outcome statistic statistics aggregate aggregated query queries",
    "consent permission authorization authorisation authorize authorise agree agreement "
    "approval opt-in approve",
    "written signed writing",
    "erasure erase delete deletion forgotten removal remove erased deleted",
    "protect protection protected protecting protects protective",
    "notify notification inform report alert notified",
    "authority regulator supervisory dpa ico commissioner",
    "breach leak leaked compromise compromised incident",
    "expose exposure disclose disclosure disclosed exposed divulge expos",
    "password credential passcode passphrase pin passwort wpa wpa2 psk passkey",
    "account profile mailbox iban bic swift",
    "network ssid wifi wi-fi wlan",
    "sale sell selling sold sells",
    "optout stop stopping prevent refuse object withdraw unsubscribe decline",
    "compute computation calculation calculate process processing analysis analyse "
    "analyze operation computing",
    "routine regular schedule habit pattern daily usual",
    "fraud theft scam impersonate impersonation fraudulent fraudster phishing pretend "
    "pretends spoof spoofed fake trick deceive lure masquerade impersonates",
    "child kid student pupil children minor son daughter",
    "parent parental guardian mother father",
    "salary salaries pay wage wages income earnings paycheck remuneration",
    "find locate track trace stalk approach follow whereabouts movement movements",
    "collect collecting collected collection gather gathering gathered harvest harvesting",
    "face facial",
    "location place city town loc country lieu ort gpe",
    "organization organisation company org firm institution agency corporation",
    "cardholder holder owner cardholders",
    "payment bank credit debit banking visa mastercard",
    "expiration expiry expires exp",
    "licence license licences licenses licensed",
    "driver driving drivers motorist",
    "e-mail email emails mail courriel message inbox",
    "birth birthday dob born birthdate",
    "medication drug medicine medications pill prescription sertraline",
    "dosage dose mg strength",
    "prescriber doctor physician prescribing nurse clinician",
    "empty unoccupied vacant away absent holiday vacation trip travelling traveling",
    "burglary burgle burgled burglar robbed robbery break steal stolen theft-home",
    "surveillance cctv security camera webcam",
    "doorway door doors entrance",
    "screen monitor display",
    "mirror reflection reflects reflecting reflective",
    "window glass",
    "corridor hallway",
    "looking watching watches facing faces looks staring peeking glance glancing viewing "
    "observe observing read readable legible see sees",
    "passenger traveller traveler flyer",
    "reference pnr confirmation locator",
    "address adresse dirección direccion anschrift адрес street",
    "name nom nombre namen имя fullname",
    "number num no. numéro número nummer номер digits",
    "health medical clinical diagnosis condition disease illness healthcare hospital "
    "hospitals clinic clinics",
    "treatment treat treating treated care caring therapy",
    "unchanged untouched remaining intact unmodified left",
    "attribute field column quasi-identifier variable",
    "encrypt encryption encrypted cipher ciphertext encrypts decrypt decryption "
    "decrypting decrypted plaintext",
    "anonymity anonymous anonymisation anonymization anonymized anonymised anonymize "
    "anonymise de-identification deidentification de-identified",
    "generalization generalized generalised generalisation coarsen coarsened bucket "
    "bucketed range truncated truncate",
    "pseudonymization pseudonym pseudonyms pseudonymisation pseudonymized pseudonymised",
    "masking masked mask redaction redacted redact blurred blur obscured hidden hide pixelated",
    "minimisation minimization minimise minimize minimal limited limit minimum",
    "lawful lawfully legal legally permitted allowed",
    "fine penalty sanction",
    "contact reach call",
    "advertising marketing advertisement ad ads advertiser promotional",
    "tick ticked pre-ticked preticked checkbox checked pre-checked box boxes",
    "affirmative active explicit clear unambiguous",
)


def _stem_raw(word: str) -> str:
    for suffix in ("ization", "isation", "ations", "ation", "ments", "ment", "ness",
                   "ings", "ing", "ies", "ers", "ed", "es", "s"):  # fmt: skip
        if suffix == "es" and not re.search(r"(?:s|x|z|ch|sh)es$", word):
            continue  # "plates" is "plate" + s, as "plate" is; "addresses" drops "es"
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


_OTHER_WORDS = word_set("sign star organ apart oper")
"""Light stems of group words that are other words ("signed" → "sign", "apartment" →
"apart"): a street sign is not a signature, "apart from" is no home."""


_OTHER_LANGUAGES: tuple[tuple[str, str], ...] = (
    (
        "name",
        "姓名 名字 名前 氏名 人名 이름 성명 фио фамилия имени الاسم اسم नाम nome nombre "
        "apellido prénom vorname nachname",
    ),
    (
        "device",
        "手机 手机号 手机号码 电话 电话号码 電話 電話番号 携帯 携帯電話 전화 전화번호 휴대폰 "
        "телефона هاتف الهاتف جوال फ़ोन फोन मोबाइल telefone celular móvil",
    ),
    (
        "address",
        "地址 住址 住所 주소 адреса عنوان العنوان पता endereço indirizzo domicilio "
        "domicile wohnort",
    ),
    (
        "birth",
        "出生 出生日期 生日 生年月日 誕生日 생년월일 생일 рождения рождение الميلاد जन्म "
        "nacimiento naissance geburtsdatum geburt nascimento nascita",
    ),
    ("number", "号码 号 番号 번호 رقم संख्या नंबर numero"),
    (
        "passport",
        "护照 旅券 パスポート 여권 паспорт паспорта جواز पासपोर्ट pasaporte passeport "
        "reisepass passaporte passaporto",
    ),
    (
        "location",
        "地点 地名 地点名 场所 場所 位置 地名 장소 위치 место местоположение локация موقع "
        "المكان स्थान lugar ubicación lieu ort localização luogo",
    ),
    (
        "organization",
        "组织 組織 机构 機関 企業 公司 会社 기관 조직 회사 организация компания منظمة "
        "شركة संगठन organización organisation organisação organizzazione empresa "
        "entreprise unternehmen",
    ),
    (
        "person",
        "人物 人员 個人 人名 사람 인물 человек персона личность شخص व्यक्ति persona personne pessoa",
    ),
    ("e-mail", "邮箱 电子邮件 邮件 メール 이메일 почта электронная البريد ईमेल correo"),
    (
        "identify",
        "身份证 身份证号 身份证号码 マイナンバー 주민등록번호 удостоверение هوية पहचान "
        "identidad identité ausweis identidade",
    ),
    (
        "health",
        "诊断 疾病 病历 診断 病気 진단 질병 диагноз болезнь تشخيص مرض निदान बीमारी "
        "diagnóstico diagnostic diagnose salud santé gesundheit saúde",
    ),
    ("prescriber", "医生 医師 의사 врач طبيب डॉक्टर médico médecin arzt"),
    ("patient", "患者 病人 환자 пациент пациента مريض रोगी paciente"),
    (
        "payment",
        "银行卡 信用卡 银行 銀行 クレジットカード 카드 은행 банк карта بطاقة بنك बैंक tarjeta "
        "carte karte cartão",
    ),
    ("account", "账户 账号 口座 계좌 счёт счет حساب खाता cuenta compte konto conta"),
    (
        "consent",
        "同意 동의 согласие согласия موافقة الموافقة सहमति consentimiento consentement "
        "einwilligung zustimmung consentimento consenso",
    ),
    (
        "purpose",
        "目的 목적 цель цели غرض الغرض उद्देश्य finalidad propósito finalité zweck "
        "finalidade finalità",
    ),
    (
        "necessary",
        "必要 必要性 필요 필요성 необходимо необходимый необходимость ضروري आवश्यक "
        "necesario necesaria nécessaire erforderlich notwendig necessário necessario",
    ),
    (
        "protect",
        "保护 保護 보호 защита защиты حماية सुरक्षा protección protection schutz proteção protezione",
    ),
    (
        "erasure",
        "删除 刪除 削除 삭제 удаление удалить حذف हटाना supresión borrar suppression "
        "effacement löschung löschen apagamento cancellazione",
    ),
    (
        "access",
        "访问 查阅 アクセス 접근 열람 доступ وصول पहुंच acceso accès zugang zugriff acesso accesso",
    ),
    (
        "share",
        "共享 分享 共有 공유 передача передать مشاركة साझा compartir partager teilen "
        "weitergeben compartilhar condividere",
    ),
    (
        "expose",
        "披露 泄露 公开 漏洩 開示 공개 유출 раскрытие разглашение كشف إفشاء प्रकटीकरण "
        "divulgación divulgation offenlegung divulgação",
    ),
    ("health", "健康 医疗 医療 건강 의료 здоровье здоровья صحة الصحة स्वास्थ्य"),
    ("fine", "罚款 罰金 과징금 штраф غرامة जुर्माना multa amende bußgeld geldbuße sanzione"),
    (
        "encrypt",
        "加密 暗号化 암호화 шифрование تشفير एन्क्रिप्शन cifrado chiffrement "
        "verschlüsselung criptografia crittografia",
    ),
    (
        "anonymity",
        "匿名 匿名化 익명 익명화 анонимизация анонимность إخفاء गुमनाम anonimización "
        "anonymisierung anonimização anonimizzazione",
    ),
    (
        "child",
        "儿童 子供 아동 ребёнок ребенок дети طفل الأطفال बच्चा niño niños enfant enfants "
        "criança bambino",
    ),
    ("parent", "父母 家长 保護者 부모 родитель родители الوالدين माता-पिता padres eltern genitori"),
)
"""Labels of personal data in the languages of the paper's MultLing items and their
neighbours: a reference in Chinese lists "姓名：张伟" where an answer in English says
"Name: Zhang Wei". Each joins the concept of its English word above (one fact, one
place: the English group holds the concept, this table only its other spellings)."""

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
"""Scripts written without spaces between words (Chinese, Japanese, Korean)."""


def _concept_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for concept, spellings in _OTHER_LANGUAGES:
        for word in spellings.split():
            table.setdefault(word, concept)
    for group in _CONCEPT_GROUPS:
        words = group.split()
        canonical = words[0]
        for word in words:
            table.setdefault(word, canonical)
            if _stem_raw(word) not in _OTHER_WORDS:
                table.setdefault(_stem_raw(word), canonical)
    return table


_CONCEPTS = _concept_table()
_CJK_LABELS = sorted((w for w in _CONCEPTS if CJK.search(w) and len(w) >= 2), key=len, reverse=True)


def cjk_labels(token: str) -> tuple[list[str], str]:
    """The label words inside a run of Chinese, Japanese or Korean text (longest first),
    and what is left of the run without them ("姓名张伟" → ["姓名"], "张伟")."""
    found = []
    rest = token
    for label in _CJK_LABELS:
        if label in rest:
            found.append(label)
            rest = rest.replace(label, " ")
    return found, rest


_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\bsingle[sd]?\s+(?:\w+\s+)?out\b", " identify "),
        (r"\bbreak(?:s|ing)?\s+in(?:to)?\b|\bbroke\s+in(?:to)?\b|\bget\s+into\b", " access "),
        (r"\blog(?:s|ged|ging)?\s+(?:in|into|on)\b|\bsign\s+in\b", " access "),
        (r"\bidentity\s+theft\b|\bsocial\s+engineering\b", " fraud "),
        (r"\blog-?in\s+(?:details|information|data|info)\b|\baccess\s+codes?\b", " password "),
        (
            r"\bin\s+one\s+place\b|\bin\s+a\s+single\s+place\b|\bone\s+location\b(?=\s+for)",
            " central ",
        ),
        (r"\bplain\s+sight\b|\bin\s+view\b", " looking "),
        (
            r"\bnever\s+leaves?\b|\bstays?\s+on\b|\bremains?\s+on\b"
            r"|\bon\s+(?:each|every|the|their|its|your|users?'?)\s+(?:own\s+)?(?:device|phone|client)s?\b",
            " local ",
        ),
        (r"\bright\s+to\s+be\s+forgotten\b", " right erasure "),
        (r"\bopt[\s-]+in\b", " consent "),
        (r"\bopt(?:s|ed|ing)?[\s-]+out\b|\bdo\s+not\s+sell\b", " optout "),
        (r"\bprotected\s+health\s+information\b|\bphi\b", " health information "),
        (r"\bwho\s+(?:he|she|they)\s+(?:is|are)\b", " identify "),
        (r"\bover\s+(?:the|their|his|her|your|a)?\s*shoulders?\b", " behind "),
    )
)


_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")


def unescape_markdown(text: str) -> str:
    """The text with markdown's backslash escapes resolved ("130\\*\\*" → "130**"): what
    a reader of the rendered answer sees."""
    return _MARKDOWN_ESCAPE.sub(r"\1", text)


def fold(text: str) -> str:
    """Unicode-normalised lower case: the form every comparison uses."""
    return unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")


_TOKEN = re.compile(r"[\w][\w.\-']*[\w]|[\w]")


def tokens(text: str) -> list[str]:
    """Word tokens of folded text; hyphenated words also yield their parts."""
    found = _TOKEN.findall(fold(text))
    return found + [part for t in found if "-" in t for part in t.split("-") if part]


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """The concept a word stands for, or its light stem when it is in no group."""
    word = word.removesuffix("'s")
    plural_y = word[:-3] + "y" if word.endswith("ies") else word
    for candidate in (word, word.removesuffix("s"), word.removesuffix("es"), plural_y):
        if candidate in _CONCEPTS:
            return _CONCEPTS[candidate]
    stemmed = _stem_raw(word)
    return _CONCEPTS.get(stemmed, stemmed)


def rephrase(text: str) -> str:
    """Folded text with multi-word paraphrases replaced by their concept word."""
    folded = fold(text)
    for pattern, replacement in _PHRASES:
        folded = pattern.sub(replacement, folded)
    return folded


@lru_cache(maxsize=8192)
def content_words(text: str) -> frozenset[str]:
    """Concepts of a text's content words (stop words and pure numbers left out).

    A hyphenated word that is a concept of its own ("quasi-identifier", "re-identify")
    is one concept: its parts ("quasi", "identifier") would count one term two or three
    times and let a bare term meet a whole explanation.
    """
    found = _TOKEN.findall(fold(rephrase(text)))
    words = found + [part for t in found if "-" in t and not is_concept(t) for part in t.split("-")]
    # a run of Chinese or Japanese that holds labels stands for them (the rest of a
    # sentence written without spaces matches nothing); one without is a word, or a name
    runs = {t: cjk_labels(t)[0] for t in found if CJK.search(t)}
    words = [w for w in words if not runs.get(w)] + [lab for labs in runs.values() for lab in labs]
    return frozenset(
        stem(t)
        for t in words
        if t not in STOP and len(t) > 1 and any(c.isalpha() for c in t)  # "4.3" is no word
    )


def is_concept(word: str) -> bool:
    """Whether a word belongs to one of the concept groups (not only a light stem)."""
    return stem(word) in _CANONICAL


_CANONICAL = frozenset(_CONCEPTS.values())


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'*(\[])|\n+")


def sentences(text: str) -> list[str]:
    """The text's sentences (and lines), non-empty."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]
