"""Result use on the shapes real runs have (issue 28, "Result use" and the failed-call shapes of "Soundness"):
a contradiction is about the same object, an outcome is read against the write that answered it, a claim is read
clause by clause. Each rule on traces of both outcomes."""

from __future__ import annotations

from typing import Any

from aem_strands.tools import ToolCatalog, ToolDefinition
from aem_strands.trace.checks.claims import success_claims
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.failures import failure
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import ActionType, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
CONTRADICTS = "result_use.contradicts_observation"
UNSUPPORTED = "result_use.unsupported_outcome"


def call(tool: str, observation: Any = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def trace(*steps: dict[str, Any]) -> Trace:
    return Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))


def rules(verdict: Any) -> list[tuple[str | None, str]]:
    return [(f.step_id, f.rule) for f in verdict.findings]


def judged(t: Trace, env: Environment | None = None) -> list[tuple[str | None, str]]:
    return rules(check_result_use(t, env or Environment(), CTX))


FLIGHTS = [
    {"airlines": "Delta Airlines", "outbound_departure_time": "04:35", "price": "230"},
    {"airlines": "United Airlines", "outbound_departure_time": "09:50", "price": "230"},
]


# --- the same object ---------------------------------------------------------------------------------------------


def test_a_time_of_another_flight_the_reply_names_is_no_contradiction() -> None:
    # the second search answers Delta only; the reply names United, whose time the first search gave
    ok = trace(user("Flights to Vancouver?"), call("SearchFlight", FLIGHTS), user("Economy for four."),
               call("SearchFlight", FLIGHTS[:1]),
               say("A connecting flight with United Airlines at 9:50 am."))  # fmt: skip
    assert judged(ok) == []
    # no flight named, and 9:50 is no time of the only flight the answer holds: a contradiction
    wrong = trace(user("Flights to Vancouver?"), call("SearchFlight", FLIGHTS[:1]),
                  say("There is a connecting flight at 9:50 am for $230."))  # fmt: skip
    assert judged(wrong) == [("s3", CONTRADICTS)]


def test_a_second_amount_beside_the_records_own_is_another_quantity() -> None:
    flight = {"flights": [{"flight": "AA 211", "depart": "07:00", "price": 189.0}]}
    ok = trace(user("Book AA 211"), call("search_flights", flight),
               say("AA 211 is $189. Would you like to add travel insurance for $24?"))  # fmt: skip
    assert judged(ok) == []
    wrong = trace(user("Book AA 211"), call("search_flights", flight), say("AA 211 is $198, leaving at 7 am."))
    assert judged(wrong) == [("s3", CONTRADICTS)]


def test_each_order_a_reply_names_is_read_against_its_own_lookup() -> None:
    lookups = (
        call("lookup_order", {"order_id": "W2291", "status": "processing"}, order_id="W2291"),
        call("lookup_order", {"order_id": "W2219", "status": "shipped", "eta": "2025-03-08"}, order_id="W2219"),
        call("lookup_order", {"order_id": "W3310", "status": "delivered", "delivered_on": "2025-03-02"},
             order_id="W3310"),
    )  # fmt: skip
    asked = user("Where are W2291, W2219 and W3310?")
    ok = trace(asked, *lookups, say("W2219 has shipped and should arrive March 8; W3310 was delivered on March 2."))
    assert judged(ok) == []
    wrong = trace(asked, *lookups, say("W2219 should arrive March 8; W3310 was delivered on March 5."))
    assert judged(wrong) == [("s5", CONTRADICTS)]


def test_a_bare_number_of_the_record_agrees_with_the_same_amount_in_money() -> None:
    applied = {"status": "applied", "discount": 6.0, "new_total": 53.99}
    ok = trace(user("Apply SPRING10"), call("apply_coupon", applied, code="SPRING10"),
               say("SPRING10 is applied: $6.00 off, new total $53.99."))  # fmt: skip
    assert judged(ok) == []
    wrong = trace(user("Apply SPRING10"), call("apply_coupon", applied, code="SPRING10"),
                  say("SPRING10 is applied: your new total is $59.99."))  # fmt: skip
    assert judged(wrong) == [("s3", CONTRADICTS)]


