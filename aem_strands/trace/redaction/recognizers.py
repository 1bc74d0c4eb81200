"""Cards, IBANs, national ids, e-mail addresses and phone numbers by Presidio's own recognizers
(``aem_strands.trace.redaction.presidio`` loads them without its NLP engine), each match kept at Presidio's
confidence 0.4 or more after its context rule.

Where a recognizer's patterns miss a writing a trace holds, the text it reads is widened, not its patterns: cards
are read with dots, slashes and non-breaking spaces between digits taken as spaces (a copy of the same length, so
positions hold) plus the 2-series Mastercard range (2221-2720) beside Presidio's own card pattern, and a card-shaped
number that fails the checksum is still a card where a word naming a payment card stands before it
("the Visa 4929118055230147"; the bare word "card" is not enough) or in the key it stands under
(``payment_card.number``: ``card_named_by_key``); e-mail addresses
are also read percent-decoded (``jane%40example.com``); a phone number the phone library calls invalid (no such
area code) is still a phone when one of the phone recognizer's own context words stands before it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from aem_strands.trace.redaction.kinds import SensitiveKind, SensitiveSpan
from aem_strands.trace.redaction.presidio import MIN_SCORE_WITH_CONTEXT, context_score, recognizer_classes

MIN_SCORE = 0.4
"""Presidio's confidence below which a match is dropped: its 'very weak' SSN patterns (0.05, any nine digits) and
unvalidated card candidates fall under it unless a context word raises them (``context_score``)."""

_GOVERNMENT_IDS = (
    ("country_specific.us.us_ssn_recognizer", "UsSsnRecognizer"),
    ("country_specific.us.us_itin_recognizer", "UsItinRecognizer"),
    ("country_specific.uk.uk_nino_recognizer", "UkNinoRecognizer"),
    ("country_specific.canada.ca_sin_recognizer", "CaSinRecognizer"),
    ("country_specific.australia.au_tfn_recognizer", "AuTfnRecognizer"),
    ("country_specific.finland.fi_personal_identity_code_recognizer", "FiPersonalIdentityCodeRecognizer"),
    ("country_specific.germany.de_tax_id_recognizer", "DeTaxIdRecognizer"),
    ("country_specific.spain.es_nif_recognizer", "EsNifRecognizer"),
    ("country_specific.spain.es_nie_recognizer", "EsNieRecognizer"),
    ("country_specific.india.in_aadhaar_recognizer", "InAadhaarRecognizer"),
    ("country_specific.india.in_pan_recognizer", "InPanRecognizer"),
    ("country_specific.italy.it_fiscal_code_recognizer", "ItFiscalCodeRecognizer"),
    ("country_specific.korea.kr_rrn_recognizer", "KrRrnRecognizer"),
    ("country_specific.nigeria.ng_nin_recognizer", "NgNinRecognizer"),
    ("country_specific.poland.pl_pesel_recognizer", "PlPeselRecognizer"),
    ("country_specific.sweden.se_personnummer_recognizer", "SePersonnummerRecognizer"),
    ("country_specific.singapore.sg_fin_recognizer", "SgFinRecognizer"),
    ("country_specific.thai.th_tnin_recognizer", "ThTninRecognizer"),
    ("country_specific.turkey.tr_national_id_recognizer", "TrNationalIdRecognizer"),
    ("country_specific.south_africa.za_id_number_recognizer", "ZaIdNumberRecognizer"),
)
"""The national identity and tax numbers of Presidio's predefined recognizers (all ``government_id``)."""

_OTHERS = (
    ("generic.credit_card_recognizer", "CreditCardRecognizer"),
    ("generic.iban_recognizer", "IbanRecognizer"),
    ("generic.email_recognizer", "EmailRecognizer"),
    ("generic.phone_recognizer", "PhoneRecognizer"),
)

