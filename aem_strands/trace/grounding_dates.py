"""Dates and times for grounding: which earlier date (said or seen) a date argument may come from.

Earlier dates are kept by what they give, so a lookup is a few dictionary reads, never a scan of every date:
full and yearless dates by (month, day), a day of the month alone (``the 8th``) by its day, weekdays by their
day, times of day by (hour, minute), and relative phrases (``tomorrow``, ``next Friday``, ``13th of this
month``) by their words when no today is known.

A full date ``D`` (``2019-03-13``) is grounded by:

- the same full date;
- a yearless date on its month and day (``March 13th``): with a known today, when ``D`` lies within a year of
  it (the nearest ``March 13th`` either way, or the next one); without one, whatever the year — the year was
  not said, so it is not contradicted, and a user who says "March 13th" expects this year's;
- a day of the month alone (``the 13th``) on its day: with a known today when ``D`` is from a month before it
  to two months after; without one, any month;
- a weekday (``Friday``) on its day of the week: with a known today within a week before it to two weeks after;
  without one, any such day;
- a relative phrase: with a known today it is read as the date it names (``tomorrow`` is today + 1) and must be
  ``D``; without one, when some today within two months before ``D`` makes it name ``D`` (``next Friday``
  grounds any Friday, ``tomorrow`` any date): what it names cannot be checked without a today, and the value
  did come from the user's words. A month alone (``in March``) grounds no day.

A month alone (``September``) is grounded by any earlier date in that month (the known today's included). A
numeric date (``9/15``, ``9/15/2023``) is read month first unless the context says day first.

A time of day is grounded by the same time (``half past 11 in the morning`` grounds ``11:30``; ``6:30`` said
without ``am`` or ``pm`` grounds ``06:30`` and ``18:30``); a date with a time (``Moment``) when its date and its
time are each grounded.

Derived values: a time is also grounded by an earlier time and an earlier length of time (``from 8 am`` and ``30
minutes before`` give ``07:30``; ``at 9`` and ``for half an hour`` give ``09:30``), and a date by an earlier date
and an earlier length of whole days up to two weeks (``September 28th`` and ``a day before`` give ``09-27``): the
agent worked it out from what was said (``how`` is ``derived``). With a known today, the start of a period up to
it is derived from it too (the first of this month or the last, a month or a week before today: a listing "since").

A value written in a format its argument's description gives without a year (``12-10`` where the description says
``Format: %m-%d``) is read under that format, as the month and day it names (``yearless_reading``: ``December
10``), and grounded as a yearless date is: the format, not a guess, says which number is the month.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import CalendarDate, ClockTime, Duration, Moment, ParseContext, Typed, Weekday
from aem_strands.trace.types import Trace

_YEARLESS_WINDOW = 366
_DAY_ONLY_WINDOW = (-31, 62)
_WEEKDAY_WINDOW = (-7, 14)
_RELATIVE_REACH = 62
"""How far before a date a today may lie for a relative phrase to name it (``13th of next month``)."""
_PROBE = date(2001, 1, 1)
"""A today used only to tell a relative phrase (it names a date once a today is given) from other text."""
_DAY = 86_400
_LONGEST_DAY_SHIFT = 14
"""A date is derived from an earlier one by a said length of whole days up to this many (``a day before``)."""
_MAX_LENGTHS = 16
_MOST_WEEKS = 10
_NEAR_MINUTES = 120
_NUMERIC_DATE = re.compile(r"(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?")
_HALF_DAY_MARK = re.compile(r"[ap]\.?m\b|morning|afternoon|evening|night|noon|midnight", re.IGNORECASE)
_TWELVE_HOUR = re.compile(r"(?:[1-9]|1[0-2]):[0-5]\d")
"""A time written as a twelve-hour clock (``6:30``; not ``06:30``, ``18:30`` nor ``6:30pm``)."""
_WEEK = re.compile(r"\b(this|next|last) week\b")


@dataclass(frozen=True)
class DateHit:
    """An earlier phrase or value that grounds a date or time, where it was, and how (``date``, ``yearless
    date``, ``day of month``, ``weekday``, ``relative date``, ``time``)."""

    source: str
    matched: str
    how: str


@dataclass
class DateIndex:
    """Earlier dates and times by what they give (see the module docstring). ``today`` is the known today, or
    ``None``."""

    today: date | None = None
    _days: dict[tuple[int | None, int], list[tuple[int | None, DateHit]]] = field(default_factory=dict)
    _weekdays: dict[int, DateHit] = field(default_factory=dict)
    _dated_weekdays: dict[int, DateHit] = field(default_factory=dict)
    _times: dict[tuple[int, int], DateHit] = field(default_factory=dict)
    _relative: dict[str, DateHit] = field(default_factory=dict)
    _consistent: dict[tuple[str, date], bool] = field(default_factory=dict)
    _months: dict[int, DateHit] = field(default_factory=dict)
    _lengths: dict[int, DateHit] = field(default_factory=dict)
    _named_months: dict[int, DateHit] = field(default_factory=dict)

    def named_month(self, month: int) -> DateHit | None:
        """An earlier month named alone (``March``, ``the Feb bill``), or ``None``."""
        return self._named_months.get(month)

    def dated_month(self, year: int, month: int) -> DateHit | None:
        """An earlier full date in ``year`` and ``month``, or ``None``."""
        for (m, _), entries in self._days.items():
            if m == month:
                for given, hit in entries:
                    if given == year:
                        return hit
        return None

    def add(self, typed: Typed, shown: str, source: str) -> None:
        """Keep what a typed earlier value gives (dates, weekdays, times; anything else is ignored)."""
        if isinstance(typed, Moment):
            self.add(typed.day, shown, source)
            self.add(typed.time, shown, source)
        elif isinstance(typed, CalendarDate):
            for year, month, day in typed.readings:
                if month is not None and day is not None:
                    self._months.setdefault(month, DateHit(source, shown, "month"))
                if day is None:
                    if month is not None and year is None and shown.strip() != "may":  # not the verb "may"
                        # "March": no date, but a year and month (``2026-03``)
                        self._named_months.setdefault(month, DateHit(source, shown, "month"))
                    continue  # no day, so no date comes from it
                entries = self._days.setdefault((month, day), [])
                if len(entries) < 8 and all(y != year for y, _ in entries):
                    entries.append((year, DateHit(source, shown, "date" if year is not None else "yearless date")))
                if year is not None and month is not None and _valid(year, month, day):
                    self._dated_weekdays.setdefault(date(year, month, day).weekday(), DateHit(source, shown, "date"))
        elif isinstance(typed, Weekday):
            self._weekdays.setdefault(typed.day, DateHit(source, shown, "weekday"))
        elif isinstance(typed, ClockTime):
            self._times.setdefault((typed.hour, typed.minute), DateHit(source, shown, "time"))
        elif isinstance(typed, Duration):
            seconds = int(typed.seconds)
            if seconds == typed.seconds and seconds > 0 and len(self._lengths) < _MAX_LENGTHS:
                self._lengths.setdefault(seconds, DateHit(source, shown, "length"))

    def add_clock_words(self, words: list[str], source: str) -> None:
        """Keep each time written as a twelve-hour clock (``6:30``) that no half-day mark follows (``am``, ``in
        the evening``) in both halves of the day: ``06:30`` and ``18:30``."""
        for i, word in enumerate(words):
            found = _TWELVE_HOUR.fullmatch(word)
            if found is None or _HALF_DAY_MARK.search(" ".join(words[max(0, i - 1) : i + 4])):
                continue
            hour, minute = (int(part) for part in word.split(":"))
            for half in (hour % 12, hour % 12 + 12):
                self._times.setdefault((half, minute), DateHit(source, word, "time"))

    def add_numeric(self, word: str, day_first: bool | None, source: str) -> None:
        """Keep a numeric date (``9/15``, ``9/15/2023``): month first unless ``day_first``; both readings when
        ``day_first`` is ``None`` and both numbers could be a month."""
        found = _NUMERIC_DATE.fullmatch(word)
        if found is None:
            return
        first, second = int(found[1]), int(found[2])
        year = int(found[3]) if found[3] else None
        if year is not None and year < 100:
            year += 2000
        orders = [(second, first)] if day_first else [(first, second)]
        if day_first is None and first <= 12 and second <= 12:
            orders.append((second, first))
        for month, day in orders:
            if 1 <= month <= 12 and 1 <= day <= 31:
                self.add(CalendarDate(frozenset({(year, month, day)})), word, source)

    def add_relative(self, phrase: str, source: str) -> bool:
        """Keep ``phrase`` when it is a relative date that needs a today none is known for (``next Friday``);
        whether it was one."""
        if self.today is not None or phrase in self._relative:
            return phrase in self._relative
        if isinstance(typed_value(phrase, ParseContext(_PROBE)), CalendarDate):
            self._relative[phrase] = DateHit(source, phrase, "relative date")
            return True
        return False

    def find(self, wanted: Typed) -> DateHit | None:
        """What grounds ``wanted`` (a date, date-time, weekday or time), or ``None``."""
        if isinstance(wanted, Moment):
            day, time = self.find(wanted.day), self.find(wanted.time)
            return day if day is not None and time is not None else None
        if isinstance(wanted, ClockTime):
            return self._times.get((wanted.hour, wanted.minute)) or self._derived_time(wanted)
        if isinstance(wanted, Weekday):
            return self._weekdays.get(wanted.day) or self._dated_weekdays.get(wanted.day)
        if isinstance(wanted, CalendarDate):
            for reading in wanted.readings:
                hit = self._find_reading(*reading) or self._derived_date(*reading) or self._period_start(*reading)
                if hit is not None:
                    return hit
        return None

    def _period_start(self, year: int | None, month: int | None, day: int | None) -> DateHit | None:
        """With a known today, the start of a period up to it: the first day of its month or the month before, or
        one to three months, one to four weeks, or 30, 60 or 90 days before it (a listing "since" then)."""
        if self.today is None or year is None or month is None or day is None or not _valid(year, month, day):
            return None
        full, today = date(year, month, day), self.today
        last_month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
        starts = {today.replace(day=1), last_month}
        starts |= {today - timedelta(weeks=w) for w in range(1, 5)} | {today - timedelta(days=d) for d in (30, 60, 90)}
        for months in range(1, 4):
            y, m = divmod(today.year * 12 + today.month - 1 - months, 12)
            if _valid(y, m + 1, today.day):
                starts.add(date(y, m + 1, today.day))
        if full in starts:
            return DateHit("the known today", today.isoformat(), "derived")
        return None

    def weeks_after(self, wanted: CalendarDate) -> DateHit | None:
        """An earlier full date a whole number of weeks (one to ten) before a full reading of ``wanted``."""
        for year, month, day in wanted.readings:
            if year is None or month is None or day is None or not _valid(year, month, day):
                continue
            for weeks in range(1, _MOST_WEEKS + 1):
                earlier = date(year, month, day) - timedelta(weeks=weeks)
                for given, hit in self._days.get((earlier.month, earlier.day), ()):
                    if given == earlier.year and not _WEEK.search(hit.matched.casefold()):
                        return DateHit(hit.source, hit.matched, "weekly")
        return None

    def near(self, wanted: ClockTime) -> DateHit | None:
        """An earlier time half an hour to two hours, in whole half hours, from ``wanted`` when ``wanted`` is on
        the hour or the half hour (the bounds of a window "around 6 PM": ``17:00``, ``19:00``)."""
        if wanted.minute % 30:
            return None
        minute = wanted.hour * 60 + wanted.minute
        for (hour, minutes), hit in self._times.items():
            apart = abs(hour * 60 + minutes - minute)
            if 0 < apart <= _NEAR_MINUTES and apart % 30 == 0:
                return DateHit(hit.source, hit.matched, "near")
        return None

    def _derived_time(self, wanted: ClockTime) -> DateHit | None:
        """An earlier time shifted by an earlier length of time shorter than a day (``8 am`` less ``30 minutes``)."""
        minute = wanted.hour * 60 + wanted.minute
        for seconds, length in self._lengths.items():
            if seconds % 60 or seconds >= _DAY:
                continue
            for sign in (1, -1):
                shifted = (minute - sign * seconds // 60) % (24 * 60)
                hit = self._times.get(divmod(shifted, 60))
                if hit is not None:
                    return DateHit(hit.source, f"{hit.matched} and {length.matched}", "derived")
        return None

    def _derived_date(self, year: int | None, month: int | None, day: int | None) -> DateHit | None:
        """An earlier date shifted by an earlier length of whole days (``September 28th`` less ``a day``)."""
        if year is None or month is None or day is None or not _valid(year, month, day):
            return None
        full = date(year, month, day)
        for seconds, length in self._lengths.items():
            if seconds % _DAY or seconds // _DAY > _LONGEST_DAY_SHIFT:
                continue
            for sign in (1, -1):
                other = full + timedelta(days=sign * seconds // _DAY)
                hit = self._find_reading(other.year, other.month, other.day)
                if hit is not None:
                    return DateHit(hit.source, f"{hit.matched} and {length.matched}", "derived")
        return None

    def _find_reading(self, year: int | None, month: int | None, day: int | None) -> DateHit | None:
        if day is None:
            return self._months.get(month) if month is not None and year is None else None
        full = date(year, month, day) if year is not None and month is not None and _valid(year, month, day) else None
        for given, hit in self._days.get((month, day), ()):
            if given == year or year is None or (given is None and self._within(full, _YEARLESS_WINDOW)):
                return hit
        if month is None or full is None:
            return None
        for given, hit in self._days.get((None, day), ()):
            if given is None and self._between(full, _DAY_ONLY_WINDOW):
                return DateHit(hit.source, hit.matched, "day of month")
        weekday = self._weekdays.get(full.weekday())
        if weekday is not None and self._between(full, _WEEKDAY_WINDOW):
            return weekday
        return self._find_relative(full)

    def _within(self, full: date | None, days: int) -> bool:
        return self.today is None or (full is not None and abs((full - self.today).days) <= days)

    def _between(self, full: date, window: tuple[int, int]) -> bool:
        return self.today is None or window[0] <= (full - self.today).days <= window[1]

    def _find_relative(self, full: date) -> DateHit | None:
        for phrase, hit in self._relative.items():
            key = (phrase, full)
            if key not in self._consistent:
                self._consistent[key] = any(_names(phrase, today, full) for today in _todays_before(full))
            if self._consistent[key]:
                return hit
        return None


def week_days(phrase: str, today: date) -> list[date]:
    """The days of the week ``phrase`` names against ``today`` (``this week``, ``next week``, ``last week``,
    Monday to Sunday), or none: the first and last days of a week the user named are what a search over it
    takes."""
    found = _WEEK.fullmatch(phrase.casefold().strip())
    if found is None:
        return []
    shift = {"this": 0, "next": 7, "last": -7}[found[1]]
    monday = today - timedelta(days=today.weekday()) + timedelta(days=shift)
    return [monday + timedelta(days=i) for i in range(7)]


def _todays_before(full: date) -> Iterator[date]:
    for back in range(_RELATIVE_REACH + 1):
        yield full - timedelta(days=back)


def _names(phrase: str, today: date, full: date) -> bool:
    typed = typed_value(phrase, ParseContext(today))
    return isinstance(typed, CalendarDate) and (full.year, full.month, full.day) in typed.readings


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


_STRFTIME = re.compile(r"%[A-Za-z](?:[^\s%]{0,3}%[A-Za-z])+")
"""A ``strftime`` format written in a description (``%m-%d``, ``%Y-%m-%d %H:%M:%S``)."""
_LEAP_YEAR = 2000
"""The year a yearless value is parsed in, so that ``02-29`` is a day."""


def yearless_reading(value: object, description: object) -> str | None:
    """The month and day (``December 10``) a string value names under the ``strftime`` format its argument's
    ``description`` gives, when that format has a month and a day and no year nor time (``Format: %m-%d``); else
    ``None`` (no such format, or the value does not parse under it)."""
    if not isinstance(value, str) or not isinstance(description, str):
        return None
    found = _STRFTIME.search(description)
    directives = set(re.findall(r"%([A-Za-z])", found.group())) if found is not None else set()
    if found is None or not {"m", "d"} <= directives or directives - {"m", "d"}:
        return None
    try:
        parsed = datetime.strptime(f"{_LEAP_YEAR} {value.strip()}", f"%Y {found.group()}")
    except ValueError:
        return None
    return f"{parsed:%B} {parsed.day}"


def reference_date(*sources: object) -> date | None:
    """The first today a mapping among ``sources`` gives under a key of ``TODAY_KEYS`` (an ISO date, or an ISO
    date-time whose date part is used), else ``None``."""
    for source in sources:
        if not isinstance(source, dict):
            continue
        for key in TODAY_KEYS:
            value = source.get(key)
            if isinstance(value, str):
                try:
                    return date.fromisoformat(value.strip()[:10])
                except ValueError:
                    continue
    return None


TODAY_KEYS = ("today", "current_date", "reference_date", "date", "now", "current_datetime", "current_time")
"""Keys of ``initial_state`` (or trace metadata) read, in order, for the today relative dates refer to."""


def trace_today(trace: Trace) -> ParseContext:
    """The parse context of a trace's known today: its ``initial_state``'s, else its metadata's (``reference_date``)."""
    metadata = getattr(trace, "metadata", None)  # a trace's metadata, where the schema gives one
    return ParseContext(reference_date(dict(trace.initial_state), metadata))


__all__ = ["TODAY_KEYS", "DateHit", "DateIndex", "reference_date", "trace_today", "week_days", "yearless_reading"]
