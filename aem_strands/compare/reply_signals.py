"""What a reply states, extracted deterministically as typed facts.

``facts_in(text)`` reads, left to right, each span at most once (a time is not also a number):

- contacts and identifiers: e-mail addresses, phone numbers (``phonenumbers``; compared by their
  digits), identifiers (``ORDER_123``, ``AB-1234``, ``#4471``; compared after case and separators);
- times (``7 pm``, ``19:00``, ``half past 11``, ``noon``), dates (``May 3``, ``3rd of May``,
  ``2019-03-01``, and ``12/11/2020`` with its day-first and month-first readings), weekdays, months: parsed with
  the shared ``TimeParser``;
- codes read out digit by digit (``4-7-2-9``: the number 4729);
- money (``$356 million``, ``$356M``, ``1,250 dollars``), percentages with their direction
  (``up 8%``), durations (``two working days``), measures (``5 kg`` = ``5000 g``), plain numbers
  with their scale (``4.2 million``, ``1.1M``); number words are read as digits (``Two`` is 2). Amounts are
  keyed exactly, every digit written (``12345.67``, ``1234567890123456789``), as ``values`` compares numbers;
- counts told in other words: ``half of the 4 tickets`` states 2, ``one ... and the other`` states 2;
- street addresses (``1532 20th Street`` = ``1532 20th St``);
- named entities: runs of capitalised words (``Pleasant Hill``, ``Grand Central Station``), a
  sentence's first word only when it is no common word (``John``);
- opposed state words (on/off, up/down, including/excluding, confirmed/failed, open/closed,
  sunny/rainy ...), each with its pole, flipped by a negation that governs it (``not available``
  is ``unavailable``);
- scoped negations: ``not``/``n't``/``never``/``no`` with the content word they govern
  (``couldn't book`` → not *book*). Quantifier negations (``nothing``, ``none``, ``nobody``) give
  no scoped fact: "you have nothing on your calendar" does not deny "calendar".

Every fact has a ``group``: two facts of one group are comparable (a time with a time).
"""

from __future__ import annotations

import bisect
import functools
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import phonenumbers
from text_to_num import alpha2digit  # type: ignore[import-untyped]  # text2num ships no types

from aem_strands.compare.aliases import entity_relation
from aem_strands.compare.gazetteer import place_relation
from aem_strands.compare.parse_time import MONTHS, TimeParser
from aem_strands.compare.reply_words import (
    COMMON_STARTERS,
    DIRECTIONS,
    GOVERNED_SKIP,
    NEGATION_CUES,
    PARTICLES,
    STATE_WORDS,
    TITLES,
    UNITS,
    WEEKDAYS,
    stem,
)
from aem_strands.compare.values import CalendarDate, ClockTime, ParseContext, agree, decimal_text, exact


@dataclass(frozen=True)
class Fact:
    """One thing a reply states: ``group`` says what it is comparable with, ``key`` what it means,
    ``text`` how it was written. ``loose`` marks a clock time written without am/pm."""

    group: str
    key: str
    text: str
    loose: bool = False

    def agrees(self, other: Fact) -> bool:
        if self.group != other.group:
            return False
        if self.key == other.key:
            return True
        if self.group == "time" and (self.loose or other.loose):
            return _twelve_hour(self.key) == _twelve_hour(other.key)
        if self.group == "date":
            return agree(_date_value(self.key), _date_value(other.key)) is True
        if self.group == "entity":
            if _entity_overlap(self.key, other.key):
                return True
            place = place_relation(self.text, other.text)  # "SFO" and "San Francisco": one place, by the gazetteer
            return place is not None and place.equivalent
        if self.group == "measure" and self.key.startswith("temperature") and other.key.startswith("temperature"):
            # "86 degrees" and "86 degrees Fahrenheit": a scale on one side only does not differ
            mine, theirs = self.key.split(), other.key.split()
            return mine[-1] == theirs[-1] and (len(mine) == 2 or len(theirs) == 2 or mine[1] == theirs[1])
        return False


def _twelve_hour(key: str) -> str:
    hour, minute = key.split(":")
    return f"{int(hour) % 12}:{minute}"


def _date_value(key: str) -> CalendarDate:
    """The date a key names: ``2019-3-1``, ``?-3-1``, or an ambiguous numeric date's day-first and month-first
    readings joined by ``|``."""
    readings = [tuple(None if p == "?" else int(p) for p in part.split("-")) for part in key.split("|")]
    found = [(r[0], r[1], r[2]) for r in readings]
    return CalendarDate(frozenset(found), (found[0], found[1]) if len(found) == 2 else None)


def _entity_overlap(a: str, b: str) -> bool:
    """``Pleasant Hill`` and ``Pleasant Hill, CA`` name one place; ``Union Station`` and ``Grand
    Central Station`` do not: one side's words must all be in the other's. Names of countries, their codes and
    demonyms, and acronyms decide first (``aliases.entity_relation``: ``U.S`` is ``United States``, ``Sudan`` is
    not ``South Sudan``)."""
    if (known := entity_relation(a, b)) is not None:
        return known
    x, y = set(a.split()), set(b.split())
    if x <= y or y <= x:
        # "Linen and Wool" is two names: the shorter must touch each ("Wool" alone leaves one out)
        longer, shorter = (a, y) if len(x) >= len(y) else (b, x)
        return all(shorter & set(part.split()) for part in longer.split(" and "))
    rest_x, rest_y = sorted(x - y, key=a.split().index), sorted(y - x, key=b.split().index)
    # "Kenya SC" and "Kenya Supreme Court": what differs is an acronym of the other's words
    return "".join(w[0] for w in rest_x) in rest_y or "".join(w[0] for w in rest_y) in rest_x


