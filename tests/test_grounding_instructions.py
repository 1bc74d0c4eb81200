"""Grounding on what real support runs hold (τ-bench's airline runs, issue 28 "Grounding"): the agent's own
instructions (its system prompt: a policy's fees and time frames), the user id an e-mail address spells, an
amount a thought works out from two others it states; each with the value nobody gave still a finding."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.load import parse_trace
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
POLICY = "Each checked bag costs $50. Travel insurance is $30 per passenger. Cancel within 24 hours of booking."


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def judged(*steps: dict[str, Any], instructions: str | None = None) -> DimensionVerdict:
    built = tuple(Step(step_id=f"s{i + 1}", index=i, **step) for i, step in enumerate(steps))
    return check_arguments(Trace("t", built, instructions=instructions), Environment(), CTX)


def ungrounded(verdict: DimensionVerdict) -> list[str]:
    return [str(f.evidence["value"]) for f in verdict.findings]  # type: ignore[index]


@pytest.mark.parametrize(
    ("expression", "instructions", "expected"),
    [
        ("(158 + 141) + 30", POLICY, []),  # two fares and the policy's insurance price
        ("(158 + 141) + 30", None, ["30"]),  # no instructions given: nothing says 30
        ("(158 + 141) + 35", POLICY, ["35"]),  # the policy says 30, not 35
    ],
)
def test_the_agents_instructions_ground_a_policys_prices(
    expression: str, instructions: str | None, expected: list[str]
) -> None:
    fares = call("get_reservation_details", {"flights": [{"price": 158}, {"price": 141}]}, reservation_id="ZFA04Y")
    steps = (user("Add insurance to ZFA04Y please"), fares, call("calculate", expression=expression))
    assert ungrounded(judged(*steps, instructions=instructions)) == expected


def test_a_time_frame_written_with_its_unit_run_on_is_read_as_its_amount() -> None:
    thought = "Reservation XEHM4B was booked on 2024-05-01, beyond the 24-hour cancellation window."
    booked = call("get_reservation_details", {"created_at": "2024-05-01T10:00:00"}, reservation_id="XEHM4B")
    steps = (user("Cancel XEHM4B"), booked, call("think", thought=thought))
    assert ungrounded(judged(*steps, instructions=POLICY)) == []
    assert ungrounded(judged(*steps)) == ["24-hour"]


def test_instructions_load_from_a_trace_file() -> None:
    raw = {"trace_id": "t", "instructions": POLICY, "steps": [{"action_type": "user", "content": "hi"}]}
    assert parse_trace(raw).instructions == POLICY


@pytest.mark.parametrize(
    ("user_id", "expected"), [("yara_garcia_1905", []), ("yara_garcia_1950", ["yara_garcia_1950"])]
)
def test_the_user_id_an_email_address_spells_is_grounded(user_id: str, expected: list[str]) -> None:
    steps = (user("My email address is yara_garcia_1905@gmail.com."), call("get_user_details", user_id=user_id))
    assert ungrounded(judged(*steps)) == expected


@pytest.mark.parametrize(
    ("remaining", "expected"),
    [("$247", []), ("$257", ["$257"])],  # 375 - 128 = 247; 257 is no sum or difference of what it states
)
def test_an_amount_a_thought_works_out_from_two_it_states_is_grounded(remaining: str, expected: list[str]) -> None:
    quote = call("get_quote", {"total": 375, "gift_card_balance": 128}, reservation_id="HATHAT")
    thought = f"The total cost is $375. The gift card pays $128 and the remaining {remaining} goes on the credit card."
    assert ungrounded(judged(user("Book HATHAT"), quote, call("think", thought=thought))) == expected


@pytest.mark.parametrize(("expression", "expected"), [("(16 - 13) + (13 - 4)", []), ("(16 - 12) + (13 - 4)", ["12"])])
def test_an_expressions_hours_of_times_read_before_are_grounded(expression: str, expected: list[str]) -> None:
    """Working out a trip's length from the flights' times: ``13`` is the hour of ``13:00:00``; no time has hour 12."""
    flights = [{"flight_number": "HAT084", "scheduled_departure_time_est": "04:00:00"},
               {"flight_number": "HAT266", "scheduled_departure_time_est": "13:00:00",
                "scheduled_arrival_time_est": "16:00:00"}]  # fmt: skip
    search = call("search_onestop_flight", flights, origin="DEN", destination="IAH", date="2024-05-27")
    steps = (
        user("The fastest trip from DEN to IAH on May 27, please."),
        search,
        call("calculate", expression=expression),
    )
    assert ungrounded(judged(*steps)) == expected