def test_a_price_per_day_is_money_not_a_number_of_days() -> None:
    car = [{"car_name": "Buick Regal", "pickup_time": "14:00", "price_per_day": "34.00"}]
    wrong = trace(
        user("Book it"), call("ReserveCar", car), say("I have made the reservation. The cost is $57.00 per day.")
    )
    assert judged(wrong) == [("s3", CONTRADICTS)]
    ok = trace(
        user("Book it"), call("ReserveCar", car), say("I have made the reservation. The cost is $34.00 per day.")
    )
    assert judged(ok) == []


def test_a_phone_or_an_address_repeated_otherwise_contradicts_and_a_new_one_written_does_not() -> None:
    hotel = [{"place_name": "Ace Hotel", "phone_number": "+1 206-448-4721", "street_address": "2423 1st Avenue"}]
    wrong = trace(user("Book the Ace"), call("ReserveHotel", hotel),
                  say("Booked. You can call them on +1 416-350-2000; the address is 2423 1st Avenue."))  # fmt: skip
    assert judged(wrong) == [("s3", CONTRADICTS)]
    wrong_address = trace(
        user("Book the Ace"), call("ReserveHotel", hotel), say("Booked. The address is 1030 2nd Street.")
    )
    assert judged(wrong_address) == [("s3", CONTRADICTS)]
    ok = trace(user("Book the Ace"), call("ReserveHotel", hotel),
               say("Booked. You can call them on +1 206-448-4721 at 2423 1st Avenue."))  # fmt: skip
    assert judged(ok) == []
    contact = {"reservation_id": "R1", "contact_phone": "+1 415 555 0111"}
    written = trace(user("Texts should go to +1 415 555 0199"), call("get_reservation", contact),
                    call("update_contact", {"status": "updated"}, phone="+1 415 555 0199"),
                    say("Texts now go to +1 415 555 0199."))  # fmt: skip
    assert judged(written) == []


BUSES = [
    {"departure_time": "07:00", "price": "28"},
    {"departure_time": "11:20", "price": "30"},
    {"departure_time": "11:50", "price": "28"},
]


def test_a_time_no_bus_at_that_price_leaves_at_contradicts_the_list() -> None:
    # the $28 buses leave at 7 and 11:50, no bus of the list leaves at 8: "8 am ... $28" is said of none of them
    wrong = trace(
        user("Buses to Seattle?"), call("FindBus", BUSES), say("I have 3 buses for you departing 8 am costing $28.")
    )
    assert judged(wrong) == [("s3", CONTRADICTS)]
    ok = trace(
        user("Buses to Seattle?"), call("FindBus", BUSES), say("I have 3 buses for you departing 7 am costing $28.")
    )
    assert judged(ok) == []
    # a bus of the list does leave at 11:20 (for $30): which bus the reply means is not settled, no finding
    other = trace(user("Buses to Seattle?"), call("FindBus", BUSES), say("There is one departing 11:20 am for $28."))
    assert judged(other) == []


def test_a_day_of_the_month_the_user_said_does_not_vouch_for_a_clock_time() -> None:
    flight = [{"airlines": "American Airlines", "outbound_departure_time": "12:05", "price": "226"}]
    wrong = trace(user("Look on the 8th please."), call("SearchFlight", flight),
                  say("American Airlines has a connecting flight leaving at 8 pm for $226."))  # fmt: skip
    assert judged(wrong) == [("s3", CONTRADICTS)]
    ok = trace(user("Look on the 8th, leaving at 8 pm please."), call("SearchFlight", flight),
               say("American Airlines has a connecting flight leaving at 8 pm for $226."))  # fmt: skip
    assert judged(ok) == []


# --- outcomes ------------------------------------------------------------------------------------------------------

AIRLINE = Environment(
    tools=ToolCatalog(
        (
            ToolDefinition("get_reservation", read_only=True),
            ToolDefinition("cancel_reservation", read_only=False, destructive=True),
            ToolDefinition("assign_seat", read_only=False),
        )
    )
)
RESERVATION = {"confirmation_code": "ZK4PQ1", "flight": "UA 880", "date": "2025-03-13"}


