"""Dates and times settled as worked out from what was said (``trace.grounding_series``): the next of a weekly series
the user asked for, and the bounds of a read-only tool's window around a said time or date; each on traces of both
outcomes (settled grounded, left a question, or a finding)."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.grounding_keys import Grounding
from aem_strands.trace.grounding_series import asks_weekly, read_window, said_span, weekly_series
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
TODAY = {"today": "2023-09-11"}  # a Monday
ENV = Environment(
    tools=tools_from_json(
        [
            {"name": "find_alarms", "annotations": {"readOnlyHint": True}},
            {"name": "query_calendar", "annotations": {"readOnlyHint": True}},
            {"name": "create_event", "annotations": {"readOnlyHint": False}},
            {"name": "add_alarm_window", "annotations": {"readOnlyHint": False}},
        ]
    )
)


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def outcome(*steps: dict[str, Any]) -> str:
    """``finding``, ``undecided`` or ``grounded``, of the arguments check on these steps."""
    trace = Trace(
        "t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)), initial_state=TODAY
    )
    verdict: DimensionVerdict = check_arguments(trace, ENV, CTX)
    return "finding" if verdict.findings else "undecided" if verdict.undecided else "grounded"


SYNC = {"events": [{"name": "Weekly team sync", "start_time": "2023-09-11 09:00:00"}]}


def series(request: str, third: str) -> str:
    """A sync on the 18th (said) at 9 (seen), then ``third`` as the next of the series."""
    return outcome(
        user("What is on this week?"),
        call("query_calendar", SYNC),
        user(request),
        call("create_event", start_time="2023-09-18 09:00:00"),
        call("create_event", start_time=third),
    )


@pytest.mark.parametrize(
    ("request_", "third", "expected"),
    [
        # one week after the previous call's grounded 2023-09-18 09:00, at its time, after "weekly": settled
        ("Set the team sync up on the 18th and weekly after that.", "2023-09-25 09:00:00", "grounded"),
        ("Put the sync on the 18th and repeat it every week.", "2023-09-25 09:00:00", "grounded"),
        # the same call with no weekly request: a question (two weeks after the observed 2023-09-11)
        ("Set the team sync up on the 18th.", "2023-09-25 09:00:00", "undecided"),
        # one week on, another time of day: not the series
        ("Set the team sync up on the 18th and weekly after that.", "2023-09-25 10:20:00", "finding"),
        # eight days on: no week after anything
        ("Set the team sync up on the 18th and weekly after that.", "2023-09-26 09:00:00", "finding"),
    ],
)
def test_the_next_of_a_weekly_series_the_user_asked_for_is_settled(request_: str, third: str, expected: str) -> None:
    assert series(request_, third) == expected


@pytest.mark.parametrize(
    ("tool", "start", "end", "expected"),
    [
        ("find_alarms", "17:00:00", "19:00:00", "grounded"),  # a read's window around "6 PM"
        ("find_alarms", "17:30:00", "18:30:00", "grounded"),
        ("add_alarm_window", "17:00:00", "19:00:00", "undecided"),  # a write's times are the action: a question
        ("find_alarms", "16:00:00", "17:00:00", "undecided"),  # 6 PM outside it: no window around it
        ("find_alarms", "17:25:00", "19:00:00", "finding"),  # off the half hours: no bound of such a window
    ],
)
def test_a_reads_window_around_a_said_time_is_settled(tool: str, start: str, end: str, expected: str) -> None:
    said = user("Hey do I have any alarms set around 6 PM?")
    assert outcome(said, call(tool, start_range=start, end_range=end)) == expected


@pytest.mark.parametrize(
    ("tool", "start", "expected"),
    [
        ("query_calendar", "2023-09-11 12:00:00", "grounded"),  # a read from noon to the end of the said day
        ("create_event", "2023-09-11 12:00:00", "undecided"),  # an event at noon: the user said no time
    ],
)
def test_a_reads_window_on_a_said_date_is_settled(tool: str, start: str, expected: str) -> None:
    said = user("Can you check my next free slot today after lunch?")
    assert outcome(said, call(tool, start_time=start, end_time="2023-09-11 23:59:59")) == expected


def test_the_pieces_read_as_documented() -> None:
    assert asks_weekly(["Set it up to occur weekly"])
    assert not asks_weekly(["Set it up for next week"])
    assert weekly_series("2023-10-02 09:00:00", "2023-09-25 09:00:00")
    assert not weekly_series("2023-10-09 09:00:00", "2023-09-25 09:00:00")  # two weeks: not the next one
    near = Grounding("user message", "6 PM", "near")
    assert read_window("17:00:00", ["19:00:00"], near)
    assert not read_window("17:00:00", ["17:30:00"], near)
    assert not read_window("17:00:00", ["19:00:00"], None)


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        ("2023-09-20 13:00:00", "grounded"),  # the call's start, 03:00, and the said 10 hours
        ("2023-09-20 14:00:00", "undecided"),  # eleven hours: not settled, a question as before (its date was said)
    ],
)
def test_an_end_a_said_length_after_the_calls_start_is_settled(end: str, expected: str) -> None:
    said = user("The flight is 10 hours and leaves on 9/20 at 3 am.")
    assert outcome(said, call("create_event", start_time="2023-09-20 03:00:00", end_time=end)) == expected


def test_a_span_needs_a_start_grounded_in_the_same_call() -> None:
    # the start was said nowhere: a finding, and the end ten hours after it grounds nothing on an invented start
    steps = (user("The flight is 10 hours."), call("create_event", start_time="2023-09-21 04:00:00",
                                                   end_time="2023-09-21 14:00:00"))  # fmt: skip
    trace = Trace(
        "t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)), initial_state=TODAY
    )
    verdict = check_arguments(trace, ENV, CTX)
    argued = [f.evidence["argument"] for f in verdict.findings if isinstance(f.evidence, dict)]
    assert argued == ["start_time", "end_time"]
    assert said_span("2023-09-21 14:00:00", ["2023-09-21 04:00:00"], lambda text: text == "PT36000S")
    assert not said_span("2023-09-21 14:00:00", ["2023-09-21 15:00:00"], lambda text: True)  # an end before it
