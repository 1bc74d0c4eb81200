"""The latest answer for the object decides whether a precondition counts: a yes that a later no (or "pending")
for the same object took back does not count, a no that a later yes replaced does, and a later failed call or a
check of another object changes nothing. A check called without arguments is about the object its answer names."""

from __future__ import annotations

from typing import Any

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.policy import environment_from_json
from aem_strands.trace.types import ActionType, Step, Trace
from aem_strands.trace.values import ComparatorValues

CTX = TraceContext(ComparatorValues())
ENV = environment_from_json(
    {"rules": {"ordering": [{"tool": "issue_refund", "after": ["check_refund_eligibility"], "per": "order_id"}]}}
)
ASK = {"action_type": ActionType.USER, "content": "Refund order O-1, please."}
REFUND = {"action_type": ActionType.TOOL_CALL, "tool_name": "issue_refund", "arguments": {"order_id": "O-1"},
          "observation": {"status": "issued"}}  # fmt: skip


def check(observation: Any, order: str = "O-1") -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": "check_refund_eligibility",
            "arguments": {"order_id": order}, "observation": observation}  # fmt: skip


def found(*raw: dict[str, Any]) -> list[tuple[str | None, str]]:
    trace = Trace(trace_id="t", steps=tuple(Step(step_id=f"s{i + 1}", index=i, **s) for i, s in enumerate(raw)))
    verdict = check_planning(trace, ENV, CTX)
    assert verdict.passed is not None
    return [(f.step_id, f.rule) for f in verdict.findings]


def test_a_later_no_for_the_same_order_takes_the_yes_back() -> None:
    later_no = check({"eligible": False, "reason": "already refunded"})
    assert found(ASK, check({"eligible": True}), later_no, REFUND) == [("s4", "planning.precondition_said_no")]
    later_pending = check({"order_id": "O-1", "eligibility": "pending_review"})
    assert found(ASK, check({"eligible": True}), later_pending, REFUND) == [("s4", "planning.precondition_pending")]


def test_a_later_yes_replaces_the_no_and_a_failure_or_another_order_changes_nothing() -> None:
    assert found(ASK, check({"eligible": False}), check({"eligible": True}), REFUND) == []
    assert found(ASK, check({"eligible": True}), check({"error": "timeout"}), REFUND) == []
    assert found(ASK, check({"eligible": True}), check({"eligible": False}, "O-2"), REFUND) == []


def test_a_check_without_arguments_is_about_the_object_its_answer_names() -> None:
    def bare(observation: Any) -> dict[str, Any]:
        return {"action_type": ActionType.TOOL_CALL, "tool_name": "check_refund_eligibility", "arguments": {},
                "observation": observation}  # fmt: skip

    other = bare({"order_id": "O-2", "eligible": True})
    assert found(ASK, other, REFUND) == [("s3", "planning.precondition_other_object")]
    assert found(ASK, bare({"order_id": "o-1", "eligible": True}), REFUND) == []
    assert found(ASK, bare({"eligible": True}), REFUND) == []  # nothing names another order: it counts
