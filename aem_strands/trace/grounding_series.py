"""Dates and times an agent works out from what was said, settled as grounded where the derivation is plain.

``GroundingIndex.may_be_derived`` names the earlier value a date or time may have been worked out from, and leaves
it open (a question). Three derivations settle it, as they name the value exactly:

- **a weekly series** (``weekly_series``): the user asked for a weekly recurrence ("set it up to occur weekly",
  "every Monday") and the value is the same argument of the same tool's previous call, already grounded, one
  week later at the same time of day (``2023-09-25 09:00`` after ``2023-09-18 09:00``). A step of two weeks, a
  changed time, or no weekly request stays open.
- **a span of the same call** (``said_span``): an end that is a grounded start of the same call moved on by a
  length of time said ("Both flights are 10 hours": ``13:00`` after ``03:00``).
- **a read's search window** (``read_window``): a read-only tool's two time bounds (``start_range`` /
  ``end_range``) that enclose what was said: a time said ("around 6 PM": ``17:00`` to ``19:00``) or a date said
  with no time ("today ... after lunch": ``2023-09-11 12:00`` to ``2023-09-11 23:59:59``). A window chosen for a
  read only widens what is looked at; a write's times are the action itself and stay open.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta

from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import CalendarDate, ClockTime, Moment, ParseContext
from aem_strands.trace.grounding_keys import Grounding
from aem_strands.types import JsonValue

_WEEKLY = re.compile(
    r"\b(?:weekly|every\s+week|each\s+week|once\s+a\s+week|every\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.IGNORECASE,
)
"""A request for a weekly recurrence."""


def _full_days(day: CalendarDate) -> set[date]:
    out = set()
    for year, month, number in day.readings:
        if year is not None and month is not None and number is not None:
            try:
                out.add(date(year, month, number))
            except ValueError:
                continue
    return out


def asks_weekly(said: Iterable[str]) -> bool:
    """Whether one of the user's messages asks for a weekly recurrence (``_WEEKLY``)."""
    return any(_WEEKLY.search(text) for text in said)


def weekly_series(value: JsonValue, previous: JsonValue, context: ParseContext | None = None) -> bool:
    """Whether ``value`` is ``previous`` (the same argument of the same tool's previous call) one week later at the
    same time of day; the caller checks that the user asked for a weekly recurrence (``asks_weekly``)."""
    now, before = typed_value(value, context), typed_value(previous, context)
    if not isinstance(now, Moment) or not isinstance(before, Moment) or now.time != before.time:
        return False
    return any(d - timedelta(weeks=1) in _full_days(before.day) for d in _full_days(now.day))


def _minutes(time: ClockTime) -> int:
    return time.hour * 60 + time.minute


def read_window(
    value: JsonValue, bounds: Iterable[JsonValue], derived: Grounding | None, context: ParseContext | None = None
) -> bool:
    """Whether ``value`` is one bound of a read's window, the other among ``bounds`` (the call's other argument
    values), that encloses what ``derived`` (``GroundingIndex.may_be_derived``) found said: for ``near``, a time
    strictly inside the window; for ``date only``, both bounds on that date. The caller checks the tool is a
    read."""
    if derived is None or derived.method not in ("near", "date only"):
        return False
    mine = typed_value(value, context)
    if not isinstance(mine, (Moment, ClockTime)):
        return False
    said = typed_value(derived.matched, context)
    for other in bounds:
        theirs = typed_value(other, context)
        if type(theirs) is not type(mine) or theirs == mine:
            continue
        if derived.method == "date only":
            if isinstance(mine, Moment) and isinstance(theirs, Moment) and mine.day == theirs.day:
                return True
            continue
        pair = [t.time if isinstance(t, Moment) else t for t in (mine, theirs) if isinstance(t, (Moment, ClockTime))]
        inner = said.time if isinstance(said, Moment) else said
        if isinstance(inner, ClockTime) and len(pair) == 2:
            low, high = sorted(_minutes(t) for t in pair)
            if low < _minutes(inner) < high:
                return True
    return False


def _instants(typed: object) -> set[datetime]:
    """The full date-and-time readings of a ``Moment`` (none of anything else)."""
    if not isinstance(typed, Moment):
        return set()
    return {datetime(d.year, d.month, d.day, typed.time.hour, typed.time.minute) for d in _full_days(typed.day)}


def said_span(
    value: JsonValue, grounded: Iterable[JsonValue], said: Callable[[str], bool], context: ParseContext | None = None
) -> bool:
    """Whether ``value`` is a grounded date and time of the same call (its start) moved on by a length of time
    that was said (``said``: whether a text is found earlier): ``2023-09-20 13:00`` after ``2023-09-20 03:00`` of
    the same call and "Both flights are 10 hours"."""
    ends = _instants(typed_value(value, context))
    for other in grounded:
        for start in _instants(typed_value(other, context)):
            for end in ends:
                seconds = int((end - start).total_seconds())
                if seconds > 0 and said(f"PT{seconds}S"):
                    return True
    return False


__all__ = ["asks_weekly", "read_window", "said_span", "weekly_series"]
