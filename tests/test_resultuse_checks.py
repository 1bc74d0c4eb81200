"""Result use, recovery and asking again, precise on real shapes (issue 28): each bullet on traces of both
outcomes. The same-object contradiction, the unsupported outcome, failed calls from every shape with success
claims read by the reply fact reading, asking again for the same slot."""

from __future__ import annotations

from typing import Any

import pytest

from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.failures import failure
from aem_strands.trace.checks.necessity import check_necessity
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from aem_strands.types import JsonValue

CTX = TraceContext(ComparatorValues())


class FakeJudge:
    def __init__(self, answer: bool | None) -> None:
        self.answer = answer
        self.questions: list[str] = []

    def decide(self, question: str, evidence: JsonValue) -> bool | None:
        self.questions.append(question)
        return self.answer


def call(tool: str, observation: Any = None, *, error: str | None = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments,
            "observation": observation, "error": error}  # fmt: skip


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def trace(*steps: dict[str, Any], **fields: Any) -> Trace:
    built = tuple(Step(step_id=f"s{i + 1}", index=i, **step) for i, step in enumerate(steps))
    return Trace(trace_id="t1", steps=built, **fields)


def rules(verdict: Any) -> list[tuple[str | None, str]]:
    return [(f.step_id, f.rule) for f in verdict.findings]


EVENTS = [
    {"event_name": "Kllo", "date": "2019-03-14", "time": "19:00", "venue": "Studio 9294"},
    {"event_name": "Adele", "date": "2019-03-03", "time": "20:00", "venue": "Oracle Arena"},
]


# --- 1. a contradiction is about the same object ---------------------------------------------------------------


def test_a_date_written_3_march_agrees_with_2019_03_03_in_an_event_list() -> None:
    t = trace(user("Any concerts?"), call("FindEvents", EVENTS, city="SF"),
              say("Adele plays Oracle Arena on 3 march at 8 pm."))  # fmt: skip
    assert check_result_use(t, Environment(), CTX).passed is True
    # ... but the same sentence with another day for the event it names contradicts the list
    wrong = trace(user("Any concerts?"), call("FindEvents", EVENTS, city="SF"),
                  say("Adele plays Oracle Arena on 5 march at 8 pm."))  # fmt: skip
    assert rules(check_result_use(wrong, Environment(), CTX)) == [("s3", "result_use.contradicts_observation")]


def test_a_named_record_is_compared_with_its_own_values_not_another_items() -> None:
    # 20:00 is Adele's time, not Kllo's: another item of the list does not vouch for it
    t = trace(call("FindEvents", EVENTS, city="SF"), say("Kllo is at Studio 9294 on March 14th at 8 pm."))
    (finding,) = check_result_use(t, Environment(), CTX).findings
    assert isinstance(finding.evidence, dict)
    assert (finding.evidence["stated"], finding.evidence["observed"]) == ("8 pm", ["19:00"])
    faithful = trace(call("FindEvents", EVENTS, city="SF"), say("Kllo is at Studio 9294 on March 14th at 7 pm."))
    assert check_result_use(faithful, Environment(), CTX).passed is True


def test_a_call_on_the_next_item_of_a_list_is_no_contradiction() -> None:
    orders = {"orders": [{"order_id": "A"}, {"order_id": "B"}, {"order_id": "C"}]}
    t = trace(user("Show my orders"), call("list_orders", orders), call("get_order", {"status": "shipped"},
              order_id="B"))  # fmt: skip
    assert check_result_use(t, Environment(), CTX).passed is True
    # a single looked-up record and an id nobody gave: a contradiction
    single = trace(user("what's my latest order?"), call("get_latest_order", {"order_id": "ORDER_8"}),
                   call("cancel_order", order_id="ORDER_9"))  # fmt: skip
    assert rules(check_result_use(single, Environment(), CTX)) == [("s3", "result_use.contradicts_observation")]


