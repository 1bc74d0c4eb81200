"""Parsers for booleans and quantities (numbers, percentages, currency amounts).

A string parses only when the *whole* string is the value: ``"$1,200"`` and ``"1200 USD"`` are
amounts, ``"room 101"`` is not a number. Number words go through ``text2num`` (``"one hundred and
sixteen"``), currency amounts through ``price-parser``; both are offline and pure. Amounts are exact
(``fractions.Fraction``; see ``values``). A digit string written as a code, with a leading zero (``0012``) or a
leading ``+`` and seven digits or more (``+15551234567``), is not a number: the phone and identifier parsers
read it, digit for digit.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from price_parser import Price
from text_to_num import alpha2digit, text2num  # type: ignore[import-untyped]  # text2num ships no types

from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.values import ParseContext, Quantity, Truth, Typed, decimal_text

_TRUE = frozenset({"true", "yes"})
_FALSE = frozenset({"false", "no"})

_NUMERIC = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:e[+-]?\d+)?")
# A bare "m" is not a scale here: "10000 m" is ten kilometres; "$5m" is read as money below.
_SCALED = re.compile(r"([+-]?[\d.,]+)\s*(thousand|million|billion|trillion|k|mn|bn)")
_SCALES = {"thousand": 10**3, "k": 10**3, "million": 10**6, "m": 10**6, "mn": 10**6, "billion": 10**9, "bn": 10**9,
           "trillion": 10**12}  # fmt: skip
_CODE = re.compile(r"\+?0\d+|\+\d{7,}")
"""A digit string written as a code, not an amount: a leading zero (``007``), or ``+`` and 7 digits or more."""
_LARGEST_EXPONENT = 308
_SMALLEST_EXPONENT = -400
"""Numbers read in ``[1e-400, 1e308]`` in size (and 0): a float's range, and exact fractions that stay cheap."""
_PERCENT = re.compile(r"(.+?)\s*(%|percent|per cent|pct)")
_PERCENT_ENDINGS = ("%", "percent", "per cent", "pct")
"""How a percentage ends (``_PERCENT`` matches whole texts only): texts ending otherwise skip the pattern."""
_CURRENCY_SYMBOLS = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW"}
_CURRENCY_WORDS = {
    "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD", "buck": "USD", "eur": "EUR", "euro": "EUR",
    "euros": "EUR", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "jpy": "JPY", "yen": "JPY", "inr": "INR",
    "rupees": "INR", "cad": "CAD", "aud": "AUD", "chf": "CHF", "cny": "CNY", "rmb": "CNY", "krw": "KRW",
}  # fmt: skip
_CURRENCY_TOKEN = re.compile(r"us\$|[$€£¥₹₩]|[a-z]+")
_CURRENCY_MENTION = re.compile("|".join(re.escape(name) for name in sorted({*_CURRENCY_SYMBOLS, *_CURRENCY_WORDS})))
"""Any currency symbol or word anywhere in a text: a text without one is no currency amount (each of its tokens is
a piece of the text, and one must name a currency), so ``price-parser`` is not run on it."""
_SCALE_WORD = re.compile(r"([\d.,]+)\s*(thousand|million|billion|trillion|bn|mn|k|m)\b")
_ASCII_DIGIT = re.compile(r"[0-9]")
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_WORDS = re.compile(r"[a-z]+(?:[\s-]+[a-z]+)*")


def currency_code(text: str) -> str | None:
    """The ISO code a currency name or symbol stands for (``"dollars"``, ``"$"``, ``"usd"`` → ``"USD"``)."""
    word = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return _CURRENCY_SYMBOLS.get(word) or _CURRENCY_WORDS.get(word)


def has_digit(text: str) -> bool:
    """``any(c.isdigit() for c in text)``, searched in C for ASCII text (where only 0-9 are digits)."""
    return _ASCII_DIGIT.search(text) is not None if text.isascii() else any(c.isdigit() for c in text)


