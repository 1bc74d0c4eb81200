"""Typed values: what a scalar means once parsed, and whether two meanings agree.

Every parser (numbers, dates and times, durations, booleans, measurements with units, quarters,
phone numbers, e-mail addresses, identifiers) turns a string into one of the typed values below,
behind the single ``ValueParser`` protocol, so one parser can be swapped for another. The same
parsers serve argument values and the facts stated in replies.
Two typed values of the same type *agree* or *disagree* deterministically; values of different
types disagree (a time is not a number). ``Text`` is what is left when no parser recognises a string:
it is compared by the text rules and, failing those, by the semantic scorer.

Numbers are exact (``fractions.Fraction``): two amounts agree only when they are the same number, so
``1000000001`` is not ``1000000000`` and ``1234567890123456789`` is not ``1234567890123456700``. A tolerance
applies only to measurements converted between units (``Measure``), as documented there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Protocol

import phonenumbers

from aem_strands.types import JsonValue

REFERENCE_DATE_KEYS = ("reference_date", "date")
"""Dialog metadata keys read, in order, for the date relative forms refer to."""

LOCALE_KEY = "locale"
"""Dialog metadata key of the locale (``"en_US"``, ``"en-GB"``) that says whether numeric dates put the day first."""


def day_first_in(locale: str) -> bool | None:
    """Whether ``locale`` (``en_US``, ``en-GB``, ``de``) writes numeric dates day first, per its CLDR short date
    pattern (``M/d/yy``: no; ``dd/MM/y``: yes); ``None`` when it writes the year first (``y/MM/dd``).
    Raises ``ValueError`` for a locale CLDR does not know."""
    from babel import Locale, UnknownLocaleError  # imported on first use: most dialogs give no locale

    try:
        pattern = str(Locale.parse(locale.replace("-", "_")).date_formats["short"].pattern)
    except (UnknownLocaleError, ValueError, TypeError) as error:
        raise ValueError(f"unknown locale {locale!r}") from error
    day, month, year = pattern.find("d"), pattern.find("M"), pattern.find("y")
    if day < 0 or month < 0 or 0 <= year < min(day, month):
        return None
    return day < month


@dataclass(frozen=True)
class ParseContext:
    """What parsing may rely on beyond the string itself.

    ``reference_date`` is "today" for relative forms (``tomorrow``, ``next Friday``, ``the 8th``);
    without it those forms are not parsed (no guessing). ``day_first`` says whether a numeric date
    (``1/3/2019``) puts the day first; ``None`` when nothing says, and then such a date keeps both
    readings (``CalendarDate.orders``).
    """

    reference_date: date | None = None
    day_first: bool | None = None

    @classmethod
    def from_metadata(cls, metadata: dict[str, JsonValue]) -> ParseContext:
        """The context a dialog's metadata gives: ``reference_date`` (``"2019-03-01"``, or an ISO
        date-time whose date part is used), else ``date``; anything else or unparseable gives none.
        ``day_first`` from ``locale`` (``day_first_in``); an unknown locale gives none (it is refused at load)."""
        reference: date | None = None
        for key in REFERENCE_DATE_KEYS:
            value = metadata.get(key)
            if isinstance(value, str):
                try:
                    reference = date.fromisoformat(value[:10])
                    break
                except ValueError:
                    continue
        locale = metadata.get(LOCALE_KEY)
        day_first: bool | None = None
        if isinstance(locale, str):
            try:
                day_first = day_first_in(locale)
            except ValueError:
                day_first = None
        return cls(reference, day_first)


def exact(number: Fraction | int | float | str) -> Fraction:
    """``number`` as an exact fraction; a float is read as its shortest decimal form (``0.1`` is one tenth, the
    JSON literal it was decoded from), not as its binary value."""
    if isinstance(number, Fraction):
        return number
    if isinstance(number, float):
        return Fraction(repr(number))
    return Fraction(number)


def decimal_text(number: Fraction) -> str:
    """``number`` written out in full: ``1234567890123456789``, ``-0.25``; a fraction with no finite decimal
    form as ``1/3``."""
    if number.denominator == 1:
        return str(number.numerator)
    rest, twos, fives = number.denominator, 0, 0
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    places = max(twos, fives)
    if rest != 1:
        return f"{number.numerator}/{number.denominator}"
    scaled = abs(number.numerator) * 10**places // number.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if number < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Quantity:
    """A number, optionally with a unit: ``"%"`` or an ISO currency code (``"USD"``). ``amount`` is exact
    (an int or float given is converted by ``exact``)."""

    amount: Fraction
    unit: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", exact(self.amount))

    def describe(self) -> str:
        amount = decimal_text(self.amount)
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
    read both day-first and month-first: ``readings`` holds every reading, and ``orders`` the
    day-first and the month-first reading, in that order, when no locale settled which is meant)."""

    readings: frozenset[DateReading]
    orders: tuple[DateReading, DateReading] | None = None

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
    """A length of time in seconds (``2 hours``, ``120 minutes``, ``PT2H``), exact: lengths agree only when equal."""

    seconds: Fraction

    def __post_init__(self) -> None:
        object.__setattr__(self, "seconds", exact(self.seconds))

    def describe(self) -> str:
        return f"{decimal_text(self.seconds)} s"