_SCALES = {"thousand": 10**3, "k": 10**3, "million": 10**6, "m": 10**6, "mn": 10**6, "billion": 10**9, "bn": 10**9}
_SCALES |= {"b": 10**9, "trillion": 10**12}
_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?|\.\d+"
_SCALE = r"(?:\s?(?P<scale>thousand|million|billion|trillion|mn|bn)\b|(?P<tight>[kKmMbB])\b)"
_CURRENCY = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_CURRENCY_WORDS = {
    "dollar": "USD", "dollars": "USD", "usd": "USD", "bucks": "USD", "euro": "EUR", "euros": "EUR", "eur": "EUR",
    "pound": "GBP", "pounds": "GBP", "gbp": "GBP", "yen": "JPY", "rupees": "INR", "cad": "CAD", "aud": "AUD",
}  # fmt: skip
_MONEY_BEFORE = re.compile(rf"(?P<cur>us\$|[$€£¥₹])\s?(?P<num>{_NUM}){_SCALE}?", re.IGNORECASE)
_MONEY_AFTER = re.compile(rf"(?P<num>{_NUM}){_SCALE}?\s?(?P<word>{'|'.join(_CURRENCY_WORDS)})\b", re.IGNORECASE)
_PERCENT = re.compile(rf"(?P<num>{_NUM})\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)
_DURATION = re.compile(
    rf"(?P<num>{_NUM})[\s-](?:working\s|business\s|calendar\s)?"
    r"(?P<unit>second|minute|min|hour|hr|day|night|week|month|year)s?\b",
    re.IGNORECASE,
)
_COMPOUND_DURATION = re.compile(
    rf"(?P<num>{_NUM})\s(?P<unit>hour|hr|day|week)s?,?\s(?:and\s)?(?P<num2>{_NUM})\s(?P<unit2>minute|min|hour|hr)s?\b",
    re.IGNORECASE,
)
"""``2 hours and 10 minutes``, ``1 hour 30 minutes``, ``3 days and 4 hours``: one duration (a larger unit, then a
smaller one), so ``130 minutes`` states the same."""
_SPOKEN_HOURS = re.compile(
    r"\b(?:(?P<half>half an? hour)|(?P<quarters>a|one|1|3) quarters? of an hour|an hour and a half"
    r"|(?P<whole>an|one|1|\d{1,2}) and a half hours?)\b",
    re.IGNORECASE,
)
"""Parts of an hour in words: ``half an hour``, ``a quarter of an hour``, ``3 quarters of an hour`` (number words
are digits by then), ``an hour and a half``, ``2 and a half hours``."""
_SECONDS = {"second": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600, "day": 86400, "night": 86400}
_SECONDS |= {"week": 604800, "month": 2629800, "year": 31557600}
_MEASURE = re.compile(
    rf"(?P<num>{_NUM})\s?(?P<unit>{'|'.join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))})(?![\w])",
    re.IGNORECASE,
)
_OUT_OF = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?:out of|/)\s*(?P<of>10|5|100)\b(?!\s*[/-]\s*\d)")
_NUMBER = re.compile(rf"(?<![\w.])(?P<num>[+-]?(?:{_NUM}))(?:st|nd|rd|th)?{_SCALE}?(?![\w])")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_STREET_TYPES = {
    "street": "street", "st": "street", "road": "road", "rd": "road", "avenue": "avenue", "ave": "avenue",
    "boulevard": "boulevard", "blvd": "boulevard", "drive": "drive", "dr": "drive", "lane": "lane", "ln": "lane",
    "way": "way", "place": "place", "pl": "place", "court": "court", "ct": "court", "highway": "highway",
    "hwy": "highway", "plaza": "plaza", "square": "square", "parkway": "parkway", "pkwy": "parkway",
    "terrace": "terrace", "real": "real", "alley": "alley",
}  # fmt: skip
_ADDRESS = re.compile(
    r"\b\d{1,6}[A-Za-z]?(?: (?:[A-Z0-9][\w'.&-]*|of|de|la|del)){1,5} (?:"
    + "|".join(t.capitalize() for t in _STREET_TYPES)
    + r")\b\.?"
)
_PHONE = re.compile(r"(?<![\w])\+?\d[\d ().-]{7,}\d(?![\w])")
_IDENTIFIER = re.compile(r"(?<![\w#])#?[A-Za-z0-9]*(?:[A-Za-z][_#-]?\d|\d[_#-]?[A-Za-z]|_)[\w#-]*")
_NOT_IDENTIFIER = re.compile(r"\d+(?:st|nd|rd|th|am|pm|[a-z]{1,3})|[a-z]+-[a-z]+", re.IGNORECASE)
_SEAT = re.compile(r"\d{1,4}(?![KM])[A-Z]")
"""A seat, gate or platform code (``14A``, ``4B``): an identifier, though it reads like ``5kg`` (K and M are scales)."""
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_BEFORE = (
    "(?:"
    + "|".join(
        f"(?<=\\b{w} )" for w in ("on", "by", "from", "to", "until", "till", "through", "before", "after", "since")
    )
    + ")"
)
_DAY_ALONE = (
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:at|and|or|in|to|until|till|through|for|from|with|when|if|but|so|then|instead)\b"
    r"|\s+of\s+(?:each|every|the|this|next)\s+month\b)"
)
"""Around an ordinal that is a day of the month by itself (``out on the 6th at the hotel``, ``until the 21st.``,
``on the 28th of each month``): a preposition of time before ``the``, and after it the sentence's end or a function
word, never a noun it counts (``to the 3rd floor``, ``on the 2nd option``) nor a verb (``the 1st is at 9 am``: the
first one)."""
_DATE = re.compile(
    rf"\b(?:(?:{_MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\b(?:,?\s+\d{{4}})?"
    r"|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?"
    rf"|{_DAY_BEFORE}\bthe\s+\d{{1,2}}(?:st|nd|rd|th)\b{_DAY_ALONE})",
    re.IGNORECASE,
)
_PART_OF_DAY = r"(?:\s+(?:in the\s+)?(?:morning|afternoon|evening|night)|\s+at night\b)"
_AT_PART = r"\s+(?:in the\s+(?:morning|afternoon|evening)|at night)\b"
_SPOKEN_OFFSET = (
    r"(?:(?:a\s+)?(?:half|quarter)|(?<!from )(?<!between )(?<![-\d])\d{1,2}(?:\s+minutes?)?)"
    r"[\s-]+(?:past|to|after)[\s-]+"
)
_TIME = re.compile(
    rf"\b(?:{_SPOKEN_OFFSET})?\d{{1,2}}(?:[:.]\d{{2}})?\s*(?:o'?\s?clock\s*)?(?:[ap]\.?\s?m\b\.?){_PART_OF_DAY}?"
    rf"|\b\d{{1,2}}:\d{{2}}\b(?:\s*(?:in the\s+)?(?:morning|afternoon|evening|night))?"
    rf"|\b{_SPOKEN_OFFSET}(?:\d{{1,2}}\b|noon\b|midnight\b)(?:{_PART_OF_DAY}|\s+morning\b)?"
    rf"|\b\d{{1,2}}\s+o'?\s?clock\b{_PART_OF_DAY}?"
    rf"|\bhalf\s+\d{{1,2}}{_AT_PART}"
    rf"|(?<![-\d.,:/$])\b\d{{1,2}}{_AT_PART}"
    r"|\b12\s+(?:noon|midnight)\b|\bnoon\b|\bmidnight\b",
    re.IGNORECASE,
)
"""Times of day as written: ``7 pm``, ``19:00``, ``half past 11``, ``10 to 6 in the morning``, ``5 past 7``,
``half 5 in the morning`` (British), ``9 in the morning``, ``12 at night``, ``noon``; ``parse_time`` decides which
spans are times (``10 to 6`` alone is a range, not 5:50)."""
_SPOKEN_CLOCK_HYPHENS = re.compile(
    r"\b(half|quarter|[a-z]+|\d{1,2})-(past|to)-([a-z]+|\d{1,2})\b(?=\s+(?:am|pm|a\.m|p\.m|in the|at night|morning))",
    re.IGNORECASE,
)
"""``five-past-seven morning``: a spoken time joined by hyphens, spaced so its number words read as digits."""
_ZERO_LED = re.compile(r"0\d[:.]")
_SPELLED_DIGITS = re.compile(r"(?<![\w.,/-])\d(?:-\d){3,}(?![\w-])")
"""A code read out digit by digit (``4-7-2-9``): one number, the digits together (``4729``)."""
_SPOKEN_TIME = re.compile(r"\b(\d{1,2}) (\d{2})(\s*[ap]\.?\s?m\b)", re.IGNORECASE)
_SCALED_WORDS = re.compile(r"(\d+(?:\.\d+)?)\s+(thousand|million|billion|trillion)\b", re.IGNORECASE)
_SCALE_WORDS = ("thousand", "million", "billion", "trillion")
"""The words ``_SCALED_WORDS`` needs, one of them."""
_SHIELDED = re.compile(r"(\d[\d.,]*)\s+\u00a7(\d+)\u00a7")
_DIGIT = re.compile(r"\d")
_NOON = re.compile(r"noon|midnight", re.IGNORECASE)  # the only times _TIME reads without a digit
_DAY_CLASSES = {"weekday": "weekdays", "weekdays": "weekdays", "weekend": "weekends", "weekends": "weekends"}
"""Days named by their class (``open on weekdays``, ``except at weekends``): a weekday fact that limits when, which a
reply that leaves it out does not state."""
_CALENDAR_WORDS = frozenset(
    [
        *WEEKDAYS,
        *(f"{day}'s" for day in WEEKDAYS if len(day) > 3),
        *(f"{day}s" for day in WEEKDAYS if len(day) > 3),
        *_DAY_CLASSES,
        *(m for m in MONTHS if len(m) > 3),
    ]
)
"""Every word (as ``_words`` gives it) the weekday and month reader of ``facts_in`` takes a fact from: a text with
none of them is not read word by word for one (a set look-up, cheaper than a scan for the names)."""
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_TOKEN = re.compile(r"[\w][\w'\u2019&.-]*[\w]|[\w]")
_BOUNDARY = re.compile(r"[.!?:;\n]")
_CONNECTORS = frozenset(["of", "de", "la", "le", "du", "del", "&", "and", "the", "on", "at"])


