"""Times and short codes in replies: spoken clock times, 24-hour times, codes read out digit by digit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.compare.facts import check_reply_facts
from aem_strands.compare.parse_time import TimeParser
from aem_strands.compare.reply_signals import facts_in
from aem_strands.compare.values import ClockTime, ParseContext

_PARSER = TimeParser()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a quarter to nine in the evening", ClockTime(20, 45)),
        ("ten past eight in the morning", ClockTime(8, 10)),  # minutes past an hour
        ("twenty-five to three pm", ClockTime(14, 35)),  # 35 minutes past 2 pm
        ("5 minutes past 4", ClockTime(4, 5)),  # "past" needs no part of day
        ("quarter past midnight", ClockTime(0, 15)),
        ("a quarter to midnight", ClockTime(23, 45)),  # the hour before midnight: 24 - 1
        ("ten to noon", ClockTime(11, 50)),
        ("half six in the evening", ClockTime(18, 30)),  # British "half six": 6:30
        ("12 at night", ClockTime(0, 0)),
        ("12 midnight", ClockTime(0, 0)),
        ("3 in the afternoon", ClockTime(15, 0)),
    ],
)
def test_spoken_clock_times(text: str, expected: ClockTime) -> None:
    assert _PARSER.parse(text, ParseContext()) == expected


@pytest.mark.parametrize(
    "text",
    [
        "10 to 6",  # a range as likely as 5:50: needs am/pm or a part of day
        "40 past 3",  # an offset says at most 30 minutes
        "20 past 15",  # spoken offsets go with the 12-hour clock
        "half 4",  # British "half four" only with am/pm or a part of day
        "noon 5",
    ],
)
def test_spoken_forms_that_name_no_time(text: str) -> None:
    assert _PARSER.parse(text, ParseContext()) is None


@given(st.integers(1, 30), st.integers(1, 11))
def test_minutes_past_an_evening_hour(minutes: int, hour: int) -> None:
    # "M past H in the evening" is H + 12 hours and M minutes
    assert _PARSER.parse(f"{minutes} past {hour} in the evening", ParseContext()) == ClockTime(hour + 12, minutes)


@given(st.integers(1, 30), st.integers(2, 11))
def test_minutes_to_a_morning_hour(minutes: int, hour: int) -> None:
    # "M to H in the morning" is (H - 1):(60 - M)
    assert _PARSER.parse(f"{minutes} to {hour} in the morning", ParseContext()) == ClockTime(hour - 1, 60 - minutes)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("Boarding starts at 18:40.", "Boarding starts at twenty to seven in the evening."),
        ("The shop shuts at 21:55.", "The shop shuts at five to ten at night."),
        ("The ferry leaves at 08:05.", "The ferry leaves at five-past-eight in the morning."),
        ("Doors open at 6:30 am.", "Doors open at half six in the morning."),
        ("The alarm goes off at 23:45.", "The alarm goes off at a quarter to midnight."),
        ("Your safe code is 3-8-1-5.", "Your safe code is 3815."),  # a code read out digit by digit
    ],
)
def test_one_time_or_code_in_two_forms_agrees(gold: str, predicted: str) -> None:
    check = check_reply_facts(gold, predicted)
    assert not check.findings
    assert check.covered_facts == check.gold_facts == 1


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("The last bus is at 00:20.", "The last bus is at 12:20 pm."),  # 24-hour 00:20 is after midnight, not noon
        ("The lights switch off at 22:00.", "The lights switch off at 10 in the morning."),
        ("Check-in closes at 07:15.", "Check-in closes at 7:15 in the evening."),  # a zero-led time is 24-hour
        ("Your safe code is 3-8-1-5.", "Your safe code is 3-1-8-5."),  # transposed digits
    ],
)
def test_another_time_or_code_is_inconsistent(gold: str, predicted: str) -> None:
    assert check_reply_facts(gold, predicted).contradicted


def test_a_twenty_four_hour_time_is_no_twelve_hour_reading() -> None:
    assert [f.loose for f in facts_in("We land at 00:40, or 7:05.") if f.group == "time"] == [False, True]


def test_a_range_of_hours_is_no_spoken_time() -> None:
    # "from 10 to 6 in the evening": 10 and 18:00, not 17:50
    assert [
        (f.group, f.key) for f in facts_in("We are open from 10 to 6 in the evening.") if f.group != "state:openness"
    ] == [
        ("number", "10"),
        ("time", "18:00"),
    ]