def test_a_write_that_answered_another_stage_is_read_for_the_code_the_reply_names() -> None:
    # the write's answer has no code of its own: it is the answer about the code the call was made for
    requested = {"status": "cancel_requested", "note": "partner carrier segment"}
    steps = (user("Cancel ZK4PQ1"), call("get_reservation", RESERVATION, confirmation_code="ZK4PQ1"))
    wrong = trace(*steps, call("cancel_reservation", requested, confirmation_code="ZK4PQ1"),
                  say("Your reservation ZK4PQ1 is cancelled."))  # fmt: skip
    assert judged(wrong, AIRLINE) == [("s4", UNSUPPORTED)]
    ok = trace(*steps, call("cancel_reservation", {"status": "cancelled"}, confirmation_code="ZK4PQ1"),
               say("Your reservation ZK4PQ1 is cancelled."))  # fmt: skip
    assert judged(ok, AIRLINE) == []


def test_done_in_a_sentence_naming_a_write_no_call_made_is_an_unsupported_outcome() -> None:
    steps = (user("Put me in seat 14C on ZK4PQ1"), call("get_reservation", RESERVATION, confirmation_code="ZK4PQ1"))
    wrong = trace(*steps, say("Done \u2014 you're now in seat 14C on UA 880."))
    assert judged(wrong, AIRLINE) == [("s3", UNSUPPORTED)]
    ok = trace(*steps, call("assign_seat", {"status": "assigned", "seat": "14C"}, seat="14C"),
               say("Done \u2014 you're now in seat 14C on UA 880."))  # fmt: skip
    assert judged(ok, AIRLINE) == []


def test_a_sentence_describing_what_a_read_returned_is_no_bare_report_of_success() -> None:
    alarms = Environment(
        tools=ToolCatalog((ToolDefinition("GetAlarms", read_only=True), ToolDefinition("AddAlarm", read_only=False)))
    )
    wake = [{"alarm_name": "Wake up", "alarm_time": "08:30"}]
    listed = trace(user("What alarms do I have?"), call("GetAlarms", wake),
                   say("There is an alarm named Wake up scheduled for 8:30 am."))  # fmt: skip
    assert judged(listed, alarms) == []
    claimed = trace(user("Set an alarm for 8:30"), call("GetAlarms", []), say("Done, your alarm is on for 8:30 am."))
    assert judged(claimed, alarms) == [("s3", UNSUPPORTED)]


def test_a_request_to_check_a_complement_is_no_claim() -> None:
    assert success_claims("Kindly ensure that, on March 1st, 4 tickets have been booked in the bus.") == ()
    assert [c.verbs for c in success_claims("4 tickets have been booked in the bus.")] == [("booked",)]


# --- a failed call and the claims after it -------------------------------------------------------------------------

NOT_CANCELLED = '{"ok": false, "error": "order already handed to carrier"}'


def test_ok_false_is_a_failed_call() -> None:
    assert failure(trace(call("cancel_order", {"ok": False})).steps[0]) == "ok: false"
    assert failure(trace(call("cancel_order", {"ok": True})).steps[0]) is None


def test_a_non_zero_exit_code_is_a_failed_call_and_a_claim_after_it_fails_recovery() -> None:
    ran = {"exit_code": 1, "stdout": "", "stderr": "rm: cannot remove 'build': Permission denied"}
    steps = (user("Delete the build folder"), call("run_shell", ran, command="rm -r build"))
    assert failure(trace(*steps).steps[1]) == "exit_code: 1"
    wrong = trace(*steps, say("Done, the build folder has been deleted."))
    assert rules(check_recovery(wrong, Environment(), CTX)) == [("s3", "recovery.reported_success_after_error")]
    ok = trace(user("List the folder"), call("run_shell", {"exit_code": 0, "stdout": "build"}, command="ls"),
               say("Done, the folder holds build."))  # fmt: skip
    assert failure(ok.steps[1]) is None
    assert check_recovery(ok, Environment(), CTX).findings == ()  # no call failed: not applicable


