"""Tool selection: the right tools for the goal.

- With gold (``trace.gold.calls()``): the calls are judged against the expected calls by ``score``'s own engine
  (``aem_strands.trace.checks.gold_calls``: alignment, typed equivalence of the expected arguments,
  ``compare_args``, failed calls, side effects, read-only tolerance both ways): ``tool_selection.missing_tool``
  (no step), ``tool_selection.unexpected_tool``, ``tool_selection.wrong_arguments`` and
  ``tool_selection.call_failed`` at the call, each message with ``score``'s reason; ``checked`` names what was
  tolerated. A value pair only a semantic scorer could settle, with none in the run, is undecided.
- Without gold: the environment's selection rules whose ``goal_pattern`` matches ``trace.goal``
  (case-insensitive regular expression search): a call to a ``forbidden`` tool is
  ``tool_selection.forbidden_tool``, a call to a tool outside ``allowed`` (when the rule lists them) is
  ``tool_selection.unexpected_tool``; each at the tool's first call. Tool names compare as the policy engine sees
  them (``trace.names``: ``functions.Delete_Account`` is a forbidden ``delete_account``).
- Not applicable with neither gold nor a matching rule.
"""

from __future__ import annotations

import re
from dataclasses import replace

from aem_strands.errors import ConfigError
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.gold_calls import judge_gold_calls
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.names import in_names
from aem_strands.trace.types import (
    Dimension,
    DimensionVerdict,
    Environment,
    ExpectedCall,
    Finding,
    SelectionRule,
    Step,
    Trace,
    not_applicable,
    verdict_from,
)


def _first_calls(trace: Trace) -> dict[str, Step]:
    """Each tool's first call, keyed by the name it was first called by (every spelling of a name is one tool)."""
    first: dict[str, Step] = {}
    for step in trace.tool_calls():
        name = step.tool_name or ""
        if in_names(name, first) is None:
            first[name] = step
    return first


def _at(step: Step, rule: str, message: str) -> Finding:
    return Finding(Dimension.TOOL_SELECTION, rule, message, step.step_id, step.index, [step_fragment(step)])


def _against_gold(
    trace: Trace, env: Environment, ctx: TraceContext, calls: tuple[ExpectedCall, ...]
) -> DimensionVerdict:
    judged = judge_gold_calls(trace, env, ctx, calls)
    verdict = verdict_from(Dimension.TOOL_SELECTION, judged.findings, judged.checked)
    return replace(verdict, undecided=judged.undecided) if judged.undecided else verdict


def _matches(rule: SelectionRule, goal: str) -> bool:
    try:
        return re.search(rule.goal_pattern, goal, re.IGNORECASE) is not None
    except re.error as error:
        raise ConfigError(
            f"tool_selection rule: goal_pattern {rule.goal_pattern!r} is no regular expression: {error}"
        ) from None


def _against_rules(trace: Trace, rules: list[SelectionRule]) -> DimensionVerdict:
    first = _first_calls(trace)
    findings = []
    for name, step in first.items():
        for rule in rules:
            if in_names(name, rule.forbidden) is not None:
                message = f"step {step.step_id!r}: {name} is forbidden for goals matching {rule.goal_pattern!r}"
                findings.append(_at(step, "tool_selection.forbidden_tool", message))
            elif rule.allowed is not None and in_names(name, rule.allowed) is None:
                message = (
                    f"step {step.step_id!r}: {name} is not among the tools allowed for goals matching "
                    f"{rule.goal_pattern!r} ({', '.join(rule.allowed) or 'none'})"
                )
                findings.append(_at(step, "tool_selection.unexpected_tool", message))
    patterns = ", ".join(repr(r.goal_pattern) for r in rules)
    return verdict_from(
        Dimension.TOOL_SELECTION, findings, f"called {', '.join(first) or 'no tool'} against rules {patterns}"
    )


def check_tool_selection(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Expected tools with gold, selection rules without (see the module docstring)."""
    calls = trace.gold.calls() if trace.gold is not None else None
    if calls is not None:
        return _against_gold(trace, env, ctx, calls)
    goal = trace.goal or ""
    rules = [r for r in env.selection if goal and _matches(r, goal)]
    if rules:
        return _against_rules(trace, rules)
    if not env.selection:
        return not_applicable(Dimension.TOOL_SELECTION, "no gold tools and no selection rules")
    return not_applicable(Dimension.TOOL_SELECTION, "no gold tools and no selection rule matches the goal")
