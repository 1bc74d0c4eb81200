"""The rule checks of a trace (planning, necessity, tool selection, recovery, safety, cost) on written traces
of both outcomes: the stories of issue 20 (refund without identity check, cancel without consent, looped
lookup, timeout hidden behind "done", the clean refund-status trace)."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.types import (
    ActionType,
    DimensionVerdict,
    Environment,
    OrderingRule,
    Step,
    Trace,
)

CTX = TraceContext(ExactValues())


def call(tool: str, observation: Any = None, *, error: str | None = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments,
            "observation": observation, "error": error}  # fmt: skip


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def trace(*steps: dict[str, Any], **fields: Any) -> Trace:
    """A trace whose steps are named s1, s2, ... in order."""
    built = tuple(Step(step_id=f"s{i + 1}", index=i, **step) for i, step in enumerate(steps))
    return Trace(trace_id="t1", steps=built, **fields)


def rules(verdict: DimensionVerdict) -> list[tuple[str | None, str]]:
    """(step_id, rule) of each finding, in order."""
    return [(f.step_id, f.rule) for f in verdict.findings]


REFUND_ORDER = OrderingRule("issue_refund", ("verify_identity", "check_refund_eligibility"))
REFUND_ENV = Environment(ordering=(REFUND_ORDER,))


# --- planning -----------------------------------------------------------------------------------------------


def test_refund_without_identity_check_fails_planning_at_the_refund() -> None:
    t = trace(
        user("I want a refund for order 123"),
        call("check_refund_eligibility", {"eligible": True}, order_id="123"),
        call("issue_refund", {"status": "issued"}, order_id="123"),
        say("Your refund has been issued."),
    )
    verdict = check_planning(t, REFUND_ENV, CTX)
    assert verdict.passed is False
    assert rules(verdict) == [("s3", "planning.order")]
    finding = verdict.findings[0]
    assert finding.step_index == 2
    assert "verify_identity" in finding.message
    assert "check_refund_eligibility" not in finding.message.split("succeeded")[0]  # that one did succeed
    assert finding.evidence == [
        {"step_id": "s3", "index": 2, "action_type": "tool_call", "tool_name": "issue_refund",
         "arguments": {"order_id": "123"}, "observation": {"status": "issued"}}
    ]  # fmt: skip


def test_refund_after_identity_and_eligibility_passes_planning() -> None:
    t = trace(
        user("I want a refund for order 123"),
        call("verify_identity", {"verified": True}, customer_id="c9"),
        call("check_refund_eligibility", {"eligible": True}, order_id="123"),
        call("issue_refund", {"status": "issued"}, order_id="123"),
        say("Your refund has been issued."),
    )
    verdict = check_planning(t, REFUND_ENV, CTX)
    assert verdict.passed is True
    assert "issue_refund after verify_identity, check_refund_eligibility" in verdict.checked


def test_a_failed_precondition_does_not_count() -> None:
    t = trace(
        call("verify_identity", error="timeout after 30s", customer_id="c9"),
        call("check_refund_eligibility", {"eligible": True}, order_id="123"),
        call("issue_refund", {"status": "issued"}, order_id="123"),
    )
    verdict = check_planning(t, REFUND_ENV, CTX)
    assert rules(verdict) == [("s3", "planning.order")]
    assert "verify_identity failed at step 's1'" in verdict.findings[0].message
    assert [e["step_id"] for e in verdict.findings[0].evidence] == ["s3", "s1"]  # type: ignore[index,union-attr]


def test_an_observation_reporting_an_error_is_a_failed_precondition() -> None:
    t = trace(
        call("verify_identity", {"status": "timeout"}, customer_id="c9"),
        call("check_refund_eligibility", {"eligible": True}, order_id="123"),
        call("issue_refund", {"status": "issued"}, order_id="123"),
    )
    assert rules(check_planning(t, REFUND_ENV, CTX)) == [("s3", "planning.order")]


def test_planning_is_not_applicable_when_no_rule_names_a_called_tool() -> None:
    t = trace(call("get_weather", {"temp": 20}, city="Oslo"), say("It is 20 degrees."))
    verdict = check_planning(t, REFUND_ENV, CTX)
    assert verdict.passed is None
    assert verdict.reason == "no ordering rule names a called tool"
    assert check_planning(t, Environment(), CTX).reason == "no ordering rules"


def test_a_called_precondition_alone_makes_planning_applicable_and_passing() -> None:
    t = trace(call("verify_identity", {"verified": True}, customer_id="c9"))
    assert check_planning(t, REFUND_ENV, CTX).passed is True
