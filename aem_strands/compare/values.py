"""Typed values: what a scalar means once parsed, and whether two meanings agree.

Every parser (numbers, dates and times, durations, booleans) turns a string into one of the typed
values below, behind the single ``ValueParser`` protocol, so one parser can be swapped for another.
Two typed values of the same type *agree* or *disagree* deterministically; values of different
types disagree (a time is not a number). ``Text`` is what is left when no parser recognises a string:
it is compared by the text rules and, failing those, by the semantic scorer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from aem_strands.types import JsonValue

REFERENCE_DATE_KEYS = ("reference_date", "date")
"""Dialog metadata keys read, in order, for the date relative forms refer to."""


@dataclass(frozen=True)
class ParseContext:
    """What parsing may rely on beyond the string itself.

    ``reference_date`` is "today" for relative forms (``tomorrow``, ``next Friday``, ``the 8th``);
    without it those forms are not parsed (no guessing).
    """

    reference_date: date | None = None

    @classmethod
    def from_metadata(cls, metadata: dict[str, JsonValue]) -> ParseContext:
        """The context a dialog's metadata gives: ``reference_date`` (``"2019-03-01"``, or an ISO
        date-time whose date part is used), else ``date``; anything else or unparseable gives none."""
        for key in REFERENCE_DATE_KEYS:
            value = metadata.get(key)
            if isinstance(value, str):
                try:
                    return cls(date.fromisoformat(value[:10]))
                except ValueError:
                    continue
        return cls()


@dataclass(frozen=True)
class Quantity:
    """A number, optionally with a unit: ``"%"`` or an ISO currency code (``"USD"``)."""

    amount: float
    unit: str | None = None

    def describe(self) -> str:
        amount = str(int(self.amount)) if self.amount.is_integer() else repr(self.amount)
        return f"{amount} {self.unit}" if self.unit else amount


@dataclass(frozen=True)
class Truth:
    """A boolean (``true`` / ``"yes"`` / ``"False"``)."""

    value: bool

    def describe(self) -> str:
        return "true" if self.value else "false"


DateReading = tuple[int | None, int | None, int | None]
"""(year, month, day); ``None`` for a part the string does not give."""


@dataclass(frozen=True)
class CalendarDate:
    """A date, possibly partial (``March 1st`` has no year), possibly ambiguous (``1/3/2019`` is
    read both day-first and month-first: ``readings`` holds every reading)."""

    readings: frozenset[DateReading]

    def describe(self) -> str:
        return " or ".join(sorted("-".join("?" if p is None else f"{p:02d}" for p in r) for r in self.readings))


@dataclass(frozen=True)
class ClockTime:
    """A time of day, 24-hour."""

    hour: int
    minute: int

    def describe(self) -> str:
        return f"{self.hour:02d}:{self.minute:02d}"


@dataclass(frozen=True)
class Moment:
    """A date with a time of day (``2019-03-01T19:00``, ``March 1st at 7 pm``)."""

    day: CalendarDate
    time: ClockTime

    def describe(self) -> str:
        return f"{self.day.describe()} {self.time.describe()}"


@dataclass(frozen=True)
class Duration:
    """A length of time in seconds (``2 hours``, ``120 minutes``, ``PT2H``)."""

    seconds: float

    def describe(self) -> str:
        return f"{self.seconds:g} s"


@dataclass(frozen=True)
class Null:
    """JSON ``null``."""

    def describe(self) -> str:
        return "null"


@dataclass(frozen=True)
class Text:
    """A string no parser recognised, in normalised form (see ``normalise_text``)."""

    value: str

    def describe(self) -> str:
        return repr(self.value)


Typed = Quantity | Truth | CalendarDate | ClockTime | Moment | Duration | Null | Text


class ValueParser(Protocol):
    """Recognises one kind of value in a string; ``None`` when the string is not of that kind."""

    @property
    def name(self) -> str: ...

    def parse(self, text: str, context: ParseContext) -> Typed | None: ...


def _readings_agree(a: DateReading, b: DateReading) -> bool:
    return all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


def _dates_agree(a: CalendarDate, b: CalendarDate) -> bool:
    return any(_readings_agree(x, y) for x in a.readings for y in b.readings)


def _quantities_agree(a: Quantity, b: Quantity) -> bool:
    if a.unit is not None and b.unit is not None and a.unit != b.unit:
        return False
    if math.isclose(a.amount, b.amount, rel_tol=1e-9, abs_tol=1e-12):
        return True
    # "50%" and 0.5 state the same ratio; a bare 50 and "50%" agree through the first test.
    if (a.unit == "%") != (b.unit == "%"):
        percent, plain = (a, b) if a.unit == "%" else (b, a)
        return math.isclose(percent.amount / 100.0, plain.amount, rel_tol=1e-9, abs_tol=1e-12)
    return False


def agree(a: Typed, b: Typed) -> bool | None:
    """Whether two typed values mean the same; ``None`` when either is unparsed ``Text``.

    Partial dates agree with a full date on the parts they give; a unit on one side only does not
    make quantities differ (``$190`` / ``190``); values of different types disagree.
    """
    if isinstance(a, Text) or isinstance(b, Text):
        return a == b if isinstance(a, Text) and isinstance(b, Text) and a == b else None
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        return _quantities_agree(a, b)
    if isinstance(a, CalendarDate) and isinstance(b, CalendarDate):
        return _dates_agree(a, b)
    if isinstance(a, Moment) and isinstance(b, Moment):
        return a.time == b.time and _dates_agree(a.day, b.day)
    if isinstance(a, Duration) and isinstance(b, Duration):
        return math.isclose(a.seconds, b.seconds, rel_tol=1e-9)
    return a == b


def scalar_value(value: JsonValue) -> Typed | None:
    """The typed value of a non-string JSON scalar (``None`` for strings, lists and dicts)."""
    if value is None:
        return Null()
    if isinstance(value, bool):
        return Truth(value)
    if isinstance(value, (int, float)):
        return Quantity(float(value)) if math.isfinite(value) else Text(str(value).casefold())
    return None
