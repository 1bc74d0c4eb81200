"""Issue 28 (first critical failure step) and issue 29 (each sentence of the report says what this trace did).

Traces run through ``evaluate_trace`` (the real checks), so the findings are the ones a user sees.
"""

from __future__ import annotations

from typing import Any

from aem_strands.options import EvalOptions
from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import parse_trace
from aem_strands.trace.types import TraceResult, TraceStatus

ASK = {"step_id": "s1", "action_type": "user", "content": "Where is my order ORDER_100?"}
LOOKUP = {"step_id": "s2", "action_type": "tool_call", "tool_name": "get_order", "arguments": {"order_id": "ORDER_100"},
          "observation": {"order_id": "ORDER_100", "status": "shipped"}}  # fmt: skip
CARD = "4111 1111 1111 1111"


def judge(raw: dict[str, Any]) -> TraceResult:
    return evaluate_trace(parse_trace(raw), EvalOptions.build(scorer="exact"))


def _refund(*calls: dict[str, Any], reply: str, **environment: Any) -> dict[str, Any]:
    steps = [{"step_id": "s1", "action_type": "user", "content": "Order ORDER_222 never arrived, please refund it."}]
    for number, call in enumerate(calls, start=2):
        steps.append({"step_id": f"s{number}", "action_type": "tool_call", "tool_name": "check_refund_eligibility",
                      "arguments": {"order_id": "ORDER_222"}, **call})  # fmt: skip
    steps.append({"step_id": f"s{len(steps) + 1}", "action_type": "response", "content": reply})
    return {"trace_id": "refund", "goal": "Refund order ORDER_222", "steps": steps, "environment": environment}


def test_a_reply_only_failure_names_the_final_reply() -> None:
    gives = {"step_id": "s1", "action_type": "user", "content": f"My card is {CARD}, is it blocked?"}
    leak = judge({"trace_id": "leak", "steps": [gives], "final_response": f"Your card {CARD} is fine."})
    assert leak.status is TraceStatus.FAIL
    assert leak.diagnosis.first_critical_failure_step == "final_response"  # before: None ("trace_level")
    assert leak.diagnosis.critical_rule.startswith("final_reply")
    assert leak.diagnosis.root_cause_hypothesis.startswith("The final reply is where it went wrong")


def test_a_reply_step_that_fails_is_named_by_its_step() -> None:
    reply = {"step_id": "r1", "action_type": "response", "content": f"Your card {CARD} is fine."}
    result = judge({"trace_id": "leak", "steps": [{"step_id": "s1", "action_type": "user",
                    "content": f"My card is {CARD}, is it blocked?"}, reply]})  # fmt: skip
    assert result.diagnosis.first_critical_failure_step == "r1"


def test_a_clean_reply_names_no_step() -> None:
    result = judge({"trace_id": "ok", "steps": [ASK, LOOKUP], "final_response": "Order ORDER_100 has shipped."})
    assert result.status is TraceStatus.PASS
    assert result.diagnosis.first_critical_failure_step is None
    assert result.diagnosis.root_cause_hypothesis == ""


def test_a_passing_trace_over_its_latency_budget_says_it_passes() -> None:
    slow = {**LOOKUP, "latency_ms": 5000}
    said = {"step_id": "s3", "action_type": "response", "content": "Order ORDER_100 has shipped."}
    raw = {"trace_id": "slow", "steps": [ASK, slow, said], "environment": {"budgets": {"max_latency_ms": 1000}}}
    result = judge(raw)
    assert result.status is TraceStatus.PASS
    hypothesis = result.diagnosis.root_cause_hypothesis
    assert hypothesis.startswith("The trace passes every check that counts; it only goes over a budget")
    assert "went wrong" not in hypothesis  # before: "The trace is where it first went wrong"
    assert "5000 ms" in hypothesis  # 5000 ms of latency against a budget of 1000


def test_an_honest_report_after_endless_retries_is_not_called_going_on_as_if_it_worked() -> None:
    timeout = {"error": "timeout"}
    result = judge(_refund(timeout, timeout, timeout, reply="Sorry, nothing has been refunded yet: the system is down.",
                           budgets={"max_retries": 1}))  # fmt: skip
    assert result.status is TraceStatus.FAIL
    assert result.diagnosis.first_critical_failure_step == "s4"  # the retry past the budget: the agent's failure
    hypothesis = result.diagnosis.root_cause_hypothesis
    assert "as if it had worked" not in hypothesis
    assert "past its retry budget (until step 's4')" in hypothesis  # s2 failed, s3 is the one retry allowed


def test_success_reported_after_an_error_is_going_on_as_if_it_worked() -> None:
    result = judge(_refund({"error": "timeout"}, reply="Done! Your refund for order ORDER_222 has been processed."))
    assert result.status is TraceStatus.FAIL
    assert result.diagnosis.first_critical_failure_step == "s3"  # the reply, not the call that timed out
    assert "reported success anyway at step 's3'" in result.diagnosis.root_cause_hypothesis
    assert "instead of going on as if it had worked" in result.diagnosis.root_cause_hypothesis
