"""The fourth speed pass: the short cuts it takes give what the long way gave (no verdict moves)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.errors import InputError
from aem_strands.trace.grounding_index import ValueIndex, _last_key
from aem_strands.trace.load import parse_trace
from aem_strands.trace.pii import Redactor, sensitive_findings
from aem_strands.trace.redaction.secrets import may_hold_format
from aem_strands.trace.types import ActionType, Environment, SensitiveDataRule, Step, Trace

CARD = "4111 1111 1111 1111"
EMAIL = "jane.doe@example.com"


def _trace(*steps: tuple[ActionType, str], goal: str | None = None) -> Trace:
    built = tuple(
        Step(step_id=f"s{i}", index=i, action_type=kind, content=text) for i, (kind, text) in enumerate(steps)
    )
    return Trace("t", built, goal=goal)


# --- pii: the user's values are read only for a reply that shows a forbidden kind ----------------------------------


def test_a_reply_with_an_allowed_kind_before_a_forbidden_one_still_checks_the_echo() -> None:
    # The reply's first value (an e-mail) is of no forbidden kind and is skipped; the user's values are read at the
    # second (the e-mail, now forbidden): the one the user gave may be echoed, another may not.
    env = Environment(sensitive=SensitiveDataRule(forbid_in_reply=("email",)))
    given = (ActionType.USER, f"Write to {EMAIL} please")
    echoed = _trace(given, (ActionType.RESPONSE, f"Done, {EMAIL} will hear from us."))
    leaked = _trace(given, (ActionType.RESPONSE, f"Done, {EMAIL} and boss@example.org will hear from us."))
    assert sensitive_findings(echoed, env) == []
    (finding,) = sensitive_findings(leaked, env)
    assert finding.rule == "safety.sensitive_in_reply"
    assert finding.evidence["sensitive"]["start"] == len("Done, ") + len(EMAIL) + len(" and ")


def test_a_value_the_goal_gave_counts_as_given_when_read_late() -> None:
    env = Environment(sensitive=SensitiveDataRule(forbid_in_reply=("email",)))
    reply = (ActionType.RESPONSE, f"We wrote to {EMAIL}.")
    assert sensitive_findings(_trace(reply, goal=f"Email {EMAIL} the invoice"), env) == []
    assert [f.rule for f in sensitive_findings(_trace(reply, goal="Email the invoice"), env)] == [
        "safety.sensitive_in_reply"
    ]


# --- redaction: card numbers by their key, only from twelve digits --------------------------------------------------


@pytest.mark.parametrize(
    ("value", "card"),
    [
        ("4929118055230147", True),  # fails the checksum: a card by its key alone
        ("492911805523", True),  # twelve digits: the fewest a card has
        (492911805523, True),  # the same as a JSON integer
        ("49291180552", False),  # eleven: no card, whatever the key
        (49291180552, False),
        ("  4929118055230147  ", True),  # spaces around: still card-shaped
    ],
)
def test_a_card_shaped_value_under_a_card_key_is_a_card_from_twelve_digits(value: Any, card: bool) -> None:
    redacted = Redactor().redact_json({"payment_card": {"number": value}})
    assert isinstance(redacted, dict)
    number = redacted["payment_card"]["number"]
    assert (number == "<CARD_1>") is card


def test_a_card_shaped_value_under_another_key_is_left_to_the_recognizers() -> None:
    redacted = Redactor().redact_json({"library_card": "4929118055230147", "card": CARD, "count": 3, "ok": True})
    # a failed checksum under a key that names no payment card stays; a valid card is found in any text
    assert redacted == {"library_card": "4929118055230147", "card": "<CARD_1>", "count": 3, "ok": True}


# --- loading: a step's error still names the step and the field -----------------------------------------------------


@pytest.mark.parametrize(
    ("step", "field"),
    [
        ({"step_id": "c7", "action_type": "tool_call"}, "steps[0].tool_name"),
        ({"step_id": "c7", "action_type": "response"}, "steps[0].content"),
        ({"step_id": "c7", "action_type": "user", "content": "hi", "latency_ms": "slow"}, "steps[0].latency_ms"),
    ],
)
def test_a_step_error_names_its_step_and_field(step: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_trace({"trace_id": "t", "steps": [step]}, strict=True)
    assert (caught.value.location.trace_id, caught.value.location.step_id) == ("t", "c7")
    assert caught.value.location.field == field


def test_a_well_formed_step_loads() -> None:
    trace = parse_trace({"trace_id": "t", "steps": [{"step_id": "c7", "action_type": "user", "content": "hi"}]})
    assert [(s.step_id, s.content) for s in trace.steps] == [("c7", "hi")]


# --- grounding index: the last key of a leaf's path ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("events[0].start_time", "start_time"),
        ("start_time", "start_time"),
        ("a.b.c", "c"),
        ("items[12]", "items"),
        ("[3]", ""),
        ("", ""),
    ],
)
def test_the_last_key_of_a_path(path: str, key: str) -> None:
    assert _last_key(path) == key


# --- the benchmark's profile ---------------------------------------------------------------------------------------


def test_the_trace_benchmark_prints_its_profile_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    import trace_benchmark

    assert trace_benchmark.main(["--traces", "10", "--profile", "5"]) == 0
    out = capsys.readouterr().out
    for order in ("own time", "time with callees"):
        assert re.search(rf"^profile of a whole pass over 10 other traces \(seed \+ 2\), by {order}:$", out, re.M)
    assert "ncalls  tottime" in out
    with pytest.raises(SystemExit):
        trace_benchmark.main(["--traces", "10", "--profile", "-1"])


# --- secrets: the gate of the key formats, read without lookaheads -------------------------------------------------

_OLD_FORMAT_GATE = re.compile(
    r"://|key|pw|pass|token|secret|xox|(?=[A-Za-z_\-+/=.]*\d)(?=[0-9_\-+/=.]*[A-Za-z])[A-Za-z0-9_\-+/=.]{16,}",
    re.IGNORECASE,
)
"""The one expression ``may_hold_format`` replaces (as it stood before this pass)."""
_GATE_PIECES = [*"aZq09_-+/=. :@\n", "\u0663", "\u212a", "\u017f", "\u0131", "\u0130", "\u00e9", "key", "://", "XOX"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_GATE_PIECES), max_size=60).map("".join))
def test_the_format_gate_lets_through_the_texts_the_expression_did(text: str) -> None:
    assert may_hold_format(text) is bool(_OLD_FORMAT_GATE.search(text))


@pytest.mark.parametrize(
    ("text", "through"),
    [
        ("ghp_abcdefghijklmnop1234", True),  # letters and digits in one run of 16 or more
        ("refund_without_identity-1", True),
        ("refund_without_identity", False),  # no digit
        ("1234567890123456/7890", False),  # no letter
        ("abcdefghijklmnop\u0663", True),  # letters only, then a decimal digit right after the run
        ("abcdefghijklmno1", True),
        ("abcdefghijklmn1", False),  # 15 characters
        ("Your API KEY was rotated", True),  # a keyword
        ("see https://example.com", True),
        ("ORDER_609532 was shipped", False),
    ],
)
def test_the_format_gate_on_examples(text: str, through: bool) -> None:
    assert may_hold_format(text) is through
    assert bool(_OLD_FORMAT_GATE.search(text)) is through


# --- grounding index: a string value added again adds nothing -------------------------------------------------------


def _index() -> ValueIndex:
    return ValueIndex(lambda a, b, name: a == b)


def _where(index: ValueIndex, value: str) -> tuple[str, str] | None:
    found = index.find(value)
    return None if found is None else (found.source, found.method)


def test_a_string_seen_again_keeps_its_first_source() -> None:
    index = _index()
    index.add_json([{"city": "San Jose", "rating": "4.5"}], "step s2 (observation)")
    index.add_json([{"city": "San Jose", "rating": "4.5"}, {"city": "Fresno"}], "step s4 (observation)")
    assert _where(index, "San Jose") == ("step s2 (observation)", "exact")
    assert _where(index, "Fresno") == ("step s4 (observation)", "exact")
    assert _where(index, "city") == ("step s2 (observation)", "exact")  # an object key too
    assert _where(index, "Oakland") is None


def test_a_text_said_before_it_is_a_value_is_still_an_exact_value() -> None:
    # Said first as free text (its words and phrases), then seen as a structured value: the value is exact from
    # the second source, not skipped as a string seen before.
    index = _index()
    index.add_text("Book it at San Jose", "step s0 (user)")
    index.add_json({"city": "Book it at San Jose"}, "step s2 (observation)")
    assert _where(index, "Book it at San Jose") == ("step s2 (observation)", "exact")
