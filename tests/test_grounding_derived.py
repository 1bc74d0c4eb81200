"""Grounding of values the agent works out from what was said (issue 28, "Grounding": values an earlier tool
returned or computed, relative dates against a known today): a time or date shifted by a said length, numeric and
yearless dates, week and month phrases, the bounds of a window; each on traces of both outcomes."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
TODAY = {"today": "2023-09-11"}  # a Monday


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def judged(*steps: dict[str, Any], today: bool = True) -> DimensionVerdict:
    trace = Trace(
        "t",
        tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)),
        initial_state=TODAY if today else {},
    )
    return check_arguments(trace, Environment(), CTX)


def outcome(verdict: DimensionVerdict) -> str:
    """``finding``, ``undecided`` or ``grounded``."""
    return "finding" if verdict.findings else "undecided" if verdict.undecided else "grounded"


@pytest.mark.parametrize(
    ("said", "value", "expected"),
    [
        # 8:00 less the said 30 minutes is 07:30; nothing gives 07:25.
        ("A meeting from 8 am to 9. Add an alarm for 30 minutes before it.", "07:30:00", "grounded"),
        ("A meeting from 8 am to 9. Add an alarm for 30 minutes before it.", "07:25:00", "finding"),
        # 9:00 and half an hour: 09:30 ends it; 10:15 is no sum of what was said.
        ("Tomorrow for half an hour starting at 9 am?", "2023-09-12 09:30:00", "grounded"),
        ("Tomorrow for half an hour starting at 9 am?", "2023-09-13 10:20:00", "finding"),
    ],
)
def test_a_time_shifted_by_a_said_length_is_derived(said: str, value: str, expected: str) -> None:
    assert outcome(judged(user(said), call("add", time=value))) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-09-27", "grounded"),  # September 28th less "a day"
        ("2023-09-25", "finding"),  # three days before: no such length was said
    ],
)
def test_a_date_shifted_by_a_said_number_of_days_is_derived(value: str, expected: str) -> None:
    said = user("Her birthday is September 28th. Remind me to buy cake a day before.")
    assert outcome(judged(said, call("remind", due_date=value))) == expected


@pytest.mark.parametrize(
    ("said", "value", "expected"),
    [
        # τ-bench's shape: "the day after" / "the next day" of a date a tool reported
        ("I'd like to change to the cheapest economy option and for the day after, please.", "2023-09-24", "grounded"),
        ("I want to shift my flight to the next day.", "2023-09-24", "grounded"),
        ("I want to shift my flight to the next day.", "2023-09-25", "finding"),  # two days after: no such length
        ("I'd like the cheapest economy option, please.", "2023-09-24", "finding"),  # no shift was said
    ],
)
def test_a_day_after_or_before_a_seen_date_is_derived(said: str, value: str, expected: str) -> None:
    booked = call("get_reservation", {"flights": [{"flight_number": "HAT227", "date": "2023-09-23"}]}, id="M05KNL")
    verdict = judged(user("Change reservation M05KNL"), booked, user(said), call("search", date=value))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("said", "value", "expected"),
    [
        ("Can you set an alarm for 6:30?", "18:30:00", "grounded"),  # no am or pm: either half of the day
        ("Can you set an alarm for 6:30 am?", "18:30:00", "finding"),  # the morning was said
        ("Can you set an alarm for 6:30?", "18:45:00", "finding"),
    ],
)
def test_a_time_without_am_or_pm_grounds_both_halves_of_the_day(said: str, value: str, expected: str) -> None:
    assert outcome(judged(user(said), call("alarm", time=value))) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-09-15 00:00:00", "grounded"),  # 9/15, month first
        ("2023-09-21 23:59:59", "grounded"),  # the end of the range 9/15-9/21
        ("2023-09-14 00:00:00", "finding"),
        ("2023-09-22 00:00:00", "finding"),
    ],
)
def test_a_numeric_date_range_grounds_its_ends(value: str, expected: str) -> None:
    said = user("Can you check my calendar for any meetings from 9/15-9/21?")
    assert outcome(judged(said, call("query", start_time=value))) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-09-18 00:00:00", "grounded"),  # Monday of next week (today is Monday the 11th)
        ("2023-09-24 23:59:59", "grounded"),  # its Sunday
        ("2023-09-25 00:00:00", "finding"),  # the week after
    ],
)
def test_next_week_grounds_its_days_against_a_known_today(value: str, expected: str) -> None:
    assert outcome(judged(user("What's on my calendar for next week?"), call("query", start_time=value))) == expected


@pytest.mark.parametrize(("value", "expected"), [("September", "grounded"), ("October", "finding")])
def test_a_month_is_grounded_by_a_known_date_in_it(value: str, expected: str) -> None:
    verdict = judged(user("Is it normally this hot here?"), call("historic_weather", month=value))
    assert outcome(verdict) == expected


def test_a_month_without_any_date_in_it_is_no_grounding() -> None:
    verdict = judged(user("Is it normally this hot here?"), call("historic_weather", month="September"), today=False)
    assert outcome(verdict) == "finding"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-09-01", "grounded"),  # the first of this month
        ("2023-08-11", "grounded"),  # a month before today
        ("2023-09-04", "grounded"),  # a week before today
        ("2023-08-17", "finding"),  # no period up to today starts there
    ],
)
def test_the_start_of_a_period_up_to_today_is_derived(value: str, expected: str) -> None:
    verdict = judged(user("Show me my recent transactions."), call("list_transactions", since=value))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("17:00:00", "undecided"),  # an hour before "6 PM": a bound of "around 6 PM", which no rule settles
        ("19:00:00", "undecided"),
        ("17:25:00", "finding"),  # off the half hours: no bound of a window
        ("21:00:00", "finding"),  # three hours off
    ],
)
def test_the_bounds_of_a_window_around_a_said_time_are_undecided(value: str, expected: str) -> None:
    verdict = judged(user("Do I have any alarms set around 6 PM?"), call("find_alarms", start_range=value))
    assert outcome(verdict) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-09-25 09:00:00", "undecided"),  # two weeks after the observed 2023-09-11, at the observed time
        ("2023-09-26 09:00:00", "finding"),  # no whole number of weeks after any date seen
    ],
)
def test_a_weekly_series_is_undecided_and_another_day_settled(value: str, expected: str) -> None:
    events = {"events": [{"name": "Weekly team sync", "start_time": "2023-09-11 09:00:00"}]}
    verdict = judged(
        user("What is on this week?"),
        call("query", events),
        user("Set the team sync up weekly until the end of next month."),
        call("create", start_time=value),
    )
    assert outcome(verdict) == expected