def has_letter(text: str) -> bool:
    """``any(c.isalpha() for c in text)``, searched in C for ASCII text (where only A-Z and a-z are letters)."""
    return _ASCII_LETTER.search(text) is not None if text.isascii() else any(c.isalpha() for c in text)


def _plain_number(text: str) -> Fraction | None:
    if not text or not _NUMERIC.fullmatch(text) or not has_digit(text):
        return None
    try:
        number = Decimal(text.replace(",", ""))
    except InvalidOperation:  # "e-150": the pattern lets an exponent stand without digits before it
        return None
    exponent = number.as_tuple().exponent
    if not isinstance(exponent, int) or exponent < _SMALLEST_EXPONENT:
        return None  # an exact fraction of "1e-99999999" would build a huge power of ten
    if number and not _SMALLEST_EXPONENT <= number.adjusted() <= _LARGEST_EXPONENT:
        return None
    return Fraction(number)


def _number_words(text: str) -> Fraction | None:
    if not _WORDS.fullmatch(text):
        return None
    try:
        return Fraction(text2num(text.replace("-", " "), "en"))
    except ValueError:
        return None


def parse_amount(text: str) -> Fraction | None:
    """A bare number, exact: ``"2"``, ``"-1.5"``, ``"1,000"``, ``"4.2 million"``, ``"two"``, ``"one hundred and
    six"``."""
    plain = _plain_number(text)
    if plain is not None:
        return plain
    scaled = _SCALED.fullmatch(text)
    if scaled:
        base = _plain_number(scaled.group(1))
        return None if base is None else base * _SCALES[scaled.group(2)]
    return _number_words(text)


def _currency(text: str) -> Quantity | None:
    return priced(text) if _CURRENCY_MENTION.search(text) else None


def priced(text: str) -> Quantity | None:
    """The amount in one currency ``text`` (case-folded) states, read by ``price-parser``; ``None`` when the text
    holds anything besides the amount and the currency."""
    price = Price.fromstring(text)
    if price.amount is None:
        return None
    tokens = _CURRENCY_TOKEN.findall(text.replace(price.amount_text or "", " "))
    codes = {_CURRENCY_SYMBOLS.get(t) or _CURRENCY_WORDS.get(t) for t in tokens}
    if not tokens or None in codes or len(codes) != 1:
        return None  # something besides an amount and one currency: not a bare amount
    amount = parse_amount((price.amount_text or "").strip())
    if amount is None:
        return None
    return Quantity(amount, codes.pop())


class TruthParser:
    """``true``/``false``, ``yes``/``no`` (case-insensitive)."""

    name = "truth"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        word = normalise_text(text)
        if word in _TRUE:
            return Truth(True)
        if word in _FALSE:
            return Truth(False)
        return None


class QuantityParser:
    """Numbers, percentages (``"50%"`` is the ratio 0.5 too) and currency amounts (``"$1,200"``,
    ``"1200 USD"``, ``"49 bucks"``; a bare number agrees with any currency)."""

    name = "quantity"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
        if not folded or _CODE.fullmatch(folded):
            return None
        amount = parse_amount(folded)
        if amount is not None:
            return Quantity(amount)
        percent = _PERCENT.fullmatch(folded) if folded.endswith(_PERCENT_ENDINGS) else None
        if percent:
            amount = parse_amount(percent.group(1))
            return None if amount is None else Quantity(amount, "%")
        if not has_digit(folded):
            if not any(word in _CURRENCY_WORDS for word in folded.split()):
                return None
            folded = alpha2digit(folded, "en", threshold=0)
        return _currency(_strip_amount_words(folded))


def _strip_amount_words(text: str) -> str:
    """``"one hundred and sixteen bucks"`` → ``"116 bucks"``; ``"$4.2 million"`` → ``"$4200000"``."""
    scaled = _SCALE_WORD.search(text)
    if scaled:
        base = _plain_number(scaled.group(1))
        if base is not None:
            text = text[: scaled.start()] + decimal_text(base * _SCALES[scaled.group(2)]) + text[scaled.end() :]
    return text
