"""Parsers for times of day, calendar dates, date-times and durations.

Surface forms seen in real dialogs are handled directly (``7 pm``, ``19:00``, ``afternoon 12``,
``half past 11 in the morning``, ``March 1st``, ``the 8th``, ``11th of this month``, ``1/3/2019``,
``Monday next week``), quarters (``Q3 2024``, ``third quarter of 2024``); other month-name forms fall
back to ``dateutil`` (``Friday, 1 March 2019``).
Number words are turned into digits with ``text2num`` first (``ten in the night``, ``seven
o'clock``: ``o'clock`` is kept one token so its ``o`` is never read as zero).

Relative forms (``today``, ``tomorrow``, ``next Friday``, ``Monday next week``, ``this month``) need
``ParseContext.reference_date``; without one they do not parse, except a bare weekday (``Monday``),
which is then a ``Weekday`` that agrees with any date on that day. ``the 8th`` without a reference is
the partial date "day 8", which agrees with any date on the 8th. ``1/3/2019`` is ambiguous: with
``ParseContext.day_first`` (from the dialog's ``locale``) it is read in that order; without, it keeps both
readings (1 March and 3 January) in order, and agrees only with a date that agrees under both (``values``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from datetime import date, datetime, timedelta
from fractions import Fraction

from dateutil import parser as dateutil_parser  # type: ignore[import-untyped]  # no stubs installed
from text_to_num import alpha2digit  # type: ignore[import-untyped]  # text2num ships no types

from aem_strands.compare.values import (
    CalendarDate,
    ClockTime,
    DateReading,
    Duration,
    Moment,
    ParseContext,
    Quarter,
    Typed,
    Weekday,
)

MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
         ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
         ("november", "nov"), ("december", "dec")],
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH_NAMES = frozenset(MONTHS)
_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        [("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"), ("thursday", "thu", "thurs"),
         ("friday", "fri"), ("saturday", "sat"), ("sunday", "sun")]
    )
    for name in names
}  # fmt: skip
_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAY = "(" + "|".join(sorted(_WEEKDAYS, key=len, reverse=True)) + ")"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_PM_PARTS = ("afternoon", "evening", "night", "tonight")

_CLOCK = re.compile(
    r"(?:(?P<pre>morning|afternoon|evening|night|tonight)\s+)?(?:at\s+)?"
    r"(?:(?:a\s+)?(?P<half>half|quarter|\d{1,2})(?:\s+minutes?)?[\s-]+(?P<rel>past|to|after)[\s-]+"
    r"|(?P<british>half)\s+)?"
    r"(?P<hour>\d{1,2}|noon|midnight)(?:[:h.](?P<minute>\d{2}))?(?::\d{2})?(?:\s*oclock)?"
    r"\s*(?P<ampm>am|pm|a\s*m|p\s*m)?"
    r"(?:\s+(?:in\s+the\s+|at\s+|this\s+)?(?P<post>morning|afternoon|evening|night|tonight))?"
)
"""A clock time; spoken forms too: ``quarter to 7``, ``10 to 6 in the morning``, ``5-past-7``, ``half 5``
(British: 5:30), ``a quarter to midnight`` (number words are digits by then)."""
_NAMED_HOURS = {"noon": 12, "midnight": 0}
_OCLOCK = re.compile(r"\s*\bo\s*['\"`]?\s*clock\b")
_QUARTER = re.compile(
    r"(?:(?P<y1>\d{4})\s*)?q(?P<q1>[1-4])(?:\s*(?:of\s+)?(?:fy\s*)?(?P<y2>\d{4}))?"
    r"|(?:the\s+)?(?P<q2>[1-4])(?:st|nd|rd|th)\s+(?:fiscal\s+)?quarter(?:\s+(?:of\s+)?(?:fy\s*)?(?P<y3>\d{4}))?"
)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_NUMERIC_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})")
_MONTH_DAY = re.compile(rf"(?:{_WEEKDAY},?\s+)?{_MONTH}\s+(?:the\s+)?{_ORDINAL}(?:,?\s+(\d{{4}}))?")
_DAY_MONTH = re.compile(rf"(?:{_WEEKDAY},?\s+)?(?:the\s+)?{_ORDINAL}\s+(?:of\s+)?{_MONTH},?(?:\s+(\d{{4}}))?")
_DAY_ONLY = re.compile(
    r"(?:on\s+)?(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th))(?:\s+of\s+(this|next)\s+month)?"
)
_WEEKDAY_RELATIVE = re.compile(
    rf"(?:(this|next|coming|this coming)\s+{_WEEKDAY}|{_WEEKDAY}\s+(this|next)\s+week|{_WEEKDAY})"
)
_DAY_WORDS = {"today": 0, "tonight": 0, "later today": 0, "tomorrow": 1, "day after tomorrow": 2,
              "the day after tomorrow": 2, "yesterday": -1}  # fmt: skip
_DURATION_UNITS = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "m": 60, "min": 60, "mins": 60, "minute": 60,
    "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "d": 86400, "day": 86400,
    "days": 86400, "week": 604800, "weeks": 604800,
}  # fmt: skip
_DURATION_PART = re.compile(
    r"(\d+(?:\.\d+)?|an?|half an?)\s*(" + "|".join(sorted(_DURATION_UNITS, key=len, reverse=True)) + r")\b"
)
_ARTICLE_AMOUNTS = {"a": Fraction(1), "an": Fraction(1), "half a": Fraction(1, 2), "half an": Fraction(1, 2)}
_ISO_DURATION = re.compile(r"p(?:(\d+)d)?(?:t(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?)?")


_AM_PM_DOTS = re.compile(r"\b([ap])\.m\.?")
_WORD_DIGIT = re.compile(r"\b([a-z]{3,9})\.?(?=\d)")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[a-z]")
_LETTERS = re.compile(r"[a-z]+")
_TIME_WORDS = frozenset(
    {*MONTHS, *_WEEKDAYS, "noon", "midday", "midnight", "today", "tonight", "tomorrow", "yesterday"}
)
"""Every word a time, date or quarter without a digit needs (a month for ``dateutil``, a weekday, a day word)."""


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    # Each rewrite only where it can apply: the patterns need "clock", ".m" and a digit.
    if "clock" in folded:
        folded = _OCLOCK.sub(" oclock", folded)  # one token, so number words never read its "o" as zero
    if ".m" in folded:
        folded = _AM_PM_DOTS.sub(r"\1m", folded)
    if _DIGIT.search(folded):
        folded = _WORD_DIGIT.sub(r"\1 ", folded)  # "Jan.1,2022"
    folded = folded.replace("\\", "/")  # "16\\08\\2022"
    return " ".join(folded.replace(",", ", ").split()).replace(" ,", ",")


def _digits(text: str) -> str:
    return alpha2digit(text, "en", threshold=0) if _LETTER.search(text) else text


def may_be_time(folded: str) -> bool:
    """Whether ``folded`` (folded, number words as digits) can be read as any time value: without a digit, only
    through a word of ``_TIME_WORDS``, or as a duration made of duration parts alone (``an hour``, ``half an
    hour and a day``), which ``parse_duration`` is the only reader to take (a part inside a word, the ``as`` of
    ``has``, is no reason to try every reader). A cheap check that spares the parsers."""
    if _DIGIT.search(folded) or not _TIME_WORDS.isdisjoint(_LETTERS.findall(folded)):
        return True
    return _DURATION_PART.search(folded) is not None and not _duration_rest(folded).strip()


def _duration_rest(text: str) -> str:
    """What is left of ``text`` but its duration parts and their joiners (``and``, commas)."""
    return _DURATION_PART.sub(" ", text).replace("and", " ").replace(",", " ")


def parse_clock(text: str) -> ClockTime | None:
    """A time of day; needs minutes, am/pm, a part of day or a ``half past`` to be one. A spoken offset in
    minutes (``10 to 6``, ``20 past 4``) is a time only up to 30 minutes, before an hour of the 12-hour clock or
    ``noon``/``midnight``, and, but for ``past``, with am/pm, a part of day or ``noon``/``midnight`` (``from 10 to
    6`` is a range).
    ``12`` at night is midnight (``closes at 12 at night``)."""
    if text in ("noon", "midday", "12 noon"):
        return ClockTime(12, 0)
    if text in ("midnight", "12 midnight"):
        return ClockTime(0, 0)
    match = _CLOCK.fullmatch(text)
    if not match:
        return None
    named = _NAMED_HOURS.get(match["hour"])
    hour, minute = named if named is not None else int(match["hour"]), int(match["minute"] or 0)
    part = match["pre"] or match["post"]
    ampm = (match["ampm"] or "").replace(" ", "")
    if named is not None and (match["minute"] or ampm or part or not match["rel"]):
        return None  # "noon" and "midnight" alone are read above; with an offset, nothing else
    if not (match["minute"] or ampm or part or match["half"] or match["british"] or "oclock" in text):
        return None
    if match["half"]:
        if match["minute"] or not (
            offset := _offset(match["half"], match["rel"], bool(ampm or part) or named is not None)
        ):
            return None
        if named is None and not 1 <= hour <= 12:
            return None
        minute = offset if match["rel"] != "to" else 60 - offset
        hour = hour if match["rel"] != "to" else (hour - 1) % 24
    elif match["british"]:
        if match["minute"] or not (ampm or part) or not 1 <= hour <= 12:
            return None
        minute = 30
    if named is not None:
        return ClockTime(hour, minute)
    if hour == 12 and (ampm == "am" or (not ampm and part in ("night", "tonight"))):
        hour = 0
    elif ampm == "pm" or (not ampm and part in _PM_PARTS):
        hour = hour + 12 if hour < 12 else hour
    if not (0 <= hour <= 23 and 0 <= minute <= 59) or (ampm and int(match["hour"]) > 12):
        return None
    return ClockTime(hour, minute)


def _offset(said: str, relation: str, anchored: bool) -> int | None:
    """The minutes a spoken offset (``half``, ``quarter``, ``10``) names, or ``None`` where it names no time: more
    than 30 minutes, or a number before ``to``/``after`` with nothing to anchor it (am/pm, a part of day, noon)."""
    if said in ("half", "quarter"):
        return 30 if said == "half" else 15
    minutes = int(said)
    if not 1 <= minutes <= 30 or (relation != "past" and not anchored):
        return None
    return minutes


def _valid(year: int | None, month: int | None, day: int | None) -> bool:
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None and not 1 <= day <= 31:
        return False
    if year is not None and month is not None and day is not None:
        try:
            date(year, month, day)
        except ValueError:
            return False
    return True


def _date(*readings: DateReading) -> CalendarDate | None:
    kept = frozenset(r for r in readings if _valid(*r))
    return CalendarDate(kept) if kept else None


def _numeric_date(day_first: DateReading, month_first: DateReading, order: bool | None) -> CalendarDate | None:
    """A numeric date read in the order ``order`` gives (the other when that one is no date); with no order
    known, both readings, ``orders`` keeping which is which."""
    valid = [r for r in (day_first, month_first) if _valid(*r)]
    if order is not None and len(valid) == 2:
        return _date(day_first if order else month_first)
    if len(valid) == 2 and day_first != month_first:
        return CalendarDate(frozenset(valid), (day_first, month_first))
    return _date(*valid)


def _from(day: date) -> CalendarDate:
    return CalendarDate(frozenset({(day.year, day.month, day.day)}))


def _year(text: str | None) -> int | None:
    if text is None:
        return None
    return int(text) + 2000 if len(text) == 2 else int(text)


def _relative(text: str, today: date) -> CalendarDate | None:
    if text in _DAY_WORDS:
        return _from(today + timedelta(days=_DAY_WORDS[text]))
    match = _WEEKDAY_RELATIVE.fullmatch(text)
    if not match:
        return None
    if match[2]:  # "next Friday": the first Friday after today; "this Friday": today or later
        ahead = (_WEEKDAYS[match[2]] - today.weekday()) % 7
        return _from(today + timedelta(days=ahead or (7 if match[1] != "this" else 0)))
    if match[3]:  # "Monday next week": that day in the calendar week (Monday first) after this one
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1 if match[4] == "next" else 0)
        return _from(monday + timedelta(days=_WEEKDAYS[match[3]]))
    return _from(today + timedelta(days=(_WEEKDAYS[match[5]] - today.weekday()) % 7))


def parse_date(text: str, context: ParseContext) -> CalendarDate | None:
    """A calendar date in one of the forms of the module docstring."""
    today = context.reference_date
    if match := _ISO_DATE.fullmatch(text):
        return _date((int(match[1]), int(match[2]), int(match[3])))
    if match := _NUMERIC_DATE.fullmatch(text):
        a, b, year = int(match[1]), int(match[2]), _year(match[3])
        return _numeric_date((year, b, a), (year, a, b), context.day_first)
    if match := _MONTH_DAY.fullmatch(text):
        return _date((_year(match[4]) or _infer_year(today), MONTHS[match[2]], int(match[3])))
    if match := _DAY_MONTH.fullmatch(text):
        return _date((_year(match[4]) or _infer_year(today), MONTHS[match[3]], int(match[2])))
    if match := _DAY_ONLY.fullmatch(text):
        day = int(match[1] or match[2])
        if match[3] is None and today is None:
            return _date((None, None, day))
        if today is None:
            return None
        month = today.month + (1 if match[3] == "next" else 0)
        year, month = (today.year + 1, 1) if month == 13 else (today.year, month)
        return _date((year, month, day))
    if today is not None and (relative := _relative(text, today)) is not None:
        return relative
    if len(text) <= 40 and not _MONTH_NAMES.isdisjoint(text.split()):
        return _dateutil(text)
    return None


def _infer_year(today: date | None) -> int | None:
    return today.year if today is not None else None


def _dateutil_words() -> frozenset[str]:
    info = dateutil_parser.parserinfo
    lists = (info.JUMP, info.UTCZONE, info.PERTAIN, *info.WEEKDAYS, *info.MONTHS, *info.HMS, *info.AMPM)
    return frozenset(word.lower() for words in lists for word in ([words] if isinstance(words, str) else words))


_DATEUTIL_WORDS = _dateutil_words()
"""Every word ``dateutil``'s parser knows (lower-cased, as it looks them up). Without ``fuzzy`` it raises on any
other word, but for a time-zone name of at most five capitals (never in a folded text) and for the word after
``<month> of`` (``Jan of 01``), which it skips unread: the gate of ``_dateutil``."""
_PERTAIN_WORDS = frozenset(word.lower() for word in dateutil_parser.parserinfo.PERTAIN)
_ASCII_WORDS = re.compile(r"[A-Za-z]+")


def _dateutil_may_read(text: str) -> bool:
    """Whether ``dateutil`` can read ``text`` at all: ``False`` only for an ASCII text with a word it does not know
    (``March 3rd in Portland``), on which it raises; the letters of a word are one token of its lexer. A text with
    ``of`` is always tried (``dateutil`` skips the word after ``<month> of``)."""
    words = _ASCII_WORDS.findall(text)
    if not text.isascii() or not _PERTAIN_WORDS.isdisjoint(word.lower() for word in words):
        return True
    return all(word.lower() in _DATEUTIL_WORDS or (len(word) <= 5 and word.isupper()) for word in words)


def _dateutil(text: str) -> CalendarDate | None:
    if not _dateutil_may_read(text):
        return None
    # Parse with two different defaults: a part that changes with the default was not in the text.
    try:
        first = dateutil_parser.parse(text, default=datetime(2000, 1, 1))
        second = dateutil_parser.parse(text, default=datetime(2001, 2, 2))
    except (ValueError, OverflowError):
        return None
    if first.hour or first.minute:
        return None
    parts = [(first.year, second.year), (first.month, second.month), (first.day, second.day)]
    year, month, day = (a if a == b else None for a, b in parts)
    return _date((year, month, day)) if month is not None else None


def parse_duration(text: str) -> Duration | None:
    """``2 hours``, ``120 minutes``, ``1 h 30 min``, ``an hour``, ``PT2H30M``."""
    if iso := _ISO_DURATION.fullmatch(text):
        if not any(iso.groups()):
            return None
        days, hours, minutes, seconds = (Fraction(g) if g else Fraction(0) for g in iso.groups())
        return Duration(days * 86400 + hours * 3600 + minutes * 60 + seconds)
    parts = list(_DURATION_PART.finditer(text))
    if not parts:
        return None
    if _duration_rest(text).strip():
        return None
    if len(parts) == 1 and parts[0][2] == "m":
        return None  # "10000 m" alone is a length; "m" is minutes only beside hours ("1 h 30 m")
    total = Fraction(0)
    for part in parts:
        amount = _ARTICLE_AMOUNTS.get(part[1])
        total += (amount if amount is not None else Fraction(part[1])) * _DURATION_UNITS[part[2]]
    return Duration(total)


_READER_WORDS = frozenset(
    {*MONTHS, *_WEEKDAYS, *_DAY_WORDS, *_DURATION_UNITS, *_DATEUTIL_WORDS, "oclock", "half", "quarter", "fiscal",
     "past", "to", "after", "at", "in", "the", "this", "next", "coming", "week", "month", "of", "on", "and", "an",
     "later", "noon", "midday", "midnight", "morning", "afternoon", "evening", "night", "am", "pm", "st", "nd",
     "rd", "th", "fy", "a", "p", "m", "t", "d", "h", "s", "q"}
)  # fmt: skip
"""Every word of every reader's forms (each pattern's literal words, ``_DAY_WORDS``, ``dateutil``'s words, the
letters of ``PT2H``, ``q3``, ``fy2024``, ``2019-03-01t10:00``, ``10h30``). Patterns may join two with no space
(``oclockpm``, ``anhour``), so a run of letters is read as any sequence of them."""
_READER_RUN = re.compile("(?:" + "|".join(map(re.escape, sorted(_READER_WORDS, key=len, reverse=True))) + ")+")
_SECONDS = re.compile(r":\d{2}:\d{2}")


def _readers_may_read(folded: str) -> bool:
    """Whether every run of letters in ``folded`` is made of ``_READER_WORDS``; ``False`` means no reader of
    ``read_time`` takes it. Always ``True`` where a reader takes words it does not know: a text not ASCII or with
    ``of`` anywhere (``dateutil``, see ``_dateutil_may_read``), and a date-time with seconds (``_moment`` drops what
    follows them)."""
    if not folded.isascii() or "of" in folded or _SECONDS.search(folded):
        return True
    return all(map(_reader_run, _LETTERS.findall(folded)))


@functools.lru_cache(maxsize=1 << 14)
def _reader_run(run: str) -> bool:
    """Whether a run of letters is made of ``_READER_WORDS`` (remembered: the same words recur in every dialog)."""
    return _READER_RUN.fullmatch(run) is not None


class TimeParser:
    """Times of day, dates, date-times and durations (see the module docstring)."""

    name = "time"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        folded = _fold(text)
        if not folded or len(folded) > 60:
            return None
        folded = _digits(folded)
        if not (may_be_time(folded) and _readers_may_read(folded)):
            return None
        return read_time(folded, context)


def read_time(folded: str, context: ParseContext) -> Typed | None:
    """The time value ``folded`` (folded, number words as digits) reads as, trying each form in turn."""
    if clock := parse_clock(folded):
        return clock
    if day := parse_date(folded, context):
        return day
    if duration := parse_duration(folded):
        return duration
    if quarter := parse_quarter(folded):
        return quarter
    weekday = _WEEKDAYS.get(folded.removeprefix("on ").rstrip(".")) if context.reference_date is None else None
    if weekday is not None:
        return Weekday(weekday)
    return _moment(folded, context)


def parse_quarter(text: str) -> Quarter | None:
    """``q3 2024``, ``2024 q3``, ``q3 fy2024``, ``3rd quarter of 2024`` (number words already digits)."""
    match = _QUARTER.fullmatch(text)
    if not match:
        return None
    year = match["y1"] or match["y2"] or match["y3"]
    return Quarter(int(match["q1"] or match["q2"]), int(year) if year else None)


_MOMENT_SPLIT = re.compile(r"(.+?)(?:t|\s+at\s+|,\s*|\s+)(\d{1,2}(?:[:h.]\d{2}).*|\d{1,2}\s*[ap]m.*)")
_MOMENT_CLOCK = re.compile(r"\d(?:[:h.]\d{2}|\s*[ap]m)")
"""What the clock part of ``_MOMENT_SPLIT`` starts with: a text without it is no moment (a cheap search first)."""


def _moment(text: str, context: ParseContext) -> Moment | None:
    match = _MOMENT_SPLIT.fullmatch(text) if _MOMENT_CLOCK.search(text) else None
    if not match:
        return None
    day, clock = parse_date(match[1].strip(" ,"), context), parse_clock(re.sub(r"(:\d{2}):\d{2}.*$", r"\1", match[2]))
    return Moment(day, clock) if day is not None and clock is not None else None
