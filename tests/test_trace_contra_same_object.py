"""A contradiction is about the same object (issue 28, "Result use"): a record that writes its clock on 12 hours
(an interval that runs backwards on 24) is read so, a time beside the record's own times is another quantity, and
a fact is cited against the record its clause names. Each rule on traces of both outcomes."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import Environment, Finding, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.consent_traces import call, say, user

CTX = TraceContext(ComparatorValues())
CONTRADICTS = "result_use.contradicts_observation"


def findings(*steps: dict[str, Any]) -> list[Finding]:
    t = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))
    return list(check_result_use(t, Environment(), CTX).findings)


def event(name: str, start: str, end: str) -> dict[str, Any]:
    return {"name": name, "start_time": f"2023-09-11 {start}:00", "end_time": f"2023-09-11 {end}:00"}


def test_an_interval_that_runs_backwards_is_a_twelve_hour_clock() -> None:
    # lunch from 12:00 to 01:00 on one date: one o'clock in the afternoon, written on 12 hours
    backwards = {"events": [event("Lunch", "12:00", "01:00"), event("Design Review", "15:15", "16:40")]}
    ask = user("When is my next free slot after lunch?")
    ok = findings(ask, call("QueryCalendar", backwards), say('After "Lunch" from 12 to 1 pm, you are free at 4:40 pm.'))
    assert ok == []
    # the same record on 24 hours (13:00): "2 pm" is no time it holds
    forwards = {"events": [event("Lunch", "12:00", "13:00"), event("Design Review", "15:15", "16:40")]}
    wrong = findings(ask, call("QueryCalendar", forwards), say('"Lunch" runs until 2 pm.'))
    assert [(f.step_id, f.rule) for f in wrong] == [("s3", CONTRADICTS)]


def test_a_time_is_cited_against_the_record_its_clause_names() -> None:
    meetings = {
        "events": [
            event("Hugo-Alice", "10:00", "10:30"),
            event("Bob-Hugo", "14:00", "15:00"),
            event("Tracy-Hugo", "11:00", "11:30"),
        ]
    }
    ask = user("Any meetings today?")
    ok = findings(ask, call("QueryCalendar", meetings), say("You meet Alice at 10 am and Bob at 2 pm."))
    assert ok == []
    wrong = findings(ask, call("QueryCalendar", meetings), say("You meet Alice at 10 am, and Bob at 1 pm."))
    assert [(f.step_id, f.rule) for f in wrong] == [("s3", CONTRADICTS)]
    assert "events[1].start_time" in wrong[0].message  # Bob-Hugo's, not Hugo-Alice's


def test_an_amount_said_about_is_a_rounding_of_the_record_s() -> None:
    bill = {"account_id": "EA-1", "bill_amount": "43.85", "currency": "GBP", "due": "2026-04-20"}
    ask = user("How much is my bill?")
    assert findings(ask, call("get_bill", bill), say("Your bill is about £44, due on 20 April.")) == []
    assert findings(ask, call("get_bill", bill), say("Your bill comes to roughly £40.")) == []  # £40 to the ten
    wrong = findings(ask, call("get_bill", bill), say("Your bill is about £48.50, due on 20 April."))
    assert [(f.step_id, f.rule) for f in wrong] == [("s3", CONTRADICTS)]
    # said exactly, a rounding is another amount
    exact = findings(ask, call("get_bill", bill), say("Your bill is £44, due on 20 April."))
    assert [(f.step_id, f.rule) for f in exact] == [("s3", CONTRADICTS)]


def test_a_difference_of_the_records_amounts_is_a_computed_amount() -> None:
    bill = {"total": 211.87, "previous_total": 168.02, "usage_kwh": 612}
    ask = user("Why is my March bill so high?")
    ok = findings(ask, call("get_bill", bill), say("Your March bill was £211.87 against £168.02, about £44 more."))
    assert ok == []
    exact = findings(ask, call("get_bill", bill), say("Your March bill was £211.87, £43.85 more than February."))
    assert exact == []
    # no amount of the record nor a sum or difference of two is near £60 (a reply that states each of the
    # record's amounts speaks of another quantity beside them: stated alone here)
    wrong = findings(ask, call("get_bill", bill), say("Your March bill is about £60 more than February's."))
    assert [(f.step_id, f.rule) for f in wrong] == [("s3", CONTRADICTS)]


def test_a_time_the_record_its_clause_names_holds_is_no_contradiction() -> None:
    meetings = {"events": [event("Hugo-Alice", "10:00", "10:30"), event("Bob-Hugo", "14:00", "15:00")]}
    ask = user("Any meetings today?")
    # "10 am" describes Hugo-Alice; Bob's clause names Bob-Hugo, which holds 3 pm (its end)
    ok = findings(ask, call("QueryCalendar", meetings), say("You meet Alice at 10 am, and Bob until 3 pm."))
    assert ok == []
    wrong = findings(ask, call("QueryCalendar", meetings), say("You meet Alice at 10 am, and Bob until 4 pm."))
    assert [(f.step_id, f.rule) for f in wrong] == [("s3", CONTRADICTS)]