def test_a_claim_before_a_dash_is_read_apart_from_a_denial_after_it() -> None:
    steps = (user("Cancel W2291"), call("cancel_order", NOT_CANCELLED, order_id="W2291"))
    wrong = trace(*steps, say("W2291 is cancelled \u2014 you won't be charged."))
    assert rules(check_recovery(wrong, Environment(), CTX)) == [("s3", "recovery.reported_success_after_error")]
    # a denial governs the clauses after it: its reasons are no claims
    honest = trace(*steps, say("I couldn't cancel W2291 \u2014 it has already shipped. I can start a return instead."))
    assert check_recovery(honest, Environment(), CTX).passed is True


# --- a code no answer holds ----------------------------------------------------------------------------------------

HOTELS = [
    {"place_name": "1 Hotel Brooklyn Bridge", "star_rating": "5", "phone_number": "+1 347-696-2500"},
    {"place_name": "Arlo NoMad", "star_rating": "4", "phone_number": "+1 212-806-7000"},
]


def test_a_code_no_answer_user_or_call_gave_is_an_unsupported_value() -> None:
    steps = (user("Hotels in New York?"), call("SearchHotel", HOTELS, location="New York"))
    wrong = trace(*steps, say("I found 2 hotels. Clink261 is a 5 star hotel."))
    assert judged(wrong) == [("s3", "result_use.unsupported_value")]
    ok = trace(*steps, say("I found 2 hotels. 1 Hotel Brooklyn Bridge is a 5 star hotel."))
    assert judged(ok) == []
    # a code the user gave, or one asked about in a question, is none
    asked = trace(user("Is the Clink261 hostel there?"), steps[1], say("Clink261 is not among the 2 hotels I found."))
    assert judged(asked) == []
    question = trace(*steps, say("I found 2 hotels. Do you want a 3D tour of one?"))
    assert judged(question) == []


def test_a_street_address_with_no_street_type_is_read_by_the_key_that_holds_it() -> None:
    restaurant = [{"restaurant_name": "Sichuan Home", "address": "1433 Taraval", "phone_number": "415-555-0100"}]
    wrong = trace(user("Book Sichuan Home"), call("ReserveRestaurant", restaurant),
                  say("Booked. The location is 776 Arguello Boulevard."))  # fmt: skip
    assert judged(wrong) == [("s3", CONTRADICTS)]
    ok = trace(user("Book Sichuan Home"), call("ReserveRestaurant", restaurant),
               say("Booked. The location is 1433 Taraval Street."))  # fmt: skip
    assert judged(ok) == []


def test_an_offer_after_a_failure_is_read_against_the_tools_counter_offer_only() -> None:
    # the tool answered 11:30 for the 11:00 asked: its counter-offer; offering another time contradicts it
    asked = user("A table for 3 at La Briciola at 11 am, please.")
    offered = call("ReserveRestaurant", [{"restaurant_name": "La Briciola", "time": "11:30"}],
                   restaurant_name="La Briciola", time="11:00")  # fmt: skip
    failed = "Sorry, I was unable to reserve the time you selected."
    wrong = trace(asked, offered, say(f"{failed} Would you like a table for 3 at La Briciola at 4:30 pm?"))
    assert judged(wrong) == [("s3", CONTRADICTS)]
    ok = trace(asked, offered, say(f"{failed} Would you like a table for 3 at La Briciola at 11:30 am?"))
    assert judged(ok) == []
    # the tool answered the time asked for (the slot that is taken): the agent may propose any other
    taken = call("ReserveRestaurant", [{"restaurant_name": "La Briciola", "time": "11:00"}],
                 restaurant_name="La Briciola", time="11:00")  # fmt: skip
    free = trace(asked, taken, say(f"{failed} Would you like a table for 3 at La Briciola at 4:30 pm?"))
    assert judged(free) == []


