"""The grounding index: does a value appear, under the product's typed equivalence, in what came before it?

``GroundingIndex`` is the index by value (``grounding_index``: exact, normalised, identifier, typed, place and
initials lookups, see its docstring), with the lookups of names and wording (``grounding_names``) and, here, of
the dates and times that may have been worked out from earlier ones (``may_be_derived``). Here too, what the
value index reads only as a whole text: an identifier read out in groups (``GB82 WEST 1234 5698 7654 32`` for
``GB82WEST12345698765432``, ``R 7 7 0 4 1`` for ``R77041``, ``481 552`` for ``481552``), the ends of a range of
days (``1-4 June``, ``dec 14 to 18``), a stay in nights (``two nights``: a length of days a date is worked out
with), a fixed-date holiday (``christmas day``), and a year and month (``2026-03``) by its month said (``the March
bill``) within a year of the known today, or by a date seen in it; lower-case words joined by underscores
(``police_report``) said as words ("the police report") are named in part: undecided, not grounded.
``without_corrected`` drops from a user's message a value the same message corrects ("18342. No wait, ... It's
18324."): the corrected-away value grounds nothing.
"""

from __future__ import annotations

import re
from fractions import Fraction

from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import CalendarDate, ClockTime, Duration, Moment, ParseContext, Quantity
from aem_strands.trace.grounding_index import LONG_PHRASE
from aem_strands.trace.grounding_keys import Grounding, SameFn, compact
from aem_strands.trace.grounding_names import NameIndex
from aem_strands.types import JsonValue

_SPACED_LONGEST = 8
"""The most groups an identifier read out in groups is joined from."""
_SPACED_SHORTEST = 5
"""The fewest characters of such an identifier (``481 552``), so that two small numbers never join (``2 3``)."""
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_DAY_RANGES = (
    re.compile(rf"\b(\d{{1,2}}){_ORDINAL}\s*(?:-|\u2013|to|until|through|thru)\s*(\d{{1,2}}){_ORDINAL}(?:\s+of)?\s+({_MONTH})(?![a-z])",
               re.IGNORECASE),
    re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}){_ORDINAL}\s*(?:-|\u2013|to|until|through|thru)\s*(\d{{1,2}}){_ORDINAL}\b",
               re.IGNORECASE),
)  # fmt: skip
"""A range of days within one month: ``1-4 June``, ``dec 14 to 18``."""
_NIGHTS = re.compile(r"\b([a-z]+|\d{1,2})\s+nights?\b", re.IGNORECASE)
_LONGEST_STAY = 14
_HOLIDAYS = {"christmas day": (12, 25), "christmas eve": (12, 24), "new year's day": (1, 1),
             "new year's eve": (12, 31), "boxing day": (12, 26), "halloween": (10, 31),
             "valentine's day": (2, 14), "independence day": (7, 4), "fourth of july": (7, 4)}  # fmt: skip
"""Holidays on a fixed day of the year, by their English names: calendar facts, not readings of the words."""
_HOLIDAY_HINT = re.compile(r"christmas|new year|boxing|halloween|valentine|independence|july")
_DIGIT = re.compile(r"\d")
_LONGEST_SCANNED = 4000
"""Texts longer than this (documents, pages) are not read for the forms above."""
_HOLIDAY = re.compile(r"\b(?:" + "|".join(re.escape(h) for h in _HOLIDAYS) + r")\b", re.IGNORECASE)
_SNAKE = re.compile(r"[a-z]+(?:_[a-z]+)+")
"""Lower-case words joined by underscores (``police_report``): an enum-like value read as its words. Capitals or
hyphens make a code (``LAX-DT``, ``DEN_APT``): a code is said as itself."""
_YEAR_MONTH = re.compile(r"(\d{4})-(\d{2})")
_MONTHS_APART = 12