def test_walking_a_list_of_plain_ids_is_no_contradiction() -> None:
    """τ-bench's shape: the user's record lists reservation ids as plain strings, and the agent looks each up in
    turn; every id was observed, so the next lookup differs from the last record's id with a value given before."""
    profile = {"user_id": "mia_1", "reservations": ["35V5SM", "XXDC1M", "D1EW9B"]}
    walk = trace(
        user("I'm mia_1; cancel my ATL flight"),
        call("get_user_details", profile, user_id="mia_1"),
        call("get_reservation_details", {"reservation_id": "35V5SM", "origin": "LAX"}, reservation_id="35V5SM"),
        call("get_reservation_details", {"reservation_id": "XXDC1M", "origin": "DEN"}, reservation_id="XXDC1M"),
        call("get_reservation_details", {"reservation_id": "D1EW9B", "origin": "ATL"}, reservation_id="D1EW9B"),
    )
    assert check_result_use(walk, Environment(), CTX).passed is True
    # an id neither the list nor anyone gave, after a single record: still a contradiction
    invented = trace(
        user("I'm mia_1; cancel my ATL flight"),
        call("get_user_details", profile, user_id="mia_1"),
        call("get_reservation_details", {"reservation_id": "D1EW9B", "origin": "ATL"}, reservation_id="D1EW9B"),
        call("cancel_reservation", reservation_id="D1EW9Q"),
    )
    assert rules(check_result_use(invented, Environment(), CTX)) == [("s4", "result_use.contradicts_observation")]


def test_amounts_worked_out_from_amounts_in_play_are_no_contradiction() -> None:
    """τ-bench's shapes (a reservation looked up, a booking proposed for a friend): a total and the balance left
    of a certificate the reply states, a per-passenger fee the agent's instructions state times the count the reply
    gives; a price in place of the flight's own is still a contradiction."""
    booked = {
        "reservation_id": "G72NSF",
        "origin": "DTW",
        "destination": "SEA",
        "cabin": "economy",
        "flights": [
            {"origin": "DTW", "destination": "PHX", "flight_number": "HAT097", "price": 158},
            {"origin": "PHX", "destination": "SEA", "flight_number": "HAT251", "price": 141},
        ],
        "payment_history": [{"payment_id": "gift_card_8516878", "amount": 658}],
        "total_baggages": 2,
    }
    lookup = call("get_reservation_details", booked, reservation_id="G72NSF")
    proposal = (
        "The total cost, including travel insurance, is $329. With a certificate balance of $500, you will "
        "have $171 remaining.\n\n- **Flights:**\n  - Flight HAT097 from DTW to PHX\n  - Flight HAT251 from "
        "PHX to SEA\n- **Amount to be deducted from Certificate:** $329\n- **Remaining Balance:** $171"
    )
    insurance = "Travel insurance costs $30 per passenger."
    assert check_result_use(trace(lookup, say(proposal), instructions=insurance), Environment(), CTX).passed is True
    fee = (
        "- Flight HAT251 from PHX to SEA\n- Compensation: $50 per passenger\n- Number of passengers: 3\n"
        "- Total compensation: $150"
    )
    policy = "A delayed flight is compensated with a certificate of $50 per passenger."
    assert check_result_use(trace(lookup, say(fee), instructions=policy), Environment(), CTX).passed is True
    wrong = trace(lookup, say("- Flight HAT097 from DTW to PHX\n- Price: $185"))
    assert rules(check_result_use(wrong, Environment(), CTX)) == [("s2", "result_use.contradicts_observation")]


def test_a_new_value_written_in_place_of_an_observed_one_is_no_contradiction() -> None:
    t = trace(
        user("Move me to flight UA 200 and ship to 9 Oak Road"),
        call("get_reservation", {"reservation_id": "R1", "flight": "UA 100", "address": "1 Elm Street"}),
        call("update_reservation", {"ok": True}, reservation_id="R1", flight="UA 200", address="9 Oak Road"),
        say("Done: you are on UA 200, shipping to 9 Oak Road."),
    )
    assert check_result_use(t, Environment(), CTX).passed is True


def test_a_number_of_another_quantity_is_no_contradiction() -> None:
    # the record holds a price, the reply a duration and a computed total (3 nights at $150): neither contradicts
    t = trace(
        user("Book 3 nights"),
        call("ReserveHotel", [{"hotel_name": "Hotel Nikko", "price_per_night": "150"}]),
        say("Your stay at Hotel Nikko is 3 nights long, $450 in total; check-in opens in 2 hours."),
    )
    assert check_result_use(t, Environment(), CTX).passed is True
    wrong = trace(
        user("Book 3 nights"),
        call("ReserveHotel", [{"hotel_name": "Hotel Nikko", "price_per_night": "150"}]),
        say("Hotel Nikko costs $170 per night."),
    )
    assert rules(check_result_use(wrong, Environment(), CTX)) == [("s3", "result_use.contradicts_observation")]


