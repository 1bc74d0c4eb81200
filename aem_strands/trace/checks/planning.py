"""Planning: the ordering rules of the environment (``issue_refund`` only after ``verify_identity`` and
``check_refund_eligibility``). A call to a rule's tool before each of its preconditions has *succeeded*
earlier fails with ``planning.order``; a precondition call that failed (``steps.call_failed``) does not
count. Not applicable when no rule names a called tool (as the ruled tool or as a precondition)."""

from __future__ import annotations

from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import call_failed, step_fragment
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


def _finding(step: Step, missing: list[str], after: tuple[str, ...], failed: dict[str, Step]) -> Finding:
    tried = [f"{name} failed at step {failed[name].step_id!r}" for name in missing if name in failed]
    message = (
        f"step {step.step_id!r}: {step.tool_name} was called before {', '.join(missing)} succeeded"
        f"{' (' + '; '.join(tried) + ')' if tried else ''}; the policy allows {step.tool_name} only after "
        f"{', '.join(after)}: verify those first"
    )
    evidence = [step_fragment(step), *(step_fragment(failed[name]) for name in missing if name in failed)]
    return Finding(Dimension.PLANNING, "planning.order", message, step.step_id, step.index, evidence)


def check_planning(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """One ``planning.order`` finding per call made before its preconditions succeeded (see the module
    docstring)."""
    calls = trace.tool_calls()
    called = {s.tool_name for s in calls}
    rules = [r for r in env.ordering if r.tool in called or called.intersection(r.after)]
    if not rules:
        reason = "no ordering rules" if not env.ordering else "no ordering rule names a called tool"
        return not_applicable(Dimension.PLANNING, reason)
    succeeded: set[str] = set()
    failed: dict[str, Step] = {}
    findings: list[Finding] = []
    for step in calls:
        name = step.tool_name or ""
        for rule in rules:
            if rule.tool == name:
                missing = [a for a in rule.after if a not in succeeded]
                if missing:
                    findings.append(_finding(step, missing, rule.after, failed))
        if call_failed(step):
            failed.setdefault(name, step)
        else:
            succeeded.add(name)
    described = "; ".join(f"{r.tool} after {', '.join(r.after)}" for r in rules)
    return verdict_from(Dimension.PLANNING, findings, f"{len(rules)} ordering rule(s): {described}")