class GroundingIndex(NameIndex):
    """What has been said or seen so far in a trace, indexed for ``find`` (see the module docstring).

    ``same`` (a ``ValueJudge``'s) confirms the typed candidates whose agreement is not a key (phones,
    measurements). ``context`` gives the known today (``reference_date``) and the day-first reading of numeric
    dates. ``add_text`` takes free text (a user message, the goal); ``add_json`` takes structured values (a
    state, an observation, earlier arguments): every scalar leaf, every object key, and every string leaf as
    text too."""

    def __init__(self, same: SameFn, context: ParseContext | None = None) -> None:
        super().__init__(same, context)
        self._spaced: dict[str, tuple[str, str]] = {}  # identifiers read out in groups, by their letters and digits
        self._scanned: set[str] = set()

    def add_text(self, text: str, source: str, phrase_words: int = LONG_PHRASE) -> None:
        """``ValueIndex.add_text``, and what it reads only as a whole text (see the module docstring)."""
        super().add_text(text, source, phrase_words)
        if phrase_words < LONG_PHRASE or len(text) > _LONGEST_SCANNED or text in self._scanned:
            return  # a string value of a result is read as a value (``ValueIndex``), not as words said
        self._scanned.add(text)  # a text read before adds nothing: every reading keeps its first source
        lowered = text.casefold()
        if "night" in lowered:
            self._add_nights(text, source)
        if _HOLIDAY_HINT.search(lowered):
            for found in _HOLIDAY.finditer(text):
                on = _HOLIDAYS[found.group().casefold()]
                self._dates.add(CalendarDate(frozenset({(None, *on)})), found.group(), source)
        if _DIGIT.search(text) is None:
            return
        for run in _spaced_runs(text):
            for start in range(len(run)):
                for end in range(start + 2, min(len(run), start + _SPACED_LONGEST) + 1):
                    key = "".join(run[start:end]).upper()
                    if len(key) >= _SPACED_SHORTEST and any(ch.isdigit() for ch in key):
                        self._spaced.setdefault(key, (source, " ".join(run[start:end])))
        for pattern in _DAY_RANGES:
            for found in pattern.finditer(text):
                month, first, last = (found[3], found[1], found[2]) if found[3] else (found[1], found[2], found[3])
                for day in (first, last):
                    typed = typed_value(f"{month} {day}")
                    if isinstance(typed, CalendarDate):
                        self._dates.add(CalendarDate(frozenset((None, m, d) for _, m, d in typed.readings)),
                                        found.group(), source)  # fmt: skip

    def _add_nights(self, text: str, source: str) -> None:
        """A stay in nights (``two nights``) as a length of whole days a date is worked out with."""
        for found in _NIGHTS.finditer(text):
            count = typed_value(found[1])
            whole = isinstance(count, Quantity) and count.unit is None and count.amount == int(count.amount)
            if whole and isinstance(count, Quantity) and 1 <= count.amount <= _LONGEST_STAY:
                self._dates.add(Duration(Fraction(int(count.amount) * 86_400)), found.group(), source)

    def find(self, value: JsonValue, name: str = "") -> Grounding | None:
        """``ValueIndex.find``, then an identifier read out in groups and a year and month (see the module
        docstring)."""
        found = super().find(value, name)
        if found is not None or not isinstance(value, (str, int)) or isinstance(value, bool):
            return found
        key = re.sub(r"[^A-Za-z0-9]", "", str(value)).upper()
        spaced = self._spaced.get(key)
        if spaced is not None and len(key) >= _SPACED_SHORTEST:
            return Grounding(spaced[0], spaced[1], "identifier")
        month = _YEAR_MONTH.fullmatch(str(value).strip())
        if month is not None:
            return self._year_month(int(month[1]), int(month[2]))
        return None

    def named_in_part(self, value: JsonValue) -> Grounding | None:
        """``NameIndex.named_in_part``, and lower-case words joined by underscores whose words were said together
        (``police_report`` after "the police report"): an enum-like code the words may stand for, or not (a
        ``police_report`` is not every report the police wrote), which no rule here settles."""
        found = super().named_in_part(value)
        if found is None and isinstance(value, str) and _SNAKE.fullmatch(value.strip()):
            said = self.find(value.strip().replace("_", " "))
            if said is not None:
                return Grounding(said.source, said.matched, "in part")
        return found

    def _year_month(self, year: int, month: int) -> Grounding | None:
        """A year and month by its month said within a year of the known today (any year without one), or by an
        earlier date of that year and month."""
        if not 1 <= month <= 12:
            return None
        self._read_texts()
        self._parse_pending()
        today = self._context.reference_date
        named = self._dates.named_month(month)
        if named is not None and (today is None or abs((year - today.year) * 12 + month - today.month) < _MONTHS_APART):
            return Grounding(named.source, named.matched, "month")
        dated = self._dates.dated_month(year, month)
        return Grounding(dated.source, dated.matched, "month") if dated is not None else None

    def may_be_derived(self, value: JsonValue) -> Grounding | None:
        """For a date, time or date with a time found nowhere: the earlier value it may have been worked out from,
        which no rule here can settle (``method`` says how):

        - ``date only``: a date with a time whose date was said (the time from a start and a length, "after
          lunch");
        - ``weekly``: a date with a time whose time was said and whose date is a whole number of weeks (up to ten)
          after an earlier date (a meeting set up "weekly until the end of next month");
        - ``near``: a time on the hour or half hour, whole half hours up to two hours from an earlier time (the
          bounds of "around 6 PM").

        A time off the half hours, or far from every earlier time, is no such bound: it stays ungrounded."""
        typed = typed_value(value, self._context)
        if not isinstance(typed, (Moment, ClockTime)):
            return None
        self._read_texts()
        self._parse_pending()
        time = typed.time if isinstance(typed, Moment) else typed
        if isinstance(typed, Moment):
            dated = self._dates.find(typed.day)
            if dated is not None:
                return Grounding(dated.source, dated.matched, "date only")
            if self._dates.find(time) is not None:
                weekly = self._dates.weeks_after(typed.day)
                if weekly is not None:
                    return Grounding(weekly.source, weekly.matched, "weekly")
        near = self._dates.near(time)
        return Grounding(near.source, near.matched, "near") if near is not None else None