# --- 2. an outcome the observation does not say ----------------------------------------------------------------


def test_cancelled_after_cancel_requested_is_an_unsupported_outcome() -> None:
    observed = {"order_id": "ORDER_500", "status": "cancel_requested"}
    t = trace(user("Cancel ORDER_500"), call("cancel_order", observed, order_id="ORDER_500"),
              say("ORDER_500 is cancelled."))  # fmt: skip
    verdict = check_result_use(t, Environment(), CTX)
    assert rules(verdict) == [("s3", "result_use.unsupported_outcome")]
    assert verdict.findings[0].evidence["observed"] == {"status": "cancel_requested"}  # type: ignore[index]
    honest = trace(user("Cancel ORDER_500"), call("cancel_order", observed, order_id="ORDER_500"),
                   say("I've requested the cancellation of ORDER_500; it is not cancelled yet."))  # fmt: skip
    assert check_result_use(honest, Environment(), CTX).passed is True
    done = {"order_id": "ORDER_500", "status": "cancelled"}
    supported = trace(user("Cancel ORDER_500"), call("cancel_order", done, order_id="ORDER_500"),
                      say("ORDER_500 is cancelled."))  # fmt: skip
    assert check_result_use(supported, Environment(), CTX).passed is True


def test_booked_with_no_booking_call_is_an_unsupported_outcome() -> None:
    flights = [{"flight": "UA 100", "price": 300}]
    t = trace(user("Book me a flight"), call("search_flights", flights, to="NYC"), say("I've booked it for you."))
    assert rules(check_result_use(t, Environment(), CTX)) == [("s3", "result_use.unsupported_outcome")]
    booked = trace(
        user("Book me a flight"),
        call("search_flights", flights, to="NYC"),
        call("book_flight", {"confirmation": "X1"}, flight="UA 100"),
        say("I've booked it for you."),
    )
    assert check_result_use(booked, Environment(), CTX).passed is True


def test_an_unplaceable_status_goes_to_the_judge_or_stays_undecided() -> None:
    observed = {"order_id": "ORDER_500", "status": "cancel"}
    t = trace(user("Cancel ORDER_500"), call("cancel_order", observed, order_id="ORDER_500"),
              say("ORDER_500 is cancelled."))  # fmt: skip
    undecided = check_result_use(t, Environment(), CTX)
    assert (undecided.passed, len(undecided.undecided)) == (True, 1)  # evaluate_trace makes it inconclusive
    yes = FakeJudge(True)
    judged = check_result_use(t, Environment(), TraceContext(ComparatorValues(), yes))
    assert rules(judged) == [("s3", "result_use.unsupported_outcome")]
    assert len(yes.questions) == 1
    cleared = check_result_use(t, Environment(), TraceContext(ComparatorValues(), FakeJudge(False)))
    assert cleared.passed is True
    assert not cleared.undecided


# --- 3. failed calls from every shape --------------------------------------------------------------------------

ERRORS: list[Any] = [
    {"error": "not found"},
    {"result": {"data": {"error": {"code": 503}}}},
    '{"error": "not found"}',
    {"success": False},
    {"status_code": 500},
    "HTTP 500 Internal Server Error",
    "Request timed out",
    [{"type": "text", "text": "Error: backend unreachable"}],
    {"content": [{"type": "text", "text": "boom"}], "isError": True},
]


@pytest.mark.parametrize("observation", ERRORS)
def test_every_error_shape_is_a_failed_call_and_a_success_claim_after_it_fails_recovery(observation: Any) -> None:
    t = trace(user("Refund order 7"), call("issue_refund", observation, order_id="7"),
              say("Your refund has been issued."))  # fmt: skip
    assert failure(t.steps[1]) is not None
    assert rules(check_recovery(t, Environment(), CTX)) == [("s3", "recovery.reported_success_after_error")]
    honest = trace(user("Refund order 7"), call("issue_refund", observation, order_id="7"),
                   say("I couldn't issue the refund: the refund system returned an error."))  # fmt: skip
    assert check_recovery(honest, Environment(), CTX).passed is True