@dataclass(frozen=True)
class Measure:
    """A physical quantity with a unit (``5 kg``, ``68 °F``, ``3 km/h``), or a unit alone (``celsius``).

    ``base`` is the magnitude in SI base units (temperatures in kelvin) and ``dimension`` pint's
    dimensionality, so ``5 kg`` and ``5000 g`` agree and ``5 kg`` and ``5 lb`` do not. ``amount`` and
    ``unit`` are as written (canonical unit name); a unit alone has ``amount`` ``None`` and ``base``
    the size of one unit (``mph`` and ``miles per hour`` agree, ``celsius`` and ``fahrenheit`` do not).
    ``step`` is half the last written digit in base units (``22.2 °C``: 0.05 K): amounts in different
    units agree within the coarser rounding (``72 °F`` / ``22.2 °C``), the only tolerance on numbers; in the
    same unit the amounts must be the same number (``amount`` is exact).
    """

    amount: Fraction | None
    unit: str
    base: float
    dimension: str
    step: float = 0.0

    def __post_init__(self) -> None:
        if self.amount is not None:
            object.__setattr__(self, "amount", exact(self.amount))

    def describe(self) -> str:
        return self.unit if self.amount is None else f"{decimal_text(self.amount)} {self.unit}"


@dataclass(frozen=True)
class Weekday:
    """A day of the week with no date (``Monday``; 0 is Monday), when no reference date places it.
    It agrees with a full date that falls on that day."""

    day: int

    def describe(self) -> str:
        return ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")[self.day]


@dataclass(frozen=True)
class Quarter:
    """A calendar quarter (``Q3 2024``, ``third quarter of 2024``); ``year`` ``None`` when not given."""

    quarter: int
    year: int | None = None

    def describe(self) -> str:
        return f"Q{self.quarter}" + (f" {self.year}" if self.year is not None else "")


@dataclass(frozen=True)
class Phone:
    """A phone number: its digits, with a leading ``+`` when an international prefix was written.
    Two numbers agree when ``phonenumbers`` says they are the same number (exact or same national
    significant number: ``+1 555-123-2002`` / ``5551232002``)."""

    number: str

    def describe(self) -> str:
        return self.number


@dataclass(frozen=True)
class Email:
    """An e-mail address, case-folded; compared exactly (``john.smith@x.com`` is not ``jon.smith@x.com``)."""

    address: str

    def describe(self) -> str:
        return self.address


@dataclass(frozen=True)
class Identifier:
    """A value shaped like an identifier (``ds_revenue_eu_q3``, ``ORDER-123``, ``camelCase``).

    ``key`` is the value case-folded without separators (``_ - . / :`` and spaces), so
    ``ORDER_123`` and ``order-123`` agree; otherwise identifiers agree only when equal: similarity
    never decides them. A digit string (a card, account or order number: ``4111 1111 1111 1111``,
    ``0012``) has its digits alone as key, compared digit for digit, also with a whole number.
    """

    key: str
    shown: str

    def describe(self) -> str:
        return self.shown


@dataclass(frozen=True)
class Unreadable:
    """A value no comparison can trust (a number beyond float range, ``1e400``). It agrees with nothing,
    itself included: two overflowed numbers are not known to be equal."""

    shown: str

    def describe(self) -> str:
        return f"{self.shown} (out of range)"


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


Typed = (
    Quantity
    | Truth
    | CalendarDate
    | ClockTime
    | Moment
    | Duration
    | Measure
    | Weekday
    | Quarter
    | Phone
    | Email
    | Identifier
    | Unreadable
    | Null
    | Text
)


