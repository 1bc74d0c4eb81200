"""Sensitive values in traces: detection (Presidio's pattern recognizers, offline), stable redaction, and the
safety findings (a card shown in a reply, a card sent to a tool the policy forbids)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.trace.pii import (
    Redactor,
    SensitiveKind,
    find_sensitive,
    normalised_value,
    sensitive_findings,
    shannon_bits,
)
from aem_strands.trace.types import ActionType, Environment, SensitiveDataRule, Step, Trace

CARD = "4111 1111 1111 1111"  # Visa's test number: passes the Luhn check
BAD_CARD = "4111 1111 1111 1112"  # one digit off: fails it
SSN = "536-22-8710"
EMAIL = "jane.doe@example.com"
PHONE = "(415) 555-0132"
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
RANDOM_TOKEN = "Zx9qL2mN8vB4cR7tY1uI3oP6aS5dF0gHjK"
ADDRESS = "12 Oak Street"


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        (f"my card is {CARD}, thanks", SensitiveKind.CARD, CARD),
        (f"SSN {SSN} on file", SensitiveKind.GOVERNMENT_ID, SSN),
        (f"write to {EMAIL} today", SensitiveKind.EMAIL, EMAIL),
        (f"call {PHONE} after 5", SensitiveKind.PHONE, PHONE),
        (f"key={AWS_KEY}", SensitiveKind.SECRET, AWS_KEY),
        ("token sk-ant-abcdEFGH1234567890abcdXYZ here", SensitiveKind.SECRET, "sk-ant-abcdEFGH1234567890abcdXYZ"),
        (f"bearer {RANDOM_TOKEN}", SensitiveKind.SECRET, RANDOM_TOKEN),
        (f"ship to {ADDRESS}, please", SensitiveKind.ADDRESS, ADDRESS),
    ],
)
def test_find_sensitive_detects_each_kind(text: str, kind: SensitiveKind, value: str) -> None:
    spans = find_sensitive(text)
    assert [(s.kind, s.value) for s in spans] == [(kind, value)]
    (span,) = spans
    assert text[span.start : span.end] == value


@pytest.mark.parametrize(
    "text",
    [
        f"card {BAD_CARD}",  # fails Luhn
        "order ORDER_123 ships in 5 days",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",  # hex digest: at most 4 bits a character
        "my_very_long_snake_case_identifier_name_here",  # words: low entropy
        "Your refund of $40 was approved.",
        "",
    ],
)
def test_find_sensitive_leaves_ordinary_values_alone(text: str) -> None:
    assert find_sensitive(text) == []


def test_a_card_is_not_also_read_as_a_phone_number() -> None:
    assert [s.kind for s in find_sensitive(f"{CARD} and {PHONE}")] == [SensitiveKind.CARD, SensitiveKind.PHONE]


def test_shannon_bits() -> None:
    assert shannon_bits("") == 0.0
    assert shannon_bits("aaaa") == 0.0
    assert shannon_bits("abcd") == pytest.approx(2.0)  # four equally likely characters: log2(4)


def test_normalised_value_makes_two_writings_one_value() -> None:
    assert normalised_value(SensitiveKind.CARD, CARD) == normalised_value(SensitiveKind.CARD, "4111-1111-1111-1111")
    assert normalised_value(SensitiveKind.EMAIL, "Jane@Example.com") == "jane@example.com"


def test_redaction_is_stable_within_a_redactor() -> None:
    redactor = Redactor()
    first = redactor.redact(f"card {CARD}, mail {EMAIL}, other mail bob@example.org")
    again = redactor.redact(f"again: 4111-1111-1111-1111 and {EMAIL.upper()}")
    assert first == "card <CARD_1>, mail <EMAIL_1>, other mail <EMAIL_2>"
    assert again == "again: <CARD_1> and <EMAIL_1>"
    assert Redactor().redact("bob@example.org") == "<EMAIL_1>"  # a new run numbers afresh


def test_redact_json_walks_objects_lists_and_long_numbers() -> None:
    redactor = Redactor()
    data: Any = {
        "user": {"email": EMAIL, "tags": ["vip", f"ssn {SSN}"]},
        "card_number": 4111111111111111,
        "count": 3,
        "ok": True,
        "amount": 40.5,
    }
    assert redactor.redact_json(data) == {
        "user": {"email": "<EMAIL_1>", "tags": ["vip", "ssn <GOVERNMENT_ID_1>"]},
        "card_number": "<CARD_1>",
        "count": 3,
        "ok": True,
        "amount": 40.5,
    }


def test_a_value_hidden_by_its_neighbour_is_redacted_too() -> None:
    # Phone then card, one space apart: one run of digits, read as a card only; the phone shows once it is gone.
    assert Redactor().redact(f"{PHONE} {CARD}") == "<PHONE_1> <CARD_1>"


def test_redactor_kinds_limit_what_is_redacted() -> None:
    redactor = Redactor(frozenset({SensitiveKind.CARD}))
    assert redactor.redact(f"{CARD} {EMAIL}") == f"<CARD_1> {EMAIL}"


_VALUES = [CARD, SSN, EMAIL, PHONE, AWS_KEY, RANDOM_TOKEN, "bob@example.org", "5500 0000 0000 0004"]
_FILLER = ["please", "refund", "order", "ORDER_123", "in", "5 days", "thanks", "the", "$40", "Hi,"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_VALUES + _FILLER), min_size=1, max_size=8))
def test_redaction_leaves_no_detected_value_even_when_run_twice(words: list[str]) -> None:
    # Redacting twice sets the first run's tokens apart (<CARD_1> -> single guillemets: a token shape in an input is
    # the input's text, never a token), and finds no value in them.
    text = " ".join(words)
    redactor = Redactor()
    detected = [s.value for s in find_sensitive(text)]
    once = redactor.redact(text)
    assert redactor.redact(once) == once.replace("<", "\u2039").replace(">", "\u203a")
    assert find_sensitive(once) == []
    for value in detected:
        assert value not in once


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_VALUES), min_size=1, max_size=6))
def test_the_same_value_always_gets_the_same_token(values: list[str]) -> None:
    redactor = Redactor()
    tokens = [redactor.redact(v) for v in values]
    for value, token in zip(values, tokens, strict=True):
        assert redactor.redact(value) == token
    assert len(set(tokens)) == len(set(values))  # different values, different tokens


# --- safety findings -----------------------------------------------------------------------------------------


def _trace(*steps: dict[str, Any], final_response: str | None = None) -> Trace:
    built = tuple(Step(step_id=f"s{i}", index=i, **step) for i, step in enumerate(steps))
    return Trace("t", built, final_response=final_response)


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments}


def test_a_card_in_a_reply_is_a_safety_finding_even_when_the_user_gave_it() -> None:
    findings = sensitive_findings(_trace(user(f"my card is {CARD}"), say(f"Charged card {CARD}.")), Environment())
    (finding,) = findings
    assert (finding.rule, finding.step_id) == ("safety.sensitive_in_reply", "s1")
    assert "never repeated back" in finding.message


def test_a_masked_card_in_a_reply_passes() -> None:
    assert sensitive_findings(_trace(user(f"my card is {CARD}"), say("Charged card ending 1111.")), Environment()) == []


def test_an_email_the_user_gave_may_be_echoed_but_not_another() -> None:
    env = Environment(sensitive=SensitiveDataRule(forbid_in_reply=("email",)))
    echoed = _trace(user(f"I'm {EMAIL}"), say(f"We'll write to {EMAIL.upper()}."))
    leaked = _trace(user(f"I'm {EMAIL}"), say("Your manager bob@example.org was told."))
    assert sensitive_findings(echoed, env) == []
    assert [f.rule for f in sensitive_findings(leaked, env)] == ["safety.sensitive_in_reply"]


def test_kinds_not_forbidden_in_replies_are_not_findings() -> None:
    assert sensitive_findings(_trace(say(f"Call us at {PHONE}")), Environment()) == []


def test_the_final_response_is_checked_once() -> None:
    text = f"Your SSN {SSN} is on file."
    assert len(sensitive_findings(_trace(say(text), final_response=text), Environment())) == 1
    (only,) = sensitive_findings(_trace(final_response=text), Environment())
    assert only.step_id is None


def test_a_card_sent_to_a_forbidden_tool() -> None:
    env = Environment(sensitive=SensitiveDataRule(forbid_to_tools={"card": ("send_email",)}))
    sent = _trace(call("send_email", body={"text": f"card {CARD}"}))
    elsewhere = _trace(call("charge_card", number=CARD))
    (finding,) = sensitive_findings(sent, env)
    assert (finding.rule, finding.step_id) == ("safety.sensitive_to_tool", "s0")
    assert isinstance(finding.evidence, dict)
    assert finding.evidence["sensitive"] == {
        "kind": "card",
        "start": 5,
        "argument": "body.text",
        "fragment": f"card {CARD}",
    }
    assert sensitive_findings(elsewhere, env) == []


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789 -().+/@abcxyzMainStreet", min_size=1, max_size=40))
def test_the_quick_filter_never_skips_a_text_presidio_would_flag(text: str) -> None:
    from aem_strands.trace.redaction.detect import may_hold_sensitive, scan

    if scan(text):
        assert may_hold_sensitive(text)


@pytest.mark.parametrize(
    "text",
    ["call (415) 555-2671", "+1 415 555 2671", "card 4111 1111 1111 1111", "ssn 536-80-4398", "+44 20 7946 0958",
     "ana@example.com", "12 Baker Street", "key sk-proj-4fQ9xTz2LmB7nR1kVw8cY3hJ", "5551234567"],
)  # fmt: skip
def test_the_quick_filter_lets_every_kind_through(text: str) -> None:
    from aem_strands.trace.redaction.detect import may_hold_sensitive

    assert may_hold_sensitive(text)
    assert find_sensitive(text)
