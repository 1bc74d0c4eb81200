"""Typed normalisation: each parser on its surface forms, and properties of the pure parsing code."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.compare.normalise import normalise_text
from aem_strands.compare.parse_numbers import QuantityParser, TruthParser
from aem_strands.compare.parse_time import TimeParser
from aem_strands.compare.settle import settle, typed_value
from aem_strands.compare.values import (
    CalendarDate,
    ClockTime,
    Duration,
    Moment,
    ParseContext,
    Quantity,
    Text,
    Truth,
    agree,
)
from aem_strands.types import ValueKind

NO_DATE = ParseContext()
SGD_TODAY = ParseContext(date(2019, 3, 1))  # a Friday


def day(year: int | None, month: int | None, number: int | None) -> CalendarDate:
    return CalendarDate(frozenset({(year, month, number)}))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2", Quantity(2.0)),
        ("-1.5", Quantity(-1.5)),
        ("1,000", Quantity(1000.0)),
        ("two", Quantity(2.0)),
        ("one hundred and sixteen", Quantity(116.0)),
        ("4.2 million", Quantity(4_200_000.0)),
        ("50%", Quantity(50.0, "%")),
        ("12 percent", Quantity(12.0, "%")),
        ("$1,200", Quantity(1200.0, "USD")),
        ("1200 USD", Quantity(1200.0, "USD")),
        ("€4,200,000", Quantity(4_200_000.0, "EUR")),
        ("49 bucks", Quantity(49.0, "USD")),
        ("one hundred and sixteen bucks", Quantity(116.0, "USD")),
        ("room 101", None),  # not a bare number
        ("revenue", None),
    ],
)
def test_quantity_parser(text: str, expected: Quantity | None) -> None:
    assert QuantityParser().parse(text, NO_DATE) == expected


@pytest.mark.parametrize(("text", "expected"), [("yes", True), ("True", True), ("NO", False), ("false.", False)])
def test_truth_parser(text: str, expected: bool) -> None:
    assert TruthParser().parse(text, NO_DATE) == Truth(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7 pm", ClockTime(19, 0)),
        ("19:00", ClockTime(19, 0)),
        ("7:30 p.m.", ClockTime(19, 30)),
        ("afternoon 12", ClockTime(12, 0)),  # SGD: noon
        ("12 am", ClockTime(0, 0)),
        ("half past 11 in the morning", ClockTime(11, 30)),
        ("quarter to 8 in the evening", ClockTime(19, 45)),
        ("ten in the night", ClockTime(22, 0)),
        ("5 o'clock", ClockTime(5, 0)),
        ("noon", ClockTime(12, 0)),
        ("2019-03-01", day(2019, 3, 1)),
        ("March 1st", day(None, 3, 1)),  # no year given: partial date, no guess
        ("1st of March, 2019", day(2019, 3, 1)),
        ("Jan.1,2022", day(2022, 1, 1)),
        ("Friday, 1 March 2019", day(2019, 3, 1)),
        # day/month order is ambiguous: both readings, day-first then month-first
        ("1/3/2019", CalendarDate(frozenset({(2019, 3, 1), (2019, 1, 3)}), ((2019, 3, 1), (2019, 1, 3)))),
        ("the 8th", day(None, None, 8)),
        ("2 hours", Duration(7200.0)),
        ("120 minutes", Duration(7200.0)),
        ("1 h 30 min", Duration(5400.0)),
        ("PT2H30M", Duration(9000.0)),
        ("2019-03-01T19:00", Moment(day(2019, 3, 1), ClockTime(19, 0))),
        ("March 1st at 7 pm", Moment(day(None, 3, 1), ClockTime(19, 0))),
        ("7", None),  # a bare number is not a time
        ("tomorrow", None),  # relative: needs a reference date
        ("next Friday", None),
        ("11th of this month", None),
    ],
)
def test_time_parser_without_a_reference_date(text: str, expected: Any) -> None:
    assert TimeParser().parse(text, NO_DATE) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("today", day(2019, 3, 1)),
        ("tomorrow", day(2019, 3, 2)),
        ("day after tomorrow", day(2019, 3, 3)),
        ("next Friday", day(2019, 3, 8)),  # the first Friday after Friday 1 March
        ("this Sunday", day(2019, 3, 3)),
        ("Monday next week", day(2019, 3, 4)),  # SGD annotates it as 2019-03-04
        ("11th of this month", day(2019, 3, 11)),
        ("the 8th", day(2019, 3, 8)),
        ("March 13th", day(2019, 3, 13)),  # the year comes from the reference
    ],
)
def test_relative_dates_resolve_against_the_reference_date(text: str, expected: CalendarDate) -> None:
    assert TimeParser().parse(text, SGD_TODAY) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (Quantity(190.0), Quantity(190.0, "USD"), True),  # a unit on one side only
        (Quantity(190.0, "EUR"), Quantity(190.0, "USD"), False),
        (Quantity(50.0, "%"), Quantity(0.5), True),  # 50 % is the ratio 0.5
        (Quantity(50.0, "%"), Quantity(50.0), True),
        (day(None, 3, 1), day(2019, 3, 1), True),  # partial date agrees on the parts it gives
        (day(None, 3, 1), day(2019, 3, 2), False),
        # an ambiguous date agrees only with what it is read either way (issue 21): 3 January is only month-first
        (CalendarDate(frozenset({(2019, 3, 1), (2019, 1, 3)}), ((2019, 3, 1), (2019, 1, 3))), day(2019, 1, 3), False),
        (
            CalendarDate(frozenset({(2019, 3, 1), (2019, 1, 3)}), ((2019, 3, 1), (2019, 1, 3))),
            day(2019, None, None),
            True,
        ),
        (ClockTime(19, 0), Quantity(19.0), False),  # different types disagree
        (Text("a"), Quantity(1.0), None),  # unparsed text: not decided here
    ],
)
def test_agree(a: Any, b: Any, same: bool | None) -> None:
    assert agree(a, b) is same
    assert agree(b, a) is same


@pytest.mark.parametrize(
    ("gold", "predicted", "same"),
    [
        ("2019-03-08", "March 8th", True),
        ("2019-03-08", "March 9th", False),
        ("19:00", "7 pm", True),
        ("19:00", "7 am", False),
        ("190", "$190", True),
        (116, "one hundred and sixteen bucks", True),
        ("2 hours", "120 minutes", True),
        ("New York City", "NYC", True),  # acronym
        ("European Union", "EU", True),
        ("New York", "New York, NY", True),  # place qualifier
        ("Portland, OR", "Portland, ME", False),  # two different state codes
        ("Park Ji Sung", "Ji Sung Park", True),  # word order
        ("ds-7731", "ds-7732", False),  # identifiers agree digit for digit
    ],
)
def test_settle_decides_without_a_model(gold: Any, predicted: Any, same: bool) -> None:
    result = settle(gold, predicted, ValueKind.ARGUMENT, NO_DATE)
    assert result is not None
    assert result.equivalent is same


@pytest.mark.parametrize(("gold", "predicted"), [("from London to Paris", "from Paris to London")])
def test_settle_leaves_open_what_only_meaning_can_decide(gold: str, predicted: str) -> None:
    assert settle(gold, predicted, ValueKind.ARGUMENT, NO_DATE) is None


@pytest.mark.parametrize(
    ("gold", "predicted", "detail"),
    [
        ("revenue", "profit", "similarity does not decide single words"),
        ("EU revenue Q3 2024", "EU profit Q3 2024", "similarity does not decide values that differ in one word"),
    ],
)
def test_settle_holds_short_values_from_similarity(gold: str, predicted: str, detail: str) -> None:
    held = settle(gold, predicted, ValueKind.ARGUMENT, NO_DATE)
    assert held is not None
    assert held.equivalent is None  # no rule decided it; similarity may not pass it
    assert held.detail.startswith(detail)


def test_relative_dates_settle_only_with_a_reference_date() -> None:
    assert settle("2019-03-08", "next Friday", ValueKind.ARGUMENT, NO_DATE) is None
    result = settle("2019-03-08", "next Friday", ValueKind.ARGUMENT, SGD_TODAY)
    assert result is not None
    assert result.equivalent is True


# --- properties of the pure parsing code -------------------------------------------------------------

texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@given(texts)
def test_normalise_text_is_idempotent(text: str) -> None:
    once = normalise_text(text)
    assert normalise_text(once) == once


@given(texts)
def test_every_string_gets_a_typed_value_that_agrees_with_itself(text: str) -> None:
    value = typed_value(text, SGD_TODAY)
    assert agree(value, value) is True


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_integers_agree_across_their_surface_forms(number: int) -> None:
    forms = [number, float(number), str(number), f"{number:,}", f"{number}.0"]
    values = [typed_value(form) for form in forms]
    assert all(agree(values[0], v) is True for v in values)


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=10**6))
def test_different_integers_disagree(a: int, delta: int) -> None:
    assert agree(typed_value(a), typed_value(str(a + delta))) is False


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)))
def test_a_date_agrees_across_its_surface_forms(value: date) -> None:
    forms = [value.isoformat(), value.strftime("%B %d, %Y"), f"{value.day} {value.strftime('%b')} {value.year}"]
    parsed = [typed_value(form) for form in forms]
    assert all(agree(parsed[0], p) is True for p in parsed)
    assert agree(parsed[0], typed_value((value + timedelta(days=1)).isoformat())) is False


@given(st.integers(min_value=0, max_value=23), st.integers(min_value=0, max_value=59))
def test_a_time_agrees_in_twelve_and_twenty_four_hour_forms(hour: int, minute: int) -> None:
    twelve = f"{hour % 12 or 12}:{minute:02d} {'pm' if hour >= 12 else 'am'}"
    assert typed_value(f"{hour:02d}:{minute:02d}") == ClockTime(hour, minute)
    assert agree(typed_value(twelve), ClockTime(hour, minute)) is True


date_like = st.from_regex(
    r"(the |next |this )?\d{1,4}([:/.\-]\d{1,4}){0,2}"
    r"( ?([ap]m|st|th|h|hours|min|percent|%|usd|bucks))?( of (this|next) month)?",
    fullmatch=True,
)


@given(date_like)
def test_parsers_never_raise_on_date_and_number_like_strings(text: str) -> None:
    value = typed_value(text, SGD_TODAY)
    assert agree(value, value) is True


SURFACE_FORMS = [
    "NYC", "New York City", "New York", "New York, NY", "2019-03-01", "March 1st", "1/3/2019", "7 pm", "19:00",
    "$190", "190", "50%", "0.5", "two", "2 hours", "120 minutes", "yes", "true", "EU", "European Union", "Europe",
    "Portland, OR", "Portland, ME", "ds-7731", "ds-7732", "Ji Sung Park", "Park Ji Sung", "revenue", "profit",
]  # fmt: skip


@given(st.sampled_from(SURFACE_FORMS), st.sampled_from(SURFACE_FORMS))
def test_settlement_is_symmetric(a: str, b: str) -> None:
    forward, backward = settle(a, b, ValueKind.ARGUMENT, NO_DATE), settle(b, a, ValueKind.ARGUMENT, NO_DATE)
    assert (forward is None) == (backward is None)
    if forward is not None and backward is not None:
        assert forward.equivalent == backward.equivalent


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({"reference_date": "2019-03-01"}, date(2019, 3, 1)),
        ({"date": "2019-03-01T10:15:00Z"}, date(2019, 3, 1)),  # the date part of a date-time
        ({"reference_date": "soon", "date": "2020-02-29"}, date(2020, 2, 29)),  # unparseable: next key
        ({"reference_date": 20190301}, None),  # not a string: no guess
        ({}, None),
    ],
)
def test_parse_context_from_dialog_metadata(metadata: dict[str, Any], expected: date | None) -> None:
    assert ParseContext.from_metadata(metadata).reference_date == expected