_MASTERCARD_2_SERIES = r"\b(2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))[- ]?(\d{4})[- ]?(\d{4})[- ]?(\d{4})\b"
_CARD_SEPARATORS = re.compile(r"(?<=\d)[.\u00a0\u2007\u202f/](?=\d)")
_PHONE_CANDIDATE = re.compile(r"\+?\(?\d(?:[\s().\-/]{0,3}\d){6,}\)?")
"""Seven digits or more with at most a few separators between each: the least a phone number is written with."""
_NOT_A_PHONE = re.compile(r"\d{4}-\d\d-\d\d|\d\d?:\d\d|[0-9a-f]{8}-[0-9a-f]{4}", re.IGNORECASE)
"""A date, a time or a UUID: digits a phone pattern would otherwise read."""
_QUANTITY = re.compile(r"\d+(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?")
"""A decimal number or a ratio (``0.0213``, ``11943/60000``): a quantity, never a phone number."""
_MAX_PHONE_DIGITS = 15
"""E.164: a phone number has at most fifteen digits with its country code."""
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_DATE_OR_TIME = re.compile(r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d[\d:.]*)?|\d\d?:\d\d(?::\d\d)?")
_IDENTIFIER_DIGITS = re.compile(r"_\d+|\d+_")
_DIGIT_CLUSTER = re.compile(r"\d(?:[\s\-./()\u00a0]{0,3}\d)*")
_LETTERS_AND_DIGITS = re.compile(r"[A-Za-z]\d{4}|\d{4}[A-Za-z]")
NUMBER_DIGITS = 6
"""The fewest digits of any value ``presidio_spans`` reads but an e-mail address: UK national insurance and Finnish
identity numbers (6), the rest more (cards 12 or more, IBANs 10 or more); Indian PAN and Italian fiscal codes hold
four digits next to letters. A text without such a cluster of digits (dates and times aside) is not read for them."""


