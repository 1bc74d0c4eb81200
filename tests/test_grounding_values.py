"""Grounding under the product's typed equivalence (issue 28, "Grounding" and "Soundness"): numbers as numbers,
identifiers as whole tokens, dates against a known today, short forms, numbers in words, schema values, values a
tool returned; each on traces of both outcomes."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.compare.values import ParseContext
from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.arguments import check_arguments
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.grounding import GroundingIndex
from aem_strands.trace.grounding_dates import reference_date
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.trace.value_tokens import joined_keys, tokens
from aem_strands.trace.values import ComparatorValues
from aem_strands.types import JsonValue

VALUES = ComparatorValues()
CTX = TraceContext(VALUES)


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def trace(*steps: dict[str, Any], **fields: Any) -> Trace:
    return Trace("t", tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps)), **fields)


def ungrounded(t: Trace, env: Environment | None = None) -> list[JsonValue]:
    verdict = check_arguments(t, env or Environment(), CTX)
    return [f.evidence["value"] for f in verdict.findings if isinstance(f.evidence, dict)]


def grounded_by(said: str, value: JsonValue, today: date | None = None) -> bool:
    index = GroundingIndex(VALUES.same, ParseContext(today))
    index.add_text(said, "user")
    return index.find(value) is not None


# --- numbers as numbers, identifiers as whole tokens -------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I paid $40.00", 4000),  # digits inside digits
        ("It was $12.50", 1250),
        ("items 12, 34", 1234),
        ("my customer number is C-3003", 3003),
        ("I want to check a payment: invoice C-3003.", 3003),  # "a" is a number word: C-3003 stays whole
        ("I want to check a payment: I paid $40.00.", 4000),
        ("I paid $12.50", 50),  # the cents are no number of their own
        ("order 123", 1234),
        ("call 555 123 2002", 5551232003),
    ],
)
def test_digits_inside_other_digits_ground_nothing(said: str, value: JsonValue) -> None:
    assert not grounded_by(said, value)
    assert ungrounded(trace(user(said), call("pay", amount=value))) == [value]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("I paid $40.00", 40),
        ("I paid $40.00", "40"),
        ("It was $12.50", 12.5),
        ("my customer number is c 3003", "C-3003"),
        ("my customer number is C3003", "C-3003"),
        ("my customer number is C-3003", "c3003"),
        ("order 123", "ORDER_123"),
        ("items 12, 34", 34),
        ("call 555 123 2002", 5551232002),
        ("call 555 123 2002", "+1 555-123-2002"),
        ("card 4111 1111 1111 1111", 4111111111111111),
        ("about 1,250 units", 1250),
        ("a 15% tip", 0.15),
    ],
)
def test_the_same_number_or_identifier_grounds(said: str, value: JsonValue) -> None:
    assert grounded_by(said, value)
    assert ungrounded(trace(user(said), call("pay", amount=value))) == []


def test_tokens_keep_numbers_and_identifiers_whole() -> None:
    found = tokens("I paid $40.00, id C-3003 and 13th")
    assert [t.key for t in found] == ["i", "paid", "#40", "id", "~c3003", "and", "#13"]
    assert not found[2].joinable  # the comma after $40.00: nothing joins onto it


def test_short_digit_groups_never_join() -> None:
    assert [k for k, _, _ in joined_keys(tokens("items 12 34"))] == ["items12"]  # never 1234
    assert "5551232002" in [k for k, _, _ in joined_keys(tokens("555 123 2002"))]  # a long digit string does


@given(st.integers(min_value=2, max_value=10**6), st.integers(min_value=0, max_value=99))
def test_an_amount_grounds_itself_and_never_its_digits_run_together(dollars: int, cents: int) -> None:
    said = f"I paid ${dollars}.{cents:02d}"
    amount = dollars + cents / 100
    assert grounded_by(said, amount)
    joined = int(f"{dollars}{cents:02d}")  # dollars * 100 + cents: another number, at least 100 times as large
    assert not grounded_by(said, joined)


# --- dates and times against a known today ------------------------------------------------------------------

TODAY = {"today": "2019-03-01"}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("a table on March 13th", "2019-03-13"),
        ("a table tomorrow", "2019-03-02"),
        ("a table next Friday", "2019-03-08"),
        ("a table on the 3rd", "2019-03-03"),
        ("on the 13th of this month", "2019-03-13"),
        ("at half past 11 in the morning", "11:30"),
        ("at afternoon 12", "12:00"),
    ],
)
def test_dates_and_times_said_otherwise_ground_with_a_known_today(said: str, value: str) -> None:
    assert ungrounded(trace(user(said), call("reserve", date=value), initial_state=TODAY)) == []


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("a table on March 13th", "2019-03-14"),
        ("a table on March 13th", "2023-03-13"),  # more than a year from today
        ("a table tomorrow", "2019-03-03"),
        ("a table next Friday", "2019-03-09"),
        ("a table on the 3rd", "2019-03-04"),
        ("sometime in March", "2019-03-05"),  # a month alone gives no day
        ("at half past 11 in the morning", "11:45"),
    ],
)
def test_other_dates_and_times_are_ungrounded_with_a_known_today(said: str, value: str) -> None:
    assert ungrounded(trace(user(said), call("reserve", date=value), initial_state=TODAY)) == [value]


def test_a_date_with_a_time_said_as_a_bare_hour_or_bounding_the_day() -> None:
    said = user("Can we meet tomorrow? How about 10?")
    assert ungrounded(trace(said, call("create_event", start="2019-03-02 10:00:00"), initial_state=TODAY)) == []
    assert ungrounded(trace(said, call("query", start="2019-03-02 00:00:00"), initial_state=TODAY)) == []
    assert ungrounded(trace(said, call("query", end="2019-03-02 23:59:59"), initial_state=TODAY)) == []
    # 10:30 was not said, but may be worked out (a start and a length): the judge's, undecided without one.
    late = trace(said, call("create_event", start="2019-03-02 10:30:00"), initial_state=TODAY)
    verdict = check_arguments(late, Environment(), CTX)
    assert (verdict.findings, len(verdict.undecided)) == ((), 1)
    # 2019-03-03 is not tomorrow: settled.
    other = trace(said, call("create_event", start="2019-03-03 10:00:00"), initial_state=TODAY)
    assert ungrounded(other) == ["2019-03-03 10:00:00"]


def test_without_a_today_a_yearless_date_grounds_its_day_in_any_year() -> None:
    # The documented choice: the year was not said, so it is not contradicted.
    assert ungrounded(trace(user("a table on March 13th"), call("reserve", date="2019-03-13"))) == []
    assert ungrounded(trace(user("a table on March 13th"), call("reserve", date="2019-03-12"))) == ["2019-03-12"]


def test_without_a_today_a_relative_date_grounds_what_it_can_name() -> None:
    # 2019-03-08 is a Friday, 2019-03-09 a Saturday: "next Friday" names some Friday, whatever today is.
    assert ungrounded(trace(user("next Friday please"), call("reserve", date="2019-03-08"))) == []
    assert ungrounded(trace(user("next Friday please"), call("reserve", date="2019-03-09"))) == ["2019-03-09"]


def test_today_comes_from_initial_state_or_metadata_keys() -> None:
    assert reference_date({"current_date": "2019-03-01T09:00:00"}) == date(2019, 3, 1)
    assert reference_date({"today": "not a date"}, {"reference_date": "2020-01-02"}) == date(2020, 1, 2)
    assert reference_date({}, None) is None


# --- short forms, numbers in words, schema values, tool results ---------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [("a hotel in SF", "San Francisco"), ("flights to NYC", "New York"), ("one in SD", "San Diego")],
)
def test_a_place_by_a_short_form_grounds_it(said: str, value: str) -> None:
    assert ungrounded(trace(user(said), call("search", city=value))) == []


def test_another_place_is_ungrounded() -> None:
    assert ungrounded(trace(user("a hotel in SF"), call("search", city="San Jose"))) == ["San Jose"]


def test_numbers_in_words_ground_the_number() -> None:
    assert ungrounded(trace(user("a table for two people"), call("reserve", seats="2"))) == []
    assert ungrounded(trace(user("a table for two people"), call("reserve", seats="3"))) == ["3"]


SCHEMA_TOOLS = tools_from_json(
    [
        {
            "name": "reserve",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "seats": {"type": "string", "default": "2"},
                    "kind": {"enum": ["indoor", "outdoor"]},
                    "version": {"const": "v2"},
                    "place": {"type": "string"},
                },
                "required": ["place"],
            },
        }
    ]
)


def test_values_the_schema_gives_need_no_grounding() -> None:
    t = trace(user("a table at Zuni"), call("reserve", place="Zuni", seats="2", kind="outdoor", version="v2"))
    assert ungrounded(t, Environment(tools=SCHEMA_TOOLS)) == []
    t = trace(user("a table at Zuni"), call("reserve", place="Zuni", seats="6"))
    assert ungrounded(t, Environment(tools=SCHEMA_TOOLS)) == ["6"]  # not the default, and nobody said 6


def test_a_value_a_tool_computed_grounds_a_later_argument() -> None:
    t = trace(user("split $120 three ways"), call("calculate", "40", expression="120 / 3"), call("pay", amount=40))
    assert ungrounded(t) == []
    t = trace(user("split $120 three ways"), call("calculate", "40", expression="120 / 3"), call("pay", amount=45))
    assert ungrounded(t) == [45]


def test_a_proposal_the_user_accepts_grounds_its_values() -> None:
    accepted = trace(
        user("I need a car from the 10th"),
        say("Will you be picking up the car on March 6th?"),
        user("Oh, yeah."),
        call("reserve_car", start="2019-03-06"),
    )
    assert ungrounded(accepted) == []
    refused = trace(
        user("I need a car from the 10th"),
        say("Will you be picking up the car on March 6th?"),
        user("No, the 7th."),
        call("reserve_car", start="2019-03-06"),
    )
    assert ungrounded(refused) == ["2019-03-06"]


# --- free text ------------------------------------------------------------------------------------------------


def test_free_text_is_checked_for_the_identifiers_and_amounts_inside() -> None:
    grounded = trace(
        user("refund ORDER_123, I paid $40"), call("note", message="Refunded order 123 for 40 dollars on request")
    )
    assert ungrounded(grounded) == []
    invented = trace(user("refund ORDER_123, I paid $40"), call("note", thought="Refund ORDER_124 for 4000"))
    assert ungrounded(invented) == ["ORDER_124", "4000"]
