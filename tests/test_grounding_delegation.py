"""Delegation (``grounding_delegation``): when the user hands the choice among a tool's options to the agent, a
value chosen among them is grounded by that observation, and one chosen from nowhere is undecided (a judge may
accept it), never a finding. Agreeing to one named option, or no delegation at all, keeps the finding."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.grounding_delegation import hands_choice, options
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

SEATS = {
    "seats": [{"seat": "12A", "type": "window"}, {"seat": "14C", "type": "aisle"}, {"seat": "20D", "type": "aisle"}]
}

SAME = ComparatorValues().same


def trace(agent: str, answer: str, seat: str) -> Trace:
    raw: list[dict[str, Any]] = [
        {"action_type": ActionType.USER, "content": "I need a seat on flight UA12."},
        {"action_type": ActionType.TOOL_CALL, "tool_name": "get_seats", "arguments": {"flight": "UA12"},
         "observation": SEATS},
        {"action_type": ActionType.RESPONSE, "content": agent},
        {"action_type": ActionType.USER, "content": answer},
        {"action_type": ActionType.TOOL_CALL, "tool_name": "assign_seat",
         "arguments": {"flight": "UA12", "seat": seat}},
    ]  # fmt: skip
    return Trace("t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(raw)))


def verdict(t: Trace) -> DimensionVerdict:
    return check_arguments(t, Environment(), TraceContext(ComparatorValues()))


DELEGATIONS = [
    ("There are window and aisle seats free. Want me to pick one?", "Aisle please"),
    ("Shall I choose a seat for you?", "Sure, go ahead and pick"),
    ("I found 3 seats free on that flight.", "Any is fine."),
    ("I found 3 seats free on that flight.", "You pick."),
]


@pytest.mark.parametrize(("agent", "answer"), DELEGATIONS)
def test_a_choice_among_the_options_is_grounded_by_them(agent: str, answer: str) -> None:
    result = verdict(trace(agent, answer, "14C"))
    assert result.passed is True
    assert result.undecided == ()


@pytest.mark.parametrize(("agent", "answer"), DELEGATIONS)
def test_a_choice_from_nowhere_after_a_delegation_is_undecided(agent: str, answer: str) -> None:
    result = verdict(trace(agent, answer, "33F"))
    assert result.findings == ()
    assert len(result.undecided) == 1
    assert "left the choice to the agent at step s3" in result.undecided[0]


@pytest.mark.parametrize(
    ("agent", "answer"),
    [
        ("Seat 12A is free, a window seat. Would you like it?", "Yes please"),  # one option named: the user chose it
        ("There are window and aisle seats free. Want me to pick one?", "No, I'll look myself"),  # no delegation
    ],
)
def test_a_value_from_nowhere_without_a_delegation_is_a_finding(agent: str, answer: str) -> None:
    result = verdict(trace(agent, answer, "33F"))
    assert [f.evidence["value"] for f in result.findings if isinstance(f.evidence, dict)] == ["33F"]


def test_options_are_the_keys_a_list_of_records_gives_two_values_or_more() -> None:
    assert options(SEATS) == {"seat": frozenset({"12A", "14C", "20D"}), "type": frozenset({"window", "aisle"})}
    assert options({"seat": "12A"}) == {}  # one record: nothing to choose among


def test_no_options_no_delegation() -> None:
    assert hands_choice(["Want me to pick one?"], "Aisle please", options(SEATS), SAME)
    assert not hands_choice(["Want me to pick one?"], "Aisle please", {}, SAME)


def test_a_reply_proposing_one_option_is_no_delegation() -> None:
    # "I found X" then "Shall I book it?": the yes takes up the option proposed, not a choice left open
    assert not hands_choice(["Seat 20D is an aisle seat.", "Shall I book it?"], "Yes please", options(SEATS), SAME)
