"""A numbered name a reply gives that no answer holds (``result_use.unsupported_value``, ``trace.checks.codes``):
``Hotel 99``, ``28 Hotel Sydney``, ``10th and Filbert``; a count beside a capitalised word is none. Each rule on
traces of both outcomes."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.consent_traces import call, say, user

CTX = TraceContext(ComparatorValues())
UNSUPPORTED_VALUE = "result_use.unsupported_value"


def judged(*steps: dict[str, Any]) -> list[tuple[str | None, str]]:
    t = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))
    return [(f.step_id, f.rule) for f in check_result_use(t, Environment(), CTX).findings]


HOTELS = [
    {"place_name": "1831 Boutique Hotel", "street_address": "631-635 George Street", "star_rating": "3"},
    {"place_name": "28 Hotel Sydney", "street_address": "28 Regent Street", "star_rating": "4"},
    {"place_name": "Adina Apartment Hotel", "street_address": "55 Shelley Street", "star_rating": "4"},
]
CARS = [
    {"car_name": "Audi A8", "pickup_location": "Anaheim Intermodal Center"},
    {"car_name": "Mazda CX-5", "pickup_location": "John Wayne Airport"},
]
BUS = {"from_station": "Pacific Central Station", "to_station": "SW Arthur & 1st", "departure_time": "07:10"}


def test_a_name_with_a_number_no_answer_holds_is_unsupported() -> None:
    search = (user("A hotel in Sydney please."), call("SearchHotel", HOTELS, location="Sydney"))
    assert judged(*search, say("There's a 3 star hotel called 1831 Boutique Hotel you might like.")) == []
    assert judged(*search, say("I found 3 hotels. 28 Hotel Sydney has 4 stars.")) == []
    # the name leads with its number, or ends with it; a question offers it as much as a statement does
    wrong = judged(*search, say("There's a 3 star hotel called 12 Apostles Hotel & Spa you might like."))
    assert wrong == [("s3", UNSUPPORTED_VALUE)]
    assert judged(*search, say("How about Hyatt At Olive 8? It's a 3 star hotel.")) == [("s3", UNSUPPORTED_VALUE)]


def test_a_car_or_a_station_by_a_name_no_answer_holds_is_unsupported() -> None:
    cars = (user("A sedan in Anaheim."), call("GetCarsAvailable", CARS, city="Anaheim"))
    assert judged(*cars, say("I found 2 cars. There's a nice Audi A8 at Anaheim Intermodal Center.")) == []
    assert judged(*cars, say("I found 2 cars. There's a nice Peugeot 208 at Anaheim Intermodal Center.")) == [
        ("s3", UNSUPPORTED_VALUE)
    ]
    bus = (user("Which station does it leave from?"), call("BuyBusTicket", BUS, from_city="Vancouver"))
    assert judged(*bus, say("Your ticket is booked and the station is SW Arthur & 1st.")) == []
    assert judged(*bus, say("Your ticket is booked and the station is 10th and Filbert.")) == [
        ("s3", UNSUPPORTED_VALUE)
    ]


def test_a_count_beside_a_capitalised_word_is_no_name() -> None:
    # "3" is the list's length, "1" the number the user asked for: counts, not names
    search = (user("Therapists in Gilroy"), call("FindProvider", HOTELS, city="Gilroy"))
    assert judged(*search, say("I found 3 Psychologist offices in Gilroy.")) == []
    ticket = (user("1 ticket please"), call("FindTrains", [{"train": "Pacific Surfliner"}], city="Anaheim"))
    assert judged(*ticket, say("You wish to purchase 1 Value ticket for this trip, correct?")) == []
    # a sentence's first word is capitalised for the sentence ("Got 10 results"), a date is a date ("March 10th")
    assert judged(*search, say("Got 10 results. The first is on March 10th.")) == []
    # a number nobody stated, beside a capitalised word with nothing after: a name
    assert judged(*search, say("I found Lotus 5 in Gilroy.")) == [("s3", UNSUPPORTED_VALUE)]


def test_a_count_by_its_plural_or_a_unit_letter_is_no_name() -> None:
    inbox = (user("Anything new?"), call("SearchMessages", {"messages": [{"id": "m1"}, {"id": "m2"}, {"id": "m3"}]}))
    assert judged(*inbox, say("You have 2 Unread messages from Hugo.")) == []
    assert judged(*inbox, say("Tomorrow you have 4 Meetings.")) == []
    assert judged(*inbox, say("It will be 75 F in New York.")) == []
    # a plural inside a name that goes on is the name's (12 Apostles Hotel), and the finding quotes the whole name
    wrong = judged(*inbox, say("You could stay at the 12 Apostles Hotel & Spa."))
    assert wrong == [("s3", UNSUPPORTED_VALUE)]


PROFILE = {"payment_methods": [{"id": "PM-77", "brand": "mastercard", "last4": "5102"}]}
VEHICLES = {"results": [{"vehicle_id": "VH-88120", "model": "Toyota RAV4 or similar", "daily_rate": 71.0}]}


def test_a_name_composed_of_words_a_tool_gave_apart_is_no_invented_name() -> None:
    # fresh v4 (tuning half): a card named by its brand and last four, a class named by its model, were findings
    card = (user("Order my usual, on the usual card."), call("get_customer_profile", PROFILE, customer_id="CU-1"))
    assert judged(*card, say("That goes on your Mastercard 5102. Place it?")) == []
    assert judged(*card, say("That goes on your Mastercard 5120. Place it?")) == [("s3", UNSUPPORTED_VALUE)]
    assert judged(*card, say("That goes on your Visa 5102. Place it?")) == [("s3", UNSUPPORTED_VALUE)]
    cars = (user("An SUV out of LAX."), call("search_vehicles", VEHICLES, location="LAX"))
    assert judged(*cars, say("I have a RAV4-class SUV at $71/day. Book it?")) == []
    assert judged(*cars, say("I have a RAV5-class SUV at $71/day. Book it?")) == [("s3", UNSUPPORTED_VALUE)]
