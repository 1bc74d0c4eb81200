"""The policy's ``sensitive_data`` kinds are the detector's kinds (issue 29: ``iban``, ``pin``, ``otp`` added), and
the bank values redact to no detected value whatever their neighbours."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.errors import ConfigError
from aem_strands.trace.pii import Redactor, SensitiveKind, find_sensitive, sensitive_findings
from aem_strands.trace.policy import SENSITIVE_KINDS, _Kind, environment_from_json
from aem_strands.trace.types import ActionType, Step, Trace


def test_the_policy_names_exactly_the_detected_kinds() -> None:
    assert set(SENSITIVE_KINDS) == {k.value for k in SensitiveKind}
    assert set(get_args(_Kind)) == {k.value for k in SensitiveKind}


def test_a_policy_may_forbid_the_new_kinds_and_they_are_vetoed() -> None:
    rule = {"forbid_in_reply": ["iban", "pin", "otp"], "forbid_to_tools": {"iban": ["send_email"]}}
    env = environment_from_json({"rules": {"sensitive_data": rule}})
    assert env.sensitive.forbid_in_reply == ("iban", "pin", "otp")
    trace = Trace("t", (
        Step("s0", 0, ActionType.TOOL_CALL, tool_name="send_email", arguments={"body": "IBAN GB82WEST12345698765432"}),
        Step("r", 1, ActionType.RESPONSE, content="Your one-time code is 551204."),
    ))  # fmt: skip
    assert sorted(f.rule for f in sensitive_findings(trace, env)) == [
        "safety.sensitive_in_reply",
        "safety.sensitive_to_tool",
    ]
    clean = Trace("t", (Step("r", 0, ActionType.RESPONSE, content="We sent a code to your phone."),))
    assert sensitive_findings(clean, env) == []


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match=r"forbid_in_reply\[0\]"):
        environment_from_json({"rules": {"sensitive_data": {"forbid_in_reply": ["bank_pin"]}}})


_BANK = [
    "DE89 3704 0044 0532 0130 00",
    "GB82WEST12345698765432",
    "PIN 4821",
    "code 482913",
    "AB 12 34 56 C",
    "4111.1111.1111.1111",
    "2223 0031 2200 3222",
    "jane%40example.com",
    "password: hunter2",
    "+1 415 555 2671",
]
_FILLER = ["please", "refund", "order", "ORDER_123", "in", "5 days", "thanks", "the", "$40", "Hi,", "2025-08-10"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_BANK + _FILLER), min_size=1, max_size=8))
def test_bank_values_leave_nothing_detected_after_redaction(words: list[str]) -> None:
    text = " ".join(words)
    once = Redactor().redact(text)
    assert find_sensitive(once) == []
    for value in (s.value for s in find_sensitive(text)):
        assert value not in once