def _fewest(hints: Iterable[str]) -> tuple[str, ...]:
    """``hints`` without those that hold a shorter one (a text holding ``miles`` holds ``mi``)."""
    kept = sorted({h.casefold() for h in hints}, key=len)
    return tuple(h for i, h in enumerate(kept) if not any(k in h for k in kept[:i]))


_CALENDAR_HINTS = _fewest(_CALENDAR_WORDS)
"""Strings (case-folded) one of which each of ``_CALENDAR_WORDS`` holds."""


_TIME_HINTS = _fewest(["m", ":", "past", "to", "after", "clock", "half", "evening", "night", "noon"])
"""A string of each branch of ``_TIME``: am/pm (an "m"), "19:00", half/quarter past/to/after, o'clock, "half 5 in the
morning", "9 in the morning/afternoon/evening" or "at night", noon and midnight."""
_DATE_HINTS = _fewest([*MONTHS, "-", "/", "the"])  # a month, 2025-03-01, 3/1, "on the 6th"
_DATE_GATE = re.compile(r"[a-z.]\s+\d|\d(?:st|nd|rd|th)?\s+[a-z]|\d[-/]\d", re.IGNORECASE)
"""What every match of ``_DATE`` holds, by its branches: a month (or "the") then spaces and a digit, a day then
spaces and a letter (``3rd of May``), or digits joined by ``-`` or ``/``. A search for it costs a fifth of ``_DATE``'s
(whose alternatives and look-behinds are tried at every position), and most texts with a hint of a date fail it."""
_TIME_GATE = re.compile(
    r"\d\s*[ap]|\d[:.]\d|clock|[\s-](?:past|to|after)[\s-]|half|\d\s+[ia]|noon|midnight", re.IGNORECASE
)
"""What every match of ``_TIME`` holds, by its branches: a digit before am/pm, ``19:00``, ``o'clock``, a spoken
offset (`` past ``), ``half 5 ...``, a digit before ``in the morning`` or ``at night``, noon and midnight (its hints,
``m`` above all, are in most texts)."""
_AMOUNT_THEN_WORD = re.compile(r"\d\s?[a-z]", re.IGNORECASE)
"""What every match of ``_MONEY_AFTER`` holds: a number's last digit, then a scale or a currency word."""
_MEASURE_GATE = re.compile(r"\d\s?[cdfgklmos\u00b0]", re.IGNORECASE)
"""What every match of ``_MEASURE`` holds: a number's last digit, then the first letter of a unit (``UNITS``)."""
_AMOUNT_THEN_SPACE = re.compile(r"\d[\s-]")
"""What every match of ``_DURATION`` and ``_COMPOUND_DURATION`` holds: a number's last digit, then a space (or
``-``)."""
_ADDRESS_GATE = re.compile(r"\d[A-Za-z]? [A-Z0-9odl]")
"""What every match of ``_ADDRESS`` holds: a house number, a space and a capital, a digit or ``of``/``de``/``la``."""
_TIME_PARSER = TimeParser()
_NO_CONTEXT = ParseContext()


