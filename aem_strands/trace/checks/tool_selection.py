"""Tool selection: the right tools for the goal.

- With gold (``trace.gold.expected_tools``): each expected tool never called is ``tool_selection.missing_tool``
  (a whole-trace finding: no step to name), each tool called but not expected is
  ``tool_selection.unexpected_tool`` at its first call. A read-only tool (catalog ``readOnlyHint``) the gold
  does not list is tolerated, and ``checked`` says so: looking something up is not a wrong choice.
- Without gold: the environment's selection rules whose ``goal_pattern`` matches ``trace.goal``
  (case-insensitive regular expression search): a call to a ``forbidden`` tool is
  ``tool_selection.forbidden_tool``, a call to a tool outside ``allowed`` (when the rule lists them) is
  ``tool_selection.unexpected_tool``; each at the tool's first call.
- Not applicable with neither gold nor a matching rule.
"""

from __future__ import annotations

import re

from aem_strands.errors import ConfigError
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.types import (
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    SelectionRule,
    Step,
    Trace,
    not_applicable,
    verdict_from,
)


def _first_calls(trace: Trace) -> dict[str, Step]:
    first: dict[str, Step] = {}
    for step in trace.tool_calls():
        first.setdefault(step.tool_name or "", step)
    return first


def _at(step: Step, rule: str, message: str) -> Finding:
    return Finding(Dimension.TOOL_SELECTION, rule, message, step.step_id, step.index, [step_fragment(step)])


def _against_gold(trace: Trace, env: Environment, expected: tuple[str, ...]) -> DimensionVerdict:
    first = _first_calls(trace)
    read_only = env.tools.read_only_names()
    findings = [
        Finding(Dimension.TOOL_SELECTION, "tool_selection.missing_tool",
                f"{name} was expected (gold: {', '.join(expected)}) but never called", None, None,
                {"expected_tools": list(expected), "called_tools": list(first)})
        for name in dict.fromkeys(expected) if name not in first
    ]  # fmt: skip
    tolerated = []
    for name, step in first.items():
        if name in expected:
            continue
        if name in read_only:
            tolerated.append(name)
            continue
        message = (
            f"step {step.step_id!r}: {name} was called but the gold expects only {', '.join(expected) or 'no tool'}"
        )
        findings.append(_at(step, "tool_selection.unexpected_tool", message))
    findings.sort(key=lambda f: -1 if f.step_index is None else f.step_index)
    checked = f"called {', '.join(first) or 'no tool'} against the gold's {', '.join(expected) or 'no tool'}"
    if tolerated:
        checked += f"; read-only tools tolerated though not expected: {', '.join(tolerated)}"
    return verdict_from(Dimension.TOOL_SELECTION, findings, checked)


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
            if name in rule.forbidden:
                message = f"step {step.step_id!r}: {name} is forbidden for goals matching {rule.goal_pattern!r}"
                findings.append(_at(step, "tool_selection.forbidden_tool", message))
            elif rule.allowed is not None and name not in rule.allowed:
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
    if trace.gold is not None and trace.gold.expected_tools is not None:
        return _against_gold(trace, env, trace.gold.expected_tools)
    goal = trace.goal or ""
    rules = [r for r in env.selection if goal and _matches(r, goal)]
    if rules:
        return _against_rules(trace, rules)
    if not env.selection:
        return not_applicable(Dimension.TOOL_SELECTION, "no gold tools and no selection rules")
    return not_applicable(Dimension.TOOL_SELECTION, "no gold tools and no selection rule matches the goal")