def _glued(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def holds_number(text: str) -> bool:
    """Whether ``text`` has digits enough for a card, IBAN or national id (see ``NUMBER_DIGITS``)."""
    # Digits joined to an identifier by an underscore (``ORDER_167934``) are no value: every pattern read here
    # starts and ends at a word boundary, and an underscore is a word character.
    plain = _IDENTIFIER_DIGITS.sub(" ", _DATE_OR_TIME.sub(" ", text))
    if any(sum(ch.isdigit() for ch in m.group()) >= NUMBER_DIGITS for m in _DIGIT_CLUSTER.finditer(plain)):
        return True
    return bool(_LETTERS_AND_DIGITS.search(plain))


@functools.lru_cache(maxsize=1)
def _recognizers() -> tuple[tuple[SensitiveKind, Any, Any], ...]:
    """Each recognizer with its kind and a probe: one expression of all its patterns, searched before the
    recognizer runs (most texts match none, and a probe costs a tenth of Presidio's ``analyze``)."""
    import regex  # type: ignore[import-untyped]  # Presidio's own expression engine (its patterns need it); no stubs
    import tldextract

    found = recognizer_classes(_OTHERS + _GOVERNMENT_IDS)
    # The default extractor fetches the public-suffix list over the network on first use; the snapshot shipped
    # in the package is enough to tell a real domain from a dotted word.
    offline_domains = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

    email: Any = found["EmailRecognizer"]

    class OfflineEmailRecognizer(email):  # type: ignore[misc]  # Presidio's class, loaded at run time
        def validate_result(self, pattern_text: str) -> bool:
            # The domain alone: a local part may hold what a URL parser reads as a path (``a?b=c@example.com``). An
            # id may go on after the address (``jane@example.com-run``): the address is then its part before a hyphen
            # (the whole id is redacted: no part of the address shows).
            domain = pattern_text.rsplit("@", 1)[-1]
            return bool(offline_domains(domain).fqdn or offline_domains(domain.split("-", 1)[0]).fqdn)

    card = found["CreditCardRecognizer"]
    pattern = type(card.PATTERNS[0])
    cards = card(patterns=[*card.PATTERNS, pattern("Mastercard 2-series", _MASTERCARD_2_SERIES, 0.3)])
    chosen = (
        (SensitiveKind.CARD, cards),
        (SensitiveKind.IBAN, found["IbanRecognizer"]()),
        (SensitiveKind.EMAIL, OfflineEmailRecognizer()),
        *((SensitiveKind.GOVERNMENT_ID, found[name]()) for _, name in _GOVERNMENT_IDS),
    )
    return tuple(
        (
            kind,
            recognizer,
            regex.compile(
                "|".join(f"(?:{p.regex})" for p in recognizer.patterns),
                getattr(recognizer, "global_regex_flags", None) or 0,
            ),
        )
        for kind, recognizer in chosen
    )


@functools.lru_cache(maxsize=1)
def _phones() -> Any:
    return recognizer_classes(_OTHERS[3:])["PhoneRecognizer"]()


def _matches(recognizer: Any, text: str, read: str) -> Iterator[tuple[int, int]]:
    for result in recognizer.analyze(read, recognizer.supported_entities, None):
        if context_score(result.score, text, result.start, recognizer.context) >= MIN_SCORE:
            yield result.start, result.end


def _named_cards(recognizer: Any, probe: Any, text: str, read: str) -> Iterator[tuple[int, int]]:
    """Card-shaped numbers (the card recognizer's own patterns, twelve digits or more) that fail its checksum but
    that a word naming a payment card stands right before (``_payment_words``: "the Visa 4929 1180 5523 0147"):
    the text names them a payment card, so they are one whatever their check digit (a mistyped or test number is
    still a card number to the reader). "card 4111 1111 1111 1112" alone is not: any card has a number."""
    for match in probe.finditer(read):
        start, end = match.span()
        if sum(ch.isdigit() for ch in match.group()) < CARD_DIGITS:
            continue
        if context_score(0.0, text, start, _payment_words(recognizer.context)) >= MIN_SCORE_WITH_CONTEXT:
            yield start, end


def _payment_words(context: list[str]) -> list[str]:
    """The card recognizer's context words that name a payment card (``visa``, ``credit``, ``amex``), less the
    bare ``card`` (a library, loyalty or gift card number is card-shaped too), plus ``debit`` and ``payment``."""
    return [c.strip() for c in context if c.strip().lower() != "card"] + ["debit", "payment"]


CARD_DIGITS = 12
"""The fewest digits of a card number (``_CARD_SHAPED``: 12 to 19)."""
_CARD_SHAPED = re.compile(r"\d(?:[ -]?\d){11,18}")
_KEY_WORD = re.compile(r"[a-z]+")


def card_named_by_key(key: str, value: str) -> bool:
    """Whether ``value`` is a card number by the key it stands under: card-shaped (12 to 19 digits, in groups or
    not) under a key one of whose words names a payment card (``_payment_words``: ``payment_card.number``,
    ``visa``, ``credit_card``; not ``library_card``), whatever its check digit."""
    if _CARD_SHAPED.fullmatch(value.strip()) is None:
        return False
    card = next(r for k, r, _ in _recognizers() if k is SensitiveKind.CARD)
    wanted = [c.lower() for c in _payment_words(card.context)]
    words = _KEY_WORD.findall(key.lower())
    return any(w == c or (len(c) > 3 and w.startswith(c)) for w in words for c in wanted)


def _percent_decoded(text: str) -> tuple[str, list[int]]:
    """``text`` with each ``%XX`` decoded, and for each decoded character where it starts in ``text``."""
    out: list[str] = []
    where: list[int] = []
    at = 0
    for match in _PERCENT.finditer(text):
        out.extend(text[at : match.start()])
        where.extend(range(at, match.start()))
        out.append(chr(int(match.group()[1:], 16)))
        where.append(match.start())
        at = match.end()
    out.extend(text[at:])
    where.extend(range(at, len(text) + 1))
    return "".join(out), where


def presidio_spans(text: str, digits: bool) -> Iterator[SensitiveSpan]:
    """Cards, IBANs, national ids, e-mail addresses (see the module docstring); ``digits`` says the text holds
    enough digits for any but an e-mail address."""
    if not digits and "@" not in text and "%40" not in text:
        return  # no recognizer could match: Presidio's are not even loaded (about 0.3 s) for such texts
    wide = _CARD_SEPARATORS.sub(" ", text)
    for kind, recognizer, probe in _recognizers():
        if kind is not SensitiveKind.EMAIL and not digits:
            continue
        if kind is SensitiveKind.EMAIL and "@" not in text:
            continue
        read = wide if kind is SensitiveKind.CARD else text
        if not probe.search(read):
            continue
        found = set(_matches(recognizer, text, read))
        if kind is SensitiveKind.CARD:
            found |= set(_named_cards(recognizer, probe, text, read))
        for start, end in sorted(found):
            yield SensitiveSpan(kind, start, end, text[start:end])
    if "%40" in text:
        decoded, where = _percent_decoded(text)
        email = next(r for k, r, _ in _recognizers() if k is SensitiveKind.EMAIL)
        for start, end in _matches(email, decoded, decoded):
            # In a query string the address is a parameter's value: ``email=jane%40example.com``.
            start += (
                max(decoded.rfind(ch, start, end) for ch in "=&?/") + 1 - start
                if any(ch in decoded[start:end] for ch in "=&?/")
                else 0
            )
            begin, finish = where[start], where[end - 1] + (3 if text[where[end - 1]] == "%" else 1)
            yield SensitiveSpan(SensitiveKind.EMAIL, begin, finish, text[begin:finish])


def phone_spans(text: str) -> Iterator[SensitiveSpan]:
    """Phone numbers: each run of seven digits or more that is no date, time or part of a longer token, read by
    Presidio's phone recognizer (valid numbers), or a possible number after one of its context words."""
    for candidate in _PHONE_CANDIDATE.finditer(text):
        start, end = candidate.span()
        if (start and _glued(text[start - 1])) or (end < len(text) and _glued(text[end])):
            continue
        token = text[text.rfind(" ", 0, start) + 1 : end]
        digits = sum(ch.isdigit() for ch in candidate.group())
        if digits > _MAX_PHONE_DIGITS or _NOT_A_PHONE.search(token):
            continue
        if _QUANTITY.fullmatch(candidate.group()) and not candidate.group().isdigit():
            continue
        for found_start, found_end in _phone_run(candidate.group()):
            yield SensitiveSpan(
                SensitiveKind.PHONE,
                start + found_start,
                start + found_end,
                text[start + found_start : start + found_end],
            )
        if (
            not _phone_run(candidate.group())
            and _possible_phone(candidate.group())
            and context_score(0.0, text, start, _phones().context) >= MIN_SCORE_WITH_CONTEXT
        ):
            yield SensitiveSpan(SensitiveKind.PHONE, start, end, candidate.group())


@functools.lru_cache(maxsize=8192)
def _phone_run(run: str) -> tuple[tuple[int, int], ...]:
    """The valid phone numbers of one run of digits, as (start, end) within the run: the same number or date comes
    back in many texts of a trace (replies, arguments, evidence), so each run is read once per process."""
    recognizer = _phones()
    return tuple((r.start, r.end) for r in recognizer.analyze(run, recognizer.supported_entities, None))


def _possible_phone(run: str) -> bool:
    import phonenumbers

    try:
        return bool(phonenumbers.is_possible_number(phonenumbers.parse(run, "US")))
    except phonenumbers.NumberParseException:
        return False


def clear_caches() -> None:
    """Forget the phone runs read so far (for benchmarks that time scanning afresh)."""
    _phone_run.cache_clear()