def _show(number: Fraction | float) -> str:
    """Every digit of ``number`` (a float, from a unit conversion, as its shortest decimal form)."""
    return decimal_text(exact(number))


def _amount(match: re.Match[str]) -> Fraction:
    number = Fraction(match["num"].replace(",", ""))
    groups = match.groupdict()
    scale = (groups.get("scale") or groups.get("tight") or "").casefold()
    return number * _SCALES.get(scale, 1)


@functools.lru_cache(maxsize=1 << 14)
def with_digits(text: str) -> str:
    """``text`` as the facts read it: number words as digits (``Two`` → ``2``), spoken times as clock times; a
    scale word after digits stays as written (``4.2 million``), shielded from the number-word reader, which would
    read it as a second number."""
    text = text.replace("\u2019", "'")
    scales: list[str] = []

    def shield(match: re.Match[str]) -> str:
        scales.append(match[2])
        return f"{match[1]} \u00a7{len(scales) - 1}\u00a7"

    # Each substitution below is skipped where its pattern cannot match (no digit, no shield mark; in an ASCII
    # text, where re.IGNORECASE is ASCII case, none of the words the pattern needs).
    folded = text.casefold() if text.isascii() else None
    if _DIGIT.search(text) and (folded is None or any(map(folded.__contains__, _SCALE_WORDS))):
        text = _SCALED_WORDS.sub(shield, text)
    if "-" in text and (folded is None or "-past-" in folded or "-to-" in folded):
        text = _SPOKEN_CLOCK_HYPHENS.sub(r"\1 \2 \3", text)
    text = alpha2digit(text, "en", threshold=1)  # "one" is as often a pronoun
    if "\u00a7" in text:
        text = _SHIELDED.sub(lambda m: f"{m[1]} {scales[int(m[2])]}", text)
    if not text.isascii() or "m" in text or "M" in text:
        return _SPOKEN_TIME.sub(lambda m: f"{m[1]}:{m[2]}{m[3]}", text) if _DIGIT.search(text) else text
    return text


class _Reader:
    """Claims spans left to right so each is read as one fact only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.taken = bytearray(len(text))  # 1 where a character is claimed
        self.facts: list[tuple[int, Fact]] = []
        # ASCII only: there re.IGNORECASE is ASCII case, so a case-insensitive match holds its hint, folded
        self.folded = text.casefold() if text.isascii() else None

    def free(self, start: int, end: int) -> bool:
        return self.taken.find(1, start, end) < 0

    def add(self, start: int, end: int, fact: Fact) -> None:
        self.taken[start:end] = b"\x01" * (end - start)
        self.facts.append((start, fact))

    def scan(self, scan: _Scan) -> None:
        """Reads each match of ``scan``'s pattern whose span is free into a fact, unless a look says none can be."""
        text = self.text
        if scan.hints and self.folded is not None and not any(map(self.folded.__contains__, scan.hints)):
            return  # no match can be in this text: scanning it costs more than this look
        if scan.gate is not None and scan.gate.search(text) is None:
            return
        taken, make = self.taken, scan.make
        for match in scan.pattern.finditer(text):
            start, end = match.span()
            if taken.find(1, start, end) < 0 and (fact := make(match)) is not None:
                taken[start:end] = b"\x01" * (end - start)
                self.facts.append((start, fact))


_NON_DIGITS = re.compile(r"\D")
_ISO_DAY = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")
_NOT_ALNUM = re.compile(r"[\W_]")
_HALF_OF_DAY = re.compile(r"[ap]\.?\s?m\b|morning|afternoon|evening|night")
"""Compiled once: the fact makers run per match (``re``'s own cache costs a look-up a call)."""


def _address(match: re.Match[str]) -> Fact:
    """A street address (``1532 20th Street``, ``2455 Bennett Valley Rd``), keyed with its street type
    spelled out."""
    words = match.group().rstrip(".").casefold().split()
    return Fact("address", " ".join([*words[:-1], _STREET_TYPES[words[-1]]]), match.group().rstrip("."))


def _phone(match: re.Match[str]) -> Fact | None:
    digits = _NON_DIGITS.sub("", match.group())
    if len(digits) < 10 or _ISO_DAY.fullmatch(match.group().strip()):
        return None
    try:
        parsed = phonenumbers.parse(match.group(), "US")
        key = str(parsed.national_number)
    except phonenumbers.NumberParseException:
        key = digits[-10:]
    return Fact("phone", key, match.group().strip())


def _identifier(match: re.Match[str]) -> Fact | None:
    word = match.group().strip("-")
    if "_" in word:
        return Fact("identifier", _NOT_ALNUM.sub("", word).casefold(), word)  # ORDER_123: no other reading
    if "#" not in word and _NOT_IDENTIFIER.fullmatch(word) and not _SEAT.fullmatch(word):
        return None
    if not any(map(str.isdigit, word)):
        return None
    return Fact("identifier", _NOT_ALNUM.sub("", word).casefold(), word)


def _date(match: re.Match[str]) -> Fact | None:
    typed = _TIME_PARSER.parse(match.group(), _NO_CONTEXT)
    if not isinstance(typed, CalendarDate) or (len(typed.readings) != 1 and typed.orders is None):
        return None
    readings = typed.orders or tuple(typed.readings)
    key = "|".join("-".join("?" if p is None else str(p) for p in reading) for reading in readings)
    return Fact("date", key, match.group())