class ValueParser(Protocol):
    """Recognises one kind of value in a string; ``None`` when the string is not of that kind."""

    @property
    def name(self) -> str: ...

    def parse(self, text: str, context: ParseContext) -> Typed | None: ...


def _readings_agree(a: DateReading, b: DateReading) -> bool:
    return all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


def _under_each_order(a: CalendarDate, b: CalendarDate) -> tuple[bool, bool]:
    """Whether ``a`` and ``b`` agree read day-first, and read month-first (a date without ``orders`` reads
    the same either way)."""
    found = []
    for order in (0, 1):
        mine = {a.orders[order]} if a.orders else a.readings
        theirs = {b.orders[order]} if b.orders else b.readings
        found.append(all(_readings_agree(x, y) for x in mine for y in theirs))
    return found[0], found[1]


def _dates_agree(a: CalendarDate, b: CalendarDate) -> bool:
    """Dates agree when they agree whichever order (day or month first) a numeric date was written in:
    ``1/3/2019`` agrees with ``01/03/2019`` but not with ``2019-03-01`` nor ``3/1/2019`` (see ``date_orders``).
    Several readings with no order (a date built by hand) must all agree."""
    return all(_under_each_order(a, b))


def _calendar(value: Typed) -> CalendarDate | None:
    return value if isinstance(value, CalendarDate) else value.day if isinstance(value, Moment) else None


def date_orders(a: Typed, b: Typed) -> str | None:
    """When a date on either side could be day-first or month-first (``12/11/2020``): what each reading
    gives, for the detail of a verdict (``None`` when neither is such a date)."""
    x, y = _calendar(a), _calendar(b)
    if x is None or y is None or (x.orders is None and y.orders is None):
        return None

    def shown(day: CalendarDate, order: int) -> str:
        return CalendarDate(frozenset({day.orders[order]})).describe() if day.orders else day.describe()

    day_first, month_first = _under_each_order(x, y)
    if day_first == month_first:
        outcome = "the same either way" if day_first else "different either way"
    else:
        outcome = "the readings disagree: different unless a 'locale' in the dialog's metadata ('en_US', 'en_GB') says"
    return (
        f"day and month order unknown: read day-first {shown(x, 0)} vs {shown(y, 0)}, "
        f"month-first {shown(x, 1)} vs {shown(y, 1)}; {outcome}"
    )


def _quantities_agree(a: Quantity, b: Quantity) -> bool:
    if a.unit is not None and b.unit is not None and a.unit != b.unit:
        return False
    if a.amount == b.amount:
        return True
    # "50%" and 0.5 state the same ratio; a bare 50 and "50%" agree through the first test.
    if (a.unit == "%") != (b.unit == "%"):
        percent, plain = (a, b) if a.unit == "%" else (b, a)
        return percent.amount / 100 == plain.amount
    return False


def phones_match(a: str, b: str) -> bool:
    """Whether two phone numbers are the same number for ``phonenumbers`` (exact, or the same national
    significant number when one side has no country code); a number without its area code is not."""
    try:
        match = phonenumbers.is_number_match(a, b)
    except phonenumbers.NumberParseException:
        return False
    return match in (phonenumbers.MatchType.EXACT_MATCH, phonenumbers.MatchType.NSN_MATCH)


def _measures_agree(a: Measure, b: Measure) -> bool:
    if a.dimension != b.dimension or (a.amount is None) != (b.amount is None):
        return False
    if a.amount is not None and b.amount is not None and a.unit == b.unit:
        return a.amount == b.amount
    rounding = max(a.step, b.step) * (1 + 1e-9)
    return math.isclose(a.base, b.base, rel_tol=1e-6, abs_tol=1e-12) or abs(a.base - b.base) <= rounding


def _whole_digits(value: Quantity) -> str | None:
    """The digits of a bare whole number that is not negative (``4111111111111111``), else ``None``."""
    if value.unit is not None or value.amount.denominator != 1 or value.amount < 0:
        return None
    return str(value.amount.numerator)


def _phone_digits(value: Quantity) -> str | None:
    """A bare whole number of 7 to 15 digits, as a phone number would be written without separators."""
    digits = _whole_digits(value)
    return digits if digits is not None and 7 <= len(digits) <= 15 else None


