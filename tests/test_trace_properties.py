"""Properties of the rule checks of a trace (planning, necessity, tool selection, recovery, safety, cost) on
generated traces: findings name real steps, a pass is exactly "no findings", a trace without tool calls fails
none of planning, necessity and safety, a denied call always vetoes, an order that satisfies the ordering
rules always passes planning, raising budgets never adds a cost finding."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.cost import check_cost
from aem_strands.trace.checks.necessity import check_necessity
from aem_strands.trace.checks.planning import check_planning
from aem_strands.trace.checks.recovery import check_recovery
from aem_strands.trace.checks.safety import check_safety
from aem_strands.trace.checks.tool_selection import check_tool_selection
from aem_strands.trace.types import (
    ActionType,
    Budgets,
    Environment,
    OrderingRule,
    SelectionRule,
    Step,
    StepCost,
    Trace,
    TraceGold,
)

CTX = TraceContext(ExactValues())
CHECKS = (check_planning, check_necessity, check_tool_selection, check_recovery, check_safety, check_cost)
TOOLS = ("get_order", "verify_identity", "check_refund_eligibility", "issue_refund", "cancel_order", "delete_account")
ENV = Environment(
    tools=tools_from_json(
        [{"name": "get_order", "annotations": {"readOnlyHint": True}},
         {"name": "verify_identity", "annotations": {"readOnlyHint": True}},
         {"name": "cancel_order", "annotations": {"destructiveHint": True}}]
    ),
    denied_tools=frozenset({"delete_account"}),
    destructive_tools=frozenset({"issue_refund"}),
    ordering=(OrderingRule("issue_refund", ("verify_identity", "check_refund_eligibility")),),
    selection=(SelectionRule("refund", ("verify_identity", "issue_refund"), ("cancel_order",)),),
    budgets=Budgets(max_steps=8, max_tool_calls=5, max_latency_ms=3000, max_tokens=500, max_cost_usd=0.01),
)  # fmt: skip

USER_TEXTS = ("Where is my order 1?", "Please cancel order 1", "Yes, go ahead.", "No, wait.", "My email is a@b.co",
              "I want a refund for order 2", "ok")  # fmt: skip
REPLIES = ("Shall I cancel order 1?", "Done!", "Your refund was issued.", "What is your order number?",
           "Sorry, the system timed out.", "Order 1 has shipped.", "Would you like me to refund order 2?")  # fmt: skip
QUIET_REPLIES = ("Hello there.", "Your order has shipped.", "Thanks for waiting.", "Done!", "Order 1 is on its way.")
"""Replies that ask nothing and hold no sensitive value."""
OBSERVATIONS = ({"ok": True}, {"status": "timeout"}, {"error": "backend down"}, None, "Error: unreachable", {"n": 3})

tool_calls = st.builds(
    lambda tool, order, observation, error, latency, tokens: {
        "action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": {"order_id": order},
        "observation": observation, "error": error, "latency_ms": latency,
        "cost": None if tokens is None else StepCost(tokens, 10, 0.001),
    },
    st.sampled_from(TOOLS), st.sampled_from(["1", "2"]), st.sampled_from(OBSERVATIONS),
    st.sampled_from([None, None, "timeout"]), st.one_of(st.none(), st.floats(0, 2000)),
    st.one_of(st.none(), st.integers(0, 300)),
)  # fmt: skip
users = st.builds(lambda text: {"action_type": ActionType.USER, "content": text}, st.sampled_from(USER_TEXTS))
replies = st.builds(lambda text: {"action_type": ActionType.RESPONSE, "content": text}, st.sampled_from(REPLIES))
others = st.sampled_from([{"action_type": ActionType.STATE_UPDATE, "state_after": {"x": 1}},
                          {"action_type": ActionType.HANDOFF, "tool_name": "human"}])  # fmt: skip
any_step = st.one_of(tool_calls, users, replies, others)


def build(steps: list[dict[str, Any]], **fields: Any) -> Trace:
    return Trace("t", tuple(Step(f"s{i + 1}", i, **s) for i, s in enumerate(steps)), **fields)


traces = st.builds(
    lambda steps, goal, gold: build(steps, goal=goal, gold=gold),
    st.lists(any_step, max_size=10),
    st.sampled_from([None, "refund order 2", "where is order 1"]),
    st.one_of(st.none(), st.builds(TraceGold, st.just(("get_order", "issue_refund")))),
)


@settings(max_examples=150)
@given(traces)
def test_findings_name_real_steps_and_a_pass_is_no_findings(trace: Trace) -> None:
    for check in CHECKS:
        verdict = check(trace, ENV, CTX)
        assert verdict.passed is None or verdict.passed == (not verdict.findings)
        if verdict.passed is None:
            assert verdict.reason
            assert not verdict.findings
        for finding in verdict.findings:
            assert finding.dimension is verdict.dimension
            assert finding.rule.startswith(f"{verdict.dimension.value}.")
            assert finding.message
            if finding.step_id is not None:
                assert finding.step_index is not None
                assert trace.steps[finding.step_index].step_id == finding.step_id


quiet_replies = st.builds(lambda t: {"action_type": ActionType.RESPONSE, "content": t}, st.sampled_from(QUIET_REPLIES))
quiet = st.lists(st.one_of(users, quiet_replies), max_size=8)


@settings(max_examples=100)
@given(quiet)
def test_a_trace_without_tool_calls_fails_no_planning_necessity_or_safety(steps: list[dict[str, Any]]) -> None:
    trace = build(steps)
    for check in (check_planning, check_necessity, check_safety):
        assert check(trace, ENV, CTX).passed is not False, check.__name__
    assert check_recovery(trace, ENV, CTX).passed is None  # nothing can have failed


@settings(max_examples=100)
@given(st.lists(any_step, max_size=8), st.data())
def test_a_denied_call_always_vetoes(steps: list[dict[str, Any]], data: st.DataObject) -> None:
    at = data.draw(st.integers(0, len(steps)))
    denied = {"action_type": ActionType.TOOL_CALL, "tool_name": "delete_account", "arguments": {"customer_id": "c"}}
    trace = build([*steps[:at], denied, *steps[at:]])
    verdict = check_safety(trace, ENV, CTX)
    assert verdict.passed is False
    assert verdict.gate.value == "veto"
    assert (f"s{at + 1}", "safety.denied_tool") in [(f.step_id, f.rule) for f in verdict.findings]


@st.composite
def ordered_plans(draw: st.DrawFn) -> tuple[Environment, list[str]]:
    """Ordering rules over t0..tn (each tool's preconditions among the tools before it) and a random order of
    calls that satisfies them (each call placed once all its preconditions are placed)."""
    n = draw(st.integers(1, 7))
    names = [f"t{i}" for i in range(n)]
    after = {name: tuple(draw(st.sets(st.sampled_from(names[:i])))) if i else () for i, name in enumerate(names)}
    rules = tuple(OrderingRule(name, pre) for name, pre in after.items() if pre)
    order: list[str] = []
    while len(order) < n:
        ready = sorted(m for m in names if m not in order and all(p in order for p in after[m]))
        order.append(draw(st.sampled_from(ready)))
    return Environment(ordering=rules), order


@settings(max_examples=150)
@given(ordered_plans())
def test_any_order_satisfying_the_rules_passes_planning(plan: tuple[Environment, list[str]]) -> None:
    env, order = plan
    trace = build(
        [{"action_type": ActionType.TOOL_CALL, "tool_name": name, "observation": {"ok": True}} for name in order]
    )
    verdict = check_planning(trace, env, CTX)
    assert verdict.passed is (True if env.ordering else None)
    for rule in env.ordering:
        # The same calls with the ruled tool moved first: it now comes before its preconditions.
        moved = build([{"action_type": ActionType.TOOL_CALL, "tool_name": name, "observation": {"ok": True}}
                       for name in [rule.tool, *(m for m in order if m != rule.tool)]])  # fmt: skip
        assert ("s1", "planning.order") in [(f.step_id, f.rule) for f in check_planning(moved, env, CTX).findings]


@settings(max_examples=100)
@given(traces, st.integers(0, 5), st.floats(0, 5000), st.integers(0, 1000))
def test_raising_budgets_never_adds_a_cost_finding(trace: Trace, steps: int, latency: float, tokens: int) -> None:
    # ENV's budgets are max_steps 8, max_latency_ms 3000, max_tokens 500
    high = replace(ENV.budgets, max_steps=8 + steps, max_latency_ms=3000 + latency, max_tokens=500 + tokens)
    before = {(f.step_id, f.rule) for f in check_cost(trace, ENV, CTX).findings}
    after = {(f.step_id, f.rule) for f in check_cost(trace, replace(ENV, budgets=high), CTX).findings}
    assert after <= before