def _time(match: re.Match[str]) -> Fact | None:
    text = match.group().rstrip(".")
    folded = text.casefold()
    if folded == "noon":
        return Fact("time", "12:00", text)
    if folded in ("midnight", "12 midnight"):
        return Fact("time", "0:00", text)
    typed = _TIME_PARSER.parse(text, _NO_CONTEXT)
    if not isinstance(typed, ClockTime):
        return None
    # a 24-hour time (``00:40``, ``07:05``) or one said from noon or midnight is no 12-hour reading
    twenty_four = _ZERO_LED.match(folded) is not None or "noon" in folded or "midnight" in folded
    loose = not _HALF_OF_DAY.search(folded) and typed.hour <= 12
    loose = loose and not twenty_four
    return Fact("time", f"{typed.hour}:{typed.minute:02d}", text, loose)


def _money(match: re.Match[str]) -> Fact:
    groups = match.groupdict()
    currency = _CURRENCY.get((groups.get("cur") or "").casefold()) or _CURRENCY_WORDS[groups["word"].casefold()]
    return Fact("money", f"{currency} {_show(_amount(match))}", match.group())


def _percent(match: re.Match[str]) -> Fact:
    text = match.string
    before = [stem(w) for w in re.findall(r"[a-z]+", text[max(0, match.start() - 30) : match.start()].casefold())]
    direction = next((DIRECTIONS[w] for w in reversed(before[-3:]) if w in DIRECTIONS), "")
    after = re.match(r"\s*([a-z]+)", text[match.end() : match.end() + 20].casefold())
    if not direction and after and stem(after[1]) in DIRECTIONS:
        direction = DIRECTIONS[stem(after[1])]  # "8% more", "a 5% drop": the word right after
    key = f"{_show(Fraction(match['num'].replace(',', '')))}%" + (f" {direction}" if direction else "")
    shown = match.group() if not direction else f"{direction} {match.group()}"
    return Fact("percent", key, shown)


def _compound_duration(match: re.Match[str]) -> Fact | None:
    first, second = _SECONDS[match["unit"].casefold()], _SECONDS[match["unit2"].casefold()]
    if second >= first:
        return None  # "1 hour and 2 hours": two durations, read one by one
    seconds = Fraction(match["num"].replace(",", "")) * first + Fraction(match["num2"].replace(",", "")) * second
    return Fact("duration", _show(seconds) + " s", match.group())


def _spoken_hours(match: re.Match[str]) -> Fact:
    if match["half"]:
        seconds = 1800
    elif match["quarters"]:
        seconds = 900 * (3 if match["quarters"] == "3" else 1)
    elif match["whole"]:
        seconds = 3600 * (1 if match["whole"].casefold() in ("an", "one") else int(match["whole"])) + 1800
    else:
        seconds = 5400  # an hour and a half
    return Fact("duration", f"{seconds} s", match.group())


def _duration(match: re.Match[str]) -> Fact:
    seconds = Fraction(match["num"].replace(",", "")) * _SECONDS[match["unit"].casefold()]
    return Fact("duration", _show(seconds) + " s", match.group())


def _out_of(match: re.Match[str]) -> Fact:
    share = float(match["num"]) / float(match["of"]) * 100
    return Fact("percent", f"{_show(round(share, 6))}%", match.group())


def _measure(match: re.Match[str]) -> Fact:
    dimension, factor = UNITS[match["unit"].casefold()]
    return Fact(
        "measure", f"{dimension} {_show(round(float(match['num'].replace(',', '')) * factor, 6))}", match.group()
    )


def _number(match: re.Match[str]) -> Fact:
    return Fact("number", _show(_amount(match)), match.group())


def _entities(reader: _Reader) -> None:
    """Runs of capitalised words, joined by connectors (``Bank of America``); see the module docstring."""
    text = reader.text
    if text.islower():
        return  # no capital (no character is upper case where every cased one is lower case): no name
    tokens = list(_TOKEN.finditer(text))
    words = [t.group() for t in tokens]
    if len(words) >= 5 and sum(1 for w in words if w[0].isupper()) >= len(words) * 0.8:
        return  # a title-cased headline: capitals carry no signal
    spans = [t.span() for t in tokens]
    last = len(words) - 1
    run: list[int] = []  # indices of the run's tokens

    def close() -> None:
        while run and words[run[-1]].casefold() in _CONNECTORS:
            run.pop()
        while run and words[run[0]].casefold() in TITLES:
            run.pop(0)  # "Dr. Anne Han" and "Anne Han" name one person
        if run and reader.free(spans[run[0]][0], spans[run[-1]][1]):
            start, end = spans[run[0]][0], spans[run[-1]][1]
            # "Main Street's bakery" names Main Street: a possessive is no part of the name
            key = " ".join(words[i].casefold().removesuffix("'s") for i in run)
            reader.add(start, end, Fact("entity", key, text[start:end]))
        run.clear()

    def titled(index: int) -> bool:  # the next token is capitalised, no pronoun ("May I"), and follows with no space
        return (
            index < last
            and words[index + 1][0].isupper()
            and words[index + 1] not in _PRONOUNS
            and not text[spans[index][1] : spans[index + 1][0]].strip()
        )

    previous_end = 0
    for index, word in enumerate(words):
        if not word[0].isupper() and word.casefold() not in _CONNECTORS:
            previous_end = spans[index][1]
            if run:  # what a lower-case word other than a connector does, at a sentence start or not
                close()
            continue
        start, end = spans[index]
        gap_start, previous_end = previous_end, end
        capital = word[0].isupper() and reader.free(start, end)
        # "N. Korea", "J. Lo": an initial's dot ends no sentence ("Plan B. Then" does)
        initial = index > 0 and len(words[index - 1]) == 1 and words[index - 1].isupper()
        initial = initial and word.casefold() not in COMMON_STARTERS
        after_title = initial or (index > 0 and words[index - 1].casefold() in TITLES)  # "Dr. Chen": no sentence end
        if index == 0 or (_BOUNDARY.search(text, gap_start, start) and not after_title):  # a sentence starts here
            if run:
                close()
            if capital and word.casefold() not in COMMON_STARTERS:
                # the next word, in the same sentence ("Yup! You can" names no one)
                same_sentence = index < last and not _BOUNDARY.search(text, end, spans[index + 1][0])
                following = words[index + 1] if same_sentence else ""
                starts_name = following[:1].isupper() and following.casefold() not in _CONNECTORS
                if starts_name or following.casefold() in NAME_FOLLOWERS or word.isupper():
                    run.append(index)
            continue
        if capital and word not in _PRONOUNS and (run or titled(index) or word.casefold() not in COMMON_STARTERS):
            if run and text[gap_start:start].strip() and not (initial and text[gap_start:start].strip() == "."):
                close()
            run.append(index)
        elif run and word.casefold() in _CONNECTORS and not text[gap_start:start].strip():
            run.append(index)
        elif run:
            close()
    if run:
        close()