def _spaced_runs(text: str) -> list[list[str]]:
    """Runs of groups an identifier may be read out in: words of letters and digits, each with a digit or in
    capitals (``GB82``, ``WEST``, ``481``, ``R``), of up to six characters, one space apart, nothing else between
    them (a comma ends a run: "items 12, 34" is no ``1234``)."""
    runs: list[list[str]] = []
    for found in _RUN.finditer(text):
        current: list[str] = []
        for word in found.group().split(" "):
            if len(word) <= _GROUP_LONGEST:
                current.append(word)
                continue
            if len(current) >= 2:
                runs.append(current)
            current = []
        if len(current) >= 2:
            runs.append(current)
    return runs


_GROUPED = r"(?:[A-Za-z0-9]*\d[A-Za-z0-9]*|[A-Z]+)"
_RUN = re.compile(rf"(?<![\w'-])(?:{_GROUPED} )+{_GROUPED}(?![\w'-])")
_GROUP_LONGEST = 6


_CORRECTION = re.compile(
    r"\b(?:no,?\s+wait|wait,?\s+no|sorry,?\s+(?:i\s+mean|it'?s)|i\s+mean|i\s+meant|correction|scratch\s+that|"
    r"i\s+(?:read|got|typed|gave)\s+[\w\s]{0,20}?wrong)\b|(?:^|[.,;:!?\u2014-]|\bactually|\bsorry)\s*make\s+that\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z0-9][\w./-]*")


def without_corrected(text: str) -> str:
    """``text`` less each value it corrects: a value before a correction ("no wait", "I mean", "I read it
    wrong"; "make that" where it opens a clause: not "please make that payment") for which a value of the same
    shape (``_shape``: "four ... actually make that three") follows it. "Reading is 18342. No wait, I read the
    dial wrong. It's 18324." keeps ``18324`` only."""
    for marker in reversed(list(_CORRECTION.finditer(text))):
        before = [w for w in _WORD.finditer(text, 0, marker.start()) if _shape(w.group())]
        after = next((w for w in _WORD.finditer(text, marker.end()) if _shape(w.group())), None)
        if not before or after is None:
            continue
        old = before[-1]
        if _shape(old.group()) == _shape(after.group()) and old.group() != after.group():
            text = text[: old.start()] + text[old.end() :]
    return text


def _shape(word: str) -> str:
    """The shape of a value a correction may replace: its letters and digits as classes (``G-4471-02`` is
    ``a-9999-99``), ``number`` for a number in words (``four``), or empty for any other word."""
    word = word.rstrip(".")
    if any(ch.isdigit() for ch in word):
        return re.sub(r"[A-Za-z]", "a", re.sub(r"\d", "9", word))
    typed = typed_value(word)
    return "number" if isinstance(typed, Quantity) and typed.unit is None else ""


__all__ = ["Grounding", "GroundingIndex", "SameFn", "compact", "without_corrected"]
