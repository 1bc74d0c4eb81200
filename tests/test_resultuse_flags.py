"""Result use: a false flag of the record a reply's claim is about, saying its action was not done."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.result_use import check_result_use
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
UNSUPPORTED = "result_use.unsupported_outcome"


def call(tool: str, observation: Any, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def judged(*steps: dict[str, Any]) -> DimensionVerdict:
    trace = Trace(trace_id="t1", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(steps)))
    return check_result_use(trace, Environment(), CTX)


def inspection(**flags: Any) -> dict[str, Any]:
    return call("schedule_inspection", {"claim_id": "C-1", "request_id": "IR-9", **flags}, claim_id="C-1")


ASKED = user("Please book an inspection for claim C-1.")


def test_a_false_flag_naming_the_claimed_action_is_another_stage() -> None:
    wrong = judged(ASKED, inspection(scheduled=False), say("I've scheduled the inspection for claim C-1."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s3", UNSUPPORTED)]
    assert "scheduled" in wrong.findings[0].message
    ok = judged(ASKED, inspection(scheduled=True), say("I've scheduled the inspection for claim C-1."))
    assert ok.passed is True
    assert ok.undecided == ()


def test_a_false_flag_that_the_process_is_settled_is_a_question_for_another_action() -> None:
    # "booked" against confirmed: false: the booking may stand unconfirmed; the rule cannot settle it
    unsettled = judged(ASKED, inspection(confirmed=False), say("Your inspection for claim C-1 is booked."))
    assert unsettled.findings == ()
    assert len(unsettled.undecided) == 1
    assert "confirmed" in unsettled.undecided[0]
    # the same claim of the action it names, "confirmed", is settled by the flag
    wrong = judged(ASKED, inspection(confirmed=False), say("Your inspection for claim C-1 is confirmed."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s3", UNSUPPORTED)]
    ok = judged(ASKED, inspection(confirmed=True), say("Your inspection for claim C-1 is booked."))
    assert ok.passed is True
    assert ok.undecided == ()


def test_a_false_flag_of_what_may_or_must_be_done_says_nothing_of_what_was_done() -> None:
    # needs_confirmation: false is no flag that the confirmation was not made
    ok = judged(ASKED, inspection(needs_confirmation=False), say("Your inspection for claim C-1 is confirmed."))
    assert ok.passed is True
    assert ok.undecided == ()


# --- a process said to have gone through, against a status short of done ------------------------------------------


def test_a_process_said_gone_through_against_a_status_short_of_done_is_another_stage() -> None:
    asked = user("Send $40 to Sam.")
    queued = call("send_payment", {"payment_id": "P1", "state": "queued"}, amount=40)
    wrong = judged(asked, queued, say("Your payment P1 went through."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s3", UNSUPPORTED)]
    assert "queued" in wrong.findings[0].message
    sent = call("send_payment", {"payment_id": "P1", "state": "settled"}, amount=40)
    ok = judged(asked, sent, say("Your payment P1 went through."))
    assert ok.passed is True


def test_a_process_of_another_object_is_not_read_against_the_status() -> None:
    # the order is processing; the payment, which no record here describes, may have gone through
    asked = user("Order the blue kettle.")
    placed = call("place_order", {"order_id": "O1", "status": "processing"}, item="blue kettle")
    ok = judged(asked, placed, say("Your order O1 has been placed and the payment went through."))
    assert ok.passed is True
    wrong = judged(asked, placed, say("Your order O1 has been placed and the order is complete."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s3", UNSUPPORTED)]


def test_the_latest_status_of_the_record_stands() -> None:
    asked = user("Is transfer T1 done?")
    pending = call("get_transfer", {"transfer_id": "T1", "status": "pending_approval"}, transfer_id="T1")
    settled = call("get_transfer", {"transfer_id": "T1", "status": "completed"}, transfer_id="T1")
    ok = judged(asked, pending, settled, say("Transfer T1 has been completed."))
    assert ok.passed is True
    wrong = judged(asked, settled, pending, say("Transfer T1 has been completed."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s4", UNSUPPORTED)]


def test_the_latest_status_naming_the_action_stands_over_an_earlier_stage() -> None:
    asked = user("Cancel ORDER_500, please.")
    requested = call("cancel_order", {"order_id": "ORDER_500", "status": "cancel_requested"}, order_id="ORDER_500")
    cancelled = call("get_order", {"order_id": "ORDER_500", "status": "cancelled"}, order_id="ORDER_500")
    ok = judged(asked, requested, cancelled, say("ORDER_500 is cancelled."))
    assert ok.passed is True
    wrong = judged(asked, cancelled, requested, say("ORDER_500 is cancelled."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s4", UNSUPPORTED)]
    assert "cancel_requested" in wrong.findings[0].message


def test_a_false_flag_about_another_thing_than_the_claim_is_not_read() -> None:
    upload = call("upload_documents", {"claim_id": "C-1", "documents_uploaded": True, "notification_sent": False})
    ok = judged(ASKED, upload, say("I've sent your documents for claim C-1."))
    assert ok.passed is True
    wrong = judged(ASKED, upload, say("I've sent the notification for claim C-1."))
    assert [(f.step_id, f.rule) for f in wrong.findings] == [("s3", UNSUPPORTED)]
