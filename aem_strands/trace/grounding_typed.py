"""Typed readings for grounding: the numbers, dates, times and other typed values (``compare.settle.typed_value``)
that earlier texts and values hold, kept by type and key so that a lookup reads a few dictionaries.

Numbers by amount and unit (``$12.50``, ``two people``, ``50%`` as ``0.5`` too); dates and times by
``grounding_dates``; other typed values (durations, measurements, phones, e-mails, quarters) by the bucket values
that may agree share (``grounding_keys.bucket``). Phrases are read only when a lookup first needs them.
"""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import (
    CalendarDate,
    ClockTime,
    Duration,
    Identifier,
    Moment,
    ParseContext,
    Quantity,
    Text,
    Typed,
    Weekday,
    agree,
)
from aem_strands.trace.grounding_dates import DateIndex, week_days
from aem_strands.trace.grounding_keys import EDGE, PARTNERS, Grounding, SameFn, as_numbers, bucket
from aem_strands.trace.value_tokens import NUMBER_WORDS, anchored_phrases, may_be_relative, tokens
from aem_strands.types import JsonValue

_RANGE = re.compile(r"(?<=\d)\s*[-\u2013]\s*(?=\d{1,2}[/:]\d)")
"""The dash of a range of dates or times (``9/15-9/21``, ``10:00-11:30``): its ends are read apart."""
_APART = "|"
_DAY_SHIFT = re.compile(r"\b(?:(?:next|following|previous|prior) day|day (?:after|before|later|earlier))\b")
"""A day after or before a date said or seen (``shift it to the next day``): a length of one day to work with."""
_ONE_DAY = Duration(Fraction(86_400))
"""What stands for a word with a digit when numbers in words are read: no number word joins across it."""


