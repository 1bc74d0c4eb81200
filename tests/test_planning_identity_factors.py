"""An identity check counts only when its factors (a name, a zip, a date of birth: every argument not named as an
id) are the user's: a zip read off the order beside the name the user gave proves nothing, nor does the order's zip
where the user gave another. An id looked up from what the user gave (``user_id``) may come from a tool."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import ActionType, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
ENV = environment_from_json({"rules": {"ordering": [{"tool": "issue_refund", "after": ["verify_identity"]}]}})
ORDER = {"order_id": "O-1", "customer": {"name": "Ana Diaz", "zip": "94110", "user_id": "u-7"}}


def call(tool: str, observation: Any, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments, "observation": observation}


def found(ask: str, *calls: dict[str, Any]) -> list[tuple[str | None, str]]:
    raw = [{"action_type": ActionType.USER, "content": ask}, *calls,
           call("issue_refund", {"status": "issued"}, order_id="O-1")]  # fmt: skip
    trace = Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))
    verdict = check_planning(trace, ENV, CTX)
    assert verdict.passed is not None
    return [(f.step_id, f.rule) for f in verdict.findings]


def test_factors_the_user_gave_count() -> None:
    verify = call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110")
    assert found("I'm Ana Diaz, zip 94110: refund O-1.", call("get_order", ORDER, order_id="O-1"), verify) == []


def test_a_zip_read_off_the_order_beside_the_users_name_does_not_count() -> None:
    verify = call("verify_identity", {"verified": True}, name="Ana Diaz", zip="94110")
    lookup = call("get_order", ORDER, order_id="O-1")
    assert found("I'm Ana Diaz: refund O-1.", lookup, verify) == [("s4", "planning.identity_not_from_user")]
    other_zip = found("I'm Ana Diaz, zip 94111: refund O-1.", lookup, verify)
    assert other_zip == [("s4", "planning.identity_not_from_user")]


def test_an_id_looked_up_from_what_the_user_gave_may_come_from_a_tool() -> None:
    lookup = call("find_user_id_by_email", {"user_id": "u-7"}, email="ana@example.com")
    verify = call("verify_identity", {"verified": True}, user_id="u-7", date_of_birth="1990-04-12")
    ask = "I'm ana@example.com, born April 12, 1990: refund O-1."
    assert found(ask, lookup, verify) == []
    # the same id, with the date of birth read off the order: it does not count
    order = {"order_id": "O-1", "customer": {"user_id": "u-7", "date_of_birth": "1990-04-12"}}
    read_off = found("I'm ana@example.com: refund O-1.", lookup, call("get_order", order, order_id="O-1"), verify)
    assert read_off == [("s5", "planning.identity_not_from_user")]