def test_a_total_of_the_records_amount_and_an_amount_the_user_or_a_call_gave_is_computed() -> None:
    placed = {"order_id": "F-8", "subtotal": 22.25, "status": "placed"}
    for asked, arguments in (
        (user("The usual to my office, tip 2 dollars."), {}),  # the user's amount
        (user("The usual to my office."), {"tip": 2}),  # a call's argument
    ):
        order = call("place_order", placed, address_id="AD-2", **arguments)
        # $24.25 = $22.25 + $2
        assert judged(trace(asked, order, say("Your order F-8 is placed; the total is $24.25."))) == []
        # $25.25 is no sum of them: still a contradiction
        wrong = trace(asked, order, say("Your order F-8 is placed; the total is $25.25."))
        assert judged(wrong) == [("s3", CONTRADICTS)]


def test_a_value_of_the_answer_just_before_vouches_for_itself_though_the_sentence_names_an_earlier_item() -> None:
    menu = call("get_menu", {"restaurant_id": "RS-311", "items": [{"item_id": "TB-21", "name": "Green Curry",
                "price": 15.5}]}, restaurant_id="RS-311")  # fmt: skip
    cart = call("add_to_cart", {"cart_id": "CT-5640", "subtotal": 15.5, "delivery_fee": 2.99, "tax": 1.43,
                "total_before_tip": 22.25}, item_id="TB-21", quantity=1)  # fmt: skip
    steps = (user("The green curry from Thai Basil."), menu, say("Which protein for the Green Curry?"), user("chicken"))
    # the cart (the answer just before) holds $22.25; the sentence names the menu's item
    ok = trace(*steps, cart, say("Chicken Green Curry to your office: $22.25 before tip. Should I place it?"))
    assert judged(ok) == []
    wrong = trace(*steps, cart, say("Chicken Green Curry to your office: $23.25 before tip. Should I place it?"))
    assert judged(wrong) == [("s6", CONTRADICTS)]


def test_the_total_of_a_lists_items_is_computed_and_rounds_when_hedged() -> None:
    fees = [{"name": "airport concession", "amount": 23.43}, {"name": "licence fee", "amount": 6.9},
            {"name": "sales tax", "amount": 20.77}]  # fmt: skip
    quote = call("get_quote", {"quote_id": "QT-55", "base": 213.0, "taxes_fees": fees, "total": 264.1},
                 vehicle_id="VH-88120")  # fmt: skip
    asked = user("The RAV4 is fine.")

    def reply(amount: str) -> str:
        return f"The RAV4 comes to $264.10 ($213 base plus {amount} in airport fees and tax). Want me to book it?"

    # 23.43 + 6.90 + 20.77 = 51.10: said exactly, or "about $51" (within $0.50 of it)
    assert judged(trace(asked, quote, say(reply("$51.10")))) == []
    assert judged(trace(asked, quote, say(reply("about $51")))) == []
    # unhedged, $51 is no rounding; and about $58 is no total of them
    assert judged(trace(asked, quote, say(reply("$51")))) == [("s3", CONTRADICTS)]
    assert judged(trace(asked, quote, say(reply("about $58")))) == [("s3", CONTRADICTS)]


def test_cancellable_false_against_a_reply_that_it_can_be_cancelled() -> None:
    def status(cancellable: bool) -> dict[str, Any]:
        return call("get_order_status", {"order_id": "FD-9", "status": "picked_up", "cancellable": cancellable},
                    order_id="FD-9")  # fmt: skip

    asked = user("Is it too late to cancel FD-9?")
    free = say("Good timing! The restaurant hasn't started on it, so you can still cancel for free.")
    late = say("Sorry, it was picked up at 19:10, so it can't be cancelled any more.")
    assert judged(trace(asked, status(False), free)) == [("s3", CONTRADICTS)]
    assert judged(trace(asked, status(False), late)) == []
    assert judged(trace(asked, status(True), free)) == []
    assert judged(trace(asked, status(True), late)) == [("s3", CONTRADICTS)]
    # the agent's own inability is no statement about the order
    assert judged(trace(asked, status(True), say("I can't cancel it without your go-ahead."))) == []