def _across_types(a: Typed, b: Typed) -> bool | None:
    """Agreement of two values of different types that may still state the same thing."""
    if isinstance(a, Weekday) and isinstance(b, CalendarDate):
        full = [(y, m, d) for y, m, d in b.readings if y is not None and m is not None and d is not None]
        return bool(full) and all(date(y, m, d).weekday() == a.day for y, m, d in full)
    if isinstance(a, Phone) and isinstance(b, Quantity):
        digits = _phone_digits(b)
        return digits is not None and (a.number.lstrip("+") == digits or phones_match(a.number, digits))
    if isinstance(a, Phone) and isinstance(b, Identifier) and b.key.isdigit():
        return a.number.lstrip("+") == b.key or phones_match(a.number, b.key)
    if isinstance(a, Identifier) and isinstance(b, Quantity):
        # A digit string and a whole number, digit for digit: "4111 1111 1111 1111" / 4111111111111111, not "0012" / 12.
        return a.key.isdigit() and _whole_digits(b) == a.key
    if isinstance(a, Measure) and isinstance(b, Duration):
        # A unit conversion: the measurement tolerance (see ``Measure``).
        return a.amount is not None and a.dimension == "[time]" and math.isclose(a.base, b.seconds, rel_tol=1e-6)
    if isinstance(a, Measure) and isinstance(b, Quantity):
        # A unit on one side only does not make amounts differ ("5 kg" / 5), as for currencies.
        return b.unit is None and a.amount is not None and a.amount == b.amount
    if isinstance(a, Identifier) and isinstance(b, Text):
        # "R_vs_Adams" / "R vs Adams": the same once separators are ignored; otherwise not decided here.
        return True if a.key == b.value.replace(" ", "") else None
    return False


def agree(a: Typed, b: Typed) -> bool | None:
    """Whether two typed values mean the same; ``None`` when this cannot be decided from the types.

    Partial dates agree with a full date on the parts they give; a unit on one side only does not
    make quantities differ (``$190`` / ``190``); numbers agree only when they are the same number;
    measurements agree after unit conversion; phone numbers agree when their digits are equal or per
    ``phones_match`` (also with a bare 7-15 digit number or a digit string); identifiers agree when
    their keys are equal (also with text that is the identifier spelled with spaces, and only then; a
    digit string with a whole number of the same digits);
    an ``Unreadable`` value agrees with nothing; other values of different types disagree. ``None``
    when either side is unparsed ``Text`` (unless both are the same text), or an identifier meets text.
    """
    if isinstance(a, Unreadable) or isinstance(b, Unreadable):
        return False
    if isinstance(a, Text) and isinstance(b, Text):
        return True if a == b else None
    if type(a) is not type(b):
        if isinstance(a, Text) or isinstance(b, Text):
            if isinstance(a, Identifier) or isinstance(b, Identifier):
                return _across_types(a, b) if isinstance(a, Identifier) else _across_types(b, a)
            return None
        return _across_types(a, b) if _across_types(a, b) else _across_types(b, a)
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        return _quantities_agree(a, b)
    if isinstance(a, CalendarDate) and isinstance(b, CalendarDate):
        return _dates_agree(a, b)
    if isinstance(a, Moment) and isinstance(b, Moment):
        return a.time == b.time and _dates_agree(a.day, b.day)
    if isinstance(a, Duration) and isinstance(b, Duration):
        return a.seconds == b.seconds
    if isinstance(a, Measure) and isinstance(b, Measure):
        return _measures_agree(a, b)
    if isinstance(a, Quarter) and isinstance(b, Quarter):
        return a.quarter == b.quarter and (a.year is None or b.year is None or a.year == b.year)
    if isinstance(a, Phone) and isinstance(b, Phone):
        return a.number == b.number or phones_match(a.number, b.number)
    if isinstance(a, Identifier) and isinstance(b, Identifier):
        return a.key == b.key
    return a == b


def scalar_value(value: JsonValue) -> Typed | None:
    """The typed value of a non-string JSON scalar (``None`` for strings, lists and dicts)."""
    if value is None:
        return Null()
    if isinstance(value, bool):
        return Truth(value)
    if isinstance(value, int):
        return Quantity(Fraction(value))  # exact: a 19-digit integer is not rounded to a float
    if isinstance(value, float):
        # JSON numbers beyond float range load as inf: no comparison can trust them (fail closed).
        return Quantity(exact(value)) if math.isfinite(value) else Unreadable(str(value))
    return None