@pytest.mark.parametrize(
    "observation",
    [{"status": "denied"}, {"payment": "failed"}, "The order failed quality control", [], "400 Main Street",
     {"eligible": False}, {"errors": []}],
)  # fmt: skip
def test_a_domain_answer_is_no_failed_call(observation: Any) -> None:
    assert failure(trace(call("get_order", observation)).steps[0]) is None


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        ("The money went through.", True),
        ("Done, the transfer is complete.", True),
        ("All set, your transfer was processed.", True),
        ("The money did not go through.", False),
        ("I'm sorry, the transfer failed; nothing was sent.", False),
        ("Once it goes through you will get an e-mail.", False),
    ],
)
def test_a_success_claim_is_read_by_the_reply_fact_reading(reply: str, claims: bool) -> None:
    t = trace(user("Send 50 EUR to Bob"), call("transfer_money", "Request timed out", to="Bob"), say(reply))
    found = {f.rule for f in check_recovery(t, Environment(), CTX).findings}
    assert ("recovery.reported_success_after_error" in found) is claims


# --- 4. asking again for the same slot -------------------------------------------------------------------------


def test_asking_again_for_the_order_number_the_user_gave_fails() -> None:
    t = trace(user("My order number is 12345, where is it?"), say("What is your order number?"))
    assert rules(check_necessity(t, Environment(), CTX)) == [("s2", "necessity.asked_again")]


@pytest.mark.parametrize(
    "reply",
    ["Would you like the restaurant's phone number?", "Their phone number is 415-555-0100.",
     "Would you like their phone number?", "Your order number is 12345; it ships today."],
)  # fmt: skip
def test_naming_a_phone_or_sharing_a_word_is_not_asking_again(reply: str) -> None:
    t = trace(user("My order number is 12345 and my phone is 415-555-2671"), say(reply))
    assert check_necessity(t, Environment(), CTX).passed is True


# --- catalogs ---------------------------------------------------------------------------------------------------


def test_a_read_only_catalog_tool_does_not_support_a_booking_claim() -> None:
    tools = ToolCatalog((ToolDefinition("GetRide", read_only=False), ToolDefinition("FindRide", read_only=True)))
    booked = trace(user("A cab please"), call("GetRide", [{"ride_fare": "45.70"}], destination="Octavia"),
                   say("Your cab has been booked."))  # fmt: skip
    assert check_result_use(booked, Environment(tools=tools), CTX).passed is True
    looked = trace(user("A cab please"), call("FindRide", [{"ride_fare": "45.70"}], destination="Octavia"),
                   say("Your ride has been booked."))  # fmt: skip
    tools_with_book = ToolCatalog((*tools.definitions, ToolDefinition("BookRide")))
    verdict = check_result_use(looked, Environment(tools=tools_with_book), CTX)
    assert rules(verdict) == [("s3", "result_use.unsupported_outcome")]


def test_a_success_in_a_later_task_does_not_excuse_an_earlier_claim() -> None:
    steps = [
        user("Pay Mary $50"),
        call("MakePayment", {"error": "not found"}, receiver="Mary", amount="50"),
        say("It has been made and will reflect shortly"),
        user("Now pay Bob $20"),
        call("MakePayment", [{"receiver": "Bob", "amount": "20"}], receiver="Bob", amount="20"),
        say("Your payment to Bob went through."),
    ]
    assert rules(check_recovery(trace(*steps), Environment(), CTX)) == [("s3", "recovery.reported_success_after_error")]
    retried = [steps[0], steps[1], steps[4], say("It has been made and will reflect shortly")]
    assert check_recovery(trace(*retried), Environment(), CTX).passed is True


@pytest.mark.parametrize(
    ("reply", "claims"),
    [("The alarm has been added without any problems.", True), ("The payment processing has succeeded.", True),
     ("The alarm could not be added.", False)],
)  # fmt: skip
def test_success_said_another_way_is_a_claim(reply: str, claims: bool) -> None:
    t = trace(user("Add an alarm"), call("AddAlarm", "Request timed out", time="17:00"), say(reply))
    assert (check_recovery(t, Environment(), CTX).passed is False) is claims