_PRONOUNS = frozenset(["I", "I'm", "I'll", "I'd", "I've", "OK"])
NAME_FOLLOWERS = frozenset(
    ["will", "is", "was", "has", "had", "can", "could", "would", "should", "said", "says", "and", "'s", "wants",
     "needs", "called", "asked", "sent", "paid", "booked", "joined", "isn't", "wasn't", "won't", "can't"]
)  # fmt: skip
"""Words after a capitalised first word that make it read as a subject's name (``John will join``)."""


@functools.lru_cache(maxsize=1 << 14)
def _weekday(word: str) -> str | None:
    """The weekday ``word`` names, also as a possessive or a plural (``Friday's``, ``on Saturdays``)."""
    for day in (word, word.removesuffix("'s").removesuffix("\u2019s"), word.removesuffix("s")):
        if day in WEEKDAYS and (day == word or len(day) > 3):
            return day
    return None


@functools.lru_cache(maxsize=1 << 14)
def _words(text: str) -> tuple[tuple[int, str], ...]:
    """Each word of ``text`` with its position, case-folded (read three times per text: cached)."""
    return tuple([(m.start(), m.group().casefold()) for m in _WORD.finditer(text)])


def _states_and_negations(reader: _Reader) -> None:
    words = _words(reader.text)
    negated_until = -1
    determiner = False  # the cue is "no" before a noun: "No smoking is allowed" negates "allowed" too
    last_negated = -9  # the last word a negation governed: an "or" right after it carries the negation on
    for index, (position, word) in enumerate(words):
        if index > negated_until and _inert(word):
            continue  # most words: no state word, no cue, nothing negates them (the checks below, remembered)
        following = words[index + 1][1] if index + 1 < len(words) else ""
        if word == "or" and index - last_negated <= 3 and _clause_reach(words, last_negated, reader.text) >= index:
            # "does not sell firewood or allow dogs": the verb after "or" is denied too
            negated_until, determiner = _clause_reach(words, index, reader.text), False
            continue
        cue = word in NEGATION_CUES or word.endswith("n't") or (word == "neither" and _NOR.match(reader.text, position))
        if cue and not _idiom(words, index, reader.text):
            # "no smoking is allowed", "nor are pets allowed": the subject's cue carries to its predicate
            negated_until, determiner = _clause_reach(words, index, reader.text), word in ("no", "nor", "neither")
            continue
        token_stem = stem(word)
        state = STATE_WORDS.get(word) or STATE_WORDS.get(token_stem)
        if state is None and index > negated_until and word not in PARTICLES:
            continue  # most words: no state word, nothing negates them, so no fact
        if word in PARTICLES:
            before = stem(words[index - 1][1]) if index else ""
            after = words[index + 1][1] if index + 1 < len(words) else ""
            clause_end = index + 1 == len(words) or bool(
                re.search(r"[.,;!?]", reader.text[position + len(word) : words[index + 1][0]])
            )
            if not (before in PARTICLES[word] or (before in _BE and clause_end) or after in ("by", "to")):
                state = None
            elif before in PARTICLES[word]:
                word = f"{words[index - 1][1]} {word}"  # "switched on": the particle with its verb
        if state is None and (token_stem in GOVERNED_SKIP or word in GOVERNED_SKIP):
            continue
        negated = index <= negated_until
        if state is not None:
            group, pole, opposite = state
            if negated and opposite:
                pole = opposite
            reader.facts.append((position, Fact(f"state:{group}", pole, ("not " if negated else "") + word)))
        elif negated:
            reader.facts.append((position, Fact("negation", token_stem, f"not {word}")))
        last_negated = index if negated else last_negated
        if negated and determiner and (following in _BE or following in STATE_WORDS):
            # the subject's "no" carries to its predicate: "no smoking (is) allowed"
            negated_until, determiner = index + (2 if following in _BE else 1), False
        elif negated:
            negated_until = -1


@functools.lru_cache(maxsize=1 << 15)
def _inert(word: str) -> bool:
    """Whether ``_states_and_negations`` takes nothing from ``word`` where no negation governs it: it is no ``or``,
    no negation cue, no particle and no state word (nor is its stem)."""
    return (
        word != "or"
        and word != "neither"
        and word not in NEGATION_CUES
        and not word.endswith("n't")
        and word not in PARTICLES
        and STATE_WORDS.get(word) is None
        and STATE_WORDS.get(stem(word)) is None
    )


def _clause_reach(words: tuple[tuple[int, str], ...], index: int, text: str) -> int:
    """The last word a negation cue at ``index`` may govern: four words on, but not past the end of its
    sentence (``No, they don't. The booking is complete.`` does not deny the booking)."""
    last = index
    while last < min(index + 4, len(words) - 1):
        position, word = words[last]
        if _SENTENCE_END.search(text, position + len(word), words[last + 1][0]):
            break
        last += 1
    return last


_SENTENCE_END = re.compile(r"[.!?;]")
_NOR = re.compile(r"neither\b[^.!?;]*\bnor\b", re.IGNORECASE)
"""``neither ... nor`` in one sentence: ``neither`` negates the word it governs (alone it is a scope word)."""


@functools.lru_cache(maxsize=1 << 14)
def negates(text: str) -> bool:
    """Whether a text negates anything: a negation cue that is no idiom (``can not``, ``cannot``,
    ``isn't``, ``non-refundable``; not ``no problem`` or a bare ``No,``), or a word that denies by itself
    (``unable``, ``nothing``, ``none``, ``failed``). Cheaper and blunter than the scoped facts: a cue that
    governs no content word (``Where are not you going?``) still counts."""
    text = text.replace("\u2019", "'")
    words = _words(text)
    return any(
        (word in NEGATION_CUES or word.endswith("n't")) and not _idiom(words, index, text)
        for index, (_, word) in enumerate(words)
    ) or any(word in DENYING_WORDS for _, word in words)


