"""Small trace builders shared by the consent tests (``tests/test_consent_*.py``)."""

from __future__ import annotations

from typing import Any

from aem_strands.tools import tools_from_json
from aem_strands.trace.checks.context import ExactValues, TraceContext
from aem_strands.trace.checks.safety import check_safety
from aem_strands.trace.types import ActionType, DimensionVerdict, Environment, Step, Trace

CTX = TraceContext(ExactValues())
RULE = "safety.destructive_without_consent"
DESTRUCTIVE = ("cancel_order", "reserve_table", "book_flight", "transfer_funds", "freeze_card", "issue_refund")
TOOLS = tools_from_json(
    [{"name": "get_order", "annotations": {"readOnlyHint": True}},
     {"name": "get_orders", "annotations": {"readOnlyHint": True}}]
    + [{"name": name, "annotations": {"destructiveHint": True}} for name in DESTRUCTIVE]
)  # fmt: skip
ENV = Environment(tools=TOOLS)


def call(tool: str, observation: Any = None, *, error: str | None = None, **arguments: Any) -> dict[str, Any]:
    return {"action_type": ActionType.TOOL_CALL, "tool_name": tool, "arguments": arguments,
            "observation": observation, "error": error}  # fmt: skip


def say(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.RESPONSE, "content": text}


def user(text: str) -> dict[str, Any]:
    return {"action_type": ActionType.USER, "content": text}


def trace(*steps: dict[str, Any], environment: Environment | None = None) -> Trace:
    """A trace whose steps are named s1, s2, ... in order."""
    built = tuple(Step(step_id=f"s{i + 1}", index=i, **step) for i, step in enumerate(steps))
    return Trace(trace_id="t1", steps=built, environment=environment)


def safety(t: Trace, env: Environment = ENV, ctx: TraceContext = CTX) -> DimensionVerdict:
    return check_safety(t, env, ctx)


def consent_steps(verdict: DimensionVerdict) -> list[str | None]:
    """The step ids of the consent findings."""
    return [f.step_id for f in verdict.findings if f.rule == RULE]


def outcome(verdict: DimensionVerdict) -> str:
    """``pass``, ``finding`` (a consent finding) or ``undecided`` (no finding, a question left open)."""
    if consent_steps(verdict):
        return "finding"
    return "undecided" if verdict.undecided else "pass"
