"""Cost, a soft gate: what the trace spent against ``env.budgets``. Each finding is a whole-trace finding
(``step_id`` is ``None``) whose evidence holds the figure and the budget, except where one step shows it.

- ``cost.steps``: more steps than ``max_steps``, or more tool calls than ``max_tool_calls``.
- ``cost.identical_calls``: one call (tool and arguments) made more often than ``max_identical_calls`` plus
  ``max_retries`` allow, whatever the reason (repeats and retries together: the cost view of what
  ``necessity`` and ``recovery`` judge by intent); at the first call beyond that.
- ``cost.latency``: the sum of the steps' ``latency_ms`` (or ``metrics.latency_ms`` when no step has one) above
  ``max_latency_ms``.
- ``cost.tokens``: the sum of the steps' tokens (``StepCost.tokens``), or the trace's ``metrics`` total when no
  step records any (``total_tokens``/``tokens``, or ``input_tokens`` + ``output_tokens``), above ``max_tokens``.
- ``cost.usd``: the sum of the steps' ``usd`` (or ``metrics.cost_usd``/``usd``) above ``max_cost_usd``.

A budget whose figure the trace does not record is not checked, and ``checked`` says so; the dimension is not
applicable when no budget could be checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import call_key, step_fragment
from aem_strands.trace.types import (
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    Step,
    Trace,
    not_applicable,
    verdict_from,
)
from aem_strands.types import JsonValue

LATENCY_METRICS = ("latency_ms", "total_latency_ms")
TOKEN_METRICS = ("total_tokens", "tokens")
USD_METRICS = ("cost_usd", "total_cost_usd", "usd")


@dataclass(frozen=True)
class Spend:
    """What a trace spent, ``None`` where it records nothing."""

    steps: int
    tool_calls: int
    latency_ms: float | None
    tokens: int | None
    usd: float | None


def _number(value: JsonValue) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _metric(trace: Trace, names: Iterable[str]) -> float | None:
    return next((n for n in (_number(trace.metrics.get(name)) for name in names) if n is not None), None)


def _total(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) if present else None


def spend(trace: Trace) -> Spend:
    """The trace's spending: step figures summed, the trace's ``metrics`` where no step records one."""
    latency = _total(s.latency_ms for s in trace.steps)
    tokens = _total(s.cost.tokens if s.cost else None for s in trace.steps)
    usd = _total(s.cost.usd if s.cost else None for s in trace.steps)
    if tokens is None:
        tokens = _metric(trace, TOKEN_METRICS)
        parts = [_number(trace.metrics.get(n)) for n in ("input_tokens", "output_tokens")]
        if tokens is None and any(p is not None for p in parts):
            tokens = sum(p or 0 for p in parts)
    return Spend(
        steps=len(trace.steps),
        tool_calls=len(trace.tool_calls()),
        latency_ms=latency if latency is not None else _metric(trace, LATENCY_METRICS),
        tokens=int(tokens) if tokens is not None else None,
        usd=usd if usd is not None else _metric(trace, USD_METRICS),
    )


def _over(rule: str, unit: str, figure: float, budget: float, field: str) -> Finding:
    message = f"the trace spent {figure:g} {unit}, over the budget of {budget:g} ({field})"
    return Finding(Dimension.COST, rule, message, None, None, {field: budget, "measured": figure})


def _identical(trace: Trace, allowed: int) -> list[Finding]:
    seen: dict[str, list[Step]] = {}
    findings = []
    for step in trace.tool_calls():
        row = seen.setdefault(call_key(step), [])
        row.append(step)
        if len(row) == allowed + 1:
            message = (
                f"step {step.step_id!r}: {step.tool_name} with the same arguments is made for the {len(row)}th time "
                f"(first at step {row[0].step_id!r}); the budget allows {allowed} (max_identical_calls + max_retries)"
            )
            evidence: JsonValue = [step_fragment(row[0]), step_fragment(step)]
            findings.append(
                Finding(Dimension.COST, "cost.identical_calls", message, step.step_id, step.index, evidence)
            )
    return findings


def check_cost(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Spending against the budgets (see the module docstring)."""
    budgets, spent = env.budgets, spend(trace)
    findings: list[Finding] = []
    checked: list[str] = []
    unrecorded: list[str] = []
    counts = (
        ("cost.steps", "steps", spent.steps, budgets.max_steps, "max_steps"),
        ("cost.steps", "tool calls", spent.tool_calls, budgets.max_tool_calls, "max_tool_calls"),
        ("cost.latency", "ms of latency", spent.latency_ms, budgets.max_latency_ms, "max_latency_ms"),
        ("cost.tokens", "tokens", spent.tokens, budgets.max_tokens, "max_tokens"),
        ("cost.usd", "USD", spent.usd, budgets.max_cost_usd, "max_cost_usd"),
    )
    for rule, unit, figure, budget, field in counts:
        if budget is None:
            continue
        if figure is None:
            unrecorded.append(field)
            continue
        checked.append(f"{field} {figure:g}/{budget:g}")
        if figure > budget:
            findings.append(_over(rule, unit, figure, budget, field))
    if budgets.max_identical_calls is not None and spent.tool_calls:
        allowed = budgets.max_identical_calls + (budgets.max_retries or 0)
        checked.append(f"identical calls at most {allowed}")
        findings += _identical(trace, allowed)
    if not checked:
        reason = "no budget set" if not unrecorded else f"the trace records nothing for {', '.join(unrecorded)}"
        return not_applicable(Dimension.COST, reason)
    if unrecorded:
        checked.append(f"not recorded: {', '.join(unrecorded)}")
    return verdict_from(Dimension.COST, findings, "; ".join(checked))