DENYING_WORDS = frozenset(
    ["unable", "nothing", "none", "nobody", "neither", "nowhere", "without", "failed", "fail", "fails", "unsuccessful"]
)
"""Words that deny without a negation cue (``I was unable to book it`` / ``I couldn't book it``)."""


_BE = frozenset(["is", "are", "was", "were", "be", "been", "now", "still"])
_SUBJECTS = frozenset(["it", "there", "they", "i", "we", "you", "he", "she", "that", "this", "it's", "there's"])


def _idiom(words: tuple[tuple[int, str], ...], index: int, text: str) -> bool:
    """``no problem``, ``not only``, ``no worries``, ``why not``, a bare answer ``No,`` (it negates no word)."""
    following = words[index + 1][1] if index + 1 < len(words) else ""
    previous = words[index - 1][1] if index else ""
    answer = words[index][1] == "no" and (
        bool(re.match(r"\s*[,.!]", text[words[index][0] + 2 :])) or (index == 0 and following in _SUBJECTS)
    )  # "No, it is direct." and, typed without the comma, "No it is a direct bus."
    return answer or following in ("problem", "worries", "only", "doubt", "matter") or previous == "why"


def _email(match: re.Match[str]) -> Fact:
    return Fact("email", match.group().casefold(), match.group())


def _spelled(match: re.Match[str]) -> Fact:
    return Fact("number", _show(Fraction(match.group().replace("-", ""))), match.group())


@dataclass(frozen=True, slots=True)
class _Scan:
    """One pattern ``facts_in`` reads, the fact each match makes (``None``: no fact, the span stays free), and the
    looks that spare a text the scan: ``hints``, strings (case-folded) one of which each match holds, so an ASCII text
    with none is not scanned (in ASCII, ``re.IGNORECASE`` is ASCII case); ``gate``, a cheaper pattern each match
    also matches."""

    pattern: re.Pattern[str]
    make: Callable[[re.Match[str]], Fact | None]
    hints: tuple[str, ...] = ()
    gate: re.Pattern[str] | None = None


_EMAILS = _Scan(_EMAIL, _email)
_DATES = _Scan(_DATE, _date, _DATE_HINTS, _DATE_GATE)
_TIMES = _Scan(_TIME, _time, _TIME_HINTS, _TIME_GATE)
_SPELLED = _Scan(_SPELLED_DIGITS, _spelled, ("-",))
_PHONES = _Scan(_PHONE, _phone)
_MONEY_FIRST = _Scan(_MONEY_BEFORE, _money, tuple(_CURRENCY))
_MONEY_LAST = _Scan(_MONEY_AFTER, _money, tuple(_CURRENCY_WORDS), _AMOUNT_THEN_WORD)
_SHARES = _Scan(_OUT_OF, _out_of, ("out of", "/"))
_PERCENTS = _Scan(_PERCENT, _percent, ("%", "percent", "per cent"))
_TWO_UNIT_DURATIONS = _Scan(_COMPOUND_DURATION, _compound_duration, tuple(_SECONDS), _AMOUNT_THEN_SPACE)
_HOURS_IN_WORDS = _Scan(_SPOKEN_HOURS, _spoken_hours)
_DURATIONS = _Scan(_DURATION, _duration, tuple(_SECONDS), _AMOUNT_THEN_SPACE)
_MEASURES = _Scan(_MEASURE, _measure, _fewest(UNITS), _MEASURE_GATE)
_ADDRESSES = _Scan(_ADDRESS, _address, _fewest(_STREET_TYPES), _ADDRESS_GATE)
_IDENTIFIERS = _Scan(_IDENTIFIER, _identifier)
_NUMBERS = _Scan(_NUMBER, _number)
SCANS: tuple[_Scan, ...] = (_EMAILS, _DATES, _TIMES, _SPELLED, _PHONES, _MONEY_FIRST, _MONEY_LAST, _SHARES)
SCANS += (_PERCENTS, _TWO_UNIT_DURATIONS, _HOURS_IN_WORDS, _DURATIONS, _MEASURES, _ADDRESSES, _IDENTIFIERS, _NUMBERS)
"""Every scan of ``facts_in``, in its reading order (the weekday and month words, implied counts, names, states and
negations are read by code of their own)."""
_DIGIT_SCANS = (_SPELLED, _PHONES, _MONEY_FIRST, _MONEY_LAST, _SHARES, _PERCENTS, _TWO_UNIT_DURATIONS)
"""The scans after the times that need a digit, in order."""
_UNIT_SCANS = (_DURATIONS, _MEASURES, _ADDRESSES)
"""The scans after the spoken hours that need a digit, in order."""


@functools.lru_cache(maxsize=1 << 14)
def facts_in(text: str) -> tuple[Fact, ...]:
    """The facts a text states, in reading order (see the module docstring)."""
    reader = _Reader(with_digits(text))
    _read_values(reader)
    _entities(reader)
    _states_and_negations(reader)
    return _in_order(reader.facts)


@functools.lru_cache(maxsize=1 << 14)
def values_in(text: str) -> tuple[Fact, ...]:
    """``facts_in(text)`` without its names (``entity``), states and scoped negations, which are read last and so
    change no other fact: what a rule comparing values, identifiers or numbers needs, for about a fifth less."""
    reader = _Reader(with_digits(text))
    _read_values(reader)
    return _in_order(reader.facts)


def _in_order(facts: Iterable[tuple[int, Fact]]) -> tuple[Fact, ...]:
    return tuple(fact for _, fact in sorted(facts, key=_POSITION))


_POSITION = operator.itemgetter(0)