class TypedIndex:
    """The typed values of what was said or seen (see the module docstring); ``ValueIndex`` adds the texts.

    ``same`` (a ``ValueJudge``'s) confirms the typed candidates whose agreement is not a key (phones,
    measurements). ``context`` gives the known today (``reference_date``) and the day-first reading of numeric
    dates."""

    def __init__(self, same: SameFn, context: ParseContext | None = None) -> None:
        self._same = same
        self._context = context or ParseContext()
        self._unreferenced = ParseContext(None, self._context.day_first)
        self._identifiers: dict[str, tuple[str, str]] = {}
        self._numbers: dict[Fraction, dict[str | None, tuple[str, str]]] = {}
        self._typed: dict[type, dict[object, list[tuple[Typed, str, str]]]] = {}
        self._dates = DateIndex(self._context.reference_date)
        self._pending: list[tuple[str, str, int]] = []

    @property
    def today(self) -> date | None:
        """The known today, or ``None``."""
        return self._context.reference_date

    def _add_number(self, amount: Fraction, unit: str | None, source: str, shown: str) -> None:
        self._numbers.setdefault(amount, {}).setdefault(unit, (source, shown))
        if unit == "%":
            self._numbers.setdefault(amount / 100, {}).setdefault(None, (source, shown))

    def _find_typed(self, typed: Typed, value: JsonValue, name: str) -> Grounding | None:
        for number in as_numbers(typed):
            hit = self._find_number(number)
            if hit is not None:
                return hit
        if isinstance(typed, Identifier) and not typed.key.isdigit():
            return None  # a letters-and-digits identifier is found by its key or not at all (``find``)
        self._parse_pending()
        for number in as_numbers(typed):  # numbers written in words, read with the pending texts
            hit = self._find_number(number)
            if hit is not None:
                return hit
        if isinstance(typed, (CalendarDate, Moment, Weekday, ClockTime)):
            dated = self._dates.find(typed)
            if dated is None and isinstance(typed, Moment) and self._hour_said(typed.time, True):
                dated = self._dates.find(typed.day)
            if dated is None and isinstance(typed, ClockTime) and self._hour_said(typed, False):
                return Grounding("an hour said as a number", typed.describe(), "typed")
            return Grounding(dated.source, dated.matched, "typed") if dated is not None else None
        for kind in (type(typed), *PARTNERS.get(type(typed), ())):
            for candidate, source, shown in self._typed.get(kind, {}).get(bucket(typed), ()):
                if agree(candidate, typed) and self._same(shown, value, name) is not False:
                    return Grounding(source, shown, "typed")
        return None

    def _hour_said(self, time: ClockTime, day_bound: bool) -> bool:
        """Whether a time of day was said as a bare hour ("How about 10, 11, and 12?", "from 12 to 6": ``10:00``,
        ``18:00``), or, for a date with a time, is a bound of the whole day (``00:00``, ``23:59``): the value then
        states its date only."""
        if day_bound and (time.hour, time.minute) in ((0, 0), (23, 59)):
            return True
        if time.minute != 0:
            return False
        hours = {time.hour, time.hour - 12} - {0, -12}
        return any(Fraction(h) in self._numbers for h in hours if 1 <= h <= 12)

    def _find_number(self, wanted: Quantity) -> Grounding | None:
        units = self._numbers.get(wanted.amount, {})
        for unit, (source, shown) in units.items():
            if wanted.unit is None or unit is None or unit == wanted.unit:
                return Grounding(source, shown, "typed")
        digits = str(wanted.amount.numerator) if wanted.amount.denominator == 1 and wanted.amount > 0 else ""
        if len(digits) >= 7:  # a phone, card or account number written in groups ("555 123 2002")
            hit = self._identifiers.get(digits)
            if hit is not None:
                return Grounding(hit[0], hit[1], "identifier")
        return None

    def _parse_pending(self) -> None:
        """Read the typed values of the texts indexed since the last lookup that needed them."""
        for text, source, longest in self._pending:
            if longest == 0:
                self._add_typed(text, source)
                continue
            self._add_number_words(text, source)
            shift = _DAY_SHIFT.search(text.casefold())
            if shift is not None:
                self._dates.add(_ONE_DAY, shift.group(), source)
            words = [w.strip(EDGE) for w in _RANGE.sub(" - ", text).split()]
            words = [w for w in words if w]
            for word in words:
                if "/" in word:
                    self._dates.add_numeric(word, self._context.day_first, source)
            self._dates.add_clock_words(words, source)
            for phrase in anchored_phrases(words, longest):
                self._add_typed(phrase, source)
        self._pending.clear()

    def _add_typed(self, phrase: str, source: str) -> None:
        typed = typed_value(phrase, self._unreferenced)
        if isinstance(typed, Text) and may_be_relative(phrase):
            if self.today is not None:
                typed = typed_value(phrase, self._context)  # "tomorrow", "next Friday" against the known today
                for day in week_days(phrase, self.today):  # "next week": each of its days
                    self._dates.add(CalendarDate(frozenset({(day.year, day.month, day.day)})), phrase, source)
            elif self._dates.add_relative(normalise_text(phrase), source):
                return
        if isinstance(typed, Text):
            return
        if isinstance(typed, Duration):
            self._dates.add(typed, phrase, source)  # a length a time or date may be worked out with
        if isinstance(typed, (CalendarDate, Moment, Weekday, ClockTime)):
            self._dates.add(typed, phrase, source)
        elif isinstance(typed, Quantity):
            self._add_number(typed.amount, typed.unit, source, phrase)
        else:
            entries = self._typed.setdefault(type(typed), {}).setdefault(bucket(typed), [])
            if len(entries) < 64 and all(e[0] != typed for e in entries):
                entries.append((typed, source, phrase))

    def _add_number_words(self, text: str, source: str) -> None:
        """Numbers written in words (``two people``, ``a table for four``) as numbers. Only words count: a word
        with a digit (``C-3003``, ``$40.00``) is set apart, so that no digits inside it become a number."""
        words = [_APART if any(ch.isdigit() for ch in w) else normalise_text(w) for w in text.split()]
        if NUMBER_WORDS.isdisjoint(" ".join(words).split()):
            return
        from text_to_num import alpha2digit  # type: ignore[import-untyped]  # ships no types

        for token in tokens(alpha2digit(" ".join(words), "en", threshold=0)):
            if token.number is not None and _APART not in token.shown:
                self._add_number(token.number, None, source, token.shown)


__all__ = ["TypedIndex"]
