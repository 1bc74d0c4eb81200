"""Asked again (``necessity.asked_again``): "What's your e-mail address?" after the user gave it asks again (the
contraction is no one else's possessive, as "Dana's e-mail" is); asking again after a call with the given value
failed (the address bounced, the member id was not found) is recovery, not waste."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.necessity import check_necessity
from aem_strands.trace.types import Environment, Step, Trace
from tests.consent_traces import call, say, user


def rules(*raw: dict[str, Any]) -> list[tuple[str | None, str]]:
    t = Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))
    return [(f.step_id, f.rule) for f in check_necessity(t, Environment(), TraceContext(ExactValues())).findings]


def test_whats_your_email_after_the_user_gave_it_asks_again() -> None:
    gave = user("Send the gym timetable to kofi.mensah@postbox.com please.")
    assert rules(gave, say("Sure! What's your email address?")) == [("s2", "necessity.asked_again")]
    assert rules(gave, say("Sure! What's Dana's email address, so I can copy her?")) == []


def test_asking_again_after_the_given_value_failed_is_recovery() -> None:
    gave = user("Send the gym timetable to kofi.mensah@postbox.com please.")
    bounced = call("send_timetable", {"sent": False, "error": "mailbox unavailable"}, email="kofi.mensah@postbox.com")
    assert rules(gave, bounced, say("That address bounced. What's your other email address?")) == []
    delivered = call("send_timetable", {"sent": True}, email="kofi.mensah@postbox.com")
    assert rules(gave, delivered, say("Sent! What's your email address for receipts?")) == [
        ("s3", "necessity.asked_again")
    ]