def _read_values(reader: _Reader) -> None:
    """Reads the values, identifiers and numbers of the reader's text: all ``facts_in`` reads but the names, states
    and negations."""
    # Every reader below but e-mail, noon/midnight and identifiers with "_" needs a digit to match: a text
    # without one skips them (most replies), which changes nothing but the time spent.
    digit = _DIGIT.search(reader.text) is not None
    if "@" in reader.text:
        reader.scan(_EMAILS)
    if digit:
        reader.scan(_DATES)
    if digit or _NOON.search(reader.text):
        reader.scan(_TIMES)
    for scan in _DIGIT_SCANS if digit else ():
        reader.scan(scan)
    if "hour" in reader.text.casefold():
        reader.scan(_HOURS_IN_WORDS)
    for scan in _UNIT_SCANS if digit else ():
        reader.scan(scan)
    if digit or "_" in reader.text:
        reader.scan(_IDENTIFIERS)
    folded = reader.folded
    # a calendar word is in the folded text: one without any is not read word by word for one
    words = _words(reader.text) if folded is None or any(map(folded.__contains__, _CALENDAR_HINTS)) else ()
    for position, word in words if not _CALENDAR_WORDS.isdisjoint([w for _, w in words]) else ():
        day = _weekday(word)
        if day is not None and reader.free(position, position + len(day)):
            shown = reader.text[position : position + len(day)]
            reader.add(position, position + len(day), Fact("weekday", WEEKDAYS[day], shown))
        elif word in _DAY_CLASSES and reader.free(position, position + len(word)):
            shown = reader.text[position : position + len(word)]
            reader.add(position, position + len(word), Fact("weekday", _DAY_CLASSES[word], shown))
        elif word in MONTHS and len(word) > 3 and reader.free(position, position + len(word)):
            shown = reader.text[position : position + len(word)]
            reader.add(position, position + len(word), Fact("month", str(MONTHS[word]), shown))
    if digit or "other" in reader.text:
        _implied_counts(reader)
    if digit:
        reader.scan(_NUMBERS)


def _implied_counts(reader: _Reader) -> None:
    """Counts told in other words: ``half of the 4 tickets`` states 2 (and 4, read after), ``one ... the other``
    in one sentence states 2 (``One lift is working and the other is out of service`` = ``one of the 2 lifts``)."""
    for match in _HALF_OF.finditer(reader.text):
        whole = match["whole"]
        if (
            len(whole) <= _MAX_HALVED_DIGITS
            and int(whole) % 2 == 0
            and reader.free(match.start("half"), match.end("half"))
        ):
            reader.add(match.start("half"), match.end("half"), Fact("number", str(int(whole) // 2), match["half"]))
    for start, end in _one_the_other(reader.text):
        if reader.free(start, end):
            reader.add(start, end, Fact("number", "2", reader.text[start:end]))


_HALF_OF = re.compile(
    r"\b(?P<half>[Hh]alf) (?:of )?(?:the|your|our|my|these|those|its|their) (?P<whole>\d+)\b(?![.,:/]\d)"
)
_MAX_HALVED_DIGITS = 15
"""``half of the N``: N of at most this many digits (Python refuses to read an integer of 4,300 digits or more)."""
_ONE = re.compile(r"\b(?:[Oo]ne|1) ")
_THE_OTHER = re.compile(r"\bthe other\b(?! \d|s\b| ones?\b| (?:day|week|month|night|time|way)\b)")
"""``the other``, but not ``the other 3``, ``the others``, ``the other ones`` or an idiom (``the other day``,
``the other way``)."""
_SENTENCE_END = re.compile(r"[.;!?]")


def _one_the_other(text: str) -> list[tuple[int, int]]:
    """The spans of ``the other`` after a ``one`` (or ``1``) in its sentence, one per ``one``, left to right: the
    matches of ``\\b(?:[Oo]ne|1) [^.;!?]*?\\b(?P<other>the other)\\b...``, found with sorted positions and
    bisection, not by that pattern, which reads to the end of the sentence from every ``one`` (quadratic: 80 KB of
    ``one lift`` took 18 s)."""
    others = [m.start() for m in _THE_OTHER.finditer(text)]
    if not others:
        return []
    ends = [m.start() for m in _SENTENCE_END.finditer(text)]
    found: list[tuple[int, int]] = []
    position = 0
    for one in _ONE.finditer(text):
        if one.start() < position:
            continue  # inside the span of the last match: the pattern would resume after it
        nearest = bisect.bisect_left(others, one.end())
        if nearest == len(others):
            break  # no "the other" further on: no later "one" has one either
        other = others[nearest]
        stop = bisect.bisect_left(ends, one.end())
        if stop < len(ends) and ends[stop] < other:
            continue  # the sentence ends first
        found.append((other, other + len("the other")))
        position = other + len("the other")
    return found


def content_words(text: str, skip: frozenset[str]) -> frozenset[str]:
    """The word stems of a text, case-folded (number words as digits), but for words in ``skip``."""
    return frozenset(stem(w) for _, w in _words(with_digits(text)) if w not in skip)


@functools.lru_cache(maxsize=1 << 14)
def counted_numbers(text: str) -> dict[str, frozenset[str]]:
    """The numbers each noun right after a number is counted with, by the noun's stem (``3 bedrooms and
    2 baths``: bedroom 3, bath 2; ``a 4 star hotel``: star 4; number words read as digits). Times, dates and
    words too generic to be counted (``GOVERNED_SKIP``) are left out."""
    found: dict[str, set[str]] = {}
    for match in _COUNTED.finditer(with_digits(text)):
        noun = match[2].casefold()
        if noun in GOVERNED_SKIP or noun in _NOT_COUNTED or noun in MONTHS or _weekday(noun):
            continue
        found.setdefault(stem(noun), set()).add(match[1].replace(",", ""))
    return {noun: frozenset(numbers) for noun, numbers in found.items()}


_COUNTED = re.compile(r"(?<![\d.:,/$-])(\d+(?:,\d{3})*(?:\.\d+)?)[ -]([A-Za-z]{2,})\b")
_NOT_COUNTED = frozenset(["am", "pm", "st", "nd", "rd", "th", "and", "or", "to", "of", "percent", "from", "by", "per"])


@functools.lru_cache(maxsize=1 << 14)
def words_in(text: str) -> frozenset[str]:
    """The word stems of a text, case-folded (number words as digits); a possessive also without its ``'s``
    (``Lena's`` mentions the name ``Lena``)."""
    words = _words(with_digits(text))
    return frozenset(stem(w) for _, w in words) | {w[:-2] for _, w in words if w.endswith("'s")}
