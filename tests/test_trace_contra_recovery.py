"""An error hidden behind a reply that goes on as if the write went through (``recovery.error_not_reported``): the
reply right after a failed write that says nothing of the failure and is followed by no retry. Each rule on traces
of both outcomes."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.types import Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues
from tests.consent_traces import call, say, user

CTX = TraceContext(ComparatorValues())
SILENT = "recovery.error_not_reported"
REPORTED = "recovery.reported_success_after_error"
TIMED_OUT = "Request timed out after 30 s"


def recovery(*steps: dict[str, Any]) -> list[tuple[str | None, str]]:
    t = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))
    return [(f.step_id, f.rule) for f in check_recovery(t, Environment(), CTX).findings]


ASK = user("Yes, buy them. How much are they and where is the venue?")
BUY = call("BuyEventTickets", {"success": False, "message": "could not complete the request"}, event_name="Fidlar")


def test_a_reply_that_goes_on_after_a_failed_write_hides_the_error() -> None:
    assert recovery(ASK, BUY, say("The tickets are $25 and the venue is at 2891 University Avenue.")) == [
        ("s3", SILENT)
    ]
    # the same reply after the purchase went through: nothing to tell
    bought = call("BuyEventTickets", {"venue_address": "2891 University Avenue", "price": "25"}, event_name="Fidlar")
    assert recovery(ASK, bought, say("The tickets are $25 and the venue is at 2891 University Avenue.")) == []


def test_a_reply_that_tells_of_the_failure_or_retries_is_no_silence() -> None:
    assert recovery(ASK, BUY, say("Sorry, I couldn't complete the purchase.")) == []  # denies
    assert recovery(ASK, BUY, say("Something is off with the ticket service; shall I try again?")) == []
    assert recovery(ASK, BUY, say("The ticket service had a glitch, so nothing was charged.")) == []
    retried = call("BuyEventTickets", {"price": "25"}, event_name="Fidlar")
    assert recovery(ASK, call("BuyEventTickets", TIMED_OUT), say("One moment, please."), retried) == []
    # a failed read is no write: the next reply may go on with what it had (a read's failure is another rule's)
    assert recovery(ASK, call("FindEvents", TIMED_OUT, city="SF"), say("Fidlar plays on March 12th.")) == []


def test_a_success_claim_is_told_once_as_a_claim() -> None:
    assert recovery(ASK, BUY, say("Your tickets have been booked.")) == [("s3", REPORTED)]


def test_a_promise_or_a_check_with_no_word_of_the_failure_is_silence_and_another_way_is_none() -> None:
    refund = (user("Refund order 7"), call("issue_refund", {"error": "Service unavailable"}, order_id="7"))
    assert recovery(*refund, say("Once it goes through you will get an e-mail.")) == [("s3", SILENT)]
    assert recovery(*refund, say("Let me confirm whether your refund has been issued.")) == [("s3", SILENT)]
    # the check it announces follows: no silence
    status = call("get_refund_status", {"status": "none"}, order_id="7")
    assert recovery(*refund, say("Let me confirm whether your refund has been issued."), status) == []
    # another way offered (a degrade)
    assert recovery(*refund, say("I can offer store credit instead.")) == []
